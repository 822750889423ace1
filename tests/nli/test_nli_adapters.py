"""The NLI adapters against tiny BERT sequence-pair classifiers built and saved by the test.

Each model is loaded back by path, as a user's hub name would be; every prediction and
hidden state is compared with a hand-run of the same model. Then pairwise
compositionality runs end to end on the tiny model, called directly and through the runner
(``mt.run``), with the same rows.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import mtwidgets as mt  # noqa: E402
from mtwidgets.core.aggregate import aggregate_frame  # noqa: E402
from mtwidgets.core.errors import MTError  # noqa: E402
from mtwidgets.core.inputs import TextInput  # noqa: E402
from mtwidgets.nli.adapters import (  # noqa: E402
    HFNLIClassifier,
    HFNLIPipeline,
    insertion_states,
    nli_classifier,
    nli_pipeline,
)
from mtwidgets.nli.compositionality import pairwise_compositionality  # noqa: E402
from mtwidgets.nli.contexts import Context  # noqa: E402
from mtwidgets.nli.inputs import CompositionInput, NLIInput  # noqa: E402
from mtwidgets.nli.lexicon import InsertionPair, Word  # noqa: E402
from mtwidgets.nli.material import compositions  # noqa: E402
from mtwidgets.nli.states import prediction_states  # noqa: E402

pytestmark = pytest.mark.slow

WORDS = ("there was no is a an in the garden every zoo fed . animal dog cat bird poodle eagle snake reptile "
         "mammal fish salmon").split()
NAMED = {0: "ENTAILMENT", 1: "NEUTRAL", 2: "CONTRADICTION"}


def _save(path: Path, id2label: dict[int, str], label2id: dict[str, int] | None = None) -> str:
    vocab = path / "vocab.txt"
    path.mkdir(parents=True, exist_ok=True)
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    tokenizer = transformers.BertTokenizer(vocab=str(vocab))
    assert tokenizer.is_fast and "[UNK]" not in tokenizer.tokenize("There is an animal in the garden.")
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=len(WORDS) + 5, hidden_size=16, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=32, max_position_embeddings=64,
                                     id2label=id2label, label2id=label2id or {v: k for k, v in id2label.items()})
    transformers.BertForSequenceClassification(config).eval().save_pretrained(path)
    tokenizer.save_pretrained(path)
    return str(path)


@pytest.fixture(scope="module")
def named_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _save(tmp_path_factory.mktemp("nli") / "named", NAMED)


@pytest.fixture(scope="module")
def generic_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _save(tmp_path_factory.mktemp("nli") / "generic", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})


PAIRS = [
    NLIInput("There was no animal.", "There was no dog."),
    NLIInput("There is a dog in the garden.", "There is an animal in the garden."),
    NLIInput("Every bird in the zoo was fed.", "Every eagle in the zoo was fed."),
]


def _by_hand(path: str, inputs: list[NLIInput]) -> list[dict[int, float]]:
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(path).eval()
    out = []
    for x in inputs:
        with torch.no_grad():
            logits = model(**tokenizer(x.premise, x.hypothesis, return_tensors="pt")).logits[0]
        out.append(dict(enumerate(torch.softmax(logits, -1).tolist())))
    return out


def test_sequence_pair_classifier_by_path(named_dir: str) -> None:
    model = nli_classifier(named_dir)
    assert isinstance(model, HFNLIClassifier) and model.labels == ["entailment", "neutral", "contradiction"]
    preds = model.predict(PAIRS)
    for pred, expected in zip(preds, _by_hand(named_dir, PAIRS)):
        table = dict(pred.scores)
        assert table == pytest.approx({"entailment": expected[0], "neutral": expected[1],
                                       "contradiction": expected[2]}, abs=1e-5)
        assert pred.label == max(table, key=table.__getitem__)


def test_pipeline_reads_the_same_model(named_dir: str) -> None:
    pipe = transformers.pipeline("text-classification", model=named_dir, tokenizer=named_dir)
    model = nli_pipeline(pipe)
    assert isinstance(model, HFNLIPipeline)
    assert model.label_map == {"ENTAILMENT": "entailment", "NEUTRAL": "neutral", "CONTRADICTION": "contradiction"}
    classifier = nli_classifier(named_dir)
    for a, b in zip(model.predict(PAIRS), classifier.predict(PAIRS)):
        assert dict(a.scores) == pytest.approx(dict(b.scores), abs=1e-5)
        assert a.label == b.label


def test_generic_labels_need_the_users_word(generic_dir: str) -> None:
    with pytest.raises(MTError, match="pass labels="):
        nli_classifier(generic_dir)
    model = nli_classifier(generic_dir, labels=["contradiction", "neutral", "entailment"])
    expected = _by_hand(generic_dir, PAIRS[:1])[0]
    assert dict(model.predict(PAIRS[:1])[0].scores)["entailment"] == pytest.approx(expected[2], abs=1e-5)
    pipe = nli_pipeline(transformers.pipeline("text-classification", model=generic_dir),
                        labels={"LABEL_0": "contradiction", "LABEL_1": "neutral", "LABEL_2": "entailment"})
    assert dict(pipe.predict(PAIRS[:1])[0].scores)["entailment"] == pytest.approx(expected[2], abs=1e-5)


def test_insertion_states_are_the_second_to_last_layer_over_the_insertions(named_dir: str) -> None:
    model = nli_classifier(named_dir)
    spans = [((13, 19), (13, 16)), ((11, 14), (12, 18)), ((6, 10), (6, 11))]
    states = model.insertion_states(PAIRS, spans)
    assert states.shape == (3, 32)
    tokenizer = transformers.AutoTokenizer.from_pretrained(named_dir)
    hf = transformers.AutoModelForSequenceClassification.from_pretrained(named_dir).eval()
    enc = tokenizer("There was no animal.", "There was no dog.", return_tensors="pt")
    tokens = tokenizer.convert_ids_to_tokens(enc["input_ids"][0])
    with torch.no_grad():
        hidden = hf(**enc, output_hidden_states=True).hidden_states[-2][0]
    a, d = tokens.index("animal"), tokens.index("dog")
    assert np.allclose(states[0], torch.cat([hidden[a], hidden[d]]).numpy(), atol=1e-5)
    pipe_states = nli_pipeline(transformers.pipeline("text-classification", model=named_dir)).insertion_states(
        PAIRS, spans)
    assert np.allclose(pipe_states, states, atol=1e-5)
    with pytest.raises(MTError, match="covers no token"):
        model.insertion_states(PAIRS[:1], [((40, 45), (0, 3))])


def test_a_composition_is_answered_with_its_insertion_states(named_dir: str) -> None:
    x = CompositionInput.compose("There was no {x}.", "down", "animal", "dog", "⊇")
    y = CompositionInput.compose("There is a {x} in the garden.", "up", "eagle", "bird", "⊆")
    plain = NLIInput(x.premise, x.hypothesis)
    assert x.key() != plain.key() and x.spans == ((13, 19), (13, 16))
    classifier = nli_classifier(named_dir, batch_size=2)
    pipe = nli_pipeline(transformers.pipeline("text-classification", model=named_dir))
    for model in (classifier, pipe):
        got = model.predict([plain, x, y])
        assert prediction_states(got[0]) is None  # a plain pair says nowhere to read them
        assert dict(got[1].scores) == pytest.approx(dict(model.predict([plain])[0].scores), abs=1e-6)
        expected = classifier.insertion_states([x, y], [x.spans, y.spans])
        assert np.allclose(np.stack([prediction_states(p) for p in got[1:]]), expected, atol=1e-5)
    deeper = nli_classifier(named_dir, layer=-1)
    assert deeper.fingerprint != classifier.fingerprint
    assert np.allclose(prediction_states(deeper.predict([x])[0]),
                       classifier.insertion_states([x], [x.spans], layer=-1)[0], atol=1e-5)


def test_bad_inputs_and_tokenizers_are_refused(named_dir: str) -> None:
    model = nli_classifier(named_dir)
    with pytest.raises(TypeError, match="premise and a hypothesis"):
        model.predict([TextInput("There was no dog.")])
    hf = transformers.AutoModelForSequenceClassification.from_pretrained(named_dir)
    with pytest.raises(MTError, match="fast tokenizer"):
        insertion_states(hf, SimpleNamespace(is_fast=False), [("a", "b")], [((0, 1), (0, 1))])
    with pytest.raises(TypeError, match="tokenizer="):
        HFNLIClassifier(hf)


def _word(lemma: str, plural: str) -> Word:
    return Word(lemma, "animal", f"{lemma}.n.01", plural, True, True)


def _tiny_material() -> tuple[list[Context], list[InsertionPair]]:
    w = {n: _word(n, n + "s") for n in ("animal", "dog", "cat", "bird", "poodle", "eagle", "snake", "reptile",
                                        "mammal", "fish", "salmon")}
    hyper = [("animal", "dog"), ("animal", "bird"), ("bird", "eagle"), ("dog", "poodle"), ("reptile", "snake"),
             ("mammal", "cat"), ("fish", "salmon"), ("animal", "fish")]
    unrelated = [("dog", "cat"), ("bird", "snake"), ("eagle", "salmon"), ("poodle", "reptile"), ("cat", "fish"),
                 ("mammal", "bird"), ("snake", "dog"), ("salmon", "cat")]
    pairs = [p for a, b in hyper for p in (InsertionPair(w[a], w[b], "⊇"), InsertionPair(w[b], w[a], "⊆"))]
    pairs += [p for a, b in unrelated for p in (InsertionPair(w[a], w[b], "none"), InsertionPair(w[b], w[a], "none"))]
    contexts = [Context("There was no {x}.", "down", ("animal",)),
                Context("There is a {x} in the garden.", "up", ("animal",))]
    return contexts, pairs


def test_pairwise_compositionality_runs_on_the_tiny_model(named_dir: str) -> None:
    contexts, pairs = _tiny_material()
    result = pairwise_compositionality(nli_classifier(named_dir), contexts=contexts, pairs=pairs, name="tiny")
    k = len(pairs)
    rows = {r["slice"]: r for r in result.rows}

    def cases(row: dict[str, object]) -> object:  # tested pairs and ties: every pair
        return row["tests"] + row["not_applicable"]  # type: ignore[operator]

    assert cases(rows["overall"]) == 2 * k * (k - 1) // 2 and rows["overall"]["errors"] == 0
    assert cases(rows["monotonicity=up"]) == cases(rows["monotonicity=down"]) == k * (k - 1) // 2
    assert all(cases(rows[f"insertion={p.label}"]) == 2 * (k - 1) for p in pairs)
    assert rows["overall"]["tests"] > 0.9 * cases(rows["overall"])  # continuous scores: few ties
    assert 0.0 <= result.probe_accuracy <= 1.0 and result.probe_train_accuracy >= result.probe_accuracy - 0.5
    assert len(result.cases) == 2 * k and set(result.cases["gold"]) == {"entailment", "neutral"}
    assert list(result.table3()["Mon."]) != [] and set(result.table4()["Lex. Rel."]) == {"⊇", "⊆", "none"}
    assert result.summary()["slice"].tolist() == ["overall", "monotonicity=up", "monotonicity=down"]


def test_the_runner_gives_the_rows_of_the_direct_test(named_dir: str) -> None:
    contexts, pairs = _tiny_material()
    model = nli_classifier(named_dir)
    direct = pairwise_compositionality(model, contexts=contexts, pairs=pairs, name="tiny", seed=3)
    data = compositions(contexts, pairs)
    results = mt.run(data, relations="pairwise-compositionality", models={"tiny": model}, seed=3, cache=None)
    assert len(results.frame) == 0  # an aggregated relation keeps counts, no row per composition
    assert results.aggregates.to_dict("records") == aggregate_frame(direct.rows).to_dict("records")
    overall = results.summary().set_index("relation").loc["pairwise-compositionality"]
    assert overall["violations"] == direct.rows[0]["violations"]


def test_a_model_without_hidden_states_is_refused_with_a_way_out(named_dir: str) -> None:
    classifier = nli_classifier(named_dir)
    contexts = [Context("There was no {x}.", "down", ("animal",))]
    pairs = [InsertionPair(_word("animal", "animals"), _word("dog", "dogs"), "⊇"),
             InsertionPair(_word("dog", "dogs"), _word("animal", "animals"), "⊆"),
             InsertionPair(_word("cat", "cats"), _word("dog", "dogs"), "none")]

    def black_box(x: NLIInput) -> dict[str, float]:  # one input at a time, scores only
        return dict(classifier.predict([x])[0].scores)

    with pytest.raises(MTError, match="hidden="):
        pairwise_compositionality(black_box, contexts=contexts, pairs=pairs)
    result = pairwise_compositionality(black_box, contexts=contexts, pairs=pairs, probe_held_out=0.0,
                                       hidden=lambda xs, spans: classifier.insertion_states(xs, spans))
    assert result.rows[0]["tests"] == 3

    def labels_only(x: NLIInput) -> str:
        return "neutral"

    with pytest.raises(MTError, match="no entailment score"):
        pairwise_compositionality(labels_only, contexts=contexts, pairs=pairs,
                                  hidden=lambda xs, spans: classifier.insertion_states(xs, spans))
