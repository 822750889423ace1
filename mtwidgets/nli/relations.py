"""The relation ``pairwise-compositionality``: the NLI task's catalogue.

Section 5 of the paper, Figure 4 and Table 8: no transformation; each source is a
composition ``x = (C(ℓa), C(ℓb))`` (:class:`~mtwidgets.nli.inputs.CompositionInput`), the
model answers it with its label scores and the hidden states at the two insertions, and the
output property compares every pair of compositions of one context: the order of the
hypernymy probe's scores ``s_hyp(f(x1)), s_hyp(f(x2))`` (``P_hid``) against the order of the
entailment scores ``s_ent(g(f(x1))), s_ent(g(f(x2)))`` (``P_out``), ``P_hid ⇔ P_out`` in a
downward-monotone context and ``P_hid ⇔ ¬P_out`` in an upward one.

It is an *aggregated* relation (:mod:`mtwidgets.core.aggregate`): the runner predicts each
composition once per model (batched and cached, the insertion states with the prediction,
:mod:`mtwidgets.nli.states`); :class:`CompositionalityCounter` then trains the probe over
all of them and counts the pairs of each context in O(k log k)
(:mod:`mtwidgets.nli.compositionality`), giving the rows ``overall``,
``monotonicity=up|down``, ``context=...`` (Table 3) and ``insertion=...`` (Table 4), the
same rows :func:`~mtwidgets.nli.compositionality.pairwise_compositionality` gives.

Data: the compositions, e.g. ``mtwidgets.nli.compositions()`` (the shipped material: every
context accepting both words of every WordNet insertion pair), a list of
:class:`~mtwidgets.nli.inputs.CompositionInput`, or a table whose rows name a ``context``,
its ``monotonicity``, the words ``a`` and ``b`` and their ``relation``
(``mtwidgets.nli.compositions_frame()`` writes one). A plain premise/hypothesis pair is not
applicable (it says no context or insertion pair).

>>> import mtwidgets as mt
>>> from mtwidgets.nli import compositions
>>> results = mt.run(compositions(), relations="pairwise-compositionality",
...                  models={"nli-minilm": mt.models.load("nli-minilm")})  # doctest: +SKIP
>>> results.summary(by=("relation", "model", "slice"))  # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

from ..core.aggregate import Evaluated, aggregate_row
from ..core.errors import InputError, MTError
from ..core.predictions import Prediction
from ..core.relation import (
    Check,
    Draft,
    Group,
    MetamorphicRelation,
    OutputProperty,
    RelationSpec,
    Slots,
    Transformation,
    build_from_table,
)
from .compositionality import EXAMPLES, NO_STATES, OK, RELATION, TASK, evaluate_compositions
from .contexts import display_template
from .inputs import CompositionInput
from .labels import entailment_score
from .states import prediction_states

__all__ = ["NAME", "PAPER", "Compose", "CompositionalityCounter", "EntailmentAndStates", "build"]

NAME = RELATION
PAPER = ("Manino et al. 2022, Systematicity, Compositionality and Transitivity of Deep NLP Models: a "
         "Metamorphic Testing Perspective (Findings of ACL 2022)")
OPTIONS: tuple[str, ...] = ("examples", "probe_held_out")
EXPECTED = ("s_hyp(f(x1)) > s_hyp(f(x2)) <=> s_ent(g(f(x1))) > s_ent(g(f(x2))) in a downward-monotone context, "
            "<=> not (...) in an upward-monotone one, for every pair of compositions of one context")
DESCRIPTION = (
    "No transformation: pairs of compositions (C(ℓa), C(ℓb)) of one context C with two insertion pairs, hypernyms, "
    "hyponyms or unrelated (only Up(⊆) and Down(⊇) are entailed). A linear probe s_hyp on the second-to-last "
    "layer at the insertions says whether ℓa is a hypernym of ℓb; if C is downward monotone, more hypernymy means "
    "more entailment, if upward, less. Counted over every pair of compositions of each context, with the safety "
    "by context and by insertion pair and the probe's held-out accuracy."
)
_NOT_ONE_GROUP = ("pairwise compositionality compares pairs of compositions: run it over a data set (mt.run) "
                  "for its counts")


class Compose(Transformation):
    """No transformation: a composition is its own group, with no follow-up; any other
    input is refused (it names no context or insertion pair)."""

    requirement = ("a composition (C(ℓa), C(ℓb)) of a context with an insertion pair: mtwidgets.nli.compositions(), "
                   "or rows with context, monotonicity, a, b and relation columns")
    per_slot = None
    diagram_shape = "no-transformation"

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        x = sources[0]
        if isinstance(x, CompositionInput):
            return [[x]]
        return Slots([], ["a premise and a hypothesis alone name no context or insertion pair"])

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        x: CompositionInput = option
        meta = {"context": x.context, "monotonicity": x.monotonicity, "insertion": f"({x.a}, {x.b})",
                "relation": x.relation}
        return Draft((x,), (), f"{x.composition} in {display_template(x.context)!r}", meta)


class EntailmentAndStates(OutputProperty):
    """Reads a composition's entailment score and insertion states; a composition whose
    prediction lacks either cannot be ordered (not applicable, with the reason). Pairs are
    checked by :class:`CompositionalityCounter` over the whole run; one group alone tests
    nothing."""

    description = EXPECTED

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        if not sources:
            return None
        try:
            entailment_score(sources[0].scores)
        except MTError as exc:
            return str(exc)
        return None if prediction_states(sources[0]) is not None else NO_STATES

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        return Check("not_applicable", None, _NOT_ONE_GROUP)


@dataclass(frozen=True)
class CompositionalityCounter:
    """The aggregator of ``pairwise-compositionality``: evaluated groups -> aggregate rows.

    The compositions the model answered, in the run's order, are scored exactly as
    :func:`~mtwidgets.nli.compositionality.pairwise_compositionality` scores them (the probe
    split and the example pairs drawn with the run's seed); the others are counted as not
    applicable or errors. ``examples``: example pairs per verdict and row;
    ``probe_held_out``: the share of insertion pairs the probe does not train on."""

    examples: int = EXAMPLES
    probe_held_out: float = 0.5

    def __post_init__(self) -> None:
        if isinstance(self.examples, bool) or not isinstance(self.examples, int) or self.examples < 0:
            raise InputError(f"examples must be a whole number >= 0, got {self.examples!r}")
        share = self.probe_held_out
        if isinstance(share, bool) or not isinstance(share, Real) or not 0 <= float(share) < 1:
            raise InputError(f"probe_held_out must be a share in [0, 1), got {share!r}")

    def __call__(self, relation: MetamorphicRelation, model: str,
                 evaluated: Sequence[Evaluated]) -> list[dict[str, Any]]:
        answered = [e for e in evaluated if e.status == OK and isinstance(_source(e), CompositionInput)]
        others = [e for e in evaluated if e.status != OK and isinstance(_source(e), CompositionInput)]
        refused = Counter(e.reason or e.group.not_applicable or e.status for e in evaluated
                          if not isinstance(_source(e), CompositionInput))
        kept = answered + others  # the answered ones first, in the run's order: as pairwise_compositionality sees them
        if not kept:
            return [aggregate_row(relation=relation.name, task=relation.task or TASK, model=model, satisfied=0,
                                  violations=0, detail={"compositions": 0, "not_compositions": dict(refused)})]
        seed = kept[0].group.seed
        result = evaluate_compositions(
            [_source(e) for e in kept], [e.source_outputs[0] if e.source_outputs else None for e in kept],
            model=model, status=[e.status for e in kept], reasons=[e.reason for e in kept],
            sources=[e.group.source_index for e in kept], strict=False,
            probe_held_out=float(self.probe_held_out), examples=self.examples, seed=seed)
        rows = result.rows
        if refused:
            rows[0] = {**rows[0], "detail": {**rows[0]["detail"], "not_compositions": dict(refused.most_common())}}
        return rows


def _source(e: Evaluated) -> Any:
    return e.group.sources[0] if e.group.sources else None


# -- the catalogue ------------------------------------------------------------------------------
def _counter(options: Mapping[str, Any]) -> CompositionalityCounter:
    return CompositionalityCounter(examples=options.get("examples", EXAMPLES),
                                   probe_held_out=options.get("probe_held_out", 0.5))


TABLE: dict[str, RelationSpec] = {
    NAME: RelationSpec(
        category="pairwise compositionality",
        expected=EXPECTED,
        description=DESCRIPTION,
        transformation=lambda options: Compose(),
        property=lambda options: EntailmentAndStates(),
        n_sources=2,
        model_dependent=True,
        aggregate=_counter,
    ),
}


def build(name: str, **options: Any) -> MetamorphicRelation:
    """``pairwise-compositionality`` with its options: ``examples`` (example pairs per
    verdict and row, default 3) and ``probe_held_out`` (the share of insertion pairs the
    probe does not train on, default 0.5)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise InputError(f"{name} takes the options {', '.join(OPTIONS)}; got {', '.join(unknown)}")
    return build_from_table(TABLE, name, task=TASK, paper=PAPER, options=options)
