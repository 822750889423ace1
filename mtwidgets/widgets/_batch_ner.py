"""The Batch panel's NER side: error categories of the suspicious entities, counted chunk by
chunk, and what the table and the detail view show for an NER group.

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
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ..core.results import Results
from ..core.spans import Span

ALL = "All relations"
MAX_ENTITIES = 40  # predicted spans listed per side in the table / detail


def gold_index(inputs: Iterable[Any]) -> dict[str, tuple[Span, ...]] | None:
    """``{text: gold spans}`` when any input carries gold (then a sentence without gold has
    no entities, as :mod:`mtwidgets.ner.evaluate` reads an annotated data set), else ``None``."""
    items = [x for x in inputs if getattr(x, "task", None) == "ner"]
    if not any(x.gold for x in items):
        return None
    return {x.text: tuple(x.gold) for x in items}


def categories_for(judged: bool) -> tuple[str, ...]:
    """The category names of a chart: TIN's four with gold, the gold-free suggestions without."""
    from ..ner.locate import CATEGORIES, KIND_CATEGORY

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
        from ..ner.evaluate import find_issues
        from ..ner.locate import KIND_CATEGORY

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
        self._table = pd.DataFrame(
            rows, columns=["relation", "model", "category", "count", "share", "issues"]
        )
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
    """The text cut at the spans: ``[[piece, label], ...]``, label ``""`` between entities,
    so the front end marks entities with ``textContent`` alone (overlaps: the first wins)."""
    from ._explorer_ner import entity_pieces

    first = sorted(spans, key=lambda s: (s.start, s.end))[:MAX_ENTITIES]
    return [[p["text"], str(p["label"] or "?") if "label" in p else ""] for p in entity_pieces(text, first)]


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
    with gold, the error category of each side."""
    from ..ner.evaluate import find_issues

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
    from ._explorer_ner import suspect_view

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
