"""The NLI task's sample: compositions of the paper's contexts with insertion pairs.

Built from the shipped contexts and WordNet on first use (no data file), so the sample and
the pairwise-compositionality material are the same sentences. The sample is a table of
compositions (:data:`~mtwidgets.nli.material.FRAME_COLUMNS`): it reads as plain premise /
hypothesis pairs and as compositions, so every NLI relation runs on it.
"""

from __future__ import annotations

from typing import Any

from .contexts import PAPER_CONTEXTS
from .lexicon import insertion_pairs
from .material import FRAME_COLUMNS, compositions, frame_row

SAMPLE_DOMAINS = ("plant", "event", "place", "animal", "object")


def sample(per_relation: int = 3) -> Any:
    """A DataFrame of compositions: per context of the paper's Table 3, up to
    ``per_relation`` compositions with a hypernym pair, a hyponym pair and an unrelated
    pair each, in a fixed order."""
    import pandas as pd

    pairs = insertion_pairs(SAMPLE_DOMAINS, cross_domain=0, max_hypernym_pairs=6)
    taken: dict[tuple[str, str], int] = {}
    rows: list[dict[str, Any]] = []
    for x in compositions(PAPER_CONTEXTS, pairs):
        key = (x.context, x.relation)
        if taken.get(key, 0) >= per_relation:
            continue
        taken[key] = taken.get(key, 0) + 1
        rows.append(frame_row(x))
    return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))
