"""The Explorer's parts for relation extraction: the user marks a head and a tail mention
over spaCy's tokens, each with an (inferred or chosen) entity type; predictions are a
relation label with scores.

ENTRE (:mod:`mtwidgets.re.entre`) is shown its own way, through the multi-source hook
(:meth:`RelationParts.multi_source`): the rounds of the instance, one picked at a time,
every model's label on each round and where it first flips
(:class:`~mtwidgets.re.entre_views.EntreRounds`). The data's gold labels, which the
Explorer's input does not carry, are kept when the data is warmed, so a data row is judged
against its gold relation and a typed sentence against the model's own label on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.spans import Span
from ..core.views import ExplorerParts, MultiSourceParts, carry_span
from .inputs import RelationInput

Marks = Mapping[str, Span | None]


class RelationParts(ExplorerParts):
    """Relation extraction: the user marks a head and a tail mention over spaCy tokens."""

    mark_view = "head-tail"
    prediction_view = "label-scores"
    fields = ("text",)
    roles = ("head", "tail")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._gold: dict[str, str] = {}  # input key -> the data's gold relation (ENTRE's reference)

    @property
    def entity_types(self) -> tuple[str, ...]:  # type: ignore[override]
        from .entities import ENTITY_TYPES

        return tuple(ENTITY_TYPES)

    def marks_of(self, x: BaseInput) -> dict[str, Span | None]:
        assert isinstance(x, RelationInput)
        return {"head": x.head, "tail": x.tail}

    def build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        head, tail = marks.get("head"), marks.get("tail")
        if head is None or tail is None:
            missing = [r for r, s in (("head", head), ("tail", tail)) if s is None]
            return None, f"mark the {' and the '.join(missing)} (click or drag over tokens)"
        return RelationInput(texts["text"], head, tail), None

    def tokens(self, text: str) -> list[dict[str, Any]]:
        from ..lang.text import pipeline_tokens

        return pipeline_tokens(text)

    def suggestions(self, text: str) -> list[dict[str, Any]]:
        from .entities import typed_entities

        return [
            {"start": s.start, "end": s.end, "label": s.label, "text": text[s.start : s.end]}
            for s in typed_entities(text)
        ]

    def type_of(self, text: str, span: Span) -> str | None:
        from .entities import type_span

        return type_span(text, span)

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        """The follow-up with its text replaced by ``new_text`` and head/tail carried along.

        Markup (``[[head]]``, ``<<tail>>``) in ``new_text`` re-marks explicitly; otherwise
        each mention is moved through a character diff, or found again by its text when the
        edit touched it. A mention that cannot be found raises with what to write instead.
        """
        assert isinstance(followup, RelationInput)
        if "[[" in new_text or "<<" in new_text:
            return RelationInput.parse(new_text)
        if not new_text.strip():
            raise InputError("the follow-up text is empty; type a sentence or undo the edit")
        moved: dict[str, Span] = {}
        for role in self.roles:
            span = followup.head if role == "head" else followup.tail
            mention = followup.text[span.start : span.end]
            found = carry_span(followup.text, new_text, span)
            if found is None:
                avoid = moved.get("head")
                start = new_text.find(mention)
                while start >= 0 and avoid is not None and Span(start, start + len(mention)).overlaps(avoid):
                    start = new_text.find(mention, start + 1)
                if start < 0:
                    raise InputError(
                        f"the edit removed the {role} {mention!r}; keep it in the text, or re-mark the "
                        f"follow-up with markup: [[head]] ... <<tail>>"
                    )
                found = Span(start, start + len(mention), span.label)
            moved[role] = found
        return RelationInput(new_text, moved["head"], moved["tail"])

    def warm(self, inputs: Sequence[BaseInput]) -> None:
        """Parse the data's texts in one batch, and keep its gold labels (by input key)."""
        from ..lang.pipelines import parse_many

        relation_inputs = [x for x in inputs if isinstance(x, RelationInput)]
        parse_many([x.text for x in relation_inputs])
        for x in relation_inputs:
            if x.gold is not None:
                self._gold.setdefault(x.key(), x.gold)

    def gold_of(self, x: RelationInput) -> str | None:
        """The data's gold relation of the instance ``x`` (same text and mentions), if any."""
        return self._gold.get(x.key())

    def multi_source(self, relation: Any) -> MultiSourceParts | None:
        """ENTRE's rounds (:class:`~mtwidgets.re.entre_views.EntreRounds`) for ENTRE and
        ENTRE-fast; for any other relation, what it declares (none for RE's own)."""
        from .entre_views import entre_case

        rounds = entre_case(relation, gold=self.gold_of)
        return rounds if rounds is not None else super().multi_source(relation)


def parts() -> RelationParts:
    """The relation-extraction task's Explorer parts."""
    return RelationParts()
