"""pairwise-systematicity: Table 1's transformations, the refusals, and mt.run's aggregate rows
(2k model calls, counts equal to brute force per transformation and per source)."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.properties import SameLabel
from mtwidgets.core.relation import Draft, MetamorphicRelation, Transformation
from mtwidgets.core.runner import Runner
from mtwidgets.core.task import get_task
from mtwidgets.systematicity import TABLE_1, brute_force, pair_check
from mtwidgets.systematicity.concatenate import Concatenation, concatenations
from mtwidgets.text.inputs import ClassificationInput

NAME = "pairwise-systematicity"


def _score(text: str) -> float:
    """A deterministic positive score with many ties (11 levels)."""
    return round(sum(map(ord, text)) % 11 / 10, 1)


class Scored:
    """A sentiment model of known scores that counts the inputs it is asked about and fails
    on texts containing one of ``fail_on``."""

    def __init__(self, fail_on: Sequence[str] = ()) -> None:
        self.calls = 0
        self.fail_on = tuple(fail_on)

    def predict(self, inputs: list[Any]) -> list[Prediction]:
        self.calls += len(inputs)
        out = []
        for x in inputs:
            if any(bad in x.text for bad in self.fail_on):
                raise RuntimeError("cannot score this text")
            p = _score(x.text)
            out.append(Prediction.from_scores({"positive": p, "negative": 1 - p}))
        return out


@pytest.fixture(scope="module")
def sample() -> list[ClassificationInput]:
    return list(get_task("classification").part("sample")())


def _run(data: Any, relation: Any, models: dict[str, Any], **kw: Any) -> mt.Results:
    return mt.run(data, relations=[relation], models=models, cache=PredictionCache(), **kw)


# -- the relation -----------------------------------------------------------------------------
def test_table_1_holds_the_papers_six_transformations() -> None:
    assert [(c.text, c.position) for c in TABLE_1] == [
        ("My friends were happy, though.", "end"),
        ("Anyway, the sound of the rain outside was soothing.", "end"),
        ("As always: popcorn and coke make everything better!", "end"),
        ("Thank you.", "start"),
        ("I watched this movie with my brother.", "start"),
        ("Here is my review:", "start"),
    ]
    rel = mt.relation(NAME)
    assert rel.task == "classification" and rel.aggregate is not None and rel.n_sources == 2
    assert [c.label for c in rel.transformation.sentences] == [c.label for c in TABLE_1]  # type: ignore[attr-defined]
    row = mt.catalogue("classification").set_index("name").loc[NAME]
    assert bool(row["aggregated"]) and "Manino" in row["paper"] and "<=>" in row["expected"]
    assert not mt.catalogue("classification").set_index("name").loc["MR1.3", "aggregated"]


def test_each_source_gets_one_follow_up_per_sentence() -> None:
    x = ClassificationInput("Light, cute and forgettable.")
    groups = mt.relation(NAME).generate(x)
    got = {g.meta["transformation"]: g.followups[0].text for g in groups}
    assert got["start: Thank you."] == "Thank you. Light, cute and forgettable."  # the paper's Table 7
    assert got["end: My friends were happy, though."] == "Light, cute and forgettable. My friends were happy, though."
    assert len(groups) == 6 and all(g.followups[0].lang == "en" for g in groups)


def test_sources_a_sentence_would_not_fit_are_refused_with_the_reason() -> None:
    rel = mt.relation(NAME)
    lower = rel.generate(ClassificationInput("the plot is thin."))
    assert {g.meta["position"] for g in lower} == {"end"}  # nothing runs into a lower-case start
    unfinished = rel.generate(ClassificationInput("A film about nothing"))
    assert {g.meta["position"] for g in unfinished} == {"start"}  # nothing added after an unfinished sentence
    quoted = rel.generate(ClassificationInput("He said: \u201cIt works.\u201d"))
    assert len(quoted) == 6
    said = rel.generate(ClassificationInput("Thank you. The film was long."))
    assert "start: Thank you." not in {g.meta["transformation"] for g in said} and len(said) == 5
    (chinese,) = rel.generate(ClassificationInput("这部电影很好。"))
    assert chinese.not_applicable is not None and "'zh'" in chinese.not_applicable
    (neither,) = rel.generate(ClassificationInput("the plot is thin"))
    assert "does not begin a sentence" in str(neither.not_applicable)
    assert "does not end a sentence" in str(neither.not_applicable)


def test_user_sentences_replace_table_1_and_are_checked() -> None:
    rel = mt.relation(NAME, sentences=[("I saw it on Sunday.", "end"), {"text": "Review:", "position": "start"}])
    groups = rel.generate(ClassificationInput("A fine film."))
    assert [g.followups[0].text for g in groups] == ["A fine film. I saw it on Sunday.", "Review: A fine film."]
    both = concatenations([*TABLE_1, Concatenation("So it goes.", "end")])
    assert len(both) == 7
    bad: list[tuple[Any, str]] = [
        ([("Thank you.", "middle")], "position must be 'start' or 'end'"),
        ([("thank you", "start")], "must end with one of"),
        ([("and then it rained.", "end")], "not with a lower-case letter"),
        ([("", "end")], "non-empty string"),
        ("Thank you.", "list of \\(text, position\\) pairs"),
        ([], "sentences is empty"),
        ([("Thank you.", "start"), ("Thank you.", "start")], "twice"),
        ([("Thank you.",)], "a \\(text, position\\) pair"),
    ]
    for sentences, message in bad:
        with pytest.raises(InputError, match=message):
            mt.relation(NAME, sentences=sentences)


@pytest.mark.parametrize(
    ("options", "message"),
    [({"ties": "loose"}, "ties must be one of"), ({"worst": -1}, "worst must be a whole number"),
     ({"label": " "}, "label must name the score"), ({"seed": 3}, "takes the options")],
)
def test_bad_options_are_input_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        mt.relation(NAME, **options)


def test_pair_check_is_the_papers_order_property() -> None:
    assert pair_check(0.9, 0.2, 0.8, 0.3).verdict == "pass"
    lost = pair_check(0.9, 0.2, 0.3, 0.8)
    assert lost.verdict == "violation" and "order lost" in lost.reason
    assert pair_check(0.5, 0.5, 0.6, 0.4).verdict == "violation"  # strict: a tie is not '>'
    assert pair_check(0.5, 0.5, 0.6, 0.4, "skip").verdict == "not_applicable"
    assert pair_check(0.5, 0.5, 0.4, 0.4).verdict == "pass"


# -- mt.run -------------------------------------------------------------------------------------
def test_one_transformation_costs_2k_model_calls_and_gives_aggregate_rows(sample: list) -> None:
    model = Scored()
    rel = mt.relation(NAME, sentences=[("Thank you.", "start")])
    results = _run(sample, rel, {"scored": model})
    k = len(sample)
    assert model.calls == 2 * k
    assert len(results.frame) == 0 and list(results.aggregates["slice"]) == ["overall", "transformation=start: Thank you."]
    overall, only = results.aggregates.to_dict("records")
    s = [_score(x.text) for x in sample]
    f = [_score("Thank you. " + x.text) for x in sample]
    (satisfied, violations, _), _ = brute_force(s, f)
    for row in (overall, only):
        assert (row["satisfied"], row["violations"], row["not_applicable"], row["errors"]) == (satisfied, violations, 0, 0)
        assert row["tests"] == k * (k - 1) and row["safety"] == pytest.approx(satisfied / (k * (k - 1)))
    summary = results.summary()
    assert summary.to_dict("records")[0] | {"vr_low": 0, "vr_high": 0} == {
        "relation": NAME, "model": "scored", "groups": k * (k - 1), "violations": violations, "passes": satisfied,
        "not_applicable": 0, "errors": 0, "vr": violations / (k * (k - 1)), "vr_low": 0, "vr_high": 0}


def test_six_transformations_predict_each_source_once(sample: list) -> None:
    model = Scored()
    results = _run(sample[:40], mt.relation(NAME), {"scored": model})
    assert model.calls == 7 * 40  # 40 sources + 6 x 40 follow-ups
    slices = results.summary(by=("relation", "model", "slice"))
    assert list(slices["slice"]) == ["overall", *(f"transformation={c.label}" for c in TABLE_1)]
    parts = slices.iloc[1:]
    assert slices.iloc[0]["violations"] == parts["violations"].sum()
    assert slices.iloc[0]["groups"] == parts["groups"].sum() == 6 * 40 * 39


@pytest.mark.parametrize("ties", ["strict", "skip"])
def test_per_source_counts_equal_brute_force_through_the_runner(sample: list, ties: str) -> None:
    sources = sample[:60]
    sentences = [("Thank you.", "start"), ("My friends were happy, though.", "end")]
    rel = mt.relation(NAME, sentences=sentences, ties=ties, worst=1000)
    results = _run(sources, rel, {"scored": Scored()})
    s = np.array([_score(x.text) for x in sources])
    pooled_sat = np.zeros(len(sources), dtype=int)
    pooled_viol = np.zeros(len(sources), dtype=int)
    rows = results.aggregates.set_index("slice")
    for text, position in sentences:
        f = [_score(Concatenation(text, position).apply(x.text)) for x in sources]
        (sat, viol, tied), (per_sat, per_viol, _) = brute_force(s, f, ties)  # type: ignore[arg-type]
        row = rows.loc[f"transformation={position}: {text}"]
        assert (row["satisfied"], row["violations"], row["not_applicable"]) == (sat, viol, tied)
        listed = {e["source_index"]: (e["satisfied"], e["violations"]) for e in row["detail"]["worst_sources"]}
        assert listed == {i: (int(a), int(b)) for i, (a, b) in enumerate(zip(per_sat, per_viol)) if a + b}
        pooled_sat += per_sat
        pooled_viol += per_viol
    overall = rows.loc["overall", "detail"]["worst_sources"]
    assert {e["source_index"]: (e["satisfied"], e["violations"]) for e in overall} == {
        i: (int(a), int(b)) for i, (a, b) in enumerate(zip(pooled_sat, pooled_viol)) if a + b}
    safeties = [e["safety"] for e in overall]
    assert safeties == sorted(safeties)  # worst first (Table 2)


def test_examples_are_real_pairs_with_their_verdicts(sample: list) -> None:
    results = _run(sample[:50], mt.relation(NAME), {"scored": Scored()})
    for row in results.aggregates.to_dict("records"):
        assert row["examples"], row["slice"]
        for ex in row["examples"]:
            x1, x2 = ex["x1"], ex["x2"]
            assert x1["score"] == _score(x1["text"]) and x1["followup_score"] == _score(x1["followup"])
            check = pair_check(x1["score"], x2["score"], x1["followup_score"], x2["followup_score"])
            assert check.verdict == ex["verdict"] and f"transformation={ex['transformation']}" in (row["slice"], *[
                f"transformation={c.label}" for c in TABLE_1])
        assert any(e["verdict"] == "violation" for e in row["examples"]) == (row["violations"] > 0)
    again = _run(sample[:50], mt.relation(NAME), {"scored": Scored()})
    assert list(again.aggregates["examples"]) == list(results.aggregates["examples"])  # deterministic


def test_every_ordered_pair_is_counted_once_across_the_four_counts(sample: list) -> None:
    data = [*sample[:20], ClassificationInput("这部电影很好。"), ClassificationInput("the plot is thin."),
            ClassificationInput("It was sad and long.")]
    results = _run(data, mt.relation(NAME), {"scored": Scored(fail_on=["sad and long"])})
    k = len(data)
    assert len(results.errors) == 1 and "cannot score this text" in str(results.errors[0])
    for row in results.aggregates.to_dict("records"):
        each = (row["satisfied"] + row["violations"] + row["not_applicable"] + row["errors"])
        assert each == (6 if row["slice"] == "overall" else 1) * k * (k - 1)
        if row["slice"] != "overall":
            refused_here = 2 if row["slice"].startswith("transformation=start") else 1  # zh, and the lower-case start
            m = k - 1 - refused_here
            assert row["errors"] == (m + 1) * m - m * (m - 1)
            assert row["detail"]["tested_sources"] == m and row["detail"]["error_sources"] == 1
    reasons = results.aggregates.iloc[0]["detail"]["not_applicable_sources"]
    assert len(reasons) == 1 and "'zh'" in next(iter(reasons))


def test_a_model_without_a_positive_score_is_not_applicable_and_never_sees_follow_ups(sample: list) -> None:
    calls = []

    def labels_only(x: Any) -> str:
        calls.append(x)
        return "positive"

    results = _run(sample[:10], mt.relation(NAME), {"label-only": labels_only})
    assert len(calls) == 10
    row = results.aggregates.iloc[0]
    assert row["tests"] == 0 and row["not_applicable"] == 6 * 10 * 9 and np.isnan(row["safety"])
    assert "no 'positive' score" in next(iter(row["detail"]["not_applicable_sources"]))
    other = _run(sample[:10], mt.relation(NAME, label="POS"),
                 {"m": lambda x: {"pos": 0.1 * len(x.text) % 1, "neg": 0.5}})
    assert other.aggregates.iloc[0]["tests"] == 6 * 10 * 9  # the label is matched without case


def test_chunks_give_the_same_counts_as_one_pass(sample: list) -> None:
    rel = mt.relation(NAME)
    whole = _run(sample[:45], rel, {"scored": Scored()})
    runner = Runner([rel], {"scored": Scored()}, task="classification", cache=PredictionCache())
    parts = list(runner.iter_chunks(sample[:45], chunk_size=10))
    assert [len(p.aggregates) for p in parts] == [0, 0, 0, 0, 7]
    assert mt.Results.concat(parts).aggregates.drop(columns="safety").equals(whole.aggregates.drop(columns="safety"))


class _Indeed(Transformation):
    """A per-group toy relation's transformation: add "Indeed." at the end."""

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        return [["indeed"]]

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        return Draft(sources, (sources[0].with_text(sources[0].text + " Indeed."),), "Indeed. added")


def test_a_mixed_run_keeps_group_rows_and_aggregates_apart(sample: list) -> None:
    per_group = MetamorphicRelation("TOY-indeed", "classification", "toy", "add Indeed.", "same label", "-",
                                    _Indeed(), SameLabel())
    results = mt.run(sample[:12], relations=[per_group, NAME], models={"scored": Scored()}, cache=PredictionCache())
    assert set(results.frame["relation"]) == {"TOY-indeed"} and set(results.aggregates["relation"]) == {NAME}
    summary = results.summary()
    assert list(summary["relation"]) == ["TOY-indeed", "Overall", NAME]
    overall = summary.set_index("relation").loc["Overall"]
    assert overall["groups"] == 12  # the pairs stay out of Overall
    assert "aggregated: pairwise-systematicity (7 rows)" in repr(results)


def test_an_aggregator_that_raises_gives_an_error_row_and_a_warning(sample: list) -> None:
    def broken(relation: Any, model: str, evaluated: Any) -> list:
        raise ZeroDivisionError("no pairs")

    rel = dataclasses.replace(mt.relation(NAME), aggregate=broken)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = _run(sample[:5], rel, {"scored": Scored()})
    assert any("failed to count its cases" in str(w.message) for w in caught)
    (row,) = results.aggregates.to_dict("records")
    assert row["errors"] == 30 and row["tests"] == 0 and "ZeroDivisionError: no pairs" in row["detail"]["error"]
