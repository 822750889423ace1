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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.spans import Span, replace_span
from ..lang.inflect import VOWELS as _VOWELS
from ..lang.inflect import inflect
from ..lang.vectors import SimilarWords, lemmas
from ..lang.wordnet import PRONOUN_LIKE
from .inputs import NERInput
from .transforms_base import (
    Candidate,
    Filter,
    NERTransformation,
    parse,
    protected_spans,
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


def _zipf(word: str) -> float:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - depends on the install
        return 7.0
    return float(zipf_frequency(word, "en"))


_MIN_ZIPF = 3.0  # a substitute a news sentence would use (about once per million words)

# In-context MiniLM similarity (filters.in_context_similarity) a substitute must reach:
# the context must select the sense it shares with the word it replaces. A word's dominant
# sense needs less confirmation than one of its other senses.
CONFIRM_DOMINANT = 0.75
CONFIRM_MINOR = 0.84
# How much weaker the substitute's association with its syntactic neighbour (an adjective's
# noun, a verb's object, a noun's adjective) may be than the original's, in md-vector
# cosine: "small businesses" -> "little businesses" breaks a collocation.
COLLOCATION_DROP = 0.1
_CANDIDATES_PER_WORD = 4  # substitutes scored in context per replaced word

# Verbs whose meaning lives in their object ("make a recovery", "take photos"): never replaced.
_LIGHT_VERBS = frozenset(
    "make take give get go come put set keep let hold turn bring run call find see".split()
)


@dataclass
class _Proposal:
    """A substitution awaiting the in-context parse check."""

    slot: int
    sent_start: int  # character offset of the sentence in the source
    sentence: str  # the sentence alone, as in the source
    edits: list[tuple[int, int, str]]  # sentence-relative (start, end, new)
    build: Any  # () -> Candidate
    need: float = 0.0  # in-context similarity the substitute must reach
    pair: tuple[str, str] = ("", "")  # (source, follow-up) texts scored in context
    score: float = 0.0


def _sentence_edit(sentence: str, edits: list[tuple[int, int, str]]) -> str:
    out = sentence
    for a, b, new in sorted(edits, reverse=True):
        out = out[:a] + new + out[b:]
    return out


def _structure_parse(texts: list[str]) -> list[Any]:
    """Tags and dependencies of ``texts`` (the reference pipeline without its NER, which the
    structure check does not read), one ``nlp.pipe`` batch."""
    nlp = _reference_nlp()
    skip = [name for name in ("ner", "lemmatizer") if name in nlp.pipe_names]
    return list(nlp.pipe(texts, disable=skip))


def _verify(proposals: list[_Proposal], known: dict[str, Any] | None = None) -> list[_Proposal]:
    """The proposals whose sentence, parsed alone with the substitute, has exactly the parse
    (tags, dependencies, heads) of the sentence parsed alone as it was. Only the changed
    sentence is parsed, once per proposal, in one batch: linear in the text's length.
    ``known``: parses already made (text -> Doc; the source when it is one sentence: the
    reference pipeline's NER has its own embedding layer, so tags and dependencies are
    the same with or without it)."""
    from ..lang.frames import same_structure

    if not proposals:
        return []
    originals = [p.sentence for p in proposals]
    changed = [_sentence_edit(p.sentence, p.edits) for p in proposals]
    by_text = dict(known or {})
    unique = [t for t in dict.fromkeys(originals + changed) if t not in by_text]
    by_text.update(zip(unique, _structure_parse(unique)))
    return [p for p, a, b in zip(proposals, originals, changed) if same_structure(by_text[a], by_text[b])]


def _confirmed(proposals: list[_Proposal], k: int) -> list[_Proposal]:
    """The proposals whose substitute the context confirms (in-context MiniLM similarity
    at least their ``need``), at most ``k`` per slot, most similar first. One encoder batch."""
    from .filters import in_context_similarity

    if not proposals:
        return []
    # the changed sentence alone is context enough, and keeps the cost per candidate bounded
    pairs = [(p.sentence, _sentence_edit(p.sentence, p.edits)) for p in proposals]
    for p, score in zip(proposals, in_context_similarity(pairs)):
        p.score = score
    kept: dict[int, list[_Proposal]] = {}
    for p in sorted(proposals, key=lambda p: -p.score):
        if p.score >= p.need and len(kept.setdefault(p.slot, [])) < k:
            kept[p.slot].append(p)
    return [p for slot in sorted(kept) for p in kept[slot]]


def collocation_kept(original: str, substitute: str, neighbours: Sequence[str]) -> bool:
    """Whether ``substitute`` goes with each neighbour word nearly as well as ``original``
    (md word vectors, :data:`COLLOCATION_DROP`); a neighbour the vectors do not know is
    skipped, a substitute they do not know fails."""
    from ..lang.vectors import word_association

    for other in neighbours:
        before = word_association(original, other)
        if before is None:
            continue
        after = word_association(substitute, other)
        if after is None or after < before - COLLOCATION_DROP:
            return False
    return True


def _neighbours(tok: Any) -> list[str]:
    """The words a substitute for ``tok`` must collocate with: an adjective's noun, a
    verb's direct object, a noun's adjectives."""
    if tok.pos_ == "ADJ" and tok.dep_ == "amod":
        return [tok.head.lower_]
    if tok.pos_ == "VERB":
        return [c.lower_ for c in tok.children if c.dep_ in ("dobj", "obj") and c.is_alpha]
    if tok.pos_ == "NOUN":
        return [c.lower_ for c in tok.children if c.dep_ == "amod" and c.is_alpha]
    return []


# -- what keeps a substitution from being a plain synonym swap -------------------------------------

# Participles and adjectives used as prepositions ("aged 92", "including", "given").
_PREPOSITION_LIKE = frozenset(
    "aged including following given regarding concerning considering according based excluding "
    "pending during barring notwithstanding owing due provided assuming".split()
)
_US_UK_SUFFIXES = (
    ("our", "or"),
    ("re", "er"),
    ("ise", "ize"),
    ("yse", "yze"),
    ("ence", "ense"),
    ("ogue", "og"),
)


def _spelling_variants(a: str, b: str) -> bool:
    """US/UK spellings of one word ("colour"/"color", "centre"/"center", "tyre"/"tire")."""
    a, b = a.lower(), b.lower()
    for x, y in _US_UK_SUFFIXES:
        for p, q in ((a, b), (b, a)):
            if x in p and p.replace(x, y) == q:
                return True
    return len(a) == len(b) and sum(c != d for c, d in zip(a, b)) == 1 and {a, b} & {"tyre", "tire"} != set()


def target_refused(tok: Any) -> str | None:
    """Why no substitute for ``tok`` is tried at all, or ``None``: a word used as a
    preposition or before a number ("aged 92"). Which words have substitutes at all, and
    which, is the reviewed lexicon's business (:mod:`mtwidgets.lang.synonyms_en`)."""
    low = tok.lower_
    lemma = tok.lemma_.lower()
    if (
        tok.dep_ in ("prep", "case", "agent", "mark")
        or low in _PREPOSITION_LIKE
        or lemma in _PREPOSITION_LIKE
    ):
        return "used as a preposition"
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if nxt is not None and (nxt.like_num or nxt.pos_ == "NUM"):
        return "precedes a number"
    return None


def form_problem(original: str, pos: str, form: str) -> str | None:
    """Why the inflected ``form`` of a reviewed substitute may not replace ``original``
    (a word of spaCy POS ``pos``), or ``None``: no gerund or participle for a noun or an
    adjective that is none, no spelling variant."""
    if pos in ("NOUN", "ADJ") and form.lower().endswith("ing") and not original.lower().endswith("ing"):
        return "a gerund or participle for a word that is none"
    if _spelling_variants(original, form):
        return "a spelling variant"
    return None


def _lexicon_problem() -> str | None:
    from ..lang.wordnet import wordnet_problem

    return wordnet_problem()


class SimilarToken(NERTransformation):
    """Replace one non-entity verb or adjective with a same-sense synonym (TIN token level, MR1).

    A follow-up is built only when it can be defended:

    - the pair is in the reviewed lexicon (:mod:`mtwidgets.lang.synonyms_en`): WordNet
      synonyms in the word's main sense, each read and accepted for (nearly) every common
      use of the word, so no change of strength, register, variety or collocation
      ("help" -> "aid", "start a club" -> "begin", "kill" -> "murder" are not in it);
    - the context selects that sense: the MiniLM similarity of the substitute in context to
      the word it replaces (:func:`mtwidgets.ner.filters.in_context_similarity`) is at least
      :data:`CONFIRM_DOMINANT` for the word's dominant sense, :data:`CONFIRM_MINOR` for
      another one;
    - the substitute keeps the collocation with its neighbour (an adjective's noun, a
      verb's object: :func:`collocation_kept`), and light verbs ("make", "take") stay;
    - the word is not part of a phrasal verb, a selected preposition or a WordNet
      collocation, and has no clausal complement (:func:`mtwidgets.lang.frames.target_problem`);
      for a verb, WordNet's frames of both words allow the way it is used (an object or
      none, :func:`mtwidgets.lang.frames.usage`: "The DCMS said." never becomes "told");
    - the substitute is inflected to the original tag (lemminflect) and is common enough
      (Zipf >= 3);
    - the changed sentence, parsed alone, keeps exactly the parse of the original sentence
      (tags, dependencies, heads): same part of speech, same frame.

    Without WordNet nothing is generated and :attr:`requirement` says how to install it.

    Parameters
    ----------
    source:
        Optional ranking of the substitutes: a :class:`~mtwidgets.lang.fill_mask.FillMask`
        or any :class:`~mtwidgets.lang.vectors.SimilarWords`; only its words that pass the
        checks above are kept, in its order. Default: WordNet's own order (most attested
        first).
    k:
        Candidates kept per replaced word (one slot per word).
    filters:
        :mod:`mtwidgets.ner.filters` objects applied to every candidate.
    check_tag:
        Keep only candidates whose changed sentence keeps its parse (the last check above).
    """

    _TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "JJ"})
    _REQUIREMENT = "a verb or adjective outside every entity with a same-sense synonym that fits its frame"

    def __init__(
        self,
        source: Any = None,
        *,
        k: int = 3,
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
    def requirement(self) -> str:  # type: ignore[override]
        problem = _lexicon_problem()
        return self._REQUIREMENT if problem is None else f"WordNet: {problem}"

    @property
    def source(self) -> SimilarWords | None:
        """The ranking source given, or ``None`` (WordNet's order)."""
        if self._given is None:
            return None
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
            and t.dep_ not in ("aux", "auxpass")
            and t.lemma_.lower() not in ("be", "have", "do")
            and not (t.pos_ == "VERB" and t.lemma_.lower() in _LIGHT_VERBS)
            # a participle before a noun is an adjective ("devoted Nana"): a verb's synonym misreads it
            and not (t.pos_ == "VERB" and t.dep_ in ("amod", "compound"))
            and not any(p.start < t.idx + len(t.text) and t.idx < p.end for p in protected)
        ]

    def _ranked(self, x: NERInput, tok: Any, start: int, end: int, allowed: list[str], pos: str) -> list[str]:
        """``allowed`` lemmas in the ranking source's order (all of them, WordNet's order,
        without a source)."""
        src = self.source
        if src is None:
            return allowed
        nlp = _reference_nlp()
        found = src.similar(tok.text, pos, _masked(x.text, start, end), max(self.k * 3, 10))
        order = [lemmas(nlp, w.lower(), pos)[0] for w, _ in found]
        return [w for w in dict.fromkeys(order) if w in allowed]

    def _substitutes(self, tok: Any) -> Iterator[str]:
        """The reviewed substitutes (lemmas) of ``tok`` (:mod:`mtwidgets.lang.synonyms_en`)
        whose shared sense's verb frames fit its use."""
        from ..lang.frames import frames_fit, usage
        from ..lang.synonyms_en import vetted_pairs
        from ..lang.wordnet import lemma_frames, shared_synsets

        lemma = tok.lemma_.lower()
        if tok.pos_ not in ("NOUN", "VERB", "ADJ"):
            return
        use = usage(tok) if tok.pos_ == "VERB" else None
        if use == "copular":
            return  # "stay warm": a linking verb carries no content of its own
        for pair in vetted_pairs(lemma, tok.pos_):
            if use is not None and not any(
                frames_fit(lemma_frames(synset, lemma), use) and frames_fit(lemma_frames(synset, pair.substitute), use)
                for synset in shared_synsets(lemma, pair.substitute, "VERB")
            ):
                continue
            yield pair.substitute

    def _ordered(self, x: NERInput, tok: Any, start: int, end: int, pos: str) -> Iterator[str]:
        """The substitutes of ``tok``, in the ranking source's order when there is one,
        else in the reviewed lexicon's."""
        subs = self._substitutes(tok)
        if self.source is None:
            yield from subs
            return
        needs = list(subs)
        if needs:
            yield from self._ranked(x, tok, start, end, needs, pos)

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        from ..lang.frames import target_problem
        from ..lang.wordnet import is_lemma

        if _lexicon_problem() is not None:
            return []
        doc = parse(x.text)
        proposals: list[_Proposal] = []
        n_slots = 0
        for tok in self._targets(doc, protected_spans(x, doc)):
            if target_refused(tok) is not None or target_problem(tok, is_lemma) is not None:
                continue
            start, end = tok.idx, tok.idx + len(tok.text)
            sent = tok.sent
            s0 = sent.start_char
            slot = n_slots
            found = 0
            neighbours = _neighbours(tok)
            before = doc[tok.i - 1] if tok.i > 0 else None
            article = before if before is not None and before.lower_ in ("a", "an") else None
            for lemma in self._ordered(x, tok, start, end, tok.pos_):
                form = inflect(lemma, tok.tag_)
                if form is None or form == tok.lower_ or _zipf(form) < _MIN_ZIPF:
                    continue
                if form_problem(tok.lower_, tok.pos_, form) is not None:
                    continue
                need = CONFIRM_DOMINANT
                if not collocation_kept(tok.lower_, form, neighbours):
                    continue
                form = _match_case(tok.text, form)
                note = f"{tok.pos_.lower()} {tok.text!r} -> {form!r}"
                meta = dict(
                    kind="token", original=tok.text, replacement=form, pos=tok.pos_, tag=tok.tag_,
                    position=[start, end], lemma=lemma,
                )  # fmt: skip
                # "a cheap house" -> "an inexpensive house": the article agrees with the new word
                e0, new = start, form
                if article is not None and _article(form, article.text) != article.text:
                    e0, new = article.idx, _article(form, article.text) + article.whitespace_ + form
                proposals.append(
                    _Proposal(
                        slot, s0, x.text[s0 : sent.end_char], [(e0 - s0, end - s0, new)],
                        lambda e0=e0, end=end, new=new, note=note, meta=meta: _replacement(
                            x, e0, end, new, note, **meta
                        ),
                        need, (x.text, x.text[:e0] + new + x.text[end:]),
                    )
                )  # fmt: skip
                found += 1
                if found >= _CANDIDATES_PER_WORD:
                    break
            n_slots += found > 0
        return self._slots(proposals, n_slots, doc)

    def _cheap_filtered(self, proposals: list[_Proposal]) -> list[_Proposal]:
        """The proposals that pass every filter costing less than the encoder (the
        naturalness filter: a dictionary lookup), on the pair the filter will see. A
        filter's verdict on one candidate does not depend on the others, so running it
        before the in-context check only spares the encoder the candidates it would drop
        anyway (:meth:`_options` applies every filter again and records the scores)."""
        for f in self.filters:
            if float(getattr(f, "cost", 1.0)) >= 1.0 or not proposals:
                continue
            scores = f.scores([p.pair for p in proposals])
            proposals = [p for p, score in zip(proposals, scores) if f.passes(score)]
        return proposals

    def _slots(self, proposals: list[_Proposal], n_slots: int, doc: Any = None) -> list[list[Candidate]]:
        # Cheapest check first: the naturalness filter (a lookup), the parse of the changed
        # sentence (about 0.5 ms each), then the encoder (about 10 ms a sentence) on what
        # is left; each check only drops candidates, so the order changes no verdict.
        proposals = self._cheap_filtered(proposals)
        if self.check_tag:
            proposals = _verify(proposals, {doc.text: doc} if doc is not None else None)
        kept = _confirmed(proposals, self.k)
        slots: list[list[Candidate]] = [[] for _ in range(n_slots)]
        for p in kept:
            slots[p.slot].append(p.build())
        return [s for s in slots if s]


# Heads a noun phrase keeps: "part of", "number of", "one of" are quantities, not kinds.
_PARTITIVE_PREPS = frozenset({"of"})


class SimilarPhrase(SimilarToken):
    """Replace one minimal noun phrase by a same-sense variant (TIN phrase level, MR1).

    A minimal NP is a spaCy noun chunk with a common-noun head as its last word, no entity
    and no other noun inside (no compound: "child abuse", "cat flaps" stay), whose head is
    no gerund or particle construction ("washing up") and takes no "of" complement ("part
    of ..."). Its head noun goes to a reviewed synonym (checked as for
    :class:`SimilarToken`; pronoun-like nouns such as "someone" never qualify) in the same
    number; determiners and modifiers stay (a modifier never changes), "a"/"an" is
    re-chosen for the word after it and, after "a"/"an", the substitute must be a count
    noun. The changed sentence must keep its parse. Parameters as :class:`SimilarToken`.
    """

    _REQUIREMENT = "a noun phrase without entities or compounds whose head noun has a same-sense synonym"

    @staticmethod
    def _chunk_problem(chunk: Any, protected: Sequence[Span]) -> str | None:
        from ..lang.wordnet import is_lemma

        head = chunk.root
        doc = chunk.doc
        if head.tag_ not in ("NN", "NNS") or not head.is_alpha or head.i != chunk.end - 1:
            return "head is not a common noun ending the chunk"
        if not head.text.islower():
            return "capitalised head"
        if head.lower_ in PRONOUN_LIKE or head.lemma_.lower() in PRONOUN_LIKE:
            return "a pronoun-like head (someone, anything)"
        if any(t.is_space or not t.text.strip() for t in chunk):
            return "whitespace inside the chunk"
        if any(p.start < chunk.end_char and chunk.start_char < p.end for p in protected):
            return "holds an entity"
        for t in chunk[:-1]:
            if t.dep_ in ("compound", "nmod", "npadvmod", "poss") or t.pos_ in ("NOUN", "PROPN", "NUM"):
                return "a compound or noun modifier"
        if any(c.dep_ in ("compound", "prt") for c in head.children):
            return "a compound or particle"
        if head.dep_ == "compound":
            return "part of a compound"
        nxt = doc[head.i + 1] if head.i + 1 < len(doc) else None
        if nxt is not None and (nxt.tag_ == "RP" or nxt.pos_ in ("NOUN", "PROPN")):
            return "followed by a particle or noun"
        if head.tag_ == "NN" and not any(
            t.dep_ in ("det", "poss", "nummod") or t.tag_ in ("DT", "PRP$", "WP$") for t in chunk[:-1]
        ):
            return "a singular noun without a determiner (mass use: the substitute may not be one)"
        if head.lower_.endswith("ing"):
            return "a gerund"
        if any(c.dep_ == "prep" and c.lower_ in _PARTITIVE_PREPS for c in head.children):
            return "takes an 'of' complement"
        prev = doc[head.i - 1] if head.i > 0 else None
        if prev is not None and prev.is_alpha and is_lemma(f"{prev.text} {head.text}", "NOUN"):
            return "part of a collocation"
        if nxt is not None and nxt.is_alpha and is_lemma(f"{head.text} {nxt.text}", "NOUN"):
            return "part of a collocation"
        return None

    @staticmethod
    def _head_form(lemma: str, tag: str, article: bool) -> str | None:
        """``lemma`` in the head's number, or ``None`` when it has no defensible form there."""
        try:
            from lemminflect import getLemma
        except ImportError:  # pragma: no cover - depends on the install
            getLemma = None  # noqa: N806
        own = getLemma(lemma, "NOUN") if getLemma is not None else (lemma,)
        plural_only = bool(own) and lemma not in own  # "authorities", "earnings"
        if tag == "NN":
            if plural_only:
                return None
            if article:  # after "a"/"an" the noun must count: its plural must be in use
                plural = inflect(lemma, "NNS")
                if plural is None or plural == lemma or _zipf(plural) < 2.5:
                    return None
            return lemma
        return lemma if plural_only else inflect(lemma, "NNS")

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        if _lexicon_problem() is not None:
            return []
        doc = parse(x.text)
        protected = protected_spans(x, doc)
        proposals: list[_Proposal] = []
        n_slots = 0
        for chunk in doc.noun_chunks:
            if self._chunk_problem(chunk, protected) is not None:
                continue
            head = chunk.root
            if target_refused(head) is not None:
                continue
            neighbours = _neighbours(head)
            c0, c1 = chunk.start_char, chunk.end_char
            h0, h1 = head.idx, head.idx + len(head.text)
            first = chunk[0]
            article = first.lower_ in ("a", "an") and len(chunk) >= 2
            sent = head.sent
            s0 = sent.start_char
            slot = n_slots
            found = 0
            for lemma in self._ordered(x, head, h0, h1, "NOUN"):
                form = self._head_form(lemma, head.tag_, article)
                if form is None or form == head.lower_ or _zipf(form) < _MIN_ZIPF:
                    continue
                if form_problem(head.lower_, "NOUN", form) is not None:
                    continue
                need = CONFIRM_DOMINANT
                if not collocation_kept(head.lower_, form, neighbours):
                    continue
                words = [t.text_with_ws for t in chunk[:-1]] + [form]
                if article:
                    following = form if len(chunk) == 2 else chunk[1].text
                    words[0] = _article(following, first.text) + first.whitespace_
                phrase = "".join(words)
                edits = [(c0 - s0, c1 - s0, phrase)]
                note = f"noun phrase {chunk.text!r} -> {phrase!r}"
                meta = dict(
                    kind="phrase", original=chunk.text, replacement=phrase, head=head.text, tag=head.tag_,
                    position=[c0, c1], lemma=lemma,
                )  # fmt: skip
                proposals.append(
                    _Proposal(
                        slot, s0, x.text[s0 : sent.end_char], edits,
                        lambda c0=c0, c1=c1, phrase=phrase, note=note, meta=meta: _replacement(
                            x, c0, c1, phrase, note, **meta
                        ),
                        need, (x.text, x.text[:c0] + phrase + x.text[c1:]),
                    )
                )  # fmt: skip
                found += 1
                if found >= _CANDIDATES_PER_WORD:
                    break
            n_slots += found > 0
        return self._slots(proposals, n_slots, doc)


# TIN's entity shuffle lives in its own module (kinds verified independently of the NER label).
from .transforms_shuffle import ShuffleEntities  # noqa: E402

# -- an independent check of a built follow-up ---------------------------------------------------


def followup_problem(x: NERInput, draft: Any) -> str | None:
    """Why a built follow-up of one of these transformations is not defensible, or ``None``.

    Re-derives the checks from the source and the follow-up text alone (not from how the
    transformation built it): for a word or phrase substitution, every changed word but
    an article must be a reviewed synonym (:mod:`mtwidgets.lang.synonyms_en`) of the word it
    replaces, no antonym of it, and the changed sentence must keep its parse; for a shuffle,
    every moved mention must be a name of a swappable category; for a question, no clitic
    may lead. Used by tests to step through what the Explorer would show.
    """
    from ..lang.frames import same_structure
    from ..lang.synonyms_en import vetted_synonyms
    from ..lang.wordnet import antonyms
    from .filters import changed_region

    fu = draft.followups[0].text
    kind = (draft.meta or {}).get("kind")
    if kind in ("token", "phrase"):
        (a0, a1), (b0, b1) = changed_region(x.text, fu)
        old_words, new_words = x.text[a0:a1].split(), fu[b0:b1].split()
        if len(old_words) != len(new_words):
            return "the substitution changes the number of words"
        doc = parse(x.text)
        pos_at = {t.idx: t for t in doc}
        offset = a0
        changed = 0
        for old, new in zip(old_words, new_words):
            start = x.text.index(old, offset)
            offset = start + len(old)
            if old == new or (old.lower() in ("a", "an") and new.lower() in ("a", "an")):
                continue
            changed += 1
            tok = pos_at.get(start)
            if tok is None or tok.pos_ not in ("VERB", "ADJ", "NOUN"):
                return f"{old!r} is not a verb, adjective or noun"
            allowed = vetted_synonyms(tok.lemma_.lower(), tok.pos_)
            new_lemmas = {inflect(w, tok.tag_): w for w in allowed}
            if new.lower() not in new_lemmas:
                return f"{new!r} is not a reviewed synonym of {old!r}"
            if new_lemmas[new.lower()] in antonyms(tok.lemma_.lower(), tok.pos_):
                return f"{new!r} is an antonym of {old!r}"
            before = fu[: b0 + fu[b0:].index(new)].split()[-1:] if new in fu[b0:] else []
            if before and before[0].lower() in ("a", "an") and before[0].lower() != _article(new, "a"):
                return f"the article {before[0]!r} does not agree with {new!r}"
            sent = tok.sent
            s_old = x.text[sent.start_char : sent.end_char]
            s_new = fu[sent.start_char : sent.end_char + len(fu) - len(x.text)]
            d_old, d_new = _structure_parse([s_old, s_new])
            if not same_structure(d_old, d_new):
                return "the changed sentence parses differently"
        return None if changed else "nothing changed"
    if kind == "shuffle":
        from .transforms_shuffle import shuffle_problem

        return shuffle_problem(x, draft)
    if fu[:1] in "'\u2019\u2018":
        return "a clitic leads the follow-up"
    return None
