"""The Batch panel's end-to-end time against ``mt.run`` alone, side by side in one run.

Both sides evaluate the same relations over the same inputs with the same seed and the
same model objects. The panel side constructs the widget (set-up, charts, table) and runs
it from Python with everything a notebook user gets switched on: chunked evaluation,
progress updates (~10 Hz), running VR, chart updates during the run, the final table. Each
round gives both sides a fresh prediction cache and an empty spaCy parse cache (so neither
inherits the other's work), and the order alternates between rounds. Reported: each
round's times, and ``mt.run time / panel time`` (target >= 0.95) as the median of rounds.

``--task ner`` runs the NER sample (``mt.datasets.ner_sample_frame()``, every TIN relation,
both spaCy pipelines) and also reports what the panel's NER extras cost: locating and
judging the violations' error categories chunk by chunk, and rebuilding the charts
(the category chart among them) during the run.

Run: ``python benchmarks/bench_batch_panel.py [--rounds 3] [--models re-patterns,re-minilm]``
or ``python benchmarks/bench_batch_panel.py --task ner [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import pandas as pd

import mtwidgets as mt
from mtwidgets.re import entities
from mtwidgets.widgets.batch import BatchPanel

TASK = {"task": "re"}
CHARTS = {"seconds": 0.0, "updates": 0}
_update_charts = BatchPanel._update_charts


def _timed_update_charts(self: BatchPanel) -> None:
    """The panel's chart refresh, timed (the category chart is rebuilt with the others)."""
    t = time.perf_counter()
    _update_charts(self)
    CHARTS["seconds"] += time.perf_counter() - t
    CHARTS["updates"] += 1


BatchPanel._update_charts = _timed_update_charts  # type: ignore[method-assign]


def _fresh() -> mt.PredictionCache:
    entities._DOCS.clear()  # spaCy parses are cached process-wide; each side pays its own
    return mt.PredictionCache()


def time_run(data: pd.DataFrame, models: dict[str, Any], seed: int) -> tuple[float, mt.Results]:
    cache = _fresh()
    t = time.perf_counter()
    results = mt.run(data, "all", models, seed=seed, cache=cache, task=TASK["task"])
    return time.perf_counter() - t, results


def time_panel(
    data: pd.DataFrame, models: dict[str, Any], seed: int, chunk_size: int | None
) -> tuple[float, Any]:
    cache = _fresh()
    CHARTS.update(seconds=0.0, updates=0)
    t = time.perf_counter()
    panel = BatchPanel(
        data=data, models=models, relations="all", seed=seed, cache=cache, chunk_size=chunk_size
    )
    panel.run()
    elapsed = time.perf_counter() - t
    assert panel.state == "done", panel.controls.messages
    return elapsed, panel


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", default=None, help="default: both embedded models of the task")
    parser.add_argument("--task", default="re", choices=("re", "ner"))
    parser.add_argument(
        "--chunk-size", type=int, default=None, help="sources per chunk (default: the panel's)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    TASK["task"] = args.task
    data = mt.datasets.ner_sample_frame() if args.task == "ner" else mt.datasets.re_sample()
    names = args.models.split(",") if args.models else mt.models.available(args.task)
    models = {name: mt.models.load(name) for name in names}
    print(
        f"shipped sample: {len(data)} sources, all {len(mt.catalogue(args.task))} {args.task.upper()} relations, "
        f"models {list(models)}"
    )
    # warm-up: lazy imports, lexicons, model weights, Altair's schema, the offline Vega bundle
    _, reference = time_run(data, models, args.seed)
    _, panel = time_panel(data, models, args.seed, args.chunk_size)
    same = panel.results.frame[["relation", "model", "group", "verdict"]].equals(
        reference.frame[["relation", "model", "group", "verdict"]]
    )
    print(f"{len(reference)} groups; panel results identical to mt.run (groups and verdicts): {same}\n")

    print(f"{'round':>5s} {'first':>8s} {'mt.run s':>9s} {'panel s':>8s} {'ratio':>6s}")
    ratios, run_times, panel_times = [], [], []
    extra: list[tuple[float, float, float, float]] = []
    for k in range(args.rounds):
        if k % 2 == 0:
            run_s, _ = time_run(data, models, args.seed)
            panel_s, panel = time_panel(data, models, args.seed, args.chunk_size)
        else:
            panel_s, panel = time_panel(data, models, args.seed, args.chunk_size)
            run_s, _ = time_run(data, models, args.seed)
        ratios.append(run_s / panel_s)
        if args.task == "ner":
            extra.append((panel.task_tally.seconds, CHARTS["seconds"], CHARTS["updates"], panel_s))
        run_times.append(run_s)
        panel_times.append(panel_s)
        first = "mt.run" if k % 2 == 0 else "panel"
        print(f"{k + 1:5d} {first:>8s} {run_s:9.2f} {panel_s:8.2f} {run_s / panel_s:6.3f}")
    print(
        f"\nmedian: mt.run {statistics.median(run_times):.2f} s, panel {statistics.median(panel_times):.2f} s, "
        f"ratio mt.run/panel {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}; "
        "target >= 0.95)"
    )
    for cat_s, chart_s, updates, total_s in extra:
        print(
            f"NER extras: error categories {cat_s:.3f} s ({100 * cat_s / total_s:.1f}% of the panel's time), "
            f"{updates:.0f} chart refreshes {chart_s:.2f} s ({100 * chart_s / total_s:.1f}%)"
        )
    if extra:
        table = panel.task_tally.table()
        print(table[table["relation"] == "All relations"].to_string(index=False))


if __name__ == "__main__":
    main()
