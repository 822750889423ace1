"""Relation-extraction inputs: a sentence with a head and a tail entity mention.

:class:`RelationInput` (with its ``[[head|TYPE]] ... <<tail|TYPE>>`` markup) and
:func:`relation_input_from_row`, which reads one table row.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.errors import InputError
from ..core.inputs import BaseInput, _check_text, check_label, register_input_type
from ..core.spans import Span, check_span

# Markup: [[head|TYPE]] and <<tail|TYPE>> (the type part is optional). A backslash before one
# of MARKUP_CHARS makes it a plain character: to_markup() escapes exactly the characters
# that would otherwise be read as markup, so parse(x.to_markup()) == x for every input.
MARKUP_CHARS = "\\[]<>|"
_OPEN = {"[[": "head", "<<": "tail"}
_CLOSE = {"head": "]]", "tail": ">>"}


def _mention_and_type(role: str, body: list[tuple[str, bool]], markup: str) -> tuple[str, str | None]:
    """Split a mention body (characters with an escaped flag) at its last unescaped ``|``."""
    bars = [i for i, (ch, escaped) in enumerate(body) if ch == "|" and not escaped]
    if bars:
        mention = "".join(ch for ch, _ in body[: bars[-1]])
        etype = "".join(ch for ch, _ in body[bars[-1] + 1 :]).strip()
        if not etype:
            raise InputError(
                f"empty entity type in the {role} of {markup!r}; write [[mention|TYPE]] or [[mention]]"
            )
        return mention, etype
    return "".join(ch for ch, _ in body), None


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
    #: the gold relation label when the data gives one (ENTRE scores against it); not part of
    #: the input's identity: the same sentence and mentions are the same model input
    gold: str | None = field(default=None, kw_only=True, compare=False)
    task: ClassVar[str] = "re"

    def __post_init__(self) -> None:
        _check_text(self.text)
        if self.gold is not None:
            object.__setattr__(self, "gold", check_label(self.gold, "gold relation label"))
        for role in ("head", "tail"):
            span = Span.from_value(getattr(self, role), what=f"{role} span")
            label = check_label(span.label, f"{role} type", forbidden=MARKUP_CHARS)
            object.__setattr__(self, role, span if label == span.label else span.with_label(label))
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
        """Parse ``"[[John|PERSON]] is <<Mary|PERSON>>'s father."`` (types optional).

        A backslash makes the next ``[ ] < > |`` or backslash a plain character
        (``"a \\<< b"`` is the text ``a << b``); a backslash before anything else is itself.
        """
        _check_text(markup, "markup")
        out: list[str] = []
        found: dict[str, Span] = {}
        role: str | None = None  # the mention being read
        body: list[tuple[str, bool]] = []
        opened = 0
        i, n = 0, len(markup)
        while i < n:
            ch, pair = markup[i], markup[i : i + 2]
            if ch == "\\" and i + 1 < n and markup[i + 1] in MARKUP_CHARS:
                if role is None:
                    out.append(markup[i + 1])
                else:
                    body.append((markup[i + 1], True))
                i += 2
                continue
            if role is None:
                if pair in _OPEN:
                    role = _OPEN[pair]
                    if role in found:
                        if _CLOSE[role] not in markup[i + 2 :]:
                            raise InputError(f"unbalanced {pair!r} at character {i} in markup {markup!r}")
                        raise InputError(
                            f"markup has two {role} mentions ({'[[...]]' if role == 'head' else '<<...>>'})"
                            f": {markup!r}"
                        )
                    body, opened = [], i
                    i += 2
                    continue
                if pair in ("]]", ">>"):
                    raise InputError(f"unbalanced {pair!r} at character {i} in markup {markup!r}")
                out.append(ch)
                i += 1
                continue
            if pair == _CLOSE[role]:
                mention, etype = _mention_and_type(role, body, markup)
                if not mention.strip() or mention != mention.strip():
                    raise InputError(f"{role} mention {mention!r} is empty or has outer spaces in markup {markup!r}")
                start = sum(map(len, out))
                found[role] = Span(start, start + len(mention), etype)
                out.append(mention)
                role = None
                i += 2
                continue
            if pair in ("[[", "]]", "<<", ">>"):
                raise InputError(
                    f"unbalanced {pair!r} at character {i} inside the {role} mention in markup {markup!r}; "
                    "write a backslash before a bracket that belongs to the text"
                )
            body.append((ch, False))
            i += 1
        if role is not None:
            raise InputError(
                f"the {role} mention opened at character {opened} is never closed "
                f"with {_CLOSE[role]!r} in markup {markup!r}"
            )
        missing = [r for r in ("head", "tail") if r not in found]
        if missing:
            raise InputError(
                f"markup {markup!r} has no {' and no '.join(missing)} mention; mark the head as "
                "[[mention|TYPE]] and the tail as <<mention|TYPE>>"
            )
        return cls("".join(out), found["head"], found["tail"])

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
        """The input as ``[[head|TYPE]] ... <<tail|TYPE>>`` markup; :meth:`parse` reads it
        back exactly (characters that would read as markup get a backslash)."""
        # (piece, kind): "text" and "mention" pieces are escaped, "syntax" pieces are not.
        pieces: list[tuple[str, str]] = []
        pos = 0
        for span, open_, close in sorted(
            [(self.head, "[[", "]]"), (self.tail, "<<", ">>")], key=lambda t: t[0].start
        ):
            pieces += [(self.text[pos : span.start], "text"), (open_, "syntax")]
            pieces.append((self.text[span.start : span.end], "mention"))
            if span.label:
                pieces.append(("|" + span.label, "syntax"))  # labels hold no markup characters
            pieces.append((close, "syntax"))
            pos = span.end
        pieces.append((self.text[pos:], "text"))
        # Right to left, so each character knows the character written after it.
        out: list[str] = []
        after = ""
        for piece, kind in reversed(pieces):
            for ch in reversed(piece):
                if kind != "syntax" and (
                    (ch in "[]<>" and after == ch)
                    or (ch == "|" and kind == "mention")
                    or (ch == "\\" and after and after in MARKUP_CHARS)
                ):
                    out.append("\\" + ch)
                    after = "\\"
                else:
                    out.append(ch)
                    after = ch
        return "".join(reversed(out))

    def display(self) -> str:
        return self.to_markup()

    def model_text(self, *, marker: str = "typed_punct", infer_types: bool = True, **options: Any) -> str:
        """The sentence with the head and tail marked in ``marker``'s format
        (:mod:`mtwidgets.re.models.markers`), as a text classifier reads it."""
        from .models.markers import mark

        return mark(self, marker, infer_types=infer_types).text

    def identity(self) -> dict[str, Any]:
        # the gold label is no part of what a model reads: it must not split the cache
        return {"task": self.task, "text": self.text, "head": self.head.to_dict(), "tail": self.tail.to_dict()}

    def to_dict(self) -> dict[str, Any]:
        out = self.identity()
        if self.gold is not None:
            out["gold"] = self.gold
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RelationInput:
        return cls(data["text"], Span.from_value(data["head"]), Span.from_value(data["tail"]), gold=data.get("gold"))

    def with_gold(self, gold: str | None) -> RelationInput:
        """The same input with the gold relation label ``gold`` (``None``: unknown)."""
        return self if gold == self.gold else dataclasses.replace(self, gold=gold)

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


def _cell(row: Mapping[str, Any], column: str) -> str:
    """A text cell: a string (a number is read as its digits); anything else is an error
    naming the column (a list would otherwise become its Python repr)."""
    value = row[column]
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    raise InputError(f"the {column!r} cell must be a string, got {type(value).__name__}: {value!r}")


def relation_input_from_row(row: Mapping[str, Any] | str) -> RelationInput:
    """One table row (or a markup string) -> a :class:`RelationInput`, or an
    :class:`InputError` that says what is wrong with the row.

    A row gives either ``markup`` or ``text`` with the head/tail as offsets
    (``head_start``, ``head_end``, ``tail_start``, ``tail_end``) or as mention strings
    (``head``, ``tail``), optionally ``head_type``/``tail_type``, and optionally the gold
    relation label in ``gold`` (ENTRE scores against it).
    """
    if isinstance(row, str):
        return RelationInput.parse(row)
    x = _row_input(row)
    gold = row.get("gold")
    return x if _missing(gold) else x.with_gold(_cell(row, "gold"))


def _row_input(row: Mapping[str, Any]) -> RelationInput:
    if "markup" in row and not _missing(row["markup"]):
        return RelationInput.parse(str(row["markup"]))
    if "text" not in row or _missing(row["text"]):
        raise InputError("the row has neither 'markup' nor 'text'")
    text = _cell(row, "text")
    types = {k: (None if _missing(row.get(k)) else _cell(row, k)) for k in ("head_type", "tail_type")}
    if all(c in row and not _missing(row[c]) for c in OFFSET_COLUMNS):
        return RelationInput.create(
            text, (row["head_start"], row["head_end"]), (row["tail_start"], row["tail_end"]),
            types["head_type"], types["tail_type"],
            head_mention=None if _missing(row.get("head")) else _cell(row, "head"),
            tail_mention=None if _missing(row.get("tail")) else _cell(row, "tail"),
        )
    if not _missing(row.get("head")) and not _missing(row.get("tail")):
        # A mention string, or a span ({"start", "end", "label"} or [start, end]) as JSON gives it.
        head, tail = (
            row[k] if isinstance(row[k], (Mapping, list, tuple)) else _cell(row, k) for k in ("head", "tail")
        )
        return RelationInput.create(text, head, tail, types["head_type"], types["tail_type"])
    raise InputError(
        "the row has 'text' but no entities: give head_start/head_end/tail_start/tail_end offsets, "
        "head/tail mention strings, or a 'markup' column like [[head|TYPE]] ... <<tail|TYPE>>"
    )
