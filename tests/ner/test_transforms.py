"""Token, phrase and shuffle transformations on hand-checked sentences.

A dictionary word source keeps the expected follow-ups exact; one test runs the real
offline source (the md pipeline's vectors).
"""

from __future__ import annotations

import random

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput
from mtwidgets.ner.transforms import ShuffleEntities, SimilarPhrase, SimilarToken, inflect
from mtwidgets.ner.transforms_base import apply_edits, map_span


class DictWords:
    """Similar words from a table; records what it was asked."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.asked: list[tuple[str, str, str]] = []

    def similar(self, word: str, pos: str, context: str, k: int) -> list[tuple[str, float]]:
        self.asked.append((word, pos, context))
        return [(w, 1.0 - i / 10) for i, w in enumerate(self.table.get(word.lower(), []))][:k]


def _texts(transformation: object, x: NERInput) -> list[str]:
    return [d.followups[0].text for slot in transformation.candidates([x]) for d in slot]  # type: ignore[attr-defined]


def _aligned(x: NERInput, draft: object) -> None:
    fu = draft.followups[0]  # type: ignore[attr-defined]
    for a, b, c, d in draft.meta["alignment"]:  # type: ignore[attr-defined]
        assert x.text[a:b] == fu.text[c:d]


# -- inflection ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lemma", "tag", "form"),
    [("cry", "VBD", "cried"), ("cry", "VBZ", "cries"), ("stop", "VBD", "stopped"), ("stop", "VBG", "stopping"),
     ("make", "VBG", "making"), ("die", "VBG", "dying"), ("go", "VBZ", "goes"), ("go", "VBN", "gone"),
     ("visit", "VBD", "visited"), ("attend", "VBZ", "attends"), ("watch", "VBZ", "watches"),
     ("see", "VBG", "seeing"), ("write", "VBN", "written"), ("city", "NNS", "cities"), ("man", "NNS", "men"),
     ("box", "NNS", "boxes"), ("happy", "JJ", "happy"), ("big", "JJR", None), ("expel", "VBD", "expelled"),
     ("admit", "VBG", "admitting"), ("visit", "VBG", "visiting"), ("open", "VBD", "opened"),
     ("appeal", "VBD", "appealed")],
)  # fmt: skip
def test_inflect(lemma: str, tag: str, form: str | None) -> None:
    assert inflect(lemma, tag) == form


# -- edits and alignment -------------------------------------------------------------------


def test_apply_edits_alignment_and_map_span() -> None:
    text = "He has faced floods."
    new, alignment = apply_edits(text, [(0, 0, "Has "), (0, 1, "h"), (2, 6, ""), (19, 20, "?")])
    assert new == "Has he faced floods?"
    assert alignment == ((1, 2, 5, 6), (6, 19, 6, 19))
    assert map_span(Span(13, 19, "X"), alignment) == Span(13, 19, "X")
    assert map_span(Span(0, 2), alignment) is None
    with pytest.raises(InputError, match="overlaps"):
        apply_edits(text, [(0, 5, "a"), (3, 8, "b")])


# -- token level -----------------------------------------------------------------------------


def test_similar_token_replaces_verbs_and_adjectives_outside_entities_inflected() -> None:
    words = DictWords({"visited": ["travel", "attend"], "beautiful": ["lovely"], "paris": ["london"]})
    x = NERInput("Obama visited Paris and praised the beautiful city.", [(0, 5, "PERSON"), (14, 19, "GPE")])
    drafts = [d for slot in SimilarToken(words, check_tag=False).candidates([x]) for d in slot]
    texts = [d.followups[0].text for d in drafts]
    assert "Obama attended Paris and praised the beautiful city." in texts  # VBD kept
    assert "Obama travelled Paris and praised the beautiful city." in texts  # British doubling
    assert "Obama visited Paris and praised the lovely city." in texts
    assert not any("London" in t or "london" in t for t in texts)  # entities never asked/edited
    assert {w for w, _, _ in words.asked} == {"visited", "praised", "beautiful"}
    assert ("visited", "VERB", "Obama [MASK] Paris and praised the beautiful city.") in words.asked
    for d in drafts:
        _aligned(x, d)
        fu = d.followups[0]
        assert [(fu.mention(s), s.label) for s in fu.gold] == [("Obama", "PERSON"), ("Paris", "GPE")]
        assert d.meta["kind"] == "token" and d.meta["original"] in ("visited", "beautiful")


def test_similar_token_tag_check_drops_words_parsed_differently() -> None:
    # "the" cannot be tagged JJ in "the the city": the in-context check removes it
    words = DictWords({"beautiful": ["the", "lovely"]})
    x = NERInput("Obama praised the beautiful city.")
    checked = _texts(SimilarToken(words), x)
    assert checked == ["Obama praised the lovely city."]
    assert "Obama praised the the city." in _texts(SimilarToken(words, check_tag=False), x)


def test_similar_token_no_candidates_is_no_followup_and_sampling_is_seeded() -> None:
    x = NERInput("Obama praised the beautiful city.")
    assert SimilarToken(DictWords({}))([x], random.Random(0)) == []
    words = DictWords({"beautiful": ["lovely", "pretty", "gorgeous"], "praised": ["hail", "laud"]})
    t = SimilarToken(words, per_slot=1, check_tag=False)
    a = [d.followups[0].text for d in t([x], random.Random(3))]
    b = [d.followups[0].text for d in t([x], random.Random(3))]
    assert a == b and len(a) == 2  # one follow-up per replaced word


def test_similar_token_keeps_sentence_initial_capital() -> None:
    words = DictWords({"strong": ["heavy"]})
    x = NERInput("Strong winds hit Florida.")
    assert _texts(SimilarToken(words, check_tag=False), x) == ["Heavy winds hit Florida."]


def test_similar_token_rejects_a_bad_source() -> None:
    with pytest.raises(TypeError, match="similar"):
        SimilarToken(object()).source  # noqa: B018


def test_similar_token_with_the_offline_vectors() -> None:
    from mtwidgets.lang.vectors import VectorSimilarWords

    x = NERInput("Apple reported strong profits in Texas.", [(0, 5, "ORG"), (33, 38, "GPE")])
    drafts = [d for slot in SimilarToken(VectorSimilarWords(), k=3).candidates([x]) for d in slot]
    assert drafts, "the vectors find similar verbs/adjectives for 'reported'/'strong'"
    for d in drafts:
        fu = d.followups[0]
        assert fu.text != x.text
        assert [fu.mention(s) for s in fu.gold] == ["Apple", "Texas"]
        assert d.meta["original"] in ("reported", "strong")
        _aligned(x, d)


# -- phrase level ----------------------------------------------------------------------------


def test_similar_phrase_replaces_the_head_noun_and_fixes_the_article() -> None:
    words = DictWords({"care": ["treatment", "aid"], "office": ["embassy"], "city": ["town"]})
    text = "Google opened an office and a city offered care in Texas."
    x = NERInput(text, [(0, 6, "ORG"), (text.index("Texas"), text.index("Texas") + 5, "GPE")])
    texts = _texts(SimilarPhrase(words, check_tag=False), x)
    assert "Google opened an embassy and a city offered care in Texas." in texts
    assert "Google opened an office and a town offered care in Texas." in texts
    assert "Google opened an office and a city offered treatment in Texas." in texts
    # "an" before a consonant would be wrong: the article follows the new head
    words2 = DictWords({"office": ["building"]})
    assert _texts(SimilarPhrase(words2, check_tag=False), x) == [
        "Google opened a building and a city offered care in Texas."
    ]


def test_similar_phrase_skips_noun_phrases_holding_an_entity_and_pronouns() -> None:
    words = DictWords({"president": ["leader"], "he": ["she"]})
    x = NERInput("He met the French president.")
    # "the French president" holds the NORP entity "French": not a minimal entity-free NP
    assert _texts(SimilarPhrase(words, check_tag=False), x) == []


def test_similar_phrase_keeps_number() -> None:
    words = DictWords({"profits": ["revenue"]})
    x = NERInput("Apple reported strong profits.")
    assert _texts(SimilarPhrase(words), x) == ["Apple reported strong revenues."]


# -- shuffle ---------------------------------------------------------------------------------


SHUFFLE_TEXT = "Apple and Microsoft beat Ed Sheeran and Taylor Swift."


def _gold(text: str, *pairs: tuple[str, str]) -> list[Span]:
    return [Span(text.index(m), text.index(m) + len(m), label) for m, label in pairs]


def test_shuffle_permutes_within_categories_with_permutation_meta() -> None:
    x = NERInput(
        SHUFFLE_TEXT,
        _gold(
            SHUFFLE_TEXT,
            ("Apple", "ORG"),
            ("Microsoft", "ORG"),
            ("Ed Sheeran", "PERSON"),
            ("Taylor Swift", "PERSON"),
        ),
    )
    (slot,) = ShuffleEntities().candidates([x])
    texts = {d.followups[0].text for d in slot}
    assert texts == {
        "Microsoft and Apple beat Ed Sheeran and Taylor Swift.",
        "Apple and Microsoft beat Taylor Swift and Ed Sheeran.",
        "Microsoft and Apple beat Taylor Swift and Ed Sheeran.",
    }
    for d in slot:
        fu = d.followups[0]
        _aligned(x, d)
        for s0, s1, f0, f1, label in d.meta["permutation"]:
            assert x.text[s0:s1] == fu.text[f0:f1]
            assert any(g == Span(f0, f1, label) for g in fu.gold)  # gold moves with its mention
        assert sorted(fu.mention(g) for g in fu.gold) == sorted(x.mention(g) for g in x.gold)


def test_shuffle_needs_two_distinct_mentions_of_one_category() -> None:
    assert ShuffleEntities()([NERInput("Obama visited Paris.")], random.Random(0)) == []


def test_shuffle_of_gold_entities() -> None:
    # the reference NER calls Deezer a PERSON; with entities="gold" the gold ORGs are shuffled
    text = "Spotify and Deezer beat Ed Sheeran."
    x = NERInput(text, _gold(text, ("Spotify", "ORG"), ("Deezer", "ORG"), ("Ed Sheeran", "PERSON")))
    assert _texts(ShuffleEntities(), x) == ["Spotify and Ed Sheeran beat Deezer."]
    assert _texts(ShuffleEntities(entities="gold"), x) == ["Deezer and Spotify beat Ed Sheeran."]
    with pytest.raises(ValueError, match="'reference' or 'gold'"):
        ShuffleEntities(entities="model")


def test_shuffle_sampling_is_seeded_and_per_slot() -> None:
    x = NERInput(SHUFFLE_TEXT)
    a = ShuffleEntities()([x], random.Random(7))
    b = ShuffleEntities()([x], random.Random(7))
    assert len(a) == 1 and a[0].followups == b[0].followups
    assert len(ShuffleEntities(per_slot=None)([x], random.Random(0))) == 3


# -- similar-word sources ------------------------------------------------------------------


def test_vector_source_returns_common_lemmas_without_the_word_own_forms() -> None:
    from mtwidgets.lang.vectors import VectorSimilarWords

    found = VectorSimilarWords().similar("visited", "VERB", "", 8)
    words = [w for w, _ in found]
    assert len(words) == 8 and len(set(words)) == 8
    assert not any(w.startswith("visit") for w in words)  # no "visit", "visiting", "visitor"
    assert "travel" in words or "attend" in words
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    assert VectorSimilarWords().similar("qzxv", "NOUN", "", 5) == []  # no vector: nothing


def test_wordnet_source_needs_its_data_and_the_default_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from mtwidgets.lang import vectors as similar

    monkeypatch.setattr(similar, "wordnet_available", lambda: False)
    with pytest.raises(ImportError, match="WordNet data not found.*VectorSimilarWords"):
        similar.WordNetSimilarWords()
    assert isinstance(similar.default_similar_words(), similar.VectorSimilarWords)
