"""Words of a text and a word diff between two texts, for any script.

The Explorer shows an input as clickable tokens and a follow-up as a word diff against its
source. Neither may assume English or ASCII: a token is a run of letters, digits and the
combining marks that follow them (``"café"`` stays one word whether its accent is composed
or not), an apostrophe between letters stays inside the word (``"don’t"``, ``"Mary's"``),
every other punctuation or symbol character is a token of its own (curly quotes included),
and each Chinese/Japanese character (Han, kana) is one token, since those scripts write no
spaces between words. Tokens keep their exact offsets and the whitespace after them, so
``"".join(t.text + t.ws for t in tokens)`` gives back the text after its leading spaces.

The rules are parameterised by language (``lang``); "en" and every other code share them
today, and a language with its own segmentation (a Chinese word segmenter, say) plugs in
through :func:`register_tokenizer`.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Token",
    "diff_words",
    "is_cjk",
    "pipeline_tokens",
    "register_tokenizer",
    "token_dicts",
    "tokenize",
]

# Apostrophes that join two letters into one word: ASCII, right single quote, modifier letter.
_APOSTROPHES = frozenset("'\u2019\u02bc")
_ZWJ = "\u200d"


@dataclass(frozen=True)
class Token:
    """One token: its text, offsets in the text, and the whitespace after it."""

    text: str
    start: int
    end: int
    ws: str = ""

    def to_dict(self, i: int) -> dict[str, Any]:
        return {"i": i, "text": self.text, "start": self.start, "end": self.end, "ws": self.ws}


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is a Han character or kana (one token each)."""
    o = ord(ch)
    return (
        0x3040 <= o <= 0x30FF  # hiragana, katakana
        or 0x31F0 <= o <= 0x31FF  # katakana extensions
        or 0x3400 <= o <= 0x4DBF  # CJK extension A
        or 0x4E00 <= o <= 0x9FFF  # CJK unified ideographs
        or 0xF900 <= o <= 0xFAFF  # compatibility ideographs
        or 0xFF66 <= o <= 0xFF9F  # half-width katakana
        or 0x20000 <= o <= 0x3134F  # extensions B-G
    )


def _kind(ch: str) -> str:
    """``"space"``, ``"mark"`` (combining), ``"cjk"``, ``"word"`` or ``"punct"``."""
    if ch.isspace():
        return "space"
    cat = unicodedata.category(ch)
    if cat[0] == "M" or ch == _ZWJ or 0xFE00 <= ord(ch) <= 0xFE0F:
        return "mark"
    if is_cjk(ch):
        return "cjk"
    if cat[0] in "LN" or cat == "Pc":
        return "word"
    return "punct"


def _unicode_tokens(text: str) -> list[Token]:
    spans: list[list[int]] = []  # [start, end] of each token
    kinds: list[str] = []
    n, i = len(text), 0
    while i < n:
        ch = text[i]
        kind = _kind(ch)
        if kind == "space":
            i += 1
            continue
        if kind == "mark" and spans and spans[-1][1] == i:
            spans[-1][1] = i + 1  # a combining mark (or joiner) belongs to what it follows
            if ch == _ZWJ and i + 1 < n and not text[i + 1].isspace():
                spans[-1][1] = i + 2  # a zero-width joiner joins the next character too
                i += 1
            i += 1
            continue
        if kind == "word" and spans and spans[-1][1] == i and kinds[-1] == "word":
            spans[-1][1] = i + 1
            i += 1
            continue
        if (
            ch in _APOSTROPHES
            and spans
            and spans[-1][1] == i
            and kinds[-1] == "word"
            and i + 1 < n
            and _kind(text[i + 1]) == "word"
        ):
            spans[-1][1] = i + 2  # "don't", "Mary’s": the apostrophe stays inside the word
            i += 2
            continue
        spans.append([i, i + 1])
        kinds.append("word" if kind == "word" else kind)
        i += 1
    out = []
    for k, (start, end) in enumerate(spans):
        nxt = spans[k + 1][0] if k + 1 < len(spans) else n
        out.append(Token(text[start:end], start, end, text[end:nxt]))
    return out


_TOKENIZERS: dict[str, Callable[[str], list[Token]]] = {}


def register_tokenizer(lang: str, tokenizer: Callable[[str], list[Token]]) -> None:
    """Use ``tokenizer`` for texts in ``lang`` (e.g. a word segmenter for "zh")."""
    _TOKENIZERS[lang] = tokenizer


def tokenize(text: str, lang: str = "en") -> list[Token]:
    """The tokens of ``text`` (see the module docstring for the rules)."""
    return _TOKENIZERS.get(lang, _unicode_tokens)(text)


def token_dicts(text: str, lang: str = "en") -> list[dict[str, Any]]:
    """The tokens as the Explorer's render state lists them (``i, text, start, end, ws``)."""
    return [t.to_dict(i) for i, t in enumerate(tokenize(text, lang))]


def _same(token: str) -> str:
    """What two tokens compare by: Unicode-normalised (composed and decomposed accents match)."""
    return unicodedata.normalize("NFC", token)


def diff_words(
    a: Sequence[Token] | str, b: Sequence[Token] | str, lang: str = "en"
) -> list[tuple[str, int, Token]]:
    """A word diff of ``b`` against ``a``: ``(op, index, token)`` with ``op`` one of ``"eq"``
    (a token of ``b`` also in ``a``), ``"del"`` (a token of ``a`` gone from ``b``) or
    ``"ins"`` (a token of ``b`` not in ``a``); ``index`` is the token's position in its own
    list. Deletions come before the insertions that replace them."""
    ta = tokenize(a, lang) if isinstance(a, str) else list(a)
    tb = tokenize(b, lang) if isinstance(b, str) else list(b)
    matcher = difflib.SequenceMatcher(
        None, [_same(t.text) for t in ta], [_same(t.text) for t in tb], autojunk=False
    )
    out: list[tuple[str, int, Token]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(("eq", j, tb[j]) for j in range(j1, j2))
            continue
        out.extend(("del", i, ta[i]) for i in range(i1, i2))
        out.extend(("ins", j, tb[j]) for j in range(j1, j2))
    return out


def pipeline_tokens(text: str, lang: str = "en") -> list[dict[str, Any]]:
    """The tokens of the language's spaCy pipeline (cached parse) in the shape of
    :func:`token_dicts`; runs of spaces and newlines are folded into the previous token's
    ``ws``."""
    from .pipelines import parse

    out: list[dict[str, Any]] = []
    for t in parse(text):
        if t.is_space and out:  # runs of spaces/newlines: kept as the previous token's spacing
            out[-1]["ws"] += t.text + t.whitespace_
        elif not t.is_space:
            out.append(
                {"i": t.i, "text": t.text, "start": t.idx, "end": t.idx + len(t.text), "ws": t.whitespace_}
            )
    return out
