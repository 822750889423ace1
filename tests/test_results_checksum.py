"""`mtwidgets run`'s results on the shipped samples stay exactly what they were when last checked.

Each shipped sample runs on both embedded models of its task (seed 0; NER without repair,
which does not change the results file), and the saved results.jsonl is hashed by
scripts/results_checksum.py (canonical JSON, floats rounded). The stored checksums, and why
they were last retaken, are in tests/data/results_checksums.json.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from mtwidgets.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXPECTED: dict[str, Any] = json.loads((ROOT / "tests" / "data" / "results_checksums.json").read_text())


def _checksum_module() -> Any:
    spec = importlib.util.spec_from_file_location("results_checksum", ROOT / "scripts" / "results_checksum.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("task", [k for k in EXPECTED if k != "note"])
def test_run_on_the_shipped_sample_gives_the_stored_results(task: str, tmp_path: Path, capsys) -> None:
    spec = EXPECTED[task]
    out = tmp_path / f"{task}.jsonl"
    rc = main(["run", "--task", task, "--data", "sample", "--models", ",".join(spec["models"]),
               "--seed", "0", *spec["options"], "--out", str(out), "--quiet"])
    assert rc == 0, capsys.readouterr().err[-2000:]
    assert _checksum_module().checksum(out) == spec["sha256"]
