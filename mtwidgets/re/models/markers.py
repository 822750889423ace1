"""Entity-marker text formats for relation inputs.

Sentence-level relation classifiers built on a text encoder see the head and the tail as
markers written into the text. Three formats are shared by the adapters:

``typed_punct``
    Typed markers made of ordinary punctuation (the "improved baseline" of Zhou & Chen,
    2021): ``@ * person * John @ was born in # ^ city ^ Honolulu #.`` Types are lower-cased
    and underscores become spaces (``state or province``). No new tokens are needed.
``typed_tokens``
    Typed marker tokens: ``[E1:PERSON] John [/E1] was born in [E2:CITY] Honolulu [/E2].``
``plain``
    Untyped marker tokens: ``[E1] John [/E1] was born in [E2] Honolulu [/E2].``

Entity types come from the spans' labels; a missing one is inferred with
:func:`mtwidgets.re.entities.type_span` (lexicons, then spaCy) and falls back to
``"entity"`` when inference is switched off or its dependencies are not installed.

A marker next to a letter or digit gets one separating space, so that it never fuses with
a word (the head ``Acme`` in ``"AcmeCorp"`` gives ``"[E1] Acme [/E1] Corp"``); next to spaces
and punctuation the original text is kept as it is (``"[E1] John [/E1]'s"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from ...core.errors import InputError
from ...core.spans import Span

if TYPE_CHECKING:  # pragma: no cover - typing only (the input imports this module to mark itself)
    from ..inputs import RelationInput

MARKERS: tuple[str, ...] = ("typed_punct", "typed_tokens", "plain")
DEFAULT_TYPE = "entity"


class MarkedText(NamedTuple):
    """A marked sentence and where its head and tail markers begin (character offsets)."""

    text: str
    head_start: int
    tail_start: int


def check_marker(marker: str) -> str:
    """Return ``marker`` if it is a known format, else raise :class:`InputError`."""
    if marker not in MARKERS:
        raise InputError(f"unknown entity marker format {marker!r}; choose one of {', '.join(MARKERS)}")
    return marker


def _span_type(x: RelationInput, span: Span, infer: bool) -> str:
    if span.label:
        return span.label
    if not infer:
        return DEFAULT_TYPE
    try:
        from ..entities import type_span

        return type_span(x.text, span)
    except ImportError:
        return DEFAULT_TYPE


def entity_types(x: RelationInput, *, infer: bool = True) -> tuple[str, str]:
    """The (head, tail) types: span labels, else inferred, else ``"entity"``."""
    return _span_type(x, x.head, infer), _span_type(x, x.tail, infer)


def _punct_type(etype: str) -> str:
    return " ".join(etype.replace("_", " ").lower().split())


def _token_type(etype: str) -> str:
    return "_".join(etype.upper().split())


def _markers(marker: str, head_type: str, tail_type: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """(open, close) of the head and of the tail."""
    if marker == "typed_punct":
        return (f"@ * {_punct_type(head_type)} *", "@"), (f"# ^ {_punct_type(tail_type)} ^", "#")
    if marker == "typed_tokens":
        return (f"[E1:{_token_type(head_type)}]", "[/E1]"), (f"[E2:{_token_type(tail_type)}]", "[/E2]")
    return ("[E1]", "[/E1]"), ("[E2]", "[/E2]")


def _is_relation_input(x: object) -> bool:
    from ...core.inputs import BaseInput

    return isinstance(x, BaseInput) and all(hasattr(x, a) for a in ("text", "head", "tail", "head_text"))


def mark(x: RelationInput, marker: str = "typed_punct", *, infer_types: bool = True) -> MarkedText:
    """Write the entity markers of ``marker`` format into ``x.text``.

    Examples
    --------
    >>> x = RelationInput.parse("[[John|PERSON]] was born in <<Honolulu|CITY>>.")
    >>> mark(x).text
    '@ * person * John @ was born in # ^ city ^ Honolulu #.'
    >>> mark(x, "typed_tokens").text
    '[E1:PERSON] John [/E1] was born in [E2:CITY] Honolulu [/E2].'
    >>> mark(x, "plain")
    MarkedText(text='[E1] John [/E1] was born in [E2] Honolulu [/E2].', head_start=0, tail_start=28)
    """
    if not _is_relation_input(x):
        raise TypeError(f"entity markers need a RelationInput, got {type(x).__name__}: {x!r}")
    check_marker(marker)
    if marker == "plain":
        head_type = tail_type = DEFAULT_TYPE
    else:
        head_type, tail_type = entity_types(x, infer=infer_types)
    head_marks, tail_marks = _markers(marker, head_type, tail_type)
    text = x.text
    pieces = sorted([(x.head, head_marks, "head"), (x.tail, tail_marks, "tail")], key=lambda p: p[0].start)
    out: list[str] = []
    starts: dict[str, int] = {}
    pos = 0
    length = 0
    for span, (open_, close), role in pieces:
        before = text[pos : span.start]
        out.append(before)
        length += len(before)
        if span.start > 0 and text[span.start - 1].isalnum():
            out.append(" ")
            length += 1
        starts[role] = length
        body = f"{open_} {text[span.start : span.end]} {close}"
        if span.end < len(text) and text[span.end].isalnum():
            body += " "
        out.append(body)
        length += len(body)
        pos = span.end
    out.append(text[pos:])
    return MarkedText("".join(out), starts["head"], starts["tail"])


def marker_tokens(marker: str, types: Iterable[str] | None = None) -> list[str]:
    """The marker tokens a tokenizer needs for ``marker`` (none for ``typed_punct``).

    ``typed_tokens`` needs one opening token per type and role: ``types`` defaults to
    TACRED's entity types plus ``"entity"``.
    """
    check_marker(marker)
    if marker == "typed_punct":
        return []
    if marker == "plain":
        return ["[E1]", "[/E1]", "[E2]", "[/E2]"]
    if types is None:
        from ..entities import ENTITY_TYPES

        types = (*ENTITY_TYPES, DEFAULT_TYPE)
    names = list(dict.fromkeys(_token_type(t) for t in types))
    return [f"[E1:{t}]" for t in names] + [f"[E2:{t}]" for t in names] + ["[/E1]", "[/E2]"]
