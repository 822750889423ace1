"""The embedded model: deterministic training on a small subset, the shipped head, features.

The small subset is one context with its negated form and a few animal words (written
here, no WordNet): training twice with one seed gives the same weights bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from mtwidgets.core.errors import MTError
from mtwidgets.nli.contexts import Context
from mtwidgets.nli.labels import CONTRADICTION, ENTAILMENT, NEUTRAL
from mtwidgets.nli.lexicon import InsertionPair, Word
from mtwidgets.nli.linear import logistic_scores, train_logistic, train_mlp
from mtwidgets.nli.minilm import differing_tokens, head_probs, load_head

GARDEN = Context("There is a {x} in the garden.", "up", ("animal",), negated="There is no {x} in the garden.")


def _w(lemma: str) -> Word:
    return Word(lemma, "animal", f"{lemma}.n.01", lemma + "s", True, True)


def _pairs() -> list[InsertionPair]:
    hyper = [("animal", "dog"), ("animal", "cat"), ("bird", "eagle")]
    none = [("dog", "cat"), ("eagle", "dog")]
    out = [p for a, b in hyper for p in (InsertionPair(_w(a), _w(b), "⊇"), InsertionPair(_w(b), _w(a), "⊆"))]
    return out + [p for a, b in none for p in (InsertionPair(_w(a), _w(b), "none"), InsertionPair(_w(b), _w(a), "none"))]


def test_generated_examples_have_the_right_labels() -> None:
    from mtwidgets.nli.train import balance, examples

    items = {(e.premise, e.hypothesis): (e.label, e.kind) for e in examples([GARDEN], _pairs(), mismatches=0)}
    assert items[("There is a dog in the garden.", "There is an animal in the garden.")] == (ENTAILMENT, "composition")
    assert items[("There is an animal in the garden.", "There is a dog in the garden.")] == (NEUTRAL, "composition")
    assert items[("There is a dog in the garden.", "There is no animal in the garden.")] == (CONTRADICTION, "negation")
    assert items[("There is no animal in the garden.", "There is a dog in the garden.")] == (CONTRADICTION, "negation")
    assert items[("There is an animal in the garden.", "There is no dog in the garden.")] == (NEUTRAL, "negation")
    assert items[("There is a cat in the garden.", "There is no dog in the garden.")] == (NEUTRAL, "negation")
    assert items[("There is a cat in the garden.", "There is a cat in the garden.")] == (ENTAILMENT, "identity")
    balanced = balance(examples([GARDEN], _pairs(), mismatches=0))
    counts = {label: sum(e.label == label for e in balanced) for label in (ENTAILMENT, NEUTRAL, CONTRADICTION)}
    assert counts[NEUTRAL] == max(counts[ENTAILMENT], counts[CONTRADICTION])


def test_numpy_classifiers_are_deterministic_and_learn() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((300, 8)).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int64)
    probe = train_logistic(x, y)
    assert ((logistic_scores(probe, x) > 0) == (y == 1)).mean() > 0.95
    assert all(np.array_equal(probe[k], train_logistic(x, y)[k]) for k in probe)
    three = np.digitize(x[:, 0], [-0.5, 0.5])
    head = train_mlp(x, three, 3, hidden=16, epochs=100, lr=1e-2, seed=1)
    assert (head_probs(head, x).argmax(1) == three).mean() > 0.9
    again = train_mlp(x, three, 3, hidden=16, epochs=100, lr=1e-2, seed=1)
    assert all(np.array_equal(head[k], again[k]) for k in head)
    other = train_mlp(x, three, 3, hidden=16, epochs=100, lr=1e-2, seed=2)
    assert not np.array_equal(head["w1"], other["w1"])
    with pytest.raises(MTError, match="both classes"):
        train_logistic(x, np.zeros(300, dtype=np.int64))
    with pytest.raises(MTError, match="expected"):
        train_mlp(x, three[:10], 3)


def test_differing_tokens() -> None:
    assert differing_tokens([1, 2, 3, 4], [1, 2, 9, 9, 4]) == ([2], [2, 3])
    assert differing_tokens([1, 2], [1, 2]) == ([], [])


pytest.importorskip("torch")


@pytest.fixture(scope="module")
def encoder():  # type: ignore[no-untyped-def]
    from mtwidgets.nli.minilm import SentenceEncoder

    return SentenceEncoder()


@pytest.mark.slow
def test_training_on_a_small_subset_is_deterministic(encoder) -> None:  # type: ignore[no-untyped-def]
    from mtwidgets.nli.train import accuracy, balance, examples, train

    items = balance(examples([GARDEN], _pairs(), mismatches=0))
    first = train(items, encoder=encoder, hidden=16, epochs=20, seed=0)
    second = train(items, encoder=encoder, hidden=16, epochs=20, seed=0)
    assert all(np.array_equal(first.weights[k], second.weights[k]) for k in first.weights)
    assert first.version == second.version
    assert accuracy(first, items)["accuracy"] >= 0.9  # it fits its training data
    other = train(items, encoder=encoder, hidden=16, epochs=20, seed=1)
    assert not np.array_equal(first.weights["w1"], other.weights["w1"])


@pytest.mark.slow
def test_the_shipped_head_and_its_stated_accuracy(encoder) -> None:  # type: ignore[no-untyped-def]
    from mtwidgets.nli.inputs import NLIInput
    from mtwidgets.nli.minilm import MiniLMNLI

    weights, meta = load_head()
    assert meta["labels"] == [ENTAILMENT, NEUTRAL, CONTRADICTION]
    assert meta["held_out"]["accuracy"] >= 0.8 and meta["held_out"]["compositions_two_way"] >= 0.8
    assert meta["held_out"]["contexts"] >= 10 and meta["held_out"]["words"] >= 50
    model = MiniLMNLI(encoder=encoder)
    inputs = [NLIInput("There was no animal.", "There was no animal."),
              NLIInput("She bought a car yesterday.", "She did not buy any cars yesterday.")]
    preds = model.predict(inputs)
    assert [p.label for p in preds] == [ENTAILMENT, CONTRADICTION]
    assert all(abs(sum(dict(p.scores).values()) - 1) < 1e-6 for p in preds)
    states = model.insertion_states(inputs[:1], [((13, 19), (13, 19))])
    assert states.shape == (1, 768) and np.allclose(states[0, :384], states[0, 384:])
    [e] = encoder.encode(["There was no animal."])
    rows = [t for t, (a, b) in enumerate(e.offsets) if a < 19 and b > 13]
    assert np.allclose(states[0, :384], e.states[rows].mean(0))
    with pytest.raises(MTError, match="covers no token"):
        model.insertion_states(inputs[:1], [((40, 44), (13, 19))])
    with pytest.raises(TypeError, match="premise and a hypothesis"):
        model.predict(["There was no animal."])
