"""Vetted English synonyms: substitution pairs a reviewer accepted for (nearly) every common use.

WordNet proposes same-sense synonyms; many of them read wrongly in most sentences
(register, strength, collocations: "help" -> "aid", "start a club" -> "begin a club").
Candidate pairs are WordNet synonyms in a shared sense (never antonyms, never hypernyms
or hyponyms) among common English words: the frequent words' synonyms in their main
senses. Every pair was reviewed by reading, and only the ones a careful editor accepts in
at least nine of ten typical uses of the word were kept; a substitution still has to pass
the checks of its context (parse, verb frame, collocation, in-context similarity). The file
``data/synonyms_en.tsv`` holds every reviewed pair with its verdict and reason, so the
decision is inspectable and revisable.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources

POS = ("NOUN", "VERB", "ADJ")


@dataclass(frozen=True)
class VettedPair:
    """One accepted substitute and the WordNet sense (synset name) it shares with the word."""

    substitute: str
    synset: str


@cache
def _table() -> dict[tuple[str, str], tuple[VettedPair, ...]]:
    kept: dict[tuple[str, str], list[VettedPair]] = {}
    path = resources.files("mtwidgets.lang").joinpath("data/synonyms_en.tsv")
    with path.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["verdict"] == "keep":
                kept.setdefault((row["pos"], row["word"]), []).append(VettedPair(row["substitute"], row["synset"]))
    return {k: tuple(v) for k, v in kept.items()}


def vetted_pairs(lemma: str, pos: str) -> tuple[VettedPair, ...]:
    """The reviewed substitutes of ``lemma`` used as ``pos`` (``"NOUN"``, ``"VERB"`` or
    ``"ADJ"``) with their shared senses, in the file's order; ``()`` when none was accepted."""
    if pos not in POS:
        raise ValueError(f"pos must be one of {POS}, got {pos!r}")
    return _table().get((pos, lemma.lower()), ())


def vetted_synonyms(lemma: str, pos: str) -> tuple[str, ...]:
    """The reviewed substitutes of ``lemma`` used as ``pos``; ``()`` when none was accepted."""
    return tuple(p.substitute for p in vetted_pairs(lemma, pos))


def is_vetted(lemma: str, pos: str, substitute: str) -> bool:
    """Whether ``lemma`` -> ``substitute`` (as ``pos``) is a reviewed, accepted pair."""
    return substitute.lower() in vetted_synonyms(lemma, pos)
