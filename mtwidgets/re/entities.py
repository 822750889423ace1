"""Entity types for relation extraction: TACRED's types, spaCy NER and lexicon lookups.

spaCy's OntoNotes labels are coarser than TACRED's (GPE covers cities, states and
countries; NORP covers nationalities and religions), so :func:`infer_type` refines them
with the offline lexicons. The spaCy pipeline itself is a language resource
(:mod:`mtwidgets.lang.pipelines`); ``get_nlp``/``parse``/``parse_many`` are re-exported here. Both embedded models and the transformations use this one
typer, so a type is decided the same way everywhere.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..core.spans import Span
from ..lang import names as lexicons
from ..lang.pipelines import SPACY_PIPELINE, get_nlp, parse, parse_many

ENTITY_TYPES: tuple[str, ...] = (
    "PERSON", "ORGANIZATION", "CITY", "STATE_OR_PROVINCE", "COUNTRY", "LOCATION", "NATIONALITY",
    "RELIGION", "TITLE", "NUMBER", "DURATION", "DATE", "CAUSE_OF_DEATH", "CRIMINAL_CHARGE",
    "IDEOLOGY", "URL", "MISC",
)

_SPACY_TO_TACRED = {
    "PERSON": "PERSON", "ORG": "ORGANIZATION", "NORP": "NATIONALITY", "DATE": "DATE",
    "CARDINAL": "NUMBER", "QUANTITY": "NUMBER", "LOC": "LOCATION", "FAC": "LOCATION",
    "GPE": "LOCATION", "TIME": "DATE", "MONEY": "NUMBER", "PERCENT": "NUMBER",
}
_DURATION = re.compile(r"^\d+[- ](?:years?|months?)[- ]old$|^\d+ years?$", re.I)
_NUMBER = re.compile(r"^\d+$")
_YEAR = re.compile(r"^(1[89]|20)\d\d$")

__all__ = ["ENTITY_TYPES", "SPACY_PIPELINE", "aliases", "get_nlp", "initials", "infer_type", "lexicon_type", "named_entities",
           "parse", "parse_many", "trim_span", "type_span", "typed_entities"]

# spaCy labels of proper names (as opposed to numbers, dates and amounts).
NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP"})


def trim_span(text: str, start: int, end: int, label: str | None = None) -> Span | None:
    """``text[start:end]`` without outer whitespace (spaCy can end an entity in ``"\n"``),
    or ``None`` when nothing is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Span(start, end, label) if end > start else None

def lexicon_type(mention: str) -> str | None:
    """The TACRED type the lexicons alone give a mention, if any."""
    m = mention.strip()
    if m in lexicons.PRONOUNS_PERSON:
        return "PERSON"
    if m in lexicons.DEMONYMS:
        return "NATIONALITY"
    if m in lexicons.RELIGIONS:
        return "RELIGION"
    if lexicons.canonical_country(m) or lexicons.canonical_country(m.removeprefix("the ")):
        return "COUNTRY"
    if m in lexicons.us_states():
        return "STATE_OR_PROVINCE"
    if lexicons.city(m) is not None and m not in lexicons.first_names():
        return "CITY"  # a given name that is also a city ("Mary", "Florence") needs context
    low = m.lower()
    if low in lexicons.TITLES:
        return "TITLE"
    if low in lexicons.CAUSES_OF_DEATH:
        return "CAUSE_OF_DEATH"
    if low in lexicons.CRIMINAL_CHARGES:
        return "CRIMINAL_CHARGE"
    if _DURATION.match(m):
        return "DURATION"
    if _YEAR.match(m):
        return "DATE"
    if _NUMBER.match(m):
        return "NUMBER"
    if m.startswith(("http://", "https://", "www.")):
        return "URL"
    return None


def infer_type(mention: str, spacy_label: str | None = None) -> str:
    """Lexicons first (they are precise), then spaCy's label mapped to TACRED, else MISC.

    A single word that is a common given name ("Celine", "Mary") is taken as a PERSON
    unless spaCy calls it a place and it is a known city ("Florence" in "born in
    Florence"): the small pipeline often mislabels lone first names as organisations.
    """
    found = lexicon_type(mention)
    if found == "CITY" and spacy_label in ("ORG", "PERSON"):
        return _SPACY_TO_TACRED[spacy_label]  # "Toyota" the company, not the city
    if found is not None:
        return found
    if mention in lexicons.first_names():
        if spacy_label in ("GPE", "LOC") and lexicons.city(mention) is not None:
            return "CITY"
        if spacy_label in ("ORG", "GPE", "LOC", "NORP", "PERSON", None):
            return "PERSON"
    if spacy_label is not None:
        return _SPACY_TO_TACRED.get(spacy_label, "MISC")
    return "MISC"


def type_span(text: str, span: Span, doc: Any = None) -> str:
    """The type of ``text[span]``: its label if set, else the lexicons, else spaCy's entity
    covering it (``doc`` if the caller has parsed the text already)."""
    if span.label:
        return span.label
    mention = text[span.start : span.end]
    found = lexicon_type(mention)
    if found is not None and found != "CITY":  # a city name may be a company: ask spaCy
        return found
    if mention in lexicons.PRONOUNS_ORG:
        return "ORGANIZATION"
    doc = doc if doc is not None else parse(text)
    for ent in doc.ents:
        if ent.start_char <= span.start and span.end <= ent.end_char:
            return infer_type(mention, ent.label_)
    return infer_type(mention, None)


@lru_cache(maxsize=8192)
def _named_entities(text: str) -> tuple[Span, ...]:
    out = []
    for e in parse(text).ents:
        span = trim_span(text, e.start_char, e.end_char, e.label_)
        if span is not None:
            out.append(span)
    return tuple(out)


def named_entities(text: str) -> list[Span]:
    """spaCy's entities of ``text`` with spaCy's own labels, trimmed of outer whitespace."""
    return list(_named_entities(text))


@lru_cache(maxsize=8192)
def _typed_entities(text: str) -> tuple[Span, ...]:
    doc = parse(text)
    spans = [s.with_label(infer_type(text[s.start : s.end], s.label)) for s in _named_entities(text)]
    for tok in doc:
        t = lexicon_type(tok.text)
        if t in ("TITLE", "RELIGION", "CAUSE_OF_DEATH", "CRIMINAL_CHARGE"):
            cand = Span(tok.idx, tok.idx + len(tok.text), t)
            if not any(cand.overlaps(s) for s in spans):
                spans.append(cand)
    return tuple(sorted(spans))


def typed_entities(text: str) -> list[Span]:
    """spaCy entities of ``text`` as spans labelled with TACRED types, plus lexicon words
    spaCy misses (titles, religions), in text order without overlaps. Spans never start
    or end in whitespace (cached per text)."""
    return list(_typed_entities(text))


_PAREN = re.compile(r"\s*\(\s*([^()]{1,60}?)\s*\)")


def initials(name: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-z][A-Za-z'&.-]*", name) if w[0].isupper())


@lru_cache(maxsize=8192)
def aliases(text: str) -> tuple[tuple[Span, Span], ...]:
    """``(name, alias)`` pairs written "Name (ALIAS)" or "ALIAS (Name)": the bracketed
    mention is another name of the one before it, not a separate entity. The name is a
    spaCy entity; the alias is whatever stands alone in the brackets."""
    out = []
    for e in _named_entities(text):
        m = _PAREN.match(text, e.end)
        if not m:
            continue
        inner = m.group(1)
        alias = Span(m.start(1), m.end(1))
        if text[alias.start : alias.end] != inner or not inner[:1].isalnum():
            continue
        out.append((e, alias))
    return tuple(out)
