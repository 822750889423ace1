"""Three-way transitivity counts: matrix products against a brute-force triple loop."""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from mtwidgets.core.errors import InputError
from mtwidgets.lexical.transitivity import (
    as_relation_matrix,
    brute_force_counts,
    sample_triplets,
    transitivity_counts,
)


def _random_matrix(seed: int, n: int, density: float) -> np.ndarray:
    return np.random.default_rng(seed).random((n, n)) < density


def _same(a, b) -> None:  # type: ignore[no-untyped-def]
    assert a.as_tuple() == b.as_tuple() and a.errors == b.errors
    assert a.n == b.n and a.triplets == b.triplets and a.not_applicable == b.not_applicable
    np.testing.assert_array_equal(a.word_sources, b.word_sources)
    np.testing.assert_array_equal(a.word_violations, b.word_violations)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), n=st.integers(0, 60), density=st.floats(0.0, 1.0))
def test_dense_and_sparse_counts_equal_brute_force(seed: int, n: int, density: float) -> None:
    a = _random_matrix(seed, n, density)
    expected = brute_force_counts(a)
    _same(transitivity_counts(a), expected)
    _same(transitivity_counts(sparse.csr_matrix(a)), expected)
    _same(transitivity_counts(a, method="sparse"), expected)
    assert expected.triplets == n * (n - 1) * (n - 2) == expected.sources + expected.not_applicable


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), n=st.integers(0, 40), known=st.floats(0.0, 1.0), failed=st.floats(0.0, 0.5))
def test_counts_with_unpredicted_and_failed_pairs_equal_brute_force(
    seed: int, n: int, known: float, failed: float
) -> None:
    rng = np.random.default_rng(seed)
    a = rng.random((n, n)) < 0.4
    k = rng.random((n, n)) < known
    f = (rng.random((n, n)) < failed) & ~k
    expected = brute_force_counts(a, known=k, failed=f)
    _same(transitivity_counts(a, known=k, failed=f), expected)
    _same(transitivity_counts(sparse.csr_matrix(a), known=sparse.csr_matrix(k), failed=f), expected)
    assert expected.sources + expected.errors + expected.not_applicable == expected.triplets
    for i, j, m in sample_triplets(a, k=5, seed=seed, known=k):
        assert a[i, j] and k[i, j] and a[j, m] and k[j, m] and k[i, m] and not a[i, m]


def test_a_failed_closing_pair_is_an_error_and_an_unpredicted_one_not_applicable() -> None:
    a = np.zeros((3, 3), bool)
    a[0, 1] = a[1, 2] = True
    failed = np.zeros((3, 3), bool)
    failed[0, 2] = True
    c = transitivity_counts(a, failed=failed)
    assert (c.sources, c.errors, c.not_applicable) == (0, 1, 5)
    known = np.ones((3, 3), bool)
    known[0, 2] = False
    c = transitivity_counts(a, known=known)
    assert (c.sources, c.errors, c.not_applicable) == (0, 0, 6)
    with pytest.raises(InputError, match="mask has shape"):
        transitivity_counts(a, known=np.ones((4, 4), bool))


def test_brute_force_agrees_with_the_definition_on_a_small_matrix() -> None:
    a = _random_matrix(7, 9, 0.4)
    np.fill_diagonal(a, False)
    triplets = [t for t in itertools.permutations(range(9), 3) if a[t[0], t[1]] and a[t[1], t[2]]]
    violations = [t for t in triplets if not a[t[0], t[2]]]
    c = brute_force_counts(a)
    assert (c.sources, c.violations) == (len(triplets), len(violations))
    assert c.triplets == 9 * 8 * 7
    for r in range(3):  # one count per role per triplet
        assert c.word_sources[:, r].sum() == len(triplets)
        assert c.word_violations[:, r].sum() == len(violations)
    assert c.word_violations[:, 1].tolist() == [sum(1 for t in violations if t[1] == w) for w in range(9)]


def test_a_chain_without_its_shortcut_is_one_violation() -> None:
    a = np.zeros((3, 3), bool)
    a[0, 1] = a[1, 2] = True
    c = transitivity_counts(a)
    assert (c.sources, c.satisfied, c.violations, c.triplets, c.not_applicable) == (1, 0, 1, 6, 5)
    assert c.word_violations.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert sample_triplets(a) == [(0, 1, 2)]
    a[0, 2] = True
    c = transitivity_counts(a)
    assert (c.sources, c.satisfied, c.violations, c.safety) == (1, 1, 0, 1.0)
    assert sample_triplets(a, kind="satisfied") == [(0, 1, 2)] and sample_triplets(a) == []


def test_the_diagonal_is_ignored_and_a_cycle_is_not_a_triplet() -> None:
    a = np.ones((2, 2), bool)  # i -> j -> i is no triplet of distinct words
    c = transitivity_counts(a)
    assert c.as_tuple() == (0, 0, 0) and c.triplets == 0 and np.isnan(c.safety)
    full = np.ones((4, 4), bool)
    assert transitivity_counts(full).as_tuple() == (24, 24, 0)
    assert not as_relation_matrix(full).diagonal().any()


def test_blocked_rows_give_the_same_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = importlib.import_module("mtwidgets.lexical.transitivity")
    a = _random_matrix(3, 57, 0.3)
    whole = transitivity_counts(a)
    monkeypatch.setattr(counting, "_BLOCK_BYTES", 4 * 57 * 5)  # 5 rows per block
    _same(transitivity_counts(a), whole)


def test_without_per_word_middles_the_totals_stay() -> None:
    a = _random_matrix(11, 30, 0.2)
    full, quick = transitivity_counts(a), transitivity_counts(a, per_word=False)
    assert quick.as_tuple() == full.as_tuple()
    assert (quick.word_violations[:, 1] == -1).all()
    np.testing.assert_array_equal(quick.word_violations[:, [0, 2]], full.word_violations[:, [0, 2]])
    with pytest.raises(InputError, match="per_word=True"):
        quick.word_totals()
    assert full.word_totals().sum() == 3 * full.violations


@pytest.mark.parametrize("kind", ["violation", "satisfied"])
def test_sampled_triplets_are_valid_distinct_and_deterministic(kind: str) -> None:
    a = _random_matrix(5, 40, 0.15)
    np.fill_diagonal(a, False)
    got = sample_triplets(a, kind=kind, k=12, seed=3)
    assert got == sample_triplets(sparse.csr_matrix(a), kind=kind, k=12, seed=3)
    assert got == sample_triplets(a, kind=kind, k=12, seed=3)
    assert len(got) == 12 == len(set(got))
    for i, j, k in got:
        assert len({i, j, k}) == 3 and a[i, j] and a[j, k] and a[i, k] == (kind == "satisfied")
    assert got != sample_triplets(a, kind=kind, k=12, seed=4)


def test_asking_for_more_triplets_than_exist_gives_them_all() -> None:
    a = _random_matrix(9, 8, 0.3)
    np.fill_diagonal(a, False)
    every = sorted(
        (t for t in itertools.permutations(range(8), 3) if a[t[0], t[1]] and a[t[1], t[2]] and not a[t[0], t[2]]),
        key=lambda t: (t[0], t[2], t[1]),
    )
    assert sample_triplets(a, k=10_000) == every


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (np.zeros((3, 4), bool), "square"),
        (np.zeros((2, 2, 2), bool), "square"),
        (np.array([[0, 2], [1, 0]]), "booleans"),
        (np.array([[0.0, 0.7], [1.0, 0.0]]), "threshold scores first"),
        (np.array([["a", "b"], ["c", "d"]]), "booleans"),
        (sparse.csr_matrix(np.array([[0.0, 0.5], [1.0, 0.0]])), "booleans"),
    ],
)
def test_bad_matrices_are_refused(matrix: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        transitivity_counts(matrix)


def test_bad_options_are_refused() -> None:
    a = np.zeros((3, 3), bool)
    with pytest.raises(InputError, match="method"):
        transitivity_counts(a, method="cuda")
    with pytest.raises(InputError, match="kind"):
        sample_triplets(a, kind="maybe")
    with pytest.raises(InputError, match="k must be"):
        sample_triplets(a, k=-1)
