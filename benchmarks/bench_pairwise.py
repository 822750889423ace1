"""Pairwise systematicity: counting all k(k - 1) ordered pairs of k = 100,000 sources.

Model calls are excluded: the scores are synthetic (rounded to 3 decimals, like VADER's, so
ties are common; the follow-up score is the source score plus noise, so most pairs keep
their order and some do not). Measured, each the median of ``--reps`` runs, wall clock and
CPU time of the process (the same on a quiet machine; CPU time stays honest on a busy
one), with its peak memory (tracemalloc, which sees NumPy's buffers):

1. ``pairwise_counts`` + verdicts + per-source counts for one transformation (the
   target: < 1 s at k = 100,000);
2. the same for Table 1's six transformations, per-source counts pooled (Table 2);
3. the relation's whole aggregator (``PairwiseCounter``: collecting the evaluated groups,
   counting, the worst and best sources, example pairs) over k evaluated groups of one
   transformation, built beforehand;
4. brute force (the k x k comparison matrices) beside the fast count on smaller k, with
   their agreement checked.

Run: ``python benchmarks/bench_pairwise.py [--k 100000] [--reps 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

import mtwidgets as mt
from mtwidgets.core.aggregate import Evaluated
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Group
from mtwidgets.systematicity import brute_force, pairwise_counts
from mtwidgets.text.inputs import ClassificationInput


def scores(k: int, seed: int) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    s = np.round(rng.beta(2, 5, k), 3)
    f = np.clip(np.round(s + rng.normal(0, 0.05, k), 3), 0, 1)
    return s, f


def measure(fn: Callable[[], Any], reps: int) -> tuple[float, float, float, Any]:
    """Median wall seconds, median CPU seconds, peak MiB (of one traced run) and the last result."""
    wall, cpu = [], []
    out = None
    for _ in range(reps):
        started, started_cpu = time.perf_counter(), time.process_time()
        out = fn()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return statistics.median(wall), statistics.median(cpu), peak / 2**20, out


def ms(wall: float, cpu: float) -> str:
    return f"{wall * 1000:8.1f} ms wall ({cpu * 1000:7.1f} ms CPU)"


def count_one(s: Any, f: Any) -> tuple[tuple[int, int, int], Any]:
    counts = pairwise_counts(s, f)
    return counts.totals(), counts.per_source()


def count_six(k: int, seed: int) -> tuple[int, Any]:
    pooled = np.zeros(k, dtype=np.int64)
    violations = 0
    for t in range(6):
        s, f = scores(k, seed + t)
        totals, per = count_one(s, f)
        violations += totals[1]
        pooled += per[1]
    return violations, pooled


def evaluated(k: int, seed: int) -> list[Evaluated]:
    """k evaluated groups of one transformation, as the runner hands them to the aggregator."""
    s, f = scores(k, seed)
    out = []
    for i in range(k):
        x = ClassificationInput(f"Review number {i} of the film.")
        x.key()  # the runner has keyed every input (deduplication, cache) before aggregating
        g = Group("pairwise-systematicity", 0, (x,), (x.with_text(f"Thank you. Review number {i} of the film."),),
                  "", 0, i, {"transformation": "start: Thank you.", "sentence": "Thank you.", "position": "start"})
        out.append(Evaluated(g, (Prediction.from_scores({"positive": s[i], "negative": 1 - s[i]}),),
                             (Prediction.from_scores({"positive": f[i], "negative": 1 - f[i]}),), "ok"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    k = args.k
    s, f = scores(k, args.seed)
    pairwise_counts(s[:1000], f[:1000])  # warm-up (imports, first NumPy calls)

    wall, cpu, peak, (totals, _) = measure(lambda: count_one(s, f), args.reps)
    sat, viol, _ = totals
    print(f"k = {k:,} sources: {k * (k - 1):,} ordered pairs per transformation")
    print(f"1. one transformation:   {ms(wall, cpu)}  peak {peak:6.1f} MiB  "
          f"(satisfied {sat:,}, violations {viol:,}; target < 1000 ms: {'met' if wall < 1 else 'MISSED'})")
    wall6, cpu6, peak6, (viol6, _) = measure(lambda: count_six(k, args.seed), max(1, args.reps // 2))
    print(f"2. six transformations:  {ms(wall6, cpu6)}  peak {peak6:6.1f} MiB  (violations {viol6:,}; "
          "includes making the synthetic scores)")
    groups = evaluated(k, args.seed)
    relation = mt.relation("pairwise-systematicity", sentences=[("Thank you.", "start")])
    assert relation.aggregate is not None
    aggregate = relation.aggregate
    wall_a, cpu_a, peak_a, rows = measure(lambda: aggregate(relation, "synthetic", groups), max(1, args.reps // 2))
    assert rows[0]["violations"] == viol
    print(f"3. whole aggregator:     {ms(wall_a, cpu_a)}  peak {peak_a:6.1f} MiB  "
          f"(k evaluated groups in, {len(rows)} rows out)")

    print("\n4. brute force (k x k matrices) vs fast, same answers:")
    print(f"{'k':>7} {'pairs':>12} {'brute ms':>10} {'fast ms':>9} {'ratio':>8} {'brute MiB':>10} {'fast MiB':>9}")
    for small in (500, 1000, 2000, 4000):
        a, b = scores(small, args.seed + 1)
        slow_s, _, slow_peak, slow = measure(lambda a=a, b=b: brute_force(a, b), 3)
        fast_s, _, fast_peak, fast = measure(lambda a=a, b=b: count_one(a, b), 3)
        assert slow[0] == fast[0] and all(np.array_equal(x, y) for x, y in zip(slow[1], fast[1]))
        print(f"{small:>7,} {small * (small - 1):>12,} {slow_s * 1000:>10.1f} {fast_s * 1000:>9.2f} "
              f"{slow_s / fast_s:>7.0f}x {slow_peak:>10.1f} {fast_peak:>9.2f}")
    scale = (k / small) ** 2
    print(f"brute force at k = {k:,}, extrapolated (k^2) from k = {small:,}: about {slow_s * scale:,.0f} s "
          f"and {slow_peak * scale / 1024:,.0f} GiB")


if __name__ == "__main__":
    main()
