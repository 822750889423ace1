"""The transformations of pairwise systematicity: concatenate a short neutral sentence.

Section 4.1 of the paper makes each follow-up ``x'_i = T(x_i)`` by adding one short sentence
at the start or the end of the source; :data:`TABLE_1` holds the six of its Table 1, as the
paper gives them (written for movie reviews). Users give others as
``mt.relation("pairwise-systematicity", sentences=[...])``.

A follow-up must read as something a person would write, so a source is refused (the
relation counts it as not applicable, with the reason) when

- it is not English (the sentences are English);
- the sentence goes at the start but the text does not begin a sentence (its first letter
  is lower case: the sentence would run into it);
- the sentence goes at the end but the text does not end one (no final ``. ! ? …``);
- the text already says the sentence (it would be said twice).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.relation import Draft, Slots, Transformation

__all__ = ["POSITIONS", "TABLE_1", "Concatenate", "Concatenation", "concatenations"]

POSITIONS: tuple[str, ...] = ("start", "end")

# What may close a sentence, and what may follow its final mark (quotes, brackets).
_FINAL = ".!?…"
_CLOSERS = "\"'”’»)]}"
_OPENERS = "\"'“‘«([{"
# A sentence added at the start ends like a sentence or introduces the text (Table 1's
# "Here is my review:").
_START_FINAL = _FINAL + ":"


@dataclass(frozen=True)
class Concatenation:
    """One transformation ``T``: add ``text`` at the ``position`` (``"start"`` or ``"end"``)."""

    text: str
    position: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not self.text.strip():
            raise InputError(f"a sentence to concatenate must be a non-empty string, got {self.text!r}")
        object.__setattr__(self, "text", " ".join(self.text.split()))
        if self.position not in POSITIONS:
            raise InputError(f"position must be 'start' or 'end', got {self.position!r} (for {self.text!r})")
        closing = _START_FINAL if self.position == "start" else _FINAL
        if not _ends_with(self.text, closing):
            raise InputError(
                f"the sentence {self.text!r} must end with one of {' '.join(closing)} so that it stands on its "
                f"own beside the text (position {self.position!r})"
            )
        if _first_letter(self.text).islower():
            raise InputError(f"the sentence {self.text!r} must begin like a sentence, not with a lower-case letter")

    @property
    def label(self) -> str:
        """``"<position>: <text>"``, the name of its slice of results."""
        return f"{self.position}: {self.text}"

    def apply(self, text: str) -> str:
        """The follow-up text: the sentence and the text, one space between them."""
        return f"{self.text} {text.lstrip()}" if self.position == "start" else f"{text.rstrip()} {self.text}"

    def refusal(self, source: BaseInput) -> str | None:
        """Why this sentence cannot be added to ``source`` (``None`` when it can)."""
        lang = getattr(source, "lang", "") or "en"
        if lang != "en":
            return f"the sentences are English and the text is {lang!r}"
        text = str(getattr(source, "text", "")).strip()
        if f" {_normal(self.text)} " in f" {_normal(text)} ":
            return f"the text already says {self.text!r}"
        if self.position == "start" and _first_letter(text).islower():
            return "the text does not begin a sentence (lower-case first letter)"
        if self.position == "end" and not _ends_with(text, _FINAL):
            return "the text does not end a sentence (no final . ! ? …)"
        return None


def _first_letter(text: str) -> str:
    stripped = text.lstrip().lstrip(_OPENERS)
    return stripped[:1]


def _ends_with(text: str, marks: str) -> bool:
    """Whether ``text`` ends with one of ``marks`` (before closing quotes and brackets)."""
    last = text.rstrip().rstrip(_CLOSERS)[-1:]
    return bool(last) and last in marks


def _normal(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


# Table 1 of the paper, sorted by safety as printed there.
TABLE_1: tuple[Concatenation, ...] = (
    Concatenation("My friends were happy, though.", "end"),
    Concatenation("Anyway, the sound of the rain outside was soothing.", "end"),
    Concatenation("As always: popcorn and coke make everything better!", "end"),
    Concatenation("Thank you.", "start"),
    Concatenation("I watched this movie with my brother.", "start"),
    Concatenation("Here is my review:", "start"),
)


def concatenations(sentences: Iterable[Any] | None) -> tuple[Concatenation, ...]:
    """The transformations a relation tests: :data:`TABLE_1` for ``None``, else each item
    a :class:`Concatenation`, a ``(text, position)`` pair or ``{"text", "position"}``."""
    if sentences is None:
        return TABLE_1
    if isinstance(sentences, (str, Concatenation)) or not isinstance(sentences, Iterable):
        raise InputError(
            "sentences must be a list of (text, position) pairs, e.g. [('Thank you.', 'start')], "
            f"got {sentences!r}"
        )
    out = tuple(_one(item) for item in sentences)
    if not out:
        raise InputError("sentences is empty; give at least one (text, position) pair")
    labels = [c.label for c in out]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise InputError(f"sentences lists {twice} twice; each transformation once")
    return out


def _one(item: Any) -> Concatenation:
    if isinstance(item, Concatenation):
        return item
    if isinstance(item, Mapping) and set(item) == {"text", "position"}:
        return Concatenation(item["text"], item["position"])
    if isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        return Concatenation(item[0], item[1])
    raise InputError(
        f"a sentence to concatenate is a (text, position) pair with position 'start' or 'end', got {item!r}"
    )


class Concatenate(Transformation):
    """Every source -> one follow-up per applicable :class:`Concatenation` (all kept: the
    relation compares all sources under each transformation)."""

    per_slot = None

    def __init__(self, sentences: Sequence[Concatenation] = TABLE_1) -> None:
        self.sentences = tuple(sentences)
        self.requirement = "an English text that begins and ends a sentence where the sentence goes"

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = sources[0]
        refusals = [(c, c.refusal(x)) for c in self.sentences]
        kept = [c for c, why in refusals if why is None]
        return Slots([kept] if kept else [], [why for _, why in refusals if why is not None])

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = sources[0]
        meta = {"transformation": option.label, "sentence": option.text, "position": option.position}
        followup = x.with_text(option.apply(str(x.text)))  # type: ignore[attr-defined]
        return Draft((x,), (followup,), f"{option.text!r} added at the {option.position}", meta)

    def slot(self, label: str) -> Concatenation | None:
        """The transformation whose slice is ``label`` (``None`` if this relation has none)."""
        return next((c for c in self.sentences if c.label == label), None)
