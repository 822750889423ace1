"""The structural transformation on hand-checked sentence -> question pairs."""

from __future__ import annotations

import random

import pytest

from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput
from mtwidgets.ner.transforms import ToQuestion, to_question

# Each pair checked by hand: grammatical question, same content, tense and person kept.
PAIRS = [
    # be-verb fronted
    ("He is a student.", "Is he a student?"),
    ("There is a cat.", "Is there a cat?"),
    ("Twitter was the obvious solution.", "Was Twitter the obvious solution?"),
    ("We are ready.", "Are we ready?"),
    ("He was not happy.", "Was he not happy?"),
    ("The man who lives here is a doctor.", "Is the man who lives here a doctor?"),
    ("The Beatles were a band.", "Were the Beatles a band?"),
    # normal verb, do-support with tense and person
    ("He cried.", "Did he cry?"),
    ("She likes tea.", "Does she like tea?"),
    ("I eat a burger.", "Do I eat a burger?"),
    ("They went home.", "Did they go home?"),
    ("Obama visited Paris.", "Did Obama visit Paris?"),
    ("The company reported profits.", "Did the company report profits?"),
    ("He said that she left.", "Did he say that she left?"),
    ("Microsoft shares rose 3 percent on Tuesday.", "Did Microsoft shares rise 3 percent on Tuesday?"),
    ("The officials said the storm killed 12 people.", "Did the officials say the storm killed 12 people?"),
    ("The Senate passed the bill last week.", "Did the Senate pass the bill last week?"),
    ("The police arrested two men in Chicago.", "Did the police arrest two men in Chicago?"),
    ("Heavy rain fell across Britain.", "Did heavy rain fall across Britain?"),
    ("The United Nations condemned the attack.", "Did the United Nations condemn the attack?"),
    ("Germany and France signed a treaty.", "Did Germany and France sign a treaty?"),
    ("He never cried.", "Did he never cry?"),
    ("The minister resigned after the scandal.", "Did the minister resign after the scandal?"),
    ("Three people died in the crash.", "Did three people die in the crash?"),
    ("The team won the cup in 2019.", "Did the team win the cup in 2019?"),
    ("American officials denied the report.", "Did American officials deny the report?"),
    # auxiliary / modal fronted (negation kept)
    ("He did not go.", "Did he not go?"),
    ("He has faced floods.", "Has he faced floods?"),
    ("He can swim.", "Can he swim?"),
    ("It was raining.", "Was it raining?"),
    ("They have been working.", "Have they been working?"),
    ("Apple is based in California.", "Is Apple based in California?"),
    ("The CEO of Google will meet investors in London on Monday.",
     "Will the CEO of Google meet investors in London on Monday?"),
    ("You should leave now.", "Should you leave now?"),
    ("She was born in Hawaii.", "Was she born in Hawaii?"),
    ("John and Mary were married in 1990.", "Were John and Mary married in 1990?"),
    ("The report was published by Reuters on Friday.", "Was the report published by Reuters on Friday?"),
    ("Amazon has opened a new office in Seattle.", "Has Amazon opened a new office in Seattle?"),
    ("The president will visit Berlin.", "Will the president visit Berlin?"),
    ("The bank does not expect growth.", "Does the bank not expect growth?"),
    ("She had lived in Tokyo.", "Had she lived in Tokyo?"),
    ("Smith, a lawyer, represented the family.", "Did Smith, a lawyer, represent the family?"),
    # spaCy's lemma "fin" for "fined" is caught by inflecting back; a root VBN read as past
    ("The European Commission fined Nordvik Telecom 240 million euros.",
     "Did the European Commission fine Nordvik Telecom 240 million euros?"),
    ("The firm hired staff.", "Did the firm hire staff?"),
    ("He stopped the car.", "Did he stop the car?"),
    ("Venezuela expelled two Spanish diplomats.", "Did Venezuela expel two Spanish diplomats?"),
    ("Tens of thousands of people marched through Santiago.",
     "Did tens of thousands of people march through Santiago?"),
    ("She taught French.", "Did she teach French?"),
]  # fmt: skip

NOT_HANDLED = [
    "Go home.",  # imperative: no subject
    "Is he a student?",  # already a question
    "Who said that?",
    "He came and she left.",  # coordinated main clauses
    "Sales were strong, and profits rose.",
    "He can't swim.",  # contraction
    "Oil prices fell sharply, traders said.",  # a clause before the subject
    "What a day!",
    "The end of the war.",  # no verb
    "He left. She stayed.",  # two sentences
    "In 2010, Obama visited Paris.",  # a fronted adverbial before the subject
    "On Monday, the company announced layoffs.",
    "The president might visit Berlin.",  # a fronted epistemic modal asks permission instead
]


def test_at_least_thirty_pairs() -> None:
    assert len(PAIRS) >= 30


@pytest.mark.parametrize(("source", "question"), PAIRS)
def test_declarative_to_question(source: str, question: str) -> None:
    assert to_question(source) == question


@pytest.mark.parametrize("source", NOT_HANDLED)
def test_sentences_it_cannot_handle_yield_no_followup(source: str) -> None:
    assert to_question(source) is None
    assert ToQuestion()([NERInput(source)], random.Random(0)) == []


def test_cases_are_named_in_meta() -> None:
    cases = {}
    for source in ("He is a student.", "He cried.", "He can swim."):
        (draft,) = ToQuestion()([NERInput(source)], random.Random(0))
        cases[source] = draft.meta["case"]
    assert cases == {"He is a student.": "be", "He cried.": "do-support", "He can swim.": "auxiliary"}


def _check_alignment(source: NERInput, followup: NERInput, alignment: list[list[int]]) -> None:
    for a, b, c, d in alignment:
        assert source.text[a:b] == followup.text[c:d]


def test_gold_entities_follow_through_the_alignment() -> None:
    x = NERInput(
        "The CEO of Google will meet investors in London on Monday.",
        [(11, 17, "ORG"), (41, 47, "GPE"), (51, 57, "DATE")],
    )
    (draft,) = ToQuestion()([x], random.Random(0))
    (fu,) = draft.followups
    assert isinstance(fu, NERInput)
    assert [(fu.mention(s), s.label) for s in fu.gold] == [
        ("Google", "ORG"),
        ("London", "GPE"),
        ("Monday", "DATE"),
    ]
    _check_alignment(x, fu, draft.meta["alignment"])
    # every source character outside the edits is aligned: all but the moved " will",
    # the lower-cased "T" and the "." that became "?"
    covered = sum(b - a for a, b, _, _ in draft.meta["alignment"])
    assert covered == len(x.text) - len(" will") - 1 - 1


def test_a_gold_entity_loses_only_the_capital_of_its_leading_article() -> None:
    x = NERInput("The United Nations condemned the attack.", [(0, 18, "ORG")])
    (draft,) = ToQuestion()([x], random.Random(0))
    (fu,) = draft.followups
    assert fu.text == "Did the United Nations condemn the attack?"
    assert fu.gold == (Span(4, 22, "ORG"),)
    assert fu.mention(fu.gold[0]) == "the United Nations"
    _check_alignment(x, fu, draft.meta["alignment"])
    # the lower-cased "T" is the only changed character of the entity: not aligned
    assert not any(a <= 0 < b for a, b, _, _ in draft.meta["alignment"])


def test_a_gold_name_keeps_its_capital() -> None:
    x = NERInput("Novozymes invested heavily in enzymes.", [(0, 9, "ORG")])
    (draft,) = ToQuestion()([x], random.Random(0))
    assert draft.followups[0].text == "Did Novozymes invest heavily in enzymes?"


def test_wrong_input_type_is_an_actionable_error() -> None:
    from mtwidgets.core.errors import InputError
    from mtwidgets.core.inputs import TextInput

    with pytest.raises(InputError, match="NERInput"):
        ToQuestion()([TextInput("He cried.")], random.Random(0))
