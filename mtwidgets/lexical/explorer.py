"""The lexical task in the Explorer: a word pair in two boxes, and one triplet of three-way
transitivity, live.

:class:`LexicalParts` are the task's Explorer parts: the input is a word pair ``(w1, w2)``
typed in two one-line boxes (or as one string, ``"dog -> animal"``) and each model's
prediction is drawn as its relations' scores. A typed pair the data holds is that row (its
language and gold kind); other words take the language the data gives them, else the one
their script says (``zh`` for Han characters, else ``en``).

:class:`TransitivityCase` is what ``transitivity-syn`` and ``transitivity-hyp`` declare as
their ``explorer_multi_source`` (see :class:`mtwidgets.core.views.MultiSourceParts`). The
Explorer shows one triplet of words ``w1, w2, w3``, the paper's Figure 5:

- the input is ``x12 = (w1, w2)``; the user gives only ``w3`` (typed, or the second word of a
  data row), which makes ``x23 = (w2, w3)``; by default ``w3`` comes from the data's first
  pair after the input's that starts with ``w2`` (a chain the data holds), else from the
  next pair in the same language;
- the follow-up is the closing pair ``x13 = (w1, w3)``, built by the relation's own
  transformation (:class:`~mtwidgets.lexical.relations.ClosePairs`), which refuses three
  words that are not distinct;
- each model's score of the lexical relation for the three pairs, the premise
  ``v(y12) ∧ v(y23)``, the hypothesis ``v(y13)`` and the verdict as
  :class:`~mtwidgets.lexical.relations.Transitive` decides it in a run: satisfied,
  violation, or not applicable with the reason when the premise is false.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Check, Group
from ..core.views import CaseJudgement, ExplorerParts, Marks, MultiSourceParts
from .inputs import WordPairInput, check_word, relation_flags
from .relations import ClosePairs, Transitive

__all__ = ["LexicalParts", "TransitivityCase", "split_words"]

# Between the two words of a pair written as one string: |||, |, ",", a tab, -> or →
# (whitespace alone separates them too when no such mark is there).
_MARKS = re.compile(r"\s*(?:\|\|\||->|→|[|,\t])\s*")


def split_words(text: str) -> list[str]:
    """The words of a pair (or of one word) as typed: ``"dog -> animal"``, ``"dog → animal"``,
    ``"dog, animal"`` or ``"dog animal"``; words are not checked here."""
    parts = [p for p in _MARKS.split(text.strip()) if p]
    return parts[0].split() if len(parts) == 1 else parts


def _num(value: float) -> str:
    return f"{value:.3g}"


class LexicalParts(ExplorerParts):
    """A word pair ``(w1, w2)`` in two one-line boxes; nothing to mark."""

    mark_view = "word-pair"
    prediction_view = "label-scores"
    fields = ("w1", "w2")
    field_titles = {"w1": "w1", "w2": "w2"}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._rows: dict[tuple[str, str], WordPairInput] = {}  # a pair the data holds, by its words
        self._langs: dict[str, set[str]] = {}  # the languages the data gives each word

    def _remember(self, x: BaseInput) -> None:
        if isinstance(x, WordPairInput):
            self._rows.setdefault((x.w1, x.w2), x)
            for w in (x.w1, x.w2):
                self._langs.setdefault(w, set()).add(x.lang)

    def warm(self, inputs: Sequence[BaseInput]) -> None:
        """Learn the data's pairs and the language of its words (so that a row typed back is
        that row, and a German word typed stays German)."""
        for x in inputs:
            self._remember(x)

    def texts_of(self, x: BaseInput) -> dict[str, str]:
        if not isinstance(x, WordPairInput):
            raise InputError(f"the lexical Explorer shows word pairs, not {type(x).__name__}")
        self._remember(x)
        return {"w1": x.w1, "w2": x.w2}

    def edit_text(self, x: BaseInput) -> str:
        return x.display()

    def parse_texts(self, text: str | Mapping[str, str]) -> dict[str, str]:
        """``{field: text}`` as given, or a string: two words (see :func:`split_words`) fill
        w1 and w2, one word fills w1."""
        if isinstance(text, Mapping):
            return super().parse_texts(text)
        words = split_words(text)
        if len(words) < 2:
            return {"w1": words[0] if words else ""}
        return {"w1": words[0], "w2": " ".join(words[1:])}  # three words: w2 is refused with the reason

    def _lang(self, w1: str, w2: str) -> str:
        """The one language the data gives both words (or either), else "" (inferred)."""
        a, b = self._langs.get(w1, set()), self._langs.get(w2, set())
        found = (a & b) or (a | b)
        return next(iter(found)) if len(found) == 1 else ""

    def build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        words = {f: str(texts.get(f, "")).strip() for f in self.fields}
        empty = [f for f, w in words.items() if not w]
        if empty:
            return None, f"type {' and '.join(self.title(f) for f in empty)} (one word each)"
        w1, w2 = words["w1"], words["w2"]
        known = self._rows.get((w1, w2))
        if known is not None:
            return known, None
        try:
            return WordPairInput(w1, w2, self._lang(w1, w2)), None
        except InputError as exc:
            return None, str(exc)

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        words = split_words(new_text)
        if len(words) != 2:
            raise InputError(f"write the follow-up as two words, e.g. 'dog -> animal'; {new_text!r} has {len(words)}")
        lang = followup.lang if isinstance(followup, WordPairInput) else ""
        return WordPairInput(words[0], words[1], lang)


class TransitivityCase(MultiSourceParts):
    """One triplet ``w1, w2, w3`` of a three-way transitivity relation, judged as a run
    judges it: the sources ``x12`` and ``x23``, the closing pair ``x13`` and the relation's
    :class:`~mtwidgets.lexical.relations.Transitive` property. The user gives ``w3`` only
    (the :class:`~mtwidgets.widgets._explorer_multi.LinkedPartners` methods)."""

    source_titles = ("x12", "x23")
    followup_titles = ("x13",)
    premise_title = "v(y12) ∧ v(y23)"
    hypothesis_title = "v(y13)"
    option = "x13"

    def __init__(self, relation: Any) -> None:
        prop = getattr(relation, "property", None)
        transformation = getattr(relation, "transformation", None)
        if not isinstance(prop, Transitive) or not isinstance(transformation, ClosePairs):
            raise InputError(
                f"relation {getattr(relation, 'name', relation)!r} is not a three-way transitivity relation "
                "(its property is not Transitive over closing pairs)"
            )
        self.name: str = relation.name
        self.property = prop
        self.transformation = transformation
        self.lexical = prop.relation
        self.value_title = (f"the model's {self.lexical} score of each pair (v = it says {self.lexical}: "
                            "its label)")
        meaning = (
            "if the model calls (w1, w2) and (w2, w3) synonyms, it calls (w1, w3) synonyms"
            if self.lexical == "synonym"
            else "if the model says w2 is a hypernym of w1 and w3 one of w2, it says w3 is one of w1"
        )
        self.expected = f"v(y12) ∧ v(y23) ⇒ v(y13): {meaning}; not applicable when the premise is false"

    # -- the sources: x12 is the input, the user gives w3 ---------------------------------------
    def partner(
        self, slot: int, given: BaseInput | str | Mapping[str, str], before: Sequence[BaseInput | None]
    ) -> tuple[BaseInput | None, str, str]:
        """``x23 = (w2, w3)`` from ``w3``: the second word of a given pair (a data row, an
        input set from Python, a saved case's ``x23``), or a typed word (``"w2 w3"`` is read
        too when its first word is ``w2``); the box shows ``w3`` (the typed text as typed)."""
        x12 = before[0] if before and isinstance(before[0], WordPairInput) else None
        if isinstance(given, BaseInput):
            if not isinstance(given, WordPairInput):
                return None, "", f"x23 is a word pair, not a {type(given).__name__}"
            text, origin = given.w2, f"w3 = {given.w2!r}, from the pair {given.display()}"
            if x12 is not None and given.lang != x12.lang:
                return None, text, (f"{given.display()} is in {given.lang!r}, x12 in {x12.lang!r}: pick a row in "
                                    f"{x12.lang!r} or type w3")
            w3 = given.w2
        else:
            text = given if isinstance(given, str) else " ".join(str(v) for v in given.values())
            words = split_words(given) if isinstance(given, str) else [str(v).strip() for v in given.values()
                                                                         if str(v).strip()]
            found, todo = self._typed_w3(words, x12)
            if found is None:
                return None, text, todo
            w3, origin = found, f"w3 = {found!r}"
        if x12 is None:
            return None, text, "give x12 = (w1, w2) above first: x23 = (w2, w3) starts with its second word"
        try:
            x23 = WordPairInput(x12.w2, check_word(w3, "w3"), x12.lang)
        except InputError as exc:
            return None, text, f"x23 = (w2, w3): {exc}"
        return x23, text, f"{origin}; x23 = {x23.display()} (type another w3 or pick a row: its second word)"

    @staticmethod
    def _typed_w3(words: Sequence[str], x12: WordPairInput | None) -> tuple[str | None, str]:
        """The typed ``w3``, or ``None`` and what to type."""
        if not words:
            return None, "type w3, the third word (x23 = (w2, w3)), or pick a row: its second word is w3"
        if len(words) == 1:
            return words[0], ""
        if len(words) == 2 and (x12 is None or words[0] == x12.w2):
            return words[1], ""
        if len(words) == 2 and x12 is not None:
            return None, (f"x23 starts with w2 = {x12.w2!r}, the input's second word; type only w3 "
                          f"(or '{x12.w2} w3')")
        return None, f"type one word, w3; got {len(words)} words"

    def partner_row(
        self, slot: int, before: Sequence[BaseInput | None], inputs: Sequence[BaseInput], index: int
    ) -> int:
        """The first row after the input's (wrapping) that starts with ``w2`` and ends with a
        third word (a chain of the data), else the first with a third word in ``x12``'s
        language, else the next row."""
        n = len(inputs)
        x12 = before[0] if before and isinstance(before[0], WordPairInput) else None
        if x12 is not None:
            chained = next((r for r, y in self._thirds(x12, inputs, index) if y.w1 == x12.w2), None)
            if chained is not None:
                return chained
            other = next((r for r, _ in self._thirds(x12, inputs, index)), None)
            if other is not None:
                return other
        return (index + slot) % n

    @staticmethod
    def _thirds(x12: WordPairInput, inputs: Sequence[BaseInput], index: int) -> Iterator[tuple[int, WordPairInput]]:
        """The rows after ``index`` (wrapping) whose second word can be ``w3``: a pair in
        ``x12``'s language ending with neither of its words."""
        n = len(inputs)
        for r in ((index + k) % n for k in range(1, n + 1)):
            y = inputs[r]
            if isinstance(y, WordPairInput) and y.lang == x12.lang and y.w2 not in (x12.w1, x12.w2):
                yield r, y

    # -- the case ---------------------------------------------------------------------------
    def options(self) -> list[tuple[str, str]]:
        return [(self.option, "close the chain: x13 = (w1, w3)")]

    def followups(self, sources: Sequence[BaseInput], option: str) -> tuple[tuple[BaseInput, ...], str | None]:
        if option != self.option:
            raise InputError(f"unknown transformation {option!r}; {self.name} closes the chain with {self.option!r}")
        x12, x23 = sources
        slots = self.transformation.options((x12, x23))
        if not slots or not slots[0]:
            why = "; ".join(getattr(slots, "why", ())) or self.transformation.requirement
            words = [getattr(x12, "w1", ""), getattr(x12, "w2", ""), getattr(x23, "w2", "")]
            return (), f"no triplet: {why} (w1, w2, w3 = {', '.join(map(repr, words))})"
        return tuple(self.transformation.build((x12, x23), slots[0][0]).followups), None

    def judge(self, option: str, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> CaseJudgement:
        titles = (*self.source_titles, *self.followup_titles)
        preds = [*sources, *followups]
        values = tuple(dict(p.scores).get(self.lexical) for p in preds)
        padded = values + (None,) * (len(titles) - len(values))
        try:
            flags = [relation_flags(p)[self.lexical] for p in preds]
        except InputError as exc:
            return CaseJudgement(Check("error", None, str(exc)), padded)
        said = [self._said(t, v, f) for t, v, f in zip(("y12", "y23", "y13"), values, flags)]
        premise = " ∧ ".join(said[:2])
        premise_holds = flags[0] and flags[1]
        hypothesis, hypothesis_holds = (said[2], flags[2]) if len(flags) > 2 else ("", None)
        missing = next((k for k, v in enumerate(values) if v is None), None)
        group = Group(self.name, 0, (), (), "", 0)  # Transitive reads the predictions only
        why = self.property.applies(group, sources)
        if missing is not None:
            check = Check("not_applicable", None, f"the model gives no {self.lexical} score for {titles[missing]} "
                          f"(label {preds[missing].label!r}): it does not predict {self.lexical} there")
        elif why is not None:
            check = Check("not_applicable", None, why)
        elif len(followups) != 1:
            check = Check("not_applicable", None, "no closing pair x13 to judge")
        else:
            check = self.property.check(group, sources, followups)
        return CaseJudgement(check, padded, premise, premise_holds, hypothesis, hypothesis_holds)

    def _said(self, title: str, score: float | None, flag: bool) -> str:
        """``"v(y12) true (synonym 0.83)"``."""
        value = "" if score is None else f" {_num(score)}"
        return f"v({title}) {'true' if flag else 'false'} ({self.lexical}{value})"
