"""A task written outside mtwidgets (tests/plugins/shouting: shout detection) works in
mt.run, the report, the CLI (registered through the entry point group, in a fresh process),
the Explorer and the Batch panel, with no edit under mtwidgets/ or js/.

The real-browser half (the Explorer and the Batch panel in JupyterLab) is
tests/browser/test_plugin_lab.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest_shout import install_entry_point

import mtwidgets as mt
from mtwidgets.core.errors import MTError


def test_the_task_is_listed_and_its_relation_catalogued(shout_task: object) -> None:
    frame = mt.tasks()
    assert list(frame["name"])[:2] == ["re", "ner"] and "shout" in set(frame["name"])
    assert list(mt.catalogue("shout")["name"]) == ["SHOUT-spacing"]
    assert "shout-caps" in mt.models.available("shout")


def test_unregistered_it_is_gone_and_errors_list_the_registered_tasks() -> None:
    assert "shout" not in set(mt.tasks()["name"])
    with pytest.raises(MTError, match=r"no task named 'shout'; registered tasks: re, ner"):
        mt.get_task("shout")


def test_generate_takes_a_plain_string(shout_task: object) -> None:
    groups = mt.relation("SHOUT-spacing").generate("GO GO GO", seed=0)
    assert [f.text for f in groups[0].followups] == ["GO  GO  GO"]
    assert mt.relation("SHOUT-spacing").generate("WOW", seed=0)[0].not_applicable == "SHOUT-spacing needs at least two words"


def test_mt_run_finds_the_naive_models_violation(shout_task: object, tmp_path: Path) -> None:
    import shouting

    results = mt.run(shouting.sample(), relations="all", models=["shout-caps"], seed=0)
    frame = results.frame
    assert set(frame["task"]) == {"shout"}
    assert len(frame) == len(shouting.SAMPLE)
    violated = frame[frame["verdict"] == "violation"]
    assert list(violated["source_text"]) == ["GO GO GO"]  # 6/8 capitals, then 6/10
    assert violated["reason"].iloc[0]
    summary = results.summary()
    assert summary.loc[summary["relation"] == "SHOUT-spacing", "violations"].iloc[0] == 1

    # A frame works too: the task's column mode reads 'text'.
    import pandas as pd

    from_frame = mt.run(pd.DataFrame({"text": list(shouting.SAMPLE)}), "all", ["shout-caps"], task="shout", seed=0)
    assert list(from_frame.frame["verdict"]) == list(frame["verdict"])

    # The report carries the task's own section, escaped like the rest.
    report = results.report(tmp_path / "report.html")
    html = Path(report).read_text(encoding="utf-8")
    assert '<section class="shout-section"><h2>Shouting</h2><p>1 spacing violations.</p></section>' in html
    assert "SHOUT-spacing" in html

    # Saved results rebuild their groups.
    results.save(tmp_path / "run.jsonl")
    again = mt.Results.load(tmp_path / "run.jsonl").groups()
    assert [g.followups[0].text for g in again] == [g.followups[0].text for g in results.groups()]


def _fresh_env(plugin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(plugin_dir)
    return env


def test_entry_point_registers_it_in_a_fresh_process_for_the_cli(tmp_path: Path) -> None:
    plugin_dir = install_entry_point(tmp_path / "site")
    data = tmp_path / "messages.csv"
    data.write_text("text\nGO GO GO\nplease pass the salt\nNO WAY\n", encoding="utf-8")
    exe = [sys.executable, "-m", "mtwidgets.cli"]
    env = _fresh_env(plugin_dir)

    listed = subprocess.run([*exe, "tasks"], capture_output=True, text=True, env=env, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert "shout" in listed.stdout and "Shout detection" in listed.stdout

    out, report = tmp_path / "results.jsonl", tmp_path / "report.html"
    ran = subprocess.run(
        [*exe, "run", "--task", "shout", "--data", str(data), "--models", "shout-caps", "--seed", "0",
         "--quiet", "--out", str(out), "--report", str(report)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert "SHOUT-spacing" in ran.stdout
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert [r["verdict"] for r in rows] == ["violation", "pass", "pass"]
    assert "shout-section" in report.read_text(encoding="utf-8")

    # Its results reload and rebuild their groups in another fresh process: the input type
    # comes from the registry on load, not from an import the user had to make.
    code = (
        "import mtwidgets as mt, sys\n"
        f"r = mt.Results.load({str(out)!r})\n"
        "print(type(r.groups()[0].sources[0]).__name__, len(r.groups()))\n"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["ShoutInput", "3"]

    # An unknown task is one line, listing the registered ones.
    bad = subprocess.run([*exe, "run", "--task", "whisper", "--data", str(data)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode != 0
    assert "Traceback" not in bad.stderr
    assert "shout" in bad.stderr and "re" in bad.stderr


def test_explorer_runs_the_task_with_its_view_part(shout_task: object) -> None:
    import shouting

    explorer = mt.Explorer(task="shout", data=shouting.sample(), models=["shout-caps"])
    assert explorer.task == "shout"
    explorer.source = "GO GO GO"
    explorer.relation = "SHOUT-spacing"
    assert [f.text for f in explorer.followups] == ["GO  GO  GO"]
    assert explorer.verdicts["shout-caps"] == "violation"
    state = explorer._input
    assert state["mark_view"] == "text" and state["text"] == "GO GO GO"
    (card,) = explorer._models
    assert card["name"] == "shout-caps" and card["view"] == "label-scores"
    assert [p["label"] for p in card["source"] + card["followup"]] == ["shout", "calm"]


def test_batch_panel_runs_the_task(shout_task: object) -> None:
    import pandas as pd
    import shouting

    frame = pd.DataFrame({"text": list(shouting.SAMPLE)})
    panel = mt.BatchPanel(data=frame, task="shout", models=["shout-caps"], relations="all", seed=0)
    results = panel.run()
    expected = mt.run(frame, "all", ["shout-caps"], task="shout", seed=0)
    cols = ["relation", "model", "group", "source_index", "followup_text", "verdict"]
    assert results.frame[cols].equals(expected.frame[cols])
    picked = panel.select(relation="SHOUT-spacing", model="shout-caps")
    assert list(picked.loc[picked["verdict"] == "violation", "source_text"]) == ["GO GO GO"]
