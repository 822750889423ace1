"""The Batch panel's drill-down: chart selections -> the filtered, paged table -> one row's
detail -> the Explorer.

A mixin of :class:`~mtwidgets.widgets.batch.BatchPanel`; it reads the panel's results and
counts and writes only the table view's traits. A chart click arrives as the
``_vl_selections`` trait of an ``alt.JupyterChart`` (what its front end writes); the last
chart clicked decides the filter, and clicking empty space in it clears the filter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.batch_view import BatchParts
from ..core.results import Results
from . import _batch_agg as agg
from ._batch_views import BatchControls, BatchTable

SELECT = "pick"  # the point-selection name on every chart


class DrillDown:
    """Selection, table and detail behaviour of the panel."""

    # provided by BatchPanel
    controls: BatchControls
    table: BatchTable
    _charts: dict[str, Any]
    _selection: tuple[str, list[dict[str, Any]]] | None
    _replacing: bool
    _positions: np.ndarray[Any, Any]
    _tally: agg.Tally
    _relation_specs: dict[str, Any]
    _model_specs: dict[str, Any]
    _loaded: dict[str, Any]
    _explorer_box: Any
    _batch: BatchParts
    task_tally: Any

    @property
    def results(self) -> Results:  # pragma: no cover - BatchPanel defines it
        raise NotImplementedError

    @property
    def selection(self) -> pd.DataFrame:
        """The violations selected in a chart (empty when nothing is selected); for a task's
        own chart (e.g. NER's error categories) the violations its part says the click selects."""
        frame = self.results.frame
        if self._selection is None or not len(frame):
            return frame.iloc[0:0]
        return frame[(frame["verdict"] == "violation") & self._selection_mask(frame)]

    def summary(self, by: Sequence[str] = ("relation", "model"), overall: bool = True) -> pd.DataFrame:
        """The running summary (the same numbers as ``panel.results.summary()``): the
        per-group relations from the running counts, with ``Overall``; then, once counted,
        the aggregated relations (never pooled into ``Overall``), as ``Results.summary``
        lists them. ``"slice"`` in ``by`` is the panel's slice column for the per-group
        relations and an aggregated relation's own slices (e.g. its transformations) for it."""
        own = self._tally.summary(by, overall=overall)
        aggregates = self.results.aggregates
        if not len(aggregates):
            return own
        extra = Results(Results.empty().frame, aggregates=aggregates).summary(by, overall=False)
        if not len(extra):
            return own
        return pd.concat([own, extra], ignore_index=True) if len(own) else extra

    def select(self, chart: str = "vr", **fields: Any) -> pd.DataFrame:
        """Select as a click on ``chart`` ("vr", "labels", "slice" or a task's own chart such
        as NER's "categories") would, e.g.
        ``panel.select(relation="MR-S2", model="re-patterns")`` or
        ``panel.select("categories", model="ner-spacy-sm", category="omission")``; returns
        ``selection``."""
        if chart not in self._charts:
            raise ValueError(f"chart must be one of {list(self._charts)}, got {chart!r}")
        self._set_selection((chart, [dict(fields)]) if fields else None)
        return self.selection

    def clear_selection(self) -> None:
        self._set_selection(None)

    def open_in_explorer(self, i: int) -> Any:
        """Open the source of results row ``i`` in an Explorer below the table."""
        frame = self.results.frame
        if not 0 <= i < len(frame):
            raise IndexError(f"row {i} is not in the results (0 to {len(frame) - 1})")
        r = frame.iloc[i]
        relation = self._relation_specs.get(r["relation"], r["relation"])
        # The row itself as a one-group suite: the Explorer opens on exactly this group
        # (its sources and follow-ups), every model's verdict beside it.
        return self._explorer_for(relation, data=Results(frame.iloc[[i]]), seed=int(r["seed"]))

    def _explorer_for(self, relation: Any, *, data: Any, seed: int) -> Any:
        """An Explorer on ``data`` with ``relation`` and the panel's chosen models, shown
        below the table (in place of the one shown before)."""
        try:
            from .explorer import Explorer
        except Exception as exc:  # noqa: BLE001 - the panel works without the Explorer
            raise ImportError(f"the Explorer cannot be opened ({type(exc).__name__}: {exc})") from exc
        models = {m: self._loaded.get(m) or self._model_specs[m] for m in self.controls.models}
        explorer = Explorer(models=models, relations=[relation], data=data, seed=seed)
        self._explorer_box.children = [explorer]
        return explorer

    def _on_chart_select(self, key: str, change: Mapping[str, Any]) -> None:
        if self._replacing:
            return
        signal = (change["new"] or {}).get(SELECT, {}).get("value") or {}
        points = (
            [dict(p) for p in signal.get("vlPoint", {}).get("or", [])] if isinstance(signal, dict) else []
        )
        if points:
            self._set_selection((key, points))
        elif self._selection is not None and self._selection[0] == key:
            self._set_selection(None)

    def _set_selection(self, selection: tuple[str, list[dict[str, Any]]] | None) -> None:
        self._selection = selection
        self.table.verdict = "violation" if selection is not None else self.table.verdict
        self._refresh_table()

    def _selection_mask(self, frame: pd.DataFrame) -> pd.Series:
        assert self._selection is not None
        key, points = self._selection
        if key in self._batch.charts:
            return self._batch.selection_mask(key, self.task_tally, frame, points)
        slices = agg.slice_values(frame, self._tally.slice_of) if key == "slice" else None
        return agg.selection_mask(
            frame, points, slices, self._tally.slices_kept() if key == "slice" else None
        )

    # -- table --------------------------------------------------------------------------
    def _refresh_table(self) -> None:
        frame = self.results.frame
        mask = pd.Series(True, index=frame.index)
        if self.table.verdict != "all" and len(frame):
            mask &= frame["verdict"] == self.table.verdict
        if self._selection is not None and len(frame):
            mask &= self._selection_mask(frame)
        self._positions = np.flatnonzero(mask.to_numpy()) if len(frame) else np.zeros(0, dtype=int)
        self.table.filter = (
            ""
            if self._selection is None
            else " or ".join(" · ".join(f"{k} = {v}" for k, v in p.items()) for p in self._selection[1])
        )
        self.table.total = len(self._positions)
        self.table.selected = -1
        if self.table.page != 0:
            self.table.page = 0  # the observer shows the page
        else:
            self._show_page()

    def _show_page(self) -> None:
        t = self.table
        pages = max(1, -(-len(self._positions) // t.page_size))
        if not 0 <= t.page < pages:
            t.page = min(max(t.page, 0), pages - 1)
            return
        shown = self._positions[t.page * t.page_size : (t.page + 1) * t.page_size]
        frame = self.results.frame
        rows = agg.table_rows(frame, shown.tolist())
        # the task's columns (e.g. NER: predicted entities instead of labels, error categories)
        for row, extra in zip(rows, self._batch.table_extras(self.task_tally, frame, shown.tolist())):
            row.update(extra)
        t.rows = rows

    def _show_detail(self, i: int) -> None:
        frame = self.results.frame
        if not 0 <= i < len(frame):
            self.table.detail = {}
            return
        detail = agg.row_detail(frame, i)
        extra = self._batch.row_detail(self.task_tally, frame, i)
        if extra is not None:
            detail["extra"] = extra
        self.table.detail = detail

    def _explorer_from_view(self, message: Mapping[str, Any]) -> str:
        self.open_in_explorer(int(message.get("i", -1)))
        return "opened"
