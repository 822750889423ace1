"""What a task adds to the command line and to the HTML report.

A task declares them by reference (:class:`~mtwidgets.core.task.Task`'s ``cli`` and
``report``); the generic ``mtwidgets run`` and :func:`mtwidgets.report.write_report` call
them and never name a task.

- ``cli``: a :class:`CLIParts` subclass (or a callable returning an instance): extra
  ``mtwidgets run`` options, relation options taken from them, special ``--data`` values,
  and what runs after a run (extra tables printed, written to the ``--out`` folder and
  handed to the report as its *context*).
- ``report``: a :class:`ReportSections` callable ``(results, context) -> [html, ...]``: the
  task's sections of the report (escaped HTML; :func:`esc` and :func:`frame_table` help).
"""

from __future__ import annotations

import argparse
import html
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from .data import LoadedData
    from .results import Results


class CLIParts:
    """A task's part of ``mtwidgets run``. Every method has a do-nothing default."""

    def add_arguments(self, group: argparse._ArgumentGroup) -> None:
        """Add the task's options to ``group`` (an argument group titled by the task)."""

    def relation_options(self, args: argparse.Namespace) -> dict[str, Any]:
        """Options every relation of the run is built with (``relation(name, **options)``);
        empty: the relations as named."""
        return {}

    def load_data(self, value: str, args: argparse.Namespace) -> LoadedData | None:
        """The inputs for ``--data value`` when the task reads it its own way (a named
        sample, rows labelled by an id column, ...); ``None``: the generic loading."""
        return None

    def after_run(self, args: argparse.Namespace, runner: Any, results: Results, inputs: list[Any]) -> Any:
        """Runs after the relations ran: print the task's extra tables, and return the
        context :meth:`tables` and the report part receive (``None``: nothing more)."""
        return None

    def tables(self, context: Any) -> dict[str, pd.DataFrame]:
        """The tables ``--out FOLDER`` gets as ``{task}_{name}.csv``, from :meth:`after_run`'s context."""
        return {}


def cli_parts(obj: Any) -> CLIParts:
    """A task's resolved ``cli`` part as an instance (a class or factory is called)."""
    if obj is None:
        return CLIParts()
    return obj if isinstance(obj, CLIParts) else obj()


class ReportSections(Protocol):
    """A task's ``report`` part."""

    def __call__(self, results: Results, context: Any) -> list[str]: ...


# -- HTML helpers for report parts -------------------------------------------------------
def esc(value: Any) -> str:
    """``value`` as escaped HTML text (``None`` -> empty)."""
    return html.escape("" if value is None else str(value))


def chart_svg(chart: Any) -> str:
    """An Altair chart as inline SVG for the report (a note when vl-convert is missing)."""
    try:
        import vl_convert as vlc
    except ImportError:
        return "<p class=meta>Install <code>mtwidgets[report]</code> (vl-convert) to embed the chart.</p>"
    return str(vlc.vegalite_to_svg(chart.to_dict()))


def pct(value: Any) -> str:
    """A share as a percentage with one decimal, ``—`` when missing."""
    import pandas as pd

    return "—" if value is None or pd.isna(value) else f"{100 * float(value):.1f}"


def frame_table(frame: pd.DataFrame, pct_columns: tuple[str, ...] = ()) -> str:
    """A DataFrame as an escaped HTML table; ``pct_columns`` shown as percentages."""
    head = "".join(f"<th>{esc(c)}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for col, v in zip(frame.columns, row):
            if col in pct_columns:
                cells.append(f"<td class=num>{pct(v)}</td>")
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                cells.append(f"<td class=num>{esc(v)}</td>")
            else:
                cells.append(f"<td>{esc(v)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
