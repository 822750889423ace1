"""The Batch panel's relation-extraction part: the generic panel, plus ENTRE's section.

Relation extraction's models answer with one label, so the panel keeps the heatmap of VR
per source label, and the table and detail show labels and scores; the offsets mode's
columns are checked for integers through their declared fields (``Field(numeric=True)``).

When a run has ENTRE or ENTRE-fast rows (:mod:`mtwidgets.re.entre`), the panel adds their
section (:mod:`mtwidgets.re.entre_views`): the F1 table before and after ENTRE, the rounds
to failure and the shortcut share per gold relation, each clickable (a row, a round, a
gold relation) to filter the table to those ENTRE instances; an ENTRE row's detail lists
its rounds with the model's label on each. ``panel.entre_summary()`` gives the F1 table.
A run without ENTRE rows shows the panel exactly as before (the section's charts stay
hidden).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.batch_view import BatchParts
from . import entre_views


class RelationBatchParts(BatchParts):
    """The generic panel with ENTRE's section."""

    charts = entre_views.CHARTS
    summary_name = "entre_summary"

    def start(self, inputs: Sequence[Any]) -> entre_views.EntreTally:
        """A tally of the run's ENTRE rows (empty, and the section absent, without any)."""
        return entre_views.EntreTally()

    def build_charts(self, state: Any, *, select: str | None) -> dict[str, Any]:
        return entre_views.build_charts(state, select=select)

    def selection_mask(self, key: str, state: Any, frame: Any, points: Sequence[Mapping[str, Any]]) -> Any:
        """The ENTRE rows of the clicked F1 row, round or gold relation."""
        return entre_views.selection_mask(key, frame, points)

    def summary(self, state: Any) -> Any:
        """ENTRE's F1 table of the run (per ENTRE relation and model: instances, F1 on the
        originals and after ENTRE, relative drop); empty before a run or without ENTRE rows."""
        tally = state if isinstance(state, entre_views.EntreTally) else entre_views.EntreTally()
        return tally.tables()["f1"]

    def row_detail(self, state: Any, frame: Any, i: int) -> dict[str, Any] | None:
        """An ENTRE row's rounds (``None`` for the other relations: the generic detail)."""
        return entre_views.row_detail(frame, i)


def parts() -> RelationBatchParts:
    return RelationBatchParts()
