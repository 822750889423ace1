"""`mtwidgets run --task ner`: results, the TIN tables and the report from a data file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.cli import main

ROWS: list[dict[str, Any]] = [
    {
        "id": "a",
        "text": "Elena Marchetti is the new finance minister of Italy.",
        "entities": [{"start": 0, "end": 15, "label": "PERSON"}, {"start": 47, "end": 52, "label": "GPE"}],
    },
    {
        "id": "b",
        "text": "The European Commission fined Nordvik Telecom 240 million euros for blocking rival networks.",
        "entities": [
            {"start": 4, "end": 23, "label": "ORG"},
            {"start": 30, "end": 45, "label": "ORG"},
            {"start": 46, "end": 63, "label": "MONEY"},
        ],
    },
    {
        "id": "c",
        "text": "Nadia Haddad is a cautious and pragmatic negotiator.",
        "entities": [{"start": 0, "end": 12, "label": "PERSON"}],
    },
    {
        "id": "d",
        "text": "Adele met Elena Marchetti in Paris and London.",
        "entities": [
            {"start": 0, "end": 5, "label": "PERSON"},
            {"start": 10, "end": 25, "label": "PERSON"},
            {"start": 29, "end": 34, "label": "GPE"},
            {"start": 39, "end": 45, "label": "GPE"},
        ],
    },
    {
        "id": "e",
        "text": "Gabriel Santos, Marta Ferreira and Joao Pinto will lead the coalition talks.",
        "entities": [
            {"start": 0, "end": 14, "label": "PERSON"},
            {"start": 16, "end": 30, "label": "PERSON"},
            {"start": 35, "end": 45, "label": "PERSON"},
        ],
    },
    {
        "id": "bad",
        "text": "Overlapping gold here.",
        "entities": [{"start": 0, "end": 11, "label": "ORG"}, {"start": 5, "end": 16, "label": "ORG"}],
    },
]


def _data(tmp_path: Path) -> Path:
    for r in ROWS:
        for e in r["entities"]:
            assert r["text"][e["start"] : e["end"]].strip() == r["text"][e["start"] : e["end"]]
    path = tmp_path / "ner.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n")
    return path


@pytest.mark.slow
def test_ner_run_writes_results_tables_and_a_report_with_the_tin_sections(tmp_path: Path, capsys) -> None:
    out, report = tmp_path / "out", tmp_path / "report.html"
    rc = main(
        [
            "run",
            "--task",
            "ner",
            "--data",
            str(_data(tmp_path)),
            "--models",
            "ner-spacy-sm",
            "--relations",
            "all",
            "--out",
            str(out),
            "--report",
            str(report),
            "--quiet",
        ]
    )
    assert rc == 0
    captured = capsys.readouterr()
    assert "row bad" in captured.err and "overlap" in captured.err  # the bad row is skipped, and said so
    results = mt.Results.load(out / "results.jsonl")
    assert set(results.frame["relation"]) == {"TIN-token", "TIN-phrase", "TIN-question", "TIN-shuffle"}
    assert set(results.frame["task"]) == {"ner"} and len(set(results.frame["source_index"])) == 5
    precision = pd.read_csv(out / "ner_precision.csv")
    overall = precision[precision["relation"] == "Overall"].iloc[0]
    assert overall["issues"] == (results.frame["verdict"] == "violation").sum()
    assert overall["issues"] >= 1  # these sentences were picked for known spaCy-sm inconsistencies
    repair = pd.read_csv(out / "ner_repair.csv")
    assert repair.loc[0, "NumError"] + repair.loc[0, "NumCorrect"] > 0
    issues = pd.read_csv(out / "ner_issues.csv")
    assert len(issues) == overall["issues"] and issues["suspicious"].str.contains("in the source").all()
    html = report.read_text()
    for heading in ("TIN Table 3", "error categories", "TIN Table 6", "example suspicious issues"):
        assert heading in html
    assert "NER suspicious issues and precision" in captured.out and "NER repair" in captured.out


@pytest.mark.slow
def test_ner_run_without_repair_and_with_a_results_file(tmp_path: Path, capsys) -> None:
    out = tmp_path / "res.parquet"
    rc = main(
        [
            "run",
            "--task",
            "ner",
            "--data",
            str(_data(tmp_path)),
            "--models",
            "ner-spacy-sm",
            "--relations",
            "TIN-question",
            "--out",
            str(out),
            "--no-repair",
            "--quiet",
        ]
    )
    assert rc == 0
    printed = capsys.readouterr().out
    assert "NER repair" not in printed and "NER error categories" in printed
    assert set(mt.Results.load(out).frame["relation"]) == {"TIN-question"}


def test_ner_data_errors_are_reported(tmp_path: Path, capsys) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text(json.dumps({"id": 1, "sentence": "No text column."}) + "\n")
    rc = main(["run", "--task", "ner", "--data", str(empty), "--models", "ner-spacy-sm", "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "no usable NER inputs" in err and "'text'" in err
    rc = main(["run", "--task", "ner", "--data", str(tmp_path / "missing.jsonl"), "--quiet"])
    assert rc == 2 and "does not exist" in capsys.readouterr().err


def test_ner_report_sections_render_user_text_literally(tmp_path: Path) -> None:
    from mtwidgets.core.predictions import Prediction
    from mtwidgets.core.relation import Group
    from mtwidgets.core.results import Results, make_row
    from mtwidgets.core.spans import Span
    from mtwidgets.ner.evaluate import evaluate
    from mtwidgets.ner.inputs import NERInput
    from mtwidgets.ner.oracles import SameEntityLabels
    from mtwidgets.report import write_report

    src = NERInput("<b>Acme</b> hired Bob.", (Span(3, 7, "ORG"), Span(18, 21, "PERSON")))
    fu = NERInput("<b>Acme</b> recruited Bob.")
    meta = {"alignment": [[0, 12, 0, 12], [17, 22, 21, 26]]}
    g = Group("TIN-token", 0, (src,), (fu,), "hired -> recruited", 0, 0, meta)
    outs = (
        [Prediction(spans=(Span(3, 7, "ORG"), Span(18, 21, "PERSON")))],
        [Prediction(spans=(Span(3, 7, "PERSON"), Span(22, 25, "PERSON")))],
    )
    results = Results.from_rows([make_row(g, "m", *outs, SameEntityLabels().check(g, *outs))])
    ev = evaluate(results)
    assert ev.precision.set_index("relation").loc["TIN-token", "source_precision"] == 0.0
    html = write_report(results, tmp_path / "r.html", context=ev).read_text()
    assert "<b>Acme" not in html and "&lt;b&gt;Acme&lt;/b&gt;" in html
    assert "&#x27;Acme&#x27;: ORG in the source, PERSON in the follow-up" in html
