"""Per-topic violation rates (the paper's Tables 9-11): the results summary with the
sources' topic as one more grouping column."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def with_topic(results: Any) -> Any:
    """The results frame with a ``topic`` column read from each group's first source
    (``None`` where the source has no topic)."""
    frame = results.frame.copy()
    frame["topic"] = [(srcs[0].get("topic") if srcs and isinstance(srcs[0], dict) else None)
                      for srcs in frame["sources"]]
    return frame


def summary_by_topic(results: Any, by: Sequence[str] = ("relation", "model", "topic")) -> Any:
    """``results.summary`` per relation, model and topic (``None`` when no source has a topic).

    Groups whose source has no topic are counted under ``"(none)"``."""
    from ..core.results import Results

    frame = with_topic(results)
    if not len(frame) or frame["topic"].isna().all():
        return None
    frame["topic"] = frame["topic"].fillna("(none)")
    return Results(frame).summary(by=list(by), overall=False)
