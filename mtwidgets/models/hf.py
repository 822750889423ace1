"""The generic Hugging Face adapter: any ``transformers`` pipeline as a model.

Task-specific Hugging Face adapters live in the task packages (entity-marker classifiers
and LUKE in :mod:`mtwidgets.re.models.hf`, token classifiers in
:mod:`mtwidgets.ner.models.hf`). Every adapter loads by hub name or by local path with the same call (a path is what a
fine-tuned ``save_pretrained`` directory gives), runs batched and returns one
:class:`~mtwidgets.core.predictions.Prediction` per input with the full score table.
``torch`` and ``transformers`` are imported when an adapter is built, never when this
module is imported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.model import ModelAdapter
from ..core.predictions import Prediction
from ..core.spans import Span

_EXTRA = "pip install 'mtwidgets[models]'"


def _require(what: str) -> tuple[Any, Any]:
    """``(torch, transformers)``, or an ImportError naming the extra to install."""
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise ImportError(f"{what} needs torch and transformers: {_EXTRA}") from exc
    return torch, transformers


def model_and_tokenizer(model: Any, tokenizer: Any, auto_class: Any) -> tuple[Any, Any, str | None]:
    """``(model, tokenizer, source)`` from a local path (both loaded, the model with
    ``auto_class``) or a loaded model with its tokenizer; ``source`` names where it came from."""
    source = model if isinstance(model, str) else getattr(model, "name_or_path", None)
    if isinstance(model, str):
        import transformers

        tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(model)
        model = auto_class.from_pretrained(model)
    if tokenizer is None:
        raise TypeError("give tokenizer= with a loaded model")
    return model, tokenizer, source


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


def model_text(x: object, **options: Any) -> str | tuple[str, str]:
    """What a text model reads for ``x``: its :meth:`~mtwidgets.core.inputs.BaseInput.model_text`
    (a text, or a text pair), with the adapter's options (e.g. ``marker`` for relation inputs)."""
    reader = getattr(x, "model_text", None)
    if reader is None:
        raise TypeError(
            f"cannot feed a {type(x).__name__} to a Hugging Face model: {x!r}; give an mtwidgets input"
        )
    return reader(**options)  # type: ignore[no-any-return]


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
        :mod:`mtwidgets.re.models.markers`). A ``TextInput`` passes its text; a
        ``TextPairInput`` passes ``{"text": a, "text_pair": b}``.
    top_k:
        For text classification, how many scores to ask for; ``None`` (the default) asks
        for every label's score.
    infer_types:
        Infer missing entity types for typed markers (else ``"entity"``).
    kind:
        The prediction kind the pipeline answers with (``"label"``, ``"spans"``, ``"value"``
        or ``"text"``); ``None`` takes it from the inputs' task.
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
        kind: str | None = None,
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
        self.kind = kind
        self.marker = marker
        self.top_k = top_k
        self.infer_types = infer_types
        self.call_kwargs = call_kwargs
        self.source = str(source) if source is not None else None

    fingerprint_attrs = ("pipeline", "call_kwargs")

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.source}:{self.marker}:{self.infer_types}:{self.top_k}"

    def model_input(self, x: object) -> object:
        """What the pipeline sees of ``x``: with untyped markers (``marker="plain"``) the
        marked text, which leaves entity types out; else the whole input."""
        if self.marker == "plain" and getattr(x, "head", None) is not None:
            item = self.pipeline_input(x)
            return item if isinstance(item, str) else tuple(sorted(item.items()))
        return x.key()  # type: ignore[attr-defined]

    def pipeline_input(self, x: object) -> str | dict[str, str]:
        """What the pipeline receives for ``x``."""
        item = model_text(x, marker=self.marker, infer_types=self.infer_types)
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
