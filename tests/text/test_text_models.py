"""The embedded English models of the text tasks, on the shipped samples."""

from __future__ import annotations

import numpy as np
import pytest

import mtwidgets as mt
from mtwidgets.text import data
from mtwidgets.text import models as M
from mtwidgets.text.inputs import ClassificationInput, SimilarityInput, SummarizationInput


def test_the_tasks_declare_their_embedded_models() -> None:
    assert {"sentiment-vader", "sentiment-textblob", "sentiment-spacy-textcat", "topic-minilm"} <= set(
        mt.models.available("classification"))
    assert {"similarity-minilm", "similarity-spacy-vectors"} <= set(mt.models.available("similarity"))
    assert {"summary-lead", "summary-textrank-minilm"} <= set(mt.models.available("summarization"))


@pytest.mark.parametrize("name", ["sentiment-vader", "sentiment-textblob", "sentiment-spacy-textcat"])
def test_sentiment_models_tell_good_news_from_bad(name: str) -> None:
    model = mt.models.load(name)
    good, bad = model.predict([ClassificationInput("This is wonderful news, a great and happy success."),
                               ClassificationInput("A terrible, sad disaster: the worst loss ever.")])
    assert good.label == "positive" and bad.label == "negative"
    assert {k for k, _ in good.scores} == {"positive", "neutral", "negative"}


def test_the_topic_model_reaches_its_stated_accuracy_on_the_sample() -> None:
    texts = data.classification_sample()
    preds = M.minilm_topic().predict(texts)
    accuracy = sum(p.label == x.topic for p, x in zip(preds, texts)) / len(texts)
    assert accuracy == pytest.approx(M.TOPIC_ACCURACY, abs=0.01)
    assert set(M.TOPIC_DESCRIPTIONS) == {x.topic for x in texts}


def test_similarity_models_follow_the_gold_scores() -> None:
    pairs = data.similarity_sample()
    gold = [x.score for x in pairs]
    for factory, least in ((M.minilm_similarity, 0.8), (M.spacy_vector_similarity, 0.5)):
        values = [p.value for p in factory().predict(pairs)]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert np.corrcoef(values, gold)[0, 1] >= least, factory.__name__


def test_extractive_summaries_are_sentences_of_the_text_in_order() -> None:
    x = SummarizationInput("Oil prices rose on Monday. Markets in Asia closed lower. Analysts expect a volatile "
                           "week. Traders were nervous. Gold was flat. The dollar gained.")
    lead = M.lead_summary().predict([x])[0].text
    assert lead == "Oil prices rose on Monday. Markets in Asia closed lower."
    ranked = M.textrank_summary().predict([x])[0].text
    sentences = M.sentences_of(x.text)
    kept = M.sentences_of(ranked)
    assert len(kept) == 2 and kept == [s for s in sentences if s in kept]


def test_pagerank_prefers_the_best_connected_node() -> None:
    w = np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]], dtype=float)
    rank = M.pagerank(w)
    assert rank.argmax() == 0 and rank.sum() == pytest.approx(1.0)
    assert M.summary_length(1) == 1 and M.summary_length(3) == 1 and M.summary_length(6) == 2


def test_similarity_inputs_with_no_vectors_score_zero() -> None:
    value = M.spacy_vector_similarity().predict([SimilarityInput("qzxvbn wqpzk", "zzqv")])[0].value
    assert value == 0.0
