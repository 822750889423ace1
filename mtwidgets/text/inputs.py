"""Inputs of the three text tasks of the Chinese NLP paper: classification, similarity and
summarization.

Each input carries its language (``lang``: ``"en"`` or ``"zh"``), inferred from the text when
not given (a text whose letters are mostly Chinese characters is ``"zh"``), because the
follow-ups are built by language-specific rewriters. Gold values (a topic, a sentiment, a
similarity score, a reference summary) are optional and never change what a model sees:
``key()`` depends on the text(s) and the language alone.

An input may also carry a *focus*: ``(field, start, end)``, the word the user marked in the
Explorer for the relations MR1-MR6 to replace (``field`` is ``"text"``, or ``"text_a"`` /
``"text_b"`` of a pair). The model sees the same text with or without it, so the focus is
no part of ``key()`` or ``model_text()`` (the prediction cache is shared); it is kept in
``to_dict()`` and by ``with_text`` only while the text it points into is unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.errors import InputError
from ..core.inputs import BaseInput, _check_text, register_input_type
from ..lang.text import is_cjk

LANGS: tuple[str, ...] = ("en", "zh")

# A text is Chinese when at least this share of its letters are Han characters.
CJK_SHARE = 0.3


def infer_lang(*texts: str) -> str:
    """``"zh"`` when Han characters make up at least :data:`CJK_SHARE` of the letters of
    ``texts``, else ``"en"``."""
    letters = cjk = 0
    for text in texts:
        for ch in text:
            if is_cjk(ch):
                cjk += 1
                letters += 1
            elif ch.isalpha():
                letters += 1
    return "zh" if letters and cjk / letters >= CJK_SHARE else "en"


def _check_lang(lang: object, *texts: str) -> str:
    if lang is None or lang == "" or _missing(lang):
        return infer_lang(*texts)
    if not isinstance(lang, str) or lang.strip().lower() not in LANGS:
        raise InputError(f"lang must be one of {', '.join(LANGS)} (or empty to infer it), got {lang!r}")
    return lang.strip().lower()


def _missing(value: object) -> bool:
    """A missing table cell: ``None``, NaN or an empty string."""
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


def _optional_str(value: object, what: str) -> str | None:
    if _missing(value):
        return None
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string, got {type(value).__name__}: {value!r}")
    return value.strip() or None


Focus = tuple[str, int, int]


def check_focus(value: object, texts: Mapping[str, str]) -> Focus | None:
    """``value`` as a focus ``(field, start, end)`` on one of ``texts`` (``{field: text}``),
    or ``None`` when missing; :class:`InputError` when it names no field of the input, or its
    offsets do not select a word (out of the text, empty, only whitespace or with whitespace
    at its edges). A list (as JSON gives it back) is read as a tuple."""
    if _missing(value):
        return None
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 3:
        raise InputError(f"focus must be (field, start, end), e.g. ('text', 4, 12), got {value!r}")
    name, start, end = value
    if name not in texts:
        raise InputError(f"the focus names the field {name!r}; this input's text fields are {sorted(texts)}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        raise InputError(f"the focus offsets must be integers, got ({start!r}, {end!r})")
    text = texts[name]
    if not 0 <= start < end <= len(text):
        raise InputError(
            f"the focus ({start}, {end}) is not inside the {name} (length {len(text)}); mark a word of the text"
        )
    word = text[start:end]
    if not word.strip() or word != word.strip():
        raise InputError(f"the focus ({start}, {end}) = {word!r} is not a word; mark a word without its spaces")
    return (str(name), start, end)


def focus_word(x: BaseInput) -> str | None:
    """The word an input's focus marks (``None`` without a focus)."""
    focus = getattr(x, "focus", None)
    if focus is None:
        return None
    name, start, end = focus
    return str(getattr(x, name))[start:end]


def _focus_dict(out: dict[str, Any], focus: Focus | None) -> dict[str, Any]:
    if focus is not None:
        out["focus"] = list(focus)
    return out


def _text_key(obj: BaseInput, payload: dict[str, Any]) -> str:
    cached = obj.__dict__.get("_key")
    if cached is None:
        cached = json.dumps({"task": obj.task, **payload}, sort_keys=True, ensure_ascii=False)
        object.__setattr__(obj, "_key", cached)
    return str(cached)


@dataclass(frozen=True)
class _Text(BaseInput):
    """One text with its language and an optional news topic (shared by two tasks)."""

    text: str
    lang: str = ""
    topic: str | None = None
    #: the word the user marked for MR1-MR6 to replace, ``("text", start, end)``; keyword only
    focus: Focus | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        _check_text(self.text)
        object.__setattr__(self, "lang", _check_lang(self.lang, self.text))
        object.__setattr__(self, "topic", _optional_str(self.topic, "topic"))
        object.__setattr__(self, "focus", check_focus(self.focus, {"text": self.text}))

    def key(self) -> str:
        return _text_key(self, {"text": self.text, "lang": self.lang})

    def display(self) -> str:
        return self.text

    def model_text(self, **options: Any) -> str:
        return self.text

    def with_text(self, text: str) -> Any:
        """The same input (language, topic, gold) with another text: a follow-up. The focus
        stays only when the text is unchanged (its offsets point into the old text)."""
        return dataclasses.replace(self, text=text, focus=self.focus if text == self.text else None)

    def with_focus(self, focus: Focus | None) -> Any:
        """The same input with the word at ``focus`` marked (``None``: nothing marked)."""
        return self if focus == self.focus else dataclasses.replace(self, focus=focus)

    def _extra(self) -> dict[str, Any]:
        return {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text": self.text, "lang": self.lang}
        if self.topic is not None:
            out["topic"] = self.topic
        out.update({k: v for k, v in self._extra().items() if v is not None})
        return _focus_dict(out, self.focus)


@dataclass(frozen=True)
class ClassificationInput(_Text):
    """A text to classify (news topic, sentiment), with the gold labels when known.

    >>> ClassificationInput("Shares rose after the results.", topic="business").lang
    'en'
    """

    sentiment: str | None = None
    task: ClassVar[str] = "classification"

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "sentiment", _optional_str(self.sentiment, "sentiment"))

    def _extra(self) -> dict[str, Any]:
        return {"sentiment": self.sentiment}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClassificationInput:
        return cls(data["text"], data.get("lang", ""), data.get("topic"), data.get("sentiment"), focus=data.get("focus"))


@dataclass(frozen=True)
class SummarizationInput(_Text):
    """A text to summarize, with a reference summary when known."""

    reference: str | None = None
    task: ClassVar[str] = "summarization"

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "reference", _optional_str(self.reference, "reference summary"))

    def _extra(self) -> dict[str, Any]:
        return {"reference": self.reference}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SummarizationInput:
        return cls(data["text"], data.get("lang", ""), data.get("topic"), data.get("reference"), focus=data.get("focus"))


@dataclass(frozen=True)
class SimilarityInput(BaseInput):
    """A sentence pair ``(S1, S2)`` whose similarity a model scores in [0, 1], with the gold
    score when known."""

    text_a: str
    text_b: str
    lang: str = ""
    topic: str | None = None
    score: float | None = None
    #: the word the user marked for MR1-MR6 to replace, in S1 (``("text_a", start, end)``) or
    #: in S2 (``"text_b"``); keyword only
    focus: Focus | None = field(default=None, kw_only=True)
    task: ClassVar[str] = "similarity"

    def __post_init__(self) -> None:
        _check_text(self.text_a, "text_a")
        _check_text(self.text_b, "text_b")
        object.__setattr__(self, "lang", _check_lang(self.lang, self.text_a, self.text_b))
        object.__setattr__(self, "topic", _optional_str(self.topic, "topic"))
        object.__setattr__(self, "score", _gold_score(self.score))
        object.__setattr__(self, "focus", check_focus(self.focus, {"text_a": self.text_a, "text_b": self.text_b}))

    def key(self) -> str:
        return _text_key(self, {"text_a": self.text_a, "text_b": self.text_b, "lang": self.lang})

    def display(self) -> str:
        return f"{self.text_a} ||| {self.text_b}"

    def model_text(self, **options: Any) -> tuple[str, str]:
        return (self.text_a, self.text_b)

    def with_texts(self, text_a: str, text_b: str) -> SimilarityInput:
        """The same pair (language, topic; no gold score, which belonged to the source) with
        other texts. The focus stays only when the text it marks is unchanged."""
        kept = self.focus is not None and {"text_a": text_a, "text_b": text_b}[self.focus[0]] == getattr(
            self, self.focus[0]
        )
        return SimilarityInput(text_a, text_b, self.lang, self.topic, focus=self.focus if kept else None)

    def with_focus(self, focus: Focus | None) -> SimilarityInput:
        """The same pair with the word at ``focus`` marked (``None``: nothing marked)."""
        return self if focus == self.focus else dataclasses.replace(self, focus=focus)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text_a": self.text_a, "text_b": self.text_b, "lang": self.lang}
        if self.topic is not None:
            out["topic"] = self.topic
        if self.score is not None:
            out["score"] = self.score
        return _focus_dict(out, self.focus)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SimilarityInput:
        return cls(
            data["text_a"], data["text_b"], data.get("lang", ""), data.get("topic"), data.get("score"),
            focus=data.get("focus"),
        )


def _gold_score(value: object) -> float | None:
    if _missing(value):
        return None
    try:
        score = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"the gold similarity score must be a number in [0, 1], got {value!r}") from None
    if not 0.0 <= score <= 1.0:
        raise InputError(f"the gold similarity score must be in [0, 1], got {score}")
    return score


for _cls in (ClassificationInput, SummarizationInput, SimilarityInput):
    register_input_type(_cls)


# -- table rows -> inputs ------------------------------------------------------------------
def _text_cell(row: Mapping[str, Any], *names: str) -> str:
    for name in names:
        value = row.get(name)
        if isinstance(value, str):
            return value
    raise InputError(f"the row has no {' or '.join(repr(n) for n in names)} text (columns: {sorted(map(str, row))})")


def classification_from_row(row: Mapping[str, Any]) -> ClassificationInput:
    """``text`` (or ``sentence``), optional ``lang``, ``topic`` (or ``label``) and ``sentiment``."""
    topic = row.get("topic", row.get("label"))
    return ClassificationInput(_text_cell(row, "text", "sentence"), row.get("lang") or "", topic, row.get("sentiment"))


def summarization_from_row(row: Mapping[str, Any]) -> SummarizationInput:
    """``text`` (or ``document``), optional ``lang``, ``topic`` and ``reference`` (or ``summary``)."""
    reference = row.get("reference", row.get("summary"))
    return SummarizationInput(_text_cell(row, "text", "document"), row.get("lang") or "", row.get("topic"), reference)


def similarity_from_row(row: Mapping[str, Any]) -> SimilarityInput:
    """``text_a``/``text_b`` (or ``sentence1``/``sentence2``, ``text1``/``text2``), optional
    ``lang``, ``topic`` and gold ``score`` (or ``similarity``, ``gold``) in [0, 1]."""
    a = _text_cell(row, "text_a", "sentence1", "text1", "s1")
    b = _text_cell(row, "text_b", "sentence2", "text2", "s2")
    score = next((row[k] for k in ("score", "similarity", "gold") if k in row), None)
    return SimilarityInput(a, b, row.get("lang") or "", row.get("topic"), score)


# Columns that belong to other tasks' tables (relation extraction, NER).
_OTHER_TASK_COLUMNS = frozenset({"markup", "head", "tail", "head_start", "tail_start", "entities", "gold", "spans"})


def detect_classification(columns: set[str]) -> bool:
    """A text column with a topic or sentiment column."""
    has_text = bool(columns & {"text", "sentence"})
    return has_text and bool(columns & {"topic", "sentiment", "label"}) and not columns & _OTHER_TASK_COLUMNS \
        and not columns & {"reference", "summary"}


def detect_summarization(columns: set[str]) -> bool:
    """A document column with a reference summary column."""
    return bool(columns & {"text", "document"}) and bool(columns & {"reference", "summary"})


def detect_similarity(columns: set[str]) -> bool:
    """Two text columns of a pair."""
    return any(pair <= columns for pair in ({"text_a", "text_b"}, {"sentence1", "sentence2"}, {"text1", "text2"}))
