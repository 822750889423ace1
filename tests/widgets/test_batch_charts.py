"""The charts the Batch panel shows: pure functions of summary frames, with selections."""

from __future__ import annotations

import json
from typing import Any

import altair as alt
import pandas as pd
import pytest

from mtwidgets.charts import label_heatmap, slice_chart, vr_chart
from mtwidgets.widgets._batch_agg import MAX_SLICES, OTHER, Tally


def _frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    """A results-like frame: verdicts spread over relations, models, labels and rows."""
    import random

    rng = random.Random(seed)
    rows = []
    for i in range(n):
        verdict = rng.choice(["pass", "violation", "violation", "not_applicable", "error"])
        rows.append(
            {
                "relation": rng.choice(["MR-S2", "MR-R1", "MR-S1"]),
                "model": rng.choice(["a", "b"]),
                "source_label": None
                if verdict == "error"
                else rng.choice(["per:title", "per:spouse", "org:founded"]),
                "source_index": i % 97,
                "verdict": verdict,
            }
        )
    return pd.DataFrame(rows)


def _results_summary(frame: pd.DataFrame, by: list[str], overall: bool) -> pd.DataFrame:
    from mtwidgets.core.results import COLUMNS, Results

    full = frame.reindex(columns=list(COLUMNS))
    return Results(full).summary(by=by, overall=overall)


@pytest.mark.parametrize("overall", [True, False])
def test_tally_summary_equals_results_summary_added_chunk_by_chunk(overall: bool) -> None:
    frame = _frame()
    tally = Tally()
    for start in range(0, len(frame), 37):
        tally.add(frame.iloc[start : start + 37])
    got = tally.summary(("relation", "model"), overall=overall)
    want = _results_summary(frame, ["relation", "model"], overall)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    assert tally.total == len(frame)


def test_label_summary_counts_each_label_and_a_missing_label() -> None:
    frame = _frame()
    tally = Tally()
    tally.add(frame)
    got = tally.summary(("relation", "model", "source_label"), overall=False)
    assert got["violations"].sum() == (frame["verdict"] == "violation").sum()
    errors = got[got["source_label"] == "—"]
    assert errors["errors"].sum() == (frame["verdict"] == "error").sum()


def test_slice_summary_pools_rare_values_into_other() -> None:
    frame = _frame(2000)
    slice_of = {i: f"topic-{i}" for i in range(97)}  # 97 values > MAX_SLICES
    tally = Tally(slice_of)
    tally.add(frame)
    got = tally.slice_summary()
    assert got["slice"].nunique() == MAX_SLICES + 1 and OTHER in set(got["slice"])
    assert got["violations"].sum() == (frame["verdict"] == "violation").sum()


def _params(chart: Any) -> list[dict[str, Any]]:
    spec = chart.to_dict()
    return (
        list(spec.get("params", []))
        + [p for layer in spec.get("layer", []) for p in layer.get("params", [])]
        + list(spec.get("spec", {}).get("params", []))
    )


def test_vr_chart_with_and_without_a_selection() -> None:
    tally = Tally()
    tally.add(_frame())
    summary = tally.summary()
    plain = vr_chart(summary)
    assert _params(plain) == []
    picked = vr_chart(summary, select="pick")
    params = _params(picked)
    assert [p["name"] for p in params] == ["pick"]
    assert params[0]["select"] == {"type": "point", "fields": ["relation", "model"]}
    jc = alt.JupyterChart(picked)
    assert jc._selection_types == {"pick": "point"}
    data = next(iter(picked.to_dict()["datasets"].values()))
    assert len(data) == len(summary)  # aggregated: one row per relation x model (+ Overall)


def test_heatmap_and_slice_chart_render_offline_with_selections() -> None:
    import vl_convert as vlc

    tally = Tally({i: "even" if i % 2 else "odd" for i in range(97)})
    tally.add(_frame())
    heat = label_heatmap(tally.summary(("relation", "model", "source_label"), overall=False), select="pick")
    assert _params(heat)[0]["select"]["fields"] == ["relation", "model", "source_label"]
    sl = slice_chart(tally.slice_summary(), "parity", select="pick")
    assert _params(sl)[0]["select"]["fields"] == ["slice", "model"]
    for chart, text in ((heat, "MR-S2"), (sl, "even")):
        svg = vlc.vegalite_to_svg(chart.to_dict())
        assert svg.startswith("<svg") and text in svg
    spec = json.dumps(heat.to_dict())
    assert '"column"' in spec  # one panel per model


def test_empty_label_cells_are_left_out() -> None:
    summary = pd.DataFrame(
        {
            "relation": ["MR-S1", "MR-S2"],
            "model": ["a", "a"],
            "source_label": ["x", None],
            "groups": [0, 4],
            "violations": [0, 1],
            "passes": [0, 3],
            "not_applicable": [5, 0],
            "errors": [0, 0],
            "vr": [float("nan"), 0.25],
            "vr_low": [float("nan"), 0.05],
            "vr_high": [float("nan"), 0.7],
        }
    )
    data = next(iter(label_heatmap(summary).to_dict()["datasets"].values()))
    assert [(d["relation"], d["source_label"]) for d in data] == [("MR-S2", "—")]
