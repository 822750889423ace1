"""Reading user data into typed inputs, with a report of the rows that could not be read.

Accepted: a list of inputs; a list of strings; a list of dicts; a pandas DataFrame; a CSV,
JSONL or Parquet path; or a :class:`LoadedData` already read. How a row (or a string)
becomes an input is the task's business (:meth:`~mtwidgets.core.task.Task.input_from_row`,
:meth:`~mtwidgets.core.task.Task.input_from_text`); the columns each task reads are its
``column_modes``.

When no task is given it is inferred: inputs (and dicts written by ``to_dict``) carry
their task, and a table's columns are matched against every registered task's ``detect``.
Data that fits no task, or more than one, is an error that lists the registered tasks.

Files are read strictly: UTF-8 (a byte-order mark is dropped), JSON Lines split on ``"\n"``
only (a JSON string may hold U+2028, U+2029 or U+0085 as they are), and a file that cannot
be read is an :class:`~mtwidgets.core.errors.InputError` naming the file, the line or row,
and what to do.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError, MTError
from .inputs import BaseInput, input_from_dict
from .task import Task, get_task, task_names, tasks

TABLE_SUFFIXES: tuple[str, ...] = (".csv", ".jsonl", ".ndjson", ".parquet")
FORMATS = "a .csv (with a header row), .jsonl/.ndjson (one JSON object per line) or .parquet file"


class _FirstTask:
    """``infer_task(..., default=FIRST_TASK)``: fall back to the first registered task."""

    def __repr__(self) -> str:
        return "FIRST_TASK"


FIRST_TASK: Any = _FirstTask()


@dataclass
class LoadedData:
    inputs: list[BaseInput]
    rows: list[Any]  # the row label of each input in the user's data
    skipped: list[tuple[Any, str]] = field(default_factory=list)  # (row label, reason)

    def skipped_summary(self, limit: int = 5) -> str:
        if not self.skipped:
            return "no rows skipped"
        shown = "; ".join(f"row {r}: {why}" for r, why in self.skipped[:limit])
        more = f" (and {len(self.skipped) - limit} more)" if len(self.skipped) > limit else ""
        return f"{len(self.skipped)} rows skipped: {shown}{more}"


def _is_loaded(data: Any) -> bool:
    """A :class:`LoadedData`, also one made by an earlier import of this module (a notebook's
    ``importlib.reload`` or autoreload gives the class a new identity)."""
    if isinstance(data, LoadedData):
        return True
    return type(data).__name__ == "LoadedData" and all(
        isinstance(getattr(data, a, None), list) for a in ("inputs", "rows", "skipped")
    )


# -- files -----------------------------------------------------------------------------------
def _shown(path: Path) -> str:
    return repr(str(path))


def path_problem(path: str | Path, *, what: str = "data file") -> str | None:
    """Why ``path`` cannot be read as a data table (missing, a folder, an unsupported
    suffix, unreadable), or ``None`` when it looks readable."""
    import os

    p = Path(path)
    if not p.exists():
        return f"{what} {_shown(p)} does not exist; give the path of {FORMATS}"
    if p.is_dir():
        return f"{what} {_shown(p)} is a folder; give the path of {FORMATS} inside it"
    if p.suffix.lower() not in TABLE_SUFFIXES:
        return f"cannot read {what} {_shown(p)}: unsupported file type {p.suffix or '(none)'!r}; give {FORMATS}"
    if not p.is_file():
        return f"{what} {_shown(p)} is not a regular file; give {FORMATS}"
    if not os.access(p, os.R_OK):
        return f"{what} {_shown(p)} is not readable (permission denied); check its permissions"
    return None


def read_text(path: str | Path, *, what: str = "data file") -> str:
    """The UTF-8 text of a file, a leading byte-order mark dropped; an :class:`InputError`
    naming the line of the first byte that is not UTF-8, or a file that is binary."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except IsADirectoryError:
        raise InputError(f"{what} {_shown(p)} is a folder; give the path of {FORMATS} inside it") from None
    except FileNotFoundError:
        raise InputError(f"{what} {_shown(p)} does not exist") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {_shown(p)}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{p}:{line}: byte 0x{raw[exc.start]:02x} is not UTF-8 text; save the {what} as UTF-8"
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(f"{p}:{line}: a NUL byte; the {what} is a binary file, not text")
    return text


def json_lines(path: str | Path, *, what: str = "data file") -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of each non-blank line of a JSON Lines file.

    Lines are split on ``"\n"`` only (``"\r\n"`` too): ``str.splitlines`` would also split
    on U+2028, U+2029, U+0085 and other characters a JSON string may hold as they are."""
    p = Path(path)
    text = read_text(p, what=what)
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip(" \t\r"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            hint = (
                "; the file looks like one JSON array: write one JSON object per line (JSON Lines)"
                if n == 1 and line.lstrip().startswith("[")
                else ""
            )
            raise InputError(
                f"{p}:{n}: not valid JSON ({exc.msg} at column {exc.colno}){hint}"
            ) from None
        if not isinstance(obj, dict):
            kind = {list: "an array", str: "a string", bool: "a boolean"}.get(type(obj), "a number")
            if obj is None:
                kind = "null"
            if isinstance(obj, list) and n == 1:
                kind += " (the file looks like one JSON array)"
            raise InputError(
                f"{p}:{n}: holds {kind}, not a JSON object; the {what} needs one {{...}} object per line "
                "(JSON Lines)"
            )
        yield n, obj


def read_csv_file(path: str | Path, *, what: str = "data file", **options: Any) -> Any:
    """A CSV file as a DataFrame (``options`` go to ``pandas.read_csv``); an empty file, a
    file that is not UTF-8 and malformed CSV (an unclosed quote, a row with too many fields)
    are :class:`InputError` naming the file."""
    import pandas as pd

    p = Path(path)
    text = read_text(p, what=what)
    if not text.strip():
        raise InputError(f"{what} {_shown(p)} is empty; a CSV needs a header row naming its columns")
    try:
        return pd.read_csv(io.StringIO(text), **options)
    except pd.errors.EmptyDataError:
        raise InputError(f"{what} {_shown(p)} is empty; a CSV needs a header row naming its columns") from None
    except (pd.errors.ParserError, ValueError) as exc:
        detail = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"{what} {_shown(p)} is not valid CSV ({detail}); close every quoted field and give each row "
            "as many fields as the header"
        ) from None


def read_parquet_file(path: str | Path, *, what: str = "data file") -> Any:
    """A Parquet file as a DataFrame; a file that is not Parquet (or is truncated) is an
    :class:`InputError` naming it."""
    import pandas as pd

    p = Path(path)
    try:
        return pd.read_parquet(p)
    except ImportError:
        raise
    except FileNotFoundError:
        raise InputError(f"{what} {_shown(p)} does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{what} {_shown(p)} is a folder; give the path of {FORMATS} inside it") from None
    except Exception as exc:  # noqa: BLE001 - pyarrow raises ArrowInvalid, OSError, ... for a bad file
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"{what} {_shown(p)} is not a readable Parquet file ({detail}); it may be truncated or "
            "in another format: write it again"
        ) from None


# -- tasks -----------------------------------------------------------------------------------
def _registered() -> str:
    return ", ".join(task_names()) or "none"


def _task(task: str | Task) -> Task:
    """The registered task, or an :class:`InputError` that lists the registered tasks."""
    try:
        return get_task(task)
    except InputError:
        raise
    except MTError as exc:
        raise InputError(str(exc)) from None


def _undecided(what: str, *, columns: bool = False) -> InputError:
    """No task fits: the error lists the registered tasks (with the columns each reads)."""
    if columns:
        listed = ", ".join(f"{t.name} ({_modes_text(t)})" if t.column_modes else t.name for t in tasks())
    else:
        listed = _registered()
    return InputError(f"cannot tell which task {what} is for; pass task= one of the registered tasks: {listed}")


def _modes_text(task: Task) -> str:
    return " or ".join("+".join(repr(c) for c in m.required) for m in task.column_modes)


def _carried_task(row: Mapping[str, Any]) -> str | None:
    """The task a dict names under ``task`` (as ``to_dict`` writes it), when registered."""
    name = row.get("task")
    return name if isinstance(name, str) and name in task_names() else None


def task_of_columns(columns: Iterable[Any], *, what: str = "the data") -> str | None:
    """The one registered task whose ``detect`` accepts these column names; ``None`` when
    none does; an :class:`InputError` when several do."""
    cols = {str(c) for c in columns}
    found = [t.name for t in tasks() if t.matches_columns(cols)]
    if len(found) > 1:
        raise InputError(
            f"{what} with columns {sorted(cols)} fits several tasks ({', '.join(found)}); pass task= one of them"
        )
    return found[0] if found else None


def _text_columns(task: str | None) -> set[str]:
    """Columns a CSV cell of which must stay a string ("46" not 46.0, "NA" not missing)."""
    chosen = [_task(task)] if task is not None else tasks()
    text: set[str] = set()
    numeric: set[str] = set()
    for f in (f for t in chosen for m in t.column_modes for f in m.fields):
        names = {f.name, *getattr(f, "aliases", ())}
        (numeric if getattr(f, "numeric", False) else text).update(names)
    return text - numeric


# -- rows ------------------------------------------------------------------------------------
def row_to_input(row: Mapping[str, Any] | str | BaseInput, task: str | Task | None = None) -> BaseInput:
    """One row -> one input, or an :class:`InputError` that says what is wrong with it.

    An input is kept as it is; a dict that names its ``task`` (as ``to_dict`` writes it) is
    read back; otherwise the task (given, else an error) reads the row or the string.
    """
    if isinstance(row, BaseInput):
        return row
    if isinstance(row, Mapping):
        carried = row.get("task")
        if isinstance(carried, str) and carried:
            try:
                return input_from_dict(dict(row))
            except (InputError, KeyError, TypeError, ValueError) as exc:
                owner = _carried_task(row)
                if owner is None:
                    if task is None:
                        raise InputError(str(exc)) from None
                else:
                    return get_task(owner).input_from_row(row)
        if task is None:
            raise _undecided("a row without a 'task' key")
        return _task(task).input_from_row(row)
    if isinstance(row, str):
        if task is None:
            raise _undecided(f"the string {row[:60]!r}")
        return _task(task).input_from_text(row)
    raise InputError(f"cannot read an input from {type(row).__name__} {row!r}")


def read_table(path: str | Path, task: str | None = None) -> list[dict[str, Any]]:
    """Rows of a CSV, JSONL or Parquet file as dicts.

    In a CSV the columns of the tasks' text fields stay strings (``task`` given: that task's,
    else every registered task's)."""
    p = Path(path)
    problem = path_problem(p)
    if problem is not None:
        raise InputError(problem)
    suffix = p.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return [row for _, row in json_lines(p)]
    if suffix == ".csv":
        # Mentions and types stay strings ("46" must not become 46.0 in a column with blank
        # cells, "NA" or "None" must not become missing); only empty cells are missing.
        dtype = dict.fromkeys(sorted(_text_columns(task)), str)
        frame = read_csv_file(p, dtype=dtype, keep_default_na=False, na_values=[""])
        return frame.to_dict("records")  # type: ignore[no-any-return]
    return read_parquet_file(p).to_dict("records")  # type: ignore[no-any-return]


def _is_table_path(data: Any) -> bool:
    return isinstance(data, (str, Path)) and Path(str(data)).suffix.lower() in TABLE_SUFFIXES


def _not_a_table(data: str | Path) -> InputError:
    """A path (or string) that is not a data table: say what it is and what is accepted."""
    p = Path(str(data))
    if isinstance(data, Path) or p.exists():
        return InputError(path_problem(p) or f"cannot read inputs from {_shown(p)}; give {FORMATS}")
    return InputError(
        f"cannot read inputs from the string {str(data)[:60]!r}: it is not an existing file; give the path "
        f"of {FORMATS}, a list of strings (one per input), a list of inputs or a DataFrame"
    )


def _is_frame(data: Any) -> bool:
    return hasattr(data, "to_dict") and hasattr(data, "columns")


def _check_columns(columns: Iterable[Any], task: Task) -> None:
    """A frame that has none of the columns any of the task's column modes requires."""
    cols = [str(c) for c in columns]
    required = {c for m in task.column_modes for c in m.required}
    if not task.column_modes or required & set(cols):
        return
    ways = "; or ".join(f"{'+'.join(repr(c) for c in m.required)} ({m.title})" for m in task.column_modes)
    raise InputError(f"the DataFrame has columns {cols}; {task.title} data needs {ways}")


def _rows_task(rows: list[Any], what: str) -> str | None:
    """The task of a list of rows: the one their inputs/dicts carry, else their columns'."""
    carried: set[str] = set()
    columns: set[str] = set()
    needs_task = False
    for row in rows:
        if isinstance(row, BaseInput):
            carried.add(row.task)
        elif isinstance(row, Mapping) and _carried_task(row):
            carried.add(str(row["task"]))
        else:
            needs_task = True
            if isinstance(row, Mapping):
                columns |= {str(k) for k in row}
    if not needs_task:
        return None  # every row carries its own task
    if len(carried) == 1:
        return carried.pop()
    if len(carried) > 1:
        raise InputError(
            f"{what} mixes inputs of tasks {sorted(carried)} with rows that carry no task; pass task="
        )
    found = task_of_columns(columns, what=what) if columns else None
    if found is None:
        detail = f" (columns {sorted(columns)})" if columns else ""
        raise _undecided(f"{what}{detail}", columns=bool(columns))
    return found


def load_inputs(data: Any, *, task: str | Task | None = None, on_bad: str = "raise") -> LoadedData:
    """Read ``data`` into inputs. ``on_bad="skip"`` skips bad rows and reports them.

    ``task`` (a registered task's name) says how rows and strings become inputs; when
    ``None`` it is inferred from the data (see the module docs), and data no task fits is
    an :class:`InputError` that lists the registered tasks.
    """
    if on_bad not in ("raise", "skip"):
        raise ValueError(f"on_bad must be 'raise' or 'skip', got {on_bad!r}")
    name = None if task is None else _task(task).name
    if _is_loaded(data):
        wrong = sorted({x.task for x in data.inputs if name is not None and x.task != name})
        if wrong:
            raise InputError(f"the loaded data holds {', '.join(wrong)} inputs, not {name} inputs")
        if not isinstance(data, LoadedData):  # from an earlier import of this module
            return LoadedData(list(data.inputs), list(data.rows), list(data.skipped))
        return data
    if _is_table_path(data):
        table = read_table(data, name)
        if not table:
            raise InputError(f"data file {_shown(Path(str(data)))} has no data rows; add one row per input")
        if name is None:
            name = _rows_task(table, f"the file {Path(str(data)).name!r}")
        items: Iterable[tuple[Any, Any]] = enumerate(table)
    elif isinstance(data, (str, Path)):
        raise _not_a_table(data)
    elif isinstance(data, BaseInput):
        items = [(0, data)]
    elif _is_frame(data):
        if name is None:
            name = task_of_columns(data.columns, what="a DataFrame")
            if name is None:
                raise _undecided(f"a DataFrame with columns {[str(c) for c in data.columns]}", columns=True)
        _check_columns(data.columns, _task(name))
        items = zip(data.index, data.to_dict("records"))
    elif isinstance(data, Iterable) and not isinstance(data, (str, bytes, Mapping)):
        rows = list(data)
        if name is None:
            name = _rows_task(rows, "the data")
        items = enumerate(rows)
    else:
        raise InputError(
            f"cannot read inputs from {type(data).__name__}; give a DataFrame, a list of inputs or "
            f"strings, or a path to a {'/'.join(TABLE_SUFFIXES)} file"
        )
    out = LoadedData([], [])
    for label, row in items:
        try:
            out.inputs.append(row_to_input(row, name))
            out.rows.append(label)
        except (InputError, TypeError, ValueError) as exc:
            if on_bad == "raise":
                raise InputError(f"row {label}: {exc}") from None
            out.skipped.append((label, str(exc)))
    if not out.inputs:
        detail = f" ({out.skipped_summary()})" if out.skipped else ""
        where = f" of {_shown(Path(str(data)))}" if _is_table_path(data) else ""
        raise InputError(f"no usable inputs in the data{where}{detail}")
    return out


# -- which task a widget is for -----------------------------------------------------------
def _is_results(data: Any) -> bool:
    """Saved results (:class:`~mtwidgets.core.results.Results`, which reads its files with
    this module, so it is recognised by its shape, not imported)."""
    named = any(c.__name__ == "Results" and c.__module__.endswith(".results") for c in type(data).__mro__)
    frame: Any = getattr(data, "frame", None)
    return named and _is_frame(frame) and "task" in frame.columns


def _data_task(data: Any) -> str | None:
    if data is None:
        return None
    if _is_loaded(data):
        return str(data.inputs[0].task) if data.inputs else None
    if isinstance(data, BaseInput):
        return data.task
    if _is_results(data):
        return str(data.frame["task"].iloc[0]) if len(data.frame) else None
    if _is_frame(data):
        return task_of_columns(data.columns, what="a DataFrame")
    if _is_table_path(data):
        table = read_table(data)
        try:
            return _rows_task(table, "the file") if table else None
        except InputError:
            return None
    if isinstance(data, (list, tuple)) and data:
        first = data[0]
        if isinstance(first, BaseInput):
            return str(first.task)
        if isinstance(first, Mapping) and _carried_task(first):
            return str(first["task"])
        if all(isinstance(r, Mapping) for r in data):
            return task_of_columns({str(k) for r in data for k in r}, what="the data")
    return None


def task_hint(models: Any = None, relations: Any = None) -> str | None:
    """The task the relations (else the embedded models, by name) belong to; ``None`` when
    they do not tell. Relations of different tasks are an :class:`InputError`."""
    from .registry import relation

    given = (
        [] if relations in (None, "all") else ([relations] if isinstance(relations, str) else list(relations))
    )
    found = {str(relation(r).task if isinstance(r, str) else getattr(r, "task", "")) for r in given}
    found.discard("")
    if len(found) > 1:
        raise InputError(
            f"the relations {[getattr(r, 'name', r) for r in given]} belong to different tasks {sorted(found)}; "
            "run one task at a time"
        )
    if found:
        return str(found.pop())
    return _models_task(models)


def _models_task(models: Any) -> str | None:
    if models is None or isinstance(models, Mapping):
        return None
    from .task import embedded_models

    names = [models] if isinstance(models, str) else list(models)
    known = embedded_models()
    owners = {known[n].task for n in names if isinstance(n, str) and n in known}
    return str(owners.pop()) if len(owners) == 1 else None


def infer_task(data: Any, models: Any = None, relations: Any = None, *, default: Any = None) -> str:
    """The task a widget (or a run) is for, when not given: the relations' task, else the
    data's (inputs, saved results, a table's columns), else the embedded models'.

    When nothing decides, ``default`` (a task name, or :data:`FIRST_TASK` for the first
    registered task) if given, else an :class:`InputError` that lists the registered tasks.
    """
    found = task_hint(None, relations) or _data_task(data) or _models_task(models)
    if found is not None:
        return found
    if default is FIRST_TASK:
        registered = task_names()
        if registered:
            return registered[0]
    elif default is not None:
        return _task(default).name
    raise _undecided("this data" if data is not None else "the widget")
