"""Prediction.vector: extra numbers a model returns beside its answer (hidden states), kept
compactly and exactly, in the prediction cache but not in results rows."""

from __future__ import annotations

import numpy as np
import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction, decode_vector, encode_vector


def test_a_vector_round_trips_exactly_through_to_dict() -> None:
    values = np.random.default_rng(0).normal(size=384).astype(np.float32)
    p = Prediction.from_scores({"entailment": 0.7, "neutral": 0.3}).with_vector(values)
    back = Prediction.from_dict(p.to_dict())
    assert back == p and np.array_equal(back.vector_array(), values)
    assert "vector" not in p.to_dict(vector=False) and p.to_dict(vector=False)["label"] == "entailment"


@pytest.mark.parametrize("bad", [np.zeros((2, 3)), np.array([]), np.array([1.0, np.nan])])
def test_a_vector_must_be_one_row_of_finite_numbers(bad: np.ndarray) -> None:
    with pytest.raises(InputError):
        encode_vector(bad)


def test_text_that_is_no_vector_decodes_to_none() -> None:
    assert decode_vector(None) is None and decode_vector("a summary") is None
    assert decode_vector("f32le:3:AAAA") is None  # 3 bytes for 3 floats
