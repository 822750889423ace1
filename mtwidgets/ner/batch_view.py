"""The Batch panel's NER part: error categories of the suspicious entities, counted chunk by
chunk, their chart, and what the table and the detail view show for an NER group.

TIN (section 4.6) sorts the errors behind suspicious issues into four categories
(omission, over-labeling, incorrect category, range error). With gold, each chunk's
violated groups go through :func:`mtwidgets.ner.evaluate.find_issues` and every judged
error is counted once per (model, sentence, judged region), exactly as
:func:`~mtwidgets.ner.evaluate.category_table` counts them for the whole run; per
relation the same error is counted once per relation (a source sentence's error shows up
in every relation that flagged it, so the per-relation rows do not add up to the
"All relations" row). Without gold the counts are the gold-free
:func:`~mtwidgets.ner.evaluate.kind_table`'s: suspicious entities per what their
disagreement suggests.

The counts stay small (relations x models x categories) whatever the run's size, and each
violated group keeps the set of categories it shows, so a click on a category filters the
table without judging anything again.

The panel gets all of this through :func:`parts` (the task declaration's ``batch``): the
category chart takes the place of the source-label heatmap (an NER source has no single
label), the table lists predicted entities and categories, the detail marks the entities
of both sentences (and the gold), and the report gets TIN's tables.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ..core.batch_view import (
    BASE_COLUMNS,
    FADED,
    BatchParts,
    Column,
    detail_extra,
    label_block,
    list_block,
    marked_block,
    point_selection,
)
from ..core.results import Results
from ..core.spans import Span

ALL = "All relations"
MAX_ENTITIES = 40  # predicted spans listed per side in the table / detail
CHART = "categories"  # the category chart's key (and the selection kind of its clicks)
# Error categories in colours apart from the first tableau ones, which the VR chart gives
# the models (a category must not read as a model next to it).
CATEGORY_COLOURS = {
    "omission": "#8c564b",
    "over-labeling": "#e377c2",
    "incorrect category": "#bcbd22",
    "range error": "#17becf",
    "omission or over-labeling": "#9467bd",
}


def gold_index(inputs: Iterable[Any]) -> dict[str, tuple[Span, ...]] | None:
    """``{text: gold spans}`` when any input carries gold (then a sentence without gold has
    no entities, as :mod:`mtwidgets.ner.evaluate` reads an annotated data set), else ``None``."""
    from .inputs import NERInput

    items = [x for x in inputs if isinstance(x, NERInput)]
    if not any(x.gold for x in items):
        return None
    return {x.text: tuple(x.gold) for x in items}


def categories_for(judged: bool) -> tuple[str, ...]:
    """The category names of a chart: TIN's four with gold, the gold-free suggestions without."""
    from .locate import CATEGORIES, KIND_CATEGORY

    return CATEGORIES if judged else tuple(dict.fromkeys(KIND_CATEGORY.values()))


class CategoryTally:
    """Error categories of the violated NER groups, added chunk by chunk.

    Parameters
    ----------
    gold:
        ``{text: gold spans}`` (see :func:`gold_index`), or ``None`` for data without gold:
        then the gold-free kinds are counted instead.
    """

    def __init__(self, gold: Mapping[str, tuple[Span, ...]] | None) -> None:
        self.gold = gold
        self.judged = gold is not None
        self.categories = categories_for(self.judged)
        self._errors: dict[tuple[str, str, int, int], str] = {}  # (model, text, region) -> category
        self._rel_errors: dict[tuple[str, str, str, int, int], str] = {}
        self._kinds: Counter[tuple[str, str, str]] = Counter()  # (relation, model, suggests)
        self._issues: Counter[tuple[str, str]] = Counter()  # violated groups per (relation, model)
        self.relations: list[str] = []
        self.models: list[str] = []
        self.rows: dict[tuple[str, str], tuple[str, ...]] = {}  # (model, group) -> categories shown
        self.seconds = 0.0  # time spent locating and judging (reported by the benchmark)
        self._table: pd.DataFrame | None = None

    def add(self, results: Results) -> None:
        """Locate and judge the violations of one chunk's results."""
        from .evaluate import find_issues
        from .locate import KIND_CATEGORY

        started = time.perf_counter()
        frame = results.frame
        if not len(frame) or not (frame["verdict"] == "violation").any():
            self.seconds += time.perf_counter() - started
            return
        for issue in find_issues(results, gold=self.gold):
            rel, model = issue.relation, issue.model
            for seen, value in (self.relations, rel), (self.models, model):
                if value not in seen:
                    seen.append(value)
            self._issues[(rel, model)] += 1
            shown: list[str] = []
            if self.judged:
                for side in issue.sides:
                    if side.category is None:
                        continue
                    where = side.region or side.span
                    self._errors.setdefault((model, side.text, where.start, where.end), side.category)
                    self._rel_errors.setdefault(
                        (rel, model, side.text, where.start, where.end), side.category
                    )
                    shown.append(side.category)
            else:
                for e in issue.suspicious:
                    self._kinds[(rel, model, KIND_CATEGORY[e.kind])] += 1
                    shown.append(KIND_CATEGORY[e.kind])
            self.rows[(model, issue.group)] = tuple(c for c in self.categories if c in shown)
        self._table = None
        self.seconds += time.perf_counter() - started

    @property
    def issues(self) -> int:
        """Violated NER groups seen so far."""
        return sum(self._issues.values())

    def table(self) -> pd.DataFrame:
        """One row per (relation, model, category): ``count`` (distinct errors with gold,
        suspicious entities without), ``share`` of the (relation, model) total, and the
        ``issues`` (violated groups) behind them; ``ALL`` rows first, pooled over relations."""
        if self._table is not None:
            return self._table
        counts: Counter[tuple[str, str, str]] = Counter()
        if self.judged:
            for (model, *_), cat in self._errors.items():
                counts[(ALL, model, cat)] += 1
            for (rel, model, *_), cat in self._rel_errors.items():
                counts[(rel, model, cat)] += 1
        else:
            for (rel, model, cat), n in self._kinds.items():
                counts[(ALL, model, cat)] += n
                counts[(rel, model, cat)] += n
        issues = Counter(self._issues)
        for (_rel, model), n in self._issues.items():
            issues[(ALL, model)] += n
        rows = []
        for rel in [ALL, *self.relations]:
            for model in self.models:
                total = sum(counts[(rel, model, c)] for c in self.categories)
                for cat in self.categories:
                    n = counts[(rel, model, cat)]
                    rows.append(
                        {
                            "relation": rel,
                            "model": model,
                            "category": cat,
                            "count": n,
                            "share": n / total if total else float("nan"),
                            "issues": issues[(rel, model)],
                        }
                    )
        self._table = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
        return self._table

    def row_categories(self, frame: pd.DataFrame) -> pd.Series:
        """The categories each results row shows (empty for rows that are not violations)."""
        return pd.Series(
            [self.rows.get((str(m), str(g)), ()) for m, g in zip(frame["model"], frame["group"])],
            index=frame.index,
            dtype=object,
        )

    def mask(self, frame: pd.DataFrame, points: Sequence[Mapping[str, Any]]) -> pd.Series:
        """Rows matching any clicked (relation, model, category); ``ALL`` matches every relation."""
        cats = self.row_categories(frame)
        out = pd.Series(False, index=frame.index)
        for point in points:
            m = pd.Series(True, index=frame.index)
            for field, value in point.items():
                if field == "relation" and value in (ALL, "Overall"):
                    continue
                if field in ("relation", "model"):
                    m &= frame[field].astype(str) == str(value)
                elif field == "category":
                    m &= cats.map(lambda c, v=str(value): v in c).astype(bool)
            out |= m
        return out


SUMMARY_COLUMNS = ["relation", "model", "category", "count", "share", "issues"]


# -- the chart --------------------------------------------------------------------------------
def category_chart(
    table: pd.DataFrame,
    *,
    categories: Sequence[str],
    judged: bool = True,
    title: str | None = None,
    width: int = 240,
    select: str | None = None,
) -> Any:
    """The distribution of NER error categories per relation, one panel per model (TIN,
    section 4.6), as 100% stacked bars with the counts in the tooltip.

    ``table`` has one row per (relation, model, category) with ``count``, ``share`` (of the
    relation and model's total) and ``issues`` (violated groups behind them); zero counts
    are left out. ``judged`` says whether the counts are distinct errors judged against
    gold or (without gold) suspicious entities by what their disagreement suggests.
    ``select`` names a point selection over (relation, model, category).
    """
    import altair as alt

    data = table[table["count"] > 0].copy()
    data["share_pct"] = data["share"] * 100
    data["rank"] = data["category"].map({c: k for k, c in enumerate(categories)})
    relations = list(dict.fromkeys(data["relation"]))
    unit = "distinct errors" if judged else "suspicious entities"
    chart = (
        alt.Chart(data)
        .mark_bar(cursor="pointer")
        .encode(
            y=alt.Y("relation:N", sort=relations, title=None),
            x=alt.X(
                "share:Q",
                stack="zero",
                title=f"share of {unit}",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            color=alt.Color(
                "category:N",
                scale=alt.Scale(
                    domain=list(categories),
                    range=[CATEGORY_COLOURS.get(c, "#7f7f7f") for c in categories],
                ),
                title="error category" if judged else "suggests (no gold)",
            ),
            order=alt.Order("rank:Q"),
            column=alt.Column("model:N", title=None),
            tooltip=[
                alt.Tooltip("relation:N"),
                alt.Tooltip("model:N"),
                alt.Tooltip("category:N"),
                alt.Tooltip("count:Q", title=unit),
                alt.Tooltip("share_pct:Q", format=".1f", title="share %"),
                alt.Tooltip("issues:Q", title="violated groups"),
            ],
        )
    )
    sel = point_selection(select, ["relation", "model", "category"])
    if sel is not None:
        chart = chart.add_params(sel).encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(FADED)))
    default = (
        "Error categories of the suspicious entities (judged against gold)"
        if judged
        else "What the suspicious entities suggest (no gold)"
    )
    return chart.properties(title=title or default, width=width)


# -- what the table and the detail view show ------------------------------------------------
def _spans(outputs: Any) -> list[Span]:
    from ..core.predictions import Prediction

    if not outputs:
        return []
    return list(Prediction.from_dict(outputs[0]).spans)


def entity_list(text: str, spans: Sequence[Span]) -> str:
    """``"Elena Marchetti PERSON; Italy GPE"``: the predicted entities of a sentence."""
    shown = [f"{text[s.start : s.end]} {s.label}" for s in spans[:MAX_ENTITIES]]
    more = f"; … {len(spans) - MAX_ENTITIES} more" if len(spans) > MAX_ENTITIES else ""
    return ("; ".join(shown) + more) if shown else "(no entity)"


def segments(text: str, spans: Sequence[Span]) -> list[list[str]]:
    """The text cut at the spans: ``[[piece, label], ...]``, label ``""`` between entities
    (``"?"`` for an unlabelled span), so the front end marks entities with ``textContent``
    alone (overlaps: the first wins)."""
    from ..core.views import span_pieces

    first = sorted(spans, key=lambda s: (s.start, s.end))[:MAX_ENTITIES]
    return [[p["text"], str(p["label"] or "?") if "label" in p else ""] for p in span_pieces(text, first)]


def table_extras(
    frame: pd.DataFrame, positions: Sequence[int], tally: CategoryTally | None
) -> list[dict[str, Any]]:
    """Per shown row: the predicted entities of both sentences and the row's categories."""
    out = []
    for i in positions:
        r = frame.iloc[int(i)]
        src, fu = r["sources"][0]["text"], r["followups"][0]["text"] if len(r["followups"]) else ""
        cats = tally.rows.get((str(r["model"]), str(r["group"])), ()) if tally is not None else ()
        out.append(
            {
                "source_label": entity_list(src, _spans(r["source_outputs"])),
                "followup_label": entity_list(fu, _spans(r["followup_outputs"])) if fu else "",
                "categories": ", ".join(cats),
            }
        )
    return out


def ner_detail(frame: pd.DataFrame, i: int, gold: Mapping[str, tuple[Span, ...]] | None) -> dict[str, Any]:
    """The NER part of one row's detail: both sentences with their predicted entities (and
    the source's gold), and each suspicious entity with what it is read as on each side and,
    with gold, the error category of each side (``"correct"`` when right, ``None`` unjudged)."""
    from .evaluate import find_issues
    from .explorer_view import suspect_view

    r = frame.iloc[i]
    src = r["sources"][0]["text"]
    fu = r["followups"][0]["text"] if len(r["followups"]) else ""
    out: dict[str, Any] = {
        "source": segments(src, _spans(r["source_outputs"])),
        "followup": segments(fu, _spans(r["followup_outputs"])) if fu else [],
        "gold": segments(src, gold.get(src, ())) if gold is not None else None,
        "judged": gold is not None,
        "suspicious": [],
    }
    if r["verdict"] != "violation":
        return out

    def category(side: Any) -> str | None:
        return None if side is None or not side.judged else (side.category or "correct")

    for issue in find_issues(Results(frame.iloc[[i]]), gold=gold):
        for k, e in enumerate(issue.suspicious):
            sides = issue.sides[2 * k : 2 * k + 2] if gold is not None else []
            src_side, fu_side = (sides + [None, None])[:2]
            out["suspicious"].append(
                suspect_view(e, issue.source_text, issue.followup_text, category(src_side), category(fu_side))
            )
    return out


def detail_blocks(n: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`ner_detail` as the panel's generic detail blocks (entity-marked sentences and
    the list of suspicious entities); they replace the label-and-scores boxes."""
    blocks = [
        label_block("source: predicted entities"),
        marked_block(n["source"], "mtw-batch__ents--source"),
        label_block("follow-up: predicted entities"),
        marked_block(n["followup"], "mtw-batch__ents--followup"),
    ]
    if n.get("gold"):
        blocks += [label_block("source: gold entities"), marked_block(n["gold"], "mtw-batch__ents--gold")]
    suspicious = n.get("suspicious") or []
    if suspicious:
        blocks.append(
            label_block(
                "suspicious entities (category judged against gold)"
                if n["judged"]
                else "suspicious entities (no gold: what the disagreement suggests)"
            )
        )
        items = []
        for e in suspicious:
            cat = (
                f"source {e['source_category'] or 'unjudged'}, follow-up {e['followup_category'] or 'unjudged'}"
                if n["judged"]
                else f"suggests {e['suggests']}"
            )
            items.append(
                [
                    ("mtw-batch__suspect-text", e["text"]),
                    ("", f": {e['source']} in the source, {e['followup']} in the follow-up · "),
                    ("mtw-batch__suspect-category", cat),
                ]
            )
        blocks.append(list_block(items, "mtw-batch__suspicious", "mtw-batch__suspect"))
    return detail_extra(blocks, cls="mtw-batch__ner", replaces_outputs=True)


# -- set-up checks ------------------------------------------------------------------------------
def entities_column_problem(values: pd.Series, col: str) -> str | None:
    """A gold-entities column holds lists of {start, end, label} (or their JSON strings); a
    bad cell skips its row only."""
    present = values.dropna()
    if not len(present):
        return f"column {col!r} (for 'entities') is empty"
    if not any(isinstance(v, (str, list, tuple)) or hasattr(v, "tolist") for v in present.head(50)):
        return (
            f"column {col!r} (for 'entities') holds {values.dtype} values (e.g. {present.iloc[0]!r}), not "
            "lists of {start, end, label}; map it to the gold-entities column or leave it empty"
        )
    return None


class NERBatchParts(BatchParts):
    """The category chart instead of the label heatmap, entity columns, the entity-marked
    detail and TIN's report tables."""

    charts = (CHART,)
    summary_name = "category_summary"

    def build_charts(self, state: CategoryTally | None, *, select: str | None) -> dict[str, Any]:
        if state is None:
            return {}
        table = state.table()
        if not (table["count"] > 0).any():
            return {}
        return {CHART: category_chart(table, categories=state.categories, judged=state.judged, select=select)}

    def selection_mask(
        self, key: str, state: CategoryTally | None, frame: pd.DataFrame, points: Sequence[Mapping[str, Any]]
    ) -> pd.Series:
        if state is None or key != CHART:
            return pd.Series(False, index=frame.index)
        return state.mask(frame, points)

    def start(self, inputs: Sequence[Any]) -> CategoryTally:
        return CategoryTally(gold_index(inputs))

    def summary(self, state: CategoryTally | None) -> pd.DataFrame:
        """The error categories behind the category chart, one row per (relation, model,
        category) with ``count``, ``share`` and ``issues``; the ``"All relations"`` rows equal
        :func:`mtwidgets.ner.evaluate.category_table` on the results (with gold) or the
        gold-free :func:`~mtwidgets.ner.evaluate.kind_table` (without). Empty before a run."""
        if state is None:
            return pd.DataFrame(columns=SUMMARY_COLUMNS)
        return state.table().copy()

    def columns(self) -> tuple[Column, ...]:
        titles = {"source_label": "source entities", "followup_label": "follow-up entities"}
        out: list[Column] = []
        for c in BASE_COLUMNS:
            if c.key == "reason":
                out.append(Column("categories", "error categories"))
            out.append(Column(c.key, titles.get(c.key, c.title)))
        return tuple(out)

    def table_extras(
        self, state: CategoryTally | None, frame: pd.DataFrame, positions: Sequence[int]
    ) -> list[dict[str, Any]]:
        return table_extras(frame, positions, state)

    def row_detail(self, state: CategoryTally | None, frame: pd.DataFrame, i: int) -> dict[str, Any]:
        return detail_blocks(ner_detail(frame, i, state.gold if state is not None else None))

    def check_column(self, field: Any, values: Any, col: str) -> str | None:
        if field.name == "entities":
            return entities_column_problem(values, col)
        return super().check_column(field, values, col)

    def check_mapping(self, mapped: Mapping[str, str]) -> list[str]:
        col = mapped.get("entities")
        if col and mapped.get("text") == col:
            return [
                f"'entities' and 'text' are both mapped to column {col!r}; map 'entities' to the gold spans"
            ]
        return []

    def report_context(
        self,
        state: CategoryTally | None,
        results: Any,
        *,
        models: Callable[[], Mapping[str, Any]],
        cache: Any,
        repair: bool,
    ) -> Any:
        """TIN's tables for the results, judged against the data's gold (when it has any);
        the repair only on request (it runs the models on many mutants)."""
        from .evaluate import evaluate

        return evaluate(
            results,
            dict(models()) if repair else None,
            gold=state.gold if state is not None else None,
            cache=cache,
        )


def parts() -> NERBatchParts:
    return NERBatchParts()
