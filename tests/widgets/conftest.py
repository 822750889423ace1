"""Fixtures of the widget tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _jsserve import js_page


@pytest.fixture()
def explorer_page(chromium: Any) -> Iterator[Any]:
    """A page with js/tests/index.html loaded, ready to mount the Explorer on a fake model."""
    with js_page(chromium, "tests/index.html", "window.mtwReady === true") as pg:
        yield pg
