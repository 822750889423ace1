"""Runner benchmarks, measured side by side in one run.

1. Throughput: the runner evaluating every relation on the shipped sample vs calling the
   same model directly, in batches of the same size, on exactly the inputs the runner
   predicts. Reported as runner throughput / direct throughput (target >= 0.9), both for
   the evaluation stage alone (groups built beforehand) and end to end (building groups
   included). Repetitions alternate the two sides; medians are reported.
2. Deduplication: model inputs predicted vs what predicting each group's own inputs
   would cost when several relations share sources.
3. Peak memory of the headless demo (`mtwidgets demo --headless`), summed over the
   process tree (the notebook kernel is a child process), sampled every 50 ms
   (target < 2 GB).

Run: ``python benchmarks/bench_runner.py [--reps 3] [--skip-demo]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.runner import Runner
from mtwidgets.lang import pipelines


class _Recorder:
    """Passes calls through to a model and keeps the inputs it was asked about."""

    def __init__(self, model: object) -> None:
        self.model = model
        self.seen: list = []

    def predict(self, inputs: list) -> list:
        self.seen.extend(inputs)
        return self.model.predict(inputs)  # type: ignore[attr-defined, no-any-return]


def _traced_inputs(relations: list, groups: list[mt.Group], model_name: str, model: object) -> tuple[list, int]:
    """The inputs the runner predicts for this model, and the naive count: every group
    predicting its own sources and (when applicable) follow-ups."""
    recorder = _Recorder(model)
    runner = Runner(relations, {model_name: recorder}, seed=0, cache=PredictionCache())
    frame = runner.check(groups).frame
    naive = sum(len(a) + len(b) for a, b in zip(frame["source_outputs"], frame["followup_outputs"]))
    return recorder.seen, naive


def _cold_parses() -> None:
    """Empty the process-wide spaCy Doc cache so each side pays its own parsing (the
    pattern model parses every text; a warm cache would hide the model's real cost)."""
    pipelines._DOCS.clear()


def bench_throughput(model_name: str, model: object, data: list, reps: int, batch_size: int) -> dict[str, float]:
    runner = Runner("all", {model_name: model}, task="re", seed=0, batch_size=batch_size, cache=PredictionCache())
    runner.prepare(data)
    groups = runner.groups(data)
    inputs, naive = _traced_inputs(runner.relations, groups, model_name, model)

    def direct() -> float:
        _cold_parses()
        t = time.perf_counter()
        for i in range(0, len(inputs), batch_size):
            model.predict(inputs[i : i + batch_size])  # type: ignore[attr-defined]
        return time.perf_counter() - t

    def evaluate_only() -> float:
        r = Runner(runner.relations, {model_name: model}, seed=0, batch_size=batch_size, cache=PredictionCache())
        _cold_parses()
        t = time.perf_counter()
        r._evaluate(model_name, groups, {}, {})
        return time.perf_counter() - t

    def end_to_end() -> float:
        r = Runner("all", {model_name: model}, task="re", seed=0, batch_size=batch_size, cache=PredictionCache())
        _cold_parses()
        t = time.perf_counter()
        r.run(data)
        return time.perf_counter() - t

    direct(), evaluate_only()  # warm-up: lazy loads, spaCy parse cache, allocator
    times: dict[str, list[float]] = {"direct": [], "evaluate": [], "end_to_end": []}
    for _ in range(reps):
        times["direct"].append(direct())
        times["evaluate"].append(evaluate_only())
        times["end_to_end"].append(end_to_end())
    med = {k: statistics.median(v) for k, v in times.items()}
    return {
        "inputs": len(inputs),
        "naive_inputs": naive,
        "groups": len(groups),
        "direct_s": med["direct"],
        "evaluate_s": med["evaluate"],
        "end_to_end_s": med["end_to_end"],
        "ratio_evaluate": med["direct"] / med["evaluate"],
        "ratio_end_to_end": med["direct"] / med["end_to_end"],
    }


def peak_memory_of(cmd: list[str]) -> tuple[float, int]:
    """Peak summed RSS (MB) of a command and its descendants, and its exit code."""
    import psutil

    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        root = psutil.Process(proc.pid)
        while not stop.is_set():
            try:
                procs = [root, *root.children(recursive=True)]
                peak = max(peak, sum(p.memory_info().rss for p in procs if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.05)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    _, err = proc.communicate()
    stop.set()
    thread.join()
    if proc.returncode != 0:
        print(err.decode()[-2000:], file=sys.stderr)
    return peak / 2**20, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--skip-demo", action="store_true")
    parser.add_argument("--models", default="", help="comma-separated embedded models (default: all)")
    args = parser.parse_args()

    data = mt.load_inputs(mt.datasets.re_sample()).inputs
    n_rel = int((mt.catalogue()["task"] == "re").sum())
    print(f"shipped sample: {len(data)} sources, all {n_rel} relation-extraction relations, batch size {args.batch_size}\n")
    print(f"{'model':12s} {'groups':>7s} {'inputs':>7s} {'naive':>7s} {'saved':>6s} {'direct s':>9s} "
          f"{'runner s':>9s} {'ratio':>6s} {'e2e s':>7s} {'e2e ratio':>9s}")
    for name in args.models.split(",") if args.models else mt.models.available("re"):
        model = mt.models.load(name)
        r = bench_throughput(name, model, data, args.reps, args.batch_size)
        saved = 1 - r["inputs"] / r["naive_inputs"]
        print(f"{name:12s} {r['groups']:7d} {r['inputs']:7d} {r['naive_inputs']:7d} {saved:6.1%} "
              f"{r['direct_s']:9.2f} {r['evaluate_s']:9.2f} {r['ratio_evaluate']:6.2f} "
              f"{r['end_to_end_s']:7.2f} {r['ratio_end_to_end']:9.2f}")
    print("\nratio = direct time / runner time on the same inputs (throughput ratio; target >= 0.9)")
    print("saved = share of model inputs deduplication avoids vs predicting every group's own inputs")

    if not args.skip_demo:
        with tempfile.TemporaryDirectory() as tmp:
            cli = str(Path(sys.executable).with_name("mtwidgets"))
            mb, rc = peak_memory_of([cli, "demo", "--headless", "--out", tmp])
            print(f"\nheadless demo: peak memory {mb:.0f} MB over the process tree "
                  f"(target < 2048 MB), exit code {rc}")


if __name__ == "__main__":
    main()
