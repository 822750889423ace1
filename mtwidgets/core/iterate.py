"""Iterated relations: follow-ups built round by round from the model's own answers.

Most relations fix their follow-ups before any model runs. An *iterated* relation cannot:
ENTRE (Wang et al. 2023) keeps only the instances a model still gets right, replaces their
entities again and asks again, up to ``rounds`` times, and records the round at which each
instance first fails. What the next round asks depends on the last round's answers.

The runner treats such a relation (``relation.iterate`` set) like any other up to the
source predictions and the applicability check (``precheck``); then, instead of predicting
the groups' fixed follow-ups, it hands the relation's live groups with their source
predictions to ``relation.iterate(relation, model_name, items, predict)``. ``predict``
(see :data:`Predict`) is the runner's own: batched, cached, deduplicated, with failures
recorded rather than raised. The iterator returns one :class:`Outcome` per item: the group
as finally tested (its follow-ups are the last round's; its ``meta`` tells the rounds), the
model's outputs on those follow-ups and the verdict. Each becomes one ordinary results row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .predictions import Prediction
from .relation import Check, Group

if TYPE_CHECKING:
    from .inputs import BaseInput

__all__ = ["Item", "Outcome", "Predict"]

#: ``predict(inputs, stage)`` -> ``({key: prediction}, {key: error})`` for the distinct
#: inputs given; ``stage`` names the step for progress ("round 3", "entity names only").
Predict = Callable[[Sequence["BaseInput"], str], tuple[dict[str, Prediction], dict[str, Any]]]


@dataclass(frozen=True)
class Item:
    """One live group of an iterated relation with the model's outputs on its sources."""

    index: int
    group: Group
    source_outputs: tuple[Prediction, ...]


@dataclass(frozen=True)
class Outcome:
    """What an iterated relation decided for one :class:`Item`."""

    index: int
    group: Group
    followup_outputs: tuple[Prediction, ...]
    check: Check

