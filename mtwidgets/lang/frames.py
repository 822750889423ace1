"""Dependency-frame checks for word substitutions (a language resource over spaCy parses).

A substitute must fit where the original word stood: the same part of speech and tag, the
same syntactic frame (objects, clausal complements, particles, prepositions), and the
sentence must parse the same way with it. The checks here read spaCy tokens; lexical
facts (verb frames, collocations) come from :mod:`mtwidgets.lang.wordnet`.

- :func:`target_problem`: why a word cannot be replaced by a single word at all (a
  particle makes it part of a phrasal verb, a collocation WordNet lists whole).
  Complements and prepositions are the reviewed lexicon's business
  (:mod:`mtwidgets.lang.synonyms_en`: a pair is kept only when it reads right in the
  word's typical uses, complements included) and the parse check's.
- :func:`usage`: the frame class a verb is used in (transitive, intransitive, copular).
- :func:`frames_fit`: whether WordNet's frames for a verb sense allow that class.
- :func:`structure` / :func:`same_structure`: the parse of a sentence as (tag, dependency,
  head offset) per token; a follow-up must keep it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# WordNet's 35 generic verb frames by the class of complement they take.
INTRANSITIVE_FRAMES = frozenset({1, 2, 3, 4, 12, 13, 22, 23, 27})
TRANSITIVE_FRAMES = frozenset({8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 30, 31})
COPULAR_FRAMES = frozenset({5, 6, 7})
_CLASS_FRAMES = {
    "intransitive": INTRANSITIVE_FRAMES,
    "transitive": TRANSITIVE_FRAMES,
    "copular": COPULAR_FRAMES,
}

_OBJECTS = frozenset({"dobj", "obj", "nsubjpass", "auxpass", "dative", "iobj", "oprd"})


def usage(tok: Any) -> str:
    """``"transitive"`` (an object, or passive), ``"copular"`` (an adjectival/nominal
    complement) or ``"intransitive"``."""
    deps = {c.dep_ for c in tok.children}
    if deps & _OBJECTS:
        return "transitive"
    if deps & {"acomp", "attr"}:
        return "copular"
    return "intransitive"


def frames_fit(frames: frozenset[int], use: str) -> bool:
    """Whether a verb sense with WordNet ``frames`` can be used as ``use``."""
    return bool(frames & _CLASS_FRAMES[use])


def target_problem(tok: Any, is_lemma: Any) -> str | None:
    """Why ``tok`` cannot be swapped for one word, or ``None``.

    ``is_lemma(words, pos)`` says whether a multi-word expression is a WordNet lemma.
    """
    children = list(tok.children)
    deps = {c.dep_ for c in children}
    if "prt" in deps or any(c.tag_ == "RP" for c in children):
        return "a phrasal verb (particle)"
    doc = tok.doc
    nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    if nxt is not None and nxt.is_alpha and is_lemma(f"{tok.lemma_} {nxt.text}", tok.pos_):
        return f"part of the expression {tok.lemma_ + ' ' + nxt.text!r}"
    if tok.pos_ == "ADJ" and tok.dep_ == "amod" and is_lemma(f"{tok.text} {tok.head.text}", "NOUN"):
        return f"part of the compound {tok.text + ' ' + tok.head.text!r}"
    return None


Structure = tuple[tuple[str, str, int], ...]


def structure(tokens: Sequence[Any]) -> Structure:
    """(tag, dependency, head offset) for each token of a parsed sentence."""
    first = tokens[0].i if len(tokens) else 0
    return tuple((t.tag_, t.dep_, t.head.i - first) for t in tokens)


def same_structure(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Whether two parsed sentences have the same tags, dependencies and heads."""
    return len(a) == len(b) and structure(a) == structure(b)
