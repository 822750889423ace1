"""ENTRE with 20 rounds on the shipped relation-extraction sample, side by side in one run.

For each embedded RE model:

1. a cold run of ENTRE (``rounds`` rounds, a fresh prediction cache): wall time, model
   inputs predicted (``runner.calls``) and per instance;
2. what those calls would have been without the runner's deduplication (every instance
   asking for its own source, each round it reached and its names-only inputs) and
   without the iteration asking only the instances still standing (every instance asked
   every round, as a fixed list of follow-ups would be);
3. a rerun on the same cache: its model calls (0 expected) and wall time;
4. ENTRE-fast (one replacement of every instance whose gold is not no_relation): calls
   and time, on its own fresh cache.

Run: ``python benchmarks/bench_entre.py [--rounds 20] [--models re-patterns,re-minilm]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.data import load_inputs
from mtwidgets.core.runner import Runner
from mtwidgets.re import entre
from mtwidgets.re.data import sample


def _run(name: str, model: Any, relation: str, rounds: int, inputs: list, rows: list,
         cache: PredictionCache) -> tuple[Any, int, float]:
    runner = Runner([mt.relation(relation, rounds=rounds)], {name: model}, task="re", seed=0, cache=cache)
    started = time.perf_counter()
    results = runner.run(inputs, rows)
    return results, runner.calls[name], time.perf_counter() - started


def _asked(frame: Any) -> int:
    """Model inputs the instances ask for, each on its own: the source, each round's
    instance and the names-only inputs (of the source and of the last instance)."""
    total = 0
    for r in frame.itertuples(index=False):
        if not isinstance(r.source_label, str):
            continue  # nothing replaceable: the source was never asked
        chain = (r.meta or {}).get("chain") or []
        total += 1 + len(chain) + 1 + (1 if chain else 0)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=entre.DEFAULT_ROUNDS)
    parser.add_argument("--models", default="re-patterns,re-minilm")
    args = parser.parse_args()
    loaded = load_inputs(sample(), task="re")
    inputs, rows = loaded.inputs, loaded.rows
    print(f"ENTRE, {args.rounds} rounds, on the shipped sample: {len(inputs)} instances with gold labels\n")
    header = (f"{'model':12} {'run':22} {'seconds':>8} {'calls':>7} {'calls/inst':>10} {'asked':>7} "
              f"{'every round':>11} {'F1 orig':>8} {'F1 ENTRE':>9} {'drop %':>7}")
    print(header)
    for name in args.models.split(","):
        model = mt.models.load(name)
        model.predict(inputs[:4])  # load weights and pipelines before timing
        cache = PredictionCache()
        results, calls, seconds = _run(name, model, "ENTRE", args.rounds, inputs, rows, cache)
        frame = results.frame
        live = int(frame["source_label"].map(lambda v: isinstance(v, str)).sum())
        every = live * (1 + args.rounds + 2)  # a fixed list: every round of every replaceable instance
        f1 = entre.f1_table(results).iloc[0]
        print(f"{name:12} {'ENTRE cold':22} {seconds:8.2f} {calls:7d} {calls / len(inputs):10.2f} "
              f"{_asked(frame):7d} {every:11d} {f1['f1_original']:8.1f} {f1['f1_entre']:9.1f} "
              f"{f1['relative_drop']:7.1f}")
        _, again, seconds2 = _run(name, model, "ENTRE", args.rounds, inputs, rows, cache)
        print(f"{name:12} {'ENTRE rerun (cached)':22} {seconds2:8.2f} {again:7d} {again / len(inputs):10.2f}")
        fast, fast_calls, fast_s = _run(name, model, "ENTRE-fast", args.rounds, inputs, rows, PredictionCache())
        f1f = entre.f1_table(fast).iloc[0]
        print(f"{name:12} {'ENTRE-fast cold':22} {fast_s:8.2f} {fast_calls:7d} {fast_calls / len(inputs):10.2f} "
              f"{'':7} {'':11} {f1f['f1_original']:8.1f} {f1f['f1_entre']:9.1f} {f1f['relative_drop']:7.1f}")
        fragility = entre.fragility_table(results)
        print(f"{'':12} rounds to failure: " + ", ".join(f"{k}: {n}" for k, n in zip(fragility["round"],
                                                                                  fragility["instances"])))
        print(f"{'':12} saving: dedup {1 - calls / max(_asked(frame), 1):.0%} of the inputs asked; asking only "
              f"instances still standing {1 - _asked(frame) / max(every, 1):.0%} of a fixed every-round list; "
              f"rerun {seconds / max(seconds2, 1e-9):.0f}x faster\n")


if __name__ == "__main__":
    main()
