"""End to end: mt.run on each task's shipped sample with its embedded models, the per-topic
summary, and the ``mtwidgets run`` command line."""

from __future__ import annotations

from pathlib import Path

import pytest

import mtwidgets as mt
from mtwidgets.cli import main
from mtwidgets.core.task import get_task
from mtwidgets.text import data
from mtwidgets.text.report import summary_by_topic


def test_samples_have_the_promised_size_and_shape() -> None:
    cls = data.classification_sample()
    assert len(cls) >= 200 and all(x.lang == "en" and x.topic for x in cls)
    assert {x.sentiment for x in cls} == {"positive", "neutral", "negative"}
    assert sum(len(x.text.split(". ")) >= 3 for x in cls) >= 190
    pairs = data.similarity_sample()
    assert len(pairs) >= 150 and all(x.score is not None for x in pairs)
    assert {round(x.score, 1) // 0.2 for x in pairs} >= {0, 1, 2, 3, 4}
    assert len(data.summarization_sample()) >= 200
    assert get_task("classification").part("sample")() == cls
    with pytest.raises(KeyError, match="available"):
        data.classification_sample(topic="weather")


@pytest.mark.parametrize("task, models, step", [
    ("classification", ["sentiment-vader", "topic-minilm"], 8),
    # Pairs name a country that is their only geographic fact less often (a person or a place
    # beside it ties the country to the text), so every 4th pair is taken for MR2 to apply.
    ("similarity", ["similarity-minilm", "similarity-spacy-vectors"], 4),
    ("summarization", ["summary-lead", "summary-textrank-minilm"], 8),
])
def test_run_on_the_sample_with_the_embedded_models(task: str, models: list[str], step: int) -> None:
    sources = get_task(task).part("sample")()[::step]
    results = mt.run(sources, relations="all", models={m: mt.models.load(m) for m in models}, task=task)
    summary = results.summary()
    assert set(summary["model"]) == set(models)
    assert not results.errors and (results.frame["verdict"] != "error").all()
    applied = summary[(summary["relation"] != "Overall") & (summary["groups"] > 0)]
    families = {r.split(".")[0] for r in applied["relation"]}
    # sentence reordering applies to round-ups only (two neighbouring sentences that stand alone),
    # which the samples' short news texts seldom are
    assert {"MR2", "MR4"} <= families and len(families) >= 4, families
    by_topic = summary_by_topic(results)
    assert by_topic is not None and set(by_topic["topic"]) == {x.topic for x in sources}


def test_cli_runs_a_text_task_on_its_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["run", "--task", "classification", "--lang", "en", "--data", "sample", "--models",
                 "sentiment-vader", "--limit", "12", "--out", str(out), "--quiet"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "MR1.3" in printed and "VR (%) by topic" in printed
    assert (out / "results.jsonl").exists() and (out / "classification_by_topic.csv").exists()


def test_cli_reads_a_pair_file_with_the_language_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text("sentence1,sentence2,score\nMaria Lopez bought a car in France.,Maria Lopez sold her car.,0.5\n"
                    "The team won.,,0.1\n", encoding="utf-8")
    code = main(["run", "--task", "similarity", "--lang", "en", "--data", str(path), "--models",
                 "similarity-spacy-vectors", "--relations", "MR1.1,MR7.1", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "MR1.1" in captured.out and "1 rows skipped" in captured.err


def test_the_text_tasks_are_named_only_inside_their_package() -> None:
    """The engine's rule (tests/test_task_names.py): only a task's package names it. The
    three tasks' inputs and declarations live in mtwidgets/text; the per-task packages only
    re-export the declaration for the entry points."""
    from test_task_names import task_name_literals

    root = Path(mt.__file__).resolve().parent
    names = {"classification", "similarity", "summarization"}
    for name in names:
        assert get_task(name).input_type.startswith("mtwidgets.text.")
    found = [f"{path.relative_to(root)}:{line}"
             for name in names for path in sorted((root / name).rglob("*.py"))
             for line, _ in task_name_literals(path.read_text("utf-8"), names)]
    assert not found, found


def test_every_relation_builds_at_least_200_sources_per_second() -> None:
    from mtwidgets.text.bench import generation_rates

    rates = generation_rates("en", passes=2)
    assert len(rates) == 21
    slow = [(r["relation"], r["sources_per_s"]) for r in rates if r["sources_per_s"] < 200]
    assert not slow, slow
