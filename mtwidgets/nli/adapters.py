"""Adapters for the NLI models users bring: Hugging Face pipelines and sequence-pair classifiers.

- :class:`HFNLIClassifier`: an ``AutoModelForSequenceClassification`` (hub name, local
  path, or a loaded model with its tokenizer) reading ``(premise, hypothesis)`` as a
  sequence pair;
- :class:`HFNLIPipeline`: a ``text-classification`` pipeline, given text pairs.

Both answer one of the canonical labels (entailment / neutral / contradiction, or
not_entailment for two-way models) with every label's probability: the model's own names
(``ENTAILMENT``, ``Entails``, ``LABEL_2``...) are read through its config's ``id2label``
and ``label2id`` (:func:`mtwidgets.nli.labels.output_labels`), and where the config says
nothing useful the user names the outputs with ``labels=``.

Both also give what pairwise compositionality probes: :meth:`insertion_states`, the hidden
states of a layer (``layer=``, the second to last by default, as in the paper) averaged
over the tokens of the insertion in the premise and in the hypothesis. Given a
:class:`~mtwidgets.nli.inputs.CompositionInput` (which says where the insertions are), they
return those states with the prediction (:mod:`mtwidgets.nli.states`): the classifier from
the very forward pass that scores the pair. States need a fast tokenizer (character
offsets); with a slow one the predictions come without them. ``torch`` and
``transformers`` are imported when an adapter is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.errors import MTError
from ..core.model import ModelAdapter
from ..core.predictions import Prediction
from ..models.hf import (
    HFPipelineModel,
    _label_names,
    _predictions_from_probs,
    _require,
    model_and_tokenizer,
    model_text,
)
from .labels import canonical_label, output_labels
from .states import attach_to_compositions, composition_positions

STATE_LAYER = -2  # the hidden_states index probed by default: the second-to-last layer

Span = tuple[int, int]
Labels = Sequence[str] | Mapping[str, str] | None


def _pairs(inputs: Sequence[Any], model: str) -> list[tuple[str, str]]:
    out = []
    for x in inputs:
        item = model_text(x) if hasattr(x, "model_text") else None
        if not isinstance(item, tuple):
            raise TypeError(
                f"{model} reads a premise and a hypothesis; got {type(x).__name__}: {x!r}. "
                "Build one with NLIInput(premise, hypothesis)"
            )
        out.append(item)
    return out


def _overlapping(offsets: Sequence[Sequence[int]], segments: Sequence[int | None], segment: int, span: Span) -> list[int]:
    """Token indices of ``segment`` whose characters overlap ``span``."""
    start, end = span
    return [t for t, ((a, b), s) in enumerate(zip(offsets, segments)) if s == segment and a < end and b > start]


def _span_states(hidden: Any, offsets: Sequence[Sequence[int]], segments: Sequence[int | None],
                 spans: tuple[Span, Span], pair: tuple[str, str]) -> Any:
    """One pair's ``[2 * hidden]`` tensor: ``hidden`` (its ``[tokens, hidden]`` states)
    averaged over the premise span's tokens, then over the hypothesis span's."""
    import torch

    parts = []
    for segment, span in ((0, spans[0]), (1, spans[1])):
        tokens = _overlapping(offsets, segments, segment, span)
        if not tokens:
            raise MTError(f"the insertion at characters {span} of {pair[segment]!r} covers no token of the model's input")
        parts.append(hidden[tokens].mean(0))
    return torch.cat(parts).float()


def _check_fast(tokenizer: Any) -> None:
    if not getattr(tokenizer, "is_fast", False):
        raise MTError("insertion states need a fast tokenizer (character offsets); load it with use_fast=True")


def insertion_states(
    model: Any,
    tokenizer: Any,
    pairs: Sequence[tuple[str, str]],
    spans: Sequence[tuple[Span, Span]],
    *,
    layer: int = STATE_LAYER,
    max_tokens: int = 256,
    batch_size: int = 16,
) -> np.ndarray:
    """``[n, 2 * hidden]``: per pair, the mean hidden state of ``layer`` over the tokens of
    the premise span, then over those of the hypothesis span (one forward pass per batch
    of pairs, as the classifier reads them).

    Needs a fast tokenizer (character offsets); raises :class:`MTError` for a span that
    covers no token (cut off by ``max_tokens``, or outside its text).
    """
    torch = _require("insertion_states")[0]
    _check_fast(tokenizer)
    if len(pairs) != len(spans):
        raise MTError(f"{len(pairs)} pairs but {len(spans)} insertion spans")
    out: list[np.ndarray] = []
    for start in range(0, len(pairs), batch_size):
        chunk = pairs[start : start + batch_size]
        enc = tokenizer([p for p, _ in chunk], [h for _, h in chunk], padding=True, truncation=True,
                        max_length=max_tokens, return_offsets_mapping=True, return_tensors="pt")
        offsets = enc.pop("offset_mapping").tolist()
        with torch.no_grad():
            hidden = model(**enc, output_hidden_states=True).hidden_states[layer]
        for i, pair_spans in enumerate(spans[start : start + batch_size]):
            out.append(_span_states(hidden[i], offsets[i], enc.sequence_ids(i), pair_spans, chunk[i]).numpy())
    return np.stack(out) if out else np.zeros((0, 0), dtype=np.float32)


class HFNLIClassifier(ModelAdapter):
    """A sequence-pair classifier (``AutoModelForSequenceClassification``) as an NLI model.

    Parameters
    ----------
    model:
        A hub name or local path (loaded with its tokenizer), or a loaded model with
        ``tokenizer=``.
    labels:
        The NLI label of each output where the config does not say it (see the module notes).
    max_tokens:
        Pairs longer than this are cut (the longer text first).
    layer:
        The ``hidden_states`` index whose insertion states a composition's prediction
        carries (-2: the second-to-last layer).
    """

    task = "nli"
    kind = "label"
    fingerprint_attrs = ("model",)

    def __init__(self, model: Any, tokenizer: Any = None, *, labels: Labels = None, name: str | None = None,
                 batch_size: int = 16, max_tokens: int = 256, layer: int = STATE_LAYER) -> None:
        torch, transformers = _require("HFNLIClassifier")
        model, tokenizer, source = model_and_tokenizer(model, tokenizer, transformers.AutoModelForSequenceClassification)
        super().__init__(name=name or str(source or "nli-classifier"), batch_size=batch_size)
        self.torch = torch
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.max_tokens = max_tokens
        self.layer = layer
        self.labels = output_labels(model.config, int(model.config.num_labels), labels, model=self.name)

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{','.join(self.labels)}:{self.max_tokens}:layer={self.layer}"

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        """Every pair's label scores; a composition's insertion states come from the same
        forward pass (with a fast tokenizer)."""
        pairs = _pairs(inputs, self.name)
        with_states = bool(composition_positions(inputs)) and getattr(self.tokenizer, "is_fast", False)
        enc = self.tokenizer([p for p, _ in pairs], [h for _, h in pairs], padding=True, truncation=True,
                             max_length=self.max_tokens, return_tensors="pt", return_offsets_mapping=with_states)
        offsets = enc.pop("offset_mapping").tolist() if with_states else []
        with self.torch.no_grad():
            out = self.model(**enc, output_hidden_states=with_states)
        predictions = _predictions_from_probs(self.torch.softmax(out.logits.float(), dim=-1), self.labels)
        if not with_states:
            return predictions
        hidden = out.hidden_states[self.layer]

        def states(at: Sequence[int]) -> np.ndarray:
            return np.stack([_span_states(hidden[i], offsets[i], enc.sequence_ids(i), inputs[i].spans, pairs[i]).numpy()
                             for i in at])

        return attach_to_compositions(inputs, predictions, states)

    def insertion_states(self, inputs: Sequence[Any], spans: Sequence[tuple[Span, Span]], *,
                         layer: int | None = None) -> np.ndarray:
        """See :func:`insertion_states` (the module function); ``layer`` defaults to the adapter's."""
        return insertion_states(self.model, self.tokenizer, _pairs(inputs, self.name), spans,
                                layer=self.layer if layer is None else layer, max_tokens=self.max_tokens,
                                batch_size=self.batch_size)


class HFNLIPipeline(HFPipelineModel):
    """A ``text-classification`` pipeline (built, or a hub name / local path) as an NLI model.

    The pipeline receives ``{"text": premise, "text_pair": hypothesis}`` and is asked for
    every label's score; its label names are read as :class:`HFNLIClassifier` reads them.
    """

    task = "nli"

    def __init__(self, pipeline_or_model: Any, *, labels: Labels = None, name: str | None = None,
                 batch_size: int = 16, layer: int = STATE_LAYER) -> None:
        if isinstance(pipeline_or_model, str):
            super().__init__("text-classification", pipeline_or_model, name=name, batch_size=batch_size, kind="label")
        else:
            super().__init__(pipeline_or_model, name=name, batch_size=batch_size, kind="label")
        model = getattr(self.pipeline, "model", None)
        config = getattr(model, "config", None)
        if config is None:
            raise MTError(f"{self.name}: the pipeline has no model config to read its labels from")
        n = int(getattr(config, "num_labels", 0) or len(getattr(config, "id2label", {}) or {}))
        canonical = output_labels(config, n, labels, model=self.name)
        self.label_map = dict(zip(_label_names(config, n), canonical))
        self.layer = layer

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{sorted(self.label_map.items())}:layer={self.layer}"

    def _canonical(self, raw: object) -> object:
        if not isinstance(raw, Prediction) or not raw.scores:
            return raw
        scores: dict[str, float] = {}
        for name, value in raw.scores:
            label = self.label_map.get(name) or canonical_label(name) or name
            scores[label] = scores.get(label, 0.0) + value
        return Prediction.from_scores(scores)

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        """The pipeline's answers in canonical labels; a composition's insertion states from
        the pipeline's model (with a fast tokenizer)."""
        _pairs(inputs, self.name)
        predictions = [self._canonical(p) for p in super()._predict_batch(inputs)]
        if not getattr(self.pipeline.tokenizer, "is_fast", False):
            return predictions

        def states(at: Sequence[int]) -> np.ndarray:
            return self.insertion_states([inputs[i] for i in at], [inputs[i].spans for i in at])

        return attach_to_compositions(inputs, predictions, states)

    def insertion_states(self, inputs: Sequence[Any], spans: Sequence[tuple[Span, Span]], *,
                         layer: int | None = None) -> np.ndarray:
        """The pipeline model's insertion states (see :func:`insertion_states`); ``layer``
        defaults to the adapter's."""
        return insertion_states(self.pipeline.model, self.pipeline.tokenizer, _pairs(inputs, self.name), spans,
                                layer=self.layer if layer is None else layer, batch_size=self.batch_size)


def nli_pipeline(pipeline_or_model: Any, *, labels: Labels = None, name: str | None = None,
                 batch_size: int = 16, layer: int = STATE_LAYER) -> HFNLIPipeline:
    """A text-classification pipeline (or a hub name / local path to build one) as an NLI model."""
    return HFNLIPipeline(pipeline_or_model, labels=labels, name=name, batch_size=batch_size, layer=layer)


def nli_classifier(model: Any, tokenizer: Any = None, *, labels: Labels = None, name: str | None = None,
                   batch_size: int = 16, max_tokens: int = 256, layer: int = STATE_LAYER) -> HFNLIClassifier:
    """A sequence-pair classifier (hub name, local path, or a loaded model with its tokenizer)."""
    return HFNLIClassifier(model, tokenizer, labels=labels, name=name, batch_size=batch_size,
                           max_tokens=max_tokens, layer=layer)
