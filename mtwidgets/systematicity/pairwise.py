"""The relation ``pairwise-systematicity``: sentiment order kept under a neutral sentence.

Section 4.1 of the paper, on the classification task's sentiment models: for every ordered
pair of sources ``(x1, x2)``, the premise ``P_src = s_pos(f(x1)) > s_pos(f(x2))`` is the order
of the positive-sentiment scores, the hypothesis ``P_flw`` the same order after the same
transformation ``T`` of both (a short neutral sentence added at the start or the end, Table
1), and the relation holds when ``P_src <=> P_flw``. ``s_pos`` is the score of the label
``"positive"`` among the prediction's scores (``label=`` picks another).

One relation, one slice per transformation. The premise is the same source order under
every ``T``, Table 1 reports one safety per ``T`` and Table 2 counts each source's
violations over all of them, so the transformations are slices of one relation
(``"transformation=start: Thank you."``) pooled in its ``"overall"`` row; user-given
sentences (``sentences=``) add slices, not catalogue names.

It is an *aggregated* relation (:mod:`mtwidgets.core.aggregate`): the runner predicts each
source and each follow-up once (``k`` sources and ``k`` follow-ups per transformation) and
:class:`PairwiseCounter` counts the ``k(k - 1)`` ordered pairs per transformation in
O(k log k) (:mod:`mtwidgets.systematicity.counting`, where *ties* are defined), with the
violations of each source from the same pass. No pair is ever materialised; the results
keep counts, the worst and best sources (Table 2) and a few example pairs.

Pair accounting per transformation over ``k`` sources: every ordered pair of distinct
sources is satisfied, a violation, not applicable (a source the transformation refuses, or
a model output without the score; with ``ties="skip"`` also tied pairs) or an error (the
model failed on an input of one of the two sources), so the four counts sum to ``k(k - 1)``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..core.aggregate import Evaluated, aggregate_row, slice_name
from ..core.errors import InputError
from ..core.predictions import Prediction
from ..core.relation import Check, Group, MetamorphicRelation, OutputProperty, RelationSpec, build_from_table
from ..text.inputs import ClassificationInput
from .concatenate import Concatenate, concatenations
from .counting import PairCounts, Ties, check_ties, pairwise_counts

__all__ = ["NAME", "PAPER", "PairwiseCounter", "PositiveScore", "build", "pair_check"]

NAME = "pairwise-systematicity"
TASK = ClassificationInput.task  # the sentiment models answer the classification task
PAPER = ("Manino et al. 2022, Systematicity, Compositionality and Transitivity of Deep NLP Models: a "
         "Metamorphic Testing Perspective (Findings of ACL 2022)")
OPTIONS: tuple[str, ...] = ("sentences", "ties", "label", "worst")
EXPECTED = "s_pos(f(x1)) > s_pos(f(x2)) <=> s_pos(f(x1')) > s_pos(f(x2')), for every ordered pair of sources"
_NOT_ONE_GROUP = (
    "pairwise systematicity compares pairs of sources: run it over a data set (mt.run) for its counts"
)


def pair_check(s1: float, s2: float, f1: float, f2: float, ties: Ties = "strict") -> Check:
    """The verdict of the ordered pair ``(x1, x2)`` with source scores ``s1, s2`` and
    follow-up scores ``f1, f2`` (the test case the Explorer shows), with a one-line reason."""
    check_ties(ties)
    premise, hypothesis = s1 > s2, f1 > f2
    said = f"s(x1) {s1:.4g} {_cmp(s1, s2)} s(x2) {s2:.4g}; s(x1') {f1:.4g} {_cmp(f1, f2)} s(x2') {f2:.4g}"
    expected = f"s(x1') {'>' if premise else '<='} s(x2')"
    if ties == "skip" and (s1 == s2 or f1 == f2):
        return Check("not_applicable", None, f"{said}: a tie has no order to keep (ties='skip')")
    if premise == hypothesis:
        return Check("pass", expected, f"{said}: order kept")
    return Check("violation", expected, f"{said}: order {'lost' if premise else 'made up'}")


def _cmp(a: float, b: float) -> str:
    return ">" if a > b else "<" if a < b else "="


class PositiveScore(OutputProperty):
    """Reads ``s_pos``, the score of ``label`` among a prediction's scores (case ignored).

    A source whose prediction has no such score cannot be ordered: its groups are not
    applicable, so its follow-ups are never predicted. Pairs are checked by
    :class:`PairwiseCounter` over the whole run; one group alone tests nothing."""

    description = EXPECTED

    def __init__(self, label: str = "positive") -> None:
        if not isinstance(label, str) or not label.strip():
            raise InputError(f"label must name the score to order by (e.g. 'positive'), got {label!r}")
        self.label = label.strip()
        self._wanted = self.label.casefold()

    def score(self, prediction: Prediction) -> float | None:
        """``s_pos`` of ``prediction`` (``None`` when it has no finite score of the label)."""
        for name, value in prediction.scores:
            if (name == self.label or name.casefold() == self._wanted) and math.isfinite(value):
                return float(value)
        return None

    def missing(self, prediction: Prediction) -> str:
        """Why ``prediction`` gives no score to order by."""
        if not prediction.scores:
            return f"the model gave no scores (label {prediction.label!r} only), so no {self.label!r} score to order by"
        names = ", ".join(name for name, _ in prediction.scores[:6])
        return f"the model gave no {self.label!r} score (its scores: {names})"

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        if sources and self.score(sources[0]) is None:
            return self.missing(sources[0])
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        return Check("not_applicable", None, _NOT_ONE_GROUP)


# What one transformation did to each source position: ("ok", "", follow-up, its score), or
# ("not_applicable" | "error", reason, None, nan).
_Slice = dict[int, tuple[str, str, Any, float]]


@dataclass
class _Sources:
    """Every source of the run in order, with its score and what each transformation did."""

    inputs: list[Any] = field(default_factory=list)
    rows: list[Any] = field(default_factory=list)
    labels: list[str | None] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    whole: dict[int, tuple[str, str]] = field(default_factory=dict)  # refused or failed under every T
    slices: dict[str, _Slice] = field(default_factory=dict)
    _where: dict[tuple[Any, str], int] = field(default_factory=dict)

    def position(self, g: Group) -> int:
        """The position of the group's source (a data row and its input), added if new."""
        x = g.sources[0]
        ident = (g.source_index if isinstance(g.source_index, (int, str)) else repr(g.source_index), x.key())
        found = self._where.get(ident)
        if found is None:
            found = self._where[ident] = len(self.inputs)
            self.inputs.append(x)
            self.rows.append(_plain(g.source_index))
            self.labels.append(None)
            self.scores.append(math.nan)
        return found


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") and callable(value.item) else value


@dataclass(frozen=True)
class PairwiseCounter:
    """The aggregator of ``pairwise-systematicity``: evaluated groups -> aggregate rows
    (``"overall"`` first, then one slice per transformation).

    Parameters
    ----------
    ties:
        ``"strict"`` (the paper's strict order) or ``"skip"``; see
        :mod:`mtwidgets.systematicity.counting`.
    label:
        The score ordered (``"positive"``).
    worst:
        How many of the worst sources (lowest share of satisfied pairs, Table 2) each row's
        ``detail`` lists; the best ``min(worst, 3)`` are listed too.
    examples:
        Violating example pairs per slice (and up to 2 satisfied ones).
    """

    ties: Ties = "strict"
    label: str = "positive"
    worst: int = 10
    examples: int = 3

    #: how the Explorer shows one pair live (see :class:`mtwidgets.core.views.MultiSourceParts`)
    explorer_multi_source: ClassVar[str] = "mtwidgets.systematicity.explorer:PairwiseCase"

    def __post_init__(self) -> None:
        check_ties(self.ties)
        for name in ("worst", "examples"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(f"{name} must be a whole number >= 0, got {value!r}")

    def __call__(self, relation: MetamorphicRelation, model: str, evaluated: Sequence[Evaluated]) -> list[dict[str, Any]]:
        reader = PositiveScore(self.label)
        sources = self._collect(evaluated, reader)
        transformation = relation.transformation
        labels = [c.label for c in getattr(transformation, "sentences", ())]
        labels += [t for t in sources.slices if t not in labels]
        k = len(sources.inputs)
        pooled = np.zeros((2, k), dtype=np.int64)  # satisfied, violations per source over every T
        tested = np.zeros(k, dtype=bool)  # tested under at least one T
        why: dict[int, str] = {}  # the first reason a source was not tested
        rows: list[dict[str, Any]] = []
        examples: list[dict[str, Any]] = []
        pairs: Counter[str] = Counter()
        for t in labels:
            row, counts, at, refused = self._slice(relation, model, sources, t, transformation, pooled)
            tested[at] = True
            for position, reason in refused.items():
                why.setdefault(position, reason)
            rows.append(row)
            examples.extend(_mix(row["examples"], 1))
            pairs.update(counts.as_dict())
        overall = aggregate_row(
            relation=relation.name, task=relation.task, model=model,
            satisfied=sum(r["satisfied"] for r in rows), violations=sum(r["violations"] for r in rows),
            not_applicable=sum(r["not_applicable"] for r in rows), errors=sum(r["errors"] for r in rows),
            examples=_mix(examples, 8),
            detail={
                "ties": self.ties, "label": self.label, "sources": k,
                "tested_sources": int(tested.sum()), "transformations": labels, "pairs": dict(pairs),
                "not_applicable_sources": dict(Counter(r for p, r in why.items() if not tested[p]).most_common()),
                **self._table_2(sources, np.arange(k), pooled[0], pooled[1]),
            },
        )
        return [overall, *rows]

    # -- collecting ---------------------------------------------------------------------
    def _collect(self, evaluated: Sequence[Evaluated], reader: PositiveScore) -> _Sources:
        sources = _Sources()
        slices = sources.slices
        for e in evaluated:
            g = e.group
            p = sources.position(g)
            if e.source_outputs and sources.labels[p] is None:
                sources.labels[p] = e.source_outputs[0].label
                score = reader.score(e.source_outputs[0])
                sources.scores[p] = math.nan if score is None else score
            t = g.meta.get("transformation") if g.meta else None
            reason = e.reason or g.not_applicable or "no follow-up"
            if t is None:  # the source as a whole: no transformation applied, or it failed
                sources.whole[p] = ("error" if e.status == "error" else "not_applicable", reason)
                continue
            state = slices.get(str(t))
            if state is None:
                state = slices[str(t)] = {}
            if e.status != "ok":
                state[p] = (e.status, reason, None, math.nan)
                continue
            followup = reader.score(e.followup_outputs[0]) if e.followup_outputs else None
            if followup is None or math.isnan(sources.scores[p]):
                why = reader.missing(e.followup_outputs[0]) if e.followup_outputs else "no follow-up output"
                state[p] = ("not_applicable", f"follow-up: {why}", None, math.nan)
            else:
                state[p] = ("ok", "", g.followups[0], followup)
        return sources

    # -- one transformation -------------------------------------------------------------
    def _slice(
        self, relation: MetamorphicRelation, model: str, sources: _Sources, label: str, transformation: Any,
        pooled: Any,
    ) -> tuple[dict[str, Any], PairCounts, Any, dict[int, str]]:
        """The row of transformation ``label``, its pair classes, the positions of the
        sources it tested and why it tested none of the others (errors left out)."""
        state = sources.slices.get(label, {})
        concatenation = transformation.slot(label) if hasattr(transformation, "slot") else None
        tested: list[int] = []
        failed = 0
        refused: dict[int, str] = {}
        for p in range(len(sources.inputs)):
            status, reason = state[p][:2] if p in state else sources.whole.get(p, ("not_applicable", ""))
            if status == "ok":
                tested.append(p)
            elif status == "error":
                failed += 1
            else:
                if not reason:
                    reason = (concatenation.refusal(sources.inputs[p]) if concatenation is not None else None) \
                        or "the transformation refused it"
                refused[p] = reason
        at = np.asarray(tested, dtype=np.int64)
        s = np.asarray(sources.scores, dtype=np.float64)[at] if len(at) else np.zeros(0)
        f = np.asarray([state[p][3] for p in tested], dtype=np.float64)
        counts = pairwise_counts(s, f)
        satisfied, violations, tied = counts.totals(self.ties)
        per_sat, per_viol, _ = counts.per_source(self.ties)
        pooled[0, at] += per_sat
        pooled[1, at] += per_viol
        k, m, reach = len(sources.inputs), len(tested), len(tested) + failed
        followups = [state[p][2] for p in tested]
        row = aggregate_row(
            relation=relation.name, task=relation.task, model=model, slice=slice_name("transformation", label),
            satisfied=satisfied, violations=violations,
            not_applicable=k * (k - 1) - reach * (reach - 1) + tied, errors=reach * (reach - 1) - m * (m - 1),
            examples=self._examples(sources, label, at, s, f, followups, per_viol, per_sat),
            detail={"ties": self.ties, "label": self.label, "sources": k, "tested_sources": m,
                    "error_sources": failed, "pairs": counts.as_dict(),
                    "not_applicable_sources": dict(Counter(refused.values()).most_common()),
                    **self._table_2(sources, at, per_sat, per_viol)},
        )
        return row, counts, at, refused

    # -- display --------------------------------------------------------------------------
    def _table_2(self, sources: _Sources, at: Any, satisfied: Any, violations: Any) -> dict[str, Any]:
        """The worst and the best sources by their share of satisfied pairs (Table 2)."""
        tested = (satisfied + violations) > 0
        idx, sat, viol = at[tested], satisfied[tested], violations[tested]
        share = sat / np.maximum(sat + viol, 1)
        worst = np.lexsort((idx, -viol, share))[: self.worst]
        best = np.lexsort((idx, -sat, -share))[: min(self.worst, 3)]

        def entry(i: int) -> dict[str, Any]:
            p = int(idx[i])
            return {"source_index": sources.rows[p], "text": sources.inputs[p].display(),
                    "label": sources.labels[p], "score": sources.scores[p], "satisfied": int(sat[i]),
                    "violations": int(viol[i]), "safety": float(share[i])}

        return {"worst_sources": [entry(int(i)) for i in worst], "best_sources": [entry(int(i)) for i in best]}

    def _examples(
        self, sources: _Sources, label: str, at: Any, s: Any, f: Any, followups: list[Any], per_viol: Any,
        per_sat: Any,
    ) -> list[dict[str, Any]]:
        """A few pairs, deterministic: for the sources with the most violations the partner
        that flips the order most clearly, then satisfied pairs of the safest sources."""
        out: list[dict[str, Any]] = []
        seen: set[tuple[int, int]] = set()
        for want, per, limit in (("violation", per_viol, self.examples), ("pass", per_sat, min(2, self.examples))):
            found = 0
            for i in np.lexsort((np.arange(len(at)), -per))[: 4 * limit + 4]:
                if found >= limit or per[i] == 0:
                    break
                j = _partner(int(i), s, f, want, self.ties)
                if j is None or (min(i, j), max(i, j)) in seen:
                    continue
                seen.add((min(i, j), max(i, j)))
                out.append(self._example(sources, label, at, s, f, followups, int(i), j))
                found += 1
        return out

    def _example(
        self, sources: _Sources, label: str, at: Any, s: Any, f: Any, followups: list[Any], i: int, j: int
    ) -> dict[str, Any]:
        # x1 is the one the premise (or, for a source tie, the follow-up) puts above.
        if s[j] > s[i] or (s[j] == s[i] and f[j] > f[i]):
            i, j = j, i
        check = pair_check(float(s[i]), float(s[j]), float(f[i]), float(f[j]), self.ties)

        def side(n: int) -> dict[str, Any]:
            p = int(at[n])
            return {"source_index": sources.rows[p], "text": sources.inputs[p].display(),
                    "followup": followups[n].display(), "score": float(s[n]), "followup_score": float(f[n])}

        return {"verdict": check.verdict, "transformation": label, "x1": side(i), "x2": side(j),
                "reason": check.reason}


def _partner(i: int, s: Any, f: Any, want: str, ties: Ties) -> int | None:
    """The source whose pair with ``i`` has verdict ``want`` and the clearest orders."""
    ds, df = s - s[i], f - f[i]
    strict = (ds * df < 0) if want == "violation" else (ds * df > 0)
    margin = np.minimum(np.abs(ds), np.abs(df))
    if not strict.any() and want == "violation" and ties == "strict":
        strict = (ds == 0) != (df == 0)  # tied on one side only: one of its two orders violates
        margin = np.abs(ds) + np.abs(df)
    if not strict.any():
        return None
    return int(np.flatnonzero(strict)[np.argmax(margin[strict])])


def _mix(examples: Sequence[Mapping[str, Any]], limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` examples, violations first."""
    ordered = sorted(examples, key=lambda e: e.get("verdict") != "violation")
    return [dict(e) for e in ordered[:limit]]


# -- the catalogue row ----------------------------------------------------------------------
def _counter(options: Mapping[str, Any]) -> PairwiseCounter:
    return PairwiseCounter(ties=options.get("ties", "strict"), label=options.get("label", "positive"),
                           worst=options.get("worst", 10))


TABLE: dict[str, RelationSpec] = {
    NAME: RelationSpec(
        category="pairwise systematicity",
        expected=EXPECTED,
        description=("Add the same short neutral sentence at the start or the end of both sources (Table 1's "
                     "six, or the sentences given); the order of their positive-sentiment scores must not change. "
                     "Counted over every ordered pair of sources, one slice per sentence."),
        transformation=lambda options: Concatenate(concatenations(options.get("sentences"))),
        property=lambda options: PositiveScore(options.get("label", "positive")),
        n_sources=2,
        aggregate=_counter,
    ),
}


def build(name: str, **options: Any) -> MetamorphicRelation:
    """``pairwise-systematicity`` with its options: ``sentences`` (``(text, position)``
    pairs; default :data:`~mtwidgets.systematicity.concatenate.TABLE_1`), ``ties``
    (``"strict"`` or ``"skip"``), ``label`` (the score ordered, ``"positive"``) and
    ``worst`` (sources listed per row)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise InputError(f"{name} takes the options {', '.join(OPTIONS)}; got {', '.join(unknown)}")
    return build_from_table(TABLE, name, task=TASK, paper=PAPER, options=options)
