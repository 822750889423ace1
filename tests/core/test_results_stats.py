"""Wilson intervals, the summary table, lossless save/load and the escaped HTML report."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.errors import InputError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Check, Group
from mtwidgets.core.results import COLUMNS, SUMMARY_COLUMNS, Results, make_row
from mtwidgets.core.stats import wilson_interval
from mtwidgets.re.inputs import RelationInput

Z = 1.959963984540054


# -- Wilson interval ------------------------------------------------------------------------
def test_wilson_hand_computed() -> None:
    # 0/n: [0, z^2 / (n + z^2)];  n/n: [n / (n + z^2), 1]
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(Z**2 / (10 + Z**2), abs=1e-12)
    assert hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(10 / (10 + Z**2), abs=1e-12)
    assert lo == pytest.approx(0.72247, abs=1e-5)
    # 5/10: centred on 0.5, half-width z*sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n)
    lo, hi = wilson_interval(5, 10)
    half = Z * math.sqrt(0.25 / 10 + Z**2 / 400) / (1 + Z**2 / 10)
    assert (lo, hi) == (pytest.approx(0.5 - half, abs=1e-12), pytest.approx(0.5 + half, abs=1e-12))
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, score method without correction
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
     (1, 29, 0.0061, 0.1718), (29, 29, 0.8830, 1.0)],
)
def test_wilson_textbook_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_properties_and_errors() -> None:
    for n in (1, 2, 7, 50):
        for k in range(n + 1):
            lo, hi = wilson_interval(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            mirror = wilson_interval(n - k, n)
            assert lo == pytest.approx(1 - mirror[1], abs=1e-12)
    lo90, hi90 = wilson_interval(3, 10, z=1.6448536269514722)
    lo95, hi95 = wilson_interval(3, 10)
    assert lo95 < lo90 < 0.3 < hi90 < hi95
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    for bad in [(-1, 5), (6, 5), (1, -1)]:
        with pytest.raises(ValueError, match="successes"):
            wilson_interval(*bad)


# -- hand-made results ----------------------------------------------------------------------
X = RelationInput.parse("[[John|PERSON]] is <<Mary|PERSON>>'s father.")


def row(relation: str, model: str, verdict: str, i: int = 0, text: str | None = None) -> dict:
    src = RelationInput.parse(text) if text else X
    g = Group(relation, i, (src,), (src.swapped(),), f"note {i}", 3, source_index=i, meta={"role": "both"})
    outs = [Prediction("per:children", (("per:children", 0.75), ("no_relation", 0.25)))]
    fouts = [] if verdict in ("error", "not_applicable") else [Prediction("per:parents")]
    return make_row(g, model, outs, fouts, Check(verdict, "per:parents", f"{verdict} {i}"))  # type: ignore[arg-type]


def hand_results() -> Results:
    rows = (
        [row("MR-A", "m", v, i) for i, v in enumerate(["pass", "pass", "violation", "not_applicable", "error"])]
        + [row("MR-B", "m", v, i) for i, v in enumerate(["violation", "violation", "pass"])]
        + [row("MR-A", "n", v, i) for i, v in enumerate(["not_applicable", "not_applicable"])]
        + [row("MR-B", "n", v, i) for i, v in enumerate(["violation"])]
    )
    return Results.from_rows(rows)


def test_summary_counts_and_overall() -> None:
    s = hand_results().summary()
    assert list(s.columns) == list(SUMMARY_COLUMNS)
    assert list(zip(s["relation"], s["model"])) == [
        ("MR-A", "m"), ("MR-A", "n"), ("MR-B", "m"), ("MR-B", "n"), ("Overall", "m"), ("Overall", "n"),
    ]
    t = s.set_index(["relation", "model"])
    expect = {  # groups, violations, passes, not_applicable, errors
        ("MR-A", "m"): (3, 1, 2, 1, 1), ("MR-B", "m"): (3, 2, 1, 0, 0),
        ("MR-A", "n"): (0, 0, 0, 2, 0), ("MR-B", "n"): (1, 1, 0, 0, 0),
        ("Overall", "m"): (6, 3, 3, 1, 1), ("Overall", "n"): (1, 1, 0, 2, 0),
    }
    for key, counts in expect.items():
        got = tuple(int(t.loc[key, c]) for c in ("groups", "violations", "passes", "not_applicable", "errors"))
        assert got == counts, key
    assert t.loc[("Overall", "m"), "vr"] == 0.5
    assert (t.loc[("Overall", "m"), "vr_low"], t.loc[("Overall", "m"), "vr_high"]) == wilson_interval(3, 6)
    assert t.loc[("MR-B", "m"), "vr"] == pytest.approx(2 / 3)
    assert math.isnan(t.loc[("MR-A", "n"), "vr"]) and math.isnan(t.loc[("MR-A", "n"), "vr_low"])


def test_summary_options() -> None:
    res = hand_results()
    assert "Overall" not in set(res.summary(overall=False)["relation"])
    by_model = res.summary(by=("model",))
    assert list(by_model["model"]) == ["m", "n"] and list(by_model["groups"]) == [6, 1]
    empty = Results.empty().summary()
    assert len(empty) == 0 and list(empty.columns) == list(SUMMARY_COLUMNS)


def test_results_views() -> None:
    res = hand_results()
    assert len(res) == 11 and list(res.frame.columns) == list(COLUMNS)
    assert len(res.violations()) == 4 and set(res.violations()["verdict"]) == {"violation"}
    assert "error" not in set(res.without_errors().frame["verdict"])
    sources, followups = res.inputs(0)
    assert sources == [X] and followups == [X.swapped()]
    assert "11 groups" in repr(res)
    with pytest.raises(InputError, match="columns"):
        Results(pd.DataFrame({"relation": ["x"]}))
    both = Results.concat([hand_results(), hand_results()])
    assert len(both) == 22 and both.frame.index.tolist() == list(range(22))


# -- persistence ----------------------------------------------------------------------------
def run_results() -> Results:
    data = pd.DataFrame({"markup": [
        "[[John|PERSON]] is <<Mary|PERSON>>'s father.",
        "[[Lily|PERSON]] is <<Mary|PERSON>>'s sister.",
        "[[Richard|PERSON]] was born in <<San Francisco|CITY>>.",
        "[[Zoë|PERSON]] — “quoted”, comma, <<Köln|CITY>>\ttab.",
    ]}, index=[5, 6, 7, 8])

    def model(x: RelationInput) -> object:
        if "father" in x.text:
            return {"per:children": 0.8, "per:parents": 0.2}
        if "sister" in x.text:
            return ("per:siblings", 0.5)
        return "per:city_of_birth"

    return mt.run(data, ["MR-S1", "MR-S2", "MR-R2"], {"m": model, "nobody": lambda x: "no_relation"},
                  cache=PredictionCache())


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
def test_save_load_round_trip(tmp_path: Path, suffix: str) -> None:
    res = run_results()
    assert {"pass", "violation", "not_applicable"} <= set(res.frame["verdict"])
    path = res.save(tmp_path / "sub" / f"results{suffix}")
    assert path.exists()
    back = Results.load(path)
    pd.testing.assert_frame_equal(back.frame, res.frame, check_dtype=suffix != ".csv")
    # nested columns come back as plain structures, readable into typed inputs again
    assert back.inputs(0) == res.inputs(0)
    pd.testing.assert_frame_equal(back.summary(), res.summary())


def test_save_load_empty_and_errors(tmp_path: Path) -> None:
    Results.empty().save(tmp_path / "empty.jsonl")
    assert len(Results.load(tmp_path / "empty.jsonl")) == 0
    res = hand_results()
    with pytest.raises(InputError, match=r"\.jsonl, \.parquet or \.csv"):
        res.save(tmp_path / "results.xlsx")
    (tmp_path / "results.txt").write_text("x")
    with pytest.raises(InputError, match=r"\.jsonl, \.parquet or \.csv"):
        Results.load(tmp_path / "results.txt")
    with pytest.raises(InputError, match="does not exist"):
        Results.load(tmp_path / "missing.jsonl")


# -- report ---------------------------------------------------------------------------------
def test_report_escapes_hostile_text(tmp_path: Path) -> None:
    hostile = "<img src=x onerror=alert(1)>"
    markup = f"[[John|PERSON]] said {hostile} to <<Mary|PERSON>>."
    x = RelationInput.parse(markup)
    assert hostile in x.text
    res = mt.run([markup], ["MR-S1"], {"<script>alert(2)</script>": lambda x: "per:siblings" if x.head_text == "John"
                                        else "no_relation"}, cache=PredictionCache())
    assert list(res.frame["verdict"]) == ["violation"]
    out = res.report(tmp_path / "report.html", title="<b>run</b>")
    page = out.read_text(encoding="utf-8")
    assert hostile not in page and "<script>" not in page and "<b>run</b>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "&lt;b&gt;run&lt;/b&gt;" in page
    assert "Example violations" in page
