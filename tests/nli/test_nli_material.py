"""The test material: WordNet insertion pairs, contexts, compositions and the held-out split.

Needs WordNet (the project's language resource); every check is on the shipped material.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from mtwidgets.core.data import load_inputs
from mtwidgets.nli.contexts import CONTEXTS, PAPER_CONTEXTS, Context
from mtwidgets.nli.inputs import CompositionInput
from mtwidgets.nli.lexicon import domain_words, insertion_pairs, relation, word
from mtwidgets.nli.material import (
    FRAME_COLUMNS,
    compositions,
    compositions_frame,
    context_families,
    entailed,
    split,
)
from mtwidgets.nli.samples import sample

pytestmark = pytest.mark.slow


def test_wordnet_relations_of_known_words() -> None:
    dog, animal, car = word("dog", "animal"), word("animal", "animal"), word("car", "vehicle")
    assert relation(animal, dog) == "⊇" and relation(dog, animal) == "⊆"
    assert relation(dog, car) == "none"
    assert relation(word("tree", "plant"), word("cherry tree", "plant")) == "⊇"
    assert relation(word("fruit", "food"), word("apple", "food")) == "⊇"  # WordNet's edible_fruit
    assert word("dolphin", "animal").synset == "dolphin.n.02"  # the cetacean, not the dolphinfish
    # WordNet files a kitten under "young mammal", but its gloss says "young domestic cat": never unrelated
    assert relation(word("cat", "animal"), word("kitten", "animal")) is None
    assert relation(word("flower", "plant"), word("rose", "plant")) is None
    assert word("palm", "plant").clear is False and word("oak", "plant").synset == "oak.n.02"


def test_insertion_pairs_are_deterministic_and_closed_under_swapping() -> None:
    pairs = insertion_pairs()
    assert pairs == insertion_pairs()
    counts = Counter(p.relation for p in pairs)
    assert counts["⊇"] == counts["⊆"] > 100 and counts["none"] >= counts["⊇"]
    labels = {(p.a.lemma, p.b.lemma): p.relation for p in pairs}
    flip = {"⊇": "⊆", "⊆": "⊇", "none": "none"}
    assert all(labels[(b, a)] == flip[r] for (a, b), r in labels.items())
    assert len(labels) == len(pairs)
    assert {p.relation for p in insertion_pairs(["animal"], seed=1)} == {"⊇", "⊆", "none"}


def test_contexts_render_grammatical_sentences_with_exact_spans() -> None:
    there = Context("There is a {x} in the garden.", "up", ("animal", "food"))
    assert there.render(word("apple", "food")) == ("There is an apple in the garden.", (12, 17))
    standing = Context("A {x} was standing by the door.", "up", ("animal",))
    assert standing.render(word("elephant", "animal"))[0] == "An elephant was standing by the door."
    bloom = PAPER_CONTEXTS[4]
    assert bloom.render(word("daisy", "plant"))[0] == "Some daisies bloom in spring and others in autumn."
    assert bloom.display == "Some ⟨x⟩ bloom in spring and others in autumn."
    assert not there.accepts(word("cheese", "food"))  # a mass noun takes no "a"
    assert not PAPER_CONTEXTS[1].accepts(word("palm", "plant"))  # several domains: clear words only
    assert Context("We planted a {x}.", "up", ("plant",)).accepts(word("palm", "plant"))


def test_every_composition_reads_well_and_has_its_gold_label() -> None:
    pairs = {(p.a.lemma, p.b.lemma): p for p in insertion_pairs()}
    contexts = {c.template: c for c in CONTEXTS}
    cases = compositions()  # the shipped material
    assert len(cases) > 5000
    for x in cases:
        context, pair = contexts[x.context], pairs[(x.a, x.b)]
        (a0, a1), (b0, b1) = x.spans
        assert x.premise[a0:a1] in (pair.a.lemma, pair.a.plural)
        assert x.hypothesis[b0:b1] in (pair.b.lemma, pair.b.plural)
        for text in (x.premise, x.hypothesis):
            assert not re.search(r"\b[Aa] [aeio]|\b[Aa]n [bcdfgjklmnpqrstvwxz]", text), text
            assert "{" not in text
        assert (x.label == "entailment") == entailed(context.monotonicity, pair.relation)
        assert (x.monotonicity, x.relation, x.domains, x.source) == (context.monotonicity, pair.relation,
                                                                      context.domains, context.source)
    by_context = Counter(x.context for x in cases)
    assert set(by_context) == set(contexts)  # every context has material
    assert Counter(c.monotonicity for c in CONTEXTS) == {"up": 21, "down": 19}


def test_the_compositions_table_reads_back_into_the_same_inputs() -> None:
    frame = compositions_frame(PAPER_CONTEXTS[:3])
    assert list(frame.columns) == list(FRAME_COLUMNS) and len(frame) > 50
    loaded = load_inputs(frame, task="nli")  # the table's columns say it is NLI compositions
    assert loaded.inputs == compositions(PAPER_CONTEXTS[:3])
    again = load_inputs(frame.drop(columns=["premise", "hypothesis", "label"]).to_dict("records"), task="nli")
    assert [x.key() for x in again.inputs] == [x.key() for x in loaded.inputs]  # written from the context


def test_split_holds_out_contexts_and_words_never_seen_in_training() -> None:
    words = [w for d in ("animal", "plant", "food", "vehicle", "person", "object", "place", "event")
             for w in domain_words(d)]
    train, held = split(CONTEXTS, words)
    assert not {c.template for c in train.contexts} & {c.template for c in held.contexts}
    assert len(train.contexts) + len(held.contexts) == len(CONTEXTS)
    assert not train.words & held.words
    assert {c.monotonicity for c in held.contexts} == {"up", "down"}
    pairs = insertion_pairs()
    for p in held.pairs(pairs):
        assert not train.has(p.a) and not train.has(p.b)
    for family in context_families(CONTEXTS):  # a context and its negated form stay on one side
        assert len({c.template in {t.template for t in held.contexts} for c in family}) == 1
    assert split(CONTEXTS, words) == (train, held)


def test_sample_is_the_paper_contexts_composed() -> None:
    frame = sample()
    assert list(frame.columns) == list(FRAME_COLUMNS)
    assert set(frame["label"]) == {"entailment", "neutral"}
    assert set(frame["relation"]) == {"⊇", "⊆", "none"}
    assert set(frame["context"]) == {c.template for c in PAPER_CONTEXTS}
    assert "There was no shrub." in set(frame["premise"])
    assert all(isinstance(x, CompositionInput) for x in load_inputs(frame, task="nli").inputs)
