"""The text summarization (relations MR1.2-MR7.2) task of the Chinese NLP paper.

Declared with its two sibling text tasks in :mod:`mtwidgets.text.tasks`, where their shared
inputs, relations, models and command-line parts live; this module names it for the
``mtwidgets.tasks`` entry point.
"""

from __future__ import annotations

from ..text.tasks import SUMMARIZATION as TASK

__all__ = ["TASK"]
