"""Inputs of the text tasks: language inference, validation, rows, detection, round trips."""

from __future__ import annotations

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import input_from_dict
from mtwidgets.text.inputs import (
    ClassificationInput,
    SimilarityInput,
    SummarizationInput,
    classification_from_row,
    detect_classification,
    detect_similarity,
    detect_summarization,
    infer_lang,
    similarity_from_row,
    summarization_from_row,
)


def test_language_is_inferred_from_the_share_of_chinese_characters() -> None:
    assert infer_lang("Shares rose on Monday.") == "en"
    assert infer_lang("小明有一个苹果。") == "zh"
    assert infer_lang("华为 released a phone.") == "en"  # 2 of 17 letters
    assert infer_lang("华为发布了新的 Mate 手机。") == "zh"
    assert ClassificationInput("小明有一个苹果。").lang == "zh"
    assert SimilarityInput("小明有一个苹果。", "小明有一个梨。").lang == "zh"


def test_a_given_language_wins_and_a_bad_one_is_refused() -> None:
    assert ClassificationInput("小明有一个苹果。", lang="EN").lang == "en"
    with pytest.raises(InputError, match="lang must be one of en, zh"):
        ClassificationInput("Hello there.", lang="fr")


def test_bad_texts_and_scores_are_refused_with_what_is_wrong() -> None:
    with pytest.raises(InputError, match="empty"):
        SummarizationInput("   ")
    with pytest.raises(InputError, match="text_b"):
        SimilarityInput("A sentence.", "")
    with pytest.raises(InputError, match=r"in \[0, 1\]"):
        SimilarityInput("A.", "B.", score=1.5)
    with pytest.raises(InputError, match="must be a number"):
        SimilarityInput("A.", "B.", score="high")
    with pytest.raises(InputError, match="topic must be a string"):
        ClassificationInput("A text.", topic=3)  # type: ignore[arg-type]


def test_gold_values_do_not_change_the_key_and_survive_a_round_trip() -> None:
    a = ClassificationInput("Shares rose.", topic="business", sentiment="positive")
    b = ClassificationInput("Shares rose.")
    assert a.key() == b.key()
    assert input_from_dict(a.to_dict()) == a
    s = SimilarityInput("A cat sat.", "A dog sat.", topic="pets", score=0.4)
    assert input_from_dict(s.to_dict()) == s
    assert s.with_texts("B.", "A.").score is None
    u = SummarizationInput("One. Two. Three.", reference="One.")
    assert input_from_dict(u.to_dict()) == u
    assert u.with_text("Two. One. Three.").reference == "One."


def test_rows_read_the_usual_column_names() -> None:
    c = classification_from_row({"sentence": "Shares rose.", "label": "business", "lang": float("nan")})
    assert (c.text, c.topic, c.lang) == ("Shares rose.", "business", "en")
    s = similarity_from_row({"sentence1": "A.", "sentence2": "B.", "similarity": "0.25"})
    assert (s.text_a, s.text_b, s.score) == ("A.", "B.", 0.25)
    u = summarization_from_row({"document": "One. Two.", "summary": "One."})
    assert u.reference == "One."
    with pytest.raises(InputError, match="'text' or 'sentence'"):
        classification_from_row({"body": "x"})


def test_tables_are_told_apart_by_their_columns() -> None:
    assert detect_classification({"text", "topic"})
    assert not detect_classification({"text", "entities", "topic"})
    assert detect_similarity({"text_a", "text_b", "score"}) and detect_similarity({"sentence1", "sentence2"})
    assert detect_summarization({"text", "summary"}) and not detect_classification({"text", "summary", "topic"})
