"""TIN-question: base forms, coordinated verbs and the first word's case.

Each case is a full sentence with a pattern that once produced an invalid question; the
transformation must now give the valid question shown, or none.
"""

from __future__ import annotations

import random

import pytest

import mtwidgets as mt
from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput
from mtwidgets.ner.transforms_question import ToQuestion, base_form, question_edits, to_question

VALID = [
    # the base form is a real verb: "used" -> "use", never "us"
    ("The research team used the Hubble Space Telescope to study the nebula.",
     "Did the research team use the Hubble Space Telescope to study the nebula?"),
    ("The engineers used recycled steel for the frame.",
     "Did the engineers use recycled steel for the frame?"),
    # a sentence-initial name keeps its capital, even when the tagger calls it a noun
    ("Novozymes invested heavily in enzyme research.",
     "Did Novozymes invest heavily in enzyme research?"),
    # a leading "The" of a name loses its capital mid-sentence
    ("The Karakoram Highway is one of the highest paved roads in the world.",
     "Is the Karakoram Highway one of the highest paved roads in the world?"),
    ("The Taj Mahal was commissioned by Shah Jahan.", "Was the Taj Mahal commissioned by Shah Jahan?"),
    ("The Philadelphia Eagles won the Super Bowl in February.",
     "Did the Philadelphia Eagles win the Super Bowl in February?"),
    # ... but not where the article is part of the name everywhere
    ("The Hague hosts the International Court of Justice.",
     "Does The Hague host the International Court of Justice?"),
    # an ordinary first word loses its capital
    ("Heavy snow closed the pass near Innsbruck.", "Did heavy snow close the pass near Innsbruck?"),
    # a subordinate clause with its own coordination is no main-clause coordination
    ("He said that she left and he stayed.", "Did he say that she left and he stayed?"),
    # a surname no NER tags and the tagger calls a noun keeps its capital
    ("Ashcombe will be replaced by her deputy.", "Will Ashcombe be replaced by her deputy?"),
    ("Hargreaves has a collection of antique clocks.", "Does Hargreaves have a collection of antique clocks?"),
    # main-verb "have" takes do-support, even where the parser reads it as an auxiliary
    ("The cabin near Oslo has sliding glass doors.", "Does the cabin near Oslo have sliding glass doors?"),
    ("The museum in Lisbon had a collection of Roman coins.",
     "Did the museum in Lisbon have a collection of Roman coins?"),
    # ... while the perfect's auxiliary is fronted
    ("The old bridge has survived two floods.", "Has the old bridge survived two floods?"),
    ("Morrison has been working on the project since January.",
     "Has Morrison been working on the project since January?"),
    # a comma inside a list after the verb is no trailing phrase
    ("The bakery sells bread, cakes and pastries.", "Does the bakery sell bread, cakes and pastries?"),
]  # fmt: skip

REFUSED = [
    # a bare capitalised dictionary noun leading the sentence: a common noun or a one-word name
    "Police arrested two men near the harbour.",
    "Rovers beat United on Saturday.",
    "Magistrates fined the owner of the kennels.",
    # a conjunct verb the small parser misreads ("studied" as an adjective of "design")
    "Desai grew up in Pune and studied textile design in Ahmedabad.",
    # a second verb coordinated with the main clause would stay finite
    "The depot is close to Rotterdam and stores the fuel for the region.",
    "The refinery sits near Antwerp and processes crude oil.",
    # a common noun the small model reads as a name: its case cannot be decided
    "Graphene was first isolated in 2004 at the University of Manchester.",
    "Hydrogen is the lightest element.",
    # something before the subject (a fronted adverbial or prepositional phrase)
    "Every evening, Margaret walked her dog along the canal.",
    "In the morning, the volunteers handed out food.",
    # a trailing appositive or participial phrase after the main clause
    "The mayor opened the new library, a glass building designed by a local firm.",
    "The nurse greeted the patient, smiling warmly at her.",
    "The company moved its headquarters from Boston to Chicago, which offered lower taxes.",
]


@pytest.mark.parametrize(("source", "question"), VALID)
def test_valid_questions(source: str, question: str) -> None:
    assert to_question(source) == question


@pytest.mark.parametrize("source", REFUSED)
def test_doubtful_questions_are_refused(source: str) -> None:
    assert to_question(source) is None
    (group,) = mt.relation("TIN-question").generate(NERInput(source), seed=0)
    assert group.not_applicable is not None


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("Every evening, Margaret walked her dog along the canal.", "before the subject"),
        ("The nurse greeted the patient, smiling warmly at her.", "after the main clause"),
    ],
)
def test_refusals_say_why(source: str, reason: str) -> None:
    from mtwidgets.ner.transforms_base import parse

    found = question_edits(parse(source))
    assert isinstance(found, str) and reason in found


@pytest.mark.parametrize(
    ("word", "lemma", "tag", "base"),
    [
        ("used", "use", "VBD", "use"),
        ("used", "us", "VBD", "use"),  # a wrong lemma never wins over a real verb
        ("fined", "fin", "VBD", "fine"),
        ("saw", "see", "VBD", "see"),
        ("found", "find", "VBD", "find"),
        ("expelled", "expel", "VBD", "expel"),
        ("stores", "store", "VBZ", "store"),
    ],
)
def test_base_form_is_a_real_verb_that_inflects_back(word: str, lemma: str, tag: str, base: str) -> None:
    assert base_form(word, lemma, tag) == base


def test_gold_name_with_leading_the_keeps_its_span() -> None:
    text = "The Taj Mahal was commissioned by Shah Jahan."
    x = NERInput(text, [Span(0, 13, "FAC"), Span(34, 44, "PERSON")])
    (draft,) = ToQuestion()([x], random.Random(0))
    (fu,) = draft.followups
    assert fu.text == "Was the Taj Mahal commissioned by Shah Jahan?"
    assert [(fu.mention(g), g.label) for g in fu.gold] == [("the Taj Mahal", "FAC"), ("Shah Jahan", "PERSON")]
    for a, b, c, d in draft.meta["alignment"]:
        assert text[a:b] == fu.text[c:d]


def test_explorer_stepping_shows_only_these_questions() -> None:
    t = mt.relation("TIN-question").transformation
    expected = dict(VALID)
    for source in [s for s, _ in VALID] + REFUSED:
        x = NERInput(source)
        slots = t.options([x])
        shown = [t.build([x], o).followups[0].text for slot in slots for o in slot]
        shown += [t.build([x], o).followups[0].text for o in t.choose(slots, random.Random(0))]
        assert set(shown) == ({expected[source]} if source in expected else set())
