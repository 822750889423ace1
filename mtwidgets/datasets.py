"""Data sets that ship with the package (written for the project)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

_FILES = {"re_sample": "re_sample.jsonl"}


def path(name: str = "re_sample") -> Path:
    """The file of a shipped data set."""
    if name not in _FILES:
        raise KeyError(f"no shipped data set {name!r}; available: {', '.join(_FILES)}")
    return Path(str(resources.files("mtwidgets.data").joinpath(_FILES[name])))


def re_sample() -> Any:
    """Hand-written relation-extraction sentences in markup, with gold TACRED labels and
    the metamorphic relation each was written to exercise (``focus``)."""
    import pandas as pd

    rows = [json.loads(line) for line in path("re_sample").read_text(encoding="utf-8").splitlines() if line.strip()]
    return pd.DataFrame(rows)
