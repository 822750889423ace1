"""Per-topic violation rates (the paper's Tables 9-11): the results summary with the
sources' topic as one more grouping column, and the HTML report's per-topic section (the
text tasks' ``report`` part, :func:`sections`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def with_topic(results: Any) -> Any:
    """The results frame with a ``topic`` column read from each group's first source
    (``None`` where the source has no topic)."""
    frame = results.frame.copy()
    frame["topic"] = [(srcs[0].get("topic") if srcs and isinstance(srcs[0], dict) else None)
                      for srcs in frame["sources"]]
    return frame


def summary_by_topic(results: Any, by: Sequence[str] = ("relation", "model", "topic")) -> Any:
    """``results.summary`` per relation, model and topic (``None`` when no source has a topic).

    Groups whose source has no topic are counted under ``"(none)"``."""
    from ..core.results import Results

    frame = with_topic(results)
    if not len(frame) or frame["topic"].isna().all():
        return None
    frame["topic"] = frame["topic"].fillna("(none)")
    return Results(frame).summary(by=list(by), overall=False)


def topic_pivot(table: Any) -> str:
    """VR per topic (rows) x relation (columns) for one model's slice of
    :func:`summary_by_topic`: ``"VR% (violations/groups)"``, ``—`` without applicable groups."""
    from ..core.plugins import esc, pct

    relations = list(dict.fromkeys(table["relation"]))
    topics = list(dict.fromkeys(table["topic"]))
    head = "".join(f"<th>{esc(c)}</th>" for c in ["topic", *relations])
    rows = []
    for topic in topics:
        cells = []
        for rel in relations:
            hit = table[(table["relation"] == rel) & (table["topic"] == topic)]
            groups = int(hit["groups"].iloc[0]) if len(hit) else 0
            cells.append(
                f"<td class=num>{pct(hit['vr'].iloc[0])}% ({int(hit['violations'].iloc[0])}/{groups})</td>"
                if groups else "<td>—</td>"
            )
        rows.append(f"<tr><td>{esc(topic)}</td>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def sections(results: Any, context: Any) -> list[str]:
    """The report's per-topic section (the paper's Tables 9-11): one VR table of topic x
    relation per model; nothing when no source has a topic. Every user text is escaped."""
    from ..core.plugins import esc

    table = summary_by_topic(results)
    if table is None or not len(table):
        return []
    out = ["<h2>Violation rates (%) per topic</h2>",
           "<p class=meta>Each cell: VR % (violations / applicable groups) of the sources of that topic.</p>"]
    for model, sub in table.groupby("model", sort=False):
        out.append(f"<h3>{esc(model)}</h3>")
        out.append(topic_pivot(sub))
    return out
