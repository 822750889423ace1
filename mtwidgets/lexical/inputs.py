"""The lexical-relation task's input (a word pair) and prediction (one boolean and one score
per lexical relation).

A :class:`WordPairInput` is an ordered pair of single words in one language. Order matters
for hypernymy: the pair ``(w1, w2)`` is a hypernym pair when ``w2`` names a kind that
``w1`` belongs to (``("dog", "animal")``), as in the paper's Table 9 and in transitivity
``v(y_12) and v(y_23) => v(y_13)``. Synonymy is read the same way (``w2`` is a synonym of
``w1``); a model need not answer symmetrically, and three-way transitivity tests ordered
triplets.

A model answers a :class:`~mtwidgets.core.predictions.Prediction` whose ``scores`` hold one
score in [0, 1] per relation of :data:`RELATIONS` (independent: a pair may score high for
both) and whose ``label`` lists the relations predicted true, joined by ``+`` in
:data:`RELATIONS` order, or ``"none"`` (:func:`pair_prediction`, :func:`relation_flags`).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.errors import InputError
from ..core.inputs import BaseInput, check_unicode, register_input_type
from ..core.predictions import Prediction
from ..lang.text import is_cjk

RELATIONS: tuple[str, ...] = ("synonym", "hypernym")
NONE_LABEL = "none"
# The languages of the paper's Table 5; "zh" words are written in Han characters.
LANGS: tuple[str, ...] = ("en", "de", "it", "zh")
# Gold kinds a data set may give a pair (what WordNet says of it).
KINDS: tuple[str, ...] = ("synonym", "hypernym", "hyponym", "antonym", "cohyponym", "random")
MAX_WORD = 64
# Inside a word: letters, combining marks, digits, and these joiners ("well-being", "o'clock").
_JOINERS = frozenset("-'\u2019.")
_SEPARATOR = re.compile(r"\s*(?:\|\|\||\||,|\t|->|\s)\s*")


def check_word(word: object, what: str) -> str:
    """``word`` as one word (outer whitespace removed), or :class:`InputError` saying why not:
    not a string, empty, holding whitespace (a phrase), a control character, or a character
    other than letters, marks, digits and ``- ' ’ .`` inside a word with at least one letter."""
    if not isinstance(word, str):
        raise InputError(f"{what} must be a string (one word), got {type(word).__name__}: {word!r}")
    check_unicode(word, what)
    w = word.strip()
    if not w:
        raise InputError(f"{what} is empty; give one word such as 'dog'")
    if len(w) > MAX_WORD:
        raise InputError(f"{what} has {len(w)} characters; a word has at most {MAX_WORD}: {w[:40]!r}...")
    for i, ch in enumerate(w):
        if ch.isspace() or unicodedata.category(ch) in ("Zs", "Zl", "Zp"):
            raise InputError(
                f"{what} {w!r} holds a space at position {i}: give one word, not a phrase "
                "(the lexical task compares single words)"
            )
        cat = unicodedata.category(ch)
        if cat[0] in "LMN" or ch in _JOINERS:
            continue
        raise InputError(
            f"{what} {w!r} has the character {ch!r} (U+{ord(ch):04X}) at position {i}; a word holds "
            "letters, digits and - ' only"
        )
    if not any(unicodedata.category(ch)[0] == "L" for ch in w):
        raise InputError(f"{what} {w!r} has no letter; give a word such as 'dog'")
    return w


def infer_lang(*words: str) -> str:
    """``"zh"`` when the words are written in Han characters, else ``"en"``."""
    return "zh" if any(is_cjk(ch) for w in words for ch in w) else "en"


def _check_lang(lang: object, w1: str, w2: str) -> str:
    if lang is None or lang == "" or (isinstance(lang, float) and math.isnan(lang)):
        return infer_lang(w1, w2)
    if not isinstance(lang, str) or lang.strip().lower() not in LANGS:
        raise InputError(f"lang must be one of {', '.join(LANGS)} (or empty to infer it), got {lang!r}")
    code = lang.strip().lower()
    for what, w in (("w1", w1), ("w2", w2)):
        han = any(is_cjk(ch) for ch in w)
        if code == "zh" and not han:
            raise InputError(f"{what} {w!r} is not written in Chinese characters, but lang is 'zh'")
        if code != "zh" and han:
            raise InputError(f"{what} {w!r} is written in Chinese characters, but lang is {code!r}; pass lang='zh'")
    return code


def _optional_kind(kind: object) -> str | None:
    if kind is None or kind == "" or (isinstance(kind, float) and math.isnan(kind)):
        return None
    if not isinstance(kind, str) or kind.strip().lower() not in KINDS:
        raise InputError(f"the gold kind must be one of {', '.join(KINDS)} (or empty), got {kind!r}")
    return kind.strip().lower()


@dataclass(frozen=True)
class WordPairInput(BaseInput):
    """An ordered word pair ``(w1, w2)`` in language ``lang`` (inferred when empty: ``zh``
    for Han characters, else ``en``), with the gold ``kind`` of their relation when known
    (never part of what a model sees: :meth:`key` depends on the words and the language).

    >>> WordPairInput("dog", "animal").display()
    'dog → animal'
    """

    w1: str
    w2: str
    lang: str = ""
    kind: str | None = None
    task: ClassVar[str] = "lexical"

    def __post_init__(self) -> None:
        object.__setattr__(self, "w1", check_word(self.w1, "w1"))
        object.__setattr__(self, "w2", check_word(self.w2, "w2"))
        object.__setattr__(self, "lang", _check_lang(self.lang, self.w1, self.w2))
        object.__setattr__(self, "kind", _optional_kind(self.kind))

    def key(self) -> str:
        cached = self.__dict__.get("_key")
        if cached is None:
            payload = {"task": self.task, "w1": self.w1, "w2": self.w2, "lang": self.lang}
            cached = json.dumps(payload, sort_keys=True, ensure_ascii=False)
            object.__setattr__(self, "_key", cached)
        return str(cached)

    def display(self) -> str:
        return f"{self.w1} → {self.w2}"

    def model_text(self, **options: Any) -> tuple[str, str]:
        return (self.w1, self.w2)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "w1": self.w1, "w2": self.w2, "lang": self.lang}
        if self.kind is not None:
            out["kind"] = self.kind
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WordPairInput:
        return cls(data["w1"], data["w2"], data.get("lang", ""), data.get("kind"))

    @classmethod
    def parse(cls, text: str, lang: str = "") -> WordPairInput:
        """A pair written as one string: two words separated by a space, a comma, a tab,
        ``|`` or ``->`` (``"dog -> animal"``)."""
        if not isinstance(text, str):
            raise InputError(f"a word pair must be a string such as 'dog -> animal', got {type(text).__name__}")
        parts = [p for p in _SEPARATOR.split(text.strip()) if p]
        if len(parts) != 2:
            raise InputError(
                f"a word pair is two words, e.g. 'dog -> animal' or 'dog, animal'; {text!r} has {len(parts)}"
            )
        return cls(parts[0], parts[1], lang)


register_input_type(WordPairInput)


# -- table rows -----------------------------------------------------------------------------------
_W1 = ("w1", "word1", "word_1", "source", "hyponym")
_W2 = ("w2", "word2", "word_2", "target", "hypernym")
LEXICAL_COLUMNS = frozenset({*_W1, *_W2})


def _cell(row: Mapping[str, Any], names: tuple[str, ...], what: str) -> Any:
    for name in names:
        if name in row:
            return row[name]
    raise InputError(f"the row has no {what} column ({' or '.join(names)}); columns: {sorted(map(str, row))}")


def word_pair_from_row(row: Mapping[str, Any]) -> WordPairInput:
    """``w1`` and ``w2`` (or ``word1``/``word2``), optional ``lang`` and gold ``kind``."""
    return WordPairInput(
        _cell(row, _W1, "first word"), _cell(row, _W2, "second word"), row.get("lang") or "", row.get("kind")
    )


def detect(columns: set[str]) -> bool:
    """A table with a first-word and a second-word column."""
    return bool(columns & set(_W1)) and bool(columns & set(_W2))


# -- predictions ----------------------------------------------------------------------------------
def pair_label(flags: Mapping[str, bool]) -> str:
    """The label of a prediction with these flags: the true relations joined by ``+``."""
    true = [r for r in RELATIONS if flags.get(r)]
    return "+".join(true) if true else NONE_LABEL


def pair_prediction(scores: Mapping[str, float], thresholds: Mapping[str, float] | None = None) -> Prediction:
    """A prediction from one score per relation: a relation is true when its score reaches
    its threshold (0.5 unless given)."""
    missing = [r for r in RELATIONS if r not in scores]
    if missing:
        raise InputError(f"a lexical prediction needs a score for {', '.join(missing)}")
    th = thresholds or {}
    flags = {r: float(scores[r]) >= float(th.get(r, 0.5)) for r in RELATIONS}
    return Prediction(label=pair_label(flags), scores=tuple((r, float(scores[r])) for r in RELATIONS))


def relation_flags(prediction: Prediction) -> dict[str, bool]:
    """Per relation, whether ``prediction`` says it holds (read from its label)."""
    label = prediction.label
    if label is None:
        raise InputError("a lexical prediction needs a label ('synonym', 'hypernym', 'synonym+hypernym' or 'none')")
    parts = set() if label == NONE_LABEL else set(label.split("+"))
    unknown = parts - set(RELATIONS)
    if unknown:
        raise InputError(
            f"a lexical prediction's label names relations {', '.join(sorted(unknown))}; known: "
            f"{', '.join(RELATIONS)} (or 'none')"
        )
    return {r: r in parts for r in RELATIONS}
