"""One prediction shape for every task.

A :class:`Prediction` holds whichever of its fields the task fills: a label with scores
(relation extraction, classification, NLI), labelled spans (NER), a number (similarity)
or a text (summarisation). Keeping one JSON-able value type lets the runner cache and the
results frame store every task's outputs the same way.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any

from .errors import InputError
from .spans import Span

VECTOR_FORMAT = "f32le"


def encode_vector(values: Any) -> str:
    """A one-dimensional array of finite numbers as the compact text :attr:`Prediction.vector`
    holds: ``f32le:<n>:<base64 of the float32 values, little-endian>`` (exact for float32)."""
    import numpy as np

    array = np.asarray(values, dtype="<f4")
    if array.ndim != 1 or array.size == 0:
        raise InputError(f"a prediction's vector is one row of numbers, got an array of shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise InputError("a prediction's vector must hold finite numbers")
    return f"{VECTOR_FORMAT}:{array.size}:{base64.b64encode(array.tobytes()).decode('ascii')}"


def decode_vector(text: str | None) -> Any:
    """The float32 array :func:`encode_vector` wrote, or ``None`` (no vector, or not one)."""
    import numpy as np

    if not text or not text.startswith(VECTOR_FORMAT + ":"):
        return None
    _, size, payload = text.split(":", 2)
    try:
        raw = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return None
    if not size.isdigit() or len(raw) != 4 * int(size):
        return None
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


@dataclass(frozen=True)
class Prediction:
    """One model answer for one input: a label with scores, spans, a number or a text, by the
    task; ``vector`` carries extra numbers a relation reads beside the answer (the hidden
    states the compositionality probe is trained on), encoded by :func:`encode_vector`; it
    is kept in the prediction cache but left out of results rows (:meth:`to_dict` with
    ``vector=False``)."""

    label: str | None = None
    scores: tuple[tuple[str, float], ...] = ()
    spans: tuple[Span, ...] = ()
    value: float | None = None
    text: str | None = None
    vector: str | None = None

    def with_vector(self, values: Any) -> Prediction:
        """This prediction with ``values`` (a 1-d array of numbers) as its vector."""
        import dataclasses

        return dataclasses.replace(self, vector=encode_vector(values))

    def vector_array(self) -> Any:
        """The vector as a float32 NumPy array, or ``None``."""
        return decode_vector(self.vector)

    @classmethod
    def from_scores(cls, scores: Mapping[str, float]) -> Prediction:
        """The arg-max label, with scores sorted from the highest down."""
        if not scores:
            raise InputError("cannot build a prediction from an empty score table")
        ranked = tuple(sorted(((str(k), float(v)) for k, v in scores.items()), key=lambda kv: -kv[1]))
        return cls(label=ranked[0][0], scores=ranked)

    def top(self, k: int = 3) -> tuple[tuple[str, float], ...]:
        return self.scores[:k]

    @property
    def score(self) -> float | None:
        """The score of the predicted label, if the model gave scores."""
        for name, value in self.scores:
            if name == self.label:
                return value
        return None

    def to_dict(self, *, vector: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.label is not None:
            out["label"] = self.label
        if self.scores:
            out["scores"] = [[k, v] for k, v in self.scores]
        if self.spans:
            out["spans"] = [s.to_dict() for s in self.spans]
        if self.value is not None:
            out["value"] = self.value
        if self.text is not None:
            out["text"] = self.text
        if vector and self.vector is not None:
            out["vector"] = self.vector
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Prediction:
        return cls(
            label=data.get("label"),
            scores=tuple((str(k), float(v)) for k, v in data.get("scores", ())),
            spans=tuple(Span.from_value(s) for s in data.get("spans", ())),
            value=data.get("value"),
            text=data.get("text"),
            vector=data.get("vector"),
        )


def coerce_prediction(value: object, kind: str = "label") -> Prediction:
    """Accept what user callables naturally return for one input, read as ``kind``.

    A :class:`Prediction` is taken as it is, whatever the kind. Otherwise, by kind:

    - ``"label"``: ``"label"``; ``("label", score)``; ``{"label": .., "score": ..}`` or
      ``{"label": .., "scores": {...}}``; a score table ``{"label": score, ...}``;
    - ``"spans"``: a list of spans (:class:`Span`, ``(start, end, label)`` or
      ``{"start", "end", "label"}``), or ``{"spans": [...]}``;
    - ``"value"``: a number, or ``{"value": number}``;
    - ``"text"``: a string (the text itself, not a label), or ``{"text": ..}``.

    Anything else raises :class:`TypeError` naming what was given and the kind expected.
    """
    if isinstance(value, Prediction):
        return value
    if kind == "label":
        return _coerce_label(value)
    if kind == "spans":
        return _coerce_spans(value)
    if kind == "value":
        return _coerce_value(value)
    if kind == "text":
        return _coerce_text(value)
    raise ValueError(f"unknown prediction kind {kind!r}; one of label, spans, value, text")


def _coerce_spans(value: object) -> Prediction:
    items = value.get("spans") if isinstance(value, Mapping) and set(value) <= _KEYS else value
    if isinstance(items, (list, tuple)) or _is_array(items):
        try:
            return Prediction(spans=tuple(Span.from_value(s) for s in items))  # type: ignore[union-attr]
        except (InputError, TypeError, ValueError) as exc:
            raise TypeError(f"cannot read the spans of a prediction from {value!r}: {exc}") from None
    raise TypeError(
        f"cannot read a spans prediction from {value!r} ({type(value).__name__}); return a list of "
        "spans ({'start': .., 'end': .., 'label': ..} or (start, end, label)) or an mtwidgets Prediction"
    )


def _coerce_value(value: object) -> Prediction:
    number = value.get("value") if isinstance(value, Mapping) and set(value) <= _KEYS else value
    if isinstance(number, Real) and not isinstance(number, bool):
        return Prediction(value=float(number))
    if _is_array(number) and getattr(number, "size", 0) == 1:
        return Prediction(value=float(number))  # type: ignore[arg-type]
    raise TypeError(
        f"cannot read a value prediction from {value!r} ({type(value).__name__}); return a number "
        "or an mtwidgets Prediction"
    )


def _coerce_text(value: object) -> Prediction:
    text = value.get("text") if isinstance(value, Mapping) and set(value) <= _KEYS else value
    if isinstance(text, str):
        return Prediction(text=text)
    raise TypeError(
        f"cannot read a text prediction from {value!r} ({type(value).__name__}); return a string "
        "or an mtwidgets Prediction"
    )


_KEYS = frozenset({"label", "scores", "spans", "value", "text"})


def _is_array(value: object) -> bool:
    return hasattr(value, "shape") and hasattr(value, "dtype")


def _coerce_label(value: object) -> Prediction:
    if isinstance(value, str):
        return Prediction(label=value)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        score = float(value[1])
        return Prediction(label=value[0], scores=((value[0], score),))
    if isinstance(value, Mapping):
        if "label" in value:
            label = str(value["label"])
            if isinstance(value.get("scores"), Mapping) and value["scores"]:
                pred = Prediction.from_scores(value["scores"])
                return Prediction(label=label, scores=pred.scores)
            if "score" in value:
                return Prediction(label=label, scores=((label, float(value["score"])),))
            return Prediction(label=label)
        if value and all(isinstance(v, (int, float)) for v in value.values()):
            return Prediction.from_scores(value)  # type: ignore[arg-type]
    raise TypeError(
        f"cannot read a prediction from {value!r} ({type(value).__name__}); return a label "
        "string, a (label, score) pair, a {label: score} table or an mtwidgets Prediction"
    )
