"""Counting pairwise systematicity over all pairs of sources in O(k log k).

Pairwise systematicity (section 4 of the paper) compares every ordered pair ``(i, j)`` of
distinct sources: the premise is ``P_src = s_i > s_j`` on the source scores, the hypothesis
``P_flw = f_i > f_j`` on the follow-up scores (both the paper's strict order ``P_ord``), and
the relation holds when ``P_src <=> P_flw``. Over ``k`` sources that is ``k(k - 1)`` test
cases, but every one of them is decided by how the *unordered* pair ``{i, j}`` is ordered
on the two sides, which falls in exactly one of five classes:

========================  =======================  ==========================  ===================
class of ``{i, j}``       ``s``                    ``f``                       ordered pairs
========================  =======================  ==========================  ===================
concordant                ``s_i != s_j``           same strict order as ``s``  2 satisfied
discordant                ``s_i != s_j``           opposite strict order       2 violations
tied in the source only   ``s_i == s_j``           ``f_i != f_j``              see *ties*
tied in the follow-up     ``s_i != s_j``           ``f_i == f_j``              see *ties*
tied on both sides        ``s_i == s_j``           ``f_i == f_j``              see *ties*
========================  =======================  ==========================  ===================

Ties (scores compared exactly, as floats) are decided by the ``ties`` policy:

- ``"strict"`` (the default, the paper's definition read literally): ``>`` is false for equal
  scores, so a pair tied on one side only is one violation and one satisfied ordered pair
  (the strict side orders the pair in one direction, the tied side in neither), and a pair
  tied on both sides is two satisfied ordered pairs (``False <=> False``);
- ``"skip"``: a pair tied on either side has no order to keep or to lose, so both of its
  ordered pairs are *not applicable*; only strictly ordered pairs are tested.

So only the five class sizes are needed, overall and per source, never the ``k^2`` pairs.
The ties come from counting equal values (``numpy.unique``); the discordant pairs from a
strict dominance count ``a_i = #{j: s_j < s_i and f_j < f_i}`` taken by a bottom-up merge
sort (:func:`smaller_before`, ``log2 k`` NumPy passes), since

    ``D_i = #{s_j < s_i} + #{f_j < f_i} - 2 a_i - #{s_j < s_i, f_j = f_i} - #{s_j = s_i, f_j < f_i}``

is the number of partners discordant with source ``i``. Everything is O(k log k) time and
O(k) memory. :func:`brute_force` is the O(k^2) definition, for tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..core.errors import InputError

__all__ = ["TIES", "PairCounts", "Ties", "brute_force", "pairwise_counts", "smaller_before", "verdicts"]

Ties = Literal["strict", "skip"]
TIES: tuple[str, ...] = ("strict", "skip")

IntArray = Any  # a NumPy int64 array


def check_ties(ties: object) -> Ties:
    """``ties`` if it is a known policy, else an :class:`InputError` listing them."""
    if ties not in TIES:
        raise InputError(f"ties must be one of {', '.join(repr(t) for t in TIES)}, got {ties!r}")
    return ties  # type: ignore[return-value]


def verdicts(
    concordant: Any, discordant: Any, tied_one_side: Any, tied_both: Any, ties: Ties = "strict"
) -> tuple[Any, Any, Any]:
    """``(satisfied, violations, not_applicable)`` ordered pairs from unordered-pair class
    sizes (plain ints or NumPy arrays of per-source counts), under the ``ties`` policy
    (module docstring). ``tied_one_side`` is the source-only plus the follow-up-only ties."""
    if check_ties(ties) == "strict":
        return 2 * concordant + tied_one_side + 2 * tied_both, 2 * discordant + tied_one_side, 0 * discordant
    return 2 * concordant, 2 * discordant, 2 * (tied_one_side + tied_both)


@dataclass(frozen=True)
class PairCounts:
    """The five classes of the ``k(k - 1) / 2`` unordered pairs of ``k`` sources (module
    docstring), in total and per source (``per_*``: how many partners ``j`` of source
    ``i`` fall in the class; arrays in the order the scores were given)."""

    sources: int
    concordant: int
    discordant: int
    tied_source_only: int
    tied_followup_only: int
    tied_both: int
    per_concordant: IntArray
    per_discordant: IntArray
    per_tied_source_only: IntArray
    per_tied_followup_only: IntArray
    per_tied_both: IntArray

    @property
    def pairs(self) -> int:
        """Unordered pairs of distinct sources."""
        return self.sources * (self.sources - 1) // 2

    def totals(self, ties: Ties = "strict") -> tuple[int, int, int]:
        """``(satisfied, violations, not_applicable)`` over the ``k(k - 1)`` ordered pairs."""
        sat, viol, na = verdicts(self.concordant, self.discordant, self.tied_source_only + self.tied_followup_only,
                                 self.tied_both, ties)
        return int(sat), int(viol), int(na)

    def per_source(self, ties: Ties = "strict") -> tuple[IntArray, IntArray, IntArray]:
        """``(satisfied, violations, not_applicable)`` per source over the ``2(k - 1)``
        ordered pairs it takes part in (as ``x1`` or ``x2``); each array sums to twice the
        total, since every pair has two sources."""
        return verdicts(self.per_concordant, self.per_discordant,  # type: ignore[return-value]
                        self.per_tied_source_only + self.per_tied_followup_only, self.per_tied_both, ties)

    def as_dict(self) -> dict[str, int]:
        """The class sizes (unordered pairs), JSON-able."""
        return {"concordant": self.concordant, "discordant": self.discordant,
                "tied_source_only": self.tied_source_only, "tied_followup_only": self.tied_followup_only,
                "tied_both": self.tied_both}


def _scores(values: Sequence[float] | Any, what: str) -> Any:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be numbers, got {_brief(values)}") from None
    if array.ndim != 1:
        raise InputError(f"{what} must be a flat sequence of numbers, got shape {array.shape}")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise InputError(f"{what} must be finite numbers; position {int(bad[0])} is {array[bad[0]]!r}")
    return array


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def smaller_before(values: IntArray) -> IntArray:
    """For each position ``p``, how many earlier positions hold a strictly smaller value:
    ``out[p] = #{q < p: values[q] < values[p]}``, for non-negative ints (ranks).

    A bottom-up merge sort done with NumPy: at width ``w`` every run of ``w`` positions is
    sorted, and each pair of neighbouring runs is merged by one stable sort of the whole
    array on ``(pair, value, side)``. The left run's elements sort after the right run's on
    equal values, so a right element's place in the merged pair, minus its place in its own
    run, is the number of left elements strictly smaller than it; every pair of positions
    meets in exactly one merge. ``log2(n)`` passes over ``n`` elements: O(n log n).
    """
    v = np.asarray(values, dtype=np.int64)
    n = v.size
    out = np.zeros(n, dtype=np.int64)
    if n < 2:
        return out
    span = 2 * (int(v.max()) + 1)  # room for (value, side) inside one pair's keys
    slot = np.arange(n, dtype=np.int64)
    origin = slot.copy()  # the original position of the element now at each slot
    vals = v.copy()
    width = 1
    while width < n:
        pair = slot // (2 * width)
        right = (slot - pair * 2 * width) >= width
        order = np.argsort(pair * span + 2 * vals + ~right, kind="stable")
        merged = np.empty(n, dtype=np.int64)
        merged[order] = slot  # where each element lands
        out[origin[right]] += (merged - slot + width)[right]
        origin, vals = origin[order], vals[order]
        width *= 2
    return out


def _smaller_within(group: IntArray, value: IntArray) -> IntArray:
    """``#{j: group_j == group_i and value_j < value_i}`` for each ``i`` (ranks as ints)."""
    size = int(value.max()) + 1 if value.size else 1
    key = group * size + value
    ordered = np.sort(key)
    return np.searchsorted(ordered, key, "left") - np.searchsorted(ordered, group * size, "left")


def pairwise_counts(source_scores: Sequence[float] | Any, followup_scores: Sequence[float] | Any) -> PairCounts:
    """The five pair classes (module docstring) of the sources whose scores are given,
    source ``i`` scoring ``source_scores[i]`` and its follow-up ``followup_scores[i]``.

    O(k log k) time, O(k) memory. Raises :class:`InputError` for sequences of different
    lengths or values that are not finite numbers.
    """
    s = _scores(source_scores, "source scores")
    f = _scores(followup_scores, "follow-up scores")
    if s.size != f.size:
        raise InputError(f"got {s.size} source scores but {f.size} follow-up scores; give one of each per source")
    k = s.size
    if k == 0:
        empty = np.zeros(0, dtype=np.int64)
        return PairCounts(0, 0, 0, 0, 0, 0, empty, empty, empty, empty, empty)
    _, rs, count_s = np.unique(s, return_inverse=True, return_counts=True)
    _, rf, count_f = np.unique(f, return_inverse=True, return_counts=True)
    rs, rf = rs.astype(np.int64).ravel(), rf.astype(np.int64).ravel()
    _, rb, count_b = np.unique(rs * count_f.size + rf, return_inverse=True, return_counts=True)
    tie_s, tie_f, tie_b = count_s[rs] - 1, count_f[rf] - 1, count_b[rb.ravel()] - 1
    lower_s = (np.cumsum(count_s) - count_s)[rs]  # partners with a strictly lower source score
    lower_f = (np.cumsum(count_f) - count_f)[rf]
    # a_i = #{j: s_j < s_i and f_j < f_i}: sources by s ascending, equal s by f descending
    # (so an equal s never counts), then the earlier ones with a smaller f.
    order = np.lexsort((-rf, rs))
    below = np.empty(k, dtype=np.int64)
    below[order] = smaller_before(rf[order])
    discordant = lower_s + lower_f - 2 * below - _smaller_within(rf, rs) - _smaller_within(rs, rf)
    only_s, only_f = tie_s - tie_b, tie_f - tie_b
    concordant = (k - 1) - discordant - only_s - only_f - tie_b
    return PairCounts(
        sources=k,
        concordant=int(concordant.sum()) // 2,
        discordant=int(discordant.sum()) // 2,
        tied_source_only=int(only_s.sum()) // 2,
        tied_followup_only=int(only_f.sum()) // 2,
        tied_both=int(tie_b.sum()) // 2,
        per_concordant=concordant,
        per_discordant=discordant,
        per_tied_source_only=only_s,
        per_tied_followup_only=only_f,
        per_tied_both=tie_b,
    )


def brute_force(
    source_scores: Sequence[float] | Any, followup_scores: Sequence[float] | Any, ties: Ties = "strict"
) -> tuple[tuple[int, int, int], tuple[IntArray, IntArray, IntArray]]:
    """The definition, pair by pair: ``((satisfied, violations, not_applicable),
    (per-source satisfied, violations, not_applicable))`` over every ordered pair of
    distinct sources, from the full ``k x k`` comparison matrices (O(k^2) memory: for tests
    and benchmarks on small ``k``)."""
    s = _scores(source_scores, "source scores")
    f = _scores(followup_scores, "follow-up scores")
    check_ties(ties)
    premise = s[:, None] > s[None, :]
    hypothesis = f[:, None] > f[None, :]
    off = ~np.eye(s.size, dtype=bool)
    if ties == "skip":
        tested = (s[:, None] != s[None, :]) & (f[:, None] != f[None, :]) & off
    else:
        tested = off
    violation = (premise != hypothesis) & tested
    satisfied = (premise == hypothesis) & tested
    skipped = off & ~tested

    def both_ways(m: Any) -> Any:  # ordered pairs a source takes part in, as x1 or as x2
        return m.sum(axis=1) + m.sum(axis=0)

    totals = (int(satisfied.sum()), int(violation.sum()), int(skipped.sum()))
    return totals, (both_ways(satisfied), both_ways(violation), both_ways(skipped))
