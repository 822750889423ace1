"""The lexical task's word-pair input, its predictions, its registration and its relations."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import mtwidgets as mt
from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import input_from_dict
from mtwidgets.core.model import CallableModel
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.task import task_names
from mtwidgets.lexical.inputs import (
    WordPairInput,
    detect,
    pair_prediction,
    relation_flags,
    word_pair_from_row,
)
from mtwidgets.lexical.task import TASK


@pytest.fixture
def lexical_task() -> Iterator[None]:
    """The lexical task registered for one test (the entry point is added with the package)."""
    registered = TASK.name in task_names()
    mt.register_task(TASK, replace=True)
    yield
    if not registered:
        mt.unregister_task(TASK.name)


def test_a_word_pair_keeps_its_order_language_and_gold_kind() -> None:
    x = WordPairInput(" dog ", "animal", kind="Hypernym")
    assert (x.w1, x.w2, x.lang, x.kind) == ("dog", "animal", "en", "hypernym")
    assert x.display() == "dog → animal" and x.model_text() == ("dog", "animal")
    assert WordPairInput("狗", "动物").lang == "zh"
    assert WordPairInput("Hund", "Tier", "de").lang == "de"
    assert WordPairInput("well-being", "o'clock").w1 == "well-being"
    # the gold kind is not part of what a model sees
    assert x.key() == WordPairInput("dog", "animal").key() != WordPairInput("animal", "dog").key()
    assert input_from_dict(x.to_dict()) == x


@pytest.mark.parametrize(
    ("w1", "w2", "lang", "message"),
    [
        ("", "dog", "", "w1 is empty"),
        ("   ", "dog", "", "w1 is empty"),
        ("dog", "hot dog", "", "space at position 3"),
        ("dog", "hot\u00a0dog", "", "space"),
        ("dog", "new\nline", "", "space"),
        ("dog!", "cat", "", "character '!'"),
        ("dog", "a_b", "", "character '_'"),
        ("123", "cat", "", "no letter"),
        ("dog", "-", "", "no letter"),
        (None, "cat", "", "must be a string"),
        ("dog", 3, "", "must be a string"),
        ("dog", "cat", "fr", "lang must be one of"),
        ("dog", "cat", 1, "lang must be one of"),
        ("dog", "动物", "en", "written in Chinese characters"),
        ("dog", "cat", "zh", "not written in Chinese characters"),
        ("dog", "x" * 65, "", "at most 64"),
        ("dog", "ca\ud800t", "", "lone surrogate"),
    ],
)
def test_bad_word_pairs_are_refused_with_the_reason(w1: object, w2: object, lang: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        WordPairInput(w1, w2, lang)  # type: ignore[arg-type]


def test_a_bad_gold_kind_is_refused() -> None:
    with pytest.raises(InputError, match="gold kind"):
        WordPairInput("dog", "cat", kind="friend")


def test_parse_and_rows() -> None:
    for text in ("dog -> animal", "dog, animal", "dog | animal", "dog animal", "dog\tanimal"):
        assert WordPairInput.parse(text) == WordPairInput("dog", "animal")
    assert WordPairInput.parse("美丽 漂亮").lang == "zh"
    for text in ("dog", "a b c", "", "dog ->"):
        with pytest.raises(InputError, match="two words"):
            WordPairInput.parse(text)
    row = {"word1": "car", "word2": "vehicle", "lang": float("nan"), "kind": "hypernym"}
    assert word_pair_from_row(row) == WordPairInput("car", "vehicle", "en", "hypernym")
    with pytest.raises(InputError, match="second word"):
        word_pair_from_row({"w1": "car"})
    assert detect({"w1", "w2"}) and detect({"hyponym", "hypernym"}) and not detect({"text", "w1"})


def test_predictions_carry_one_flag_and_score_per_relation() -> None:
    p = pair_prediction({"synonym": 0.9, "hypernym": 0.2})
    assert p.label == "synonym" and dict(p.scores) == {"synonym": 0.9, "hypernym": 0.2}
    assert relation_flags(p) == {"synonym": True, "hypernym": False}
    both = pair_prediction({"synonym": 0.6, "hypernym": 0.7})
    assert both.label == "synonym+hypernym" and relation_flags(both) == {"synonym": True, "hypernym": True}
    assert pair_prediction({"synonym": 0.6, "hypernym": 0.7}, {"synonym": 0.8}).label == "hypernym"
    assert relation_flags(pair_prediction({"synonym": 0.1, "hypernym": 0.1})) == {"synonym": False, "hypernym": False}
    with pytest.raises(InputError, match="needs a score for hypernym"):
        pair_prediction({"synonym": 0.3})
    with pytest.raises(InputError, match="antonym"):
        relation_flags(Prediction(label="antonym"))
    with pytest.raises(InputError, match="needs a label"):
        relation_flags(Prediction(value=0.3))


def test_the_task_registers_with_its_relations_and_sample(lexical_task: None) -> None:
    task = mt.get_task("lexical")
    assert task.input_class is WordPairInput and task.prediction == "label"
    assert task.input_from_text("car -> vehicle") == WordPairInput("car", "vehicle")
    assert {m.name for m in task.models} == {"lexical-spacy-vectors", "lexical-minilm"}
    names = list(mt.catalogue("lexical")["name"])
    assert names == ["transitivity-syn", "transitivity-hyp"]
    sample = task.part("sample")()
    assert all(isinstance(x, WordPairInput) for x in sample) and {x.lang for x in sample} == {"en", "zh"}


def _fake(flags: dict[tuple[str, str], str]):  # type: ignore[no-untyped-def]
    """A model answering the given labels for the listed pairs and 'none' otherwise."""

    def predict(inputs: list[WordPairInput]) -> list[Prediction]:
        out = []
        for x in inputs:
            label = flags.get((x.w1, x.w2), "none")
            scores = {"synonym": 0.9 if "synonym" in label else 0.1, "hypernym": 0.9 if "hypernym" in label else 0.1}
            out.append(pair_prediction(scores))
        return out

    return predict


def test_the_relations_count_every_triplet_of_the_predicted_pairs(lexical_task: None) -> None:
    data = [
        WordPairInput("puppy", "dog"),
        WordPairInput("dog", "animal"),
        WordPairInput("dog", "canine"),
        WordPairInput("sparrow", "bird"),
        WordPairInput("狗", "动物"),
    ]
    truth = {("puppy", "dog"): "hypernym", ("dog", "animal"): "hypernym", ("dog", "canine"): "hypernym",
             ("puppy", "animal"): "hypernym", ("puppy", "canine"): "synonym"}
    seen: list[WordPairInput] = []

    def predict(inputs: list[WordPairInput]) -> list[Prediction]:
        seen.extend(inputs)
        return _fake(truth)(inputs)

    model = CallableModel(predict, name="fake", batched=True, task="lexical")
    results = mt.run(data, relations=["transitivity-hyp", "transitivity-syn"], models={"fake": model}, cache=None)
    # the closing pairs of the two chains were added and predicted once for both relations
    assert sorted(x.display() for x in seen) == sorted([*(x.display() for x in data), "puppy → animal", "puppy → canine"])
    agg = results.aggregates.set_index(["relation", "slice"])
    hyp = agg.loc[("transitivity-hyp", "language=en")]
    # (puppy, dog, animal) holds; (puppy, dog, canine): canine is predicted a synonym only
    assert (hyp["tests"], hyp["satisfied"], hyp["violations"], hyp["errors"]) == (2, 1, 1, 0)
    assert hyp["tests"] + hyp["not_applicable"] == 6 * 5 * 4  # six English words
    (violation,) = [e for e in hyp["examples"] if e["verdict"] == "violation"]
    assert violation["words"] == ["puppy", "dog", "canine"]
    assert agg.loc[("transitivity-hyp", "overall")]["violations"] == 1
    assert agg.loc[("transitivity-hyp", "language=zh")]["tests"] == 0
    assert agg.loc[("transitivity-syn", "overall")]["tests"] == 0
    # two chained pairs given as the sources make one triplet group directly
    rel = mt.relation("transitivity-syn")
    (group,) = rel.generate((WordPairInput("car", "automobile"), WordPairInput("automobile", "auto")))
    assert group.followups == (WordPairInput("car", "auto"),)
    (refused,) = rel.generate((WordPairInput("car", "auto"), WordPairInput("automobile", "car")))
    assert refused.not_applicable and "does not start" in refused.not_applicable
    with pytest.raises(InputError, match="options"):
        mt.relation("transitivity-syn", ties="skip")


def test_all_pairs_of_a_word_sample() -> None:
    from mtwidgets.lexical.relations import all_pairs

    pairs = all_pairs(["dog", "cat", "animal"])
    assert len(pairs) == 6 and WordPairInput("cat", "dog") in pairs
    with pytest.raises(InputError, match="distinct"):
        all_pairs(["dog", "dog"])
    with pytest.raises(InputError, match="space"):
        all_pairs(["dog", "hot dog"])
