"""The NLI task's part of ``mtwidgets run``: the shipped material, and Tables 3 and 4.

``--data sample`` reads the task's sample (a few compositions of each of the paper's five contexts);
``--full-material`` with it reads every shipped composition instead (each context with
every WordNet insertion pair it accepts). After a run of ``pairwise-compositionality`` the
contexts and the insertion pairs sorted by increasing safety (the paper's Tables 3 and 4)
are printed, written to the ``--out`` folder and given to the report.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.data import LoadedData
from ..core.plugins import CLIParts

SHOWN = 5  # rows printed at each end of a table


class NLICLI(CLIParts):
    """``--full-material``; Tables 3 and 4 after the run."""

    def add_arguments(self, group: argparse._ArgumentGroup) -> None:
        group.add_argument("--full-material", action="store_true",
                           help="nli, with --data sample: every shipped composition (each context with every WordNet "
                           "insertion pair it accepts) instead of the sample")

    def load_data(self, value: str, args: argparse.Namespace) -> LoadedData | None:
        if value not in ("sample", "nli_sample") or not getattr(args, "full_material", False):
            return None  # the sample or a data file, read the generic way
        from .material import compositions

        inputs = compositions()
        return LoadedData(list(inputs), list(range(len(inputs))))

    def after_run(self, args: argparse.Namespace, runner: Any, results: Any, inputs: list[Any]) -> Any:
        """The paper's Tables 3 and 4 from the run's aggregates (``None`` without them)."""
        from .compositionality import table3, table4

        aggregates = getattr(results, "aggregates", None)
        if aggregates is None or not len(aggregates):
            return None
        tables = {"table3": table3(aggregates), "table4": table4(aggregates)}
        if not len(tables["table3"]):
            return None
        for name, title in (("table3", "contexts"), ("table4", "insertion pairs")):
            for model, part in tables[name].groupby("model", sort=False):
                shown = part.drop(columns="model")
                if len(shown) > 2 * SHOWN:
                    shown = shown.iloc[list(range(SHOWN)) + list(range(len(shown) - SHOWN, len(shown)))]
                print(f"\n{title.capitalize()} by increasing safety ({name.replace('table', 'Table ')}), {model}:")
                print(shown.round(3).to_string(index=False))
        return tables

    def tables(self, context: Any) -> dict[str, Any]:
        return dict(context or {})
