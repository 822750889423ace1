"""The Batch panel's set-up: which columns hold the text and the spans, checked before a run.

A mapping names the user's columns for the canonical fields :func:`mtwidgets.load_inputs`
reads (``markup``; or ``text`` with offsets or mention strings; optional entity types).
Column-level problems (a missing column, an offsets column with no integers) stop the run
with a message naming the column and the fix; row-level problems (a span past the end of
its text) skip that row and are reported by ``LoadedData.skipped``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..core.data import LoadedData, load_inputs
from ..core.errors import InputError

MODES: dict[str, tuple[str, ...]] = {
    "markup": ("markup",),
    "offsets": ("text", "head_start", "head_end", "tail_start", "tail_end"),
    "mentions": ("text", "head", "tail"),
}
OPTIONAL: tuple[str, ...] = ("head_type", "tail_type")
OFFSETS: tuple[str, ...] = ("head_start", "head_end", "tail_start", "tail_end")
FIELDS: tuple[str, ...] = ("markup", "text", *OFFSETS, "head", "tail", *OPTIONAL)


def guess_mapping(columns: list[str]) -> dict[str, str]:
    """The mapping a frame's own column names suggest (same-named columns), else empty fields."""
    cols = set(columns)
    mode = next((m for m, need in MODES.items() if set(need) <= cols), "markup")
    out = {"mode": mode, **{f: (f if f in cols else "") for f in FIELDS}}
    return out


def check_mapping(frame: pd.DataFrame, mapping: Mapping[str, str]) -> dict[str, str]:
    """Validate ``mapping`` against ``frame``; return it normalised, or raise InputError.

    Every problem found is listed in one message, so a user fixes them in one go.
    """
    mode = mapping.get("mode", "")
    if mode not in MODES:
        raise InputError(f"column mapping mode {mode!r} is unknown; choose one of {', '.join(MODES)}")
    columns = [str(c) for c in frame.columns]
    problems: list[str] = []
    out = {"mode": mode}
    for field in (*MODES[mode], *OPTIONAL):
        col = str(mapping.get(field) or "")
        if not col:
            if field not in OPTIONAL:
                problems.append(f"choose the column holding {field!r}")
            continue
        if col not in columns:
            problems.append(f"{field!r} is mapped to column {col!r}, which the data does not have")
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
    fields = [f for f in (*MODES[mapping["mode"]], *OPTIONAL) if mapping.get(f)]
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
        frame = sample_frame(mapped_frame(data, check_mapping(data, mapping)), sample, seed)
        return load_inputs(frame, task=task, on_bad="skip")
    if sample:
        data = list(data)
        picked = sample_frame(pd.DataFrame({"i": range(len(data))}), sample, seed)["i"]
        data = [data[i] for i in picked]
    return load_inputs(data, task=task, on_bad="skip")
