"""The Batch panel driven from Python: set-up checks, runs, resume, drill-down, export.

A fast deterministic fake model (a label from a CRC of the input) stands in for real
models; ``test_embedded_models_match_mt_run`` runs the embedded ones (slow).
"""

from __future__ import annotations

import sys
import types
import zlib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.widgets import batch as batch_module

LABELS = ("per:spouse", "per:children", "per:parents", "no_relation")
RELATIONS = ["MR-S1", "MR-S2"]


def fake_label(x: Any) -> str:
    return LABELS[zlib.crc32(x.key().encode()) % len(LABELS)]


class Counting:
    """A batched model that records every input it is asked about and can be told to
    raise ``KeyboardInterrupt`` on a given call (as Ctrl-C inside a model would)."""

    def __init__(self, interrupt_on_call: int | None = None) -> None:
        self.seen: list[str] = []
        self.calls = 0
        self.interrupt_on_call = interrupt_on_call

    def predict(self, inputs: list[Any]) -> list[str]:
        self.calls += 1
        if self.interrupt_on_call is not None and self.calls == self.interrupt_on_call:
            raise KeyboardInterrupt
        self.seen.extend(x.key() for x in inputs)
        return [fake_label(x) for x in inputs]


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return mt.datasets.re_sample().head(80)


def make_panel(data: Any, models: Any = None, **kwargs: Any) -> mt.BatchPanel:
    kwargs.setdefault("relations", RELATIONS)
    kwargs.setdefault("cache", mt.PredictionCache())
    return mt.BatchPanel(data=data, models=models or {"fake": fake_label}, **kwargs)


# -- column mapping and skipped rows ----------------------------------------------------------
def test_mapping_is_guessed_from_column_names(sample: pd.DataFrame) -> None:
    panel = make_panel(sample)
    assert panel.controls.mapping["mode"] == "markup"
    assert panel.controls.mapping["markup"] == "markup"
    assert {"name": "markup", "dtype": str(sample["markup"].dtype)} in panel.controls.columns


def test_offset_columns_under_other_names_are_mapped() -> None:
    df = pd.DataFrame(
        {
            "sentence": ["Anna married Ben in Rome.", "Carl is Dana's father."],
            "a0": [0, 0],
            "a1": [4, 4],
            "b0": [13, 8],
            "b1": [16, 12],
        }
    )
    mapping = {
        "mode": "offsets",
        "text": "sentence",
        "head_start": "a0",
        "head_end": "a1",
        "tail_start": "b0",
        "tail_end": "b1",
    }
    panel = make_panel(df, mapping=mapping)
    results = panel.run()
    assert panel.state == "done"
    assert set(results.frame["source_index"]) == {0, 1}
    assert results.frame["sources"][0][0]["head"] == {"start": 0, "end": 4}


def test_missing_and_ill_typed_columns_are_reported_not_raised(sample: pd.DataFrame) -> None:
    df = sample.assign(hs="abc")
    panel = make_panel(
        df,
        mapping={
            "mode": "offsets",
            "text": "markup",
            "head_start": "hs",
            "head_end": "nope",
            "tail_start": "hs",
            "tail_end": "hs",
        },
    )
    results = panel.run()
    assert panel.state == "error"
    text = panel.controls.messages[0]["text"]
    assert "'nope'" in text and "does not have" in text  # missing column, named
    assert "'hs'" in text and "no integers" in text  # ill-typed column, named, with the fix
    assert len(results) == 0


def test_bad_rows_are_skipped_and_reported(sample: pd.DataFrame) -> None:
    df = sample.head(12).copy()
    df.loc[df.index[3], "markup"] = "no entities marked here"
    df.loc[df.index[7], "markup"] = None
    panel = make_panel(df)
    results = panel.run()
    assert panel.state == "done"
    skipped_rows = [row for row, _ in results.skipped]
    assert skipped_rows == [df.index[3], df.index[7]]
    assert "no head and no tail" in results.skipped[0][1]
    warning = next(m for m in panel.controls.messages if m["level"] == "warning")["text"]
    assert warning.startswith("2 rows skipped") and f"row {df.index[3]}" in warning
    assert not set(results.frame["source_index"]) & set(skipped_rows)


def test_unknown_names_are_refused_at_construction(sample: pd.DataFrame) -> None:
    with pytest.raises(mt.RelationError, match="no relation named 'MR-X'; known: MR-R1"):
        make_panel(sample, relations=["MR-S1", "MR-X"])
    with pytest.raises(mt.InputError, match=r"no embedded model named \['nope'\]"):
        mt.BatchPanel(data=sample, models=["nope"])
    with pytest.raises(mt.InputError, match="slice column 'topic' is not a column"):
        make_panel(sample, slice="topic")


def test_no_relation_chosen_is_an_error_in_the_panel(sample: pd.DataFrame) -> None:
    panel = make_panel(sample.head(5))
    panel.controls.relations = []
    panel.run()
    assert panel.state == "error"
    assert "tick at least one relation" in panel.controls.messages[0]["text"]


# -- results equal mt.run -----------------------------------------------------------------------
def test_results_equal_mt_run_with_chunks_and_two_models(sample: pd.DataFrame) -> None:
    models = {"fake": fake_label, "other": lambda x: fake_label(x.swapped())}
    panel = make_panel(sample, models, relations=["MR-S1", "MR-S2", "MR-R1"], seed=3, chunk_size=7)
    results = panel.run()
    expected = mt.run(sample, ["MR-S1", "MR-S2", "MR-R1"], models, seed=3, cache=mt.PredictionCache())
    pd.testing.assert_frame_equal(results.frame, expected.frame)
    pd.testing.assert_frame_equal(panel.summary(), expected.summary(), check_dtype=False)


def test_sample_draws_rows_with_the_seed(sample: pd.DataFrame) -> None:
    panel = make_panel(sample, sample=10, seed=5)
    results = panel.run()
    rows = sorted(set(results.frame["source_index"]))
    assert len(rows) == 10
    again = make_panel(sample, sample=10, seed=5).run()
    assert sorted(set(again.frame["source_index"])) == rows
    other = make_panel(sample, sample=10, seed=6).run()
    assert sorted(set(other.frame["source_index"])) != rows


# -- progress, interrupt, resume ------------------------------------------------------------------
def test_progress_reports_chunks_groups_rate_and_running_vr(sample: pd.DataFrame, monkeypatch: Any) -> None:
    monkeypatch.setattr(batch_module, "_PROGRESS_EVERY", 0.0)
    panel = make_panel(sample.head(40), chunk_size=10)
    seen: list[dict[str, Any]] = []
    panel.controls.observe(lambda c: seen.append(c["new"]), names="progress")
    panel.run()
    chunk_ends = sorted({p["sources_done"] for p in seen})
    assert chunk_ends == [0, 10, 20, 30, 40]
    fractions = [p["fraction"] for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    final = seen[-1]
    assert final["groups_done"] == len(panel.results) == final["groups_total"]
    assert final["rate"] > 0
    vr = {r["relation"]: r for r in final["vr"]}
    expected = panel.results.summary(overall=False).set_index("relation")
    assert vr["MR-S2"]["violations"] == expected.loc["MR-S2", "violations"]


class _Clock:
    """perf_counter advancing 10 ms per reading: deterministic throttling."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.01
        return self.now


def test_progress_is_throttled_to_about_ten_hertz(sample: pd.DataFrame, monkeypatch: Any) -> None:
    clock = _Clock()
    monkeypatch.setattr(batch_module, "time", clock)
    calls = []
    panel = make_panel(sample, chunk_size=2, batch_size=1)
    original = panel._on_progress
    panel._on_progress = lambda p: (calls.append(p), original(p))  # type: ignore[method-assign]
    updates: list[Any] = []
    panel.controls.observe(lambda c: updates.append(c["new"]), names="progress")
    panel.run()
    assert len(calls) > 200
    # every update is >= 0.1 s of (fake) time after the last one, plus the final one
    assert len(updates) <= clock.now / 0.1 + 2
    assert len(updates) < len(calls) / 4


def test_interrupt_keeps_finished_groups_and_resume_recomputes_nothing(sample: pd.DataFrame) -> None:
    model = Counting(interrupt_on_call=9)
    panel = make_panel(sample, {"counting": model}, chunk_size=10, batch_size=8)
    with pytest.raises(KeyboardInterrupt):
        panel.run()
    assert panel.state == "interrupted"
    kept = panel.results
    assert len(kept) > 0 and kept.frame["verdict"].isin(["pass", "violation", "not_applicable"]).all()
    assert panel._done % 10 == 0 and 0 < panel._done < len(sample)
    assert "Run again to resume" in panel.controls.messages[0]["text"]
    before = list(model.seen)

    model.interrupt_on_call = None
    results = panel.run()
    assert panel.state == "done"
    assert len(model.seen) == len(set(model.seen)), "an input was predicted twice"
    assert set(before) <= set(model.seen)
    fresh = Counting()
    expected = mt.run(sample, RELATIONS, {"counting": fresh}, cache=mt.PredictionCache())
    pd.testing.assert_frame_equal(results.frame, expected.frame)
    # interrupted + resumed predicted exactly what one uninterrupted run predicts, each once
    assert sorted(model.seen) == sorted(fresh.seen)


def test_interrupt_from_the_run_button_is_not_raised(sample: pd.DataFrame) -> None:
    panel = make_panel(
        sample.head(30), {"counting": Counting(interrupt_on_call=2)}, chunk_size=5, batch_size=4
    )
    reply = panel.controls.dispatch({"kind": "run", "id": "r1"})
    assert reply == {"kind": "reply", "id": "r1", "value": "interrupted"}
    assert panel.controls.state == panel.table.state == "interrupted"


def test_model_errors_are_shown_and_other_groups_kept(sample: pd.DataFrame) -> None:
    def flaky(x: Any) -> str:
        if "Okafor" in x.text:
            raise ZeroDivisionError("boom")
        return fake_label(x)

    panel = make_panel(sample.head(20), {"flaky": flaky})
    results = panel.run()
    assert panel.state == "done"
    verdicts = results.frame["verdict"]
    assert (verdicts == "error").sum() > 0 and (verdicts != "error").sum() > 0
    msg = next(m for m in panel.controls.messages if m["level"] == "error")["text"]
    assert "ZeroDivisionError: boom" in msg and "Fix the model" in msg


def test_wrong_shape_is_shown(sample: pd.DataFrame) -> None:
    class Short:
        def predict(self, inputs: list[Any]) -> list[str]:
            return ["no_relation"] * (len(inputs) - 1)

    panel = make_panel(sample.head(5), {"short": Short()})
    results = panel.run()
    assert (results.frame["verdict"] == "error").all()
    assert "returned 0 predictions for 1 inputs" in panel.controls.messages[0]["text"]


def test_a_failing_rerun_keeps_the_previous_results(sample: pd.DataFrame) -> None:
    panel = make_panel(sample.head(10))
    first = panel.run()
    panel.controls.mapping = {**panel.controls.mapping, "markup": "gold_missing"}
    again = panel.run()
    assert panel.state == "error" and len(again) == len(first) > 0


# -- drill-down -------------------------------------------------------------------------------------
def _vl(points: list[dict[str, Any]]) -> dict[str, Any]:
    """What the front end of an alt.JupyterChart writes into ``_vl_selections`` on a click."""
    return {"pick": {"value": {"vlPoint": {"or": points}}, "store": []}}


def test_chart_click_filters_the_table_and_selection(sample: pd.DataFrame) -> None:
    panel = make_panel(sample, page_size=5)
    results = panel.run()
    violations = results.frame[results.frame["verdict"] == "violation"]
    assert panel.table.total == len(violations) and len(panel.table.rows) == 5
    assert panel.selection.empty

    panel._charts["vr"]._vl_selections = _vl([{"relation": "MR-S2", "model": "fake"}])
    want = violations[violations["relation"] == "MR-S2"]
    assert len(want) > 0
    pd.testing.assert_frame_equal(panel.selection, want)
    assert panel.table.total == len(want)
    assert {r["relation"] for r in panel.table.rows} == {"MR-S2"}
    assert [r["i"] for r in panel.table.rows] == list(want.index[:5])
    assert panel.table.filter == "relation = MR-S2 · model = fake"

    panel._charts["vr"]._vl_selections = _vl([])  # click on empty space
    assert panel.selection.empty and panel.table.total == len(violations)


def test_heatmap_cell_and_overall_bar_selections(sample: pd.DataFrame) -> None:
    panel = make_panel(sample)
    frame = panel.run().frame
    label = frame.loc[
        (frame["verdict"] == "violation") & (frame["relation"] == "MR-S2"), "source_label"
    ].iloc[0]
    panel._charts["labels"]._vl_selections = _vl(
        [{"relation": "MR-S2", "model": "fake", "source_label": label}]
    )
    sel = panel.selection
    want = frame[
        (frame["verdict"] == "violation") & (frame["relation"] == "MR-S2") & (frame["source_label"] == label)
    ]
    assert len(sel) > 0
    pd.testing.assert_frame_equal(sel, want)
    assert panel.select(relation="Overall", model="fake").shape[0] == (frame["verdict"] == "violation").sum()


def test_slice_chart_selection_uses_the_slice_column(sample: pd.DataFrame) -> None:
    panel = make_panel(sample, slice="focus")
    frame = panel.run().frame
    assert "slice" in panel.chart_specs()
    focus = sample["focus"]
    value = focus[frame.loc[frame["verdict"] == "violation", "source_index"].iloc[-1]]
    sel = panel.select("slice", slice=value, model="fake")
    assert len(sel) > 0 and all(focus[i] == value for i in sel["source_index"])
    assert len(sel) == sum(
        1 for i, v in zip(frame["source_index"], frame["verdict"]) if v == "violation" and focus[i] == value
    )
    assert panel.table.total == len(sel)


def test_paging_sends_only_the_shown_page(sample: pd.DataFrame) -> None:
    panel = make_panel(sample, page_size=4)
    panel.run()
    panel.table.verdict = "all"
    assert panel.table.total == len(panel.results)
    panel.table.page = 2
    assert [r["i"] for r in panel.table.rows] == [8, 9, 10, 11]
    panel.table.page = 10_000  # past the end: clamped to the last page
    last = (panel.table.total - 1) // 4
    assert panel.table.page == last and panel.table.rows[-1]["i"] == panel.table.total - 1


def test_row_detail_has_word_diff_and_both_outputs(sample: pd.DataFrame) -> None:
    hostile = "[[<b>Ann</b>|PERSON]] married <<Bob|PERSON>> in <script>x</script> Rome."
    panel = make_panel(
        pd.DataFrame({"markup": [hostile]}),
        {"fake": lambda x: ("per:children", 0.75)},
        relations=["MR-S1", "MR-S2"],
    )
    frame = panel.run().frame
    i = int(frame.index[frame["verdict"] == "violation"][0])
    panel.table.selected = i
    d = panel.table.detail
    assert "".join(t for _, t in d["source_diff"]) == frame["source_text"][i]  # literal text, not escaped
    assert "".join(t for _, t in d["followup_diff"]) == frame["followup_text"][i]
    assert {op for op, _ in d["source_diff"]} >= {"same", "del"}
    assert d["source_output"]["label"] == frame["source_label"][i]
    assert d["followup_output"] == {"label": "per:children", "scores": [["per:children", 0.75]]}
    assert d["reason"] == frame["reason"][i] and d["verdict"] == "violation"


def test_open_in_explorer_builds_one_for_the_row(sample: pd.DataFrame, monkeypatch: Any) -> None:
    made: list[dict[str, Any]] = []

    class FakeExplorer:
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs)

    import ipywidgets

    class Shown(FakeExplorer, ipywidgets.Label):
        def __init__(self, **kwargs: Any) -> None:
            FakeExplorer.__init__(self, **kwargs)
            ipywidgets.Label.__init__(self, "explorer")

    monkeypatch.setitem(sys.modules, "mtwidgets.widgets.explorer", types.SimpleNamespace(Explorer=Shown))
    panel = make_panel(sample.head(10), seed=4)
    frame = panel.run().frame
    i = int(frame.index[frame["relation"] == "MR-S2"][0])
    reply = panel.table.dispatch({"kind": "explorer", "id": "e1", "i": i})
    assert reply["value"] == "opened"
    kwargs = made[0]
    assert kwargs["relations"] == ["MR-S2"] and kwargs["seed"] == 4 and list(kwargs["models"]) == ["fake"]
    assert list(kwargs["data"].frame["group"]) == [frame["group"][i]]  # exactly the row's group
    assert isinstance(panel._explorer_box.children[0], Shown)


def test_open_in_explorer_shows_the_failing_group_in_the_real_explorer(sample: pd.DataFrame) -> None:
    panel = make_panel(sample.head(20), seed=4)  # MR-S2 applies only where the swapped pair bears the inverse label
    frame = panel.run().frame
    failing = frame.index[(frame["verdict"] == "violation") & (frame["relation"] == "MR-S2")]
    assert len(failing) > 0
    i = int(failing[0])
    explorer = panel.open_in_explorer(i)
    assert panel._explorer_box.children[0] is explorer
    assert explorer.relation == "MR-S2" and explorer.seed == 4
    assert [x.to_dict() for x in explorer.followups] == frame["followups"][i]
    assert explorer.verdicts == {"fake": "violation"}
    assert explorer._models[0]["reason"] == frame["reason"][i]


def test_explorer_failure_is_shown_in_the_table(sample: pd.DataFrame, monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "mtwidgets.widgets.explorer", None)  # import fails
    panel = make_panel(sample.head(5))
    panel.run()
    reply = panel.table.dispatch({"kind": "explorer", "id": "e2", "i": 0})
    assert reply["kind"] == "error" and "Explorer cannot be opened" in reply["message"]
    assert panel.table.error == reply["message"]


# -- export -------------------------------------------------------------------------------------------
def test_export_writes_results_charts_and_report(sample: pd.DataFrame, tmp_path: Path) -> None:
    panel = make_panel(sample.head(30), slice="focus", export_dir=tmp_path / "button")
    results = panel.run()
    reply = panel.controls.dispatch({"kind": "export", "id": "x", "what": ["results"]})  # the Export button
    assert reply["kind"] == "reply"
    assert sorted(Path(p).name for p in reply["value"]) == ["results.csv", "results.jsonl", "results.parquet"]
    assert all(Path(p).parent == tmp_path / "button" for p in reply["value"])
    paths = panel.export(tmp_path)
    names = sorted(p.name for p in paths)
    assert names == sorted(
        [
            "results.parquet",
            "results.jsonl",
            "results.csv",
            "chart_vr.html",
            "chart_vr.png",
            "chart_labels.html",
            "chart_labels.png",
            "chart_slice.html",
            "chart_slice.png",
            "report.html",
        ]
    )
    for ext in ("parquet", "jsonl", "csv"):
        pd.testing.assert_frame_equal(
            mt.Results.load(tmp_path / f"results.{ext}").frame, results.frame, check_dtype=False
        )
    assert (tmp_path / "chart_vr.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (tmp_path / "chart_vr.html").read_text()
    assert "MR-S2" in html and "cdn.jsdelivr" not in html  # Vega inlined: opens offline
    assert "<h1>mtwidgets batch report</h1>" in (tmp_path / "report.html").read_text()
    assert panel.controls.exported == [str(p) for p in paths]


def test_export_before_a_run_says_what_to_do(sample: pd.DataFrame, tmp_path: Path) -> None:
    panel = make_panel(sample.head(3))
    with pytest.raises(ValueError, match="run the panel first"):
        panel.export(tmp_path)


@pytest.mark.slow
def test_embedded_models_match_mt_run() -> None:
    data = mt.datasets.re_sample().head(40)
    models = {name: mt.models.load(name) for name in ("re-patterns", "re-minilm")}
    panel = mt.BatchPanel(data=data, models=models, relations="all", cache=mt.PredictionCache(), chunk_size=8)
    results = panel.run()
    expected = mt.run(data, "all", models, cache=mt.PredictionCache())
    cols = ["relation", "model", "group", "source_index", "source_text", "followup_text", "verdict"]
    pd.testing.assert_frame_equal(results.frame[cols], expected.frame[cols])
    assert panel.state == "done" and set(panel.chart_specs()) == {"vr", "labels"}


def test_sample_of_loaded_data_keeps_the_users_row_labels() -> None:
    frame = mt.datasets.sample("re").iloc[:20]
    frame.index = frame.index + 1000  # the user's own row labels
    loaded = mt.load_inputs(frame)
    assert loaded.rows[:2] == [1000, 1001]
    panel = mt.BatchPanel(data=loaded, models={"m": lambda x: "no_relation"}, relations=["MR-S1"], sample=5)
    results = panel.run()
    assert panel.state == "done"
    rows = set(results.frame["source_index"])
    assert len(rows) == 5 and rows <= set(range(1000, 1020))
