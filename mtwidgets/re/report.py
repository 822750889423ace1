"""The relation-extraction task's report part: ENTRE's section (Table 2, Figure 7, the
rounds to failure and the entity diversity) when the run has ENTRE rows."""

from __future__ import annotations

from typing import Any

from . import entre


def sections(results: Any, context: Any) -> list[str]:
    """ENTRE's section of the report; nothing when the run has no ENTRE rows. Every user
    text is escaped (tables through :func:`~mtwidgets.core.plugins.frame_table`)."""
    from ..core.plugins import chart_svg, frame_table

    frame = results.frame
    if not len(frame) or not frame["relation"].isin(entre.NAMES).any():
        return []
    tables = context if isinstance(context, dict) and "f1" in context else entre.summary(results)
    parts = [
        "<h2>ENTRE: entity replacement</h2>",
        "<p class=meta>PERSON and ORGANIZATION names replaced by random names of the same type, round after round "
        "while the model stays right (Wang et al. 2023). F1 is micro-F1 without no_relation over the instances "
        "ENTRE could replace; the drop is relative.</p>",
        "<h3>F1 before and after (Table 2)</h3>", frame_table(tables["f1"]),
    ]
    if len(tables["fragility"]):
        parts += ["<h3>Rounds to failure</h3>", frame_table(tables["fragility"])]
    if len(tables["diversity"]):
        parts += ["<h3>Entity diversity (Q3)</h3>", frame_table(tables["diversity"])]
    if len(tables["shortcuts"]):
        parts += ["<h3>Shortcuts from the entity names (Figure 7)</h3>",
                  chart_svg(entre.shortcut_chart(tables["shortcuts"])), frame_table(tables["shortcuts"])]
    return parts
