"""The text tasks' widget parts: the Explorer on one text and on a pair (English and Chinese,
words by jieba for Chinese), similarity bands, the summaries' word diff, errors inside the
widget; the Batch panel's per-topic heatmap and its drill-down; the report's topic tables."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.batch_view import BASE_COLUMNS
from mtwidgets.core.errors import InputError
from mtwidgets.core.task import get_task
from mtwidgets.core.views import explorer_parts
from mtwidgets.lang.text import tokenize
from mtwidgets.report import write_report
from mtwidgets.text.batch_view import CHART, NO_TOPIC, TextBatchParts, TopicTally, row_topics
from mtwidgets.text.explorer_view import TEXT_LANG, SimilarityParts, similarity_bands, text_tokens
from mtwidgets.text.inputs import ClassificationInput, SimilarityInput, SummarizationInput
from mtwidgets.text.report import sections
from mtwidgets.text.rewrite import Replacement, Rewrite, Rewrites, apply_replacements
from mtwidgets.widgets.batch import BatchPanel
from mtwidgets.widgets.explorer import Explorer

HOSTILE = "<img src=x onerror=alert(1)> France signed the trade deal on Monday."
PAIR = SimilarityInput(HOSTILE, "The trade deal with France was signed on Monday.", topic="business")
ZH_TEXT = "刘芳是上海的一名医生。她每天早上骑车去医院。周末她常和朋友去公园散步。"


def swap(pairs: dict[str, str], what: str) -> Any:
    """A rewriter replacing every mention of the first word of ``pairs`` found (the widgets are
    tested on fixed rewrites, not on the lexicons, which have their own tests)."""

    def rewrite(text: str, *, rng: Any = None, k: int = 1) -> Rewrites:
        for old, new in pairs.items():
            starts = [m.start() for m in re.finditer(re.escape(old), text)]
            if starts:
                reps = tuple(Replacement(i, i + len(old), old, new) for i in starts)
                return Rewrites([Rewrite(apply_replacements(text, reps), f"{what} {old!r} -> {new!r}", reps)])
        return Rewrites([], f"no {what} of the test's list")

    return rewrite


def reverse_sentences(text: str, *, rng: Any = None, k: int = 1) -> Rewrites:
    sentences = re.findall(r"[^.!?。！？]+[.!?。！？]\s*", text)
    if len(sentences) < 2 or "".join(sentences) != text:
        return Rewrites([], "fewer than two sentences")
    moved = [s.strip() for s in reversed(sentences)]
    return Rewrites([Rewrite(("" if "。" in text else " ").join(moved), "sentences reversed")])


@pytest.fixture(autouse=True)
def fixed_rewriters(monkeypatch: pytest.MonkeyPatch) -> None:
    from mtwidgets.text import en, zh

    for table in (en.REWRITERS, zh.REWRITERS):
        monkeypatch.setitem(table, "name", swap({"刘芳": "王丽", "Anna": "Maria"}, "name"))
        monkeypatch.setitem(table, "country", swap({"France": "Chile", "法国": "智利"}, "country"))
        monkeypatch.setitem(table, "occupation", swap({"医生": "护士", "doctor": "nurse"}, "occupation"))
        monkeypatch.setitem(table, "punctuation", swap({",": ";", "，": "；"}, "punctuation"))
        monkeypatch.setitem(table, "reorder", reverse_sentences)


def jaccard(x: SimilarityInput) -> float:
    a, b = set(x.text_a.lower().split()), set(x.text_b.lower().split())
    return len(a & b) / len(a | b)


def lead(x: SummarizationInput) -> str:
    return x.text.split("。")[0] + "。"


def changed(segments: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(w["text"], w["op"]) for w in segments if w["op"] != "eq" and "field" not in w]


def test_each_task_declares_its_parts() -> None:
    views = {name: explorer_parts(get_task(name)) for name in ("classification", "similarity", "summarization")}
    assert {n: (p.mark_view, p.prediction_view) for n, p in views.items()} == {
        "classification": ("text", "label-scores"),
        "similarity": ("text-pair", "number-bands"),
        "summarization": ("text", "text-diff"),
    }
    assert all(p.lang == TEXT_LANG and p.task is get_task(n) for n, p in views.items())
    for name in views:
        assert isinstance(get_task(name).part("batch")(), TextBatchParts)
        assert get_task(name).part("report") is sections


def test_similarity_bands_are_the_papers_five_intervals() -> None:
    bands = similarity_bands()
    assert [b.name.split(" ")[0] + " " + b.name.split(" ")[1] for b in bands] == [
        "[0.8, 1]", "[0.6, 0.8)", "[0.4, 0.6)", "[0.2, 0.4)", "[0, 0.2)"
    ]  # fmt: skip
    parts = SimilarityParts()
    assert parts.band_of(1.0) == bands[0].name and parts.band_of(0.8) == bands[0].name
    assert parts.band_of(0.7999) == bands[1].name and parts.band_of(0.0) == bands[4].name
    assert parts.band_of(-0.1) == bands[4].name and parts.band_of(1.3) == bands[0].name  # clipped first


def test_chinese_text_is_tokenized_by_jieba_and_english_by_unicode_words() -> None:
    assert [t.text for t in text_tokens("刘芳是上海的一名医生。")] == ["刘芳", "是", "上海", "的", "一名", "医生", "。"]
    assert [t.text for t in tokenize("刘芳是医生", TEXT_LANG)] == ["刘芳", "是", "医生"]
    assert [t.text for t in tokenize("Mary's car isn't red.", TEXT_LANG)] == ["Mary's", "car", "isn't", "red", "."]
    toks = text_tokens("张伟 在北京")
    assert "".join(t.text + t.ws for t in toks) == "张伟 在北京" and toks[0].ws == " "


def test_explorer_on_a_pair_marks_the_replaced_words_in_both_texts_and_shows_the_band() -> None:
    e = Explorer(models={"jaccard": jaccard}, data=[PAIR], relations=["MR2.1", "MR7.1"])
    assert e.task == "similarity" and e._input["mark_view"] == "text-pair"
    assert [f["text"] for f in e._input["fields"]] == [PAIR.text_a, PAIR.text_b]
    assert [f["title"] for f in e._input["fields"]] == ["S1", "S2"]
    fu = e.followups[0]
    old, new = "France", "Chile"
    assert fu.text_b == PAIR.text_b.replace(old, new) and fu.text_a == PAIR.text_a.replace(old, new)
    segs = e._followup["followups"][0]
    assert [w["field"] for w in segs if "field" in w] == ["S1", "S2"]
    assert changed(segs) == [(old, "del"), (new, "ins"), (old, "del"), (new, "ins")]
    card = e._models[0]
    assert card["view"] == "number-bands" and len(card["bands"]) == 5
    value = jaccard(PAIR)
    assert card["source"][0]["value"] == pytest.approx(value)
    assert card["source"][0]["band"] == SimilarityParts().band_of(value)
    assert e.verdicts == {"jaccard": "pass"}  # the country appears in both texts: same words, same score
    e.relation = "MR7.1"
    assert (e.followups[0].text_a, e.followups[0].text_b) == (PAIR.text_b, PAIR.text_a)


def test_explorer_pair_edits_and_errors_stay_inside_the_widget() -> None:
    e = Explorer(models={"jaccard": jaccard}, data=[PAIR], relations=["MR2.1"])
    e.edit_followup("Spain signed it. ||| It was signed by Spain.")
    assert (e.followups[0].text_a, e.followups[0].text_b) == ("Spain signed it.", "It was signed by Spain.")
    assert e.followups[0].score is None and e.followups[0].topic == "business"
    reply = e.handle_message({"kind": "edit_followup", "id": 7, "text": "only one text"})
    assert reply["kind"] == "error" and "|||" in reply["message"] and "|||" in e._error["message"]
    reply = e.handle_message({"kind": "set_text", "id": 8, "texts": {"text_a": "A cat.", "text_b": "  "}})
    assert reply["kind"] == "error" and "S2" in e._error["message"]
    e.handle_message({"kind": "set_text", "id": 9, "texts": {"text_a": "Paris is big.", "text_b": "Paris is small."}})
    assert e._error == {} and e.source == SimilarityInput("Paris is big.", "Paris is small.")


def test_explorer_on_chinese_text_diffs_by_jieba_words() -> None:
    e = Explorer(models={"lead": lead}, data=[SummarizationInput(ZH_TEXT)], relations=["MR1.2", "MR3.2"])
    assert [t["text"] for t in e._input["tokens"][:6]] == ["刘芳", "是", "上海", "的", "一名", "医生"]
    name = "王丽"
    assert e.followups[0].text == ZH_TEXT.replace("刘芳", name)
    assert changed(e._followup["followups"][0]) == [("刘芳", "del"), (name, "ins")]
    card = e._models[0]
    assert card["view"] == "text-diff" and card["source"][0]["text"] == "刘芳是上海的一名医生。"
    assert changed(card["followup"][0]["diff"]) == [("刘芳", "del"), (name, "ins")]
    e.relation = "MR3.2"
    assert changed(e._followup["followups"][0]) == [("医生", "del"), ("护士", "ins")]  # whole words, not characters


def test_explorer_on_classification_shows_label_scores_and_keeps_hostile_text_as_data() -> None:
    def topic(x: ClassificationInput) -> dict[str, float]:
        return {"business": 0.7, "politics": 0.3} if "deal" in x.text else {"business": 0.2, "politics": 0.8}

    x = ClassificationInput(HOSTILE + " Markets rose on the news. Traders expect more deals.", topic="business")
    e = Explorer(models={"topic": topic}, data=[x], relations=["MR7.3"])
    assert e.followups and e.followups[0].text != x.text and e.followups[0].topic == "business"
    card = e._models[0]
    assert card["view"] == "label-scores" and card["source"][0]["label"] == "business"
    assert card["source"][0]["top"] == [["business", 0.7], ["politics", 0.3]]
    assert e._input["text"] == x.text  # raw text: the front end sets it with textContent only


def test_topic_tally_counts_and_the_heatmap_selects_relation_model_topic() -> None:
    src = [ClassificationInput(t, topic=k) for t, k in [
        ("Shares rose on Monday. The bank said profits grew. Traders were pleased. Bonds fell.", "business"),
        ("The minister spoke at noon. The vote passed later. The opposition left. Nobody cheered.", "politics"),
        ("The striker scored twice. The fans cheered loudly. The coach smiled. The bus left late.", "sport"),
        ("A plain text came first. A second line followed. A third one ended it. Then a fourth.", None),
    ]]  # fmt: skip

    def parity(x: ClassificationInput) -> str:
        return "odd" if len(x.text) % 2 else "even"

    results = mt.run(src, relations=["MR4.3", "MR7.3"], models={"parity": parity}, task="classification")
    assert list(row_topics(results.frame)) == [
        (s["topic"] if "topic" in s else NO_TOPIC) for s in (srcs[0] for srcs in results.frame["sources"])
    ]
    parts = TextBatchParts()
    tally = parts.start(src)
    assert isinstance(tally, TopicTally)
    parts.add(tally, results)
    table = parts.summary(tally)
    frame = results.frame
    for row in table.itertuples():
        sub = frame[(frame["relation"] == row.relation) & (row_topics(frame) == row.topic)]
        assert row.violations == int((sub["verdict"] == "violation").sum())
        assert row.groups == int(sub["verdict"].isin(["violation", "pass"]).sum())
    chart = parts.build_charts(tally, select="pick")[CHART].to_dict()
    assert chart["params"][0]["select"]["fields"] == ["relation", "model", "topic"]
    assert chart["mark"]["type"] == "rect"
    hit = table[table["groups"] > 0].iloc[0]
    mask = parts.selection_mask(CHART, tally, frame, [{"relation": hit.relation, "model": "parity", "topic": hit.topic}])
    assert mask.sum() == hit.groups + hit.not_applicable + hit.errors
    assert set(frame[mask]["relation"]) == {hit.relation}
    assert parts.start([ClassificationInput("No topic here.")]) is None
    assert parts.columns()[2].key == "topic" and len(parts.columns()) == len(BASE_COLUMNS) + 1


def test_batch_panel_drills_down_from_a_topic_cell_to_its_failing_rows() -> None:
    from mtwidgets.text import data

    sample = data.classification_sample()[::12]
    frame = pd.DataFrame([{"text": x.text, "topic": x.topic} for x in sample])

    def parity(x: ClassificationInput) -> str:
        return "odd" if sum(i * ord(c) for i, c in enumerate(x.text)) % 2 else "even"  # order-sensitive

    panel = BatchPanel(data=frame, models={"parity": parity}, task="classification",
                       relations=["MR4.3", "MR7.3"], cache=mt.PredictionCache())
    assert CHART in panel._charts
    panel.run()
    assert panel.state == "done", panel.controls.messages
    table = panel.topic_summary()
    assert set(table["topic"]) == {x.topic for x in sample}
    assert CHART in panel.chart_specs()
    row = table[table["violations"] > 0].iloc[0]
    selected = panel.select(CHART, relation=row.relation, model="parity", topic=row.topic)
    assert len(selected) == row.violations and set(selected["verdict"]) == {"violation"}
    assert panel.table.total == row.violations
    assert {r["topic"] for r in panel.table.rows} == {row.topic}


def test_a_rows_detail_diffs_texts_by_jieba_words_and_the_two_summaries() -> None:
    results = mt.run([SummarizationInput(ZH_TEXT, topic="health")], relations=["MR1.2"],
                     models={"lead": lead}, task="summarization")
    parts = TextBatchParts()
    extra = parts.row_detail(None, results.frame, 0)
    assert extra is not None
    blocks = extra["blocks"]
    assert [b["text"] for b in blocks if b["type"] == "label"] == [
        "source text (jieba words; − replaced)", "follow-up text (jieba words; + put in)",
        "source summary (jieba words; − replaced)", "follow-up summary (jieba words; + put in)",
    ]  # fmt: skip
    source, followup = blocks[1]["parts"], blocks[3]["parts"]
    assert source[0] == ["刘芳", "−"] and followup[0] == ["王丽", "+"] and followup[1] == ["是", ""]
    assert "".join(p for p, _ in source) == ZH_TEXT
    assert blocks[7]["parts"][:3] == [["王丽", "+"], ["是", ""], ["上海", ""]]
    assert parts.table_extras(None, results.frame, [0]) == [
        {"topic": "health", "source_label": "刘芳是上海的一名医生。", "followup_label": "王丽是上海的一名医生。"}
    ]
    english = mt.run([SummarizationInput("Anna Smith is a doctor. She lives in Leeds.")], relations=["MR1.2"],
                     models={"lead": lead}, task="summarization")
    labels = [b["text"] for b in parts.row_detail(None, english.frame, 0)["blocks"] if b["type"] == "label"]
    assert labels == ["source summary (words; − replaced)", "follow-up summary (words; + put in)"]


def test_a_similarity_row_shows_each_score_with_its_band() -> None:
    results = mt.run([PAIR], relations=["MR7.1"], models={"jaccard": jaccard}, task="similarity")
    value = jaccard(PAIR)
    band = SimilarityParts().band_of(value)
    assert TextBatchParts().table_extras(None, results.frame, [0]) == [
        {"topic": "business", "source_label": f"{value:.3f} · {band}", "followup_label": f"{value:.3f} · {band}"}
    ]
    assert TextBatchParts().row_detail(None, results.frame, 0) is None  # English, no summaries


def test_report_has_per_topic_tables_with_every_text_escaped(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    src = [SimilarityInput("France signed the deal.", "The deal with France was signed.", topic=evil),
           SimilarityInput("Spain won the match.", "The match was won by Spain.", topic="sport")]
    results = mt.run(src, relations=["MR2.1", "MR7.1"], models={"jaccard": jaccard}, task="similarity")
    html = "\n".join(sections(results, None))
    assert "per topic" in html and evil not in html and "&lt;script&gt;" in html
    assert html.count("<table>") == 1 and "MR2.1" in html and "sport" in html
    write_report(results, tmp_path / "r.html")
    assert "Violation rates (%) per topic" in (tmp_path / "r.html").read_text(encoding="utf-8")
    no_topic = mt.run([SimilarityInput("A cat sat.", "A dog sat.")], relations=["MR7.1"],
                      models={"jaccard": jaccard}, task="similarity")
    assert sections(no_topic, None) == []


def test_a_bad_edit_of_a_text_follow_up_is_refused_with_what_to_do() -> None:
    e = Explorer(models={"lead": lead}, data=[SummarizationInput(ZH_TEXT)], relations=["MR1.2"])
    with pytest.raises(InputError, match="empty"):
        e.edit_followup("   ")
    assert "empty" in e._error["message"]
