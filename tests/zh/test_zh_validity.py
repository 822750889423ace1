"""Regressions from a validity audit of the Chinese rewriters on held-out text.

A careful reader judged follow-ups line by line; each test below takes a source whose
follow-up was judged wrong (or stilted) and asserts that the rewriter now refuses it, or
that the rewrite it gives avoids the fault. Seeds sweep a few draws, so a test does not
pass by luck of one draw.
"""

from __future__ import annotations

import random

import pytest

from mtwidgets.lang import zh
from mtwidgets.lang.zh_synonyms import synonyms
from mtwidgets.text import zh as tz
from mtwidgets.text.rewrite import Rewrite
from mtwidgets.text.zh import REWRITERS

SEEDS = range(6)


def rewrites(family: str, text: str, k: int = 5) -> list[Rewrite]:
    """Every follow-up of ``text`` over :data:`SEEDS`."""
    return [r for seed in SEEDS for r in REWRITERS[family](text, rng=random.Random(seed), k=k)]


def refused(family: str, text: str) -> str:
    """The rewriter's reason for refusing ``text`` (asserting that it refuses)."""
    out = REWRITERS[family](text, rng=random.Random(0), k=5)
    assert not out, [r.text for r in out]
    assert out.why
    return out.why


# --- MR1: names ---------------------------------------------------------------------------


def test_name_of_a_sibling_keeps_the_family_surname() -> None:
    text = "今年，哥哥陈磊转型当了教练，弟弟陈鑫依然在场上拼搏。兄弟俩在同一支队伍里。"
    for r in rewrites("name", text):
        assert all(not x.old.startswith("陈") for x in r.replacements), r.text


def test_name_sibling_refusal_reason() -> None:
    why = refused("name", "哥哥陈磊当了教练，弟弟陈鑫还在踢球。")
    assert "surname" in why


# --- MR2: countries -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("意大利威尼斯开始对一日游游客收取五欧元的“进城费”。", "威尼斯"),  # a city of it
        ("尼罗河是埃及最重要的河流。", "尼罗河"),  # its river
        ("埃及政府正在开罗修建一座新的博物馆。", "开罗"),  # its capital
        ("澳大利亚的袋鼠能跳得很远。", "澳大利亚的"),  # a description of it
        ("在澳大利亚，袋鼠随处可见。", "袋鼠"),  # its animal
        ("印度的人口已经超过了中国。", "印度的"),
        ("印度人口已经超过了中国。", "人口"),  # its scale
        ("日本的动画片在全世界都很有名。", ""),  # its fame
        ("日本各地的樱花这几天陆续开了。", "樱花"),
        ("南非队在橄榄球世界杯半决赛中击败英格兰队。南非球迷在开普敦街头庆祝到深夜。", ""),
        ("德国政府决定提高最低工资标准。劳动部长表示，这将使约六百万低收入劳动者受益。", ""),
        ("沙特阿拉伯宣布将继续减产石油，每天减产一百万桶。", ""),
        ("一部印度家庭喜剧去年在中国上映，取得了超过三亿元的票房。", ""),
        ("德国的汽车出口量今年下降了。", ""),
        ("德国的啤酒节每年秋天举行。", ""),
        ("巴西一家飞机制造商与一家航空公司签署了订购客机的协议。", "飞机"),
    ],
)
def test_country_tied_to_facts_is_refused(text: str, cause: str) -> None:
    why = refused("country", text)
    assert cause in why


def test_country_as_a_plain_participant_is_replaced() -> None:
    (r,) = REWRITERS["country"]("代表团访问了法国。", rng=random.Random(0))
    assert r.replacements[0].old == "法国" and r.replacements[0].new in zh.region_of("法国")


# --- MR3: occupations ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "记者：拍这部戏最难的是什么？孙倩：是水下的戏份。",  # the interviewer
        "一位从业二十年的基金经理告诉记者，目前部分板块的估值已经偏高。",  # 告诉记者
        "记者从我国驻南非使馆获悉，近期发生多起抢劫案件。",  # 记者从…获悉
        "这位歌手的新专辑一共收录了十首歌。",  # 歌唱家: another register
        "今年全市将招聘新教师两千名。这些老师将优先分配到农村学校。",  # 讲师: a university rank
        "工程师正在设计一座新的大桥。",  # 技术员 does not design bridges
        "两名工程师正在修理小区的电梯。",  # 程序员 do not repair lifts
        "程序员每天都要写很多代码。",
        "农民们在河边洗衣服。",  # 农户: a household
        "巴西的足球运动员在世界上很有名。",  # 足球选手
    ],
)
def test_occupation_without_a_true_equivalent_is_refused(text: str) -> None:
    refused("occupation", text)


def test_occupation_as_a_title_beside_a_name_is_refused() -> None:
    assert "赵敏" in refused("occupation", "赵敏教练把这本书送给了她的队员。")


def test_occupation_groups_are_true_equivalents() -> None:
    for job in ("记者", "教师", "老师", "程序员", "工程师", "歌手", "农民", "运动员", "司机", "医生"):
        assert zh.occupation_group(job) == "", job


# --- MR4: punctuation ---------------------------------------------------------------------


def test_punctuation_changes_no_mark_to_half_width() -> None:
    text = "今天，天气很好：阳光明媚！你去公园吗？（我去。）"
    why = refused("punctuation", text)
    assert "quotation" in why or "ellipsis" in why


def test_punctuation_converts_every_quote_of_both_levels() -> None:
    text = "他在朋友圈写道：「以前担心『头发掉光』，现在担心『饭碗不保』。」"
    (r,) = REWRITERS["punctuation"](text, rng=random.Random(0))
    assert r.text == "他在朋友圈写道：“以前担心‘头发掉光’，现在担心‘饭碗不保’。”"


def test_punctuation_keeps_mainland_quotes_out_of_corner_brackets() -> None:
    # 「」 is off-standard in mainland horizontal text (GB/T 15834)
    why = refused("punctuation", "他在朋友圈写道：“以前担心‘头发掉光’，现在担心‘饭碗不保’。”")
    assert "GB/T 15834" in why


def test_punctuation_still_writes_a_lone_ellipsis_in_full_beside_mainland_quotes() -> None:
    (r,) = REWRITERS["punctuation"]("他说：“我想想…”", rng=random.Random(0), k=5)
    assert r.text == "他说：“我想想……”"


def test_punctuation_refuses_a_text_mixing_quote_styles() -> None:
    assert "mix" in refused("punctuation", "他说“好”，她说「不」。")


# --- MR5: nouns ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "医生张华给发烧的病人开了药。",  # 大夫张华
        "医生王建国每天早上八点开始看门诊。",
        "教师陈静组织学生参观了历史博物馆。",  # 老师陈静
        "司机王师傅把乘客送到了机场。",  # 驾驶员 with 师傅
        "出租车司机黄师傅说，最近跑一天车，利润又薄了不少。",
        "他们大部分是留守儿童，爸爸妈妈在外地打工。",  # 留守小孩
        "她是一名乡村医生，一个人负责三个村子的健康。",  # 乡村医师
        "量子计算机在短期内还无法取代传统计算机。",  # 量子电脑
        "中等职业学校的毕业生越来越受企业欢迎。",  # 受公司欢迎
        "公司解释说，主要原因是原材料成本上升。",  # 原料: narrower
        "她和同事们连续抢救了六个病人，连年夜饭都没吃上。",  # 患者 in speech
        "老师带学生们去植物园参观。",  # bare 教师 for a person
        "这名医生发表了一篇研究论文。",  # 大夫 in a formal context
    ],
)
def test_noun_with_a_register_or_placement_fault_is_refused(text: str) -> None:
    refused("noun", text)


def test_noun_beside_a_name_is_refused_even_with_a_kept_pair() -> None:
    assert "王建国" in refused("noun", "王建国大夫每天早上八点开始接诊。")


# --- MR6: verbs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "此次发射是该型火箭的第三十次飞行，任务获得圆满成功。",  # 得到成功
        "今年南方的水稻获得了大丰收。",  # 得到丰收
        "来自意大利的车手获得了赛段冠军。",  # 得到冠军
        "演员李娜在电影节上获得了大奖。",
        "这部影片讲述了一个普通家庭在困境中互相扶持的故事。",  # 叙述
        "股市今天开盘后出现大幅下跌。",  # 下滑
        "滥用抗生素还可能导致细菌产生耐药性。",  # 造成 + clause
        "被告人陈某等五人冒充公安机关工作人员。",  # 假冒 is for goods
        "早知道效果这么好，应该早点换。",  # 应当 in chat
        "他参与修建的铁路已经通车多年。",  # 建造 a railway
        "只有少数具有可疑特征的结节才需要进一步检查。",  # 具备特征
    ],
)
def test_verb_with_a_collocation_fault_is_refused(text: str) -> None:
    refused("verb", text)


def test_dropped_verb_pairs_stay_dropped() -> None:
    for word in ("获得", "讲述", "下跌", "导致", "冒充", "应该", "修建", "具有"):
        assert synonyms(word, "v") == (), word


# --- MR7: reordering ----------------------------------------------------------------------


def _moved_before(r: Rewrite, later: str, earlier: str) -> bool:
    return r.text.index(later) < r.text.index(earlier)


def test_reorder_keeps_an_example_after_what_it_illustrates() -> None:
    text = (
        "因此，营养师建议，早餐最好包括主食、蛋白质和蔬菜水果。比如一碗燕麦粥、一个鸡蛋、一小把坚果，"
        "再加一个苹果。长期不吃早餐，容易引发胃病。"
    )
    for r in rewrites("reorder", text):
        assert not _moved_before(r, "比如", "早餐最好"), r.text
        assert "蔬菜水果。比如" in r.text, r.text


def test_reorder_keeps_a_reaction_after_its_cause() -> None:
    text = (
        "孩子今天放学回家，兴奋地跟我说，老师在班上表扬了她的作文。作文题目是《我的妈妈》，"
        "她写我每天晚上加班回来还给她讲故事。读着读着，我的眼眶就湿了。"
    )
    for r in rewrites("reorder", text):
        assert r.text.endswith("读着读着，我的眼眶就湿了。"), r.text


def test_reorder_keeps_an_instruction_after_its_speaker() -> None:
    text = (
        "今年高考报名人数达到一千三百多万人，再创历史新高。教育部提醒考生，务必在规定时间内打印准考证，"
        "并提前熟悉考场位置。考试当天，请不要携带手机等电子设备进入考场。"
    )
    for r in rewrites("reorder", text):
        assert not _moved_before(r, "请不要", "教育部提醒"), r.text


def test_reorder_keeps_customers_moved_after_the_notice() -> None:
    text = (
        "这家面馆的老板每天会免费为环卫工人和困难老人提供一碗面。门口贴着一张纸：“如果您有困难，"
        "请进来说一声‘老板，来碗面’，不用付钱。”很多顾客被感动，付钱时会主动多付一些。"
    )
    for r in rewrites("reorder", text):
        assert not _moved_before(r, "很多顾客被感动", "门口贴着"), r.text


def test_reorder_keeps_the_brothers_after_their_introduction() -> None:
    text = (
        "他们俩从小在同一个体校长大，后来都成了国家队的主力。今年，哥哥陈磊转型当了教练，弟弟陈鑫依然在场上"
        "拼搏。兄弟俩在同一支队伍里，一个指挥，一个执行。"
    )
    for r in rewrites("reorder", text):
        assert not _moved_before(r, "兄弟俩", "哥哥陈磊"), r.text


def test_reorder_prefers_orders_that_keep_the_last_sentence_last() -> None:
    text = "市里新建了一座公园。昨天，园林局种下了一百棵树。周末，市民李明来散步。大家都很满意。"
    out = REWRITERS["reorder"](text, rng=random.Random(0), k=1)
    (r,) = out
    assert r.text.endswith("大家都很满意。")


# --- second audit -------------------------------------------------------------------------


def test_name_whose_gender_the_pronoun_contradicts_is_refused() -> None:
    # 柯洁 -> 萧红梅 beside 他 and 少年; 刘畅 -> 林淑珍 beside 他
    assert "他" in refused("name", "柯洁在比赛中获胜，他说这位少年很强。")
    assert "他" in refused("name", "刘畅昨天到了公司，他说很累。")


def test_name_beside_its_pronoun_keeps_the_gender() -> None:
    male = set(zh.given_names("m"))
    for r in rewrites("name", "张伟昨天到了公司，他说很累。"):
        new = r.replacements[0].new
        assert zh.name_gender(new[1:]) == "m" or new[1:] in male, r.text


def test_a_word_cut_into_a_name_is_refused() -> None:
    # 现金红利: jieba tags 金红利 as a name
    why = refused("name", "公司宣布向股东派发现金红利，每股0.5元。")
    assert "现金" in why


def test_older_generation_given_names_are_not_drawn_for_others() -> None:
    texts = ["王芳昨天到了公司，她说很累。", "记者李静报道了这场比赛。"]
    for text in texts:
        for r in rewrites("name", text):
            assert not set(r.replacements[0].new[1:]) & set("淑秀桂凤兰珍"), r.text


@pytest.mark.parametrize(
    ("pos", "word", "dropped"),
    [
        ("v", "用于", "用来"),
        ("v", "变成", "变为"),
        ("v", "促进", "推动"),
        ("n", "眼泪", "泪水"),
        ("n", "气氛", "氛围"),
        ("n", "公众", "民众"),
        ("n", "城区", "市区"),
        ("n", "高校", "大学"),
        ("n", "信任", "信赖"),
    ],
)
def test_second_review_drops_pairs_of_other_collocation_or_register(pos: str, word: str, dropped: str) -> None:
    assert dropped not in synonyms(word, pos)


def test_verb_used_for_before_a_noun_is_left_alone() -> None:
    # 用于 -> 用来 needs a verb phrase after it; 促进血液循环 is no 推动血液循环
    for text in ("这笔资金将用于生产线的改造。", "适当运动可以促进血液循环。"):
        for r in rewrites("verb", text):
            assert "用来" not in r.text and "推动" not in r.text, r.text


def test_coach_stays_a_coach() -> None:
    # 健身教练, 他的教练: 教练员 is official register
    for r in rewrites("occupation", "他的健身教练每天陪他训练。"):
        assert "教练员" not in r.text, r.text


def test_firefighter_and_shop_assistant_still_change() -> None:
    (r,) = REWRITERS["occupation"]("一位退休消防员每天免费为孩子讲解防火知识。", rng=random.Random(0))
    assert "消防队员" in r.text


@pytest.mark.parametrize(
    "text",
    [
        "法国队在欧洲杯上击败了对手，球迷们欢呼庆祝。",
        "日本队在亚冠比赛中获胜，球迷们欢呼庆祝。",
        "据纽约时报报道，代表团访问了法国。",
    ],
)
def test_country_tied_to_a_regional_contest_or_a_foreign_source_is_refused(text: str) -> None:
    why = refused("country", text)
    assert "competition" in why or "news source" in why


def test_reorder_leaves_a_sentence_that_continues_the_one_before_in_place() -> None:
    # 说多了, 改造后 open without a subject of their own: they continue what came before
    text = "老房子终于完成了改造。改造后，房间变得明亮宽敞。说多了也没用。邻居们都来参观。"
    why = refused("reorder", text)
    assert "open on their own" in why


def test_reorder_moves_only_sentences_that_open_on_their_own() -> None:
    text = "多家科技公司宣布裁员。昨天，华为公司表示将扩大招聘。上周，北京市政府推出了就业补贴。被裁员工表示，找工作越来越难。"
    out = rewrites("reorder", text)
    assert out
    for r in out:
        assert r.text.endswith("被裁员工表示，找工作越来越难。"), r.text


def test_replayed_name_is_refused_where_the_other_text_says_another_gender() -> None:
    # a pair: the first text has no pronoun, the second says 他 of 刘畅 (a woman's name)
    from mtwidgets.text.zh import replay

    out = rewrites("name", "刘畅昨天到了公司。")
    assert out
    for r in out:
        refusal = replay("name", "刘畅昨天到了公司，他说很累。", r)
        assert not refusal and "他" in (refusal.why or ""), refusal


def test_push_is_not_rewritten_as_promote() -> None:
    # 推动熄火的车辆 (pushing stalled cars by hand) became 促进熄火的车辆
    assert "促进" not in synonyms("推动", "v")
    for r in rewrites("verb", "几名路人帮忙推动熄火的车辆。"):
        assert "促进" not in r.text, r.text


def test_carry_out_keeps_its_usual_pairing() -> None:
    # 实行改革开放 is the usual pairing; 实施改革开放 reads off
    assert "实施" not in synonyms("实行", "v")


def test_name_with_a_familiar_form_of_its_surname_is_refused() -> None:
    # 秦凤英 became 蒋桂荣 while the text still called her 秦姐
    why = refused("name", "秦凤英在社区工作了二十年，大家都叫她秦姐。")
    assert "秦姐" in why
    why = refused("name", "秦凤英在社区工作了二十年，大家都叫她老秦。")
    assert "老秦" in why


def test_replacement_name_is_no_celebrity_and_no_common_word() -> None:
    # a drawn replacement must not be a dictionary entry of its own (李国强, a well-known
    # person's name) nor have a one-character given name that is a common word (李想, 汪峰)
    from mtwidgets.text.zh import _plain_name

    assert not _plain_name("李国强")
    assert not _plain_name("李想")
    assert not _plain_name("汪峰")
    assert _plain_name("陈丽娟")
    for r in rewrites("name", "王建国昨天到了公司。"):
        new = r.text[: r.text.index("昨天")]
        assert zh.dictionary_frequency(new) == 0, new
        if len(new) == 2:
            assert zh.dictionary_frequency(new[1]) < 1000, new


# --- fourth audit round (benchmarks/audit/text4): its sources ----------------------------------


def test_name_right_after_a_place_is_an_organisation_not_a_person() -> None:
    refused("name", "阿联酋迪拜举办国际航空展，中国商飞携C919和ARJ21两款机型参展。")


@pytest.mark.parametrize(
    "text",
    [
        "这家医院派出一支医疗队前往埃塞俄比亚，协助当地医院开展白内障手术。",
        "「我们只想要和平。」一名在难民营生活了两年的叙利亚妇女对记者说。",
        "法国总统将访问越南，议程包括会见越南领导人和参观河内的一所大学。",
        "埃及与苏丹之间的边境口岸人满为患，许多家庭在烈日下等待了好几天。",
        "分析师指出，外资持续逃离新兴市场债券，资金更多流向了美国国债。",
    ],
)
def test_country_in_a_situation_of_its_own_is_kept(text: str) -> None:
    refused("country", text)


def test_a_head_of_state_keeps_the_country() -> None:
    # 法国总统 -> 比利时总统 would give Belgium a president; 越南 may still change
    for rw in rewrites("country", "法国总统下周访问越南，双方将签署经贸协议。"):
        assert rw.text.startswith("法国总统"), rw.text


def test_a_city_given_in_traditional_characters_counts_in_simplified_text() -> None:
    assert zh.lies_in("河内", "越南")


def test_a_noun_before_a_noun_is_a_compound_term() -> None:
    refused("noun", "这家船舶修造厂今年订单增加了两成。")


def test_colloquial_synonym_after_a_measure_word_is_not_drawn() -> None:
    assert all("小孩子" not in r.text for r in rewrites("noun", "一名走失的五岁小孩在商场里被保安发现。"))


# --- sixth audit round (benchmarks/audit/text6): its sources -----------------------------------


def test_faker_s_man_named_hongxia_is_not_drawn_for_a_husband() -> None:
    assert zh.name_gender("红霞") is None and zh.name_gender("磊") == "m"
    for r in rewrites("name", "张磊和刘静夫妇在成都开了一家火锅店。"):
        new = r.replacements[0].new
        if r.replacements[0].old == "张磊":
            assert zh.name_gender(new[1:]) == "m", new


def test_a_name_cut_short_before_a_verb_is_kept() -> None:
    assert "赖建明" in refused("name", "村民赖建明说，他家的稻田去年减产了三成。")


@pytest.mark.parametrize(
    "text",
    [
        "葡萄牙使馆提醒游客前往圣托里尼岛注意安全。",
        "印度尼西亚新任总统宣誓就职。",
        "澳大利亚对华铁矿石发货量增加。",
    ],
)
def test_country_with_a_place_a_head_of_state_or_a_commodity_is_kept(text: str) -> None:
    refused("country", text)


# --- eighth audit round (benchmarks/audit/text8): its sources ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "加拿大旅游局数据显示，去年访加的中国游客超过五十万人次。",
        "游客在希腊雅典卫城排队参观。",
    ],
)
def test_country_named_by_its_short_form_or_beside_its_landmark_is_kept(text: str) -> None:
    refused("country", text)


def test_a_short_form_is_not_read_into_the_full_name() -> None:
    assert tz._visit_form("游客在希腊度假。", "希腊") is None
    assert tz._visit_form("去年访加的游客增加。", "加拿大") == "访加"


def test_a_city_after_its_country_counts_whatever_tag_jieba_gives_it() -> None:
    # tenth round: 泰国清迈 (清迈 tagged 'a'), 厄瓜多尔基多 (基多 tagged 'd') became 越南清迈, 哥伦比亚基多
    refused("country", "不少老人选择到泰国清迈过冬。")
    refused("country", "论坛在厄瓜多尔基多举行。")


# --- eleventh audit round (benchmarks/audit/text11): its sources ---------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "据德国之声报道，德国多所大学的中国留学生注册人数连续第三年下降，但攻读工程类专业的学生比例有所上升。",
        "美国国家航空航天局与日本宇宙航空研究开发机构联合公布的分析结果显示，小行星样本中含有多种氨基酸，为研究生命起源提供了新线索。",
        "美国食品药品监督管理局批准了首款治疗镰状细胞病的基因编辑疗法，该疗法由美国和英国的两家企业共同开发。",
        "新西兰乳业巨头恒天然上调了本季度牛奶收购价格预期，不少奶农总算松了一口气。",
    ],
)
def test_a_country_naming_a_body_is_kept(text: str) -> None:
    # 德国之声 -> 瑞士之声 and 加拿大食品药品监督管理局 invent a body; 澳大利亚乳业巨头恒天然 misplaces one
    assert "names a body" in refused("country", text)


def test_a_country_beside_a_body_of_every_country_is_still_replaced() -> None:
    assert rewrites("country", "越南代表团昨日抵达，双方签署了合作协议。")
