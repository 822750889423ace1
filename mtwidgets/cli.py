"""Command line: ``mtwidgets run`` (headless batch job), ``mtwidgets demo`` (the quickstart
notebook in JupyterLab, or headless), ``mtwidgets catalogue`` and ``mtwidgets models``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def _models(names: str, task: str) -> dict[str, Any]:
    from . import models

    wanted = models.available(task) if names == "all" else [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in models.available()]
    if unknown:
        from .core.errors import MTError

        raise MTError(f"unknown model(s) {unknown}; embedded models: {', '.join(models.available())}")
    return {name: models.load(name) for name in wanted}


def _data(value: str) -> Any:
    from . import datasets

    if value in ("sample", "re_sample"):
        return datasets.re_sample()
    return value


def cmd_run(args: argparse.Namespace) -> int:
    import time

    from .core.data import load_inputs
    from .core.runner import Runner

    loaded = load_inputs(_data(args.data), task=args.task, on_bad="skip")
    if loaded.skipped:
        print(f"warning: {loaded.skipped_summary()}", file=sys.stderr)
    inputs, rows = loaded.inputs, loaded.rows
    if args.limit:
        inputs, rows = inputs[: args.limit], rows[: args.limit]
    relations = "all" if args.relations == "all" else [r.strip() for r in args.relations.split(",")]
    started = time.perf_counter()
    runner = Runner(
        relations, _models(args.models, args.task), task=args.task, seed=args.seed,
        batch_size=args.batch_size, cache=args.cache, progress=not args.quiet,
    )
    results = runner.run(inputs, rows)
    results.skipped = loaded.skipped
    elapsed = time.perf_counter() - started
    summary = results.summary()
    with_pct = summary.assign(vr=(summary["vr"] * 100).round(1), vr_low=(summary["vr_low"] * 100).round(1),
                              vr_high=(summary["vr_high"] * 100).round(1))
    print(with_pct.to_string(index=False))
    print(f"\n{len(inputs)} sources, {len(results)} groups in {elapsed:.1f} s; "
          f"model inputs predicted: {runner.calls}")
    for err in results.errors[:5]:
        print(f"error: {err}", file=sys.stderr)
    if args.out:
        print(f"results: {results.save(args.out)}")
    if args.report:
        print(f"report:  {results.report(args.report, title=f'mtwidgets · {args.task} · {Path(str(args.data)).name}')}")
    return 1 if results.errors and args.strict else 0


def _quickstart() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "notebooks" / "quickstart.ipynb", here / "_notebooks" / "quickstart.ipynb"):
        if candidate.exists():
            return candidate
    raise SystemExit("quickstart notebook not found (expected notebooks/quickstart.ipynb)")


def cmd_demo(args: argparse.Namespace) -> int:
    notebook = _quickstart()
    if not args.headless:
        import os
        import subprocess

        lab_args = list(args.lab_args)
        if hasattr(os, "geteuid") and os.geteuid() == 0 and "--allow-root" not in lab_args:
            lab_args.append("--allow-root")  # containers and CI run as root; JupyterLab refuses otherwise
        cmd = [sys.executable, "-m", "jupyterlab", str(notebook), *lab_args]
        print("starting JupyterLab:", " ".join(cmd))
        return subprocess.call(cmd, cwd=notebook.parent)
    from .demo import run_headless

    executed, report = run_headless(notebook, Path(args.out), timeout=args.timeout)
    print(f"executed notebook: {executed}\nreport: {report}")
    return 0


def cmd_catalogue(args: argparse.Namespace) -> int:
    from .core.registry import catalogue

    frame = catalogue(args.task)
    print(frame[["name", "task", "category", "expected", "description"]].to_string(index=False))
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from . import models

    print(models.describe().to_string(index=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mtwidgets", description="Metamorphic testing of NLP models.")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run relations over a data file and write results and a report")
    run.add_argument("--task", default="re", choices=["re"])
    run.add_argument("--data", required=True, help="CSV/JSONL/Parquet file, or 'sample' for the shipped sample")
    run.add_argument("--relations", default="all", help="comma-separated names (e.g. MR-R1,MR-S2) or 'all'")
    run.add_argument("--models", default="all", help="comma-separated embedded model names or 'all'")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--batch-size", type=int, default=64)
    run.add_argument("--limit", type=int, default=None, help="use only the first N sources")
    run.add_argument("--cache", default=None, help="SQLite file caching predictions across runs")
    run.add_argument("--out", default=None, help="results file (.jsonl, .parquet or .csv)")
    run.add_argument("--report", default=None, help="standalone HTML report")
    run.add_argument("--quiet", action="store_true", help="no progress bars")
    run.add_argument("--strict", action="store_true", help="exit 1 if a model failed on some input")
    run.set_defaults(func=cmd_run)

    demo = sub.add_parser("demo", help="open the quickstart notebook in JupyterLab (or run it headless)")
    demo.add_argument("--headless", action="store_true", help="execute the notebook and write an HTML report")
    demo.add_argument("--out", default="mtwidgets-out", help="folder for the headless outputs")
    demo.add_argument("--timeout", type=int, default=1200, help="seconds per notebook cell (headless)")
    demo.add_argument("lab_args", nargs="*", help="extra JupyterLab arguments (after --)")
    demo.set_defaults(func=cmd_demo)

    cat = sub.add_parser("catalogue", help="list the metamorphic relations")
    cat.add_argument("--task", default=None)
    cat.set_defaults(func=cmd_catalogue)

    mod = sub.add_parser("models", help="list the embedded models")
    mod.set_defaults(func=cmd_models)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .core.errors import MTError

    try:
        return int(args.func(args))
    except MTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
