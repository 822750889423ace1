"""NER's part of ``mtwidgets run``: the TIN evaluation after the run (suspicious issues,
precision against gold, error categories, repair), its options, and data files whose rows
are labelled by an ``id`` column.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..core.data import LoadedData, read_table
from ..core.errors import InputError
from ..core.plugins import CLIParts

_PCT = ("precision", "precision_low", "precision_high", "source_precision", "share", "Err2Cor", "Cor2Err",
        "ErrorReduce")


def _show(frame: Any) -> str:
    shown = frame.copy()
    for col in _PCT:
        if col in shown:
            shown[col] = (shown[col] * 100).round(1)
    return str(shown.to_string(index=False))


class CLI(CLIParts):
    """``--no-repair``, ``--fill-mask``, ``--granularity``; the TIN tables after the run."""

    def add_arguments(self, group: argparse._ArgumentGroup) -> None:
        group.add_argument("--no-repair", action="store_true", help="NER: skip the repair of suspicious entities")
        group.add_argument("--fill-mask", default=None,
                           help="NER repair: a masked LM (hub name or local path) for similar entities; "
                           "default: the md pipeline's word vectors")
        group.add_argument("--granularity", default="fine", choices=["fine", "coarse"],
                           help="NER: compare labels as canonical (fine) or CoNLL classes (coarse)")

    def relation_options(self, args: argparse.Namespace) -> dict[str, Any]:
        granularity = getattr(args, "granularity", "fine")
        return {} if granularity == "fine" else {"granularity": granularity}

    def load_data(self, value: str, args: argparse.Namespace) -> LoadedData | None:
        """A CSV/JSONL/Parquet file whose rows have ``text`` and optionally ``entities`` (or
        ``gold``): ``[{"start", "end", "label"}, ...]``; a row's ``id`` labels it."""
        if value in ("sample", "ner_sample"):
            return None  # the task's shipped sample, loaded the generic way
        from .inputs import ner_input_from_row

        table = read_table(value, "ner")
        if not table:
            raise InputError(f"data file {value!r} has no data rows; add one row per sentence, with a 'text'")
        out = LoadedData([], [])
        for n, row in enumerate(table):
            try:
                out.inputs.append(ner_input_from_row(row))
                out.rows.append(row.get("id", n))
            except (InputError, TypeError, ValueError) as exc:
                out.skipped.append((row.get("id", n), str(exc)))
        if not out.inputs:
            raise InputError(
                f"no usable NER inputs in {value!r} ({out.skipped_summary()}); rows need a 'text' and "
                "optionally 'entities' ([{\"start\", \"end\", \"label\"}, ...])"
            )
        return out

    def after_run(self, args: argparse.Namespace, runner: Any, results: Any, inputs: list[Any]) -> Any:
        """TIN's tables: suspicious issues, precision against gold, categories, repair."""
        from .evaluate import evaluate

        fill_mask = None
        if getattr(args, "fill_mask", None):
            from ..lang.fill_mask import FillMask

            fill_mask = FillMask(args.fill_mask)
        started = time.perf_counter()
        gold = inputs if any(getattr(x, "gold", ()) for x in inputs) else None
        models = None if getattr(args, "no_repair", False) else runner.user_models
        ev = evaluate(results, models, gold=gold, fill_mask=fill_mask, cache=runner.cache,
                      granularity=getattr(args, "granularity", "fine"))
        print("\nNER suspicious issues and precision against gold (%):")
        print(_show(ev.precision))
        print("\nNER error categories (distinct errors):")
        print(_show(ev.categories))
        if ev.repair is not None:
            print("\nNER repair (Table 6 style, %):")
            print(_show(ev.repair))
        print(f"\nNER evaluation in {time.perf_counter() - started:.1f} s")
        return ev

    def tables(self, context: Any) -> dict[str, Any]:
        ev = context
        tables = {"precision": ev.precision, "categories": ev.categories, "kinds": ev.kinds,
                  "issues": ev.issue_frame()}
        if ev.repair is not None:
            import pandas as pd

            tables["repair"] = ev.repair
            tables["repairs"] = (pd.concat([o.units for o in ev.repairs], ignore_index=True) if ev.repairs
                                 else ev.repair)
        return tables
