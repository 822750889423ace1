"""The seven MR families of the Chinese NLP paper, for Chinese text (see ``rewrite.py``).

Each rewriter reads the jieba words of the text (:func:`mtwidgets.lang.zh.segment`,
cached per text), finds what its family may replace, verifies it against a lexicon, and
returns follow-ups it can defend, or a refusal with the reason:

- **name** (MR1): a Chinese person's name (surname + given name) becomes another name of
  the same gender; a name whose gender is unknown is left alone when 他/她 could refer to
  it, and a name also written another way (张先生, 小张, the given name alone) is left alone;
- **country** (MR2): a country becomes another of its region, in every mention, unless
  the text names a place of it (上海 for 中国) or calls it by its abbreviation (中美, 美方);
- **occupation** (MR3): an occupation becomes one that does nearly the same work
  (程序员 -> 工程师), in every mention;
- **punctuation** (MR4): one mark is written the other way of its pair, everywhere;
- **noun**, **verb** (MR5, MR6): a word becomes its reviewed Cilin synonym
  (:mod:`mtwidgets.lang.zh_synonyms`);
- **reorder** (MR7): the sentences after the first (a news text's lead) change order, but a
  sentence that opens with a connective or a reference (但是, 此外, 他, 该, "警方则...")
  moves with the one before it, and one that holds a reference (a pronoun, a
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

import itertools
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


def _name_sites(text: str) -> list[tuple[str, _Site]]:
    """Each Chinese person's name: a jieba ``nr`` word that reads as surname + given name."""
    found = []
    for w in _words(text):
        parts = zh.split_name(w.word) if w.flag.startswith("nr") else None
        if parts and not _inside_title(text, w.start):
            found.append((w.word, _Site(w.start, w.end, w.start, w.end)))
    return found


def _rewrite_name(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR1: a Chinese person's name becomes another of the same gender."""
    words = _words(text)
    found = _name_sites(text)
    if not found:
        return Rewrites(why="no Chinese person's name (surname + given name) in the text")
    groups, reasons = _group_sites(text, found)
    pronoun = next((p for p in zh.PRONOUNS if p in text), None)
    targets = []
    for full, sites in groups.items():
        surname, given = zh.split_name(full) or ("", "")
        other = _other_mentions(text, words, full, surname, given)
        if other is not None:
            reasons.append(f"'{full}' is also called '{other}', which would not change with it")
            continue
        gender = zh.name_gender(given)
        if gender is None and pronoun is not None:
            reasons.append(f"the gender of '{full}' is unknown and '{pronoun}' may refer to them")
            continue
        pool = zh.name_pool(gender)
        drawn = (pool[rng.randrange(len(pool))] for _ in range(40))
        fresh = [n for n in dict.fromkeys(drawn) if n[0] not in text and n[1:] not in text][:8]
        targets.append(_Target(full, tuple(sites), tuple(fresh), "name"))
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


def _rewrite_country(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR2: a country becomes another well-known country, in every mention."""
    words = _words(text)
    found = _country_sites(text)
    if not found:
        return Rewrites(why="no country name in the text")
    groups, reasons = _group_sites(text, found)
    # Places are what jieba tags as such, and the words that tie a text to China (我国):
    # the gazetteer also holds towns named like common words (合作, a town in Gansu).
    places = [w for w in words if w.flag == "ns" or w.word in zh.CHINA_PLACES]
    # A person's name that is not a Chinese one (马克龙, 拜登) may belong to the country.
    foreigner = next(
        (w.word for w in words if w.flag == "nr" and len(w.word) >= 2 and zh.split_name(w.word) is None), None
    )
    targets = []
    for country, sites in groups.items():
        abbr = next((w.word for w in words if zh.abbreviates(w.word, country)), None)
        if abbr is not None:
            reasons.append(f"'{country}' is also referred to as '{abbr}', which would not change with it")
            continue
        place = next((w.word for w in places if zh.lies_in(w.word, country)), None)
        if place is not None:
            reasons.append(f"'{place}' lies in {country}, and would not change with it")
            continue
        if foreigner is not None:
            reasons.append(f"'{foreigner}' may be a person of {country}, who would not change with it")
            continue
        chinese = any(zh.lies_in(w.word, "中国") for w in places)
        pool = [
            c for c in _absent(text, zh.region_of(country)) if c != country and not (c == "中国" and chinese)
        ]
        targets.append(_Target(country, tuple(sites), tuple(pool), "country"))
    return _build(text, targets, rng, k, reasons[0] if reasons else "no country can be replaced")


# --- MR3: occupations ---------------------------------------------------------------------


def _occupation_sites(text: str) -> list[tuple[str, _Site]]:
    """Each occupation: a jieba noun that is one, possibly after a modifier or a surname."""
    found = []
    for w in _words(text):
        hit = zh.occupation_in(w.word) if w.flag.startswith("n") else None
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
    targets = []
    for job, sites in groups.items():
        group = zh.occupation_group(job) or ""
        pool = [j for j in _absent(text, zh.OCCUPATION_GROUPS.get(group, ())) if j != job]
        if pool:
            targets.append(_Target(job, tuple(sites), tuple(pool), "occupation"))
        else:
            reasons.append(f"'{job}' has no occupation of the same work to become")
    return _build(text, targets, rng, k, reasons[0] if reasons else "no occupation can be replaced")


# --- MR4: punctuation ---------------------------------------------------------------------


def _balanced(text: str, marks: str) -> bool:
    return len(marks) != 2 or marks == "……" or text.count(marks[0]) == text.count(marks[1])


def _rewrite_punctuation(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR4: one punctuation mark (or a pair of quotes) written the other way, everywhere."""
    options = []
    for marks, repl, desc in zh.PUNCTUATION_PAIRS:
        hits = list(zh.iter_marks(text, marks))
        if hits and _balanced(text, marks):
            options.append((marks, repl, desc, hits))
    if not options:
        return Rewrites(why="no punctuation mark with another written form in the text")
    rng.shuffle(options)
    out = []
    for marks, repl, desc, hits in options[:k]:
        table = {marks: repl} if marks == "……" else dict(zip(marks, repl))
        reps = tuple(Replacement(at, at + len(m), m, table[m]) for at, m in hits)
        parts, last = [], 0
        for r in reps:
            parts += [text[last : r.start], r.new]
            last = r.end
        parts.append(text[last:])
        out.append(
            Rewrite(
                "".join(parts),
                f"punctuation: {desc} ({len(reps)}×)",
                reps,
                {"family": "punctuation", "lang": "zh"},
            )
        )
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


def _synonym_rewriter(pos: str, what: str) -> Callable[[str, random.Random, int], Rewrites]:
    def _rewrite(text: str, rng: random.Random, k: int) -> Rewrites:
        found, reasons = _word_sites(text, pos)
        if not found:
            return Rewrites(why=reasons[0] if reasons else f"no {what} of two or more characters in the text")
        groups, more = _group_sites(text, found)
        reasons += more
        targets = []
        for word, sites in groups.items():
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
            "不仅如此 除此之外 除此以外 换句话说 也就是说 相比之下 相反 反之 同样"
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
_CLAUSE_END = re.compile(r"[，,：:；;]")
_ORDINALS = ("首先", "其次", "再次", "第一", "第二", "第三", "一是", "二是", "三是", "最后")
_OPEN_CLOSE = ("“”", "「」", "『』", "（）", "《》", "‘’")


def _quotes_open(s: str) -> bool:
    return any(s.count(pair[0]) != s.count(pair[1]) for pair in _OPEN_CLOSE)


def _first_clause(sentence: str) -> str:
    return _CLAUSE_END.split(sentence, maxsplit=1)[0]


def _leans(sentence: str) -> bool:
    """Whether a sentence leans on the one before it: it opens with a connective or a
    reference, or its first clause holds an adverb that answers a previous sentence
    ("警方则表示...", "他们也...")."""
    if sentence.startswith(_LEANING_OPENERS):
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


def _orders(n: int, fixed_after: Sequence[int], rng: random.Random) -> list[tuple[int, ...]]:
    """Orders of ``n`` blocks other than the identity in which block 0 stays first (a news
    text's lead says what the rest is about) and each block of ``fixed_after`` comes after
    every block that preceded it, in an order drawn from ``rng``."""

    def ok(order: Sequence[int]) -> bool:
        if order[0] != 0:
            return False
        pos = {b: i for i, b in enumerate(order)}
        return all(pos[j] > pos[i] for j in fixed_after for i in range(j))

    identity = tuple(range(n))
    if n <= 6:
        orders = [p for p in itertools.permutations(range(n)) if p != identity and ok(p)]
        rng.shuffle(orders)
        return orders
    seen: dict[tuple[int, ...], None] = {}
    for _ in range(400):
        p = list(range(n))
        rng.shuffle(p)
        if tuple(p) != identity and ok(p):
            seen.setdefault(tuple(p), None)
    return list(seen)


def _rewrite_reorder(text: str, rng: random.Random, k: int) -> Rewrites:
    """MR7: the sentences in another order (sentences that lean on their neighbours move
    with them)."""
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
    orders = _orders(len(blocks), fixed, rng)
    if not orders:
        return Rewrites(
            why="the later sentences refer back to the earlier ones, so no other order keeps their sense"
        )
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
    table = {r.old: r.new for r in rewrite.replacements}
    marks = "".join(table)
    if "……" in table:
        hits = list(zh.iter_marks(text, "……"))
    else:
        hits = list(zh.iter_marks(text, marks))
        if len(marks) == 2 and not _balanced(text, marks):
            return Rewrites(why=f"the marks {marks} are not paired in the text")
    reps = tuple(Replacement(at, at + len(m), m, table[m]) for at, m in hits)
    last, parts = 0, []
    for r in reps:
        parts += [text[last : r.start], r.new]
        last = r.end
    new_text = "".join(parts) + text[last:]
    return Rewrites(
        [Rewrite(new_text, f"{rewrite.note} (replayed)", reps, {**rewrite.meta, "replayed": True})]
    )


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
