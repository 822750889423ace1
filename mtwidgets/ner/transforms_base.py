"""Shared machinery of the NER transformations: edits with alignment, protected spans,
filters as options.

A follow-up is the source text with a few edits (insertions, deletions, replacements).
:func:`apply_edits` builds it and the *alignment*: every source character range kept
verbatim, with its place in the follow-up. Entities outside the edits are found in the
follow-up through the alignment, so an oracle can compare an entity's labels in both
sentences even after words moved (a fronted auxiliary) or changed length. Like
:func:`mtwidgets.core.spans.replace_span` (which it generalises to insertions, deletions
and several edits at once), it re-checks the invariant on every edit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.relation import Draft, Transformation
from ..core.spans import Span
from .inputs import NERInput

Alignment = tuple[tuple[int, int, int, int], ...]
Edit = tuple[int, int, str]  # (start, end, new text); start == end inserts, "" deletes


def apply_edits(text: str, edits: Sequence[Edit]) -> tuple[str, Alignment]:
    """Apply non-overlapping ``edits`` to ``text``; return the new text and the alignment.

    Raises
    ------
    InputError
        When two edits overlap or one runs outside the text (a transformation bug, never
        silently a wrong follow-up).
    """
    ordered = sorted(edits, key=lambda e: (e[0], e[1]))
    parts: list[str] = []
    alignment: list[tuple[int, int, int, int]] = []
    pos = out = 0
    for start, end, new in ordered:
        if start < pos or end < start or end > len(text):
            raise InputError(
                f"edit ({start}, {end}, {new!r}) overlaps another edit or leaves the text {text!r}"
            )
        if start > pos:
            alignment.append((pos, start, out, out + start - pos))
            parts.append(text[pos:start])
            out += start - pos
        parts.append(new)
        out += len(new)
        pos = end
    if pos < len(text):
        alignment.append((pos, len(text), out, out + len(text) - pos))
        parts.append(text[pos:])
    new_text = "".join(parts)
    if any(text[a:b] != new_text[c:d] for a, b, c, d in alignment):  # pragma: no cover - arithmetic bug
        raise RuntimeError(f"alignment bookkeeping failed editing {text!r}")
    return new_text, tuple(alignment)


def map_span(span: Span, alignment: Alignment) -> Span | None:
    """Where ``span`` lies in the follow-up, or ``None`` if an edit touched it."""
    for a, b, c, _ in alignment:
        if a <= span.start and span.end <= b:
            return Span(span.start - a + c, span.end - a + c, span.label)
    return None


def touches(span: Span, edits: Sequence[Edit]) -> bool:
    """Whether an edit changes characters inside ``span`` (an insertion at its edge does not)."""
    for start, end, _ in edits:
        if start == end:
            if span.start < start < span.end:
                return True
        elif start < span.end and span.start < end:
            return True
    return False


def ner_input(sources: tuple[BaseInput, ...]) -> NERInput:
    x = sources[0]
    if not isinstance(x, NERInput):
        raise InputError(
            f"NER transformations need an NERInput, got {type(x).__name__}: {x.display()[:80]!r}; "
            "build inputs with mtwidgets.ner.NERInput(text, gold)"
        )
    return x


def parse(text: str) -> Any:
    """The reference parse (en_core_web_sm), cached by text and shared with the RE task."""
    from ..lang.pipelines import parse as _parse

    return _parse(text)


def parse_many(texts: Sequence[str]) -> list[Any]:
    from ..lang.pipelines import parse_many as _parse_many

    return _parse_many(texts)


def protected_spans(x: NERInput, doc: Any) -> tuple[Span, ...]:
    """Entities a similar-sentence edit must not touch: the gold ones and those the
    reference NER (en_core_web_sm) finds. The paper protects the entities the system under
    test predicts; a transformation runs before any model, so it protects both sources."""
    ents = [Span(e.start_char, e.end_char, e.label_) for e in doc.ents]
    return tuple(sorted({*x.gold, *ents}))


def reference_entities(x: NERInput) -> tuple[Span, ...]:
    """The reference NER's entities (en_core_web_sm, canonical labels) in ``x``."""
    doc = parse(x.text)
    return tuple(Span(e.start_char, e.end_char, e.label_) for e in doc.ents)


class Filter(Protocol):
    """A follow-up quality filter: one score per (source, follow-up) pair and a threshold."""

    name: str

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]: ...

    def passes(self, score: float) -> bool: ...


@dataclass(frozen=True)
class Candidate:
    """A fully built possible follow-up (text, alignment, gold), before filtering."""

    text: str
    alignment: Alignment
    gold: tuple[Span, ...]
    note: str
    meta: dict[str, Any] = field(default_factory=dict)


def build_candidate(x: NERInput, edits: Sequence[Edit], note: str, **meta: Any) -> Candidate | None:
    """The follow-up for ``edits``, or ``None`` when an edit would cut through a gold entity
    (its gold label would then be undefined in the follow-up)."""
    if any(touches(g, edits) for g in x.gold):
        return None
    text, alignment = apply_edits(x.text, edits)
    gold = []
    for g in x.gold:
        moved = map_span(g, alignment)
        if moved is None:
            return None
        gold.append(moved)
    return Candidate(text, alignment, tuple(gold), note, meta)


class NERTransformation(Transformation):
    """Base of the NER transformations: candidates per slot, then the filters.

    Subclasses implement :meth:`_candidates` (slots of :class:`Candidate`); the filters
    (e.g. :class:`~mtwidgets.ner.filters.SemanticFilter`) drop candidates below their
    threshold, and their scores go into ``meta["filters"]``.
    """

    def __init__(self, *, filters: Sequence[Filter] = (), per_slot: int | None = 1) -> None:
        for f in filters:
            if not (hasattr(f, "scores") and hasattr(f, "passes")):
                raise TypeError(
                    f"filter {f!r} has no scores()/passes(); use mtwidgets.ner.filters.SemanticFilter "
                    "or NaturalnessFilter"
                )
        self.filters = tuple(filters)
        self.per_slot = per_slot

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        raise NotImplementedError

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = ner_input(sources)
        slots = [slot for slot in self._candidates(x) if slot]
        # cheap filters first (stable), so the encoder only sees what they keep
        for f in sorted(self.filters, key=lambda f: float(getattr(f, "cost", 1.0))):
            flat = [c for slot in slots for c in slot]
            if not flat:
                break
            scores = iter(f.scores([(x.text, c.text) for c in flat]))
            kept_slots = []
            for slot in slots:
                kept = []
                for c in slot:
                    score = next(scores)
                    if f.passes(score):
                        c.meta.setdefault("filters", {})[f.name] = round(float(score), 4)
                        kept.append(c)
                kept_slots.append(kept)
            slots = [s for s in kept_slots if s]
        return slots

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = ner_input(sources)
        c: Candidate = option
        meta = {**c.meta, "alignment": [list(a) for a in c.alignment]}
        return Draft((x,), (NERInput(c.text, c.gold),), c.note, meta)
