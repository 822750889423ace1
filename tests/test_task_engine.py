"""The engine asks the task registry: input types on load, prediction kinds, the relations'
task, model wrappers, plain-string sources, and the public task API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mtwidgets as mt
from mtwidgets.core.errors import InputError, MTError
from mtwidgets.core.model import CallableModel, ModelAdapter, as_model, check_outputs
from mtwidgets.core.predictions import Prediction, coerce_prediction
from mtwidgets.core.relation import Check, Group
from mtwidgets.core.results import Results, make_row
from mtwidgets.core.spans import Span

ROOT = Path(__file__).resolve().parent.parent


# -- input types resolve through the registry -----------------------------------------------------


def _ner_results() -> Results:
    from mtwidgets.ner.inputs import NERInput

    src = NERInput("Obama visited Paris.", [(0, 5, "PERSON"), (14, 19, "GPE")])
    fu = NERInput("Obama visited Berlin.")
    group = Group("TIN-token", 0, (src,), (fu,), "visited -> toured", 0, 0)
    pred = Prediction(spans=(Span(0, 5, "PERSON"),))
    return Results.from_rows([make_row(group, "m", [pred], [pred], Check("pass", None, "same"))])


def test_a_saved_task_input_reloads_in_a_fresh_process(tmp_path: Path) -> None:
    path = tmp_path / "ner.jsonl"
    _ner_results().save(path)
    code = (
        "import sys, mtwidgets as mt\n"
        f"r = mt.Results.load({str(path)!r})\n"
        "before = 'mtwidgets.ner.inputs' in sys.modules\n"
        "g = r.groups()[0]\n"
        "print(before, type(g.sources[0]).__name__, g.sources[0].gold[1].label, g.followups[0].text)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "NERInput", "GPE", "Obama", "visited", "Berlin."]


def test_an_unknown_input_task_lists_the_known_ones() -> None:
    with pytest.raises(InputError, match=r"unknown input task 'nope'.*'ner'.*'re'"):
        mt.input_from_dict({"task": "nope", "text": "x"})


# -- prediction kinds ----------------------------------------------------------------------------


def test_coerce_label_kind_is_unchanged() -> None:
    assert coerce_prediction("per:title") == Prediction(label="per:title")
    assert coerce_prediction(("a", 0.5)) == Prediction(label="a", scores=(("a", 0.5),))
    assert coerce_prediction({"a": 0.2, "b": 0.8}).label == "b"
    with pytest.raises(TypeError, match="label"):
        coerce_prediction(3.0)


def test_coerce_other_kinds() -> None:
    assert coerce_prediction(0.25, "value") == Prediction(value=0.25)
    assert coerce_prediction({"value": 1}, "value") == Prediction(value=1.0)
    assert coerce_prediction("a summary", "text") == Prediction(text="a summary")
    spans = coerce_prediction([{"start": 0, "end": 5, "label": "PERSON"}, (14, 19, "GPE")], "spans")
    assert spans == Prediction(spans=(Span(0, 5, "PERSON"), Span(14, 19, "GPE")))
    assert coerce_prediction({"spans": []}, "spans") == Prediction()
    keep = Prediction(label="x")
    assert coerce_prediction(keep, "spans") is keep
    with pytest.raises(TypeError, match="value prediction"):
        coerce_prediction(True, "value")
    with pytest.raises(TypeError, match="spans prediction"):
        coerce_prediction("PERSON", "spans")
    with pytest.raises(TypeError, match="text prediction"):
        coerce_prediction(["a"], "text")
    with pytest.raises(ValueError, match="kind"):
        coerce_prediction("a", "colour")


def test_check_outputs_and_callables_read_their_kind() -> None:
    assert check_outputs("m", [1, 2], [0.5, 1], kind="value") == [Prediction(value=0.5), Prediction(value=1.0)]
    spans = CallableModel(lambda x: [(0, 1, "X")], kind="spans")
    assert spans.predict(["a"]) == [Prediction(spans=(Span(0, 1, "X"),))]
    by_task = CallableModel(lambda x: [(0, 1, "X")], task="ner")
    assert by_task.prediction_kind == "spans" and by_task.predict(["a"])[0].spans
    assert CallableModel(lambda x: "lbl").predict(["a"]) == [Prediction(label="lbl")]
    with pytest.raises(ValueError, match="kind"):
        CallableModel(lambda x: x, kind="colour")
    assert ModelAdapter.task == "" and ModelAdapter().prediction_kind == "label"


def test_the_runner_reads_answers_as_the_relations_task_kind() -> None:
    from mtwidgets.ner.inputs import NERInput

    x = NERInput("Obama visited Paris and Berlin.", [(0, 5, "PERSON"), (14, 19, "GPE"), (24, 30, "GPE")])

    def model(inputs: list[NERInput]) -> list[list[dict[str, object]]]:
        out = []
        for i in inputs:
            out.append([{"start": i.text.index(w), "end": i.text.index(w) + len(w), "label": lab}
                        for w, lab in (("Obama", "PERSON"), ("Paris", "GPE"), ("Berlin", "GPE"))])
        return out

    runner = mt.Runner(["TIN-shuffle"], {"m": CallableModel(model, batched=True)})
    assert (runner.task, runner.kind) == ("ner", "spans")
    frame = runner.run([x]).frame
    assert list(frame["verdict"]) == ["pass"]


# -- the task of a run ---------------------------------------------------------------------------


def test_all_relations_need_a_task_and_the_error_lists_them() -> None:
    with pytest.raises(MTError, match="registered tasks: re, ner"):
        mt.Runner("all", {"m": lambda x: "a"})
    assert mt.Runner(["MR-S1"], {"m": lambda x: "a"}).task == "re"
    assert [r.name for r in mt.Runner("all", {"m": lambda x: "a"}, task="ner").relations] == [
        "TIN-token", "TIN-phrase", "TIN-question", "TIN-shuffle"
    ]
    with pytest.raises(mt.RelationError, match="different tasks"):
        mt.Runner(["MR-S1", "TIN-shuffle"], {"m": lambda x: "a"})


def test_run_infers_the_task_from_the_inputs() -> None:
    x = mt.RelationInput.parse("[[John|PERSON]] met <<Mary|PERSON>>.")
    results = mt.run([x], models={"m": lambda i: "per:other_family"}, seed=0)
    assert set(results.frame["task"]) == {"re"} and set(results.frame["relation"]) >= {"MR-S1", "MR-S2"}


# -- models a task wraps ---------------------------------------------------------------------------


def test_as_model_asks_the_tasks_wrappers() -> None:
    from mtwidgets.re.models.opennre import OpenNREModel, wrap_infer

    class Infer:
        def infer(self, item: dict[str, object]) -> tuple[str, float]:
            return ("per:title", 0.9)

    model = as_model(Infer(), "onre")
    assert isinstance(model, OpenNREModel)
    assert wrap_infer(lambda x: x, "f") is None
    assert isinstance(as_model(lambda x: "a", "f"), CallableModel)


# -- plain-string sources, the public API ----------------------------------------------------------


def test_generate_reads_a_plain_string_as_the_tasks_input() -> None:
    groups = mt.relation("TIN-shuffle").generate("Obama met Biden.", seed=0)
    assert type(groups[0].sources[0]).__name__ == "NERInput"
    swap = mt.relation("MR-S1").generate("[[John|PERSON]] met <<Mary|PERSON>>.", seed=0)
    assert swap[0].followups[0].head_text == "Mary"  # type: ignore[attr-defined]


def test_the_task_api_is_exported() -> None:
    frame = mt.tasks()
    assert list(frame["name"][:2]) == ["re", "ner"]
    assert list(frame.loc[frame["name"] == "ner", "prediction"]) == ["spans"]
    assert mt.get_task("re").title == "Relation extraction"
    assert mt.Task is type(mt.get_task("ner")) and callable(mt.register_task)
    assert mt.NERInput.task == "ner" and mt.RelationInput.task == "re"


def test_the_catalogue_follows_the_registered_tasks() -> None:
    from mtwidgets.core.properties import SameLabel
    from mtwidgets.core.relation import MetamorphicRelation, RelationSpec, build_from_table
    from mtwidgets.core.task import Task
    from mtwidgets.re.transforms import SwapArguments

    table = {
        "TOY-swap": RelationSpec("swap", "identical", "swap", lambda o: SwapArguments(), lambda o: SameLabel())
    }

    def build(name: str, **options: object) -> MetamorphicRelation:
        return build_from_table(table, name, task="toy", paper="-", options=options)

    toy = Task(name="toy", title="Toy", input_type=mt.TextInput, prediction="label",
               relations=("TOY-swap",), build_relation=build)
    mt.register_task(toy)
    try:
        assert "TOY-swap" in list(mt.catalogue("toy")["name"])
        assert mt.relation("TOY-swap").task == "toy"
    finally:
        mt.unregister_task("toy")
    assert "TOY-swap" not in list(mt.catalogue()["name"])
    with pytest.raises(mt.RelationError, match="no relation named 'TOY-swap'"):
        mt.relation("TOY-swap")


def test_shipped_samples_come_from_the_tasks() -> None:
    assert len(mt.datasets.sample("re")) == len(mt.datasets.re_sample())
    assert mt.datasets.sample("ner", topic="sport") == mt.datasets.ner_sample("sport")
    assert mt.datasets.path("ner_sample").name == "ner_sample.jsonl"
    with pytest.raises(AttributeError):
        mt.datasets.toy_sample  # noqa: B018
    with pytest.raises(KeyError, match="available"):
        mt.datasets.path("nope")
    assert json.loads(mt.datasets.path("re_sample").read_text(encoding="utf-8").splitlines()[0])
