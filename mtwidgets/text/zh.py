"""The seven MR families of the Chinese NLP paper, for Chinese text (see ``rewrite.py``).

Each rewriter reads the jieba words of the text (:func:`mtwidgets.lang.zh.segment`,
cached per text), finds what its family may replace, verifies it against a lexicon, and
returns follow-ups it can defend, or a refusal with the reason:

- **name** (MR1): a Chinese person's name (surname + given name) becomes another name of
  the same gender; a name whose gender is unknown is left alone when 他/她 could refer to
  it, and a name also written another way (张先生, 小张, the given name alone) is left alone;
- **country** (MR2): a country becomes another of its region, in every mention, only where
  the text names it as a plain participant: any other place, a fact word (最, 世界, 人口,
  a currency, a product or animal a country is known for), a number, a description of the
  country (日本的…, 埃及是…) or its abbreviation (中美, 美方) make the rewriter refuse;
- **occupation** (MR3): an occupation becomes one of the same work and register
  (售货员 -> 营业员, 消防员 -> 消防队员), in every mention, unless it is a title beside a name;
- **punctuation** (MR4): corner brackets (both levels) written as mainland quotation
  marks, or a lone ellipsis as "……", everywhere in the text (not “” -> 「」: off-standard in
  mainland text, GB/T 15834; no full-width -> half-width: a typing slip);
- **noun**, **verb** (MR5, MR6): a word becomes its reviewed Cilin synonym
  (:mod:`mtwidgets.lang.zh_synonyms`);
- **reorder** (MR7): the sentences after the first (a news text's lead) change order, only
  those that open on their own (a time, a place, a named subject) and hold no reference
  word (这, 该, 他...) move, the others keep their place; a
  sentence that opens with a connective or a reference (但是, 此外, 他, 该, "警方则...") or
  holds a marker of dependence (比如, 请, 于是, 这, a reaction: 感动, 哭) moves with the one
  before it, orders that keep the last sentence last come first, and one that holds a reference (a pronoun, a
  demonstrative, a person named before) stays after every sentence it followed.

Every substitution replaces *all* occurrences of the old word (the summarization oracle
replaces it the same way in the source's summary), refuses when the old word also occurs
inside another word, and keeps the follow-up only if jieba still cuts the new word out as
the old one was (no word runs into its neighbours).

:func:`replay` applies a rewrite's replacements to another text under the same checks:
the second text of a similarity pair, or the source's summary for the summarization
oracle (``sum(Tf) == Replace(X1 -> X2)(sum(Ts))``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..lang import zh
from ..lang.zh_synonyms import synonyms, why_none
from .rewrite import FAMILIES, Replacement, Rewrite, Rewriter, Rewrites

__all__ = ["REWRITERS", "replay"]


@dataclass(frozen=True)
class _Site:
    """One mention to replace: ``text[start:end]`` is the old string, inside the jieba
    word ``text[word_start:word_end]``."""

    start: int
    end: int
    word_start: int
    word_end: int


@dataclass(frozen=True)
class _Target:
    """A string, all the places it is replaced at, and the strings it may become."""

    old: str
    sites: tuple[_Site, ...]
    news: tuple[str, ...]
    what: str  # "name", "country", ... for the note


# --- shared machinery ---------------------------------------------------------------------


def _words(text: str) -> tuple[zh.ZhWord, ...]:
    return zh.segment(text)


def _inside_title(text: str, start: int) -> bool:
    """Whether ``start`` lies inside a 《title》 (a work's name is not rewritten)."""
    return text.rfind("《", 0, start) > text.rfind("》", 0, start)


def _stray(text: str, old: str, sites: Sequence[_Site]) -> str | None:
    """The jieba word(s) in which ``old`` occurs outside ``sites`` (as a piece of a longer
    word), or ``None``."""
    covered = {s.start for s in sites}
    at = text.find(old)
    while at >= 0:
        if at not in covered:
            end = at + len(old)
            return "".join(w.word for w in zh.segment(text) if w.start < end and w.end > at)
        at = text.find(old, at + 1)
    return None


def _apply(text: str, edits: Sequence[tuple[_Site, str]]) -> tuple[str, tuple[Replacement, ...]]:
    """``text`` with each site's old string replaced by its new one (sites in any order)."""
    parts, reps, last = [], [], 0
    for site, new in sorted(edits, key=lambda e: e[0].start):
        parts += [text[last : site.start], new]
        reps.append(Replacement(site.start, site.end, text[site.start : site.end], new))
        last = site.end
    parts.append(text[last:])
    return "".join(parts), tuple(reps)


def _segmentation_kept(new_text: str, edits: Sequence[tuple[_Site, str]]) -> bool:
    """Whether jieba still cuts each replaced word out of ``new_text`` at the same edges
    (the word that held the old string, shifted by the length changes, begins and ends a
    jieba word), judged on the sentence around each site."""
    shift = 0
    bounds = []
    for site, new in sorted(edits, key=lambda e: e[0].start):
        start = site.word_start + shift
        shift += len(new) - (site.end - site.start)
        bounds.append((start, site.word_end + shift))
    spans = zh.sentence_spans(new_text)
    for start, end in bounds:
        lo, hi = next(((a, b) for a, b in spans if a <= start < b), (0, len(new_text)))
        hi = max(hi, end)
        words = zh.segment(new_text[lo:hi])
        if start not in {w.start + lo for w in words} or end not in {w.end + lo for w in words}:
            return False
    return True


def _build(text: str, targets: Sequence[_Target], rng: random.Random, k: int, why: str) -> Rewrites:
    """Up to ``k`` distinct follow-ups, one target replaced in each (targets and their
    candidates tried in an order drawn from ``rng``)."""
    if not targets:
        return Rewrites(why=why)
    order = list(targets)
    rng.shuffle(order)
    out: list[Rewrite] = []
    seen = {text}
    rejected: list[str] = []
    for target in order:
        news = list(target.news)
        if target.what not in ("noun", "verb"):  # synonyms keep their best-first order
            rng.shuffle(news)
        for new in news[:8]:
            edits = [(site, new) for site in target.sites]
            new_text, reps = _apply(text, edits)
            if new_text in seen:
                continue
            if not _segmentation_kept(new_text, edits):
                rejected.append(f"'{new}' would run into its neighbours")
                continue
            seen.add(new_text)
            note = f"{target.what} '{target.old}' -> '{new}'" + (
                f" ({len(reps)} mentions)" if len(reps) > 1 else ""
            )
            out.append(Rewrite(new_text, note, reps, {"family": target.what, "lang": "zh"}))
            break
        if len(out) >= k:
            break
    if not out:
        return Rewrites(why=rejected[0] if rejected else why)
    return Rewrites(out[:k])


def _group_sites(text: str, found: Iterable[tuple[str, _Site]]) -> tuple[dict[str, list[_Site]], list[str]]:
    """Sites grouped by the old string; strings that also occur inside other words are
    dropped with a reason (all mentions change, or none)."""
    groups: dict[str, list[_Site]] = {}
    for old, site in found:
        groups.setdefault(old, []).append(site)
    reasons = []
    for old in list(groups):
        stray = _stray(text, old, groups[old])
        if stray is not None:
            reasons.append(f"'{old}' also occurs inside '{stray}', which cannot change with it")
            del groups[old]
    return groups, reasons


def _absent(text: str, candidates: Iterable[str]) -> tuple[str, ...]:
    return tuple(c for c in candidates if c not in text)


def _checked(rewriter: Callable[[str, random.Random, int], Rewrites]) -> Rewriter:
    """The public signature ``rewrite(text, *, rng, k=1)``, with its argument checks."""

    def rewrite(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
        if not isinstance(text, str) or not text.strip():
            return Rewrites(why="the text is empty")
        if k < 1:
            return Rewrites(why=f"k must be at least 1, got {k}")
        return rewriter(text, rng, k)

    rewrite.__name__ = rewriter.__name__.lstrip("_")
    rewrite.__doc__ = rewriter.__doc__
    return rewrite


# --- MR1: names ---------------------------------------------------------------------------


def _other_mentions(text: str, words: Sequence[zh.ZhWord], full: str, surname: str, given: str) -> str | None:
    """Another way the text names the person ``full`` (张先生, 小张, the given name alone)."""
    for i, w in enumerate(words):
        if w.word == full:
            continue
        nxt = words[i + 1].word if i + 1 < len(words) else ""
        if w.word.startswith(surname) and w.word[len(surname) :] in zh._TITLES:
            return w.word
        if w.word == surname and nxt in zh._TITLES:
            return surname + nxt
        if w.word in ("小" + surname, "老" + surname, "阿" + surname):
            return w.word
    if len(given) == 2 and text.count(given) > text.count(full):
        return given
    return None


# What follows a surname in a familiar way of naming the person (秦姐, 王总, 李师傅), and what
# comes before it (老秦, 小秦): such a form keeps the old surname when the full name changes.
_FAMILIAR_SUFFIXES = ("姐", "哥", "叔", "姨", "总", "工", "老师", "师傅", "大爷", "阿姨", "先生", "女士")
_FAMILIAR_PREFIXES = ("老", "小")


def _familiar_form(text: str, full: str, surname: str) -> str | None:
    """A familiar form made from the surname of ``full`` anywhere in ``text`` (秦姐, 老秦),
    read on characters since jieba may segment it either way; ``None`` when there is none."""
    if not surname:
        return None
    start = text.find(surname)
    while start != -1:
        if not text.startswith(full, start):
            after = text[start + len(surname) :]
            suffix = next((x for x in _FAMILIAR_SUFFIXES if after.startswith(x)), None)
            if suffix is not None:
                return surname + suffix
            if start > 0 and text[start - 1] in _FAMILIAR_PREFIXES:
                return text[start - 1] + surname
        start = text.find(surname, start + 1)
    return None


def _same_surname(words: Sequence[zh.ZhWord], full: str, surname: str) -> str | None:
    """Another person's name in the text with the surname of ``full`` (哥哥陈磊, 弟弟陈鑫):
    family members share it, so renaming one with a new surname would part them."""
    for w in words:
        if (
            w.word != full
            and w.word.startswith(surname)
            and (w.flag.startswith("nr") or zh.split_name(w.word))
        ):
            parts = zh.split_name(w.word)
            if parts is not None and parts[0] == surname:
                return w.word
    return None


def _name_sites(text: str) -> list[tuple[str, _Site]]:
    """Each Chinese person's name: a jieba ``nr`` word that reads as surname + given name."""
    found = []
    words = _words(text)
    for i, w in enumerate(words):
        parts = zh.split_name(w.word) if w.flag.startswith("nr") else None
        # right after a place (中国商飞, 上海交大): a short name of an organisation, no person
        after_place = i > 0 and words[i - 1].end == w.start and words[i - 1].flag in ("ns", "nt")
        if parts and not after_place and not _inside_title(text, w.start):
            found.append((w.word, _Site(w.start, w.end, w.start, w.end)))
    return found


# Characters of given names of an older generation (淑英, 秀兰, 桂珍, 凤兰): a replacement
# with one of them would age the person, so it is drawn only for a name that has one.
_OLDER_GIVEN_CHARS = frozenset("淑秀桂凤兰珍")
# A pronoun word and the gender it says.
_PRONOUN_GENDER = {"他": "m", "她": "f"}


def _glued(text: str, site: _Site) -> str | None:
    """The dictionary word that the character before a name forms with its first
    character (现 + 金 in 现金红利: jieba's 金红利 is no name), or ``None``."""
    if site.start == 0:
        return None
    pair = text[site.start - 1 : site.start + 1]
    return pair if zh.dictionary_frequency(pair) >= zh.COMMON_WORD_FREQUENCY else None


def _pronoun_genders(words: Sequence[zh.ZhWord]) -> set[str]:
    """The genders that the text's third-person singular pronouns (他, 她) say."""
    return {_PRONOUN_GENDER[w.word] for w in words if w.word in _PRONOUN_GENDER}


def _name_gender_issue(full: str, gender: str | None, said: set[str], pronoun: str | None) -> str | None:
    """Why the gender of a new name for ``full`` cannot be told, or ``None``: an unknown
    gender beside a pronoun that may refer to the person, or a gender that the pronouns
    contradict (柯洁 with only 他: the name and the text disagree)."""
    if gender is None and pronoun is not None:
        return f"the gender of '{full}' is unknown and '{pronoun}' may refer to them"
    if pronoun in _GENDERED_ROLES and gender is not None and said and gender not in said:
        return f"the name '{full}' does not read as the gender the text says"
    if gender is not None and said and gender not in said:
        said_by = "他" if "m" in said else "她"
        return f"the name '{full}' does not read as the gender that '{said_by}' in the text says"
    return None


# jieba frequency from which a one-character given name is a common word of its own (想, 要,
# 说): 李想 or 王要 would read as a verb after a surname rather than as a name.
_COMMON_GIVEN_CHAR_FREQUENCY = 1000


def _plain_name(name: str) -> bool:
    """Whether ``name`` reads as an ordinary person's name: no jieba entry of its own (汪峰,
    a celebrity's full name, is one) and no one-character given name that is a common word."""
    if zh.dictionary_frequency(name) >= 1:
        return False
    given = name[1:]
    return len(given) != 1 or zh.dictionary_frequency(given) < _COMMON_GIVEN_CHAR_FREQUENCY


def _name_candidates(given: str, gender: str | None, text: str, rng: random.Random) -> tuple[str, ...]:
    """Up to eight new full names of ``gender`` that share no character with ``text``,
    without older-generation given names unless ``given`` is one, and only plain names
    (see :func:`_plain_name`)."""
    older = bool(set(given) & _OLDER_GIVEN_CHARS)
    pool = [n for n in zh.name_pool(gender) if older or not set(n[1:]) & _OLDER_GIVEN_CHARS]
    drawn = (pool[rng.randrange(len(pool))] for _ in range(40))
    fresh = [n for n in dict.fromkeys(drawn) if n[0] not in text and n[1:] not in text and _plain_name(n)]
    return tuple(fresh[:8])


# Role words that say a person's gender, or pair a man and a woman (夫妻, 混双).
_GENDERED_ROLES = tuple(
    "妻子 丈夫 夫妻 夫妇 老公 老婆 太太 女士 先生 混双 混合双打 男女 母亲 父亲 妈妈 爸爸 女儿 儿子 姐姐 妹妹 哥哥 弟弟 "
    "姐妹 兄弟 婆婆 公公 奶奶 爷爷 外婆 外公 新娘 新郎".split()
)
# What may follow a name as a word of one character (a verb, a preposition, a particle).
_AFTER_NAME = frozenset("说在是的和与也等将已被对把为向从给让称讲问答告带到去来又还就都曾正刚才便则却亦并及或跟同")


def _cut_short(full: str, after: str) -> bool:
    """Whether jieba may have cut a name short before ``after``, the word that follows it:
    a lone character that is no verb, preposition or particle (朱梓|涵), or, after a
    two-character name, a word whose first character would end the name and whose second
    is such a word (赖建|明说: 赖建明 said)."""
    first = after[:1]
    if not ("\u4e00" <= first <= "\u9fff") or first in _AFTER_NAME:
        return False
    return len(after) == 1 or (len(full) == 2 and after[1:2] in _AFTER_NAME)


def _whole_names(text: str, found: Sequence[tuple[str, _Site]]) -> tuple[list[tuple[str, _Site]], list[str]]:
    """The names of ``found`` that are whole, ordinary names, and why the others are not:
    an entry of jieba's dictionary (韩文, a language; 甘德), or a name jieba cut short
    (:func:`_cut_short`)."""
    starts = {w.start: w for w in _words(text)}
    kept, why = [], []
    for full, site in found:
        after = starts.get(site.end)
        if zh.dictionary_frequency(full) >= 1:
            why.append(f"'{full}' is a word of the dictionary (a language, a place, a known person), not an ordinary name")
        elif after is not None and _cut_short(full, after.word):
            why.append(f"'{full}' may be cut from a longer name ('{full}{after.word[0]}')")
        else:
            kept.append((full, site))
    return kept, why


def _rewrite_name(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR1: a Chinese person's name becomes another of the same gender."""
    words = _words(text)
    found = []
    glued_reasons = []
    for full, site in _name_sites(text):
        glued = _glued(text, site)
        if glued is None:
            found.append((full, site))
        else:
            glued_reasons.append(f"'{full}' is no name: its first character forms the word '{glued}'")
    if glued_reasons and not found:
        return Rewrites(why=glued_reasons[0])
    if not found:
        return Rewrites(why="no Chinese person's name (surname + given name) in the text")
    found, cut = _whole_names(text, found)
    if not found:
        return Rewrites(why=cut[0] if cut else "no Chinese person's name (surname + given name) in the text")
    groups, reasons = _group_sites(text, found)
    reasons = cut + reasons
    # a role word that says a gender (妻子, 混双) may refer to the person, as 他/她 may
    pronoun = next((p for p in (*zh.PRONOUNS, *_GENDERED_ROLES) if p in text), None)
    said = _pronoun_genders(words)
    targets = []
    for full, sites in groups.items():
        surname, given = zh.split_name(full) or ("", "")
        other = _other_mentions(text, words, full, surname, given) or _familiar_form(text, full, surname)
        if other is not None:
            reasons.append(f"'{full}' is also called '{other}', which would not change with it")
            continue
        kin = _same_surname(words, full, surname)
        if kin is not None:
            reasons.append(
                f"'{kin}' shares the surname of '{full}' (a relative?), and a new surname would part them"
            )
            continue
        gender = zh.name_gender(given)
        issue = _name_gender_issue(full, gender, said, pronoun)
        if issue is not None:
            reasons.append(issue)
            continue
        fresh = _name_candidates(given, gender, text, rng)
        targets.append(_Target(full, tuple(sites), fresh, "name"))
    reasons += glued_reasons
    return _build(text, targets, rng, k, reasons[0] if reasons else "no name can be replaced")


# --- MR2: countries -----------------------------------------------------------------------


def _country_sites(text: str) -> list[tuple[str, _Site]]:
    """Each country: a jieba word that is a country, or a country and a suffix (法国队)."""
    found = []
    for w in _words(text):
        hit = zh.country_in(w.word)
        if hit and not _inside_title(text, w.start):
            found.append((hit[0], _Site(w.start, w.start + len(hit[0]), w.start, w.end)))
    return found


# Endings of a place's name (圣托里尼岛, 加拉帕戈斯群岛, 安第斯山脉): a place of the country.
_PLACE_SUFFIXES = tuple("群岛 半岛 岛 山脉 高原 盆地 平原 沙漠 湖 河 省 州 郡 峰 峡湾".split())
# Heads of state and government: not every country has each (a king, a president).
_HEADS = frozenset("总统 副总统 国王 女王 王室 王储 首相 总理 元首 苏丹 埃米尔".split())
_NUMBER = re.compile(r"[0-9０-９]|百分之|[十百千万亿]")
# Competitions and leagues tied to a region (a country of another region cannot play in
# 欧洲杯), found anywhere in the text since jieba cuts them variously (欧冠 as nr).
_REGIONAL_CONTESTS = (
    "欧洲杯 亚洲杯 非洲杯 美洲杯 非洲国家杯 美洲国家杯 金杯赛 欧冠 亚冠 欧联 欧协联 欧国联 欧锦赛 "
    "亚锦赛 亚运 东亚运 东南亚运 全运 亚预赛 欧预赛 南美预选 欧洲冠军 亚洲冠军 非洲冠军 解放者杯 "
    "欧洲联赛 亚洲联赛 六国赛 英超 西甲 德甲 意甲 法甲 日职 韩职 中超 美职"
).split()
# A named foreign newspaper, broadcaster or news agency whose country the text states
# with it (据纽约时报报道…美国): the source would not change with the country.
_NEWS_SOURCES = (
    "纽约时报 华盛顿邮报 华尔街日报 洛杉矶时报 今日美国 时代周刊 美联社 彭博社 路透社 法新社 德新社 "
    "埃菲社 安莎社 共同社 时事社 塔斯社 俄新社 韩联社 泰晤士报 卫报 金融时报 每日电讯报 独立报 "
    "英国广播公司 世界报 费加罗报 明镜周刊 朝日新闻 读卖新闻 每日新闻 产经新闻 日经新闻 朝鲜日报 中央日报 "
    "东亚日报 美国有线电视新闻网 福克斯新闻 BBC CNN NHK"
).split()


def _visit_form(text: str, country: str) -> str | None:
    """``country``'s one-character form after a verb of travel (访加, 来美, 赴日), or ``None``;
    not the full name after it (在希腊)."""
    abbr = zh.COUNTRY_ABBREVIATIONS.get(country)
    if not abbr:
        return None
    for m in re.finditer(f"[访来赴抵离在旅留]{abbr}", text):
        if not any(text.startswith(name, m.start() + 1) for name in zh.countries() if name.startswith(abbr)):
            return m.group()
    return None


def _country_context(text: str) -> str | None:
    """A regional competition or a named foreign news source in ``text``, or ``None``."""
    contest = next((c for c in _REGIONAL_CONTESTS if c in text), None)
    if contest is not None:
        return f"the competition '{contest}' is tied to a region or country"
    source = next((c for c in _NEWS_SOURCES if c in text), None)
    if source is not None:
        return f"the news source '{source}' is tied to a country"
    return None


# Heads of an organisation's name (德国之声, 美国食品药品监督管理局, 新西兰乳业巨头恒天然): the
# body exists under that country's name only, so a replacement invents one or misplaces it.
_BODY_HEADS = tuple("之声 机构 管理局 监督局 总局 委员会 研究院 研究所 通讯社 电视台 广播电台 广播公司 巨头 集团 公司 航空".split())


def _named_body(words: Sequence[zh.ZhWord], i: int) -> str | None:
    """The name of a body that the country word ``words[i]`` opens (its following nouns, up
    to a verb, a particle or punctuation, end in one of :data:`_BODY_HEADS`), or ``None``."""
    name = words[i].word
    if name.endswith(_BODY_HEADS):
        return name
    if "".join(w.word for w in words[i + 1 : i + 3]).startswith("之声"):  # jieba cuts 德国|之|声
        return name + "之声"
    for w in words[i + 1 : i + 6]:
        if w.flag.startswith(("v", "u", "c", "p", "x", "w", "m")) or not w.word.strip() or w.word in "，。、；：！？":
            return None
        name += w.word
        if w.word.endswith(_BODY_HEADS):
            return name
    return None


def _country_fact(text: str, words: Sequence[zh.ZhWord], country: str) -> str | None:
    """What in ``text`` ties it to ``country`` beyond naming it, or ``None``: another
    place (a city, river or region: jieba's ``ns`` words, the gazetteer's cities, 我国),
    a fact word (:data:`~mtwidgets.lang.zh.COUNTRY_FACT_WORDS`: a ranking, a currency, a
    product or an animal it is known for), a number, or the country as the owner or the
    subject of a description (日本的樱花, 埃及是…). Only a text in which the country is a
    plain participant (代表团访问了法国, 法国队获胜) may name another country instead."""
    for i, w in enumerate(words):
        if w.word in zh.CHINA_CONTEXT or w.word in zh.CHINA_PLACES:
            return f"'{w.word}' ties the text to China"
        # a word of the city gazetteer is a place whatever jieba tags it (清迈 'a', 基多 'd'),
        # unless jieba reads it as a verb (合作, a town in Gansu, in 加强合作)
        place = (w.flag == "ns" or (len(w.word) >= 2 and not w.flag.startswith("v") and w.word in zh._city_countries())
                 or (len(w.word) >= 3 and (w.word.endswith(_PLACE_SUFFIXES)
                                           or w.word[:2] in zh._city_countries() or w.word[:3] in zh._city_countries())))
        if place and zh.country_in(w.word) is None:
            return f"the place '{w.word}' belongs to the text's facts"
        fact = next(
            (f for f in zh.COUNTRY_FACT_WORDS if f in w.word and (len(f) > 1 or f == w.word[0])), None
        )
        if fact is not None:  # also inside a longer word (世界杯, 世界卫生组织, 最高)
            return f"'{w.word}' states a fact that may not hold of another country"
        hit = zh.country_in(w.word)
        nxt = words[i + 1].word if i + 1 < len(words) else ""
        if hit and hit[0] == country and nxt in ("的", "是", "有", "以", "因"):
            return f"the text describes {country} ('{w.word}{nxt}…')"
        if hit and hit[0] == country and (hit[1] in _HEADS or nxt in _HEADS):
            return f"'{w.word}{'' if hit[1] else nxt}': another country may have no {hit[1] or nxt} (比利时 has a king)"
        named = _named_body(words, i) if hit and hit[0] == country else None
        if named is not None:
            return f"'{named}' names a body of {country} (a broadcaster, an agency, a company), which would not change with it"
    spanning = next((f for f in zh.COUNTRY_FACT_WORDS if len(f) >= 3 and f in text), None)
    if spanning is not None:  # 新兴市场 cut by jieba as 新兴|市场
        return f"'{spanning}' states a fact that may not hold of another country"
    number = _NUMBER.search(text)
    if number is not None:
        return f"the number '{number.group()}' may not hold of another country"
    return None


def _rewrite_country(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR2: a country that the text names as a plain participant (no fact about it, no
    place of it, no number) becomes a peer (:mod:`mtwidgets.lang.country_peers`), in every
    mention; a text that also speaks of China by its short form (访华, 来华) keeps it."""
    from ..lang.country_peers import peers

    short = re.search(r"[访来在赴离]华|华人|华侨|中方", text)
    if short is not None:
        return Rewrites(why=f"'{short.group()}' speaks of China, which a replacement would leave behind")
    words = _words(text)
    found = _country_sites(text)
    if not found:
        return Rewrites(why="no country name in the text")
    context = _country_context(text)
    if context is not None:
        return Rewrites(why=context)
    groups, reasons = _group_sites(text, found)
    # A person's or place's name that is not a Chinese one (马克龙, 拜登, 圣托|里尼岛: jieba's
    # nr/nrt words) may belong to the country.
    foreigner = next(
        (w.word for w in words if w.flag in ("nr", "nrt") and len(w.word) >= 2 and zh.split_name(w.word) is None
         and zh.country_in(w.word) is None), None
    )
    targets = []
    for country, sites in groups.items():
        abbr = next((w.word for w in words if zh.abbreviates(w.word, country)), None) or _visit_form(text, country)
        if abbr is not None:
            reasons.append(f"'{country}' is also referred to as '{abbr}', which would not change with it")
            continue
        fact = _country_fact(text, words, country)
        if fact is not None:
            reasons.append(fact)
            continue
        if foreigner is not None:
            reasons.append(f"'{foreigner}' may be a person or place of {country}, which would not change with it")
            continue
        code = zh.country_codes().get(country)
        peer_codes = peers(code) if code else frozenset()
        if not peer_codes:
            reasons.append(f"{country} has no peer alike in what a text may say of it (exports, climate, customs, size)")
            continue
        pool = [c for c in _absent(text, zh.region_of(country)) if c != country and zh.country_codes().get(c) in peer_codes]
        targets.append(_Target(country, tuple(sites), tuple(pool), "country"))
    return _build(text, targets, rng, k, reasons[0] if reasons else "no country can be replaced")


# --- MR3: occupations ---------------------------------------------------------------------


def _occupation_sites(text: str) -> list[tuple[str, _Site]]:
    """Each occupation: a jieba noun that is one, possibly after a modifier or a surname."""
    found = []
    for w in _words(text):
        # jieba tags some occupations vn (教练, 裁判) or l (售货员)
        hit = zh.occupation_in(w.word) if w.flag.startswith("n") or w.flag in ("vn", "l") else None
        if hit and not _inside_title(text, w.start):
            start = w.start + len(hit[0])
            found.append((hit[1], _Site(start, start + len(hit[1]), w.start, w.end)))
    return found


def _rewrite_occupation(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR3: an occupation becomes another of the same work, in every mention."""
    found = _occupation_sites(text)
    if not found:
        return Rewrites(why="no occupation of the lexicon in the text")
    groups, reasons = _group_sites(text, found)
    words = _words(text)
    targets = []
    for job, sites in groups.items():
        title = next((n for n in (_next_to_name(words, s) for s in sites) if n), None)
        if title is not None:
            reasons.append(
                f"'{job}' is used as a title next to the name '{title}', which its other names are not"
            )
            continue
        group = zh.occupation_group(job) or ""
        pool = [j for j in _absent(text, zh.OCCUPATION_GROUPS.get(group, ())) if j != job]
        if pool:
            targets.append(_Target(job, tuple(sites), tuple(pool), "occupation"))
        else:
            reasons.append(f"'{job}' has no occupation of the same work to become")
    return _build(text, targets, rng, k, reasons[0] if reasons else "no occupation can be replaced")


def _next_to_name(words: Sequence[zh.ZhWord], site: _Site) -> str | None:
    """The person's name (or surname) that the word at ``site`` stands right next to (张老师,
    医生张华, 王建国大夫), or ``None``: such a word is a title, and its synonyms are not
    titles alike (大夫张华 and 张华讲师 read wrongly)."""
    if site.start > site.word_start:  # a surname or modifier inside the word (张老师)
        return _words_text(words, site.word_start, site.start)
    for w in words:
        if (w.end == site.word_start or w.start == site.word_end) and (
            w.flag.startswith("nr") or zh.split_name(w.word) or w.word in zh._surname_set()
        ):
            return w.word
    return None


def _words_text(words: Sequence[zh.ZhWord], start: int, end: int) -> str:
    """The text of the words between offsets ``start`` and ``end``."""
    return "".join(w.word for w in words if w.start >= start and w.end <= end) or "?"


# --- MR4: punctuation ---------------------------------------------------------------------


def _punctuation_issue(text: str, marks: str, repl: str) -> str | None:
    """Why the marks ``marks`` of ``text`` cannot all become ``repl``, or ``None``: a pair
    of quotes must be balanced, open with the outer mark, and the text must hold none of
    the target style already (the follow-up keeps one style of quotes throughout)."""
    if marks == zh.ELLIPSIS:
        return None if any(zh.iter_marks(text, marks)) else "no lone ellipsis in the text"
    if marks[0] not in text:
        return f"no {marks[:2]} quotation in the text"
    if any(ch in text for ch in repl):
        return f"the text already uses {repl[:2]}, and would mix two styles of quotes"
    for i in range(0, len(marks), 2):
        if text.count(marks[i]) != text.count(marks[i + 1]):
            return f"the marks {marks[i : i + 2]} are not paired in the text"
    return None


def _convert_marks(text: str, marks: str, repl: str) -> tuple[str, tuple[Replacement, ...]]:
    """``text`` with every mark of ``marks`` written as its counterpart in ``repl``."""
    table = {marks: repl} if marks == zh.ELLIPSIS else dict(zip(marks, repl))
    reps = tuple(Replacement(at, at + len(m), m, table[m]) for at, m in zh.iter_marks(text, marks))
    parts, last = [], 0
    for r in reps:
        parts += [text[last : r.start], r.new]
        last = r.end
    parts.append(text[last:])
    return "".join(parts), reps


def _rewrite_punctuation(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR4: one kind of punctuation written its other standard way, in the whole text
    (every quotation mark of both levels, or every lone ellipsis)."""
    options, reasons = [], []
    for marks, repl, desc in zh.PUNCTUATION_PAIRS:
        issue = _punctuation_issue(text, marks, repl)
        if issue is None:
            options.append((marks, repl, desc))
        elif marks[0] in text:
            reasons.append(issue)
    if any(ch in text for ch in zh.MAINLAND_QUOTES) and "「" not in text and "『" not in text:
        reasons.insert(0, "mainland quotation marks stay: 「」 is off-standard in mainland horizontal text (GB/T 15834)")
    if not options:
        return Rewrites(
            why=reasons[0]
            if reasons
            else "no quotation marks or lone ellipsis to write the other standard way"
        )
    rng.shuffle(options)
    out = []
    for marks, repl, desc in options[:k]:
        new_text, reps = _convert_marks(text, marks, repl)
        meta = {"family": "punctuation", "lang": "zh", "marks": marks, "to": repl}
        out.append(Rewrite(new_text, f"punctuation: {desc} ({len(reps)}×)", reps, meta))
    return Rewrites(out)


# --- MR5 / MR6: synonyms ------------------------------------------------------------------


def _word_sites(text: str, pos: str) -> tuple[list[tuple[str, _Site]], list[str]]:
    """Each jieba word of two or more characters tagged ``pos`` (and never tagged otherwise
    in the text), with the reasons for the words left out."""
    words = _words(text)
    flags: dict[str, set[str]] = {}
    for w in words:
        flags.setdefault(w.word, set()).add(w.flag)
    found, reasons = [], []
    for w in words:
        if w.flag != pos or len(w.word) < 2 or _inside_title(text, w.start):
            continue
        if flags[w.word] != {pos}:
            reasons.append(f"'{w.word}' is used as another part of speech elsewhere in the text")
            continue
        found.append((w.word, _Site(w.start, w.end, w.start, w.end)))
    return found, reasons


# Heads of a compound that names a trade or an institution (船舶修造厂, 期刊编辑部, 夫妻档), and
# modifiers that make a set term (绿色船舶, 掠夺性期刊: any X性): a noun inside one keeps its word.
_TRADE_HEADS = tuple("厂 业 公司 企业 集团 行业 产业 工业 协会 学会 编辑部 局 所 站 港 码头 展 市场 技术 标准 档".split())
_TRADE_MODIFIERS = frozenset("绿色 智能 新型 远洋 内河 大型 中型 小型 学术 核心 权威 国际 国内".split())


def _bound(words: Sequence[zh.ZhWord], site: _Site, pos: str) -> str | None:
    """Why the word at ``site`` is bound to its neighbours, or ``None``: a noun right next
    to a person's name is a title (医生张华), and a word that forms a dictionary entry with
    its neighbour is part of a set phrase (获得成功) whose synonym does not fit."""
    if pos == "n":
        name = _next_to_name(words, site)
        if name is not None:
            return f"'{_words_text(words, site.start, site.end)}' is a title next to the name '{name}'"
    i = next((j for j, w in enumerate(words) if w.start == site.word_start), None)
    if i is None:
        return None
    if pos == "v" and i > 0 and words[i - 1].word == "的":
        return f"'{words[i].word}' is used as a noun after 的 (出色的表演), where its synonym may not be one"
    nxt = words[i + 1].word if i + 1 < len(words) else ""
    before = words[i - 1].word if i > 0 else ""
    if pos == "n" and (nxt.endswith(_TRADE_HEADS) or before in _TRADE_MODIFIERS or (len(before) >= 2 and before.endswith("性"))):
        # 船舶修造厂, 船舶制造业, 绿色船舶: the trade's own term, which its synonym is not
        return f"'{words[i].word}' is part of a set term ('{before}{words[i].word}{nxt}')"
    for j in (i - 1, i + 1):
        if 0 <= j < len(words):
            pair = words[min(i, j)].word + words[max(i, j)].word
            if zh.dictionary_frequency(pair) > 0:
                return f"'{pair}' is a set phrase"
    return None


def _synonym_rewriter(pos: str, what: str) -> Callable[[str, random.Random, int], Rewrites]:
    def _rewrite(text: str, rng: random.Random, k: int) -> Rewrites:
        found, reasons = _word_sites(text, pos)
        if not found:
            return Rewrites(why=reasons[0] if reasons else f"no {what} of two or more characters in the text")
        groups, more = _group_sites(text, found)
        reasons += more
        targets = []
        words = _words(text)
        for word, sites in groups.items():
            bound = next((b for b in (_bound(words, s, pos) for s in sites) if b), None)
            if bound is not None:
                reasons.append(bound)
                continue
            subs = _absent(text, synonyms(word, pos))
            if subs:
                targets.append(_Target(word, tuple(sites), subs[:1], what))
            else:
                reasons.append(why_none(word, pos))
        return _build(text, targets, rng, k, reasons[0] if reasons else f"no {what} has a synonym")

    _rewrite.__name__ = f"_rewrite_{what}"
    _rewrite.__doc__ = (
        f"MR{5 if pos == 'n' else 6}: a {what} becomes its reviewed Cilin synonym, in every mention."
    )
    return _rewrite


# --- MR7: sentence order ------------------------------------------------------------------

# A sentence opening with one of these leans on the sentence before it.
_LEANING_OPENERS = tuple(
    sorted(
        (
            "但 但是 然而 不过 可是 而 而且 并且 并 同时 此外 另外 另一方面 因此 所以 因而 于是 从而 此后 随后 之后 "
            "其后 后来 接着 紧接着 最终 最后 终于 其中 对此 为此 据此 由此 这 那 该 此 其 他 她 它 两人 二人 双方 "
            "对方 当时 当天 次日 同日 届时 然后 也 还 又 更 甚至 尤其 总之 可见 否则 因为 由于 原来 再 而是 与此同时 "
            "不仅如此 除此之外 除此以外 换句话说 也就是说 相比之下 相反 反之 同样 "
            # a relative named by its role (孩子患有…): introduced in the sentence before
            "孩子 女儿 儿子 丈夫 妻子 父亲 母亲 家人 老伴"
        ).split(),
        key=len,
        reverse=True,
    )
)
# Words that refer back to something named before (a sentence holding one keeps its place
# after the sentences it followed).
_REFERRING = frozenset(
    "他 她 它 他们 她们 它们 其 该 此 这 那 这些 那些 这个 那个 这位 那位 这家 这种 这项 这次 此次 此前 此后 "
    "两人 二人 双方 对方 此事 该队 本人 自己 其中 前者 后者 上述".split()
)
# Adverbs in a first clause that answer a previous sentence.
_LEANING_ADVERBS = frozenset(
    "则 也 还 又 却 亦 仍 仍然 依然 同样 随即 便 才 再 也将 也是 还是 则是 因此 因而 所以 于是 为此 对此 随后 此后 "
    "之后 然而 但 但是 不过 并 而".split()
)
# A sentence holding one of these depends on its neighbour and never moves away from it: an
# example (比如, 以印尼为例), "also" (在中国…也), "the local" (当地), an instruction whose speaker comes before (请), a consequence (于是, 结果),
# a reference (这, 那, 其中, 俩), or a reaction to what was told before it (读着读着，我的眼眶
# 就湿了; 很多顾客被感动).
_DEPENDENT_MARKERS = (
    "比如 例如 譬如 为例 请 读着 听着 看着 于是 结果 其中 这 那 俩 也 当地 "
    "哭 泪 感动 湿了 激动 欣慰 感慨 心疼 笑了 惊讶 震惊"
).split()
_CLAUSE_END = re.compile(r"[，,：:；;]")
_ORDINALS = ("首先", "其次", "再次", "第一", "第二", "第三", "一是", "二是", "三是", "最后")
_OPEN_CLOSE = ("“”", "「」", "『』", "（）", "《》", "‘’")


def _quotes_open(s: str) -> bool:
    return any(s.count(pair[0]) != s.count(pair[1]) for pair in _OPEN_CLOSE)


def _first_clause(sentence: str) -> str:
    return _CLAUSE_END.split(sentence, maxsplit=1)[0]


def _leans(sentence: str) -> bool:
    """Whether a sentence leans on the one before it: it opens with a connective or a
    reference, holds a marker of dependence (:data:`_DEPENDENT_MARKERS`), or its first clause holds an adverb that answers a previous sentence
    ("警方则表示...", "他们也...")."""
    if sentence.startswith(_LEANING_OPENERS) or any(m in sentence for m in _DEPENDENT_MARKERS):
        return True
    return any(w.word in _LEANING_ADVERBS for w in zh.segment(_first_clause(sentence)))


def _blocks(text: str) -> list[str]:
    """The text's sentences, each glued to the one before when it leans on it or when a
    quotation runs across them."""
    blocks: list[str] = []
    for start, end in zh.sentence_spans(text):
        s = text[start:end].strip()
        if blocks and (_leans(s) or _quotes_open(blocks[-1])):
            blocks[-1] += s
        else:
            blocks.append(s)
    return blocks


def _names(block: str) -> set[str]:
    return {w.word for w in zh.segment(block) if w.flag.startswith("nr") and zh.split_name(w.word)}


def _refers(block: str, before: Sequence[str]) -> bool:
    """Whether ``block`` refers back: a pronoun or demonstrative, or a person named in
    ``before`` (a later mention reads wrongly ahead of the one that introduces them)."""
    if any(w.word in _REFERRING for w in zh.segment(block)):
        return True
    earlier = set().union(*(_names(b) for b in before)) if before else set()
    return bool(_names(block) & earlier)


_DATE_OPENER = re.compile(r"^(?:[0-9０-９]+|[一二三四五六七八九十〇零两]+)(?:年|月|日|号)")
# Prepositions that open a place or source adverbial (在上海，…; 据新华社…).
_PLACE_PREPOSITIONS = frozenset("在 于 据 从".split())


def _opens_on_its_own(sentence: str) -> bool:
    """Whether ``sentence`` opens with what anchors it without the one before: a time
    (昨天下午, 2023年), a place (北京, 在上海), or a named subject (李明, 华为公司).
    A sentence that opens otherwise (说多了…, 改造后…) may continue the one before."""
    if _DATE_OPENER.match(sentence):
        return True
    words = [w for w in zh.segment(sentence) if w.word.strip()][:2]
    if not words:
        return False
    first = words[0]
    if first.flag in ("t", "ns", "nt") or (first.flag.startswith("nr") and zh.split_name(first.word)):
        return True
    return first.word in _PLACE_PREPOSITIONS and len(words) > 1 and words[1].flag in ("ns", "nt", "t")


def _refers_anywhere(block: str) -> bool:
    """Whether ``block`` holds a reference word: a pronoun or demonstrative (他们, 这里,
    该公司, 此时), which may point at any sentence before it."""
    for w in zh.segment(block):
        if w.word in _REFERRING or w.word.startswith(("这", "那", "此", "该")):
            return True
        if any(p in w.word for p in "他她它") and w.word not in ("其他", "其它"):
            return True
    return False


def _movable(block: str) -> bool:
    """Whether ``block`` may change place: it opens on its own and refers to nothing."""
    return _opens_on_its_own(block) and not _refers_anywhere(block)


def _rewrite_reorder(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR7: two neighbouring sentences that stand on their own change places (sentences that
    lean on their neighbours are glued to them; the lead and the last sentence stay)."""
    spans = zh.sentence_spans(text)
    if len(spans) < 2:
        return Rewrites(why="the text has one sentence only")
    if text[spans[-1][0] : spans[-1][1]].strip()[-1:] not in "。！？!?”’」』）)…":
        return Rewrites(why="the last sentence has no end mark, so it cannot move")
    if any(o in text for o in _ORDINALS):
        return Rewrites(
            why="the text counts its points (首先, 第一, 最后...): their order is part of the meaning"
        )
    blocks = _blocks(text)
    if len(blocks) < 3:
        return Rewrites(
            why="fewer than two sentences after the lead stand on their own (the others lean on the "
            "one before: a connective, a reference or a quotation)"
        )
    fixed = [j for j in range(1, len(blocks)) if _refers(blocks[j], blocks[:j])]
    pinned = [j for j in range(1, len(blocks)) if not _movable(blocks[j])]
    if len(blocks) - 1 - len(pinned) < 2:
        return Rewrites(
            why="fewer than two sentences after the lead open on their own (a time, a place or a named "
            "subject) without a reference word, and only those may move"
        )
    # Only two neighbouring blocks that open on their own and refer to nothing change places,
    # and never the last (a closing quote or summing-up): wider shuffles split parallel
    # examples around a closing remark and reversed time order in every audit round.
    last = len(blocks) - 1
    alone = {j for j in range(1, last) if j not in pinned and j not in fixed}
    identity = tuple(range(len(blocks)))
    orders = [identity[:j] + (j + 1, j) + identity[j + 2:] for j in range(1, last - 1) if j in alone and j + 1 in alone]
    if not orders:
        return Rewrites(
            why="no two neighbouring sentences before the last open on their own (a time, a place or a named "
            "subject) without referring back, and only such a pair changes places"
        )
    rng.shuffle(orders)
    sep = "\n" if "\n" in text.strip() else ""
    out = []
    for order in orders[:k]:
        new = sep.join(blocks[i] for i in order)
        note = "sentences reordered: " + ", ".join(str(i + 1) for i in order)
        out.append(Rewrite(new, note, (), {"family": "reorder", "lang": "zh", "order": list(order)}))
    return Rewrites(out)


# --- the same replacements in another text -----------------------------------------------

_FINDERS: dict[str, Callable[[str], list[tuple[str, _Site]]]] = {
    "name": _name_sites,
    "country": _country_sites,
    "occupation": _occupation_sites,
    "noun": lambda text: _word_sites(text, "n")[0],
    "verb": lambda text: _word_sites(text, "v")[0],
}


def _replay_punctuation(text: str, rewrite: Rewrite) -> Rewrites:
    marks = str(rewrite.meta.get("marks", ""))
    repl = str(rewrite.meta.get("to", ""))
    if not marks:
        return Rewrites(why="the rewrite does not say which marks it converted")
    if not any(ch in text for ch in marks):
        return Rewrites([Rewrite(text, f"no mention of {marks}", (), {**rewrite.meta, "replayed": True})])
    issue = _punctuation_issue(text, marks, repl)
    if issue is not None:
        return Rewrites(why=issue)
    new_text, reps = _convert_marks(text, marks, repl)
    return Rewrites(
        [Rewrite(new_text, f"{rewrite.note} (replayed)", reps, {**rewrite.meta, "replayed": True})]
    )


def _replayed_name_issue(text: str, names: Iterable[str]) -> str | None:
    """Why the names ``names`` of another text cannot change in ``text``: the pronouns of
    ``text`` may refer to them while their gender is unknown, or contradict it."""
    said = _pronoun_genders(_words(text))
    pronoun = next((p for p in zh.PRONOUNS if p in text), None)
    for full in names:
        given = (zh.split_name(full) or ("", full[1:]))[1]
        issue = _name_gender_issue(full, zh.name_gender(given), said, pronoun)
        if issue is not None:
            return issue
    return None


def replay(family: str, text: str, rewrite: Rewrite) -> Rewrites:
    """The replacements of ``rewrite`` (a rewrite of another text) applied to ``text`` the
    same way, word for word: the paper's ``Replace(X1 -> X2)`` on the other text of a
    similarity pair, or on the source's summary for the summarization oracle.

    Returns one :class:`Rewrite` (its text unchanged, with no replacements, when ``text``
    does not mention the old word), or an empty :class:`Rewrites` with the reason when the
    old word occurs in ``text`` in a way that cannot change alike (inside a longer word,
    as another part of speech) or the new word would run into its neighbours. A reordering
    has nothing to replay (similarity swaps the two texts instead)."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    if family == "reorder":
        return Rewrites(why="a reordering has no replacements to replay")
    if not isinstance(text, str) or not text.strip():
        return Rewrites(why="the text is empty")
    if family == "punctuation":
        return _replay_punctuation(text, rewrite)
    pairs = {r.old: r.new for r in rewrite.replacements}
    found = [(old, site) for old, site in _FINDERS[family](text) if old in pairs]
    groups, reasons = _group_sites(text, found)
    for old in pairs:
        if old in text and old not in groups:
            inside = _stray(text, old, ())
            why = f"'{old}' occurs inside '{inside}', which cannot change with it" if inside != old else None
            return Rewrites(why=reasons[0] if reasons else why or f"'{old}' is not a {family} in this text")
    if family == "name":
        issue = _replayed_name_issue(text, groups)
        if issue is not None:
            return Rewrites(why=issue)
    edits = [(site, pairs[old]) for old, sites in groups.items() for site in sites]
    new_text, reps = _apply(text, edits)
    if edits and not _segmentation_kept(new_text, edits):
        return Rewrites(why="a new word would run into its neighbours in this text")
    note = f"{rewrite.note} (replayed)" if reps else f"no mention of {', '.join(repr(o) for o in pairs)}"
    return Rewrites([Rewrite(new_text, note, reps, {**rewrite.meta, "replayed": True})])


REWRITERS: dict[str, Rewriter] = {
    "name": _checked(_rewrite_name),
    "country": _checked(_rewrite_country),
    "occupation": _checked(_rewrite_occupation),
    "punctuation": _checked(_rewrite_punctuation),
    "noun": _checked(_synonym_rewriter("n", "noun")),
    "verb": _checked(_synonym_rewriter("v", "verb")),
    "reorder": _checked(_rewrite_reorder),
}
assert tuple(REWRITERS) == FAMILIES
