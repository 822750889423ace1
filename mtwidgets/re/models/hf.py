"""Hugging Face relation classifiers: entity-marker sequence classifiers and LUKE.

Every adapter loads by hub name or by local path with the same call (a path is what a
fine-tuned ``save_pretrained`` directory gives), runs batched and returns one
:class:`~mtwidgets.core.predictions.Prediction` per input with the full score table.
``torch`` and ``transformers`` are imported when an adapter is built, never when this
module is imported. The generic pipeline adapter is :class:`mtwidgets.models.hf.HFPipelineModel`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from ...core.errors import InputError
from ...core.model import ModelAdapter
from ...core.predictions import Prediction
from ...models.hf import _label_names, _predictions_from_probs, _require, model_text
from ..inputs import RelationInput
from .markers import check_marker, mark, marker_tokens


def _model_text(x: object, marker: str, infer_types: bool) -> str | tuple[str, str]:
    """What a sequence classifier reads for ``x``: marked text, a text, or a text pair."""
    if not hasattr(x, "model_text"):
        raise TypeError(
            f"cannot feed a {type(x).__name__} to a Hugging Face classifier: {x!r}; give a "
            "RelationInput, TextInput or TextPairInput"
        )
    return model_text(x, marker=marker, infer_types=infer_types)


# -- entity-marker sequence classifiers -----------------------------------------------------


class EntityMarkerClassifier(ModelAdapter):
    """A sequence classifier over entity-marked text (``AutoModelForSequenceClassification``).

    Parameters
    ----------
    path_or_name:
        A hub name or a local directory with the tokenizer and the model.
    marker:
        The marker format the model was trained with (:mod:`mtwidgets.re.models.markers`).
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

    fingerprint_attrs = ("model",)  # the weights, added marker embeddings included

    @property
    def fingerprint(self) -> str:
        return (
            f"{super().fingerprint}:{self.source}:{self.marker}:{self.infer_types}:{self.max_length}"
            f":{len(self.added_tokens)}"
        )

    def model_input(self, x: object) -> object:
        """What the classifier sees of ``x``: with untyped markers (``marker="plain"``) the
        marked text, without entity types; else the whole input."""
        if self.marker == "plain":
            return self.model_text(x)
        return x.key()  # type: ignore[attr-defined]

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

    fingerprint_attrs = ("model",)

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.source}:{self.max_length}"

    def model_input(self, x: object) -> object:
        """What LUKE sees of ``x``: the text and the two character spans (no types)."""
        if isinstance(x, RelationInput):
            return (x.text, x.head.start, x.head.end, x.tail.start, x.tail.end)
        return x.key()  # type: ignore[attr-defined]

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
