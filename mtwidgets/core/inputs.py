"""Typed, immutable model inputs.

Each input knows its task, validates itself on construction, serialises to a plain dict
(``to_dict``/``input_from_dict``) and has a stable ``key()`` used by the runner to
deduplicate and cache model calls.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import InputError

# A lone UTF-16 surrogate is not a character: it cannot be written as UTF-8 (saving, caching,
# seeding all encode), and it only appears when bytes were decoded wrongly.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def check_unicode(value: str, what: str) -> str:
    """Raise :class:`InputError` naming the position of the first lone surrogate in ``value``.

    Every other code point is accepted (line and paragraph separators, emoji, combining
    marks, right-to-left scripts, zero-width characters).
    """
    m = _SURROGATE.search(value)
    if m is not None:
        i = m.start()
        raise InputError(
            f"{what} has a lone surrogate U+{ord(m.group()):04X} at character {i} "
            f"(after {value[max(0, i - 20) : i]!r}): it is not a character and cannot be stored "
            "as UTF-8; the data was decoded wrongly (e.g. with errors='surrogateescape') - "
            "read it as UTF-8, or remove the character"
        )
    return value


def _check_text(text: object, what: str = "text") -> str:
    if not isinstance(text, str):
        raise InputError(f"{what} must be a string, got {type(text).__name__}: {text!r}")
    if not text.strip():
        raise InputError(f"{what} is empty; give a non-empty sentence")
    return check_unicode(text, what)


def check_label(label: object, what: str, *, forbidden: str = "") -> str | None:
    """A span label (an entity type) as an input stores it: ``None``, or a string without
    outer whitespace. Raises :class:`InputError` naming ``what`` for a label that is not a
    string, is blank, holds a lone surrogate, a control or line-break character, or one
    of ``forbidden`` (e.g. a task's markup delimiters)."""
    if label is None:
        return None
    if not isinstance(label, str):
        raise InputError(
            f"{what} must be a string (an entity type such as PERSON), got {type(label).__name__}: {label!r}"
        )
    stripped = label.strip()
    if not stripped:
        raise InputError(f"{what} {label!r} is blank; give an entity type such as PERSON")
    check_unicode(stripped, what)
    for i, ch in enumerate(stripped):
        if ch in forbidden or unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            raise InputError(
                f"{what} {stripped!r} has the character {ch!r} (U+{ord(ch):04X}) at position {i}; "
                f"an entity type cannot hold control or line-break characters"
                + (f" or any of {' '.join(forbidden)}" if forbidden else "")
            )
    return stripped


@dataclass(frozen=True)
class BaseInput:
    task: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def key(self) -> str:
        """A stable identity for dedup and caching (same input -> same key, across runs).

        Computed once per object (inputs are immutable): the runner asks for it at every
        stage, and on a cheap model the JSON encoding would otherwise be a visible cost.
        """
        cached = self.__dict__.get("_key")
        if cached is None:
            cached = json.dumps(self.identity(), sort_keys=True, ensure_ascii=False)
            object.__setattr__(self, "_key", cached)
        return str(cached)

    def identity(self) -> dict[str, Any]:
        """What makes two inputs the same model input: :meth:`to_dict` unless an input type
        carries data no model reads (a gold label)."""
        return self.to_dict()

    def display(self) -> str:
        """A one-line human form (markup for relation inputs)."""
        return str(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BaseInput:  # pragma: no cover - overridden
        raise NotImplementedError

    def model_text(self, **options: Any) -> str | tuple[str, str]:
        """What a generic text model (e.g. a Hugging Face pipeline) reads for this input:
        one text, or a text pair. Input types with marked parts read ``options`` (a
        relation input's ``marker``)."""
        raise TypeError(
            f"a {type(self).__name__} has no plain-text form for a text model: {self.display()[:80]!r}"
        )


@dataclass(frozen=True)
class TextInput(BaseInput):
    """A single text (classification, summarisation, NER)."""

    text: str
    task: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        _check_text(self.text)

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "text": self.text}

    def display(self) -> str:
        return self.text

    def model_text(self, **options: Any) -> str:
        return self.text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TextInput:
        return cls(data["text"])


@dataclass(frozen=True)
class TextPairInput(BaseInput):
    """Two texts (similarity, NLI)."""

    text_a: str
    text_b: str
    task: ClassVar[str] = "pair"

    def __post_init__(self) -> None:
        _check_text(self.text_a, "text_a")
        _check_text(self.text_b, "text_b")

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "text_a": self.text_a, "text_b": self.text_b}

    def display(self) -> str:
        return f"{self.text_a} ||| {self.text_b}"

    def model_text(self, **options: Any) -> tuple[str, str]:
        return (self.text_a, self.text_b)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TextPairInput:
        return cls(data["text_a"], data["text_b"])


_TASKS: dict[str, type[BaseInput]] = {cls.task: cls for cls in (TextInput, TextPairInput)}


def register_input_type(cls: type[BaseInput]) -> type[BaseInput]:
    """Make a new task's input type readable by :func:`input_from_dict` (decorator)."""
    _TASKS[cls.task] = cls
    return cls


def input_type(task: str) -> type[BaseInput]:
    """The input class of ``task``: a registered input type, else the registered task's
    (imported on first use, so a results file reloads in a fresh process)."""
    cls = _TASKS.get(task)
    if cls is None:
        from .errors import MTError
        from .task import get_task, task_names

        try:
            cls = get_task(task).input_class
        except MTError:
            raise InputError(
                f"unknown input task {task!r}; known: {sorted({*_TASKS, *task_names()})}"
            ) from None
        _TASKS.setdefault(task, cls)
    return cls


def input_from_dict(data: dict[str, Any]) -> BaseInput:
    """Inverse of ``to_dict`` for every registered input type."""
    if not isinstance(data, dict) or "task" not in data:
        raise InputError(f"cannot read an input from {data!r}: expected a dict with a 'task' key")
    cls = input_type(str(data["task"]))
    try:
        return cls.from_dict(data)
    except KeyError as exc:
        raise InputError(f"{data['task']} input {data!r} lacks the key {exc}") from None
