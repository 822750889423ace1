"""notebooks/systematicity.ipynb: written by its script, shipped without outputs, and executed
headless (nbclient) into the paper's Tables 1-5 in miniature: the rows and columns each table
promises, values that are the engine's aggregate rows (and, for one cell of Table 1, the
definition counted pair by pair from the models' own scores), counts that add up across
slices, the three diagrams as SVG, and the Explorer open on a violating pair with every
model's verdict."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from mtwidgets.systematicity import TABLE_1

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "systematicity.ipynb"
SCRIPT = "make_systematicity_notebook.py"
SENTIMENT = ["sentiment-vader", "sentiment-textblob", "sentiment-spacy-textcat"]
LEXICAL = ["lexical-spacy-vectors", "lexical-minilm"]
COUNTS = ["model", "slice", "tests", "satisfied", "violations", "not_applicable", "errors", "safety"]
WIDGET = "application/vnd.jupyter.widget-view+json"

# Appended to the executed notebook: its tables and the engine's rows as JSON, for checks by
# value; and one cell of Table 1 recounted by the pairwise definition (O(k^2), brute_force)
# from scores the model gives when called directly, outside mt.run and its cache.
DUMP = """
import json as _json
from mtwidgets.systematicity import TABLE_1 as _T1, PositiveScore as _Pos, brute_force as _brute

def _records(frame, cols=None):
    frame = frame if cols is None else frame[cols]
    return _json.loads(frame.to_json(orient='records', force_ascii=False, double_precision=15))

_COUNTS = ['model', 'slice', 'tests', 'satisfied', 'violations', 'not_applicable', 'errors', 'safety']
_model, _sentence = sentiment['sentiment-textblob'], _T1[0]
_reader = _Pos()
_s = [_reader.score(p) for p in _model.predict(texts)]
_f = [_reader.score(p) for p in _model.predict([x.with_text(_sentence.apply(x.text)) for x in texts])]
(_sat, _viol, _na), _ = _brute(_s, _f)
_json.dump({
    'k': len(texts),
    'texts': [x.display() for x in texts],
    'table1': _records(table1),
    'sys_rows': _records(sys_rows, _COUNTS),
    'table2_model': table2_model,
    'table2_rows': table2_rows,
    'table2': _records(worst),
    'panel_worst': _records(panel.worst_sources('pairwise-systematicity', table2_model)),
    'brute': {'model': 'sentiment-textblob', 'label': _sentence.label, 'satisfied': _sat, 'violations': _viol,
              'not_applicable': _na},
    'compositions': len(material),
    'contexts': sorted({x.context for x in material}),
    'monotonicity': {x.context: x.monotonicity for x in material},
    'insertions': sorted({f'({x.a}, {x.b})' for x in material}),
    'comp_rows': _records(comp_rows, _COUNTS),
    'comp_overall': {k: v for k, v in comp_overall.items() if k.startswith(('probe', 'entailment'))},
    'table3': _records(table3),
    'table4': _records(table4),
    'up_down': _records(up_down),
    'lexical_words': lexical_words,
    'lexical_langs': list(lexical_langs),
    'lex_rows': _records(lex_rows, _COUNTS + ['relation']),
    'table5': {'index': list(table5.index), 'columns': [list(c) for c in table5.columns],
               'values': [[None if v != v else float(v) for v in row] for row in table5.to_numpy().tolist()]},
    'example': example,
    'explorer': {'relation': explorer.relation, 'option': explorer.case_option, 'index': explorer.index,
                 'partners': [p.display() for p in explorer.partners], 'verdicts': explorer.verdicts},
}, open('tables.json', 'w'), default=str, ensure_ascii=False)
"""


def test_the_notebook_is_what_its_script_writes_and_ships_without_outputs(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"  # the script writes into ../notebooks of its own folder
    scripts.mkdir()
    (tmp_path / "notebooks").mkdir()
    for name in ("_notebook.py", SCRIPT):
        shutil.copy(ROOT / "scripts" / name, scripts / name)
    subprocess.run([sys.executable, str(scripts / SCRIPT)], check=True, capture_output=True, cwd=scripts)
    written = json.loads((tmp_path / "notebooks" / "systematicity.ipynb").read_text("utf-8"))
    shipped = json.loads(NOTEBOOK.read_text("utf-8"))
    assert written == shipped, f"notebooks/systematicity.ipynb is stale: run scripts/{SCRIPT}"
    code = [c for c in shipped["cells"] if c["cell_type"] == "code"]
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)
    assert "".join(code[0]["source"]).startswith("# parameters")


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """The notebook executed as shipped, and its tables dumped as JSON."""
    import nbformat
    from nbclient import NotebookClient

    out = tmp_path_factory.mktemp("systematicity")
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


def _row(rows: list[dict[str, Any]], **match: Any) -> dict[str, Any]:
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (match, len(found))
    return found[0]


def _close(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12))


@pytest.mark.slow
def test_every_cell_runs_without_an_error(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, _ = executed
    errors = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"] if o["output_type"] == "error"]
    assert errors == []
    took = re.search(r"notebook ran in ([\d.]+) s", _text(nb["cells"][-2]["outputs"]))
    assert took is not None and float(took.group(1)) > 0


@pytest.mark.slow
def test_the_three_diagrams_are_svg(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, _ = executed
    (shown,) = [o for o in _outputs(nb, "diagrams = ") if "text/html" in o.get("data", {})]
    html = shown["data"]["text/html"]
    root = ET.fromstring(html)  # the HTML that holds them is well-formed XML, the SVGs included
    svgs = root.findall(".//{http://www.w3.org/2000/svg}svg")
    assert len(svgs) == 3
    assert "<script" not in html.lower() and "http://" not in html.replace("http://www.w3.org/", "")


@pytest.mark.slow
def test_table_1_is_the_aggregate_rows_and_the_definition(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, t = executed
    k, rows, table = t["k"], t["sys_rows"], t["table1"]
    assert [r["Concatenated Text"] for r in table[:-1]] == [c.text for c in TABLE_1]
    assert [r["Position"] for r in table[:-1]] == [c.position.capitalize() for c in TABLE_1]
    assert table[-1]["Position"] == "All" and table[-1]["paper (RoBERTa)"] is None
    assert [r["paper (RoBERTa)"] for r in table[:-1]] == [0.900, 0.910, 0.922, 0.932, 0.943, 0.955]
    for model in SENTIMENT:
        overall = _row(rows, model=model, slice="overall")
        slices = [_row(rows, model=model, slice=f"transformation={c.label}") for c in TABLE_1]
        for cell, r in zip(table, [*slices, overall]):
            assert _close(cell[model], r["safety"])
            assert math.isclose(r["safety"], r["satisfied"] / (r["satisfied"] + r["violations"]), rel_tol=1e-12)
        # every English sample text takes every sentence: all k(k - 1) ordered pairs tested
        assert all(r["tests"] == r["satisfied"] + r["violations"] == k * (k - 1) for r in slices)
        for key in ("tests", "satisfied", "violations", "not_applicable", "errors"):
            assert overall[key] == sum(r[key] for r in slices)
        assert 0.5 < overall["safety"] < 1.0
    # one cell counted pair by pair from the model's own scores agrees with the O(k log k) count
    brute = t["brute"]
    r = _row(rows, model=brute["model"], slice=f"transformation={brute['label']}")
    assert (brute["satisfied"], brute["violations"]) == (r["satisfied"], r["violations"])
    assert brute["not_applicable"] == 0


@pytest.mark.slow
def test_table_2_lists_the_worst_and_best_sources(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, t = executed
    k, n, table = t["k"], t["table2_rows"], t["table2"]
    worst, best = table[:n], table[n:]
    assert len(worst) == n and 1 <= len(best) <= 3
    assert [r["Safety"] for r in worst] == sorted(r["Safety"] for r in worst)
    assert max(r["Safety"] for r in worst) <= min(r["Safety"] for r in best)
    assert worst[0]["violations"] > 0
    for r in table:
        # each source is in 2(k - 1) ordered pairs under each of the six sentences
        assert r["satisfied"] + r["violations"] == 2 * (k - 1) * len(TABLE_1)
        assert math.isclose(r["Safety"], r["satisfied"] / (r["satisfied"] + r["violations"]))
        assert r["Source Input"] == t["texts"][r["source_index"]]
        assert r["Pred."] in {"positive", "negative", "neutral"} and r["Gold"] in {"positive", "negative", "neutral"}
    # the Batch panel's worst sources of the same model are Table 2's
    panel = t["panel_worst"]
    assert [p["source_index"] for p in panel[:n]] == [r["source_index"] for r in worst]
    assert all(math.isclose(p["safety"], r["Safety"]) for p, r in zip(panel, worst))


@pytest.mark.slow
def test_tables_3_and_4_cover_every_context_and_insertion_pair(
        executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, t = executed
    rows, table3, table4 = t["comp_rows"], t["table3"], t["table4"]
    overall = _row(rows, slice="overall")
    up, down = _row(rows, slice="monotonicity=up"), _row(rows, slice="monotonicity=down")
    assert overall["tests"] > 1000 and up["tests"] > 0 and down["tests"] > 0
    for key in ("tests", "satisfied", "violations"):
        assert overall[key] == up[key] + down[key]
    assert [r["safety"] for r in t["up_down"]] == [overall["safety"], up["safety"], down["safety"]]
    assert [r["paper (RoBERTa)"] for r in t["up_down"]] == [0.5936, 0.6880, 0.4808]
    # Table 3: one row per context of the material, sorted by safety, counts adding up by monotonicity
    assert len(table3) == len(t["contexts"]) > 10
    assert [r["Safety"] for r in table3] == sorted(r["Safety"] for r in table3)
    assert {r["Mon."] for r in table3} == {"Up", "Down"}
    for mono, part in (("Up", up), ("Down", down)):
        assert sum(r["tests"] for r in table3 if r["Mon."] == mono) == part["tests"]
    contexts = [r for r in rows if r["slice"].startswith("context=")]
    assert sorted(r["safety"] for r in contexts) == [r["Safety"] for r in table3]
    # Table 4: one row per insertion pair; each tested pair of compositions involves two of them
    assert sorted(r["Insertion Pair"] for r in table4) == t["insertions"]
    assert [r["Safety"] for r in table4] == sorted(r["Safety"] for r in table4)
    assert {r["Lex. Rel."] for r in table4} == {"⊇", "⊆", "none"}
    assert sum(r["tests"] for r in table4) == 2 * overall["tests"]
    probe = t["comp_overall"]
    assert 0.6 <= probe["probe_accuracy"] <= 1.0 and 0.5 <= probe["entailment_accuracy"] <= 1.0
    printed = _text(_outputs(nb, "from mtwidgets.nli import compositions"))
    assert f"held-out accuracy {probe['probe_accuracy']:.3f}" in printed
    assert f"{t['compositions']} compositions" in printed


@pytest.mark.slow
def test_table_5_is_safety_per_language_model_and_relation(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, t = executed
    rows, table = t["lex_rows"], t["table5"]
    assert table["index"] == t["lexical_langs"] == ["en", "zh"]
    assert table["columns"] == [[m, r] for m in LEXICAL for r in ("transitivity-syn", "transitivity-hyp")] + [
        ["paper (XLM-R)", "transitivity-syn"], ["paper (XLM-R)", "transitivity-hyp"]]
    n = t["lexical_words"]
    for i, lang in enumerate(table["index"]):
        for (model, relation), value in zip(table["columns"], table["values"][i]):
            if model.startswith("paper"):
                continue
            found = [r for r in rows if (r["model"], r["relation"], r["slice"]) == (model, relation, f"language={lang}")]
            if not found:  # no head of this model for this language
                assert value is None
                continue
            (r,) = found
            assert _close(value, r["safety"]) and 0.0 < value <= 1.0
            # every ordered triplet of distinct words is tested, not applicable or an error
            assert r["tests"] + r["not_applicable"] + r["errors"] == n * (n - 1) * (n - 2)
            assert r["tests"] > 0
    # English has both relations for both models, Chinese synonymy for MiniLM (Cilin)
    assert all(v is not None for v in table["values"][0][:4])
    assert table["values"][1][2] is not None


@pytest.mark.slow
def test_the_explorer_opens_on_a_violating_pair(executed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    nb, t = executed
    outputs = _outputs(nb, "example = next(")
    assert any(WIDGET in o.get("data", {}) for o in outputs)
    ex, shown = t["example"], t["explorer"]
    assert shown["relation"] == "pairwise-systematicity" and shown["option"] == ex["transformation"]
    assert shown["index"] == ex["x1"]["source_index"] and shown["partners"] == [ex["x2"]["text"]]
    # every model has a verdict on the pair; Table 2's model judges it as the run counted it
    assert set(shown["verdicts"]) == set(SENTIMENT)
    assert set(shown["verdicts"].values()) <= {"pass", "violation"}
    assert shown["verdicts"][t["table2_model"]] == ex["verdict"] == "violation"
    printed = _text(outputs)
    assert ex["transformation"] in printed and "order" in printed
    assert any(WIDGET in o.get("data", {}) for o in _outputs(nb, "panel = mt.BatchPanel("))
