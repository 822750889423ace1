"""Pairwise compositionality counts against a brute force over every pair of compositions.

The O(k log k) order counts and the aggregated rows are compared, on random scores with
many ties, with a direct evaluation of the paper's output property over all k(k-1)/2 pairs
of each context (P_hid <=> P_out downward, P_hid <=> not P_out upward; a tie in either
score not applicable; a pair with a composition the model failed on an error, with one it
gave nothing to order not applicable), per context, per insertion pair, per monotonicity
and overall.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest

from mtwidgets.core.errors import InputError, MTError
from mtwidgets.nli.compositionality import compositionality_rows, safety
from mtwidgets.nli.contexts import Context
from mtwidgets.nli.inputs import CompositionInput
from mtwidgets.nli.lexicon import InsertionPair, Word
from mtwidgets.nli.material import compose
from mtwidgets.nli.ordering import order_counts


def _brute_order(h: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    k = len(h)
    c, d, t = np.zeros(k, int), np.zeros(k, int), np.zeros(k, int)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            s = np.sign(h[i] - h[j]) * np.sign(e[i] - e[j])
            (c if s > 0 else d if s < 0 else t)[i] += 1
    return c, d, t


@pytest.mark.parametrize("seed", range(12))
def test_order_counts_equal_brute_force_with_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(0, 300)) if seed else 300
    levels = int(rng.integers(2, 12))  # few levels: many ties in both scores
    h = rng.integers(0, levels, k).astype(float)
    e = rng.integers(0, levels, k).astype(float)
    counts = order_counts(h, e)
    c, d, t = _brute_order(h, e)
    assert counts.item_concordant.tolist() == c.tolist()
    assert counts.item_discordant.tolist() == d.tolist()
    assert counts.item_tied.tolist() == t.tolist()
    assert (counts.concordant, counts.discordant, counts.tied) == (c.sum() // 2, d.sum() // 2, t.sum() // 2)
    assert counts.pairs == k * (k - 1) // 2


def test_order_counts_on_known_values() -> None:
    counts = order_counts([1, 2, 3], [1, 2, 3])
    assert (counts.concordant, counts.discordant, counts.tied) == (3, 0, 0)
    counts = order_counts([1, 2, 3], [3, 2, 1])
    assert (counts.concordant, counts.discordant, counts.tied) == (0, 3, 0)
    counts = order_counts([1, 1, 2], [5, 4, 4])
    # (0,1) tied in h, (1,2) tied in e, (0,2): h up, e down
    assert (counts.concordant, counts.discordant, counts.tied) == (0, 1, 2)
    assert counts.item_tied.tolist() == [1, 2, 1]


def test_order_counts_reject_bad_scores() -> None:
    with pytest.raises(InputError, match="differ in length"):
        order_counts([1, 2], [1])
    with pytest.raises(InputError, match="NaN"):
        order_counts([1, math.nan], [1, 2])
    with pytest.raises(InputError, match="one score per item"):
        order_counts([[1, 2]], [[1, 2]])


# -- the aggregated rows ----------------------------------------------------------------------


def _word(lemma: str) -> Word:
    return Word(lemma, "animal", f"{lemma}.n.01", lemma + "s", True, True)


CONTEXTS = (
    Context("There was no {x}.", "down", ("animal",)),
    Context("There is a {x} in the garden.", "up", ("animal",)),
    Context("Every {x} in the zoo was fed.", "down", ("animal",)),
)


def _material(seed: int, n_pairs: int) -> tuple[list[CompositionInput], list[InsertionPair], np.ndarray,
                                                np.ndarray]:
    rng = np.random.default_rng(seed)
    relations = ("⊇", "⊆", "none")
    pairs = [InsertionPair(_word(f"w{i}a"), _word(f"w{i}b"), relations[i % 3]) for i in range(n_pairs)]
    cases = []
    for context in CONTEXTS:
        for pair in pairs:
            if rng.random() < 0.15:  # a context does not take every pair
                continue
            cases.append(compose(context, pair))
    h = rng.integers(0, 6, len(cases)).astype(float)
    e = rng.integers(0, 6, len(cases)).astype(float) / 5
    return cases, pairs, h, e


def _label(x: CompositionInput) -> str:
    return f"({x.a}, {x.b})"


def _paper_verdict(mono: str, h1: float, h2: float, e1: float, e2: float) -> str:
    """The paper's formula in both orientations; a tie in either score: not applicable."""
    if h1 == h2 or e1 == e2:
        return "na"
    verdicts = set()
    for a, b, c, d in ((h1, h2, e1, e2), (h2, h1, e2, e1)):
        p_hid, p_out = a > b, c > d
        verdicts.add(p_hid == p_out if mono == "down" else p_hid == (not p_out))
    assert len(verdicts) == 1  # without ties both orientations agree
    return "pass" if verdicts.pop() else "violation"


def _brute_rows(cases: list[CompositionInput], h: np.ndarray, e: np.ndarray,
                status: list[str] | None = None) -> dict[str, list[int]]:
    """slice -> [tests, satisfied, violations, not applicable, errors], pair by pair."""
    status = status or ["ok"] * len(cases)
    out: dict[str, list[int]] = {}

    def add(key: str, verdict: str) -> None:
        tally = out.setdefault(key, [0, 0, 0, 0, 0])
        tally[{"pass": 1, "violation": 2, "na": 3, "error": 4}[verdict]] += 1
        tally[0] = tally[1] + tally[2]

    for context in CONTEXTS:
        members = [i for i, c in enumerate(cases) if c.context == context.template]
        for i, j in combinations(members, 2):
            if "not_applicable" in (status[i], status[j]):
                verdict = "na"
            elif "error" in (status[i], status[j]):
                verdict = "error"
            else:
                verdict = _paper_verdict(context.monotonicity, h[i], h[j], e[i], e[j])
            for key in ("overall", f"monotonicity={context.monotonicity}", f"context={context.display}",
                        f"insertion={_label(cases[i])}", f"insertion={_label(cases[j])}"):
                add(key, verdict)
    return out


def _got(rows: list[dict[str, object]]) -> dict[str, list[object]]:
    return {str(r["slice"]): [r["tests"], r["satisfied"], r["violations"], r["not_applicable"], r["errors"]]
            for r in rows}


@pytest.mark.parametrize("seed", range(6))
def test_rows_equal_brute_force(seed: int) -> None:
    cases, pairs, h, e = _material(seed, n_pairs=25 + 10 * seed)
    rows = compositionality_rows(cases, h, e, model="m", seed=seed)
    # the overall row counts each pair once; an insertion row counts the pairs that involve it
    assert _got(rows) == _brute_rows(cases, h, e)
    for r in rows:
        assert r["relation"] == "pairwise-compositionality" and r["task"] == "nli" and r["model"] == "m"
        assert r["tests"] == r["satisfied"] + r["violations"]
        assert r["safety"] == pytest.approx(safety(r["satisfied"], r["violations"]), nan_ok=True)
        for example in r["examples"]:
            x1, x2 = example["x1"], example["x2"]
            assert example["verdict"] == _paper_verdict(example["monotonicity"], x1["s_hyp"], x2["s_hyp"],
                                                        x1["score"], x2["score"])
            assert x1["s_hyp"] >= x2["s_hyp"] and example["monotonicity"] in example["reason"]
            assert cases[x1["source_index"]].display() == x1["text"]


@pytest.mark.parametrize("seed", range(4))
def test_the_worst_compositions_are_counted_pair_by_pair(seed: int) -> None:
    cases, pairs, h, e = _material(seed, n_pairs=30)
    rows = {r["slice"]: r for r in compositionality_rows(cases, h, e, model="m", seed=seed,
                                                          sources=[f"row{i}" for i in range(len(cases))])}
    sat, viol = np.zeros(len(cases), int), np.zeros(len(cases), int)
    for context in CONTEXTS:
        members = [i for i, c in enumerate(cases) if c.context == context.template]
        for i, j in combinations(members, 2):
            verdict = _paper_verdict(context.monotonicity, h[i], h[j], e[i], e[j])
            for n in (i, j):
                sat[n] += verdict == "pass"
                viol[n] += verdict == "violation"
    share = sat / np.maximum(sat + viol, 1)
    tested = [i for i in range(len(cases)) if sat[i] + viol[i]]
    expected = sorted(tested, key=lambda i: (share[i], -viol[i], i))[:10]
    worst = rows["overall"]["detail"]["worst_sources"]
    assert [w["source_index"] for w in worst] == [f"row{i}" for i in expected]
    assert [(w["satisfied"], w["violations"]) for w in worst] == [(sat[i], viol[i]) for i in expected]
    for context in CONTEXTS:
        for w in rows[f"context={context.display}"]["detail"]["worst_sources"]:
            i = int(w["source_index"][3:])
            assert cases[i].context == context.template and (w["satisfied"], w["violations"]) == (sat[i], viol[i])


@pytest.mark.parametrize("seed", range(4))
def test_compositions_the_model_failed_on_or_gave_nothing_for_count_as_errors_or_not_applicable(seed: int) -> None:
    cases, pairs, h, e = _material(seed, n_pairs=30)
    rng = np.random.default_rng(100 + seed)
    status = [str(s) for s in rng.choice(["ok", "ok", "ok", "ok", "error", "not_applicable"], len(cases))]
    h = np.where(np.array(status) == "ok", h, np.nan)  # scores of the others are never read
    rows = compositionality_rows(cases, h, e, model="m", status=status, seed=seed)
    assert _got(rows) == _brute_rows(cases, h, e, status)
    assert all(ex["verdict"] in ("pass", "violation") for r in rows for ex in r["examples"])


def test_rows_are_deterministic_and_examples_show_both_verdicts() -> None:
    cases, pairs, h, e = _material(1, n_pairs=30)
    first = compositionality_rows(cases, h, e, model="m", seed=3)
    again = compositionality_rows(cases, h, e, model="m", seed=3)
    assert first == again
    context_rows = [r for r in first if r["slice"].startswith("context=")]
    assert all({x["verdict"] for x in r["examples"]} == {"pass", "violation"} for r in context_rows)
    overall = first[0]
    assert overall["slice"] == "overall"
    worst = overall["detail"]["worst_insertions"]
    assert [w["violations"] for w in worst] == sorted((w["violations"] for w in worst), reverse=True)


def test_upward_and_downward_contexts_read_the_same_scores_oppositely() -> None:
    pairs = [InsertionPair(_word(f"w{i}a"), _word(f"w{i}b"), "none") for i in range(4)]
    cases = [compose(context, pair) for context in CONTEXTS[:2] for pair in pairs]
    h = np.array([1.0, 2, 3, 4] * 2)  # the same order of hypernymy and entailment in both contexts
    rows = {r["slice"]: r for r in compositionality_rows(cases, h, h / 10, model="m")}
    assert rows["monotonicity=down"]["safety"] == 1.0
    assert rows["monotonicity=up"]["safety"] == 0.0
    assert rows["overall"]["tests"] == 12 and rows["overall"]["safety"] == 0.5


def test_rows_refuse_mismatched_scores_and_safety_is_nan_without_tests() -> None:
    cases, pairs, h, e = _material(0, n_pairs=5)
    with pytest.raises(MTError, match="compositions"):
        compositionality_rows(cases, h[:-1], e, model="m")
    with pytest.raises(MTError, match="status"):
        compositionality_rows(cases, h, e, model="m", status=["fine"] * len(cases))
    assert math.isnan(safety(0, 0))


def test_a_context_or_pair_given_two_ways_is_refused() -> None:
    up = CompositionInput.compose("There was no {x}.", "up", "dog", "cat", "none")
    down = CompositionInput.compose("There was no {x}.", "down", "cow", "cat", "none")
    with pytest.raises(MTError, match="upward and as downward"):
        compositionality_rows([up, down], [1, 2], [1, 2], model="m")
    unrelated = CompositionInput.compose("There was no {x}.", "down", "dog", "cat", "none")
    hypernym = CompositionInput.compose("There is no {x}.", "down", "dog", "cat", "⊇")
    with pytest.raises(MTError, match="relations none and ⊇"):
        compositionality_rows([unrelated, hypernym], [1, 2], [1, 2], model="m")


@pytest.mark.parametrize("seed", range(4))
def test_across_relations_equal_brute_force(seed: int) -> None:
    cases, pairs, h, e = _material(seed, n_pairs=30)
    rows = {r["slice"]: r for r in compositionality_rows(cases, h, e, model="m", seed=seed)}
    totals: dict[str, list[int]] = {}
    for context in CONTEXTS:
        members = [i for i, c in enumerate(cases) if c.context == context.template]
        for i, j in combinations(members, 2):
            if cases[i].relation == cases[j].relation:
                continue
            verdict = _paper_verdict(context.monotonicity, h[i], h[j], e[i], e[j])
            for key in ("overall", f"monotonicity={context.monotonicity}", f"context={context.display}"):
                tally = totals.setdefault(key, [0, 0, 0])
                tally[{"pass": 0, "violation": 1, "na": 2}[verdict]] += 1
    for key, (sat, viol, na) in totals.items():
        across = rows[key]["detail"]["across_relations"]
        assert [across["tests"], across["satisfied"], across["violations"], across["not_applicable"]] == \
            [sat + viol, sat, viol, na], key
