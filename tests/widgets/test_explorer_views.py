"""The Explorer's view parts on tasks other than relation extraction and NER: a text pair
with a numeric prediction, a single text with a text prediction, the toy shout task; and the
Unicode-aware words and word diff the Explorer draws with.

The toy tasks are registered for one test each and removed after it, so the catalogue and
the task registry stay as the other tests expect them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from mtwidgets.core.errors import InputError, MTError
from mtwidgets.core.inputs import TextInput, TextPairInput, register_input_type
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Check, Draft, MetamorphicRelation, OutputProperty, Transformation
from mtwidgets.core.task import Task, get_task, register_task, unregister_task
from mtwidgets.core.views import Band, ExplorerParts, TextPairParts, TextParts, explorer_parts
from mtwidgets.lang.text import diff_words, token_dicts, tokenize
from mtwidgets.widgets._assets import esm
from mtwidgets.widgets._explorer_state import diff_segments
from mtwidgets.widgets.explorer import Explorer


# -- a text-pair similarity task with a numeric prediction ------------------------------------
@register_input_type
@dataclass(frozen=True)
class SimPair(TextPairInput):
    task: ClassVar[str] = "simtoy"


class SwapTexts(Transformation):
    requirement = "two texts"

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        return [["swap"]]

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        x = sources[0]
        return Draft(sources, (SimPair(x.text_b, x.text_a),), "texts swapped")


class CloseValue(OutputProperty):
    description = "the same similarity (within 0.05)"

    def check(self, group: Any, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        a, b = sources[0].value or 0.0, followups[0].value or 0.0
        verdict = "pass" if abs(a - b) <= 0.05 else "violation"
        return Check(verdict, f"{a:.2f}", f"similarity {a:.2f} -> {b:.2f}")


def build_sim(name: str, **options: Any) -> MetamorphicRelation:
    return MetamorphicRelation(
        name,
        task="simtoy",
        category="symmetry",
        description="Swap the two texts.",
        expected="same similarity",
        paper="the mtwidgets tests",
        transformation=SwapTexts(),
        property=CloseValue(),
    )


def from_pair_text(text: str) -> SimPair:
    first, _, second = text.partition("|||")
    return SimPair(first.strip(), second.strip())


class Overlap:
    """A similarity that is not symmetric: shared words over the first text's words."""

    def predict(self, inputs: Sequence[SimPair]) -> list[Prediction]:
        out = []
        for x in inputs:
            a, b = set(x.text_a.lower().split()), set(x.text_b.lower().split())
            out.append(Prediction(value=round(len(a & b) / max(len(a), 1), 4)))
        return out


BANDS = (Band("different", 0.0, 0.4), Band("related", 0.4, 0.8), Band("same", 0.8, 1.01))
SIM = Task(
    name="simtoy",
    title="Toy similarity",
    input_type=SimPair,
    prediction="value",
    relations=("SIM-swap",),
    build_relation=build_sim,
    from_text=from_pair_text,
    explorer=lambda: TextPairParts(value_bands=BANDS),
)
PAIRS = [SimPair("A cat sat on the mat", "the cat sat"), SimPair("Rain in Oslo", "Sun in Rome today")]


# -- a single-text "summariser" task with a text prediction ------------------------------------
@register_input_type
@dataclass(frozen=True)
class Note(TextInput):
    task: ClassVar[str] = "notetoy"


class AddPlease(Transformation):
    requirement = "a text"

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        return [["please"]]

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        return Draft(sources, (Note(f"Please, {sources[0].text}"),), "'Please,' added")


class SameText(OutputProperty):
    description = "the same summary"

    def check(self, group: Any, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        same = sources[0].text == followups[0].text
        return Check(
            "pass" if same else "violation", sources[0].text, "summary kept" if same else "summary changed"
        )


def build_note(name: str, **options: Any) -> MetamorphicRelation:
    return MetamorphicRelation(
        name,
        task="notetoy",
        category="politeness",
        description="Add 'Please,'.",
        expected="same summary",
        paper="the mtwidgets tests",
        transformation=AddPlease(),
        property=SameText(),
    )


def first_words(x: Note) -> Prediction:
    return Prediction(text=" ".join(x.text.split()[:4]))


NOTE = Task(
    name="notetoy",
    title="Toy summary",
    input_type=Note,
    prediction="text",
    relations=("NOTE-please",),
    build_relation=build_note,
    from_text=Note,
    explorer=TextParts,
)


@pytest.fixture()
def sim_task() -> Iterator[Task]:
    register_task(SIM, replace=True)
    try:
        yield SIM
    finally:
        unregister_task("simtoy")


@pytest.fixture()
def note_task() -> Iterator[Task]:
    register_task(NOTE, replace=True)
    try:
        yield NOTE
    finally:
        unregister_task("notetoy")


# -- parts ---------------------------------------------------------------------------------------
def test_parts_of_the_built_in_tasks_name_their_views() -> None:
    re_parts, ner_parts = explorer_parts(get_task("re")), explorer_parts(get_task("ner"))
    assert (re_parts.mark_view, re_parts.prediction_view, re_parts.extra_view) == (
        "head-tail",
        "label-scores",
        None,
    )
    assert (ner_parts.mark_view, ner_parts.prediction_view, ner_parts.extra_view) == (
        "spans",
        "spans",
        "entity-inspector",
    )
    assert re_parts.roles == ("head", "tail") and ner_parts.roles == ("entity",)


def test_generic_parts_are_one_liners_and_fill_the_prediction_view_from_the_kind(
    sim_task: Task, note_task: Task
) -> None:
    note = explorer_parts(note_task)
    assert isinstance(note, TextParts) and note.mark_view == "text" and note.prediction_view == "text-diff"
    sim = explorer_parts(sim_task)
    assert sim.mark_view == "text-pair" and sim.prediction_view == "number-bands"
    assert sim.band_of(0.5) == "related" and sim.band_of(0.95) == "same" and sim.band_of(7.0) is None
    assert TextParts(prediction_view="label-scores").prediction_view == "label-scores"
    with pytest.raises(MTError, match="no option 'colour'"):
        TextParts(colour="red")
    # a task that declares no explorer part gets the generic parts that fit its input
    bare = Task(name="bare", title="Bare pairs", input_type=SimPair, prediction="label")
    parts = explorer_parts(bare)
    assert isinstance(parts, TextPairParts) and parts.prediction_view == "label-scores"
    assert parts.texts_of(PAIRS[0]) == {"text_a": "A cat sat on the mat", "text_b": "the cat sat"}
    assert parts.parse_texts("one ||| two") == {"text_a": "one", "text_b": "two"}
    assert parts.edit_text(PAIRS[0]) == "A cat sat on the mat ||| the cat sat"


def test_explorer_parts_refuses_what_is_not_parts() -> None:
    odd = Task(name="odd", title="Odd", input_type=Note, prediction="text", explorer=lambda: "not parts")
    with pytest.raises(MTError, match="not ExplorerParts"):
        explorer_parts(odd)
    assert isinstance(
        explorer_parts(Task(name="odd2", title="Odd", input_type=Note, prediction="text")), ExplorerParts
    )


# -- a text pair with a numeric prediction ---------------------------------------------------------
def test_a_text_pair_shows_both_texts_and_a_numeric_prediction_with_bands(sim_task: Task) -> None:
    e = Explorer(models={"overlap": Overlap()}, data=PAIRS)
    assert e.task == "simtoy" and e.relation == "SIM-swap"
    inp = e._input
    assert inp["mark_view"] == "text-pair" and inp["roles"] == [] and inp["tokens"][0]["text"] == "A"
    assert [(f["name"], f["title"], f["text"]) for f in inp["fields"]] == [
        ("text_a", "first text", "A cat sat on the mat"),
        ("text_b", "second text", "the cat sat"),
    ]
    assert e._rows[0]["text"] == "A cat sat on the mat ||| the cat sat"
    # the follow-up: both fields, each diffed against the source's same field
    (segs,) = e._followup["followups"]
    assert [s["field"] for s in segs if "field" in s] == ["first text", "second text"]
    shown = "".join(s["text"] + s["ws"] for s in segs if s["op"] != "del")
    assert shown == "the cat satA cat sat on the mat"
    assert e._followup["texts"] == ["the cat sat ||| A cat sat on the mat"]
    # the source's texts are shown in the sources list too (one source, two fields)
    assert [s["field"] for s in e._followup["sources"][0] if "field" in s] == ["first text", "second text"]
    # the numeric prediction: value, band, and the bands to draw them on
    (card,) = e._models
    assert card["view"] == "number-bands" and card["verdict"] == "violation"
    assert card["source"][0]["value"] == 0.5 and card["source"][0]["band"] == "related"
    assert card["followup"][0]["value"] == 1.0 and card["followup"][0]["band"] == "same"
    assert card["bands"][0] == {"name": "different", "low": 0.0, "high": 0.4}
    assert card["reason"] == "similarity 0.50 -> 1.00"
    assert e.predictions["overlap"]["source"] == Prediction(value=0.5)


def test_a_text_pair_is_typed_field_by_field_and_edited_as_one_line(sim_task: Task) -> None:
    e = Explorer(models={"overlap": Overlap()}, data=PAIRS)
    reply = e.handle_message(
        {"kind": "set_text", "id": 1, "texts": {"text_a": "red apple", "text_b": "green apple"}}
    )
    assert reply == {"kind": "reply", "id": 1}
    assert e.source == SimPair("red apple", "green apple") and e._input["custom"] is True
    assert e.verdicts == {"overlap": "pass"}  # 1/2 both ways
    reply = e.handle_message({"kind": "set_text", "id": 2, "texts": {"text_b": "  "}})
    assert reply["kind"] == "error" and "second text is empty" in reply["message"]
    assert e.source is None and "type the second text" in e._input["todo"]
    e.set_text("one two ||| two three")
    assert e.source == SimPair("one two", "two three")
    e.edit_followup("two three ||| one two four")
    assert e.followups == [SimPair("two three", "one two four")]
    with pytest.raises(InputError, match="both texts"):
        e.edit_followup("only one text")
    e.source = "a b ||| b c"  # the task's from_text
    assert e.source == SimPair("a b", "b c")
    with pytest.raises(InputError, match="nothing to mark"):
        e.mark("head", 0, 1)


def test_without_an_inspector_suspicious_and_repairs_raise_a_generic_error(sim_task: Task) -> None:
    e = Explorer(models={"overlap": Overlap()}, data=PAIRS)
    with pytest.raises(InputError, match="suspicious entities are not part of the Toy similarity Explorer"):
        e.suspicious  # noqa: B018
    with pytest.raises(InputError, match="repairs are not part of the Toy similarity Explorer"):
        e.repairs  # noqa: B018


# -- a text prediction -----------------------------------------------------------------------------
def test_a_text_prediction_renders_with_a_word_diff_of_source_and_follow_up(note_task: Task) -> None:
    e = Explorer(models={"first": first_words}, data=[Note("Send the report to Ann by noon")])
    assert e._input["mark_view"] == "text" and e._input["roles"] == []
    (card,) = e._models
    assert card["view"] == "text-diff" and card["verdict"] == "violation"
    assert card["source"][0]["text"] == "Send the report to"
    assert card["followup"][0]["text"] == "Please, Send the report"
    diff = [(d["op"], d["text"]) for d in card["followup"][0]["diff"]]
    assert diff == [
        ("ins", "Please"),
        ("ins", ","),
        ("eq", "Send"),
        ("eq", "the"),
        ("eq", "report"),
        ("del", "to"),
    ]
    assert "diff" not in card["source"][0]
    assert e.predictions["first"]["followup"] == Prediction(text="Please, Send the report")


def test_the_toy_shout_task_explores_with_the_generic_single_text_parts(shout_task: Any) -> None:
    e = Explorer(task="shout")
    assert e._input["mark_view"] == "text" and e._models[0]["view"] == "label-scores"
    assert len(e._rows) == len(shout_task.part("sample")())
    e.set_text("HELLO THERE FRIEND")
    assert e.source is not None and e.source.text == "HELLO THERE FRIEND"
    assert set(e.verdicts) == {"shout-caps"}


# -- Unicode words and diff ----------------------------------------------------------------------------
def test_cjk_characters_are_one_token_each_and_diff_one_by_one() -> None:
    assert [t.text for t in tokenize("我爱北京天安门。")] == ["我", "爱", "北", "京", "天", "安", "门", "。"]
    assert [t.text for t in tokenize("東京で勉強した")] == ["東", "京", "で", "勉", "強", "し", "た"]
    ops = [(op, t.text) for op, _i, t in diff_words("我爱北京", "我爱上海")]
    assert ops == [("eq", "我"), ("eq", "爱"), ("del", "北"), ("del", "京"), ("ins", "上"), ("ins", "海")]
    # mixed scripts: Latin words stay whole next to Han characters
    assert [t.text for t in tokenize("用Python写代码")] == ["用", "Python", "写", "代", "码"]


def test_accents_curly_quotes_and_apostrophes() -> None:
    decomposed = unicodedata.normalize("NFD", "Zoë met Renée in São Paulo")
    assert [t.text for t in tokenize(decomposed)] == decomposed.split(" ")
    text = "“Don’t,” said Mary’s friend — l’été."
    assert [t.text for t in tokenize(text)] == [
        "“",
        "Don’t",
        ",",
        "”",
        "said",
        "Mary’s",
        "friend",
        "—",
        "l’été",
        ".",
    ]
    # composed and decomposed accents are the same word in a diff
    ops = {op for op, _i, _t in diff_words("café crème", unicodedata.normalize("NFD", "café crème"))}
    assert ops == {"eq"}
    tokens = token_dicts("  Ann  met\n\nZoë. ")
    assert all(t["text"] == "  Ann  met\n\nZoë. "[t["start"] : t["end"]] for t in tokens)
    assert "".join(t["text"] + t["ws"] for t in tokens) == "Ann  met\n\nZoë. "


def test_marked_words_split_at_span_boundaries_in_the_explorer_diff() -> None:
    from mtwidgets.core.spans import Span

    segs = diff_segments("Mary’s cat", {"head": Span(0, 4)}, "Zoë’s cat", {"head": Span(0, 3)})
    assert [(s["op"], s["text"], s["role"]) for s in segs] == [
        ("del", "Mary", "head"),
        ("ins", "Zoë", "head"),
        ("eq", "’s", None),
        ("eq", "cat", None),
    ]


def test_a_cjk_note_explores_with_unicode_tokens_and_diff(note_task: Task) -> None:
    e = Explorer(models={"first": first_words}, data=[Note("请把报告发给我")])
    assert [t["text"] for t in e._input["tokens"]] == list("请把报告发给我")
    e.edit_followup("请把报告发给他")
    (segs,) = e._followup["followups"]
    assert [(s["op"], s["text"]) for s in segs if s["op"] != "eq"] == [("del", "我"), ("ins", "他")]


# -- the front-end module ---------------------------------------------------------------------------------
def test_the_esm_inlines_the_shared_helpers_once() -> None:
    import re

    code = esm("explorer.js")
    assert not re.search(r"^\s*//\s*@include", code, re.M)
    assert "// ---- common.js (inlined) ----" in code
    assert code.count("function h(") == 1 and "export default { render }" in code
    for name in ("MARK_VIEWS", "PREDICTION_VIEWS", "EXTRA_VIEWS"):
        assert f"const {name} = " in code
    assert isinstance(
        Explorer._esm.default_value if hasattr(Explorer._esm, "default_value") else Explorer._esm, str
    )
