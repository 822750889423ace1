"""The CLI names no task: `--task` is any registered task or inferred, each task brings its
own options, and errors list the registered tasks on one line."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

import mtwidgets as mt
from mtwidgets.cli import build_parser, main
from mtwidgets.core.task import task_names


def test_tasks_command_lists_every_registered_task(capsys) -> None:
    assert main(["tasks"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[0].split()[:2] == ["name", "title"]
    for task in mt.core.task.tasks():
        assert task.name in out and task.title in out
        assert all(m.name in out for m in task.models)
    assert "Relation extraction" in out and "Named entity recognition" in out


def test_tasks_command_shows_a_registered_plug_in(shout_task, capsys) -> None:
    assert main(["tasks"]) == 0
    out = capsys.readouterr().out
    assert "shout" in out and "Shout detection" in out and "shout-caps" in out


def test_unknown_task_is_one_line_listing_the_registered_tasks(tmp_path: Path, capsys) -> None:
    rc = main(["run", "--task", "sentiment", "--data", "sample", "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.strip() == f"error: no task named 'sentiment'; registered tasks: {', '.join(task_names())}"
    assert main(["catalogue", "--task", "sentiment"]) == 2
    assert "registered tasks: re, ner" in capsys.readouterr().err


def test_sample_data_needs_a_task_unless_relations_or_models_tell(capsys) -> None:
    rc = main(["run", "--data", "sample", "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--data sample needs --task" in err and "re, ner" in err


def test_data_no_task_fits_is_an_error_listing_the_tasks(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data.csv"
    data.write_text("sentence\nJohn met Mary.\n")
    rc = main(["run", "--data", str(data), "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot tell the task" in err and "pass --task" in err and "re, ner" in err


def test_the_task_is_inferred_from_relations_models_and_data(tmp_path: Path) -> None:
    from mtwidgets.cli import _run_task

    parser = build_parser()

    def task_of(*argv: str) -> str:
        return str(_run_task(parser.parse_args(["run", *argv])).name)

    assert task_of("--data", "sample", "--relations", "TIN-token") == "ner"
    assert task_of("--data", "sample", "--models", "re-patterns") == "re"
    assert task_of("--data", "ner_sample") == "ner"
    markup = tmp_path / "re.jsonl"
    markup.write_text(json.dumps({"markup": "[[John]] met <<Mary>>."}) + "\n")
    assert task_of("--data", str(markup)) == "re"
    gold = tmp_path / "ner.csv"
    pd.DataFrame({"text": ["John met Mary."], "entities": ["[]"]}).to_csv(gold, index=False)
    assert task_of("--data", str(gold)) == "ner"
    assert task_of("--task", "re", "--data", str(gold)) == "re"  # --task wins


def test_each_task_adds_its_options_in_a_group_titled_by_the_task() -> None:
    import contextlib
    import io

    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), contextlib.suppress(SystemExit):
        build_parser().parse_args(["run", "--help"])
    group = shown.getvalue().split("Named entity recognition:\n", 1)[1]
    assert "options for --task ner" in group
    assert group.index("--no-repair") < group.index("--fill-mask") < group.index("--granularity")
    args = build_parser().parse_args(
        ["run", "--task", "ner", "--data", "sample", "--no-repair", "--granularity", "coarse", "--fill-mask", "m"]
    )
    assert args.no_repair and args.granularity == "coarse" and args.fill_mask == "m"
    from mtwidgets.ner.cli import CLI

    assert CLI().relation_options(args) == {"granularity": "coarse"}
    assert CLI().relation_options(build_parser().parse_args(["run", "--data", "x.csv"])) == {}


def test_a_plug_in_task_runs_from_the_cli_with_its_report_section(shout_task, tmp_path: Path, capsys) -> None:
    out, report = tmp_path / "out", tmp_path / "report.html"
    rc = main(["run", "--task", "shout", "--data", "sample", "--out", str(out), "--report", str(report), "--quiet"])
    assert rc == 0, capsys.readouterr().err
    results = mt.Results.load(out / "results.jsonl")
    assert set(results.frame["task"]) == {"shout"} and set(results.frame["relation"]) == {"SHOUT-spacing"}
    assert not list(out.glob("*.csv"))  # the toy task has no CLI part: no tables
    html = report.read_text()
    assert "shout-section" in html and "spacing violations" in html


def test_write_report_adds_the_task_sections_and_extra_sections(tmp_path: Path) -> None:
    from mtwidgets.report import write_report

    data = pd.DataFrame({"markup": ["[[John|PERSON]] is <<Mary|PERSON>>'s father."]})
    results = mt.run(data, ["MR-S2"], {"const": mt.models.CallableModel(lambda x: "per:parents", name="const")})
    html = write_report(results, tmp_path / "r.html", title="t <1>",
                        sections=["<h2>Extra</h2>"], context=object()).read_text()
    assert "<title>t &lt;1&gt;</title>" in html and "<h2>Extra</h2>" in html
    assert "TIN" not in html  # relation extraction declares no report part
