"""Pairwise compositionality of an NLI model (section 5 and Table 8 of the systematicity paper).

Every test case is a pair of inputs ``x1 = (C(ℓa1), C(ℓb1))`` and ``x2 = (C(ℓa2), C(ℓb2))``
built on the same context C from two insertion pairs. Its output property relates a
*hidden* premise to an *output* hypothesis:

- ``P_hid``: the order of the hypernymy scores ``s_hyp(z1)`` and ``s_hyp(z2)``, where z is
  the model's second-to-last layer averaged over the tokens of ℓa in the premise and of ℓb
  in the hypothesis, and ``s_hyp`` a linear probe trained on z to tell whether ℓa is a
  hypernym of ℓb;
- ``P_out``: the order of the entailment scores ``s_ent(y1)`` and ``s_ent(y2)``;
- downward-monotone C: ``P_hid ⇔ P_out`` (more hypernymy, more entailment: "There was no
  tree." entails "There was no cherry tree."); upward-monotone C: ``P_hid ⇔ ¬P_out``.

So, within one context, a pair of insertion pairs *satisfies* the relation when the two
scores are concordant (downward) or discordant (upward), and *violates* it otherwise: the
counts over the k(k-1)/2 pairs of a context's k compositions come from
:func:`~mtwidgets.nli.ordering.order_counts` in O(k log k), with per-insertion counts from
the same pass, never the pairs themselves.

Ties. The paper's order is strict (``s(y) < s(y')``). A pair tied in either score is *not
applicable*: with one tie the verdict of the strict formula depends on which input is
called x1 (it flips when the two are swapped), and with two ties it would pass every
downward context and fail every upward one, a property of the formula rather than of the
model. With continuous scores ties are rare; a model that answers labels without scores
ties everything and is refused instead.

A composition the model could not be asked about (it failed on it: an *error*; or it gave
no entailment score or no insertion states: *not applicable*) takes no part in the probe;
each pair it belongs to counts as an error (both compositions reached the model, one
failed) or as not applicable (one of them gave nothing to order).

The probe is trained on the compositions of half of the insertion pairs (both orders of a
pair stay together; a seeded hash chooses) and its accuracy is reported on the other half;
it scores every composition. Results are rows in the aggregated-results contract
(:mod:`mtwidgets.core.aggregate`; one per slice: ``overall``, ``monotonicity=up|down``,
``context=...``, ``insertion=...``), made the same way by :func:`pairwise_compositionality`
(the model called directly) and by the relation ``pairwise-compositionality`` in
``mt.run`` (the runner calls the model; :mod:`mtwidgets.nli.relations`). Each context,
monotonicity and overall row's ``detail`` also holds ``across_relations``: the same counts
over the tested pairs whose insertion pairs differ in lexical relation, the pairs where the
gold relation itself says which input should entail more. Every row's ``detail`` lists its
``worst_sources``: the compositions with the lowest share of satisfied pairs (the paper's
Table 2 for this relation), by their row in the data; its ``examples`` are pairs ``x1``,
``x2`` (``x1`` the one the probe ranks higher) with a one-line reason.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..core.aggregate import aggregate_row, safety, slice_name
from ..core.errors import MTError
from ..core.predictions import Prediction
from ..core.relation import stable_rng
from .contexts import Context, display_template
from .inputs import CompositionInput, NLIInput
from .labels import ENTAILMENT, entailment_score
from .lexicon import InsertionPair, stable_fraction
from .linear import logistic_scores, train_logistic
from .material import compositions
from .ordering import order_counts
from .states import prediction_states

RELATION = "pairwise-compositionality"
TASK = NLIInput.task
EXAMPLES = 3  # per verdict, per row
WORST = 5  # contexts / insertion pairs listed in a row's detail
WORST_SOURCES = 10  # compositions listed in a row's detail (the paper's Table 2 style)

Span = tuple[int, int]
States = Callable[[Sequence[NLIInput], Sequence[tuple[Span, Span]]], np.ndarray]

OK, NOT_APPLICABLE, ERROR = "ok", "not_applicable", "error"


def _pairs_of(k: int) -> int:
    return k * (k - 1) // 2


# -- the material, indexed ------------------------------------------------------------------------


@dataclass(frozen=True)
class ContextInfo:
    """A context as the compositions name it."""

    template: str
    monotonicity: str
    domains: tuple[str, ...]
    source: str

    @cached_property
    def display(self) -> str:
        return display_template(self.template)


@dataclass(frozen=True)
class PairInfo:
    """An insertion pair as the compositions name it."""

    a: str
    b: str
    relation: str
    domain_a: str
    domain_b: str

    @property
    def label(self) -> str:
        """The paper's display form, e.g. ``(tree, cherry tree)``."""
        return f"({self.a}, {self.b})"

    @property
    def family(self) -> str:
        """The unordered pair (both orders of a pair share it)."""
        return "|".join(sorted((self.a, self.b)))


@dataclass
class Material:
    """Compositions indexed by context and by insertion pair, both numbered in order of
    first appearance."""

    inputs: list[CompositionInput]
    contexts: list[ContextInfo] = field(default_factory=list)
    pairs: list[PairInfo] = field(default_factory=list)
    context_of: list[int] = field(default_factory=list)
    pair_of: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        contexts: dict[str, int] = {}
        pairs: dict[tuple[str, str], int] = {}
        for x in self.inputs:
            ci = contexts.get(x.context)
            if ci is None:
                ci = contexts[x.context] = len(self.contexts)
                self.contexts.append(ContextInfo(x.context, x.monotonicity, x.domains, x.source))
            elif self.contexts[ci].monotonicity != x.monotonicity:
                raise MTError(f"the context {x.context!r} is given as upward and as downward monotone; give one")
            pi = pairs.get((x.a, x.b))
            if pi is None:
                pi = pairs[(x.a, x.b)] = len(self.pairs)
                self.pairs.append(PairInfo(x.a, x.b, x.relation, x.domain_a, x.domain_b))
            elif self.pairs[pi].relation != x.relation:
                raise MTError(f"the insertion pair ({x.a}, {x.b}) is given with the relations "
                              f"{self.pairs[pi].relation} and {x.relation}; give one")
            self.context_of.append(ci)
            self.pair_of.append(pi)


# -- counting ---------------------------------------------------------------------------------------


@dataclass
class _Tally:
    satisfied: int = 0
    violations: int = 0
    not_applicable: int = 0
    errors: int = 0

    @property
    def tests(self) -> int:
        return self.satisfied + self.violations

    def add(self, other: _Tally, sign: int = 1) -> None:
        self.satisfied += sign * other.satisfied
        self.violations += sign * other.violations
        self.not_applicable += sign * other.not_applicable
        self.errors += sign * other.errors

    def as_dict(self) -> dict[str, Any]:
        return {"tests": self.tests, "satisfied": self.satisfied, "violations": self.violations,
                "not_applicable": self.not_applicable, "errors": self.errors,
                "safety": safety(self.satisfied, self.violations)}


def _row(model: str, slice_: str, tally: _Tally, examples: list[dict[str, Any]],
         detail: dict[str, Any]) -> dict[str, Any]:
    return aggregate_row(relation=RELATION, task=TASK, model=model, slice=slice_, satisfied=tally.satisfied,
                         violations=tally.violations, not_applicable=tally.not_applicable, errors=tally.errors,
                         examples=examples, detail=detail)


def _verdict(mono: str, h1: float, h2: float, e1: float, e2: float) -> str | None:
    sign = np.sign(h1 - h2) * np.sign(e1 - e2)
    if sign == 0:
        return None
    concordant = sign > 0
    return "pass" if concordant == (mono == "down") else "violation"


def _judge(mono: str, h: np.ndarray, e: np.ndarray) -> Callable[[int, int], str | None]:
    """The verdict of the pair of compositions ``(i, j)`` in a context of monotonicity ``mono``."""

    def judge(i: int, j: int) -> str | None:
        return _verdict(mono, float(h[i]), float(h[j]), float(e[i]), float(e[j]))

    return judge


def _sample(members: Sequence[int], rng: Any, tries: int, n: int, fixed: int | None,
            judge: Callable[[int, int], str | None]) -> list[tuple[int, int, str]]:
    """Up to ``n`` violating and ``n`` passing pairs among ``members`` (with ``fixed`` as
    one side when given), from at most ``tries`` seeded draws."""
    found: dict[str, list[tuple[int, int, str]]] = {"violation": [], "pass": []}
    if len(members) < 2:
        return []
    for _ in range(tries):
        i = fixed if fixed is not None else members[rng.randrange(len(members))]
        j = members[rng.randrange(len(members))]
        if i == j:
            continue
        verdict = judge(i, j)
        if verdict is not None and len(found[verdict]) < n:
            found[verdict].append((i, j, verdict))
        if all(len(v) >= n for v in found.values()):
            break
    return found["violation"] + found["pass"]


def _worst(tally: dict[str, _Tally], n: int = WORST) -> list[dict[str, Any]]:
    ranked = sorted(tally.items(), key=lambda kv: (-kv[1].violations, kv[0]))[:n]
    return [{"name": k, "violations": t.violations, "tests": t.tests, "safety": safety(t.satisfied, t.violations)}
            for k, t in ranked]


@dataclass
class _Scored:
    """Compositions with their scores and status, indexed by context and by insertion pair;
    each composition's satisfied and violating pairs (``item_sat``, ``item_viol``) are
    filled in as its context is counted."""

    material: Material
    h: np.ndarray
    e: np.ndarray
    status: Sequence[str]
    sources: Sequence[Any]  # each composition's row in the user's data
    predicted: Sequence[str | None]
    examples: int
    seed: int
    by_context: dict[int, list[int]] = field(default_factory=dict)
    by_pair: dict[int, list[int]] = field(default_factory=dict)
    ok_by_context: dict[int, list[int]] = field(default_factory=dict)  # the scored ones
    ok_by_pair: dict[int, list[int]] = field(default_factory=dict)
    item_sat: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    item_viol: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __post_init__(self) -> None:
        for idx, (ci, pi) in enumerate(zip(self.material.context_of, self.material.pair_of)):
            self.by_context.setdefault(ci, []).append(idx)
            self.by_pair.setdefault(pi, []).append(idx)
            if self.status[idx] == OK:
                self.ok_by_context.setdefault(ci, []).append(idx)
                self.ok_by_pair.setdefault(pi, []).append(idx)
        self.item_sat = np.zeros(len(self.material.inputs), dtype=np.int64)
        self.item_viol = np.zeros(len(self.material.inputs), dtype=np.int64)

    def judge(self, context: ContextInfo) -> Callable[[int, int], str | None]:
        return _judge(context.monotonicity, self.h, self.e)

    def side(self, n: int) -> dict[str, Any]:
        """One composition of an example pair, as the Batch panel shows a source."""
        pair = self.material.pairs[self.material.pair_of[n]]
        return {"source_index": _plain(self.sources[n]), "text": self.material.inputs[n].display(),
                "insertion": pair.label, "relation": pair.relation, "s_hyp": round(float(self.h[n]), 4),
                "score": round(float(self.e[n]), 4)}

    def example(self, context: ContextInfo, i: int, j: int, verdict: str) -> dict[str, Any]:
        """The pair ``(i, j)`` for display, ``x1`` the one the probe ranks higher."""
        if self.h[j] > self.h[i]:
            i, j = j, i
        return {"verdict": verdict, "context": context.display, "monotonicity": context.monotonicity,
                "reason": _reason(context.monotonicity, self.h[i], self.h[j], self.e[i], self.e[j]),
                "x1": self.side(i), "x2": self.side(j)}

    def worst_sources(self, members: Sequence[int], n: int = WORST_SOURCES) -> list[dict[str, Any]]:
        """The compositions among ``members`` with the lowest share of satisfied pairs (then
        the most violations), each with its counts: the paper's Table 2 for this relation."""
        idx = np.array([i for i in members if self.item_sat[i] + self.item_viol[i] > 0], dtype=np.int64)
        if not len(idx):
            return []
        sat, viol = self.item_sat[idx], self.item_viol[idx]
        share = sat / (sat + viol)
        out = []
        for k in np.lexsort((idx, -viol, share))[:n]:
            i = int(idx[k])
            pair = self.material.pairs[self.material.pair_of[i]]
            out.append({"source_index": _plain(self.sources[i]), "text": self.material.inputs[i].display(),
                        "label": self.predicted[i], "score": round(float(self.e[i]), 4),
                        "s_hyp": round(float(self.h[i]), 4), "satisfied": int(sat[k]), "violations": int(viol[k]),
                        "safety": float(share[k]), "insertion": pair.label,
                        "context": self.material.contexts[self.material.context_of[i]].display})
        return out


def _plain(value: Any) -> Any:
    """A row label as plain Python (a NumPy integer from a DataFrame index becomes an int)."""
    return value.item() if hasattr(value, "item") and callable(value.item) else value


def _reason(mono: str, h1: float, h2: float, e1: float, e2: float) -> str:
    """One line on the pair: the two orders and what the context's monotonicity asks."""
    said = (f"s_hyp(x1) {h1:.4g} {'>' if h1 > h2 else '='} s_hyp(x2) {h2:.4g}; "
            f"s_ent(x1) {e1:.4g} {'>' if e1 > e2 else '<' if e1 < e2 else '='} s_ent(x2) {e2:.4g}")
    wanted = "more" if mono == "down" else "less"
    return f"{said}: a {mono}ward-monotone context wants {wanted} entailment with more hypernymy"


def _first_of_each(shown: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """Up to ``n`` violations, then up to ``n`` passes."""
    return ([x for x in shown if x["verdict"] == "violation"][:n] + [x for x in shown if x["verdict"] == "pass"][:n])


def _tested(counts: Any, down: bool) -> _Tally:
    """The tally of the pairs of ``counts`` (an :class:`~mtwidgets.nli.ordering.OrderCounts`)."""
    sat, viol = (counts.concordant, counts.discordant) if down else (counts.discordant, counts.concordant)
    return _Tally(sat, viol, counts.tied, 0)


def _across_relations(data: _Scored, ok: list[int], down: bool, whole: _Tally) -> _Tally:
    """The tested pairs of a context whose insertion pairs differ in lexical relation (⊇ vs
    ⊆ vs none): the whole minus the pairs within each relation, each counted in O(k log k).
    Pairs within one relation (two unrelated insertion pairs) order hypernymy scores that
    carry no gold difference; these pairs do."""
    out = _Tally()
    out.add(whole)
    pairs = data.material.pairs
    for relation in ("⊇", "⊆", "none"):
        part = [i for i in ok if pairs[data.material.pair_of[i]].relation == relation]
        out.add(_tested(order_counts(data.h[part], data.e[part]), down), -1)
    return out


def _context_row(data: _Scored, ci: int, model: str, per_pair: dict[int, dict[str, _Tally]]) -> tuple[
        dict[str, Any], _Tally, _Tally]:
    """One context's row (its pairs counted in O(k log k)), its tally and its tally across
    relations; adds each insertion pair's share to ``per_pair`` (pair -> context -> tally)."""
    members = data.by_context[ci]
    context = data.material.contexts[ci]
    ok = data.ok_by_context.get(ci, [])
    failed = sum(1 for i in members if data.status[i] == ERROR)
    n, reach = len(members), len(ok) + failed
    counts = order_counts(data.h[ok], data.e[ok])
    down = context.monotonicity == "down"
    tally = _tested(counts, down)
    tally.errors = _pairs_of(reach) - _pairs_of(len(ok))
    tally.not_applicable += _pairs_of(n) - _pairs_of(reach)
    across = _across_relations(data, ok, down, _tested(counts, down))
    item_sat, item_viol = ((counts.item_concordant, counts.item_discordant) if down
                           else (counts.item_discordant, counts.item_concordant))
    at = {idx: pos for pos, idx in enumerate(ok)}
    within: dict[str, _Tally] = {}
    for idx in members:
        pos = at.get(idx)
        if pos is not None:
            share = _Tally(int(item_sat[pos]), int(item_viol[pos]), int(counts.item_tied[pos]) + n - reach, failed)
        elif data.status[idx] == ERROR:
            share = _Tally(0, 0, n - reach, reach - 1)
        else:
            share = _Tally(0, 0, n - 1, 0)
        data.item_sat[idx], data.item_viol[idx] = share.satisfied, share.violations
        p = data.material.pair_of[idx]
        per_pair.setdefault(p, {}).setdefault(context.display, _Tally()).add(share)
        within.setdefault(data.material.pairs[p].label, _Tally()).add(share)
    rng = stable_rng(data.seed, RELATION, context.template)
    judged = _sample(ok, rng, 40 * data.examples, data.examples, None, data.judge(context))
    shown = [data.example(context, i, j, v) for i, j, v in judged]
    row = _row(model, slice_name("context", context.display), tally, shown, {
        "template": context.template, "monotonicity": context.monotonicity, "domains": list(context.domains),
        "source": context.source, "insertions": len(members), "worst_insertions": _worst(within),
        "across_relations": across.as_dict(), "worst_sources": data.worst_sources(members),
    })
    return row, tally, across


def _insertion_row(data: _Scored, p: int, model: str, contexts: dict[str, _Tally]) -> tuple[dict[str, Any], _Tally]:
    """One insertion pair's row: the pairs of compositions that involve it, all contexts."""
    pair = data.material.pairs[p]
    tally = _Tally()
    for t in contexts.values():
        tally.add(t)
    rng = stable_rng(data.seed, RELATION, pair.label)
    shown = []
    for idx in data.ok_by_pair.get(p, [])[: 2 * data.examples]:
        ci = data.material.context_of[idx]
        context = data.material.contexts[ci]
        judged = _sample(data.ok_by_context[ci], rng, 20, 1, idx, data.judge(context))
        shown += [data.example(context, i, j, v) for i, j, v in judged]
    row = _row(model, slice_name("insertion", pair.label), tally, _first_of_each(shown, data.examples), {
        "a": pair.a, "b": pair.b, "relation": pair.relation,
        "domains": sorted({d for d in (pair.domain_a, pair.domain_b) if d}), "contexts": len(contexts),
        "worst_contexts": _worst(contexts), "worst_sources": data.worst_sources(data.by_pair[p])})
    return row, tally


def compositionality_rows(
    material: Material | Sequence[CompositionInput], s_hyp: Sequence[float] | np.ndarray,
    s_ent: Sequence[float] | np.ndarray, *, model: str, status: Sequence[str] | None = None,
    sources: Sequence[Any] | None = None, predicted: Sequence[str | None] | None = None,
    examples: int = EXAMPLES, seed: int = 0, overall_detail: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The aggregated rows (see the module notes) of compositions with their scores:
    overall, by monotonicity, by context, by insertion pair. ``status`` says, per
    composition, ``"ok"`` (scored), ``"not_applicable"`` or ``"error"`` (its scores are
    then ignored); default: all scored. ``sources`` (each composition's row label, default
    its position) and ``predicted`` (the model's labels) name the worst compositions."""
    data_material = material if isinstance(material, Material) else Material(list(material))
    k = len(data_material.inputs)
    h = np.asarray(s_hyp, dtype=float)
    e = np.asarray(s_ent, dtype=float)
    if not (len(h) == len(e) == k):
        raise MTError(f"{k} compositions but {len(h)} hypernymy and {len(e)} entailment scores")
    statuses = list(status) if status is not None else [OK] * k
    if len(statuses) != k or not set(statuses) <= {OK, NOT_APPLICABLE, ERROR}:
        raise MTError(f"give one status of {OK}, {NOT_APPLICABLE} or {ERROR} per composition")
    rows_of = list(sources) if sources is not None else list(range(k))
    labels = list(predicted) if predicted is not None else [None] * k
    if len(rows_of) != k or len(labels) != k:
        raise MTError(f"{k} compositions but {len(rows_of)} row labels and {len(labels)} predicted labels")
    data = _Scored(data_material, h, e, statuses, rows_of, labels, examples, seed)
    per_pair: dict[int, dict[str, _Tally]] = {}
    totals = {"overall": _Tally(), "up": _Tally(), "down": _Tally()}
    across = {key: _Tally() for key in totals}
    shown: dict[str, list[dict[str, Any]]] = {key: [] for key in totals}
    context_rows, context_tally = [], {}
    for ci in sorted(data.by_context):
        row, tally, crossing = _context_row(data, ci, model, per_pair)
        context_rows.append(row)
        context_tally[data_material.contexts[ci].display] = tally
        for key in ("overall", data_material.contexts[ci].monotonicity):
            totals[key].add(tally)
            across[key].add(crossing)
            shown[key] += _first_of_each(row["examples"], 1)
    insertion_rows, pair_tally = [], {}
    for p in sorted(per_pair):
        row, tally = _insertion_row(data, p, model, per_pair[p])
        insertion_rows.append(row)
        pair_tally[data_material.pairs[p].label] = tally
    detail = dict(overall_detail or {})
    detail.update({"contexts": len(data.by_context), "insertions": len(per_pair), "compositions": k,
                   "worst_contexts": _worst(context_tally), "worst_insertions": _worst(pair_tally)})
    rows = []
    for key, slice_ in (("overall", "overall"), ("up", "monotonicity=up"), ("down", "monotonicity=down")):
        inside = [ci for ci in data.by_context if key == "overall" or data_material.contexts[ci].monotonicity == key]
        extra = detail if key == "overall" else {"contexts": len(inside)}
        extra = {**extra, "across_relations": across[key].as_dict(),
                 "worst_sources": data.worst_sources([i for ci in inside for i in data.by_context[ci]])}
        rows.append(_row(model, slice_, totals[key], _first_of_each(shown[key], examples), extra))
    return rows + context_rows + insertion_rows


# -- the probe ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeResult:
    """The hypernymy probe's scores for every composition and its accuracies."""

    scores: np.ndarray
    accuracy: float  # on the held-out insertion pairs' compositions
    train_accuracy: float
    held_out: np.ndarray  # bool per composition


def _held_out_families(families: Sequence[tuple[str, bool]], share: float, seed: int) -> set[str]:
    """The unordered insertion pairs (``(family, related)``) whose compositions the probe
    does not train on: ``share`` of the related ones and of the unrelated ones, spread by a
    seeded hash."""
    held: set[str] = set()
    for related in (True, False):
        ranked = sorted({f for f, r in families if r == related}, key=lambda f: stable_fraction(str(seed), "probe", f))
        held.update(f for i, f in enumerate(ranked) if math.floor((i + 1) * share) > math.floor(i * share))
    return held


def hypernymy_probe(states: np.ndarray, pairs: Sequence[PairInfo | InsertionPair], *, held_out: float = 0.5,
                    seed: int = 0) -> ProbeResult:
    """Train the linear probe ``s_hyp`` (is ℓa a hypernym of ℓb?) on the states of the
    compositions of part of the insertion pairs (``pairs``: each composition's pair;
    ``1 - held_out`` of the related and of the unrelated ones) and score all (see the
    module notes)."""
    if len(states) != len(pairs):
        raise MTError(f"{len(pairs)} compositions but {len(states)} hidden states")
    y = np.array([p.relation == "⊇" for p in pairs], dtype=np.int64)
    held = _held_out_families([(p.family, p.relation != "none") for p in pairs], held_out, seed)
    test = np.array([p.family in held for p in pairs], dtype=bool)
    train = ~test
    if len(set(y[train].tolist())) < 2:
        raise MTError("the probe's training part needs hypernym and non-hypernym insertion pairs; give more pairs")
    probe = train_logistic(np.asarray(states, dtype=np.float32)[train], y[train])
    scores = logistic_scores(probe, np.asarray(states, dtype=np.float32))
    hit = (scores > 0) == (y == 1)
    acc = float(hit[test].mean()) if test.any() else math.nan
    return ProbeResult(scores, acc, float(hit[train].mean()), test)


# -- scoring the model's answers --------------------------------------------------------------------


NO_STATES = ("the model gave no insertion states with its answer (the probe reads them): use an mtwidgets NLI "
             "adapter (mtwidgets.nli.nli_classifier / nli_pipeline, with a fast tokenizer) or nli-minilm")


@dataclass
class _Answers:
    """What the model said of each composition, read for the relation."""

    s_ent: np.ndarray
    states: list[np.ndarray | None]
    status: list[str]
    reasons: list[str]


def _read_answers(inputs: Sequence[CompositionInput], predictions: Sequence[Prediction | None],
                  states: np.ndarray | None, status: Sequence[str], reasons: Sequence[str], *, strict: bool,
                  model: str) -> _Answers:
    """Each composition's entailment score and insertion states; one that has none is not
    applicable (``strict``: an :class:`MTError` instead)."""
    out = _Answers(np.full(len(inputs), np.nan), [None] * len(inputs), list(status), list(reasons))
    for i, p in enumerate(predictions):
        if out.status[i] != OK:
            continue
        if p is None:
            out.status[i], out.reasons[i] = NOT_APPLICABLE, "no prediction"
            continue
        try:
            out.s_ent[i] = entailment_score(p.scores, model=model)
        except MTError as exc:
            if strict:
                raise
            out.status[i], out.reasons[i] = NOT_APPLICABLE, str(exc)
            continue
        z = states[i] if states is not None else prediction_states(p)
        if z is None:
            if strict:
                raise MTError(f"{model}: {NO_STATES}; or pass hidden=<callable(inputs, spans) -> array [n, d]>")
            out.status[i], out.reasons[i] = NOT_APPLICABLE, NO_STATES
            continue
        out.states[i] = np.asarray(z, dtype=np.float32)
    sizes = {len(z) for z in out.states if z is not None}
    if len(sizes) > 1:
        raise MTError(f"{model} gave insertion states of different sizes {sorted(sizes)}; one model, one layer")
    return out


@dataclass
class CompositionalityResult:
    """One model's pairwise-compositionality test: the aggregated rows, one row per
    composition (``cases``) and the probe's accuracy."""

    model: str
    rows: list[dict[str, Any]]
    cases: Any  # DataFrame
    probe_accuracy: float
    probe_train_accuracy: float

    def frame(self) -> Any:
        """The rows as a DataFrame (the aggregated-results contract's columns)."""
        from ..core.aggregate import aggregate_frame

        return aggregate_frame(self.rows)

    def summary(self) -> Any:
        """Overall and by monotonicity: tests, satisfied, violations, not applicable, safety."""
        frame = self.frame()
        keep = frame["slice"].isin(["overall", "monotonicity=up", "monotonicity=down"])
        return frame.loc[keep, ["slice", "tests", "satisfied", "violations", "not_applicable", "safety"]]

    def table3(self) -> Any:
        """Contexts sorted by increasing safety (the paper's Table 3)."""
        return table3(self.frame())

    def table4(self) -> Any:
        """Insertion pairs sorted by increasing safety (the paper's Table 4)."""
        return table4(self.frame())


def _slices(frame: Any, prefix: str, model: str | None) -> Any:
    part = frame[(frame["relation"] == RELATION) & frame["slice"].str.startswith(prefix)]
    return part if model is None else part[part["model"] == model]


def table3(aggregates: Any, model: str | None = None) -> Any:
    """The context rows of an aggregates frame (``Results.aggregates`` or
    :meth:`CompositionalityResult.frame`) sorted by increasing safety (the paper's Table 3)."""
    part = _slices(aggregates, "context=", model)
    details = list(part["detail"])
    return part.assign(
        Context=[display_template(d["template"]) for d in details],
        **{"Mon.": [d["monotonicity"].capitalize() for d in details]},
    ).rename(columns={"safety": "Safety"})[["model", "Safety", "Context", "Mon.", "tests", "violations"]] \
        .sort_values(["model", "Safety", "Context"]).reset_index(drop=True)


def table4(aggregates: Any, model: str | None = None) -> Any:
    """The insertion rows of an aggregates frame sorted by increasing safety (the paper's Table 4)."""
    part = _slices(aggregates, "insertion=", model)
    return part.assign(
        **{"Insertion Pair": [s.removeprefix("insertion=") for s in part["slice"]],
           "Lex. Rel.": [d["relation"] for d in part["detail"]]},
    ).rename(columns={"safety": "Safety"})[["model", "Safety", "Insertion Pair", "Lex. Rel.", "tests", "violations"]] \
        .sort_values(["model", "Safety", "Insertion Pair"]).reset_index(drop=True)


def evaluate_compositions(
    inputs: Sequence[CompositionInput], predictions: Sequence[Prediction | None], *, model: str,
    states: np.ndarray | None = None, status: Sequence[str] | None = None, reasons: Sequence[str] | None = None,
    sources: Sequence[Any] | None = None, strict: bool = True, probe_held_out: float = 0.5,
    examples: int = EXAMPLES, seed: int = 0,
) -> CompositionalityResult:
    """Pairwise compositionality of one model from its answers: ``predictions[i]`` for
    ``inputs[i]`` (with the insertion states attached, or ``states`` given, one row per
    composition). ``status``/``reasons`` mark compositions the model was not asked about
    (``"not_applicable"``, ``"error"``); ``sources`` are their row labels in the data
    (default: their positions). ``strict``: a composition without an entailment score or
    states is an :class:`MTError` (else not applicable)."""
    import pandas as pd

    k = len(inputs)
    if len(predictions) != k:
        raise MTError(f"{k} compositions but {len(predictions)} predictions")
    material = Material(list(inputs))
    answers = _read_answers(inputs, predictions, states, status or [OK] * k, reasons or [""] * k,
                            strict=strict, model=model)
    ok = [i for i in range(k) if answers.status[i] == OK]
    s_hyp = np.full(k, np.nan)
    probe: ProbeResult | None = None
    if ok:
        try:
            vectors = [z for z in (answers.states[i] for i in ok) if z is not None]  # every scored one has them
            probe = hypernymy_probe(np.stack(vectors),
                                    [material.pairs[material.pair_of[i]] for i in ok],
                                    held_out=probe_held_out, seed=seed)
        except MTError as exc:
            if strict:
                raise
            for i in ok:
                answers.status[i], answers.reasons[i] = NOT_APPLICABLE, f"no probe: {exc}"
        else:
            s_hyp[ok] = probe.scores
    ok = [i for i in range(k) if answers.status[i] == OK]
    gold = [x.label for x in inputs]
    predicted = [p.label if p is not None else None for p in predictions]
    two_way = float(np.mean([(predicted[i] == ENTAILMENT) == (gold[i] == ENTAILMENT) for i in ok])) if ok else math.nan
    left_out = Counter(answers.reasons[i] or answers.status[i] for i in range(k) if answers.status[i] == NOT_APPLICABLE)
    rows = compositionality_rows(material, s_hyp, answers.s_ent, model=model, status=answers.status,
                                 sources=sources, predicted=predicted, examples=examples, seed=seed, overall_detail={
                                     "probe_accuracy": probe.accuracy if probe else math.nan,
                                     "probe_train_accuracy": probe.train_accuracy if probe else math.nan,
                                     "probe_held_out": probe_held_out, "entailment_accuracy": two_way,
                                     "not_applicable_compositions": dict(left_out.most_common()),
                                     "error_compositions": sum(1 for s in answers.status if s == ERROR)})
    part = np.full(k, "", dtype=object)
    if probe is not None:
        part[ok] = np.where(probe.held_out, "held-out", "train")
    frame = pd.DataFrame({
        "source_index": list(sources) if sources is not None else list(range(k)),
        "context": [material.contexts[c].display for c in material.context_of],
        "monotonicity": [material.contexts[c].monotonicity for c in material.context_of],
        "insertion": [material.pairs[p].label for p in material.pair_of],
        "relation": [material.pairs[p].relation for p in material.pair_of],
        "premise": [x.premise for x in inputs], "hypothesis": [x.hypothesis for x in inputs],
        "gold": gold, "predicted": predicted, "s_ent": answers.s_ent, "s_hyp": s_hyp,
        "probe_part": part, "status": answers.status, "reason": answers.reasons,
    })
    return CompositionalityResult(model, rows, frame, probe.accuracy if probe else math.nan,
                                  probe.train_accuracy if probe else math.nan)


# -- the run -------------------------------------------------------------------------------------


def pairwise_compositionality(
    model: Any, *, contexts: Sequence[Context] | None = None, pairs: Sequence[InsertionPair] | None = None,
    name: str | None = None, hidden: States | None = None, probe_held_out: float = 0.5,
    examples: int = EXAMPLES, seed: int = 0,
) -> CompositionalityResult:
    """Test ``model`` (an NLI model with scores; a Hugging Face adapter or ``nli-minilm``
    also gives the insertion states, of its ``layer=``) on every composition of
    ``contexts`` with ``pairs`` (default: the shipped ones), calling it directly. ``hidden``
    gives the states instead (``hidden(inputs, spans) -> [n, d]``).

    The rows are those of ``mt.run(compositions(contexts, pairs),
    relations="pairwise-compositionality", models={name: model}, seed=seed)``."""
    from ..core.model import as_model

    inputs = compositions(contexts, pairs)
    if not inputs:
        raise MTError("no context accepts any of the insertion pairs (check their domains)")
    label = name or str(getattr(model, "name", None) or type(model).__name__)
    if hidden is None and not callable(getattr(model, "insertion_states", None)):  # refused before any model call
        raise MTError(
            f"pairwise compositionality probes the model's hidden states, and {label!r} has no "
            "insertion_states(inputs, spans); use an mtwidgets Hugging Face NLI adapter or the embedded "
            "nli-minilm, or pass hidden=<callable(inputs, spans) -> array [n, d]>"
        )
    predictions = as_model(model, label).predict(list(inputs))
    states = None if hidden is None else np.asarray(hidden(inputs, [x.spans for x in inputs]), dtype=np.float32)
    if states is not None and len(states) != len(inputs):
        raise MTError(f"hidden= gave {len(states)} rows of states for {len(inputs)} compositions")
    return evaluate_compositions(inputs, predictions, model=label, states=states, strict=True,
                                 probe_held_out=probe_held_out, examples=examples, seed=seed)
