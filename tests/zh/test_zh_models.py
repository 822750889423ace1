"""The embedded Chinese models (mtwidgets/text/models_zh.py) on a few inputs."""

from __future__ import annotations

import numpy as np
import pytest

from mtwidgets.core.inputs import TextInput, TextPairInput
from mtwidgets.core.model import Model
from mtwidgets.text import models_zh

NEWS = (
    "在巴黎举行的羽毛球公开赛上，中国选手陈静以直落两局的比分夺得女单冠军。"
    "这是她本赛季获得的第三个冠军。陈静在赛后说，自己的发挥比预想的还要好。"
    "教练表示，她将继续备战下个月的世界锦标赛！"
)


@pytest.fixture(scope="module")
def sentiment() -> models_zh.SnowNLPSentiment:
    return models_zh.snownlp_sentiment()


def test_sentiment_labels_with_scores(sentiment: models_zh.SnowNLPSentiment) -> None:
    assert isinstance(sentiment, Model)
    good, bad = sentiment.predict(
        [
            TextInput("这部电影非常好看，演员的表演很精彩，我很喜欢。"),
            TextInput("质量太差了，非常失望，再也不买了。"),
        ]
    )
    assert (good.label, bad.label) == ("pos", "neg")
    for p in (good, bad):
        assert {k for k, _ in p.scores} == {"pos", "neg"}
        assert abs(sum(v for _, v in p.scores) - 1.0) < 1e-9
        assert p.score is not None and p.score >= 0.5


@pytest.mark.parametrize("factory", [models_zh.snownlp_summary, models_zh.textrank_summary])
def test_summaries_are_stretches_of_the_source(factory: object) -> None:
    model = factory()  # type: ignore[operator]
    (pred,) = model.predict([TextInput(NEWS)])
    summary = pred.text
    assert summary and len(summary) < len(NEWS)
    assert summary[-1] in "。！？"
    # every sentence of the summary is a piece of the source, in the source's order
    pieces = [p for p in summary.replace("！", "。").split("。") if p]
    positions = [NEWS.find(p) for p in pieces]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    assert model.predict([TextInput(NEWS)])[0].text == summary  # deterministic


def test_textrank_summary_keeps_the_end_marks() -> None:
    text = "第一句话说的是比赛的结果如何！第二句话讲述比赛的过程和细节。第三句话介绍观众的反应？"
    (pred,) = models_zh.textrank_summary(sentences=3).predict([text])
    assert pred.text == text


@pytest.mark.parametrize("factory", [models_zh.bm25_similarity, models_zh.tfidf_similarity])
def test_similarity_in_unit_interval_and_ordered(factory: object) -> None:
    model = factory()  # type: ignore[operator]
    pairs = [
        TextPairInput("中国队以二比零战胜了泰国队。", "中国队以二比零战胜了泰国队。"),
        TextPairInput("中国队以二比零战胜了泰国队。", "中国队二比零击败了泰国队。"),
        TextPairInput("中国队以二比零战胜了泰国队。", "小猫在沙发上睡着了。"),
    ]
    same, close, far = (p.value for p in model.predict(pairs))
    assert same == pytest.approx(1.0)
    assert 0.0 <= far < close < same <= 1.0
    assert far < 0.1  # only the particle 了 is shared
    (swapped,) = model.predict([("中国队二比零击败了泰国队。", "中国队以二比零战胜了泰国队。")])
    assert swapped.value == pytest.approx(close)  # symmetric


def test_pagerank_matches_networkx() -> None:
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(3)
    weights = rng.random((6, 6))
    weights = (weights + weights.T) / 2
    weights[2, :] = weights[:, 2] = 0.0  # an isolated node
    ours = models_zh.pagerank(weights)
    graph = nx.from_numpy_array(weights)
    try:
        theirs = nx.pagerank(graph, alpha=0.85, tol=1e-10)
    except (ImportError, ModuleNotFoundError):  # networkx's pagerank needs scipy
        pytest.skip("networkx's pagerank needs scipy")
    assert np.allclose(ours, [theirs[i] for i in range(6)], atol=1e-6)


def test_models_refuse_inputs_of_the_wrong_shape(sentiment: models_zh.SnowNLPSentiment) -> None:
    with pytest.raises(TypeError, match="text pairs"):
        models_zh.tfidf_similarity().predict([TextInput("一句话。")])
    with pytest.raises(TypeError, match="one text"):
        sentiment.predict([TextPairInput("一句话。", "两句话。")])
