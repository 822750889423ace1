"""Hugging Face token-classification models as NER models.

Wraps ``transformers.pipeline("token-classification")`` with its aggregation strategy
(word pieces -> entities), then maps the model's labels (``B-PER``, ``I-LOC``, ...) to the
canonical ones with a :class:`~mtwidgets.ner.labels.LabelMap` and cleans the spans (trimmed
whitespace, overlaps resolved by score, sorted) so that every prediction satisfies the
NER contract. ``aggregation="none"`` merges the per-token BIO tags here instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.model import ModelAdapter
from ...core.predictions import Prediction
from ...core.spans import Span
from ..labels import CONLL, LabelMap, label_map
from .spacy import _ner_text

_EXTRA = "pip install 'mtwidgets[models]'"
AGGREGATIONS = ("none", "simple", "first", "average", "max")


def clean_spans(text: str, found: Sequence[tuple[int, int, str, float]]) -> tuple[Span, ...]:
    """Trimmed, non-overlapping, sorted spans; of two overlapping ones the higher score wins."""
    trimmed: list[tuple[int, int, str, float]] = []
    for start, end, label, score in found:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            trimmed.append((start, end, label, score))
    kept: list[tuple[int, int, str, float]] = []
    for item in sorted(trimmed, key=lambda t: -t[3]):
        if all(item[1] <= k[0] or k[1] <= item[0] for k in kept):
            kept.append(item)
    return tuple(sorted(Span(s, e, lab) for s, e, lab, _ in kept))


def merge_bio(tokens: Sequence[Mapping[str, Any]], labels: LabelMap) -> list[tuple[int, int, str, float]]:
    """Per-token BIO predictions -> entity spans: a B- tag, a change of type or a gap in
    the I- run starts a new entity; its score is the mean of its tokens'."""
    out: list[list[Any]] = []
    current: list[Any] | None = None
    for tok in sorted(tokens, key=lambda t: int(t["start"])):
        raw = str(tok.get("entity", tok.get("entity_group", "O")))
        label = labels.map(raw)
        if label is None:
            current = None
            continue
        starts = raw.upper().startswith(("B-", "S-", "U-")) or current is None or current[2] != label
        if starts:
            current = [int(tok["start"]), int(tok["end"]), label, [float(tok.get("score", 1.0))]]
            out.append(current)
        else:
            assert current is not None
            current[1] = int(tok["end"])
            current[3].append(float(tok.get("score", 1.0)))
    return [(int(s), int(e), str(lab), sum(sc) / len(sc)) for s, e, lab, sc in out]


class HFTokenClassifier(ModelAdapter):
    """A token-classification model (hub name, local path or a built pipeline) as NER.

    Parameters
    ----------
    model_or_path:
        A hub name or a ``save_pretrained`` directory (loaded with a fast tokenizer, which
        the aggregation needs for character offsets), or a built pipeline.
    aggregation:
        The pipeline's ``aggregation_strategy``: ``"simple"`` (default), ``"first"``,
        ``"average"``, ``"max"``, or ``"none"`` to merge BIO tags here. A built pipeline
        keeps the strategy it was built with; its entity lists are read either way.
    label_map:
        The model's labels -> canonical (default CoNLL: PER/ORG/LOC/MISC); BIO prefixes are
        stripped by every map. Use ``"bio"`` for OntoNotes-trained models.
    """

    task = "ner"

    def __init__(
        self,
        model_or_path: Any,
        aggregation: str = "simple",
        label_map: LabelMap | dict[str, str] | str = CONLL,
        *,
        name: str | None = None,
        batch_size: int = 16,
    ) -> None:
        if aggregation not in AGGREGATIONS:
            raise ValueError(f"aggregation must be one of {', '.join(AGGREGATIONS)}, got {aggregation!r}")
        try:
            import transformers
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(f"HFTokenClassifier needs torch and transformers: {_EXTRA}") from exc
        if isinstance(model_or_path, (str, bytes)) or hasattr(model_or_path, "__fspath__"):
            source = str(model_or_path)
            pipe = transformers.pipeline(
                "token-classification", model=source, tokenizer=source, aggregation_strategy=aggregation
            )
        elif callable(model_or_path):
            pipe = model_or_path
            source = str(getattr(getattr(pipe, "model", None), "name_or_path", "pipeline"))
        else:
            raise TypeError(
                f"HFTokenClassifier needs a hub name, a local path or a token-classification pipeline, "
                f"got {type(model_or_path).__name__}: {model_or_path!r}"
            )
        super().__init__(name=name or source, batch_size=batch_size)
        self.pipeline = pipe
        self.source = source
        self.aggregation = aggregation
        self.label_map = _as_label_map(label_map)

    fingerprint_attrs = ("pipeline",)

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.source}:{self.aggregation}:{self.label_map.name}"

    def _spans(self, text: str, entities: Sequence[Mapping[str, Any]]) -> tuple[Span, ...]:
        if entities and "entity_group" not in entities[0]:
            return clean_spans(text, merge_bio(entities, self.label_map))
        found = []
        for ent in entities:
            label = self.label_map.map(str(ent["entity_group"]))
            if label is not None:
                found.append((int(ent["start"]), int(ent["end"]), label, float(ent.get("score", 1.0))))
        return clean_spans(text, found)

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        texts = [_ner_text(x) for x in inputs]
        outputs: Any = self.pipeline(texts, batch_size=self.batch_size)
        if len(texts) == 1 and isinstance(outputs, list) and outputs and isinstance(outputs[0], Mapping):
            outputs = [outputs]  # a single text answered with a flat list
        return [Prediction(spans=self._spans(t, list(o))) for t, o in zip(texts, outputs)]


_as_label_map = label_map
