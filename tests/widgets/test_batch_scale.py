"""100,000 result rows: the synced state stays small and the charts get aggregates only."""

from __future__ import annotations

import json
import zlib
from typing import Any

import ipywidgets
import pandas as pd

import mtwidgets as mt
from mtwidgets.core.properties import SameLabel
from mtwidgets.core.relation import MetamorphicRelation
from mtwidgets.re.transforms import SwapArguments

LABELS = ("per:spouse", "per:children", "no_relation")
N_SOURCES = 25_000  # x 2 relations x 2 models = 100,000 rows


def _fake(inputs: list[Any]) -> list[str]:
    return [LABELS[zlib.crc32(x.key().encode()) % 3] for x in inputs]


def _swap(name: str) -> MetamorphicRelation:
    # A cheap relation (no spaCy) so the test measures the panel, not the transformations.
    return MetamorphicRelation(
        name,
        task="re",
        category="test",
        description="swap head and tail",
        expected="identical",
        paper="-",
        transformation=SwapArguments(),
        property=SameLabel(),
    )


def _widgets(root: ipywidgets.Widget) -> list[ipywidgets.Widget]:
    out = [root]
    for child in getattr(root, "children", ()):
        out.extend(_widgets(child))
    return out


def _synced_bytes(panel: Any) -> dict[str, int]:
    """JSON size of each widget's synced state, without the static JS/CSS (sent once)."""
    sizes = {}
    for w in _widgets(panel):
        state = {k: v for k, v in w.get_state().items() if k not in ("_esm", "_css")}
        sizes[f"{type(w).__name__}#{w.model_id[:6]}"] = len(json.dumps(state, default=str))
    return sizes


def test_100k_rows_keep_synced_state_small() -> None:
    df = pd.DataFrame(
        {
            "markup": [
                f"[[Person {i}|PERSON]] met <<Person {i * 7 % N_SOURCES} x|PERSON>> on day {i % 31}."
                for i in range(N_SOURCES)
            ],
            "topic": [f"t{i % 60}" for i in range(N_SOURCES)],  # 60 values: the chart pools the rarest
        }
    )
    models = {m: mt.models.CallableModel(_fake, batched=True, name=m) for m in ("a", "b")}
    panel = mt.BatchPanel(
        data=df,
        models=models,
        relations=[_swap("T-A"), _swap("T-B")],
        slice="topic",
        cache=mt.PredictionCache(),
    )
    results = panel.run()
    assert panel.state == "done" and len(results) == 100_000

    sizes = _synced_bytes(panel)
    total = sum(sizes.values())
    frame_bytes = len(results.frame[["source_text", "followup_text", "reason"]].to_json())
    print(f"synced state {total / 1024:.1f} KiB vs {frame_bytes / 2**20:.1f} MiB of results text", sizes)
    assert total < 150_000, sizes
    assert frame_bytes > 50 * total

    assert len(panel.table.rows) == panel.table.page_size
    for key, chart in panel._charts.items():
        if chart.spec is None:  # a hidden chart (ENTRE's, without ENTRE rows)
            continue
        rows = sum(len(v) for v in chart.spec["datasets"].values())
        assert rows <= 200, (key, rows)  # aggregates, never the 100k rows

    # drill-down on the big frame still pages
    picked = panel.select(relation="T-B", model="b")
    assert (
        len(picked)
        == (
            (results.frame["relation"] == "T-B")
            & (results.frame["model"] == "b")
            & (results.frame["verdict"] == "violation")
        ).sum()
    )
    assert len(panel.table.rows) == panel.table.page_size
