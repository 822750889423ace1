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
# Substitutes come only from the reviewed lexicon (mtwidgets/lang/data/synonyms_en.tsv, pairs
# kept after reading); a ranking source only orders those that pass. Earlier expectations such
# as "Obama travelled Paris" (a frame-breaking substitute from a free word list) are invalid
# follow-ups and gone.


def test_similar_token_replaces_verbs_and_adjectives_outside_entities_inflected() -> None:
    x = NERInput(
        "Apple helped the city and began a yearly review in Texas.", [(0, 5, "ORG"), (51, 56, "GPE")]
    )
    drafts = [d for slot in SimilarToken().candidates([x]) for d in slot]
    texts = [d.followups[0].text for d in drafts]
    # the verb in its tense ("began" -> "started"), the adjective with its article ("an annual")
    assert "Apple helped the city and started a yearly review in Texas." in texts
    assert "Apple helped the city and began an annual review in Texas." in texts
    assert not any("assisted" in t or "aided" in t for t in texts)  # "help": no reviewed substitute
    for d in drafts:
        _aligned(x, d)
        fu = d.followups[0]
        assert [(fu.mention(s), s.label) for s in fu.gold] == [("Apple", "ORG"), ("Texas", "GPE")]
        assert d.meta["kind"] == "token" and d.meta["original"] in ("began", "yearly")


def test_similar_token_source_only_ranks_what_passes_the_checks() -> None:
    # "travel"/"attend" are vector neighbours of "visited", not reviewed substitutes
    # ("Obama travelled Paris" breaks the frame), nor is "regular" one of "yearly":
    # a source never adds words
    words = DictWords({"yearly": ["regular", "annual"], "visited": ["travel", "attend"]})
    x = NERInput("Obama visited Paris and attended a yearly festival.")
    texts = _texts(SimilarToken(words), x)
    assert texts == ["Obama visited Paris and attended an annual festival."]
    assert ("yearly", "ADJ", "Obama visited Paris and attended a [MASK] festival.") in words.asked


def test_similar_token_no_candidates_is_no_followup_and_sampling_is_seeded() -> None:
    x = NERInput("The outbreak has killed at least 60 people.")
    assert SimilarToken()([x], random.Random(0)) == []  # "kill": no reviewed substitute ("murder": a hyponym)
    y = NERInput("The firm began a yearly review.")
    t = SimilarToken(per_slot=1)
    a = [d.followups[0].text for d in t([y], random.Random(3))]
    b = [d.followups[0].text for d in t([y], random.Random(3))]
    assert a == b and len(a) == 2  # one follow-up per replaced word (began, yearly)


def test_similar_token_keeps_sentence_initial_capital() -> None:
    x = NERInput("Thankful residents thanked the firefighters in Leeds.")
    assert _texts(SimilarToken(), x) == ["Grateful residents thanked the firefighters in Leeds."]


def test_similar_token_rejects_a_bad_source() -> None:
    with pytest.raises(TypeError, match="similar"):
        SimilarToken(object()).source  # noqa: B018


def test_similar_token_with_the_offline_vectors_as_ranking() -> None:
    from mtwidgets.lang.vectors import VectorSimilarWords

    x = NERInput("Apple began a yearly review in Texas.", [(0, 5, "ORG"), (31, 36, "GPE")])
    drafts = [d for slot in SimilarToken(VectorSimilarWords(), k=3).candidates([x]) for d in slot]
    assert drafts, "the vectors rank 'start' or 'annual' among the neighbours of 'began' or 'yearly'"
    for d in drafts:
        fu = d.followups[0]
        assert fu.text != x.text
        assert [fu.mention(s) for s in fu.gold] == ["Apple", "Texas"]
        assert d.meta["original"] in ("began", "yearly")
        _aligned(x, d)


# -- phrase level ----------------------------------------------------------------------------


def test_similar_phrase_replaces_the_head_noun_and_fixes_the_article() -> None:
    x = NERInput("A quake struck the coast on Monday.")
    assert _texts(SimilarPhrase(), x) == ["An earthquake struck the coast on Monday."]
    z = NERInput("The talks ended with an outcome nobody wanted.")
    assert _texts(SimilarPhrase(), z) == ["The talks ended with a result nobody wanted."]
    y = NERInput("A child was hurt in the crash.")
    # every reviewed substitute of "child" was dropped ("kid" is informal, "minor" legal)
    assert _texts(SimilarPhrase(), y) == []


def test_similar_phrase_skips_noun_phrases_holding_an_entity_and_pronouns() -> None:
    x = NERInput("He met the French president.")
    # "the French president" holds the NORP entity "French": not a minimal entity-free NP
    assert _texts(SimilarPhrase(), x) == []


def test_similar_phrase_keeps_number() -> None:
    x = NERInput("Three nations signed the treaty.")
    assert _texts(SimilarPhrase(), x) == []  # "Three" is a number modifier: left alone
    y = NERInput("The nations signed the treaty.")
    assert _texts(SimilarPhrase(), y) == ["The countries signed the treaty."]


# -- shuffle ---------------------------------------------------------------------------------


SHUFFLE_TEXT = "Apple and Microsoft beat David Smith and John Brown."


def _gold(text: str, *pairs: tuple[str, str]) -> list[Span]:
    return [Span(text.index(m), text.index(m) + len(m), label) for m, label in pairs]


def test_shuffle_permutes_within_categories_with_permutation_meta() -> None:
    x = NERInput(
        SHUFFLE_TEXT,
        _gold(
            SHUFFLE_TEXT,
            ("Apple", "ORG"),
            ("Microsoft", "ORG"),
            ("David Smith", "PERSON"),
            ("John Brown", "PERSON"),
        ),
    )
    (slot,) = ShuffleEntities().candidates([x])
    texts = {d.followups[0].text for d in slot}
    assert texts == {
        "Microsoft and Apple beat David Smith and John Brown.",
        "Apple and Microsoft beat John Brown and David Smith.",
        "Microsoft and Apple beat John Brown and David Smith.",
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
    # The reference NER does not read both company names as organisations, so with the
    # default entities="reference" nothing is moved (the old follow-up "Spotify and Ed
    # Sheeran beat Deezer." swapped an organisation with a person); with entities="gold"
    # the gold ORGs are shuffled ("SA" marks Deezer as a company: an ORG the shuffle can
    # verify), and the PERSON stays.
    text = "Spotify and Deezer SA beat David Smith."
    x = NERInput(text, _gold(text, ("Spotify", "ORG"), ("Deezer SA", "ORG"), ("David Smith", "PERSON")))
    assert _texts(ShuffleEntities(), x) == []
    assert _texts(ShuffleEntities(entities="gold"), x) == ["Deezer SA and Spotify beat David Smith."]
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
