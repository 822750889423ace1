"""What kind of thing a proper name is, independent of any tagger's label."""

from __future__ import annotations

import pytest

from mtwidgets.lang import kinds


@pytest.mark.parametrize(("mention", "word_before", "kind"), [
    ("Jane Doe", "", "person"),
    ("Alistair Gow", "", "person"),
    ("Marek", "", "person"),
    ("Liu Mingkang", "", "person"),  # family name first
    ("Smith", "Mr.", "person"),  # an honorific before a surname
    ("Finn", "the", "nationality"),  # "the Finn Iivo Niskanen": a nationality, not a given name
    ("Kisumu", "", "city"),
    ("Constantinople", "", "city"),
    ("Bruges", "", "city"),
    ("Wisconsin", "", "state"),
    ("Ethiopia", "", "country"),
    ("the Alps", "", "region"),
    ("Stanford", "", "org:university"),
    ("University of Chicago", "", "org:university"),
    ("the Tata Trusts", "", "org:charity"),
    ("Ellertsen & Co.", "", "org:company"),
    ("Honda Motor Company", "", "org:company"),
    ("AC Milan", "", "org:club"),
    ("Juventus", "", "org:club"),
    ("Penguin Random House", "", "org:publisher"),
    ("Bank of England", "", "org:bank"),
    ("the Boston Red Sox", "", "org:team"),
    ("Air France", "", "org:airline"),
])
def test_kind_of_known_names(mention: str, word_before: str, kind: str) -> None:
    assert kinds.kind_of(mention, word_before) == kind


@pytest.mark.parametrize("mention", [
    "Jordan",  # a given name and a country
    "Paris",  # a given name and a city
    "New York",  # a city and a state
    "Georgia",  # a country and a US state
    "Madison Square Garden",  # a given name first, but a place word in it
    "Twiga",  # an unknown word: nothing verifies it
    "Bislett Games",  # an event
])
def test_ambiguous_or_unknown_names_are_not_verified(mention: str) -> None:
    assert kinds.kind_of(mention) is None


def test_person_checks() -> None:
    assert kinds.is_person("Paris Hilton")
    assert kinds.is_person("Marcus Hill")  # a surname that is also a common noun
    assert kinds.is_person("Mehmed II")
    assert not kinds.is_person("Balaklava")  # a town tagged as a person
    assert not kinds.is_person("Stanford")
    assert not kinds.is_person("Jane Doe", "the")  # "the" before a person's name: not a name
    assert not kinds.is_person("Finn")
    assert not kinds.is_person("Victoria Station")


def test_org_subkinds_and_places() -> None:
    assert kinds.org_subkind("Acme Widgets Inc.") == "company"
    assert kinds.org_subkind("Ministry of Defence") == "government"
    assert kinds.org_subkind("Kisumu") is None  # a city is no organisation
    assert kinds.org_subkind("Jane Doe") is None
    assert kinds.place_kinds("New York") == frozenset({"city", "state"})
    assert kinds.place_kind("Texas") == "state"
    assert kinds.place_kind("Acme Widgets Inc.") is None
    assert set(kinds.ORG_SUBKINDS) >= {"club", "company", "university", "bank", "airline", "charity", "government"}
    assert kinds.strip_name("the Tata Trusts's") == "Tata Trusts"
