"""Follow-up generation speed of the 21 relations on the shipped samples (models excluded).

:func:`generation_rates` measures, per relation, the sources per second of
``relation.generate`` over the task's sample (printed by ``benchmarks/bench_generation_text.py``). The first pass parses the texts
and loads the lexicons (once per process); the rate printed is the last pass's, the cost of
building follow-ups given the parse, which is what the issue's 200 sources/s target measures.
"""

from __future__ import annotations

import time
from typing import Any


def generation_rates(lang: str = "en", passes: int = 2) -> list[dict[str, Any]]:
    """One row per relation: task, relation, sources, applicable groups, sources/s."""
    from ..core.registry import relation
    from ..core.task import get_task
    from .relations import TABLES

    rows = []
    for task, table in TABLES.items():
        sources = get_task(task).part("sample")(lang)
        for name in table:
            rel = relation(name)
            applicable = 0
            seconds = 0.0
            for _ in range(max(1, passes)):
                started = time.perf_counter()
                groups = [g for x in sources for g in rel.generate(x, seed=0)]
                seconds = time.perf_counter() - started
                applicable = sum(g.not_applicable is None for g in groups)
            rows.append({"task": task, "relation": name, "sources": len(sources), "applicable": applicable,
                         "sources_per_s": round(len(sources) / seconds) if seconds else float("inf")})
    return rows
