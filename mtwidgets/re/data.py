"""The relation-extraction sample that ships with the package (written for the project)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

FILE = "re_sample.jsonl"


def path() -> Path:
    """The sample's file (``mtwidgets/data/re_sample.jsonl``)."""
    return Path(str(resources.files("mtwidgets.data").joinpath(FILE)))


def sample() -> Any:
    """Hand-written relation-extraction sentences in markup, with gold TACRED labels and
    the metamorphic relation each was written to exercise (``focus``)."""
    import pandas as pd

    rows = [json.loads(line) for line in path().read_text(encoding="utf-8").splitlines() if line.strip()]
    return pd.DataFrame(rows)
