"""TIN's relabeling (Algorithm 1): the vote with F(p, sim) including NULL, the filters, the
range-conflict repair, batching through the prediction cache, and the offline sources."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.spans import Span
from mtwidgets.ner.repair import (
    Relabel,
    RepairConfig,
    Repairer,
    apply_relabels,
    evaluation,
    format_consistent,
    mask_slots,
)

CFG = RepairConfig(top_k=10, p_threshold=0.01, sim_threshold=0.45)


class Lexicon:
    """A toy NER system: capitalised words (and 'halfway'-like words) from a table."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table
        self.seen: list[list[str]] = []

    def predict(self, inputs: list[Any]) -> list[Prediction]:
        self.seen.append([x.text for x in inputs])
        out = []
        for x in inputs:
            spans, pos = [], 0
            for word in x.text.replace(".", " ").replace(",", " ").split():
                start = x.text.index(word, pos)
                pos = start + len(word)
                if word in self.table:
                    spans.append(Span(start, pos, self.table[word]))
            out.append(Prediction(spans=tuple(spans)))
        return out


class Words:
    """A candidate source from a table: word -> [(candidate, p)]."""

    def __init__(self, table: dict[str, list[tuple[str, float]]], pieces: dict[str, list[str]] | None = None):
        self.table = table
        self.pieces = pieces or {}

    def tokenize(self, word: str) -> list[str] | None:
        return self.pieces.get(word, [word])

    def propose(self, items: Sequence[tuple[str, Span]], k: int) -> list[list[tuple[str, float]]]:
        return [self.table.get(t[s.start : s.end], [])[:k] for t, s in items]


def const_sim(value: float = 0.8) -> Any:
    def sim(pairs: Sequence[tuple[str, Span, str, Span]]) -> list[float]:
        return [value] * len(pairs)

    return sim


def table_sim(table: dict[str, float]) -> Any:
    def sim(pairs: Sequence[tuple[str, Span, str, Span]]) -> list[float]:
        return [table.get(b[sb.start : sb.end], 0.9) for _, _, b, sb in pairs]

    return sim


MEKELLE = "They say the authorities returned electricity to Mekelle."


def at(text: str, mention: str) -> Span:
    i = text.index(mention)
    return Span(i, i + len(mention))


def test_evaluation_function_matches_the_paper() -> None:
    c = RepairConfig()
    assert evaluation(1.0, 0.0, null=False, subword=False, config=c) == 1.0
    assert evaluation(2.0, 0.4, null=False, subword=False, config=c) == pytest.approx(2 * math.exp(1.0))
    assert evaluation(1.0, 0.0, null=True, subword=False, config=c) == pytest.approx(0.2)
    assert evaluation(1.0, 0.0, null=False, subword=True, config=c) == pytest.approx(0.5)
    assert evaluation(1.0, 0.0, null=True, subword=True, config=c) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="alpha"):
        RepairConfig(alpha=0.0)


def test_incorrect_category_is_relabelled_by_the_votes_of_similar_entities() -> None:
    model = Lexicon({"Mekelle": "PERSON", "Adigrat": "GPE", "Axum": "GPE", "Abel": "PERSON"})
    words = Words({"Mekelle": [("Adigrat", 0.5), ("Axum", 0.3), ("Abel", 0.1)]})
    rep = Repairer(model, candidates=words, similarity=const_sim(), config=CFG)
    [(spans, [relabel])] = rep.repair(
        [(MEKELLE, (at(MEKELLE, "Mekelle").with_label("PERSON"),), [at(MEKELLE, "Mekelle")])]
    )
    assert relabel.label == "GPE" and relabel.mutants == 3
    assert relabel.votes["GPE"] == pytest.approx(0.8 * math.exp(2.5 * 0.8))
    assert relabel.votes["PERSON"] == pytest.approx(0.1 * math.exp(2.5 * 0.8))
    assert spans == (at(MEKELLE, "Mekelle").with_label("GPE"),)


HALFWAY = "The halfway point lets us step back."


def test_null_wins_for_an_over_labelled_word_despite_alpha() -> None:
    model = Lexicon({"halfway": "CARDINAL", "quarter": "CARDINAL"})
    words = Words({"halfway": [("midway", 0.5), ("half", 0.4), ("middle", 0.3), ("quarter", 0.05)]})
    rep = Repairer(model, candidates=words, similarity=const_sim(), config=CFG)
    [(spans, [relabel])] = rep.repair(
        [(HALFWAY, (at(HALFWAY, "halfway").with_label("CARDINAL"),), [at(HALFWAY, "halfway")])]
    )
    assert relabel.decided and relabel.label is None
    assert set(relabel.votes) == {"NULL", "CARDINAL"}
    assert relabel.votes["NULL"] == pytest.approx(0.2 * 1.2 * math.exp(2.0))
    assert spans == ()


def test_alpha_keeps_a_category_when_null_votes_are_few() -> None:
    model = Lexicon({"halfway": "CARDINAL", "quarter": "CARDINAL"})
    words = Words({"halfway": [("midway", 0.5), ("quarter", 0.2)]})
    rep = Repairer(model, candidates=words, similarity=const_sim(), config=CFG)
    [(_, [relabel])] = rep.repair([(HALFWAY, (), [at(HALFWAY, "halfway")])])
    # NULL: 0.2 * 0.5 = 0.1 < CARDINAL: 0.2 (times the same exp(k sim)).
    assert relabel.label == "CARDINAL"


def test_filters_drop_low_scores_dissimilar_and_inconsistent_candidates() -> None:
    model = Lexicon({"Adigrat": "GPE", "Abel": "PERSON", "Axum": "GPE", "Aksum": "GPE"})
    words = Words(
        {"Mekelle": [("adigrat", 0.6), ("Abel", 0.5), ("Axum", 0.005), ("Aksum", 0.2), ("Two Words", 0.4)]}
    )
    sim = table_sim({"Abel": 0.2})  # Abel is not similar enough; the rest 0.9
    rep = Repairer(model, candidates=words, similarity=sim, config=CFG)
    [relabel] = rep.relabel([(MEKELLE, at(MEKELLE, "Mekelle"))])
    # lower-case first letter, a space, p < 0.01 and sim < 0.45 are all filtered: only Aksum votes.
    assert relabel.mutants == 1 and set(relabel.votes) == {"GPE"}
    assert model.seen == [[MEKELLE.replace("Mekelle", "Aksum")]]


def test_an_entity_without_candidates_keeps_its_prediction() -> None:
    rep = Repairer(Lexicon({}), candidates=Words({}), similarity=const_sim(), config=CFG)
    original = (at(MEKELLE, "Mekelle").with_label("PERSON"),)
    [(spans, [relabel])] = rep.repair([(MEKELLE, original, [at(MEKELLE, "Mekelle")])])
    assert not relabel.decided and spans == original


def test_subwords_are_masked_too_and_their_votes_weigh_lambda() -> None:
    text = "Officials met in Mekelle today."
    slots = mask_slots(
        text, at(text, "Mekelle"), lambda w: ["Me", "##kel", "##le"] if w == "Mekelle" else [w]
    )
    assert [(text[s.span.start : s.span.end], s.subword) for s in slots] == [
        ("Mekelle", False),
        ("Me", True),
        ("kel", True),
        ("le", True),
    ]
    # A tokenizer that changes characters yields no subword slots (offsets would be wrong).
    assert len(mask_slots(text, at(text, "Mekelle"), lambda w: ["me", "##kelle"])) == 1
    model = Lexicon({"Mebelle": "GPE"})
    words = Words({"kel": [("bel", 0.5)]}, pieces={"Mekelle": ["Me", "##kel", "##le"]})
    cfg = RepairConfig(p_threshold=0.01, sim_threshold=0.0)
    rep = Repairer(model, candidates=words, similarity=const_sim(0.0), config=cfg)
    [relabel] = rep.relabel([(text, at(text, "Mekelle"))])
    assert relabel.label == "GPE" and relabel.votes["GPE"] == pytest.approx(0.5 * 0.5)


def test_range_conflicts_keep_the_higher_p_score() -> None:
    text = "Cricket South Africa named its squad."
    csa, sa = at(text, "Cricket South Africa"), at(text, "South Africa")
    original = (at(text, "Cricket").with_label("ORG"), sa.with_label("GPE"))
    relabels = [
        Relabel(csa.with_label("ORG"), "ORG", 0.911, {"ORG": 0.911}, 5),
        Relabel(sa.with_label("GPE"), "GPE", 0.503, {"GPE": 0.503}, 5),
    ]
    assert apply_relabels(original, relabels) == (csa.with_label("ORG"),)
    # NULL relabels remove only their exact span; undecided ones change nothing.
    stratum = "Fibrus is delivering Project Stratum."
    orig = (at(stratum, "Project").with_label("PRODUCT"), at(stratum, "Stratum").with_label("WORK_OF_ART"))
    rels = [
        Relabel(at(stratum, "Project"), None, 0.3, {"NULL": 0.3}, 2),
        Relabel(at(stratum, "Stratum"), None, 0.0, {}, 0),
    ]
    assert apply_relabels(orig, rels) == (orig[1],)


def test_mutant_sentences_are_predicted_once_in_batches_through_the_cache() -> None:
    model = Lexicon({"Adigrat": "GPE", "Axum": "GPE"})
    words = Words({"Mekelle": [("Adigrat", 0.5), ("Axum", 0.3)]})
    cache = PredictionCache()
    rep = Repairer(model, candidates=words, similarity=const_sim(), config=CFG, cache=cache, batch_size=1)
    req = (MEKELLE, at(MEKELLE, "Mekelle"))
    first = rep.relabel([req, req])  # the same entity twice: two mutant sentences, not four
    assert rep.calls == 2 and len(model.seen) == 2 and all(len(b) == 1 for b in model.seen)
    again = Repairer(model, candidates=words, similarity=const_sim(), config=CFG, cache=cache)
    second = again.relabel([req])
    assert again.calls == 0 and second[0].votes == first[0].votes


def test_format_consistency() -> None:
    assert format_consistent("Mekelle", "Adigrat")
    assert not format_consistent("Mekelle", "adigrat")
    assert not format_consistent("Mekelle", "Mekelle")
    assert not format_consistent("2019", "Paris")
    assert not format_consistent("BBC", "New York")
    assert format_consistent("halfway", "midway")


@pytest.mark.slow
def test_offline_vector_candidates_are_same_kind_neighbours_and_skip_pruned_words() -> None:
    from mtwidgets.ner.repair import VectorCandidates

    text = "Talks in Ethiopia and Mekelle ended."
    got = VectorCandidates().propose([(text, at(text, "Ethiopia")), (text, at(text, "Mekelle"))], 8)
    words = [w for w, _ in got[0]]
    assert {"Somalia", "Sudan", "Uganda"} & set(words)
    assert all(w[0].isupper() for w in words) and "Ethiopia" not in words
    assert got[1] == []  # "Mekelle" only borrows another word's vector in the pruned table


@pytest.mark.slow
def test_minilm_similarity_is_context_aware_and_ranks_neighbours_first() -> None:
    from mtwidgets.ner.repair import MiniLMSimilarity

    s = "Electricity returned to Paris after talks."
    a = at(s, "Paris")

    def pair(new: str) -> tuple[str, Span, str, Span]:
        return (s, a, s.replace("Paris", new), Span(a.start, a.start + len(new)))

    london, banana = MiniLMSimilarity()([pair("London"), pair("banana")])
    assert london > 0.3 > banana


def test_fill_mask_source_masks_the_slot_and_strips_continuation_marks() -> None:
    from mtwidgets.lang.fill_mask import MASK
    from mtwidgets.ner.repair import FillMaskCandidates

    class FakeTokenizer:
        def tokenize(self, word: str) -> list[str]:
            return ["Me", "##kel", "##le"] if word == "Mekelle" else [word]

    class FakeFillMask:
        tokenizer = FakeTokenizer()

        def __init__(self) -> None:
            self.texts: list[str] = []

        def fill(self, texts: list[str]) -> list[list[tuple[str, float]]]:
            self.texts.extend(texts)
            return [[("Adigrat", 0.4), ("##bel", 0.2), ("Axum", 0.1)] for _ in texts]

    fm = FakeFillMask()
    source = FillMaskCandidates(fm)
    text = "Officials met in Mekelle today."
    slots = mask_slots(text, at(text, "Mekelle"), source.tokenize)
    assert [s.subword for s in slots] == [False, True, True, True]
    got = source.propose([(text, slots[0].span), (text, slots[2].span)], k=2)
    assert fm.texts == [f"Officials met in {MASK} today.", f"Officials met in Me{MASK}le today."]
    assert got == [[("Adigrat", 0.4), ("bel", 0.2)], [("Adigrat", 0.4), ("bel", 0.2)]]
    with pytest.raises(TypeError, match="FillMask"):
        FillMaskCandidates(object())
