"""The relation-extraction sample that ships with the package (written for the project)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ..core.data import json_lines

FILE = "re_sample.jsonl"


def path() -> Path:
    """The sample's file (``mtwidgets/data/re_sample.jsonl``)."""
    return Path(str(resources.files("mtwidgets.data").joinpath(FILE)))


def sample() -> Any:
    """Hand-written relation-extraction sentences in markup, with gold TACRED labels and
    the metamorphic relation each was written to exercise (``focus``)."""
    import pandas as pd

    rows = [row for _, row in json_lines(path(), what="relation-extraction sample")]
    return pd.DataFrame(rows)
