"""Tidy results: one row per metamorphic group per model, a summary, lossless save/load.

Aggregated relations (pairwise systematicity, three-way transitivity: far more test cases
than model inputs) store counts instead, one row per relation, model and slice in
:attr:`Results.aggregates` (:mod:`mtwidgets.core.aggregate`); the summary shows both.

Charts, reports and widgets read these frames; they never recompute predictions or
verdicts.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .aggregate import AGGREGATE_COLUMNS, OVERALL, aggregate_frame, empty_aggregates
from .data import json_lines, read_csv_file, read_parquet_file
from .errors import InputError, ModelError
from .inputs import input_from_dict
from .predictions import Prediction
from .relation import VERDICTS, Check, Group
from .stats import wilson_interval

COLUMNS: tuple[str, ...] = (
    "relation", "task", "model", "group", "source_index", "source_text", "followup_text",
    "source_label", "followup_label", "expected", "verdict", "reason", "note", "seed",
    "sources", "followups", "source_outputs", "followup_outputs", "meta",
)
# Nested columns (lists/dicts) travel as JSON strings in Parquet and CSV.
NESTED: tuple[str, ...] = ("sources", "followups", "source_outputs", "followup_outputs", "meta")
RESULT_SUFFIXES: tuple[str, ...] = (".jsonl", ".ndjson", ".parquet", ".csv")
_WHAT = "results file"
_FROM_SAVE = "Results.load reads the files Results.save (or the CLI's --out) writes"
SUMMARY_COLUMNS: tuple[str, ...] = (
    "relation", "model", "groups", "violations", "passes", "not_applicable", "errors", "vr", "vr_low", "vr_high",
)
# A saved results file holds each aggregate row as one record of the group-row shape with
# this verdict (the counts, examples and detail in ``meta``), after the group rows; loading
# moves them back to ``Results.aggregates``. Files without aggregates are as before.
AGGREGATE_VERDICT = "aggregate"
# What an aggregate row keeps in ``meta`` (relation, task and model have their own columns;
# tests and safety are recomputed from the counts).
_AGGREGATE_META: tuple[str, ...] = tuple(
    c for c in AGGREGATE_COLUMNS if c not in ("relation", "task", "model", "tests", "safety")
)
# The columns an aggregates frame can be summarised by.
_AGGREGATE_KEYS: frozenset[str] = frozenset({"relation", "task", "model", "slice"})


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    return value


def make_row(
    group: Group, model: str, source_outputs: Sequence[Prediction], followup_outputs: Sequence[Prediction], check: Check
) -> dict[str, Any]:
    """The results-frame row of one evaluated group."""
    return {
        "relation": group.relation,
        "task": group.sources[0].task if group.sources else "",
        "model": model,
        "group": group.id,
        "source_index": _jsonable(group.source_index),
        "source_text": " || ".join(s.display() for s in group.sources),
        "followup_text": " || ".join(f.display() for f in group.followups),
        "source_label": source_outputs[0].label if source_outputs else None,
        "followup_label": followup_outputs[0].label if followup_outputs else None,
        "expected": check.expected,
        "verdict": check.verdict,
        "reason": check.reason,
        "note": group.note,
        "seed": group.seed,
        "sources": [s.to_dict() for s in group.sources],
        "followups": [f.to_dict() for f in group.followups],
        "source_outputs": [p.to_dict(vector=False) for p in source_outputs],
        "followup_outputs": [p.to_dict(vector=False) for p in followup_outputs],
        "meta": _jsonable(dict(group.meta)),
    }


class Results:
    """What a run produced.

    Attributes
    ----------
    frame:
        One row per group and model (see ``COLUMNS``); nested columns hold plain lists and
        dicts (inputs and predictions as ``to_dict()``).
    errors:
        The :class:`ModelError` of each input a model failed on (their groups have verdict
        ``error``).
    skipped:
        ``(row, reason)`` for data rows that could not be read.
    aggregates:
        The counts of aggregated relations: one row per relation, model and slice (see
        :mod:`mtwidgets.core.aggregate` for the columns); empty when none ran.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        *,
        errors: Sequence[ModelError] = (),
        skipped: Sequence[Any] = (),
        aggregates: pd.DataFrame | Sequence[dict[str, Any]] | None = None,
    ) -> None:
        missing = [c for c in COLUMNS if c not in frame.columns]
        if missing:
            raise InputError(f"a results frame needs the columns {missing}")
        self.frame = frame.reset_index(drop=True)
        self.errors = list(errors)
        self.skipped = list(skipped)
        self.aggregates = aggregate_frame(aggregates)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def empty(cls) -> Results:
        return cls(pd.DataFrame({c: pd.Series(dtype=object) for c in COLUMNS}))

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[dict[str, Any]],
        *,
        errors: Sequence[ModelError] = (),
        aggregates: pd.DataFrame | Sequence[dict[str, Any]] | None = None,
    ) -> Results:
        frame = pd.DataFrame(list(rows), columns=list(COLUMNS)) if rows else cls.empty().frame
        return cls(frame, errors=errors, aggregates=aggregates)

    @classmethod
    def concat(cls, parts: Sequence[Results]) -> Results:
        """The group rows, errors, skipped rows and aggregate rows of ``parts`` together. A
        relation, model and slice aggregated in two parts is an :class:`InputError` (its
        counts cannot be added: the pairs across the two parts were never tested)."""
        frames = [p.frame for p in parts if len(p.frame)]
        frame = pd.concat(frames, ignore_index=True) if frames else cls.empty().frame
        aggregates = [p.aggregates for p in parts if len(p.aggregates)]
        return cls(
            frame,
            errors=[e for p in parts for e in p.errors],
            skipped=[s for p in parts for s in p.skipped],
            aggregates=pd.concat(aggregates, ignore_index=True) if aggregates else None,
        )

    def without_errors(self) -> Results:
        return Results(self.frame[self.frame["verdict"] != "error"], skipped=self.skipped, aggregates=self.aggregates)

    # -- views ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.frame)

    def __repr__(self) -> str:
        counts = self.frame["verdict"].value_counts().to_dict() if len(self.frame) else {}
        text = f"<Results {len(self.frame)} groups {counts}"
        if len(self.aggregates):
            relations = ", ".join(dict.fromkeys(self.aggregates["relation"]))
            text += f"; aggregated: {relations} ({len(self.aggregates)} rows)"
        return text + ">"

    def violations(self) -> pd.DataFrame:
        return self.frame[self.frame["verdict"] == "violation"]

    def summary(self, by: Sequence[str] = ("relation", "model"), overall: bool = True) -> pd.DataFrame:
        """Per relation x model: groups (pass + violation, the paper's MGs), violations,
        passes, not_applicable, errors, VR with a 95% Wilson interval; plus an ``Overall``
        row per model (all its groups pooled, like the paper's Table 6).

        Aggregated relations come after, with the same columns read from their
        ``"overall"`` slice: ``groups`` is the number of test cases evaluated (e.g. pairs
        of sources), ``passes`` the satisfied ones, VR = violations / (satisfied +
        violations). They stay out of ``Overall``, whose unit is one group: pooling them
        would let the ``k^2`` pairs of one relation swamp every other relation.

        ``by`` may name ``"slice"`` (``by=("relation", "model", "slice")``): an aggregated
        relation's slices get a row each, a per-group relation has the one slice
        ``"overall"``. A ``by`` naming a column aggregated relations do not have (e.g.
        ``"source_label"``) leaves them out."""
        by = list(by)
        f = self.frame.assign(slice=OVERALL) if "slice" in by and "slice" not in self.frame.columns else self.frame
        aggregated = self._aggregate_counts(by)
        if not len(f) and aggregated is None:
            return pd.DataFrame(columns=[*by, *SUMMARY_COLUMNS[2:]])
        parts = []
        if len(f):
            parts.append(_counts(f, by))
            if overall and "relation" in by:
                rest = [c for c in by if c != "relation"]
                total = _counts(f, rest) if rest else _counts(f.assign(_all=1), ["_all"]).drop(columns="_all")
                total.insert(0, "relation", "Overall")
                parts.append(total)
        if aggregated is not None:
            parts.append(aggregated)
        out = pd.concat(parts, ignore_index=True)
        bounds = [wilson_interval(int(v), int(n)) for v, n in zip(out["violations"], out["groups"])]
        out["vr"] = [(v / n) if n else float("nan") for v, n in zip(out["violations"], out["groups"])]
        out["vr_low"] = [b[0] for b in bounds]
        out["vr_high"] = [b[1] for b in bounds]
        if "relation" in by:
            relations = [*dict.fromkeys(f["relation"]), "Overall", *dict.fromkeys(self.aggregates["relation"])]
            order = {r: i for i, r in enumerate(dict.fromkeys(relations))}
            keys = ["_order", *[c for c in by if c != "relation"]]
            out["_order"] = out["relation"].map(order)
            if "slice" in by:  # "overall" first, then the slices in the order they were counted
                slices = {s: i for i, s in enumerate(dict.fromkeys([OVERALL, *self.aggregates["slice"]]))}
                out["_slice"] = out["slice"].map(slices)
                keys = [k if k != "slice" else "_slice" for k in keys]
            out = out.sort_values(keys, kind="stable").drop(columns=[c for c in ("_order", "_slice") if c in out])
        return out.reset_index(drop=True)

    def _aggregate_counts(self, by: list[str]) -> pd.DataFrame | None:
        """The aggregate rows counted like :func:`_counts` (``None`` when there are none or
        ``by`` names a column they lack); the ``"overall"`` slice unless ``by`` has ``slice``."""
        a = self.aggregates
        if not len(a) or not by or not set(by) <= _AGGREGATE_KEYS:
            return None
        if "slice" not in by:
            a = a[a["slice"] == OVERALL]
        tmp = a[by].assign(
            violations=a["violations"], passes=a["satisfied"], not_applicable=a["not_applicable"], errors=a["errors"]
        )
        out = tmp.groupby(by, sort=False, dropna=False).sum().reset_index()
        out.insert(len(by), "groups", out["violations"] + out["passes"])
        return out if len(out) else None

    def inputs(self, row: int) -> tuple[list[Any], list[Any]]:
        """The typed source and follow-up inputs of a frame row."""
        r = self.frame.iloc[row]
        return [input_from_dict(d) for d in r["sources"]], [input_from_dict(d) for d in r["followups"]]

    # -- persistence ----------------------------------------------------------------------
    def groups(self) -> list[Group]:
        """The distinct metamorphic groups of these results (one per group and follow-ups),
        so a saved suite, hand-crafted follow-ups included, can be checked on other models
        (``mt.run(suite, models=...)``)."""
        out: list[Group] = []
        seen: set[str] = set()
        for row in self.frame.to_dict("records"):
            key = json.dumps([row["group"], row["sources"], row["followups"]], sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            index = str(row["group"]).rsplit("/", 1)[-1]
            source_index = row.get("source_index")
            out.append(
                Group(
                    relation=str(row["relation"]),
                    index=int(index) if index.isdigit() else 0,
                    sources=tuple(input_from_dict(d) for d in row["sources"]),
                    followups=tuple(input_from_dict(d) for d in row["followups"]),
                    note=str(row.get("note") or ""),
                    seed=int(row.get("seed") or 0),
                    source_index=None if source_index is None or pd.isna(source_index) else source_index,
                    meta=dict(row.get("meta") or {}),
                    not_applicable=(str(row["reason"]) if not row["followups"] else None),
                )
            )
        return out

    def save(self, path: str | Path) -> Path:
        """Lossless: ``.jsonl`` or ``.parquet`` (nested columns as JSON); ``.csv`` for
        spreadsheets (also readable back). Aggregate rows follow the group rows, one record
        each with verdict ``"aggregate"`` and their counts in ``meta``.

        The file is written beside the target under a temporary name and then renamed, so an
        interrupted or failed save never leaves a truncated results file behind."""
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix not in RESULT_SUFFIXES:
            raise InputError(f"cannot save results as {p.name!r}: use .jsonl, .parquet or .csv")
        p.parent.mkdir(parents=True, exist_ok=True)
        # Created by the writer itself, so it gets the usual permissions (umask), not 0600.
        tmp = p.with_name(f".{p.stem}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp{suffix}")
        try:
            self._write(tmp, suffix)
            os.replace(tmp, p)
        finally:
            tmp.unlink(missing_ok=True)
        return p

    def _aggregate_records(self) -> list[dict[str, Any]]:
        """The aggregate rows as records of the group-row shape (see :data:`AGGREGATE_VERDICT`)."""
        out = []
        for row in self.aggregates.to_dict("records"):
            out.append({
                **dict.fromkeys(COLUMNS),
                "relation": row["relation"], "task": row["task"], "model": row["model"],
                "group": f"{row['relation']}/{AGGREGATE_VERDICT}/{row['slice']}",
                "source_text": "", "followup_text": "", "verdict": AGGREGATE_VERDICT, "reason": "", "note": "",
                "seed": 0, "sources": [], "followups": [], "source_outputs": [], "followup_outputs": [],
                "meta": {c: row[c] for c in _AGGREGATE_META},
            })
        return out

    def _write(self, p: Path, suffix: str) -> None:
        extra = self._aggregate_records()
        if suffix in (".jsonl", ".ndjson"):
            with p.open("w", encoding="utf-8", newline="\n") as fh:
                for rec in [*self.frame.to_dict("records"), *extra]:
                    fh.write(json.dumps(_jsonable(rec), ensure_ascii=False) + "\n")
            return
        flat = self.frame.copy()
        if extra:
            more = pd.DataFrame(extra, columns=list(COLUMNS))
            flat = pd.concat([flat, more], ignore_index=True) if len(flat) else more
        for c in NESTED:
            flat[c] = [json.dumps(_jsonable(v), ensure_ascii=False) for v in flat[c]]
        flat["source_index"] = [json.dumps(_jsonable(v)) for v in flat["source_index"]]
        if suffix == ".parquet":
            flat.to_parquet(p, index=False)
        else:
            flat.to_csv(p, index=False, lineterminator="\n")

    @classmethod
    def load(cls, path: str | Path) -> Results:
        """Results saved by :meth:`save`. A file that is not one (unreadable, malformed,
        missing columns, a nested column that is not JSON) is an :class:`InputError` naming
        the file, the line or row, and what is wrong."""
        p = Path(path)
        shown = repr(str(p))
        if not p.exists():
            raise InputError(f"results file {shown} does not exist")
        if p.is_dir():
            raise InputError(f"results file {shown} is a folder; give a .jsonl, .parquet or .csv results file")
        suffix = p.suffix.lower()
        if suffix in (".jsonl", ".ndjson"):
            records = []
            aggregates = []
            for n, rec in json_lines(p, what=_WHAT):
                missing = [c for c in COLUMNS if c not in rec]
                if missing:
                    raise InputError(f"{p}:{n}: missing columns {missing}; {_FROM_SAVE}")
                if rec["verdict"] == AGGREGATE_VERDICT:
                    aggregates.append(_aggregate_from_record(rec, f"{p}:{n}"))
                    continue
                _check_record(rec, f"{p}:{n}")
                records.append(rec)
            frame = pd.DataFrame(records, columns=list(COLUMNS)) if records else cls.empty().frame
            return cls(frame, aggregates=_loaded_aggregates(aggregates, shown))
        if suffix in (".parquet", ".csv"):
            if suffix == ".parquet":
                frame = read_parquet_file(p, what=_WHAT)
            else:
                frame = read_csv_file(p, what=_WHAT, keep_default_na=False, dtype=str)
            missing = [c for c in COLUMNS if c not in frame.columns]
            if missing:
                raise InputError(f"results file {shown}: missing columns {missing}; {_FROM_SAVE}")
            for c in (*NESTED, "source_index"):
                frame[c] = [_cell_json(v, f"results file {shown}, row {i}, column {c!r}") for i, v in enumerate(frame[c])]
            if suffix == ".csv":
                for c in ("source_label", "followup_label", "expected"):
                    frame[c] = [v if v != "" else None for v in frame[c]]
                frame["seed"] = [_cell_int(v, f"results file {shown}, row {i}, column 'seed'")
                                 for i, v in enumerate(frame["seed"])]
            aggregates = []
            for i, rec in enumerate(frame.to_dict("records")):
                where = f"results file {shown}, row {i}"
                if rec["verdict"] == AGGREGATE_VERDICT:
                    aggregates.append(_aggregate_from_record(rec, where))
                else:
                    _check_record(rec, where)
            if aggregates:
                frame = frame[frame["verdict"] != AGGREGATE_VERDICT]
            return cls(frame.astype({"seed": "int64"}), aggregates=_loaded_aggregates(aggregates, shown))
        raise InputError(f"cannot load results from {p.name!r}: use .jsonl, .parquet or .csv")

    # -- presentation ---------------------------------------------------------------------
    def chart(self, **kwargs: Any) -> Any:
        """The violation-rate chart of :meth:`summary` (``mtwidgets.charts.vr_chart``)."""
        return _presenter("chart")(self.summary(), **kwargs)

    def report(self, path: str | Path, *, title: str = "mtwidgets report", **options: Any) -> Path:
        """A standalone HTML report (``mtwidgets.report.write_report``)."""
        return _presenter("report")(self, path, title=title, **options)  # type: ignore[no-any-return]


# Presentation (charts, reports) lives above the engine; the mtwidgets package plugs it in
# when it is imported, so the engine never imports upwards.
_PRESENTERS: dict[str, Callable[..., Any]] = {}


def set_presenter(name: str, fn: Callable[..., Any]) -> None:
    """Plug in how :class:`Results` presents itself: ``"chart"`` (summary frame -> chart)
    or ``"report"`` (results, path, title=..., ...) -> path)."""
    _PRESENTERS[name] = fn


def _presenter(name: str) -> Callable[..., Any]:
    if name not in _PRESENTERS:
        raise RuntimeError(f"no {name} presenter is plugged in; import mtwidgets first")
    return _PRESENTERS[name]


def _aggregate_from_record(rec: dict[str, Any], where: str) -> dict[str, Any]:
    """The aggregate row a saved ``"aggregate"`` record holds (checked by ``aggregate_frame``)."""
    meta = rec.get("meta")
    if not isinstance(meta, dict):
        raise InputError(f"{where}: an aggregate record keeps its counts in 'meta', got {_brief(meta)}; {_FROM_SAVE}")
    return {**meta, "relation": rec["relation"], "task": rec["task"], "model": rec["model"]}


def _loaded_aggregates(rows: list[dict[str, Any]], shown: str) -> pd.DataFrame:
    return aggregate_frame(rows, where=f"results file {shown}") if rows else empty_aggregates()


def _cell_json(value: Any, where: str) -> Any:
    if not isinstance(value, str):
        raise InputError(f"{where}: expected a JSON string, got {type(value).__name__}; {_FROM_SAVE}")
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON ({exc.msg} at character {exc.pos}); {_FROM_SAVE}") from None


def _cell_int(value: Any, where: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InputError(f"{where}: expected a whole number, got {value!r}; {_FROM_SAVE}") from None


def _check_record(rec: dict[str, Any], where: str) -> None:
    """The value types :meth:`Results.load` relies on, per column, or an :class:`InputError`."""
    for c in ("sources", "followups", "source_outputs", "followup_outputs"):
        value = rec[c]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise InputError(f"{where}: column {c!r} must be a list of objects, got {_brief(value)}; {_FROM_SAVE}")
    for c in ("sources", "followups"):
        bad = [i for i, d in enumerate(rec[c]) if not isinstance(d.get("task"), str)]
        if bad:
            raise InputError(f"{where}: column {c!r}, item {bad[0]} has no 'task' key; {_FROM_SAVE}")
    if not isinstance(rec["meta"], dict):
        raise InputError(f"{where}: column 'meta' must be an object, got {_brief(rec['meta'])}; {_FROM_SAVE}")
    if rec["verdict"] not in VERDICTS:
        raise InputError(f"{where}: column 'verdict' is {_brief(rec['verdict'])}, not one of {list(VERDICTS)}")
    seed = rec["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError(f"{where}: column 'seed' must be a whole number, got {_brief(seed)}; {_FROM_SAVE}")
    for c in ("relation", "group", "model"):
        if not isinstance(rec[c], str):
            raise InputError(f"{where}: column {c!r} must be a string, got {_brief(rec[c])}; {_FROM_SAVE}")


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _counts(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    verdict = frame["verdict"]
    tmp = frame[by].assign(
        violations=(verdict == "violation").astype(int),
        passes=(verdict == "pass").astype(int),
        not_applicable=(verdict == "not_applicable").astype(int),
        errors=(verdict == "error").astype(int),
    )
    out = tmp.groupby(by, sort=False, dropna=False).sum().reset_index()
    out.insert(len(by), "groups", out["violations"] + out["passes"])
    return out
