"""Altair charts as pure functions of results frames (they never recompute data)."""

from __future__ import annotations

from typing import Any

import pandas as pd


def vr_chart(summary: pd.DataFrame, *, title: str = "Violation rate per relation and model", width: int = 420) -> Any:
    """VR per relation x model with 95% Wilson intervals (the paper's Figure 3 / Table 6).

    ``summary`` is ``Results.summary()``; rows without applicable groups are left out.
    """
    import altair as alt

    data = summary[summary["groups"] > 0].copy()
    data["vr_pct"] = data["vr"] * 100
    data["low_pct"] = data["vr_low"] * 100
    data["high_pct"] = data["vr_high"] * 100
    order = list(dict.fromkeys(data["relation"]))
    base = alt.Chart(data).encode(
        y=alt.Y("relation:N", sort=order, title=None),
        yOffset=alt.YOffset("model:N"),
        color=alt.Color("model:N", title="model"),
    )
    bars = base.mark_bar().encode(
        x=alt.X("vr_pct:Q", title="violation rate (%)", scale=alt.Scale(domain=[0, 100])),
        tooltip=[
            alt.Tooltip("relation:N"), alt.Tooltip("model:N"), alt.Tooltip("groups:Q"),
            alt.Tooltip("violations:Q"), alt.Tooltip("vr_pct:Q", format=".1f", title="VR %"),
            alt.Tooltip("low_pct:Q", format=".1f", title="95% low"),
            alt.Tooltip("high_pct:Q", format=".1f", title="95% high"),
        ],
    )
    rules = base.mark_rule(color="black").encode(x="low_pct:Q", x2="high_pct:Q")
    return (bars + rules).properties(title=title, width=width)
