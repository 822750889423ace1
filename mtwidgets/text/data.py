"""The shipped samples of the three text tasks, per language.

Files (``mtwidgets/data``), one JSON object per line, written for the project:

``{lang}_classification.jsonl``
    ``{"id": str, "lang": "en"|"zh", "topic": str, "sentiment": "positive"|"negative"|"neutral"|null,
    "text": str}`` -- a news-like text of two or more sentences; ``topic`` is its news section
    (English: business, politics, sport, technology, science, health, entertainment, world),
    ``sentiment`` the polarity a reader would give it where it has one (``null``: none).
``{lang}_similarity.jsonl``
    ``{"id": str, "lang": ..., "topic": str|null, "text_a": str, "text_b": str, "score": float}`` --
    a sentence pair with its gold similarity in [0, 1] (1: same meaning; 0: unrelated).
``{lang}_summarization.jsonl``
    ``{"id": str, "lang": ..., "topic": str, "text": str, "reference": str|null}`` -- a text of three
    or more sentences to summarize, with a reference summary where one was written.

Every language ships the same row shapes; a language whose files are not there yet raises
:class:`~mtwidgets.core.errors.MTError` naming the missing file.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ..core.data import json_lines
from ..core.errors import MTError
from .inputs import (
    LANGS,
    ClassificationInput,
    SimilarityInput,
    SummarizationInput,
    classification_from_row,
    similarity_from_row,
    summarization_from_row,
)

TASKS: tuple[str, ...] = ("classification", "similarity", "summarization")

_READERS = {
    "classification": classification_from_row,
    "similarity": similarity_from_row,
    "summarization": summarization_from_row,
}


def path(task: str, lang: str = "en") -> Path:
    """The sample file of ``task`` in ``lang`` (``mtwidgets/data/{lang}_{task}.jsonl``)."""
    if task not in TASKS:
        raise MTError(f"no text task {task!r}; one of {', '.join(TASKS)}")
    if lang not in LANGS:
        raise MTError(f"no language {lang!r}; one of {', '.join(LANGS)}")
    return Path(str(resources.files("mtwidgets.data").joinpath(f"{lang}_{task}.jsonl")))


def rows(task: str, lang: str = "en") -> list[dict[str, Any]]:
    """The sample's rows as dicts (see the module notes for their shape)."""
    p = path(task, lang)
    if not p.exists():
        raise MTError(f"the {lang} {task} sample is not shipped (no {p.name} in mtwidgets/data)")
    return [row for _, row in json_lines(p, what=f"{lang} {task} sample")]


def inputs(task: str, lang: str = "en", topic: str | None = None) -> list[Any]:
    """The sample as inputs of ``task`` (optionally one ``topic`` only)."""
    found = rows(task, lang)
    if topic is not None:
        topics = sorted({str(r.get("topic")) for r in found})
        if topic not in topics:
            raise KeyError(f"no topic {topic!r} in the {lang} {task} sample; available: {', '.join(topics)}")
        found = [r for r in found if r.get("topic") == topic]
    reader = _READERS[task]
    return [reader({**r, "lang": r.get("lang") or lang}) for r in found]


def frame(task: str, lang: str = "en") -> Any:
    """The sample as a pandas DataFrame (one row per line of the file)."""
    import pandas as pd

    return pd.DataFrame(rows(task, lang))


def classification_sample(lang: str = "en", topic: str | None = None) -> list[ClassificationInput]:
    """News-like texts with their topic (and sentiment where a reader would give one)."""
    return inputs("classification", lang, topic)


def similarity_sample(lang: str = "en", topic: str | None = None) -> list[SimilarityInput]:
    """Sentence pairs with their gold similarity in [0, 1]."""
    return inputs("similarity", lang, topic)


def summarization_sample(lang: str = "en", topic: str | None = None) -> list[SummarizationInput]:
    """Texts of three or more sentences to summarize."""
    return inputs("summarization", lang, topic)
