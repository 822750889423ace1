"""notebooks/chinese_nlp.ipynb: written by its script, shipped without outputs, and executed
headless (nbclient, as ``mtwidgets demo --headless`` runs the quickstart) into the paper's
tables in miniature: the rows and columns each table promises, VRs that agree with their
group counts, the per-topic tables' ``All`` row equal to the model's row of the VR table."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mtwidgets.text.relations import names

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "chinese_nlp.ipynb"

MODELS = {
    ("similarity", "en"): ["similarity-minilm", "similarity-spacy-vectors"],
    ("similarity", "zh"): ["zh-similarity-bm25", "zh-similarity-tfidf"],
    ("summarization", "en"): ["summary-lead", "summary-textrank-minilm"],
    ("summarization", "zh"): ["zh-summary-snownlp", "zh-summary-textrank"],
    ("classification", "en"): ["sentiment-vader", "sentiment-textblob", "sentiment-spacy-textcat", "topic-minilm"],
    ("classification", "zh"): ["zh-sentiment-snownlp"],
}
TASKS = ("similarity", "summarization", "classification")

# Appended to the executed notebook: its tables as JSON, for checks by value.
DUMP = """
import json as _json
def _frame(table):
    return {'index': [list(i) if isinstance(i, tuple) else i for i in table.index], 'columns': list(table.columns),
            'values': [[None if v != v else float(v) for v in row] for row in table.to_numpy().tolist()]}
_json.dump({
    'models': {f'{t}/{l}': m for (t, l), m in MODELS.items()},
    'sources': {f'{t}/{l}': len(subsample(t, l)) for (t, l) in MODELS},
    'topics': {l: sorted({x.topic for x in subsample('classification', l)}) for l in LANGS},
    'vr': {t: _frame(vr_table(t)) for t in ('similarity', 'summarization', 'classification')},
    'groups': {t: _frame(groups_table(t)) for t in ('similarity', 'summarization', 'classification')},
    'by_topic': {f'{l}/{m}': _frame(t) for (l, m), t in topic_tables.items()},
    'accuracy': accuracy.reset_index().to_dict(orient='records'),
}, open('tables.json', 'w'), default=str)
"""


def test_the_notebook_is_what_its_script_writes_and_ships_without_outputs(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"  # the script writes into ../notebooks of its own folder
    scripts.mkdir()
    (tmp_path / "notebooks").mkdir()
    for name in ("_notebook.py", "make_chinese_nlp_notebook.py"):
        shutil.copy(ROOT / "scripts" / name, scripts / name)
    subprocess.run([sys.executable, str(scripts / "make_chinese_nlp_notebook.py")], check=True,
                   capture_output=True, cwd=scripts)
    written = json.loads((tmp_path / "notebooks" / "chinese_nlp.ipynb").read_text("utf-8"))
    shipped = json.loads(NOTEBOOK.read_text("utf-8"))
    assert written == shipped, "notebooks/chinese_nlp.ipynb is stale: run scripts/make_chinese_nlp_notebook.py"
    code = [c for c in shipped["cells"] if c["cell_type"] == "code"]
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)
    assert "".join(code[0]["source"]).startswith("# parameters")


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """The notebook executed as shipped, and its tables dumped as JSON."""
    import nbformat
    from nbclient import NotebookClient

    out = tmp_path_factory.mktemp("chinese_nlp")
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(DUMP))
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(out)}}).execute()
    return dict(nb), json.loads((out / "tables.json").read_text("utf-8"))


def _outputs(nb: dict[str, Any], start: str) -> list[dict[str, Any]]:
    """The outputs of the code cell whose source starts with ``start``."""
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and c["source"].startswith(start))
    return list(cell["outputs"])


def _text(outputs: list[dict[str, Any]]) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in outputs)


@pytest.mark.slow
def test_every_cell_runs_without_an_error(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, _ = executed
    errors = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"] if o["output_type"] == "error"]
    assert errors == []
    took = re.search(r"notebook ran in ([\d.]+) s", _text(nb["cells"][-2]["outputs"]))
    assert took is not None and float(took.group(1)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS)
def test_the_vr_table_has_a_row_per_model_and_a_column_per_relation(
        executed: tuple[dict[str, Any], dict[str, Any]], task: str) -> None:
    nb, tables = executed
    vr, groups = tables["vr"][task], tables["groups"][task]
    expected_rows = [[lang, m] for lang in ("en", "zh") for m in sorted(MODELS[task, lang])]
    assert sorted(vr["index"]) == expected_rows and sorted(groups["index"]) == expected_rows
    assert vr["columns"] == list(names(task)) == groups["columns"]
    for vrs, counts in zip(vr["values"], groups["values"]):
        for value, n in zip(vrs, counts):
            assert (value is None) == (n == 0)  # a VR exactly where some group applied
            assert value is None or 0.0 <= value <= 100.0
    # MR7.1 swaps every pair: it applies to every source of the similarity subsample
    if task == "similarity":
        swap = groups["columns"].index("MR7.1")
        for (lang, _), counts in zip(groups["index"], groups["values"]):
            assert counts[swap] == tables["sources"][f"similarity/{lang}"]
    # the displayed table names every model and relation
    shown = _text(_outputs(nb, f"run('{task}')"))
    assert all(m in shown for lang in ("en", "zh") for m in MODELS[task, lang])
    assert all(r in shown for r in names(task))


@pytest.mark.slow
def test_the_per_topic_tables_have_a_row_per_topic_and_all(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, tables = executed
    vr = tables["vr"]["classification"]
    by_model = {tuple(i): row for i, row in zip(vr["index"], vr["values"])}
    expected = {f"{lang}/{m}" for lang in ("en", "zh") for m in MODELS["classification", lang]}
    assert set(tables["by_topic"]) == expected
    for key, table in tables["by_topic"].items():
        lang, model = key.split("/")
        assert table["columns"] == list(names("classification"))
        assert sorted(table["index"][:-1]) == tables["topics"][lang] and table["index"][-1] == "All"
        all_row = table["values"][-1]
        for got, want in zip(all_row, by_model[lang, model]):
            assert (got is None and want is None) or math.isclose(got, want)
    printed = _text(_outputs(nb, "def topic_table"))
    assert printed.count("VR (%) by topic") == len(expected) and "society" in printed and "sport" in printed


@pytest.mark.slow
def test_the_accuracy_table_scores_every_model_on_the_gold(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, tables = executed
    rows = {(r["task"], r["lang"], r["model"]): r for r in tables["accuracy"]}
    assert set(rows) == {(t, lang, m) for (t, lang), models in MODELS.items() for m in models}
    for (task, _, model), row in rows.items():
        assert 0.0 <= row["MT 1-VR (%)"] <= 100.0 and row["groups"] > 0
        if task == "summarization":
            assert row["metric"] == "-"
            continue
        metric = {"similarity": "Pearson r", "classification": "sentiment accuracy"}[task]
        assert row["metric"] == ("topic accuracy" if model == "topic-minilm" else metric)
        assert 0.0 <= row["on gold (%)"] <= 100.0
    # the topic model and the similarity models are far better than chance on the samples
    assert rows["classification", "en", "topic-minilm"]["on gold (%)"] >= 60
    assert all(rows["similarity", lang, m]["on gold (%)"] >= 50 for (t, lang), ms in MODELS.items()
               if t == "similarity" for m in ms)


@pytest.mark.slow
def test_the_explorer_opens_on_the_papers_pair(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, _ = executed
    outputs = _outputs(nb, "from mtwidgets.text.inputs import SimilarityInput")
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    printed = _text(outputs)
    # the relation shown, its follow-up pair and both models' verdicts
    assert re.match(r"MR[1-7]\.1 \[\('", printed) and printed.count("小明") >= 2
    assert "'zh-similarity-bm25': '" in printed and "'zh-similarity-tfidf': '" in printed
