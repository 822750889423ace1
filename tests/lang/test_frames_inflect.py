"""Dependency-frame checks and inflection through lemminflect."""

from __future__ import annotations

from mtwidgets.lang.frames import frames_fit, same_structure, target_problem, usage
from mtwidgets.lang.inflect import inflect
from mtwidgets.lang.pipelines import parse
from mtwidgets.lang.wordnet import is_lemma


def _tok(text: str, word: str):  # type: ignore[no-untyped-def]
    doc = parse(text)
    return next(t for t in doc if t.text == word)


def test_phrasal_and_prepositional_verbs_are_not_targets() -> None:
    assert "particle" in (target_problem(_tok("The talks are still going on.", "going"), is_lemma) or "")
    assert target_problem(_tok("The waste was disposed of safely.", "disposed"), is_lemma) is not None
    assert target_problem(_tok("Apple bought a stake.", "bought"), is_lemma) is None


def test_usage_and_frames() -> None:
    assert usage(_tok("Apple bought a stake.", "bought")) == "transitive"
    assert usage(_tok("The DCMS said.", "said")) == "intransitive"
    assert not frames_fit(frozenset({8, 11, 26}), "intransitive")  # "tell" needs an object
    assert frames_fit(frozenset({2, 22}), "intransitive")


def test_same_structure_compares_tags_dependencies_and_heads() -> None:
    assert same_structure(parse("Apple bought a stake."), parse("Apple purchased a stake."))
    assert not same_structure(parse("Apple bought a stake."), parse("Apple the a stake."))


def test_inflect_uses_the_lexicon_and_keeps_rule_spellings() -> None:
    assert inflect("abide", "VBD") == "abided"
    assert inflect("travel", "VBD") == "travelled"
    assert inflect("person", "NNS") == "people"
    assert inflect("earnings", "NNS") == "earnings"
