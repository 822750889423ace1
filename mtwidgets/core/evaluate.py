"""One evaluation of a group, shared by the runner and the Explorer's Predictor.

A group is decided in two steps around the model calls:

1. :func:`precheck` once the *source* outputs are known: a group that could not be
   built (``not_applicable``, or ``error`` when its relation raised), whose follow-up is
   the very input the model already saw as the source (:func:`same_input`), whose sources
   the model failed on, or whose precondition on the source outputs fails (MR-S1/S2,
   MR-R2, MR-C1/C2) is decided here and gets no follow-up predictions;
2. :func:`final_check` once the *follow-up* outputs are known: the relation's output
   property over all outputs, or ``error`` when the model failed on a follow-up.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .predictions import Prediction
from .relation import Check, Group

__all__ = ["GENERATION_ERROR", "SAME_INPUT", "final_check", "model_input", "precheck", "same_input"]

# ``Group.meta`` key of a group standing for a source whose relation raised while
# building its follow-ups; the value is the reason (relation, row, exception).
GENERATION_ERROR = "generation_error"
SAME_INPUT = "follow-up is the same input as the source for this model"


def model_input(model: Any, x: Any) -> Hashable:
    """What ``model`` sees of input ``x``: ``model.model_input(x)`` when the model says
    (e.g. a relation classifier that ignores entity types leaves them out), else the
    input's full cache key (everything in the input)."""
    reader = getattr(model, "model_input", None) if model is not None else None
    if callable(reader):
        try:
            return ("model", reader(x))
        except Exception:  # noqa: BLE001 - the model cannot say: compare whole inputs
            pass
    return ("input", x.key())


def same_input(group: Group, model: Any = None) -> str | None:
    """:data:`SAME_INPUT` when each follow-up of ``group`` is, for ``model``, the very same
    model input as the source in its place (so its output can only repeat the source's and
    the group tests nothing), else ``None``. ``model=None`` compares the full inputs."""
    if not group.followups or len(group.followups) != len(group.sources):
        return None
    for src, fu in zip(group.sources, group.followups):
        if model_input(model, src) != model_input(model, fu):
            return None
    return SAME_INPUT


def precheck(
    relation: Any,
    group: Group,
    source_outputs: Sequence[Prediction] | None,
    source_error: str | None,
    model: Any = None,
) -> Check | None:
    """The ``not_applicable`` / ``error`` check of a group decided before its follow-ups,
    or ``None`` when the group goes on to the follow-ups.

    ``source_error`` is the message of a model failure on one of the group's sources
    (``None`` when every source was predicted). ``model`` (the adapter the outputs come
    from) lets :func:`same_input` compare what that model sees; ``None`` compares the
    full inputs.
    """
    generation_error = group.meta.get(GENERATION_ERROR) if group.meta else None
    if generation_error is not None:
        return Check("error", None, str(generation_error))
    if group.not_applicable is not None:
        return Check("not_applicable", None, group.not_applicable)
    same = same_input(group, model)
    if same is not None:
        return Check("not_applicable", None, same)
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
