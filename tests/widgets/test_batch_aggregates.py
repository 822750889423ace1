"""The Batch panel's aggregated relations, driven from Python: counts equal to mt.run's (also
after an interrupt and a resume), kept out of the VR chips and charts, their section (counts,
safety per slice, worst sources), the click from a worst source to the Explorer, the safety
chart, the export and the report's section.

A deterministic fake sentiment model (a positive score from a CRC of the input) stands in
for the embedded ones, on the shipped English classification texts.
"""

from __future__ import annotations

import json
import sys
import types
import zlib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.aggregate import aggregate_row
from mtwidgets.core.batch_view import aggregate_sections, example_view, find_worst_source, worst_sources
from mtwidgets.report import write_report

PAIRWISE = "pairwise-systematicity"
GROUPED = "MR4.3"  # a per-group relation of the classification task that needs no parser (punctuation)
DATA = Path(mt.__file__).parent / "data" / "en_classification.jsonl"
HOSTILE = "<img src=x onerror=alert(1)>"


def positive(x: Any) -> dict[str, float]:
    p = (zlib.crc32(x.key().encode()) % 997) / 996
    return {"positive": p, "negative": 1 - p}


def other(x: Any) -> dict[str, float]:
    p = (zlib.crc32(("b" + x.key()).encode()) % 991) / 990
    return {"positive": p, "negative": 1 - p}


MODELS = {"fake-a": positive, "fake-b": other}


class Interrupting:
    """The ``positive`` model, raising ``KeyboardInterrupt`` on its ``at``-th call (as Ctrl-C
    inside a model would)."""

    def __init__(self, at: int) -> None:
        self.calls, self.at = 0, at

    def predict(self, inputs: list[Any]) -> list[dict[str, float]]:
        self.calls += 1
        if self.calls == self.at:
            raise KeyboardInterrupt
        return [positive(x) for x in inputs]


@pytest.fixture(scope="module")
def texts() -> pd.DataFrame:
    return pd.read_json(DATA, lines=True).head(40)


def make_panel(data: Any, models: Any = None, **kwargs: Any) -> mt.BatchPanel:
    kwargs.setdefault("relations", [GROUPED, PAIRWISE])
    kwargs.setdefault("cache", mt.PredictionCache())
    kwargs.setdefault("chunk_size", 8)
    return mt.BatchPanel(data=data, models=models or dict(MODELS), **kwargs)


def expected(data: Any, relations: Any = (GROUPED, PAIRWISE), models: Any = None) -> mt.Results:
    return mt.run(data, list(relations), models or dict(MODELS), cache=mt.PredictionCache())


def assert_same_aggregates(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert len(want) > 0
    assert json.dumps(got.to_dict("records"), default=str) == json.dumps(want.to_dict("records"), default=str)


# -- the run --------------------------------------------------------------------------------------
def test_chunked_panel_run_counts_like_mt_run(texts: pd.DataFrame) -> None:
    panel = make_panel(texts)
    results = panel.run()
    want = expected(texts)
    assert panel.state == "done", panel.controls.messages
    cols = ["relation", "model", "group", "source_index", "verdict"]
    pd.testing.assert_frame_equal(results.frame[cols], want.frame[cols])
    assert_same_aggregates(results.aggregates, want.aggregates)  # detail and examples included
    assert set(results.aggregates["slice"]) >= {"overall", "transformation=start: Thank you."}
    pd.testing.assert_frame_equal(panel.summary(), want.summary())
    by = ("relation", "model", "slice")  # the panel's per-group slices are its slice column's values
    pd.testing.assert_frame_equal(
        panel.summary(by).query(f"relation == '{PAIRWISE}'").reset_index(drop=True),
        want.summary(by).query(f"relation == '{PAIRWISE}'").reset_index(drop=True),
    )
    assert panel.aggregates is results.aggregates


def test_interrupted_run_resumes_to_the_full_counts(texts: pd.DataFrame) -> None:
    model = Interrupting(at=4)  # 5 chunks, 2 calls each (sources, then follow-ups)
    panel = make_panel(texts, {"fake-a": model})
    panel.run(raise_interrupt=False)
    assert panel.state == "interrupted" and 0 < panel._done < len(texts)
    assert panel.results.aggregates.empty  # the pairs need every source
    (note,) = panel.aggregates_view.pending
    assert note["relation"] == PAIRWISE and f"{panel._done} of {len(texts)} sources" in note["text"]
    assert panel.controls.progress["aggregated"] == [{"relation": PAIRWISE, "model": None}]
    assert panel._aggregates_box.layout.display is None  # the pending note is shown

    results = panel.run()  # resumes at the first unfinished chunk
    want = expected(texts, models={"fake-a": positive})
    assert panel.state == "done" and panel.aggregates_view.pending == []
    assert_same_aggregates(results.aggregates, want.aggregates)
    overall = want.aggregates.iloc[0]
    assert overall["slice"] == "overall" and overall["detail"]["sources"] == len(texts)


def test_aggregated_counts_stay_out_of_the_vr_chips_and_charts(texts: pd.DataFrame) -> None:
    panel = make_panel(texts)
    results = panel.run()
    frame = results.frame
    groups = int(frame["verdict"].isin(["pass", "violation"]).sum())
    chips = panel.controls.progress["vr"]
    assert [c["relation"] for c in chips] == [GROUPED]
    assert chips[0]["groups"] == groups
    assert chips[0]["violations"] == int((frame["verdict"] == "violation").sum())
    overall = results.aggregates[results.aggregates["slice"] == "overall"]
    assert panel.controls.progress["aggregated"] == [
        {"relation": PAIRWISE, "model": r.model, "tests": int(r.tests), "violations": int(r.violations),
         "safety": round(float(r.safety), 4)}
        for r in overall.itertuples()
    ]  # fmt: skip
    specs = panel.chart_specs()
    vr = pd.DataFrame(specs["vr"].to_dict()["datasets"].popitem()[1])
    assert set(vr["relation"]) == {GROUPED, "Overall"}
    assert vr.loc[vr["relation"] == "Overall", "groups"].sum() == groups  # no pair pooled in
    assert panel.summary().query("relation == 'Overall'")["groups"].sum() == groups


def test_aggregated_only_run_shows_its_section_without_vr_charts(texts: pd.DataFrame) -> None:
    panel = make_panel(texts, relations=[PAIRWISE])
    panel.run()
    assert panel.state == "done" and len(panel.results) == 0
    assert panel._chart_box.layout.display == "none"  # no group: no VR chart
    assert panel._aggregates_box.layout.display is None
    assert panel._safety_chart.layout.display is None
    assert panel.controls.progress["vr"] == [] and len(panel.controls.progress["aggregated"]) == 2
    assert set(panel.chart_specs()) == {"safety"}


# -- the section ----------------------------------------------------------------------------------
def test_sections_hold_counts_safety_per_slice_and_worst_sources(texts: pd.DataFrame) -> None:
    panel = make_panel(texts)
    aggregates = panel.run().aggregates
    sections = panel.aggregates_view.sections
    assert [s["key"] for s in sections] == [f"{PAIRWISE} · fake-a", f"{PAIRWISE} · fake-b"]
    for section in sections:
        rows = aggregates[aggregates["model"] == section["model"]]
        first = rows.iloc[0]
        assert section["overall"] == {
            "slice": "overall", "tests": first["tests"], "satisfied": first["satisfied"],
            "violations": first["violations"], "not_applicable": first["not_applicable"], "errors": first["errors"],
            "safety": first["safety"],
        }  # fmt: skip
        assert [s["slice"] for s in section["slices"]] == list(rows["slice"])
        assert [s["safety"] for s in section["slices"]] == pytest.approx(list(rows["safety"]))
        listed = first["detail"]["worst_sources"]
        worst = section["slices"][0]["worst"]
        assert len(worst) == min(10, len(listed)) > 0
        for w, entry in zip(worst, listed):
            assert w["source_index"] == entry["source_index"] and w["text"] == entry["text"]
            assert (w["violations"], w["satisfied"]) == (entry["violations"], entry["satisfied"])
            assert w["tests"] == entry["violations"] + entry["satisfied"]
            assert w["safety"] == pytest.approx(entry["safety"])
        assert [w["violations"] / w["tests"] for w in worst] == sorted(
            (w["violations"] / w["tests"] for w in worst), reverse=True
        )  # the worst first, as Table 2
        example = section["slices"][0]["examples"][0]
        assert example["verdict"] in ("violation", "pass") and [s["name"] for s in example["sides"]] == ["x1", "x2"]
        assert ["ties", "strict"] in section["slices"][0]["notes"]
    chart = panel.chart_specs()["safety"].to_dict()
    drawn = pd.DataFrame(chart["datasets"].popitem()[1])
    assert "overall" not in set(drawn["slice"]) and len(drawn) == int((aggregates["slice"] != "overall").sum())


def _vl(points: list[dict[str, Any]]) -> dict[str, Any]:
    return {"pick": {"value": {"vlPoint": {"or": points}}, "store": []}}


def test_a_slice_is_chosen_from_its_row_or_its_bar(texts: pd.DataFrame) -> None:
    panel = make_panel(texts)
    aggregates = panel.run().aggregates
    key = f"{PAIRWISE} · fake-b"
    sliced = [s for s in aggregates["slice"].unique() if s != "overall"]
    panel.show_slice(PAIRWISE, "fake-b", sliced[0])
    assert panel.aggregates_view.shown == {key: sliced[0]}
    panel._safety_chart._vl_selections = _vl([{"relation": PAIRWISE, "model": "fake-b", "slice": sliced[2]}])
    assert panel.aggregates_view.shown == {key: sliced[2]}
    panel._safety_chart._vl_selections = _vl([])  # a click on empty space keeps the slice shown
    assert panel.aggregates_view.shown == {key: sliced[2]}
    assert panel.selection.empty and panel.table.filter == ""  # the violations table is not filtered
    with pytest.raises(ValueError, match="has no slice 'nope'; its slices: \\['overall'"):
        panel.show_slice(PAIRWISE, "fake-b", "nope")
    with pytest.raises(ValueError, match=f"no aggregated relation '{GROUPED}' on model 'fake-b'"):
        panel.show_slice(GROUPED, "fake-b")
    want = aggregates[(aggregates["model"] == "fake-b") & (aggregates["slice"] == sliced[2])].iloc[0]
    assert panel.worst_sources(PAIRWISE, "fake-b", sliced[2])["source_index"].tolist() == [
        w["source_index"] for w in want["detail"]["worst_sources"][:10]
    ]


# -- to the Explorer ----------------------------------------------------------------------------
def test_a_worst_source_opens_that_source_in_the_explorer(texts: pd.DataFrame) -> None:
    data = texts.set_axis(texts.index + 500)  # the user's own row labels
    panel = make_panel(data)
    aggregates = panel.run().aggregates
    sliced = aggregates["slice"].iloc[3]
    panel.show_slice(PAIRWISE, "fake-a", sliced)
    entry = aggregates[(aggregates["model"] == "fake-a") & (aggregates["slice"] == sliced)].iloc[0]
    target = entry["detail"]["worst_sources"][1]
    reply = panel.aggregates_view.dispatch(
        {"kind": "source", "id": "s1", "key": f"{PAIRWISE} · fake-a", "slice": sliced, "rank": 1}
    )
    assert reply == {"kind": "reply", "id": "s1", "value": "opened"}
    explorer = panel._explorer_box.children[0]
    assert explorer.relation == PAIRWISE and list(explorer._predictor.models) == ["fake-a", "fake-b"]
    assert target["source_index"] >= 500 and explorer.index == target["source_index"] - 500
    assert explorer.source.display() == target["text"] == data.loc[target["source_index"], "text"]
    bad = panel.aggregates_view.dispatch({"kind": "source", "id": "s2", "key": f"{PAIRWISE} · fake-a",
                                          "slice": sliced, "rank": 99})  # fmt: skip
    assert bad["kind"] == "error" and "no worst source 99" in bad["message"]
    assert panel.aggregates_view.error == bad["message"]
    with pytest.raises(IndexError, match="no source with row label 3 in the last run"):
        panel.open_source(3)


def test_the_explorer_failing_to_open_is_shown_in_the_section(texts: pd.DataFrame, monkeypatch: Any) -> None:
    panel = make_panel(texts.head(12))
    panel.run()
    monkeypatch.setitem(sys.modules, "mtwidgets.widgets.explorer", None)
    reply = panel.aggregates_view.dispatch(
        {"kind": "source", "id": "s3", "key": f"{PAIRWISE} · fake-a", "slice": "overall", "rank": 0}
    )
    assert reply["kind"] == "error" and "Explorer cannot be opened" in reply["message"]


def test_the_source_click_builds_the_explorer_on_the_runs_sources(texts: pd.DataFrame, monkeypatch: Any) -> None:
    made: list[dict[str, Any]] = []

    import ipywidgets

    class Shown(ipywidgets.Label):
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs)
            super().__init__("explorer")
            self.index = 0

    monkeypatch.setitem(sys.modules, "mtwidgets.widgets.explorer", types.SimpleNamespace(Explorer=Shown))
    panel = make_panel(texts.head(12), seed=3, sample=10)
    panel.run()
    worst = panel.aggregates_view.sections[0]["slices"][0]["worst"][0]
    shown = panel.open_source(worst["source_index"])
    kwargs = made[0]
    assert kwargs["relations"] == [PAIRWISE] and kwargs["seed"] == 3 and list(kwargs["models"]) == list(MODELS)
    inputs, rows = panel._run_data
    assert kwargs["data"] == inputs and len(inputs) == 10  # the sampled sources of the run
    assert rows[shown.index] == worst["source_index"]


# -- export and report ------------------------------------------------------------------------------
def test_export_writes_the_safety_chart_and_the_reports_section(texts: pd.DataFrame, tmp_path: Path) -> None:
    panel = make_panel(texts)  # its texts 31 and 37 quote someone: MR4.3 applies, so a VR chart is drawn
    results = panel.run()
    names = {p.name for p in panel.export(tmp_path)}
    assert {"chart_safety.html", "chart_safety.png", "chart_vr.html", "report.html"} <= names
    assert "cdn.jsdelivr" not in (tmp_path / "chart_safety.html").read_text()  # Vega inlined: offline
    for ext in ("jsonl", "parquet", "csv"):
        assert_same_aggregates(mt.Results.load(tmp_path / f"results.{ext}").aggregates, results.aggregates)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<h2>Aggregated relations</h2>" in html and "<h2>Relations</h2>" in html  # the diagrams stay
    for model in MODELS:
        assert f"<h3>{PAIRWISE} · {model}</h3>" in html
    first = results.aggregates.iloc[0]
    assert f"<td class=num>{first['tests']}</td>" in html
    worst = first["detail"]["worst_sources"][0]
    assert f"<td>{worst['text']}</td>" in html  # the shipped texts hold nothing to escape
    assert f"<td class=num>{100 * worst['safety']:.1f}</td>" in html


def _row(model: str, slice_: str, satisfied: int, violations: int, **extra: Any) -> dict[str, Any]:
    return aggregate_row(relation="toy-pairs", task="classification", model=model, slice=slice_,
                         satisfied=satisfied, violations=violations, **extra)  # fmt: skip


def test_report_section_escapes_text_and_reads_any_aggregated_relation(tmp_path: Path) -> None:
    worst = [{"source_index": 4, "text": HOSTILE, "label": "<b>pos</b>", "score": 0.25, "satisfied": 3,
              "violations": 1}, {"text": "no index, no counts"}]  # fmt: skip
    rows = [
        _row(HOSTILE, "context=<i>up</i>", 0, 0, not_applicable=5),  # nothing tested: safety NaN
        _row(HOSTILE, "context=down", 6, 2, detail={"worst_sources": worst, "ties": HOSTILE},
             examples=[{"verdict": "violation", "reason": HOSTILE, "a": {"text": HOSTILE, "followup": "y"}}]),
    ]  # fmt: skip
    results = mt.Results(mt.Results.empty().frame, aggregates=rows)
    html = write_report(results, tmp_path / "r.html").read_text(encoding="utf-8")
    assert HOSTILE not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "context=&lt;i&gt;up&lt;/i&gt;" in html and "<td class=num>—</td>" in html
    assert "<h4>Worst sources (context=down)</h4>" in html  # no overall row: the slice that lists some
    assert "&lt;b&gt;pos&lt;/b&gt; 0.250" in html and "<td class=num>75.0</td>" in html
    assert "ties: &lt;img" in html


def test_report_without_aggregated_relations_has_no_such_section(tmp_path: Path) -> None:
    empty = mt.Results.empty()
    assert "Aggregated relations" not in write_report(empty, tmp_path / "r.html").read_text(encoding="utf-8")


# -- the pure pieces ------------------------------------------------------------------------------
def test_sections_put_overall_first_and_sum_the_slices_when_it_is_missing() -> None:
    rows = [_row("m", "context=a", 3, 1), _row("m", "overall", 5, 3), _row("m", "context=b", 2, 2),
            _row("n", "context=a", 1, 1), _row("n", "context=b", 0, 0, errors=2)]  # fmt: skip
    sections = aggregate_sections(mt.Results(mt.Results.empty().frame, aggregates=rows).aggregates)
    assert [s["key"] for s in sections] == ["toy-pairs · m", "toy-pairs · n"]
    assert [s["slice"] for s in sections[0]["slices"]] == ["overall", "context=a", "context=b"]
    n = sections[1]["overall"]
    assert (n["slice"], n["tests"], n["violations"], n["errors"], n["safety"]) == ("overall", 2, 1, 2, 0.5)
    assert sections[1]["slices"][1]["safety"] is None  # nothing tested: no safety, not NaN
    assert aggregate_sections(None) == [] and aggregate_sections(mt.Results.empty().aggregates) == []
    with pytest.raises(LookupError, match="no slice 'context=z'"):
        find_worst_source(sections, "toy-pairs · m", "context=z", 0)
    with pytest.raises(LookupError, match="no aggregated relation 'x'"):
        find_worst_source(sections, "x", "overall", 0)


def test_worst_sources_and_examples_tolerate_missing_fields() -> None:
    listed = [{"source_index": 7, "text": "a", "satisfied": 1, "violations": 3}, "not a dict", {"score": float("nan")}]
    out = worst_sources({"worst_sources": listed})
    assert out[0] == {"rank": 0, "source_index": 7, "text": "a", "label": None, "score": None, "satisfied": 1,
                      "violations": 3, "tests": 4, "safety": 0.25}  # fmt: skip
    assert out[1]["source_index"] is None and out[1]["safety"] is None and out[1]["tests"] == 0
    assert worst_sources({}) == [] and worst_sources({"worst_sources": "x"}) == []
    assert len(worst_sources({"worst_sources": [{"text": str(i)} for i in range(30)]}, limit=5)) == 5
    view = example_view({"verdict": "pass", "transformation": "start: Hi.", "x1": {"text": "t", "score": 0.5}})
    assert view == {"verdict": "pass", "reason": "", "notes": [["transformation", "start: Hi."]],
                    "sides": [{"name": "x1", "text": "t", "followup": None, "score": 0.5, "followup_score": None}]}  # fmt: skip


def test_pending_says_why_a_relation_has_no_counts() -> None:
    from mtwidgets.widgets._batch_aggregates import pending

    counted = mt.Results(mt.Results.empty().frame, aggregates=[_row("m", "overall", 1, 0)]).aggregates
    running = pending(["toy-pairs", "other"], counted, 8, 40)
    assert running == [{"relation": "other", "text": "other: counted when every source is predicted (8 of 40 "
                        "sources so far); its cases pair sources across the whole data set"}]  # fmt: skip
    assert pending(["other"], counted, 40, 40, finished=True)[0]["text"] == "other: no source gave it a case to count"
