"""The Batch panel's run plumbing: the runner it drives, the order of its results, and the
messages it shows when models fail or rows are skipped.

Kept apart from the widget so each piece can be read (and tested) on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.aggregate import Evaluated
from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.results import Results
from ..core.runner import Runner

# (model, aggregated relation) -> its evaluated groups, as the runner collects them
Evaluations = dict[tuple[str, str], list[Evaluated]]


@dataclass(frozen=True)
class Kept:
    """The aggregated relations' evaluated groups of the chunks a run finished: the lists
    the runner appends to, and how long each was when its last finished chunk was yielded
    (what an interrupted chunk added after that is not kept)."""

    evaluated: Evaluations
    lengths: dict[tuple[str, str], int]

    def groups(self) -> Evaluations:
        return {key: self.evaluated[key][:n] for key, n in self.lengths.items() if key in self.evaluated}


class PanelRunner(Runner):
    """A runner whose relations are always prepared on the whole data set, so a resumed
    run over the remaining sources builds exactly the groups a full run builds (MR-R1's
    candidate pool, MR-C1/C2's partners come from every source).

    An aggregated relation is counted once, over every source, after the last chunk; a
    resumed run starts from the evaluated groups of the chunks already finished
    (:meth:`carry` what :meth:`checkpoint` kept), so its counts equal an uninterrupted run's.
    """

    def __init__(self, everything: Sequence[BaseInput], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._everything = list(everything)
        self._carried: Evaluations = {}

    def prepare(self, sources: Sequence[BaseInput]) -> None:
        super().prepare(self._everything)

    def aggregated(self) -> list[str]:
        """The names of the run's aggregated relations, in the run's order."""
        return [r.name for r in self.relations if r.aggregate is not None]

    def carry(self, kept: Kept | None) -> None:
        """Start the next run from the evaluated groups ``kept`` by an earlier runner."""
        self._carried = {} if kept is None else kept.groups()

    def checkpoint(self) -> Kept:
        """What :meth:`carry` needs to resume after the chunks yielded so far (O(1): the
        lists are shared, only their lengths are noted)."""
        return Kept(self._evaluated, {key: len(groups) for key, groups in self._evaluated.items()})

    def _reset_failures(self) -> None:
        super()._reset_failures()
        self._evaluated = {key: list(groups) for key, groups in self._carried.items()}


def as_frame(data: Any) -> Any:
    from ..core.data import read_table

    if isinstance(data, (str, Path)) and Path(str(data)).suffix in (".csv", ".jsonl", ".ndjson", ".parquet"):
        return pd.DataFrame(read_table(data))
    if isinstance(data, (str, BaseInput)):
        return [data]
    return data


def model_specs(models: Any, task: str) -> dict[str, Any]:
    """``{name: model or None}``; ``None`` marks an embedded model loaded on first run."""
    from ..models import available

    if models is None:
        return dict.fromkeys(available(task))
    if isinstance(models, str):
        models = [models]
    if isinstance(models, Mapping):
        out = dict(models)
    else:
        names = list(models)
        unknown = [n for n in names if n not in available()]
        if unknown:
            raise InputError(
                f"no embedded model named {unknown}; available: {available()}, or pass models={{name: model}}"
            )
        out = dict.fromkeys(names)
    if not out:
        raise InputError("models is empty; give at least one model")
    return out


def chart_keys(task: str) -> tuple[str, ...]:
    """The panel's charts: the VR chart, the source-label heatmap when the task keeps it
    (its models answer with one label), the task's own charts, the slice chart."""
    from ..core.batch_view import parts_of
    from ..core.task import get_task

    t = get_task(task)
    return parts_of(t).chart_keys(t.prediction)


def make_chart() -> Any:
    """An empty ``alt.JupyterChart`` drawn with vl-convert's Vega bundle (no CDN, offline)."""
    import altair as alt

    alt.JupyterChart.enable_offline()
    return alt.JupyterChart(None)  # type: ignore[arg-type]


def make_charts(task: str) -> dict[str, Any]:
    return {key: make_chart() for key in chart_keys(task)}


def reorder(results: Results, models: list[str], relations: list[str]) -> Results:
    """Chunk-major rows -> ``mt.run``'s model-major, relation-major order (stable)."""
    f = results.frame
    if not len(f):
        return results  # the aggregate rows need no reordering: mt.run's order already
    m = f["model"].map({n: i for i, n in enumerate(models)}).fillna(len(models)).to_numpy()
    r = f["relation"].map({n: i for i, n in enumerate(relations)}).fillna(len(relations)).to_numpy()
    frame = f.iloc[np.lexsort((r, m))].reset_index(drop=True)
    rank = {n: i for i, n in enumerate(models)}
    errors = sorted(results.errors, key=lambda e: rank.get(e.model, len(models)))
    unique = list({str(e): e for e in errors}.values())
    return Results(frame, errors=unique, skipped=results.skipped, aggregates=results.aggregates)


def error_messages(results: Results) -> list[dict[str, str]]:
    """A message naming the failing models, what happened to their groups, and the fix."""
    errors = results.errors
    if not errors:
        return []
    n = int((results.frame["verdict"] == "error").sum())
    models = sorted({e.model for e in errors})
    return [
        {
            "level": "error",
            "text": (
                f"{len(errors)} model failures ({', '.join(map(repr, models))}); their {n} groups have verdict "
                f"'error' and every other group is complete. First: {errors[0]}. Fix the model (or untick it) and "
                "run again: the cache keeps the predictions already made."
            ),
        }
    ]


def skipped_messages(skipped: list[tuple[Any, str]]) -> list[dict[str, str]]:
    """How many rows were skipped, which, and why (the first five)."""
    if not skipped:
        return []
    shown = "; ".join(f"row {r}: {why}" for r, why in skipped[:5])
    more = f" (and {len(skipped) - 5} more, in panel.results.skipped)" if len(skipped) > 5 else ""
    return [
        {
            "level": "warning",
            "text": (
                f"{len(skipped)} rows skipped, not in the results: {shown}{more}. Fix them in the data (or the "
                "column mapping) to include them."
            ),
        }
    ]
