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


def _ner_data(value: str) -> Any:
    """NER inputs with gold: the shipped sample, or a CSV/JSONL/Parquet file whose rows have
    ``text`` and optionally ``entities`` (or ``gold``): ``[{"start", "end", "label"}, ...]``."""
    from .core.data import LoadedData, read_table
    from .core.errors import InputError
    from .ner.inputs import ner_input_from_row

    if value in ("sample", "ner_sample"):
        from . import datasets

        sample = datasets.ner_sample()
        return LoadedData(list(sample), list(range(len(sample))))
    out = LoadedData([], [])
    for n, row in enumerate(read_table(value)):
        try:
            out.inputs.append(ner_input_from_row(row))
            out.rows.append(row.get("id", n))
        except (InputError, TypeError, ValueError) as exc:
            out.skipped.append((row.get("id", n), str(exc)))
    if not out.inputs:
        raise InputError(f"no usable NER inputs in {value!r} ({out.skipped_summary()}); rows need a 'text'")
    return out


def _out_paths(out: str) -> tuple[Path, Path | None]:
    """``--out``: a results file (.jsonl/.parquet/.csv), or a folder for results and tables."""
    p = Path(out)
    if p.suffix in (".jsonl", ".ndjson", ".parquet", ".csv"):
        return p, None
    p.mkdir(parents=True, exist_ok=True)
    return p / "results.jsonl", p


def cmd_run(args: argparse.Namespace) -> int:
    import time

    from .core.data import load_inputs
    from .core.runner import Runner

    if args.task == "ner":
        loaded = _ner_data(args.data)
    else:
        loaded = load_inputs(_data(args.data), task=args.task, on_bad="skip")
    if loaded.skipped:
        print(f"warning: {loaded.skipped_summary()}", file=sys.stderr)
    inputs, rows = loaded.inputs, loaded.rows
    if args.limit:
        inputs, rows = inputs[: args.limit], rows[: args.limit]
    relations: Any = "all" if args.relations == "all" else [r.strip() for r in args.relations.split(",")]
    if args.task == "ner" and args.granularity != "fine":
        from .core.registry import names, relation

        wanted = names("ner") if relations == "all" else relations
        relations = [relation(n, granularity=args.granularity) for n in wanted]
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
    ner = _ner_evaluation(args, runner, results, inputs) if args.task == "ner" else None
    if args.out:
        target, folder = _out_paths(args.out)
        print(f"results: {results.save(target)}")
        if folder is not None and ner is not None:
            for name, frame in _ner_tables(ner).items():
                frame.to_csv(folder / f"ner_{name}.csv", index=False)
            print(f"tables:  {folder}/ner_*.csv")
    if args.report:
        from .report import write_report

        title = f"mtwidgets · {args.task} · {Path(str(args.data)).name}"
        print(f"report:  {write_report(results, args.report, title=title, ner=ner)}")
    return 1 if results.errors and args.strict else 0


def _ner_evaluation(args: argparse.Namespace, runner: Any, results: Any, inputs: list[Any]) -> Any:
    """TIN's tables: suspicious issues, precision against gold, categories, repair."""
    import time

    from .ner.evaluate import evaluate

    fill_mask = None
    if args.fill_mask:
        from .models.fill_mask import FillMask

        fill_mask = FillMask(args.fill_mask)
    started = time.perf_counter()
    gold = inputs if any(getattr(x, "gold", ()) for x in inputs) else None
    models = None if args.no_repair else runner.user_models
    ev = evaluate(results, models, gold=gold, fill_mask=fill_mask, cache=runner.cache, granularity=args.granularity)
    pct = ("precision", "precision_low", "precision_high", "source_precision", "share", "Err2Cor", "Cor2Err",
           "ErrorReduce")

    def show(frame: Any) -> str:
        shown = frame.copy()
        for col in pct:
            if col in shown:
                shown[col] = (shown[col] * 100).round(1)
        return str(shown.to_string(index=False))

    print("\nNER suspicious issues and precision against gold (%):")
    print(show(ev.precision))
    print("\nNER error categories (distinct errors):")
    print(show(ev.categories))
    if ev.repair is not None:
        print("\nNER repair (Table 6 style, %):")
        print(show(ev.repair))
    print(f"\nNER evaluation in {time.perf_counter() - started:.1f} s")
    return ev


def _ner_tables(ev: Any) -> dict[str, Any]:
    tables = {"precision": ev.precision, "categories": ev.categories, "kinds": ev.kinds, "issues": ev.issue_frame()}
    if ev.repair is not None:
        import pandas as pd

        tables["repair"] = ev.repair
        tables["repairs"] = pd.concat([o.units for o in ev.repairs], ignore_index=True) if ev.repairs else ev.repair
    return tables


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
    run.add_argument("--task", default="re", choices=["re", "ner"])
    run.add_argument("--data", required=True, help="CSV/JSONL/Parquet file, or 'sample' for the shipped sample")
    run.add_argument("--relations", default="all", help="comma-separated names (e.g. MR-R1,MR-S2) or 'all'")
    run.add_argument("--models", default="all", help="comma-separated embedded model names or 'all'")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--batch-size", type=int, default=64)
    run.add_argument("--limit", type=int, default=None, help="use only the first N sources")
    run.add_argument("--cache", default=None, help="SQLite file caching predictions across runs")
    run.add_argument("--out", default=None,
                     help="results file (.jsonl, .parquet or .csv), or a folder for results.jsonl (and NER tables)")
    run.add_argument("--report", default=None, help="standalone HTML report")
    run.add_argument("--quiet", action="store_true", help="no progress bars")
    run.add_argument("--strict", action="store_true", help="exit 1 if a model failed on some input")
    run.add_argument("--no-repair", action="store_true", help="NER: skip the repair of suspicious entities")
    run.add_argument("--fill-mask", default=None,
                     help="NER repair: a masked LM (hub name or local path) for similar entities; "
                     "default: the md pipeline's word vectors")
    run.add_argument("--granularity", default="fine", choices=["fine", "coarse"],
                     help="NER: compare labels as canonical (fine) or CoNLL classes (coarse)")
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
