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
         # "huge" and its same-sense synonyms "vast"/"immense" (WordNet); "big"/"large" are
         # near words that are no synonym of its sense; "bought" has "purchased", which the
         # vocabulary lacks
         "bought", "huge", "vast", "immense", "big", "large", "house", "in"]  # fmt: skip


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
    same-sense WordNet synonyms among its answers, in its order. A word it proposes that
    is no checked synonym never becomes a follow-up, and a synonym it cannot propose is not
    added either."""
    from mtwidgets.lang.pipelines import parse
    from mtwidgets.lang.wordnet import sense_synonyms

    fm = FillMask(mlm_dir, top_k=len(WORDS))
    x = NERInput("In Paris, Obama saw a beautiful house.", [(3, 8, "GPE"), (10, 15, "PERSON")])
    t = SimilarToken(fm, k=20, check_tag=False, per_slot=None)
    drafts = t([x], random.Random(0))
    assert drafts
    for d in drafts:
        fu = d.followups[0]
        assert fu.text.startswith("In Paris, Obama saw a ") and fu.text.endswith(" house.")
        assert [fu.mention(s) for s in fu.gold] == ["Paris", "Obama"]
        # "saw" has no same-sense synonym that fits its use
        assert d.meta["original"] == "beautiful"
    # the checked synonyms of "beautiful", WordNet's order; the vocabulary holds only "lovely"
    synonyms = [s.word for s in sense_synonyms("beautiful", "ADJ")]
    assert "lovely" in synonyms and len(synonyms) > 1
    (answers,) = fm.fill([f"In Paris, Obama saw a {MASK} house."])
    proposed = [w for w, _ in answers if w != "beautiful"]
    unchecked = {"huge", "vast", "old"}
    assert unchecked <= set(proposed)  # words it offers that are no synonym of "beautiful"
    # the substitutes tried are exactly the checked synonyms, in the fill-mask's order, not WordNet's
    word = next(tok for tok in parse(x.text) if tok.text == "beautiful")
    ranked = [w for w, _ in t._ordered(x, word, word.idx, word.idx + len(word.text), "ADJ")]
    assert ranked == [w for w in proposed if w in synonyms] == ["lovely"]
    assert ranked != synonyms
    replaced = [d.meta["replacement"] for d in drafts]
    assert set(replaced) <= set(synonyms) and not set(replaced) & unchecked
    # without a ranking source the same transformation may try synonyms the fill-mask
    # lacks: the source narrowed the choice, it added nothing
    plain = {
        d.meta["replacement"]
        for d in SimilarToken(k=20, check_tag=False, per_slot=None)([x], random.Random(0))
    }
    assert set(replaced) <= plain <= set(synonyms)


def test_a_fill_mask_with_no_checked_synonym_gives_no_follow_up(mlm_dir: str) -> None:
    """The word "visited" has no same-sense synonym: the fill-mask's "saw" and
    "praised" (which a free word list would have taken) are refused and the input is not
    applicable."""
    fm = FillMask(mlm_dir, top_k=len(WORDS))
    x = NERInput("Obama visited Paris.", [(0, 5, "PERSON"), (14, 19, "GPE")])
    (answers,) = fm.fill([TEXT])
    assert {"saw", "praised"} <= {w for w, _ in answers}
    assert SimilarToken(fm, k=20, check_tag=False, per_slot=None)([x], random.Random(0)) == []
