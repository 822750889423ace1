"""The Explorer on NER (TIN): gold marking, entity views per model, suspicious entities
and the repaired prediction beside the original, driven without a browser.

A fake NER system with a known weakness keeps verdicts known in advance: it tags words
from a table, but in a question it calls "Nordvik Telecom" a PERSON. Its repair uses a
fake candidate source and similarity, so Algorithm 1's vote is deterministic and fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.data import FIRST_TASK, infer_task
from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.spans import Span
from mtwidgets.ner.explorer_view import LABEL_COLORS, entity_pieces
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.oracles import suspicious_entities
from mtwidgets.ner.repair import RepairConfig
from mtwidgets.widgets._explorer_io import read_data
from mtwidgets.widgets.explorer import Explorer

TEXT = "Nordvik Telecom fined Acme Bank in Oslo."
GOLD = ((0, 15, "ORG"), (22, 31, "ORG"), (35, 39, "GPE"))
QUESTION = "Did Nordvik Telecom fine Acme Bank in Oslo?"
TABLE = {
    "Nordvik Telecom": "ORG",
    "Acme Bank": "ORG",
    "Oslo": "GPE",
    "Globex Telecom": "ORG",
    "Initech Telecom": "ORG",
    "Nordvik Mobile": "ORG",
}


class Fragile:
    """Tags the table's mentions; in a question, "Nordvik Telecom" becomes a PERSON
    (only that mention: similar companies stay ORG, which is what repair relies on)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def predict(self, inputs: Sequence[Any]) -> list[Prediction]:
        out = []
        for x in inputs:
            self.seen.append(x.text)
            spans = []
            for mention, label in TABLE.items():
                start = x.text.find(mention)
                if start >= 0:
                    if mention == "Nordvik Telecom" and x.text.endswith("?"):
                        label = "PERSON"
                    spans.append(Span(start, start + len(mention), label))
            out.append(Prediction(spans=tuple(sorted(spans, key=lambda s: s.start))))
        return out


class Steady(Fragile):
    def predict(self, inputs: Sequence[Any]) -> list[Prediction]:
        return [
            Prediction(spans=tuple(s for s in p.spans if s.label != "PERSON") + self._fix(x.text, p))
            for x, p in zip(inputs, super().predict(inputs))
        ]

    @staticmethod
    def _fix(text: str, p: Prediction) -> tuple[Span, ...]:
        return tuple(Span(s.start, s.end, "ORG") for s in p.spans if s.label == "PERSON")


class Words:
    """Candidates for a masked word: Nordvik -> Globex/Initech, Telecom -> Mobile."""

    table = {"Nordvik": [("Globex", 0.5), ("Initech", 0.3)], "Telecom": [("Mobile", 0.4)]}

    def tokenize(self, word: str) -> list[str] | None:
        return [word]

    def propose(self, items: Sequence[tuple[str, Span]], k: int) -> list[list[tuple[str, float]]]:
        return [self.table.get(t[s.start : s.end], [])[:k] for t, s in items]


def same_sim(pairs: Sequence[Any]) -> list[float]:
    return [0.9] * len(pairs)


REPAIR = {"candidates": Words(), "similarity": same_sim, "config": RepairConfig(p_threshold=0.01)}


@pytest.fixture()
def explorer() -> Explorer:
    return Explorer(
        models={"fragile": Fragile(), "steady": Steady()},
        data=[NERInput(TEXT, GOLD), NERInput("Acme Bank opened in Oslo.", ((0, 9, "ORG"), (20, 24, "GPE")))],
        relations=["TIN-question", "TIN-shuffle"],
        repairer_options=REPAIR,
    )


def card(explorer: Explorer, name: str) -> dict[str, Any]:
    return next(m for m in explorer._models if m["name"] == name)


def inspector(explorer: Explorer, name: str) -> dict[str, Any]:
    """The NER inspector's data in one model card (the card's extra component)."""
    extra = card(explorer, name)["extra"]
    assert extra["view"] == "entity-inspector" and extra["replaces"] is True
    return extra["data"]  # type: ignore[no-any-return]


def entities(pieces: list[dict[str, Any]]) -> list[tuple[str, str | None, bool]]:
    return [(p["text"], p["label"], bool(p.get("suspicious"))) for p in pieces if "label" in p]


def test_ner_data_selects_the_ner_parts_its_relations_and_label_colours(explorer: Explorer) -> None:
    assert explorer.task == "ner"
    assert explorer._input["roles"] == ["entity"]
    assert explorer._input["mark_view"] == "spans" and explorer._models[0]["view"] == "spans"
    assert explorer._input["colors"] == LABEL_COLORS and len(set(LABEL_COLORS.values())) == len(LABEL_COLORS)
    assert [r["name"] for r in explorer._relations] == ["TIN-question", "TIN-shuffle"]
    # gold comes in as marks keyed by offsets, each with its label
    assert {k: (m["text"], m["label"]) for k, m in explorer._input["marks"].items()} == {
        "0:15": ("Nordvik Telecom", "ORG"),
        "22:31": ("Acme Bank", "ORG"),
        "35:39": ("Oslo", "GPE"),
    }
    assert explorer.source == NERInput(TEXT, GOLD)


def test_the_task_is_inferred_from_data_frames_relations_and_results() -> None:
    frame = pd.DataFrame({"text": [TEXT], "entities": [[{"start": 0, "end": 15, "label": "ORG"}]]})
    assert infer_task(frame) == "ner"
    assert infer_task(None, relations=["TIN-question"]) == "ner"
    assert infer_task(None, default=FIRST_TASK) == "re"  # what a bare mt.Explorer() explores
    with pytest.raises(InputError, match="registered tasks: re, ner"):
        infer_task(None)
    assert infer_task(pd.DataFrame({"markup": ["[[a]] b <<c>>"]})) == "re"
    inputs, _ = read_data(frame, "ner")
    assert inputs == [NERInput(TEXT, ((0, 15, "ORG"),))]
    assert len(read_data(None, "ner")[0]) == len(mt.datasets.ner_sample())
    with pytest.raises(InputError, match="not for 'ner' inputs"):
        Explorer(models={"f": Fragile()}, data=[NERInput(TEXT)], relations=["MR-S2"])


def test_question_violation_flags_the_suspicious_entity_on_both_sides_as_the_run_does(
    explorer: Explorer,
) -> None:
    explorer.relation = "TIN-question"
    assert explorer.followups == [NERInput(QUESTION, ((4, 19, "ORG"), (25, 34, "ORG"), (38, 42, "GPE")))]
    assert explorer.verdicts == {"fragile": "violation", "steady": "pass"}
    run = mt.run([explorer.source], models={"fragile": Fragile()}, relations=["TIN-question"], seed=0)
    assert card(explorer, "fragile")["reason"] == run.frame["reason"].iloc[0]

    ner = inspector(explorer, "fragile")
    assert entities(ner["source"]) == [
        ("Nordvik Telecom", "ORG", True),
        ("Acme Bank", "ORG", False),
        ("Oslo", "GPE", False),
    ]
    assert entities(ner["followup"]) == [
        ("Nordvik Telecom", "PERSON", True),
        ("Acme Bank", "ORG", False),
        ("Oslo", "GPE", False),
    ]
    assert "".join(p["text"] for p in ner["followup"]) == QUESTION
    # judged against gold: the source is right, the follow-up has the wrong category
    assert [p.get("wrong") for p in ner["followup"] if "label" in p] == [True, False, False]
    assert ner["suspicious"] == [
        {
            "text": "Nordvik Telecom",
            "source": "ORG",
            "followup": "PERSON",
            "kind": "label",
            "suggests": "incorrect category",
            "source_category": "correct",
            "followup_category": "incorrect category",
        }
    ]
    group = explorer._group()
    assert group is not None
    o = explorer._outcomes()["fragile"]
    assert explorer.suspicious["fragile"] == suspicious_entities(group, o.sources, o.followups, by_text=True)
    assert explorer.suspicious["steady"] == [] and inspector(explorer, "steady")["repair"] is None


def test_repair_relabels_the_suspicious_entity_beside_the_original(explorer: Explorer) -> None:
    explorer.relation = "TIN-question"
    repair = inspector(explorer, "fragile")["repair"]
    assert repair["status"] == "done"
    # similar companies (Globex/Initech Telecom, Nordvik Mobile) are ORG even in a question: the vote says ORG
    assert entities(repair["followup"])[0] == ("Nordvik Telecom", "ORG", False)
    assert [p.get("changed") for p in repair["followup"] if "label" in p] == [True, None, None]
    # the source was right: its vote keeps ORG and nothing changes there
    assert entities(repair["source"]) == [
        ("Nordvik Telecom", "ORG", False),
        ("Acme Bank", "ORG", False),
        ("Oslo", "GPE", False),
    ]
    assert not any(p.get("changed") for p in repair["source"])
    follow = [r for r in repair["relabels"] if r["side"] == "follow-up"]
    assert follow[0]["entity"] == "Nordvik Telecom" and follow[0]["label"] == "ORG"
    assert follow[0]["mutants"] == 3 and follow[0]["votes"][0][0] == "ORG"
    assert explorer.repairs["fragile"]["followup"] == [
        Span(4, 19, "ORG"),
        Span(25, 34, "ORG"),
        Span(38, 42, "GPE"),
    ]
    # both sentences' mutants (each word of the entity masked in turn) went through the
    # model once each
    seen = explorer._predictor.user_models["fragile"].seen
    mutants = [t for t in seen if "Globex" in t or "Initech" in t or "Mobile" in t]
    assert sorted(mutants) == sorted(
        f"{head}{name} fine{tail}" if head else f"{name} fined{tail}"
        for head, tail in (("Did ", " Acme Bank in Oslo?"), ("", " Acme Bank in Oslo."))
        for name in ("Globex Telecom", "Initech Telecom", "Nordvik Mobile")
    )


def test_repair_can_be_turned_off() -> None:
    e = Explorer(
        models={"fragile": Fragile()}, data=[NERInput(TEXT, GOLD)], relations=["TIN-question"], repair=False
    )
    assert inspector(e, "fragile")["repair"]["status"] == "off"
    assert e.repairs == {}


def test_marking_gold_adds_replaces_relabels_and_removes_entities(explorer: Explorer) -> None:
    explorer.mark("entity", 0, 7, "PERSON")  # "Nordvik" overlaps "Nordvik Telecom": replaces it
    assert explorer.source is not None
    assert [(s.start, s.end, s.label) for s in explorer.source.gold] == [
        (0, 7, "PERSON"),
        (22, 31, "ORG"),
        (35, 39, "GPE"),
    ]
    explorer.set_type("0:7", "ORG")
    explorer.clear("35:39")
    assert [(s.start, s.end, s.label) for s in explorer.source.gold] == [(0, 7, "ORG"), (22, 31, "ORG")]
    explorer.clear()
    assert explorer.source == NERInput(TEXT)
    assert "optional: mark gold entities" in explorer._input["todo"]
    # no label given: spaCy's label for exactly that range (a suggestion), as the front end's "auto"
    suggestion = next(s for s in explorer._input["suggestions"] if s["text"] == "Oslo")
    reply = explorer.handle_message(
        {"kind": "mark", "id": 5, "role": "entity", "start": suggestion["start"], "end": suggestion["end"]}
    )
    assert reply == {"kind": "reply", "id": 5}
    assert explorer.source.gold == (Span(35, 39, suggestion["label"]),)


def test_bad_gold_marks_show_an_actionable_error_in_the_widget(explorer: Explorer) -> None:
    before = explorer.source
    reply = explorer.handle_message({"kind": "mark", "id": 1, "role": "entity", "start": 16, "end": 21})
    assert reply["kind"] == "error" and "no label for the entity 'fined'" in reply["message"]
    assert "new entity label" in explorer._error["message"]
    reply = explorer.handle_message(
        {"kind": "mark", "id": 2, "role": "entity", "start": 0, "end": 7, "label": "COMPANY"}
    )
    assert "unknown entity label 'COMPANY'" in reply["message"]
    reply = explorer.handle_message(
        {"kind": "mark", "id": 3, "role": "entity", "start": 30, "end": 99, "label": "ORG"}
    )
    assert reply["kind"] == "error" and "99" in reply["message"]
    reply = explorer.handle_message({"kind": "clear", "id": 4, "role": "1:2"})
    assert "no gold entity '1:2'" in reply["message"]
    assert explorer.source == before  # nothing lost


def test_a_hand_edited_follow_up_is_located_through_a_fresh_alignment(explorer: Explorer) -> None:
    explorer.relation = "TIN-question"
    explorer.edit_followup("So did Nordvik Telecom really fine Acme Bank in Oslo?")
    (fu,) = explorer.followups
    assert [(fu.mention(s), s.label) for s in fu.gold] == [
        ("Nordvik Telecom", "ORG"),
        ("Acme Bank", "ORG"),
        ("Oslo", "GPE"),
    ]
    assert explorer.verdicts["fragile"] == "violation"
    (sus,) = explorer.suspicious["fragile"]
    assert (sus.source_span.start, sus.followup_span.start) == (0, 7)
    group = explorer._group()
    assert group is not None and group.meta["edited"] is True
    assert [0, 15, 7, 22] in [a[:4] for a in group.meta["alignment"]] or any(
        a[0] <= 0 and a[1] >= 15 and a[2] - a[0] == 7 for a in group.meta["alignment"]
    )


def test_hostile_text_stays_text_in_every_piece() -> None:
    hostile = "<img src=x onerror=alert(1)> Nordvik Telecom fined Acme Bank in Oslo."
    e = Explorer(models={"fragile": Fragile()}, data=[NERInput(hostile)], relations=["TIN-question"])
    assert e.verdicts == {"fragile": "not_applicable"}  # no question from this one, entities still shown
    pieces = inspector(e, "fragile")["source"]
    assert entities(pieces) == [
        ("Nordvik Telecom", "ORG", False),
        ("Acme Bank", "ORG", False),
        ("Oslo", "GPE", False),
    ]
    assert "".join(p["text"] for p in pieces) == hostile
    assert pieces[0] == {"text": "<img src=x onerror=alert(1)> "}


def test_entity_pieces_show_omissions_as_label_less_suspicious_ranges() -> None:
    pieces = entity_pieces(
        "Ann met Bob.", [Span(0, 3, "PERSON")], flagged=[Span(8, 11)], gold=[Span(0, 3, "PERSON")]
    )
    assert pieces == [
        {"text": "Ann", "label": "PERSON", "wrong": False},
        {"text": " met "},
        {"text": "Bob", "label": None, "suspicious": True},
        {"text": "."},
    ]


def test_a_saved_ner_suite_reloads_into_an_ner_explorer(explorer: Explorer, tmp_path: Any) -> None:
    explorer.relation = "TIN-question"
    explorer.save()
    path = tmp_path / "suite.jsonl"
    explorer.suite.save(path)
    again = Explorer(models={"fragile": Fragile()}, data=mt.Results.load(path), repairer_options=REPAIR)
    assert again.task == "ner" and again.relation == "TIN-question"
    assert again.source == NERInput(TEXT, GOLD)
    assert again.verdicts == {"fragile": "violation"}


def test_relations_with_costly_filters_are_checked_only_when_chosen(explorer: Explorer) -> None:
    e = Explorer(
        models={"fragile": Fragile()},
        data=[NERInput(TEXT, GOLD)],
        relations=["TIN-question", "TIN-token"],
        repairer_options=REPAIR,
    )
    source = e.source
    assert source is not None
    views = {r["name"]: r for r in e._relations}
    # TIN-token's follow-ups pass a MiniLM filter: not computed for a relation not shown
    assert views["TIN-token"]["checked"] is False and views["TIN-token"]["enabled"]
    assert "checked" not in views["TIN-question"]
    assert not e._is_cached(e._relations_by_name["TIN-token"], source)
    e.relation = "TIN-token"
    views = {r["name"]: r for r in e._relations}
    assert "checked" not in views["TIN-token"] and e._is_cached(e._relations_by_name["TIN-token"], source)
    cands = e._candidate_list()
    assert cands is not None and views["TIN-token"]["enabled"] == (cands.not_applicable is None)
    assert views["TIN-token"]["reason"] == (cands.not_applicable or "")
