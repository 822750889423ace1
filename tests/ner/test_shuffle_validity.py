"""TIN-shuffle: names swap only with names of the same verified fine kind.

Each case is a full sentence with a pattern that once produced an invalid follow-up
(a cross-kind swap the NER label allowed). Labels are given as gold entities with
``entities="gold"`` where the point is a wrong label (the label the small model may
give), so the test does not depend on the reference model's mistakes; the same sentences
are also run with the reference entities. The relation must give a valid follow-up or none.
"""

from __future__ import annotations

import random

import pytest

import mtwidgets as mt
from mtwidgets.core.relation import Draft
from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput
from mtwidgets.ner.transforms_shuffle import ShuffleEntities, mention_kind, org_class, shuffle_problem


def _gold(text: str, *pairs: tuple[str, str]) -> list[Span]:
    return [Span(text.index(m), text.index(m) + len(m), label) for m, label in pairs]


def _texts(t: ShuffleEntities, x: NERInput) -> list[str]:
    return [d.followups[0].text for slot in t.candidates([x]) for d in slot]


# (sentence, gold mentions with the label a wrong NER may give them): never swapped
CROSS_KIND = [
    # a person and a city under one label, with an age apposition
    ("Tomas Lindqvist, 42, moved to Marseille after the season.",
     [("Tomas Lindqvist", "PERSON"), ("Marseille", "PERSON")]),
    # a family and a company under ORG
    ("Northwind Outfitters sold the Halvorsens to Bergkamm last spring.",
     [("Northwind Outfitters", "ORG"), ("Halvorsens", "ORG"), ("Bergkamm", "ORG")]),
    # a councillor (after the title "Cr") and a town under GPE
    ("Cr Miriam Holt moved that Ballarat build a new swimming pool.",
     [("Miriam Holt", "GPE"), ("Ballarat", "GPE")]),
    # a person and a company under ORG
    ("The lab was founded by Priya Raman and is now owned by Alphabet.",
     [("Priya Raman", "ORG"), ("Alphabet", "ORG")]),
    # a person and a university under ORG
    ("Daniel Okonkwo-Ade grew up in Houston and graduated from Rice University.",
     [("Daniel Okonkwo-Ade", "ORG"), ("Rice University", "ORG")]),
    # a city and a bank under ORG, and under GPE
    ("She grew up in Valencia and went on to work for Barclays.",
     [("Valencia", "ORG"), ("Barclays", "ORG")]),
    ("She grew up in Valencia and went on to work for Barclays.",
     [("Valencia", "GPE"), ("Barclays", "GPE")]),
    # a broadcaster and a university under ORG
    ("He graduated from McGill University before joining the CBC as a reporter.",
     [("McGill University", "ORG"), ("CBC", "ORG")]),
    # an opera and a venue under FAC, and as a work of art
    ("Verdi's Otello returns to the Royal Opera House in May.",
     [("Otello", "FAC"), ("Royal Opera House", "FAC")]),
    ("Verdi's Otello returns to the Royal Opera House in May.",
     [("Otello", "WORK_OF_ART"), ("Royal Opera House", "FAC")]),
    # an actor and his character, tied by a copula and by "plays"
    ("Harry Palmer is a sharp-suited Michael Caine in this revival.",
     [("Harry Palmer", "PERSON"), ("Michael Caine", "PERSON")]),
    ("In the new series Andrew Lincoln plays Richard Grayson, a weary detective.",
     [("Andrew Lincoln", "PERSON"), ("Richard Grayson", "PERSON")]),
    # a nationality inside a place name
    ("Rublev lost in the final at Indian Wells to a Czech qualifier.",
     [("Indian", "NORP"), ("Czech", "NORP")]),
    # a name next to its parenthesised acronym
    ("The University of Leeds (UoL) signed a research deal with Oxford University.",
     [("University of Leeds", "ORG"), ("Oxford University", "ORG")]),
    # a person and an airline under PERSON, with an age apposition
    ("Ama Mensah, 34, became the first woman to fly for Africa World Airlines.",
     [("Ama Mensah", "PERSON"), ("Africa World Airlines", "PERSON")]),
    # a town and a person under PERSON
    ("Graham Lowe was born in Dunedin and still lives there.",
     [("Graham Lowe", "PERSON"), ("Dunedin", "PERSON")]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pairs"), CROSS_KIND)
def test_cross_kind_names_never_swap(text: str, pairs: list[tuple[str, str]]) -> None:
    x = NERInput(text, _gold(text, *pairs))
    assert _texts(ShuffleEntities(entities="gold"), x) == []
    # with the reference entities: no follow-up, or only ones the independent check accepts
    plain = NERInput(text)
    t = ShuffleEntities()
    for slot in t.options([plain]):
        for option in slot:
            draft = t.build([plain], option)
            assert shuffle_problem(plain, draft) is None, draft.followups[0].text


# (sentence, gold mentions, a follow-up that must be among the candidates): same kind swaps
# inside one coordination
SAME_KIND = [
    ("Germany and France drew in the semi-final.",
     [("Germany", "GPE"), ("France", "GPE")],
     "France and Germany drew in the semi-final."),
    ("Aid reached Kenya, Uganda and Tanzania by sea.",
     [("Kenya", "GPE"), ("Uganda", "GPE"), ("Tanzania", "GPE")],
     "Aid reached Uganda, Tanzania and Kenya by sea."),
    ("Flights between Lyon and Toulouse were cancelled.",
     [("Lyon", "GPE"), ("Toulouse", "GPE")],
     "Flights between Toulouse and Lyon were cancelled."),
    ("Barclays and HSBC reported higher profits.",
     [("Barclays", "ORG"), ("HSBC", "ORG")],
     "HSBC and Barclays reported higher profits."),
    ("Oxford University and the University of Tokyo signed a deal.",
     [("Oxford University", "ORG"), ("University of Tokyo", "ORG")],
     "The University of Tokyo and Oxford University signed a deal."),
    ("Mr Smith and Mr Jones said that he would resign.",
     [("Smith", "PERSON"), ("Jones", "PERSON")],
     "Mr Jones and Mr Smith said that he would resign."),
    ("Spotify and Deezer SA hired David Smith.",
     [("Spotify", "ORG"), ("Deezer SA", "ORG"), ("David Smith", "PERSON")],
     "Deezer SA and Spotify hired David Smith."),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pairs", "expected"), SAME_KIND)
def test_same_kind_names_still_swap(text: str, pairs: list[tuple[str, str]], expected: str) -> None:
    x = NERInput(text, _gold(text, *pairs))
    t = ShuffleEntities(entities="gold", max_options=100)
    texts = _texts(t, x)
    assert expected in texts
    for slot in t.options([x]):
        for option in slot:
            assert shuffle_problem(x, t.build([x], option), entities="gold") is None


def test_people_in_equivalent_roles_swap_but_an_actor_and_character_do_not() -> None:
    ok = "Andrew Lincoln and Emma Stone attended the premiere in London."
    texts = _texts(ShuffleEntities(), NERInput(ok))
    assert "Emma Stone and Andrew Lincoln attended the premiere in London." in texts
    tied = "Andrew Lincoln played Richard Grayson in the first series."
    assert _texts(ShuffleEntities(), NERInput(tied)) == []


def test_mention_kind_reads_the_name_not_the_label() -> None:
    assert mention_kind("PERSON", "Marseille", ["Marseille"], "") is None
    assert mention_kind("PERSON", "Africa World Airlines", ["Africa", "World", "Airlines"], "") is None
    assert mention_kind("PERSON", "Emma Stone", ["Emma", "Stone"], "") == "person"
    assert mention_kind("ORG", "Zaragoza", ["Zaragoza"], "") is None
    assert mention_kind("GPE", "Barclays", ["Barclays"], "") is None
    assert mention_kind("GPE", "Zaragoza", ["Zaragoza"], "") == "place/city"
    assert mention_kind("ORG", "Nybergs", ["Nybergs"], "") is None
    assert mention_kind("WORK_OF_ART", "Otello", ["Otello"], "") is None
    assert org_class("Royal Bank of Canada") == "bank"
    assert org_class("University of Toronto") == org_class("Rice University") == "education"
    assert org_class("Wizz Air Holdings") == "company"
    assert org_class("CBC") == "media"


def test_independent_check_rejects_a_cross_kind_swap_and_accepts_a_valid_one() -> None:
    src = "She grew up in Valencia and went on to work for Barclays."
    x = NERInput(src)
    bad = "She grew up in Barclays and went on to work for Valencia."
    v0, b0 = src.index("Valencia"), src.index("Barclays")
    perm = [
        [b0, b0 + 8, bad.index("Barclays"), bad.index("Barclays") + 8, "ORG"],
        [v0, v0 + 8, bad.index("Valencia"), bad.index("Valencia") + 8, "ORG"],
    ]
    draft = Draft((x,), (NERInput(bad),), "", {"kind": "shuffle", "permutation": perm})
    assert shuffle_problem(x, draft) is not None
    src2 = "Flights between Paris and London were cancelled."
    x2 = NERInput(src2)
    (slot,) = ShuffleEntities().candidates([x2])
    assert [d.followups[0].text for d in slot] == ["Flights between London and Paris were cancelled."]
    assert shuffle_problem(x2, slot[0]) is None


def test_explorer_stepping_shows_only_checked_shuffles() -> None:
    t = mt.relation("TIN-shuffle").transformation
    sources = [text for text, _ in CROSS_KIND] + [text for text, _, _ in SAME_KIND]
    seen = 0
    for text in sources:
        x = NERInput(text)
        slots = t.options([x])
        for option in [o for slot in slots for o in slot] + t.choose(slots, random.Random(0)):
            draft = t.build([x], option)
            assert shuffle_problem(x, draft) is None, (text, draft.followups[0].text)
            seen += 1
    assert seen > 0


# Sentences where a swap would break what the sentence says about the names: never shuffled
# (with the reference entities, and with gold entities of the names' true kinds).
TIED = [
    # a moved name followed by a non-restrictive relative clause or a renaming
    ("The firm moved its offices from Denver to Phoenix, which offered lower rents.",
     [("Denver", "GPE"), ("Phoenix", "GPE")]),
    ("The port moved from Osaka to Kobe, meaning the old docks closed.",
     [("Osaka", "GPE"), ("Kobe", "GPE")]),
    ("The team moved from Dallas to Denver, formerly a mining town.",
     [("Dallas", "GPE"), ("Denver", "GPE")]),
    # a nationality word modifying a role in apposition with a person
    ("The Polish defender Marek Nowak and the Italian keeper Luca Rossi joined the club.",
     [("Polish", "NORP"), ("Marek Nowak", "PERSON"), ("Italian", "NORP"), ("Luca Rossi", "PERSON")]),
    # a person whose possessive or role ties them to one side of a contest
    ("Cristiano Ronaldo's header gave Portugal a 2-1 win over Spain.",
     [("Cristiano Ronaldo", "PERSON"), ("Portugal", "GPE"), ("Spain", "GPE")]),
    ("Harry Kane scored twice as England beat Italy in Rome.",
     [("Harry Kane", "PERSON"), ("England", "GPE"), ("Italy", "GPE")]),
    # places visited one after another (a journey over time)
    ("She grew up in Toronto, moved to Vancouver after college and later settled in Calgary.",
     [("Toronto", "GPE"), ("Vancouver", "GPE"), ("Calgary", "GPE")]),
    ("The refugees fled Aleppo in 2015, spent two years in Turkey and then reached Germany.",
     [("Aleppo", "GPE"), ("Turkey", "GPE"), ("Germany", "GPE")]),
    ("He lived in Dublin for a decade before he settled in Cork.",
     [("Dublin", "GPE"), ("Cork", "GPE")]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pairs"), TIED)
def test_names_tied_to_their_context_never_swap(text: str, pairs: list[tuple[str, str]]) -> None:
    assert _texts(ShuffleEntities(), NERInput(text)) == []
    assert _texts(ShuffleEntities(entities="gold"), NERInput(text, _gold(text, *pairs))) == []


# Lists and "between X and Y": the safe swaps, still made.
SAFE = [
    ("The ferry links Helsinki and Tallinn all year.", "The ferry links Tallinn and Helsinki all year."),
    ("Talks between Israel and Lebanon resumed in Cairo.", "Talks between Lebanon and Israel resumed in Cairo."),
    ("Japanese and South Korean officials met in Seoul.", "South Korean and Japanese officials met in Seoul."),
    ("Priya Nair visited Delhi and Mumbai during the holidays.",
     "Priya Nair visited Mumbai and Delhi during the holidays."),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), SAFE)
def test_lists_and_between_pairs_still_swap(text: str, expected: str) -> None:
    x = NERInput(text)
    assert _texts(ShuffleEntities(), x) == [expected]
    (slot,) = ShuffleEntities().candidates([x])
    assert shuffle_problem(x, slot[0]) is None


def test_independent_check_rejects_a_journey_reordered() -> None:
    src = "She grew up in Toronto, moved to Vancouver after college and later settled in Calgary."
    x = NERInput(src)
    bad = src.replace("Toronto", "@").replace("Calgary", "Toronto").replace("@", "Calgary")
    t0, c0 = src.index("Toronto"), src.index("Calgary")
    perm = [
        [c0, c0 + 7, bad.index("Calgary"), bad.index("Calgary") + 7, "GPE"],
        [t0, t0 + 7, bad.index("Toronto"), bad.index("Toronto") + 7, "GPE"],
    ]
    draft = Draft((x,), (NERInput(bad),), "", {"kind": "shuffle", "permutation": perm})
    problem = shuffle_problem(x, draft)
    assert problem is not None and "list" in problem
