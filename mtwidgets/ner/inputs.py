"""The NER input: a text with optional gold entity spans.

``key()`` depends on the text only: gold labels do not change what a model sees, so two
inputs with the same text share one cached prediction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.errors import InputError
from ..core.inputs import BaseInput, _check_text, check_label, register_input_type
from ..core.spans import Span, check_span
from .labels import CANONICAL


def _gold_spans(text: str, gold: Iterable[object]) -> tuple[Span, ...]:
    spans: list[Span] = []
    for i, value in enumerate(gold):
        span = Span.from_value(value, what=f"gold entity #{i}")
        check_label(span.label, f"gold entity #{i} label")
        check_span(text, span, what=f"gold entity #{i} {span.label or ''}".rstrip())
        if span.label is None or not str(span.label).strip():
            raise InputError(
                f"gold entity #{i} ({span.start}, {span.end}) = {text[span.start : span.end]!r} has no label; "
                "give a canonical label such as PERSON, ORG or GPE"
            )
        if span.label not in CANONICAL:
            raise InputError(
                f"gold entity #{i} {text[span.start : span.end]!r} has the label {span.label!r}, which is not "
                f"canonical; use one of {', '.join(CANONICAL)} (map other schemes with "
                "mtwidgets.ner.labels, e.g. CONLL.map('PER') -> 'PERSON')"
            )
        spans.append(span)
    spans.sort(key=lambda s: (s.start, s.end))
    for a, b in zip(spans, spans[1:]):
        if a.overlaps(b):
            raise InputError(
                f"gold entities {text[a.start : a.end]!r} ({a.start}, {a.end}, {a.label}) and "
                f"{text[b.start : b.end]!r} ({b.start}, {b.end}, {b.label}) overlap; NER spans must be "
                "disjoint (keep the outer one)"
            )
    return tuple(spans)


@dataclass(frozen=True)
class NERInput(BaseInput):
    """A sentence for NER, with the gold entities when they are known.

    Parameters
    ----------
    text:
        The sentence the model reads.
    gold:
        Gold entity spans with canonical labels (see :mod:`mtwidgets.ner.labels`); pairs,
        dicts or :class:`~mtwidgets.core.spans.Span` objects. Stored sorted by start.

    Examples
    --------
    >>> x = NERInput("Obama visited Paris.", [(0, 5, "PERSON"), (14, 19, "GPE")])
    >>> [x.mention(s) for s in x.gold]
    ['Obama', 'Paris']
    """

    text: str
    gold: tuple[Span, ...] = ()
    task: ClassVar[str] = "ner"

    def __post_init__(self) -> None:
        _check_text(self.text)
        if isinstance(self.gold, (str, bytes, Mapping)) or not isinstance(self.gold, Iterable):
            raise InputError(f"gold must be a list of spans, got {type(self.gold).__name__}: {self.gold!r}")
        object.__setattr__(self, "gold", _gold_spans(self.text, self.gold))

    def mention(self, span: Span) -> str:
        """The characters ``span`` covers in this text."""
        return self.text[span.start : span.end]

    def key(self) -> str:
        """The text alone (gold spans do not change what a model sees)."""
        cached = self.__dict__.get("_key")
        if cached is None:
            import json

            cached = json.dumps({"task": self.task, "text": self.text}, ensure_ascii=False)
            object.__setattr__(self, "_key", cached)
        return str(cached)

    def display(self) -> str:
        """The text with gold entities marked ``[Obama|PERSON]``."""
        out, pos = [], 0
        for s in self.gold:
            out.append(self.text[pos : s.start])
            out.append(f"[{self.text[s.start : s.end]}|{s.label}]")
            pos = s.end
        out.append(self.text[pos:])
        return "".join(out)

    def model_text(self, **options: Any) -> str:
        return self.text

    def with_gold(self, gold: Iterable[object]) -> NERInput:
        return NERInput(self.text, tuple(gold))  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text": self.text}
        if self.gold:
            out["gold"] = [s.to_dict() for s in self.gold]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NERInput:
        gold = data.get("gold", data.get("entities", ()))
        return cls(data["text"], tuple(gold))


register_input_type(NERInput)


def ner_input_from_row(row: Mapping[str, Any]) -> NERInput:
    """A data row -> :class:`NERInput`: ``text``, and gold entities from ``entities`` (or
    ``gold``) as ``[{"start", "end", "label"}, ...]``, a JSON string of that list (CSV
    cells), or missing/empty for a sentence without gold."""
    import json

    text = row.get("text")
    if not isinstance(text, str):
        raise InputError(f"the row has no 'text' (columns: {sorted(map(str, row))})")
    gold = row.get("entities", row.get("gold"))
    if gold is None or (isinstance(gold, float) and gold != gold):  # missing cell (NaN)
        gold = ()
    if isinstance(gold, str):
        try:
            gold = json.loads(gold) if gold.strip() else ()
        except json.JSONDecodeError as exc:
            raise InputError(
                f"the entities cell {gold[:60]!r} is not a JSON list of {{start, end, label}} ({exc.msg})"
            ) from None
    if hasattr(gold, "tolist"):  # a numpy array from Parquet
        gold = gold.tolist()
    if not isinstance(gold, (list, tuple)):
        raise InputError(
            f"the entities cell must be a list of {{start, end, label}}, got {type(gold).__name__}: {gold!r}"
        )
    return NERInput(text, tuple(gold))
