from __future__ import annotations

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.ner.labels import (
    BIO,
    CANONICAL,
    COMMERCIAL,
    CONLL,
    ONTONOTES,
    SPACY,
    LabelMap,
    coarse,
    label_map,
    same_label,
    strip_bio,
)


def test_canonical_set_is_ontonotes_plus_misc() -> None:
    assert len(ONTONOTES) == 18 and set(CANONICAL) == {*ONTONOTES, "MISC"}
    assert all(SPACY.map(label) == label for label in ONTONOTES)


@pytest.mark.parametrize(
    ("label", "expected"),
    [("PERSON", "PER"), ("ORG", "ORG"), ("GPE", "LOC"), ("LOC", "LOC"), ("FAC", "LOC"), ("NORP", "MISC"),
     ("WORK_OF_ART", "MISC"), ("MISC", "MISC"), ("DATE", None), ("CARDINAL", None), ("MONEY", None)],
)  # fmt: skip
def test_coarse(label: str, expected: str | None) -> None:
    assert coarse(label) == expected


def test_coarse_rejects_non_canonical_labels_with_advice() -> None:
    with pytest.raises(InputError, match="'PER' is not a canonical.*LabelMap"):
        coarse("PER")


def test_same_label_fine_and_coarse() -> None:
    assert same_label("GPE", "GPE") and not same_label("GPE", "LOC")
    assert same_label("GPE", "LOC", "coarse") and not same_label("PERSON", "ORG", "coarse")
    assert same_label(None, None) and not same_label("ORG", None, "coarse")
    with pytest.raises(ValueError, match="granularity"):
        same_label("ORG", "ORG", "medium")  # type: ignore[arg-type]


def test_conll_and_bio_prefixes() -> None:
    assert [CONLL.map(x) for x in ("B-PER", "I-ORG", "LOC", "S-MISC", "O")] == [
        "PERSON",
        "ORG",
        "GPE",
        "MISC",
        None,
    ]
    assert BIO.map("B-WORK_OF_ART") == "WORK_OF_ART"
    assert strip_bio("B-PER") == "PER" and strip_bio("BANK") == "BANK" and strip_bio("E_LOC") == "LOC"


def test_commercial_api_labels_case_insensitive_and_dropped_classes() -> None:
    assert COMMERCIAL.map("ORGANIZATION") == "ORG"
    assert COMMERCIAL.map("Organization") == "ORG"  # Azure spelling
    assert COMMERCIAL.map("COMMERCIAL_ITEM") == "PRODUCT"
    assert COMMERCIAL.map("TITLE") == "WORK_OF_ART"
    assert COMMERCIAL.map("OTHER") == "MISC"
    assert COMMERCIAL.map("PHONE_NUMBER") is None and COMMERCIAL.map("PhoneNumber") is None


def test_unknown_labels_error_drop_or_keep() -> None:
    with pytest.raises(InputError, match="'FOO' is not in the CoNLL-2003 label map"):
        CONLL.map("FOO")
    assert LabelMap({"PER": "PERSON"}, "x", unknown="drop").map("FOO") is None
    assert LabelMap({"PER": "PERSON"}, "x", unknown="keep").map("B-GPE") == "GPE"


def test_custom_maps_validate_targets_and_extend() -> None:
    with pytest.raises(InputError, match="'PEOPLE' is not a canonical"):
        LabelMap({"P": "PEOPLE"})
    extended = CONLL.extended({"LOC": "LOC"})
    assert extended.map("LOC") == "LOC" and CONLL.map("LOC") == "GPE"
    assert label_map("conll") is CONLL and label_map({"X": "ORG"}).map("X") == "ORG"
    with pytest.raises(ValueError, match="no label map named 'acme'"):
        label_map("acme")
