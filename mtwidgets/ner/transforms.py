"""The four NER transformations of TIN (section 3.2) as engine transformations.

- :class:`SimilarToken`: replace one non-entity verb or adjective with a similar word of
  the same part of speech, inflected to the original's tag (spaCy's lemma + a small
  inflection routine), and kept only when the reference parser tags the new word the same
  way in context.
- :class:`SimilarPhrase`: replace one minimal noun phrase (a spaCy noun chunk: base NPs
  hold no NP; one holding an entity is skipped) by a similar phrase: its head noun goes to
  a similar noun in the same number, modifiers stay, and an "a"/"an" article is fixed to
  agree with the word after it. (The paper draws whole phrases from sense2vec, which has
  no offline package; the head-noun swap keeps the phrase's structure instead.)
- :class:`~mtwidgets.ner.transforms_question.ToQuestion`: declarative -> interrogative.
- :class:`ShuffleEntities`: permute entities within each category.

Every follow-up is an :class:`~mtwidgets.ner.inputs.NERInput` carrying the gold spans it
still has, and ``meta["alignment"]`` lists the source character ranges kept verbatim with
their follow-up offsets (see :mod:`mtwidgets.ner.transforms_base`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from ..core.spans import Span, replace_span
from ..lang.inflect import VOWELS as _VOWELS
from ..lang.inflect import inflect
from ..lang.vectors import SimilarWords, lemmas
from .inputs import NERInput
from .transforms_base import (
    Candidate,
    Filter,
    NERTransformation,
    apply_edits,
    parse,
    parse_many,
    protected_spans,
    reference_entities,
)
from .transforms_question import ToQuestion, question_edits, to_question

__all__ = [
    "ShuffleEntities",
    "SimilarPhrase",
    "SimilarToken",
    "ToQuestion",
    "inflect",
    "question_edits",
    "to_question",
]

def _match_case(original: str, word: str) -> str:
    if original.isupper() and len(original) > 1:
        return word.upper()
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _article(next_word: str, original: str) -> str:
    article = "an" if next_word[:1].lower() in _VOWELS else "a"
    return _match_case(original, article)


# -- similar words ---------------------------------------------------------------------------


def _source(source: Any) -> SimilarWords:
    if source is None:
        from ..lang.vectors import default_similar_words

        return default_similar_words()
    if hasattr(source, "fill") and not hasattr(source, "similar"):
        from ..lang.vectors import FillMaskSimilarWords

        return FillMaskSimilarWords(source)
    if not hasattr(source, "similar"):
        raise TypeError(
            f"source must have similar(word, pos, context, k) (e.g. VectorSimilarWords()) or be a FillMask, "
            f"got {type(source).__name__}: {source!r}"
        )
    return source  # type: ignore[no-any-return]


def _masked(text: str, start: int, end: int) -> str:
    from ..lang.fill_mask import MASK

    return text[:start] + MASK + text[end:]


def _reference_nlp() -> Any:
    from ..lang.pipelines import get_nlp

    return get_nlp()


def _same_tag_in_context(cands: list[Candidate], tag_of: dict[int, str]) -> list[Candidate]:
    """Keep candidates whose replaced word the reference parser tags as the original was."""
    docs = parse_many([c.text for c in cands])
    kept = []
    for i, (c, doc) in enumerate(zip(cands, docs)):
        start, end = c.meta["followup_span"]
        span = doc.char_span(start, end)
        if span is not None and len(span) == 1 and span[0].tag_ == tag_of[i]:
            kept.append(c)
    return kept


def _replacement(x: NERInput, start: int, end: int, new: str, note: str, **meta: Any) -> Candidate:
    """One replaced range, through the engine's :func:`replace_span` (which carries the gold
    spans forward and re-checks them)."""
    text, new_span, moved = replace_span(x.text, Span(start, end), new, list(x.gold))
    delta = len(new) - (end - start)
    alignment = tuple(
        a for a in ((0, start, 0, start), (end, len(x.text), end + delta, len(x.text) + delta)) if a[1] > a[0]
    )
    meta = {**meta, "followup_span": [new_span.start, new_span.end]}
    return Candidate(text, alignment, moved, note, meta)


class SimilarToken(NERTransformation):
    """Replace one non-entity verb or adjective with a similar one (TIN token level, MR1).

    Parameters
    ----------
    source:
        Where similar words come from: a :class:`~mtwidgets.lang.fill_mask.FillMask` (the
        paper's BERT, in context) or any :class:`~mtwidgets.lang.vectors.SimilarWords`;
        default :func:`~mtwidgets.lang.vectors.default_similar_words` (WordNet if installed,
        else the md pipeline's vectors).
    k:
        Candidates kept per replaced word (one slot per word).
    filters:
        :mod:`mtwidgets.ner.filters` objects applied to every candidate.
    check_tag:
        Keep only candidates the reference parser tags like the original in context.
    """

    requirement = "a verb or adjective outside every entity, with similar words of the same tag"
    _TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "JJ"})

    def __init__(
        self,
        source: Any = None,
        *,
        k: int = 5,
        filters: Sequence[Filter] = (),
        per_slot: int | None = 1,
        check_tag: bool = True,
    ) -> None:
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        super().__init__(filters=filters, per_slot=per_slot)
        self._given = source
        self._resolved: SimilarWords | None = None
        self.k = k
        self.check_tag = check_tag

    @property
    def source(self) -> SimilarWords:
        if self._resolved is None:
            self._resolved = _source(self._given)
        return self._resolved

    def _targets(self, doc: Any, protected: Sequence[Span]) -> list[Any]:
        return [
            t
            for t in doc
            if t.pos_ in ("VERB", "ADJ")
            and t.tag_ in self._TAGS
            and t.is_alpha
            and t.lemma_.lower() not in ("be", "have", "do")
            and not any(p.start < t.idx + len(t.text) and t.idx < p.end for p in protected)
        ]

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        doc = parse(x.text)
        nlp = _reference_nlp()
        slots: list[list[Candidate]] = []
        for tok in self._targets(doc, protected_spans(x, doc)):
            start, end = tok.idx, tok.idx + len(tok.text)
            found = self.source.similar(tok.text, tok.pos_, _masked(x.text, start, end), self.k * 3)
            slot: list[Candidate] = []
            seen = {tok.text.lower()}
            for word, score in found:
                form = inflect(lemmas(nlp, word.lower(), tok.pos_)[0], tok.tag_)
                if form is None or form in seen:
                    continue
                seen.add(form)
                form = _match_case(tok.text, form)
                slot.append(
                    _replacement(
                        x, start, end, form, f"{tok.pos_.lower()} {tok.text!r} -> {form!r}",
                        kind="token", original=tok.text, replacement=form, pos=tok.pos_, tag=tok.tag_,
                        position=[start, end], score=round(float(score), 4),
                    )
                )  # fmt: skip
            if self.check_tag and slot:
                slot = _same_tag_in_context(slot, dict.fromkeys(range(len(slot)), tok.tag_))
            slots.append(slot[: self.k])
        return slots


class SimilarPhrase(SimilarToken):
    """Replace one minimal noun phrase with a similar phrase (TIN phrase level, MR1).

    A minimal NP is a spaCy noun chunk (base NPs contain no NP) with a common-noun head and
    no entity inside. Its head noun goes to a similar noun inflected to the same number;
    determiners and modifiers stay, and "a"/"an" is re-chosen for the word after it.
    Parameters as :class:`SimilarToken`.
    """

    requirement = "a noun phrase without entities whose head noun has similar nouns"

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        doc = parse(x.text)
        nlp = _reference_nlp()
        protected = protected_spans(x, doc)
        slots: list[list[Candidate]] = []
        for chunk in doc.noun_chunks:
            head = chunk.root
            c0, c1 = chunk.start_char, chunk.end_char
            if head.tag_ not in ("NN", "NNS") or not head.is_alpha or head.i != chunk.end - 1:
                continue
            if any(p.start < c1 and c0 < p.end for p in protected):
                continue
            h0, h1 = head.idx, head.idx + len(head.text)
            found = self.source.similar(head.text, "NOUN", _masked(x.text, h0, h1), self.k * 3)
            slot: list[Candidate] = []
            seen = {head.text.lower()}
            for word, score in found:
                form = inflect(lemmas(nlp, word.lower(), "NOUN")[0], head.tag_)
                if form is None or form in seen:
                    continue
                seen.add(form)
                form = _match_case(head.text, form)
                words = [t.text_with_ws for t in chunk[:-1]] + [form]
                first = chunk[0]
                if first.lower_ in ("a", "an") and len(chunk) >= 2:
                    following = form if len(chunk) == 2 else chunk[1].text
                    words[0] = _article(following, first.text) + first.whitespace_
                phrase = "".join(words)
                slot.append(
                    _replacement(
                        x, c0, c1, phrase, f"noun phrase {chunk.text!r} -> {phrase!r}",
                        kind="phrase", original=chunk.text, replacement=phrase, head=head.text, tag=head.tag_,
                        position=[c0, c1], score=round(float(score), 4),
                    )
                )  # fmt: skip
            if self.check_tag and slot:
                slot = self._head_tag_ok(slot, head.tag_)
            slots.append(slot[: self.k])
        return slots

    @staticmethod
    def _head_tag_ok(slot: list[Candidate], tag: str) -> list[Candidate]:
        docs = parse_many([c.text for c in slot])
        kept = []
        for c, doc in zip(slot, docs):
            start, end = c.meta["followup_span"]
            span = doc.char_span(start, end)
            if span is not None and span[-1].tag_ == tag:
                kept.append(c)
        return kept


class ShuffleEntities(NERTransformation):
    """Permute the entities within each category (TIN random entity shuffle, MR2).

    The entities come from the reference NER (en_core_web_sm); the MR2 property checks that
    the model under test predicted exactly these entities before comparing. Each option is
    one permutation (at least one mention moves); ``per_slot`` of them are sampled.
    ``meta["permutation"]`` lists ``[src_start, src_end, fu_start, fu_end, label]`` per
    moved entity; gold spans move with their mention.

    Parameters
    ----------
    entities:
        ``"reference"`` (default, as above) or ``"gold"``: shuffle the input's gold
        entities instead (for data whose gold labels the reference NER gets wrong).
    max_options:
        Cap on the permutations enumerated per sentence.
    """

    requirement = "two entities of one category with different mentions"

    def __init__(
        self,
        *,
        entities: str = "reference",
        filters: Sequence[Filter] = (),
        per_slot: int | None = 1,
        max_options: int = 50,
    ) -> None:
        if entities not in ("reference", "gold"):
            raise ValueError(f"entities must be 'reference' or 'gold', got {entities!r}")
        super().__init__(filters=filters, per_slot=per_slot)
        self.entities = entities
        self.max_options = max_options

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        found = x.gold if self.entities == "gold" else reference_entities(x)
        ents = [e for e in found if all(g == e.with_label(g.label) or not g.overlaps(e) for g in x.gold)]
        by_label: dict[str, list[Span]] = {}
        for e in ents:
            by_label.setdefault(str(e.label), []).append(e)
        groups = [g for g in by_label.values() if len(g) >= 2 and len({x.mention(e) for e in g}) >= 2]
        if not groups:
            return []
        per_group = [list(itertools.islice(itertools.permutations(range(len(g))), 24)) for g in groups]
        options: list[Candidate] = []
        for combo in itertools.product(*per_group):
            moves = [(g[i], g[j]) for g, perm in zip(groups, combo) for i, j in enumerate(perm)]
            # slot i of the follow-up receives the mention of entity perm[i]
            if all(x.mention(slot) == x.mention(src) for slot, src in moves):
                continue
            options.append(self._shuffled(x, moves))
            if len(options) >= self.max_options:
                break
        return [options]

    @staticmethod
    def _shuffled(x: NERInput, moves: list[tuple[Span, Span]]) -> Candidate:
        moves = sorted((m for m in moves if m[0] != m[1]), key=lambda m: m[0].start)
        edits = [(slot.start, slot.end, x.mention(src)) for slot, src in moves]
        text, alignment = apply_edits(x.text, edits)
        gold_at = {(g.start, g.end): g.label for g in x.gold}
        permutation: list[list[Any]] = []
        gold: list[Span] = []
        delta = 0
        for slot, src in moves:
            length = src.end - src.start
            fu = Span(slot.start + delta, slot.start + delta + length, src.label)
            delta += length - (slot.end - slot.start)
            if text[fu.start : fu.end] != x.mention(src):  # pragma: no cover - arithmetic bug
                raise RuntimeError(f"shuffle bookkeeping failed in {x.text!r}")
            permutation.append([src.start, src.end, fu.start, fu.end, src.label])
            if (src.start, src.end) in gold_at:
                gold.append(fu.with_label(gold_at[(src.start, src.end)]))
        for g in x.gold:
            if any(g.start == s.start and g.end == s.end for s, _ in moves):
                continue
            for a, b, c, _ in alignment:
                if a <= g.start and g.end <= b:
                    gold.append(Span(g.start - a + c, g.end - a + c, g.label))
        note = "shuffled " + ", ".join(
            f"{x.mention(src)!r} in place of {x.mention(slot)!r}" for slot, src in moves
        )
        return Candidate(
            text, alignment, tuple(sorted(gold)), note, {"kind": "shuffle", "permutation": permutation}
        )
