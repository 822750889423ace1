"""Fuzzing every relation of every shipped task on generated inputs.

For each generated input and each relation of its task, ``relation.generate(x, seed=s)``
must return groups (a not-applicable group included) or raise one of mtwidgets' own errors
(:class:`~mtwidgets.core.errors.MTError`): never any other exception. Every source and
follow-up of every group must be a valid input of the task whose spans land on its text:
it rebuilds equal from its JSON form, its key encodes as UTF-8, and a relation input reads
back exactly from its markup.

Relation-extraction inputs: short texts of names, places, numbers, pronouns and function
words, with odd Unicode (line and paragraph separators, NEL, emoji, combining marks,
right-to-left scripts, zero-width characters, no-break spaces) and markup characters
(``[[ ]] << >> | \\``) inside the text; a head and a tail span on random tokens (sometimes on
arbitrary characters) with random entity types. NER inputs: texts with entity-like words and
gold spans with canonical labels.

The default suite runs a small slice; the long runs (>= 10,000 relation-extraction and
>= 3,000 NER inputs) are marked ``long`` (``pytest -m long tests/test_fuzz.py``), and
``benchmarks/fuzz_inputs.py`` runs the same fuzzing and prints every finding grouped by
relation with the smallest input that shows it.
"""

from __future__ import annotations

import json
import re
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

import mtwidgets as mt
from mtwidgets.core.errors import InputError, MTError
from mtwidgets.core.inputs import BaseInput, input_from_dict
from mtwidgets.core.relation import (
    VERDICTS,
    Draft,
    Group,
    MetamorphicRelation,
    OutputProperty,
    Transformation,
)
from mtwidgets.core.spans import Span, check_span
from mtwidgets.core.task import get_task
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.labels import CANONICAL
from mtwidgets.re.inputs import RelationInput

RE_TASK = RelationInput.task
NER_TASK = NERInput.task
RE_RELATIONS: tuple[str, ...] = tuple(get_task(RE_TASK).relations)
NER_RELATIONS: tuple[str, ...] = tuple(get_task(NER_TASK).relations)

# -- vocabularies -----------------------------------------------------------------------------
# (text, natural type): relation-extraction types are TACRED's, NER labels are canonical.
PEOPLE = ["John", "Mary", "Barack Obama", "Angela Merkel", "Li Wei", "José", "Zoë", "O'Brien",
          "Jean-Luc Picard", "Dr. Smith", "Ann", "Mohammed", "Claude"]
CITIES = ["Paris", "Springfield", "New York", "Austin", "Berlin", "Honolulu", "São Paulo", "Tokyo"]
COUNTRIES = ["France", "U.S.", "UK", "Germany", "Japan", "the United States", "Brazil"]
NATIONALITIES = ["French", "American", "German", "Japanese", "Brazilian"]
ORGS = ["Google", "IBM", "the United Nations", "Apple Inc.", "Acme Corp", "MIT", "the BBC"]
NUMBERS = ["42", "80", "3.5", "1,000", "two", "19"]
DATES = ["Monday", "1999", "March 3, 2020", "last year", "today"]
TITLES = ["president", "CEO", "father", "wife", "founder", "son", "director"]
PRONOUNS = ["he", "she", "his", "her", "they", "He", "She", "him", "it"]
FUNCTION = ["the", "of", "in", "was", "born", "is", "met", "and", "dies", "at", "said", "who",
            "'s", "a", "to", "with", "from", "has", "married", "works", "for", "city", "company"]
PUNCT = [".", ",", "!", "?", "-", "(", ")", '"', "—", ";", ":", "'"]
ODD = ["\u2028", "\u2029", "\u0085", "\U0001f600", "\U0001f469\u200d\U0001f469\u200d\U0001f467", "e\u0301",
       "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627", "\u200b", "\u200d", "\u00a0", "\t", "\n",
       "\u6771\u4eac", "\u202e", "\ufeff", "\u0301", "\U0001d54f", "\u00e9t\u00e9", "\u2603", "\u3000"]
MARKUP = ["[[", "]]", "<<", ">>", "|", "[", "]", "<", ">", "\\", "a|b", "x>>y", "[[John|PERSON]]",
          "<<Mary>>", "\\[", "<b>", "]]>"]
SEPARATORS = [" "] * 12 + ["", "  ", "\n", "\u2028", "\u00a0", "\t", " \u200b"]

RE_ENTITIES: dict[str, list[str]] = {
    "PERSON": PEOPLE, "CITY": CITIES, "COUNTRY": COUNTRIES, "NATIONALITY": NATIONALITIES,
    "ORGANIZATION": ORGS, "NUMBER": NUMBERS, "DATE": DATES, "TITLE": TITLES,
}
RE_TYPES = [*RE_ENTITIES, "STATE_OR_PROVINCE", "LOCATION", "MISC", "RELIGION", "CAUSE_OF_DEATH",
            "X", "per", "NAMED ENTITY", "\u00dcN\u00cfCODE", "\U0001f600", "A-B_C.D"]
NER_ENTITIES: dict[str, list[str]] = {
    "PERSON": PEOPLE, "GPE": CITIES + COUNTRIES, "NORP": NATIONALITIES, "ORG": ORGS,
    "CARDINAL": NUMBERS, "DATE": DATES, "MONEY": ["$5", "10 euros", "$3.2 million"],
    "FAC": ["the Eiffel Tower", "JFK Airport"], "EVENT": ["the Olympics", "World War II"],
    "PRODUCT": ["Windows", "iPhone"], "LOC": ["Europe", "the Alps"], "TIME": ["noon", "3 pm"],
}

# Sentence shapes, so that the transformations meet the structures they act on, not only
# token salad. {TYPE} slots take an entity of that type.
RE_TEMPLATES = [
    "{PERSON} was born in {CITY} .",
    "{PERSON} , the {TITLE} of {ORGANIZATION} , met {PERSON} in {CITY} .",
    "{NATIONALITY} filmmaker {PERSON} dies at {NUMBER} .",
    "{PERSON} married {PERSON} in {COUNTRY} on {DATE} .",
    "{PERSON} said he works for {ORGANIZATION} in {CITY} , {COUNTRY} .",
    "{ORGANIZATION} , based in {CITY} , hired {PERSON} as {TITLE} .",
    "{PERSON} 's {TITLE} {PERSON} lives in {CITY} .",
    "{PERSON} , {NUMBER} , is a {NATIONALITY} {TITLE} .",
    "She met {PERSON} and {PERSON} at {ORGANIZATION} .",
    "{PERSON} said he met {PERSON} in {CITY} .",
    "{PERSON} , a {NUMBER} -year-old {NATIONALITY} {TITLE} , lives in {COUNTRY} .",
    "When {PERSON} joined {ORGANIZATION} , she was {NUMBER} .",
]
NER_TEMPLATES = [
    "{PERSON} visited {GPE} on {DATE} .",
    "{PERSON} , who works for {ORG} , met {PERSON} in {GPE} .",
    "The {NORP} team won {CARDINAL} medals at {EVENT} .",
    "{ORG} paid {MONEY} for a small company in {GPE} .",
    "{PERSON} flew from {FAC} to {LOC} at {TIME} .",
    "Is {PERSON} the director of {ORG} ?",
    "{PERSON} bought an {PRODUCT} in {GPE} last week .",
    "The old house near the river belongs to {PERSON} .",
    "{PERSON} bought a large house in {GPE} .",
    "The young doctor quickly helped {PERSON} in {GPE} .",
    "{PERSON} and {PERSON} founded {ORG} in {GPE} .",
    "{ORG} hired {PERSON} and {PERSON} in {DATE} .",
    "{PERSON} praised {PERSON} at the big meeting .",
    "{PERSON} wrote a short letter to {PERSON} .",
]

Token = tuple[str, "str | None"]  # (text, natural type)


def _pool(entities: dict[str, list[str]]) -> list[Token]:
    return [(w, t) for t, words in entities.items() for w in words]


@st.composite
def _tokens(draw: Any, entities: dict[str, list[str]], templates: list[str], odd_rate: int) -> list[Token]:
    """A token list: a filled template or a salad, with odd and markup tokens mixed in."""
    plain: list[Token] = [(w, None) for w in FUNCTION + PRONOUNS + PUNCT + TITLES]
    weird: list[Token] = [(w, None) for w in ODD + MARKUP]
    if draw(st.booleans()):  # a clean sentence: no odd characters
        odd_rate = 0
    if draw(st.integers(0, 2)) > 0:
        toks: list[Token] = []
        for piece in draw(st.sampled_from(templates)).split(" "):
            slot = re.fullmatch(r"\{(\w+)\}", piece)
            if slot:
                toks.append((draw(st.sampled_from(entities[slot.group(1)])), slot.group(1)))
            else:
                toks.append((piece, None))
    else:
        kinds = st.sampled_from(["entity", "entity", "plain", "plain", "plain"])
        toks = []
        for kind in draw(st.lists(kinds, min_size=2, max_size=12)):
            toks.append(draw(st.sampled_from(_pool(entities) if kind == "entity" else plain)))
    for _ in range(draw(st.integers(0, odd_rate))):  # insert odd and markup tokens
        toks.insert(draw(st.integers(0, len(toks))), draw(st.sampled_from(weird)))
    return toks


def _join(draw: Any, toks: list[Token]) -> tuple[str, list[tuple[int, int]]]:
    clean = all(w not in ODD and w not in MARKUP for w, _ in toks) and draw(st.integers(0, 3)) > 0
    text, offsets = "", []
    for i, (word, _) in enumerate(toks):
        if i and clean:  # punctuation attached as in written text
            text += "" if word in (".", ",", "?", "!", "'s", ";", ":") or word.startswith("-") else " "
        elif i:
            text += draw(st.sampled_from(SEPARATORS))
        offsets.append((len(text), len(text) + len(word)))
        text += word
    return text, offsets


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _token_spans(text: str, offsets: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """(start, end, first token, last token) of every run of 1-3 tokens that is a valid span."""
    out = []
    for i in range(len(offsets)):
        for j in range(i, min(i + 3, len(offsets))):
            trimmed = _trim(text, offsets[i][0], offsets[j][1])
            if trimmed is not None:
                out.append((*trimmed, i, j))
    return out


def _char_span(draw: Any, text: str) -> tuple[int, int] | None:
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, min(len(text), start + 12)))
    return _trim(text, start, end)


@st.composite
def relation_inputs(draw: Any, odd_rate: int = 3) -> RelationInput:
    """A valid relation-extraction input (see the module docs)."""
    toks = draw(_tokens(RE_ENTITIES, RE_TEMPLATES, odd_rate))
    text, offsets = _join(draw, toks)
    if not text.strip():
        text, offsets = text + " John", offsets + [(len(text) + 1, len(text) + 5)]
        toks = toks + [("John", "PERSON")]
    spans: list[tuple[int, int, str | None]] = []
    for _role in ("head", "tail"):
        found: tuple[int, int] | None = None
        natural: str | None = None
        if draw(st.integers(0, 9)) == 0:  # arbitrary characters, not token boundaries
            found = _char_span(draw, text)
        if found is None:
            cands = [c for c in _token_spans(text, offsets) if not any(c[0] < e and s < c[1] for s, e, _ in spans)]
            if not cands:
                break
            # Entities first: most real heads and tails are names.
            named = [c for c in cands if c[2] == c[3] and toks[c[2]][1] is not None]
            pronouns = [c for c in cands if c[2] == c[3] and toks[c[2]][0] in PRONOUNS]
            pick = draw(st.integers(0, 9))
            pool = named if pick < 6 and named else pronouns if pick < 7 and pronouns else cands
            start, end, first, _ = draw(st.sampled_from(pool))
            found, natural = (start, end), toks[first][1] if (start, end) == offsets[first] else None
        if any(found[0] < e and s < found[1] for s, e, _ in spans):
            break
        choice = draw(st.integers(0, 9))
        label = natural if choice < 5 and natural else (None if choice < 7 else draw(st.sampled_from(RE_TYPES)))
        spans.append((*found, label))
    if len(spans) < 2:  # no room for two disjoint spans: append two names
        text += " Ann met Mary"
        spans = spans[:1] + [(len(text) - 4, len(text), "PERSON")]
        if len(spans) < 2:
            spans.insert(0, (len(text) - 12, len(text) - 9, None))
    head, tail = spans if draw(st.booleans()) else spans[::-1]
    return RelationInput(text, Span(*head), Span(*tail))


@st.composite
def ner_inputs(draw: Any, odd_rate: int = 1) -> NERInput:
    """A valid NER input: entity-like words, most of them with a gold span."""
    toks = draw(_tokens(NER_ENTITIES, NER_TEMPLATES, odd_rate))
    text, offsets = _join(draw, toks)
    if not text.strip():
        text = text + " Paris"
        offsets, toks = offsets + [(len(text) - 5, len(text))], toks + [("Paris", "GPE")]
    gold: list[Span] = []
    for (_word, label), (start, end) in zip(toks, offsets):
        if label is None or draw(st.integers(0, 9)) < 2:
            continue
        if draw(st.integers(0, 9)) == 0:
            label = draw(st.sampled_from(CANONICAL))  # a wrong but canonical gold label
        gold.append(Span(start, end, label))
    if draw(st.integers(0, 9)) == 0:  # a gold span on arbitrary characters
        found = _char_span(draw, text)
        if found is not None and not any(found[0] < s.end and s.start < found[1] for s in gold):
            gold.append(Span(*found, draw(st.sampled_from(CANONICAL))))
    return NERInput(text, tuple(gold))


# -- the invariant ---------------------------------------------------------------------------
def invalid(x: BaseInput, like: BaseInput) -> str | None:
    """Why ``x`` (a group's source or follow-up) is not a valid input of ``like``'s task,
    else ``None``."""
    if type(x) is not type(like):
        return f"a {type(x).__name__}, not a {type(like).__name__}"
    try:
        back = input_from_dict(json.loads(json.dumps(x.to_dict(), ensure_ascii=False)))
        x.key().encode("utf-8")
    except (MTError, ValueError, TypeError, KeyError) as exc:  # UnicodeEncodeError is a ValueError
        return f"does not rebuild from its dict: {type(exc).__name__}: {exc}"
    if back != x:
        return f"rebuilds as {back!r}, not {x!r}"
    spans: Sequence[Span] = ()
    if isinstance(x, RelationInput):
        spans = (x.head, x.tail)
        try:
            reread = RelationInput.parse(x.to_markup())
        except MTError as exc:
            return f"its markup does not parse: {exc}"
        if reread != x:
            return f"its markup {x.to_markup()!r} reads back as {reread!r}"
    elif isinstance(x, NERInput):
        spans = x.gold
    for s in spans:
        try:
            check_span(x.text, s)
        except MTError as exc:
            return f"a span does not land on the text: {exc}"
    return None


def _where(exc: BaseException) -> str:
    """The innermost frame inside mtwidgets (or the innermost frame) of a traceback."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/mtwidgets/" in f.filename.replace("\\", "/")] or frames
    f = ours[-1]
    path = f.filename.replace("\\", "/")
    path = path[path.rfind("/mtwidgets/") + 1 :] if "/mtwidgets/" in path else Path(path).name
    return f"{path}:{f.lineno} in {f.name}"


def _shape(message: str) -> str:
    """A message with its values blanked, to group findings that differ only in data."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", message)[:90]


def problems(
    relation: mt.MetamorphicRelation, sources: Sequence[BaseInput], seed: int, outcome: list[str] | None = None
) -> list[tuple[str, str]]:
    """``(kind, detail)`` for everything wrong with ``relation.generate(sources, seed)``.

    ``outcome`` (when given) receives what the call gave: ``"followups"``,
    ``"not_applicable"`` or ``"MTError"``."""
    outcome = [] if outcome is None else outcome
    try:
        groups = relation.generate(sources[0] if len(sources) == 1 else tuple(sources), seed=seed)
    except MTError:
        outcome.append("MTError")
        return []
    except Exception as exc:  # noqa: BLE001 - the finding itself
        return [(f"raised {type(exc).__name__} at {_where(exc)}", f"{type(exc).__name__}: {exc}")]
    if not isinstance(groups, list) or not groups or not all(isinstance(g, Group) for g in groups):
        return [("did not return a non-empty list of groups", repr(groups)[:300])]
    outcome.append("followups" if any(g.followups for g in groups) else "not_applicable")
    out = []
    for g in groups:
        if not g.followups and not g.not_applicable:
            out.append(("a group with no follow-ups and no reason", repr(g)[:300]))
        for role, inputs in (("source", g.sources), ("follow-up", g.followups)):
            for x in inputs:
                why = invalid(x, sources[0])
                if why is not None:
                    out.append((f"invalid {role}: {_shape(why)}", f"{why}\n  group note: {g.note!r}"))
    return out


# -- a fuzzing run that collects every finding ----------------------------------------------------
@dataclass
class Finding:
    relation: str
    kind: str
    detail: str
    sources: tuple[BaseInput, ...]
    seed: int
    count: int = 1

    def size(self) -> int:
        return sum(len(s.text) for s in self.sources if hasattr(s, "text"))

    def reproducer(self) -> str:
        imports = {type(s).__module__ + ":" + type(s).__name__ for s in self.sources}
        lines = [f"from {m} import {n}" for m, _, n in (i.partition(":") for i in sorted(imports))]
        lines += ["from mtwidgets.core.spans import Span", "import mtwidgets as mt"]
        arg = repr(self.sources[0]) if len(self.sources) == 1 else "(" + ", ".join(map(repr, self.sources)) + ")"
        lines.append(f"mt.relation({self.relation!r}).generate({arg}, seed={self.seed})")
        return "\n".join(lines)


@dataclass
class FuzzReport:
    task: str
    distinct: set[str] = field(default_factory=set)  # the inputs checked
    repeats: int = 0  # generated again and skipped
    calls: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    outcomes: dict[str, dict[str, int]] = field(default_factory=dict)  # relation -> outcome -> calls
    findings: dict[tuple[str, str], Finding] = field(default_factory=dict)

    def add(self, relation: mt.MetamorphicRelation, sources: Sequence[BaseInput], seed: int) -> None:
        started = time.perf_counter()
        outcome: list[str] = []
        found = problems(relation, sources, seed, outcome)
        self.seconds[relation.name] = self.seconds.get(relation.name, 0.0) + time.perf_counter() - started
        tally = self.outcomes.setdefault(relation.name, {})
        for o in outcome or ["finding"]:
            tally[o] = tally.get(o, 0) + 1
        self.calls += 1
        for kind, detail in found:
            key = (relation.name, kind)
            old = self.findings.get(key)
            new = Finding(relation.name, kind, detail, tuple(sources), seed)
            if old is None:
                self.findings[key] = new
            else:
                old.count += 1
                if new.size() < old.size():  # keep the smallest input that shows it
                    new.count = old.count
                    self.findings[key] = new

    @property
    def inputs(self) -> int:
        return len(self.distinct)

    def summary(self) -> str:
        lines = [
            f"{self.task}: {self.inputs} distinct inputs ({self.repeats} repeats skipped), "
            f"{self.calls} generate calls"
        ]
        for name, sec in self.seconds.items():
            tally = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.get(name, {}).items()))
            lines.append(f"  {name}: {sec:.1f} s ({tally})")
        if not self.findings:
            lines.append("  no findings")
        for f in sorted(self.findings.values(), key=lambda f: (f.relation, -f.count)):
            lines.append(f"  {f.relation}: {f.kind} ({f.count}x)\n    {f.detail[:400]}\n    " +
                         f.reproducer().replace("\n", "\n    "))
        return "\n".join(lines)


def fuzz(task: str, n: int, *, seed: int = 0, relations: Sequence[str] | None = None) -> FuzzReport:
    """Generate ``n`` inputs of ``task`` and check every relation on each (no shrinking:
    every finding is collected, with the smallest input that shows it)."""
    names = list(relations or (RE_RELATIONS if task == RE_TASK else NER_RELATIONS))
    rels = [mt.relation(name) for name in names]
    strategy = relation_inputs() if task == RE_TASK else ner_inputs()
    report = FuzzReport(task)

    def body(x: BaseInput, other: BaseInput, s: int) -> None:
        identity = json.dumps(x.to_dict(), ensure_ascii=False, sort_keys=True)
        if report.inputs >= n:
            return
        if identity in report.distinct:  # Hypothesis repeats its simplest examples
            report.repeats += 1
            return
        report.distinct.add(identity)
        for rel in rels:
            report.add(rel, (x,), s)
            if rel.n_sources == 2 and s % 4 == 0:  # also an explicit pair of sources
                report.add(rel, (x, other), s)

    round_ = 0
    while report.inputs < n:
        run = settings(
            max_examples=2 * (n - report.inputs), database=None, deadline=None, phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )(given(strategy, strategy, st.integers(0, 2**31 - 1))(body))
        hypothesis_seed(seed * 1000 + round_)(run)()
        round_ += 1
    return report


# -- the default slice (Hypothesis shrinks a failure to a minimal input) ---------------------------
def _check(names: Sequence[str], x: BaseInput, s: int) -> None:
    found = [(name, kind, detail) for name in names for kind, detail in problems(mt.relation(name), (x,), s)]
    assert not found, "\n".join(f"{name}: {kind}\n  {detail}" for name, kind, detail in found) + f"\non {x!r}"


@settings(max_examples=250, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(x=relation_inputs(), s=st.integers(0, 2**31 - 1))
def test_relation_extraction_relations_on_fuzzed_inputs(x: RelationInput, s: int) -> None:
    _check(RE_RELATIONS, x, s)


@settings(max_examples=80, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(x=ner_inputs(), s=st.integers(0, 2**31 - 1))
def test_ner_relations_on_fuzzed_inputs(x: NERInput, s: int) -> None:
    _check(NER_RELATIONS, x, s)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(x=relation_inputs(odd_rate=6))
def test_generated_relation_inputs_are_valid_and_round_trip(x: RelationInput) -> None:
    # The generator's own output: valid inputs whose markup reads back exactly.
    assert invalid(x, x) is None


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(x=ner_inputs(odd_rate=4))
def test_generated_ner_inputs_are_valid(x: NERInput) -> None:
    assert invalid(x, x) is None


# -- the long runs ------------------------------------------------------------------------------
@pytest.mark.long
@pytest.mark.parametrize(("task", "n"), [(RE_TASK, 10_000), (NER_TASK, 3_000)])
def test_long_fuzz(task: str, n: int) -> None:
    report = fuzz(task, n, seed=0)
    assert report.inputs >= n
    assert not report.findings, report.summary()


# -- a mixed data set through mt.run -----------------------------------------------------------------
GOOD_RE = [
    {"markup": "[[John|PERSON]] is <<Mary|PERSON>>'s father."},
    {"markup": "<<French|NATIONALITY>> filmmaker [[Claude|PERSON]] dies at 80."},
    {"markup": "[[Obama|PERSON]] was born in <<Honolulu|CITY>>, Hawaii."},
    {"markup": "[[Tim Cook|PERSON]] is the CEO of <<Apple|ORGANIZATION>> in Cupertino."},
    # odd but valid: separators, emoji, combining marks, right-to-left, escaped markup
    {"markup": "[[Zoe\u0301|PERSON]] met\u2028<<\u05e9\u05dc\u05d5\u05dd|PERSON>> \U0001f600 a \\<< b."},
    {"text": "x [[y]] z met Ann\u2029and Bob.", "head": "Ann", "tail": "Bob", "head_type": "PERSON"},
]
HOSTILE_RE = [
    {"text": "John met Mary.", "head_start": 0, "head_end": 4, "tail_start": 9, "tail_end": 13,
     "head_type": ["PERSON"]},
    {"text": "John met Mary.", "head_start": 0, "head_end": 4, "tail_start": 9, "tail_end": 13,
     "tail_type": "PER>"},
    {"text": "John met \ud800 Mary.", "head": "John", "tail": "Mary"},
    {"text": "John met Mary.", "head_start": 0, "head_end": 4, "tail_start": 9, "tail_end": 99},
    {"markup": "[[John]] met <<Mary"},
]
GOOD_NER = [
    {"text": "Obama visited Paris on Monday.", "entities": [
        {"start": 0, "end": 5, "label": "PERSON"}, {"start": 14, "end": 19, "label": "GPE"},
        {"start": 23, "end": 29, "label": "DATE"}]},
    {"text": "The old house near the river belongs to Mary.", "entities": [
        {"start": 40, "end": 44, "label": "PERSON"}]},
    {"text": "Mary met\u2028John [[at]] <<IBM>> \U0001f600.", "entities": [
        {"start": 0, "end": 4, "label": "PERSON"}, {"start": 9, "end": 13, "label": "PERSON"}]},
    {"text": "Is Tim Cook the director of Apple?", "entities": [
        {"start": 3, "end": 11, "label": "PERSON"}, {"start": 28, "end": 33, "label": "ORG"}]},
]
HOSTILE_NER = [
    {"text": "Obama visited Paris.", "entities": [{"start": 0, "end": 5, "label": ["PERSON"]}]},
    {"text": "Obama visited \udc80Paris.", "entities": []},
    {"text": "Obama visited Paris.", "entities": [{"start": 0, "end": 50, "label": "PERSON"}]},
    {"text": "Obama visited Paris.", "entities": 5},
    {"text": ["Obama"]},
]


def _toy_model(task: str) -> Any:
    """A deterministic toy model: a label from the head's first letter (relation extraction),
    or every capitalised word as a PERSON (NER)."""
    from mtwidgets.core.model import CallableModel

    if task == RE_TASK:
        return CallableModel(lambda x: "per:x" if x.head_text[:1] < "M" else "no_relation", kind="label")

    def spans(x: NERInput) -> list[tuple[int, int, str]]:
        return [(m.start(), m.end(), "PERSON") for m in re.finditer(r"\b[A-Z]\w+", x.text)]

    return CallableModel(spans, kind="spans")


@pytest.mark.parametrize(
    ("task", "good", "hostile"), [(RE_TASK, GOOD_RE, HOSTILE_RE), (NER_TASK, GOOD_NER, HOSTILE_NER)]
)
def test_mixed_good_and_hostile_rows_through_run(
    task: str, good: list[dict[str, Any]], hostile: list[dict[str, Any]]
) -> None:
    rows: list[dict[str, Any]] = []
    good_rows: list[int] = []
    for i in range(max(len(good), len(hostile))):  # interleaved: good, hostile, good, ...
        if i < len(good):
            good_rows.append(len(rows))
            rows.append(good[i])
        if i < len(hostile):
            rows.append(hostile[i])
    results = mt.run(rows, relations="all", models={"toy": _toy_model(task)}, task=task, seed=3,
                     on_bad_rows="skip")
    # every hostile row is skipped with a reason naming it; no good row is
    assert sorted(r for r, _ in results.skipped) == sorted(set(range(len(rows))) - set(good_rows))
    frame = results.frame
    relations = get_task(task).relations
    missing = [(row, rel) for row in good_rows for rel in relations
               if not ((frame["source_index"] == row) & (frame["relation"] == rel)).any()]
    assert not missing, f"good rows without a group: {missing}"
    assert set(frame["verdict"]) <= set(VERDICTS)
    errors = frame[frame["verdict"] == "error"]
    assert errors.empty, "good rows with verdict error:\n" + "\n".join(
        f"{r.relation} row {r.source_index}: {r.reason}" for r in errors.itertuples()
    )



# -- the checker itself catches what it is for ---------------------------------------------------------
class _Broken(Transformation):
    """A transformation misbehaving in one of the ways the fuzzing looks for."""

    def __init__(self, how: str) -> None:
        self.how = how

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        return [[0]]

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = sources[0]
        assert isinstance(x, RelationInput)
        if self.how == "raise":
            return {}["missing"]  # type: ignore[no-any-return]
        if self.how == "refuse":
            raise InputError("cannot build this one")
        bad = RelationInput(x.text, x.head, x.tail)
        if self.how == "span off the text":
            object.__setattr__(bad, "tail", Span(x.tail.start, len(x.text) + 3))
        elif self.how == "surrogate":
            object.__setattr__(bad, "text", x.text + "\ud800")
        return Draft((x,), (bad,), self.how)


@pytest.mark.parametrize(
    ("how", "kind"),
    [("raise", "raised KeyError at"), ("span off the text", "invalid follow-up"), ("surrogate", "invalid follow-up"),
     ("refuse", None), ("fine", None)],
)
def test_the_checker_flags_exceptions_and_invalid_followups(how: str, kind: str | None) -> None:
    rel = MetamorphicRelation("MR-broken", RE_TASK, "test", "", "", "", _Broken(how), OutputProperty())
    x = RelationInput.parse("[[John|PERSON]] met <<Mary|PERSON>>.")
    found = problems(rel, (x,), 0)
    if kind is None:
        assert found == []
    else:
        assert found and found[0][0].startswith(kind), found
