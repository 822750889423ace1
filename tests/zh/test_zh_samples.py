"""The shipped Chinese samples (mtwidgets/data/zh_*.jsonl) are well formed and give every
MR family something to rewrite."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import resources

from mtwidgets.lang import zh
from mtwidgets.text.rewrite import FAMILIES
from mtwidgets.text.zh import REWRITERS

TOPICS = {"sports", "finance", "technology", "entertainment", "education", "health", "world", "society"}


def rows(name: str) -> list[dict]:
    text = resources.files("mtwidgets.data").joinpath(name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def is_chinese(text: str) -> bool:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text) > len(text) / 2


def test_classification_sample() -> None:
    data = rows("zh_classification.jsonl")
    assert len(data) >= 150
    assert len({r["text"] for r in data}) == len(data)
    assert set(Counter(r["topic"] for r in data)) == TOPICS
    assert min(Counter(r["topic"] for r in data).values()) >= 15
    for r in data:
        assert set(r) <= {"text", "topic", "sentiment"}
        assert r.get("sentiment", "pos") in ("pos", "neg")
        assert is_chinese(r["text"]) and len(zh.sentence_spans(r["text"])) >= 3


def test_similarity_sample() -> None:
    data = rows("zh_similarity.jsonl")
    assert len(data) >= 100
    assert len({(r["text1"], r["text2"]) for r in data}) == len(data)
    for r in data:
        assert set(r) == {"text1", "text2", "gold"}
        assert 0.0 <= r["gold"] <= 1.0
        assert is_chinese(r["text1"]) and is_chinese(r["text2"]) and r["text1"] != r["text2"]
    # every one of the paper's five intervals holds pairs
    bands = Counter(sum(r["gold"] >= edge for edge in (0.2, 0.4, 0.6, 0.8)) for r in data)
    assert len(bands) == 5 and min(bands.values()) >= 10


def test_summarization_sample() -> None:
    data = rows("zh_summarization.jsonl")
    assert len(data) >= 150
    assert all(len(zh.sentence_spans(r["text"])) >= 3 for r in data)


def test_every_family_rewrites_part_of_the_classification_sample() -> None:
    texts = [r["text"] for r in rows("zh_classification.jsonl")]
    # country, occupation, punctuation and synonyms refuse most texts: a country with any fact
    # about it, an occupation without a same-work same-register equivalent,
    # a text without quotation marks, a word without a same-register synonym (the sample's
    # nouns, 气氛 and 城区 among them, lost theirs in the second review); reorder moves only
    # sentences that open on their own (a time, a place, a named subject) without a reference;
    # a name cut short by jieba, a dictionary entry or a unisex name beside 妻子 is kept
    least = {"name": 0.12, "occupation": 0.015, "verb": 0.05}
    for family in FAMILIES:
        outs = [REWRITERS[family](t, rng=random.Random(i)) for i, t in enumerate(texts)]
        if family in ("country", "noun", "reorder"):  # rare here; every refusal says why
            assert all(o or o.why for o in outs), family
            continue
        if family == "punctuation":  # the sample quotes nobody: nothing to write another way
            assert all(not o and "quotation" in (o.why or "") for o in outs)
            continue
        assert sum(bool(o) for o in outs) >= least.get(family, 0.15) * len(texts), family
