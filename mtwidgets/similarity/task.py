"""The sentence similarity (relations MR1.1-MR7.1) task of the Chinese NLP paper.

Declared with its two sibling text tasks in :mod:`mtwidgets.text.tasks`, where their shared
inputs, relations, models and command-line parts live; this module names it for the
``mtwidgets.tasks`` entry point.
"""

from __future__ import annotations

from ..text.tasks import SIMILARITY as TASK

__all__ = ["TASK"]
