"""pairwise-systematicity on the shipped English sample with the embedded sentiment models."""

from __future__ import annotations

import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.task import get_task
from mtwidgets.systematicity import TABLE_1

MODELS = ("sentiment-vader", "sentiment-textblob", "sentiment-spacy-textcat")


@pytest.mark.slow
def test_the_english_sample_on_the_three_sentiment_models() -> None:
    texts = get_task("classification").part("sample")()
    k = len(texts)
    results = mt.run(texts, relations="pairwise-systematicity", models=list(MODELS), cache=PredictionCache())
    assert not results.errors and len(results.frame) == 0
    a = results.aggregates
    assert len(a) == len(MODELS) * (1 + len(TABLE_1))
    every = a[a["slice"] != "overall"]
    # Every English sample text begins and ends a sentence: nothing refused, all k(k - 1) pairs tested.
    assert (every["tests"] == k * (k - 1)).all() and (a["not_applicable"] == 0).all()
    overall = a[a["slice"] == "overall"].set_index("model")
    assert ((overall["safety"] > 0.8) & (overall["safety"] < 1)).all(), overall["safety"]
    for model in MODELS:
        worst = overall.loc[model, "detail"]["worst_sources"]
        assert len(worst) == 10 and worst[0]["safety"] <= worst[-1]["safety"]
        assert worst[0]["violations"] > 0 and worst[0]["satisfied"] + worst[0]["violations"] == 2 * (k - 1) * 6
    summary = results.summary()
    assert list(summary["relation"]) == ["pairwise-systematicity"] * len(MODELS)
