"""``pairwise-compositionality`` in the catalogue, run by ``mt.run`` and by the command line.

A small model written here (no torch) answers compositions with scores and insertion states
drawn from seeded hashes of their words: fast, deterministic, and it can be told to fail on
some inputs. The runner's rows equal the direct test's (the same scores, the probe trained
on the same compositions), the states survive the disk cache, and compositions the model
failed on or gave nothing for are counted as errors and not applicable. The embedded
``nli-minilm`` runs on the task's sample through the command line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.cli import main
from mtwidgets.core.aggregate import aggregate_frame
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.diagram import diagram_shape
from mtwidgets.core.errors import InputError
from mtwidgets.core.model import ModelAdapter
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.registry import catalogue
from mtwidgets.core.runner import Runner
from mtwidgets.nli.compositionality import pairwise_compositionality
from mtwidgets.nli.contexts import Context
from mtwidgets.nli.inputs import CompositionInput, NLIInput
from mtwidgets.nli.lexicon import InsertionPair, Word
from mtwidgets.nli.material import compositions, compositions_frame
from mtwidgets.nli.states import attach_states, decode_states, encode_states, prediction_states

NAME = "pairwise-compositionality"


def _unit(*parts: str) -> np.random.Generator:
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


class HashedNLI(ModelAdapter):
    """Scores and states from seeded hashes of the texts and words; states carry the gold
    relation faintly, so the probe has something to learn. Fails on texts with ``fail_on``."""

    name = "hashed"
    task = "nli"
    kind = "label"

    def __init__(self, fail_on: str | None = None, states: bool = True) -> None:
        super().__init__(batch_size=8)
        self.fail_on, self.with_states, self.calls = fail_on, states, 0

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.fail_on}:{self.with_states}"

    def _predict_batch(self, inputs: list[Any]) -> list[Prediction]:
        self.calls += len(inputs)
        out = []
        for x in inputs:
            if self.fail_on and self.fail_on in x.premise:
                raise RuntimeError(f"cannot read {x.premise!r}")
            e = float(_unit("ent", x.premise, x.hypothesis).random())
            p = Prediction.from_scores({"entailment": e, "neutral": 1 - e})
            if self.with_states and isinstance(x, CompositionInput):
                z = _unit("z", x.a, x.b).normal(size=12) + (x.relation == "⊇") * 0.8
                p = attach_states(p, z)
            out.append(p)
        return out

    def insertion_states(self, inputs: Sequence[Any], spans: Sequence[Any]) -> np.ndarray:
        return np.stack([prediction_states(p) for p in self._predict_batch(list(inputs))])


def _w(lemma: str) -> Word:
    return Word(lemma, "animal", f"{lemma}.n.01", lemma + "s", True, True)


WORDS = "animal dog cat bird eagle snake reptile mammal fish salmon poodle horse".split()
HYPER = [("animal", "dog"), ("animal", "bird"), ("bird", "eagle"), ("dog", "poodle"), ("reptile", "snake"),
         ("mammal", "cat"), ("fish", "salmon"), ("animal", "fish"), ("mammal", "horse")]
UNRELATED = [("dog", "cat"), ("bird", "snake"), ("eagle", "salmon"), ("poodle", "reptile"), ("cat", "fish"),
             ("horse", "bird"), ("snake", "dog"), ("salmon", "cat")]
PAIRS = [p for a, b in HYPER for p in (InsertionPair(_w(a), _w(b), "⊇"), InsertionPair(_w(b), _w(a), "⊆"))] + [
    p for a, b in UNRELATED for p in (InsertionPair(_w(a), _w(b), "none"), InsertionPair(_w(b), _w(a), "none"))]
CONTEXTS = [Context("There was no {x}.", "down", ("animal",)),
            Context("There is a {x} in the garden.", "up", ("animal",)),
            Context("Every {x} in the zoo was fed.", "down", ("animal",))]


def test_the_relation_is_in_the_nli_catalogue() -> None:
    relation = mt.relation(NAME)
    info = relation.info()
    assert (info["task"], info["category"], info["aggregated"], info["n_sources"]) == (
        "nli", "pairwise compositionality", True, 2)
    assert "s_hyp" in info["expected"] and "downward" in info["expected"] and "Manino" in info["paper"]
    assert NAME in list(catalogue("nli")["name"])
    assert str(relation.diagram()).startswith("<svg") and diagram_shape(relation) == "no-transformation"
    [group] = relation.generate(CompositionInput.compose("There was no {x}.", "down", "animal", "dog", "⊇"))
    assert group.followups == () and group.not_applicable is None and group.meta["relation"] == "⊇"
    [plain] = relation.generate(NLIInput("There was no animal.", "There was no dog."))
    assert "name no context or insertion pair" in str(plain.not_applicable)
    with pytest.raises(InputError, match="takes the options"):
        mt.relation(NAME, sentences=["Hi."])
    with pytest.raises(InputError, match="probe_held_out"):
        mt.relation(NAME, probe_held_out=1.5)
    with pytest.raises(InputError, match="examples"):
        mt.relation(NAME, examples=-1)


def test_the_states_codec_is_exact() -> None:
    z = np.random.default_rng(0).normal(size=384).astype(np.float32)
    assert np.array_equal(decode_states(encode_states(z)), z)
    assert decode_states("a summary") is None and decode_states(None) is None
    p = attach_states(Prediction.from_scores({"entailment": 0.7, "neutral": 0.3}), z)
    assert np.array_equal(prediction_states(Prediction.from_dict(p.to_dict())), z)  # as the disk cache keeps it
    assert p.label == "entailment" and p.scores[0] == ("entailment", 0.7)


def test_the_runner_gives_the_rows_of_the_direct_test_and_the_cache_keeps_the_states(tmp_path: Path) -> None:
    data = compositions(CONTEXTS, PAIRS)
    direct = pairwise_compositionality(HashedNLI(), contexts=CONTEXTS, pairs=PAIRS, name="hashed", seed=5)
    expected = aggregate_frame(direct.rows).to_dict("records")
    model = HashedNLI()
    cache = str(tmp_path / "cache.sqlite")
    first = mt.run(data, relations=NAME, models={"hashed": model}, seed=5, cache=cache)
    assert model.calls == len(data) and len(first.frame) == 0
    assert first.aggregates.to_dict("records") == expected
    again_model = HashedNLI()
    again = mt.run(data, relations=NAME, models={"hashed": again_model}, seed=5, cache=PredictionCache(cache))
    assert again_model.calls == 0  # every answer, states included, from the disk cache
    assert again.aggregates.to_dict("records") == expected
    slices = list(first.aggregates["slice"])
    assert slices[:3] == ["overall", "monotonicity=up", "monotonicity=down"]
    assert {s for s in slices if s.startswith("context=")} == {f"context={c.display}" for c in CONTEXTS}
    assert len([s for s in slices if s.startswith("insertion=")]) == len(PAIRS)
    overall = first.aggregates.iloc[0]
    k = len(PAIRS)
    assert overall["tests"] + overall["not_applicable"] == 3 * k * (k - 1) // 2
    assert 0.5 < overall["detail"]["probe_accuracy"] <= 1.0  # the states carry the relation
    by_slice = first.summary(by=("relation", "model", "slice")).set_index("slice")
    assert by_slice.loc["overall", "violations"] == overall["violations"]


def test_a_table_of_compositions_and_chunks_give_the_same_counts() -> None:
    data = compositions(CONTEXTS, PAIRS)
    whole = mt.run(data, relations=NAME, models={"hashed": HashedNLI()}, cache=PredictionCache())
    table = mt.run(compositions_frame(CONTEXTS, PAIRS), relations=NAME, models={"hashed": HashedNLI()},
                   cache=PredictionCache())
    runner = Runner(NAME, {"hashed": HashedNLI()}, task="nli", cache=PredictionCache())
    chunks = list(runner.iter_chunks(data, chunk_size=7))
    counted = pd.concat([c.aggregates for c in chunks if len(c.aggregates)])
    columns = ["slice", "tests", "satisfied", "violations", "not_applicable", "errors"]
    assert table.aggregates[columns].equals(whole.aggregates[columns])
    assert counted[columns].reset_index(drop=True).equals(whole.aggregates[columns])


def test_failures_and_missing_states_are_counted_not_raised() -> None:
    data = compositions(CONTEXTS, PAIRS)
    failing = mt.run([*data, NLIInput("A dog barked.", "An animal barked.")], relations=NAME,
                     models={"hashed": HashedNLI(fail_on="eagle")}, cache=PredictionCache())
    assert len(failing.errors) == sum("eagle" in x.premise for x in data)  # the runner's record of each failure
    rows = failing.aggregates.set_index("slice")
    eagles = [x for x in data if "eagle" in x.premise]
    overall = rows.loc["overall"]
    assert overall["detail"]["error_compositions"] == len(eagles) > 0
    assert overall["detail"]["not_compositions"] and overall["errors"] > 0
    per_context = {c.template: [x for x in data if x.context == c.template] for c in CONTEXTS}
    failed = {t: sum("eagle" in x.premise for x in xs) for t, xs in per_context.items()}
    pairs = {t: len(xs) * (len(xs) - 1) // 2 for t, xs in per_context.items()}
    errors = {t: pairs[t] - (len(xs) - failed[t]) * (len(xs) - failed[t] - 1) // 2 for t, xs in per_context.items()}
    for c in CONTEXTS:
        assert rows.loc[f"context={c.display}", "errors"] == errors[c.template]
    assert overall["errors"] == sum(errors.values())
    blind = mt.run(data, relations=NAME, models={"blind": HashedNLI(states=False)}, cache=PredictionCache())
    row = blind.aggregates.iloc[0]
    assert row["tests"] == 0 and row["not_applicable"] == sum(pairs.values())
    assert "insertion states" in next(iter(row["detail"]["not_applicable_compositions"]))


@pytest.mark.slow
def test_the_command_line_runs_it_on_the_sample_with_nli_minilm(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["run", "--task", "nli", "--relations", NAME, "--data", "sample", "--models", "nli-minilm",
                 "--quiet", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "pairwise-compositionality" in printed and "Table 3" in printed and "Table 4" in printed
    table3 = pd.read_csv(out / "nli_table3.csv")
    assert len(table3) == 5 and list(table3["Safety"]) == sorted(table3["Safety"])
    assert len(pd.read_csv(out / "nli_table4.csv")) > 20
