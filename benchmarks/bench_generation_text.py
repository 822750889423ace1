"""Follow-up generation speed of the 21 text relations (MR1.1-MR7.3), per language.

Prints one row per relation: the task, and for each language the sources of the shipped
sample, how many of them the relation applies to, and the sources per second of
``relation.generate`` over the sample (model calls excluded: generation never calls a
model). Each rate is the last of ``--passes`` passes over the sample: the first pass also
parses the texts and loads the lexicons (once per process), the last measures building
follow-ups given the parse, which the 200 sources/s target is about. The measuring itself
is :func:`mtwidgets.text.bench.generation_rates` (shared with the test suite).

Run: ``.venv/bin/python benchmarks/bench_generation_text.py [--lang en zh] [--passes 2]``;
the exit status is 1 when a relation falls below ``--target``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pandas as pd

from mtwidgets.text.bench import generation_rates

TARGET = 200  # sources per second, every relation, every language


def rates_table(langs: list[str], passes: int) -> tuple[pd.DataFrame, dict[str, float]]:
    """Relations (rows) x language (sources, applicable, sources/s); seconds per language."""
    frames = []
    seconds: dict[str, float] = {}
    for lang in langs:
        started = time.perf_counter()
        rows = generation_rates(lang, passes)
        seconds[lang] = time.perf_counter() - started
        frame = pd.DataFrame(rows).set_index(["task", "relation"])
        frames.append(frame[["sources", "applicable", "sources_per_s"]].rename(columns=lambda c, lang=lang: (lang, c)))
    table = pd.concat(frames, axis=1)
    table.columns = pd.MultiIndex.from_tuples(table.columns)
    return table, seconds


def slow_relations(table: pd.DataFrame, target: float) -> list[tuple[str, str, Any]]:
    """``(relation, lang, sources/s)`` of every rate below ``target``."""
    out = []
    for lang in dict.fromkeys(table.columns.get_level_values(0)):
        for (_, relation), rate in table[(lang, "sources_per_s")].items():
            if rate < target:
                out.append((relation, lang, rate))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", nargs="+", default=["en", "zh"], choices=["en", "zh"])
    parser.add_argument("--passes", type=int, default=2, help="passes over each sample; the last one is timed")
    parser.add_argument("--target", type=float, default=TARGET, help="sources per second every relation must reach")
    args = parser.parse_args(argv)
    table, seconds = rates_table(args.lang, args.passes)
    with pd.option_context("display.width", 200):
        print(table.to_string())
    print("\nseconds per language (all passes, lexicons and parses included): "
          + ", ".join(f"{lang} {s:.1f}" for lang, s in seconds.items()))
    for lang in args.lang:
        column = table[(lang, "sources_per_s")]
        print(f"{lang}: slowest {column.min()} sources/s ({column.idxmin()[1]}), median {column.median():.0f}")
    slow = slow_relations(table, args.target)
    if slow:
        print(f"below {args.target:g} sources/s: " + ", ".join(f"{r} ({lang}) {v}" for r, lang, v in slow))
        return 1
    print(f"every relation >= {args.target:g} sources/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
