"""``re-patterns``: a transparent dependency-pattern relation extractor (TACRED labels).

Each sentence is parsed with spaCy; the head and tail mentions are reduced to their
syntactic head tokens, and an ordered list of readable rules
(:mod:`mtwidgets.re.models.pattern_rules`) is tried on the dependency path between them and
the two entity types (the span labels when given, else inferred as
:func:`mtwidgets.re.entities.type_span` does). The first rule that fires gives the label;
when none does the answer is ``no_relation``.

Every prediction can be explained: ``explain(x)`` names the rule, the path and why it
fired, and ``last_rules`` holds the rule names of the latest ``predict`` call, in order.

>>> from mtwidgets import RelationInput
>>> m = PatternRelationExtractor()
>>> x = RelationInput.parse("[[John|PERSON]] is <<Mary|PERSON>>'s father.")
>>> m.predict([x])[0].label                                     # doctest: +SKIP
'per:children'
>>> print(m.explain(x))                                         # doctest: +SKIP
per:children (0.9) by rule relational_noun: 'father' names 'John' (nsubj> be <attr) relative to 'Mary' (poss>)
  path: John nsubj> be <attr father <poss Mary   types: PERSON -> PERSON
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.errors import InputError
from ...core.model import ModelAdapter
from ...core.predictions import Prediction
from ...lang.pipelines import parse_many
from ..entities import type_span
from ..inputs import RelationInput
from ..labels import NO_RELATION
from .pattern_rules import RULES, Match, Pair, Rule, dep_path, first_match


@dataclass(frozen=True)
class Decision:
    """What the model decided for one input, and why."""

    label: str
    confidence: float
    rule: str | None
    why: str
    pair: Pair

    def scores(self) -> dict[str, float]:
        if self.rule is None or self.label == NO_RELATION:
            return {NO_RELATION: 1.0}
        return {self.label: self.confidence, NO_RELATION: round(1.0 - self.confidence, 6)}

    def explain(self) -> str:
        head = (f"{self.label} ({self.confidence:g}) by rule {self.rule}: {self.why}" if self.rule
                else f"{NO_RELATION}: no rule fired")
        return (f"{head}\n  path: {self.pair.shown()}   types: "
                f"{self.pair.head_type} -> {self.pair.tail_type}")


class PatternRelationExtractor(ModelAdapter):
    """Ordered dependency-path rules over spaCy parses; see the module docstring.

    Parameters
    ----------
    rules:
        The rules to try, in order (default: ``re_pattern_rules.RULES``); pass an edited
        tuple to study a variant.
    """

    name = "re-patterns"
    task = "re"
    version = "1"
    fingerprint_attrs = ("rules",)

    def __init__(self, *, name: str | None = None, batch_size: int = 64, rules: Sequence[Rule] | None = None) -> None:
        super().__init__(name=name, batch_size=batch_size)
        self.rules: tuple[Rule, ...] = tuple(rules) if rules is not None else RULES
        self.last_rules: list[str | None] = []

    @property
    def fingerprint(self) -> str:
        if self.rules is RULES:
            return super().fingerprint
        digest = hashlib.sha1(repr([r.name for r in self.rules]).encode()).hexdigest()[:10]
        return f"{super().fingerprint}:rules-{digest}"

    # -- prediction ------------------------------------------------------------------------
    def predict(self, inputs: list[Any]) -> list[Prediction]:
        self.last_rules = []
        return super().predict(inputs)

    def _predict_batch(self, inputs: list[Any]) -> list[Prediction]:
        decisions = self.decide(inputs)
        self.last_rules.extend(d.rule for d in decisions)
        return [Prediction.from_scores(d.scores()) for d in decisions]

    def decide(self, inputs: Sequence[Any]) -> list[Decision]:
        """The decision (label, confidence, rule, reason, path) for each input."""
        for n, x in enumerate(inputs):
            if not isinstance(x, RelationInput):
                raise InputError(
                    f"{self.name} reads relation inputs; input {n} is a {type(x).__name__}: {x!r}. "
                    "Build one with RelationInput.parse('[[head|TYPE]] ... <<tail|TYPE>>')"
                )
        docs = parse_many([x.text for x in inputs])
        return [self._decide(x, doc) for x, doc in zip(inputs, docs)]

    def _decide(self, x: RelationInput, doc: Any) -> Decision:
        head = doc.char_span(x.head.start, x.head.end, alignment_mode="expand")
        tail = doc.char_span(x.tail.start, x.tail.end, alignment_mode="expand")
        pair = Pair(
            text=x.text, head=head, tail=tail,
            head_type=type_span(x.text, x.head, doc), tail_type=type_span(x.text, x.tail, doc),
            tokens=dep_path(head.root, tail.root),
        )
        fired: tuple[Rule, Match] | None = first_match(pair, self.rules) if pair.tokens else None
        if fired is None:
            return Decision(NO_RELATION, 1.0, None, "no rule fired", pair)
        rule, match = fired
        return Decision(match.label, match.confidence, rule.name, match.why, pair)

    def explain(self, x: RelationInput) -> str:
        """The label, the rule that gave it (or that none did), the path and the types."""
        return self.decide([x])[0].explain()

    def describe_rules(self) -> list[tuple[str, str]]:
        """(name, description) of the rules, in the order they are tried."""
        return [(r.name, r.description) for r in self.rules]
