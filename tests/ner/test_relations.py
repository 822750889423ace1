"""The four TIN relations in the catalogue, run end to end through the engine's Runner on
toy NER systems whose inconsistencies are known."""

from __future__ import annotations

import re
from typing import Any

import pytest

import mtwidgets as mt
from mtwidgets.core.errors import RelationError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.spans import Span
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.relations import NAMES, PAPER, build

PEOPLE = {"Drake": "PERSON", "Adele": "PERSON", "Elena Marchetti": "PERSON", "Norrie": "PERSON"}
PLACES = {"London": "GPE", "Paris": "GPE", "Rome": "GPE", "Italy": "GPE", "Shetland": "GPE"}
ORGS = {"Spotify": "ORG", "Unesco": "ORG"}
LEXICON = {**PEOPLE, **PLACES, **ORGS}


def lexicon_ner(table: dict[str, str]) -> Any:
    """A gazetteer NER: every listed mention, longest first, with its label."""

    def predict(inputs: list[Any]) -> list[Prediction]:
        out = []
        for x in inputs:
            spans: list[Span] = []
            for name in sorted(table, key=len, reverse=True):
                for m in re.finditer(rf"\b{re.escape(name)}\b", x.text):
                    s = Span(m.start(), m.end(), table[name])
                    if not any(s.overlaps(o) for o in spans):
                        spans.append(s)
            out.append(Prediction(spans=tuple(sorted(spans))))
        return out

    return predict


def question_confused(inputs: list[Any]) -> list[Prediction]:
    """Consistent on statements; in questions it takes every place for a person."""
    preds = lexicon_ner(LEXICON)(inputs)
    return [
        Prediction(
            spans=tuple(
                s.with_label("PERSON") if x.text.endswith("?") and s.label == "GPE" else s for s in p.spans
            )
        )
        for x, p in zip(inputs, preds)
    ]


def order_confused(inputs: list[Any]) -> list[Prediction]:
    """Takes London for a person unless it ends the sentence."""
    out = []
    for x, p in zip(inputs, lexicon_ner(LEXICON)(inputs)):
        spans = [
            s.with_label("PERSON") if x.text[s.start : s.end] == "London" and x.text[s.end :] != "." else s
            for s in p.spans
        ]
        out.append(Prediction(spans=tuple(spans)))
    return out


class Batched:
    """A batched model object (``predict(list) -> list``) around a function."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def predict(self, inputs: list[Any]) -> list[Prediction]:
        return list(self.fn(inputs))


SENTENCES = [
    NERInput("Elena Marchetti is the new finance minister of Italy."),
    NERInput("Drake praised Adele in London."),
    NERInput("Norrie believes Unesco status could help Shetland."),
    NERInput("Spotify paid Drake and Adele in Paris and London."),
]


def test_catalogue_lists_the_four_relations_with_paper_and_expectation() -> None:
    frame = mt.catalogue("ner")
    assert list(frame["name"]) == list(NAMES)
    assert set(frame["task"]) == {"ner"} and set(frame["paper"]) == {PAPER}
    assert frame.set_index("name").loc["TIN-shuffle", "model_dependent"]
    assert "MR2" in frame.set_index("name").loc["TIN-question", "expected"]
    assert "MR1" in frame.set_index("name").loc["TIN-token", "expected"]
    # NER plugs in beside RE: RE's catalogue is unchanged.
    assert "TIN-token" not in set(mt.catalogue("re")["name"])
    with pytest.raises(KeyError):
        build("TIN-nothing")
    with pytest.raises(RelationError, match="TIN-token"):
        mt.relation("TIN-tokens")


@pytest.mark.slow
def test_question_relation_finds_a_model_that_changes_labels_in_questions() -> None:
    # (Sentences whose subject the question keeps capitalised; the gazetteer is case-sensitive.)
    res = mt.run(
        [SENTENCES[0], *SENTENCES[2:]],
        relations=["TIN-question"],
        models={"confused": Batched(question_confused), "steady": Batched(lexicon_ner(LEXICON))},
        task="ner",
    )
    f = res.frame
    steady, confused = f[f["model"] == "steady"], f[f["model"] == "confused"]
    assert set(steady["verdict"]) <= {"pass", "not_applicable"} and (steady["verdict"] == "pass").sum() >= 2
    viol = confused[confused["verdict"] == "violation"]
    assert len(viol) >= 2
    assert any("'Italy': GPE in the source, PERSON in the follow-up" in r for r in viol["reason"])
    # The follow-up is a question built from the parse.
    assert any(t.startswith("Is Elena Marchetti") and t.endswith("?") for t in viol["followup_text"])


@pytest.mark.slow
def test_shuffle_relation_applies_to_predicted_entities_and_catches_position_bias() -> None:
    # Places swap only with places of the same kind: the cities Paris, London and Rome.
    shuffled = [
        NERInput("Adele met Elena Marchetti in Paris and London."),
        NERInput("Elena Marchetti visited Rome and London."),
        NERInput("Unesco and Spotify opened offices in Paris and Rome."),
    ]
    res = mt.run(
        shuffled,
        relations=["TIN-shuffle"],
        models={
            "steady": Batched(lexicon_ner(LEXICON)),
            "order": Batched(order_confused),
            "blind": Batched(lexicon_ner({k: v for k, v in LEXICON.items() if k != "Paris"})),
        },
        task="ner",
        seed=3,
    )
    f = res.frame
    by = {m: f[f["model"] == m] for m in ("steady", "order", "blind")}
    assert list(by["steady"]["verdict"]) == ["pass"] * 3
    assert list(by["order"]["verdict"]) == ["violation", "violation", "pass"]
    assert (
        "1 suspicious: 'London': GPE in the source, PERSON in the follow-up" in by["order"]["reason"].iloc[0]
    )
    # A model that did not predict a moved entity is not tested on that shuffle.
    assert list(by["blind"]["verdict"]) == ["not_applicable", "pass", "not_applicable"]
    assert "did not predict 'Paris' as an entity" in by["blind"]["reason"].iloc[0]


# Sentences with a word that has a reviewed substitute fitting its use ("yearly" ->
# "annual", "thankful" -> "grateful"); SENTENCES have none.
SYNONYM_SENTENCES = [
    NERInput("Drake performed at a yearly festival in London."),
    NERInput("Adele was thankful for the support in Paris."),
]


@pytest.mark.slow
def test_token_relation_ignores_new_entities_and_is_deterministic() -> None:
    models = {"steady": Batched(lexicon_ner(LEXICON))}
    data = [*SENTENCES, *SYNONYM_SENTENCES]
    a = mt.run(data, relations=["TIN-token"], models=models, task="ner", seed=1)
    b = mt.run(data, relations=["TIN-token"], models=models, task="ner", seed=1)
    assert list(a.frame["followup_text"]) == list(b.frame["followup_text"])
    applicable = a.frame[a.frame["verdict"] != "not_applicable"]
    assert len(applicable) >= 2 and set(applicable["verdict"]) == {"pass"}
    # both synonym sentences are tested, each with a follow-up that differs from it
    assert set(applicable["source_index"]) == {len(SENTENCES), len(SENTENCES) + 1}
    assert all(f != s for f, s in zip(applicable["followup_text"], applicable["source_text"]))


def test_similar_sentence_relations_filter_by_default_as_the_paper_does() -> None:
    from mtwidgets.ner.filters import NaturalnessFilter, SemanticFilter
    from mtwidgets.ner.relations import build

    for name in ("TIN-token", "TIN-phrase"):
        kinds = [type(f) for f in build(name).transformation.filters]
        assert kinds == [NaturalnessFilter, SemanticFilter], name
        assert build(name, filters=()).transformation.filters == ()
    assert (
        not hasattr(build("TIN-question").transformation, "filters")
        or not build("TIN-question").transformation.filters
    )
