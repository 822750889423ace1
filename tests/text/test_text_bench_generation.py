"""benchmarks/bench_generation_text.py: the table of generation rates per relation and
language, the exit status against the target, and a real pass over the Chinese samples."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mtwidgets.text.relations import TABLES

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_generation_text", ROOT / "benchmarks" / "bench_generation_text.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_rates(slow: dict[tuple[str, str], int]) -> Any:
    """A stand-in for generation_rates: 1000 sources/s, or the rate ``slow`` gives a (lang, relation)."""

    def rates(lang: str = "en", passes: int = 2) -> list[dict[str, Any]]:
        return [{"task": task, "relation": name, "sources": 10, "applicable": 4,
                 "sources_per_s": slow.get((lang, name), 1000)}
                for task, table in TABLES.items() for name in table]

    return rates


def test_the_table_has_every_relation_and_language(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    monkeypatch.setattr(bench, "generation_rates", _fake_rates({}))
    table, seconds = bench.rates_table(["en", "zh"], passes=1)
    assert len(table) == 21 and set(seconds) == {"en", "zh"}
    assert list(table.columns) == [(lang, c) for lang in ("en", "zh") for c in ("sources", "applicable", "sources_per_s")]
    assert bench.main(["--passes", "1"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for table_ in TABLES.values() for name in table_)
    assert "every relation >= 200 sources/s" in out


def test_a_relation_below_the_target_fails_the_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    monkeypatch.setattr(bench, "generation_rates", _fake_rates({("zh", "MR5.3"): 150, ("en", "MR7.2"): 199}))
    assert bench.main(["--passes", "1"]) == 1
    out = capsys.readouterr().out
    assert "below 200 sources/s: MR7.2 (en) 199, MR5.3 (zh) 150" in out
    assert bench.main(["--passes", "1", "--target", "100"]) == 0


@pytest.mark.slow
def test_every_chinese_relation_builds_at_least_200_sources_per_second() -> None:
    table, _ = _bench().rates_table(["zh"], passes=2)
    assert len(table) == 21
    rates = table[("zh", "sources_per_s")]
    assert (rates >= 200).all(), rates[rates < 200].to_dict()
    # MR7.1 swaps every pair of the sample
    assert table.loc[("similarity", "MR7.1"), ("zh", "applicable")] == table.loc[("similarity", "MR7.1"), ("zh", "sources")]
