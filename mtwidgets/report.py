"""A standalone HTML report of a run: the VR table, the chart, and example violations.

The chart is embedded as SVG rendered offline by vl-convert (no CDN, no JavaScript), so
the file opens anywhere. All user text is HTML-escaped.
"""

from __future__ import annotations

import html
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1100px;color:#1f2328;padding:0 1rem}
h1{font-size:1.6rem} h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0} th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa} td.num{text-align:right;font-variant-numeric:tabular-nums} tr.overall td{font-weight:600;background:#f6f8fa}
.meta{color:#57606a;font-size:.85rem} .verdict-violation{color:#cf222e;font-weight:600} code{font-size:.8rem}
"""


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


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


def chart_svg(chart: Any) -> str:
    try:
        import vl_convert as vlc
    except ImportError:
        return "<p class=meta>Install <code>mtwidgets[report]</code> (vl-convert) to embed the chart.</p>"
    return str(vlc.vegalite_to_svg(chart.to_dict()))


def write_report(
    results: Any, path: str | Path, *, title: str = "mtwidgets report", examples: int = 5, ner: Any = None
) -> Path:
    """Write the report; ``ner`` (an :class:`~mtwidgets.ner.evaluate.NEREvaluation`) adds
    the TIN tables: precision of suspicious issues, error categories and repair metrics."""
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
    ]
    if ner is not None:
        parts.extend(ner_sections(ner, examples=examples))
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


# -- NER (TIN) sections ----------------------------------------------------------------------
def _pct(value: Any) -> str:
    return "—" if value is None or pd.isna(value) else f"{100 * float(value):.1f}"


def _frame_table(frame: pd.DataFrame, pct: tuple[str, ...] = ()) -> str:
    head = "".join(f"<th>{_esc(c)}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for col, v in zip(frame.columns, row):
            if col in pct:
                cells.append(f"<td class=num>{_pct(v)}</td>")
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                cells.append(f"<td class=num>{_esc(v)}</td>")
            else:
                cells.append(f"<td>{_esc(v)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def precision_pivot(precision: pd.DataFrame) -> str:
    """Table 3 layout: transformations as rows, models as columns, "precision% (k/n)"."""
    models = list(dict.fromkeys(precision["model"]))
    relations = list(dict.fromkeys(precision["relation"]))
    head = "".join(f"<th>{_esc(m)}</th>" for m in ["transformation", *models])
    rows = []
    for rel in relations:
        cells = []
        for m in models:
            hit = precision[(precision["relation"] == rel) & (precision["model"] == m)]
            if not len(hit):
                cells.append("<td>—</td>")
                continue
            r = hit.iloc[0]
            prec = "—" if not r["judged"] else f"{_pct(r['precision'])}% ({r['erroneous']}/{r['judged']})"
            src = ("—" if not r["source_judged"] else
                   f"{_pct(r['source_precision'])}% ({r['source_erroneous']}/{r['source_judged']})")
            cells.append(f"<td class=num>{prec}<br>source: {src}<br><span class=meta>{r['issues']} issues / "
                         f"{r['groups']} groups</span></td>")
        cls = ' class="overall"' if rel == "Overall" else ""
        rows.append(f"<tr{cls}><td>{_esc(rel)}</td>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def ner_sections(ner: Any, *, examples: int = 5) -> list[str]:
    """The TIN sections of the report, from an NER evaluation (tables only, escaped)."""
    parts = [
        "<h2>NER: suspicious issues and their precision (TIN Table 3)</h2>",
        "<p class=meta>An issue is a violated group. First line: the paper's precision, the share of "
        "issues where the source or the follow-up prediction differs from gold around a suspicious "
        "entity, with the follow-up's gold carried from the source through the kept text; under that "
        "assumption (the relation's own) it is 100% by construction, and mutants whose meaning changed "
        "go unseen. Second line: the share of issues whose source sentence (real text, real gold) is "
        "mispredicted at a suspicious entity. Issues gold cannot decide are left out.</p>",
        precision_pivot(ner.precision),
        _frame_table(
            ner.precision.drop(columns=["precision_low", "precision_high"], errors="ignore"),
            pct=("precision", "source_precision"),
        ),
        "<h2>NER: error categories of the erroneous issues (distinct errors)</h2>",
        _frame_table(ner.categories, pct=("share",)),
        "<h3>What the two sentences disagree about (no gold needed)</h3>",
        _frame_table(ner.kinds),
    ]
    if ner.repair is not None:
        parts += [
            "<h2>NER: repair of the suspicious entities (TIN Table 6)</h2>",
            "<p class=meta>One row per distinct suspicious entity and sentence; T/F = prediction around "
            "the entity equal to gold, before → after repair.</p>",
            _frame_table(ner.repair, pct=("Err2Cor", "Cor2Err", "ErrorReduce")),
        ]
        for outcome in ner.repairs:
            units = outcome.units
            changed = units[(units["correct_before"] == False) & (units["correct_after"] == True)]  # noqa: E712
            broken = units[(units["correct_before"] == True) & (units["correct_after"] == False)]  # noqa: E712
            cols = ["side", "text", "entity", "before", "after", "relabel", "p_score"]
            if len(changed):
                parts += [f"<h3>Repaired errors (FT) · {_esc(outcome.model)}</h3>",
                          _frame_table(changed[cols].head(examples))]
            if len(broken):
                parts += [f"<h3>Broken by repair (TF) · {_esc(outcome.model)}</h3>",
                          _frame_table(broken[cols].head(examples))]
    frame = ner.issue_frame()
    if len(frame):
        parts.append("<h2>NER: example suspicious issues</h2>")
        cols = ["source_text", "followup_text", "suspicious", "erroneous", "categories"]
        for (rel, model), sub in frame.groupby(["relation", "model"], sort=False):
            parts += [f"<h3>{_esc(rel)} · {_esc(model)}</h3>", _frame_table(sub[cols].head(examples))]
    return parts
