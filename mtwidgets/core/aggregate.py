"""Aggregated relations: counts over many test cases instead of one row per group.

Some relations test far more cases than they have model inputs. Pairwise systematicity over
``k`` sources tests ``k(k - 1)`` ordered pairs with ``2k`` model calls; three-way transitivity
over ``n`` words tests ``n^3`` triplets. Writing one results row per case would cost more than
the model, so such a relation is *aggregated*: the runner builds and predicts its groups as
usual (each distinct input once per model, batched and cached), then hands every evaluated
group of the relation to the relation's ``aggregate`` callable, which returns *aggregate rows*:
counts per slice, never one row per case.

The aggregate row (one per relation x model x slice) is the contract shared by every
aggregated relation:

``relation``, ``task``, ``model``
    as in the results frame;
``slice``
    ``"overall"`` (every case of the relation) or ``"<key>=<value>"`` (e.g.
    ``"transformation=start: Thank you."``, ``"context=..."``, ``"language=en"``);
``tests``
    the cases evaluated: ``satisfied + violations``;
``satisfied``, ``violations``
    cases whose output property held / failed;
``not_applicable``
    cases that could not be tested (a source the transformation refuses, a model output
    without the score the property reads);
``errors``
    cases whose inputs the model failed on (optional in a row given to
    :func:`aggregate_row`; 0 when absent);
``safety``
    ``satisfied / tests`` (the paper's "safety"), NaN when nothing was tested; always
    recomputed from the counts;
``examples``
    a small deterministic sample of cases for display (a list of JSON-able dicts);
``detail``
    anything else for display (a JSON-able dict), e.g. per-source violation counts of the
    worst sources (the paper's Table 2).

:func:`aggregate_row` builds one such row and checks it; :func:`aggregate_frame` turns rows
into the ``Results.aggregates`` frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd

from .errors import InputError
from .predictions import Prediction
from .relation import Group

if TYPE_CHECKING:
    from .relation import MetamorphicRelation

__all__ = [
    "AGGREGATE_COLUMNS",
    "COUNT_COLUMNS",
    "OVERALL",
    "Aggregator",
    "Status",
    "Evaluated",
    "aggregate_frame",
    "aggregate_row",
    "empty_aggregates",
    "safety",
    "slice_name",
]

AGGREGATE_COLUMNS: tuple[str, ...] = (
    "relation", "task", "model", "slice", "tests", "satisfied", "violations", "not_applicable", "errors",
    "safety", "examples", "detail",
)
# The integer counts of a row; ``tests`` is always ``satisfied + violations``.
COUNT_COLUMNS: tuple[str, ...] = ("tests", "satisfied", "violations", "not_applicable", "errors")
OVERALL = "overall"

Status = Literal["ok", "not_applicable", "error"]


@dataclass(frozen=True)
class Evaluated:
    """One group of an aggregated relation after the model ran on it.

    ``status`` is ``"ok"`` when every source and follow-up was predicted (the outputs are
    in ``source_outputs`` and ``followup_outputs``), ``"not_applicable"`` when the group
    could not be tested (no follow-up could be built, or the relation's precondition on the
    source outputs failed: ``source_outputs`` then holds what the model said of the
    sources, when it was asked), ``"error"`` when its relation raised while building it or
    the model failed on one of its inputs. ``reason`` says why for the last two.
    """

    group: Group
    source_outputs: tuple[Prediction, ...]
    followup_outputs: tuple[Prediction, ...]
    status: Status
    reason: str = ""


# (relation, model name, every evaluated group of the relation for that model) -> rows
# made with :func:`aggregate_row`.
Aggregator = Callable[["MetamorphicRelation", str, Sequence[Evaluated]], Sequence[Mapping[str, Any]]]


def slice_name(key: str, value: object) -> str:
    """``"<key>=<value>"``: the name of the slice of cases whose ``key`` is ``value``."""
    return f"{key}={value}"


def safety(satisfied: int, violations: int) -> float:
    """The share of satisfied cases among those tested (NaN when none was tested)."""
    tested = satisfied + violations
    return satisfied / tested if tested else math.nan


def _count(row: Mapping[str, Any], column: str, where: str) -> int:
    """``row[column]`` as a whole number >= 0 (missing: 0), or an :class:`InputError`."""
    value = row.get(column)
    if value is None:
        return 0
    whole = isinstance(value, Real) and not isinstance(value, bool) and float(value).is_integer()
    if not whole or value < 0:
        raise InputError(f"{where}: {column!r} must be a whole number >= 0, got {value!r}")
    return int(value)


def aggregate_row(
    *,
    relation: str,
    task: str,
    model: str,
    satisfied: int,
    violations: int,
    not_applicable: int = 0,
    errors: int = 0,
    slice: str = OVERALL,  # noqa: A002 - the contract's column name
    examples: Sequence[Mapping[str, Any]] = (),
    detail: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One checked aggregate row (see the module docstring); ``tests`` and ``safety`` are
    computed from the counts."""
    return _normalise(
        {"relation": relation, "task": task, "model": model, "slice": slice, "satisfied": satisfied,
         "violations": violations, "not_applicable": not_applicable, "errors": errors,
         "examples": list(examples), "detail": dict(detail or {})},
        "aggregate row",
    )


def _normalise(row: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A row in the contract's shape, or an :class:`InputError` saying what is wrong."""
    if not isinstance(row, Mapping):
        raise InputError(f"{where}: an aggregate row is a mapping, got {type(row).__name__}")
    out: dict[str, Any] = {}
    for column in ("relation", "task", "model", "slice"):
        value = row.get(column, OVERALL if column == "slice" else None)
        if not isinstance(value, str) or (column != "task" and not value):
            raise InputError(f"{where}: {column!r} must be a non-empty string, got {value!r}")
        out[column] = value
    where = f"{where} ({out['relation']}, {out['model']}, {out['slice']})"
    for column in ("satisfied", "violations", "not_applicable", "errors"):
        out[column] = _count(row, column, where)
    out["tests"] = out["satisfied"] + out["violations"]
    given = row.get("tests")
    if given is not None and _count(row, "tests", where) != out["tests"]:
        raise InputError(
            f"{where}: 'tests' is {given!r} but satisfied + violations is {out['tests']}; tests counts the "
            "cases evaluated (not-applicable and error cases have their own columns)"
        )
    out["safety"] = safety(out["satisfied"], out["violations"])
    examples = row.get("examples") or []
    if not isinstance(examples, (list, tuple)) or not all(isinstance(e, Mapping) for e in examples):
        raise InputError(f"{where}: 'examples' must be a list of dicts, got {_brief(examples)}")
    out["examples"] = [dict(e) for e in examples]
    detail = row.get("detail") or {}
    if not isinstance(detail, Mapping):
        raise InputError(f"{where}: 'detail' must be a dict, got {_brief(detail)}")
    out["detail"] = dict(detail)
    return {c: out[c] for c in AGGREGATE_COLUMNS}


def empty_aggregates() -> pd.DataFrame:
    """An aggregates frame without rows (every column present)."""
    frame = pd.DataFrame({c: pd.Series(dtype=object) for c in AGGREGATE_COLUMNS})
    return frame.astype({c: "int64" for c in COUNT_COLUMNS} | {"safety": "float64"})


def aggregate_frame(rows: pd.DataFrame | Iterable[Mapping[str, Any]] | None, *, where: str = "aggregates") -> pd.DataFrame:
    """The ``Results.aggregates`` frame of ``rows`` (mappings or a DataFrame), every row
    checked; ``None`` or no rows give the empty frame. One (relation, model, slice) may
    appear once only."""
    if rows is None:
        return empty_aggregates()
    records = rows.to_dict("records") if isinstance(rows, pd.DataFrame) else list(rows)
    if not records:
        return empty_aggregates()
    checked = [_normalise(r, f"{where}, row {i}") for i, r in enumerate(records)]
    seen: set[tuple[str, str, str]] = set()
    for r in checked:
        key = (r["relation"], r["model"], r["slice"])
        if key in seen:
            raise InputError(
                f"{where}: relation {key[0]!r}, model {key[1]!r}, slice {key[2]!r} appears twice; an aggregated "
                "relation counts all its cases in one row per slice (run it once over all the data)"
            )
        seen.add(key)
    frame = pd.DataFrame(checked, columns=list(AGGREGATE_COLUMNS))
    return frame.astype({c: "int64" for c in COUNT_COLUMNS} | {"safety": "float64"})


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
