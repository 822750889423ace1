"""The Batch panel's aggregated relations: what their section shows and its safety chart.

An aggregated relation (pairwise systematicity, three-way transitivity; see
:mod:`mtwidgets.core.aggregate`) has no group rows: once the run's last chunk is done its
counts arrive as ``Results.aggregates``, one row per (relation, model, slice). The panel shows
them apart from the per-group relations, never mixed into their VR chips, charts or table:

- a section per relation and model (:func:`view_sections`): its counts (tests, satisfied,
  violations, not applicable, errors) and safety, a table of safety per slice, the worst
  sources of the chosen slice (the paper's Table 2: text, model output, violations, safety),
  each opening the source in the Explorer, and a few example cases;
- a bar chart of safety per slice and model (:func:`safety_chart`), an Altair chart like the
  panel's others (offline Vega bundle, exported beside them); clicking a bar shows that
  slice's worst sources.

Nothing here touches a widget; the texts crossing to the browser are clipped like the
table's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ..core.aggregate import OVERALL
from ..core.batch_view import FADED, aggregate_sections, point_selection
from ._batch_agg import _clip

SAFETY = "safety"  # the chart's key among the exported charts
MAX_EXAMPLE_TEXT = 600  # characters of an example's texts sent to the browser


def view_sections(aggregates: pd.DataFrame) -> list[dict[str, Any]]:
    """:func:`~mtwidgets.core.batch_view.aggregate_sections` with every text clipped for the
    browser (the full texts stay in ``panel.results.aggregates``)."""
    sections = aggregate_sections(aggregates)
    for section in sections:
        for part in section["slices"]:
            for entry in part["worst"]:
                entry["text"] = _clip(entry["text"])
                entry["label"] = None if entry["label"] is None else _clip(entry["label"], 80)
            for example in part["examples"]:
                example["reason"] = _clip(example["reason"], 1000)
                example["notes"] = [[_clip(k, 80), _clip(v, 300)] for k, v in example["notes"]]
                for side in example["sides"]:
                    side["text"] = _clip(side["text"], MAX_EXAMPLE_TEXT)
                    if side["followup"] is not None:
                        side["followup"] = _clip(side["followup"], MAX_EXAMPLE_TEXT)
    return sections


def pending(
    aggregated: Sequence[str], aggregates: pd.DataFrame, done: int, total: int, *, finished: bool = False
) -> list[dict[str, Any]]:
    """The run's aggregated relations that have no counts, each with why: before the run
    finishes, their cases pair sources from the whole data set, so they are counted once
    every source is predicted; after it, no source gave them a case to count."""
    counted = set(map(str, aggregates["relation"])) if len(aggregates) else set()
    why = (
        "no source gave it a case to count"
        if finished
        else f"counted when every source is predicted ({done} of {total} sources so far); its cases pair "
        "sources across the whole data set"
    )
    return [{"relation": name, "text": f"{name}: {why}"} for name in aggregated if name not in counted]


def progress_items(aggregated: Sequence[str], aggregates: pd.DataFrame) -> list[dict[str, Any]]:
    """The progress line's entries of the aggregated relations (kept apart from the VR chips):
    ``{relation, model, tests, violations, safety}`` once counted, ``{relation, model: None}``
    before."""
    out: list[dict[str, Any]] = []
    rows = aggregates[aggregates["slice"] == OVERALL] if len(aggregates) else aggregates
    for name in aggregated:
        mine = rows[rows["relation"] == name] if len(rows) else rows
        if not len(mine):
            out.append({"relation": name, "model": None})
            continue
        for r in mine.itertuples(index=False):
            out.append(
                {
                    "relation": name,
                    "model": str(r.model),
                    "tests": int(r.tests),
                    "violations": int(r.violations),
                    "safety": None if pd.isna(r.safety) else round(float(r.safety), 4),
                }
            )
    return out


def chart_frame(aggregates: pd.DataFrame) -> pd.DataFrame:
    """The rows the safety chart draws: every slice but ``"overall"`` with a tested case (a
    relation without slices keeps its ``"overall"`` row), safety in percent."""
    if not len(aggregates):
        return pd.DataFrame(columns=["relation", "model", "slice", "tests", "violations", "safety_pct"])
    a = aggregates[aggregates["tests"] > 0]
    sliced = set(a.loc[a["slice"] != OVERALL, "relation"])
    keep = a[(a["slice"] != OVERALL) | ~a["relation"].isin(sliced)]
    out = keep[["relation", "model", "slice", "tests", "violations"]].copy()
    out["safety_pct"] = keep["safety"].astype(float) * 100
    return out.reset_index(drop=True)


def safety_chart(aggregates: pd.DataFrame, *, select: str | None = None, width: int = 360) -> Any:
    """Safety (%) per slice and model, one panel per aggregated relation; ``None`` when
    nothing was tested. The bars start at 0% as the VR chart's do (the view's table gives the
    exact values); ``select`` names a point selection over (relation, model, slice)."""
    import altair as alt

    data = chart_frame(aggregates)
    if not len(data):
        return None
    base = alt.Chart(data).encode(
        y=alt.Y("slice:N", title=None, sort=list(dict.fromkeys(data["slice"])), axis=alt.Axis(labelLimit=280)),
        yOffset=alt.YOffset("model:N"),
        color=alt.Color("model:N", title="model"),
    )
    bars = base.mark_bar(cursor="pointer").encode(
        x=alt.X(
            "safety_pct:Q", title="safety (% of tested cases satisfied)", scale=alt.Scale(domain=[0, 100])
        ),
        tooltip=[
            alt.Tooltip("relation:N"),
            alt.Tooltip("model:N"),
            alt.Tooltip("slice:N"),
            alt.Tooltip("tests:Q"),
            alt.Tooltip("violations:Q"),
            alt.Tooltip("safety_pct:Q", format=".1f", title="safety %"),
        ],
    )
    sel = point_selection(select, ["relation", "model", "slice"])
    if sel is not None:
        bars = bars.add_params(sel).encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(FADED)))
    labels = base.mark_text(align="left", dx=3, fontSize=10).encode(
        x="safety_pct:Q", text=alt.Text("safety_pct:Q", format=".1f"), color=alt.value("#1f2328")
    )
    return (
        alt.layer(bars, labels)
        .properties(width=width)
        .facet(row=alt.Row("relation:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")))
        .resolve_scale(y="independent")
        .properties(title="Safety per slice (aggregated relations)")
    )


def clicked_slice(points: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """The (section key, slice) a click on the safety chart names, or ``None``."""
    for p in points:
        if "relation" in p and "model" in p and "slice" in p:
            return f"{p['relation']} · {p['model']}", str(p["slice"])
    return None
