"""Lexical relations between two words (synonymy, hypernymy) and their three-way transitivity
(section 6 of the systematicity paper).

- the task's input and prediction: :mod:`mtwidgets.lexical.inputs` (:class:`WordPairInput`);
- word pairs from WordNet and Cilin, split by word: :mod:`mtwidgets.lexical.data`;
- the embedded models (heads over word vectors / MiniLM): :mod:`mtwidgets.lexical.models`;
- counting all triplets with matrix products: :mod:`mtwidgets.lexical.transitivity`;
- Table 5 and the aggregate rows: :mod:`mtwidgets.lexical.experiment`;
- the catalogue relations ``transitivity-syn`` / ``transitivity-hyp``:
  :mod:`mtwidgets.lexical.relations`.

Importing this package loads neither spaCy nor torch.
"""

from __future__ import annotations

from .experiment import (
    RELATION_NAMES,
    TransitivityResult,
    TransitivityResults,
    miniature,
    result_from_matrix,
    sample_words,
    table5,
    transitivity,
)
from .inputs import RELATIONS, WordPairInput, pair_prediction, relation_flags
from .transitivity import TransitivityCounts, brute_force_counts, sample_triplets, transitivity_counts

__all__ = [
    "RELATIONS",
    "RELATION_NAMES",
    "TransitivityCounts",
    "TransitivityResult",
    "TransitivityResults",
    "WordPairInput",
    "brute_force_counts",
    "miniature",
    "pair_prediction",
    "relation_flags",
    "result_from_matrix",
    "sample_triplets",
    "sample_words",
    "table5",
    "transitivity",
    "transitivity_counts",
]
