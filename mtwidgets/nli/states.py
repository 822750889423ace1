"""Insertion states carried by a prediction, from the model through the runner to the probe.

Pairwise compositionality probes the model's hidden states at the insertion words (the
paper's ``z = f(x)``), so these must come back from the model with its answer: the NLI
adapters and ``nli-minilm``, given a :class:`~mtwidgets.nli.inputs.CompositionInput`,
return its prediction with the states attached, and the runner caches and hands that
prediction to the relation's aggregator like any other. The probe is trained there, over
all the compositions of the run, since it needs all of them.

The states travel in the prediction's ``vector`` (:meth:`Prediction.with_vector`: float32,
compact and exact), which the prediction cache keeps and results rows leave out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.errors import InputError, MTError
from ..core.predictions import Prediction, coerce_prediction, decode_vector, encode_vector


def encode_states(states: Any) -> str:
    """One composition's states as the text a prediction's ``vector`` holds."""
    try:
        return encode_vector(states)
    except InputError as exc:
        raise MTError(f"insertion states: {exc}") from None


def decode_states(text: str | None) -> np.ndarray | None:
    """The states :func:`encode_states` wrote, or ``None``."""
    return decode_vector(text)  # type: ignore[no-any-return]


def attach_states(prediction: Prediction, states: Any) -> Prediction:
    """``prediction`` with the insertion states attached as its vector."""
    return dataclasses.replace(prediction, vector=encode_states(states))


def prediction_states(prediction: Prediction) -> np.ndarray | None:
    """The insertion states attached to ``prediction`` (``None`` when it has none)."""
    return decode_states(prediction.vector)


def composition_positions(inputs: Sequence[Any]) -> list[int]:
    """The positions of the compositions (inputs that say where their insertions are)."""
    from .inputs import CompositionInput

    return [i for i, x in enumerate(inputs) if isinstance(x, CompositionInput)]


def attach_to_compositions(inputs: Sequence[Any], predictions: Sequence[Any],
                           read_states: Callable[[Sequence[int]], Any]) -> list[Any]:
    """``predictions`` (an adapter's answers, one per input) with the insertion states of
    every composition among ``inputs`` attached; ``read_states(positions)`` gives their
    states, one row per position."""
    out = list(predictions)
    at = composition_positions(inputs)
    if not at:
        return out
    states = np.asarray(read_states(at))
    if states.shape[0] != len(at):
        raise MTError(f"{len(at)} compositions but {states.shape[0]} rows of insertion states")
    for row, i in enumerate(at):
        out[i] = attach_states(coerce_prediction(out[i], "label"), states[row])
    return out
