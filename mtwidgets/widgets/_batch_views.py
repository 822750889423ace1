"""The Batch panel's two front-end views: set-up + progress, and the table + detail.

They are thin: synced traits hold only what is on screen (one page of rows, one detail,
a progress record of a few numbers), and user actions arrive as ``{kind, id, ...}``
messages that :class:`~mtwidgets.widgets.batch.BatchPanel` dispatches. Two views rather
than one because the Altair charts (``alt.JupyterChart`` widgets) sit between them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..core.batch_view import BASE_COLUMNS
from ._assets import asset_path, esm

Handler = Callable[[dict[str, Any]], Any]
STATES = ("idle", "running", "done", "interrupted", "error")


class _Dispatching(anywidget.AnyWidget):
    """Routes ``{kind, id, ...}`` messages to handlers; replies carry the same id and an
    error comes back as ``{kind: "error", id, message}`` (and is shown in the view)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.handlers: dict[str, Handler] = {}
        self.on_msg(self._on_msg)

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.dispatch(content if isinstance(content, dict) else {})

    def dispatch(self, content: dict[str, Any]) -> dict[str, Any]:
        """Run the handler of ``content["kind"]``; the reply is sent and returned."""
        kind, msg_id = content.get("kind"), content.get("id")
        handler = self.handlers.get(str(kind))
        if handler is None:
            reply = {"kind": "error", "id": msg_id, "message": f"unknown action {kind!r}"}
        else:
            try:
                reply = {"kind": "reply", "id": msg_id, "value": handler(content)}
            except Exception as exc:  # noqa: BLE001 - shown in the view, never swallowed
                reply = {"kind": "error", "id": msg_id, "message": f"{type(exc).__name__}: {exc}"}
                self.error = reply["message"]
        try:
            self.send(reply)
        except Exception:  # noqa: BLE001,S110 - no front end attached (tests, scripts)
            pass
        return reply


class BatchControls(_Dispatching):
    """Set-up (column mapping, relations, models, seed, sample, slice), Run, progress, export.

    Traits
    ------
    columns: the data's columns as ``{name, dtype}`` (empty when the data is not a frame).
    mapping: ``{mode, <field>: column, ...}``: the chosen mode and the user's column for each field.
    modes: the task's column modes as declared (``Task.column_modes``), as data:
        ``[{name, title, fields: [{name, help, required}]}]``; the mapping form is built from it.
    relations_available / relations: every relation of the task / the ones to run.
    models_available / models: every model given / the ones to run.
    seed, sample (0 = every row), slice_column ("" = none), chunk_size.
    state: idle | running | done | interrupted | error (the root's ``data-state``).
    progress: ``{sources_done, sources_total, groups_done, groups_total, rate, eta, fraction, vr}``.
    messages: ``[{level, text}]`` shown above the progress (errors with what to do, skipped rows).
    exported: the files the last export wrote.
    """

    _esm = esm("batch_panel.js")
    _css = asset_path("batch.css")

    columns: traitlets.List[Any] = traitlets.List().tag(sync=True)
    mapping = traitlets.Dict().tag(sync=True)
    modes: traitlets.List[Any] = traitlets.List().tag(sync=True)
    relations_available: traitlets.List[Any] = traitlets.List().tag(sync=True)
    relations: traitlets.List[Any] = traitlets.List().tag(sync=True)
    models_available: traitlets.List[Any] = traitlets.List().tag(sync=True)
    models: traitlets.List[Any] = traitlets.List().tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    sample = traitlets.Int(0).tag(sync=True)
    slice_column = traitlets.Unicode("").tag(sync=True)
    state = traitlets.Unicode("idle").tag(sync=True)
    progress = traitlets.Dict().tag(sync=True)
    messages: traitlets.List[Any] = traitlets.List().tag(sync=True)
    exported: traitlets.List[Any] = traitlets.List().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    @traitlets.validate("state")
    def _check_state(self, proposal: Any) -> str:
        if proposal["value"] not in STATES:
            raise traitlets.TraitError(f"state must be one of {STATES}, got {proposal['value']!r}")
        return str(proposal["value"])

    @traitlets.validate("sample")
    def _check_sample(self, proposal: Any) -> int:
        if proposal["value"] < 0:
            raise traitlets.TraitError(
                f"sample must be 0 (every row) or a positive row count, got {proposal['value']}"
            )
        return int(proposal["value"])


class BatchTable(_Dispatching):
    """The paged table of groups (one page crosses to the browser) and the detail of one row.

    Traits
    ------
    rows: the shown page, ``[{i, relation, model, verdict, source, followup, ...}]``; ``i``
        is the row's position in ``panel.results.frame``.
    page, page_size, total (rows after filtering), verdict ("violation", ..., or "all").
    filter: a one-line description of the chart selection filtering the table ("" = none).
    selected: the frame position open in the detail view (-1 = none); detail: what it shows.
    columns: the table's columns as data, ``[{key, title}]`` (the generic ones and the task's,
        from its batch part); each row holds a value per ``key``.
    state: mirrors the controls' state.
    task: the panel's task name (informative).
    """

    _esm = esm("batch_table.js")
    _css = asset_path("batch.css")

    rows: traitlets.List[Any] = traitlets.List().tag(sync=True)
    page = traitlets.Int(0).tag(sync=True)
    page_size = traitlets.Int(25).tag(sync=True)
    total = traitlets.Int(0).tag(sync=True)
    verdict = traitlets.Unicode("violation").tag(sync=True)
    filter = traitlets.Unicode("").tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True)
    detail = traitlets.Dict().tag(sync=True)
    state = traitlets.Unicode("idle").tag(sync=True)
    columns: traitlets.List[Any] = traitlets.List([c.to_dict() for c in BASE_COLUMNS]).tag(sync=True)
    task = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    @traitlets.validate("verdict")
    def _check_verdict(self, proposal: Any) -> str:
        allowed = ("all", "violation", "pass", "not_applicable", "error")
        if proposal["value"] not in allowed:
            raise traitlets.TraitError(f"verdict filter must be one of {allowed}, got {proposal['value']!r}")
        return str(proposal["value"])

    @traitlets.validate("page_size")
    def _check_page_size(self, proposal: Any) -> int:
        if not 1 <= proposal["value"] <= 500:
            raise traitlets.TraitError(f"page_size must be between 1 and 500, got {proposal['value']}")
        return int(proposal["value"])


class BatchAggregates(_Dispatching):
    """The aggregated relations of the run: a section per relation and model.

    Traits
    ------
    sections: ``[{key, relation, model, task, overall, slices}]`` as
        :func:`~mtwidgets.core.batch_view.aggregate_sections` builds them (texts clipped):
        counts and safety overall and per slice, each slice's worst sources and examples.
    shown: ``{section key: slice}``, the slice whose worst sources a section lists
        (``"overall"`` when absent); the front end sets it when a slice row is clicked.
    pending: ``[{relation, text}]``, aggregated relations of the run not counted yet.
    state: mirrors the controls' state.

    A click on a worst source sends ``{kind: "source", key, slice, rank}``; the panel opens
    that source in the Explorer.
    """

    _esm = esm("batch_aggregates.js")
    _css = asset_path("batch.css")

    sections: traitlets.List[Any] = traitlets.List().tag(sync=True)
    shown = traitlets.Dict().tag(sync=True)
    pending: traitlets.List[Any] = traitlets.List().tag(sync=True)
    state = traitlets.Unicode("idle").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
