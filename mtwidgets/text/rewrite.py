"""The language-level half of the Chinese NLP paper's MRs: text -> rewritten text.

Each of the paper's seven MR families (MR1 name or pronoun, MR2 country, MR3 occupation,
MR4 punctuation, MR5 noun synonym, MR6 verb synonym, MR7 sentence reordering) is, per
language, a *rewriter*: a function from one text to the rewrites it can defend, or a
refusal with its reason. The tasks (classification, similarity, summarization) wrap the
rewriters in their transformations; a rewriter knows nothing of tasks or models.

A rewriter has the signature::

    def rewrite(text: str, *, rng: random.Random, k: int = 1) -> Rewrites

and returns at most ``k`` :class:`Rewrite` objects (distinct follow-up texts), or an empty
:class:`Rewrites` whose ``why`` says why none could be built. It never raises on valid text
(non-empty ``str`` without lone surrogates) and is deterministic given ``rng``'s state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..lang.text import is_cjk


@dataclass(frozen=True)
class Replacement:
    """One replaced stretch of the source: ``text[start:end] == old`` became ``new``."""

    start: int
    end: int
    old: str
    new: str


@dataclass(frozen=True)
class Rewrite:
    """One follow-up text with what changed.

    ``replacements`` lists every substituted stretch in source order (empty for a
    reordering); the summarization oracle applies the same ``old -> new`` replacements to the
    source's summary. ``note`` is one human-readable line ("country 'France' -> 'Chile'").
    """

    text: str
    note: str
    replacements: tuple[Replacement, ...] = ()
    meta: dict = field(default_factory=dict)


class Rewrites(list):  # type: ignore[type-arg]
    """The rewrites a rewriter built, and ``why`` it built none (or no more)."""

    def __init__(self, items: Sequence[Rewrite] = (), why: str | None = None) -> None:
        super().__init__(items)
        self.why = why


Rewriter = Callable[..., Rewrites]

# The seven MR families, in the paper's order; a language module maps each to a rewriter.
FAMILIES: tuple[str, ...] = ("name", "country", "occupation", "punctuation", "noun", "verb", "reorder")


def apply_replacements(text: str, replacements: Sequence[Replacement]) -> str:
    """``text`` with non-overlapping ``replacements`` (offsets into ``text``) applied."""
    out, pos = [], 0
    for r in sorted(replacements, key=lambda r: r.start):
        out.append(text[pos : r.start])
        out.append(r.new)
        pos = r.end
    out.append(text[pos:])
    return "".join(out)


# -- carrying a rewrite's replacements over to another text ----------------------------------
_WORD_EDGE = re.compile(r"\w")


def _context_words(text: str, start: int, end: int, left: int, right: int) -> tuple[str, str] | None:
    """Exactly ``left`` words before ``text[start:end]`` and ``right`` after it, with the
    characters between them (a window never crosses a line break), or ``None`` when the
    text has fewer words on a side than asked for."""
    before = text[:start].rsplit("\n", 1)[-1]
    after = text[end:].split("\n", 1)[0]
    lwin = rwin = ""
    if left:
        m = re.search(r"(?:\S+\s*){" + str(left) + r"}$", before)
        if m is None:
            return None
        lwin = m.group(0)
    if right:
        m = re.match(r"(?:\s*\S+){" + str(right) + "}", after)
        if m is None:
            return None
        rwin = m.group(0)
    return lwin, rwin


def _is_wordlike(value: str) -> bool:
    return bool(value) and bool(_WORD_EDGE.match(value[0])) and bool(_WORD_EDGE.match(value[-1]))


def replace_words(text: str, mapping: Sequence[tuple[str, str]]) -> str:
    """``text`` with every whole-word occurrence of each ``old`` replaced by its ``new``
    (longest ``old`` first; an occurrence starting a sentence in capitals gets a capital).
    Used where a replacement cannot be located by context, e.g. in the second text of a
    similarity pair. Only word-like ``old`` values (letters or digits at both ends) are
    replaced: a punctuation mark has no meaning outside its place."""
    for old, new in sorted(mapping, key=lambda kv: -len(kv[0])):
        if not _is_wordlike(old):
            continue
        if any(is_cjk(ch) for ch in old):
            # Chinese writes no spaces: a word is no \w-run, and the summary is an extract of
            # the source whose word edges the rewriter already checked, so the string is the word
            pattern = re.compile(re.escape(old))
        else:
            pattern = re.compile(r"(?<!\w)" + re.escape(old) + r"(?!\w)", re.IGNORECASE if old[:1].islower() else 0)

        def repl(m: re.Match[str], old: str = old, new: str = new) -> str:
            starts_upper = m.group(0)[:1].isupper() and not old[:1].isupper()
            return new[:1].upper() + new[1:] if starts_upper else new

        text = pattern.sub(repl, text)
    return text


# Context windows tried in order, widest first: (words before, words after); a punctuation
# mark needs two words of context, a word one.
_WINDOWS: tuple[tuple[int, int], ...] = ((2, 2), (2, 0), (0, 2), (1, 1))
_WORD_WINDOWS: tuple[tuple[int, int], ...] = (*_WINDOWS, (1, 0), (0, 1))


def _article_case(new: str, text: str, at: int) -> str:
    """``new`` with its leading article cased for where it lands in ``text``: "The United
    States" at the start of a sentence, "the United States" inside one (the source may have
    had the replaced word at a sentence start where the summary has it inside)."""
    if not new.lower().startswith("the "):
        return new
    before = text[:at].rstrip()
    starts = not before or before[-1] in ".!?\n\"\u201c"
    return ("The " if starts else "the ") + new[4:]


def transfer(source: str, target: str, replacements: Sequence[Replacement]) -> str:
    """``target`` (e.g. the summary of ``source``) with the same replacements applied.

    Each replacement is located in ``target`` by its context in ``source`` (the words around
    it, widest window first), so a pronoun or a full stop is replaced where it was replaced
    in the source and nowhere else; a word-like replacement whose ``old`` always became the
    same ``new`` is, failing that, replaced wherever it occurs as a whole word. This is the
    paper's ``Replace_{X1->X2}`` applied to an output: the summarization oracle compares it
    with the follow-up's summary.
    """
    out = target
    unplaced: list[Replacement] = []
    for rep in sorted(replacements, key=lambda r: -r.start):
        placed = False
        for left, right in _WORD_WINDOWS if _is_wordlike(rep.old) else _WINDOWS:
            context = _context_words(source, rep.start, rep.end, left, right)
            if context is None:
                continue
            lwin, rwin = context
            needle = lwin + rep.old + rwin
            where = out.find(needle)
            if where >= 0 and out.find(needle, where + 1) < 0:
                at = where + len(lwin)
                out = out[:at] + _article_case(rep.new, out, at) + out[at + len(rep.old):]
                placed = True
                break
        if not placed:
            unplaced.append(rep)
    news: dict[str, set[str]] = {}
    for rep in replacements:
        news.setdefault(rep.old, set()).add(rep.new)
    plain = [(r.old, r.new) for r in unplaced if len(news[r.old]) == 1]
    return replace_words(out, list(dict.fromkeys(plain))) if plain else out
