"""The Batch panel's charts (from its running counts) and its exports.

Charts are built from :class:`~mtwidgets.widgets._batch_agg.Tally` summaries, never from
the results frame, so they cost the same for 100 groups and for 100,000. Exports write
the results with ``Results.save`` (Parquet, JSONL, CSV), each chart as HTML (Vega inlined
by vl-convert: opens offline) and PNG (vl-convert), and the report of
:mod:`mtwidgets.report`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..charts import category_chart, label_heatmap, slice_chart, vr_chart

WHAT: tuple[str, ...] = ("results", "charts", "report")


def charts(panel: Any, *, select: str | None) -> dict[str, Any]:
    """``{"vr", "labels" or "categories" (NER), "slice"}`` charts of the panel's counts; a
    chart without data is left out (the slice chart also when no slice column is chosen)."""
    tally = panel._tally
    if not tally.total:
        return {}
    out: dict[str, Any] = {}
    summary = tally.summary(("relation", "model"), overall=True)
    if (summary["groups"] > 0).any():
        out["vr"] = vr_chart(summary, select=select)
    categories = panel._categories
    if categories is not None:
        table = categories.table()
        if (table["count"] > 0).any():
            out["categories"] = category_chart(
                table, categories=categories.categories, judged=categories.judged, select=select
            )
    elif "labels" in panel._charts:
        labels = tally.summary(("relation", "model", "source_label"), overall=False)
        if (labels["groups"] > 0).any():
            out["labels"] = label_heatmap(labels, select=select)
    column = panel.controls.slice_column
    if column:
        slices = tally.slice_summary()
        if (slices["groups"] > 0).any():
            out["slice"] = slice_chart(slices, column, select=select)
    return out


def export_all(panel: Any, directory: Path, what: Sequence[str], *, repair: bool = False) -> list[Path]:
    unknown = [w for w in what if w not in WHAT]
    if unknown:
        raise ValueError(f"cannot export {unknown}; choose among {list(WHAT)}")
    results = panel.results
    if not len(results):
        raise ValueError("nothing to export yet: run the panel first")
    directory.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    if "results" in what:
        paths += [results.save(directory / f"results.{ext}") for ext in ("parquet", "jsonl", "csv")]
    if "charts" in what:
        for name, chart in charts(panel, select=None).items():
            for ext in ("html", "png"):
                path = directory / f"chart_{name}.{ext}"
                if ext == "html":
                    chart.save(str(path), inline=True)
                else:
                    chart.save(str(path), scale_factor=2)
                paths.append(path)
    if "report" in what:
        from ..report import write_report

        ner = ner_evaluation(panel, repair=repair) if panel.task == "ner" else None
        paths.append(
            write_report(results, directory / "report.html", title="mtwidgets batch report", ner=ner)
        )
    return paths


def ner_evaluation(panel: Any, *, repair: bool = False) -> Any:
    """TIN's tables for the panel's NER results, judged against the data's gold (when it has
    any); the repair only on request (it runs the models on many mutants)."""
    from ..ner.evaluate import evaluate

    models = {m: panel._model(m) for m in panel._order[0]} if repair else None
    return evaluate(panel.results, models, gold=panel._gold, cache=panel._cache)
