"""The Chinese language layer: jieba words, names, countries, occupations, Cilin synonyms."""

from __future__ import annotations

import csv
from importlib import resources

from mtwidgets.lang import zh, zh_synonyms


def test_segment_offsets_cover_the_text_exactly() -> None:
    text = "记者王建国报道， 著名演员刘诗诗出席了发布会。ABC 123"
    words = zh.segment(text)
    assert "".join(w.word for w in words) == text
    assert all(text[w.start : w.end] == w.word for w in words)
    assert ("王建国", "nr") in {(w.word, w.flag) for w in words}


def test_tokens_fit_the_explorer_tokenizer_contract() -> None:
    text = "中国队 以2比0战胜泰国队。"
    tokens = zh.tokens(text)
    assert "".join(t.text + t.ws for t in tokens) == text
    assert [t.text for t in tokens][:2] == ["中国队", "以"]


def test_looks_chinese() -> None:
    assert zh.looks_chinese("苹果公司CEO库克访问上海。")
    assert not zh.looks_chinese("The CEO visited 北京 last week.")
    assert not zh.looks_chinese("123 !?")


def test_sentence_spans() -> None:
    text = "他说：“我们赢了！”观众欢呼。还有吗？没有了"
    spans = zh.sentence_spans(text)
    assert [text[a:b] for a, b in spans] == ["他说：“我们赢了！”", "观众欢呼。", "还有吗？", "没有了"]


def test_names_are_surname_and_given_name() -> None:
    assert zh.split_name("王建国") == ("王", "建国")
    assert zh.split_name("欧阳娜") == ("欧阳", "娜")
    for word in ("马拉松", "公开赛", "张老师", "王", "Smith"):
        assert zh.split_name(word) is None, word
    assert zh.name_gender("伟") == "m" and zh.name_gender("娜") == "f"
    assert zh.name_gender("诗诗") is None
    assert all(zh.name_gender(n[1:]) == "f" for n in zh.name_pool("f")[:50])


def test_countries_come_from_pycountry_with_their_usual_names() -> None:
    names = zh.countries()
    assert {"法国", "日本", "孟加拉国", "马耳他", "危地马拉"} <= names
    assert not {"台湾", "香港", "南极洲", "孟加拉", "马尔他"} & names
    assert zh.country_codes()["法国"] == "FR"
    assert zh.country_in("法国队") == ("法国", "队")
    assert zh.country_in("美国航空公司") is None
    assert zh.abbreviates("中美", "美国") and zh.abbreviates("美方", "美国")
    assert not zh.abbreviates("美丽", "美国")
    assert zh.lies_in("巴黎", "法国") and zh.lies_in("上海", "中国") and not zh.lies_in("巴黎", "中国")
    assert set(zh.region_of("泰国")) >= {"越南", "新加坡"}


def test_occupations() -> None:
    assert zh.occupation_in("著名演员") == ("著名", "演员")
    assert zh.occupation_in("张老师") == ("张", "老师")
    assert zh.occupation_in("主刀医生") is None
    assert zh.occupation_group("售货员") == "shop"
    assert zh.occupation_group("程序员") == ""  # 工程师, 技术员 do other work
    assert zh.occupation_group("护士") == ""
    assert zh.occupation_group("苹果") is None
    groups = list(zh.OCCUPATION_GROUPS.values())
    assert all(len(g) >= 2 for g in groups)
    flat = [j for g in groups for j in g]
    assert len(flat) == len(set(flat))


def test_cilin_similarity_follows_tian_and_zhao() -> None:
    assert zh_synonyms.cilin_similarity("医生", "大夫") == 1.0
    assert 0.8 < zh_synonyms.cilin_similarity("人", "人类") < 1.0  # neighbouring atoms of one class
    assert zh_synonyms.cilin_similarity("表扬", "夸奖") < zh_synonyms.CILIN_THRESHOLD
    assert zh_synonyms.cilin_similarity("医生", "xyz") == 0.0
    assert zh_synonyms.cilin_codes("医生")[0].startswith("Ae")


def test_synonyms_are_reviewed_kept_pairs_only() -> None:
    assert zh_synonyms.synonyms("大夫", "n") == ("医生",)
    assert zh_synonyms.synonyms("医生", "n") == ()  # 大夫 is colloquial, 医师 formal: dropped
    assert "发布" in zh_synonyms.candidates("宣布", "v")
    assert zh_synonyms.synonyms("宣布", "v") == ()  # reviewed and dropped
    assert zh_synonyms.synonyms("出来", "v") == ()  # 出去 is its opposite
    assert "reviewed" in zh_synonyms.why_none("宣布", "v")
    assert "senses" in zh_synonyms.why_none("表示", "v")


def test_review_table_is_consistent() -> None:
    path = resources.files("mtwidgets.lang").joinpath("data/zh_synonyms.tsv")
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) > 700
    assert {r["verdict"] for r in rows} == {"keep", "drop"}
    assert all(r["reason"].strip() for r in rows)
    kept = [r for r in rows if r["verdict"] == "keep"]
    assert len(kept) >= 40
    for r in kept:  # every kept pair still passes the automatic checks, at score 1.0
        assert r["substitute"] in zh_synonyms.candidates(r["word"], r["pos"]), r
        assert zh_synonyms.cilin_similarity(r["word"], r["substitute"]) >= zh_synonyms.CILIN_THRESHOLD
