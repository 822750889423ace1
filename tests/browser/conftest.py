"""Fixtures of the real-browser tests: one JupyterLab server and one Chromium per session."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab import Lab


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real JupyterLab in Chromium (seconds each)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory, chromium: Any) -> Iterator[Lab]:
    """A running JupyterLab + Chromium; screenshots go to ``$MTW_SCREENSHOTS`` when set."""
    root = tmp_path_factory.mktemp("lab")
    shots = Path(os.environ["MTW_SCREENSHOTS"]) if os.environ.get("MTW_SCREENSHOTS") else root / "screenshots"
    instance = Lab(root, shots, browser=chromium)
    instance.start()
    yield instance
    killed = instance.stop()
    if killed:  # shut down, but not cleanly: worth knowing, not worth failing the tests for
        warnings.warn(f"JupyterLab did not shut down by itself; killed processes {killed}", stacklevel=1)
