"""Hugging Face adapters: pipelines, entity-marker sequence classifiers and LUKE.

Every adapter loads by hub name or by local path with the same call (a path is what a
fine-tuned ``save_pretrained`` directory gives), runs batched and returns one
:class:`~mtwidgets.core.predictions.Prediction` per input with the full score table.
``torch`` and ``transformers`` are imported when an adapter is built, never when this
module is imported.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.inputs import RelationInput, TextInput, TextPairInput
from ..core.predictions import Prediction
from ..core.spans import Span
from .base import ModelAdapter
from .markers import check_marker, mark, marker_tokens

_EXTRA = "pip install 'mtwidgets[models]'"


def _require(what: str) -> tuple[Any, Any]:
    """``(torch, transformers)``, or an ImportError naming the extra to install."""
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise ImportError(f"{what} needs torch and transformers: {_EXTRA}") from exc
    return torch, transformers


def _label_names(config: Any, n: int) -> list[str]:
    id2label = getattr(config, "id2label", None) or {}
    names = []
    for i in range(n):
        name = id2label.get(i, id2label.get(str(i)))
        names.append(str(name) if name is not None else f"LABEL_{i}")
    return names


def _predictions_from_probs(probs: Any, labels: Sequence[str]) -> list[Prediction]:
    rows = probs.tolist()
    return [Prediction.from_scores(dict(zip(labels, row))) for row in rows]


def _model_text(x: object, marker: str, infer_types: bool) -> str | tuple[str, str]:
    """What a sequence classifier reads for ``x``: marked text, a text, or a text pair."""
    if isinstance(x, RelationInput):
        return mark(x, marker, infer_types=infer_types).text
    if isinstance(x, TextInput):
        return x.text
    if isinstance(x, TextPairInput):
        return (x.text_a, x.text_b)
    raise TypeError(
        f"cannot feed a {type(x).__name__} to a Hugging Face classifier: {x!r}; give a "
        "RelationInput, TextInput or TextPairInput"
    )


# -- pipelines ------------------------------------------------------------------------------


def _is_hf_pipeline(obj: object) -> bool:
    try:
        from transformers import Pipeline
    except ImportError:  # pragma: no cover - then obj cannot be one
        return False
    return isinstance(obj, Pipeline)


def _takes_top_k(pipe: object) -> bool:
    try:
        from transformers import TextClassificationPipeline
    except ImportError:  # pragma: no cover
        return False
    return isinstance(pipe, TextClassificationPipeline)


def _read_pipeline_output(out: object) -> object:
    """Turn one pipeline answer into a Prediction where its shape is known.

    Known shapes: a list of ``{"label", "score"}`` (text classification, all scores), one
    such dict, a zero-shot ``{"labels", "scores"}`` dict, generated text
    (``summary_text``/``generated_text``/``translation_text``) and token-classification
    entity lists. Anything else is returned as is for ``coerce_prediction`` to read or reject.
    """
    if isinstance(out, Prediction):
        return out
    if isinstance(out, Mapping):
        if "label" in out and "score" in out:
            label = str(out["label"])
            return Prediction(label=label, scores=((label, float(out["score"])),))
        if "labels" in out and "scores" in out:
            return Prediction.from_scores(dict(zip(out["labels"], out["scores"])))
        for key in ("summary_text", "generated_text", "translation_text"):
            if key in out:
                return Prediction(text=str(out[key]))
        return out
    if isinstance(out, list):
        if out and all(isinstance(o, Mapping) and "label" in o and "score" in o for o in out):
            return Prediction.from_scores({str(o["label"]): float(o["score"]) for o in out})
        if all(isinstance(o, Mapping) and "start" in o and "end" in o for o in out):
            spans = tuple(
                Span(int(o["start"]), int(o["end"]), str(o.get("entity_group", o.get("entity")))) for o in out
            )
            return Prediction(spans=spans)
        if len(out) == 1 and isinstance(out[0], Mapping):
            return _read_pipeline_output(out[0])
    return out


class HFPipelineModel(ModelAdapter):
    """A ``transformers`` pipeline as a model.

    Parameters
    ----------
    pipeline_or_task:
        A built pipeline (``pipeline("text-classification", model=...)``) or a task name,
        in which case ``model`` (a hub name or a local path) is loaded with
        ``transformers.pipeline(task, model=model)``.
    marker:
        How a :class:`RelationInput` is written for the pipeline (see
        :mod:`mtwidgets.models.markers`). A ``TextInput`` passes its text; a
        ``TextPairInput`` passes ``{"text": a, "text_pair": b}``.
    top_k:
        For text classification, how many scores to ask for; ``None`` (the default) asks
        for every label's score.
    infer_types:
        Infer missing entity types for typed markers (else ``"entity"``).
    call_kwargs:
        Passed to every pipeline call (e.g. ``candidate_labels`` for zero-shot).

    Each batch goes to the pipeline in one call (with ``batch_size`` for real pipelines).
    """

    def __init__(
        self,
        pipeline_or_task: Any,
        model: Any = None,
        *,
        marker: str = "typed_punct",
        name: str | None = None,
        batch_size: int = 32,
        top_k: int | None = None,
        infer_types: bool = True,
        **call_kwargs: Any,
    ) -> None:
        if isinstance(pipeline_or_task, str):
            _, transformers = _require("HFPipelineModel")
            if model is None:
                raise TypeError(f"HFPipelineModel({pipeline_or_task!r}) needs model=<hub name or local path>")
            pipe = transformers.pipeline(pipeline_or_task, model=model)
        else:
            if model is not None:
                raise TypeError("give model= only with a task name, not with a built pipeline")
            if not callable(pipeline_or_task):
                raise TypeError(f"expected a transformers pipeline or a task name, got {pipeline_or_task!r}")
            pipe = pipeline_or_task
        source = model if model is not None else getattr(getattr(pipe, "model", None), "name_or_path", None)
        super().__init__(
            name=name or str(source or getattr(pipe, "task", None) or "pipeline"), batch_size=batch_size
        )
        self.pipeline = pipe
        self.marker = check_marker(marker)
        self.top_k = top_k
        self.infer_types = infer_types
        self.call_kwargs = call_kwargs
        self.source = str(source) if source is not None else None

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.source}:{self.marker}:{self.infer_types}:{self.top_k}"

    def pipeline_input(self, x: object) -> str | dict[str, str]:
        """What the pipeline receives for ``x``."""
        item = _model_text(x, self.marker, self.infer_types)
        if isinstance(item, tuple):
            return {"text": item[0], "text_pair": item[1]}
        return item

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        items = [self.pipeline_input(x) for x in inputs]
        kwargs = dict(self.call_kwargs)
        if _is_hf_pipeline(self.pipeline):
            kwargs.setdefault("batch_size", self.batch_size)
        if _takes_top_k(self.pipeline):
            kwargs.setdefault("top_k", self.top_k)
        outputs = self.pipeline(items, **kwargs)
        if not isinstance(outputs, list):
            outputs = list(outputs)
        return [_read_pipeline_output(o) for o in outputs]


# -- entity-marker sequence classifiers -----------------------------------------------------


class EntityMarkerClassifier(ModelAdapter):
    """A sequence classifier over entity-marked text (``AutoModelForSequenceClassification``).

    Parameters
    ----------
    path_or_name:
        A hub name or a local directory with the tokenizer and the model.
    marker:
        The marker format the model was trained with (:mod:`mtwidgets.models.markers`).
    add_marker_tokens:
        For ``typed_tokens``/``plain``: add the marker tokens the tokenizer lacks as
        special tokens. Tokens a fine-tuned tokenizer already has are reused; when new ones
        must be added, the embedding matrix grows and the new rows are untrained
        (initialised deterministically), and a warning says so.
    pooling:
        ``"cls"`` (default): the model's own classification head, which for the standard
        ``*ForSequenceClassification`` classes pools the first token. ``"markers"``: for
        classifiers trained to read the entity start markers. The logits are still the
        model's own (a stock sequence-classification head cannot pool elsewhere), but each
        input is checked to keep both start markers within ``max_length`` tokens, and an
        input whose marker would be truncated away raises :class:`InputError` instead of
        being classified without its entity. Needs a fast tokenizer (offset mappings).
    max_length:
        Longer inputs are truncated (see ``pooling``).
    device:
        A torch device (``"cpu"``, ``"cuda"``, ...).
    infer_types:
        Infer missing entity types for typed markers (else ``"entity"``).

    ``TextInput`` and ``TextPairInput`` are classified as they are (no markers). Scores are
    the softmax of the logits, labelled by ``config.id2label``.
    """

    task = "re"

    def __init__(
        self,
        path_or_name: str,
        *,
        marker: str = "typed_punct",
        add_marker_tokens: bool = False,
        pooling: str = "cls",
        max_length: int = 256,
        device: str = "cpu",
        name: str | None = None,
        batch_size: int = 32,
        infer_types: bool = True,
    ) -> None:
        torch, transformers = _require("EntityMarkerClassifier")
        super().__init__(name=name or str(path_or_name), batch_size=batch_size)
        self.marker = check_marker(marker)
        if pooling not in ("cls", "markers"):
            raise ValueError(f"pooling must be 'cls' or 'markers', got {pooling!r}")
        if max_length < 8:
            raise ValueError(f"max_length must be at least 8 tokens, got {max_length}")
        self.pooling = pooling
        self.max_length = max_length
        self.device = torch.device(device)
        self.infer_types = infer_types
        self.source = str(path_or_name)
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(self.source)
        self.model = transformers.AutoModelForSequenceClassification.from_pretrained(self.source)
        if pooling == "markers" and not getattr(self.tokenizer, "is_fast", False):
            raise ValueError(
                f"pooling='markers' needs a fast tokenizer (offset mappings); {self.source!r} loaded a "
                f"{type(self.tokenizer).__name__}"
            )
        self.added_tokens: list[str] = []
        if add_marker_tokens and self.marker != "typed_punct":
            self._add_marker_tokens(torch)
        self.model.to(self.device)
        self.model.eval()
        self.labels = _label_names(self.model.config, self.model.config.num_labels)

    @property
    def fingerprint(self) -> str:
        return (
            f"{super().fingerprint}:{self.source}:{self.marker}:{self.infer_types}:{self.max_length}"
            f":{len(self.added_tokens)}"
        )

    def _add_marker_tokens(self, torch: Any) -> None:
        vocab = self.tokenizer.get_vocab()
        new = [t for t in marker_tokens(self.marker) if t not in vocab]
        if not new:
            return
        self.tokenizer.add_tokens(new, special_tokens=True)
        self.added_tokens = new
        embeddings = self.model.get_input_embeddings()
        old = embeddings.weight.shape[0]
        if len(self.tokenizer) > old:
            self.model.resize_token_embeddings(len(self.tokenizer), mean_resizing=False)
            weight = self.model.get_input_embeddings().weight
            with torch.no_grad():
                base = weight[:old]
                gen = torch.Generator().manual_seed(0)
                noise = torch.randn(weight.shape[0] - old, weight.shape[1], generator=gen)
                weight[old:] = base.mean(0) + noise.to(weight.dtype) * base.std(0)
            warnings.warn(
                f"added {len(new)} entity marker tokens to {self.source!r} with untrained embeddings; "
                "use a model fine-tuned with these markers for meaningful predictions",
                UserWarning,
                stacklevel=3,
            )

    def model_text(self, x: object) -> str | tuple[str, str]:
        """The text (or text pair) the model reads for ``x``."""
        return _model_text(x, self.marker, self.infer_types)

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        items = [self.model_text(x) for x in inputs]
        out: list[Prediction | None] = [None] * len(inputs)
        singles = [i for i, it in enumerate(items) if isinstance(it, str)]
        pairs = [i for i, it in enumerate(items) if isinstance(it, tuple)]
        if singles:
            texts = [items[i] for i in singles]
            for i, pred in zip(singles, self._forward(texts, None, [inputs[i] for i in singles])):
                out[i] = pred
        if pairs:
            firsts = [items[i][0] for i in pairs]
            seconds = [items[i][1] for i in pairs]
            for i, pred in zip(pairs, self._forward(firsts, seconds, [inputs[i] for i in pairs])):
                out[i] = pred
        return out

    def _forward(self, texts: list[Any], pairs: list[Any] | None, inputs: list[Any]) -> list[Prediction]:
        import torch

        check = self.pooling == "markers" and pairs is None
        enc = self.tokenizer(
            texts,
            pairs,
            padding=True,
            truncation=True,
            max_length=self.max_length,
            return_tensors="pt",
            return_offsets_mapping=check,
        )
        if check:
            self._check_markers_kept(enc.pop("offset_mapping"), inputs)
        enc = {k: v.to(self.device) for k, v in enc.items()}
        with torch.inference_mode():
            logits = self.model(**enc).logits
        probs = logits.float().softmax(-1).cpu()
        return _predictions_from_probs(probs, self.labels)

    def _check_markers_kept(self, offsets: Any, inputs: list[Any]) -> None:
        for row, x in zip(offsets.tolist(), inputs):
            if not isinstance(x, RelationInput):
                continue
            covered = max((end for start, end in row if end > start), default=0)
            marked = mark(x, self.marker, infer_types=self.infer_types)
            for role, pos in (("head", marked.head_start), ("tail", marked.tail_start)):
                if pos >= covered:
                    raise InputError(
                        f"model {self.name!r}: the {role} marker of {x.display()!r} lies past "
                        f"max_length={self.max_length} tokens and would be truncated away; raise "
                        "max_length or shorten the text"
                    )


# -- LUKE -----------------------------------------------------------------------------------


class LukeRelationClassifier(ModelAdapter):
    """LUKE for entity-pair classification (e.g. ``studio-ousia/luke-large-finetuned-tacred``).

    The tokenizer (``LukeTokenizer`` with ``task="entity_pair_classification"``) receives
    the head and tail character spans and inserts LUKE's own ``<ent>``/``<ent2>`` markers;
    the model classifies the pair of entity representations. Entity types are not used.
    Scores are the softmax of the logits, labelled by ``config.id2label``.
    """

    task = "re"

    def __init__(
        self,
        path_or_name: str,
        *,
        max_length: int = 256,
        device: str = "cpu",
        name: str | None = None,
        batch_size: int = 32,
    ) -> None:
        torch, transformers = _require("LukeRelationClassifier")
        super().__init__(name=name or str(path_or_name), batch_size=batch_size)
        self.source = str(path_or_name)
        self.max_length = max_length
        self.device = torch.device(device)
        self.tokenizer = transformers.LukeTokenizer.from_pretrained(
            self.source, task="entity_pair_classification"
        )
        self.model = transformers.LukeForEntityPairClassification.from_pretrained(self.source)
        self.model.to(self.device)
        self.model.eval()
        self.labels = _label_names(self.model.config, self.model.config.num_labels)

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.source}:{self.max_length}"

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        import torch

        for x in inputs:
            if not isinstance(x, RelationInput):
                raise TypeError(
                    f"LukeRelationClassifier {self.name!r} classifies RelationInputs, got "
                    f"{type(x).__name__}: {x!r}"
                )
        enc = self.tokenizer(
            [x.text for x in inputs],
            entity_spans=[[(x.head.start, x.head.end), (x.tail.start, x.tail.end)] for x in inputs],
            padding=True,
            truncation=True,
            max_length=self.max_length,
            return_tensors="pt",
        )
        enc = {k: v.to(self.device) for k, v in enc.items()}
        with torch.inference_mode():
            logits = self.model(**enc).logits
        return _predictions_from_probs(logits.float().softmax(-1).cpu(), self.labels)
