"""The Batch panel's end-to-end time against ``mt.run`` alone, side by side in one run.

Both sides evaluate the same relations over the same inputs with the same seed and the
same model objects. The panel side constructs the widget (set-up, charts, table) and runs
it from Python with everything a notebook user gets switched on: chunked evaluation,
progress updates (~10 Hz), running VR, chart updates during the run, the final table. Each
round gives both sides a fresh prediction cache and an empty spaCy parse cache (so neither
inherits the other's work), and the order alternates between rounds. Reported: each
round's times, and ``mt.run time / panel time`` (target >= 0.95) as the median of rounds.

Run: ``python benchmarks/bench_batch_panel.py [--rounds 3] [--models re-patterns,re-minilm]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import pandas as pd

import mtwidgets as mt
from mtwidgets.re import entities


def _fresh() -> mt.PredictionCache:
    entities._DOCS.clear()  # spaCy parses are cached process-wide; each side pays its own
    return mt.PredictionCache()


def time_run(data: pd.DataFrame, models: dict[str, Any], seed: int) -> tuple[float, mt.Results]:
    cache = _fresh()
    t = time.perf_counter()
    results = mt.run(data, "all", models, seed=seed, cache=cache)
    return time.perf_counter() - t, results


def time_panel(
    data: pd.DataFrame, models: dict[str, Any], seed: int, chunk_size: int | None
) -> tuple[float, Any]:
    cache = _fresh()
    t = time.perf_counter()
    panel = mt.BatchPanel(
        data=data, models=models, relations="all", seed=seed, cache=cache, chunk_size=chunk_size
    )
    panel.run()
    elapsed = time.perf_counter() - t
    assert panel.state == "done", panel.controls.messages
    return elapsed, panel


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", default="re-patterns,re-minilm")
    parser.add_argument(
        "--chunk-size", type=int, default=None, help="sources per chunk (default: the panel's)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    data = mt.datasets.re_sample()
    models = {name: mt.models.load(name) for name in args.models.split(",")}
    print(
        f"shipped sample: {len(data)} sources, all {len(mt.catalogue('re'))} RE relations, models {list(models)}"
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
    for k in range(args.rounds):
        if k % 2 == 0:
            run_s, _ = time_run(data, models, args.seed)
            panel_s, _ = time_panel(data, models, args.seed, args.chunk_size)
        else:
            panel_s, _ = time_panel(data, models, args.seed, args.chunk_size)
            run_s, _ = time_run(data, models, args.seed)
        ratios.append(run_s / panel_s)
        run_times.append(run_s)
        panel_times.append(panel_s)
        first = "mt.run" if k % 2 == 0 else "panel"
        print(f"{k + 1:5d} {first:>8s} {run_s:9.2f} {panel_s:8.2f} {run_s / panel_s:6.3f}")
    print(
        f"\nmedian: mt.run {statistics.median(run_times):.2f} s, panel {statistics.median(panel_times):.2f} s, "
        f"ratio mt.run/panel {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}; "
        "target >= 0.95)"
    )


if __name__ == "__main__":
    main()
