"""The Batch panel on NER data: set-up from a frame, the error-category chart and its counts,
selection by category, the NER table and detail, exports.

A fast deterministic fake NER model (capitalised word runs, a label from a CRC of the
mention, half of the sentence-initial runs missed) stands in for the spaCy pipelines: it
disagrees with itself under TIN-question ("The European Commission ..." -> "Did the
European Commission ...?") in every category TIN names, so the counts are worth checking.
The counts are checked against :func:`find_issues` / :func:`category_table` /
:func:`kind_table` run directly on ``panel.results``.
"""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.data import infer_task
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.spans import Span
from mtwidgets.core.task import get_task
from mtwidgets.ner import batch_view as ner
from mtwidgets.ner.evaluate import category_table, find_issues, kind_table
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.locate import CATEGORIES
from mtwidgets.widgets import _batch_setup as setup
from mtwidgets.widgets.batch import BatchPanel

LABELS = ("PERSON", "ORG", "GPE")
CAPS = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*")
RELATIONS = ["TIN-question", "TIN-shuffle"]
HOSTILE = "<img src=x onerror=alert(1)>"


def fake_ner(x: Any) -> Prediction:
    spans = []
    for m in CAPS.finditer(x.text):
        h = zlib.crc32(m.group().lower().encode())
        if m.start() == 0 and h % 2 == 0:  # some sentence-initial names are missed
            continue
        spans.append(Span(m.start(), m.end(), LABELS[h % len(LABELS)]))
    return Prediction(spans=tuple(spans))


def make_panel(data: Any, **kwargs: Any) -> BatchPanel:
    kwargs.setdefault("relations", RELATIONS)
    kwargs.setdefault("models", {"fake": fake_ner})
    kwargs.setdefault("cache", mt.PredictionCache())
    return BatchPanel(data=data, **kwargs)


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return mt.datasets.ner_sample_frame().iloc[:60].reset_index(drop=True)


@pytest.fixture(scope="module")
def panel(frame: pd.DataFrame) -> BatchPanel:
    p = make_panel(frame, chunk_size=5)  # five chunks: the counts are added chunk by chunk
    p.run()
    assert p.state == "done", p.controls.messages
    return p


def gold_of(frame: pd.DataFrame) -> list[NERInput]:
    return [NERInput(t, tuple(e)) for t, e in zip(frame["text"], frame["entities"])]


# -- set-up ---------------------------------------------------------------------------------
def test_ner_frame_gets_the_ner_mapping_task_models_and_charts(frame: pd.DataFrame) -> None:
    panel = mt.BatchPanel(data=frame)  # type: ignore[operator]  # (a lazy attribute) nothing but the frame
    assert isinstance(panel, BatchPanel)
    assert panel.task == "ner"
    mapping = panel.controls.mapping
    assert (mapping["mode"], mapping["text"], mapping["entities"]) == ("ner", "text", "entities")
    assert panel.controls.modes == [m.to_dict() for m in get_task("ner").column_modes]
    assert [m["name"] for m in panel.controls.modes] == ["ner"]
    assert panel.controls.models == ["ner-spacy-sm", "ner-spacy-md"]  # loaded on the first run only
    assert panel._loaded == {}
    assert set(panel.controls.relations_available) == set(mt.catalogue("ner")["name"])
    assert list(panel._charts) == ["vr", "categories", "slice"]
    assert panel.table.task == "ner"
    titles = [c["title"] for c in panel.table.columns]  # the table's NER columns, as data
    assert titles[5:8] == ["source entities", "follow-up entities", "error categories"]


def test_task_is_inferred_from_relations_inputs_and_columns(frame: pd.DataFrame) -> None:
    inputs = gold_of(frame.head(3))
    assert infer_task(inputs, None, None) == "ner"
    assert infer_task(None, None, ["TIN-shuffle"]) == "ner"
    assert infer_task(frame.rename(columns={"entities": "gold"}), None, None) == "ner"
    assert infer_task(mt.datasets.re_sample().head(3), None, None) == "re"
    assert infer_task(None, ["ner-spacy-sm"], None) == "ner"
    with pytest.raises(mt.InputError, match="different tasks"):
        infer_task(None, None, ["TIN-shuffle", "MR-S1"])
    guessed = setup.guess_mapping(["sentence", "text", "gold"], "ner")
    assert (guessed["text"], guessed["entities"]) == ("text", "gold")


def test_bad_rows_are_skipped_and_reported(frame: pd.DataFrame) -> None:
    good = frame.head(4)[["text", "entities"]]
    bad = pd.DataFrame(
        {
            "text": ["Anna Berg met Tom Lee in Oslo.", "Acme hired Bob.", None, "Ada Park left."],
            "entities": [
                [{"start": 0, "end": 9, "label": "PERSON"}, {"start": 5, "end": 13, "label": "PERSON"}],
                [{"start": 0, "end": 4, "label": "COMPANY"}],
                [],
                '[{"start": 0, "end": 8, "label": "PERSON"',  # a truncated JSON cell
            ],
        },
        index=[101, 102, 103, 104],
    )
    panel = make_panel(pd.concat([good, bad]))
    results = panel.run()
    assert panel.state == "done"
    skipped = dict(results.skipped)
    assert sorted(skipped) == [101, 102, 103, 104]
    assert "overlap" in skipped[101]
    assert "'COMPANY'" in skipped[102] and "not canonical" in skipped[102]
    assert "no 'text'" in skipped[103]
    assert "not a JSON list" in skipped[104]
    assert set(results.frame["source_index"]) <= {0, 1, 2, 3}
    warning = [m["text"] for m in panel.controls.messages if m["level"] == "warning"]
    assert warning and warning[0].startswith("4 rows skipped") and "row 101" in warning[0]


def test_column_level_mapping_problems_stop_the_run_with_the_fix(frame: pd.DataFrame) -> None:
    data = frame.head(3).assign(n=[1, 2, 3])
    panel = make_panel(data, mapping={"mode": "ner", "text": "text", "entities": "n"})
    panel.run()
    assert panel.state == "error"
    text = panel.controls.messages[0]["text"]
    assert "column 'n' (for 'entities') holds int64" in text and "gold-entities column" in text
    panel.controls.mapping = {"mode": "markup", "markup": "text"}
    panel.run()
    assert panel.state == "error"
    assert "mode 'markup' does not fit ner data; choose one of ner" in panel.controls.messages[0]["text"]
    panel.controls.mapping = {"mode": "ner", "text": "text", "entities": ""}  # gold is optional
    panel.run()
    assert panel.state == "done" and len(panel.results) > 0


# -- charts and their counts ----------------------------------------------------------------
def test_vr_chart_has_one_bar_per_transformation_and_model_with_intervals(panel: BatchPanel) -> None:
    spec = panel.chart_specs()["vr"].to_dict()
    data = pd.DataFrame(next(iter(spec["datasets"].values())))
    expected = panel.results.summary()
    expected = expected[expected["groups"] > 0]
    got = data.set_index(["relation", "model"])
    for r in expected.itertuples():
        row = got.loc[(r.relation, r.model)]
        assert row["violations"] == r.violations and row["groups"] == r.groups
        assert row["low_pct"] <= row["vr_pct"] <= row["high_pct"]
        assert row["high_pct"] - row["low_pct"] > 0  # a real interval, not a point
    assert "TIN-question" in set(data["relation"])


def test_category_counts_match_category_table_overall_and_per_relation(
    panel: BatchPanel, frame: pd.DataFrame
) -> None:
    results = panel.results
    table = panel.category_summary()
    gold = gold_of(frame)

    def counts(t: pd.DataFrame) -> dict[tuple[str, str], int]:
        return {(r.model, r.category): int(r.errors) for r in t.itertuples() if r.errors}

    direct = counts(category_table(find_issues(results, gold=gold)))
    assert len(direct) == 4, f"the fake model should err in several categories: {direct}"
    shown = {
        (r.model, r.category): int(r.count) for r in table.itertuples() if r.relation == ner.ALL and r.count
    }
    assert shown == direct
    for relation in set(results.frame["relation"]):
        part = mt.Results(results.frame[results.frame["relation"] == relation].reset_index(drop=True))
        mine = {
            (r.model, r.category): int(r.count)
            for r in table.itertuples()
            if r.relation == relation and r.count
        }
        assert mine == counts(category_table(find_issues(part, gold=gold)))
    all_rows = table[table["relation"] == ner.ALL]
    assert all_rows["share"].sum() == pytest.approx(1.0)
    assert set(all_rows["issues"]) == {int((results.frame["verdict"] == "violation").sum())}


def test_category_chart_holds_only_the_aggregated_rows(panel: BatchPanel) -> None:
    spec = panel.chart_specs()["categories"].to_dict()
    data = pd.DataFrame(next(iter(spec["datasets"].values())))
    table = panel.category_summary()
    assert len(data) == int((table["count"] > 0).sum()) <= 4 * 2 * (1 + len(RELATIONS))
    assert set(data["category"]) <= set(CATEGORIES)
    assert spec["encoding"]["color"]["scale"]["domain"] == list(CATEGORIES)
    assert {t["field"] for t in spec["encoding"]["tooltip"]} >= {"count", "share_pct", "issues"}


def test_without_gold_the_chart_counts_what_the_disagreements_suggest(frame: pd.DataFrame) -> None:
    panel = make_panel(frame[["text"]].head(12), relations=["TIN-question"])
    assert panel.controls.mapping["entities"] == ""
    results = panel.run()
    tally = panel.task_tally
    assert tally is not None and not tally.judged
    direct = kind_table(find_issues(results))
    assert len(direct) > 0
    shown = {
        (r.model, r.category): int(r.count)
        for r in tally.table().itertuples()
        if r.relation == ner.ALL and r.count
    }
    assert shown == {(r.model, r.suggests): int(r.suspicious_entities) for r in direct.itertuples()}
    assert "no gold" in panel.chart_specs()["categories"].to_dict()["title"]


# -- selection by category --------------------------------------------------------------------
def _categories_by_group(results: mt.Results, gold: Any) -> dict[tuple[str, str], set[str]]:
    return {
        (i.model, i.group): {j.category for j in i.sides if j.category}
        for i in find_issues(results, gold=gold)
    }


@pytest.mark.parametrize("category", CATEGORIES)
def test_selecting_a_category_keeps_the_violations_showing_it(
    panel: BatchPanel, frame: pd.DataFrame, category: str
) -> None:
    by_group = _categories_by_group(panel.results, gold_of(frame))
    expected = {g for (m, g), cats in by_group.items() if category in cats}
    assert expected, f"no violation shows {category!r}; the fixture should produce one"
    selection = panel.select("categories", relation=ner.ALL, model="fake", category=category)
    assert set(selection["group"]) == expected
    assert (selection["verdict"] == "violation").all()
    assert panel.table.total == len(expected)
    assert panel.table.filter == f"relation = {ner.ALL} · model = fake · category = {category}"
    assert all(category in r["categories"] for r in panel.table.rows)
    panel.clear_selection()
    assert panel.selection.empty


def test_a_chart_click_selects_like_select(panel: BatchPanel) -> None:
    signal = {"vlPoint": {"or": [{"relation": "TIN-question", "model": "fake", "category": "range error"}]}}
    panel._on_chart_select("categories", {"new": {"pick": {"value": signal}}})
    clicked = set(panel.selection["group"])
    assert clicked == set(
        panel.select("categories", relation="TIN-question", model="fake", category="range error")["group"]
    )
    assert clicked and all(g.startswith("TIN-question/") for g in clicked)
    panel._on_chart_select("categories", {"new": {"pick": {"value": {}}}})  # a click on empty space
    assert panel.selection.empty


# -- table and detail -------------------------------------------------------------------------
def test_ner_rows_list_predicted_entities_and_categories(panel: BatchPanel) -> None:
    panel.select("categories", relation=ner.ALL, model="fake", category="range error")
    row = panel.table.rows[0]
    r = panel.results.frame.iloc[row["i"]]
    src = r["sources"][0]["text"]
    spans = fake_ner(NERInput(src)).spans
    assert row["source_label"] == "; ".join(f"{src[s.start : s.end]} {s.label}" for s in spans)
    assert "range error" in row["categories"]
    panel.table.selected = row["i"]
    extra = panel.table.detail["extra"]
    assert extra["replaces_outputs"] and extra["cls"] == "mtw-batch__ner"
    marked = [b for b in extra["blocks"] if b["type"] == "marked"]
    assert [b["cls"] for b in marked] == [
        "mtw-batch__ents--source",
        "mtw-batch__ents--followup",
        "mtw-batch__ents--gold",
    ]
    detail = ner.ner_detail(panel.results.frame, row["i"], panel.task_tally.gold)
    assert marked[0]["parts"] == detail["source"]
    assert "".join(piece for piece, _ in detail["source"]) == src
    assert [(p, lab) for p, lab in detail["source"] if lab] == [
        (src[s.start : s.end], s.label) for s in spans
    ]
    assert "".join(piece for piece, _ in detail["followup"]) == r["followups"][0]["text"]
    assert [lab for _, lab in detail["gold"] if lab] == [g["label"] for g in r["sources"][0].get("gold", [])]
    assert detail["judged"] and detail["suspicious"]
    cats = {c for e in detail["suspicious"] for c in (e["source_category"], e["followup_category"])}
    assert "range error" in cats
    panel.clear_selection()


def test_hostile_html_in_ner_text_reaches_the_views_verbatim() -> None:
    text = f"Yesterday Acme Corp said {HOSTILE} and Bob Stone agreed."
    gold = (Span(10, 19, "ORG"), Span(text.index("Bob"), text.index("Bob") + 9, "PERSON"))
    panel = make_panel([NERInput(text, gold)], relations=["TIN-question"])
    panel.run()
    panel.table.verdict = "all"
    rows = panel.table.rows
    assert rows and HOSTILE in rows[0]["source"]
    panel.table.selected = rows[0]["i"]
    pieces = panel.table.detail["extra"]["blocks"][1]["parts"]
    assert "".join(p for p, _ in pieces) == text
    assert HOSTILE in json.dumps(panel.table.detail, ensure_ascii=False)


# -- export -----------------------------------------------------------------------------------
def test_export_writes_the_category_chart_and_the_ner_report(panel: BatchPanel, tmp_path: Path) -> None:
    paths = {p.name for p in panel.export(tmp_path, what=("charts", "report"))}
    assert {"chart_vr.html", "chart_categories.html", "chart_categories.png", "report.html"} <= paths
    assert "chart_labels.html" not in paths
    assert (tmp_path / "chart_categories.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "NER: suspicious issues and their precision (TIN Table 3)" in report
    assert "NER: error categories of the erroneous issues" in report
    assert "TIN Table 6" not in report  # the repair only when asked: it is slow
    # the report's category table holds the chart's "All relations" counts
    table = panel.category_summary()
    for r in table[(table["relation"] == ner.ALL) & (table["count"] > 0)].itertuples():
        assert re.search(
            rf"<td>{re.escape(r.model)}</td><td>{re.escape(r.category)}</td><td class=num>{r.count}</td>",
            report,
        )


def test_open_in_explorer_shows_the_ner_group_with_the_same_verdict(panel: BatchPanel) -> None:
    frame = panel.results.frame
    i = int((frame["verdict"] == "violation").to_numpy().argmax())
    explorer = panel.open_in_explorer(i)
    assert panel._explorer_box.children == (explorer,)
    assert explorer.relation == frame.iloc[i]["relation"] and explorer._error == {}
    assert explorer._input["text"] == frame.iloc[i]["sources"][0]["text"]
    assert [(m["name"], m["verdict"]) for m in explorer._models] == [("fake", "violation")]
