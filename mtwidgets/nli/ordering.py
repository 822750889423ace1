"""Order agreement between two scores over all pairs of k items, in O(k log k).

For items i != j with scores ``h`` and ``e``, the pair is *concordant* when
``(h_i - h_j) * (e_i - e_j) > 0``, *discordant* when it is ``< 0`` and *tied* when either
difference is zero. :func:`order_counts` returns the three totals over the k(k-1)/2
unordered pairs and, per item, how many of its k-1 pairs fall in each class (each pair
counts once for each of its two items), never building the k² pairs: the classes are those
of pairwise systematicity's counter (:func:`mtwidgets.systematicity.counting.pairwise_counts`,
a merge-sort dominance count in NumPy), the three kinds of tie taken together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.errors import InputError
from ..systematicity.counting import pairwise_counts


@dataclass(frozen=True)
class OrderCounts:
    """Totals over unordered pairs, and per-item counts (arrays of length k)."""

    concordant: int
    discordant: int
    tied: int
    item_concordant: np.ndarray
    item_discordant: np.ndarray
    item_tied: np.ndarray

    @property
    def pairs(self) -> int:
        return self.concordant + self.discordant + self.tied


def _scores(values: Sequence[float] | np.ndarray, what: str) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise InputError(f"{what} must be one score per item, got an array of shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise InputError(f"{what} holds NaN or infinite scores at items {np.flatnonzero(~np.isfinite(array))[:5].tolist()}")
    return array


def order_counts(h: Sequence[float] | np.ndarray, e: Sequence[float] | np.ndarray) -> OrderCounts:
    """Concordant, discordant and tied pairs of the two score lists (see the module notes)."""
    h_arr, e_arr = _scores(h, "the first scores"), _scores(e, "the second scores")
    if len(h_arr) != len(e_arr):
        raise InputError(f"the two score lists differ in length: {len(h_arr)} and {len(e_arr)}")
    c = pairwise_counts(h_arr, e_arr)
    item_tied = c.per_tied_source_only + c.per_tied_followup_only + c.per_tied_both
    return OrderCounts(c.concordant, c.discordant, c.tied_source_only + c.tied_followup_only + c.tied_both,
                       c.per_concordant, c.per_discordant, item_tied)
