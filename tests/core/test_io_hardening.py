"""Reading and writing files: exact round trips of any Unicode text (also in a fresh
process), inputs that ``load_inputs`` returned run as they are, and a file that is not what
it should be is one :class:`InputError` naming the file, the line or row, and what to do."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core import data as core_data
from mtwidgets.core.cache import PredictionCache
from mtwidgets.core.data import load_inputs, read_table, row_to_input
from mtwidgets.core.errors import InputError, MTError
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.results import COLUMNS, Results, _jsonable
from mtwidgets.core.spans import Span

ROOT = Path(__file__).resolve().parents[2]

# Characters str.splitlines() breaks a line at although a JSON string may hold them as they
# are (U+2028, U+2029, U+0085, and the C0/C1 separators), and text that tends to get
# mangled on the way: emoji sequences, combining accents, right-to-left scripts, CR/LF.
ODD = [
    "line\u2028sep",
    "para\u2029sep",
    "next\u0085line",
    "vt\x0bff\x0cfs\x1cgs\x1drs\x1e",
    "emoji 👩‍👩‍👧 🇫🇷 ❤️",
    "cafe\u0301 n\u0303",
    "مرحبا שלום",
    'cr\rlf\r\n tab\t "q", NA',
]


# -- results in both shipped tasks, with the odd text in sources and follow-ups ---------------
def re_results() -> Results:
    rows = [f"[[Zoë {i}|PERSON]] met <<Mary|PERSON>> {odd} in Köln." for i, odd in enumerate(ODD)]
    return mt.run(
        pd.DataFrame({"markup": rows}, index=[10 + i for i in range(len(rows))]),
        ["MR-S1", "MR-R1"],
        {"m": lambda x: "per:siblings", "other": lambda x: "no_relation"},
        cache=PredictionCache(),
        seed=3,
    )


def ner_results() -> Results:
    inputs = [
        row_to_input({"text": f"Anna {odd} visited Paris.", "entities": [{"start": 0, "end": 4, "label": "PERSON"}]},
                     "ner")
        for odd in ODD
    ]

    def model(x: Any) -> Prediction:
        return Prediction(spans=(Span(0, 4, "PERSON"),) if x.text.startswith("Anna") else ())

    return mt.run(inputs, ["TIN-question", "TIN-shuffle"], {"f": model}, cache=PredictionCache(), seed=3)


@pytest.fixture(scope="module")
def results() -> dict[str, Results]:
    out = {"re": re_results(), "ner": ner_results()}
    for name, res in out.items():
        texts = " ".join(res.frame["source_text"]) + " ".join(res.frame["followup_text"])
        # the fixture exercises what it claims: every odd string reaches the results
        for odd in ("\u2028", "\u2029", "\u0085", "👩‍👩‍👧", "e\u0301", "שלום"):
            assert odd in texts, (name, odd)
    assert (out["re"].frame["followups"].map(len) > 0).sum() >= len(ODD)
    assert (out["ner"].frame["followups"].map(len) > 0).sum() >= 3
    return out


def canonical(res: Results) -> str:
    """Everything a results file holds, and the typed inputs it rebuilds, as one string."""
    records = [_jsonable(r) for r in res.frame.to_dict("records")]
    inputs = [[[x.to_dict() for x in side] for side in res.inputs(i)] for i in range(len(res))]
    groups = [(g.relation, g.id, [x.to_dict() for x in g.followups]) for g in res.groups()]
    return json.dumps([records, inputs, groups], ensure_ascii=False, sort_keys=True, default=repr)


FRESH = """
import json, sys
from mtwidgets.core.results import Results, _jsonable
res = Results.load(sys.argv[1])
records = [_jsonable(r) for r in res.frame.to_dict("records")]
inputs = [[[x.to_dict() for x in side] for side in res.inputs(i)] for i in range(len(res))]
groups = [(g.relation, g.id, [x.to_dict() for x in g.followups]) for g in res.groups()]
text = json.dumps([records, inputs, groups], ensure_ascii=False, sort_keys=True, default=repr)
open(sys.argv[2], "w", encoding="utf-8", newline="").write(text)
"""


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
@pytest.mark.parametrize("task", ["re", "ner"])
def test_save_load_is_exact_for_any_text_in_a_fresh_process(
    results: dict[str, Results], task: str, suffix: str, tmp_path: Path
) -> None:
    res = results[task]
    path = res.save(tmp_path / f"results{suffix}")
    if suffix == ".jsonl":
        raw = path.read_text(encoding="utf-8")
        assert "\u2028" in raw and "\u0085" in raw  # written as they are, not escaped
        assert len(raw.splitlines()) > len(res)  # so splitting with splitlines() breaks records
        assert raw.count("\n") == len(res)
    back = Results.load(path)
    pd.testing.assert_frame_equal(back.frame, res.frame, check_dtype=suffix != ".csv")
    assert canonical(back) == canonical(res)

    out = tmp_path / "fresh.json"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-c", FRESH, str(path), str(out)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.read_text(encoding="utf-8") == canonical(res)


def test_saved_results_run_again_on_a_model(results: dict[str, Results], tmp_path: Path) -> None:
    path = results["re"].save(tmp_path / "suite.jsonl")
    again = mt.run(Results.load(path), models={"m": lambda x: "per:siblings"}, cache=PredictionCache())
    original = results["re"].frame
    kept = original[original["model"] == "m"].reset_index(drop=True)
    assert again.frame["followup_text"].tolist() == kept["followup_text"].tolist()
    assert again.frame["verdict"].tolist() == kept["verdict"].tolist()


# -- JSON Lines split on "\n" only ------------------------------------------------------------
def test_read_table_keeps_line_separators_inside_json_strings(tmp_path: Path) -> None:
    rows = [{"text": f"row {i}: {odd}", "head": "Zoë", "n": i} for i, odd in enumerate(ODD)]
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    assert read_table(path) == rows
    # CRLF line ends, blank lines and a byte-order mark are fine too
    crlf = tmp_path / "crlf.ndjson"
    crlf.write_bytes(b"\xef\xbb\xbf" + "\r\n\r\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode())
    assert read_table(crlf) == rows


def test_csv_and_parquet_data_keep_odd_text(tmp_path: Path) -> None:
    frame = pd.DataFrame({"text": [f"Anna {odd} visited Paris." for odd in ODD]})
    for suffix in (".csv", ".parquet"):
        path = tmp_path / f"data{suffix}"
        frame.to_csv(path, index=False) if suffix == ".csv" else frame.to_parquet(path, index=False)
        assert [r["text"] for r in read_table(path, "ner")] == frame["text"].tolist()
        assert [x.text for x in load_inputs(path, task="ner").inputs] == frame["text"].tolist()


def test_shipped_samples_read_whole_lines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from mtwidgets.ner import data as ner_data
    from mtwidgets.re import data as re_data

    for module in (ner_data, re_data):  # as many rows as lines in the shipped file
        raw = module.path().read_text(encoding="utf-8")
        shipped = module.sample() if module is ner_data else module.sample().to_dict("records")
        assert len(shipped) == len([line for line in raw.split("\n") if line.strip()])
    odd = tmp_path / "ner.jsonl"
    odd.write_text(
        "".join(json.dumps({"id": i, "topic": "world", "text": f"Anna {o}.",
                            "entities": [{"start": 0, "end": 4, "label": "PERSON"}]}, ensure_ascii=False) + "\n"
                for i, o in enumerate(ODD)),
        encoding="utf-8",
    )
    monkeypatch.setattr(ner_data, "path", lambda: odd)
    assert [x.text for x in ner_data.sample()] == [f"Anna {o}." for o in ODD]
    assert ner_data.sample_frame("entity")["mention"].tolist() == ["Anna"] * len(ODD)
    re_file = tmp_path / "re.jsonl"
    re_file.write_text(
        "".join(json.dumps({"markup": f"[[Zoë|PERSON]] {o} <<Köln|CITY>>."}, ensure_ascii=False) + "\n" for o in ODD),
        encoding="utf-8",
    )
    monkeypatch.setattr(re_data, "path", lambda: re_file)
    assert len(re_data.sample()) == len(ODD)


def test_ner_sample_source_lines_break_at_newlines_only() -> None:
    from mtwidgets.training.build_ner_sample import parse_source

    source = "== politics\n[Anna Ruiz|PERSON] met voters\u2028in [Paris|GPE] on\u0085Monday.\n"
    records = parse_source(source)
    assert len(records) == 1
    assert records[0].text == "Anna Ruiz met voters\u2028in Paris on\u0085Monday."
    assert records[0].entities == ((0, 9, "PERSON"), (24, 29, "GPE"))


# -- what load_inputs returns runs as it is --------------------------------------------------
def test_loaded_data_runs_as_it_is() -> None:
    frame = pd.DataFrame({"markup": ["[[John|PERSON]] is <<Mary|PERSON>>'s father.",
                                     "[[Lily|PERSON]] is <<Mary|PERSON>>'s sister."]}, index=[7, 9])
    loaded = mt.load_inputs(frame)
    res = mt.run(loaded, ["MR-S1"], {"m": lambda x: "per:siblings"}, cache=PredictionCache())
    assert len(res) == 2 and res.frame["source_index"].tolist() == [7, 9]
    ner = mt.load_inputs(mt.datasets.sample("ner")[:3])
    res = mt.run(ner, ["TIN-question"], {"f": lambda x: Prediction(spans=())}, cache=PredictionCache())
    assert len(res) == 3 and set(res.frame["task"]) == {"ner"}


def test_loaded_data_from_an_earlier_import_of_the_module_runs() -> None:
    """A notebook's ``importlib.reload`` (or autoreload) gives LoadedData a new class; what
    the earlier one returned still runs, labels and skipped rows kept."""

    @dataclasses.dataclass
    class LoadedData:  # the same class as an earlier import of mtwidgets.core.data made it
        inputs: list[Any]
        rows: list[Any]
        skipped: list[Any] = dataclasses.field(default_factory=list)

    real = load_inputs(["[[John|PERSON]] is <<Mary|PERSON>>'s father."], task="re")
    stale = LoadedData(real.inputs, [41], [(42, "bad row")])
    again = load_inputs(stale)
    assert isinstance(again, core_data.LoadedData) and not isinstance(stale, core_data.LoadedData)
    assert again.inputs == real.inputs and again.rows == [41] and again.skipped == [(42, "bad row")]
    res = mt.run(stale, ["MR-S1"], {"m": lambda x: "per:siblings"}, cache=PredictionCache())
    assert res.frame["source_index"].tolist() == [41] and res.skipped == [(42, "bad row")]
    with pytest.raises(InputError, match="holds re inputs, not ner inputs"):
        load_inputs(stale, task="ner")


def test_a_string_or_path_that_is_not_a_table_says_what_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("John met Mary.\n")
    for data, expected in [
        (tmp_path / "notes.txt", "unsupported file type '.txt'"),
        (str(tmp_path / "notes.txt"), "unsupported file type '.txt'"),
        (tmp_path, "is a folder"),
        (tmp_path / "missing", "does not exist"),
        ("John met Mary.", "it is not an existing file"),
    ]:
        with pytest.raises(InputError) as err:
            load_inputs(data, task="re")
        message = str(err.value)
        assert expected in message and ".csv" in message and ".jsonl" in message and ".parquet" in message
        assert "cannot read inputs from str" not in message


# -- a file that is not what it should be ----------------------------------------------------
def _results_line(**changes: Any) -> str:
    rec: dict[str, Any] = {c: "" for c in COLUMNS}
    rec.update(relation="MR-S1", task="re", model="m", group="MR-S1/0", source_index=0, verdict="pass", seed=0,
               sources=[], followups=[], source_outputs=[], followup_outputs=[], meta={})
    rec.update(changes)
    return json.dumps({k: v for k, v in rec.items() if v is not ...})


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.jsonl", _results_line() + "\n{not json\n", ":2: not valid JSON"),
        ("keys.jsonl", _results_line() + "\n" + json.dumps({"text": "John met Mary"}) + "\n",
         ":2: missing columns ['relation', 'task', 'model'"),
        ("few.jsonl", _results_line(meta=..., seed=...) + "\n", ":1: missing columns ['seed', 'meta']"),
        ("array.jsonl", json.dumps([json.loads(_results_line())]) + "\n", "looks like one JSON array"),
        ("number.jsonl", "3\n", ":1: holds a number, not a JSON object"),
        ("verdict.jsonl", _results_line(verdict="maybe") + "\n", ":1: column 'verdict' is 'maybe'"),
        ("nested.jsonl", _results_line(sources="oops") + "\n", ":1: column 'sources' must be a list of objects"),
        ("task.jsonl", _results_line(sources=[{"text": "x"}]) + "\n", "column 'sources', item 0 has no 'task' key"),
        ("seed.jsonl", _results_line(seed="x") + "\n", ":1: column 'seed' must be a whole number"),
        ("latin1.jsonl", b'{"relation": "caf\xe9"}\n', ":1: byte 0xe9 is not UTF-8 text"),
        ("binary.jsonl", b"\x00\x01\x02\n", ":1: a NUL byte"),
        ("empty.csv", "", "is empty"),
        ("cols.csv", "relation,model\nMR-S1,m\n", "missing columns ['task', 'group'"),
        ("quote.csv", 'relation,task\n"MR-S1,re\n', "is not valid CSV"),
        ("notparquet.parquet", b"PAR1 this is not parquet", "is not a readable Parquet file"),
    ],
)
def test_results_load_names_file_line_and_problem(tmp_path: Path, name: str, content: Any, expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(InputError) as err:
        Results.load(path)
    assert expected in str(err.value)
    assert name in str(err.value)
    assert isinstance(err.value, MTError)


def test_results_load_csv_and_parquet_cells(results: dict[str, Results], tmp_path: Path) -> None:
    good = results["re"].save(tmp_path / "good.csv")
    frame = pd.read_csv(good, dtype=str, keep_default_na=False)
    frame.loc[2, "followups"] = "[{broken"
    frame.to_csv(tmp_path / "cell.csv", index=False)
    with pytest.raises(InputError, match=r"cell\.csv', row 2, column 'followups': not valid JSON"):
        Results.load(tmp_path / "cell.csv")
    frame = pd.read_csv(good, dtype=str, keep_default_na=False)
    frame.loc[1, "seed"] = "three"
    frame.to_csv(tmp_path / "seed.csv", index=False)
    with pytest.raises(InputError, match=r"seed\.csv', row 1, column 'seed': expected a whole number"):
        Results.load(tmp_path / "seed.csv")
    parquet = results["re"].save(tmp_path / "good.parquet")
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(parquet.read_bytes()[: parquet.stat().st_size // 2])
    with pytest.raises(InputError, match=r"truncated\.parquet' is not a readable Parquet file"):
        Results.load(truncated)
    pd.read_parquet(parquet).drop(columns=["verdict", "meta"]).to_parquet(tmp_path / "cols.parquet")
    with pytest.raises(InputError, match=r"cols\.parquet': missing columns \['verdict', 'meta'\]"):
        Results.load(tmp_path / "cols.parquet")
    with pytest.raises(InputError, match="is a folder"):
        Results.load(tmp_path)


def test_save_replaces_the_target_only_when_the_write_succeeded(
    results: dict[str, Results], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = results["re"].save(tmp_path / "results.jsonl")
    before = target.read_bytes()

    def failing_write(self: Results, path: Path, suffix: str) -> None:
        path.write_text('{"half": ', encoding="utf-8")  # a partial file, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Results, "_write", failing_write)
    with pytest.raises(OSError, match="No space left"):
        results["re"].save(target)
    assert target.read_bytes() == before  # the earlier results are intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.jsonl"]  # no temporary file left
    monkeypatch.undo()
    assert len(Results.load(target)) == len(results["re"])
