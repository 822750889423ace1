"""One evaluation of a group, shared by the runner and the Explorer's Predictor.

A group is decided in two steps around the model calls:

1. :func:`precheck` once the *source* outputs are known: a group that could not be
   built, whose sources the model failed on, or whose precondition on the source outputs
   fails (MR-S1/S2, MR-R2, MR-C1/C2) is decided here and gets no follow-up predictions;
2. :func:`final_check` once the *follow-up* outputs are known: the relation's output
   property over all outputs, or ``error`` when the model failed on a follow-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .predictions import Prediction
from .relation import Check, Group

__all__ = ["final_check", "precheck"]


def precheck(
    relation: Any,
    group: Group,
    source_outputs: Sequence[Prediction] | None,
    source_error: str | None,
) -> Check | None:
    """The ``not_applicable`` / ``error`` check of a group decided before its follow-ups,
    or ``None`` when the group goes on to the follow-ups.

    ``source_error`` is the message of a model failure on one of the group's sources
    (``None`` when every source was predicted).
    """
    if group.not_applicable is not None:
        return Check("not_applicable", None, group.not_applicable)
    if source_error is not None:
        return Check("error", None, str(source_error))
    why = relation.applies(group, list(source_outputs or ()))
    if why is not None:
        return Check("not_applicable", None, why)
    return None


def final_check(
    relation: Any,
    group: Group,
    source_outputs: Sequence[Prediction],
    followup_outputs: Sequence[Prediction] | None,
    followup_error: str | None,
) -> Check:
    """The verdict of a group that passed :func:`precheck`: ``error`` when the model failed
    on a follow-up (``followup_error``), else the relation's output property."""
    if followup_error is not None:
        return Check("error", None, str(followup_error))
    return relation.check(group, list(source_outputs), list(followup_outputs or ()))
