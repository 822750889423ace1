"""Reading data into inputs without naming a task: inputs carry theirs, tables are matched
against each registered task's columns, and what no task (or several) fits is an error that
lists the registered tasks."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.data import FIRST_TASK, LoadedData, infer_task, load_inputs, read_table, row_to_input
from mtwidgets.core.errors import InputError
from mtwidgets.core.task import task_names
from mtwidgets.ner.inputs import NERInput
from mtwidgets.re.inputs import RelationInput

FATHER = "[[John|PERSON]] is <<Mary|PERSON>>'s father."


def test_the_task_is_inferred_from_inputs_rows_and_columns(tmp_path: Path) -> None:
    x = RelationInput.parse(FATHER)
    assert load_inputs([x, FATHER]).inputs == [x, x]  # strings take the task of the inputs beside them
    assert load_inputs(pd.DataFrame({"markup": [FATHER]})).inputs == [x]
    ner = load_inputs(pd.DataFrame({"text": ["Bob ran."], "gold": ['[{"start": 0, "end": 3, "label": "PERSON"}]']}))
    assert ner.inputs == [NERInput("Bob ran.", ({"start": 0, "end": 3, "label": "PERSON"},))]
    assert load_inputs([{"text": "Ann met Bob.", "head": "Ann", "tail": "Bob"}]).inputs[0].task == "re"
    assert load_inputs([x.to_dict(), NERInput("A b.").to_dict()]).inputs == [x, NERInput("A b.")]
    path = tmp_path / "ner.jsonl"
    path.write_text(json.dumps({"text": "Bob ran.", "entities": []}) + "\n")
    assert load_inputs(path).inputs == [NERInput("Bob ran.")]


def test_data_no_task_fits_raises_listing_the_registered_tasks(tmp_path: Path) -> None:
    listed = ", ".join(task_names())
    with pytest.raises(InputError, match=f"cannot tell which task .*registered tasks: {listed}"):
        load_inputs(["John met Mary.", "Ann left."])
    with pytest.raises(InputError) as exc:
        load_inputs(pd.DataFrame({"text": ["John met Mary."]}))  # RE without entities, or NER without gold
    msg = str(exc.value)
    assert "['text']" in msg and "re (" in msg and "ner ('text')" in msg and "'markup'" in msg
    path = tmp_path / "plain.csv"
    path.write_text("sentence\nJohn met Mary.\n")
    with pytest.raises(InputError, match="the file 'plain.csv' .*sentence.*registered tasks: re \\("):
        load_inputs(path)
    with pytest.raises(InputError, match="mixes inputs of tasks"):
        load_inputs([RelationInput.parse(FATHER), NERInput("A b."), "loose string"])


def test_data_several_tasks_fit_is_ambiguous(shout_task) -> None:
    frame = pd.DataFrame({"markup": [FATHER], "shouting": ["no"]})
    with pytest.raises(InputError, match=r"fits several tasks \(re, shout\); pass task="):
        load_inputs(frame)
    assert load_inputs(frame, task="re").inputs == [RelationInput.parse(FATHER)]
    with pytest.raises(InputError, match="fits several tasks"):
        infer_task(frame)


def test_an_unknown_task_lists_the_registered_tasks() -> None:
    with pytest.raises(InputError, match="no task named 'sentiment'; registered tasks: re, ner"):
        load_inputs([FATHER], task="sentiment")
    with pytest.raises(InputError, match="no task named 'sentiment'; registered tasks: re, ner"):
        row_to_input("A b.", "sentiment")


def test_the_frame_precheck_comes_from_the_task_column_modes() -> None:
    with pytest.raises(InputError) as exc:
        load_inputs(pd.DataFrame({"sentence": ["Bob ran."]}), task="ner")
    assert str(exc.value) == (
        "the DataFrame has columns ['sentence']; Named entity recognition data needs 'text' "
        "(text + optional gold entities)"
    )
    with pytest.raises(InputError, match=r"'text'\+'head'\+'tail' \(text \+ mention strings\)"):
        load_inputs(pd.DataFrame({"sentence": ["Bob ran."]}), task="re")
    # a frame with some of the needed columns goes on to the rows, whose errors say more
    with pytest.raises(InputError, match="row 0: .*no entities"):
        load_inputs(pd.DataFrame({"text": ["John met Mary"]}), task="re")


def test_row_to_input_uses_the_task_readers() -> None:
    assert row_to_input(FATHER, "re") == RelationInput.parse(FATHER)
    assert row_to_input("Bob ran.", "ner") == NERInput("Bob ran.")
    assert row_to_input({"text": "Bob ran.", "entities": "[]"}, "ner") == NERInput("Bob ran.")
    x = RelationInput.parse(FATHER)
    assert row_to_input(x.to_dict(), "ner") == x  # a dict that names its task is read as that task
    assert row_to_input({"task": "re", "markup": FATHER}) == x  # ... by the task's row reader if need be
    with pytest.raises(InputError, match="pass task= one of the registered tasks: re, ner"):
        row_to_input(FATHER)
    with pytest.raises(InputError, match="cannot read an input from int"):
        row_to_input(3, "re")  # type: ignore[arg-type]


def test_loaded_data_passes_through_load_inputs_and_run() -> None:
    loaded = load_inputs(pd.DataFrame({"markup": [FATHER, FATHER]}, index=[7, 9]))
    assert load_inputs(loaded) is loaded and load_inputs(loaded, task="re") is loaded
    with pytest.raises(InputError, match="holds re inputs, not ner inputs"):
        load_inputs(loaded, task="ner")
    model = mt.models.CallableModel(lambda x: "per:parents", name="const")
    results = mt.run(loaded, ["MR-S2"], {"const": model})
    assert set(results.frame["task"]) == {"re"} and set(results.frame["source_index"]) == {7, 9}
    ner = LoadedData([NERInput("Bob ran to Paris.")], ["a"])
    spans = mt.models.CallableModel(lambda x: [], name="none", kind="spans")
    assert set(mt.run(ner, ["TIN-shuffle"], {"none": spans}).frame["task"]) <= {"ner"}


def test_infer_task_falls_back_only_when_asked() -> None:
    with pytest.raises(InputError, match="cannot tell which task the widget is for; .*registered tasks: re, ner"):
        infer_task(None)
    assert infer_task(None, default=FIRST_TASK) == task_names()[0]
    assert infer_task(None, default="ner") == "ner"
    assert infer_task(None, relations=["TIN-question"], default=FIRST_TASK) == "ner"
    assert infer_task(None, ["ner-spacy-md"]) == "ner"
    assert infer_task([NERInput("A b.")]) == "ner"
    assert infer_task(pd.DataFrame({"markup": [FATHER]})) == "re"
    assert infer_task(LoadedData([NERInput("A b.")], [0])) == "ner"
    with pytest.raises(InputError, match="different tasks"):
        infer_task(None, None, ["TIN-shuffle", "MR-S1"])


def test_csv_text_fields_stay_strings(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text("text,head,tail,head_start,entities\nJupp 46,Jupp,46,0,\nNA,NA,None,,\n")
    rows = read_table(path)
    assert rows[0]["tail"] == "46" and rows[1]["head"] == "NA" and rows[1]["tail"] == "None"
    assert rows[0]["head_start"] == 0.0 and pd.isna(rows[1]["head_start"])  # offsets stay numbers
    assert pd.isna(rows[0]["entities"])
