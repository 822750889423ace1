"""The text tasks' part of ``mtwidgets run``: ``--lang`` and the shipped samples per language.

``--lang en|zh`` picks the shipped sample (``--data sample``) and sets the language of every
row of a data file that does not give its own (``lang`` column); without it, each row's
language is inferred from its text.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.data import LoadedData, read_table
from ..core.errors import InputError
from ..core.plugins import CLIParts
from .inputs import LANGS


class TextCLI(CLIParts):
    """``--lang``; ``--data sample`` reads the language's shipped sample."""

    task = ""

    def add_arguments(self, group: argparse._ArgumentGroup) -> None:
        # The three text tasks share the option: the first to add it adds it for all.
        if "--lang" in group._option_string_actions:
            return
        group.add_argument("--lang", default=None, choices=list(LANGS),
                           help="classification, similarity, summarization: the language of the data "
                           "(default: each row's 'lang', else inferred from the text; the sample: en)")

    def load_data(self, value: str, args: argparse.Namespace) -> LoadedData | None:
        from . import data

        lang = getattr(args, "lang", None)
        if value in ("sample", f"{self.task}_sample"):
            inputs = data.inputs(self.task, lang or "en")
            return LoadedData(inputs, list(range(len(inputs))))
        table = read_table(value, self.task)
        if not table:
            raise InputError(f"data file {value!r} has no data rows")
        reader = data._READERS[self.task]
        out = LoadedData([], [])
        for n, row in enumerate(table):
            if lang and not row.get("lang"):
                row = {**row, "lang": lang}
            try:
                out.inputs.append(reader(row))
                out.rows.append(row.get("id", n))
            except (InputError, TypeError, ValueError) as exc:
                out.skipped.append((row.get("id", n), str(exc)))
        if not out.inputs:
            raise InputError(f"no usable {self.task} inputs in {value!r} ({out.skipped_summary()})")
        return out

    def after_run(self, args: argparse.Namespace, runner: Any, results: Any, inputs: list[Any]) -> Any:
        """The violation rate per relation, model and topic (the paper's Tables 9-11)."""
        from .report import summary_by_topic

        table = summary_by_topic(results)
        if table is None:
            return None
        order = list(dict.fromkeys(table["relation"]))
        for model, part in table.groupby("model", sort=False):
            grid = part.assign(vr=(part["vr"] * 100).round(1)).pivot(index="relation", columns="topic", values="vr")
            print(f"\nVR (%) by topic, {model}:")
            print(grid.reindex([r for r in order if r in grid.index]).to_string())
        return table

    def tables(self, context: Any) -> dict[str, Any]:
        return {"by_topic": context}


class ClassificationCLI(TextCLI):
    task = "classification"


class SimilarityCLI(TextCLI):
    task = "similarity"


class SummarizationCLI(TextCLI):
    task = "summarization"
