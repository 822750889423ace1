"""The Explorer on three-way transitivity: one triplet of words live (x12 typed or a data row,
w3 typed or from the data, the closing pair x13), every model's v(y12), v(y23), v(y13) with
scores, the premise, the hypothesis and the verdict as a run decides it; and the lexical
task's input parts (a word pair in two boxes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.task import get_task
from mtwidgets.core.views import explorer_parts, multi_source_parts
from mtwidgets.lexical.data import SAMPLE
from mtwidgets.lexical.explorer import LexicalParts, TransitivityCase, split_words
from mtwidgets.lexical.inputs import WordPairInput, pair_prediction
from mtwidgets.lexical.relations import all_pairs
from mtwidgets.widgets.explorer import Explorer

SYN, HYP = "transitivity-syn", "transitivity-hyp"
# The fake model's scores: a listed pair gets its score, any other 0.1 (the threshold is 0.5).
HYPERNYM = {("puppy", "dog"): 0.9, ("dog", "canine"): 0.8, ("puppy", "canine"): 0.7, ("canine", "carnivore"): 0.85,
            ("dog", "carnivore"): 0.3, ("carnivore", "mammal"): 0.75, ("dog", "mammal"): 0.6, ("dog", "animal"): 0.95}
SYNONYM = {("big", "large"): 0.9, ("large", "huge"): 0.8, ("big", "huge"): 0.2, ("small", "little"): 0.85}
OTHER = 0.1


class Table:
    """A lexical model that reads its scores from the tables above; fails on pairs holding
    ``fail_on``; without ``relations`` it scores both relations, else only those."""

    def __init__(self, fail_on: str | None = None, relations: Sequence[str] = ("synonym", "hypernym")) -> None:
        self.fail_on = fail_on
        self.relations = tuple(relations)
        self.calls = 0

    def predict(self, inputs: Sequence[WordPairInput]) -> list[Prediction]:
        self.calls += 1
        if self.fail_on is not None and any(self.fail_on in (x.w1, x.w2) for x in inputs):
            raise RuntimeError(f"no vector for {self.fail_on!r}")
        return [self._one(x) for x in inputs]

    def _one(self, x: WordPairInput) -> Prediction:
        scores = {"synonym": SYNONYM.get((x.w1, x.w2), OTHER), "hypernym": HYPERNYM.get((x.w1, x.w2), OTHER)}
        if self.relations == tuple(scores):
            return pair_prediction(scores)
        flags = {r: s >= 0.5 for r, s in scores.items() if r in self.relations}
        label = "+".join(r for r, v in flags.items() if v) or "none"
        return Prediction(label=label, scores=tuple((r, scores[r]) for r in self.relations))


def row_of(w1: str, w2: str) -> int:
    return next(i for i, (_, a, b, _) in enumerate(SAMPLE) if (a, b) == (w1, w2))


def explorer(relation: str = HYP, models: dict[str, Any] | None = None, **kw: Any) -> Explorer:
    ex = Explorer(task="lexical", models=models or {"table": Table()}, **kw)
    ex.relation = relation
    return ex


def send(ex: Explorer, kind: str, **payload: Any) -> dict[str, Any]:
    return ex.handle_message({"kind": kind, "id": 1, **payload})


def card(ex: Explorer, name: str = "table") -> dict[str, Any]:
    return next(m for m in ex._case["models"] if m["name"] == name)


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test predicts afresh (call counts are asserted)."""
    monkeypatch.setattr("mtwidgets.widgets._explorer_state.default_cache", PredictionCache)


# -- the triplet on screen -----------------------------------------------------------------------------
def test_picking_transitivity_shows_one_triplet_with_its_three_scores_and_the_verdict() -> None:
    ex = explorer()
    case = ex._case
    assert case["active"] and case["relation"] == HYP and ex._models == []
    assert isinstance(ex.multi_source, TransitivityCase)
    # x12 is the data's first row (puppy, dog); w3 comes from the data's chain (dog, canine)
    assert [(s["title"], s["text"], s["row"], s["auto"]) for s in case["sources"]] == [
        ("x12", "puppy → dog", 0, False), ("x23", "canine", row_of("dog", "canine"), True)]
    assert "w3 = 'canine', from the pair dog → canine" in case["sources"][1]["todo"]
    assert (ex.source, *ex.partners) == (WordPairInput("puppy", "dog", "en", "hypernym"),
                                         WordPairInput("dog", "canine", "en"))
    assert ex.followups == [WordPairInput("puppy", "canine", "en")]
    assert [o["key"] for o in case["options"]] == ["x13"] and case["option"] == "x13"
    changed = [(w["text"], w["op"]) for w in case["followups"][0]["words"] if w["op"] != "eq"]
    assert case["followups"][0]["title"] == "x13" and changed == [("dog", "del"), ("canine", "ins")]
    assert case["expected"].startswith("v(y12) ∧ v(y23) ⇒ v(y13): if the model says w2 is a hypernym of w1")
    m = card(ex)
    assert [(v["title"], v["value"], v["label"]) for v in m["values"]] == [
        ("x12", 0.9, "hypernym"), ("x23", 0.8, "hypernym"), ("x13", 0.7, "hypernym")]
    assert m["premise"] == {"title": "v(y12) ∧ v(y23)", "holds": True,
                            "text": "v(y12) true (hypernym 0.9) ∧ v(y23) true (hypernym 0.8)"}
    assert m["hypothesis"] == {"title": "v(y13)", "text": "v(y13) true (hypernym 0.7)", "holds": True}
    assert (m["verdict"], m["reason"]) == ("pass", "hypernym for x12 and x23, and for x13 (hypernym)")
    assert ex.verdicts == {"table": "pass"} and ex.judgements["table"].premise_holds is True


def test_the_verdict_is_the_one_a_run_gives_on_the_same_triplet() -> None:
    model = Table()
    for w3, verdict in (("canine", "pass"), ("carnivore", "violation"), ("mammal", "not_applicable")):
        ex = explorer(models={"table": model})
        ex.select(row_of("dog", "canine") if w3 != "canine" else 0)
        ex.set_partner(w3)
        x12, x23 = ex.source, ex.partners[0]
        assert x12 is not None and x23 is not None
        rel = mt.relation(HYP)
        (group,) = rel.generate((x12, x23))
        assert list(group.followups) == ex.followups
        srcs, fus = model.predict(group.sources), model.predict(group.followups)
        expected = rel.applies(group, srcs)
        check = rel.check(group, srcs, fus) if expected is None else None
        m = card(ex)
        assert m["verdict"] == verdict == (check.verdict if check else "not_applicable")
        assert m["reason"] == (check.reason if check else expected)


def test_a_violation_and_a_false_premise_say_why() -> None:
    ex = explorer()
    ex.select(row_of("dog", "canine"))
    ex.set_partner("carnivore")  # (dog, canine) 0.8, (canine, carnivore) 0.85, (dog, carnivore) 0.3
    assert ex.followups == [WordPairInput("dog", "carnivore", "en")]
    m = card(ex)
    assert (m["verdict"], m["reason"]) == ("violation", "hypernym for x12 and x23 but not for x13 (none)")
    assert m["premise"]["holds"] is True and m["hypothesis"] == {
        "title": "v(y13)", "text": "v(y13) false (hypernym 0.3)", "holds": False}
    ex.set_partner("animal")  # (canine, animal) is 0.1: the premise is false
    m = card(ex)
    assert (m["verdict"], m["reason"]) == ("not_applicable", "premise fails: hypernym not predicted for x23")
    assert m["premise"]["text"] == "v(y12) true (hypernym 0.8) ∧ v(y23) false (hypernym 0.1)"
    assert [v["value"] for v in m["values"]] == [0.8, 0.1, 0.95]  # the hypothesis is still shown
    assert m["hypothesis"] == {"title": "v(y13)", "text": "v(y13) true (hypernym 0.95)", "holds": True}


def test_synonymy_reads_the_synonym_scores() -> None:
    ex = explorer(SYN)
    ex.select(row_of("big", "large"))
    ex.set_partner("huge")
    m = card(ex)
    assert [v["value"] for v in m["values"]] == [0.9, 0.8, 0.2]
    assert (m["verdict"], m["reason"]) == ("violation", "synonym for x12 and x23 but not for x13 (none)")
    assert "calls (w1, w2) and (w2, w3) synonyms" in ex._case["expected"]


# -- w3: from the data, typed, picked --------------------------------------------------------------------
def test_w3_follows_x1_through_the_datas_chains_until_typed_then_stays() -> None:
    ex = explorer()
    ex.index = row_of("canine", "carnivore")
    assert ex.partners == [WordPairInput("carnivore", "mammal", "en")]  # the data's row (carnivore, mammal)
    assert ex._case["sources"][1]["row"] == row_of("carnivore", "mammal") and ex._case["sources"][1]["auto"]
    ex.index = row_of("table", "cloud")  # no pair starts with 'cloud': the next English pair gives w3
    assert ex._case["sources"][1]["row"] == 0 and ex.partners == [WordPairInput("cloud", "dog", "en")]
    assert send(ex, "partner_text", slot=1, text="mammal")["kind"] == "reply"
    ex.index = 1  # (dog, canine): the typed w3 stays, x23 starts with the new w2
    assert ex.partners == [WordPairInput("canine", "mammal", "en")] and ex._case["sources"][1]["text"] == "mammal"
    assert ex._case["sources"][1]["typed"] and ex._case["sources"][1]["todo"] == (
        "w3 = 'mammal'; x23 = canine → mammal (type another w3 or pick a row: its second word)")
    send(ex, "partner_auto", slot=1)
    assert ex.partners == [WordPairInput("canine", "carnivore", "en")] and ex._case["sources"][1]["auto"]


def test_chinese_pairs_chain_in_chinese() -> None:
    ex = explorer(SYN)
    ex.index = row_of("美丽", "漂亮")
    assert ex.partners == [WordPairInput("漂亮", "好看", "zh")]
    assert ex.followups == [WordPairInput("美丽", "好看", "zh")]


def test_picking_a_row_takes_its_second_word_as_w3() -> None:
    ex = explorer()
    assert send(ex, "partner_row", slot=1, index=row_of("big", "large"))["kind"] == "reply"
    assert ex.partners == [WordPairInput("dog", "large", "en")]
    source = ex._case["sources"][1]
    assert (source["text"], source["row"], source["auto"]) == ("large", row_of("big", "large"), False)
    assert source["todo"].startswith("w3 = 'large', from the pair big → large; x23 = dog → large")
    ex.set_partner(row_of("美丽", "漂亮"))  # another language: no x23, and why
    assert ex.partners == [None] and "is in 'zh', x12 in 'en'" in ex._case["sources"][1]["todo"]
    assert ex._case["not_applicable"] == "x23 missing" and ex.verdicts == {}


@pytest.mark.parametrize(("typed", "w3"), [("carnivore", "carnivore"), ("  carnivore ", "carnivore"),
                                           ("dog carnivore", "carnivore"), ("dog -> carnivore", "carnivore"),
                                           ("dog → carnivore", "carnivore")])
def test_w3_may_be_typed_alone_or_after_w2(typed: str, w3: str) -> None:
    ex = explorer()
    ex.set_partner(typed)
    assert ex.partners == [WordPairInput("dog", w3, "en")] and ex._case["sources"][1]["text"] == typed


@pytest.mark.parametrize(("typed", "todo"), [
    ("", "type w3, the third word"),
    ("   ", "type w3, the third word"),
    ("cat canine", "x23 starts with w2 = 'dog', the input's second word; type only w3"),
    ("a big dog", "type one word, w3; got 3 words"),
    ("dog!", "x23 = (w2, w3): w3 'dog!' has the character '!'"),
    ("小狗", "x23 = (w2, w3): w2 '小狗' is written in Chinese characters, but lang is 'en'"),
])
def test_a_bad_w3_asks_for_another_without_an_error(typed: str, todo: str) -> None:
    ex = explorer()
    assert send(ex, "partner_text", slot=1, text=typed)["kind"] == "reply" and ex._error == {}
    assert ex.partners == [None] and ex._case["sources"][1]["todo"].startswith(todo)
    assert ex._case["not_applicable"] == "x23 missing" and ex._case["models"] == [] and ex.followups == []


def test_three_words_that_are_not_distinct_are_no_triplet() -> None:
    ex = explorer()
    ex.set_partner("puppy")  # w3 = w1
    case = ex._case
    assert case["not_applicable"] == ("no triplet: the three words are not distinct "
                                      "(w1, w2, w3 = 'puppy', 'dog', 'puppy')")
    assert case["options"][0]["enabled"] is False and case["followups"] == []
    m = card(ex)
    assert (m["verdict"], m["reason"]) == ("not_applicable", case["not_applicable"])
    assert [v["value"] for v in m["values"]] == [0.9, 0.1, None] and m["hypothesis"]["text"] == ""


def test_set_partner_takes_an_input_or_the_pairs_fields() -> None:
    ex = explorer()
    ex.set_partner(WordPairInput("dog", "animal"))
    assert ex.partners == [WordPairInput("dog", "animal", "en")] and card(ex)["values"][1]["value"] == 0.95
    ex.set_partner({"w1": "dog", "w2": "canine"})
    assert ex.partners == [WordPairInput("dog", "canine", "en")]
    with pytest.raises(InputError, match="unknown text field"):
        ex.set_partner({"w3": "canine"})


# -- x12: the input box --------------------------------------------------------------------------------
def test_x12_is_typed_in_two_boxes_and_a_data_pair_typed_back_is_that_row() -> None:
    ex = explorer()
    assert ex._input["mark_view"] == "word-pair" and [f["name"] for f in ex._input["fields"]] == ["w1", "w2"]
    assert send(ex, "set_text", texts={"w1": "big", "w2": "large"})["kind"] == "reply"
    assert ex.source == WordPairInput("big", "large", "en", "synonym")  # the data's row, with its gold kind
    assert ex._case["sources"][0] | {"todo": ""} == {"slot": 0, "title": "x12", "text": "big → large", "row": None,
                                                     "auto": False, "typed": True, "todo": ""}
    ex.set_text("cat -> feline")
    assert ex.source == WordPairInput("cat", "feline", "en") and ex.partners[0].w1 == "feline"
    ex.set_text({"w1": "美丽", "w2": "好看"})
    assert ex.source is not None and ex.source.lang == "zh"


def test_an_incomplete_x12_asks_for_its_words() -> None:
    ex = explorer()
    ex.set_text({"w1": "dog", "w2": "great dane"})
    assert ex.source is None and "holds a space" in ex._input["todo"]
    assert ex.partners == [None] and ex._case["sources"][1]["todo"].startswith("give x12 = (w1, w2) above first")
    assert ex._case["not_applicable"] == "x12 and x23 missing" and ex.verdicts == {}


def test_the_follow_up_is_built_not_edited() -> None:
    ex = explorer()
    reply = send(ex, "edit_followup", text="puppy cat")
    assert reply["kind"] == "error" and "built from x12 and x23" in reply["message"]


# -- models that fail, scores that are missing, calls -------------------------------------------------------
def test_a_failing_model_gets_an_error_and_the_others_still_judge() -> None:
    ex = explorer(models={"table": Table(), "fussy": Table(fail_on="canine")})
    assert ex.verdicts == {"table": "pass", "fussy": "error"}
    assert "no vector for 'canine'" in card(ex, "fussy")["reason"]


def test_a_model_without_the_relations_score_is_not_applicable() -> None:
    ex = explorer(models={"synonyms-only": Table(relations=("synonym",))})  # like a Chinese model without hypernymy
    m = card(ex, "synonyms-only")
    assert m["verdict"] == "not_applicable"
    assert m["reason"] == "the model gives no hypernym score for x12 (label 'none'): it does not predict hypernym there"
    assert [v["value"] for v in m["values"]] == [None, None, None]


def test_one_call_per_model_and_case_then_the_cache() -> None:
    model = Table()
    ex = explorer(models={"table": model})
    calls = model.calls
    ex.set_partner("canine")  # the same triplet as the default one
    ex.relation = SYN
    ex.relation = HYP
    assert model.calls == calls


# -- the suite and other data -----------------------------------------------------------------------------
def test_a_saved_triplet_comes_back(tmp_path: Any) -> None:
    ex = explorer()
    ex.select(row_of("dog", "canine"))
    ex.set_partner("carnivore")
    group = ex.save()
    assert (group.sources, group.followups) == ((WordPairInput("dog", "canine", "en", "hypernym"),
                                                 WordPairInput("canine", "carnivore", "en")),
                                                (WordPairInput("dog", "carnivore", "en"),))
    frame = ex.suite.frame
    assert len(frame) == 1 and frame.loc[0, "verdict"] == "violation" and frame.loc[0, "relation"] == HYP
    path = tmp_path / "suite.jsonl"
    ex.suite.save(path)
    back = Explorer(data=mt.Results.load(path), models={"table": Table()})
    assert back.relation == HYP and (back.source, *back.partners) == (ex.source, *ex.partners)
    assert back.verdicts == ex.verdicts and back._case["models"] == ex._case["models"]


def test_word_pair_data_opens_the_lexical_explorer() -> None:
    frame = pd.DataFrame({"w1": ["big", "large"], "w2": ["large", "huge"]})
    ex = Explorer(data=frame, models={"table": Table()})
    assert ex.task == "lexical" and ex.relation == SYN and ex._case["active"]
    assert ex.followups == [WordPairInput("big", "huge", "en")] and ex.verdicts == {"table": "violation"}
    every = Explorer(data=all_pairs(["big", "large", "huge"]), models={"table": Table()}, relations=[SYN])
    assert (every.source, *every.partners) == (WordPairInput("big", "large"), WordPairInput("large", "huge"))


# -- the declaration and the parts --------------------------------------------------------------------------
def test_both_relations_declare_the_triplet_view() -> None:
    for name, lexical in ((SYN, "synonym"), (HYP, "hypernym")):
        made = multi_source_parts(mt.relation(name))
        assert isinstance(made, TransitivityCase) and made.lexical == lexical
        assert (made.source_titles, made.followup_titles) == (("x12", "x23"), ("x13",))
    with pytest.raises(InputError, match="not a three-way transitivity relation"):
        TransitivityCase(mt.relation("pairwise-systematicity"))


def test_the_case_refuses_an_unknown_option() -> None:
    made = TransitivityCase(mt.relation(SYN))
    with pytest.raises(InputError, match="closes the chain with 'x13'"):
        made.followups((WordPairInput("a", "b"), WordPairInput("b", "c")), "T")


def test_the_case_judges_a_malformed_label_as_an_error() -> None:
    made = TransitivityCase(mt.relation(SYN))
    bad = Prediction(label="similar", scores=(("synonym", 0.9),))
    judged = made.judge("x13", [bad, bad], [bad])
    assert judged.check.verdict == "error" and "names relations similar" in judged.check.reason


@pytest.mark.parametrize(("text", "words"), [("dog animal", ["dog", "animal"]), ("dog -> animal", ["dog", "animal"]),
                                             ("dog → animal", ["dog", "animal"]), ("dog, animal", ["dog", "animal"]),
                                             ("dog ||| animal", ["dog", "animal"]), (" dog ", ["dog"]), ("", [])])
def test_split_words(text: str, words: list[str]) -> None:
    assert split_words(text) == words


def test_the_lexical_parts_build_and_carry_word_pairs() -> None:
    parts = explorer_parts(get_task("lexical"))
    assert isinstance(parts, LexicalParts) and parts.prediction_view == "label-scores"
    parts.warm([WordPairInput("Hund", "Tier", "de", "hypernym")])
    assert parts.build({"w1": "Hund", "w2": "Tier"}, {})[0] == WordPairInput("Hund", "Tier", "de", "hypernym")
    assert parts.build({"w1": "Tier", "w2": "Hund"}, {})[0] == WordPairInput("Tier", "Hund", "de")  # its words' language
    assert parts.build({"w1": "dog", "w2": ""}, {}) == (None, "type w2 (one word each)")
    assert parts.parse_texts("dog") == {"w1": "dog"} and parts.parse_texts("dog cat") == {"w1": "dog", "w2": "cat"}
    fu = WordPairInput("dog", "animal")
    assert parts.carry(fu, "dog -> mammal") == WordPairInput("dog", "mammal", "en")
    with pytest.raises(InputError, match="two words"):
        parts.carry(fu, "dog")


# -- the embedded model ----------------------------------------------------------------------------------------
def test_the_embedded_model_on_the_shipped_sample_agrees_with_the_relation() -> None:
    ex = Explorer(task="lexical", models=["lexical-spacy-vectors"], relations=[HYP])
    model = ex._predictor.models["lexical-spacy-vectors"]
    rel = mt.relation(HYP)
    for row in (0, row_of("dog", "canine"), row_of("canine", "carnivore")):
        ex.index = row
        x12, x23 = ex.source, ex.partners[0]
        (group,) = rel.generate((x12, x23))
        preds = model.predict([*group.sources, *group.followups])
        m = card(ex, "lexical-spacy-vectors")
        assert [v["value"] for v in m["values"]] == [round(dict(p.scores)["hypernym"], 4) for p in preds]
        why = rel.applies(group, preds[:2])
        expected = ("not_applicable", why) if why else (lambda c: (c.verdict, c.reason))(
            rel.check(group, preds[:2], preds[2:]))
        assert (m["verdict"], m["reason"]) == expected
