"""What a task adds to the generic Batch panel: the base of its ``batch`` part.

The Batch panel (:mod:`mtwidgets.widgets.batch`) knows nothing about any task. It runs
relations chunk by chunk, counts verdicts per (relation, model, source label, slice) and
charts them; a task declares what more it shows with a :class:`BatchParts` subclass named
by its declaration (``Task(batch="package.module:parts")``, a callable returning one):

- extra charts (their keys, how to build them from the task's running counts, how a
  click on one of them filters the table), and whether the task keeps the default heatmap
  of VR per source label (by default: when its models answer with one label);
- a running tally started per run and updated per chunk (e.g. error categories);
- extra table columns (their front-end specs are data: :class:`Column`) and their values;
- an addition to one row's detail, as generic display blocks (:func:`label_block`,
  :func:`marked_block`, :func:`list_block`) the front end renders without knowing the task;
- column checks for the set-up's mapping beyond the generic ones (:meth:`BatchParts.check_column`);
- the context the task's report sections get when the panel exports its report;
- a summary table the panel exposes under a name of the task's choosing.

The base class adds nothing, so a task without a ``batch`` part gets the generic panel.

Aggregated relations (counts in ``Results.aggregates`` rather than group rows) are shown by
every task alike: :func:`aggregate_sections` turns their rows into the display data the
panel's aggregates section and the HTML report both draw (counts, safety per slice, the
worst sources of the paper's Table 2, example cases).
Plain Python: nothing here imports a widget library, and pandas/Altair only inside the
functions that need them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Opacity of the marks a chart selection leaves out: faded but still readable.
FADED = 0.35


@dataclass(frozen=True)
class Column:
    """One column of the Batch panel's table: the row key it shows and its heading."""

    key: str
    title: str

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "title": self.title}


# The table every task gets (the row keys of ``_batch_agg.table_rows``).
BASE_COLUMNS: tuple[Column, ...] = (
    Column("relation", "relation"),
    Column("model", "model"),
    Column("verdict", "verdict"),
    Column("source", "source"),
    Column("followup", "follow-up"),
    Column("source_label", "source output"),
    Column("followup_label", "follow-up output"),
    Column("reason", "reason"),
)


def point_selection(select: str | None, fields: list[str]) -> Any:
    """An Altair point selection named ``select`` over ``fields`` (``None`` when not selecting)."""
    if select is None:
        return None
    import altair as alt

    return alt.selection_point(name=select, fields=fields)


# -- detail blocks: what a task adds to one row's detail, as data -----------------------------
def label_block(text: str) -> dict[str, Any]:
    """A small heading line."""
    return {"type": "label", "text": str(text)}


def marked_block(parts: Sequence[Sequence[str]], cls: str = "") -> dict[str, Any]:
    """A text with marked spans: ``[[piece, label], ...]``, label ``""`` between spans."""
    return {"type": "marked", "cls": cls, "parts": [[str(p), str(lab)] for p, lab in parts]}


def list_block(
    items: Sequence[Sequence[tuple[str, str]]], cls: str = "", item_cls: str = ""
) -> dict[str, Any]:
    """A bullet list; each item is a run of ``(css class or "", text)`` pieces."""
    return {
        "type": "list",
        "cls": cls,
        "item_cls": item_cls,
        "items": [[[str(c), str(t)] for c, t in item] for item in items],
    }


def detail_extra(
    blocks: Sequence[Mapping[str, Any]], *, cls: str = "", replaces_outputs: bool = False
) -> dict[str, Any]:
    """A row detail's task addition: ``blocks`` in a box of class ``cls``; with
    ``replaces_outputs`` the generic label-and-scores boxes are left out."""
    return {"cls": cls, "replaces_outputs": bool(replaces_outputs), "blocks": [dict(b) for b in blocks]}


def column_problem(field: Any, values: Any, col: str) -> str | None:
    """The generic column check of a declared :class:`~mtwidgets.core.task.Field`: a numeric
    field's column must hold numbers, any other field's some text."""
    present = values.dropna()
    name = field.name
    if not len(present):
        return f"column {col!r} (for {name!r}) is empty"
    if field.numeric:
        import pandas as pd

        if pd.to_numeric(present, errors="coerce").isna().all():
            return (
                f"column {col!r} (for {name!r}) holds no integers (dtype {values.dtype}, e.g. "
                f"{present.iloc[0]!r}); map it to a column of integers"
            )
        return None
    if not any(isinstance(v, str) for v in present.head(50)):
        return (
            f"column {col!r} (for {name!r}) holds {values.dtype} values (e.g. {present.iloc[0]!r}), "
            "not text; map it to a text column"
        )
    return None


class BatchParts:
    """A task's Batch panel extras; this base adds none.

    ``state`` below is what :meth:`start` returned for the current run (the task's running
    tally); methods taking it are only called with a state :meth:`start` made.
    """

    #: Keys of the task's own charts, shown between the VR chart and the slice chart; a
    #: click on one of them filters the table through :meth:`selection_mask`.
    charts: tuple[str, ...] = ()
    #: Whether the panel keeps the heatmap of VR per source label; ``None``: when the
    #: task's prediction kind is ``"label"`` (a source has one label to put on the axis).
    label_heatmap: bool | None = None
    #: The name under which the panel offers :meth:`summary` (``panel.<name>()``), or ``None``.
    summary_name: str | None = None

    # -- charts ----------------------------------------------------------------------------
    def keeps_label_heatmap(self, prediction: str) -> bool:
        return prediction == "label" if self.label_heatmap is None else bool(self.label_heatmap)

    def chart_keys(self, prediction: str) -> tuple[str, ...]:
        """Every chart of the panel, in order."""
        return ("vr", *(("labels",) if self.keeps_label_heatmap(prediction) else ()), *self.charts, "slice")

    def build_charts(self, state: Any, *, select: str | None) -> dict[str, Any]:
        """``{key: alt.Chart}`` for the task's charts that have data (others left out)."""
        return {}

    def selection_mask(self, key: str, state: Any, frame: Any, points: Sequence[Mapping[str, Any]]) -> Any:
        """The results rows a click on the task's chart ``key`` selects (a boolean Series)."""
        import pandas as pd

        return pd.Series(False, index=frame.index)

    # -- the running tally -----------------------------------------------------------------
    def start(self, inputs: Sequence[Any]) -> Any:
        """A fresh running tally for a run over ``inputs`` (``None``: the task keeps none)."""
        return None

    def add(self, state: Any, results: Any) -> None:
        """Count one finished chunk's results."""
        add = getattr(state, "add", None)
        if add is not None:
            add(results)

    def summary(self, state: Any) -> Any:
        """The tally as a table (:attr:`summary_name`); ``state`` is ``None`` before a run."""
        import pandas as pd

        return pd.DataFrame()

    # -- table and detail ------------------------------------------------------------------
    def columns(self) -> tuple[Column, ...]:
        """The table's columns (the front end builds its heading from them)."""
        return BASE_COLUMNS

    def table_extras(self, state: Any, frame: Any, positions: Sequence[int]) -> list[dict[str, Any]]:
        """Per shown row, values that replace or add to the generic row's (``[]``: none)."""
        return []

    def row_detail(self, state: Any, frame: Any, i: int) -> dict[str, Any] | None:
        """The task's addition to row ``i``'s detail (:func:`detail_extra`), or ``None``."""
        return None

    # -- set-up checks ---------------------------------------------------------------------
    def check_column(self, field: Any, values: Any, col: str) -> str | None:
        """What is wrong with column ``col`` (its ``values``) mapped to the declared ``field``
        (a :class:`~mtwidgets.core.task.Field`), or ``None``."""
        return column_problem(field, values, col)

    def check_mapping(self, mapped: Mapping[str, str]) -> list[str]:
        """Problems of the mapping as a whole (``mapped``: field -> column, the mode aside)."""
        return []

    # -- export ----------------------------------------------------------------------------
    def report_context(
        self, state: Any, results: Any, *, models: Callable[[], Mapping[str, Any]], cache: Any, repair: bool
    ) -> Any:
        """What the task's report sections get when the panel writes its report (``None``:
        nothing beyond the generic report). ``models()`` loads the run's models."""
        return None


def parts_of(task: Any) -> BatchParts:
    """The task's Batch panel parts (the base when it declares none)."""
    factory = task.part("batch")
    if factory is None:
        return BatchParts()
    made = factory() if callable(factory) and not isinstance(factory, BatchParts) else factory
    if not isinstance(made, BatchParts):
        from .errors import MTError

        raise MTError(
            f"task {task.name!r}: its batch part gave {type(made).__name__}, not a "
            "mtwidgets.core.batch_view.BatchParts"
        )
    return made


# -- aggregated relations: what the panel and the report show of ``Results.aggregates`` ------
# An aggregated relation (pairwise systematicity, three-way transitivity) has no group rows:
# its counts come as one aggregate row per (relation, model, slice) (mtwidgets.core.aggregate).
# The functions below turn those rows into plain data for display, one *section* per relation
# and model: its counts, safety per slice, the worst sources of each slice (the paper's Table
# 2) and a few example cases. Both the Batch panel and the HTML report draw from them, so the
# two always show the same numbers. Every aggregated relation keeps its own fields in
# ``detail``; only what is common is read here, and whatever a row lacks is shown as absent.

#: The counts of an aggregate row, in the order they are shown.
AGGREGATE_COUNTS: tuple[str, ...] = ("tests", "satisfied", "violations", "not_applicable", "errors")
#: Worst sources listed per slice.
WORST_SHOWN = 10


def _finite(value: Any) -> float | None:
    """A float for display, ``None`` for a missing or NaN value (JSON has no NaN)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number and number not in (float("inf"), float("-inf")) else None


def _count(value: Any) -> int:
    number = _finite(value)
    return int(number) if number is not None else 0


def _plain(value: Any) -> Any:
    """A JSON-able scalar of a source index (NumPy scalars unwrapped), ``None`` if unknown."""
    if hasattr(value, "item") and callable(value.item):
        value = value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def worst_sources(detail: Mapping[str, Any], limit: int = WORST_SHOWN) -> list[dict[str, Any]]:
    """The worst sources an aggregate row's ``detail`` lists (``"worst_sources"``), in its
    order, as ``{rank, source_index, text, label, score, satisfied, violations, tests,
    safety}``; a field the row lacks is ``None`` (``safety`` recomputed from the counts when
    it is missing). ``[]`` when the relation lists none."""
    listed = detail.get("worst_sources") if isinstance(detail, Mapping) else None
    if not isinstance(listed, (list, tuple)):
        return []
    out = []
    for rank, entry in enumerate(e for e in listed if isinstance(e, Mapping)):
        if rank >= limit:
            break
        satisfied, violations = _count(entry.get("satisfied")), _count(entry.get("violations"))
        tests = satisfied + violations
        share = _finite(entry.get("safety"))
        out.append(
            {
                "rank": rank,
                "source_index": _plain(entry.get("source_index")),
                "text": "" if entry.get("text") is None else str(entry.get("text")),
                "label": None if entry.get("label") is None else str(entry.get("label")),
                "score": _finite(entry.get("score")),
                "satisfied": satisfied,
                "violations": violations,
                "tests": tests,
                "safety": share if share is not None else (satisfied / tests if tests else None),
            }
        )
    return out


def example_view(example: Mapping[str, Any]) -> dict[str, Any]:
    """One example case for display: ``{verdict, reason, notes: [[key, text]], sides: [{name,
    text, followup, score, followup_score}]}``. Each member of the example that is a dict
    with a ``text`` (e.g. pairwise systematicity's ``x1`` and ``x2``) is a side; its other
    scalar members are notes."""
    sides, notes = [], []
    for key, value in example.items():
        if key in ("verdict", "reason"):
            continue
        if isinstance(value, Mapping) and "text" in value:
            sides.append(
                {
                    "name": str(key),
                    "text": str(value.get("text", "")),
                    "followup": None if value.get("followup") is None else str(value.get("followup")),
                    "score": _finite(value.get("score")),
                    "followup_score": _finite(value.get("followup_score")),
                }
            )
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            notes.append([str(key), str(value)])
    return {
        "verdict": str(example.get("verdict", "")),
        "reason": str(example.get("reason", "")),
        "notes": notes,
        "sides": sides,
    }


def detail_notes(detail: Mapping[str, Any]) -> list[list[str]]:
    """The scalar members of a ``detail`` (``ties``, ``sources``, ...) as ``[[key, text]]``:
    the settings and sizes behind the counts; lists and tables are left out."""
    out = []
    for key, value in (detail or {}).items():
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            continue
        out.append([str(key).replace("_", " "), f"{value:.4g}" if isinstance(value, float) else str(value)])
    return out


def _slice_view(row: Mapping[str, Any], worst: int, examples: int) -> dict[str, Any]:
    given, shown = row.get("detail"), row.get("examples")
    detail: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    listed: list[Any] = list(shown) if isinstance(shown, (list, tuple)) else []
    return {
        "slice": str(row["slice"]),
        **{c: _count(row.get(c)) for c in AGGREGATE_COUNTS},
        "safety": _finite(row.get("safety")),
        "worst": worst_sources(detail, worst),
        "examples": [example_view(e) for e in listed[:examples] if isinstance(e, Mapping)],
        "notes": detail_notes(detail),
    }


def aggregate_sections(aggregates: Any, *, worst: int = WORST_SHOWN, examples: int = 4) -> list[dict[str, Any]]:
    """One section per (relation, model) of an aggregates frame (``Results.aggregates``), in
    the order the rows come: ``{key, relation, model, task, overall, slices}``.

    ``overall`` is the ``"overall"`` slice (the relation's totals; the sum of the slices when
    a relation gives none) and ``slices`` every slice, ``"overall"`` first, each with its
    counts, ``safety`` (``None`` when nothing was tested), up to ``worst`` worst sources,
    ``examples`` example cases and the notes of its ``detail``. ``key`` names the section in
    the panel's view (``"<relation> · <model>"``)."""
    from .aggregate import OVERALL

    if aggregates is None or not len(aggregates):
        return []
    records = aggregates.to_dict("records")
    order = list(dict.fromkeys((str(r["relation"]), str(r["model"])) for r in records))
    out = []
    for relation, model in order:
        rows = [r for r in records if (str(r["relation"]), str(r["model"])) == (relation, model)]
        rows.sort(key=lambda r: str(r["slice"]) != OVERALL)  # stable: "overall" first, then as counted
        slices = [_slice_view(r, worst, examples) for r in rows]
        overall = next((s for s in slices if s["slice"] == OVERALL), None)
        if overall is None:
            totals = {c: sum(s[c] for s in slices) for c in AGGREGATE_COUNTS}
            tested = totals["satisfied"] + totals["violations"]
            overall = {"slice": OVERALL, **totals, "safety": totals["satisfied"] / tested if tested else None,
                       "worst": [], "examples": [], "notes": []}  # fmt: skip
        out.append(
            {
                "key": f"{relation} · {model}",
                "relation": relation,
                "model": model,
                "task": str(rows[0].get("task", "")),
                "overall": {k: overall[k] for k in ("slice", *AGGREGATE_COUNTS, "safety")},
                "slices": slices,
            }
        )
    return out


def find_worst_source(sections: Sequence[Mapping[str, Any]], key: str, slice_: str, rank: int) -> dict[str, Any]:
    """The worst source ``rank`` of slice ``slice_`` in section ``key`` (what a click on a
    worst source names), or a :class:`LookupError` saying what is missing."""
    section = next((s for s in sections if s["key"] == key), None)
    if section is None:
        raise LookupError(f"no aggregated relation {key!r} in these results; shown: {[s['key'] for s in sections]}")
    part = next((s for s in section["slices"] if s["slice"] == slice_), None)
    if part is None:
        raise LookupError(f"{key}: no slice {slice_!r}; slices: {[s['slice'] for s in section['slices']]}")
    if not 0 <= rank < len(part["worst"]):
        raise LookupError(f"{key}, {slice_}: no worst source {rank} (it lists {len(part['worst'])})")
    return dict(part["worst"][rank])
