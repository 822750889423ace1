"""ENTRE: type-constrained entity replacement, iterated (Wang et al. 2023, section 3.3).

The paper's pipeline, per relation-extraction instance with a gold label:

1. keep the instances the model predicts correctly (ENTRE), or, without asking the model,
   the ones whose gold relation is not ``no_relation`` (ENTRE-fast);
2. replace their PERSON and ORGANIZATION names with other names of the same type drawn
   at random from a large lexicon (:mod:`mtwidgets.re.entre_lexicon`,
   :class:`~mtwidgets.re.entre_replace.EntityReplacement`), and return to step 1;

up to ``rounds`` times (default 20; the paper allows 200). ENTRE is an *iterated*
relation (:mod:`mtwidgets.core.iterate`): the runner predicts the sources, then
:func:`iterator` asks the model round by round, through the runner's batched, cached
prediction, only about the instances still standing. Each instance gives one results row:

- ``pass``: the model still gets it right after every round;
- ``violation``: it got the original right and a replacement wrong; ``meta["round_failed"]``
  is the round at which it first failed (the fragility measure), ``followup_text`` the
  instance that failed;
- ``not_applicable``: no gold label, no replaceable name, or (ENTRE) the model already gets
  the original wrong, which the paper leaves as it is.

Every row's ``meta`` also holds the chain of instances asked (``chain``, markup) with the
model's label on each (``labels``), and the model's label from the entity names alone,
with the context removed (Figures 2, 6, 7), on the original (``shortcut_source``) and on
the final instance (``shortcut_followup``).

The paper's metrics are computed from such results: :func:`f1_table` (micro-F1 without
``no_relation`` on the original and the replaced instances, and the relative drop: Table 2),
:func:`shortcut_table` (share of instances whose gold relation the model predicts from the
names alone, before and after, per relation), :func:`diversity_table` (distinct names and
reuse, Q3) and :func:`fragility_table` (rounds to failure).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.iterate import Item, Outcome, Predict
from ..core.predictions import Prediction
from ..core.relation import Check, Group, MetamorphicRelation, OutputProperty, RelationSpec
from ..core.spans import Span
from .inputs import RelationInput

PAPER = "Wang et al. 2023, How Fragile is Relation Extraction under Entity Replacements? (CoNLL)"
NO_RELATION = "no_relation"
DEFAULT_ROUNDS = 20
NAMES = ("ENTRE", "ENTRE-fast")
REPLACED_TYPES = ("PERSON", "ORGANIZATION")

__all__ = [
    "DEFAULT_ROUNDS", "NAMES", "PAPER", "RELATIONS", "diversity_table", "f1_table", "fragility_table",
    "micro_f1", "names_only", "shortcut_table", "summary",
]


def _gold(group: Group) -> str | None:
    return getattr(group.sources[0], "gold", None) if group.sources else None


def _source(group: Group) -> RelationInput:
    x = group.sources[0]
    if not isinstance(x, RelationInput):
        raise InputError(f"ENTRE applies to relation-extraction inputs, got {x.display()[:80]!r}")
    return x


class GoldLabel(OutputProperty):
    """ENTRE's oracle: the replaced instance keeps the gold relation (entity replacement
    within a type does not change what the context says)."""

    description = "the gold relation, kept after every replacement"

    def __init__(self, *, fast: bool) -> None:
        self.fast = fast

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        gold = _gold(group)
        if gold is None:
            return "ENTRE needs the gold relation label (a 'gold' column in the data)"
        if self.fast and gold == NO_RELATION:
            return "ENTRE-fast replaces only instances whose gold relation is not no_relation"
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        gold = _gold(group) or ""
        got = followups[0].label if followups else None
        return Check("pass" if got == gold else "violation", gold, f"gold {gold}, got {got}")


def names_only(x: RelationInput) -> RelationInput:
    """The instance with its context removed: the head and tail mentions alone, in their
    order in the text, with their types (the paper's counterfactual input Y(x-bar, e))."""
    first, second = sorted((x.head, x.tail), key=lambda s: s.start)
    a, b = x.text[first.start : first.end], x.text[second.start : second.end]
    text = f"{a} {b}"
    spans = {id(first): Span(0, len(a), first.label), id(second): Span(len(a) + 1, len(text), second.label)}
    return RelationInput(text, spans[id(x.head)], spans[id(x.tail)], gold=x.gold)


def _markup(x: Any) -> str:
    return x.to_markup() if isinstance(x, RelationInput) else str(x)


class _Run:
    """One model's ENTRE over the live groups of one relation."""

    def __init__(self, relation: MetamorphicRelation, items: Sequence[Item], predict: Predict,
                 rounds: int, fast: bool) -> None:
        self.relation, self.items, self.predict = relation, list(items), predict
        self.rounds, self.fast = rounds, fast
        self.replacement: Any = relation.transformation  # with round(x, seed, r)
        # index -> [(input, prediction)] asked so far, and the decided check
        self.chain: dict[int, list[tuple[RelationInput, Prediction]]] = {it.index: [] for it in self.items}
        self.decided: dict[int, Check] = {}
        self.failed_at: dict[int, int] = {}
        self.exhausted: list[Item] = []  # out of fresh names before the last round

    def run(self) -> list[Outcome]:
        alive = []
        for it in self.items:
            gold = _gold(it.group)
            got = it.source_outputs[0].label if it.source_outputs else None
            if not self.fast and got != gold:
                self.decided[it.index] = Check(
                    "not_applicable", gold,
                    f"the model gets the original wrong (predicts {got}, gold {gold}): ENTRE replaces only "
                    f"what it gets right",
                )
            else:
                alive.append(it)
        # ENTRE-fast replaces without asking the model between rounds, so only its last
        # replacement is ever evaluated: one draw of fresh names, the group's round 1
        steps = [1] if self.fast else list(range(1, self.rounds + 1))
        for r in steps:
            if not alive:
                break
            alive = self._round(r, alive)
        for it in [*alive, *self.exhausted]:  # stood every round (it could be asked)
            if not self.chain[it.index]:
                self.decided[it.index] = Check("not_applicable", _gold(it.group),
                                               "no fresh names could be drawn for it: it was never replaced")
                continue
            last = self.chain[it.index][-1][1]
            self.decided[it.index] = self.relation.check(it.group, it.source_outputs, [last])
        return self._outcomes(self._shortcuts())

    def _round(self, r: int, alive: list[Item]) -> list[Item]:
        asked: dict[int, RelationInput] = {}
        for it in alive:
            # every round from the run's seed (a generated group's draft may come from another)
            x = self.replacement.round(_source(it.group), it.group.seed, r)
            if x is None:  # no fresh name left: it stood every round it could be asked
                self.exhausted.append(it)
                continue
            asked[it.index] = x
        label = "the replaced instances" if self.fast else f"round {r} of {self.rounds}"
        preds, errs = self.predict(list(asked.values()), label)
        standing = []
        for it in alive:
            x = asked.get(it.index)
            if x is None:
                continue
            err = errs.get(x.key())
            if err is not None:
                self.decided[it.index] = Check("error", _gold(it.group), str(err))
                continue
            p = preds[x.key()]
            self.chain[it.index].append((x, p))
            check = self.relation.check(it.group, it.source_outputs, [p])
            if check.verdict == "violation" and not self.fast:
                before = "on the original" if r == 1 else f"on the original and rounds 1-{r - 1}"
                self.decided[it.index] = Check("violation", check.expected, f"round {r}: {check.reason} (right {before})")
                self.failed_at[it.index] = r
            elif self.fast:
                self.decided[it.index] = self._fast_check(it, check)
                if check.verdict == "violation":
                    self.failed_at[it.index] = r
            else:
                standing.append(it)
        return standing

    @staticmethod
    def _fast_check(it: Item, check: Check) -> Check:
        before = it.source_outputs[0].label if it.source_outputs else None
        if check.verdict == "violation" and before != _gold(it.group):
            return Check("not_applicable", check.expected,
                         f"wrong before and after the replacement ({check.reason}, original {before})")
        return check

    def _shortcuts(self) -> dict[str, Prediction]:
        inputs = []
        for it in self.items:
            inputs.append(names_only(_source(it.group)))
            if self.chain[it.index]:
                inputs.append(names_only(self.chain[it.index][-1][0]))
        preds, _ = self.predict(inputs, "entity names only")
        return preds

    def _outcomes(self, shortcut: Mapping[str, Prediction]) -> list[Outcome]:
        out = []
        for it in self.items:
            chain = self.chain[it.index]
            src = _source(it.group)
            final = chain[-1] if chain else None

            def label_of(x: RelationInput) -> str | None:
                p = shortcut.get(names_only(x).key())
                return None if p is None else p.label

            meta = {
                **dict(it.group.meta),
                "gold": _gold(it.group),
                "rounds": self.rounds,
                "fast": self.fast,
                "round_failed": self.failed_at.get(it.index),
                "chain": [_markup(x) for x, _ in chain],
                "labels": [p.label for _, p in chain],
                "shortcut_source": label_of(src),
                "shortcut_followup": label_of(final[0]) if final else None,
            }
            group = Group(
                it.group.relation, it.group.index, it.group.sources,
                (final[0],) if final else (), _note(src, final[0] if final else None, len(chain), self.fast),
                it.group.seed, it.group.source_index, meta,
            )
            outs = (final[1],) if final else ()
            out.append(Outcome(it.index, group, outs, self.decided[it.index]))
        return out


def _note(src: RelationInput, final: RelationInput | None, asked: int, fast: bool) -> str:
    if final is None:
        return "not replaced"
    changes = [f"{getattr(src, role + '_text')} -> {getattr(final, role + '_text')}" for role in ("head", "tail")
               if getattr(src, role + "_text") != getattr(final, role + "_text")]
    what = "replaced" if fast else f"after {asked} round{'s' if asked != 1 else ''}"
    return f"ENTRE {what}: " + "; ".join(changes)


def iterator(rounds: int, fast: bool) -> Callable[..., list[Outcome]]:
    """The ``iterate`` callable of ENTRE (``fast=False``) or ENTRE-fast."""

    def iterate(relation: MetamorphicRelation, model: str, items: Sequence[Item], predict: Predict) -> list[Outcome]:
        return _Run(relation, items, predict, rounds, fast).run()

    return iterate


def check_rounds(rounds: object) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 1000:
        raise InputError(f"rounds must be a whole number from 1 to 1000 (the paper uses up to 200), got {rounds!r}")
    return rounds


def _replacement(o: Mapping[str, Any]) -> Any:
    """The transformation ENTRE draws its rounds from: the one given (anything with the
    Transformation protocol and ``round(x, seed, r)``), else the type-constrained random
    replacement over the lexicon given (default: the shipped one)."""
    if o.get("replacement") is not None:
        return o["replacement"]
    from .entre_replace import EntityReplacement

    return EntityReplacement(o.get("lexicon"))


RELATIONS: dict[str, RelationSpec] = {
    "ENTRE": RelationSpec(
        category="entity replacement", expected="the gold relation, after every round",
        description="Replace the PERSON and ORGANIZATION names with random names of the same type from a "
        "large lexicon, again and again while the model stays right (up to `rounds`); records the round "
        "at which each instance first fails.",
        transformation=_replacement,
        property=lambda o: GoldLabel(fast=False),
        model_dependent=True,
        iterate=lambda o: iterator(check_rounds(o.get("rounds", DEFAULT_ROUNDS)), fast=False),
    ),
    "ENTRE-fast": RelationSpec(
        category="entity replacement", expected="the gold relation, after the replacement",
        description="ENTRE without asking the model in step 1: replace the names of every instance whose gold "
        "relation is not no_relation, then evaluate once.",
        transformation=_replacement,
        property=lambda o: GoldLabel(fast=True),
        model_dependent=True,
        iterate=lambda o: iterator(check_rounds(o.get("rounds", DEFAULT_ROUNDS)), fast=True),
    ),
}


# -- the paper's metrics, from results rows ---------------------------------------------------
def _rows(results: Any, relation: str | None = None) -> Any:
    frame = getattr(results, "frame", results)
    names = [relation] if relation else list(NAMES)
    return frame[frame["relation"].isin(names)]


def micro_f1(gold: Sequence[str | None], predicted: Sequence[str | None]) -> float:
    """TACRED's micro-F1 with ``no_relation`` as the background class (not scored)."""
    correct = sum(1 for g, p in zip(gold, predicted) if g == p and g != NO_RELATION)
    guessed = sum(1 for p in predicted if p not in (None, NO_RELATION))
    actual = sum(1 for g in gold if g != NO_RELATION)
    precision = correct / guessed if guessed else 0.0
    recall = correct / actual if actual else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _scored(rows: Any) -> list[tuple[str, str, str | None, str | None]]:
    """(model, gold, label before, label after) of every instance ENTRE could replace and
    the model answered on (rows without a source answer or with an error are left out)."""
    out: list[tuple[str, str, str | None, str | None]] = []
    for r in rows.itertuples(index=False):
        gold = r.sources[0].get("gold") if r.sources else None
        before, after = _label(r.source_label), _label(r.followup_label)
        if gold is None or before is None or r.verdict == "error":
            continue
        # an instance ENTRE left as it was (wrong on the original) keeps its original answer
        out.append((r.model, gold, before, after if after is not None else before))
    return out


def _label(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def f1_table(results: Any, relation: str | None = None) -> Any:
    """Table 2 in miniature: per model, micro-F1 (no_relation excluded) on the original
    instances and on the instances after ENTRE, and the relative drop."""
    import pandas as pd

    rows = _rows(results, relation)
    by_model: dict[str, list[tuple[str, str | None, str | None]]] = {}
    for model, gold, before, after in _scored(rows):
        by_model.setdefault(model, []).append((gold, before, after))
    table = []
    for model, items in by_model.items():
        golds = [g for g, _, _ in items]
        f1_before = micro_f1(golds, [b for _, b, _ in items])
        f1_after = micro_f1(golds, [a for _, _, a in items])
        drop = (f1_before - f1_after) / f1_before if f1_before else math.nan
        table.append({"model": model, "instances": len(items), "f1_original": round(100 * f1_before, 1),
                      "f1_entre": round(100 * f1_after, 1), "relative_drop": round(100 * drop, 1)})
    return pd.DataFrame(table, columns=["model", "instances", "f1_original", "f1_entre", "relative_drop"])


def shortcut_table(results: Any, relation: str | None = None) -> Any:
    """Figures 6-7 in miniature: per model and gold relation (no_relation left out), the
    share of instances whose gold relation the model predicts from the entity names alone,
    on the original names and on the names after ENTRE."""
    import pandas as pd

    counts: dict[tuple[str, str], list[int]] = {}
    for r in _rows(results, relation).itertuples(index=False):
        meta = r.meta if isinstance(r.meta, Mapping) else {}
        gold = meta.get("gold")
        if gold in (None, NO_RELATION) or meta.get("shortcut_source") is None:
            continue
        after = meta.get("shortcut_followup") or meta.get("shortcut_source")
        c = counts.setdefault((r.model, gold), [0, 0, 0])
        c[0] += 1
        c[1] += meta["shortcut_source"] == gold
        c[2] += after == gold
    table = [{"model": m, "relation": g, "instances": n, "shortcut_original": round(b / n, 3),
              "shortcut_entre": round(a / n, 3)} for (m, g), (n, b, a) in sorted(counts.items())]
    return pd.DataFrame(table, columns=["model", "relation", "instances", "shortcut_original", "shortcut_entre"])


def _mentions(markup_or_dict: Any) -> list[tuple[str, str]]:
    x = (RelationInput.from_dict(dict(markup_or_dict)) if isinstance(markup_or_dict, Mapping)
         else RelationInput.parse(markup_or_dict))
    return [(x.text[s.start : s.end], s.label or "") for s in (x.head, x.tail)]


def diversity_table(results: Any, relation: str | None = None) -> Any:
    """Q3 in miniature: per model and entity type (PERSON, ORGANIZATION), the head and tail
    names (pronouns left out), how many ENTRE replaced, the distinct names and how often one
    name is reused, on the original instances and after ENTRE (the final instance of each)."""
    import pandas as pd

    uses: dict[tuple[str, str, str], Counter[str]] = {}
    changed: Counter[tuple[str, str]] = Counter()
    for r in _rows(results, relation).itertuples(index=False):
        if not r.sources or r.verdict == "error":
            continue
        meta = r.meta if isinstance(r.meta, Mapping) else {}
        chain = meta.get("chain") or []
        before = _mentions(r.sources[0])
        after = _mentions(chain[-1]) if chain else before
        for (name, etype), (new, _) in zip(before, after):
            if etype not in REPLACED_TYPES or not name[:1].isupper():  # a pronoun is no name
                continue
            uses.setdefault((r.model, etype, "original"), Counter())[name] += 1
            uses.setdefault((r.model, etype, "entre"), Counter())[new] += 1
            changed[(r.model, etype)] += new != name
    table = []
    for (model, etype, when), c in sorted(uses.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] != "original")):
        table.append({"model": model, "type": etype, "names": when, "mentions": sum(c.values()),
                      "replaced": changed[(model, etype)] if when == "entre" else 0,
                      "distinct": len(c), "max_reuse": max(c.values()),
                      "mean_reuse": round(sum(c.values()) / len(c), 2)})
    return pd.DataFrame(table, columns=["model", "type", "names", "mentions", "replaced", "distinct", "max_reuse",
                                        "mean_reuse"])


def fragility_table(results: Any, relation: str = "ENTRE") -> Any:
    """Rounds to failure: per model, how many of the instances it got right first fail at
    each round, and how many stand every round (``round`` = "survived")."""
    import pandas as pd

    table: Counter[tuple[str, str]] = Counter()
    for r in _rows(results, relation).itertuples(index=False):
        meta = r.meta if isinstance(r.meta, Mapping) else {}
        if r.verdict == "violation" and meta.get("round_failed"):
            table[(r.model, str(meta["round_failed"]))] += 1
        elif r.verdict == "pass":
            table[(r.model, "survived")] += 1
    rows = [{"model": m, "round": k, "instances": n} for (m, k), n in table.items()]
    frame = pd.DataFrame(rows, columns=["model", "round", "instances"])
    if len(frame):
        order = frame["round"].map(lambda k: 10**9 if k == "survived" else int(k))
        frame = frame.assign(_o=order).sort_values(["model", "_o"]).drop(columns="_o").reset_index(drop=True)
    return frame


def summary(results: Any, relation: str | None = None) -> dict[str, Any]:
    """Every ENTRE table of a run, by name (what the report and the Batch panel show)."""
    return {
        "f1": f1_table(results, relation),
        "shortcuts": shortcut_table(results, relation),
        "diversity": diversity_table(results, relation),
        "fragility": fragility_table(results),
    }


def shortcut_chart(table: Any) -> Any:
    """Figure 7 in miniature: per gold relation, the shortcut share on the original names
    and after ENTRE, one row of bars per model (an Altair chart of :func:`shortcut_table`)."""
    import altair as alt

    long = table.melt(id_vars=["model", "relation", "instances"], value_vars=["shortcut_original", "shortcut_entre"],
                      var_name="names", value_name="share")
    long["names"] = long["names"].map({"shortcut_original": "original", "shortcut_entre": "after ENTRE"})
    return alt.Chart(long).mark_bar().encode(
        x=alt.X("share:Q", title="share predicted from the names alone", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("names:N", title=None, sort=["original", "after ENTRE"]),
        color=alt.Color("names:N", title="entity names", sort=["original", "after ENTRE"]),
        row=alt.Row("relation:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left", labelLimit=220)),
        column=alt.Column("model:N", title=None),
        tooltip=["model", "relation", "names", alt.Tooltip("share:Q", format=".0%"), "instances"],
    ).properties(width=220, height=28)
