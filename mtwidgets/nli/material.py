"""Test material for pairwise compositionality: contexts composed with insertion pairs.

A composition is one NLI input ``(C(ℓa), C(ℓb))``, a
:class:`~mtwidgets.nli.inputs.CompositionInput` that knows its context, its insertion pair
and where the insertions sit: entailed exactly for Up(⊆) and Down(⊇). The gold label of an
entailed composition is *entailment*; of the others *neutral* (an upward context with a
hypernym, "There is an animal in the garden." / "There is a dog in the garden.", neither
entails nor contradicts).

:func:`compositions` composes every context with every insertion pair whose words it
accepts (default: the shipped contexts and WordNet pairs, the data of
``mt.run(..., relations="pairwise-compositionality")``); :func:`compositions_frame` gives
them as a table that reads back into the same inputs.

:func:`split` cuts contexts and words into a training and a held-out part for the
embedded model (a context and its negated form stay together).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import MTError
from .contexts import CONTEXTS, Context
from .inputs import CompositionInput, entailed
from .lexicon import InsertionPair, Word, insertion_pairs, stable_fraction

__all__ = ["FRAME_COLUMNS", "Split", "accepts", "compose", "compositions", "compositions_frame", "context_families",
           "default_material", "entailed", "frame_row", "split"]

FRAME_COLUMNS: tuple[str, ...] = ("premise", "hypothesis", "label", "context", "monotonicity", "a", "b", "relation",
                                  "domains", "domain_a", "domain_b", "source")


def compose(context: Context, pair: InsertionPair) -> CompositionInput:
    """The composition of ``context`` with ``pair`` (the words in the slot as the context
    takes them: singular, or plural for ``{xs}``)."""
    forms = (pair.a.plural, pair.b.plural) if context.plural else (pair.a.lemma, pair.b.lemma)
    return CompositionInput.compose(
        context.template, context.monotonicity, pair.a.lemma, pair.b.lemma, pair.relation, forms=forms,
        domains=context.domains, domain_a=pair.a.domain, domain_b=pair.b.domain, source=context.source)


def accepts(context: Context, pair: InsertionPair) -> bool:
    return context.accepts(pair.a) and context.accepts(pair.b)


def compositions(contexts: Sequence[Context] | None = None,
                 pairs: Sequence[InsertionPair] | None = None) -> list[CompositionInput]:
    """Every composition of a context with a pair whose two words it accepts, context by
    context in the given orders (default: the shipped material, :func:`default_material`)."""
    used_contexts, used_pairs = default_material(contexts, pairs)
    return [compose(c, p) for c in used_contexts for p in used_pairs if accepts(c, p)]


def frame_row(x: CompositionInput) -> dict[str, Any]:
    """One composition as a table row (:data:`FRAME_COLUMNS`)."""
    return {"premise": x.premise, "hypothesis": x.hypothesis, "label": x.label, "context": x.context,
            "monotonicity": x.monotonicity, "a": x.a, "b": x.b, "relation": x.relation,
            "domains": " ".join(x.domains), "domain_a": x.domain_a, "domain_b": x.domain_b, "source": x.source}


def compositions_frame(contexts: Sequence[Context] | None = None,
                       pairs: Sequence[InsertionPair] | None = None) -> Any:
    """:func:`compositions` as a DataFrame (:data:`FRAME_COLUMNS`), e.g. to save as CSV:
    every row reads back into the same composition."""
    import pandas as pd

    return pd.DataFrame([frame_row(x) for x in compositions(contexts, pairs)], columns=list(FRAME_COLUMNS))


def default_material(
    contexts: Sequence[Context] | None = None, pairs: Sequence[InsertionPair] | None = None
) -> tuple[tuple[Context, ...], tuple[InsertionPair, ...]]:
    """The given contexts and pairs, or the shipped ones (:data:`~mtwidgets.nli.contexts.CONTEXTS`
    and :func:`~mtwidgets.nli.lexicon.insertion_pairs`)."""
    found_contexts = tuple(CONTEXTS if contexts is None else contexts)
    found_pairs = tuple(insertion_pairs() if pairs is None else pairs)
    if not found_contexts:
        raise MTError("no contexts given")
    if not found_pairs:
        raise MTError("no insertion pairs given")
    return found_contexts, found_pairs


# -- training / held-out split ------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """Contexts and words of one side of the split."""

    contexts: tuple[Context, ...]
    words: frozenset[tuple[str, str]]  # (lemma, domain)

    def has(self, w: Word) -> bool:
        return (w.lemma, w.domain) in self.words

    def pairs(self, pairs: Sequence[InsertionPair]) -> tuple[InsertionPair, ...]:
        """The pairs whose two words are on this side."""
        return tuple(p for p in pairs if self.has(p.a) and self.has(p.b))


def context_families(contexts: Sequence[Context]) -> list[list[Context]]:
    """Contexts grouped so that a context and the context its negated form writes stay together."""
    by_template = {c.template: c for c in contexts}
    families: list[list[Context]] = []
    seen: set[str] = set()
    for c in contexts:
        if c.template in seen:
            continue
        family = [c]
        seen.add(c.template)
        partner = by_template.get(c.negated or "")
        if partner is not None and partner.template not in seen:
            family.append(partner)
            seen.add(partner.template)
        families.append(family)
    return families


def split(
    contexts: Sequence[Context], words: Sequence[Word], *, held_out: float = 1 / 3, seed: int = 0
) -> tuple[Split, Split]:
    """``(train, held-out)``: context families ranked by a seeded hash, every
    ``round(1 / held_out)``-th one held out within each monotonicity of its first context;
    each domain's words likewise (every other word held out at ``held_out=0.5``), so the
    held-out part has contexts and words the training part never saw."""
    step = max(2, round(1 / held_out))
    train_c: list[Context] = []
    test_c: list[Context] = []
    families = context_families(contexts)
    for mono in ("up", "down"):
        group = [f for f in families if f[0].monotonicity == mono]
        group.sort(key=lambda f: stable_fraction(str(seed), "context", f[0].template))
        for i, family in enumerate(group):
            (test_c if i % step == step - 1 else train_c).extend(family)
    train_w: set[tuple[str, str]] = set()
    test_w: set[tuple[str, str]] = set()
    for domain in sorted({w.domain for w in words}):
        group_w = sorted((w for w in words if w.domain == domain),
                         key=lambda w: stable_fraction(str(seed), "word", w.lemma))
        for i, w in enumerate(group_w):
            (test_w if i % step == step - 1 else train_w).add((w.lemma, w.domain))
    order = {c.template: i for i, c in enumerate(contexts)}
    return (Split(tuple(sorted(train_c, key=lambda c: order[c.template])), frozenset(train_w)),
            Split(tuple(sorted(test_c, key=lambda c: order[c.template])), frozenset(test_w)))
