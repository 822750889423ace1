"""Relation-extraction inputs: a sentence with a head and a tail entity mention.

:class:`RelationInput` (with its ``[[head|TYPE]] ... <<tail|TYPE>>`` markup) and
:func:`relation_input_from_row`, which reads one table row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.errors import InputError
from ..core.inputs import BaseInput, _check_text, register_input_type
from ..core.spans import Span, check_span

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


@register_input_type
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

    def model_text(self, *, marker: str = "typed_punct", infer_types: bool = True, **options: Any) -> str:
        """The sentence with the head and tail marked in ``marker``'s format
        (:mod:`mtwidgets.re.models.markers`), as a text classifier reads it."""
        from .models.markers import mark

        return mark(self, marker, infer_types=infer_types).text

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


OFFSET_COLUMNS: tuple[str, ...] = ("head_start", "head_end", "tail_start", "tail_end")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def relation_input_from_row(row: Mapping[str, Any] | str) -> RelationInput:
    """One table row (or a markup string) -> a :class:`RelationInput`, or an
    :class:`InputError` that says what is wrong with the row.

    A row gives either ``markup`` or ``text`` with the head/tail as offsets
    (``head_start``, ``head_end``, ``tail_start``, ``tail_end``) or as mention strings
    (``head``, ``tail``), optionally ``head_type``/``tail_type``.
    """
    if isinstance(row, str):
        return RelationInput.parse(row)
    if "markup" in row and not _missing(row["markup"]):
        return RelationInput.parse(str(row["markup"]))
    if "text" not in row or _missing(row["text"]):
        raise InputError("the row has neither 'markup' nor 'text'")
    text = str(row["text"])
    types = {k: (None if _missing(row.get(k)) else str(row.get(k))) for k in ("head_type", "tail_type")}
    if all(c in row and not _missing(row[c]) for c in OFFSET_COLUMNS):
        return RelationInput.create(
            text, (row["head_start"], row["head_end"]), (row["tail_start"], row["tail_end"]),
            types["head_type"], types["tail_type"],
            head_mention=None if _missing(row.get("head")) else str(row["head"]),
            tail_mention=None if _missing(row.get("tail")) else str(row["tail"]),
        )
    if not _missing(row.get("head")) and not _missing(row.get("tail")):
        return RelationInput.create(text, str(row["head"]), str(row["tail"]), types["head_type"], types["tail_type"])
    raise InputError(
        "the row has 'text' but no entities: give head_start/head_end/tail_start/tail_end offsets, "
        "head/tail mention strings, or a 'markup' column like [[head|TYPE]] ... <<tail|TYPE>>"
    )
