"""The O(k log k) pair count equals the definition, pair by pair, on random data with ties."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtwidgets.core.errors import InputError
from mtwidgets.systematicity.counting import brute_force, pairwise_counts, smaller_before, verdicts


def _by_definition(s: list[float], f: list[float], ties: str) -> tuple[tuple[int, int, int], list[list[int]]]:
    """The paper's definition in plain Python, one ordered pair at a time: P_src = s_i > s_j,
    P_flw = f_i > f_j, a violation when they differ; with ties='skip' a pair tied on either
    side is not applicable. Per source: the ordered pairs it takes part in (as x1 or x2)."""
    totals = [0, 0, 0]  # satisfied, violations, not applicable
    per = [[0, 0, 0] for _ in s]
    for i, j in itertools.permutations(range(len(s)), 2):
        if ties == "skip" and (s[i] == s[j] or f[i] == f[j]):
            outcome = 2
        else:
            outcome = 0 if (s[i] > s[j]) == (f[i] > f[j]) else 1
        totals[outcome] += 1
        per[i][outcome] += 1
        per[j][outcome] += 1
    return (totals[0], totals[1], totals[2]), per


def _assert_matches(s: list[float], f: list[float]) -> None:
    counts = pairwise_counts(s, f)
    k = len(s)
    assert counts.pairs == k * (k - 1) // 2
    classes = counts.as_dict()
    assert sum(classes.values()) == counts.pairs
    for ties in ("strict", "skip"):
        totals, per = _by_definition(s, f, ties)
        assert counts.totals(ties) == totals, (ties, s, f)
        got = np.stack(counts.per_source(ties), axis=1) if k else np.zeros((0, 3))
        assert got.tolist() == per, (ties, s, f)
        fast_brute, per_brute = brute_force(s, f, ties)
        assert fast_brute == totals
        assert np.stack(per_brute, axis=1).tolist() == per


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5, 6, 7])
def test_counts_equal_the_definition_on_random_data_with_many_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(25):
        k = int(rng.integers(0, 40))
        levels = int(rng.integers(1, 6))  # few distinct scores: ties on both sides, often together
        s = (rng.integers(0, levels, k) / levels).tolist()
        f = (rng.integers(0, levels, k) / levels).tolist()
        _assert_matches(s, f)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_counts_equal_brute_force_at_k_300(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = 300
    s = np.round(rng.random(k), 1)  # 11 distinct values: about 10% of pairs tied
    f = np.where(rng.random(k) < 0.7, s, np.round(rng.random(k), 2))  # mostly the same order
    counts = pairwise_counts(s, f)
    assert counts.tied_source_only + counts.tied_both > 3000 and counts.tied_followup_only > 0
    assert counts.discordant > 0 and counts.concordant > 0
    for ties in ("strict", "skip"):
        totals, per = brute_force(s, f, ties)
        assert counts.totals(ties) == totals
        for fast, slow in zip(counts.per_source(ties), per):
            assert np.array_equal(fast, slow)
        assert sum(totals) == k * (k - 1)


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.25, 0.5, 1.0, -3.0]), st.sampled_from([0.0, 0.1, 0.5, 0.9])),
                max_size=30))
def test_counts_equal_the_definition_for_any_scores(pairs: list[tuple[float, float]]) -> None:
    _assert_matches([p[0] for p in pairs], [p[1] for p in pairs])


@settings(max_examples=40, derandomize=True, database=None, deadline=None)
@given(st.integers(min_value=2, max_value=300), st.integers(min_value=1, max_value=12), st.integers(0, 2**31))
def test_counts_equal_brute_force_for_k_up_to_300(k: int, levels: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = rng.integers(0, levels, k).astype(float)
    f = rng.integers(0, levels, k).astype(float)
    counts = pairwise_counts(s, f)
    for ties in ("strict", "skip"):
        totals, per = brute_force(s, f, ties)
        assert counts.totals(ties) == totals
        assert all(np.array_equal(a, b) for a, b in zip(counts.per_source(ties), per))


def test_the_five_classes_of_a_hand_made_example() -> None:
    # x0 < x1 < x2 on the sources; the follow-up swaps x1 and x2 and ties x0 with x1's.
    s = [0.1, 0.5, 0.9, 0.9]
    f = [0.3, 0.3, 0.2, 0.8]
    c = pairwise_counts(s, f)
    # {0,1}: f tied -> follow-up only; {0,2}: discordant; {0,3}: concordant; {1,2}: discordant;
    # {1,3}: concordant; {2,3}: source tie only.
    assert c.as_dict() == {"concordant": 2, "discordant": 2, "tied_source_only": 1, "tied_followup_only": 1,
                           "tied_both": 0}
    assert c.per_discordant.tolist() == [1, 1, 2, 0]
    # strict: 2 per concordant, 2 violations per discordant, 1 + 1 per one-sided tie
    assert c.totals("strict") == (2 * 2 + 2, 2 * 2 + 2, 0)
    assert c.totals("skip") == (4, 4, 4)


def test_ties_on_both_sides_are_kept_orders() -> None:
    c = pairwise_counts([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    assert c.tied_both == 3 and c.totals("strict") == (6, 0, 0) and c.totals("skip") == (0, 0, 6)


def test_verdicts_work_on_arrays_and_ints_alike() -> None:
    assert verdicts(3, 1, 2, 1, "strict") == (10, 4, 0)
    sat, viol, na = verdicts(np.array([3, 0]), np.array([1, 2]), np.array([2, 0]), np.array([1, 1]), "skip")
    assert sat.tolist() == [6, 0] and viol.tolist() == [2, 4] and na.tolist() == [6, 2]


def test_smaller_before_counts_strictly_smaller_earlier_values() -> None:
    rng = np.random.default_rng(5)
    for n in (0, 1, 2, 3, 7, 64, 65, 129):
        v = rng.integers(0, 6, n)
        expected = [sum(1 for q in range(p) if v[q] < v[p]) for p in range(n)]
        assert smaller_before(v).tolist() == expected


def test_small_and_degenerate_inputs() -> None:
    empty = pairwise_counts([], [])
    assert empty.sources == 0 and empty.totals() == (0, 0, 0) and empty.per_discordant.size == 0
    one = pairwise_counts([0.3], [0.7])
    assert one.totals() == (0, 0, 0) and one.per_concordant.tolist() == [0]
    # numpy arrays, ints and large values all work
    assert pairwise_counts(np.array([3, 1, 2]), np.array([30, 10, 20])).totals() == (6, 0, 0)
    assert pairwise_counts([1e300, -1e300], [-1e300, 1e300]).totals() == (0, 2, 0)


@pytest.mark.parametrize(
    ("s", "f", "message"),
    [
        ([0.1, 0.2], [0.1], "2 source scores but 1 follow-up"),
        ([0.1, float("nan")], [0.1, 0.2], "finite numbers; position 1"),
        ([0.1, 0.2], [float("inf"), 0.2], "finite numbers; position 0"),
        ([[0.1, 0.2]], [[0.1, 0.2]], "flat sequence"),
        (["a", "b"], [0.1, 0.2], "must be numbers"),
    ],
)
def test_bad_scores_are_input_errors(s: object, f: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        pairwise_counts(s, f)  # type: ignore[arg-type]


def test_an_unknown_tie_policy_is_an_input_error() -> None:
    with pytest.raises(InputError, match="ties must be one of 'strict', 'skip'"):
        pairwise_counts([0.1, 0.2], [0.2, 0.1]).totals("loose")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="ties must be one of"):
        brute_force([0.1], [0.1], "none")  # type: ignore[arg-type]
