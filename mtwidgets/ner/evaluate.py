"""TIN's evaluation tables from an NER run: suspicious issues, precision, error categories,
repair metrics (Tables 3 and 6, section 4.6), computed from a :class:`Results` and gold.

The paper judged issues by hand; here gold labels judge them:

- an *issue* is a violated NER group; its suspicious entities come from
  :mod:`mtwidgets.ner.locate`;
- an issue is *erroneous* (the paper's precision) when the source or the follow-up prediction is wrong (against
  gold) around one of its suspicious entities. Follow-up gold is the source gold carried
  through the draft's alignment; where it cannot be carried and the source is right, the
  issue is *unjudged* and left out of the precision;
- error categories count distinct errors (model, sentence, judged region: the entity
  with every overlapping predicted and gold span), like the paper's 468 inspected errors;
- repair metrics count distinct suspicious entities (model, sentence, range): T/F is
  whether the prediction around the entity equals gold before and after repair.

Gold comes from the results' source inputs (``NERInput.to_dict`` keeps it), or from
``gold=`` (inputs or ``{text: spans}``) for results whose inputs carry none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..core.predictions import Prediction
from ..core.spans import Span
from .labels import Granularity
from .locate import (
    CATEGORIES,
    KIND_CATEGORY,
    OffsetMap,
    SuspiciousEntity,
    followup_gold,
    judge,
    judge_region,
    locate,
)
from .metrics import RepairCounts, precision

MR2_RELATIONS = frozenset({"TIN-question", "TIN-shuffle"})


@dataclass
class Judged:
    """One side (source or follow-up) of one suspicious entity, judged against gold."""

    side: str  # "source" | "followup"
    text: str
    span: Span
    spans: tuple[Span, ...]
    gold: tuple[Span, ...] | None  # None: unknown here
    category: str | None = None  # None: correct (or unknown)
    region: Span | None = None  # the range judged (one error, whichever part located it)

    @property
    def judged(self) -> bool:
        return self.gold is not None

    @property
    def error(self) -> bool:
        return self.category is not None


@dataclass
class Issue:
    """A suspicious issue: one violated group of one model, with its located entities."""

    relation: str
    model: str
    group: str
    source_text: str
    followup_text: str
    suspicious: list[SuspiciousEntity]
    sides: list[Judged] = field(default_factory=list)

    @property
    def erroneous(self) -> bool | None:
        """``True``/``False`` against gold; ``None`` when gold cannot decide."""
        if any(j.error for j in self.sides):
            return True
        if not self.sides or any(not j.judged for j in self.sides):
            return None
        return False

    @property
    def source_erroneous(self) -> bool | None:
        """Whether the source (the real sentence, with real gold) is wrong at a suspicious entity."""
        src = [j for j in self.sides if j.side == "source"]
        if not src or any(not j.judged for j in src):
            return None
        return any(j.error for j in src)


def _gold_index(results: Any, gold: Any) -> dict[str, tuple[Span, ...]] | None:
    if gold is None:
        sources = [d for ds in results.frame["sources"] for d in ds]
        if not any("gold" in d for d in sources):
            return None
        # An annotated data set: a sentence without a "gold" key has no gold entities.
        return {d["text"]: tuple(Span.from_value(s) for s in d.get("gold", ())) for d in sources}
    if isinstance(gold, Mapping):
        return {str(t): tuple(Span.from_value(s) for s in spans) for t, spans in gold.items()}
    return {x.text: tuple(x.gold) for x in gold}


def find_issues(results: Any, *, gold: Any = None, granularity: Granularity = "fine") -> list[Issue]:
    """Every violated NER group as an :class:`Issue`, judged against gold when known."""
    frame = results.frame
    index = _gold_index(results, gold)
    out: list[Issue] = []
    for r in frame[(frame["task"] == "ner") & (frame["verdict"] == "violation")].itertuples():
        src, fu = r.sources[0]["text"], r.followups[0]["text"]
        src_spans = Prediction.from_dict(r.source_outputs[0]).spans
        fu_spans = Prediction.from_dict(r.followup_outputs[0]).spans
        offsets = OffsetMap.from_meta(r.meta or {})
        sus = locate(
            src,
            src_spans,
            fu,
            fu_spans,
            offsets,
            granularity=granularity,
            by_text=r.relation in MR2_RELATIONS,
        )
        issue = Issue(r.relation, r.model, r.group, src, fu, sus)
        src_gold = index.get(src) if index is not None else None
        fu_gold = followup_gold(offsets, src_gold) if src_gold is not None else None
        for e in sus:
            s_side = Judged("source", src, e.source_span, src_spans, src_gold)
            f_side = Judged(
                "followup", fu, e.followup_span, fu_spans, None if fu_gold is None else tuple(fu_gold)
            )
            for side in (s_side, f_side):
                if side.gold is not None:
                    side.category, side.region = judge_region(side.spans, side.gold, side.span, granularity)
            issue.sides.extend((s_side, f_side))
        out.append(issue)
    return out


def issue_frame(issues: Sequence[Issue]) -> pd.DataFrame:
    """One row per issue: what was located, and whether gold says it holds an error."""
    rows = []
    for i in issues:
        cats = sorted({j.category for j in i.sides if j.category})
        rows.append(
            {
                "relation": i.relation,
                "model": i.model,
                "group": i.group,
                "source_text": i.source_text,
                "followup_text": i.followup_text,
                "suspicious": "; ".join(e.describe(i.source_text, i.followup_text) for e in i.suspicious),
                "n_suspicious": len(i.suspicious),
                "kinds": ", ".join(sorted({e.kind for e in i.suspicious})),
                "erroneous": i.erroneous,
                "categories": ", ".join(cats),
            }
        )
    cols = [
        "relation",
        "model",
        "group",
        "source_text",
        "followup_text",
        "suspicious",
        "n_suspicious",
        "kinds",
        "erroneous",
        "categories",
    ]
    return pd.DataFrame(rows, columns=cols)


def precision_table(results: Any, issues: Sequence[Issue]) -> pd.DataFrame:
    """Table 3: per transformation and model, groups, suspicious issues and their precision."""
    summary = results.summary()
    summary = summary[
        summary["relation"].isin(set(results.frame.loc[results.frame["task"] == "ner", "relation"]))
        | (summary["relation"] == "Overall")
    ]
    rows = []
    for r in summary.itertuples(index=False):
        mine = [
            i for i in issues if i.model == r.model and (r.relation == "Overall" or i.relation == r.relation)
        ]
        p = precision(bool(i.erroneous) for i in mine if i.erroneous is not None)
        ps = precision(bool(i.source_erroneous) for i in mine if i.source_erroneous is not None)
        rows.append(
            {
                "relation": r.relation,
                "model": r.model,
                "groups": int(r.groups),
                "issues": len(mine),
                "suspicious_entities": sum(len(i.suspicious) for i in mine),
                "judged": p.issues,
                "erroneous": p.erroneous,
                "precision": p.value,
                "precision_low": p.interval[0],
                "precision_high": p.interval[1],
                "source_judged": ps.issues,
                "source_erroneous": ps.erroneous,
                "source_precision": ps.value,
            }
        )
    return pd.DataFrame(rows)


def category_table(issues: Sequence[Issue]) -> pd.DataFrame:
    """Distinct NER errors per model and category (TIN section 4.6), with shares."""
    seen: dict[tuple[str, str, int, int], str] = {}
    for i in issues:
        for j in i.sides:
            if j.category is not None:
                where = j.region or j.span
                seen.setdefault((i.model, j.text, where.start, where.end), j.category)
    rows = []
    for model in dict.fromkeys(i.model for i in issues):
        counts = {c: 0 for c in CATEGORIES}
        for (m, *_), cat in seen.items():
            if m == model:
                counts[cat] += 1
        total = sum(counts.values())
        for cat, n in counts.items():
            rows.append(
                {"model": model, "category": cat, "errors": n, "share": n / total if total else float("nan")}
            )
    return pd.DataFrame(rows, columns=["model", "category", "errors", "share"])


def kind_table(issues: Sequence[Issue]) -> pd.DataFrame:
    """Gold-free: what the two sentences disagree about, per model (for unlabelled data)."""
    rows: dict[tuple[str, str], int] = {}
    for i in issues:
        for e in i.suspicious:
            key = (i.model, KIND_CATEGORY[e.kind])
            rows[key] = rows.get(key, 0) + 1
    return pd.DataFrame(
        [{"model": m, "suggests": k, "suspicious_entities": n} for (m, k), n in rows.items()],
        columns=["model", "suggests", "suspicious_entities"],
    )


@dataclass
class RepairOutcome:
    """The repair of one model's suspicious entities, with the Table 6 counts."""

    model: str
    counts: RepairCounts
    units: pd.DataFrame  # one row per distinct (sentence, entity): before/after, labels
    calls: int


def repair_issues(
    issues: Sequence[Issue],
    models: Mapping[str, Any],
    *,
    fill_mask: Any = None,
    cache: Any = None,
    granularity: Granularity = "fine",
    repairer_options: Mapping[str, Any] | None = None,
    similarity: Any = None,
) -> list[RepairOutcome]:
    """Repair both sentences of every issue (TIN section 3.5) and count TT/TF/FT/FF.

    One batched pass per model; each distinct (sentence, suspicious-entity set) is
    repaired once.
    """
    from .repair import MiniLMSimilarity, Repairer

    sim = similarity or MiniLMSimilarity()
    out = []
    for name, model in models.items():
        mine = [i for i in issues if i.model == name]
        if not mine:
            continue
        per_sentence: dict[str, tuple[tuple[Span, ...], dict[tuple[int, int], Judged]]] = {}
        for i in mine:
            for j in i.sides:
                spans, ents = per_sentence.setdefault(j.text, (j.spans, {}))
                ents.setdefault((j.span.start, j.span.end), j)
        repairer = Repairer(
            model, fill_mask=fill_mask, cache=cache, name=name, similarity=sim, **dict(repairer_options or {})
        )
        texts = list(per_sentence)
        items = [(t, per_sentence[t][0], [Span(a, b) for a, b in per_sentence[t][1]]) for t in texts]
        repaired = repairer.repair(items)
        rows, pairs = [], []
        for t, (new_spans, relabels) in zip(texts, repaired):
            for rel, j in zip(relabels, per_sentence[t][1].values()):
                before = after = None
                if j.gold is not None:
                    before = judge(j.spans, j.gold, j.span, granularity) is None
                    after = judge(new_spans, j.gold, j.span, granularity) is None
                    pairs.append((before, after))
                rows.append(
                    {
                        "model": name,
                        "side": j.side,
                        "text": t,
                        "entity": t[j.span.start : j.span.end],
                        "start": j.span.start,
                        "end": j.span.end,
                        "before": _labels(j.spans, j.span),
                        "after": _labels(new_spans, j.span),
                        "relabel": "unchanged" if not rel.decided else (rel.label or "NULL"),
                        "p_score": rel.score,
                        "mutants": rel.mutants,
                        "correct_before": before,
                        "correct_after": after,
                    }
                )
        out.append(RepairOutcome(name, RepairCounts.from_pairs(pairs), pd.DataFrame(rows), repairer.calls))
    return out


def _labels(spans: Iterable[Span], target: Span) -> str:
    over = [s for s in spans if s.overlaps(target)]
    return "; ".join(f"{s.start}-{s.end} {s.label}" for s in over) or "NULL"


def repair_table(outcomes: Sequence[RepairOutcome]) -> pd.DataFrame:
    """Table 6: TT, TF, FT, FF, NumError, NumCorrect, Err2Cor, Cor2Err, ErrorReduce per model."""
    return pd.DataFrame([{"model": o.model, **o.counts.as_row(), "model_calls": o.calls} for o in outcomes])


@dataclass
class NEREvaluation:
    """All of TIN's tables for one run (each a DataFrame the report and widgets render)."""

    issues: list[Issue]
    precision: pd.DataFrame
    categories: pd.DataFrame
    kinds: pd.DataFrame
    repair: pd.DataFrame | None
    repairs: list[RepairOutcome]

    def issue_frame(self) -> pd.DataFrame:
        return issue_frame(self.issues)


def evaluate(
    results: Any,
    models: Mapping[str, Any] | None = None,
    *,
    gold: Any = None,
    fill_mask: Any = None,
    granularity: Granularity = "fine",
    cache: Any = None,
    repairer_options: Mapping[str, Any] | None = None,
    similarity: Any = None,
) -> NEREvaluation:
    """Issues, precision (Table 3), error categories, and, given ``models`` (the same
    ``{name: model}`` the run used), the repair metrics (Table 6)."""
    issues = find_issues(results, gold=gold, granularity=granularity)
    outcomes = (
        repair_issues(
            issues,
            models,
            fill_mask=fill_mask,
            cache=cache,
            granularity=granularity,
            repairer_options=repairer_options,
            similarity=similarity,
        )
        if models
        else []
    )
    return NEREvaluation(
        issues=issues,
        precision=precision_table(results, issues),
        categories=category_table(issues),
        kinds=kind_table(issues),
        repair=repair_table(outcomes) if models else None,
        repairs=outcomes,
    )
