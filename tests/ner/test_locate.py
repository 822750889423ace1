"""Suspicious-entity location (TIN 3.5.1, Figure 4) and the four error categories against
gold, on hand-checked sentences with hand-written predictions."""

from __future__ import annotations

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.spans import Span
from mtwidgets.ner.locate import OffsetMap, followup_gold, judge, judge_region, locate, reading


def ent(text: str, mention: str, label: str | None, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(mention, start + 1)
    return Span(start, start + len(mention), label)


def replace(text: str, old: str, new: str) -> tuple[str, OffsetMap]:
    """One word replaced; the rest kept verbatim (what a similar-sentence draft records)."""
    a = text.index(old)
    b = a + len(old)
    out = text[:a] + new + text[b:]
    delta = len(new) - len(old)
    return out, OffsetMap.from_meta({"alignment": [[0, a, 0, a], [b, len(text), b + delta, len(out)]]})


FIG4 = (
    "Some of those supporting the US had posed as independent media outlets and some had tried "
    "to pass off content from legitimate outlets, such as BBC News Russian, as their own."
)


def test_figure_4_only_the_entity_in_both_sentences_with_another_label_is_suspicious() -> None:
    fu, offsets = replace(FIG4, "independent", "American")
    src_pred = [ent(FIG4, "US", "GPE"), ent(FIG4, "BBC News Russian", "ORG")]
    fu_pred = [ent(fu, "US", "GPE"), ent(fu, "American", "NORP"), ent(fu, "BBC News Russian", "MISC")]
    found = locate(FIG4, src_pred, fu, fu_pred, offsets)
    assert [(s.text, s.source.label, s.followup.label, s.kind) for s in found] == [
        ("BBC News Russian", "ORG", "MISC", "label")
    ]
    # Offsets point at the entity in each sentence, although the edit changed the length.
    s = found[0]
    assert FIG4[s.source_span.start : s.source_span.end] == fu[s.followup_span.start : s.followup_span.end]
    assert s.followup_span.start == s.source_span.start - 3
    assert "'BBC News Russian': ORG in the source, MISC in the follow-up" in s.describe(FIG4, fu)


def test_an_entity_dropped_in_the_follow_up_is_a_presence_disagreement() -> None:
    src = "Ben Johnson told the ESA board on Monday."
    fu, offsets = replace(src, "told", "informed")
    found = locate(
        src,
        [ent(src, "Ben Johnson", "PERSON"), ent(src, "ESA", "ORG")],
        fu,
        [ent(fu, "Ben Johnson", "PERSON")],
        offsets,
    )
    assert [(s.text, s.source.label, s.followup.label, s.kind) for s in found] == [
        ("ESA", "ORG", None, "presence")
    ]
    assert "no entity in the follow-up" in found[0].describe(src, fu)


def test_a_split_entity_is_a_range_disagreement_seen_from_both_sides() -> None:
    src = "Fibrus is delivering a similar scheme known as Project Stratum."
    fu, offsets = replace(src, "similar", "comparable")
    src_pred = [ent(src, "Fibrus", "ORG"), ent(src, "Project Stratum", "PRODUCT")]
    fu_pred = [ent(fu, "Fibrus", "ORG"), ent(fu, "Project", "PRODUCT"), ent(fu, "Stratum", "WORK_OF_ART")]
    found = locate(src, src_pred, fu, fu_pred, offsets)
    assert [(s.text, s.kind) for s in found] == [
        ("Project", "range"),
        ("Project Stratum", "range"),
        ("Stratum", "range"),
    ]
    whole = found[1]
    assert whole.source.label == "PRODUCT" and whole.followup.label is None
    assert len(whole.followup.overlaps) == 2


def test_entities_inside_the_edit_are_not_in_both_sentences() -> None:
    src = "Analysts in London praised the merger."
    fu, offsets = replace(src, "London", "Paris")
    found = locate(src, [ent(src, "London", "GPE")], fu, [ent(fu, "Paris", "PERSON")], offsets)
    assert found == []


def test_same_predictions_give_no_suspicious_entity_and_coarse_granularity_merges_gpe_and_loc() -> None:
    src = "Refugees crossed from Syria into Jordan last week."
    fu, offsets = replace(src, "crossed", "fled")
    src_pred = [ent(src, "Syria", "GPE"), ent(src, "Jordan", "GPE")]
    fu_pred = [ent(fu, "Syria", "GPE"), ent(fu, "Jordan", "LOC")]
    assert (
        locate(src, src_pred, fu, src_pred and [ent(fu, "Syria", "GPE"), ent(fu, "Jordan", "GPE")], offsets)
        == []
    )
    assert [s.text for s in locate(src, src_pred, fu, fu_pred, offsets)] == ["Jordan"]
    assert locate(src, src_pred, fu, fu_pred, offsets, granularity="coarse") == []


def test_by_text_pairs_entities_whose_first_letter_changed_case() -> None:
    src = "The Guardian reported the leak."
    fu = "Did the Guardian report the leak?"
    # Only " Guardian" and " the leak" are verbatim: "The" became "the".
    offsets = OffsetMap.from_meta({"alignment": [[3, 12, 7, 16], [21, 30, 23, 32]]})
    assert src[3:12] == fu[7:16] and src[21:30] == fu[23:32]
    src_pred = [ent(src, "The Guardian", "ORG")]
    fu_pred = [ent(fu, "the Guardian", "WORK_OF_ART")]
    assert locate(src, src_pred, fu, fu_pred, offsets) == []  # neither entity lies in a kept range
    found = locate(src, src_pred, fu, fu_pred, offsets, by_text=True)
    assert ("The Guardian", "ORG", "WORK_OF_ART") in [
        (s.text, s.source.label, s.followup.label) for s in found
    ]


def test_permutation_entries_map_moved_entities() -> None:
    src = "Spotify and Deezer beat Drake and Adele."
    fu = "Deezer and Spotify beat Adele and Drake."
    meta = {
        "alignment": [],
        "permutation": [
            [0, 7, 11, 18, "ORG"],
            [12, 18, 0, 6, "ORG"],
            [24, 29, 34, 39, "PERSON"],
            [34, 39, 24, 29, "PERSON"],
        ],
    }
    offsets = OffsetMap.from_meta(meta)
    assert offsets.to_followup(Span(0, 7)) == Span(11, 18)
    assert offsets.to_source(Span(24, 29)) == Span(34, 39)
    src_pred = [
        ent(src, "Spotify", "ORG"),
        ent(src, "Deezer", "ORG"),
        ent(src, "Drake", "PERSON"),
        ent(src, "Adele", "PERSON"),
    ]
    fu_pred = [
        ent(fu, "Deezer", "ORG"),
        ent(fu, "Spotify", "ORG"),
        ent(fu, "Adele", "PERSON"),
        ent(fu, "Drake", "ORG"),
    ]
    found = locate(src, src_pred, fu, fu_pred, offsets)
    assert [(s.text, s.source.label, s.followup.label) for s in found] == [("Drake", "PERSON", "ORG")]


def test_alignment_entries_must_keep_length() -> None:
    with pytest.raises(InputError, match="equal lengths"):
        OffsetMap.from_meta({"alignment": [[0, 5, 0, 6]]})
    # Pieces contiguous in both texts are joined, so an entity across the split still maps.
    joined = OffsetMap.from_meta({"alignment": [[0, 5, 0, 5], [5, 9, 5, 9]]})
    assert joined.to_followup(Span(3, 7)) == Span(3, 7)


def test_reading_exact_null_and_partial() -> None:
    spans = [Span(0, 7, "ORG"), Span(8, 15, "WORK_OF_ART")]
    assert reading(spans, Span(0, 7)).label == "ORG"
    assert reading(spans, Span(16, 20)).overlaps == ()
    partial = reading(spans, Span(0, 15))
    assert partial.label is None and len(partial.overlaps) == 2


# -- categories against gold ---------------------------------------------------------------
TABLE5 = "Fibrus is delivering a similar scheme in Northern Ireland known as Project Stratum."
GOLD5 = [
    ent(TABLE5, "Fibrus", "ORG"),
    ent(TABLE5, "Northern Ireland", "GPE"),
    ent(TABLE5, "Project Stratum", "PRODUCT"),
]


@pytest.mark.parametrize(
    ("pred", "target", "expected"),
    [
        # correct
        (GOLD5, ent(TABLE5, "Fibrus", None), None),
        # omission: gold entity, nothing predicted
        ([g for g in GOLD5 if g.label != "ORG"], ent(TABLE5, "Fibrus", None), "omission"),
        # over-labeling: "scheme" is no entity
        ([*GOLD5, ent(TABLE5, "scheme", "PRODUCT")], ent(TABLE5, "scheme", None), "over-labeling"),
        # incorrect category
        ([GOLD5[0].with_label("PERSON"), *GOLD5[1:]], ent(TABLE5, "Fibrus", None), "incorrect category"),
        # range error: split entity, judged once from either part
        (
            [*GOLD5[:2], ent(TABLE5, "Project", "PRODUCT"), ent(TABLE5, "Stratum", "WORK_OF_ART")],
            ent(TABLE5, "Stratum", None),
            "range error",
        ),
        # range error: too long
        (
            [*GOLD5[:2], ent(TABLE5, "as Project Stratum", "PRODUCT")],
            ent(TABLE5, "Project Stratum", None),
            "range error",
        ),
        # a correct NULL
        (GOLD5, ent(TABLE5, "scheme", None), None),
    ],
)
def test_judge_categories(pred: list[Span], target: Span, expected: str | None) -> None:
    assert judge(pred, GOLD5, target) == expected


def test_judge_coarse_ignores_classes_a_coarse_scheme_lacks() -> None:
    text = "Prices rose 5 percent in Italy."
    gold = [ent(text, "5 percent", "PERCENT"), ent(text, "Italy", "GPE")]
    pred = [ent(text, "Italy", "LOC")]
    assert judge(pred, gold, ent(text, "Italy", None)) == "incorrect category"
    assert judge(pred, gold, ent(text, "Italy", None), "coarse") is None
    assert judge(pred, gold, ent(text, "5 percent", None), "coarse") is None
    assert judge(pred, gold, ent(text, "5 percent", None)) == "omission"


def test_followup_gold_is_the_source_gold_carried_through_kept_ranges() -> None:
    src = "Ben Johnson told the ESA board on Monday."
    fu, offsets = replace(src, "told", "informed")
    gold = [ent(src, "Ben Johnson", "PERSON"), ent(src, "ESA", "ORG"), ent(src, "Monday", "DATE")]
    assert followup_gold(offsets, gold) == [
        ent(fu, "Ben Johnson", "PERSON"),
        ent(fu, "ESA", "ORG"),
        ent(fu, "Monday", "DATE"),
    ]
    # A prediction reaching into the written word is judged against that gold: a range error.
    reach = [Span(fu.index("informed"), fu.index("ESA") + 3, "ORG")]
    assert judge(reach, followup_gold(offsets, gold) or [], ent(fu, "ESA", None)) == "range error"
    # An edited gold entity makes the follow-up's gold unknown.
    fu2, offsets2 = replace(src, "ESA", "EFSA")
    assert fu2 != src and followup_gold(offsets2, gold) is None


def test_judge_region_spans_every_part_of_one_error() -> None:
    pred = [*GOLD5[:2], ent(TABLE5, "Project", "PRODUCT"), ent(TABLE5, "Stratum", "WORK_OF_ART")]
    cat_a, reg_a = judge_region(pred, GOLD5, ent(TABLE5, "Project", None))
    cat_b, reg_b = judge_region(pred, GOLD5, ent(TABLE5, "Stratum", None))
    assert cat_a == cat_b == "range error" and reg_a == reg_b == ent(TABLE5, "Project Stratum", None)
