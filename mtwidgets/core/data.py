"""Reading user data into typed inputs, with a report of the rows that could not be read.

Accepted: a list of inputs; a list of markup strings; a list of dicts; a pandas DataFrame;
a CSV or JSONL path. For relation extraction a row gives either ``markup`` or ``text``
with the head/tail as offsets (``head_start``, ``head_end``, ``tail_start``, ``tail_end``)
or as mention strings (``head``, ``tail``), optionally ``head_type``/``tail_type``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError
from .inputs import BaseInput, RelationInput, TextInput, input_from_dict

_OFFSET_COLUMNS = ("head_start", "head_end", "tail_start", "tail_end")
_TEXT_COLUMNS = ("markup", "text", "head", "tail", "head_type", "tail_type")
# Column names that commonly hold NER gold spans, most specific first.
GOLD_COLUMNS: tuple[str, ...] = ("entities", "gold", "ents", "spans", "ner")


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


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def row_to_input(row: Mapping[str, Any] | str | BaseInput, task: str | None = "re") -> BaseInput:
    """One row -> one input, or an :class:`InputError` that says what is wrong with it."""
    if isinstance(row, BaseInput):
        return row
    if isinstance(row, str):
        return RelationInput.parse(row) if task in (None, "re") else TextInput(row)
    if not isinstance(row, Mapping):
        raise InputError(f"cannot read an input from {type(row).__name__} {row!r}")
    if "task" in row and "head" in row and isinstance(row.get("head"), Mapping):
        return input_from_dict(dict(row))
    if task == "ner":
        from ..ner.inputs import ner_input_from_row

        return ner_input_from_row(row)
    if task not in (None, "re"):
        if "text" not in row or _missing(row["text"]):
            raise InputError("the row has no 'text' column value")
        return TextInput(str(row["text"]))
    if "markup" in row and not _missing(row["markup"]):
        return RelationInput.parse(str(row["markup"]))
    if "text" not in row or _missing(row["text"]):
        raise InputError("the row has neither 'markup' nor 'text'")
    text = str(row["text"])
    types = {k: (None if _missing(row.get(k)) else str(row.get(k))) for k in ("head_type", "tail_type")}
    if all(c in row and not _missing(row[c]) for c in _OFFSET_COLUMNS):
        return RelationInput.create(
            text, (row["head_start"], row["head_end"]), (row["tail_start"], row["tail_end"]),
            types["head_type"], types["tail_type"],
            head_mention=None if _missing(row.get("head")) else str(row["head"]),
            tail_mention=None if _missing(row.get("tail")) else str(row["tail"]),
        )
    if not _missing(row.get("head")) and not _missing(row.get("tail")):
        return RelationInput.create(text, str(row["head"]), str(row["tail"]), types["head_type"], types["tail_type"])
    raise InputError(
        "the row has 'text' but no entities: give head_start/head_end/tail_start/tail_end offsets, "
        "head/tail mention strings, or a 'markup' column like [[head|TYPE]] ... <<tail|TYPE>>"
    )


def read_table(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a CSV, JSONL or Parquet file as dicts."""
    import pandas as pd

    p = Path(path)
    if not p.exists():
        raise InputError(f"data file {str(p)!r} does not exist")
    if p.suffix in (".jsonl", ".ndjson"):
        rows = []
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise InputError(f"{p}:{n}: not valid JSON ({exc.msg})") from None
        return rows
    if p.suffix == ".csv":
        # Mentions and types stay strings ("46" must not become 46.0 in a column with blank
        # cells, "NA" or "None" must not become missing); only empty cells are missing.
        frame = pd.read_csv(p, dtype=dict.fromkeys(_TEXT_COLUMNS, str), keep_default_na=False, na_values=[""])
        return frame.to_dict("records")  # type: ignore[no-any-return]
    if p.suffix == ".parquet":
        return pd.read_parquet(p).to_dict("records")  # type: ignore[no-any-return]
    raise InputError(f"unsupported data file {p.name!r}: use .csv, .jsonl or .parquet")


def load_inputs(data: Any, *, task: str | None = "re", on_bad: str = "raise") -> LoadedData:
    """Read ``data`` into inputs. ``on_bad="skip"`` skips bad rows and reports them."""
    if on_bad not in ("raise", "skip"):
        raise ValueError(f"on_bad must be 'raise' or 'skip', got {on_bad!r}")
    if isinstance(data, (str, Path)) and Path(str(data)).suffix in (".csv", ".jsonl", ".ndjson", ".parquet"):
        items: Iterable[tuple[Any, Any]] = enumerate(read_table(data))
    elif isinstance(data, BaseInput):
        items = [(0, data)]
    elif hasattr(data, "to_dict") and hasattr(data, "columns"):
        if task in (None, "re"):
            usable = {"markup", "text"} & set(map(str, data.columns))
            if not usable:
                raise InputError(
                    f"the DataFrame has columns {list(data.columns)}; it needs a 'markup' column or a "
                    "'text' column with head/tail offsets or mentions"
                )
        items = zip(data.index, data.to_dict("records"))
    elif isinstance(data, Iterable) and not isinstance(data, (str, bytes, Mapping)):
        items = enumerate(data)
    else:
        raise InputError(
            f"cannot read inputs from {type(data).__name__}; give a DataFrame, a list of inputs or "
            "markup strings, or a .csv/.jsonl path"
        )
    out = LoadedData([], [])
    for label, row in items:
        try:
            out.inputs.append(row_to_input(row, task))
            out.rows.append(label)
        except (InputError, TypeError, ValueError) as exc:
            if on_bad == "raise":
                raise InputError(f"row {label}: {exc}") from None
            out.skipped.append((label, str(exc)))
    if not out.inputs:
        detail = f" ({out.skipped_summary()})" if out.skipped else ""
        raise InputError(f"no usable inputs in the data{detail}")
    return out


def infer_task(data: Any, models: Any = None, relations: Any = None) -> str:
    """The task a widget is for, when not given: the relations' task, else the inputs', else
    the embedded models', else relation extraction.

    A frame with a gold-entities column and no relation-extraction column is NER data.
    """
    from .registry import relation
    from .results import Results

    given = (
        [] if relations in (None, "all") else ([relations] if isinstance(relations, str) else list(relations))
    )
    tasks = {str(relation(r).task if isinstance(r, str) else getattr(r, "task", "")) for r in given}
    tasks.discard("")
    if len(tasks) > 1:
        raise InputError(
            f"the relations {[getattr(r, 'name', r) for r in given]} belong to different tasks {sorted(tasks)}; "
            "run one task per widget"
        )
    if tasks:
        return str(tasks.pop())
    if isinstance(data, BaseInput):
        return data.task
    if isinstance(data, Results) and len(data.frame):
        return str(data.frame["task"].iloc[0])
    if hasattr(data, "columns") and hasattr(data, "to_dict"):
        cols = {str(c) for c in data.columns}
        re_cols = {"markup", "head", "tail", *_OFFSET_COLUMNS}
        if cols & set(GOLD_COLUMNS) and "text" in cols and not cols & re_cols:
            return "ner"
    elif isinstance(data, (list, tuple)) and data and isinstance(data[0], BaseInput):
        return str(data[0].task)
    if models is not None and not isinstance(models, Mapping):
        from ..models import describe

        names = [models] if isinstance(models, str) else list(models)
        table = describe()
        known = dict(zip(table["name"], table["task"]))
        found = {known[n] for n in names if n in known}
        if len(found) == 1:
            return str(found.pop())
    return "re"
