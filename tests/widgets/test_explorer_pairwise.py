"""The Explorer on pairwise systematicity: one pair (x1, x2) live, its two follow-ups, every
model's four positive scores, P_src, P_flw and the verdict as a run decides it; x2 typed,
picked or following x1; the Batch panel's way of opening a source; a saved pair coming back;
and the multi-source hook a three-way relation plugs into."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.errors import InputError, MTError
from mtwidgets.core.inputs import BaseInput
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Check, Draft, MetamorphicRelation, OutputProperty, Slots, Transformation
from mtwidgets.core.views import CaseJudgement, MultiSourceParts, TextParts, multi_source_parts
from mtwidgets.systematicity import TABLE_1, pair_check
from mtwidgets.systematicity.explorer import PairwiseCase
from mtwidgets.text.inputs import ClassificationInput
from mtwidgets.widgets.explorer import Explorer

NAME = "pairwise-systematicity"
POSITIVE = {"good", "great", "happy", "love", "soothing", "better"}
HAPPY = "end: My friends were happy, though."  # Table 1's first sentence
THANKS = "start: Thank you."


def density(text: str) -> float:
    """The share of positive words: adding a sentence changes it in a known way."""
    words = re.findall(r"[a-z]+", text.lower())
    return sum(w in POSITIVE for w in words) / max(len(words), 1)


class Density:
    """A sentiment model whose positive score is :func:`density`; fails on texts with
    ``fail_on`` in them."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.fail_on = fail_on
        self.calls = 0

    def predict(self, inputs: Sequence[Any]) -> list[Prediction]:
        self.calls += 1
        if self.fail_on is not None and any(self.fail_on in x.text for x in inputs):
            raise RuntimeError("cannot score this text")
        return [Prediction.from_scores({"positive": density(x.text), "negative": 1 - density(x.text)}) for x in inputs]


def labels_only(x: Any) -> str:
    """A model without scores: nothing to order by."""
    return "positive"


ROWS = [
    "Good.",  # 0: s = 1
    "Good good movie.",  # 1: s = 2/3; under HAPPY the order of 0 and 1 flips
    "A calm film about two sisters.",  # 2: s = 0
    "A quiet film about a farm.",  # 3: s = 0, a tie with 2
    "no capital letter and no final stop",  # 4: refused at the start and at the end
]


def data() -> list[ClassificationInput]:
    return [ClassificationInput(t, "en") for t in ROWS]


def explorer(models: dict[str, Any] | None = None, relations: Any = None, **kw: Any) -> Explorer:
    ex = Explorer(data=kw.pop("data", data()), models=models or {"density": Density()},
                  relations=relations or ["MR7.3", NAME], task="classification", **kw)
    ex.relation = NAME
    return ex


def send(ex: Explorer, kind: str, **payload: Any) -> dict[str, Any]:
    return ex.handle_message({"kind": kind, "id": 1, **payload})


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test predicts afresh (call counts are asserted)."""
    monkeypatch.setattr("mtwidgets.widgets._explorer_state.default_cache", PredictionCache)


# -- the pair on screen -----------------------------------------------------------------------------
def test_picking_the_relation_shows_one_pair_with_both_follow_ups_and_four_scores() -> None:
    ex = explorer()
    case = ex._case
    assert case["active"] and case["relation"] == NAME
    assert ex._models == []  # the one-group model cards give way to the case's
    assert [s["title"] for s in case["sources"]] == ["x1", "x2"]
    assert [(s["row"], s["auto"], s["text"]) for s in case["sources"]] == [(0, False, ROWS[0]), (1, True, ROWS[1])]
    assert [o["key"] for o in case["options"]] == [c.label for c in TABLE_1]
    assert case["option"] == HAPPY  # the first sentence that fits both
    sentence = TABLE_1[0]
    assert [f.text for f in ex.followups] == [sentence.apply(ROWS[0]), sentence.apply(ROWS[1])]
    assert [f["title"] for f in case["followups"]] == ["T(x1)", "T(x2)"]
    inserted = [" ".join(w["text"] for w in f["words"] if w["op"] == "ins") for f in case["followups"]]
    assert inserted == ["My friends were happy , though ."] * 2
    (card,) = case["models"]
    texts = [ROWS[0], ROWS[1], sentence.apply(ROWS[0]), sentence.apply(ROWS[1])]
    assert [v["title"] for v in card["values"]] == ["x1", "x2", "T(x1)", "T(x2)"]
    assert [v["value"] for v in card["values"]] == [round(density(t), 4) for t in texts]
    s1, s2, f1, f2 = (density(t) for t in texts)
    assert (s1, s2, f1, f2) == (1.0, 2 / 3, 2 / 6, 3 / 8)
    check = pair_check(s1, s2, f1, f2)
    assert (card["verdict"], card["reason"]) == (check.verdict, check.reason) == ("violation", check.reason)
    assert card["premise"] == {"title": "P_src", "text": "s(x1) 1 > s(x2) 0.6667", "holds": True}
    assert card["hypothesis"] == {"title": "P_flw", "text": "s(T(x1)) 0.3333 < s(T(x2)) 0.375", "holds": False}
    assert ex.verdicts == {"density": "violation"}
    j = ex.judgements["density"]
    assert isinstance(j, CaseJudgement) and (j.premise_holds, j.hypothesis_holds) == (True, False)
    preds = ex.predictions["density"]
    assert [p.scores for p in preds["source"]] == [Prediction.from_scores({"positive": s, "negative": 1 - s}).scores
                                                   for s in (s1, s2)]
    assert "P_src <=> P_flw" in case["expected"]


def test_another_transformation_and_another_x2_update_the_verdict() -> None:
    ex = explorer()
    send(ex, "case_option", option=THANKS)
    assert ex.case_option == THANKS
    f1, f2 = (density(f"Thank you. {t}") for t in ROWS[:2])
    assert (f1, f2) == (1 / 3, 2 / 5)  # T adds no positive word: 1/3 < 2/5, the order is lost
    assert ex.verdicts == {"density": "violation"}
    send(ex, "partner_row", slot=1, index=2)  # x2 without a positive word: s = 0 before and after
    card = ex._case["models"][0]
    values = [v["value"] for v in card["values"]]
    assert values == [1.0, 0.0, round(1 / 3, 4), 0.0] and card["verdict"] == "pass"
    assert card["hypothesis"]["holds"] is True and card["reason"].endswith("order kept")


def test_stepping_candidates_steps_the_transformations() -> None:
    ex = explorer()
    keys = [c.label for c in TABLE_1]
    ex.next_candidate()
    assert ex.case_option == keys[1]
    ex.next_candidate(-1)
    ex.next_candidate(-1)
    assert ex.case_option == keys[-1]


@pytest.mark.parametrize(("ties", "verdict", "reason"), [
    ("strict", "pass", "order kept"),
    ("skip", "not_applicable", "a tie has no order to keep (ties='skip')"),
])
def test_a_tie_follows_the_relations_tie_rule(ties: str, verdict: str, reason: str) -> None:
    ex = explorer(relations=[mt.relation(NAME, ties=ties)])
    ex.index = 2
    ex.set_partner(3)  # s = 0 for both, and for both follow-ups under THANKS
    ex.case_option = THANKS
    card = ex._case["models"][0]
    assert [v["value"] for v in card["values"]] == [0.0, 0.0, 0.0, 0.0]
    assert card["verdict"] == verdict and card["reason"].endswith(reason)
    assert card["premise"]["holds"] is False and card["premise"]["text"] == "s(x1) 0 = s(x2) 0"
    assert ties in ex._case["expected"]


# -- x2: typed, picked, following x1 ------------------------------------------------------------------
def test_x2_follows_x1_until_chosen_then_stays() -> None:
    ex = explorer()
    ex.index = 2
    assert ex.partners[0].text == ROWS[3] and ex._case["sources"][1]["auto"]
    assert send(ex, "partner_row", slot=1, index=0)["kind"] == "reply"
    ex.index = 3  # x1 moves; the chosen x2 stays
    assert (ex.source.text, ex.partners[0].text) == (ROWS[3], ROWS[0])
    assert ex._case["sources"][1] | {"text": None} == {
        "slot": 1, "title": "x2", "text": None, "row": 0, "auto": False, "typed": False, "todo": ""
    }
    send(ex, "partner_auto", slot=1)
    assert ex.partners[0].text == ROWS[4] and ex._case["sources"][1]["auto"]


def test_a_typed_x2_updates_the_pair_at_once_and_stays_when_x1_changes() -> None:
    model = Density()
    ex = explorer({"density": model})
    assert send(ex, "partner_text", slot=1, text="Great great great.")["kind"] == "reply"
    assert ex.partners[0] == ClassificationInput("Great great great.", "en")
    card = ex._case["models"][0]
    assert [v["value"] for v in card["values"]][:2] == [1.0, 1.0]
    assert ex._case["sources"][1]["text"] == "Great great great."
    ex.select(2)
    assert ex.partners[0].text == "Great great great." and ex.source.text == ROWS[2]
    # typing x1 (the input box) keeps it too
    ex.set_text("I love it.")
    assert [x.text for x in (ex.source, *ex.partners)] == ["I love it.", "Great great great."]
    calls = model.calls
    send(ex, "partner_text", slot=1, text="Great great great.")  # nothing new: cached predictions
    assert model.calls == calls


def test_an_empty_x2_asks_for_a_text_without_an_error() -> None:
    ex = explorer()
    assert send(ex, "partner_text", slot=1, text="   ")["kind"] == "reply"
    assert ex._error == {}
    assert ex.partners == [None]
    assert ex._case["sources"][1]["todo"] == "type a text or pick a row of the data"
    assert ex._case["not_applicable"] == "x2 missing" and ex._case["models"] == []
    assert ex.verdicts == {} and ex.followups == []


@pytest.mark.parametrize(("value", "message"), [
    (99, "row 99 is out of range"),
    (True, "a source is a row number"),
    (3.5, "expected an input"),
    ({"title": "x"}, "unknown text field"),
])
def test_bad_partners_are_input_errors(value: Any, message: str) -> None:
    ex = explorer()
    with pytest.raises(InputError, match=message):
        ex.set_partner(value)
    assert message in ex._error["message"]


def test_a_bad_slot_and_a_bad_option_are_shown_as_errors() -> None:
    ex = explorer()
    reply = send(ex, "partner_row", slot=0, index=1)
    assert reply["kind"] == "error" and "slot 0 is the Explorer's own input" in reply["message"]
    reply = send(ex, "case_option", option="end: Not a sentence of the relation.")
    assert reply["kind"] == "error" and "unknown transformation" in reply["message"]
    assert ex.case_option == "" and ex.verdicts == {"density": "violation"}


def test_the_option_trait_belongs_to_multi_source_relations() -> None:
    ex = explorer()
    ex.relation = "MR7.3"
    assert ex._case == {} and ex.multi_source is None and ex.partners == []
    with pytest.raises(Exception, match="no transformation to pick"):
        ex.case_option = THANKS
    with pytest.raises(InputError, match="one group at a time"):
        _ = ex.judgements


# -- not applicable, errors ----------------------------------------------------------------------------
def test_a_refused_source_makes_the_pair_not_applicable_with_the_reason() -> None:
    ex = explorer()
    ex.set_partner(4)  # no capital, no final stop: every sentence is refused
    case = ex._case
    assert all(not o["enabled"] for o in case["options"])
    assert case["options"][0]["reason"].endswith("x2: the text does not end a sentence (no final . ! ? …)")
    assert case["followups"] == [] and case["not_applicable"] == case["options"][0]["reason"]
    card = case["models"][0]
    assert card["verdict"] == "not_applicable" and card["reason"] == case["not_applicable"]
    # the sources' scores and the premise are still shown
    assert [v["value"] for v in card["values"]] == [1.0, 0.0, None, None]
    assert card["premise"]["holds"] is True and card["hypothesis"] == {"title": "P_flw", "text": "", "holds": None}


def test_the_default_transformation_is_the_first_that_fits_both_sources() -> None:
    ex = explorer()
    ex.set_partner("the film was fine.")  # lower case: the start sentences are refused
    assert ex.case_option == "" and ex._case["option"] == HAPPY
    ex.set_partner("A fine film")  # no final stop: the end sentences are refused
    assert ex._case["option"] == THANKS
    enabled = [o["key"] for o in ex._case["options"] if o["enabled"]]
    assert enabled == [c.label for c in TABLE_1 if c.position == "start"]


def test_the_same_text_twice_is_no_pair() -> None:
    ex = explorer()
    ex.set_partner(ROWS[0])
    assert ex._case["not_applicable"].startswith("x1 and x2 are the same text")
    assert ex.verdicts == {"density": "not_applicable"}


def test_a_failing_model_gets_an_error_verdict_and_the_others_still_judge() -> None:
    ex = explorer({"density": Density(), "fussy": Density(fail_on="movie")})
    verdicts = ex.verdicts
    assert verdicts == {"density": "violation", "fussy": "error"}
    fussy = next(m for m in ex._case["models"] if m["name"] == "fussy")
    assert "cannot score this text" in fussy["reason"] and "Good good movie." in fussy["reason"]


def test_a_model_without_the_positive_score_is_not_applicable() -> None:
    ex = explorer({"labels": labels_only})
    card = ex._case["models"][0]
    assert card["verdict"] == "not_applicable"
    assert card["reason"].startswith("x1: the model gave no scores")
    assert [v["value"] for v in card["values"]] == [None] * 4 and card["values"][0]["label"] == "positive"


def test_the_follow_ups_cannot_be_edited_by_hand() -> None:
    ex = explorer()
    reply = send(ex, "edit_followup", text="Something else.")
    assert reply["kind"] == "error" and "built from x1 and x2" in reply["message"]


# -- the Batch panel's call, the suite -----------------------------------------------------------------
def test_opening_a_source_as_the_batch_panel_does_sets_x1() -> None:
    # BatchPanel.open_source: an Explorer on the run's inputs with the relation, then its index
    rel = mt.relation(NAME)
    ex = Explorer(models={"density": Density()}, relations=[rel], data=data(), seed=0)
    assert ex.relation == NAME and ex._case["active"]
    ex.index = 3
    assert (ex.source.text, ex.partners[0].text) == (ROWS[3], ROWS[4])  # x2 not chosen: the next row
    ex.set_partner(1)
    ex.index = 0
    assert (ex.source.text, ex.partners[0].text) == (ROWS[0], ROWS[1])  # a chosen x2 stays
    ex.source = ClassificationInput("Great.", "en")  # an input of its own as x1
    assert (ex.source.text, ex.partners[0].text) == ("Great.", ROWS[1])
    assert ex._case["sources"][0]["row"] is None and ex._case["sources"][0]["typed"]


def test_a_saved_pair_comes_back_with_x2_and_its_transformation(tmp_path: Any) -> None:
    ex = explorer()
    ex.index = 2
    ex.set_partner("Great news.")
    ex.case_option = THANKS
    group = ex.save()
    assert [x.text for x in group.sources] == [ROWS[2], "Great news."]
    assert [x.text for x in group.followups] == [f"Thank you. {ROWS[2]}", "Thank you. Great news."]
    frame = ex.suite.frame
    assert len(frame) == 1 and frame.loc[0, "meta"]["transformation"] == THANKS
    assert frame.loc[0, "verdict"] == ex.verdicts["density"] and frame.loc[0, "source_index"] == 2
    path = tmp_path / "suite.jsonl"
    ex.suite.save(path)
    back = Explorer(data=mt.Results.load(path), models={"density": Density()}, relations=[NAME],
                    task="classification")
    assert back.relation == NAME and back.case_option == THANKS
    assert [x.text for x in (back.source, *back.partners)] == [ROWS[2], "Great news."]
    assert back.verdicts == ex.verdicts and back._case["models"] == ex._case["models"]


def test_the_relation_card_still_draws_the_diagram() -> None:
    ex = explorer()
    assert ex._diagram.startswith("<svg")


# -- the hook: declared by the relation, overridable by the task's parts -----------------------------
def test_the_pairwise_relation_declares_its_case() -> None:
    rel = mt.relation(NAME)
    made = multi_source_parts(rel)
    assert isinstance(made, PairwiseCase) and made.source_titles == ("x1", "x2")
    assert multi_source_parts(mt.relation("MR7.3")) is None


class _Chain(Transformation):
    """A stand-in for a one-source relation's transformation (the case builds its own)."""

    def _options(self, sources: tuple[BaseInput, ...]) -> Slots:
        return Slots([[None]])

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        return Draft(sources, sources, "")


class _NoOneGroup(OutputProperty):
    description = "a three-way case"

    def check(self, group: Any, sources: Any, followups: Any) -> Check:
        return Check("not_applicable", None, "one group tests nothing")


class ThreeWay(MultiSourceParts):
    """A toy triplet: the follow-up joins x1 and x3; satisfied when the model calls it
    positive whenever it calls x1 and x2 positive (a transitivity-like property)."""

    source_titles = ("x1", "x2", "x3")
    followup_titles = ("x1 + x3",)
    premise_title = "v(x1) and v(x2)"
    hypothesis_title = "v(x1 + x3)"

    def __init__(self, relation: Any) -> None:
        self.relation = relation

    def options(self) -> list[tuple[str, str]]:
        return [("join", "join x1 and x3")]

    def followups(self, sources: Sequence[BaseInput], option: str) -> tuple[tuple[BaseInput, ...], str | None]:
        x1, _, x3 = sources
        return (x1.with_text(f"{x1.text} {x3.text}"),), None  # type: ignore[attr-defined]

    def judge(self, option: str, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> CaseJudgement:
        v = [p.label == "positive" for p in [*sources, *followups]]
        premise, hypothesis = v[0] and v[1], bool(v[3:] and v[3])
        verdict = "violation" if premise and not hypothesis else "pass"
        return CaseJudgement(Check(verdict, None, f"premise {premise}, hypothesis {hypothesis}"),
                             tuple(float(x) for x in v), "v(x1) and v(x2)", premise, "v(x1 + x3)", hypothesis)


def three_way(declared: Any) -> MetamorphicRelation:
    prop = _NoOneGroup()
    prop.explorer_multi_source = declared  # type: ignore[attr-defined]
    return MetamorphicRelation("toy-three-way", "classification", "three-way", "toy", "toy", "test", _Chain(), prop,
                               n_sources=3)


def test_a_three_way_relation_plugs_in_by_declaring_its_parts() -> None:
    def positive_if_great(x: Any) -> str:
        return "positive" if "great" in x.text.lower() else "negative"

    rows = [ClassificationInput(t, "en") for t in ("Great.", "Great day.", "Bad.", "Great great.")]
    ex = Explorer(data=rows, models={"great": positive_if_great}, relations=[three_way(ThreeWay)])
    case = ex._case
    assert case["titles"]["sources"] == ["x1", "x2", "x3"]
    assert [(s["row"], s["auto"]) for s in case["sources"]] == [(0, False), (1, True), (2, True)]  # the next rows
    assert [x.text for x in ex.followups] == ["Great. Bad."]
    card = case["models"][0]
    assert [v["title"] for v in card["values"]] == ["x1", "x2", "x3", "x1 + x3"]
    assert card["verdict"] == "pass"  # "Great. Bad." holds "great"
    ex.set_partner("Bad.", slot=1)  # x2 typed: the premise fails
    assert ex._case["models"][0]["premise"]["holds"] is False
    ex.set_partner(3, slot=2)
    assert [x.text for x in ex.partners] == ["Bad.", "Great great."]


def test_a_declaration_by_reference_and_bad_declarations() -> None:
    ref = f"{__name__}:ThreeWay"
    assert isinstance(multi_source_parts(three_way(ref)), ThreeWay)
    with pytest.raises(MTError, match="not MultiSourceParts"):
        multi_source_parts(three_way(lambda rel: object()))

    class One(ThreeWay):
        source_titles = ("x1",)

    with pytest.raises(MTError, match="at least two"):
        multi_source_parts(three_way(One))


def test_the_tasks_parts_may_show_a_relation_one_group_at_a_time() -> None:
    class OneAtATime(TextParts):
        def multi_source(self, relation: Any) -> MultiSourceParts | None:
            return None

    ex = explorer()
    ex._parts.__class__ = type("Parts", (OneAtATime, type(ex._parts)), {})
    ex._multi.clear()
    ex.relation = "MR7.3"
    ex.relation = NAME
    assert ex._case == {} and ex._models and ex.verdicts == {"density": "not_applicable"}
