"""Fixtures of the text tasks' tests: the three tasks registered (as their entry points
would), and a small reviewed-synonym table in place of the shipped one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import mtwidgets as mt

SYNONYMS = {
    ("NOUN", "company"): ("firm",),
    ("NOUN", "deal"): ("agreement",),
    ("NOUN", "car"): ("automobile",),
    ("VERB", "buy"): ("purchase",),
    ("VERB", "announce"): ("declare",),
    ("VERB", "praise"): ("commend",),
}


@pytest.fixture(autouse=True)
def text_tasks() -> Iterator[None]:
    from mtwidgets.classification.task import TASK as classification
    from mtwidgets.similarity.task import TASK as similarity
    from mtwidgets.summarization.task import TASK as summarization

    for task in (classification, similarity, summarization):
        mt.register_task(task, replace=True)
    yield


@pytest.fixture
def synonyms(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, str], tuple[str, ...]]:
    """A fixed reviewed-synonym table (the shipped one is still being reviewed)."""
    import mtwidgets.lang.synonyms_en as lexicon

    monkeypatch.setattr(lexicon, "vetted_synonyms", lambda lemma, pos: SYNONYMS.get((pos, lemma.lower()), ()))
    return SYNONYMS
