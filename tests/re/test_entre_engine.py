"""ENTRE's iteration and metrics on a replacement and a model the test controls.

The replacement gives round r the names "<Name>r" (deterministic, model-independent); the
model answers the gold relation unless the head's name holds a digit it is told to fail
on, so the round at which each instance first fails is known in advance.
"""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.relation import Draft, Transformation
from mtwidgets.re import entre
from mtwidgets.re.inputs import RelationInput


class NumberedNames(Transformation):
    """Round r renames a PERSON head "Ann" to "Ann<r>"; an ORGANIZATION head is refused."""

    requirement = "a PERSON head"

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    def round(self, x: RelationInput, seed: int, r: int) -> RelationInput | None:
        if x.head.label != "PERSON":
            return None
        self.asked.append((x.head_text, r))
        new = f"{x.head_text.rstrip('0123456789')}{r}"
        shift = len(new) - len(x.head_text)
        text = x.text[: x.head.start] + new + x.text[x.head.end :]
        tail = x.tail if x.tail.start < x.head.start else dataclasses.replace(
            x.tail, start=x.tail.start + shift, end=x.tail.end + shift)
        head = dataclasses.replace(x.head, end=x.head.end + shift)
        return dataclasses.replace(x, text=text, head=head, tail=tail)

    def _options(self, sources):  # noqa: ANN001, ANN202
        x = self.round(sources[0], 0, 1)
        return [[x]] if x is not None else [[]]

    def _build(self, sources, option):  # noqa: ANN001, ANN202
        return Draft(sources, (option,), "round 1")


class FailsAtRound:
    """Right (the gold written in a lookup) until the head ends in one of ``bad`` digits;
    from names alone it answers per:title for a head called Ann (a 'shortcut')."""

    def __init__(self, gold: dict[str, str], bad: dict[str, int]) -> None:
        self.gold, self.bad, self.calls = gold, bad, 0

    def predict(self, inputs):  # noqa: ANN001, ANN201
        self.calls += len(inputs)
        out = []
        for x in inputs:
            base = x.head_text.rstrip("0123456789")
            digits = x.head_text[len(base):]
            if x.text == f"{x.head_text} {x.tail_text}" or x.text == f"{x.tail_text} {x.head_text}":
                out.append("per:title" if x.head_text == "Ann" else "no_relation")
            elif digits and int(digits) >= self.bad.get(base, 10**6):
                out.append("no_relation" if self.gold[base] != "no_relation" else "per:title")
            else:
                out.append(self.gold.get(base, "no_relation"))
        return out


ROWS = [
    {"markup": "[[Ann|PERSON]] works as a <<nurse|TITLE>> in town.", "gold": "per:title"},
    {"markup": "[[Bob|PERSON]] married <<Cleo|PERSON>> in June.", "gold": "per:spouse"},
    {"markup": "[[Dan|PERSON]] met <<Eve|PERSON>> once.", "gold": "no_relation"},
    {"markup": "[[Acme|ORGANIZATION]] hired <<Fay|PERSON>>.", "gold": "org:top_members/employees"},
    {"markup": "[[Gus|PERSON]] is a <<pilot|TITLE>>.", "gold": "per:title"},
]
GOLD = {"Ann": "per:title", "Bob": "per:spouse", "Dan": "no_relation", "Acme": "org:top_members/employees",
        "Gus": "per:title"}


def _run(rounds: int = 5, name: str = "ENTRE", bad: dict[str, int] | None = None, gold: dict[str, str] | None = None):
    replacement = NumberedNames()
    rel = mt.relation(name, rounds=rounds, replacement=replacement)
    model = FailsAtRound(gold or GOLD, bad if bad is not None else {"Ann": 3, "Bob": 1})
    results = mt.run(pd.DataFrame(ROWS), relations=[rel], models={"m": model}, task="re", seed=7)
    return results, model, replacement


def test_entre_records_the_round_each_instance_first_fails() -> None:
    results, _, _ = _run(gold={**GOLD, "Gus": "per:origin"})  # Gus: wrong on the original
    f = results.frame.set_index(results.frame["source_text"].str.slice(2, 5))
    assert f.loc["Ann", "verdict"] == "violation" and f.loc["Ann", "meta"]["round_failed"] == 3
    assert f.loc["Ann", "meta"]["labels"] == ["per:title", "per:title", "no_relation"]
    assert f.loc["Ann", "followup_text"].startswith("[[Ann3|PERSON]]")
    assert f.loc["Bob", "meta"]["round_failed"] == 1
    assert f.loc["Dan", "verdict"] == "pass" and f.loc["Dan", "meta"]["round_failed"] is None
    assert len(f.loc["Dan", "meta"]["chain"]) == 5
    assert f.loc["Acm", "verdict"] == "not_applicable"  # no PERSON head: nothing replaceable
    assert f.loc["Gus", "verdict"] == "not_applicable"
    assert "gets the original wrong" in f.loc["Gus", "reason"]


def test_entre_asks_only_instances_still_standing() -> None:
    _, model, replacement = _run(rounds=5)
    rounds_asked = [r for _, r in replacement.asked]
    # round 1 is built once per PERSON head when the groups are generated (4), then the
    # iteration asks Ann (fails at 3), Bob (fails at 1), Dan and Gus (stand all 5)
    assert sorted(rounds_asked) == sorted([1] * 4 + [1, 2, 3] + [1] + [1, 2, 3, 4, 5] * 2)
    # 4 sources (Acme has nothing to replace: never asked), 3 + 1 + 5 + 5 round instances,
    # and the names alone of the 4 sources and of their 4 final instances
    assert model.calls == 4 + 14 + 4 + 4


def test_entre_rerun_is_served_by_the_cache() -> None:
    replacement = NumberedNames()
    rel = mt.relation("ENTRE", rounds=4, replacement=replacement)
    model = FailsAtRound(GOLD, {"Ann": 2})
    cache = mt.PredictionCache() if hasattr(mt, "PredictionCache") else None
    first = mt.run(pd.DataFrame(ROWS), relations=[rel], models={"m": model}, task="re", cache=cache)
    calls = model.calls
    again = mt.run(pd.DataFrame(ROWS), relations=[rel], models={"m": model}, task="re", cache=cache)
    assert model.calls == calls
    assert list(first.frame["verdict"]) == list(again.frame["verdict"])


def test_entre_fast_replaces_non_no_relation_instances_once() -> None:
    results, _, replacement = _run(rounds=6, name="ENTRE-fast", bad={"Ann": 1})
    f = results.frame.set_index(results.frame["source_text"].str.slice(2, 5))
    assert {r for _, r in replacement.asked} == {1}
    assert f.loc["Dan", "verdict"] == "not_applicable"  # gold no_relation
    assert f.loc["Ann", "verdict"] == "violation"
    assert f.loc["Gus", "verdict"] == "pass"


def test_f1_table_scores_micro_f1_without_no_relation() -> None:
    results, _, _ = _run(rounds=5)
    table = entre.f1_table(results)
    row = table.iloc[0]
    # original: Ann, Bob, Gus right, Dan right (NR), Acme not replaceable (left out)
    assert row["instances"] == 4 and row["f1_original"] == 100.0
    # after: Ann and Bob wrong (predict no_relation), Gus right: P = 1/1, R = 1/3
    assert row["f1_entre"] == pytest.approx(50.0)
    assert row["relative_drop"] == pytest.approx(50.0)


def test_micro_f1_counts_false_positives_on_no_relation() -> None:
    assert entre.micro_f1(["no_relation", "per:title"], ["per:title", "per:title"]) == pytest.approx(2 / 3)
    assert entre.micro_f1(["no_relation"], ["no_relation"]) == 0.0


def test_shortcut_and_diversity_tables() -> None:
    results, _, _ = _run(rounds=5)
    shortcuts = entre.shortcut_table(results).set_index("relation")
    # Ann's relation is predicted from "Ann nurse" alone, not from "Ann3 nurse"
    assert shortcuts.loc["per:title", "instances"] == 2
    assert shortcuts.loc["per:title", "shortcut_original"] == 0.5
    assert shortcuts.loc["per:title", "shortcut_entre"] == 0.0
    div = entre.diversity_table(results)
    person = div[(div["type"] == "PERSON") & (div["names"] == "entre")].iloc[0]
    assert person["distinct"] >= 6
    fr = entre.fragility_table(results)
    assert dict(zip(fr["round"], fr["instances"])) == {"1": 1, "3": 1, "survived": 2}


def test_names_only_keeps_order_and_types() -> None:
    x = RelationInput.parse("<<Cleo|PERSON>> and her husband [[Bob|PERSON]] left.")
    y = entre.names_only(x)
    assert y.text == "Cleo Bob" and y.head_text == "Bob" and y.tail_text == "Cleo"
    assert (y.head_type, y.tail_type) == ("PERSON", "PERSON")


def test_rounds_must_be_a_count() -> None:
    with pytest.raises(mt.InputError, match="rounds"):
        mt.relation("ENTRE", rounds=0, replacement=NumberedNames())


def test_entre_needs_gold_and_is_not_in_all() -> None:
    rel = mt.relation("ENTRE", rounds=2, replacement=NumberedNames())
    rows = [{"markup": r["markup"]} for r in ROWS]
    results = mt.run(pd.DataFrame(rows), relations=[rel], models={"m": FailsAtRound(GOLD, {})}, task="re")
    assert set(results.frame["verdict"]) == {"not_applicable"}
    assert results.frame["reason"].str.contains("gold").sum() >= 4
    assert "ENTRE" in mt.catalogue("re")["name"].tolist()
    from mtwidgets.core.registry import resolve

    assert "ENTRE" not in [r.name for r in resolve("all", "re")]


class RunsOutOfNames(NumberedNames):
    """Like :class:`NumberedNames`, with no fresh name for Dan after round 2."""

    def round(self, x: RelationInput, seed: int, r: int) -> RelationInput | None:
        if x.head_text.startswith("Dan") and r > 2:
            return None
        return super().round(x, seed, r)


def test_an_instance_out_of_fresh_names_is_decided_on_its_last_round() -> None:
    rel = mt.relation("ENTRE", rounds=5, replacement=RunsOutOfNames())
    model = FailsAtRound(GOLD, {"Ann": 3})
    results = mt.run(pd.DataFrame(ROWS), relations=[rel], models={"m": model}, task="re", seed=7)
    f = results.frame.set_index(results.frame["source_text"].str.slice(2, 5))
    assert f.loc["Dan", "verdict"] == "pass" and len(f.loc["Dan", "meta"]["chain"]) == 2
    assert f.loc["Dan", "followup_text"].startswith("[[Dan2|PERSON]]")
    assert f.loc["Ann", "meta"]["round_failed"] == 3 and len(f.loc["Gus", "meta"]["chain"]) == 5
