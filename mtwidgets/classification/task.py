"""The text classification (news topic, sentiment; relations MR1.3-MR7.3) task of the Chinese NLP paper.

Declared with its two sibling text tasks in :mod:`mtwidgets.text.tasks`, where their shared
inputs, relations, models and command-line parts live; this module names it for the
``mtwidgets.tasks`` entry point.
"""

from __future__ import annotations

from ..text.tasks import CLASSIFICATION as TASK

__all__ = ["TASK"]
