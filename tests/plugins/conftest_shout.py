"""Fixtures that register the toy shout-detection task from outside mtwidgets (imported by
the tests' conftest)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().parent


@pytest.fixture
def shout_task() -> Iterator[object]:
    """The toy task registered with ``mt.register_task``; unregistered afterwards."""
    if str(PLUGINS) not in sys.path:
        sys.path.insert(0, str(PLUGINS))
    import shouting

    import mtwidgets as mt
    from mtwidgets.core.task import unregister_task

    mt.register_task(shouting.TASK, replace=True)
    try:
        yield shouting.TASK
    finally:
        unregister_task("shout")


def install_entry_point(target: Path) -> Path:
    """A folder that, on ``PYTHONPATH``, makes ``shouting`` an installed distribution whose
    ``mtwidgets.tasks`` entry point names its task (what ``pip install`` of a plug-in leaves)."""
    shutil.copytree(PLUGINS / "shouting", target / "shouting", ignore=shutil.ignore_patterns("__pycache__"))
    info = target / "shouting-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shouting\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[mtwidgets.tasks]\nshout = shouting:TASK\n", encoding="utf-8")
    return target
