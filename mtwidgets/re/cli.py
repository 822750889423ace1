"""The relation-extraction task's part of ``mtwidgets run``: ENTRE's rounds and tables.

``--rounds N`` sets how many times ENTRE replaces the names of the instances a model still
gets right (default 20; the paper uses up to 200). After a run with ENTRE or ENTRE-fast the
paper's tables are printed (F1 before and after with the relative drop, the rounds to
failure, the entity diversity and the shortcut shares), written to the ``--out`` folder as
CSV and handed to the report.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.plugins import CLIParts
from . import entre


class RECLI(CLIParts):
    """``--rounds``; ENTRE's tables after the run."""

    def add_arguments(self, group: argparse._ArgumentGroup) -> None:
        group.add_argument("--rounds", type=int, default=None, metavar="N",
                           help=f"re, ENTRE: rounds of replacement (default {entre.DEFAULT_ROUNDS}; "
                           "the paper uses up to 200)")

    def relation_options(self, args: argparse.Namespace) -> dict[str, Any]:
        rounds = getattr(args, "rounds", None)
        return {} if rounds is None else {"rounds": entre.check_rounds(rounds)}

    def after_run(self, args: argparse.Namespace, runner: Any, results: Any, inputs: list[Any]) -> Any:
        frame = results.frame
        if not len(frame) or not frame["relation"].isin(entre.NAMES).any():
            return None
        tables = entre.summary(results)
        titles = {"f1": "micro-F1 (no_relation excluded) before and after ENTRE, relative drop %",
                  "fragility": "rounds to failure (ENTRE)", "diversity": "entity names before and after",
                  "shortcuts": "share predicted from the entity names alone"}
        for name, title in titles.items():
            if len(tables[name]):
                print(f"\n{title}:")
                print(tables[name].to_string(index=False))
        return tables

    def tables(self, context: Any) -> dict[str, Any]:
        return {f"entre_{k}": v for k, v in dict(context or {}).items()}
