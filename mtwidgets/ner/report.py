"""NER's sections of the HTML report (TIN): precision of the suspicious issues, error
categories, repair metrics and example issues, from an NER evaluation.

The task's ``report`` part: :func:`sections` ``(results, context) -> [html, ...]`` where the
context is the :class:`~mtwidgets.ner.evaluate.NEREvaluation` of the run (no evaluation, no
sections). Tables only, every user text escaped.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.plugins import esc, frame_table, pct


def precision_pivot(precision: pd.DataFrame) -> str:
    """Table 3 layout: transformations as rows, models as columns, "precision% (k/n)"."""
    models = list(dict.fromkeys(precision["model"]))
    relations = list(dict.fromkeys(precision["relation"]))
    head = "".join(f"<th>{esc(m)}</th>" for m in ["transformation", *models])
    rows = []
    for rel in relations:
        cells = []
        for m in models:
            hit = precision[(precision["relation"] == rel) & (precision["model"] == m)]
            if not len(hit):
                cells.append("<td>—</td>")
                continue
            r = hit.iloc[0]
            prec = "—" if not r["judged"] else f"{pct(r['precision'])}% ({r['erroneous']}/{r['judged']})"
            src = ("—" if not r["source_judged"] else
                   f"{pct(r['source_precision'])}% ({r['source_erroneous']}/{r['source_judged']})")
            cells.append(f"<td class=num>{prec}<br>source: {src}<br><span class=meta>{r['issues']} issues / "
                         f"{r['groups']} groups</span></td>")
        cls = ' class="overall"' if rel == "Overall" else ""
        rows.append(f"<tr{cls}><td>{esc(rel)}</td>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def sections(results: Any, context: Any, *, examples: int = 5) -> list[str]:
    """The TIN sections of the report from the run's NER evaluation (``context``)."""
    ner = context
    if ner is None:
        return []
    parts = [
        "<h2>NER: suspicious issues and their precision (TIN Table 3)</h2>",
        "<p class=meta>An issue is a violated group. First line: the paper's precision, the share of "
        "issues where the source or the follow-up prediction differs from gold around a suspicious "
        "entity, with the follow-up's gold carried from the source through the kept text; under that "
        "assumption (the relation's own) it is 100% by construction, and mutants whose meaning changed "
        "go unseen. Second line: the share of issues whose source sentence (real text, real gold) is "
        "mispredicted at a suspicious entity. Issues gold cannot decide are left out.</p>",
        precision_pivot(ner.precision),
        frame_table(
            ner.precision.drop(columns=["precision_low", "precision_high"], errors="ignore"),
            pct_columns=("precision", "source_precision"),
        ),
        "<h2>NER: error categories of the erroneous issues (distinct errors)</h2>",
        frame_table(ner.categories, pct_columns=("share",)),
        "<h3>What the two sentences disagree about (no gold needed)</h3>",
        frame_table(ner.kinds),
    ]
    if ner.repair is not None:
        parts += [
            "<h2>NER: repair of the suspicious entities (TIN Table 6)</h2>",
            "<p class=meta>One row per distinct suspicious entity and sentence; T/F = prediction around "
            "the entity equal to gold, before → after repair.</p>",
            frame_table(ner.repair, pct_columns=("Err2Cor", "Cor2Err", "ErrorReduce")),
        ]
        for outcome in ner.repairs:
            units = outcome.units
            changed = units[(units["correct_before"] == False) & (units["correct_after"] == True)]  # noqa: E712
            broken = units[(units["correct_before"] == True) & (units["correct_after"] == False)]  # noqa: E712
            cols = ["side", "text", "entity", "before", "after", "relabel", "p_score"]
            if len(changed):
                parts += [f"<h3>Repaired errors (FT) · {esc(outcome.model)}</h3>",
                          frame_table(changed[cols].head(examples))]
            if len(broken):
                parts += [f"<h3>Broken by repair (TF) · {esc(outcome.model)}</h3>",
                          frame_table(broken[cols].head(examples))]
    frame = ner.issue_frame()
    if len(frame):
        parts.append("<h2>NER: example suspicious issues</h2>")
        cols = ["source_text", "followup_text", "suspicious", "erroneous", "categories"]
        for (rel, model), sub in frame.groupby(["relation", "model"], sort=False):
            parts += [f"<h3>{esc(rel)} · {esc(model)}</h3>", frame_table(sub[cols].head(examples))]
    return parts
