"""Pairwise systematicity (section 4 of Manino et al. 2022) for the sentiment models of the
classification task.

- :mod:`~mtwidgets.systematicity.concatenate`: the transformations (Table 1's six neutral
  sentences, or the user's), with the sources they refuse and why;
- :mod:`~mtwidgets.systematicity.counting`: the O(k log k) count of satisfied, violating and
  tied pairs, overall and per source, and the O(k^2) definition it is tested against;
- :mod:`~mtwidgets.systematicity.pairwise`: the aggregated relation
  ``pairwise-systematicity`` that the classification task lists in its catalogue.

>>> import mtwidgets as mt
>>> results = mt.run(texts, relations="pairwise-systematicity", models=["sentiment-vader"])  # doctest: +SKIP
>>> results.summary(by=("relation", "model", "slice"))  # doctest: +SKIP
"""

from __future__ import annotations

from .concatenate import TABLE_1, Concatenate, Concatenation
from .counting import TIES, PairCounts, brute_force, pairwise_counts
from .pairwise import NAME, PairwiseCounter, PositiveScore, build, pair_check

__all__ = [
    "NAME",
    "TABLE_1",
    "TIES",
    "Concatenate",
    "Concatenation",
    "PairCounts",
    "PairwiseCounter",
    "PositiveScore",
    "brute_force",
    "build",
    "pair_check",
    "pairwise_counts",
]
