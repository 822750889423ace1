"""The NER gold sample that ships with the package (written for the project)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ..core.data import json_lines
from .inputs import NERInput

FILE = "ner_sample.jsonl"


def path() -> Path:
    """The sample's file (``mtwidgets/data/ner_sample.jsonl``)."""
    return Path(str(resources.files("mtwidgets.data").joinpath(FILE)))


def _ner_rows() -> list[dict[str, Any]]:
    return [row for _, row in json_lines(path(), what="NER sample")]


def sample(topic: str | None = None) -> list[NERInput]:
    """The news-like NER gold sample: hand-written English sentences with OntoNotes 5 gold
    entities, as :class:`~mtwidgets.ner.inputs.NERInput` objects carrying their gold spans.

    The sentences are invented (politics, business, sport, science, culture, world and
    local news) and were reviewed against both embedded spaCy pipelines; the markup they
    are built from is ``mtwidgets/training/ner_sample_source.txt``.

    Parameters
    ----------
    topic:
        Keep only the sentences of one news section (``"politics"``, ``"business"``,
        ``"sport"``, ``"science"``, ``"culture"``, ``"world"`` or ``"local"``); ``None``
        keeps all, in file order.

    Raises
    ------
    KeyError
        If ``topic`` is not one of the sample's topics (the message lists them).
    """
    rows = _ner_rows()
    if topic is not None:
        topics = sorted({row["topic"] for row in rows})
        if topic not in topics:
            raise KeyError(f"no topic {topic!r} in the NER sample; available: {', '.join(topics)}")
        rows = [row for row in rows if row["topic"] == topic]
    return [NERInput(row["text"], tuple(row["entities"])) for row in rows]


def sample_frame(level: str = "sentence") -> Any:
    """The NER gold sample as a tidy pandas DataFrame.

    Parameters
    ----------
    level:
        ``"sentence"``: one row per sentence with ``id``, ``topic``, ``text``,
        ``entities`` (the list of ``{"start", "end", "label"}`` dicts) and ``n_entities``.
        ``"entity"``: one row per gold entity with ``id``, ``topic``, ``start``, ``end``,
        ``mention`` and ``label`` -- the form for counting labels or joining predictions.

    Raises
    ------
    ValueError
        If ``level`` is neither ``"sentence"`` nor ``"entity"``.
    """
    import pandas as pd

    rows = _ner_rows()
    if level == "sentence":
        return pd.DataFrame(
            [{**row, "n_entities": len(row["entities"])} for row in rows],
            columns=["id", "topic", "text", "entities", "n_entities"],
        )
    if level == "entity":
        return pd.DataFrame(
            [
                {
                    "id": row["id"],
                    "topic": row["topic"],
                    "start": ent["start"],
                    "end": ent["end"],
                    "mention": row["text"][ent["start"] : ent["end"]],
                    "label": ent["label"],
                }
                for row in rows
                for ent in row["entities"]
            ],
            columns=["id", "topic", "start", "end", "mention", "label"],
        )
    raise ValueError(f"level must be 'sentence' or 'entity', got {level!r}")
