"""TIN's metrics (section 4.4) on hand-made counts, including the paper's Table 6 rows, and the
evaluation tables (precision, categories, repair) from a Results object and gold."""

from __future__ import annotations

import math
from typing import Any

import pytest

from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Group
from mtwidgets.core.results import Results
from mtwidgets.core.spans import Span
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.metrics import RepairCounts, precision


def test_table_6_flair_conll_row_is_reproduced() -> None:
    c = RepairCounts(tt=286, tf=48, ft=192, ff=164)
    assert (c.num_error, c.num_correct) == (356, 334)
    assert c.err2cor == pytest.approx(0.539, abs=5e-4)
    assert c.cor2err == pytest.approx(0.144, abs=5e-4)
    assert c.error_reduce == pytest.approx(0.404, abs=5e-4)


def test_table_6_azure_row_is_reproduced() -> None:
    c = RepairCounts(tt=413, tf=85, ft=325, ff=149)
    assert c.as_row()["Err2Cor"] == pytest.approx(0.686, abs=5e-4)
    assert c.as_row()["Cor2Err"] == pytest.approx(0.171, abs=5e-4)
    assert c.as_row()["ErrorReduce"] == pytest.approx(0.506, abs=5e-4)


def test_counts_from_before_after_pairs_and_addition() -> None:
    c = RepairCounts.from_pairs([(True, True), (True, False), (False, True), (False, True), (False, False)])
    assert (c.tt, c.tf, c.ft, c.ff) == (1, 1, 2, 1)
    assert c.error_reduce == pytest.approx((2 - 1) / 3)
    both = c + RepairCounts(ft=1)
    assert both.ft == 3 and both.total == 6


def test_metrics_without_errors_are_nan_not_a_division_error() -> None:
    c = RepairCounts(tt=3)
    assert math.isnan(c.err2cor) and math.isnan(c.error_reduce) and c.cor2err == 0.0


def test_precision_like_table_3() -> None:
    p = precision([True] * 43 + [False] * 7)
    assert (p.erroneous, p.issues) == (43, 50)
    assert p.value == pytest.approx(0.86)
    assert str(p) == "86.0% (43/50)"
    low, high = p.interval
    assert low < 0.86 < high
    assert str(precision([])) == "—"


# -- the tables from a Results object and gold ------------------------------------------------
MEKELLE = "They say the authorities returned electricity to Mekelle."


def _group(src: NERInput, old: str, new: str, index: int) -> Group:
    a = src.text.index(old)
    b = a + len(old)
    fu = src.text[:a] + new + src.text[b:]
    d = len(new) - len(old)
    meta = {"alignment": [[0, a, 0, a], [b, len(src.text), b + d, len(fu)]]}
    return Group("TIN-token", index, (src,), (NERInput(fu),), f"{old} -> {new}", 0, 0, meta)


def _at(text: str, mention: str, label: str | None = None) -> Span:
    i = text.index(mention)
    return Span(i, i + len(mention), label)


def _results(model: Any) -> Results:
    """Three groups: a violation whose source is wrong, one whose follow-up alone is wrong,
    and a pass; outputs from ``model``."""
    from mtwidgets.core.results import make_row
    from mtwidgets.ner.oracles import SameEntityLabels

    mek = NERInput(MEKELLE, (_at(MEKELLE, "Mekelle", "GPE"),))
    ben_text = "Ben Johnson told the ESA board on Monday."
    ben = NERInput(
        ben_text,
        (
            _at(ben_text, "Ben Johnson", "PERSON"),
            _at(ben_text, "ESA", "ORG"),
            _at(ben_text, "Monday", "DATE"),
        ),
    )
    groups = [
        _group(mek, "returned", "restored", 0),
        _group(ben, "told", "informed", 1),
        _group(ben, "board", "panel", 2),
    ]
    rows = []
    for g in groups:
        src_out, fu_out = model.predict([g.sources[0]])[0], model.predict([g.followups[0]])[0]
        rows.append(make_row(g, "toy", [src_out], [fu_out], SameEntityLabels().check(g, [src_out], [fu_out])))
    return Results.from_rows(rows)


class Toy:
    """Mekelle is a person unless electricity was 'restored'; 'informed' makes the board an ORG."""

    def predict(self, inputs: list[Any]) -> list[Prediction]:
        out = []
        for x in inputs:
            t, spans = x.text, []
            if "Mekelle" in t:
                spans.append(_at(t, "Mekelle", "GPE" if "restored" in t else "PERSON"))
            for name, label in (
                ("Adigrat", "GPE"),
                ("Axum", "GPE"),
                ("Ben Johnson", "PERSON"),
                ("ESA", "ORG"),
                ("Monday", "DATE"),
            ):
                if name in t:
                    spans.append(_at(t, name, label))
            if "informed" in t and "board" in t:
                spans.append(_at(t, "board", "ORG"))
            out.append(Prediction(spans=tuple(sorted(spans))))
        return out


def test_issues_precision_and_categories_against_gold() -> None:
    from mtwidgets.ner.evaluate import category_table, find_issues, precision_table

    results = _results(Toy())
    assert list(results.frame["verdict"]) == ["violation", "violation", "pass"]
    issues = find_issues(results)  # gold read from the results' source inputs
    assert [(i.erroneous, i.source_erroneous) for i in issues] == [(True, True), (True, False)]
    sides = {(j.side, j.text[j.span.start : j.span.end]): j.category for i in issues for j in i.sides}
    assert sides[("source", "Mekelle")] == "incorrect category"
    assert sides[("followup", "Mekelle")] is None
    assert sides[("followup", "board")] == "over-labeling"
    table = precision_table(results, issues).set_index("relation")
    row = table.loc["TIN-token"]
    assert (row["groups"], row["issues"], row["judged"], row["erroneous"]) == (3, 2, 2, 2)
    assert row["source_precision"] == 0.5
    cats = category_table(issues).set_index("category")["errors"].to_dict()
    assert cats == {"omission": 0, "over-labeling": 1, "incorrect category": 1, "range error": 0}


def test_without_gold_issues_are_located_but_not_judged() -> None:
    from mtwidgets.ner.evaluate import find_issues

    results = _results(Toy())
    results.frame["sources"] = [[{"task": "ner", "text": d[0]["text"]}] for d in results.frame["sources"]]
    issues = find_issues(results)
    assert len(issues) == 2 and all(i.erroneous is None for i in issues)
    # Gold given separately, by text.
    judged = find_issues(results, gold={MEKELLE: [_at(MEKELLE, "Mekelle", "GPE")]})
    assert judged[0].source_erroneous is True and judged[1].erroneous is None


def test_repair_table_counts_transitions_per_distinct_entity() -> None:
    from mtwidgets.ner.evaluate import evaluate

    class Words:
        def tokenize(self, word: str) -> list[str] | None:
            return None

        def propose(self, items: Any, k: int) -> list[list[tuple[str, float]]]:
            table = {
                "Mekelle": [("Adigrat", 0.6), ("Axum", 0.5)],
                "board": [("panel", 0.6), ("committee", 0.5)],
            }
            return [table.get(t[s.start : s.end], []) for t, s in items]

    def sim(pairs: Any) -> list[float]:
        return [0.9] * len(pairs)

    results = _results(Toy())
    ev = evaluate(results, {"toy": Toy()}, repairer_options={"candidates": Words()}, similarity=sim)
    assert ev.repair is not None
    row = ev.repair.set_index("model").loc["toy"]
    # Mekelle: source F->T (votes GPE), follow-up T->T; board: source T->T, follow-up F->T (NULL wins:
    # 'panel'/'committee' are not entities, and the only vote is NULL's).
    assert (row["FT"], row["TT"], row["TF"], row["FF"]) == (2, 2, 0, 0)
    assert row["Err2Cor"] == 1.0 and row["ErrorReduce"] == 1.0
    units = ev.repairs[0].units
    assert set(units["relabel"]) == {"GPE", "NULL"}
