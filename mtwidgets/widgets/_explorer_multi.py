"""The Explorer on a relation whose test case joins several sources: one case, live.

Pairwise systematicity compares two texts; three-way transitivity chains word pairs. Such a
relation declares a :class:`~mtwidgets.core.views.MultiSourceParts` (see
:func:`~mtwidgets.core.views.multi_source_parts`), and the Explorer then shows one case:

- its sources: the Explorer's own input is the first (``x1``); each other one (``x2``, ...)
  is a :class:`Partner`: by default the data row after the input's (``auto``: it follows
  the input as the user steps through the rows), or a row the user picked, a text the user
  typed, or an input set from Python; once chosen it stays when the input changes (a Batch
  panel opening a source in the Explorer sets ``x1`` only). Parts whose later sources are
  built from the earlier ones (three-way transitivity: ``x23 = (w2, w3)`` takes ``w2`` from
  ``x12``, the user gives only ``w3``) offer the :class:`LinkedPartners` methods;
- the transformation picked among the parts' options (default: the first that applies to
  every source), the follow-ups it builds, or why it cannot;
- every model's predictions of every input (one call per model through the Explorer's
  :class:`~mtwidgets.widgets._explorer_state.Predictor`, so its cache) and its verdict on the
  case with the premise and hypothesis written out.

Plain Python over the engine, like :mod:`mtwidgets.widgets._explorer_state`; the widget keeps
only the traits and the handlers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Check, Group
from ..core.views import CaseJudgement, ExplorerParts, MultiSourceParts
from ._explorer_state import ModelOutcome, Predictor, fields_segments, prediction_view

__all__ = [
    "CaseOutcome",
    "CaseShown",
    "LinkedPartners",
    "Partner",
    "Partners",
    "case_group",
    "case_view",
    "evaluate_case",
]


# -- the sources beside the Explorer's input ------------------------------------------------------
@dataclass(frozen=True)
class Partner:
    """One source beside the Explorer's input: ``auto`` (no choice: the data row ``k``
    after the input's, for the ``k``-th partner), a data ``row``, a typed ``text`` (a string
    as the input box reads it, or ``{field: text}``; maybe still incomplete) or a ``given``
    input (set from Python, or saved in a suite)."""

    row: int | None = None
    text: str | Mapping[str, str] | None = None
    given: BaseInput | None = None

    @property
    def auto(self) -> bool:
        return self.row is None and self.text is None and self.given is None


@runtime_checkable
class LinkedPartners(Protocol):
    """The methods :class:`~mtwidgets.core.views.MultiSourceParts` offer when a source beside
    the input is built from the sources before it rather than taken whole. Three-way
    transitivity: ``x23 = (w2, w3)`` joins ``x12``'s second word and a third word ``w3``, so
    the user gives only ``w3`` (typed, or the second word of a data row) and the auto row is
    one that chains with ``x12``. Parts without these methods take each source whole
    (pairwise systematicity)."""

    def partner(
        self, slot: int, given: BaseInput | str | Mapping[str, str], before: Sequence[BaseInput | None]
    ) -> tuple[BaseInput | None, str, str]:
        """The source in ``slot`` from what the user gave for it (a data row or an input set
        from Python, or a typed text) and the sources before it (``before[0]`` is ``x1``;
        ``None`` where one is missing): the source (``None`` while it cannot be built), the
        text its box shows, and what the user still has to do or may do ("" for nothing)."""
        ...

    def partner_row(
        self, slot: int, before: Sequence[BaseInput | None], inputs: Sequence[BaseInput], index: int
    ) -> int:
        """The data row an ``auto`` source in ``slot`` takes, given the sources before it
        (``index``: the row of the Explorer's input)."""
        ...


@dataclass
class Partners:
    """The sources ``x2, x3, ...`` of the case, by slot (1 is ``x2``); a slot never set is auto.

    ``multi`` and ``first`` (the case's parts and its first source, the Explorer's input)
    matter only for parts that build a source from the ones before it (:class:`LinkedPartners`).
    """

    slots: dict[int, Partner] = field(default_factory=dict)

    def get(self, slot: int) -> Partner:
        return self.slots.get(slot, Partner())

    def set(self, slot: int, partner: Partner) -> None:
        if isinstance(slot, bool) or not isinstance(slot, int) or slot < 1:
            raise InputError(f"slot must be 1 (x2) or more; slot 0 is the Explorer's own input, got {slot!r}")
        self.slots[slot] = partner

    def resolve(
        self, slot: int, parts: ExplorerParts, inputs: Sequence[BaseInput], index: int,
        multi: MultiSourceParts | None = None, first: BaseInput | None = None,
    ) -> tuple[BaseInput | None, int | None, str]:
        """The input in ``slot``, the data row it is (``None`` for a typed or given one) and
        what the user still has to do ("" when nothing)."""
        x, row, todo, _ = self._resolve(slot, parts, inputs, index, multi, first)
        return x, row, todo

    def _resolve(
        self, slot: int, parts: ExplorerParts, inputs: Sequence[BaseInput], index: int,
        multi: MultiSourceParts | None, first: BaseInput | None,
    ) -> tuple[BaseInput | None, int | None, str, str | None]:
        """:meth:`resolve`, and the text the source's box shows when the parts say (else ``None``)."""
        p = self.get(slot)
        if isinstance(multi, LinkedPartners):
            return self._linked(slot, p, parts, inputs, index, multi, multi, first)
        if p.given is not None:
            return p.given, None, "", None
        if p.text is not None:
            texts = parts.parse_texts(p.text)
            if not any(str(t).strip() for t in texts.values()):
                return None, None, "type a text or pick a row of the data", None
            x, todo = parts.build({**dict.fromkeys(parts.fields, ""), **texts}, parts.empty_marks())
            return x, None, todo or "", None
        row = (index + slot) % len(inputs) if p.row is None else p.row
        return inputs[row], row, "", None

    def _linked(
        self, slot: int, p: Partner, parts: ExplorerParts, inputs: Sequence[BaseInput], index: int,
        multi: MultiSourceParts, link: LinkedPartners, first: BaseInput | None,
    ) -> tuple[BaseInput | None, int | None, str, str | None]:
        """A source the parts (``multi``, as ``link``) build from what the user gave and the
        sources before it."""
        before: list[BaseInput | None] = [first]
        for k in range(1, slot):
            before.append(self._resolve(k, parts, inputs, index, multi, first)[0])
        row: int | None = None
        given: BaseInput | str | Mapping[str, str]
        if p.given is not None:
            given = p.given
        elif p.text is not None:
            given = p.text
        else:
            row = link.partner_row(slot, before, inputs, index) if p.row is None else p.row
            if not 0 <= row < len(inputs):
                raise InputError(f"row {row} is out of range; the data has rows 0..{len(inputs) - 1}")
            given = inputs[row]
        x, text, todo = link.partner(slot, given, before)
        return x, row, todo, text

    def view(
        self, slot: int, title: str, parts: ExplorerParts, inputs: Sequence[BaseInput], index: int,
        multi: MultiSourceParts | None = None, first: BaseInput | None = None,
    ) -> dict[str, Any]:
        """The source box of ``slot``: its text as the box shows it, its row, whether it
        follows the input (``auto``) and what to do."""
        p = self.get(slot)
        x, row, todo, shown = self._resolve(slot, parts, inputs, index, multi, first)
        if isinstance(p.text, str):
            text = p.text
        elif shown is not None:
            text = shown
        else:
            text = parts.edit_text(x) if x is not None else ""
        return {"slot": slot, "title": title, "text": text, "row": row, "auto": p.auto,
                "typed": p.text is not None or p.given is not None, "todo": todo}


# -- one case, evaluated ---------------------------------------------------------------------------
@dataclass
class CaseOutcome(ModelOutcome):
    """One model on the case: its predictions, the verdict (``check``) and the judgement
    with the values read and the premise and hypothesis written out."""

    judgement: CaseJudgement | None = None


@dataclass
class CaseShown:
    """The case on screen: its sources (``None`` where one is missing), the transformation,
    its follow-ups or why none, and every model's outcome."""

    parts: MultiSourceParts
    sources: tuple[BaseInput | None, ...]
    option: str
    followups: tuple[BaseInput, ...]
    not_applicable: str | None
    outcomes: dict[str, CaseOutcome]
    option_reasons: dict[str, str | None]

    @property
    def complete(self) -> bool:
        return all(x is not None for x in self.sources)

    @property
    def inputs(self) -> tuple[BaseInput, ...]:
        return tuple(x for x in self.sources if x is not None)


def _option_reasons(parts: MultiSourceParts, sources: Sequence[BaseInput]) -> dict[str, str | None]:
    """Why each option cannot be applied to these sources (``None``: it can)."""
    return {key: parts.followups(sources, key)[1] for key, _ in parts.options()}


def pick_option(parts: MultiSourceParts, chosen: str, reasons: Mapping[str, str | None]) -> str:
    """The option shown: the user's ``chosen`` one, else the first that applies to every source."""
    keys = [key for key, _ in parts.options()]
    if not keys:
        raise InputError("the relation offers no transformation to pick")
    if chosen:
        if chosen not in keys:
            raise InputError(f"unknown transformation {chosen!r}; pick one of: {'; '.join(keys)}")
        return chosen
    return next((k for k in keys if reasons.get(k) is None), keys[0])


def evaluate_case(
    parts: MultiSourceParts, predictor: Predictor, sources: Sequence[BaseInput | None], chosen: str
) -> CaseShown:
    """The case of ``sources`` under the ``chosen`` option ("": the first that applies),
    every model of ``predictor`` judged on it."""
    present = tuple(x for x in sources if x is not None)
    complete = len(present) == len(sources)
    reasons = _option_reasons(parts, present) if complete else {}
    option = pick_option(parts, chosen, reasons)
    if not complete:
        missing = [t for t, x in zip(parts.source_titles, sources) if x is None]
        return CaseShown(parts, tuple(sources), option, (), f"{' and '.join(missing)} missing", {}, reasons)
    followups, why = parts.followups(present, option) if reasons.get(option) is None else ((), reasons[option])
    outcomes = {name: _outcome(parts, predictor, name, present, followups, option, why) for name in predictor.models}
    return CaseShown(parts, present, option, tuple(followups), why, outcomes, reasons)


def _outcome(
    parts: MultiSourceParts, predictor: Predictor, name: str, sources: tuple[BaseInput, ...],
    followups: Sequence[BaseInput], option: str, why: str | None,
) -> CaseOutcome:
    got = predictor.predict(name, [*sources, *followups])  # one call (cached) for the whole case
    n = len(sources)
    bad = next((p for p in got if isinstance(p, str)), None)
    srcs = [p for p in got[:n] if isinstance(p, Prediction)]
    fus = [p for p in got[n:] if isinstance(p, Prediction)]
    if len(srcs) < n:  # the model failed on a source: nothing to judge
        return CaseOutcome(srcs, [], Check("error", None, str(bad)), None)
    judgement = parts.judge(option, srcs, fus if len(fus) == len(followups) else [])
    if why is not None:
        judgement = dataclasses.replace(judgement, check=Check("not_applicable", None, why))
    elif bad is not None:
        judgement = dataclasses.replace(judgement, check=Check("error", None, str(bad)))
    return CaseOutcome(srcs, fus, judgement.check, judgement)


def case_group(relation: str, shown: CaseShown, seed: int, source_index: int | None) -> Group | None:
    """The case as a group (saved in the Explorer's suite, listed in ``explorer.followups``)."""
    if not shown.complete:
        return None
    note = f"T = {shown.option}" if shown.not_applicable is None else ""
    return Group(relation, 0, shown.inputs, shown.followups, note, seed, source_index, shown.parts.meta(shown.option),
                 shown.not_applicable)


# -- render state ---------------------------------------------------------------------------------------
def _side(title: str, holds: bool | None, text: str) -> dict[str, Any]:
    return {"title": title, "text": text, "holds": holds}


def _model_view(name: str, shown: CaseShown, o: CaseOutcome, top_k: int) -> dict[str, Any]:
    parts = shown.parts
    titles = [*parts.source_titles, *parts.followup_titles]
    preds: list[Prediction | None] = [*o.sources, *o.followups]
    preds += [None] * (len(titles) - len(preds))
    j = o.judgement
    values = list(j.values) if j is not None else []
    values += [None] * (len(titles) - len(values))
    return {
        "name": name,
        "verdict": o.check.verdict,
        "reason": o.check.reason,
        "expected": o.check.expected or "",
        "values": [
            {
                "title": t,
                "value": None if v is None else round(float(v), 4),
                **({"label": p.label, "top": prediction_view(p, top_k)["top"]} if p is not None else {}),
            }
            for t, v, p in zip(titles, values, preds)
        ],
        "premise": _side(parts.premise_title, j.premise_holds if j else None, j.premise if j else ""),
        "hypothesis": _side(parts.hypothesis_title, j.hypothesis_holds if j else None, j.hypothesis if j else ""),
    }


def case_view(
    relation: str,
    explorer_parts: ExplorerParts,
    shown: CaseShown,
    partners: Sequence[dict[str, Any]],
    top_k: int,
) -> dict[str, Any]:
    """The JSON the front end draws: the sources (``partners``: each one's slot, row, text
    and what to do), the transformation picker, the follow-ups diffed against their sources,
    and one card per model."""
    parts = shown.parts
    followups = [
        {"title": t, "words": fields_segments(explorer_parts, f, x)}
        for t, f, x in zip(parts.followup_titles, shown.followups, shown.inputs)
    ]
    return {
        "active": True,
        "relation": relation,
        "titles": {
            "sources": list(parts.source_titles),
            "followups": list(parts.followup_titles),
            "value": parts.value_title,
            "premise": parts.premise_title,
            "hypothesis": parts.hypothesis_title,
        },
        "expected": parts.expected,
        "sources": list(partners),
        "options": [
            {"key": k, "label": label, "enabled": shown.option_reasons.get(k) is None,
             "reason": shown.option_reasons.get(k) or ""}
            for k, label in parts.options()
        ],
        "option": shown.option,
        "followups": followups,
        "not_applicable": shown.not_applicable,
        "models": [_model_view(name, shown, o, top_k) for name, o in shown.outcomes.items()],
    }
