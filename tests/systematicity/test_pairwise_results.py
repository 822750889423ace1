"""Results.aggregates: the contract's rows, the summary, save/load round trips and old files."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.aggregate import AGGREGATE_COLUMNS, aggregate_frame, aggregate_row
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Check, Group
from mtwidgets.core.results import Results, make_row
from mtwidgets.text.inputs import ClassificationInput

TEXTS = [
    "A warm, funny film.", "The plot drags badly.", "Fine acting, thin story.", "I loved every minute!",
    "Dull and far too long.", "A solid, honest drama.", "It was okay.", "Worst film this year.",
]


def _model(x: Any) -> dict[str, float]:
    p = round(sum(map(ord, x.text)) % 7 / 6, 2)
    return {"positive": p, "negative": 1 - p}


@pytest.fixture(scope="module")
def mixed() -> Results:
    """Group rows (a per-group relation) and aggregate rows from one run, two models."""
    sources = [ClassificationInput(t) for t in TEXTS]
    group = Group("TOY", 0, (sources[0],), (sources[1],), "", 0, 0)
    rows = [make_row(group, "a", [Prediction("positive")], [Prediction("negative")],
                     Check("violation", "positive", "label changed"))]
    pairwise = mt.run(sources, relations=["pairwise-systematicity"], cache=PredictionCache(),
                      models={"a": _model, "b": lambda x: {"positive": 0.5, "negative": 0.5}})
    return Results.concat([Results.from_rows(rows), pairwise])


def test_rows_follow_the_contract(mixed: Results) -> None:
    a = mixed.aggregates
    assert list(a.columns) == list(AGGREGATE_COLUMNS)
    assert set(a["model"]) == {"a", "b"} and (a.groupby("model").size() == 7).all()
    assert (a["tests"] == a["satisfied"] + a["violations"]).all()
    for row in a.to_dict("records"):
        assert math.isclose(row["safety"], row["satisfied"] / row["tests"])
        assert json.loads(json.dumps(row["examples"])) == row["examples"]  # JSON-able for the widgets
        assert json.dumps(row["detail"])
    constant = a[a["model"] == "b"].iloc[0]  # every score tied: strict ties keep every order
    assert constant["violations"] == 0 and constant["detail"]["pairs"]["tied_both"] == 6 * 28


def test_summary_shows_aggregated_relations_beside_group_rows(mixed: Results) -> None:
    s = mixed.summary()
    assert list(s["relation"]) == ["TOY", "Overall", "pairwise-systematicity", "pairwise-systematicity"]
    row = s[(s["relation"] == "pairwise-systematicity") & (s["model"] == "a")].iloc[0]
    agg = mixed.aggregates.set_index(["model", "slice"]).loc[("a", "overall")]
    assert (row["groups"], row["violations"], row["passes"]) == (agg["tests"], agg["violations"], agg["satisfied"])
    assert row["vr"] == pytest.approx(agg["violations"] / agg["tests"]) and row["vr_low"] <= row["vr"] <= row["vr_high"]
    assert s.set_index(["relation", "model"]).loc[("Overall", "a"), "groups"] == 1  # one group, no pairs
    slices = mixed.summary(by=("relation", "model", "slice"))
    assert len(slices) == 1 + 1 + 14 and set(slices[slices["relation"] != "pairwise-systematicity"]["slice"]) == {"overall"}
    assert list(slices[slices["model"] == "a"]["slice"])[2:4] == ["overall", "transformation=end: My friends were happy, though."]
    per_relation = mixed.summary(by=("relation",), overall=False)
    pooled = per_relation.set_index("relation").loc["pairwise-systematicity"]
    assert pooled["groups"] == mixed.aggregates.query("slice == 'overall'")["tests"].sum()
    by_label = mixed.summary(by=("relation", "model", "source_label"))
    assert "pairwise-systematicity" not in set(by_label["relation"])  # aggregates have no source label


def test_only_aggregates_still_summarise() -> None:
    results = Results(Results.empty().frame, aggregates=[
        aggregate_row(relation="R", task="t", model="m", satisfied=3, violations=1, not_applicable=2)])
    assert len(results) == 0
    (row,) = results.summary().to_dict("records")
    assert (row["relation"], row["groups"], row["violations"], row["not_applicable"], row["vr"]) == ("R", 4, 1, 2, 0.25)
    assert Results.empty().summary().empty and Results.empty().aggregates.empty


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
def test_aggregates_round_trip_through_save_and_load(mixed: Results, tmp_path: Path, suffix: str) -> None:
    back = Results.load(mixed.save(tmp_path / f"results{suffix}"))
    pd.testing.assert_frame_equal(back.aggregates, mixed.aggregates)
    pd.testing.assert_frame_equal(back.summary(by=("relation", "model", "slice")),
                                  mixed.summary(by=("relation", "model", "slice")))
    assert len(back.frame) == len(mixed.frame) == 1 and back.frame.iloc[0]["verdict"] == "violation"
    assert len(back.groups()) == 1  # a suite re-run sees the group rows only


def test_results_without_aggregates_save_as_before(tmp_path: Path) -> None:
    x = ClassificationInput("A fine film.")
    rows = [make_row(Group("TOY", 0, (x,), (x.with_text("A fine movie."),), "", 0, 0), "m",
                     [Prediction("positive")], [Prediction("positive")], Check("pass", "positive", "kept"))]
    path = Results.from_rows(rows).save(tmp_path / "r.jsonl")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 1 and records[0]["verdict"] == "pass"
    back = Results.load(path)
    assert back.aggregates.empty and list(back.aggregates.columns) == list(AGGREGATE_COLUMNS)


def test_a_results_file_from_before_aggregates_still_loads(tmp_path: Path) -> None:
    # Written as the results file looked before aggregated relations existed.
    old = {"relation": "MR1.3", "task": "classification", "model": "m", "group": "MR1.3/0/0", "source_index": 0,
           "source_text": "A fine film.", "followup_text": "A fine movie.", "source_label": "positive",
           "followup_label": "positive", "expected": "positive", "verdict": "pass", "reason": "kept", "note": "",
           "seed": 0, "sources": [{"task": "classification", "text": "A fine film.", "lang": "en"}],
           "followups": [{"task": "classification", "text": "A fine movie.", "lang": "en"}],
           "source_outputs": [{"label": "positive"}], "followup_outputs": [{"label": "positive"}], "meta": {}}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n")
    back = Results.load(path)
    assert len(back) == 1 and back.aggregates.empty and back.summary().iloc[0]["passes"] == 1


def test_a_broken_aggregate_record_names_the_line(mixed: Results, tmp_path: Path) -> None:
    path = mixed.save(tmp_path / "r.jsonl")
    lines = path.read_text().splitlines()
    record = json.loads(lines[3])
    assert record["verdict"] == "aggregate"
    record["meta"]["violations"] = -4
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"r\.jsonl.*'violations' must be a whole number >= 0"):
        Results.load(path)
    record["meta"] = "counts"
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"r\.jsonl:4: an aggregate record keeps its counts in 'meta'"):
        Results.load(path)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"satisfied": -1, "violations": 0}, "'satisfied' must be a whole number >= 0"),
        ({"satisfied": 1.5, "violations": 0}, "'satisfied' must be a whole number"),
        ({"satisfied": 1, "violations": 1, "tests": 3}, "'tests' is 3 but satisfied \\+ violations is 2"),
        ({"satisfied": 1, "violations": 1, "detail": [1]}, "'detail' must be a dict"),
        ({"satisfied": 1, "violations": 1, "examples": {"a": 1}}, "'examples' must be a list of dicts"),
        ({"satisfied": 1, "violations": 1, "relation": ""}, "'relation' must be a non-empty string"),
    ],
)
def test_bad_aggregate_rows_are_input_errors(row: dict[str, Any], message: str) -> None:
    full = {"relation": "R", "task": "t", "model": "m", "slice": "overall", **row}
    with pytest.raises(InputError, match=message):
        aggregate_frame([full])


def test_one_relation_model_and_slice_is_counted_once(mixed: Results) -> None:
    with pytest.raises(InputError, match="appears twice"):
        Results.concat([mixed, mixed])
    only_b = Results(Results.empty().frame, aggregates=mixed.aggregates[mixed.aggregates["model"] == "b"])
    only_a = Results(Results.empty().frame, aggregates=mixed.aggregates[mixed.aggregates["model"] == "a"])
    assert len(Results.concat([only_a, only_b]).aggregates) == 14  # other models add up fine


def test_aggregate_row_computes_tests_and_safety() -> None:
    row = aggregate_row(relation="R", task="t", model="m", satisfied=0, violations=0, not_applicable=5)
    assert row["tests"] == 0 and math.isnan(row["safety"]) and row["slice"] == "overall" and row["errors"] == 0
    assert aggregate_row(relation="R", task="t", model="m", satisfied=9, violations=1)["safety"] == 0.9
    kept = Results(Results.empty().frame, aggregates=[row]).without_errors()
    assert len(kept.aggregates) == 1 and kept.aggregates.iloc[0]["not_applicable"] == 5
