"""The shipped relation-extraction sample (``mtwidgets/data/re_sample.jsonl``) is well formed
and covers every metamorphic relation's precondition."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from mtwidgets import RelationInput
from mtwidgets.lang import names as lexicons
from mtwidgets.re.entities import ENTITY_TYPES
from mtwidgets.re.labels import NO_RELATION, TACRED_LABELS

FOCUSES = ("MR-R1", "MR-R2", "MR-R3", "MR-R4", "MR-S1", "MR-S2", "MR-C1", "MR-C2")
MIN_EXAMPLES = 230
MIN_PER_FOCUS = 25


def _load() -> list[dict[str, str]]:
    text = resources.files("mtwidgets.data").joinpath("re_sample.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


ROWS = _load()


def _by_focus(focus: str) -> list[dict[str, str]]:
    return [row for row in ROWS if row["focus"] == focus]


def test_size() -> None:
    assert len(ROWS) >= MIN_EXAMPLES


def test_rows_have_the_four_keys() -> None:
    for row in ROWS:
        assert set(row) == {"id", "markup", "gold", "focus"}, row
        assert all(isinstance(v, str) and v for v in row.values()), row


def test_ids_unique() -> None:
    ids = [row["id"] for row in ROWS]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]


def test_markups_unique() -> None:
    markups = [row["markup"] for row in ROWS]
    assert len(markups) == len(set(markups)), [m for m, n in Counter(markups).items() if n > 1]


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_markup_parses_and_round_trips(row: dict[str, str]) -> None:
    x = RelationInput.parse(row["markup"])
    assert x.to_markup() == row["markup"]
    assert x.head_type in ENTITY_TYPES, (row["id"], x.head_type)
    assert x.tail_type in ENTITY_TYPES, (row["id"], x.tail_type)


def test_gold_labels_are_tacred() -> None:
    bad = [(row["id"], row["gold"]) for row in ROWS if row["gold"] not in TACRED_LABELS]
    assert not bad, bad


def test_some_no_relation() -> None:
    share = sum(row["gold"] == NO_RELATION for row in ROWS) / len(ROWS)
    assert 0.10 <= share <= 0.20, share


def test_focus_names_and_counts() -> None:
    counts = Counter(row["focus"] for row in ROWS)
    assert set(counts) <= set(FOCUSES), set(counts) - set(FOCUSES)
    for focus in FOCUSES:
        assert counts[focus] >= MIN_PER_FOCUS, (focus, counts[focus])


def test_r2_tails_are_known_cities() -> None:
    for row in _by_focus("MR-R2"):
        x = RelationInput.parse(row["markup"])
        assert x.tail_type == "CITY", row["id"]
        assert lexicons.city(x.tail_text) is not None, (row["id"], x.tail_text)


def test_r4_has_a_pronoun_argument() -> None:
    for row in _by_focus("MR-R4"):
        x = RelationInput.parse(row["markup"])
        assert (
            x.head_text in lexicons.PRONOUNS_PERSON or x.tail_text in lexicons.PRONOUNS_PERSON
        ), row["id"]
