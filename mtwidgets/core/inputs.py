"""Typed, immutable model inputs.

Each input knows its task, validates itself on construction, serialises to a plain dict
(``to_dict``/``input_from_dict``) and has a stable ``key()`` used by the runner to
deduplicate and cache model calls.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import InputError
from .spans import Span, check_span


def _check_text(text: object, what: str = "text") -> str:
    if not isinstance(text, str):
        raise InputError(f"{what} must be a string, got {type(text).__name__}: {text!r}")
    if not text.strip():
        raise InputError(f"{what} is empty; give a non-empty sentence")
    return text


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
            cached = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
            object.__setattr__(self, "_key", cached)
        return str(cached)

    def display(self) -> str:
        """A one-line human form (markup for relation inputs)."""
        return str(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BaseInput:  # pragma: no cover - overridden
        raise NotImplementedError


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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TextPairInput:
        return cls(data["text_a"], data["text_b"])


# [[head|TYPE]] and <<tail|TYPE>>; the type part is optional.
_MARKUP = re.compile(r"\[\[(?P<head>.+?)\]\]|<<(?P<tail>.+?)>>")


def _split_type(body: str) -> tuple[str, str | None]:
    if "|" in body:
        mention, _, etype = body.rpartition("|")
        etype = etype.strip()
        if not etype:
            raise InputError(f"empty entity type in {body!r}; write [[mention|TYPE]] or [[mention]]")
        return mention, etype
    return body, None


@dataclass(frozen=True)
class RelationInput(BaseInput):
    """A sentence with a head and a tail entity mention (relation extraction).

    Entity types (TACRED style: PERSON, CITY, NATIONALITY, ...) live in the spans' labels
    and are optional; adapters that need them infer missing ones.

    Examples
    --------
    >>> x = RelationInput.parse("[[John|PERSON]] is <<Mary|PERSON>>'s father.")
    >>> x.head_text, x.tail_text, x.tail_type
    ('John', 'Mary', 'PERSON')
    >>> x.to_markup()
    "[[John|PERSON]] is <<Mary|PERSON>>'s father."
    """

    text: str
    head: Span
    tail: Span
    task: ClassVar[str] = "re"

    def __post_init__(self) -> None:
        _check_text(self.text)
        object.__setattr__(self, "head", Span.from_value(self.head, what="head span"))
        object.__setattr__(self, "tail", Span.from_value(self.tail, what="tail span"))
        check_span(self.text, self.head, what="head span")
        check_span(self.text, self.tail, what="tail span")
        if self.head.overlaps(self.tail):
            raise InputError(
                f"head {self.head_text!r} ({self.head.start}, {self.head.end}) and tail "
                f"{self.tail_text!r} ({self.tail.start}, {self.tail.end}) overlap; "
                "mark two separate mentions"
            )

    # -- construction -------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        text: str,
        head: object,
        tail: object,
        head_type: str | None = None,
        tail_type: str | None = None,
        *,
        head_mention: str | None = None,
        tail_mention: str | None = None,
    ) -> RelationInput:
        """Build from offsets (pairs, dicts or Spans) or from mention strings.

        A mention string is located in the text (first occurrence; the tail is searched
        outside the head). Giving both offsets and ``*_mention`` checks they agree.
        """
        text = _check_text(text)
        head_span = _locate(text, head, "head", avoid=None)
        tail_span = _locate(text, tail, "tail", avoid=head_span)
        if head_mention is not None:
            check_span(text, head_span, what="head span", mention=head_mention)
        if tail_mention is not None:
            check_span(text, tail_span, what="tail span", mention=tail_mention)
        if head_type is not None:
            head_span = head_span.with_label(head_type)
        if tail_type is not None:
            tail_span = tail_span.with_label(tail_type)
        return cls(text, head_span, tail_span)

    @classmethod
    def parse(cls, markup: str) -> RelationInput:
        """Parse ``"[[John|PERSON]] is <<Mary|PERSON>>'s father."`` (types optional)."""
        _check_text(markup, "markup")
        parts: list[str] = []
        pos = 0
        out_len = 0
        found: dict[str, Span] = {}
        for m in _MARKUP.finditer(markup):
            parts.append(markup[pos : m.start()])
            out_len += m.start() - pos
            role = "head" if m.group("head") is not None else "tail"
            if role in found:
                raise InputError(
                    f"markup has two {role} mentions ({'[[...]]' if role == 'head' else '<<...>>'})"
                    f": {markup!r}"
                )
            mention, etype = _split_type(m.group(role))
            if not mention.strip() or mention != mention.strip():
                raise InputError(f"{role} mention {mention!r} is empty or has outer spaces")
            found[role] = Span(out_len, out_len + len(mention), etype)
            parts.append(mention)
            out_len += len(mention)
            pos = m.end()
        parts.append(markup[pos:])
        missing = [r for r in ("head", "tail") if r not in found]
        if missing:
            raise InputError(
                f"markup {markup!r} has no {' and no '.join(missing)} mention; mark the head as "
                "[[mention|TYPE]] and the tail as <<mention|TYPE>>"
            )
        text = "".join(parts)
        for stray in ("[[", "]]", "<<", ">>"):
            if stray in text:
                raise InputError(f"unbalanced {stray!r} in markup {markup!r}")
        return cls(text, found["head"], found["tail"])

    # -- views ----------------------------------------------------------------------------
    @property
    def head_text(self) -> str:
        return self.text[self.head.start : self.head.end]

    @property
    def tail_text(self) -> str:
        return self.text[self.tail.start : self.tail.end]

    @property
    def head_type(self) -> str | None:
        return self.head.label

    @property
    def tail_type(self) -> str | None:
        return self.tail.label

    def to_markup(self) -> str:
        def mark(span: Span, open_: str, close: str) -> str:
            body = self.text[span.start : span.end]
            return f"{open_}{body}|{span.label}{close}" if span.label else f"{open_}{body}{close}"

        first, second = sorted([(self.head, "[[", "]]"), (self.tail, "<<", ">>")], key=lambda t: t[0].start)
        return (
            self.text[: first[0].start]
            + mark(*first)
            + self.text[first[0].end : second[0].start]
            + mark(*second)
            + self.text[second[0].end :]
        )

    def display(self) -> str:
        return self.to_markup()

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "text": self.text, "head": self.head.to_dict(), "tail": self.tail.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RelationInput:
        return cls(data["text"], Span.from_value(data["head"]), Span.from_value(data["tail"]))

    # -- edits ----------------------------------------------------------------------------
    def swapped(self) -> RelationInput:
        return RelationInput(self.text, self.tail, self.head)

    def with_types(self, head_type: str | None, tail_type: str | None) -> RelationInput:
        return RelationInput(self.text, self.head.with_label(head_type), self.tail.with_label(tail_type))


def _locate(text: str, value: object, role: str, avoid: Span | None) -> Span:
    if isinstance(value, str):
        start = text.find(value) if value else -1
        while start >= 0 and avoid is not None and Span(start, start + len(value)).overlaps(avoid):
            start = text.find(value, start + 1)
        if start < 0:
            raise InputError(f"{role} mention {value!r} does not occur in the text {text[:80]!r}")
        return Span(start, start + len(value))
    return Span.from_value(value, what=f"{role} span")


_TASKS: dict[str, type[BaseInput]] = {
    cls.task: cls for cls in (TextInput, TextPairInput, RelationInput)
}


def register_input_type(cls: type[BaseInput]) -> type[BaseInput]:
    """Make a new task's input type readable by :func:`input_from_dict` (decorator)."""
    _TASKS[cls.task] = cls
    return cls


def input_from_dict(data: dict[str, Any]) -> BaseInput:
    """Inverse of ``to_dict`` for every registered input type."""
    if not isinstance(data, dict) or "task" not in data:
        raise InputError(f"cannot read an input from {data!r}: expected a dict with a 'task' key")
    cls = _TASKS.get(data["task"])
    if cls is None:
        raise InputError(f"unknown input task {data['task']!r}; known: {sorted(_TASKS)}")
    try:
        return cls.from_dict(data)
    except KeyError as exc:
        raise InputError(f"{data['task']} input {data!r} lacks the key {exc}") from None
