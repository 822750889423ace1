"""Altair charts as pure functions of summary frames (they never recompute data).

Every chart takes an already aggregated frame (``Results.summary()`` or the same shape
grouped by other columns), so a run of 100,000 groups still hands Vega-Lite a few hundred
rows. ``select=<name>`` adds a point selection of that name on the marks a user clicks;
wrapped in ``alt.JupyterChart`` the selection comes back to Python, which is how the
Batch panel filters its table to the clicked violations. A task's own charts (e.g. NER's
error categories) live in its package's ``batch_view`` module.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .core.batch_view import FADED, point_selection

# Highlight of a selected mark: the rest fade (but stay readable) while a selection exists.
_FADED = FADED


def _with_pct(summary: pd.DataFrame) -> pd.DataFrame:
    data = summary[summary["groups"] > 0].copy()
    data["vr_pct"] = data["vr"] * 100
    data["low_pct"] = data["vr_low"] * 100
    data["high_pct"] = data["vr_high"] * 100
    return data


def _tooltip(*first: Any) -> list[Any]:
    import altair as alt

    return [
        *first,
        alt.Tooltip("groups:Q"),
        alt.Tooltip("violations:Q"),
        alt.Tooltip("vr_pct:Q", format=".1f", title="VR %"),
        alt.Tooltip("low_pct:Q", format=".1f", title="95% low"),
        alt.Tooltip("high_pct:Q", format=".1f", title="95% high"),
    ]


def _selection(select: str | None, fields: list[str]) -> Any:
    return point_selection(select, fields)


def vr_chart(
    summary: pd.DataFrame,
    *,
    title: str = "Violation rate per relation and model",
    width: int = 420,
    select: str | None = None,
) -> Any:
    """VR per relation x model with 95% Wilson intervals (the paper's Figure 3 / Table 6).

    ``summary`` is ``Results.summary()``; rows without applicable groups are left out.
    ``select`` names a point selection over (relation, model): clicking a bar selects it.
    """
    import altair as alt

    data = _with_pct(summary)
    order = list(dict.fromkeys(data["relation"]))
    base = alt.Chart(data).encode(
        y=alt.Y("relation:N", sort=order, title=None),
        yOffset=alt.YOffset("model:N"),
        color=alt.Color("model:N", title="model"),
    )
    bars = base.mark_bar(cursor="pointer").encode(
        x=alt.X("vr_pct:Q", title="violation rate (%)", scale=alt.Scale(domain=[0, 100])),
        tooltip=_tooltip(alt.Tooltip("relation:N"), alt.Tooltip("model:N")),
    )
    sel = _selection(select, ["relation", "model"])
    if sel is not None:
        bars = bars.add_params(sel).encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(_FADED)))
    # the interval in black over the bar (the base's model colour would hide it inside the bar)
    rules = base.mark_rule().encode(x="low_pct:Q", x2="high_pct:Q", color=alt.value("black"))
    return (bars + rules).properties(title=title, width=width)


def label_heatmap(
    summary: pd.DataFrame,
    *,
    title: str = "Violation rate per source label",
    select: str | None = None,
    cell: int = 22,
) -> Any:
    """VR per relation x source label, one panel per model.

    ``summary`` has the columns of ``Results.summary(by=("relation", "model",
    "source_label"), overall=False)``; cells without applicable groups are left out (a
    blank cell means "no evidence", which a 0% colour would misstate).
    """
    data = summary.copy()
    data["source_label"] = data["source_label"].fillna("—").astype(str)
    return vr_heatmap(data, "source_label", "source output", title=title, select=select, cell=cell)


def vr_heatmap(
    summary: pd.DataFrame,
    row: str,
    row_title: str,
    *,
    title: str,
    select: str | None = None,
    cell: int = 22,
) -> Any:
    """VR per relation (columns) x the values of ``row`` (rows: a source label, a topic ...),
    one panel per model; cells without applicable groups are left out. Clicking a cell
    selects (relation, model, row) under the name ``select``."""
    import altair as alt

    data = _with_pct(summary)
    relations = list(dict.fromkeys(data["relation"]))
    chart = (
        alt.Chart(data)
        .mark_rect(stroke="white", cursor="pointer")
        .encode(
            x=alt.X("relation:N", sort=relations, title=None),
            y=alt.Y(f"{row}:N", title=row_title),
            color=alt.Color("vr_pct:Q", title="VR %", scale=alt.Scale(scheme="orangered", domain=[0, 100])),
            column=alt.Column("model:N", title=None),
            tooltip=_tooltip(alt.Tooltip("relation:N"), alt.Tooltip("model:N"), alt.Tooltip(f"{row}:N")),
        )
    )
    sel = _selection(select, ["relation", "model", row])
    if sel is not None:
        chart = chart.add_params(sel).encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(_FADED)))
    return chart.properties(title=title, width=alt.Step(cell), height=alt.Step(cell))


def slice_chart(
    summary: pd.DataFrame,
    slice_name: str,
    *,
    title: str | None = None,
    width: int = 360,
    select: str | None = None,
) -> Any:
    """VR per value of a slice column x model, with 95% intervals.

    ``summary`` holds a ``slice`` column (the value of the user's column for each group's
    source row) plus the summary counts; ``slice_name`` is the user's column name, shown
    as the axis title.
    """
    import altair as alt

    data = _with_pct(summary)
    data["slice"] = data["slice"].astype(str)
    base = alt.Chart(data).encode(
        y=alt.Y("slice:N", title=slice_name, sort="-x"),
        yOffset=alt.YOffset("model:N"),
        color=alt.Color("model:N", title="model"),
    )
    bars = base.mark_bar(cursor="pointer").encode(
        x=alt.X("vr_pct:Q", title="violation rate (%)", scale=alt.Scale(domain=[0, 100])),
        tooltip=_tooltip(alt.Tooltip("slice:N", title=slice_name), alt.Tooltip("model:N")),
    )
    sel = _selection(select, ["slice", "model"])
    if sel is not None:
        bars = bars.add_params(sel).encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(_FADED)))
    # the interval in black over the bar (the base's model colour would hide it inside the bar)
    rules = base.mark_rule().encode(x="low_pct:Q", x2="high_pct:Q", color=alt.value("black"))
    return (bars + rules).properties(title=title or f"Violation rate per {slice_name}", width=width)
