"""Hugging Face adapters against tiny models built and saved in a temporary directory.

Every model is loaded back by path, with the same code a user runs with a hub name, and
each adapter's prediction is compared with a hand-run of the same model on the text the
adapter should have built.
"""

from __future__ import annotations

import json
import os
import warnings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from mtwidgets.core.errors import InputError  # noqa: E402
from mtwidgets.core.inputs import TextInput, TextPairInput  # noqa: E402
from mtwidgets.core.predictions import Prediction  # noqa: E402
from mtwidgets.models.hf import HFPipelineModel  # noqa: E402
from mtwidgets.re.inputs import RelationInput  # noqa: E402
from mtwidgets.re.models.hf import EntityMarkerClassifier, LukeRelationClassifier  # noqa: E402

pytestmark = pytest.mark.slow

LABELS = ["no_relation", "per:city_of_birth", "per:parents", "per:cities_of_residence", "org:founded_by"]
ID2LABEL = dict(enumerate(LABELS))
LABEL2ID = {label: i for i, label in ID2LABEL.items()}

RELS = [
    RelationInput.parse("[[John|PERSON]] was born in <<Honolulu|CITY>>."),
    RelationInput.parse("<<Mary|PERSON>> is [[John|PERSON]]'s mother."),
    RelationInput.parse("[[Mary|PERSON]] lives in <<Honolulu|CITY>>, the city where John was born."),
    RelationInput.parse("<<John|PERSON>> founded [[Acme|ORGANIZATION]] in Honolulu."),
]
# The same inputs as the typed_punct markers must write them (checked by hand).
PUNCT = [
    "@ * person * John @ was born in # ^ city ^ Honolulu #.",
    "# ^ person ^ Mary # is @ * person * John @'s mother.",
    "@ * person * Mary @ lives in # ^ city ^ Honolulu #, the city where John was born.",
    "# ^ person ^ John # founded @ * organization * Acme @ in Honolulu.",
]
WORDS = (
    "@ * # ^ . , ' s [ ] : / e1 e2 person city organization entity john mary acme honolulu "
    "was born in is mother father lives the where founded a"
).split()


def _scores(pred: Prediction) -> dict[str, float]:
    return dict(pred.scores)


def _assert_same(pred: Prediction, expected: dict[str, float], tol: float = 1e-5) -> None:
    assert _scores(pred) == pytest.approx(expected, abs=tol)
    assert pred.label == max(expected, key=expected.__getitem__)


def _check_shape(preds: list[Prediction]) -> None:
    for pred in preds:
        assert set(_scores(pred)) == set(LABELS)
        assert sum(_scores(pred).values()) == pytest.approx(1.0, abs=1e-5)
        assert pred.label == pred.scores[0][0]


# -- a tiny BERT sequence classifier --------------------------------------------------------


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("tiny-bert")
    vocab_file = path / "vocab.txt"
    vocab_file.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    tokenizer = transformers.BertTokenizer(vocab=str(vocab_file))
    assert "[UNK]" not in tokenizer.tokenize(PUNCT[2] + " [E1:PERSON] [/E2]")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=64,
        initializer_range=0.3,
        id2label=ID2LABEL,
        label2id=LABEL2ID,
    )
    model = transformers.BertForSequenceClassification(config)
    tokenizer.save_pretrained(str(path))
    model.save_pretrained(str(path))
    return str(path)


@pytest.fixture(scope="module")
def bert_hand(bert_dir: str):  # type: ignore[no-untyped-def]
    """Run the saved model by hand on one text (or text pair)."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(bert_dir)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(bert_dir).eval()

    def run(text: str, pair: str | None = None) -> dict[str, float]:
        enc = tokenizer(text, pair, return_tensors="pt")
        with torch.no_grad():
            probs = model(**enc).logits.softmax(-1)[0].tolist()
        return {model.config.id2label[i]: p for i, p in enumerate(probs)}

    return run


def test_marker_classifier_equals_hand_run(bert_dir: str, bert_hand) -> None:  # type: ignore[no-untyped-def]
    clf = EntityMarkerClassifier(bert_dir)
    assert clf.labels == LABELS
    assert [clf.model_text(x) for x in RELS] == PUNCT
    preds = clf.predict(RELS)
    _check_shape(preds)
    for pred, text in zip(preds, PUNCT):
        _assert_same(pred, bert_hand(text))
    # the inputs matter: not every input gets the same scores
    assert len({tuple(round(v, 4) for _, v in p.scores) for p in preds}) > 1


def test_marker_classifier_batch_equals_one_by_one_and_is_deterministic(bert_dir: str) -> None:
    batched = EntityMarkerClassifier(bert_dir, batch_size=32).predict(RELS)
    single = EntityMarkerClassifier(bert_dir, batch_size=1).predict(RELS)
    again = EntityMarkerClassifier(bert_dir, batch_size=32).predict(RELS)
    for a, b, c in zip(batched, single, again):
        assert a.label == b.label == c.label
        assert _scores(a) == pytest.approx(_scores(b), abs=1e-5)
        assert a == c


def test_marker_classifier_reads_the_marker_format(bert_dir: str, bert_hand) -> None:  # type: ignore[no-untyped-def]
    clf = EntityMarkerClassifier(bert_dir, marker="typed_tokens")
    text = "[E1:PERSON] John [/E1] was born in [E2:CITY] Honolulu [/E2]."
    assert clf.model_text(RELS[0]) == text
    _assert_same(clf.predict(RELS[:1])[0], bert_hand(text))


def test_marker_classifier_text_and_pair_inputs(bert_dir: str, bert_hand) -> None:  # type: ignore[no-untyped-def]
    clf = EntityMarkerClassifier(bert_dir)
    single = TextInput("John was born in Honolulu.")
    pair = TextPairInput("John was born in Honolulu.", "Mary lives in Honolulu.")
    preds = clf.predict([pair, RELS[0], single])
    _assert_same(preds[0], bert_hand(pair.text_a, pair.text_b))
    _assert_same(preds[1], bert_hand(PUNCT[0]))
    _assert_same(preds[2], bert_hand(single.text))
    with pytest.raises(TypeError, match="RelationInput, TextInput or TextPairInput"):
        clf.predict(["John was born in Honolulu."])


def test_marker_classifier_adds_marker_tokens(bert_dir: str) -> None:
    with pytest.warns(UserWarning, match="untrained"):
        clf = EntityMarkerClassifier(bert_dir, marker="typed_tokens", add_marker_tokens=True)
    assert "[E1:PERSON]" in clf.added_tokens and "[/E2]" in clf.added_tokens
    assert clf.tokenizer.tokenize("[E1:PERSON] John [/E1]") == ["[E1:PERSON]", "john", "[/E1]"]
    assert clf.model.get_input_embeddings().weight.shape[0] == len(clf.tokenizer)
    preds = clf.predict(RELS)
    _check_shape(preds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = EntityMarkerClassifier(bert_dir, marker="typed_tokens", add_marker_tokens=True).predict(RELS)
    assert preds == again
    # typed_punct needs no new tokens
    assert EntityMarkerClassifier(bert_dir, add_marker_tokens=True).added_tokens == []


def test_marker_pooling_checks_truncation(bert_dir: str) -> None:
    cls = EntityMarkerClassifier(bert_dir).predict(RELS)
    markers = EntityMarkerClassifier(bert_dir, pooling="markers").predict(RELS)
    assert markers == cls
    late = RelationInput.parse(
        "John was born in the city where Mary lives, the city where " * 3
        + "[[Mary|PERSON]] founded <<Acme|ORGANIZATION>>."
    )
    short = EntityMarkerClassifier(bert_dir, pooling="markers", max_length=16)
    with pytest.raises(InputError, match="max_length=16"):
        short.predict([late])
    # the default pooling truncates silently, like any sequence classifier
    assert EntityMarkerClassifier(bert_dir, max_length=16).predict([late])[0].label in LABELS


def test_marker_classifier_bad_arguments(bert_dir: str) -> None:
    with pytest.raises(ValueError, match="pooling"):
        EntityMarkerClassifier(bert_dir, pooling="mean")
    with pytest.raises(InputError, match="marker"):
        EntityMarkerClassifier(bert_dir, marker="xml")


# -- pipelines ------------------------------------------------------------------------------


def test_pipeline_model_equals_hand_run(bert_dir: str, bert_hand) -> None:  # type: ignore[no-untyped-def]
    pipe = transformers.pipeline("text-classification", model=bert_dir, tokenizer=bert_dir)
    model = HFPipelineModel(pipe)
    assert [model.pipeline_input(x) for x in RELS] == PUNCT
    preds = model.predict(RELS)
    _check_shape(preds)
    for pred, text in zip(preds, PUNCT):
        _assert_same(pred, bert_hand(text))
    single = HFPipelineModel(pipe, batch_size=1).predict(RELS)
    for a, b in zip(preds, single):
        assert a.label == b.label
        assert _scores(a) == pytest.approx(_scores(b), abs=1e-5)
    assert HFPipelineModel(pipe).predict(RELS) == preds


def test_pipeline_model_from_task_name_and_text_inputs(bert_dir: str, bert_hand) -> None:  # type: ignore[no-untyped-def]
    model = HFPipelineModel("text-classification", bert_dir, marker="plain")
    assert model.name == bert_dir
    pair = TextPairInput("John was born in Honolulu.", "Mary lives in Honolulu.")
    assert model.pipeline_input(pair) == {"text": pair.text_a, "text_pair": pair.text_b}
    preds = model.predict([RELS[0], TextInput("Mary lives in Honolulu."), pair])
    _assert_same(preds[0], bert_hand("[E1] John [/E1] was born in [E2] Honolulu [/E2]."))
    _assert_same(preds[1], bert_hand("Mary lives in Honolulu."))
    _assert_same(preds[2], bert_hand(pair.text_a, pair.text_b))


def test_pipeline_model_top_k(bert_dir: str, bert_hand) -> None:  # type: ignore[no-untyped-def]
    model = HFPipelineModel("text-classification", bert_dir, top_k=2)
    pred = model.predict(RELS[:1])[0]
    expected = bert_hand(PUNCT[0])
    assert len(pred.scores) == 2
    assert pred.label == max(expected, key=expected.__getitem__)


def test_pipeline_model_needs_a_model_with_a_task_name() -> None:
    with pytest.raises(TypeError, match="model="):
        HFPipelineModel("text-classification")


# -- a tiny LUKE ----------------------------------------------------------------------------

LUKE_RELS = [
    RelationInput.parse("[[José|PERSON]] was born in <<Honolulu|CITY>>."),
    RelationInput.parse("<<Mary|PERSON>> is [[John|PERSON]]'s mother."),
    RelationInput.parse("[[Acme|ORGANIZATION]] was founded by <<John Smith|PERSON>> in 1990."),
]


@pytest.fixture(scope="module")
def luke_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    from tokenizers.pre_tokenizers import ByteLevel

    files = tmp_path_factory.mktemp("tiny-luke-files")
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>", "<ent>", "<ent2>"]
    merges = [("Ġ", "b"), ("Ġb", "o"), ("Ġbo", "r"), ("Ġbor", "n"), ("o", "h"), ("J", "oh")]
    alphabet = sorted(ByteLevel.alphabet())  # every byte-level character, so no text is unknown
    vocab = {tok: i for i, tok in enumerate([*specials, *alphabet, *("".join(m) for m in merges)])}
    (files / "vocab.json").write_text(json.dumps(vocab))
    (files / "merges.txt").write_text("#version: 0.2\n" + "\n".join(" ".join(m) for m in merges) + "\n")
    (files / "entity_vocab.json").write_text(json.dumps({"[PAD]": 0, "[UNK]": 1, "[MASK]": 2, "[MASK2]": 3}))
    tokenizer = transformers.LukeTokenizer.from_pretrained(str(files), task="entity_pair_classification")
    assert tokenizer.convert_ids_to_tokens(
        tokenizer("John was born", entity_spans=[(0, 4), (9, 13)])["input_ids"]
    ) == ["<s>", "<ent>", "Joh", "n", "<ent>", "Ġ", "w", "a", "s", "<ent2>", "Ġborn", "<ent2>", "</s>"]

    torch.manual_seed(0)
    config = transformers.LukeConfig(
        vocab_size=len(tokenizer),
        entity_vocab_size=4,
        hidden_size=32,
        entity_emb_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=128,
        initializer_range=0.3,
        id2label=ID2LABEL,
        label2id=LABEL2ID,
    )
    model = transformers.LukeForEntityPairClassification(config)
    path = tmp_path_factory.mktemp("tiny-luke")
    tokenizer.save_pretrained(str(path))
    model.save_pretrained(str(path))
    return str(path)


@pytest.fixture(scope="module")
def luke_hand(luke_dir: str):  # type: ignore[no-untyped-def]
    tokenizer = transformers.LukeTokenizer.from_pretrained(luke_dir, task="entity_pair_classification")
    model = transformers.LukeForEntityPairClassification.from_pretrained(luke_dir).eval()

    def run(text: str, first: tuple[int, int], second: tuple[int, int]) -> dict[str, float]:
        enc = tokenizer(text, entity_spans=[first, second], return_tensors="pt")
        with torch.no_grad():
            probs = model(**enc).logits.softmax(-1)[0].tolist()
        return {model.config.id2label[i]: p for i, p in enumerate(probs)}

    return run


def test_luke_equals_hand_run(luke_dir: str, luke_hand) -> None:  # type: ignore[no-untyped-def]
    clf = LukeRelationClassifier(luke_dir)
    assert clf.labels == LABELS
    preds = clf.predict(LUKE_RELS)
    _check_shape(preds)
    for pred, x in zip(preds, LUKE_RELS):
        head, tail = (x.head.start, x.head.end), (x.tail.start, x.tail.end)
        expected = luke_hand(x.text, head, tail)
        _assert_same(pred, expected)
        # the head goes first: the swapped pair is a different question with other scores
        swapped = luke_hand(x.text, tail, head)
        assert _scores(pred) != pytest.approx(swapped, abs=1e-4)


def test_luke_batch_equals_one_by_one_and_is_deterministic(luke_dir: str) -> None:
    batched = LukeRelationClassifier(luke_dir).predict(LUKE_RELS)
    single = LukeRelationClassifier(luke_dir, batch_size=1).predict(LUKE_RELS)
    again = LukeRelationClassifier(luke_dir).predict(LUKE_RELS)
    for a, b, c in zip(batched, single, again):
        assert a.label == b.label == c.label
        assert _scores(a) == pytest.approx(_scores(b), abs=1e-5)
        assert a == c


def test_luke_rejects_other_inputs(luke_dir: str) -> None:
    with pytest.raises(TypeError, match="RelationInput"):
        LukeRelationClassifier(luke_dir).predict([TextInput("John was born in Honolulu.")])
