"""The fill-mask adapter on a tiny BERT masked LM the test builds (never a hub model)."""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from mtwidgets.lang.fill_mask import MASK, FillMask  # noqa: E402
from mtwidgets.lang.vectors import FillMaskSimilarWords  # noqa: E402
from mtwidgets.ner import NERInput  # noqa: E402
from mtwidgets.ner.transforms import SimilarToken  # noqa: E402

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[BLANK]"]
WORDS = ["he", "she", "visited", "saw", "praised", "paris", "the", "city", "beautiful", "lovely", "old",
         "obama", "and", ".", "##s", "##ed", "1999",
         # "yearly" and its reviewed substitute "annual" (mtwidgets/lang/data/synonyms_en.tsv);
         # "regular", "huge", "vast" are words that are no substitute of it; "thankful" has
         # "grateful", which the vocabulary lacks
         "bought", "huge", "vast", "immense", "big", "large", "house", "in", "yearly", "annual",
         "regular", "festival", "thankful", "crowds", "at", "a"]  # fmt: skip


@pytest.fixture(scope="module")
def mlm_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("tiny-mlm")
    (path / "vocab.txt").write_text("\n".join([*SPECIAL, *WORDS]) + "\n")
    # a mask token other than "[MASK]": FillMask must put the tokenizer's own in place
    tokenizer = transformers.BertTokenizer(vocab=str(path / "vocab.txt"), mask_token="[BLANK]")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=37, max_position_embeddings=64, initializer_range=0.5,
    )  # fmt: skip
    model = transformers.BertForMaskedLM(config)
    tokenizer.save_pretrained(str(path))
    model.save_pretrained(str(path))
    return str(path)


def _hand(mlm_dir: str, text: str, k: int, score: str = "prob") -> list[tuple[str, float]]:
    tokenizer = transformers.AutoTokenizer.from_pretrained(mlm_dir)
    model = transformers.AutoModelForMaskedLM.from_pretrained(mlm_dir).eval()
    enc = tokenizer(text.replace(MASK, "[BLANK]"), return_tensors="pt")
    where = enc["input_ids"][0].tolist().index(tokenizer.mask_token_id)
    with torch.no_grad():
        logits = model(**enc).logits[0, where]
    values = logits.softmax(-1) if score == "prob" else logits
    ranked = sorted(
        ((tokenizer.convert_ids_to_tokens(i), float(values[i])) for i in range(len(tokenizer))),
        key=lambda t: -t[1],
    )
    return [(t, v) for t, v in ranked if t in WORDS and not t.startswith("##")][:k]


TEXT = f"Obama {MASK} Paris."


@pytest.mark.parametrize("score", ["prob", "logit"])
def test_fill_equals_a_hand_run_of_the_model(mlm_dir: str, score: str) -> None:
    fm = FillMask(mlm_dir, top_k=4, score=score)  # type: ignore[arg-type]
    (answers,) = fm.fill([TEXT])
    expected = _hand(mlm_dir, TEXT, 4, score)
    assert [w for w, _ in answers] == [w for w, _ in expected]
    assert [v for _, v in answers] == pytest.approx([v for _, v in expected], abs=1e-5)


def test_fill_skips_pieces_and_special_tokens_and_batches_consistently(mlm_dir: str) -> None:
    fm = FillMask(mlm_dir, top_k=len(WORDS), batch_size=2)
    texts = [TEXT, f"She {MASK} the old city.", f"{MASK} visited Paris and the lovely city."]
    together = fm.fill(texts)
    one_by_one = [fm.fill([t])[0] for t in texts]
    for a, b in zip(together, one_by_one):
        assert [w for w, _ in a] == [w for w, _ in b]
        assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-5)
    for answers in together:
        words = [w for w, _ in answers]
        assert len(words) == len(WORDS) - 2  # every whole word, no "##s"/"##ed", no specials
        assert not any(w.startswith("##") or w in SPECIAL for w in words)
        scores = [s for _, s in answers]
        assert scores == sorted(scores, reverse=True) and 0 < sum(scores) <= 1.0


@pytest.mark.parametrize("bad", ["no blank here", f"two {MASK} blanks {MASK}"])
def test_fill_needs_exactly_one_mask(mlm_dir: str, bad: str) -> None:
    with pytest.raises(ValueError, match=r"exactly one '\[MASK\]'"):
        FillMask(mlm_dir).fill([bad])


def test_bad_arguments(mlm_dir: str) -> None:
    with pytest.raises(ValueError, match="top_k"):
        FillMask(mlm_dir, top_k=0)
    with pytest.raises(ValueError, match="score"):
        FillMask(mlm_dir, score="rank")  # type: ignore[arg-type]


def test_fill_mask_as_similar_word_source(mlm_dir: str) -> None:
    fm = FillMask(mlm_dir, top_k=len(WORDS))
    source = FillMaskSimilarWords(fm)
    found = source.similar("visited", "VERB", TEXT, k=5)
    assert len(found) == 5 and all(w.isalpha() and w != "visited" for w, _ in found)
    assert found == [(w, s) for w, s in fm.fill([TEXT])[0] if w.isalpha() and w != "visited"][:5]
    with pytest.raises(ValueError, match="exactly one"):
        source.similar("visited", "VERB", "Obama visited Paris.", k=5)
    with pytest.raises(TypeError, match="FillMask"):
        FillMaskSimilarWords(object())


def test_similar_token_takes_a_fill_mask_as_a_ranking_of_checked_synonyms(mlm_dir: str) -> None:
    """A FillMask plugs into SimilarToken, but only as a ranking: the follow-ups are the
    reviewed lexicon's substitutes among its answers, in its order. A word it proposes that
    is no reviewed substitute never becomes a follow-up, and a substitute it cannot propose
    is not added either."""
    from mtwidgets.lang.pipelines import parse
    from mtwidgets.lang.synonyms_en import vetted_synonyms

    fm = FillMask(mlm_dir, top_k=len(WORDS))
    text = "In Paris, Obama saw thankful crowds at a yearly festival."
    x = NERInput(text, [(3, 8, "GPE"), (10, 15, "PERSON")])
    t = SimilarToken(fm, k=20, check_tag=False, per_slot=None)
    drafts = t([x], random.Random(0))
    assert [d.followups[0].text for d in drafts] == [
        "In Paris, Obama saw thankful crowds at an annual festival."
    ]
    for d in drafts:
        fu = d.followups[0]
        assert [fu.mention(s) for s in fu.gold] == ["Paris", "Obama"]
        # "saw" has no reviewed substitute; "thankful" has one the fill-mask cannot propose
        assert d.meta["original"] == "yearly"
    assert vetted_synonyms("yearly", "ADJ") == ("annual",)
    assert vetted_synonyms("thankful", "ADJ") == ("grateful",)
    (answers,) = fm.fill([f"In Paris, Obama saw thankful crowds at a {MASK} festival."])
    proposed = [w for w, _ in answers if w != "yearly"]
    unchecked = {"regular", "huge", "vast", "old"}
    assert unchecked <= set(proposed)  # words it offers that are no substitute of "yearly"
    # the substitutes tried are exactly the reviewed ones among the fill-mask's answers
    doc = parse(x.text)
    for original, expected in (("yearly", ["annual"]), ("thankful", [])):
        word = next(tok for tok in doc if tok.text == original)
        ranked = list(t._ordered(x, word, word.idx, word.idx + len(word.text), "ADJ"))
        assert ranked == [w for w in proposed if w in vetted_synonyms(original, "ADJ")] == expected
    replaced = [d.meta["replacement"] for d in drafts]
    assert not set(replaced) & unchecked
    # without a ranking source the same transformation tries the substitute the fill-mask
    # lacks: the source narrowed the choice, it added nothing
    plain = {
        d.meta["replacement"]
        for d in SimilarToken(k=20, check_tag=False, per_slot=None)([x], random.Random(0))
    }
    assert set(replaced) < plain == {"annual", "grateful"}
