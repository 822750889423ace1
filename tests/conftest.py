"""Session fixtures shared across test folders.

One Playwright driver and one Chromium serve every browser test: Playwright's sync API
refuses to start a second driver while another one runs in the same thread, so the JS unit
tests (tests/widgets) and the real-JupyterLab tests (tests/browser) share this one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# tests/browser/lab.py holds the Chromium flags (ENVIRONMENT.md's recipe) for the tests and
# the latency benchmark alike.
sys.path.insert(0, str(Path(__file__).parent / "browser"))
from lab import CHROMIUM_ARGS  # noqa: E402

# The toy shout-detection task, a plug-in written outside mtwidgets (tests/plugins).
sys.path.insert(0, str(Path(__file__).parent / "plugins"))
from conftest_shout import shout_task  # noqa: E402, F401


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (Playwright's own browser download needs the network)."""
    path = Path(os.environ.get("MTW_CHROMIUM", "/usr/bin/chromium"))
    if not path.exists():
        pytest.fail(
            f"no Chromium at {path}: apt-get install -y chromium (the README's test command does), "
            "or point MTW_CHROMIUM at a Chromium binary"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(path), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
