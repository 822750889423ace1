"""Structural transformation: declarative sentence -> yes/no question (TIN, section 3.2.2).

From spaCy's dependency parse (the paper uses a constituency parse; the three cases are
the same):

1. a finite auxiliary or modal before the main verb is fronted ("He has faced floods." ->
   "Has he faced floods?"; "He did not go." -> "Did he not go?", negation kept);
2. a copular or existential *be* as the main verb is fronted ("He is a student." -> "Is
   he a student?", "There is a cat." -> "Is there a cat?");
3. any other finite main verb gets do-support carrying its tense and person
   (VBD -> did, VBZ -> does, VBP -> do) and goes to its base form ("He cried." -> "Did he
   cry?", "She likes tea." -> "Does she like tea?").

"." becomes "?", the new first word is capitalised and the old one lower-cased unless it
is a proper noun, "I" or part of an entity. A fronted adverbial ending with a comma stays
in front ("In 2010, Obama visited Paris." -> "In 2010, did Obama visit Paris?").

Sentences it cannot handle yield no follow-up, each with a reason (:func:`question_edits`
returns it): several sentences, not ending with ".", no finite root verb, no subject before
the verb (imperatives, inversions), coordinated main clauses, contractions ("can't",
"he's"), a root verb inside an entity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.spans import Span
from ..lang.inflect import inflect
from .inputs import NERInput
from .transforms_base import (
    Candidate,
    Edit,
    NERTransformation,
    build_candidate,
    parse,
    protected_spans,
    touches,
)

_BE_FORMS = frozenset({"am", "is", "are", "was", "were"})
_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}
_FINITE_AUX = frozenset({"MD", "VBD", "VBZ", "VBP"})
_CONTRACTED = frozenset({"'s", "’s", "'re", "'m", "'ll", "'ve", "'d", "n't", "n’t", "ca", "wo", "sha"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "expl"})
_NUMERIC = frozenset({"CARDINAL", "QUANTITY", "DATE", "TIME", "PERCENT", "MONEY", "ORDINAL"})


def _finite_tag(root: Any, subj: Any) -> str:
    """The root's tag, reading a root VBN with an active subject and no auxiliary as the
    past tense it must be ("The firm hired staff.", which the small tagger calls VBN)."""
    if (
        root.tag_ == "VBN"
        and subj.dep_ == "nsubj"
        and not any(c.dep_ in ("aux", "auxpass") for c in root.children)
    ):
        return "VBD"
    return str(root.tag_)


def base_form(word: str, lemma: str, tag: str) -> str | None:
    """The base form for do-support, checked by inflecting it back to ``word``.

    spaCy's lemma is usually right but not always ("fined" -> "fin"); a candidate counts
    only if :func:`~mtwidgets.lang.inflect.inflect` turns it back into the word, so a
    wrong base form never reaches a question ("Did the Commission fin ...?").
    """
    word, lemma = word.lower(), lemma.lower()
    fits = [
        c
        for c in dict.fromkeys((lemma, lemma + "e", word[:-1], word[:-2], word[:-2] + "e", word[:-3]))
        if c.isalpha() and inflect(c, tag) == word
    ]
    if len(fits) > 1:  # "expelled": "expelle" and "expel" both inflect back; the real word wins
        try:
            from wordfreq import zipf_frequency
        except ImportError:  # pragma: no cover - depends on the install
            return fits[0]
        fits.sort(key=lambda c: -zipf_frequency(c, "en"))
    return fits[0] if fits else None


def question_edits(
    doc: Any, protected: Sequence[Span] = (), gold: Sequence[Span] = ()
) -> tuple[list[Edit], str] | str:
    """The edits turning the parsed sentence ``doc`` into a question, with the case used
    (``"auxiliary"``, ``"be"``, ``"do-support"``), or the reason it cannot.

    ``protected`` spans are left verbatim, except that a leading determiner or number word
    of a reference entity ("The United Nations", "Three people", "Tens of thousands") is
    lower-cased; inside a ``gold`` span even that stays.
    """
    sents = list(doc.sents)
    if len(sents) != 1:
        return "more than one sentence"
    last = doc[len(doc) - 1]
    if last.text != ".":
        return "does not end with '.' (already a question, an exclamation or a quote)"
    root = sents[0].root
    if root.pos_ not in ("VERB", "AUX"):
        return f"no root verb (root {root.text!r} is {root.pos_})"
    # The small parser sometimes hangs the subject on the auxiliary ("It was raining.").
    heads = [root, *(c for c in root.children if c.dep_ in ("aux", "auxpass"))]
    subjects = [c for h in heads for c in h.children if c.dep_ in _SUBJECT_DEPS and c.i < root.i]
    if not subjects:
        return "no subject before the verb (imperative or inverted sentence)"
    subj = subjects[0]
    if any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") for c in root.children):
        return "coordinated main clauses"
    if any(t.text.lower() in _CONTRACTED for t in doc):
        return "a contraction"
    s0 = subj.left_edge.i
    if s0 > 0 and doc[s0 - 1].text != ",":
        return "words before the subject not closed by a comma"
    if any(t.pos_ in ("VERB", "AUX") for t in doc[:s0]):
        return "a clause before the subject"
    after_subject = [c for c in root.children if c.dep_ in ("aux", "auxpass") and c.i > subj.right_edge.i]
    edits: list[Edit] = []
    start = doc[s0].idx
    if after_subject:
        mover, case = min(after_subject, key=lambda t: t.i), "auxiliary"
        if mover.tag_ not in _FINITE_AUX:
            return f"the auxiliary {mover.text!r} is not finite ({mover.tag_})"
    elif root.lemma_.lower() == "be" and root.text.lower() in _BE_FORMS and root.i > subj.right_edge.i:
        mover, case = root, "be"
    elif _finite_tag(root, subj) in _DO and root.pos_ == "VERB" and root.i > subj.right_edge.i:
        mover, case = None, "do-support"
    else:
        return f"the verb {root.text!r} ({root.tag_}) fits none of the three cases"
    if mover is not None:
        prev = doc[mover.i - 1]
        edits.append((start, start, mover.text.lower() + " "))
        edits.append((prev.idx + len(prev.text), mover.idx + len(mover.text), ""))
    else:
        lemma = base_form(root.text, root.lemma_, _finite_tag(root, subj))
        if lemma is None:
            return f"no reliable base form for {root.text!r} (lemma {root.lemma_!r})"
        edits.append((start, start, _DO[_finite_tag(root, subj)] + " "))
        edits.append((root.idx, root.idx + len(root.text), lemma))
    first = doc[0]
    if s0 == 0:
        edits[0] = (start, start, edits[0][2][:1].upper() + edits[0][2][1:])
        in_entity = [p for p in protected if p.start <= first.idx < p.end]
        keeps_case = (
            first.pos_ == "PROPN"
            or first.text == "I"
            or (first.text.isupper() and len(first.text) > 1)
            # "The" opening an entity ("The United Nations") is lower-cased only when the
            # entity is a reference one: a gold mention must stay verbatim.
            or any(first.pos_ not in ("DET", "NUM") and p.label not in _NUMERIC for p in in_entity)
            or any(g.start <= first.idx < g.end for g in gold)
        )
        if not keeps_case and first.text[:1].isupper():
            edits.append((first.idx, first.idx + 1, first.text[0].lower()))
    edits.append((last.idx, last.idx + 1, "?"))
    case_edit = {(first.idx, first.idx + 1)}
    if any(touches(p, [e for e in edits if e[:2] not in case_edit]) for p in protected):
        return "the edit would change an entity"
    return edits, case


class ToQuestion(NERTransformation):
    """Declarative -> interrogative (MR1 / MR2 structural transformation of TIN).

    One follow-up per applicable sentence; ``meta["case"]`` names the verb case used.
    """

    requirement = "a one-clause declarative sentence with a subject and a finite verb, ending with '.'"

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        doc = parse(x.text)
        found = question_edits(doc, protected_spans(x, doc), x.gold)
        if isinstance(found, str):
            return []
        edits, case = found
        c = build_candidate(x, edits, f"question ({case})", case=case)
        return [[c]] if c is not None else []


def to_question(text: str) -> str | None:
    """The question form of ``text``, or ``None`` when it cannot be built (a convenience
    for notebooks and tests; the transformation is :class:`ToQuestion`)."""
    x = NERInput(text)
    slots = ToQuestion()._candidates(x)
    return slots[0][0].text if slots else None
