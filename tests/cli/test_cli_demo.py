"""The headless entry points a user runs: `mtwidgets run`, `mtwidgets demo --headless`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mtwidgets as mt
from mtwidgets.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_run_writes_results_and_report_for_every_relation_and_model(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data.jsonl"
    sample = mt.datasets.re_sample()
    # A slice that still meets every relation's precondition: a few examples of each focus.
    picked = sample.groupby("focus", sort=False).head(4)
    data.write_text("\n".join(json.dumps({"markup": m}) for m in picked["markup"]) + "\n")
    out, report = tmp_path / "res.parquet", tmp_path / "report.html"
    rc = main(["run", "--task", "re", "--data", str(data), "--relations", "all",
               "--models", "re-patterns,re-minilm", "--out", str(out), "--report", str(report), "--quiet"])
    assert rc == 0
    results = mt.Results.load(out)
    summary = results.summary()
    assert set(results.frame["model"]) == {"re-patterns", "re-minilm"}
    assert set(results.frame["relation"]) == {"MR-R1", "MR-R2", "MR-R3", "MR-R4", "MR-S1", "MR-S2", "MR-C1", "MR-C2"}
    overall = summary[summary["relation"] == "Overall"]
    assert len(overall) == 2 and (overall["groups"] > 0).all()
    html = report.read_text()
    assert "<svg" in html and "MR-C2" in html and "Overall" in html
    printed = capsys.readouterr().out
    assert "Overall" in printed and "model inputs predicted" in printed


def test_run_reports_bad_rows_and_unknown_models(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data.csv"
    data.write_text("text,head,tail\nJohn met Mary.,John,Mary\nNo entities here.,Bob,Alice\n")
    rc = main(["run", "--data", str(data), "--models", "no-such-model", "--quiet"])
    assert rc == 2
    assert "unknown model(s) ['no-such-model']" in capsys.readouterr().err
    rc = main(["run", "--data", str(tmp_path / "missing.csv"), "--models", "re-patterns", "--quiet"])
    assert rc == 2
    assert "does not exist" in capsys.readouterr().err


def test_catalogue_and_models_commands(capsys) -> None:
    assert main(["catalogue"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("MR-R1", "MR-R4", "MR-S2", "MR-C2"))
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "re-patterns" in out and "re-minilm" in out


@pytest.mark.slow
def test_headless_demo_executes_the_quickstart(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mtwidgets.cli", "demo", "--headless", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=1500,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = (tmp_path / "quickstart_report.html").read_text()
    assert "Violation rates" in report and "re-minilm" in report and "re-patterns" in report
    executed = json.loads((tmp_path / "quickstart.executed.ipynb").read_text())
    errors = [o for c in executed["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert errors == []
    results = mt.Results.load(tmp_path / "quickstart_results.jsonl")
    assert len(results.frame) > 1000
