"""The Batch panel's set-up: which columns hold the text and the spans, checked before a run.

A mapping names the user's columns for the canonical fields :func:`mtwidgets.load_inputs`
reads: for relation extraction ``markup``, or ``text`` with offsets or mention strings
(optional entity types); for NER (mode ``ner``) ``text`` and an optional ``entities``
column of gold spans (``[{start, end, label}, ...]`` or its JSON string).
Column-level problems (a missing column, an offsets column with no integers) stop the run
with a message naming the column and the fix; row-level problems (a span past the end of
its text) skip that row and are reported by ``LoadedData.skipped``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..core.data import GOLD_COLUMNS, LoadedData, load_inputs
from ..core.errors import InputError

MODES: dict[str, tuple[str, ...]] = {
    "markup": ("markup",),
    "offsets": ("text", "head_start", "head_end", "tail_start", "tail_end"),
    "mentions": ("text", "head", "tail"),
    "ner": ("text",),
}
OPTIONAL: tuple[str, ...] = ("head_type", "tail_type")
# The optional fields of each mode (entity types for relation extraction, gold for NER).
MODE_OPTIONAL: dict[str, tuple[str, ...]] = {
    "markup": OPTIONAL,
    "offsets": OPTIONAL,
    "mentions": OPTIONAL,
    "ner": ("entities",),
}
TASK_MODES: dict[str, tuple[str, ...]] = {"re": ("markup", "offsets", "mentions"), "ner": ("ner",)}
OFFSETS: tuple[str, ...] = ("head_start", "head_end", "tail_start", "tail_end")
FIELDS: tuple[str, ...] = ("markup", "text", *OFFSETS, "head", "tail", *OPTIONAL, "entities")


def modes_for(task: str | None) -> tuple[str, ...]:
    """The mapping modes that fit a task (every mode when the task is not known)."""
    return TASK_MODES.get(task or "", tuple(MODES)) if task else tuple(MODES)


def guess_mapping(columns: list[str], task: str = "re") -> dict[str, str]:
    """The mapping a frame's own column names suggest (same-named columns), else empty fields.

    For NER the gold column may go by a few usual names (``entities``, ``gold``, ...).
    """
    cols = set(columns)
    if task == "ner":
        gold = next((c for c in GOLD_COLUMNS if c in cols), "")
        return {
            "mode": "ner",
            **{f: "" for f in FIELDS},
            "text": "text" if "text" in cols else "",
            "entities": gold,
        }
    mode = next((m for m, need in MODES.items() if m in TASK_MODES["re"] and set(need) <= cols), "markup")
    out = {"mode": mode, **{f: (f if f in cols else "") for f in FIELDS if f != "entities"}}
    return out


def check_mapping(frame: pd.DataFrame, mapping: Mapping[str, str], task: str | None = None) -> dict[str, str]:
    """Validate ``mapping`` against ``frame``; return it normalised, or raise InputError.

    Every problem found is listed in one message, so a user fixes them in one go.
    """
    mode = mapping.get("mode", "")
    modes = modes_for(task)
    if mode not in modes:
        raise InputError(
            f"column mapping mode {mode!r} does not fit {task or 'this'} data; choose one of {', '.join(modes)}"
        )
    columns = [str(c) for c in frame.columns]
    problems: list[str] = []
    out = {"mode": mode}
    for field in (*MODES[mode], *MODE_OPTIONAL[mode]):
        col = str(mapping.get(field) or "")
        if not col:
            if field not in MODE_OPTIONAL[mode]:
                problems.append(f"choose the column holding {field!r}")
            continue
        if col not in columns:
            problems.append(f"{field!r} is mapped to column {col!r}, which the data does not have")
            continue
        if out.get("text") == col and field == "entities":
            problems.append(
                f"'entities' and 'text' are both mapped to column {col!r}; map 'entities' to the gold spans"
            )
            continue
        out[field] = col
        problem = _column_type_problem(frame[col], field, col)
        if problem:
            problems.append(problem)
    if problems:
        raise InputError(
            "the column mapping needs fixing: " + "; ".join(problems) + f" (the data's columns: {columns})"
        )
    return out


def _column_type_problem(values: pd.Series, field: str, col: str) -> str | None:
    present = values.dropna()
    if not len(present):
        return f"column {col!r} (for {field!r}) is empty"
    if field == "entities":
        # Lists of {start, end, label} (or their JSON strings); a bad cell skips its row only.
        if not any(isinstance(v, (str, list, tuple)) or hasattr(v, "tolist") for v in present.head(50)):
            return (
                f"column {col!r} (for 'entities') holds {values.dtype} values (e.g. {present.iloc[0]!r}), not "
                "lists of {start, end, label}; map it to the gold-entities column or leave it empty"
            )
        return None
    if field in OFFSETS:
        numeric = pd.to_numeric(present, errors="coerce")
        if numeric.isna().all():
            return (
                f"column {col!r} (for {field!r}) holds no integers (dtype {values.dtype}, e.g. "
                f"{present.iloc[0]!r}); map the character offsets to integer columns"
            )
        return None
    if not any(isinstance(v, str) for v in present.head(50)):
        return (
            f"column {col!r} (for {field!r}) holds {values.dtype} values (e.g. {present.iloc[0]!r}), "
            "not text; map it to a text column"
        )
    return None


def mapped_frame(frame: pd.DataFrame, mapping: Mapping[str, str]) -> pd.DataFrame:
    """The user's rows under the canonical column names, index (row labels) kept."""
    fields = [f for f in (*MODES[mapping["mode"]], *MODE_OPTIONAL[mapping["mode"]]) if mapping.get(f)]
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
    data: Any, mapping: Mapping[str, str] | None, *, task: str | None, sample: int | None, seed: int
) -> LoadedData:
    """Data + mapping -> inputs, bad rows skipped and reported (never raised one by one)."""
    if isinstance(data, pd.DataFrame):
        if mapping is None:
            raise InputError("give a column mapping for a DataFrame")
        frame = sample_frame(mapped_frame(data, check_mapping(data, mapping, task)), sample, seed)
        return load_inputs(frame, task=task, on_bad="skip")
    if sample:
        data = list(data)
        picked = sample_frame(pd.DataFrame({"i": range(len(data))}), sample, seed)["i"]
        data = [data[i] for i in picked]
    return load_inputs(data, task=task, on_bad="skip")
