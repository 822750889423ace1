"""A standalone HTML report of a run: the VR table, the chart, and example violations.

The chart is embedded as SVG rendered offline by vl-convert (no CDN, no JavaScript), so
the file opens anywhere. All user text is HTML-escaped.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from .core.plugins import chart_svg, esc

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1100px;color:#1f2328;padding:0 1rem}
h1{font-size:1.6rem} h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0} th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa} td.num{text-align:right;font-variant-numeric:tabular-nums} tr.overall td{font-weight:600;background:#f6f8fa}
.meta{color:#57606a;font-size:.85rem} .verdict-violation{color:#cf222e;font-weight:600} code{font-size:.8rem}
.diagrams{display:flex;flex-wrap:wrap;gap:1rem} .diagrams figure{margin:0;border:1px solid #d0d7de;border-radius:6px;padding:.25rem}
"""


_esc = esc


def summary_table(summary: pd.DataFrame) -> str:
    """The VR table (percentages like the paper's Table 6) as escaped HTML."""
    head = "".join(f"<th>{h}</th>" for h in (
        "relation", "model", "groups", "violations", "not applicable", "errors", "VR %", "95% interval"))
    rows = []
    for r in summary.itertuples(index=False):
        vr = "—" if r.groups == 0 else f"{100 * r.vr:.1f}"
        ci = "—" if r.groups == 0 else f"{100 * r.vr_low:.1f} – {100 * r.vr_high:.1f}"
        cls = ' class="overall"' if r.relation == "Overall" else ""
        rows.append(
            f"<tr{cls}><td>{_esc(r.relation)}</td><td>{_esc(r.model)}</td><td class=num>{r.groups}</td>"
            f"<td class=num>{r.violations}</td><td class=num>{r.not_applicable}</td><td class=num>{r.errors}</td>"
            f"<td class=num>{vr}</td><td class=num>{ci}</td></tr>"
        )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def pivot_table(summary: pd.DataFrame) -> str:
    """Relations as rows, models as columns, VR % in cells: the paper's Table 6 layout."""
    data = summary.assign(vr_pct=(summary["vr"] * 100).round(1))
    pivot = data.pivot(index="relation", columns="model", values="vr_pct")
    pivot = pivot.reindex(list(dict.fromkeys(data["relation"])))
    pivot["Average"] = pivot.mean(axis=1).round(1)
    head = "".join(f"<th>{_esc(c)}</th>" for c in ["relation", *pivot.columns])
    body = "".join(
        "<tr>" + f"<td>{_esc(idx)}</td>" + "".join(
            f"<td class=num>{'—' if pd.isna(v) else f'{v:.1f}'}</td>" for v in row) + "</tr>"
        for idx, row in pivot.iterrows()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"




def relation_diagrams(results: Any) -> str:
    """Each relation of the run drawn in the systematicity paper's notation (inline SVG with
    its texts escaped, no script); relations the catalogue does not know are left out."""
    from .core.diagram import diagram
    from .core.errors import MTError
    from .core.registry import relation

    names: list[str] = []
    for frame in (results.frame, getattr(results, "aggregates", None)):
        if isinstance(frame, pd.DataFrame) and len(frame) and "relation" in frame:
            names.extend(map(str, frame["relation"]))
    figures = []
    for name in dict.fromkeys(names):
        try:
            figures.append(f"<figure>{diagram(relation(name)).svg}</figure>")
        except (MTError, KeyError):  # a relation passed as an object, or built with options only
            continue
    if not figures:
        return ""
    return f"<h2>Relations</h2><div class=diagrams>{''.join(figures)}</div>"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def _output(label: str | None, score: float | None) -> str:
    """A source's model output as the worst-sources table shows it: label and score."""
    return " ".join(x for x in (label or "", "" if score is None else f"{score:.3f}") if x)


def _slices_table(slices: list[dict[str, Any]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in (
        "slice", "tests", "satisfied", "violations", "not applicable", "errors", "safety %"))
    rows = "".join(
        f"<tr{' class=overall' if s['slice'] == 'overall' else ''}><td>{_esc(s['slice'])}</td><td class=num>{s['tests']}</td>"
        f"<td class=num>{s['satisfied']}</td><td class=num>{s['violations']}</td>"
        f"<td class=num>{s['not_applicable']}</td><td class=num>{s['errors']}</td><td class=num>{_pct(s['safety'])}</td></tr>"
        for s in slices
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _worst_table(worst: list[dict[str, Any]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("#", "source", "output", "violations", "tested", "safety %"))
    rows = "".join(
        f"<tr><td class=num>{w['rank'] + 1}</td><td>{_esc(w['text'])}</td><td>{_esc(_output(w['label'], w['score']))}</td>"
        f"<td class=num>{w['violations']}</td><td class=num>{w['tests']}</td><td class=num>{_pct(w['safety'])}</td></tr>"
        for w in worst
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _examples_list(examples: list[dict[str, Any]]) -> str:
    items = []
    for e in examples:
        sides = "".join(
            f"<br><b>{_esc(s['name'])}</b> <code>{_esc(s['text'])}</code>"
            + ("" if s["followup"] is None else f" → <code>{_esc(s['followup'])}</code>")
            for s in e["sides"]
        )
        notes = "".join(f" · {_esc(k)}: {_esc(v)}" for k, v in e["notes"])
        verdict = f"<span class=verdict-{_esc(e['verdict'])}>{_esc(e['verdict'])}</span>"
        items.append(f"<li>{verdict}{notes}{sides}<br>{_esc(e['reason'])}</li>")
    return f"<ul>{''.join(items)}</ul>" if items else ""


def aggregate_sections(results: Any) -> str:
    """The aggregated relations (pairwise systematicity, three-way transitivity): per
    relation and model their counts and safety per slice (the paper's Table 1), the worst
    sources over every slice (Table 2) and a few example cases; "" when the run has none.
    The numbers are the Batch panel's (both read :func:`mtwidgets.core.batch_view.aggregate_sections`)."""
    from .core.batch_view import aggregate_sections as sections_of

    aggregates = getattr(results, "aggregates", None)
    sections = sections_of(aggregates) if isinstance(aggregates, pd.DataFrame) else []
    if not sections:
        return ""
    parts = [
        "<h2>Aggregated relations</h2>",
        "<p class=meta>Counted over test cases (e.g. every ordered pair of sources), not groups: tests = satisfied "
        "+ violations; safety = satisfied / tests. Their VR in the tables above is 1 − safety; they are never pooled "
        "into the Overall rows.</p>",
    ]
    for section in sections:
        overall = next((s for s in section["slices"] if s["slice"] == "overall"), section["slices"][0])
        shown = overall if overall["worst"] else next((s for s in section["slices"] if s["worst"]), overall)
        notes = " · ".join(f"{_esc(k)}: {_esc(v)}" for k, v in shown["notes"])
        parts.append(f"<h3>{_esc(section['relation'])} · {_esc(section['model'])}</h3>")
        if notes:
            parts.append(f"<p class=meta>{notes}</p>")
        parts.append(_slices_table(section["slices"]))
        if shown["worst"]:
            parts.append(f"<h4>Worst sources ({_esc(shown['slice'])})</h4>{_worst_table(shown['worst'])}")
        if shown["examples"]:
            parts.append(f"<h4>Example cases ({_esc(shown['slice'])})</h4>{_examples_list(shown['examples'])}")
    return "".join(parts)


def task_sections(results: Any, context: Any) -> list[str]:
    """The sections the results' task adds (its ``report`` part, given the run's context)."""
    from .core.task import get_task, task_names

    frame = results.frame
    names = list(dict.fromkeys(map(str, frame["task"]))) if len(frame) and "task" in frame else []
    out: list[str] = []
    for name in names:
        if name not in task_names():
            continue
        part = get_task(name).part("report")
        if part is not None:
            out.extend(part(results, context))
    return out


def write_report(
    results: Any,
    path: str | Path,
    *,
    title: str = "mtwidgets report",
    examples: int = 5,
    sections: list[str] | None = None,
    context: Any = None,
) -> Path:
    """Write the report.

    ``context`` is what the task's CLI/Batch part computed after the run (for NER the
    :class:`~mtwidgets.ner.evaluate.NEREvaluation`): the results' task's ``report`` part
    turns it into sections (NER: precision of suspicious issues, error categories, repair).
    ``sections`` are further HTML sections, added after the task's.
    """
    from .charts import vr_chart

    summary = results.summary()
    frame = results.frame
    models = ", ".join(map(str, dict.fromkeys(frame["model"]))) if len(frame) else "—"
    parts = [
        f"<!doctype html><html><head><meta charset=utf-8><title>{_esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_esc(title)}</h1>",
        f"<p class=meta>{len(frame)} groups · models: {_esc(models)} · "
        f"generated {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} · "
        "VR = violations / (passes + violations); not-applicable groups are not counted.</p>",
        "<h2>Violation rates (%) — relations × models</h2>", pivot_table(summary),
        "<h2>Chart</h2>", chart_svg(vr_chart(summary)) if len(frame) else "<p>No groups.</p>",
        "<h2>Details</h2>", summary_table(summary),
        relation_diagrams(results),
        aggregate_sections(results),
    ]
    parts.extend(task_sections(results, context))
    parts.extend(sections or ())
    if results.errors:
        items = "".join(f"<li>{_esc(e)}</li>" for e in results.errors[:20])
        parts.append(f"<h2>Model errors ({len(results.errors)})</h2><ul>{items}</ul>")
    if results.skipped:
        items = "".join(f"<li>row {_esc(r)}: {_esc(w)}</li>" for r, w in results.skipped[:20])
        parts.append(f"<h2>Skipped data rows ({len(results.skipped)})</h2><ul>{items}</ul>")
    viol = results.violations()
    if len(viol):
        parts.append("<h2>Example violations</h2>")
        for (rel, model), sub in viol.groupby(["relation", "model"], sort=False):
            rows = "".join(
                f"<tr><td><code>{_esc(r.source_text)}</code></td><td><code>{_esc(r.followup_text)}</code></td>"
                f"<td>{_esc(r.source_label)}</td><td>{_esc(r.followup_label)}</td><td>{_esc(r.reason)}</td></tr>"
                for r in sub.head(examples).itertuples()
            )
            parts.append(
                f"<h3>{_esc(rel)} · {_esc(model)}</h3><table><thead><tr><th>source</th><th>follow-up</th>"
                f"<th>source output</th><th>follow-up output</th><th>reason</th></tr></thead><tbody>{rows}</tbody></table>"
            )
    parts.append("</body></html>")
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("\n".join(parts), encoding="utf-8")
    return p
