from __future__ import annotations

import random

import pytest

from mtwidgets.ner import NERInput
from mtwidgets.ner.filters import NaturalnessFilter, SemanticFilter, changed_region, fluency
from mtwidgets.ner.transforms import SimilarToken

SRC = "Apple reported strong profits."


def test_changed_region_widens_to_words() -> None:
    (a, b) = changed_region(SRC, "Apple reported weak profits.")
    assert SRC[a[0] : a[1]] == "strong" and "Apple reported weak profits."[b[0] : b[1]] == "weak"
    assert changed_region("He cried.", "Did he cry?") == ((0, 9), (0, 11))


def test_semantic_filter_scores_the_changed_words_in_context() -> None:
    f = SemanticFilter(0.65)
    near, far, same = f.scores(
        [(SRC, "Apple reported strong revenues."), (SRC, "Apple reported strong courthouses."), (SRC, SRC)]
    )
    assert near > f.threshold > far  # "revenues" is kept, "courthouses" dropped
    assert same == 1.0
    assert f.passes(near) and not f.passes(far)


def test_semantic_filter_sentence_mode_is_more_lenient() -> None:
    pair = [(SRC, "Apple reported strong courthouses.")]
    assert SemanticFilter(mode="sentence").scores(pair)[0] > SemanticFilter(mode="words").scores(pair)[0]


def test_naturalness_filter_drops_rare_words() -> None:
    f = NaturalnessFilter(1.0)
    common, rare = f.scores([("Obama visited Paris.", "Obama attended Paris."),
                             ("Obama visited Paris.", "Obama perambulated Paris.")])  # fmt: skip
    assert common < 1.0 < rare
    assert f.passes(common) and not f.passes(rare)
    assert fluency("the") > fluency("perambulated") and fluency("") == 0.0


@pytest.mark.parametrize(
    ("factory", "message"),
    [(lambda: SemanticFilter(1.5), "cosine"), (lambda: SemanticFilter(mode="x"), "mode"),  # type: ignore[arg-type]
     (lambda: NaturalnessFilter(-1), "Zipf")],
)  # fmt: skip
def test_bad_thresholds(factory: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        factory()  # type: ignore[operator]


class Words:
    """A ranking source: SimilarToken keeps only the reviewed lexicon's substitutes among its
    words ("brave" for "courageous", "vanish" for "disappeared"); "valiant" (a WordNet
    synonym of "courageous" the review dropped as literary) is left out."""

    def similar(self, word: str, pos: str, context: str, k: int) -> list[tuple[str, float]]:
        return {
            "courageous": [("brave", 0.9), ("valiant", 0.7)],
            "disappeared": [("vanish", 0.8)],
        }.get(word, [])


TWO = "The courageous nurse disappeared from the ward."  # both substitutes pass the in-context check


def test_filters_as_transformation_options_drop_candidates_and_record_scores() -> None:
    from wordfreq import zipf_frequency

    x = NERInput(TWO)
    plain = [d.followups[0].text for s in SimilarToken(Words(), check_tag=False).candidates([x]) for d in s]
    assert plain == [
        "The brave nurse disappeared from the ward.",
        "The courageous nurse vanished from the ward.",
    ]
    gap = {
        w: zipf_frequency(o, "en") - zipf_frequency(w, "en")
        for o, w in (("courageous", "brave"), ("disappeared", "vanished"))
    }
    assert gap["vanished"] > 0.3 > gap["brave"]  # "vanished" is the rarer word, "brave" the commoner
    filtered = SimilarToken(Words(), check_tag=False, filters=[NaturalnessFilter(0.3)])
    drafts = [d for s in filtered.candidates([x]) for d in s]
    assert [d.followups[0].text for d in drafts] == ["The brave nurse disappeared from the ward."]
    assert drafts[0].meta["filters"] == {"naturalness": pytest.approx(gap["brave"], abs=1e-3)}
    # a filter nothing passes leaves no follow-up: the group becomes not applicable
    assert (
        SimilarToken(Words(), check_tag=False, filters=[SemanticFilter(0.999)])([x], random.Random(0)) == []
    )


def test_a_non_filter_is_rejected() -> None:
    with pytest.raises(TypeError, match="scores"):
        SimilarToken(Words(), filters=[object()])  # type: ignore[list-item]


def test_semantic_scores_are_remembered_per_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    import mtwidgets.ner.filters as filters

    calls: list[list[str]] = []
    real = filters._region_vectors

    def counting(texts: list[str], regions: list[tuple[int, int]], sentence: bool) -> object:
        calls.append(list(texts))
        return real(texts, regions, sentence)

    monkeypatch.setattr(filters, "_region_vectors", counting)
    f = filters.SemanticFilter(0.65)
    a = ("They debated the bill.", "They discussed the bill.")
    b = ("They debated the bill.", "They ate the bill.")
    first = f.scores([a, b])
    assert len(calls) == 1  # source side and follow-up side in one encoder call
    assert f.scores([b, a, b]) == [first[1], first[0], first[1]]
    assert len(calls) == 1  # nothing encoded again
    assert first[0] > first[1]


def test_a_source_is_encoded_once_for_every_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    # the source's region vector is kept: a second follow-up (another relation's, another
    # filter's) encodes only the new text
    import mtwidgets.ner.filters as filters

    torch, tokenizer, model = filters._encoder()
    encoded: list[list[str]] = []

    def counting(texts: list[str], **kwargs: object) -> object:
        encoded.append(list(texts))
        return tokenizer(texts, **kwargs)

    monkeypatch.setattr(filters, "_encoder", lambda: (torch, counting, model))
    src = "The senators debated the new bill on Tuesday."
    f = filters.SemanticFilter(0.65)
    first = f.scores([(src, "The senators discussed the new bill on Tuesday.")])[0]
    assert encoded == [[src, "The senators discussed the new bill on Tuesday."]]
    second = f.scores([(src, "The senators argued the new bill on Tuesday.")])[0]
    assert encoded[1] == ["The senators argued the new bill on Tuesday."]
    assert 0.0 < second < 1.0 and 0.0 < first < 1.0
