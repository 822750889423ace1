"""Embedded Chinese models, offline: sentiment, two summarizers, two similarity measures.

Each factory returns a :class:`~mtwidgets.core.model.ModelAdapter` (batched ``predict``)
that reads the task's inputs through their ``model_text()`` (one text, or a pair), or plain
strings / string pairs:

- ``snownlp_sentiment``: SnowNLP's naive Bayes sentiment model (trained on product
  reviews; it ships in the package): label ``pos`` / ``neg`` with ``P(pos)`` and
  ``1 - P(pos)`` as scores;
- ``snownlp_summary``: SnowNLP's TextRank over its clauses, the two best in text order;
- ``textrank_summary``: textrank4zh's sentences, words and sentence similarity, ranked by
  PageRank; the two best sentences (of six characters or more, as textrank4zh keeps them)
  in text order. textrank4zh 0.3 calls ``networkx.from_numpy_matrix``, which networkx 3
  removed, so the PageRank step (damping 0.85, as textrank4zh sets it) runs here on numpy;
- ``bm25_similarity``: SnowNLP's BM25 (k1 = 1.5, b = 0.75) between the two texts' jieba
  words. BM25 is an unbounded score, and its IDF computed from two documents is
  degenerate (a word in both gets a negative weight), so the IDF is jieba's shipped table
  (``jieba/analyse/idf.txt``, its median for unknown words) and the score is normalised:
  ``sim = (bm25(A -> B) / bm25(B -> B) + bm25(B -> A) / bm25(A -> A)) / 2`` with each
  query's distinct words, so each ratio (and ``sim``) lies in [0, 1] and ``sim(A, A) = 1``;
- ``tfidf_similarity``: the cosine of the two texts' TF-IDF vectors over jieba words,
  with the same IDF table.

Summaries are exact stretches of the source (a chosen sentence keeps its end mark), so the
summarization oracle can apply a rewrite's replacements to them.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from ..core.model import ModelAdapter
from ..core.predictions import Prediction

__all__ = [
    "bm25_similarity",
    "snownlp_sentiment",
    "snownlp_summary",
    "textrank_summary",
    "tfidf_similarity",
]

SUMMARY_SENTENCES = 2
_END_MARKS = "。！？!?；;…"
_CLAUSE_MARKS = "，,、：:"


def _text(x: object) -> str:
    """The one text a model reads from ``x`` (an input or a string)."""
    text = x if isinstance(x, str) else getattr(x, "model_text", lambda: None)()
    if not isinstance(text, str):
        raise TypeError(
            f"a Chinese text model reads inputs with one text (or strings), got {type(x).__name__}: {x!r}"
        )
    return text


def _pair(x: object) -> tuple[str, str]:
    """The two texts a similarity model reads from ``x`` (a pair input or two strings)."""
    pair = x if isinstance(x, tuple) else getattr(x, "model_text", lambda: None)()
    if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(t, str) for t in pair)):
        raise TypeError(f"a similarity model reads text pairs, got {type(x).__name__}: {x!r}")
    return pair[0], pair[1]


def _version(package: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:  # pragma: no cover - the import fails first
        return "?"


def _need(module: str, package: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"this Chinese model needs {package}: pip install {package}") from exc


# --- sentiment ------------------------------------------------------------------------------


class SnowNLPSentiment(ModelAdapter):
    """SnowNLP's sentiment: ``pos`` / ``neg`` with their probabilities."""

    task = "classification"
    kind = "label"

    def __init__(self, *, name: str = "zh-snownlp-sentiment", batch_size: int = 64) -> None:
        super().__init__(name=name, batch_size=batch_size)
        self._snownlp = _need("snownlp", "snownlp")
        self.version = f"snownlp-{_version('snownlp')}"

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        out = []
        for x in inputs:
            p = float(self._snownlp.SnowNLP(_text(x)).sentiments)
            out.append(Prediction.from_scores({"pos": p, "neg": 1.0 - p}))
        return out


# --- summaries ------------------------------------------------------------------------------


def _stretches(text: str, pieces: Sequence[str], marks: str) -> list[tuple[int, int]]:
    """Where each piece (a sentence or clause the summarizer took apart) lies in ``text``,
    with the end marks that follow it; pieces found in order, each after the previous."""
    spans, at = [], 0
    for piece in pieces:
        start = text.find(piece, at)
        if start < 0:
            start = text.find(piece)
        if start < 0 or not piece:
            spans.append((-1, -1))
            continue
        end = start + len(piece)
        while end < len(text) and text[end] in marks:
            end += 1
        spans.append((start, end))
        at = end
    return spans


def _summary(text: str, pieces: Sequence[str], chosen: Sequence[int]) -> str:
    """The chosen pieces as exact stretches of ``text``, in text order; a summary that ends
    on a clause mark ends with 。 instead."""
    spans = _stretches(text, pieces, _END_MARKS + _CLAUSE_MARKS)
    picked = sorted({spans[i] for i in chosen if spans[i][0] >= 0})
    parts = [text[a:b].strip() for a, b in picked]
    out = "".join(parts)
    if out and out[-1] in _CLAUSE_MARKS:
        out = out[:-1] + "。"
    return out or text.strip()


class SnowNLPSummary(ModelAdapter):
    """SnowNLP's extractive summary: its best clauses, in text order."""

    task = "summarization"
    kind = "text"

    def __init__(
        self, *, sentences: int = SUMMARY_SENTENCES, name: str = "zh-snownlp-summary", batch_size: int = 32
    ) -> None:
        super().__init__(name=name, batch_size=batch_size)
        self._snownlp = _need("snownlp", "snownlp")
        self.sentences = sentences
        self.version = f"snownlp-{_version('snownlp')}-{sentences}"

    def summarize(self, text: str) -> str:
        doc = self._snownlp.SnowNLP(text)
        pieces = list(doc.sentences)
        best = doc.summary(self.sentences)
        chosen = [pieces.index(s) for s in best if s in pieces]
        return _summary(text, pieces, chosen)

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        return [Prediction(text=self.summarize(_text(x))) for x in inputs]


def pagerank(
    weights: np.ndarray, damping: float = 0.85, tol: float = 1.0e-8, max_iter: int = 200
) -> np.ndarray:
    """PageRank of a weighted graph (networkx's definition: each node spreads its score in
    proportion to its edge weights; a node without edges spreads it evenly)."""
    n = weights.shape[0]
    if n == 0:
        return np.zeros(0)
    out = weights.sum(axis=1, keepdims=True)
    trans = np.where(out > 0, weights / np.where(out > 0, out, 1.0), 1.0 / n)
    rank = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        nxt = (1 - damping) / n + damping * rank @ trans
        if np.abs(nxt - rank).sum() < n * tol:
            return np.asarray(nxt)
        rank = nxt
    return rank


class TextRankSummary(ModelAdapter):
    """textrank4zh's sentence TextRank: the best sentences, in text order."""

    task = "summarization"
    kind = "text"
    MIN_LEN = 6  # textrank4zh's sentence_min_len

    def __init__(
        self, *, sentences: int = SUMMARY_SENTENCES, name: str = "zh-textrank-summary", batch_size: int = 32
    ) -> None:
        super().__init__(name=name, batch_size=batch_size)
        module = _need("textrank4zh", "textrank4zh")
        self._segmenter = module.TextRank4Sentence().seg
        self._similarity = _need("textrank4zh.util", "textrank4zh").get_similarity
        self.sentences = sentences
        self.version = f"textrank4zh-{_version('textrank4zh')}-{sentences}"

    def summarize(self, text: str) -> str:
        seg = self._segmenter.segment(text=text, lower=True)
        pieces, words = list(seg.sentences), list(seg.words_all_filters)
        n = len(pieces)
        weights = np.zeros((n, n))
        for i in range(n):
            for j in range(i, n):
                weights[i, j] = weights[j, i] = self._similarity(words[i], words[j])
        scores = pagerank(weights)
        ranked = sorted(range(n), key=lambda i: (-scores[i], i))
        chosen = [i for i in ranked if len(pieces[i]) >= self.MIN_LEN][: self.sentences]
        return _summary(text, pieces, chosen)

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        return [Prediction(text=self.summarize(_text(x))) for x in inputs]


# --- similarity -----------------------------------------------------------------------------

_WORDY = re.compile(r"\w")


@cache
def _idf() -> tuple[dict[str, float], float]:
    """jieba's shipped IDF table and its median (for words it lacks)."""
    analyse = _need("jieba.analyse", "jieba")
    table = analyse.default_tfidf
    return dict(table.idf_freq), float(table.median_idf)


def words(text: str) -> list[str]:
    """jieba's words of ``text`` that hold a letter, digit or Han character, lower-cased."""
    jieba = _need("jieba", "jieba")
    jieba.setLogLevel(60)
    return [w.lower() for w in jieba.cut(text) if _WORDY.search(w)]


def _idf_of(word: str) -> float:
    table, median = _idf()
    return table.get(word, median)


class BM25Similarity(ModelAdapter):
    """SnowNLP's BM25, normalised to [0, 1] (see the module docstring)."""

    task = "similarity"
    kind = "value"

    def __init__(self, *, name: str = "zh-bm25-similarity", batch_size: int = 64) -> None:
        super().__init__(name=name, batch_size=batch_size)
        self._bm25 = _need("snownlp.sim.bm25", "snownlp").BM25
        self.version = f"snownlp-{_version('snownlp')}-jieba-idf"

    def similarity(self, a: str, b: str) -> float:
        wa, wb = words(a), words(b)
        if not wa or not wb:
            return 1.0 if wa == wb else 0.0
        bm = self._bm25([wa, wb])
        bm.idf = {w: _idf_of(w) for w in bm.df}
        qa, qb = list(dict.fromkeys(wa)), list(dict.fromkeys(wb))
        ratios = []
        for query, doc, own in ((qa, 1, qb), (qb, 0, qa)):
            top = bm.sim(own, doc)
            ratios.append(bm.sim(query, doc) / top if top > 0 else 0.0)
        return float(min(1.0, max(0.0, sum(ratios) / 2)))

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        return [Prediction(value=self.similarity(*_pair(x))) for x in inputs]


class TfidfSimilarity(ModelAdapter):
    """The cosine of TF-IDF vectors over jieba words (jieba's IDF table)."""

    task = "similarity"
    kind = "value"

    def __init__(self, *, name: str = "zh-tfidf-similarity", batch_size: int = 64) -> None:
        super().__init__(name=name, batch_size=batch_size)
        _idf()
        self.version = f"jieba-{_version('jieba')}-idf"

    @staticmethod
    def similarity(a: str, b: str) -> float:
        va = {w: c * _idf_of(w) for w, c in Counter(words(a)).items()}
        vb = {w: c * _idf_of(w) for w, c in Counter(words(b)).items()}
        dot = sum(v * vb.get(w, 0.0) for w, v in va.items())
        norm = math.sqrt(sum(v * v for v in va.values())) * math.sqrt(sum(v * v for v in vb.values()))
        return float(min(1.0, dot / norm)) if norm > 0 else 0.0

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        return [Prediction(value=self.similarity(*_pair(x))) for x in inputs]


# --- factories ------------------------------------------------------------------------------


def snownlp_sentiment(**kwargs: Any) -> SnowNLPSentiment:
    """The embedded ``zh-snownlp-sentiment`` model (classification: pos / neg)."""
    return SnowNLPSentiment(**kwargs)


def snownlp_summary(**kwargs: Any) -> SnowNLPSummary:
    """The embedded ``zh-snownlp-summary`` model (summarization)."""
    return SnowNLPSummary(**kwargs)


def textrank_summary(**kwargs: Any) -> TextRankSummary:
    """The embedded ``zh-textrank-summary`` model (summarization, textrank4zh)."""
    return TextRankSummary(**kwargs)


def bm25_similarity(**kwargs: Any) -> BM25Similarity:
    """The embedded ``zh-bm25-similarity`` model (similarity in [0, 1])."""
    return BM25Similarity(**kwargs)


def tfidf_similarity(**kwargs: Any) -> TfidfSimilarity:
    """The embedded ``zh-tfidf-similarity`` model (similarity in [0, 1])."""
    return TfidfSimilarity(**kwargs)
