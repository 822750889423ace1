"""Every CLI error is one line on stderr naming the file and what to do, a nonzero exit
code and no traceback: bad data files (a sweep of broken ones), outputs that cannot be
written (checked before the run; a write that still fails goes to a fallback file)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from mtwidgets import cli
from mtwidgets.cli import main
from mtwidgets.core.results import Results

ROOT = Path(__file__).resolve().parents[2]
MARKUP = "[[John|PERSON]] is <<Mary|PERSON>>'s father."
FORMATS = (".csv", ".jsonl", ".parquet")


def one_line_error(capsys: pytest.CaptureFixture[str], rc: int) -> str:
    """The one error line of a failed command (asserting the shape every error has)."""
    captured = capsys.readouterr()
    assert rc != 0
    assert "Traceback" not in captured.out + captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("error: "), captured.err
    return captured.err.strip()


def _parquet(path: Path) -> None:
    pd.DataFrame({"markup": [MARKUP] * 20}).to_parquet(path)


def _truncated_parquet(path: Path) -> None:
    _parquet(path)
    path.write_bytes(path.read_bytes()[:-40])


def _fifo(path: Path) -> None:
    os.mkfifo(path)  # reading it would block for ever


# (file name, how to make it, extra arguments, what the one error line must say)
CASES: list[tuple[str, Callable[[Path], Any], list[str], str]] = [
    ("empty.csv", lambda p: p.write_bytes(b""), ["--task", "re"], "is empty; a CSV needs a header row"),
    ("blank.csv", lambda p: p.write_text("\n \n\n"), ["--task", "re"], "is empty"),
    ("header.csv", lambda p: p.write_text("markup\n"), ["--task", "re"], "has no data rows"),
    ("bom_header.csv", lambda p: p.write_bytes(b"\xef\xbb\xbfmarkup\n"), ["--task", "re"], "has no data rows"),
    ("bom_columns.csv", lambda p: p.write_bytes(b"\xef\xbb\xbfsentence\nJohn met Mary.\n"), [],
     "cannot tell the task"),
    ("latin1.csv", lambda p: p.write_bytes(b"markup\n" + MARKUP.encode() + b"\nCaf\xe9 [[A|PERSON]] <<B|PERSON>>\n"),
     ["--task", "re"], ":3: byte 0xe9 is not UTF-8 text; save the data file as UTF-8"),
    ("latin1.jsonl", lambda p: p.write_bytes(b'{"markup": "Caf\xe9"}\n'), ["--task", "re"], ":1: byte 0xe9 is not UTF-8"),
    ("binary.csv", lambda p: p.write_bytes(bytes(range(256)) * 4), ["--task", "re"], "is not UTF-8 text"),
    ("nul.csv", lambda p: p.write_bytes(b"markup\n\x00\x00\x00\n"), ["--task", "re"], ":2: a NUL byte"),
    ("quote.csv", lambda p: p.write_text(f'markup\n"{MARKUP}\n'), ["--task", "re"],
     "is not valid CSV (Error tokenizing data. C error: EOF inside string"),
    ("fields.csv", lambda p: p.write_text("text,head\nJohn met Mary,John\nx,y,z,w\n"), ["--task", "re"],
     "is not valid CSV (Error tokenizing data. C error: Expected 2 fields in line 3, saw 4)"),
    # (a sentence with a label is a classification table now; a word count is no task's)
    ("columns.csv", lambda p: p.write_text("word,count\nJohn,3\n"), [], "cannot tell the task"),
    ("columns_re.csv", lambda p: p.write_text("sentence,label\nJohn met Mary.,x\n"), ["--task", "re"],
     "no usable inputs in the data of"),
    ("columns_ner.csv", lambda p: p.write_text("sentence,label\nJohn met Mary.,x\n"), ["--task", "ner"],
     "no usable NER inputs"),
    ("bad_markup.csv", lambda p: p.write_text("markup\n[[John met Mary.\n"), ["--task", "re"], "1 rows skipped: row 0"),
    ("bad_entities.jsonl", lambda p: p.write_text(json.dumps({"text": "A b.", "entities": "[{oops"}) + "\n"),
     ["--task", "ner"], "no usable NER inputs"),
    ("array.jsonl", lambda p: p.write_text(json.dumps([{"markup": MARKUP}], indent=1)), ["--task", "re"],
     ":1: not valid JSON (Expecting value at column 2); the file looks like one JSON array"),
    ("array_line.jsonl", lambda p: p.write_text(json.dumps([{"markup": MARKUP}]) + "\n"), ["--task", "re"],
     ":1: holds an array (the file looks like one JSON array)"),
    ("broken.jsonl", lambda p: p.write_text(json.dumps({"markup": MARKUP}) + "\n\n{oops\n"), ["--task", "re"],
     ":3: not valid JSON"),
    ("numbers.ndjson", lambda p: p.write_text("1\n2\n"), ["--task", "re"], ":1: holds a number, not a JSON object"),
    ("empty.jsonl", lambda p: p.write_text("\n\n"), ["--task", "re"], "has no data rows"),
    ("junk.parquet", lambda p: p.write_bytes(b"not parquet at all"), ["--task", "re"], "is not a readable Parquet file"),
    ("truncated.parquet", _truncated_parquet, ["--task", "re"], "is not a readable Parquet file"),
    ("data.txt", lambda p: p.write_text(MARKUP + "\n"), ["--task", "re"],
     "unsupported file type '.txt'; give a .csv (with a header row), .jsonl/.ndjson"),
    ("data", lambda p: p.write_text(MARKUP + "\n"), [], "unsupported file type '(none)'"),
    ("folder", lambda p: p.mkdir(), [], "is a folder; give the path of a .csv"),
    ("folder.csv", lambda p: p.mkdir(), ["--task", "re"], "is a folder"),
    ("missing.csv", lambda p: None, [], "does not exist; give the path of a .csv"),
    ("fifo.csv", _fifo, ["--task", "re"], "is not a regular file"),
]


@pytest.mark.parametrize(("name", "make", "extra", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_data_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, make: Callable[[Path], Any], extra: list[str],
    expected: str,
) -> None:
    path = tmp_path / name
    make(path)
    rc = main(["run", "--data", str(path), "--quiet", *extra])
    line = one_line_error(capsys, rc)
    assert rc == 2
    assert expected in line
    assert name in line  # the message names the file


def test_an_unreadable_data_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "secret.csv"
    path.write_text(f"markup\n{MARKUP}\n")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: permission bits do not stop reads, so the file is readable")
        line = one_line_error(capsys, main(["run", "--data", str(path), "--task", "re", "--quiet"]))
        assert "secret.csv" in line and "not readable (permission denied)" in line
    finally:
        path.chmod(0o644)


def test_a_bom_file_reads_like_one_without(tmp_path: Path) -> None:
    from mtwidgets.core.data import load_inputs

    plain = tmp_path / "plain.csv"
    plain.write_text(f"markup\n{MARKUP}\n", encoding="utf-8")
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert load_inputs(bom).inputs == load_inputs(plain).inputs


# -- outputs -----------------------------------------------------------------------------------
@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.csv"
    path.write_text(f"markup\n{MARKUP}\n")
    return path


def output_cases(tmp_path: Path) -> list[tuple[list[str], str]]:
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    (tmp_path / "folder.jsonl").mkdir()
    (tmp_path / "report_dir").mkdir()
    return [
        (["--out", str(a_file / "results.jsonl")], "is not a folder"),
        (["--out", "/proc/mtwidgets-nowhere/results.jsonl"], "cannot write in '/proc'"),
        (["--out", str(tmp_path / "folder.jsonl")], "is a folder; give a file name"),
        (["--out", str(a_file)], "exists and is not a folder"),
        (["--report", str(tmp_path / "report_dir")], "is a folder; give a file name"),
        (["--report", str(a_file / "deeper" / "report.html")], "is not a folder"),
        (["--cache", str(a_file / "cache.sqlite")], "is not a folder"),
    ]


def test_unwritable_outputs_are_refused_before_the_run(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_run(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the run started although an output cannot be written")

    monkeypatch.setattr(cli, "_models", no_run)
    for options, expected in output_cases(tmp_path):
        rc = main(["run", "--data", str(data), "--task", "re", "--quiet", *options])
        line = one_line_error(capsys, rc)
        option, target = options
        assert line.startswith(f"error: cannot write {option} {target!r}: ") and expected in line, line
        assert line.endswith("choose another path")


def test_a_write_that_fails_after_the_run_goes_to_a_fallback_file(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outputs' folder turns into a file while the models run: the results and the
    report are still written, to the temporary folder, and the message says where."""
    out_dir = tmp_path / "out"
    fallback_dir = tmp_path / "fallback"
    fallback_dir.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(fallback_dir))

    def sabotaging_model(x: Any) -> str:
        if not out_dir.exists():
            out_dir.write_text("not a folder any more")
        return "per:children"

    monkeypatch.setattr(cli, "_models", lambda names, task: {"m": sabotaging_model})
    target = out_dir / "results.parquet"
    report = out_dir / "report.html"
    rc = main(["run", "--data", str(data), "--task", "re", "--quiet", "--out", str(target), "--report", str(report)])
    captured = capsys.readouterr()
    assert rc == 2 and "Traceback" not in captured.out + captured.err
    lines = captured.err.strip().split("\n")
    assert len(lines) == 2, captured.err
    saved = []
    for line, what, path in zip(lines, ("the results", "the report"), (target, report)):
        assert line.startswith(f"error: cannot write {what} to {str(path)!r} (")
        assert "; saved them to " in line and line.endswith(" instead")
        saved.append(Path(line.split("; saved them to ", 1)[1].rsplit(" instead", 1)[0].strip("'")))
    assert all(p.parent == fallback_dir and p.exists() for p in saved)
    results = Results.load(saved[0])
    assert len(results) > 0 and set(results.frame["model"]) == {"m"}
    assert "<html" in saved[1].read_text(encoding="utf-8").lower()
    assert out_dir.is_file() and not list(fallback_dir.glob(".*tmp*"))


def test_outputs_are_written_through_a_temporary_file(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out" / "results.jsonl"
    target.parent.mkdir()
    target.write_text("earlier results\n")
    written: list[Path] = []
    save = Results.save

    def spying_save(self: Results, path: Any) -> Path:
        written.append(Path(path))
        return save(self, path)

    monkeypatch.setattr(Results, "save", spying_save)
    monkeypatch.setattr(cli, "_models", lambda names, task: {"m": lambda x: "per:children"})
    assert main(["run", "--data", str(data), "--task", "re", "--quiet", "--out", str(target)]) == 0
    assert "results: " in capsys.readouterr().out
    assert written[0].parent == target.parent and written[0] != target  # beside it, then renamed
    assert len(Results.load(target)) > 0
    assert sorted(p.name for p in target.parent.iterdir()) == ["results.jsonl"]


# -- any other error ---------------------------------------------------------------------------
def test_an_unexpected_error_is_one_line_unless_traceback_is_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: Any) -> int:
        raise RuntimeError("something\nwent wrong")

    monkeypatch.setattr(cli, "cmd_models", broken)
    line = one_line_error(capsys, main(["models"]))
    assert line == "error: unexpected RuntimeError: something went wrong (run 'mtwidgets --traceback ...' to see where)"
    with pytest.raises(RuntimeError, match="went wrong"):
        main(["--traceback", "models"])

    def full_disk(args: Any) -> int:
        raise OSError(28, "No space left on device", "/some/file")

    monkeypatch.setattr(cli, "cmd_models", full_disk)
    assert one_line_error(capsys, main(["models"])) == "error: cannot access '/some/file': No space left on device"


def test_the_real_command_prints_one_line_without_traceback(tmp_path: Path) -> None:
    """The installed entry point, in its own process: nothing else reaches stderr."""
    (tmp_path / "empty.csv").write_bytes(b"")
    (tmp_path / "latin1.csv").write_bytes(b"markup\nCaf\xe9\n")
    (tmp_path / "notes.txt").write_text("x")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    for name in ("empty.csv", "latin1.csv", "notes.txt"):
        proc = subprocess.run(
            [sys.executable, "-m", "mtwidgets.cli", "run", "--data", str(tmp_path / name), "--task", "re", "--quiet"],
            capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False,
        )
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ") and name in proc.stderr
        assert "Traceback" not in proc.stderr
