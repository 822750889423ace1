"""Command line: ``mtwidgets run`` (headless batch job), ``mtwidgets demo`` (the quickstart
notebook in JupyterLab, or headless), ``mtwidgets catalogue``, ``mtwidgets models`` and
``mtwidgets tasks``.

Nothing here names a task: ``--task`` is any registered task (inferred when not given), and
each task adds its own ``run`` options, data readers, tables and report sections through its
``cli`` part (:class:`~mtwidgets.core.plugins.CLIParts`).

Every error is one line on stderr (``error: ...``) and a nonzero exit code, never a
traceback (``mtwidgets --traceback ...`` shows the traceback of an unexpected one). ``run``
checks ``--data``, ``--out``, ``--report`` and ``--cache`` before computing anything, writes
each output beside its target under a temporary name and renames it, and when an output
still cannot be written saves it to a fallback file (the message says where).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
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


def _names(value: str) -> list[str] | None:
    """A comma-separated option's names (``None`` for ``all``)."""
    return None if value == "all" else [n.strip() for n in value.split(",") if n.strip()]


def _sample_task(value: str) -> str | None:
    """The task a shipped-sample ``--data`` value names (``<task>_sample``)."""
    from .core.task import task_names

    return next((t for t in task_names() if value == f"{t}_sample"), None)


def _run_task(args: argparse.Namespace) -> Any:
    """``--task``, else the task of ``--relations``, ``--models`` or the data."""
    from .core.data import infer_task, task_hint
    from .core.errors import InputError, MTError
    from .core.task import get_task, task_names

    if args.task:
        return get_task(args.task)
    hint = task_hint(_names(args.models), _names(args.relations)) or _sample_task(args.data)
    if hint is not None:
        return get_task(hint)
    registered = ", ".join(task_names()) or "none"
    if args.data == "sample":
        raise MTError(f"--data sample needs --task (registered tasks: {registered})")
    try:
        return get_task(infer_task(args.data))
    except InputError as exc:
        if "cannot tell which task" not in str(exc):
            raise
        raise MTError(
            f"cannot tell the task of {args.data!r} from its columns, --relations or --models; "
            f"pass --task (registered tasks: {registered})"
        ) from None


def _load(args: argparse.Namespace, task: Any, parts: Any) -> Any:
    """The run's inputs: the task's own reading of ``--data`` if it has one, else its shipped
    sample (``sample``, ``<task>_sample``) or the data file."""
    from .core.data import load_inputs
    from .core.errors import MTError

    loaded = parts.load_data(args.data, args)
    if loaded is not None:
        return loaded
    data: Any = args.data
    if data in ("sample", f"{task.name}_sample"):
        sample = task.part("sample")
        if sample is None:
            raise MTError(f"the task {task.name!r} ships no sample; give --data FILE")
        data = sample()
    return load_inputs(data, task=task.name, on_bad="skip")


def _is_results_file(out: str) -> bool:
    return Path(out).suffix.lower() in (".jsonl", ".ndjson", ".parquet", ".csv")


def _out_paths(out: str) -> tuple[Path, Path | None]:
    """``--out``: a results file (.jsonl/.parquet/.csv), or a folder for results and tables."""
    p = Path(out)
    if _is_results_file(out):
        return p, None
    p.mkdir(parents=True, exist_ok=True)
    return p / "results.jsonl", p


# -- checks before the run, and writing after it ----------------------------------------------
def _check_data(value: str) -> None:
    """``--data``: a shipped sample's name, or a data file that exists and can be read."""
    from .core.data import path_problem
    from .core.errors import MTError
    from .core.task import task_names

    if value == "sample" or value in {f"{t}_sample" for t in task_names()}:
        return
    problem = path_problem(value, what="--data file")
    if problem is not None:
        raise MTError(f"{problem} (or 'sample' for a task's shipped sample)")


def _first_existing(path: Path) -> Path:
    p = path.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _write_problem(target: Path, *, folder: bool = False) -> str | None:
    """Why ``target`` (a file, or a folder when ``folder``) could not be written, found by
    creating and removing a probe file where it would go; ``None`` when it can."""
    if target.exists():
        if folder and not target.is_dir():
            return f"{str(target)!r} exists and is not a folder"
        if not folder and target.is_dir():
            return f"{str(target)!r} is a folder; give a file name"
        if not folder and not os.access(target, os.W_OK):
            return f"{str(target)!r} is not writable (permission denied)"
    where = _first_existing(target if folder else target.parent)
    if not where.is_dir():
        return f"{str(where)!r} is not a folder, so {str(target)!r} cannot be created in it"
    try:
        with tempfile.TemporaryFile(dir=where, prefix=".mtwidgets-probe-"):
            pass
    except OSError as exc:
        return f"cannot write in {str(where)!r} ({exc.strerror or exc})"
    return None


def _check_outputs(args: argparse.Namespace) -> None:
    """``--out``, ``--report`` and ``--cache`` can be written, before any work is done."""
    from .core.errors import MTError

    checks: list[tuple[str, Path, bool]] = []
    if args.out:
        checks.append(("--out", Path(args.out), not _is_results_file(args.out)))
    if args.report:
        checks.append(("--report", Path(args.report), False))
    if args.cache:
        checks.append(("--cache", Path(args.cache), False))
    for option, target, folder in checks:
        problem = _write_problem(target, folder=folder)
        if problem is not None:
            raise MTError(f"cannot write {option} {str(target)!r}: {problem}; choose another path")


def _replace_into(target: Path, write: Callable[[Path], Any]) -> Path:
    """``write(path)`` to a temporary file beside ``target`` (same suffix), then rename it
    to ``target``: a failed write never leaves a truncated output."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.stem}.{os.getpid()}.tmp{target.suffix}")
    try:
        write(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _fallback_path(target: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(tempfile.gettempdir()) / f"mtwidgets-{stamp}-{os.getpid()}-{target.name}"


def _write_output(what: str, target: Path, write: Callable[[Path], Any]) -> Path | None:
    """Write one output; when that fails, write it to a fallback file and say where (one
    line on stderr). Returns the path written, ``None`` when the output was not written
    where asked."""
    from .core.errors import MTError

    try:
        _replace_into(target, write)
        return target
    except (OSError, MTError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
    fallback = _fallback_path(target)
    try:
        _replace_into(fallback, write)
    except (OSError, MTError) as exc:
        again = getattr(exc, "strerror", None) or str(exc)
        print(f"error: cannot write {what} to {str(target)!r} ({reason}), nor to {str(fallback)!r} ({again})",
              file=sys.stderr)
        return None
    print(f"error: cannot write {what} to {str(target)!r} ({reason}); saved them to {str(fallback)!r} instead",
          file=sys.stderr)
    return None


def _csv_writer(frame: Any) -> Callable[[Path], Any]:
    return lambda path: frame.to_csv(path, index=False)


def cmd_run(args: argparse.Namespace) -> int:
    from .core.errors import MTError
    from .core.plugins import cli_parts
    from .core.registry import all_names, relation
    from .core.runner import Runner

    if args.limit is not None and args.limit < 1:
        raise MTError(f"--limit must be a positive number of sources, got {args.limit}")
    _check_data(args.data)
    _check_outputs(args)
    task = _run_task(args)
    parts = cli_parts(task.part("cli"))
    loaded = _load(args, task, parts)
    if loaded.skipped:
        print(f"warning: {loaded.skipped_summary()}", file=sys.stderr)
    inputs, rows = loaded.inputs, loaded.rows
    if args.limit:
        inputs, rows = inputs[: args.limit], rows[: args.limit]
    relations: Any = _names(args.relations) or "all"
    options = parts.relation_options(args)
    if options:
        wanted = all_names(task.name) if relations == "all" else relations
        relations = [relation(n, **options) for n in wanted]
    started = time.perf_counter()
    runner = Runner(
        relations, _models(args.models, task.name), task=task.name, seed=args.seed,
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
    context = parts.after_run(args, runner, results, inputs)
    failed = False
    if args.out:
        target, folder = _out_paths(args.out)
        written = _write_output("the results", target, results.save)
        failed |= written is None
        if written is not None:
            print(f"results: {written}")
        tables = parts.tables(context) if context is not None else {}
        if folder is not None and tables:
            for name, frame in tables.items():
                table = folder / f"{task.name}_{name}.csv"
                failed |= _write_output(f"the {name} table", table, _csv_writer(frame)) is None
            print(f"tables:  {folder}/{task.name}_*.csv")
    if args.report:
        from .report import write_report

        title = f"mtwidgets · {task.name} · {Path(str(args.data)).name}"
        report = _write_output("the report", Path(args.report),
                               lambda p: write_report(results, p, title=title, context=context))
        failed |= report is None
        if report is not None:
            print(f"report:  {report}")
    if failed:
        return 2
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
    from .core.task import get_task

    if args.task:
        get_task(args.task)  # an unknown task: the error lists the registered ones
    frame = catalogue(args.task)
    print(frame[["name", "task", "category", "expected", "description"]].to_string(index=False))
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from . import models

    print(models.describe().to_string(index=False))
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    from .core.task import tasks_frame

    frame = tasks_frame()
    print(frame[["name", "title", "input", "prediction", "models", "relations"]].to_string(index=False))
    return 0


def _task_options(run: argparse.ArgumentParser) -> None:
    """Each registered task's own ``run`` options, in an argument group titled by the task."""
    import warnings

    from .core.plugins import cli_parts
    from .core.task import tasks

    for task in tasks():
        try:
            ref = task.part("cli")
            if ref is None:
                continue
            group = run.add_argument_group(task.title, f"options for --task {task.name}")
            cli_parts(ref).add_arguments(group)
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break the CLI
            warnings.warn(f"the options of task {task.name!r} could not be added: {exc}", stacklevel=2)


def build_parser() -> argparse.ArgumentParser:
    from .core.task import task_names

    parser = argparse.ArgumentParser(prog="mtwidgets", description="Metamorphic testing of NLP models.")
    parser.add_argument("--traceback", action="store_true",
                        help="show the traceback of an unexpected error (errors are one line otherwise)")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run relations over a data file and write results and a report")
    registered = ", ".join(task_names())
    run.add_argument("--task", default=None, metavar="TASK",
                     help=f"one of: {registered} (default: the task of --relations, --models or the data)")
    run.add_argument("--data", required=True,
                     help="CSV/JSONL/Parquet file, or 'sample' for the task's shipped sample")
    run.add_argument("--relations", default="all", help="comma-separated names (e.g. MR-R1,MR-S2) or 'all'")
    run.add_argument("--models", default="all", help="comma-separated embedded model names or 'all'")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--batch-size", type=int, default=64)
    run.add_argument("--limit", type=int, default=None, help="use only the first N sources")
    run.add_argument("--cache", default=None, help="SQLite file caching predictions across runs")
    run.add_argument("--out", default=None,
                     help="results file (.jsonl, .parquet or .csv), or a folder for results.jsonl "
                     "(and the task's tables)")
    run.add_argument("--report", default=None, help="standalone HTML report")
    run.add_argument("--quiet", action="store_true", help="no progress bars")
    run.add_argument("--strict", action="store_true", help="exit 1 if a model failed on some input")
    _task_options(run)
    run.set_defaults(func=cmd_run)

    demo = sub.add_parser("demo", help="open the quickstart notebook in JupyterLab (or run it headless)")
    demo.add_argument("--headless", action="store_true", help="execute the notebook and write an HTML report")
    demo.add_argument("--out", default="mtwidgets-out", help="folder for the headless outputs")
    demo.add_argument("--timeout", type=int, default=1200, help="seconds per notebook cell (headless)")
    demo.add_argument("lab_args", nargs="*", help="extra JupyterLab arguments (after --)")
    demo.set_defaults(func=cmd_demo)

    cat = sub.add_parser("catalogue", help="list the metamorphic relations")
    cat.add_argument("--task", default=None, metavar="TASK", help=f"only this task's relations ({registered})")
    cat.set_defaults(func=cmd_catalogue)

    mod = sub.add_parser("models", help="list the embedded models")
    mod.set_defaults(func=cmd_models)

    tsk = sub.add_parser("tasks", help="list the registered tasks")
    tsk.set_defaults(func=cmd_tasks)
    return parser


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).split("\n") if part.strip())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .core.errors import MTError

    try:
        return int(args.func(args))
    except MTError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        where = f" {str(exc.filename)!r}" if getattr(exc, "filename", None) else ""
        print(f"error: cannot access{where}: {exc.strerror or _one_line(str(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the CLI shows one line, not a traceback
        if args.traceback:
            raise
        print(f"error: unexpected {type(exc).__name__}: {_one_line(str(exc))} "
              "(run 'mtwidgets --traceback ...' to see where)", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
