"""The summarization oracle's Replace_{X1->X2} on Chinese summaries (no spaces between words)."""

from __future__ import annotations

from mtwidgets.text.rewrite import Replacement, replace_words, transfer


def test_a_chinese_replacement_reaches_the_summary() -> None:
    source = "李娜是上海的一名医生。她每天工作十个小时。"
    summary = "李娜是上海的一名医生。"
    reps = [Replacement(0, 2, "李娜", "赵兰英")]
    assert transfer(source, summary, reps) == "赵兰英是上海的一名医生。"
    # a summary without the name stays as it is
    assert transfer(source, "她每天工作十个小时。", reps) == "她每天工作十个小时。"


def test_english_words_still_need_word_edges() -> None:
    assert replace_words("Ann met Annabel.", [("Ann", "Eve")]) == "Eve met Annabel."
    assert replace_words("医生说，医生们很忙。", [("医生", "医师")]) == "医师说，医师们很忙。"
