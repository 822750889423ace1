"""One pair of pairwise systematicity, live in the Explorer.

The relation counts every ordered pair of sources over a data set; the Explorer shows one
pair at a time: the sources ``x1`` and ``x2``, the same transformation ``T`` (one of the
relation's sentences) applied to both, each model's positive score of all four texts, the
premise ``P_src = s(x1) > s(x2)``, the hypothesis ``P_flw = s(T(x1)) > s(T(x2))`` and the
verdict (``P_src <=> P_flw``). The follow-ups are built and the verdict decided by the code
a run uses (:class:`~mtwidgets.systematicity.concatenate.Concatenate`,
:class:`~mtwidgets.systematicity.pairwise.PositiveScore`,
:func:`~mtwidgets.systematicity.pairwise.pair_check`), so a pair reads in the Explorer as the
run counted it.

:class:`PairwiseCase` is what :class:`~mtwidgets.systematicity.pairwise.PairwiseCounter`
declares as its ``explorer_multi_source`` (see :class:`mtwidgets.core.views.MultiSourceParts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Check
from ..core.views import CaseJudgement, MultiSourceParts
from .concatenate import Concatenate, Concatenation
from .counting import Ties
from .pairwise import PositiveScore, pair_check

__all__ = ["PairwiseCase"]


def _num(value: float) -> str:
    return f"{value:.4g}"


class PairwiseCase(MultiSourceParts):
    """The pair ``(x1, x2)`` under one sentence ``T`` of the relation, judged as a run
    judges it (its tie rule and the score it orders by come from the relation)."""

    source_titles = ("x1", "x2")
    followup_titles = ("T(x1)", "T(x2)")
    premise_title = "P_src"
    hypothesis_title = "P_flw"

    def __init__(self, relation: Any) -> None:
        transformation = getattr(relation, "transformation", None)
        if not isinstance(transformation, Concatenate):
            raise InputError(
                f"relation {getattr(relation, 'name', relation)!r} is not a pairwise systematicity relation "
                "(its transformation does not concatenate sentences)"
            )
        self.transformation = transformation
        counter = getattr(relation, "aggregate", None)
        prop = getattr(relation, "property", None)
        self.ties: Ties = getattr(counter, "ties", "strict")
        self.reader = prop if isinstance(prop, PositiveScore) else PositiveScore(getattr(counter, "label", "positive"))
        self.value_title = f"s = the {self.reader.label!r} score"
        tie_rule = "a tie has no order to keep (ties='skip')" if self.ties == "skip" else "a tie is no order (ties='strict')"
        self.expected = f"P_src <=> P_flw: s(x1) > s(x2) exactly when s(T(x1)) > s(T(x2)); {tie_rule}"

    def options(self) -> list[tuple[str, str]]:
        return [(c.label, f"{c.position}: {c.text!r}") for c in self.transformation.sentences]

    def sentence(self, option: str) -> Concatenation:
        """The sentence ``option`` names, or an :class:`InputError` listing the relation's."""
        found = self.transformation.slot(option)
        if found is None:
            known = "; ".join(c.label for c in self.transformation.sentences)
            raise InputError(f"unknown transformation {option!r}; this relation adds one of: {known}")
        return found

    def followups(self, sources: Sequence[BaseInput], option: str) -> tuple[tuple[BaseInput, ...], str | None]:
        c = self.sentence(option)
        x1, x2 = sources
        if x1.key() == x2.key():
            return (), "x1 and x2 are the same text; a pair needs two different sources (pick or type another x2)"
        for title, x in zip(self.source_titles, sources):
            why = c.refusal(x)
            if why is not None:
                return (), f"{c.text!r} cannot be added at the {c.position} of {title}: {why}"
        built = tuple(self.transformation.build((x,), c).followups[0] for x in sources)
        return built, None

    def judge(self, option: str, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> CaseJudgement:
        titles = (*self.source_titles, *self.followup_titles)
        preds = [*sources, *followups]
        values = tuple(self.reader.score(p) for p in preds)
        s1, s2 = values[0], values[1]
        premise, p_holds = self._side("s(x1)", "s(x2)", s1, s2)
        f1, f2 = (values[2], values[3]) if len(values) == 4 else (None, None)
        hypothesis, h_holds = self._side("s(T(x1))", "s(T(x2))", f1, f2) if followups else ("", None)
        missing = next((k for k, v in enumerate(values) if v is None), None)
        if missing is not None:
            why = self.reader.missing(preds[missing])
            check = Check("not_applicable", None, f"{titles[missing]}: {why}")
        elif s1 is None or s2 is None or f1 is None or f2 is None:
            check = Check("not_applicable", None, "no follow-ups to compare")
        else:
            check = pair_check(s1, s2, f1, f2, self.ties)
        padded = values + (None,) * (len(titles) - len(values))
        return CaseJudgement(check, padded, premise, p_holds, hypothesis, h_holds)

    @staticmethod
    def _side(a: str, b: str, va: float | None, vb: float | None) -> tuple[str, bool | None]:
        """``"s(x1) 0.7 > s(x2) 0.3"`` and whether the first is above the second."""
        if va is None or vb is None:
            return f"{a} > {b}", None
        sign = ">" if va > vb else "<" if va < vb else "="
        return f"{a} {_num(va)} {sign} {b} {_num(vb)}", va > vb
