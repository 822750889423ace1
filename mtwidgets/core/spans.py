"""Character-offset spans and the one text edit every transformation goes through.

Spans are first-class: every edit of a text carries the offsets of the other spans
forward, and :func:`replace_span` re-checks ``text[start:end] == mention`` after every
edit, so a transformation cannot silently produce a follow-up whose spans point at the
wrong characters.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InputError


@dataclass(frozen=True, order=True)
class Span:
    """A half-open character range ``[start, end)`` with an optional label (entity type)."""

    start: int
    end: int
    label: str | None = None

    def __post_init__(self) -> None:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (self.start, self.end)):
            raise InputError(
                f"span offsets must be integers, got start={self.start!r}, end={self.end!r}"
            )
        if self.start < 0 or self.end <= self.start:
            raise InputError(
                f"span ({self.start}, {self.end}) is empty or reversed: "
                "expected 0 <= start < end (end is exclusive)"
            )
        if self.label is not None and not isinstance(self.label, str):
            # A list or dict label would also make the span unhashable.
            raise InputError(
                f"span ({self.start}, {self.end}) label must be a string (an entity type such as "
                f"PERSON) or absent, got {type(self.label).__name__}: {self.label!r}"
            )

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def shifted(self, delta: int) -> Span:
        return Span(self.start + delta, self.end + delta, self.label)

    def with_label(self, label: str | None) -> Span:
        return Span(self.start, self.end, label)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"start": self.start, "end": self.end}
        if self.label is not None:
            out["label"] = self.label
        return out

    @classmethod
    def from_value(cls, value: object, *, what: str = "span") -> Span:
        """Accept a Span, a ``(start, end)`` pair or a ``{"start", "end", "label"}`` dict."""
        if isinstance(value, Span):
            return value
        if isinstance(value, dict):
            if "start" not in value or "end" not in value:
                raise InputError(f"{what} {value!r} needs 'start' and 'end' keys")
            start, end = _as_int(value["start"], f"{what} start"), _as_int(value["end"], f"{what} end")
            return cls(start, end, _as_label(value.get("label"), what))
        if isinstance(value, (tuple, list)) and len(value) in (2, 3):
            label = value[2] if len(value) == 3 else None
            return cls(_as_int(value[0], f"{what} start"), _as_int(value[1], f"{what} end"), _as_label(label, what))
        raise InputError(
            f"{what} must be a Span, a (start, end) pair or a dict with start/end, got {value!r}"
        )


def _as_label(value: object, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InputError(
            f"{what} label must be a string (an entity type such as PERSON), got "
            f"{type(value).__name__}: {value!r}"
        )
    return value


def _as_int(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise InputError(f"{what} offset {value!r} is not an integer")
    if isinstance(value, numbers.Integral):  # int, and NumPy's integers from a Parquet column
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise InputError(f"{what} offset {value!r} is not an integer")


def check_span(text: str, span: Span, *, what: str = "span", mention: str | None = None) -> None:
    """Raise :class:`InputError` unless ``span`` is a sensible mention inside ``text``."""
    if span.end > len(text):
        raise InputError(
            f"{what} ({span.start}, {span.end}) runs past the end of the text "
            f"(length {len(text)}): {text[:60]!r}"
        )
    covered = text[span.start : span.end]
    if not covered.strip():
        raise InputError(f"{what} ({span.start}, {span.end}) covers only whitespace")
    if covered != covered.strip():
        raise InputError(
            f"{what} ({span.start}, {span.end}) = {covered!r} starts or ends with whitespace; "
            "trim the offsets to the mention itself"
        )
    if mention is not None and covered != mention:
        found = text.find(mention)
        hint = f"; {mention!r} occurs at ({found}, {found + len(mention)})" if found >= 0 else ""
        raise InputError(
            f"{what} offsets ({span.start}, {span.end}) select {covered!r}, not the mention "
            f"{mention!r}{hint}"
        )


def replace_span(
    text: str, target: Span, replacement: str, others: Sequence[Span] = ()
) -> tuple[str, Span, tuple[Span, ...]]:
    """Replace ``text[target]`` by ``replacement`` and carry every other span forward.

    Returns the new text, the span of the replacement (keeping the target's label) and the
    moved ``others``. Spans overlapping the target cannot be carried and raise.
    """
    if not replacement or replacement != replacement.strip():
        raise InputError(f"replacement {replacement!r} is empty or has outer whitespace")
    new_text = text[: target.start] + replacement + text[target.end :]
    delta = len(replacement) - (target.end - target.start)
    new_target = Span(target.start, target.start + len(replacement), target.label)
    moved: list[Span] = []
    for other in others:
        if other.overlaps(target):
            raise InputError(f"span {other} overlaps the replaced span {target}")
        moved.append(other.shifted(delta) if other.start >= target.end else other)
    # The invariant every transformation relies on, checked on every edit (not an assert:
    # it must hold under python -O too).
    ok = new_text[new_target.start : new_target.end] == replacement and all(
        text[b.start : b.end] == new_text[a.start : a.end] for b, a in zip(others, moved)
    )
    if not ok:  # pragma: no cover - unreachable unless the arithmetic above is wrong
        raise RuntimeError(f"span bookkeeping failed replacing {target} in {text!r}")
    return new_text, new_target, tuple(moved)
