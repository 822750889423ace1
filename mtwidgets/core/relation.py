"""Metamorphic relations as composition: transformation + output property + provenance.

Vocabulary (Definition 2.2-2.5 of the systematicity paper, used by all five papers):
*sources* -> transformation -> *follow-ups* -> the model on all of them -> an output
property over all outputs -> pass / violation / not applicable.

- A :class:`Transformation` turns source inputs into :class:`Draft` groups and returns
  ``[]`` when its precondition fails (never ``None``). The public ``__call__`` owns the
  shared concerns (randomness, sampling); subclasses list options and build one.
- An :class:`OutputProperty` first says whether the group applies given the *source*
  outputs (MR-S1/S2, MR-R2 and MR-C1/C2 depend on what the model predicted for the
  sources), then checks all outputs, always with a one-line reason.
- A :class:`MetamorphicRelation` composes the two with its name, task, category and paper.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from .errors import InputError
from .inputs import BaseInput
from .predictions import Prediction

Verdict = Literal["pass", "violation", "not_applicable", "error"]
VERDICTS: tuple[str, ...] = ("pass", "violation", "not_applicable", "error")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Draft:
    """What a transformation builds: the sources of the group (a multi-source relation may
    construct its second source) and the follow-ups, with a note of what changed."""

    sources: tuple[BaseInput, ...]
    followups: tuple[BaseInput, ...]
    note: str
    meta: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True)
class Group:
    """One metamorphic group (MG): a row of the results frame once evaluated."""

    relation: str
    index: int
    sources: tuple[BaseInput, ...]
    followups: tuple[BaseInput, ...]
    note: str
    seed: int
    source_index: int | None = None
    meta: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    not_applicable: str | None = None  # set when no follow-up could be built

    @property
    def id(self) -> str:
        where = "-" if self.source_index is None else str(self.source_index)
        return f"{self.relation}/{where}/{self.index}"


@dataclass(frozen=True)
class Check:
    verdict: Verdict
    expected: str | None
    reason: str


def stable_rng(seed: int, *parts: str) -> random.Random:
    """A ``random.Random`` fixed by the seed and the given strings (not Python's salted hash)."""
    # surrogatepass: the same bytes as UTF-8 for every valid string, and no crash on a lone
    # surrogate that reached a group some other way than through input validation.
    digest = hashlib.sha256("\x1f".join((str(seed), *parts)).encode("utf-8", "surrogatepass")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class Slots(list):  # type: ignore[type-arg]
    """A transformation's options slot by slot (or its drafts), and ``why`` it refused the
    others (distinct reasons in order; empty when it has nothing to say beyond its
    ``requirement``)."""

    def __init__(self, slots: Sequence[Any] = (), why: Sequence[str] = ()) -> None:
        super().__init__(slots)
        self.why: tuple[str, ...] = tuple(dict.fromkeys(why))


class Transformation:
    """Sources -> drafts. Subclasses implement :meth:`_options` and :meth:`_build`.

    Options are cheap descriptions of possible edits grouped in *slots* (e.g. one slot
    for replacing the head, one for the tail); only the sampled ones are built, so a
    replacement with 400 lexicon candidates costs one edit, not 400.

    Attributes
    ----------
    requirement:
        What a source needs for this transformation to apply; shown as the reason of the
        not-applicable group when no option exists.
    per_slot:
        How many options to keep per slot; ``None`` keeps them all.
    """

    requirement: str = "a suitable source"
    per_slot: int | None = 1

    def prepare(self, sources: Sequence[BaseInput]) -> Transformation:
        """A transformation that may use the whole data set (e.g. as a candidate pool)."""
        return self

    def candidates(self, sources: Sequence[BaseInput]) -> list[list[Draft]]:
        """Every possible draft, slot by slot."""
        srcs = tuple(sources)
        return [[self._build(srcs, o) for o in slot] for slot in self._options(srcs) if slot]

    def options(self, sources: Sequence[BaseInput]) -> list[list[Any]]:
        """The possible edits of ``sources``, slot by slot, unbuilt (cheap to list). A
        transformation may return :class:`Slots`, which also says why it refused the rest."""
        return self._options(tuple(sources))

    def refusal(self, slots: Sequence[Any] = ()) -> str:
        """What this transformation needs, with why these ``slots`` (or drafts) hold
        nothing when the transformation said so (:attr:`Slots.why`)."""
        why = getattr(slots, "why", ())
        return f"{self.requirement} (not here: {'; '.join(why)})" if why else self.requirement

    def choose(self, slots: Sequence[Sequence[Any]], rng: random.Random) -> list[Any]:
        """The options a run tests: ``per_slot`` of each slot, drawn with ``rng``.

        The Explorer calls this with the run's generator to show first exactly the
        follow-ups a batch run with the same seed tests.
        """
        chosen: list[Any] = []
        for slot in slots:
            if self.per_slot is not None and len(slot) > self.per_slot:
                chosen.extend(rng.sample(list(slot), self.per_slot))
            else:
                chosen.extend(slot)
        return chosen

    def build(self, sources: Sequence[BaseInput], option: Any) -> Draft:
        """The draft of one option (from :meth:`options`)."""
        return self._build(tuple(sources), option)

    def __call__(self, sources: Sequence[BaseInput], rng: random.Random) -> list[Draft]:
        srcs = tuple(sources)
        slots = self._options(srcs)
        return Slots([self._build(srcs, o) for o in self.choose(slots, rng)], getattr(slots, "why", ()))


    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        raise NotImplementedError

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        raise NotImplementedError


class OutputProperty:
    """A predicate over all outputs of a group, with its precondition on source outputs."""

    description: str = ""

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        """``None`` if the group applies, else the reason it does not."""
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        raise NotImplementedError


@dataclass(frozen=True)
class MetamorphicRelation:
    """A named metamorphic relation (MR).

    Parameters
    ----------
    name:
        As in the paper, e.g. ``"MR-R1"``.
    task:
        The input task it applies to (``"re"``, ...).
    category:
        The paper's grouping (replacement, swap, combination, ...).
    description, expected:
        The transformation and the expected output relationship, in the paper's words.
    paper:
        Short citation of the paper the relation comes from.
    n_sources:
        Source inputs per group (2 for MR-C1/C2: the second is built from the first).
    model_dependent:
        Whether applicability depends on the model's source outputs.
    aggregate:
        ``None`` for a relation whose every group is one test case (one results row per
        group and model). Otherwise the relation is *aggregated*: its groups are built and
        predicted as usual, then ``aggregate(relation, model_name, evaluated)`` counts the
        cases they make (e.g. all pairs of sources) and returns aggregate rows
        (:mod:`mtwidgets.core.aggregate`) for ``Results.aggregates`` instead of group rows.
    iterate:
        ``None`` for a relation whose follow-ups are fixed before any model runs. Otherwise
        the relation is *iterated* (:mod:`mtwidgets.core.iterate`): after the source
        predictions, ``iterate(relation, model_name, items, predict)`` builds follow-ups
        round by round from the model's answers and returns one outcome per group.
    """

    name: str
    task: str
    category: str
    description: str
    expected: str
    paper: str
    transformation: Transformation
    property: OutputProperty
    n_sources: int = 1
    model_dependent: bool = False
    aggregate: Callable[..., Any] | None = None
    iterate: Callable[..., Any] | None = None

    def generate(
        self,
        source_or_sources: BaseInput | str | Sequence[BaseInput],
        seed: int = 0,
        *,
        source_index: int | None = None,
    ) -> list[Group]:
        """Follow-up groups for one source (or an explicit tuple of sources), without a model.

        A plain string is read as one input of the relation's task, for tasks whose input
        can be one text (``mt.relation("TIN-token").generate("He cried.")``).

        Always returns at least one group: when the transformation cannot build a follow-up
        the single group is marked not applicable with the reason, so it is counted as such
        and never as a pass.
        """
        if isinstance(source_or_sources, str):
            from .task import get_task

            sources = _as_sources(get_task(self.task).input_from_text(source_or_sources))
        else:
            sources = _as_sources(source_or_sources)
        for s in sources:
            if s.task != self.task:
                raise InputError(
                    f"{self.name} applies to {self.task!r} inputs, got a {s.task!r} input: {s.display()[:80]!r}"
                )
        drafts = self.transformation(sources, self.rng(sources, seed))
        if not drafts:
            refusal = getattr(self.transformation, "refusal", None)
            needs = refusal(drafts) if callable(refusal) else self.transformation.requirement
            return [
                Group(self.name, 0, sources, (), "", seed, source_index,
                      not_applicable=f"{self.name} needs {needs}")
            ]
        return [
            Group(self.name, i, d.sources, d.followups, d.note, seed, source_index, d.meta)
            for i, d in enumerate(drafts)
        ]

    def rng(self, sources: Sequence[BaseInput], seed: int) -> random.Random:
        """The generator :meth:`generate` draws this group's options with."""
        return stable_rng(seed, self.name, *(s.key() for s in sources))

    def prepared(self, sources: Sequence[BaseInput]) -> MetamorphicRelation:
        """This relation with its transformation prepared on the whole data set."""
        transformation = self.transformation.prepare(sources)
        if transformation is self.transformation:
            return self
        return dataclasses.replace(self, transformation=transformation)

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        return self.property.applies(group, sources)

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        return self.property.check(group, sources, followups)

    def diagram(self) -> Any:
        """This relation in the systematicity paper's graphical notation: a standalone SVG
        (:class:`mtwidgets.core.diagram.Diagram`, drawn inline in a notebook)."""
        from .diagram import diagram

        return diagram(self)

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "task": self.task,
            "category": self.category,
            "description": self.description,
            "expected": self.expected,
            "paper": self.paper,
            "n_sources": self.n_sources,
            "model_dependent": self.model_dependent,
            "aggregated": self.aggregate is not None,
            "iterated": self.iterate is not None,
        }


@dataclass(frozen=True)
class RelationSpec:
    """One row of a task's declarative relation table: everything about a relation but its
    name, task and paper. The factories receive the build options (a mapping) and return
    the transformation and the output property (and, for an aggregated relation, the
    ``aggregate`` callable); ``flags`` carry task-specific switches the task's ``build``
    reads (e.g. "filter follow-ups by default")."""

    category: str
    expected: str
    description: str
    transformation: Callable[[Mapping[str, Any]], Transformation]
    property: Callable[[Mapping[str, Any]], OutputProperty]
    n_sources: int = 1
    model_dependent: bool = False
    flags: frozenset[str] = frozenset()
    aggregate: Callable[[Mapping[str, Any]], Callable[..., Any]] | None = None
    iterate: Callable[[Mapping[str, Any]], Callable[..., Any]] | None = None

    def build(self, name: str, *, task: str, paper: str, options: Mapping[str, Any] = _EMPTY) -> MetamorphicRelation:
        return MetamorphicRelation(
            name, task=task, category=self.category, description=self.description, expected=self.expected,
            paper=paper, transformation=self.transformation(options), property=self.property(options),
            n_sources=self.n_sources, model_dependent=self.model_dependent,
            aggregate=None if self.aggregate is None else self.aggregate(options),
            iterate=None if self.iterate is None else self.iterate(options),
        )


def build_from_table(
    table: Mapping[str, RelationSpec], name: str, *, task: str, paper: str, options: Mapping[str, Any] = _EMPTY
) -> MetamorphicRelation:
    """The relation ``name`` of a task's table (``KeyError`` for a name it does not list)."""
    if name not in table:
        raise KeyError(name)
    return table[name].build(name, task=task, paper=paper, options=options)


def _as_sources(value: BaseInput | Sequence[BaseInput]) -> tuple[BaseInput, ...]:
    if isinstance(value, BaseInput):
        return (value,)
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, BaseInput) for v in value):
        return tuple(value)
    raise InputError(
        f"expected an input (e.g. mt.RelationInput.parse(...)) or a tuple of inputs, got {value!r}"
    )
