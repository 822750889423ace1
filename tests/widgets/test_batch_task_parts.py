"""The Batch panel names no task: its mapping form, charts, table columns, row detail and
report come from the task's declaration (``Task.column_modes``) and its ``batch`` part.

Checked with the toy shout-detection plug-in (tests/plugins/shouting): as shipped (no
batch part: the generic panel) and declared again with two column modes, field aliases
and a batch part of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.batch_view import (
    BASE_COLUMNS,
    BatchParts,
    Column,
    detail_extra,
    label_block,
    marked_block,
    parts_of,
)
from mtwidgets.core.task import ColumnMode, Field, get_task, register_task, unregister_task
from mtwidgets.widgets import _batch_setup as setup
from mtwidgets.widgets.batch import BatchPanel

MESSAGES = [
    "STOP RIGHT THERE",
    "I AM SO ANGRY NOW",
    "please pass the salt",
    "WHY WOULD YOU DO THAT",
    "See you at NOON tomorrow",
    "GO GO GO",
    "NO WAY",
    "THIS IS FINE ok",
]


def caps(x: Any) -> str:
    text = x.text
    return "shout" if sum(c.isupper() for c in text) / max(len(text), 1) > 0.6 else "calm"


class CountParts(BatchParts):
    """A toy batch part: a running count of violations per model, a column showing the
    message's length, a detail line with the message marked whole."""

    summary_name = "shout_summary"

    def start(self, inputs: Sequence[Any]) -> dict[str, int]:
        return {}

    def add(self, state: dict[str, int], results: Any) -> None:
        f = results.frame
        for m in f.loc[f["verdict"] == "violation", "model"]:
            state[m] = state.get(m, 0) + 1

    def summary(self, state: Any) -> pd.DataFrame:
        return pd.DataFrame(sorted((state or {}).items()), columns=["model", "violations"])

    def columns(self) -> tuple[Column, ...]:
        return (*BASE_COLUMNS, Column("length", "characters"))

    def table_extras(self, state: Any, frame: pd.DataFrame, positions: Sequence[int]) -> list[dict[str, Any]]:
        return [{"length": str(len(frame.iloc[int(i)]["source_text"]))} for i in positions]

    def row_detail(self, state: Any, frame: pd.DataFrame, i: int) -> dict[str, Any]:
        text = frame.iloc[i]["source_text"]
        return detail_extra([label_block("the whole message"), marked_block([[text, "MSG"]], "toy-marked")])

    def check_mapping(self, mapped: Mapping[str, str]) -> list[str]:
        if mapped.get("title") and mapped.get("title") == mapped.get("text"):
            return ["'title' and 'text' must be different columns"]
        return []


MODES = (
    ColumnMode(
        "message", "one message per row", (Field("text", "the message", aliases=("body", "message")),)
    ),
    ColumnMode(
        "titled",
        "a title and a body",
        (
            Field("title", "the subject line"),
            Field("text", "the body", aliases=("content",)),
            Field("lang", "the language", required=False),
        ),
    ),
)


@pytest.fixture
def shout() -> Iterator[Any]:
    """The toy task as shipped, registered; unregistered afterwards."""
    import shouting

    register_task(shouting.TASK, replace=True)
    try:
        yield shouting.TASK
    finally:
        unregister_task(shouting.TASK.name)


@pytest.fixture
def toy(shout: Any) -> Any:
    """The shout task declared again with two column modes and a batch part."""
    return register_task(dataclasses.replace(shout, column_modes=MODES, batch=CountParts), replace=True)


def test_the_mapping_form_gets_the_task_declaration_as_data(toy: Any) -> None:
    frame = pd.DataFrame({"body": MESSAGES, "shouting": [0] * len(MESSAGES)})
    panel = BatchPanel(data=frame, models={"caps": caps}, task="shout", cache=mt.PredictionCache())
    assert panel.controls.modes == [
        {
            "name": "message",
            "title": "one message per row",
            "fields": [{"name": "text", "help": "the message", "required": True}],
        },
        {
            "name": "titled",
            "title": "a title and a body",
            "fields": [
                {"name": "title", "help": "the subject line", "required": True},
                {"name": "text", "help": "the body", "required": True},
                {"name": "lang", "help": "the language", "required": False},
            ],
        },
    ]
    # guessed through the field's declared alias; "titled" lacks a title column
    assert panel.controls.mapping == {"mode": "message", "text": "body", "title": "", "lang": ""}
    assert setup.guess_mapping(["subject", "content", "title"], "shout") == {
        "mode": "titled", "title": "title", "text": "content", "lang": ""
    }  # fmt: skip
    with pytest.raises(
        mt.InputError, match="mode 'markup' does not fit shout data; choose one of message, titled"
    ):
        setup.check_mapping(frame, {"mode": "markup"}, "shout")
    both = pd.DataFrame({"t": ["A B"], "lang": [3]})
    with pytest.raises(mt.InputError) as err:
        setup.check_mapping(both, {"mode": "titled", "title": "t", "text": "t", "lang": "lang"}, "shout")
    assert "'title' and 'text' must be different columns" in str(err.value)  # the part's check
    assert "column 'lang' (for 'lang') holds int64" in str(err.value)  # the generic text check
    assert setup.mapped_frame(both, {"mode": "titled", "title": "t", "text": "t"}, "shout").columns.tolist() == [
        "title", "text"
    ]  # fmt: skip


def test_a_task_part_adds_columns_detail_and_a_summary(toy: Any) -> None:
    frame = pd.DataFrame({"message": MESSAGES})
    panel = BatchPanel(data=frame, models={"caps": caps}, task="shout", cache=mt.PredictionCache())
    assert panel.table.columns == [
        *(c.to_dict() for c in BASE_COLUMNS),
        {"key": "length", "title": "characters"},
    ]
    assert panel.shout_summary().empty and "shout_summary" in dir(panel)
    results = panel.run()
    assert panel.state == "done", panel.controls.messages
    violations = int((results.frame["verdict"] == "violation").sum())
    assert violations > 0, "the naive detector should flip on a doubled-space message"
    assert panel.shout_summary().to_dict("records") == [{"model": "caps", "violations": violations}]
    row = panel.table.rows[0]
    assert row["length"] == str(len(row["source"]))
    panel.table.selected = row["i"]
    extra = panel.table.detail["extra"]
    assert extra["blocks"][1] == {"type": "marked", "cls": "toy-marked", "parts": [[row["source"], "MSG"]]}
    assert not extra["replaces_outputs"] and panel.table.detail["source_output"]["label"] in ("shout", "calm")
    with pytest.raises(AttributeError):
        panel.category_summary()  # another task's summary name means nothing here


def test_a_task_without_batch_part_gets_the_generic_panel(shout: Any, tmp_path: Path) -> None:
    assert shout.batch is None and isinstance(parts_of(shout), BatchParts)
    data = pd.DataFrame({"text": MESSAGES, "shouting": 1})
    assert BatchPanel(data=data).controls.models == ["shout-caps"]  # the task's embedded model
    panel = BatchPanel(data=data, models={"caps": caps}, cache=mt.PredictionCache())
    assert panel.task == "shout"  # inferred from the columns (the task's detect)
    assert list(panel._charts) == ["vr", "labels", "slice"]  # a label task keeps the heatmap
    assert [m["name"] for m in panel.controls.modes] == ["message"]
    assert panel.controls.mapping == {"mode": "message", "text": "text"}
    assert panel.table.columns == [c.to_dict() for c in BASE_COLUMNS]
    panel.run()
    assert panel.state == "done", panel.controls.messages
    assert panel.task_tally is None and panel.task_summary().empty
    panel.table.verdict = "all"
    panel.table.selected = panel.table.rows[0]["i"]
    assert "extra" not in panel.table.detail
    names = {p.name for p in panel.export(tmp_path, what=("charts", "report"))}
    assert {"chart_vr.html", "chart_labels.html", "report.html"} <= names
    assert "shout-section" in (tmp_path / "report.html").read_text(encoding="utf-8")  # the task's report part


def test_builtin_parts_say_which_default_charts_they_keep() -> None:
    relation_extraction, ner = get_task("re"), get_task("ner")
    assert parts_of(relation_extraction).chart_keys(relation_extraction.prediction) == (
        "vr",
        "labels",
        "entre-f1",
        "entre-rounds",
        "entre-shortcuts",
        "slice",
    )
    assert parts_of(ner).chart_keys(ner.prediction) == ("vr", "categories", "slice")


def test_an_unknown_task_lists_the_registered_ones() -> None:
    with pytest.raises(mt.MTError, match="registered tasks: re, ner"):
        BatchPanel(data=pd.DataFrame({"text": ["a"]}), task="nope")
