"""ENTRE on screen: the Batch panel's section (F1 table, rounds to failure, shortcut share
per gold relation, clicks that filter the table, a row's rounds) and the Explorer's rounds
of one instance (stepping, each model's label per round, the round it first flips at).

The replacement gives round r the head name "<Name>r" (deterministic, model-independent);
the model answers the gold relation unless the head's number reaches a round it is told
to fail from, so every flip round is known in advance. Nothing loads a real model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Draft, Transformation
from mtwidgets.re import entre, entre_views
from mtwidgets.re.batch_view import RelationBatchParts
from mtwidgets.re.explorer_view import RelationParts
from mtwidgets.re.inputs import RelationInput
from mtwidgets.widgets.batch import BatchPanel
from mtwidgets.widgets.explorer import Explorer


class Numbered(Transformation):
    """Round r renames a PERSON head "Ann" to "Ann<r>"; an ORGANIZATION head is refused."""

    requirement = "a PERSON head"

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, int]] = []

    def round(self, x: RelationInput, seed: int, r: int) -> RelationInput | None:
        if x.head.label != "PERSON":
            return None
        self.asked.append((x.head_text, seed, r))
        new = f"{x.head_text.rstrip('0123456789')}{r}"
        shift = len(new) - len(x.head_text)
        text = x.text[: x.head.start] + new + x.text[x.head.end :]
        tail = x.tail if x.tail.start < x.head.start else dataclasses.replace(
            x.tail, start=x.tail.start + shift, end=x.tail.end + shift)
        return dataclasses.replace(x, text=text, head=dataclasses.replace(x.head, end=x.head.end + shift), tail=tail)

    def _options(self, sources):  # noqa: ANN001, ANN202
        x = self.round(sources[0], 0, 1)
        return [[x]] if x is not None else [[]]

    def _build(self, sources, option):  # noqa: ANN001, ANN202
        return Draft(sources, (option,), "round 1")


class FailsFrom:
    """Right (the gold written in a lookup) until the head's number reaches the round given
    in ``bad``; from the names alone it answers per:title for a head called Ann."""

    def __init__(self, gold: dict[str, str], bad: dict[str, int]) -> None:
        self.gold, self.bad, self.calls, self.batches = gold, bad, 0, 0

    def predict(self, inputs: Sequence[Any]) -> list[str]:
        self.calls += len(inputs)
        self.batches += 1
        out = []
        for x in inputs:
            base = x.head_text.rstrip("0123456789")
            digits = x.head_text[len(base):]
            if x.text in (f"{x.head_text} {x.tail_text}", f"{x.tail_text} {x.head_text}"):
                out.append("per:title" if x.head_text == "Ann" else "no_relation")
            elif digits and int(digits) >= self.bad.get(base, 10**6):
                out.append("no_relation" if self.gold.get(base) != "no_relation" else "per:title")
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
BAD = {"Ann": 3, "Bob": 1}  # Ann first fails at round 3, Bob at round 1; Dan and Gus stand


def inputs() -> list[RelationInput]:
    return [RelationInput.parse(r["markup"]).with_gold(r["gold"]) for r in ROWS]


def entre_run(rounds: int = 5, name: str = "ENTRE", bad: dict[str, int] | None = None) -> mt.Results:
    rel = mt.relation(name, rounds=rounds, replacement=Numbered())
    return mt.run(pd.DataFrame(ROWS), relations=[rel], models={"m": FailsFrom(GOLD, BAD if bad is None else bad)},
                  task="re", seed=0, cache=PredictionCache())


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Explorer predicts afresh (call counts are asserted)."""
    monkeypatch.setattr("mtwidgets.widgets._explorer_state.default_cache", PredictionCache)


def by_head(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.set_index(frame["source_text"].str.slice(2, 5))


# -- the Batch panel's section: data ------------------------------------------------------------------
def test_section_tables_give_f1_rounds_to_failure_and_shortcuts_per_entre_relation() -> None:
    results = entre_run()
    fast = entre_run(name="ENTRE-fast", bad={"Ann": 1})
    both = pd.concat([results.frame, fast.frame], ignore_index=True)
    tables = entre_views.section_tables(both)
    f1 = tables["f1"].set_index("relation")
    assert list(f1.index) == ["ENTRE", "ENTRE-fast"]  # never pooled
    assert f1.loc["ENTRE", "f1_original"] == 100.0 and f1.loc["ENTRE", "f1_entre"] == pytest.approx(50.0)
    assert f1.loc["ENTRE", "relative_drop"] == pytest.approx(50.0)
    # ENTRE's rounds: Bob fails at 1, Ann at 3, round 2 has none (a zero, not a gap); Dan and Gus stand
    assert tables["rounds"][["round", "instances"]].values.tolist() == [[1, 1], [2, 0], [3, 1]]
    assert set(tables["rounds"]["relation"]) == {"ENTRE"} and tables["survived"] == {"m": 2}
    cuts = tables["shortcuts"]
    title = cuts[(cuts["relation"] == "ENTRE") & (cuts["gold"] == "per:title")].iloc[0]
    assert (title["instances"], title["shortcut_original"], title["shortcut_entre"]) == (2, 0.5, 0.0)
    assert set(cuts["relation"]) == {"ENTRE", "ENTRE-fast"}


def test_a_run_without_entre_rows_has_no_section() -> None:
    results = mt.run(pd.DataFrame(ROWS), relations=["MR-S1"], models={"m": FailsFrom(GOLD, {})}, task="re",
                     cache=PredictionCache())
    tally = entre_views.EntreTally()
    tally.add(results)
    assert len(tally) == 0 and entre_views.build_charts(tally, select="pick") == {}
    tables = entre_views.section_tables(results.frame)
    assert tables["f1"].empty and tables["rounds"].empty and tables["shortcuts"].empty
    assert entre_views.row_detail(results.frame, 0) is None


def test_charts_select_what_the_table_filters_on() -> None:
    results = entre_run()
    tally = entre_views.EntreTally()
    for k in range(0, len(results.frame), 2):  # chunk by chunk, as the panel adds them
        tally.add(mt.Results(results.frame.iloc[k : k + 2]))
    charts = entre_views.build_charts(tally, select="pick")
    assert list(charts) == list(entre_views.CHARTS)
    fields = {}
    for key, chart in charts.items():
        spec = chart.to_dict()
        (param,) = [p for p in spec["params"] if p["name"] == "pick"]
        fields[key] = param["select"]["fields"]
    assert fields == {"entre-f1": ["relation", "model"], "entre-rounds": ["relation", "model", "round"],
                      "entre-shortcuts": ["relation", "model", "gold"]}
    f = by_head(results.frame)
    mask = entre_views.selection_mask("entre-rounds", f, [{"relation": "ENTRE", "model": "m", "round": 3}])
    assert list(f.index[mask]) == ["Ann"]
    mask = entre_views.selection_mask("entre-shortcuts", f, [{"relation": "ENTRE", "model": "m", "gold": "per:title"}])
    assert sorted(f.index[mask]) == ["Ann", "Gus"]
    mask = entre_views.selection_mask("entre-f1", f, [{"relation": "ENTRE", "model": "m"}])
    assert mask.all()
    assert not entre_views.selection_mask("entre-f1", f, [{"relation": "ENTRE", "model": "other"}]).any()
    assert not entre_views.selection_mask("vr", f, [{"relation": "ENTRE"}]).any()


def test_row_detail_lists_each_round_with_the_label_and_the_first_wrong_one() -> None:
    f = entre_run().frame
    ann = int(f.index[f["source_text"].str.startswith("[[Ann")][0])
    detail = entre_views.row_detail(f, ann)
    assert detail is not None
    labels = [b["text"] for b in detail["blocks"] if b["type"] == "label"]
    assert labels[0].startswith("ENTRE rounds: gold per:title") and "first wrong at round 3" in labels[0]
    assert labels[1:] == ["round 1: per:title ✓", "round 2: per:title ✓", "round 3: no_relation ✗ first wrong"]
    marked = [b["parts"] for b in detail["blocks"] if b["type"] == "marked"]
    assert marked[2][0] == ["Ann3", "head PERSON"] and ["nurse", "tail TITLE"] in marked[2]
    shortcuts = detail["blocks"][-1]["items"][0]
    assert "".join(t for _, t in shortcuts) == "from the entity names alone: original per:title, after ENTRE no_relation"


# -- the Batch panel ------------------------------------------------------------------------------------
def _vl(points: list[dict[str, Any]]) -> dict[str, Any]:
    return {"pick": {"value": {"vlPoint": {"or": points}}, "store": []}}


def panel_on(relations: list[Any], model: FailsFrom | None = None) -> BatchPanel:
    return BatchPanel(data=inputs(), models={"m": model or FailsFrom(GOLD, BAD)}, relations=relations, seed=0,
                      cache=PredictionCache(), task="re")


def test_batch_panel_shows_the_section_and_a_click_filters_to_those_instances() -> None:
    panel = panel_on([mt.relation("ENTRE", rounds=5, replacement=Numbered()), "MR-S1"])
    assert isinstance(panel._batch, RelationBatchParts)
    panel.run()
    assert panel.state == "done", panel.controls.messages
    shown = {k: w.layout.display for k, w in panel._charts.items() if k.startswith("entre")}
    assert shown == {"entre-f1": None, "entre-rounds": None, "entre-shortcuts": None}
    summary = panel.entre_summary()
    assert summary[["relation", "model", "instances"]].values.tolist() == [["ENTRE", "m", 4]]
    # a click on round 3's bar: Ann's row, the only one failing there
    panel._charts["entre-rounds"]._vl_selections = _vl([{"relation": "ENTRE", "model": "m", "round": 3}])
    assert panel.table.filter == "relation = ENTRE · model = m · round = 3" and panel.table.total == 1
    (row,) = panel.table.rows
    assert row["relation"] == "ENTRE" and row["source"].startswith("[[Ann")
    # a click on the per:title row of the shortcut chart: its violations (Ann), then every verdict
    panel._charts["entre-shortcuts"]._vl_selections = _vl([{"relation": "ENTRE", "model": "m", "gold": "per:title"}])
    assert [r["source"][:5] for r in panel.table.rows] == ["[[Ann"]
    panel.table.verdict = "all"
    assert sorted(r["source"][:5] for r in panel.table.rows) == ["[[Ann", "[[Gus"]
    panel.table.selected = panel.table.rows[0]["i"]
    assert panel.table.detail["extra"]["cls"] == "mtw-batch__entre"
    panel._charts["entre-shortcuts"]._vl_selections = _vl([])  # a click on empty space clears it
    assert panel.table.filter == ""


def test_batch_panel_without_entre_keeps_the_generic_view() -> None:
    panel = panel_on(["MR-S1"])
    panel.run()
    assert panel.state == "done"
    assert {k: w.layout.display for k, w in panel._charts.items() if k.startswith("entre")} == dict.fromkeys(
        entre_views.CHARTS, "none")
    assert panel.entre_summary().empty
    panel.table.verdict = "all"
    panel.table.selected = panel.table.rows[0]["i"]
    assert "extra" not in panel.table.detail


# -- the Explorer's rounds ----------------------------------------------------------------------------
def explorer(model: FailsFrom, rounds: int = 5, name: str = "ENTRE", **kw: Any) -> tuple[Explorer, Numbered]:
    replacement = Numbered()
    rel = mt.relation(name, rounds=rounds, replacement=replacement)
    ex = Explorer(models={"m": model}, relations=["MR-S1", rel], data=kw.pop("data", inputs()), task="re", **kw)
    ex.relation = name
    return ex, replacement


def test_explorer_steps_through_the_rounds_and_marks_the_flip() -> None:
    model = FailsFrom(GOLD, BAD)
    ex, _ = explorer(model)
    case = ex._case
    assert case["active"] and [o["key"] for o in case["options"]] == ["1", "2", "3", "4", "5"]
    assert case["option"] == "1"
    (fu,) = case["followups"]
    assert fu["title"] == "round 1 (shown)"
    assert [(w["op"], w["text"]) for w in fu["words"] if w["op"] != "eq"] == [("del", "Ann"), ("ins", "Ann1")]
    assert {w["role"] for w in fu["words"] if w["op"] == "ins"} == {"head"}
    (card,) = case["models"]
    assert (card["verdict"], card["reason"]) == ("violation", "flips at round 3: per:title -> no_relation")
    assert [v["title"] for v in card["values"]] == ["original", "round 1 (shown)", *(f"round {k}" for k in range(1, 6))]
    assert [v["label"] for v in card["values"]][2:] == ["per:title"] * 2 + ["no_relation"] * 3
    assert [v["value"] for v in card["values"]] == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert card["premise"] == {"title": "original", "text": "per:title (gold per:title)", "holds": True}
    assert card["hypothesis"]["text"] == "round 1: per:title · first flips at round 3 (no_relation)"
    batches = model.batches
    ex.case_option = "4"  # a step: the rounds were predicted with round 1, in one batch
    assert model.batches == batches
    card = ex._case["models"][0]
    assert ex._case["followups"][0]["title"] == "round 4 (shown)" and ex.followups[0].head_text == "Ann4"
    assert card["hypothesis"] == {"title": "shown round", "holds": False,
                                  "text": "round 4: no_relation · first flips at round 3 (no_relation)"}
    ex.next_candidate()
    ex.next_candidate()  # past the last round: back to round 1
    assert ex.case_option == "1"
    assert ex.verdicts == {"m": "violation"} and model.batches == batches


def test_explorer_rounds_are_the_runs_rounds() -> None:
    results = entre_run()
    ex, _ = explorer(FailsFrom(GOLD, BAD))
    for i, row in enumerate(by_head(results.frame).loc[["Ann", "Bob", "Dan", "Gus"]].itertuples()):
        ex.index = [0, 1, 2, 4][i]
        chain, why = ex.multi_source.chain(ex.source)
        assert why is None and [c.to_markup() for c in chain][: len(row.meta["chain"])] == row.meta["chain"]
        assert ex.verdicts["m"] == row.verdict


def test_explorer_without_gold_compares_with_the_models_own_label() -> None:
    model = FailsFrom({**GOLD, "Zed": "per:spouse"}, {"Zed": 2})
    ex, _ = explorer(model)
    ex.set_text("Zed married Ivy.")
    ex.mark("head", 0, 3, "PERSON")
    ex.mark("tail", 12, 15, "PERSON")
    card = ex._case["models"][0]
    assert card["premise"]["text"] == "per:spouse (no gold: the model's own label is the reference)"
    assert (card["verdict"], card["reason"]) == ("violation", "flips at round 2: per:spouse -> no_relation")
    # a data row's gold is the reference: Gus is wrong on the original, so ENTRE leaves him
    wrong = FailsFrom({**GOLD, "Gus": "per:origin"}, {})
    ex, _ = explorer(wrong)
    ex.index = 4
    card = ex._case["models"][0]
    assert card["verdict"] == "not_applicable" and "gets the original wrong" in card["reason"]
    assert [v["label"] for v in card["values"]][2:] == ["per:origin"] * 5  # the rounds are still shown


def test_explorer_entre_not_applicable_fast_and_seed() -> None:
    ex, _ = explorer(FailsFrom(GOLD, BAD))
    ex.index = 3  # Acme: an ORGANIZATION head the stand-in cannot rename
    assert ex._case["not_applicable"] == "ENTRE needs a PERSON head"
    assert ex.verdicts == {"m": "not_applicable"}
    fast, _ = explorer(FailsFrom(GOLD, {"Ann": 1}), name="ENTRE-fast", rounds=7)
    assert [o["key"] for o in fast._case["options"]] == ["1"]  # one round of fresh names
    assert fast.verdicts == {"m": "violation"}
    fast.index = 2  # Dan: gold no_relation, which ENTRE-fast leaves
    assert fast.verdicts == {"m": "not_applicable"}
    ex, replacement = explorer(FailsFrom(GOLD, BAD), rounds=3)
    parts = ex.multi_source
    assert isinstance(parts, entre_views.EntreRounds) and (parts.rounds, parts.fast) == (3, False)
    replacement.asked.clear()
    parts.seed = 9
    parts.chain(ex.source)
    assert {seed for _, seed, r in replacement.asked if r > 1} == {9}


def test_entre_settings_and_flip_round() -> None:
    assert entre_views.entre_settings(mt.relation("ENTRE", rounds=7, replacement=Numbered())) == (7, False)
    assert entre_views.entre_settings(mt.relation("ENTRE-fast", replacement=Numbered())) == (1, True)
    assert entre_views.entre_settings(mt.relation("MR-S1")) is None
    assert entre_views.flip_round(["a", "a", "b", "a"], "a") == 3
    assert entre_views.flip_round(["a"], "a") is None and entre_views.flip_round([], "a") is None
    assert RelationParts().multi_source(mt.relation("MR-S1")) is None
    # the bars of a model card: the model's score of the reference label, when it gives scores
    scored = Prediction.from_scores({"per:title": 0.7, "no_relation": 0.3})
    assert entre_views._score(scored, "no_relation") == pytest.approx(0.3)
    assert entre_views._score(scored, "per:spouse") == 0.0
    assert entre_views._score(Prediction(label="per:title"), "per:title") == 1.0
    assert entre.NAMES == ("ENTRE", "ENTRE-fast")
