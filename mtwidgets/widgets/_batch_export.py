"""The Batch panel's charts (from its running counts) and its exports.

Charts are built from :class:`~mtwidgets.widgets._batch_agg.Tally` summaries (and the
task's own running tally), never from the results frame, so they cost the same for 100
groups and for 100,000. Exports write the results with ``Results.save`` (Parquet, JSONL,
CSV), each chart as HTML (Vega inlined by vl-convert: opens offline) and PNG
(vl-convert), and the report of :mod:`mtwidgets.report` (with the task's report context).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..charts import label_heatmap, slice_chart, vr_chart
from ._batch_aggregates import SAFETY, safety_chart

WHAT: tuple[str, ...] = ("results", "charts", "report")


def charts(panel: Any, *, select: str | None) -> dict[str, Any]:
    """``{"vr", "labels" (when the task keeps it), the task's charts, "slice"}`` charts of
    the panel's counts, then ``"safety"`` (the aggregated relations' safety per slice, from
    ``panel.results.aggregates``); a chart without data is left out (the slice chart also
    when no slice column is chosen)."""
    out = group_charts(panel, select=select)
    if panel._aggregated:
        chart = safety_chart(panel.results.aggregates, select=select)
        if chart is not None:
            out[SAFETY] = chart
    return out


def group_charts(panel: Any, *, select: str | None) -> dict[str, Any]:
    """The charts of the per-group relations (from the running counts)."""
    tally = panel._tally
    if not tally.total:
        return {}
    out: dict[str, Any] = {}
    summary = tally.summary(("relation", "model"), overall=True)
    if (summary["groups"] > 0).any():
        out["vr"] = vr_chart(summary, select=select)
    if "labels" in panel._charts:
        labels = tally.summary(("relation", "model", "source_label"), overall=False)
        if (labels["groups"] > 0).any():
            out["labels"] = label_heatmap(labels, select=select)
    if panel.task_tally is not None:
        out.update(panel._batch.build_charts(panel.task_tally, select=select))
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

        context = report_context(panel, repair=repair)
        extra = {} if context is None else {"context": context}
        paths.append(
            write_report(results, directory / "report.html", title="mtwidgets batch report", **extra)
        )
    return paths


def report_context(panel: Any, *, repair: bool = False) -> Any:
    """What the task's report sections get for the panel's results (e.g. NER: TIN's tables,
    judged against the data's gold); the repair only on request (it runs the models on many
    mutants)."""
    return panel._batch.report_context(
        panel.task_tally,
        panel.results,
        models=lambda: {m: panel._model(m) for m in panel._order[0]},
        cache=panel._cache,
        repair=repair,
    )
