"""The NLI input, label names, the task declaration and the errors a user gets for bad input."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from mtwidgets.core.errors import InputError, MTError
from mtwidgets.core.inputs import input_from_dict
from mtwidgets.core.task import get_task, register_task, task_names, unregister_task
from mtwidgets.nli.contexts import Context
from mtwidgets.nli.inputs import CompositionInput, NLIInput, detect_nli, nli_from_row
from mtwidgets.nli.labels import canonical_label, entailment_score, output_labels
from mtwidgets.nli.task import TASK


def test_input_reads_gold_labels_and_keeps_them_out_of_the_key() -> None:
    x = NLIInput("There was no tree.", "There was no cherry tree.", "ENTAILMENT")
    assert (x.premise, x.hypothesis, x.label) == ("There was no tree.", "There was no cherry tree.", "entailment")
    assert x.model_text() == ("There was no tree.", "There was no cherry tree.")
    assert x.key() == NLIInput("There was no tree.", "There was no cherry tree.").key()
    assert input_from_dict(x.to_dict()) == x
    assert NLIInput("a b", "c d", float("nan")).label is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", "There was a tree."), "text_a is empty"),
        (("There was a tree.", "  "), "text_b is empty"),
        (("There was a tree.", 3), "text_b must be a string"),
        (("There was a tree.", "There was a pine.", "maybe"), "gold NLI label"),
        (("There was a \ud800 tree.", "There was a pine."), "lone surrogate"),
    ],
)
def test_bad_inputs_say_what_is_wrong(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(InputError, match=message):
        NLIInput(*args)  # type: ignore[arg-type]


def test_rows_become_inputs_or_clear_errors() -> None:
    x = nli_from_row({"premise": "A dog barked.", "hypothesis": "An animal barked.", "gold_label": "entailment"})
    assert x == NLIInput("A dog barked.", "An animal barked.", "entailment")
    assert nli_from_row({"sentence1": "A", "sentence2": "B"}).label is None
    with pytest.raises(InputError, match="no hypothesis column"):
        nli_from_row({"premise": "A dog barked."})
    with pytest.raises(InputError, match="must be a string"):
        nli_from_row({"premise": 4, "hypothesis": "An animal barked."})
    assert detect_nli({"premise", "hypothesis", "label"}) and not detect_nli({"text_a", "text_b"})


@pytest.mark.parametrize(
    ("name", "label"),
    [("ENTAILMENT", "entailment"), ("Entails", "entailment"), ("neutral", "neutral"),
     ("CONTRADICTION", "contradiction"), ("contradicts", "contradiction"), ("not_entailment", "not_entailment"),
     ("Non-Entailment", "not_entailment"), ("LABEL_0", None), ("positive", None), (3, None)],
)
def test_canonical_labels(name: object, label: str | None) -> None:
    assert canonical_label(name) == label


def _config(id2label: dict[int, str], label2id: dict[str, int] | None = None) -> SimpleNamespace:
    return SimpleNamespace(id2label=id2label, label2id=label2id or {v: k for k, v in id2label.items()})


def test_output_labels_read_configs_and_user_names() -> None:
    named = _config({0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"})
    assert output_labels(named, 3) == ["contradiction", "neutral", "entailment"]
    # generic id2label, but label2id names the outputs (a common hub config shape)
    generic = _config({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, {"entailment": 0, "neutral": 1, "contradiction": 2})
    assert output_labels(generic, 3) == ["entailment", "neutral", "contradiction"]
    blank = _config({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    assert output_labels(blank, 3, ["contradiction", "neutral", "entailment"])[2] == "entailment"
    assert output_labels(blank, 3, {"LABEL_0": "entailment", 1: "neutral", "2": "contradiction"}) == [
        "entailment", "neutral", "contradiction"]
    assert output_labels(_config({0: "entailment", 1: "not_entailment"}), 2) == ["entailment", "not_entailment"]


@pytest.mark.parametrize(
    ("config", "labels", "message"),
    [
        (_config({0: "LABEL_0", 1: "LABEL_1"}), None, "cannot tell what output 0"),
        (_config({0: "positive", 1: "negative"}), None, "pass labels="),
        (_config({0: "neutral", 1: "contradiction"}), None, "no entailment output"),
        (_config({0: "LABEL_0", 1: "LABEL_1"}), ["entailment"], "names 1 outputs"),
        (_config({0: "LABEL_0", 1: "LABEL_1"}), ["entailment", "entails"], "same label"),
    ],
)
def test_output_labels_refuse_what_they_cannot_read(config: object, labels: object, message: str) -> None:
    with pytest.raises(MTError, match=message):
        output_labels(config, 2, labels)  # type: ignore[arg-type]


def test_entailment_score() -> None:
    assert entailment_score([("entailment", 0.7), ("neutral", 0.3)]) == 0.7
    assert entailment_score({"ENTAILMENT": 0.2}) == 0.2
    with pytest.raises(MTError, match="no entailment score"):
        entailment_score([("positive", 1.0)], model="sentiment")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("There was no tree.", "down", ("plant",)), "exactly one slot"),
        (("There was no {x} or {x}.", "down", ("plant",)), "exactly one slot"),
        (("There was no {x}.", "sideways", ("plant",)), "monotonicity"),
        (("There was no {x}.", "down", ("spaceship",)), "unknown domain"),
        (("There was no {x}.", "down", ()), "names no insertion domain"),
    ],
)
def test_bad_contexts_are_refused(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(InputError, match=message):
        Context(*args)  # type: ignore[arg-type]


@pytest.fixture
def nli_task() -> Iterator[None]:
    """The task registered (its entry point registers it where the package is installed),
    and the registry left as it was."""
    before = TASK.name in task_names()
    register_task(TASK, replace=True)
    try:
        yield
    finally:
        if not before:
            unregister_task(TASK.name)


@pytest.mark.usefixtures("nli_task")
def test_the_task_is_a_plug_in() -> None:
    task = get_task("nli")
    assert task.input_class is NLIInput and task.prediction == "label"
    x = task.input_from_row({"premise": "A dog barked.", "hypothesis": "An animal barked."})
    assert isinstance(x, NLIInput)
    assert task.matches_columns({"premise", "hypothesis"})
    assert [m.name for m in task.models] == ["nli-minilm"]
    assert input_from_dict({"task": "nli", "text_a": "A", "text_b": "B"}) == NLIInput("A", "B")
    with pytest.raises(InputError, match="not one plain string"):
        task.input_from_text("A dog barked.")


# -- compositions -------------------------------------------------------------------------------


def test_a_composition_writes_its_sentences_and_knows_its_gold_label() -> None:
    x = CompositionInput.compose("There is a {x} in the garden.", "up", "eagle", "bird", "hyponym")
    assert (x.premise, x.hypothesis) == ("There is an eagle in the garden.", "There is a bird in the garden.")
    assert x.premise[slice(*x.spans[0])] == "eagle" and x.hypothesis[slice(*x.spans[1])] == "bird"
    assert (x.relation, x.label, x.composition) == ("⊆", "entailment", "Up(⊆)")
    plural = CompositionInput.compose("Some {xs} bloom in spring.", "upward", "rose", "flower", "⊆")
    assert plural.premise == "Some roses bloom in spring." and plural.monotonicity == "up"
    down = CompositionInput.compose("There was no {x}.", "down", "eagle", "bird", "⊆")
    assert down.label == "neutral"  # Down(⊆) is not entailed
    assert input_from_dict(x.to_dict()) == x and input_from_dict(NLIInput("A", "B").to_dict()) == NLIInput("A", "B")
    assert x.key() != NLIInput(x.premise, x.hypothesis).key()  # the model answers a composition with more


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"context": "There was no tree.", "monotonicity": "down", "a": "a", "b": "b", "relation": "none"},
         "exactly one slot"),
        ({"context": "There was no {x}.", "monotonicity": "sideways", "a": "oak", "b": "tree", "relation": "⊆"},
         "monotonicity"),
        ({"context": "There was no {x}.", "monotonicity": "down", "a": "oak", "b": "tree", "relation": "cousin"},
         "lexical relation"),
        ({"context": "There was no {x}.", "monotonicity": "down", "a": " ", "b": "tree", "relation": "⊆"},
         "insertion word a"),
        ({"context": "There was no {x}.", "monotonicity": "down", "a": "oak", "b": "tree", "relation": "⊆",
          "label": "entailment"}, "not entailed"),
    ],
)
def test_bad_compositions_say_what_is_wrong(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        CompositionInput.compose(**kwargs)


def test_composition_rows_are_written_or_checked_against_their_context() -> None:
    row = {"context": "There was no ⟨x⟩.", "monotonicity": "down", "a": "animal", "b": "dog", "relation": "⊇"}
    x = nli_from_row(row)
    assert isinstance(x, CompositionInput) and (x.premise, x.hypothesis, x.label) == (
        "There was no animal.", "There was no dog.", "entailment")
    assert x.context == "There was no {x}." and x.source == "user"
    given = nli_from_row({**row, "premise": "There was no animal.", "hypothesis": "There was no dog."})
    assert given == x
    geese = nli_from_row({"context": "Some {xs} flew over.", "monotonicity": "up", "a": "goose", "b": "bird",
                          "relation": "⊆", "premise": "Some geese flew over.", "hypothesis": "Some birds flew over."})
    assert geese.premise[slice(*geese.spans[0])] == "geese"
    with pytest.raises(InputError, match="not the context"):
        nli_from_row({**row, "premise": "There is no animal.", "hypothesis": "There was no dog."})
    with pytest.raises(InputError, match="not 'dog'"):
        nli_from_row({**row, "premise": "There was no animal.", "hypothesis": "There was no cat."})
    with pytest.raises(InputError, match="both the premise and the hypothesis"):
        nli_from_row({**row, "premise": "There was no animal."})
    with pytest.raises(InputError, match="no lexical relation column"):
        nli_from_row({k: v for k, v in row.items() if k != "relation"})
    assert detect_nli({"context", "monotonicity", "a", "b", "relation"})
    assert not detect_nli({"context", "text"})
