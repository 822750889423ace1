"""The Batch panel's data side: running counts, summaries, table pages, word diffs.

Nothing here touches a widget. Counts are kept per (relation, model, source label, slice)
and added chunk by chunk, so the charts and the running VR are refreshed from a table of
a few hundred rows however many groups the run has produced; the full results frame is
only read when the user pages the table or opens a row.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ..core.stats import wilson_interval

KEYS: tuple[str, ...] = ("relation", "model", "source_label", "slice")
COUNTS: tuple[str, ...] = ("violations", "passes", "not_applicable", "errors")
NO_LABEL = "—"  # a group whose source got no prediction (not applicable before the model, error)
OTHER = "(other)"
MAX_SLICES = 30  # more distinct slice values than this are pooled into OTHER
MAX_TEXT = 300  # characters of a text cell sent to the browser per table row


def slice_values(frame: pd.DataFrame, slice_of: Mapping[Any, Any] | None) -> pd.Series:
    """The slice value of each results row: the user's column at the group's source row."""
    if slice_of is None:
        return pd.Series([""] * len(frame), index=frame.index, dtype=object)
    return pd.Series(
        [_slice_str(slice_of.get(_hashable(r))) for r in frame["source_index"]],
        index=frame.index,
        dtype=object,
    )


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _slice_str(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return NO_LABEL
    return str(value)


def source_labels(frame: pd.DataFrame) -> pd.Series:
    return frame["source_label"].astype(object).where(frame["source_label"].notna(), NO_LABEL).astype(str)


class Tally:
    """Verdict counts per (relation, model, source label, slice), added chunk by chunk."""

    def __init__(self, slice_of: Mapping[Any, Any] | None = None) -> None:
        self.slice_of = slice_of
        self._parts: list[pd.DataFrame] = []
        self._table: pd.DataFrame | None = None
        self.relations: list[str] = []  # first-seen order, as Results.summary orders them
        self.models: list[str] = []
        self._total = 0

    def add(self, frame: pd.DataFrame) -> None:
        if not len(frame):
            return
        v = frame["verdict"]
        tmp = pd.DataFrame(
            {
                "relation": frame["relation"].astype(str),
                "model": frame["model"].astype(str),
                "source_label": source_labels(frame),
                "slice": slice_values(frame, self.slice_of),
                "violations": (v == "violation").astype(int),
                "passes": (v == "pass").astype(int),
                "not_applicable": (v == "not_applicable").astype(int),
                "errors": (v == "error").astype(int),
            }
        )
        self._parts.append(tmp.groupby(list(KEYS), sort=False).sum().reset_index())
        self._total += len(frame)
        self._table = None
        for name, seen in (("relation", self.relations), ("model", self.models)):
            seen.extend(x for x in dict.fromkeys(tmp[name]) if x not in seen)

    @property
    def table(self) -> pd.DataFrame:
        if self._table is None:
            if not self._parts:
                self._table = pd.DataFrame(columns=[*KEYS, *COUNTS])
            else:
                whole = pd.concat(self._parts, ignore_index=True)
                self._table = whole.groupby(list(KEYS), sort=False).sum().reset_index()
                self._parts = [self._table]
        return self._table

    @property
    def total(self) -> int:
        """Groups counted so far (every verdict); kept as a running sum, read at ~10 Hz."""
        return self._total

    def summary(self, by: Sequence[str] = ("relation", "model"), *, overall: bool = True) -> pd.DataFrame:
        """The shape of ``Results.summary(by)``: counts, groups, VR and its 95% interval,
        plus an ``Overall`` row per model when grouping by relation."""
        return summarize(self.table, by, overall=overall, relations=self.relations)

    def slices_kept(self) -> set[str]:
        """The MAX_SLICES slice values with the most applicable groups (the charted ones)."""
        t = self.table
        if not len(t):
            return set()
        sizes = t.groupby("slice", sort=False)[["violations", "passes"]].sum().sum(axis=1)
        return set(sizes.sort_values(ascending=False, kind="stable").index[:MAX_SLICES])

    def slice_summary(self) -> pd.DataFrame:
        """VR per slice value x model; past MAX_SLICES values the rarest pool into OTHER."""
        t = self.table
        kept = self.slices_kept()
        if len(t) and t["slice"].nunique() > MAX_SLICES:
            t = t.assign(slice=[s if s in kept else OTHER for s in t["slice"]])
        return summarize(t, ("slice", "model"), overall=False, relations=self.relations)


def summarize(
    table: pd.DataFrame, by: Sequence[str], *, overall: bool, relations: Sequence[str] = ()
) -> pd.DataFrame:
    """Counts grouped by ``by`` with groups (pass + violation), VR and Wilson bounds."""
    by = list(by)
    cols = [*by, "groups", *COUNTS, "vr", "vr_low", "vr_high"]
    if not len(table):
        return pd.DataFrame(columns=cols)
    parts = [table.groupby(by, sort=False)[list(COUNTS)].sum().reset_index()]
    if overall and "relation" in by:
        rest = [c for c in by if c != "relation"]
        total = (
            table.groupby(rest, sort=False)[list(COUNTS)].sum().reset_index()
            if rest
            else table[list(COUNTS)].sum().to_frame().T
        )
        total.insert(0, "relation", "Overall")
        parts.append(total)
    out = pd.concat(parts, ignore_index=True)
    out["groups"] = out["violations"] + out["passes"]
    bounds = [wilson_interval(int(v), int(n)) for v, n in zip(out["violations"], out["groups"])]
    out["vr"] = [(v / n) if n else float("nan") for v, n in zip(out["violations"], out["groups"])]
    out["vr_low"] = [b[0] for b in bounds]
    out["vr_high"] = [b[1] for b in bounds]
    if "relation" in by:
        order = {r: i for i, r in enumerate([*relations, "Overall"])}
        out = (
            out.assign(_o=out["relation"].map(order))
            .sort_values(["_o", *[c for c in by if c != "relation"]], kind="stable")
            .drop(columns="_o")
        )
    return out[cols].reset_index(drop=True)


def selection_mask(
    frame: pd.DataFrame, points: Sequence[Mapping[str, Any]], slices: pd.Series | None, kept: set[str] | None
) -> pd.Series:
    """Rows matching any of the chart points (fields relation, model, source_label, slice).

    ``Overall`` matches every relation; the OTHER slice matches the values not charted.
    """
    mask = pd.Series(False, index=frame.index)
    labels: pd.Series | None = None
    for point in points:
        m = pd.Series(True, index=frame.index)
        for field, value in point.items():
            if field == "relation" and value == "Overall":
                continue
            if field in ("relation", "model"):
                m &= frame[field].astype(str) == str(value)
            elif field == "source_label":
                labels = source_labels(frame) if labels is None else labels
                m &= labels == str(value)
            elif field == "slice" and slices is not None:
                m &= ~slices.isin(kept or set()) if value == OTHER else slices == str(value)
        mask |= m
    return mask


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


def word_diff(a: str, b: str) -> tuple[list[list[str]], list[list[str]]]:
    """Token-level diff of two texts: ``[[op, text], ...]`` for each side, op in
    ``same``/``del`` (only in ``a``)/``ins`` (only in ``b``). Whitespace is kept so the
    pieces concatenate back to the texts exactly."""
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    left: list[list[str]] = []
    right: list[list[str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
        if op == "equal":
            left.append(["same", "".join(ta[i1:i2])])
            right.append(["same", "".join(tb[j1:j2])])
            continue
        if i2 > i1:
            left.append(["del", "".join(ta[i1:i2])])
        if j2 > j1:
            right.append(["ins", "".join(tb[j1:j2])])
    return left, right


def _clip(value: Any, limit: int = MAX_TEXT) -> str:
    text = "" if value is None or (isinstance(value, float) and value != value) else str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table_rows(frame: pd.DataFrame, positions: Sequence[int]) -> list[dict[str, Any]]:
    """The rows the browser shows: a few clipped strings each, keyed by frame position."""
    out = []
    for i in positions:
        r = frame.iloc[int(i)]
        out.append(
            {
                "i": int(i),
                "relation": _clip(r["relation"]),
                "model": _clip(r["model"]),
                "verdict": _clip(r["verdict"]),
                "source": _clip(r["source_text"]),
                "followup": _clip(r["followup_text"]),
                "source_label": _clip(r["source_label"]),
                "followup_label": _clip(r["followup_label"]),
                "reason": _clip(r["reason"]),
            }
        )
    return out


def _prediction(outputs: Any) -> dict[str, Any]:
    if not outputs:
        return {"label": "", "scores": []}
    p = outputs[0]
    return {
        "label": _clip(p.get("label"), 200),
        "scores": [[_clip(k, 80), float(v)] for k, v in list(p.get("scores", []))[:3]],
    }


def row_detail(frame: pd.DataFrame, i: int) -> dict[str, Any]:
    """What the detail view shows for one row: both texts as a word diff, both outputs."""
    from ..core.inputs import input_from_dict

    r = frame.iloc[i]
    sources = [input_from_dict(d).display() for d in r["sources"]]
    followups = [input_from_dict(d).display() for d in r["followups"]]
    left, right = word_diff(sources[0] if sources else "", followups[0] if followups else "")
    return {
        "i": int(i),
        "group": _clip(r["group"]),
        "relation": _clip(r["relation"]),
        "model": _clip(r["model"]),
        "verdict": _clip(r["verdict"]),
        "reason": _clip(r["reason"], 1000),
        "note": _clip(r["note"], 1000),
        "expected": _clip(r["expected"]),
        "seed": int(r["seed"]),
        "source_diff": left,
        "followup_diff": right,
        "other_sources": [_clip(s, 2000) for s in sources[1:]],
        "source_output": _prediction(r["source_outputs"]),
        "followup_output": _prediction(r["followup_outputs"]),
    }
