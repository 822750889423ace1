"""TIN-shuffle and TIN-question on the patterns a reading audit of fresh text judged invalid.

TIN-shuffle: every invalid swap exchanged names in different roles (origin and destination,
possessor and place, modifiers of different nouns, a source and a target), while swaps
inside one coordinated list ("X and Y", "X, Y and Z", "between X and Y", "X or Y") were
clean. Names now trade places only as conjuncts of one coordination; a fixed pair
("England and Wales") and a list ordered by another ("respectively") are not reordered.

TIN-question: a fronted "may"/"might"/"must" asks for permission or obligation, a proper
adjective no entity covers ("Saharan") must keep its capital, and do-support must not leave
a coordinated second verb finite ("Did the tribunal rule ... and awarded her ...?").

Each sentence is run with the reference entities and, where the point is the syntax and
not the model, with gold entities too, so the tests do not rest on the small model's labels.
"""

from __future__ import annotations

import pytest

import mtwidgets as mt
from mtwidgets.core.relation import Draft
from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput
from mtwidgets.ner.transforms_base import parse
from mtwidgets.ner.transforms_question import question_edits, to_question
from mtwidgets.ner.transforms_shuffle import ShuffleEntities, shuffle_problem


def _gold(text: str, *pairs: tuple[str, str]) -> list[Span]:
    return [Span(text.index(m), text.index(m) + len(m), label) for m, label in pairs]


def _shuffles(x: NERInput, entities: str = "reference") -> list[str]:
    t = ShuffleEntities(entities=entities, max_options=100)
    return [t.build([x], o).followups[0].text for slot in t.options([x]) for o in slot]


def _refusal(relation: str, text: str) -> str:
    (group,) = mt.relation(relation).generate(NERInput(text), seed=0)
    assert not group.followups and group.not_applicable is not None
    return group.not_applicable


# -- TIN-shuffle: names in different roles never swap --------------------------------------

DIFFERENT_ROLES = [
    # origin and destination of a move
    ("Maria moved from Warsaw to Paris in 1891 to study at the Sorbonne.",
     [("Warsaw", "GPE"), ("Paris", "GPE")]),
    ("The flight from Lyon to Toulouse was cancelled.", [("Lyon", "GPE"), ("Toulouse", "GPE")]),
    # a possessor and a place
    ("Edinburgh's New Town impressed visitors from London.", [("Edinburgh", "GPE"), ("London", "GPE")]),
    # demonyms modifying different nouns
    ("The album blends Irish fiddles and Nigerian highlife.", [("Irish", "NORP"), ("Nigerian", "NORP")]),
    ("Bolivar led the South American countries to independence from Spanish rule.",
     [("South American", "NORP"), ("Spanish", "NORP")]),
    ("Japanese officials met their South Korean counterparts in Seoul.",
     [("Japanese", "NORP"), ("South Korean", "NORP")]),
    # a place modifying a noun and a place the sentence moves it to
    ("A Leeds restaurant opened a second branch in Tokyo last year.", [("Leeds", "GPE"), ("Tokyo", "GPE")]),
    # subject and object, and the two sides of a comparison
    ("Germany beat France in the semi-final.", [("Germany", "GPE"), ("France", "GPE")]),
    ("Shoppers in Germany spend less on clothes than shoppers in France.",
     [("Germany", "GPE"), ("France", "GPE")]),
    ("Mr Smith told Mr Jones that he would resign.", [("Smith", "PERSON"), ("Jones", "PERSON")]),
    # coordinated, but not a plain list: a sequence in time
    ("The tour visited Paris and then Warsaw.", [("Paris", "GPE"), ("Warsaw", "GPE")]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pairs"), DIFFERENT_ROLES)
def test_names_in_different_roles_never_swap(text: str, pairs: list[tuple[str, str]]) -> None:
    assert _shuffles(NERInput(text)) == []
    assert _shuffles(NERInput(text, _gold(text, *pairs)), entities="gold") == []


def test_only_the_coordinated_pair_of_a_sentence_moves() -> None:
    # "Christian" modifies "church"; only the conjuncts "Catholic and Protestant" may trade places
    text = "The Reformation split the Christian church into Catholic and Protestant branches."
    x = NERInput(text, _gold(text, ("Christian", "NORP"), ("Catholic", "NORP"), ("Protestant", "NORP")))
    assert _shuffles(x, entities="gold") == [
        "The Reformation split the Christian church into Protestant and Catholic branches."
    ]
    text = "Farmers in Kenya export tea to Pakistan and Egypt."
    assert _shuffles(NERInput(text)) == ["Farmers in Kenya export tea to Egypt and Pakistan."]


def test_a_refused_shuffle_says_why() -> None:
    reason = _refusal("TIN-shuffle", "The flight from Paris to London was cancelled.")
    assert "conjuncts of one list" in reason and "origin and destination" in reason


def test_independent_check_rejects_an_origin_swapped_with_a_destination() -> None:
    src = "Maria moved from Warsaw to Paris in 1891 to study at the Sorbonne."
    x = NERInput(src)
    bad = "Maria moved from Paris to Warsaw in 1891 to study at the Sorbonne."
    w0, p0 = src.index("Warsaw"), src.index("Paris")
    perm = [
        [p0, p0 + 5, bad.index("Paris"), bad.index("Paris") + 5, "GPE"],
        [w0, w0 + 6, bad.index("Warsaw"), bad.index("Warsaw") + 6, "GPE"],
    ]
    draft = Draft((x,), (NERInput(bad),), "", {"kind": "shuffle", "permutation": perm})
    problem = shuffle_problem(x, draft)
    assert problem is not None and "list" in problem


# Plain lists and symmetric pairs: still shuffled, and the independent check accepts them.
LISTS = [
    ("Talks between Israel and Lebanon resumed in Cairo.", "Talks between Lebanon and Israel resumed in Cairo."),
    ("Fans in Spain or Portugal can watch the match online.",
     "Fans in Portugal or Spain can watch the match online."),
    ("Storms hit the Netherlands and Belgium.", "Storms hit Belgium and the Netherlands."),
    ("Japanese and South Korean officials met in Seoul.", "South Korean and Japanese officials met in Seoul."),
    ("Mr Smith and Mr Jones said that they would resign.", "Mr Jones and Mr Smith said that they would resign."),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), LISTS)
def test_plain_lists_still_swap(text: str, expected: str) -> None:
    x = NERInput(text)
    assert _shuffles(x) == [expected]
    t = ShuffleEntities()
    for slot in t.options([x]):
        for option in slot:
            assert shuffle_problem(x, t.build([x], option)) is None


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("The law applies in England and Wales.", [("England", "GPE"), ("Wales", "GPE")]),
        ("Voters in England and Wales went to the polls.", [("England", "GPE"), ("Wales", "GPE")]),
        ("Aid reached Bosnia and Herzegovina by road.", [("Bosnia", "GPE"), ("Herzegovina", "GPE")]),
    ],
)
def test_fixed_pairs_are_not_reversed(text: str, pairs: list[tuple[str, str]]) -> None:
    assert _shuffles(NERInput(text)) == []
    assert _shuffles(NERInput(text, _gold(text, *pairs)), entities="gold") == []


def test_fixed_pair_refusal_names_the_pair() -> None:
    assert "fixed pair" in _refusal("TIN-shuffle", "The law applies in England and Wales.")


def test_a_list_ordered_by_another_is_not_reordered() -> None:
    text = "Kenya and Uganda won gold and silver respectively."
    assert _shuffles(NERInput(text)) == []
    assert "tied to another list" in _refusal("TIN-shuffle", text)
    text = "Kenya and Ethiopia finished first and second in the final."
    assert _shuffles(NERInput(text, _gold(text, ("Kenya", "GPE"), ("Ethiopia", "GPE"))), "gold") == []


# -- TIN-question -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "Saharan dust carried on winds may leave a film on cars.",
        "The storm might reach the coast by Friday.",
        "Visitors must book their tickets in advance.",
    ],
)
def test_epistemic_modals_are_not_fronted(source: str) -> None:
    assert to_question(source) is None
    found = question_edits(parse(source))
    assert isinstance(found, str) and "permission or obligation" in found
    assert "modal" in _refusal("TIN-question", source)


def test_other_modals_are_still_fronted() -> None:
    assert to_question("The council will close the library in June.") == (
        "Will the council close the library in June?"
    )


def test_a_proper_adjective_never_loses_its_capital() -> None:
    source = "Saharan dust reached southern England on Tuesday."
    # no entity covers "Saharan" and no lexicon knows it in lower case: refused, not lowered
    assert to_question(source) is None
    assert "'Saharan'" in _refusal("TIN-question", source)
    # as a gold NORP mention it is a name: kept
    x = NERInput(source, _gold(source, ("Saharan", "NORP"), ("England", "GPE"), ("Tuesday", "DATE")))
    (group,) = mt.relation("TIN-question").generate(x, seed=0)
    assert [fu.text for fu in group.followups] == ["Did Saharan dust reach southern England on Tuesday?"]


@pytest.mark.parametrize(
    ("source", "question"),
    [
        ("Several buses arrived late.", "Did several buses arrive late?"),
        ("Unprecedented rain flooded the valley.", "Did unprecedented rain flood the valley?"),
        ("British officials rejected the plan.", "Did British officials reject the plan?"),
    ],
)
def test_ordinary_first_words_still_lose_their_capital_and_nationalities_keep_it(
    source: str, question: str
) -> None:
    assert to_question(source) == question


def test_do_support_is_refused_beside_a_coordinated_finite_verb() -> None:
    source = "The tribunal ruled that she had been unfairly dismissed and awarded her £18,500."
    assert to_question(source) is None
    found = question_edits(parse(source))
    assert isinstance(found, str) and "'awarded'" in found and "finite" in found
    # a coordinated clause with its own subject is no second predicate of the main subject
    assert to_question("The board said that prices rose and wages fell.") == (
        "Did the board say that prices rose and wages fell?"
    )
