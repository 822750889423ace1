"""The Batch panel's set-up: which columns hold an input's fields, checked before a run.

A mapping names the user's columns for the canonical fields :func:`mtwidgets.load_inputs`
reads, in one of the task's column modes (``Task.column_modes``: e.g. relation extraction's
``markup``, or ``text`` with offsets or mention strings; NER's ``text`` with an optional
gold-entities column). The front end builds its form from the same declaration.
Column-level problems (a missing column, an offsets column with no integers) stop the run
with a message naming the column and the fix; row-level problems (a span past the end of
its text) skip that row and are reported by ``LoadedData.skipped``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..core.batch_view import parts_of
from ..core.data import LoadedData, load_inputs
from ..core.errors import InputError
from ..core.task import ColumnMode, Field, Task, get_task


def modes_for(task: str | Task) -> tuple[ColumnMode, ...]:
    """The column mapping modes of a task (its declaration's ``column_modes``)."""
    return tuple(get_task(task).column_modes)


def modes_data(task: str | Task) -> list[dict[str, Any]]:
    """The modes as the front end receives them: ``[{name, title, fields: [{name, help, required}]}]``."""
    return [m.to_dict() for m in modes_for(task)]


def _guess(field: Field, cols: set[str]) -> str:
    return next((c for c in (field.name, *field.aliases) if c in cols), "")


def guess_mapping(columns: list[str], task: str | Task) -> dict[str, str]:
    """The mapping a frame's own column names suggest: each field's same-named column (or
    one of its declared aliases, e.g. ``gold`` for NER's ``entities``), else empty; the mode
    is the first whose required fields all have a column (else the first mode)."""
    cols = set(columns)
    modes = modes_for(task)
    if not modes:
        return {}
    mode = next((m for m in modes if all(_guess(f, cols) for f in m.fields if f.required)), modes[0])
    out = {"mode": mode.name}
    for m in modes:
        for f in m.fields:
            out.setdefault(f.name, _guess(f, cols))
    # the chosen mode's guesses win over another mode's same-named field
    out.update({f.name: _guess(f, cols) for f in mode.fields})
    return out


def check_mapping(frame: pd.DataFrame, mapping: Mapping[str, str], task: str | Task) -> dict[str, str]:
    """Validate ``mapping`` against ``frame``; return it normalised, or raise InputError.

    Every problem found is listed in one message, so a user fixes them in one go.
    """
    t = get_task(task)
    mode_name = mapping.get("mode", "")
    modes = modes_for(t)
    mode = next((m for m in modes if m.name == mode_name), None)
    if mode is None:
        raise InputError(
            f"column mapping mode {mode_name!r} does not fit {t.name} data; "
            f"choose one of {', '.join(m.name for m in modes)}"
        )
    parts = parts_of(t)
    columns = [str(c) for c in frame.columns]
    problems: list[str] = []
    out = {"mode": mode.name}
    for field in mode.fields:
        col = str(mapping.get(field.name) or "")
        if not col:
            if field.required:
                problems.append(f"choose the column holding {field.name!r}")
            continue
        if col not in columns:
            problems.append(f"{field.name!r} is mapped to column {col!r}, which the data does not have")
            continue
        problem = parts.check_column(field, frame[col], col)
        if problem:
            problems.append(problem)
        out[field.name] = col
    whole = parts.check_mapping({k: v for k, v in out.items() if k != "mode"})
    problems.extend(whole)
    if problems:
        raise InputError(
            "the column mapping needs fixing: " + "; ".join(problems) + f" (the data's columns: {columns})"
        )
    return out


def mapped_frame(frame: pd.DataFrame, mapping: Mapping[str, str], task: str | Task) -> pd.DataFrame:
    """The user's rows under the canonical column names, index (row labels) kept."""
    mode = get_task(task).mode(mapping["mode"])
    fields = [f.name for f in mode.fields if mapping.get(f.name)]
    return pd.DataFrame({f: frame[mapping[f]] for f in fields}, index=frame.index)


def sample_frame(frame: pd.DataFrame, size: int | None, seed: int) -> pd.DataFrame:
    """``size`` rows drawn without replacement, fixed by ``seed``, in their original order."""
    if not size or size >= len(frame):
        return frame
    if size < 0:
        raise InputError(f"sample size must be a positive number of rows (or 0 for all), got {size}")
    import numpy as np

    picked = np.sort(np.random.default_rng(seed).choice(len(frame), size=size, replace=False))
    return frame.iloc[picked]


def load(
    data: Any, mapping: Mapping[str, str] | None, *, task: str, sample: int | None, seed: int
) -> LoadedData:
    """Data + mapping -> inputs, bad rows skipped and reported (never raised one by one)."""
    if isinstance(data, pd.DataFrame):
        if mapping is None:
            raise InputError("give a column mapping for a DataFrame")
        frame = sample_frame(mapped_frame(data, check_mapping(data, mapping, task), task), sample, seed)
        return load_inputs(frame, task=task, on_bad="skip")
    if sample and isinstance(data, LoadedData):  # keep the user's row labels of the picked inputs
        picked = sample_frame(pd.DataFrame({"i": range(len(data.inputs))}), sample, seed)["i"]
        data = LoadedData([data.inputs[i] for i in picked], [data.rows[i] for i in picked], list(data.skipped))
    elif sample:
        data = list(data)
        picked = sample_frame(pd.DataFrame({"i": range(len(data))}), sample, seed)["i"]
        data = [data[i] for i in picked]
    return load_inputs(data, task=task, on_bad="skip")
