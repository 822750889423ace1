"""The Explorer's state and message handlers, driven without a browser.

Most tests use small deterministic fake models (so verdicts are known in advance); the
last ones load the embedded models. Messages are simulated by calling ``handle_message``,
the dispatch the front end's ``model.send`` reaches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import traitlets

import mtwidgets as mt
from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction
from mtwidgets.re.inputs import RelationInput
from mtwidgets.widgets._assets import asset_path
from mtwidgets.widgets.explorer import Explorer

FATHER = "[[John|PERSON]] is <<Mary|PERSON>>'s father."
BORN = "[[Richard|PERSON]] was born in <<San Francisco|CITY>>."
DATA = [FATHER, BORN, "<<French|NATIONALITY>> filmmaker [[Claude|PERSON]] dies at 80."]


class Counting:
    """A fake RE model: per:children when the head comes first, per:parents otherwise
    (so MR-S2 passes), counting the inputs it is asked about."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, x: RelationInput) -> dict[str, float]:
        self.seen.append(x.key())
        if x.head.start < x.tail.start:
            return {"per:children": 0.7, "per:parents": 0.2, "no_relation": 0.1}
        return {"per:parents": 0.6, "no_relation": 0.4}


def constant(x: RelationInput) -> str:
    """Always per:children: MR-S2 on a per:children source is a violation."""
    return "per:children"


def boom(x: RelationInput) -> str:
    raise ValueError("kaput")


@pytest.fixture()
def counting() -> Counting:
    return Counting()


@pytest.fixture()
def explorer(counting: Counting) -> Explorer:
    return Explorer(models={"counting": counting, "constant": constant}, data=DATA, relations=None, seed=0)


def _state(e: Explorer) -> dict[str, Any]:
    return {
        k: getattr(e, k)
        for k in ("_input", "_rows", "_relations", "_followup", "_models", "_error", "_saved")
    }


def test_assets_resolve_to_the_checkout_js_folder() -> None:
    assert asset_path("explorer.js") == Path(__file__).resolve().parents[2] / "js" / "explorer.js"
    with pytest.raises(FileNotFoundError, match="no-such.js"):
        asset_path("no-such.js")


def test_initial_view_shows_row_zero_with_verdicts(explorer: Explorer) -> None:
    assert explorer.index == 0 and explorer.relation == "MR-R1"
    assert explorer.source == RelationInput.parse(FATHER)
    tokens = explorer._input["tokens"]
    assert [t["text"] for t in tokens][:3] == ["John", "is", "Mary"]
    assert explorer._input["roles"] == ["head", "tail"]
    assert explorer._input["marks"]["head"] == {
        "start": 0,
        "end": 4,
        "label": "PERSON",
        "inferred": "PERSON",
        "text": "John",
    }
    assert [r["text"] for r in explorer._rows] == [RelationInput.parse(m).to_markup() for m in DATA]
    assert set(explorer.verdicts) == {"counting", "constant"}
    json.dumps(_state(explorer))  # the render state is plain JSON (saved with the notebook)


def test_mr_s2_swaps_and_checks_the_inverse_label(explorer: Explorer) -> None:
    explorer.set_relation("MR-S2")
    (fu,) = explorer.followups
    assert (fu.head_text, fu.tail_text) == ("Mary", "John")
    assert explorer.verdicts == {"counting": "pass", "constant": "violation"}
    preds = explorer.predictions["counting"]
    assert preds["source"].label == "per:children" and preds["followup"].label == "per:parents"
    view = {m["name"]: m for m in explorer._models}
    assert view["constant"]["reason"] == "per:children -> inverse: expected per:parents, got per:children"
    assert view["constant"]["expected"] == "per:parents"
    assert view["counting"]["source"][0]["top"] == [
        ["per:children", 0.7],
        ["per:parents", 0.2],
        ["no_relation", 0.1],
    ]
    segs = explorer._followup["followups"][0]
    assert [(s["text"], s["role"]) for s in segs[:3]] == [("John", "tail"), ("is", None), ("Mary", "head")]


def test_marking_through_messages(explorer: Explorer) -> None:
    explorer.set_relation("MR-S2")
    reply = explorer.handle_message({"kind": "clear", "id": 1})
    assert reply == {"kind": "reply", "id": 1}
    assert explorer.source is None and explorer.verdicts == {}
    assert explorer._input["todo"].startswith("mark the head and the tail")
    assert all(not r["enabled"] for r in explorer._relations)
    tok = {t["text"]: t for t in explorer._input["tokens"]}
    explorer.handle_message(
        {"kind": "mark", "id": 2, "role": "head", "start": tok["Mary"]["start"], "end": tok["Mary"]["end"]}
    )
    assert explorer._input["marks"]["head"]["text"] == "Mary" and explorer.source is None
    reply = explorer.handle_message({"kind": "mark", "id": 3, "role": "tail", "start": 0, "end": 4})
    assert reply == {"kind": "reply", "id": 3}
    src = explorer.source
    assert isinstance(src, RelationInput) and (src.head_text, src.tail_text) == ("Mary", "John")
    assert src.head_type is None  # no explicit type: inferred, and shown as such
    assert explorer._input["marks"]["head"]["inferred"] == "PERSON"
    assert explorer.verdicts["counting"] == "pass"
    assert explorer._error == {}


def test_tokens_with_their_spacing_give_the_text_back(explorer: Explorer) -> None:
    text = 'Ann  met <b>Bob</b>\n\n& "Eve" <script>alert(2)</script>.'
    explorer.set_text(text)
    tokens = explorer._input["tokens"]
    assert "".join(t["text"] + t["ws"] for t in tokens) == text
    assert all(text[t["start"] : t["end"]] == t["text"] for t in tokens)
    assert all(t["text"].strip() for t in tokens)


def test_entity_type_is_editable(explorer: Explorer) -> None:
    explorer.handle_message({"kind": "set_type", "id": 1, "role": "tail", "label": "ORGANIZATION"})
    assert explorer.source.tail_type == "ORGANIZATION"  # type: ignore[union-attr]
    assert explorer._input["marks"]["tail"]["inferred"] == "PERSON"
    reply = explorer.handle_message({"kind": "set_type", "id": 2, "role": "tail", "label": "PLANET"})
    assert reply["kind"] == "error" and "unknown entity type 'PLANET'" in reply["message"]
    assert explorer.source.tail_type == "ORGANIZATION"  # type: ignore[union-attr]
    explorer.handle_message({"kind": "set_type", "id": 3, "role": "tail", "label": ""})
    assert explorer.source.tail_type is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (2, 2, "empty or reversed"),
        (0, 99, "runs past the end"),
        (4, 5, "covers only whitespace"),
        (8, 12, "overlaps the tail"),
    ],
)
def test_bad_spans_become_errors_in_state(explorer: Explorer, start: int, end: int, expected: str) -> None:
    before = explorer.source
    reply = explorer.handle_message({"kind": "mark", "id": 9, "role": "head", "start": start, "end": end})
    assert reply["kind"] == "error" and reply["id"] == 9 and expected in reply["message"]
    assert expected in explorer._error["message"] and explorer._error["hint"]
    assert explorer.source == before  # nothing changed
    # still usable: a good mark clears the error
    assert (
        explorer.handle_message({"kind": "mark", "id": 10, "role": "head", "start": 15, "end": 21})["kind"]
        == "reply"
    )
    assert explorer._error == {} and explorer.source.head_text == "father"  # type: ignore[union-attr]


def test_python_methods_raise_and_show_the_error(explorer: Explorer) -> None:
    with pytest.raises(InputError, match="unknown role 'subject'"):
        explorer.mark("subject", 0, 4)
    assert "unknown role 'subject'" in explorer._error["message"]
    reply = explorer.handle_message({"kind": "teleport", "id": 5})
    assert reply["kind"] == "error" and "unknown message kind 'teleport'" in reply["message"]
    reply = explorer.handle_message({"kind": "mark", "id": 6, "role": "head"})
    assert reply["kind"] == "error" and "lacks the field 'start'" in reply["message"]


def test_an_unexpected_failure_is_shown_and_replied(
    explorer: Explorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(msg: dict[str, Any]) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setitem(explorer._handlers, "save", broken)
    reply = explorer.handle_message({"kind": "save", "id": 4})
    assert reply == {
        "kind": "error",
        "id": 4,
        "message": "unexpected RuntimeError while handling 'save': disk on fire",
    }
    assert explorer._error["message"] == reply["message"]
    assert explorer.handle_message({"kind": "relation", "id": 5, "name": "MR-S2"})["kind"] == "reply"


def test_empty_text_is_an_error_and_the_widget_recovers(explorer: Explorer) -> None:
    reply = explorer.handle_message({"kind": "set_text", "id": 1, "text": "   "})
    assert reply["kind"] == "error" and "text is empty" in reply["message"]
    assert explorer._input["tokens"] == [] and explorer.source is None
    assert explorer.verdicts == {} and explorer._models == []
    with pytest.raises(InputError, match="no text to mark"):
        explorer.mark("head", 0, 1)
    explorer.set_text("Anna Berg founded Nordlys in Oslo.")
    assert explorer._error == {} and explorer.source is None
    explorer.mark("head", 0, 9)
    explorer.mark("tail", 18, 25)
    src = explorer.source
    assert isinstance(src, RelationInput) and (src.head_text, src.tail_text) == ("Anna Berg", "Nordlys")
    assert explorer._input["marks"]["head"]["inferred"] == "PERSON"
    assert set(explorer.verdicts) == {"counting", "constant"}


def test_a_model_that_raises_gives_an_error_verdict_and_the_rest_works(counting: Counting) -> None:
    e = Explorer(models={"ok": counting, "boom": boom}, data=DATA, relations=["MR-S2", "MR-R2"])
    assert e.verdicts == {"ok": "pass", "boom": "error"}
    reason = {m["name"]: m["reason"] for m in e._models}["boom"]
    assert "model 'boom' failed" in reason and "ValueError: kaput" in reason
    assert e._error == {}
    e.index = 1
    e.relation = "MR-R2"
    assert e.verdicts["boom"] == "error" and e.verdicts["ok"] in ("pass", "violation", "not_applicable")
    assert e.followups and e.followups[0].tail_text in ("California", "the United States")


def test_relations_whose_precondition_fails_are_disabled_with_the_reason(explorer: Explorer) -> None:
    rel = {r["name"]: r for r in explorer._relations}
    assert rel["MR-S2"]["enabled"] and rel["MR-R1"]["enabled"]
    assert not rel["MR-R2"]["enabled"] and "CITY" in rel["MR-R2"]["reason"]
    assert rel["MR-R2"]["paper"].startswith("Sun et al. 2023") and rel["MR-R2"]["expected"]
    explorer.relation = "MR-R2"  # still selectable from Python: shown as not applicable
    assert explorer.followups == [] and set(explorer.verdicts.values()) == {"not_applicable"}
    assert "CITY" in explorer._followup["not_applicable"]
    explorer.index = 1  # Richard was born in San Francisco
    rel = {r["name"]: r for r in explorer._relations}
    assert rel["MR-R2"]["enabled"] and rel["MR-R2"]["reason"] == ""


def test_source_predictions_are_cached_across_edits(explorer: Explorer, counting: Counting) -> None:
    source_key = explorer.source.key()  # type: ignore[union-attr]
    for name in ("MR-S2", "MR-R1", "MR-S1", "MR-S2"):
        explorer.set_relation(name)
    explorer.next_candidate()
    explorer.reshuffle()
    assert counting.seen.count(source_key) == 1
    assert len(counting.seen) == len(set(counting.seen))


def test_candidate_stepping_wraps_and_reshuffle_is_deterministic(counting: Counting) -> None:
    e = Explorer(models={"counting": counting}, data=DATA, relations=["MR-R1", "MR-S2"], seed=3)
    n = e._followup["n_candidates"]
    assert n > 20
    first = e.followups
    seen = [first[0].to_markup()]
    for _ in range(4):
        e.next_candidate()
        seen.append(e.followups[0].to_markup())
    assert e.candidate == 4 and len(set(seen)) == 5
    e.next_candidate(-4)
    assert e.candidate == 0 and e.followups == first
    e.candidate = n - 1
    e.next_candidate()
    assert e.candidate == 0
    e.reshuffle()
    assert e.seed == 4 and e.candidate == 0 and e.followups != first
    shuffled = e.followups
    again = Explorer(models={"counting": Counting()}, data=DATA, relations=["MR-R1", "MR-S2"], seed=3)
    assert again.followups == first
    again.seed = 4
    assert again.followups == shuffled
    assert e._followup["seed"] == 4 and e._followup["n_candidates"] == n


def test_the_first_candidates_are_the_follow_ups_a_run_tests(counting: Counting) -> None:
    """Same seed, same follow-ups: what the Explorer shows first is what `mt.run` reports."""
    # Rows where MR-R1 can defend a replacement of both the head and the tail.
    data = [
        "[[Oliver Bennett|PERSON]] joined <<Wagner LLC|ORGANIZATION>> in 2004.",
        "[[John Smith|PERSON]] married <<Sarah Jones|PERSON>> in 1998.",
        "[[Daniel Hughes|PERSON]] joined <<Westbridge Ltd|ORGANIZATION>>.",
    ]
    for seed in (0, 3, 11):
        e = Explorer(models={"counting": counting}, data=data, relations=["MR-R1"], seed=seed)
        run = mt.run(data, ["MR-R1"], {"counting": counting}, seed=seed)
        for index in range(len(data)):
            e.index = index
            tested = run.frame[run.frame["source_index"] == index]["followups"].tolist()
            assert len(tested) == 2  # MR-R1 tests one replacement of the head, one of the tail
            shown = []
            for k in range(len(tested)):
                e.candidate = k
                shown.append([f.to_dict() for f in e.followups])
            assert shown == tested, (seed, index)


def test_edit_followup_carries_or_re_marks_the_entities(explorer: Explorer) -> None:
    explorer.set_relation("MR-S2")
    explorer.edit_followup("Clearly, John is Mary's dad.")
    (fu,) = explorer.followups
    assert (fu.head_text, fu.tail_text) == ("Mary", "John") and fu.head_type == "PERSON"
    assert explorer._followup["edited"] and explorer._followup["note"] == "follow-up edited by hand"
    ops = {(s["op"], s["text"]) for s in explorer._followup["followups"][0]}
    assert {("ins", "Clearly"), ("ins", "dad"), ("del", "father")} <= ops
    explorer.handle_message({"kind": "edit_followup", "id": 1, "text": "[[Paul]] is <<Ann>>'s dad."})
    assert explorer.followups[0].to_markup() == "[[Paul]] is <<Ann>>'s dad."
    reply = explorer.handle_message({"kind": "edit_followup", "id": 2, "text": "Nobody is here."})
    assert reply["kind"] == "error" and "removed the head 'Paul'" in reply["message"]
    assert explorer.followups[0].to_markup() == "[[Paul]] is <<Ann>>'s dad."
    explorer.next_candidate()  # a new candidate drops the hand edit
    assert not explorer._followup["edited"]


def test_save_builds_a_suite_that_round_trips_into_an_explorer(explorer: Explorer, tmp_path: Path) -> None:
    explorer.set_relation("MR-S2")
    explorer.edit_followup("So John is Mary's father.")
    explorer.save()
    explorer.index = 1
    explorer.handle_message({"kind": "relation", "id": 1, "name": "MR-R1"})
    assert explorer.handle_message({"kind": "save", "id": 2}) == {"kind": "reply", "id": 2}
    suite = explorer.suite
    assert explorer._saved == 2
    assert len(suite) == 4 and list(suite.frame["relation"]) == ["MR-S2", "MR-S2", "MR-R1", "MR-R1"]
    assert list(suite.frame["verdict"][:2]) == ["pass", "violation"]
    assert suite.frame["meta"][0]["edited"] is True
    assert list(suite.frame["group"]) == ["MR-S2/0/0", "MR-S2/0/0", "MR-R1/1/0", "MR-R1/1/0"]
    path = suite.save(tmp_path / "suite.jsonl")
    loaded = mt.Results.load(path)
    assert loaded.frame.equals(suite.frame)
    back = Explorer(models={"constant": constant}, data=loaded)
    assert back._input["n_rows"] == 2
    assert back.relation == "MR-S2" and back.source == RelationInput.parse(FATHER)
    assert back.followups[0].text == "So John is Mary's father." and back.verdicts == {
        "constant": "violation"
    }
    back.index = 1
    assert back.relation == "MR-R1" and back.source == RelationInput.parse(BORN)
    assert back.followups[0].key() == mt.Results.load(path).inputs(2)[1][0].key()


def test_setting_traits_and_properties_from_python_updates_the_view(explorer: Explorer) -> None:
    explorer.index = 2
    assert explorer._input["row"] == 2 and explorer._input["text"].startswith("French filmmaker")
    explorer.relation = "MR-S2"
    assert explorer._followup["relation"] == "MR-S2" and explorer.followups[0].head_text == "French"
    assert explorer._input["custom"] is False
    explorer.source = "[[Lily|PERSON]] is <<Mary|PERSON>>'s sister."
    assert explorer._input["custom"] is True
    assert explorer._input["marks"]["head"]["text"] == "Lily"
    assert explorer._followup["texts"] == ["Lily is Mary's sister."]
    explorer.followups = [RelationInput.parse("[[Mary]] is <<Lily>>'s sister.")]
    assert explorer._followup["edited"] and explorer.followups[0].head_text == "Mary"
    with pytest.raises(traitlets.TraitError, match=r"index 7 is out of range; the data has rows 0\.\.2"):
        explorer.index = 7
    with pytest.raises(traitlets.TraitError, match="unknown relation 'MR-X9'"):
        explorer.relation = "MR-X9"
    with pytest.raises(traitlets.TraitError, match="candidate 5 is out of range; there are 1 candidates"):
        explorer.candidate = 5
    assert explorer.relation == "MR-S2" and explorer._input["row"] == 2


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="top_k must be >= 1"):
        Explorer(models={"c": constant}, data=DATA, top_k=0)
    with pytest.raises(ValueError, match="models is empty"):
        Explorer(models={}, data=DATA)
    with pytest.raises(InputError, match="row 0"):
        Explorer(models={"c": constant}, data=["no markup here"])


def test_prediction_objects_are_engine_predictions(explorer: Explorer) -> None:
    explorer.set_relation("MR-S2")
    preds = explorer.predictions["constant"]
    assert isinstance(preds["source"], Prediction) and preds["followup"] == Prediction(label="per:children")


@pytest.mark.slow
def test_default_explorer_on_the_embedded_models() -> None:
    e = mt.Explorer()
    assert len(e._rows) == len(mt.datasets.re_sample())
    e.source = FATHER
    e.relation = "MR-S2"
    assert set(e.verdicts) == {"re-patterns", "re-minilm"}
    assert e.predictions["re-patterns"]["source"].label == "per:children"
    assert e.verdicts["re-patterns"] == "pass"
    assert all(v in ("pass", "violation", "not_applicable") for v in e.verdicts.values())


def test_multi_source_relations_show_both_sources() -> None:
    def spouse_then_child(x: RelationInput) -> str:
        # the first source (Peter, Kirsten) is per:spouse; pairs with Celine are per:children
        return "per:spouse" if x.tail_text == "Kirsten Sorensen" else "per:children"

    markup = (
        "[[Peter Sorensen|PERSON]] leaves behind his wife, <<Kirsten Sorensen|PERSON>>, "
        "and their daughter, Celine Sorensen."
    )
    e = Explorer(models={"m": spouse_then_child}, data=[markup], relations=["MR-C1"])
    assert e._followup["n_candidates"] >= 1
    first, second = e.predictions["m"]["source"]
    assert (first.label, second.label) == ("per:spouse", "per:children")
    assert len(e._followup["sources"]) == 2
    second_roles = {s["text"]: s["role"] for s in e._followup["sources"][1]}
    assert second_roles["Peter"] == "head" and second_roles["Celine"] == "tail"
    (fu,) = e.followups
    assert (fu.head_text, fu.tail_text) == ("Kirsten Sorensen", "Celine Sorensen")
    assert e.verdicts == {"m": "pass"}  # per:spouse + per:children -> per:children expected
