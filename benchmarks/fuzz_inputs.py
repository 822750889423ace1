"""Fuzz every relation of the shipped tasks on generated inputs and print what it finds.

The generators and the invariant are those of ``tests/test_fuzz.py``: for each input and each
relation, ``generate`` returns groups or raises an mtwidgets error (``MTError``), never
anything else, and every source and follow-up is a valid input whose spans land on its text.
Unlike the test, this collects every finding (grouped by relation and kind, with the
smallest input that shows it and a reproducer) instead of stopping at the first.

Run: ``python benchmarks/fuzz_inputs.py [--task NAME] [--n N] [--seed S] [--out FILE.md]``
(defaults: 10,000 relation-extraction and 3,000 NER inputs). Exit status 1 when anything
was found.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_fuzz  # noqa: E402

DEFAULT_N = {test_fuzz.RE_TASK: 10_000, test_fuzz.NER_TASK: 3_000}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=sorted(DEFAULT_N), action="append",
                        help="a task to fuzz (repeatable; default: every shipped task)")
    parser.add_argument("--n", type=int, default=None, help="distinct inputs per task (default: 10,000 / 3,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="also write the findings as Markdown here")
    args = parser.parse_args(argv)
    found = 0
    sections: list[str] = []
    for task in args.task or list(DEFAULT_N):
        n = args.n or DEFAULT_N[task]
        started = time.perf_counter()
        report = test_fuzz.fuzz(task, n, seed=args.seed)
        elapsed = time.perf_counter() - started
        print(report.summary())
        print(f"{task}: {elapsed:.0f} s, {report.inputs / elapsed:.1f} inputs/s\n", flush=True)
        found += len(report.findings)
        sections.append(f"## {task}: {report.inputs} inputs, seed {args.seed}, {elapsed:.0f} s\n")
        for f in sorted(report.findings.values(), key=lambda f: (f.relation, -f.count)):
            sections.append(
                f"### {f.relation}: {f.kind} ({f.count}x)\n\n```\n{f.detail}\n```\n\n```python\n{f.reproducer()}\n```\n"
            )
        if not report.findings:
            sections.append("No findings.\n")
    if args.out is not None:
        args.out.write_text("\n".join(sections), encoding="utf-8")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
