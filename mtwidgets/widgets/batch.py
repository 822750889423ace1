"""The Batch panel: relations over a whole DataFrame, VR charts, drill-down to the failures.

``mt.BatchPanel(data=df, models={...}, relations=[...])`` shows, top to bottom: the set-up
(column mapping, relations, models, seed, sample, slice column) with Run and Export; the
progress (groups done / total, rate, ETA, running VR per relation); three Altair charts
(VR per relation x model, a heatmap per source label, VR per slice); the aggregated
relations, when the run has any; the paged table of violations with a detail view; and an
Explorer opened on a row or on a source.

An *aggregated* relation (pairwise systematicity, three-way transitivity:
:mod:`mtwidgets.core.aggregate`) tests far more cases than it has groups and keeps counts,
not rows (``panel.results.aggregates``). It gets a section of its own per model
(:mod:`~mtwidgets.widgets._batch_aggregates`): counts, safety per slice (a table and a bar
chart) and its worst sources, the paper's Table 2, each of which opens the source in the
Explorer. Its counts never enter the VR chips, the VR charts or their ``Overall``: a
relation's ``k^2`` pairs would swamp every per-group relation.

The panel names no task: the set-up's column mapping is built from the task's declared
column modes (``Task.column_modes``), and what a task adds (its own charts and running
tally, table columns, row detail, report context) comes from its ``batch`` part, a
:class:`~mtwidgets.core.batch_view.BatchParts`. For NER, for instance, the set-up maps a
text column and an optional gold-entities column, the label heatmap gives way to the
distribution of the suspicious entities' error categories (TIN section 4.6; gold-free
kinds without gold), the table lists predicted entities, and the report carries TIN's
tables.

Design
------
- The run happens on the kernel's main thread, chunk by chunk (``Runner.iter_chunks``):
  widget updates from background threads are broken in ipykernel 7. Progress is
  throttled to ~10 Hz and the charts to ~1 Hz, so the front end is never the bottleneck.
- An interrupt (``KeyboardInterrupt``, e.g. the kernel's stop button) keeps every finished
  chunk; running again with the same set-up resumes at the first unfinished chunk, and the
  runner's prediction cache answers what the interrupted chunk had already predicted.
- ``panel.results`` is exactly what ``mt.run`` returns for the same inputs and seed: the
  chunks are put back in ``mt.run``'s order (model, then relation, then source).
- Only summaries cross to the browser: charts get aggregated frames (a few hundred rows
  at most) and the table one page of clipped strings.
- The panel is an ``ipywidgets.VBox`` rather than one anywidget because the charts are
  ``alt.JupyterChart`` widgets (their selections round-trip to Python); the two anywidget
  views around them carry the ``mtw-batch`` DOM (root ``data-state``, rows
  ``.mtw-batch__row[data-i]``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets
import numpy as np
import pandas as pd

from ..core.batch_view import find_worst_source, parts_of
from ..core.cache import PredictionCache, default_cache
from ..core.data import FIRST_TASK, infer_task
from ..core.errors import InputError, MTError
from ..core.results import Results
from ..core.runner import Progress
from ..core.task import get_task
from . import _batch_agg as agg
from . import _batch_aggregates as aggregated
from . import _batch_setup as setup
from ._batch_drill import SELECT, DrillDown
from ._batch_run import (
    Kept,
    PanelRunner,
    as_frame,
    error_messages,
    make_chart,
    make_charts,
    model_specs,
    reorder,
    skipped_messages,
)
from ._batch_views import BatchAggregates, BatchControls, BatchTable

_PROGRESS_EVERY = 0.1  # seconds between progress updates (~10 Hz)
_CHARTS_EVERY = 1.0  # seconds between chart updates during a run


class BatchPanel(DrillDown, ipywidgets.VBox):
    """Run relations over a data set and drill into the violations.

    Parameters
    ----------
    data:
        A DataFrame (columns mapped in the set-up), a ``.csv``/``.jsonl``/``.parquet``
        path, or a list of inputs / markup strings.
    models:
        ``{name: model}`` or embedded model names (loaded on the first run); ``None``: every
        embedded model of the task (``mt.models.available(task)``).
    relations:
        Names or relation objects; ``None``: every relation of the task.
    seed, sample:
        Fix every random choice; ``sample`` rows drawn with the seed (``None``: all rows).
    mapping:
        ``{"mode": <one of the task's column modes>, field: column, ...}`` (e.g. relation
        extraction's ``{"mode": "markup", "markup": ...}``); guessed from the column names
        (and the fields' declared aliases) when not given.
    slice:
        A column of ``data`` whose values get their own VR chart (e.g. a topic or source).
    chunk_size:
        Sources per chunk; ``None`` picks about 20 chunks (64 to 2,000 sources each): big enough
        for full model batches, small enough that an interrupt loses little.
    cache:
        The prediction cache (default: the process-wide one ``mt.run`` uses).
    task:
        A registered task's name (``mt.tasks()``); ``None`` infers it from the relations,
        then the data, then the models (see :func:`mtwidgets.core.data.infer_task`).
    """

    def __init__(
        self,
        data: Any = None,
        models: Any = None,
        relations: Any = None,
        *,
        seed: int = 0,
        sample: int | None = None,
        mapping: Mapping[str, str] | None = None,
        slice: str | None = None,  # noqa: A002 - the user-facing word
        chunk_size: int | None = None,
        batch_size: int = 64,
        cache: PredictionCache | str | None = None,
        page_size: int = 25,
        task: str | None = None,
        max_errors: int = 10,
        export_dir: str | Path = "mtwidgets_export",
    ) -> None:
        from ..core.registry import all_names, relation
        from ..core.registry import names as relation_names

        if chunk_size is not None and chunk_size < 1:
            raise ValueError(f"chunk_size must be a positive number of sources, got {chunk_size}")
        data = as_frame(data)
        if task is None:
            # with no data at all the first registered task is as good as any (the panel can
            # show its set-up, not run); otherwise the data, relations or models decide
            task = infer_task(data, models, relations, default=FIRST_TASK if data is None else None)
        task = get_task(task).name  # an unknown name raises, listing the registered tasks
        self._batch = parts_of(get_task(task))
        self.task_tally: Any = None  # the task's running tally of the current run (its batch part's)
        self.task, self.batch_size, self.max_errors = task, batch_size, max_errors
        self.chunk_size, self.export_dir = chunk_size, Path(export_dir)
        self._cache = (
            cache
            if isinstance(cache, PredictionCache)
            else (PredictionCache(cache) if cache is not None else default_cache())
        )
        self._data = data
        self._model_specs = model_specs(models, task)
        self._loaded: dict[str, Any] = {}
        given = (
            list(all_names(task))  # without the relations run only by name (ENTRE)
            if relations in (None, "all")
            else ([relations] if isinstance(relations, str) else list(relations))
        )
        for r in given:
            if isinstance(r, str):
                relation(r)  # an unknown name raises RelationError listing the known ones
        self._relation_specs = {getattr(r, "name", r): r for r in given}
        available = list(dict.fromkeys([*relation_names(task), *self._relation_specs]))
        is_frame = isinstance(self._data, pd.DataFrame)
        columns = (
            [{"name": str(c), "dtype": str(t)} for c, t in self._data.dtypes.items()] if is_frame else []
        )
        if slice and (not is_frame or slice not in self._data.columns):
            raise InputError(
                f"slice column {slice!r} is not a column of the data; columns: {[c['name'] for c in columns]}"
            )
        self.controls = BatchControls(
            columns=columns,
            mapping=dict(mapping)
            if mapping
            else (setup.guess_mapping([c["name"] for c in columns], task) if is_frame else {}),
            modes=setup.modes_data(task),
            relations_available=available,
            relations=list(self._relation_specs),
            models_available=list(self._model_specs),
            models=list(self._model_specs),
            seed=seed,
            sample=sample or 0,
            slice_column=slice or "",
        )
        self.table = BatchTable(
            page_size=page_size, task=task, columns=[c.to_dict() for c in self._batch.columns()]
        )
        self._charts = make_charts(task)
        for key, chart in self._charts.items():
            chart.observe(lambda change, key=key: self._on_chart_select(key, change), names="_vl_selections")
        self._chart_box = ipywidgets.HBox(
            list(self._charts.values()), layout=ipywidgets.Layout(flex_flow="row wrap", display="none")
        )
        self.aggregates_view = BatchAggregates()
        self._safety_chart = make_chart()
        self._safety_chart.observe(lambda change: self._on_safety_select(change), names="_vl_selections")
        self._aggregates_box = ipywidgets.VBox(
            [self.aggregates_view, self._safety_chart], layout=ipywidgets.Layout(display="none")
        )
        self._explorer_box = ipywidgets.VBox()
        super().__init__(
            children=[self.controls, self._chart_box, self._aggregates_box, self.table, self._explorer_box]
        )

        self._parts: list[Results] = []
        self._results: Results | None = None
        self._skipped: list[tuple[Any, str]] = []
        self._tally = agg.Tally()
        self._done, self._total = 0, 0
        self._resume_key: str | None = None
        self._order: tuple[list[str], list[str]] = ([], [])
        self._selection: tuple[str, list[dict[str, Any]]] | None = None
        self._replacing = False
        self._positions = np.zeros(0, dtype=int)
        self._clock: dict[str, float] = {}
        self._aggregated: list[str] = []  # the run's aggregated relations
        self._kept: Kept | None = None  # their evaluated groups of the finished chunks
        self._run_data: tuple[list[Any], list[Any]] = ([], [])  # the run's inputs and their row labels
        self.controls.handlers.update(
            run=lambda m: self._run_from_view(), export=lambda m: self._export_from_view(m)
        )
        self.table.handlers.update(
            explorer=lambda m: self._explorer_from_view(m), clear_selection=lambda m: self.clear_selection()
        )
        self.aggregates_view.handlers.update(source=lambda m: self._source_from_view(m))
        self.table.observe(lambda _: self._show_page(), names="page")
        self.table.observe(lambda _: self._refresh_table(), names="verdict")
        self.table.observe(lambda c: self._show_detail(c["new"]), names="selected")
        self.controls.observe(lambda _: self._on_slice_change(), names="slice_column")

    # -- public API ---------------------------------------------------------------------
    @property
    def state(self) -> str:
        """idle | running | done | interrupted | error."""
        return str(self.controls.state)

    @property
    def results(self) -> Results:
        """Every finished group, in ``mt.run``'s order, with the skipped rows."""
        if self._results is None:
            self._results = reorder(
                Results.concat(self._parts) if self._parts else Results.empty(), *self._order
            )
            self._results.skipped = list(self._skipped)
        return self._results

    def task_summary(self) -> pd.DataFrame:
        """The task's running tally as a table (its batch part's ``summary``), e.g. NER's
        error categories behind the category chart; empty when the task keeps none.

        A task may also offer it under a name of its own (``BatchParts.summary_name``):
        NER's is ``panel.category_summary()``.
        """
        return self._batch.summary(self.task_tally)

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes not found the usual way: the task's summary name.
        batch = self.__dict__.get("_batch")
        if batch is not None and name and name == batch.summary_name:
            return self.task_summary
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        batch = self.__dict__.get("_batch")
        extra = [batch.summary_name] if batch is not None and batch.summary_name else []
        return sorted({*super().__dir__(), *extra})

    def run(self, *, raise_interrupt: bool = True) -> Results:
        """Run (or resume) with the set-up shown; returns ``results``.

        Bad set-ups are reported in the panel (state ``error``), never raised, and leave
        the previous results in place. ``KeyboardInterrupt`` keeps the finished chunks
        (state ``interrupted``) and is re-raised unless ``raise_interrupt=False``.
        """
        if self.state == "running":
            raise RuntimeError("the panel is already running; wait for it or interrupt the kernel")
        try:
            plan = self._plan()
        except (MTError, ValueError, KeyError, TypeError, ImportError) as exc:
            self._set_state("error", [{"level": "error", "text": f"Cannot start: {exc}"}])
            return self.results
        loaded, runner, size = plan
        key = self._run_key(size)
        if key != self._resume_key or self._done >= len(loaded.inputs):
            self._start_fresh(loaded, runner, key)
        runner.carry(self._kept)  # a resumed run counts its aggregated relations over every source
        self._set_state("running", skipped_messages(self._skipped))
        self._update_aggregates()  # clears the last run's counts; says when the new ones come
        now = time.perf_counter()
        self._clock = {
            "start": now,
            "tick": 0.0,
            "chart": now,
            "groups0": self._tally.total,
            "frac0": self._done / max(self._total, 1),
        }
        self._in_chunk = (0.0, min(size, self._total - self._done))
        start = self._done
        try:
            for part in runner.iter_chunks(loaded.inputs[start:], loaded.rows[start:], chunk_size=size):
                self._parts.append(part)
                self._kept = runner.checkpoint()
                self._results = None
                self._tally.add(part.frame)
                if self.task_tally is not None:
                    self._batch.add(self.task_tally, part)
                self._done = min(self._done + size, self._total)
                self._in_chunk = (0.0, min(size, self._total - self._done))
                self._tick(charts=True)
        except KeyboardInterrupt:
            self._finish(
                "interrupted",
                [
                    {
                        "level": "warning",
                        "text": (
                            f"Interrupted after {self._done} of {self._total} sources; the {self._tally.total} finished "
                            "groups are kept. Run again to resume: predictions already made come from the cache."
                        ),
                    }
                ],
            )
            if raise_interrupt:
                raise
            return self.results
        except Exception as exc:  # noqa: BLE001 - shown in the panel; finished groups are kept
            self._finish(
                "error",
                [
                    {
                        "level": "error",
                        "text": (
                            f"The run stopped: {type(exc).__name__}: {exc}. The {self._tally.total} finished groups are "
                            "kept; fix the cause and run again to resume."
                        ),
                    }
                ],
            )
            return self.results
        self._finish("done", [])
        return self.results

    def export(
        self,
        directory: str | Path | None = None,
        *,
        what: Sequence[str] = ("results", "charts", "report"),
        repair: bool = False,
    ) -> list[Path]:
        """Write results (Parquet, JSONL, CSV), each chart (HTML, PNG) and the HTML report.

        The report carries the task's sections (its batch part's ``report_context``); for NER
        TIN's tables (suspicious issues and their precision against gold, error categories,
        gold-free kinds, issues), where ``repair=True`` adds the relabeling repair's metrics
        (Table 6), which re-runs the models on many mutants and takes minutes rather than seconds.
        """
        from ._batch_export import export_all

        paths = export_all(
            self, Path(directory) if directory is not None else self.export_dir, what, repair=repair
        )
        self.controls.exported = [str(p) for p in paths]
        return paths

    # -- running --------------------------------------------------------------------------
    def _plan(self) -> tuple[Any, PanelRunner, int]:
        c = self.controls
        if self._data is None:
            raise InputError("the panel has no data; create it with mt.BatchPanel(data=df, ...)")
        if not c.relations:
            raise InputError("no relation is chosen; tick at least one relation")
        unknown = [m for m in c.models if m not in self._model_specs]
        if not c.models or unknown:
            raise InputError(f"choose models among {list(self._model_specs)} (got {list(c.models)})")
        loaded = setup.load(
            self._data,
            c.mapping if isinstance(self._data, pd.DataFrame) else None,
            task=self.task,
            sample=c.sample or None,
            seed=c.seed,
        )
        models = {m: self._model(m) for m in c.models}
        relations = [self._relation_specs.get(r, r) for r in c.relations]
        runner = PanelRunner(
            loaded.inputs,
            relations,
            models,
            task=self.task,
            seed=c.seed,
            batch_size=self.batch_size,
            cache=self._cache,
            progress=self._on_progress,
            max_errors=self.max_errors,
        )
        self._runner_models = list(models)
        size = self.chunk_size or int(min(2000, max(64, -(-len(loaded.inputs) // 20))))
        return loaded, runner, size

    def _model(self, name: str) -> Any:
        spec = self._model_specs[name]
        if spec is not None:
            return spec
        if name not in self._loaded:
            from ..models import load

            self._loaded[name] = load(name)
        return self._loaded[name]

    def _run_key(self, size: int) -> str:
        c = self.controls
        return json.dumps(
            [c.mapping, c.relations, c.models, c.seed, c.sample, size], sort_keys=True, default=str
        )

    def _start_fresh(self, loaded: Any, runner: PanelRunner, key: str) -> None:
        self._parts, self._results, self._done = [], None, 0
        self._total, self._skipped, self._resume_key = len(loaded.inputs), list(loaded.skipped), key
        self._order = (list(runner.models), [r.name for r in runner.relations])
        self._tally = agg.Tally(self._slice_of())
        self.task_tally = self._batch.start(loaded.inputs)
        self._selection = None
        self._aggregated, self._kept = runner.aggregated(), None
        self._run_data = (list(loaded.inputs), list(loaded.rows))

    def _on_progress(self, p: Progress) -> None:
        """Runner progress inside a chunk -> the chunk's done fraction (models in turn,
        sources then follow-ups), throttled."""
        models = getattr(self, "_runner_models", [p.model])
        m = models.index(p.model) if p.model in models else 0
        stage = p.done / p.total if p.total else 1.0
        within = {"sources": 0.3 * stage, "follow-ups": 0.3 + 0.7 * stage}.get(p.stage, 1.0)
        self._in_chunk = ((m + within) / max(len(models), 1), self._in_chunk[1])
        self._tick()

    def _tick(self, *, charts: bool = False, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._clock.get("tick", 0.0) < _PROGRESS_EVERY:
            return
        self._clock["tick"] = now
        elapsed = now - self._clock.get("start", now)
        frac = (self._done + self._in_chunk[0] * self._in_chunk[1]) / max(self._total, 1)
        gained = frac - self._clock.get("frac0", 0.0)
        groups = self._tally.total
        vr = self._tally.summary(("relation",), overall=False) if charts or force else None
        self.controls.progress = {
            "sources_done": self._done,
            "sources_total": self._total,
            "fraction": round(frac, 4),
            "groups_done": groups,
            "groups_total": round(groups / self._done * self._total) if self._done else None,
            "groups_exact": self._done >= self._total,
            "rate": round((groups - self._clock.get("groups0", 0)) / elapsed, 1) if elapsed > 0 else None,
            "eta": round(elapsed / gained * (1 - frac), 1) if gained > 0 and frac < 1 else None,
            "elapsed": round(elapsed, 1),
            "aggregated": self._aggregate_progress,
            "vr": self.controls.progress.get("vr", [])
            if vr is None
            else [
                {
                    "relation": r.relation,
                    "groups": int(r.groups),
                    "violations": int(r.violations),
                    "vr": None if r.groups == 0 else round(float(r.vr), 4),
                }
                for r in vr.itertuples()
            ],
        }
        if (
            charts
            and not force
            and now - self._clock.get("chart", 0.0) >= self._clock.get("every", _CHARTS_EVERY)
        ):
            self._update_charts()
            # Charts cost ~0.1 s each to rebuild: keep them under ~5% of the run's time.
            done = time.perf_counter()
            self._clock["chart"], self._clock["every"] = done, max(_CHARTS_EVERY, 20 * (done - now))

    @property
    def _aggregate_progress(self) -> list[dict[str, Any]]:
        """The progress line's aggregated relations: counted only with the last chunk."""
        last = self._parts[-1].aggregates if self._parts else None
        if last is None or not len(last):
            return [{"relation": name, "model": None} for name in self._aggregated]
        return aggregated.progress_items(self._aggregated, last)

    def _finish(self, state: str, messages: list[dict[str, str]]) -> None:
        self._tick(charts=True, force=True)
        self._update_charts()
        self._update_aggregates(finished=state == "done")
        self._refresh_table()
        self._set_state(state, [*messages, *error_messages(self.results), *skipped_messages(self._skipped)])

    def _set_state(self, state: str, messages: list[dict[str, str]]) -> None:
        self.controls.messages = messages
        self.controls.state = state
        self.table.state = state
        self.aggregates_view.state = state

    # -- charts and selection -------------------------------------------------------------
    def _slice_of(self) -> dict[Any, Any] | None:
        col = self.controls.slice_column
        if not col or not isinstance(self._data, pd.DataFrame):
            return None
        return dict(zip(self._data.index, self._data[col]))

    def _on_slice_change(self) -> None:
        if self.controls.slice_column and (
            not isinstance(self._data, pd.DataFrame) or self.controls.slice_column not in self._data.columns
        ):
            self.controls.error = f"slice column {self.controls.slice_column!r} is not a column of the data"
            return
        self._tally = agg.Tally(self._slice_of())
        self._tally.add(self.results.frame)
        self._tally.relations = [
            r for r in self._order[1] if r in self._tally.relations
        ] or self._tally.relations
        if self._selection is not None and self._selection[0] == "slice":
            self._set_selection(None)
        self._update_charts()

    def chart_specs(self) -> dict[str, Any]:
        """The current charts as plain ``alt.Chart`` objects (for export or display)."""
        from ._batch_export import charts

        return charts(self, select=None)

    def _update_charts(self) -> None:
        from ._batch_export import group_charts

        specs = group_charts(self, select=SELECT)  # the safety chart is the aggregates section's
        self._replacing = True
        try:
            for key, widget in self._charts.items():
                spec = specs.get(key)
                widget.layout.display = "none" if spec is None else None
                if spec is not None:
                    widget.chart = spec
        finally:
            self._replacing = False
        self._chart_box.layout.display = None if self._tally.total else "none"

    # -- aggregated relations -------------------------------------------------------------
    @property
    def aggregates(self) -> pd.DataFrame:
        """The aggregated relations' counts (``panel.results.aggregates``): one row per
        relation, model and slice; empty until a run with aggregated relations finishes."""
        return self.results.aggregates

    def show_slice(self, relation: str, model: str, slice: str = "overall") -> None:  # noqa: A002
        """List the worst sources of ``slice`` in the section of ``relation`` and ``model``
        (what a click on its slice row, or on its bar in the safety chart, does)."""
        key = f"{relation} · {model}"
        section = next((s for s in self.aggregates_view.sections if s["key"] == key), None)
        if section is None:
            shown = [s["key"] for s in self.aggregates_view.sections]
            raise ValueError(f"no aggregated relation {relation!r} on model {model!r} in this run; shown: {shown}")
        slices = [s["slice"] for s in section["slices"]]
        if slice not in slices:
            raise ValueError(f"{key} has no slice {slice!r}; its slices: {slices}")
        self.aggregates_view.shown = {**self.aggregates_view.shown, key: slice}

    def worst_sources(self, relation: str, model: str, slice: str = "overall") -> pd.DataFrame:  # noqa: A002
        """The worst sources of an aggregated relation's slice as listed in its section
        (rank, source_index, text, label, score, satisfied, violations, tests, safety)."""
        a = self.aggregates
        rows = a[(a["relation"] == relation) & (a["model"] == model) & (a["slice"] == slice)] if len(a) else a
        if not len(rows):
            raise ValueError(f"no aggregate row for relation {relation!r}, model {model!r}, slice {slice!r}")
        from ..core.batch_view import worst_sources

        return pd.DataFrame(worst_sources(rows.iloc[0]["detail"]))

    def _update_aggregates(self, *, finished: bool = False) -> None:
        """Refresh the aggregated relations' section and safety chart from the results
        (``finished``: the run is done, so a relation still without counts has none to give)."""
        a = self.results.aggregates
        view = self.aggregates_view
        view.sections = aggregated.view_sections(a)
        keys = {s["key"]: {p["slice"] for p in s["slices"]} for s in view.sections}
        view.shown = {k: v for k, v in view.shown.items() if v in keys.get(k, set())}
        view.pending = aggregated.pending(self._aggregated, a, self._done, self._total, finished=finished)
        chart = aggregated.safety_chart(a, select=SELECT)
        self._replacing = True
        try:
            self._safety_chart.layout.display = "none" if chart is None else None
            if chart is not None:
                self._safety_chart.chart = chart
        finally:
            self._replacing = False
        self._aggregates_box.layout.display = None if view.sections or view.pending else "none"

    def _on_safety_select(self, change: Mapping[str, Any]) -> None:
        if self._replacing:
            return
        signal = (change["new"] or {}).get(SELECT, {}).get("value") or {}
        points = signal.get("vlPoint", {}).get("or", []) if isinstance(signal, dict) else []
        clicked = aggregated.clicked_slice(points)
        if clicked is not None and clicked[0] in {s["key"] for s in self.aggregates_view.sections}:
            self.aggregates_view.shown = {**self.aggregates_view.shown, clicked[0]: clicked[1]}

    def open_source(self, source_index: Any, relation: str | None = None) -> Any:
        """Open an Explorer below the table on the run's source whose row label is
        ``source_index`` (as an aggregate row's worst sources name it), with ``relation``
        chosen (default: the run's first aggregated relation)."""
        inputs, rows = self._run_data
        position = next((k for k, r in enumerate(rows) if _same_row(r, source_index)), None)
        if position is None:
            raise IndexError(f"no source with row label {source_index!r} in the last run ({len(rows)} sources)")
        name = relation or (self._aggregated[0] if self._aggregated else self.controls.relations[0])
        explorer = self._explorer_for(self._relation_specs.get(name, name), data=inputs, seed=self.controls.seed)
        explorer.index = position
        return explorer

    def _source_from_view(self, message: Mapping[str, Any]) -> str:
        sections = self.aggregates_view.sections
        key, slice_ = str(message.get("key", "")), str(message.get("slice", "overall"))
        try:
            found = find_worst_source(sections, key, slice_, int(message.get("rank", -1)))
        except LookupError as exc:
            raise ValueError(str(exc)) from exc
        relation = next(s["relation"] for s in sections if s["key"] == key)
        self.open_source(found["source_index"], relation)
        return "opened"

    # -- view actions -------------------------------------------------------------------
    def _run_from_view(self) -> str:
        self.run(raise_interrupt=False)
        return self.state

    def _export_from_view(self, message: Mapping[str, Any]) -> list[str]:
        what = message.get("what") or ["results", "charts", "report"]
        return [str(p) for p in self.export(what=[what] if isinstance(what, str) else what)]


def _same_row(row: Any, label: Any) -> bool:
    """Whether a run's row label is ``label`` as it came back through JSON (a tuple label
    arrives as a list, a NumPy integer as an int)."""
    plain = row.item() if hasattr(row, "item") and callable(row.item) else row
    if isinstance(plain, tuple):
        plain = list(plain)
    return bool(plain == label) if type(plain) is not bool else plain is label
