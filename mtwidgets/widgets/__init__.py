"""Notebook views over the engine: thin anywidget front ends that render engine state.

Nothing in :mod:`mtwidgets.core` imports this package; the widgets only call the engine.
"""

from __future__ import annotations
