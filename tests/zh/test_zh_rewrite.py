"""The Chinese rewriters (mtwidgets/text/zh.py): each MR family on real sentences.

Every follow-up is checked the same way (:func:`check`): it differs from the source, each
replacement's ``old`` stands at its offsets in the source, and applying the replacements
gives exactly the follow-up. Each family is also shown refusing, with its reason.
"""

from __future__ import annotations

import random

import pytest

from mtwidgets.lang import zh
from mtwidgets.text.rewrite import FAMILIES, Rewrite, Rewrites
from mtwidgets.text.zh import REWRITERS, replay


def check(source: str, rewrite: Rewrite) -> None:
    """A follow-up is the source with its replacements applied, and nothing else."""
    assert rewrite.text != source
    parts, last = [], 0
    for r in rewrite.replacements:
        assert source[r.start : r.end] == r.old, (r, source)
        assert r.start >= last
        parts += [source[last : r.start], r.new]
        last = r.end
    if rewrite.replacements:
        assert "".join(parts) + source[last:] == rewrite.text


def run(family: str, text: str, seed: int = 0, k: int = 1) -> Rewrites:
    out = REWRITERS[family](text, rng=random.Random(seed), k=k)
    for r in out:
        check(text, r)
    return out


def test_every_family_has_a_rewriter() -> None:
    assert tuple(REWRITERS) == FAMILIES


# --- MR1: names ---------------------------------------------------------------------------


def test_name_keeps_the_gender_and_replaces_every_mention() -> None:
    text = "在巴黎举行的公开赛上，中国选手陈静夺得女单冠军。这是她本赛季的第三个冠军。陈静说，她发挥得很好。"
    out = run("name", text)
    assert len(out) == 1
    (r,) = out
    new = r.replacements[0].new
    assert [x.old for x in r.replacements] == ["陈静", "陈静"]
    assert {x.new for x in r.replacements} == {new}
    surname, given = zh.split_name(new) or ("", "")
    assert zh.name_gender(given) == "f"  # 她 still fits
    assert "陈静" not in r.text and r.text.count(new) == 2


def test_name_of_unknown_gender_is_refused_beside_a_pronoun() -> None:
    out = run("name", "记者刘诗诗报道，他昨天抵达了会场。")
    assert not out
    assert "gender" in (out.why or "") and "他" in (out.why or "")


def test_name_written_another_way_is_refused() -> None:
    out = run("name", "张伟是一名医生。同事们都叫他张医生。")
    assert not out and "张医生" in (out.why or "")


def test_words_that_only_look_like_names_are_left_alone() -> None:
    out = run("name", "马拉松比赛昨天上午在北京开跑，网球公开赛决赛被推迟。")
    assert not out and "no Chinese person" in (out.why or "")


def test_name_k_gives_distinct_rewrites_of_each_person() -> None:
    text = "歌手李静和演员王磊出席了发布会。"
    out = run("name", text, k=2)
    assert len(out) == 2
    assert {r.replacements[0].old for r in out} == {"李静", "王磊"}
    assert len({r.text for r in out}) == 2


# --- MR2: countries -----------------------------------------------------------------------


def test_country_replaced_by_a_peer_in_every_form() -> None:
    from mtwidgets.lang.country_peers import peers

    text = "泰国队在决赛中输给了越南队。泰国媒体批评了球队的表现。"
    for seed in range(6):
        out = run("country", text, seed=seed)
        assert out
        (r,) = out
        old = r.replacements[0].old
        assert old in ("泰国", "越南")
        codes = zh.country_codes()
        assert all(codes[x.new] in peers(codes[old]) and x.new not in ("泰国", "越南") for x in r.replacements)
        assert len(r.replacements) == text.count(old)
    # 日本 and 韩国 are each other's only peer: a text naming both keeps them
    assert not run("country", "日本队在决赛中输给了韩国队。")


def test_country_in_a_text_with_a_place_is_refused() -> None:
    out = run("country", "韩国队在北京举行的比赛中夺冠。")
    assert not out and "北京" in (out.why or "")


def test_country_with_a_place_of_it_is_refused() -> None:
    out = run("country", "中国选手在上海举行的比赛中夺冠。")
    assert not out and "上海" in (out.why or "")


def test_town_named_like_a_common_word_is_no_place() -> None:
    # the gazetteer lists a town 合作 (Gansu); jieba reads 合作 here as a verb
    (r,) = run("country", "中国和法国同意加强合作。", seed=1)
    assert r.replacements[0].old in ("中国", "法国")


def test_country_called_by_its_abbreviation_is_refused() -> None:
    out = run("country", "美国总统表示，中美关系十分重要。美方愿意加强合作。")
    assert not out and ("中美" in (out.why or "") or "美方" in (out.why or ""))


def test_country_inside_an_organisation_name_is_refused() -> None:
    out = run("country", "美国航空公司宣布，美国的机票价格将上涨。")
    assert not out and "美国航空" in (out.why or "")


def test_text_without_a_country_is_refused() -> None:
    out = run("country", "今天的天气很晴朗。")
    assert not out and out.why == "no country name in the text"


# --- MR3: occupations ---------------------------------------------------------------------


def test_occupation_becomes_one_of_the_same_work() -> None:
    out = run("occupation", "商场的售货员耐心地为顾客介绍商品。")
    (r,) = out
    assert (r.replacements[0].old, r.replacements[0].new) == ("售货员", "营业员")


def test_occupation_after_a_modifier_keeps_the_modifier() -> None:
    out = run("occupation", "一位退休消防员每天免费为孩子讲解防火知识。")
    (r,) = out
    assert r.text.startswith("一位退休") and r.replacements[0].old == "消防员"


def test_occupation_without_a_group_is_refused() -> None:
    out = run("occupation", "护士王静每天工作十个小时。")
    assert not out and "护士" in (out.why or "")


# --- MR4: punctuation ---------------------------------------------------------------------


def test_punctuation_rewrites_every_quote_of_the_text() -> None:
    text = "他说：「我们赢了！」观众们欢呼起来，掌声经久不息。"
    (r,) = run("punctuation", text, k=10)  # no width change: only the quotes
    assert "corner brackets" in r.note
    assert r.text == "他说：“我们赢了！”观众们欢呼起来，掌声经久不息。"


def test_unbalanced_quotes_are_not_rewritten() -> None:
    out = run("punctuation", "他说“我们赢了。")
    assert not out


# --- MR5 / MR6: synonyms ------------------------------------------------------------------


def test_noun_becomes_its_reviewed_synonym() -> None:
    out = run("noun", "大夫建议老人每天散步半小时。")
    (r,) = out
    assert (r.replacements[0].old, r.replacements[0].new) == ("大夫", "医生")


def test_verb_becomes_its_reviewed_synonym_in_every_mention() -> None:
    text = "救援队到达现场后，搜寻被困群众，也搜寻失联车辆。"
    (r,) = run("verb", text)
    assert [(x.old, x.new) for x in r.replacements] == [("搜寻", "寻找"), ("搜寻", "寻找")]


def test_unreviewed_or_ambiguous_words_are_refused() -> None:
    out = run("verb", "警方正在查证。")  # 查证: no reviewed synonym
    assert not out and out.why
    out = run("verb", "俱乐部宣布了新赛季的计划。")  # 宣布 -> 发布 was reviewed and dropped
    assert not out


def test_word_also_inside_a_longer_word_is_refused() -> None:
    out = run("noun", "医生们说，女医生也来了。")  # jieba keeps 女医生 one word
    assert not out and "女医生" in (out.why or "")


# --- MR7: reordering ----------------------------------------------------------------------


def test_reorder_keeps_the_lead_and_the_sentences() -> None:
    text = "多家科技公司宣布裁员。昨天，华为公司表示将扩大招聘。上周，北京市政府推出了就业补贴。专家认为，就业市场总体稳定。"
    (r,) = run("reorder", text)
    assert r.text.startswith("多家科技公司宣布裁员。") and r.text.endswith("专家认为，就业市场总体稳定。")
    assert sorted(r.text) == sorted(text)
    # two neighbouring sentences that stand on their own change places; the lead and the last stay
    assert r.replacements == () and r.meta["order"] == [0, 2, 1, 3]
    assert not run("reorder", "多家科技公司宣布裁员。昨天，华为公司表示将扩大招聘。上周，北京市政府推出了就业补贴。")


def test_reorder_moves_a_leaning_sentence_with_the_one_before() -> None:
    text = "工厂发生爆炸。附近居民纷纷跑出家门。警方随后封锁了现场，但原因仍不清楚。消防员赶到现场。"
    for seed in range(5):
        for r in run("reorder", text, seed=seed, k=5):
            assert "纷纷跑出家门。警方随后" in r.text or r.text.index("警方随后") > r.text.index("跑出家门")


def test_reorder_refusals() -> None:
    assert run("reorder", "只有一句话。").why == "the text has one sentence only"
    assert "首先" in (run("reorder", "会议开始了。首先，主席讲话。最后，大家合影。").why or "")
    out = run("reorder", "张伟是一名医生。他在北京工作。他很喜欢这份工作。")
    assert not out


# --- the same replacements in another text -------------------------------------------------


def test_replay_on_the_other_text_of_a_pair() -> None:
    s1, s2 = "据报道，中国队以二比零战胜了泰国队。", "泰国队二比零输给了中国队。"
    (r,) = run("country", s1, seed=2)
    (other,) = replay("country", s2, r)
    check(s2, other)
    old, new = r.replacements[0].old, r.replacements[0].new
    assert other.text == s2.replace(old, new) and old not in other.text


def test_replay_on_a_summary() -> None:
    source = "工厂发生爆炸，三名工人受伤。附近居民听到响声。警方正在调查。"
    (r,) = run("verb", source)
    (summary,) = replay("verb", "附近居民听到响声。", r)
    assert summary.text == "附近居民听见响声。"


def test_replay_without_a_mention_leaves_the_text_alone() -> None:
    (r,) = run("name", "歌手李静出席了发布会。")
    (same,) = replay("name", "观众们很高兴。", r)
    assert same.text == "观众们很高兴。" and same.replacements == () and "no mention" in same.note


def test_replay_refuses_a_mention_that_cannot_change_alike() -> None:
    (r,) = run("country", "代表团访问了美国。")
    out = replay("country", "美国航空公司宣布了新航线。", r)
    assert not out and "美国航空公司" in (out.why or "")


def test_replay_punctuation_and_reorder() -> None:
    (r,) = [x for x in run("punctuation", "他说：「我们赢了。」", k=10) if "corner" in x.note]
    (other,) = replay("punctuation", "她说：「明天见。」", r)
    assert other.text == "她说：“明天见。”"
    assert not replay("reorder", "一。二。三。", r)
    with pytest.raises(ValueError, match="family"):
        replay("colour", "一。", r)


# --- shared contract ----------------------------------------------------------------------

SOURCES = [
    "记者王建国报道，著名演员刘诗诗和歌手李娜出席了发布会。李娜表示很高兴能来到法国演出。医生们建议市民多喝水。",
    "日本队以2比1战胜韩国队。赛后，主教练表示球员们发挥出色。球迷们在街头庆祝。",
    "今天的天气很晴朗",
    " ",
    "😀！？",
]


@pytest.mark.parametrize("family", FAMILIES)
def test_deterministic_given_the_seed(family: str) -> None:
    for text in SOURCES:
        a = REWRITERS[family](text, rng=random.Random(7), k=3)
        b = REWRITERS[family](text, rng=random.Random(7), k=3)
        assert [r.text for r in a] == [r.text for r in b]
        assert a.why == b.why


@pytest.mark.parametrize("family", FAMILIES)
def test_never_raises_and_says_why_not(family: str) -> None:
    for text in SOURCES:
        out = REWRITERS[family](text, rng=random.Random(0), k=2)
        assert len(out) <= 2
        assert len({r.text for r in out}) == len(out)
        if not out:
            assert out.why
        for r in out:
            check(text, r)


def _random_text(rng: random.Random) -> str:
    pieces = list("的了是在中国美国法国张伟李娜医生老师，。！？“”「」（）《》…、：；") + [
        "日本队",
        "程序员",
        "他",
        "她",
        "获得",
        "导致",
        "ABC",
        "5G",
        " ",
        "\n",
        "😀",
        "e\u0301",
        "\u200b",
        "。。",
        "！”",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 60)))


@pytest.mark.parametrize("family", FAMILIES)
def test_random_texts_never_break_a_rewriter(family: str) -> None:
    rng = random.Random(family)
    for i in range(150):
        text = _random_text(rng)
        out = REWRITERS[family](text, rng=random.Random(i), k=3)
        assert out or out.why
        for r in out:
            check(text, r)
            if family == "reorder":  # the same characters, whitespace between sentences aside
                assert sorted(c for c in r.text if not c.isspace()) == sorted(
                    c for c in text if not c.isspace()
                )


def test_same_rewrites_in_another_process_whatever_the_hash_seed() -> None:
    """Nothing depends on set or dict order that Python's hash seed changes."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, random\n"
        "from mtwidgets.text.zh import REWRITERS\n"
        f"texts = {SOURCES[:2]!r}\n"
        "print(json.dumps([[r.text for r in REWRITERS[f](t, rng=random.Random(3), k=3)] "
        "for f in sorted(REWRITERS) for t in texts], ensure_ascii=False))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    ours = [
        [r.text for r in REWRITERS[f](t, rng=random.Random(3), k=3)]
        for f in sorted(REWRITERS)
        for t in SOURCES[:2]
    ]
    assert theirs == ours and any(ours)


def test_name_never_splits_a_dictionary_word_jieba_tags_as_a_name() -> None:
    # "智慧" is tagged nr by jieba; it is a common word (wisdom), never 智 + 慧
    from mtwidgets.lang import zh as zh_lang

    for word in ("智慧", "高峰", "文明", "明星"):
        assert zh_lang.split_name(word) is None, word
    assert zh_lang.split_name("王伟") == ("王", "伟")
    rewrites = REWRITERS["name"]("全国中小学智慧教育平台今天正式上线。", rng=random.Random(0), k=3)
    assert list(rewrites) == [] and rewrites.why
