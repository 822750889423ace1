"""Structural transformation: declarative sentence -> yes/no question (TIN, section 3.2.2).

From spaCy's dependency parse (the paper uses a constituency parse; the three cases are
the same):

1. a finite auxiliary or modal before the main verb is fronted ("He has faced floods." ->
   "Has he faced floods?"; "He did not go." -> "Did he not go?", negation kept);
2. a copular or existential *be* as the main verb is fronted ("He is a student." -> "Is
   he a student?", "There is a cat." -> "Is there a cat?");
3. any other finite main verb gets do-support carrying its tense and person
   (VBD -> did, VBZ -> does, VBP -> do) and goes to its base form ("He cried." -> "Did he
   cry?", "She likes tea." -> "Does she like tea?"); so does a main-verb *have*, even where
   the parser reads it as an auxiliary ("The house has sliding screens." -> "Does the house
   have sliding screens?"; only a perfect, *have* before a past participle, is fronted).

"." becomes "?", the new first word is capitalised and the old one lower-cased when it is
an ordinary word or a leading "The"/"A" (even of a name: "Is the Karakoram Highway ...?"),
kept when it is a name ("Did Novozymes invest ...?", "Will Ashcombe be replaced ...?": a word
no dictionary has, even one the tagger calls a noun); a dictionary word that is also a known
name ("Rose", "Baker") outside any entity is refused, its case being uncertain, and so is
a capitalised adjective no lexicon knows in lower case that is no known name or nationality
("Saharan dust ...": a proper adjective the model tagged as no entity, never lower-cased).

Sentences it cannot handle yield no follow-up, each with a reason (:func:`question_edits`
returns it): several sentences, not ending with ".", no finite root verb, no subject before
the verb (imperatives, inversions), anything before the subject (a fronted adverbial,
phrase or clause: "Every morning, Pip crept out."), a comma-separated phrase after the main
clause that is no list item (an appositive, a participial phrase, a non-restrictive relative
clause: "..., a girl called Iris", "..., leaning on a cane"), coordinated main clauses or
verbs, under do-support a verb coordinated with another verb and without a subject of its
own wherever the parser hung it ("The tribunal ruled that ... and awarded her £18,500": the
second verb would stay finite), the modals "may", "might" and "must" (fronted, they ask for
permission or obligation: "May the dust leave a film?"), contractions with any apostrophe
("can't", "he's", "They’re": a clitic is never fronted), a root verb inside an entity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.inputs import BaseInput
from ..core.relation import Slots
from ..core.spans import Span
from ..lang.inflect import inflect
from .inputs import NERInput
from .transforms_base import (
    Candidate,
    Edit,
    NERTransformation,
    build_candidate,
    ner_input,
    parse,
    protected_spans,
    touches,
)

_BE_FORMS = frozenset({"am", "is", "are", "was", "were"})
_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}
_FINITE_AUX = frozenset({"MD", "VBD", "VBZ", "VBP"})
# Modals whose fronting turns possibility or inference into a request for permission or an
# old-fashioned obligation ("Saharan dust may leave a film." -> "May Saharan dust leave ...?").
_UNFRONTABLE_MODALS = frozenset({"may", "might", "must"})
_CONTRACTED = frozenset({"'s", "'re", "'m", "'ll", "'ve", "'d", "n't", "ca", "wo", "sha", "'em", "'all"})
# Apostrophe look-alikes normalised before contractions are recognised ("They’re", "can‘t").
_APOSTROPHES = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "\u0060": "'", "\uff07": "'"}
)


def _contraction(token: str) -> bool:
    """Whether a token is (or holds) a contracted clitic, whatever the apostrophe."""
    low = token.lower().translate(_APOSTROPHES)
    return low in _CONTRACTED or ("'" in low and low.split("'")[-1] in ("s", "re", "m", "ll", "ve", "d", "t"))


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


def _is_verb(lemma: str) -> bool:
    """Whether ``lemma`` is a verb lemminflect knows (so "us" is never the base of "used")."""
    try:
        from lemminflect import getAllInflections
    except ImportError:  # pragma: no cover - depends on the install
        return True
    return bool(getAllInflections(lemma, upos="VERB"))


def base_form(word: str, lemma: str, tag: str) -> str | None:
    """The base form for do-support, checked by inflecting it back to ``word``.

    The candidates are lemminflect's verb lemmas of the word and spaCy's lemma (which is
    usually right but not always: "fined" -> "fin"); a candidate counts only if it is a
    known verb and :func:`~mtwidgets.lang.inflect.inflect` turns it back into the word, so
    a wrong base form never reaches a question ("Did the Commission fin ...?", "Did the
    team us ...?"). Suffix stripping is the last resort, for verbs lemminflect lacks.
    """
    word, lemma = word.lower(), lemma.lower()
    try:
        from lemminflect import getAllLemmas

        known = list(getAllLemmas(word, upos="VERB").get("VERB", ()))
    except ImportError:  # pragma: no cover - depends on the install
        known = []
    for pool in (
        [*known, lemma],
        [lemma + "e", word[:-1], word[:-2], word[:-2] + "e", word[:-3]],
    ):
        fits = [c for c in dict.fromkeys(pool) if c.isalpha() and _is_verb(c) and inflect(c, tag) == word]
        if fits:
            return fits[0]  # lemminflect's own order, spaCy's lemma after it
    return None


_CLAUSE_DEPS = frozenset({"relcl", "advcl", "ccomp", "csubj", "acl", "xcomp", "pcomp", "parataxis"})


def _in_main_clause(t: Any, root: Any) -> bool:
    """Whether token ``t`` belongs to the main clause of ``root`` (no subordinate clause
    relation on its way up to the root)."""
    node = t
    while node.head.i != node.i and node.i != root.i:
        if node.dep_ in _CLAUSE_DEPS:
            return False
        node = node.head
    return True


def _main_clause_conjunct(doc: Any, root: Any) -> Any | None:
    """A verb coordinated with the main clause ("... near X and stores the gas"), wherever
    the small parser attached it, or ``None``. A conjunct inside a subordinate clause
    ("said that she left and he stayed") does not count."""
    for t in doc:
        if t.i == root.i or t.dep_ != "conj":
            continue
        if not (t.pos_ in ("VERB", "AUX") or t.tag_ in ("VBD", "VBZ", "VBP", "MD")):
            continue
        if _in_main_clause(t, root):
            return t
    return None


def _other_finite_verb(doc: Any, root: Any) -> Any | None:
    """A finite verb of the main clause besides the root and its auxiliaries ("Desai grew up
    in Pune and studied design", however the parser attached "studied"), or ``None``. A
    conjunct hanging from the root beside a coordinator counts whatever its tag (the small
    parser reads that "studied" as an adjective of "design", the conjunct)."""
    conjuncts = [c for c in root.children if c.dep_ == "conj"]
    if conjuncts and any(c.dep_ == "cc" for c in root.children):
        return conjuncts[0]
    for t in doc:
        if t.i == root.i or t.tag_ not in ("VBD", "VBZ", "VBP"):
            continue
        if t.head.i == root.i and t.dep_ in ("aux", "auxpass"):
            continue
        if _in_main_clause(t, root):
            return t
    return None


_CONJUNCT_TAGS = frozenset({"VBD", "VBZ", "VBP", "VBN"})


def _subjectless_conjunct(doc: Any) -> Any | None:
    """A verb coordinated with another verb that has no subject of its own and a finite or
    past-participle form, wherever the parser attached it, or ``None``.

    Under do-support such a verb may be the second predicate of the main subject ("The
    tribunal ruled that she had been dismissed and awarded her £18,500", which the parser
    hangs on the subordinate "dismissed"); it would stay finite beside "did". A conjunct
    with its own subject ("that she left and he stayed") is a clause of its own.
    """
    for t in doc:
        if t.dep_ != "conj" or t.tag_ not in _CONJUNCT_TAGS:
            continue
        head = t.head
        while head.dep_ == "conj" and head.head.i != head.i:
            head = head.head
        if head.pos_ not in ("VERB", "AUX"):
            continue  # "goods produced and sold": a participle coordinated inside a noun phrase
        if not any(c.dep_ in _SUBJECT_DEPS for c in t.children):
            return t
    return None


# Names whose leading article is part of the name in every position.
_KEEP_ARTICLE = frozenset({"the hague", "a coruña", "a coruna", "the bronx"})
# Endings of substance and material names the small model may take for a person ("Graphene").
_SUBSTANCE_SUFFIXES = ("ene", "ium", "ide", "ase", "ite", "ane", "ol")
_FUNCTION_POS = frozenset(
    {"DET", "PRON", "ADV", "ADP", "NUM", "CCONJ", "SCONJ", "ADJ", "AUX", "VERB", "PART"}
)
# Closed word classes: a capitalised first word of one is never a name.
_CLOSED_POS = frozenset({"DET", "PRON", "ADP", "NUM", "CCONJ", "SCONJ", "AUX", "PART"})


def _first_word_case(doc: Any, first: Any, protected: Sequence[Span], gold: Sequence[Span]) -> str:
    """``"lower"`` when the sentence's first word is an ordinary word that loses its capital
    mid-sentence, ``"keep"`` when it is (part of) a name, ``"refuse"`` when it may be either."""
    from ..lang.kinds import is_nationality
    from .transforms_shuffle import known_name_word

    in_gold = [g for g in gold if g.start <= first.idx < g.end]
    in_ref = [p for p in protected if p.start <= first.idx < p.end and p not in in_gold]
    text = doc.text
    if first.lower_ in ("the", "a", "an"):
        if any(text[first.idx :].lower().startswith(k + " ") for k in _KEEP_ARTICLE):
            return "keep"
        return "lower"
    if first.text == "I" or (first.text.isupper() and len(first.text) > 1):
        return "keep"
    if any(p.label in _NUMERIC for p in [*in_gold, *in_ref]):
        return "lower"  # "Three people", "Tens of thousands"
    entity = [*in_gold, *in_ref]
    single = not entity or all(len(text[p.start : p.end].split()) == 1 for p in entity)
    if (
        single
        and first.pos_ in ("NOUN", "PROPN")
        and _dictionary_word(first.lower_)
        and not known_name_word(first.text)
    ):
        # a bare capitalised dictionary noun leading the sentence: a common noun ("Police")
        # or a name made of one ("Hearts" the club, "Magistrates" tagged as an organisation)
        return "refuse"
    if in_gold:
        return "keep"
    name_entity = [p for p in in_ref if p.label not in _NUMERIC]
    if not name_entity and first.pos_ in _FUNCTION_POS:
        if first.pos_ in _CLOSED_POS or _ordinary_word(first.lower_):
            return "lower"
        # a capitalised adjective or verb form no lexicon knows in lower case: a proper
        # adjective ("Saharan dust", "Victorian houses") the model tagged as no entity
        if known_name_word(first.text) or is_nationality(first.text):
            return "keep"
        return "refuse"
    if known_name_word(first.text, people=False):
        return "keep"  # a known place or organisation ("Uber drivers", "Amazon")
    if not name_entity and first.pos_ != "PROPN":
        # a common noun ("Police") loses its capital; a word no dictionary has is a name the
        # tagger took for a noun ("Whitmore", "Novozymes"); a dictionary word that is also a
        # known name ("Baker", "Rose") may be either
        if not _dictionary_word(first.lower_):
            if first.lower_.endswith(_SUBSTANCE_SUFFIXES):
                return "refuse"  # "Graphene", "Lithium": a substance or a name, nothing tells which
            return "keep"
        return "refuse" if known_name_word(first.text) else "lower"
    if any(len(text[p.start : p.end].split()) > 1 for p in name_entity):
        return "keep"  # the first word of a longer name ("Elena Marchetti", "Mount Everest")
    nxt = doc[first.i + 1] if first.i + 1 < len(doc) else None
    if first.pos_ == "PROPN" and nxt is not None and nxt.pos_ == "PROPN" and nxt.text[:1].isupper():
        return "keep"  # a name or a title before one ("Arsenal FC", "Chancellor Rachel Reeves")
    if not _dictionary_word(first.lower_):
        if first.lower_.endswith(_SUBSTANCE_SUFFIXES) and not known_name_word(first.text):
            return "refuse"  # "Graphene", "Lithium" read as a name: a substance, not a name
        return "keep"  # a capitalised word no dictionary has: a name ("Obama", "Novozymes")
    # a word that is also a common noun: a name only when a lexicon knows it as one and it
    # does not modify a common noun ("Smith said", "Shell reported"; not "Rice prices")
    modifier = first.dep_ in ("compound", "amod") and first.head.tag_ in ("NN", "NNS")
    if known_name_word(first.text, people=not modifier):
        return "keep"
    return "refuse"  # "Hydrogen", "Rice prices": a name or a common noun, nothing tells which


def _ordinary_word(word: str) -> bool:
    """Whether lower-case ``word`` is a word of lemminflect's lexicon in any open class
    (noun, adjective, verb, adverb): an ordinary word that loses its capital mid-sentence."""
    try:
        from lemminflect import getAllLemmas
    except ImportError:  # pragma: no cover - depends on the install
        return False
    return any(getAllLemmas(word, upos=pos) for pos in ("NOUN", "ADJ", "VERB", "ADV"))


def _dictionary_word(word: str) -> bool:
    """Whether lower-case ``word`` is a common noun or adjective of lemminflect's lexicon."""
    try:
        from lemminflect import getAllLemmas
    except ImportError:  # pragma: no cover - depends on the install
        return False
    return bool(getAllLemmas(word, upos="NOUN") or getAllLemmas(word, upos="ADJ"))


def _main_verb_have(aux: Any, rest: Sequence[Any]) -> bool:
    """Whether the auxiliary-looking ``aux`` is a finite main verb *have*: the next verb is
    no past participle ("has sliding paper screens", "had running water"), so the perfect
    ("has survived", "has been working") is not what the sentence says."""
    if aux.lemma_.lower() != "have" or aux.text.lower() not in ("has", "have", "had"):
        return False
    nxt = min(rest, key=lambda t: t.i) if rest else None
    return nxt is None or nxt.tag_ != "VBN"


# Dependencies of a phrase that may follow a comma after the verb: a list item or its "and".
_LIST_DEPS = frozenset({"conj", "cc"})


def _trailing_phrase(doc: Any, root: Any) -> str | None:
    """The first word of a comma-separated phrase after the main verb that is no item of a
    list: an appositive ("..., a girl called Iris"), a participial or absolute phrase
    ("..., leaning on a cane"), a non-restrictive relative clause ("..., which ..."); the
    question would ask about it too, or hang it on the wrong word. ``None`` when there is none."""
    for t in doc[root.i + 1 : len(doc) - 1]:
        if t.text not in (",", ";", "–", "—", "--") or t.i + 1 >= len(doc) - 1:
            continue
        nxt = doc[t.i + 1]
        phrase = nxt
        while phrase.head.i != phrase.i and phrase.head.left_edge.i == nxt.i:
            phrase = phrase.head
        if t.text == "," and (phrase.dep_ in _LIST_DEPS or nxt.dep_ in _LIST_DEPS):
            continue  # "bread, cakes and pastries"
        return str(nxt.text)
    return None


def question_edits(
    doc: Any, protected: Sequence[Span] = (), gold: Sequence[Span] = ()
) -> tuple[list[Edit], str] | str:
    """The edits turning the parsed sentence ``doc`` into a question, with the case used
    (``"auxiliary"``, ``"be"``, ``"do-support"``), or the reason it cannot.

    ``protected`` spans are left verbatim, except that a sentence-initial "The"/"A" is
    lower-cased even inside an entity ("The United Nations", but "The Hague" stays), and so
    is the number word of a numeric entity ("Three people", "Tens of thousands"); a name
    keeps its capital (a proper noun, a gold mention, a known given name, surname, place or
    organisation, a rare word), an ordinary word loses it ("Graphene", "Police").
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
    if _main_clause_conjunct(doc, root) is not None or _other_finite_verb(doc, root) is not None:
        return "coordinated main clauses or verbs (the second verb would stay finite)"
    if any(_contraction(t.text) for t in doc):
        return "a contraction (a clitic such as 're or n't is never moved to the front)"
    s0 = subj.left_edge.i
    if s0 > 0:
        return "words before the subject (a fronted adverbial or clause stays awkwardly in front)"
    trailing = _trailing_phrase(doc, root)
    if trailing is not None:
        return f"a comma-separated phrase after the main clause ({trailing!r} ...)"
    after_subject = sorted(
        (c for c in root.children if c.dep_ in ("aux", "auxpass") and c.i > subj.right_edge.i),
        key=lambda t: t.i,
    )
    edits: list[Edit] = []
    start = doc[s0].idx
    verb = root  # the verb that gets do-support
    if after_subject and _main_verb_have(after_subject[0], [*after_subject[1:], root]):
        # "The house has sliding screens." (parsed as "has" + VBG): "have" is the main verb
        verb, tag = after_subject[0], after_subject[0].tag_
        mover, case = None, "do-support"
    elif after_subject:
        mover, case = after_subject[0], "auxiliary"
        if mover.tag_ not in _FINITE_AUX:
            return f"the auxiliary {mover.text!r} is not finite ({mover.tag_})"
        if mover.lower_ in _UNFRONTABLE_MODALS:
            return (
                f"the modal {mover.text!r} fronted asks for permission or obligation, "
                "not about a possibility or an inference"
            )
    elif root.lemma_.lower() == "be" and root.text.lower() in _BE_FORMS and root.i > subj.right_edge.i:
        mover, case = root, "be"
    elif (
        _finite_tag(root, subj) in _DO
        and (root.pos_ == "VERB" or root.lemma_.lower() == "have")
        and root.i > subj.right_edge.i
    ):
        mover, case, tag = None, "do-support", _finite_tag(root, subj)
    else:
        return f"the verb {root.text!r} ({root.tag_}) fits none of the three cases"
    if mover is not None:
        prev = doc[mover.i - 1]
        edits.append((start, start, mover.text.lower() + " "))
        edits.append((prev.idx + len(prev.text), mover.idx + len(mover.text), ""))
    else:
        if tag not in _DO:
            return f"the verb {verb.text!r} ({verb.tag_}) is not finite"
        shared = _subjectless_conjunct(doc)
        if shared is not None:
            return (
                f"the verb {shared.text!r} may share the subject of {verb.text!r} "
                "and would stay finite after do-support"
            )
        lemma = base_form(verb.text, verb.lemma_, tag)
        if lemma is None:
            return f"no reliable base form for {verb.text!r} (lemma {verb.lemma_!r})"
        edits.append((start, start, _DO[tag] + " "))
        edits.append((verb.idx, verb.idx + len(verb.text), lemma))
    first = doc[0]
    edits[0] = (start, start, edits[0][2][:1].upper() + edits[0][2][1:])
    how = _first_word_case(doc, first, protected, gold) if first.text[:1].isupper() else "keep"
    if how == "refuse":
        return f"the first word {first.text!r} may be a name or an ordinary word (its case is uncertain)"
    if how == "lower":
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

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        slots = super()._options(sources)
        if slots:
            return slots
        x = ner_input(sources)
        doc = parse(x.text)
        found = question_edits(doc, protected_spans(x, doc), x.gold)
        return Slots([], [found if isinstance(found, str) else "the question would cut an entity"])

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        doc = parse(x.text)
        found = question_edits(doc, protected_spans(x, doc), x.gold)
        if isinstance(found, str):
            return []
        edits, case = found
        pos = doc[0].idx
        recase = [e for e in edits if e[0] == pos and e[1] == pos + 1]
        c = build_candidate(x, [e for e in edits if e not in recase], f"question ({case})", case=case)
        if c is not None and recase:
            c = _recased(c, pos, recase[0][2])
        return [[c]] if c is not None else []


def _recased(c: Candidate, pos: int, char: str) -> Candidate | None:
    """``c`` with the source character at ``pos`` (kept by the alignment) replaced by
    ``char`` of the same length: a case change, which keeps every gold span in place
    ("The Karakoram Highway" -> "the Karakoram Highway", same offsets)."""
    for i, (a, b, c0, d) in enumerate(c.alignment):
        if a <= pos < b:
            at = c0 + pos - a
            text = c.text[:at] + char + c.text[at + 1 :]
            pieces = tuple(p for p in ((a, pos, c0, at), (pos + 1, b, at + 1, d)) if p[1] > p[0])
            alignment = c.alignment[:i] + pieces + c.alignment[i + 1 :]
            return Candidate(text, alignment, c.gold, c.note, c.meta)
    return None


def to_question(text: str) -> str | None:
    """The question form of ``text``, or ``None`` when it cannot be built (a convenience
    for notebooks and tests; the transformation is :class:`ToQuestion`)."""
    x = NERInput(text)
    slots = ToQuestion()._candidates(x)
    return slots[0][0].text if slots else None
