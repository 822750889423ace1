"""Three-way transitivity (the paper's section 6.1 and Table 9) as catalogue relations:
``transitivity-syn`` and ``transitivity-hyp``.

Both are *aggregated* relations (:mod:`mtwidgets.core.aggregate`). The data is a set of
word pairs (ideally every ordered pair of a word sample: :func:`all_pairs`). Each data pair
is a group whose source is the pair itself (the paper: "T is merely a formalism here");
when the data holds a chain ``(w1, w2)``, ``(w2, w3)`` but not its closing pair
``(w1, w3)``, the closing pair is added as a follow-up of ``(w1, w2)``, so that every chain
in the data can be tested. The runner predicts each distinct pair once per model; then
:class:`TransitivityCounter` puts every predicted pair of one language into a boolean matrix
``A[i, j] = v(y_ij)`` and counts all ordered triplets of distinct words at once with matrix
products (:func:`mtwidgets.lexical.transitivity.transitivity_counts`): a triplet is tested
when ``v(y12) and v(y23)`` and ``(w1, w3)`` was predicted, satisfied when ``v(y13)``. Rows:
one per language (``language=xx``) and an ``overall`` one.

Given two chained pairs as its sources (``relation.generate((x12, x23))``, the Explorer's
triplet), a group's follow-up is ``x13`` and :class:`Transitive` checks that one triplet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..core.aggregate import Evaluated, aggregate_row
from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Check, Draft, Group, MetamorphicRelation, OutputProperty, Slots, Transformation
from .experiment import RELATION_NAMES, TASK, TransitivityResult, TransitivityResults, result_from_matrix
from .inputs import WordPairInput, check_word, relation_flags

PAPER = ("Manino et al. 2022, Systematicity, Compositionality and Transitivity of Deep NLP Models: a "
         "Metamorphic Testing Perspective (Findings of ACL 2022)")
OPTIONS: tuple[str, ...] = ("examples", "worst")


def all_pairs(words: Sequence[str], lang: str = "en") -> list[WordPairInput]:
    """Every ordered pair of distinct ``words``: the data that tests all ``n (n - 1) (n - 2)``
    triplets."""
    checked = [check_word(w, f"words[{i}]") for i, w in enumerate(words)]
    if len(set(checked)) != len(checked):
        raise InputError("the words must be distinct")
    return [WordPairInput(a, b, lang) for a in checked for b in checked if a != b]


class ClosePairs(Transformation):
    """A data pair ``(w1, w2)`` -> the closing pairs ``(w1, w3)`` of the chains ``(w2, w3)``
    in the data that the data lacks (none for a complete data set)."""

    requirement = "a word pair"
    per_slot: int | None = None

    def __init__(self, pairs: Sequence[WordPairInput] = ()) -> None:
        self.present = {(p.lang, p.w1, p.w2) for p in pairs}
        self.next: dict[tuple[str, str], list[str]] = {}
        for p in pairs:
            bucket = self.next.setdefault((p.lang, p.w1), [])
            if p.w2 not in bucket:
                bucket.append(p.w2)

    def prepare(self, sources: Sequence[BaseInput]) -> ClosePairs:
        return ClosePairs([s for s in sources if isinstance(s, WordPairInput)])

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        if not all(isinstance(s, WordPairInput) for s in sources):
            return Slots([], [f"word pairs, not {', '.join(type(s).__name__ for s in sources)}"])
        if len(sources) == 2:
            first, second = sources
            assert isinstance(first, WordPairInput) and isinstance(second, WordPairInput)
            if second.w1 != first.w2 or second.lang != first.lang:
                return Slots([], ["the second pair does not start with the first pair's second word"])
            if second.w2 in (first.w1, first.w2):
                return Slots([], ["the three words are not distinct"])
            return [[(WordPairInput(first.w1, second.w2, first.lang),)]]
        if len(sources) != 1:
            return Slots([], [f"one pair or two chained pairs, not {len(sources)} inputs"])
        x = sources[0]
        assert isinstance(x, WordPairInput)
        closing = tuple(
            WordPairInput(x.w1, w3, x.lang)
            for w3 in self.next.get((x.lang, x.w2), ())
            if w3 not in (x.w1, x.w2) and (x.lang, x.w1, w3) not in self.present
        )
        return [[closing]]

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        words = [getattr(s, "w1", "") for s in sources] + [getattr(sources[-1], "w2", "")]
        note = f"closing pairs: {', '.join(f.display() for f in option)}" if option else ""
        return Draft(sources=sources, followups=tuple(option), note=note, meta={"words": words})


class Transitive(OutputProperty):
    """``v(y12) and v(y23) => v(y13)`` for one lexical relation (one triplet group: two
    chained source pairs and their closing pair). The Explorer shows one triplet live
    (:class:`mtwidgets.lexical.explorer.TransitivityCase`)."""

    explorer_multi_source: ClassVar[str] = "mtwidgets.lexical.explorer:TransitivityCase"

    def __init__(self, relation: str) -> None:
        self.relation = relation
        short = relation[:3]
        self.description = f"v_{short}(y12) and v_{short}(y23) => v_{short}(y13)"

    def _holds(self, p: Prediction) -> bool:
        return relation_flags(p)[self.relation]

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        if len(sources) == 2:
            missing = [f"x{ij}" for ij, p in zip(("12", "23"), sources) if not self._holds(p)]
            if missing:
                return f"premise fails: {self.relation} not predicted for {' and '.join(missing)}"
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        if len(sources) != 2 or len(followups) != 1:
            return Check("not_applicable", None, "one triplet needs two chained source pairs and their closing pair; "
                         "run the relation over a set of pairs for its counts")
        got = followups[0].label
        if self._holds(followups[0]):
            return Check("pass", self.relation, f"{self.relation} for x12 and x23, and for x13 ({got})")
        return Check("violation", self.relation, f"{self.relation} for x12 and x23 but not for x13 ({got})")


@dataclass
class _Language:
    """The predicted pairs of one language, as matrices over its words."""

    index: dict[str, int]
    flags: dict[tuple[int, int], bool]
    scores: dict[tuple[int, int], float]
    failed: set[tuple[int, int]]

    def word(self, w: str) -> int:
        return self.index.setdefault(w, len(self.index))


@dataclass(frozen=True)
class TransitivityCounter:
    """The aggregator of ``transitivity-syn`` / ``transitivity-hyp``: evaluated groups ->
    aggregate rows (``overall`` first, then one per language)."""

    relation: str  # "synonym" or "hypernym"
    examples: int = 3
    worst: int = 10

    def __call__(self, relation: MetamorphicRelation, model: str, evaluated: Sequence[Evaluated]) -> list[dict[str, Any]]:
        langs, unscored = self._collect(evaluated)
        results = [self._count(relation.name, model, lang, data) for lang, data in sorted(langs.items())]
        collected = TransitivityResults(results)
        rows = collected.rows()
        overall = next((r for r in rows if r["slice"] == "overall"), None)
        if overall is None:
            overall = aggregate_row(relation=relation.name, task=TASK, model=model, satisfied=0, violations=0,
                                    detail={"reason": "no word pair was predicted"})
        overall["detail"]["pairs_without_score"] = unscored
        return [overall, *(r for r in rows if r["slice"] != "overall")]

    def _collect(self, evaluated: Sequence[Evaluated]) -> tuple[dict[str, _Language], int]:
        langs: dict[str, _Language] = {}
        unscored = 0
        for e in evaluated:
            inputs = [*e.group.sources, *e.group.followups]
            outputs = [*e.source_outputs, *e.followup_outputs]
            for i, x in enumerate(inputs):
                if not isinstance(x, WordPairInput):
                    continue
                data = langs.setdefault(x.lang, _Language({}, {}, {}, set()))
                key = (data.word(x.w1), data.word(x.w2))
                if i >= len(outputs):
                    if e.status == "error":
                        data.failed.add(key)
                    continue
                scores = dict(outputs[i].scores)
                if self.relation not in scores:
                    unscored += 1
                    continue
                data.flags[key] = relation_flags(outputs[i])[self.relation]
                data.scores[key] = scores[self.relation]
        return langs, unscored

    def _count(self, name: str, model: str, lang: str, data: _Language) -> TransitivityResult:
        n = len(data.index)
        words = sorted(data.index, key=data.index.__getitem__)
        flags = np.zeros((n, n), bool)
        known = np.zeros((n, n), bool)
        failed = np.zeros((n, n), bool)
        scores = np.full((n, n), np.nan, np.float32)
        for (i, j), v in data.flags.items():
            flags[i, j] = v
            known[i, j] = True
            scores[i, j] = data.scores[(i, j)]
        for i, j in data.failed - set(data.flags):
            failed[i, j] = True
        return result_from_matrix(name, model, lang, words, flags, scores, known=known, failed=failed,
                                  examples=self.examples, worst=self.worst)


_DESCRIPTIONS = {
    "synonym": "Three-way transitivity of synonymy over word pairs: if the model says w1 ~ w2 and w2 ~ w3 are "
    "synonyms, it must say so of (w1, w3). Counted over every triplet of the pairs predicted.",
    "hypernym": "Three-way transitivity of hypernymy over word pairs: if the model says w2 is a hypernym of w1 "
    "and w3 one of w2, it must say w3 is one of w1. Counted over every triplet of the pairs predicted.",
}


def build(name: str, **options: Any) -> MetamorphicRelation:
    """``transitivity-syn`` or ``transitivity-hyp``; options ``examples`` (triplets shown per
    row and verdict, default 3) and ``worst`` (words listed, default 10)."""
    if name not in RELATION_NAMES:
        raise KeyError(name)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise InputError(f"{name} takes the options {', '.join(OPTIONS)}; got {', '.join(unknown)}")
    for key in OPTIONS:
        value = options.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(f"{key} must be a whole number >= 0, got {value!r}")
    relation = RELATION_NAMES[name]
    return MetamorphicRelation(
        name,
        task=TASK,
        category="three-way transitivity",
        description=_DESCRIPTIONS[relation],
        expected=f"v_{relation[:3]}(y12) and v_{relation[:3]}(y23) => v_{relation[:3]}(y13), for every triplet",
        paper=PAPER,
        transformation=ClosePairs(),
        property=Transitive(relation),
        n_sources=1,
        model_dependent=True,
        aggregate=TransitivityCounter(relation, options.get("examples", 3), options.get("worst", 10)),
    )


def relation_names() -> Mapping[str, str]:
    """Catalogue name -> lexical relation."""
    return dict(RELATION_NAMES)
