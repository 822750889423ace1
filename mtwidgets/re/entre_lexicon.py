"""ENTRE's entity lexicon: real-world PERSON and ORGANIZATION names (Wang et al. 2023, 3.2).

The paper replaces names with others of the same type drawn at random from a large lexicon
(902,007 persons and 24,933 organisations from Wikipedia, plus the data's own names). This
lexicon is built offline from packages on PyPI by ``scripts/build_entre_lexicon.py`` and
shipped in ``mtwidgets/re/data`` (read lazily, once; nothing is downloaded at run time):

- persons (``entre_persons.tsv.gz``, 97 kB): given names by gender and surnames by gender
  of 49 Latin-script name cultures (faker locales, from English, German, Spanish, Polish,
  Icelandic patronymics, Yoruba, Igbo, Hausa, Akan, Algerian, Turkish, Uzbek, romanized
  Japanese ...), from faker's person providers (faker 40.x, MIT licence): at most 300
  given names per gender and 1,000 surnames per culture, in faker's order (by frequency
  for most lists), without the names of immigrants a country's list holds
  (:func:`is_foreign`: "Nguyen" in the Norwegian list, "Mehmet" in the Swiss one). A full
  name is a given name of a culture with a surname of that culture, so every name has a
  known gender and culture: 5,990 given names and 15,485 surnames give 4,800,482 distinct
  full names (2,371,520 male, 2,428,962 female). A given name is kept only when its gender is *known*: faker
  lists it for one gender only in every culture, and nomquamgender 0.1.4's name-gender
  data (MIT licence; counts of the name's bearers from many sources) confirms that gender
  (faker's Kenyan and Swahili lists give Kikuyu women's names as men's, and words as
  names; faker's Swahili lists, which hold words, are left out). Informal forms, places,
  peoples, everyday English words and letters English text transliterates (ð, þ) are left
  out, and so are surnames that are places, peoples or everyday words.
- genders (``entre_genders.tsv.gz``, 111 kB): the gender of 42,767 given names (folded to
  lower-case ASCII) that nomquamgender's data gives with confidence (p >= 0.9 one way,
  from 5 or more sources and 50 or more bearers), and the names it finds used by both:
  how a replacement reads the gender of the name it replaces.
- organisations (``entre_organizations.tsv.gz``, 372 kB): 45,089 names of 25,153 real
  organisations (39,177 company, 1,193 bank, 368 insurer, 60 airline and 4,291 university
  names). Listed companies,
  banks, insurers and airlines from investpy 1.0.8's ``resources/stocks.csv``
  (investing.com listings, MIT licence), with share classes, depositary receipts,
  tickers and "(The)" removed and truncated, misspelt, upper-case, coded ("KSCC",
  "PJSC", "Tbk") or overlong listings dropped, each with its legal suffix as written
  ("Anritsu Corp") and, where that reads as the company in running text, also without it
  ("Anritsu"), with the country it is listed in and the sector its own name states
  ("Concert Pharmaceuticals", "Kroger Supermarkets"). Universities and colleges with
  English names from swot 1.0.1's academic domain files (MIT licence), with their country,
  whether they take "the" ("the University of Malta") and whether the name is a
  university's, a college's or one of a narrow field ("Royal College of Music").

The cultures a name belongs to are read from faker's full lists (:meth:`EntityLexicon.
given_locales`, :meth:`EntityLexicon.surname_locales`) and :func:`name_locales`.
:meth:`EntityLexicon.sizes` and :meth:`EntityLexicon.sources` give the counts of the
files shipped (and of the data's names once added). Sampling is exactly uniform over the
distinct names that match (a full name is drawn by picking a group of given names that
share their cultures with the weight of its given-name x surname combinations, then a
given name and a surname), deterministic for a ``random.Random``, and never materialises
the millions of full names.
"""

from __future__ import annotations

import bisect
import gzip
import importlib
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from ..lang import kinds
from ..lang import names as lexicons

__all__ = ["ACADEMIC_TYPES", "EntityLexicon", "GENDERS", "INDUSTRY_WORDS", "ORG_KINDS", "ORG_KIND_WORDS", "OrgForm",
           "academic_type", "culture_group", "culture_of", "default_lexicon", "language_group", "faker_person_lists", "fold_name", "is_bank_name", "is_foreign",
           "is_latin_word",
           "legal_suffix", "name_cultures", "name_locales", "native_language", "one_culture"]

GENDERS: tuple[str, str] = ("male", "female")
_G = {"male": "m", "female": "f"}
PERSONS_FILE = "entre_persons.tsv.gz"
ORGANIZATIONS_FILE = "entre_organizations.tsv.gz"
GENDERS_FILE = "entre_genders.tsv.gz"
ORG_KINDS: tuple[str, ...] = ("company", "bank", "insurer", "airline", "university")

# Words that give an organisation its typed sub-kind (other than a plain company).
ORG_KIND_WORDS: dict[str, frozenset[str]] = {
    "bank": frozenset({"Bank", "Bancorp", "Banco", "Banque", "Bankshares", "Bancshares", "Bancorporation", "Banca",
                       "Bankasi", "Banka", "Bankers"}),
    "insurer": frozenset({"Insurance", "Assurance", "Reinsurance", "Assurances", "Assicurazioni", "Versicherung",
                          "Versicherungs", "Seguros", "Insurers"}),
    "airline": frozenset({"Airlines", "Airways", "Airline"}),
    "university": frozenset({"University", "College", "Polytechnic", "Universit\u00e4t", "Universit\u00e9",
                             "Universidad", "Universit\u00e0"}),
}
# Industries a company's own name states ("Nordvind Energy", "Castellan Biotech"): a company
# named for one is replaced by a company named for the same one, so the rest of the sentence
# ("to develop vaccines") still fits; a company named for none by one named for none. The
# narrow sectors come first ("Kroger Supermarkets" sells groceries, not any food), and a
# sentence that states a sector ("grocery stalls", "the carmaker") draws from these too.
INDUSTRY_WORDS: dict[str, frozenset[str]] = {
    "grocery": frozenset({"Supermarket", "Supermarkets", "Grocery", "Groceries", "Grocers", "Hypermarket",
                          "Hypermarkets", "Foodstores"}),
    "retail": frozenset({"Stores", "Store", "Retail", "Retailing", "Retailers", "Mart", "Shops", "Shopping"}),
    "hospitals": frozenset({"Hospital", "Hospitals", "Clinic", "Clinics"}),
    "publishing": frozenset({"Publishing", "Publishers", "Publications", "Books"}),
    "restaurants": frozenset({"Restaurants", "Restaurant", "Pizza", "Burger", "Burgers", "Catering", "Dining",
                              "Steakhouse"}),
    "oil and gas": frozenset({"Oil", "Petroleum", "Gas", "Petrochemical", "Petrochemicals", "Drilling", "Offshore",
                              "Oilfield", "Refining"}),
    "energy": frozenset({"Energy", "Power", "Solar", "Renewables", "Renewable", "Utilities", "Electricity", "Wind"}),
    "mining": frozenset({"Mining", "Mines", "Minerals", "Gold", "Silver", "Metals", "Resources", "Copper",
                         "Uranium", "Lithium", "Coal", "Exploration", "Nickel", "Zinc"}),
    "steel": frozenset({"Steel", "Iron", "Aluminium", "Aluminum"}),
    "pharmaceuticals": frozenset({"Pharmaceutical", "Pharmaceuticals", "Pharma", "Therapeutics", "Biotech",
                                  "Biosciences", "Bioscience", "Biotechnology", "Biopharma", "Biologics", "Genomics",
                                  "Biotherapeutics", "Vaccines", "Oncology"}),
    "health care": frozenset({"Health", "Healthcare", "Medical", "Dental", "Diagnostics"}),
    "food and drink": frozenset({"Foods", "Food", "Beverage", "Beverages", "Brewing", "Brewery", "Breweries",
                                 "Dairy", "Sugar", "Farms", "Bakeries", "Bakery", "Tea", "Coffee", "Agro",
                                 "Foodstuffs", "Wines", "Winery", "Distillers", "Seafood", "Poultry"}),
    "shipping and logistics": frozenset({"Shipping", "Logistics", "Freight", "Cargo", "Maritime", "Tankers",
                                         "Transport", "Transportation", "Shipbuilding", "Trucking", "Rail",
                                         "Railways", "Railway", "Ports", "Container"}),
    "aerospace and defence": frozenset({"Aerospace", "Aviation", "Defense", "Defence", "Aeronautics", "Satellite"}),
    "automotive": frozenset({"Motors", "Motor", "Automotive", "Auto", "Automobile", "Automobiles", "Tyres",
                             "Tires"}),
    "technology": frozenset({"Technologies", "Technology", "Tech", "Software", "Systems", "Analytics", "Data",
                             "Digital", "Semiconductor", "Semiconductors", "Electronics", "Robotics", "Networks",
                             "Computing", "Computer", "Computers", "Micro", "Microsystems", "Cyber", "Cloud",
                             "Infotech", "Informatics", "Internet", "Online"}),
    "telecommunications": frozenset({"Telecom", "Telecommunications", "Communications", "Mobile", "Wireless",
                                     "Telecommunication", "Cable", "Broadband"}),
    "media": frozenset({"Media", "Entertainment", "Pictures", "Studios", "Broadcasting", "Films", "Film", "Games",
                        "Gaming", "Music", "Television", "Records"}),
    "real estate": frozenset({"Properties", "Property", "Realty", "REIT", "Estates", "Estate", "Land", "Homes",
                              "Housing", "Developments", "Development"}),
    "finance": frozenset({"Capital", "Investment", "Investments", "Financial", "Finance", "Securities", "Asset",
                          "Assets", "Ventures", "Mortgage", "Credit", "Leasing", "Payments", "Brokerage",
                          "Wealth", "Financiero", "Financiera"}),
    "construction": frozenset({"Construction", "Engineering", "Cement", "Building", "Infrastructure", "Builders",
                               "Contractors", "Concrete"}),
    "chemicals": frozenset({"Chemical", "Chemicals", "Plastics", "Fertilizers", "Fertilisers", "Polymers",
                            "Paints", "Coatings"}),
    "consumer goods": frozenset({"Fashion", "Apparel", "Cosmetics", "Textiles", "Textile", "Clothing", "Footwear",
                                 "Furniture", "Jewellery", "Jewelry", "Beauty"}),
    "hotels and leisure": frozenset({"Hotels", "Hotel", "Resorts", "Resort", "Hospitality", "Leisure", "Travel",
                                     "Tourism", "Casino", "Casinos", "Cruises"}),
}
# What a university's, college's or institute's name says it is: a university of every
# field, a college of every field, or a school of one field ("Royal College of Music",
# "Institute of Technology", "Teachers College"), which only a school of the same field
# could replace. A department, faculty or laboratory "at" a school takes a university.
ACADEMIC_TYPES: tuple[str, ...] = ("university", "college", "field")
_FIELD_WORDS = frozenset({
    "Art", "Arts", "Design", "Music", "Medicine", "Medical", "Agriculture", "Agricultural", "Business", "Education",
    "Educational", "Teachers", "Teacher", "Theology", "Theological", "Nursing", "Pharmacy", "Pharmaceutical", "Law",
    "Sport", "Sports", "Veterinary", "Film", "Economics", "Economic", "Management", "Finance", "Financial",
    "Maritime", "Aviation", "Mining", "Forestry", "Fisheries", "Engineering", "Technology", "Technological",
    "Polytechnic", "Health", "Dental", "Dentistry", "Buddhist", "Islamic", "Bible", "Biblical", "Seminary",
    "Divinity", "Hotel", "Tourism", "Fashion", "Drama", "Dance", "Languages", "Language", "Foreign", "Commerce",
    "Accounting", "Banking", "Insurance", "Textile", "Petroleum", "Naval", "Military", "Police", "Defence",
    "Defense", "Nautical", "Marine", "Architecture", "Professional", "Applied", "Vocational", "Community", "Open",
    "Distance", "Virtual", "Online", "Technical", "Conservatory", "Physical", "Culinary", "Sciences", "Science",
    "Osteopathic", "Chiropractic", "Optometry", "Podiatric", "Midwifery", "Social", "Industrial", "Trade",
    "Communication", "Communications", "Media", "Journalism", "Hospitality", "Nutrition", "Rabbinical",
    "Psychology", "Computer", "Computing", "Telecommunications", "Transport", "Railway", "Medicinal"})
_PROPERTY_TRUSTS = frozenset({"REIT", "Reit", "Socimi", "SOCIMI"})
_UNIVERSITY_HEADS = frozenset({"University", "Universit\u00e4t", "Universit\u00e9", "Universidad", "Universit\u00e0"})


def academic_type(name: str) -> str:
    """"university", "college" or "field" (a school of one field, or no university or
    college at all: "Institute", "Academy", "School") for a school's name."""
    words = set(name.replace(",", " ").split())
    if words & _FIELD_WORDS:
        return "field"
    if words & _UNIVERSITY_HEADS:
        return "university"
    return "college" if "College" in words else "field"


# Legal suffixes as listings write them; several may follow each other ("Co Ltd").
_SUFFIX_WORDS = frozenset({
    "Inc", "Inc.", "Incorporated", "Corp", "Corp.", "Corporation", "Co", "Co.", "Company", "Cos", "Ltd", "Ltd.",
    "Limited", "LLC", "L.L.C.", "PLC", "Plc", "plc", "AG", "SA", "S.A.", "SE", "NV", "N.V.", "BV", "B.V.", "AB",
    "ASA", "AS", "A/S", "Oyj", "OYJ", "Oy", "SpA", "S.p.A.", "GmbH", "KGaA", "KG", "Bhd", "Berhad", "Tbk", "PCL", "PJSC",
    "OJSC", "JSC", "LP", "L.P.", "SAOG", "SAE", "SAB", "SAA", "Ltda", "SAS", "Sarl", "Pty", "PT", "Persero",
    "Anonima", "Anonim", "Sirketi", "\u015eirketi", "CA", "OAO", "ZAO", "PAO", "OOO", "AO", "SAOC", "QSC", "PSC", "SAK",
    "KSC", "QPSC", "BSC", "SAL", "Spa", "AD", "DD", "dd", "d.d.", "a.s.", "NL", "Ltd.,", "Tbk.",
})
_MULTI_SUFFIXES = ("SA de CV", "SAB de CV", "S.A.B. de C.V.", "S.A. de C.V.", "de CV", "Sociedad Anonima")
_LATIN_RANGES = ((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x17F))


def is_latin_word(word: str) -> bool:
    """Whether every character of ``word`` is a letter of basic Latin, Latin-1 or Latin
    Extended-A ("Müller", "Łukasz", "Yılmaz"; not "Əliyev", not Cyrillic)."""
    return bool(word) and all(any(lo <= ord(c) <= hi for lo, hi in _LATIN_RANGES) for c in word)


def legal_suffix(name: str) -> str:
    """The legal suffix that ends a company name as written ("Co Ltd" of "Fujiya Co Ltd",
    "" when none); at least one word of the name is left before it."""
    words = name.split()
    for multi in _MULTI_SUFFIXES:
        if name.endswith(" " + multi) and len(words) > len(multi.split()):
            rest = legal_suffix(name[: -len(multi) - 1])
            return f"{rest} {multi}".strip() if rest else multi
    n = 0
    while n < len(words) - 1 and words[len(words) - 1 - n] in _SUFFIX_WORDS:
        n += 1
    return " ".join(words[len(words) - n :])


@dataclass(frozen=True)
class OrgForm:
    """What a replacement of an organisation name must keep: its typed sub-kind, the
    industry its name states ("" for none; ``None``: unknown, any), whether it ends in a
    legal suffix, and whether it takes "the"."""

    kind: str
    industry: str | None
    suffix: str
    takes_the: bool = False


_BANK_COMPOUND = re.compile(r"[a-z](?:bank|banken|banka|bankasi)\b")


def is_bank_name(name: str) -> bool:
    """Whether a name says it is a bank: a bank word ("Bank", "Banco", "Bancorp") or a word
    compounded with one ("Sparebank", "Handelsbanken", "Sberbank")."""
    return bool(set(name.split()) & ORG_KIND_WORDS["bank"]) or bool(_BANK_COMPOUND.search(name))


def industry_of(name: str) -> str:
    """The industry a company's name states ("" when its words state none)."""
    words = set(name.split())
    if words & _PROPERTY_TRUSTS:
        return "real estate"  # "Kenedix Retail REIT" owns shops, it does not run them
    for industry, cues in INDUSTRY_WORDS.items():
        if words & cues:
            return industry
    return ""


# -- name cultures ------------------------------------------------------------------------------
_FOLD = str.maketrans({"\u0131": "i", "\u0142": "l", "\u0141": "L", "\u00f8": "o", "\u00d8": "O", "\u00e6": "ae",
                       "\u00c6": "AE", "\u00df": "ss", "\u0111": "d", "\u0110": "D", "\u00f0": "d", "\u00fe": "th"})
# Cultures of one language that are told apart: the English lists of India, Nigeria and
# Kenya hold names of those countries' own cultures.
_OWN_CULTURE = frozenset({"en_IN", "en_NG", "en_KE", "fr_DZ"})
# at most this many patronymic stems for Icelandic when building (its lists run to the rarest)
_UNUSUAL_PATRONYMIC = frozenset("\u00f0\u00d0\u00fe\u00de")


def fold_name(word: str) -> str:
    """A name folded to lower-case ASCII letters as name lists key it ("Ay\u015fe" -> "ayse",
    "\u0141ukasz" -> "lukasz"), so a text's spelling without accents still finds it."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def culture_of(locale: str) -> str:
    """The name culture of a faker locale: its language ("de" for de_AT), except the English
    lists of India, Nigeria and Kenya, which are cultures of their own."""
    return locale if locale in _OWN_CULTURE else locale.split("_")[0]


def _attr(provider: object, *names: str) -> list[str]:
    for name in names:
        value = getattr(provider, name, None)
        if value:
            return [v for v in value if isinstance(v, str)]
    return []


def faker_person_lists(locale: str, max_patronymics: int | None = None) -> tuple[list[str], list[str], list[str],
                                                                                  list[str]]:
    """(male given, female given, male surnames, female surnames) as faker lists them for a
    locale, with the few locales whose surnames are built rather than listed (Polish
    feminine forms, Icelandic patronymics from ``max_patronymics`` stems or all) and the
    romanized Japanese lists. The build script draws the lexicon from these; a replacement
    reads the culture of the name it replaces from them."""
    p = importlib.import_module(f"faker.providers.person.{locale}").Provider
    if locale == "ja_JP":
        male, female = _attr(p, "first_romanized_names_male"), _attr(p, "first_romanized_names_female")
        last = _attr(p, "last_romanized_names")
        return male, female, last, last
    male, female = _attr(p, "first_names_male"), _attr(p, "first_names_female")
    if locale == "pl_PL":
        gendered = _attr(p, "male_last_names")
        unisex = _attr(p, "unisex_last_names")
        feminine = [re.sub(r"(ski|cki|dzki)$", lambda m: m.group(1)[:-1] + "a", s) for s in gendered]
        return male, female, gendered + unisex, feminine + unisex
    if locale == "is_IS":  # patronymics: the father's name in the genitive + son / d\u00f3ttir
        stems = [s for s in _attr(p, "last_names_without_suffix") if not set(s) & _UNUSUAL_PATRONYMIC]
        if max_patronymics:
            stems = stems[:: max(1, len(stems) // max_patronymics)][:max_patronymics]
        return male, female, [s + "son" for s in stems], [s + "d\u00f3ttir" for s in stems]
    if locale == "id_ID":  # the female "surnames" are given names; Indonesian women's names are
        # rarely given with a family name, so the culture gives men's names only
        return male, [], _attr(p, "last_names_male", "last_names"), []
    last_m = _attr(p, "last_names_male", "last_names")
    last_f = _attr(p, "last_names_female", "last_names")
    return male, female, last_m, last_f


@lru_cache(maxsize=2)
def _raw_lists(locales: tuple[str, ...]) -> dict[str, tuple[list[str], list[str], list[str], list[str]]]:
    out = {}
    for locale in locales:
        try:
            out[locale] = faker_person_lists(locale)
        except ImportError:  # pragma: no cover - depends on the faker version
            continue
    return out


@lru_cache(maxsize=2)
def _listing(locales: tuple[str, ...]) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]], frozenset[str]]:
    """(folded given name -> culture group -> how many of its locales list it, the same for
    surnames, the folded surnames the cultures of their own list)."""
    given: dict[str, dict[str, int]] = {}
    surnames: dict[str, dict[str, int]] = {}
    own: set[str] = set()
    for loc, (male, female, last_m, last_f) in _raw_lists(locales).items():
        group = culture_group(loc)
        for table, words in ((given, male + female), (surnames, last_m + last_f)):
            for w in {fold_name(v) for v in words}:
                counts = table.setdefault(w, {})
                counts[group] = counts.get(group, 0) + 1
        if loc in OWN_LISTS - _ENGLISH_NAMED:
            own |= {fold_name(v) for v in last_m + last_f}
    return given, surnames, frozenset(own)


# lists of their own that hold English surnames too ("Martin" in the Kenyan list)
_ENGLISH_NAMED = frozenset({"en_KE", "en_NG"})
# cultures of several countries' lists, where a given name of one country's list only that
# another culture lists too is an immigrant's ("Diego" in the Swiss German list), and the
# English lists, where a surname of one country's only is ("Nunez" in the American list)
_SEVERAL_COUNTRIES = {False: frozenset({"de", "fr", "es", "nl", "pt", "nordic", "czech-slovak"}),
                      True: frozenset({"en"})}
# an English list's surname (given name) that another language's text names this much more
# often (Zipf) is an immigrant's ("Mata", "Gabriela"; not "Claire")
ENGLISH_MARGIN = {True: 0.3, False: 1.0}


def is_foreign(word: str, locale: str, surname: bool, locales: tuple[str, ...] | None = None) -> bool:
    """Whether a name a culture's faker list holds belongs to another culture (an
    immigrant's name, which a reader takes for no name of that culture): a Chinese, Korean
    or Vietnamese family name; a word whose language stands out in another culture's text
    (:func:`native_language`: "Mehmet" in the Swiss list); in an English list, a word
    other languages' text names more often; in a Western list, a surname a culture of its
    own lists ("Singh" in the American one); in the list of one country of a culture of
    several, a word another culture lists and no other country of its own does. The
    lexicon draws no such name, and a name it replaces is not read as of that culture.
    ``locales``: the cultures to compare with (the shipped ones unless given)."""
    from wordfreq import zipf_frequency

    key = locales if locales is not None else tuple(sorted(_person_table().country))
    given_listing, surname_listing, own = _listing(key)
    group = culture_group(locale)
    folded = fold_name(word)
    if group in _SEVERAL_COUNTRIES[surname]:
        counts = (surname_listing if surname else given_listing).get(folded, {})
        if len(counts) > 1 and counts.get(group, 0) < 2:
            return True
    if surname and word in kinds.family_first_names() and locale not in OWN_LISTS:
        return True
    if locale == "en_IN" and not surname and given_listing.get(folded, {}).get("en"):
        return True  # "Noah" in the Indian list: an English name
    native = native_language(word) if locale not in OWN_LISTS else None  # an African list's name is its own
    if native is not None and language_group(native) != group:
        return True
    if group == "en":
        low = word.lower()
        english = zipf_frequency(low, "en")
        if max(zipf_frequency(low, code) for lang, code in _WORDFREQ.items() if lang != "en") - english \
                > ENGLISH_MARGIN[surname]:
            return True
    return surname and locale not in OWN_LISTS and folded in own  # "Singh" in the American list


@lru_cache(maxsize=1)
def _recognition() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """(folded given name -> the cultures listing it, folded surname -> the cultures listing
    it), over faker's full lists of the lexicon's cultures."""
    given: dict[str, set[str]] = {}
    surnames: dict[str, set[str]] = {}
    for locale, (male, female, last_m, last_f) in _raw_lists(tuple(sorted(_person_table().country))).items():
        for w in (*male, *female):
            given.setdefault(fold_name(w), set()).add(locale)
        for w in (*last_m, *last_f):
            surnames.setdefault(fold_name(w), set()).add(locale)
    return ({k: frozenset(v) for k, v in given.items()}, {k: frozenset(v) for k, v in surnames.items()})


@lru_cache(maxsize=8192)
def _listed(word: str, surname: bool) -> frozenset[str]:
    """The cultures whose lists hold ``word`` as their own (not as an immigrant's name)."""
    found = _recognition()[1 if surname else 0].get(fold_name(word), frozenset())
    return frozenset(loc for loc in found if not is_foreign(word, loc, surname))


# Cultures a reader takes for one: Danish, Norwegian and Swedish names; Czech and Slovak.
_CULTURE_GROUPS = {"da": "nordic", "no": "nordic", "sv": "nordic", "cs": "czech-slovak", "sk": "czech-slovak"}
# wordfreq's corpus of each culture's language (Norwegian: Bokm\u00e5l; Croatian: Serbo-Croatian)
_WORDFREQ = {"en": "en", "de": "de", "fr": "fr", "es": "es", "it": "it", "pt": "pt", "nl": "nl", "sv": "sv",
             "da": "da", "no": "nb", "fi": "fi", "is": "is", "pl": "pl", "cs": "cs", "sk": "sk", "hu": "hu",
             "ro": "ro", "hr": "sh", "sl": "sl", "lv": "lv", "tr": "tr", "id": "id"}
# a surname is of a language when that language's text has it this much more often (Zipf)
# than any other language's (outside its group), and at least NATIVE_ZIPF often
NATIVE_MARGIN = 0.6
NATIVE_ZIPF = 2.0


def culture_group(locale: str) -> str:
    """The culture of a locale as a reader tells cultures apart (:func:`culture_of`, with
    Danish, Norwegian and Swedish as one, and Czech and Slovak as one)."""
    return language_group(culture_of(locale))


def language_group(language: str) -> str:
    """The culture group of a faker language code ("no" -> "nordic")."""
    return _CULTURE_GROUPS.get(language, language)


@lru_cache(maxsize=8192)
def native_language(word: str) -> str | None:
    """The culture language (a faker language code) whose text names ``word`` clearly most
    often (wordfreq): "Marchetti" is Italian, "Aksoy" Turkish, "Larsen" Danish-Norwegian;
    ``None`` when no language stands out, or when English does (English text names people
    of every culture: "Okafor")."""
    from wordfreq import zipf_frequency

    low = word.lower()
    scores = sorted(((zipf_frequency(low, code), lang) for lang, code in _WORDFREQ.items()), reverse=True)
    best, lang = scores[0]
    if lang == "en" or best < NATIVE_ZIPF:
        return None
    group = _CULTURE_GROUPS.get(lang, lang)
    rival = next((z for z, other in scores[1:] if _CULTURE_GROUPS.get(other, other) != group), 0.0)
    return lang if best - rival >= NATIVE_MARGIN else None


def _native_locales(word: str) -> frozenset[str]:
    lang = native_language(word)
    if lang is None:
        return frozenset()
    group = _CULTURE_GROUPS.get(lang, lang)
    return frozenset(loc for loc in _person_table().country if culture_group(loc) == group)


# cultures whose lists hold their own people's names only: a surname one of them lists is
# of that culture whatever the given name ("Grace Okafor" is Igbo)
OWN_LISTS = frozenset({"en_IN", "en_NG", "en_KE", "yo_NG", "ig_NG", "ha_NG", "tw_GH", "ja_JP", "tr_TR", "id_ID",
                       "uz_UZ", "fr_DZ"})


def name_cultures(given: str | None, surname: str | None) -> tuple[frozenset[str], bool]:
    """(the cultures a person's name may belong to, whether the name tells them surely).

    Sure: a surname whose language stands out in wordfreq's text (that language's cultures,
    those listing it if any: "Marchetti" is Italian), cultures listing both the first given
    name and the surname, a listed surname with a given name no list holds (or none), a
    surname only cultures of their own list ("Grace Okafor"), a given name alone whose
    language stands out. Unsure: a given name the lists hold with a surname none does (or
    one of other cultures): its cultures are a guess. A Chinese, Korean or Vietnamese
    family name is of no culture the lexicon lists (empty). Several cultures may come
    back: :func:`one_culture` settles on one or none."""
    last = surname.split()[-1] if surname else None
    if last and last in kinds.family_first_names():
        return frozenset(), False
    first = given.split()[0] if given else None
    g = _listed(first, False) if first else frozenset()
    s = _listed(last, True) if last else frozenset()
    native = _native_locales(last) if last else frozenset()
    given_groups = {culture_group(loc) for loc in g}
    if native and not s and len(given_groups) == 1 and not {culture_group(loc) for loc in native} & given_groups:
        # an unlisted surname the text of one language names most, with a given name only
        # another culture lists ("Ram\u00f3n Estrada", "Aliyu Bello"; not "Evelyn Marchetti",
        # a name of many cultures): neither tells surely
        return g, False
    if native and (not s or native & s):  # lists that hold it outweigh text ("Haddad" is Algerian)
        return (native & s) or native, True
    if g and s:
        both = g & s
        if not both:  # of one culture, listed by different countries of it ("Eleanor Vance")
            shared = {culture_group(loc) for loc in g} & {culture_group(loc) for loc in s}
            both = frozenset(loc for loc in g | s if culture_group(loc) in shared)
        if both:
            return both, True
        # a surname its culture's lists agree on tells the family's culture
        return (s, True) if s <= OWN_LISTS or _attested(s) else (frozenset(), False)
    if s:
        return s, True
    if not first:
        return frozenset(), False
    native = _native_locales(first) & g  # a given name is also a word ("Chioma": Italian for mane)
    if native:
        return native, True
    if g and g <= OWN_LISTS and not any(loc.startswith("en_") for loc in g) and one_culture(g):
        return g, True  # a given name only a culture of its own lists ("Ngozi")
    return g, False


def _attested(locales: frozenset[str]) -> bool:
    """Whether the cultures are one, listed by two of its countries or by the only one it has
    ("Kowalczyk" in the Polish list; not "Haddad" in the Brazilian list alone)."""
    groups = Counter(culture_group(loc) for loc in locales)
    if len(groups) != 1:
        return False
    group, n = groups.most_common(1)[0]
    return n >= 2 or sum(culture_group(loc) == group for loc in _person_table().country) == 1


def name_locales(given: str | None, surname: str | None) -> frozenset[str]:
    """The cultures a person's name may belong to (empty when unknown): see
    :func:`name_cultures`."""
    return name_cultures(given, surname)[0]


def one_culture(locales: Iterable[str]) -> tuple[str, ...] | None:
    """``locales`` when they are one culture (:func:`culture_group`, or one country's
    cultures); those of one culture holding more than twice as many of them as all others
    ("Alvarez": five Spanish lists and the American one); the English ones when three or
    more English lists hold the name (faker's lists of other languages hold common English
    names too); else ``None``: names of several cultures."""
    locs = tuple(sorted(set(locales)))
    if not locs:
        return None
    table = _person_table()
    groups = Counter(culture_group(loc) for loc in locs)
    if len(groups) == 1 or len({table.country.get(loc) for loc in locs}) == 1:
        return locs
    top, n = groups.most_common(1)[0]
    if n > 2 * (len(locs) - n):
        return tuple(loc for loc in locs if culture_group(loc) == top)
    english = tuple(loc for loc in locs if culture_of(loc) == "en")
    return english if len(english) >= 3 else None


@lru_cache(maxsize=1)
def _gender_table() -> dict[str, str]:
    """Folded given name -> "male", "female" or "both" (see the module docstring)."""
    out: dict[str, str] = {}
    for gender, words in _read_gz(GENDERS_FILE):
        for w in words.split():
            out[w] = gender
    return out


# -- the shipped tables -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Group:
    """Given names of one gender that share the same cultures (within a locale filter),
    with the union of those cultures' surnames for that gender."""

    given: tuple[str, ...]
    surnames: tuple[str, ...]

    @property
    def combinations(self) -> int:
        return len(self.given) * len(self.surnames)


@dataclass(frozen=True)
class _PersonTable:
    given: Mapping[str, Mapping[str, tuple[str, ...]]]  # gender -> given name -> its locales
    surnames: Mapping[tuple[str, str], tuple[str, ...]]  # (locale, gender) -> sorted surnames
    country: Mapping[str, str]  # locale -> ISO alpha-2


@dataclass(frozen=True)
class _Org:
    name: str
    kind: str
    country: str
    suffix: str
    takes_the: bool
    industry: str
    short: bool = False  # the name of a listed company without its legal suffix


def _read_gz(name: str) -> list[list[str]]:
    data = resources.files("mtwidgets.re").joinpath("data", name).read_bytes()
    lines = gzip.decompress(data).decode("utf-8").splitlines()
    return [line.split("\t") for line in lines[1:] if line]


@lru_cache(maxsize=1)
def _person_table() -> _PersonTable:
    given: dict[str, dict[str, list[str]]] = {"male": {}, "female": {}}
    surnames: dict[tuple[str, str], tuple[str, ...]] = {}
    country: dict[str, str] = {}
    for locale, code, which, words in _read_gz(PERSONS_FILE):
        country[locale] = code
        kind, g = which.split("_")
        gender = "male" if g == "m" else "female"
        if kind == "given":
            for w in words.split():
                given[gender].setdefault(w, []).append(locale)
        else:
            listed = words.split()
            if gender == "female":  # a Slavic surname in its masculine form is no woman's
                listed = [w for w in listed if not _MASCULINE_SURNAME.search(w)]
            surnames[(locale, gender)] = tuple(sorted(listed))
    frozen = {g: {w: tuple(sorted(locs)) for w, locs in table.items()} for g, table in given.items()}
    return _PersonTable(frozen, surnames, country)


# the masculine forms of Slavic surnames ("Popov", "Lebedev", "Kowalski", "Novotný"): a woman's
# are "Popova", "Kowalska"; lists of cultures that borrow them (Estonian, Latvian) give the
# masculine form for women too
_MASCULINE_SURNAME = re.compile(r"(?:[oe]v|sk[iy]|ck[iy]|ný)$")


@lru_cache(maxsize=1)
def _org_table() -> tuple[_Org, ...]:
    """The organisations of the data file, without those whose country is in doubt: one
    company listed on several exchanges comes with several countries ("Toyota Motor" in
    Japan and Argentina, "Siam Commercial Bank Public" in the US), and a replacement drawn
    for its country must be of it."""
    rows = [_Org(name, kind, country, suffix, the == "1", industry, form == "short")
            for name, kind, country, suffix, the, industry, form in _read_gz(ORGANIZATIONS_FILE)]
    countries: dict[str, set[str]] = {}
    for o in rows:
        countries.setdefault(_org_stem(o.name), set()).add(o.country)
    return tuple(o for o in rows if len(countries[_org_stem(o.name)]) == 1 and not _NUMBER_NAME.fullmatch(o.name))


_HOSPITAL_WORDS = frozenset({"Hospital", "Hospitals", "Infirmary", "Clinic", "Clinics", "Hospice", "Sanatorium"})


# a name of number words reads as a number in a sentence ("Forty Seven chairman X")
_NUMBER_NAME = re.compile(r"(?i)(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
                          r"forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)[\s-]*)+(?:\s+\S+)?")


_STEM_WORDS = frozenset({"Public", "Holding", "Holdings", "Group", "Company", "Cos", "International"})


def _org_stem(name: str) -> str:
    """A company's name without its legal suffix and the words a listing adds ("Public",
    "Holdings", "Group"): the names one company is listed under share it."""
    words = name.split()
    while len(words) > 1 and (words[-1] in _SUFFIX_WORDS or words[-1] in _STEM_WORDS):
        words.pop()
    return " ".join(words).lower()


# -- sampling helpers ---------------------------------------------------------------------------
def _draw(rng: random.Random, pool: Sequence[str], exclude: Container[str], tries: int = 48) -> str | None:
    """A uniform draw from ``pool`` outside ``exclude``: rejection first, then the rest listed."""
    if not pool:
        return None
    for _ in range(tries):
        pick = pool[rng.randrange(len(pool))]
        if pick not in exclude:
            return pick
    if len(pool) > 20_000:
        return None
    rest = [p for p in pool if p not in exclude]
    return rest[rng.randrange(len(rest))] if rest else None


def _weighted(rng: random.Random, cumulative: Sequence[int]) -> int:
    return bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))


def _cumulative(weights: Iterable[int]) -> tuple[int, ...]:
    out, total = [], 0
    for w in weights:
        total += w
        out.append(total)
    return tuple(out)


@dataclass(frozen=True)
class EntityLexicon:
    """PERSON and ORGANIZATION names to draw replacements from (see the module docstring).

    Build one with :func:`default_lexicon` (the shipped tables, cached) and add the data's
    own names with :meth:`with_names`.
    """

    user_persons: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # gender -> full names
    user_cultures: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # full name -> its cultures
    user_orgs: tuple[_Org, ...] = ()

    # -- sizes and sources -------------------------------------------------------------------
    def size(self, etype: str) -> int:
        """Distinct names of ``etype`` ("PERSON": full names; "ORGANIZATION": names)."""
        sizes = self.sizes()
        if etype not in ("PERSON", "ORGANIZATION"):
            raise ValueError(f"the ENTRE lexicon holds PERSON and ORGANIZATION names, not {etype!r}")
        return sizes[etype]

    def sizes(self) -> dict[str, int]:
        """Counts: full person names (all, per gender, from the data), given names,
        surnames, cultures; organisation names (all, per kind, with a legal suffix, from
        the data)."""
        table = _person_table()
        out: dict[str, int] = {}
        for gender in GENDERS:
            combos = sum(g.combinations for g in _groups(gender, None))
            extra = len(self._user_persons(gender, None))
            out[f"PERSON:{gender}"] = combos + extra
        out["PERSON"] = out["PERSON:male"] + out["PERSON:female"]
        out["PERSON:from data"] = sum(len(self._user_persons(g, None)) for g in GENDERS)
        out["PERSON:given names"] = sum(len(table.given[g]) for g in GENDERS)
        out["PERSON:surnames"] = len({s for v in table.surnames.values() for s in v})
        out["PERSON:cultures"] = len(table.country)
        out["PERSON:name genders"] = len(_gender_table())
        orgs = self._orgs()
        out["ORGANIZATION"] = len({o.name for o in orgs})
        out["ORGANIZATION:organisations"] = len({o.name for o in orgs if not o.short})
        for kind in ORG_KINDS:
            out[f"ORGANIZATION:{kind}"] = len({o.name for o in orgs if o.kind == kind})
        out["ORGANIZATION:with legal suffix"] = len({o.name for o in orgs if o.suffix})
        out["ORGANIZATION:from data"] = len({o.name for o in self.user_orgs})
        return out

    def sources(self) -> list[str]:
        """Where the names come from, with licences and counts."""
        s = self.sizes()
        lines = [
            f"faker (MIT): given names and surnames of {s['PERSON:cultures']} Latin-script name cultures "
            f"({s['PERSON:given names']} given names, {s['PERSON:surnames']} surnames) -> "
            f"{s['PERSON'] - s['PERSON:from data']:,} distinct full names with gender and culture",
            f"nomquamgender 0.1.4 (MIT): the gender of {s['PERSON:name genders']:,} given names, confirming every "
            f"given name drawn",
            f"investpy 1.0.8 (MIT), resources/stocks.csv: listed companies {s['ORGANIZATION:company']:,}, banks "
            f"{s['ORGANIZATION:bank']:,}, insurers {s['ORGANIZATION:insurer']:,}, airlines "
            f"{s['ORGANIZATION:airline']:,} (names with and without legal suffix)",
            f"swot 1.0.1 (MIT), academic domain files: {s['ORGANIZATION:university']:,} universities, colleges "
            f"and schools of one field with English names",
        ]
        if s["PERSON:from data"] or s["ORGANIZATION:from data"]:
            lines.append(f"the data's own names: {s['PERSON:from data']} persons, "
                         f"{s['ORGANIZATION:from data']} organisations")
        return lines

    # -- persons -----------------------------------------------------------------------------
    def person(self, rng: random.Random, *, gender: str, locales: tuple[str, ...] | None = None,
               exclude: Container[str] = ()) -> str | None:
        """A full name ("Given Surname") of ``gender``, uniform over the distinct names of
        the cultures ``locales`` (all when ``None``), outside ``exclude``; ``None`` when
        none is left."""
        _check_gender(gender)
        groups = _groups(gender, _locale_key(locales))
        user = self._user_persons(gender, locales)
        if not groups and not user:
            return None
        cumulative = _cumulative([*(g.combinations for g in groups), len(user)])
        for _ in range(64):
            i = _weighted(rng, cumulative)
            if i == len(groups):
                name = user[rng.randrange(len(user))]
            else:
                group = groups[i]
                name = f"{group.given[rng.randrange(len(group.given))]} {group.surnames[rng.randrange(len(group.surnames))]}"
            if name not in exclude:
                return name
        return None

    def given_name(self, rng: random.Random, *, gender: str, locales: tuple[str, ...] | None = None,
                   exclude: Container[str] = ()) -> str | None:
        """A given name of ``gender``, uniform over those of the cultures ``locales``."""
        _check_gender(gender)
        return _draw(rng, _given_pool(gender, _locale_key(locales)), exclude)

    def surname(self, rng: random.Random, *, gender: str | None, locales: tuple[str, ...] | None = None,
                exclude: Container[str] = ()) -> str | None:
        """A surname for a person of ``gender`` (``None``: unknown, so one of a culture whose
        surnames are the same for both genders), uniform over those of ``locales``."""
        return _draw(rng, _surname_pool(gender, _locale_key(locales)), exclude)

    def family(self, rng: random.Random, *, genders: Sequence[str], locales: tuple[str, ...] | None = None,
               exclude: Container[str] = ()) -> tuple[str, list[str]] | None:
        """One surname and one given name per member (of the ``genders`` given, distinct)
        from one culture: the members of a family keep a shared surname. A surname of a
        culture that writes it differently by gender ("Nowak"/"Nowakowa") is drawn only
        when every member has the same gender."""
        for g in genders:
            _check_gender(g)
        table = _person_table()
        need = sorted(set(genders))
        options = []
        for loc in sorted(table.country):
            if locales is not None and loc not in locales:
                continue
            lists = [set(table.surnames.get((loc, g), ())) for g in need]
            shared = sorted(set.intersection(*lists)) if lists else []
            givens = {g: _given_pool(g, (loc,)) for g in need}
            if shared and all(len(givens[g]) >= genders.count(g) for g in need):
                options.append((loc, shared, givens))
        if not options:
            return None
        cumulative = _cumulative(len(shared) for _, shared, _ in options)
        for _ in range(48):
            _, shared, givens = options[_weighted(rng, cumulative)]
            surname = shared[rng.randrange(len(shared))]
            if surname in exclude:
                continue
            picked: list[str] = []
            for g in genders:
                name = _draw(rng, givens[g], _Union(exclude, picked, surname))
                if name is None:
                    break
                picked.append(name)
            if len(picked) == len(genders):
                return surname, picked
        return None

    def count(self, form: str, *, gender: str | None, locales: tuple[str, ...] | None = None) -> int:
        """How many distinct names :meth:`person` ("full"), :meth:`given_name` ("given") or
        :meth:`surname` ("surname") draw from for ``gender`` and ``locales``."""
        key = _locale_key(locales)
        if form == "surname":
            return len(_surname_pool(gender, key))
        _check_gender(str(gender))
        if form == "given":
            return len(_given_pool(str(gender), key))
        if form == "full":
            return sum(g.combinations for g in _groups(str(gender), key)) + len(self._user_persons(str(gender), locales))
        raise ValueError(f"form must be 'full', 'given' or 'surname', got {form!r}")

    def given_gender(self, word: str) -> str | None:
        """The gender of a given name the lexicon draws, if it draws it."""
        table = _person_table()
        return next((g for g in GENDERS if word in table.given[g]), None)

    def name_gender(self, word: str) -> str | None:
        """The gender of a given name as nomquamgender's data knows it ("male", "female",
        "both" when used by both; ``None`` when it does not know the name)."""
        return _gender_table().get(fold_name(word))

    def given_locales(self, word: str) -> frozenset[str]:
        """The cultures whose faker lists hold ``word`` as a given name of their own
        (accents folded; not as an immigrant's: :func:`is_foreign`)."""
        return _listed(word, False)

    def surname_locales(self, word: str) -> frozenset[str]:
        """The cultures whose faker lists hold ``word`` as a surname of their own."""
        return _listed(word, True)

    def is_surname(self, word: str) -> bool:
        return word in _all_surnames()

    def country_locales(self, country: str) -> tuple[str, ...]:
        """The name cultures of a country (by name or ISO code; "" when none is listed),
        for persons the text ties to it. English-speaking settler countries take the
        English cultures."""
        table = _person_table()
        code = _country_code(lexicons.canonical_country(country) or country)
        borrowed = {"AU": ("GB", "US", "IE"), "NZ": ("GB", "US", "IE"), "CA": ("CA", "US", "GB", "IE"),
                    "KE": ("KE", "TZ"), "TZ": ("TZ", "KE")}.get(code, (code,))
        return tuple(sorted(loc for loc, c in table.country.items() if c in borrowed and code))

    # -- organisations -----------------------------------------------------------------------
    def organization(self, rng: random.Random, *, kind: str, legal_suffix: bool | None = None,
                     exclude: Container[str] = (), industry: str | None = None,
                     takes_the: bool | None = None, countries: tuple[str, ...] | None = None) -> str | None:
        """A real organisation of the typed sub-kind ``kind`` (one of :data:`ORG_KINDS`),
        with (``True``) or without (``False``) a legal suffix, or either (``None``); of the
        ``industry`` its name states ("" for none; ``None``: any; for a university one of
        :data:`ACADEMIC_TYPES`), taking "the" or not (``None``: either) and of one of the
        ``countries`` (ISO codes; ``None``: any); uniform over the matching names outside
        ``exclude``."""
        if kind not in ORG_KINDS:
            raise ValueError(f"kind must be one of {ORG_KINDS}, got {kind!r}")
        pool = self._org_pool(kind, legal_suffix, industry, takes_the, _country_key(countries))
        return _draw(rng, pool, exclude)

    def org_count(self, *, kind: str, legal_suffix: bool | None = None, industry: str | None = None,
                  takes_the: bool | None = None, countries: tuple[str, ...] | None = None) -> int:
        """How many names :meth:`organization` draws from with these constraints."""
        return len(self._org_pool(kind, legal_suffix, industry, takes_the, _country_key(countries)))

    def country_code(self, country: str) -> str:
        """The ISO alpha-2 code of a country name ("" when unknown)."""
        return _country_code(lexicons.canonical_country(country) or country)

    def org_country(self, name: str) -> str:
        """The ISO alpha-2 code of the country of an organisation the lexicon lists ("" when
        it lists none of that name)."""
        found = _org_index().get(name) or next((o for o in self.user_orgs if o.name == name), None)
        if found is not None:
            return found.country
        return _longer_names_country(name)

    def language_countries(self, language: str | None) -> tuple[str, ...]:
        """The countries (ISO alpha-2) of the cultures of a faker language code (the group's:
        "no" -> Denmark, Norway, Sweden; "es" -> Spain and the Spanish-speaking Americas);
        empty for ``None``."""
        if language is None:
            return ()
        group = language_group(language)
        table = _person_table()
        return tuple(sorted({table.country[loc] for loc in table.country if culture_group(loc) == group}))

    def org_form(self, name: str) -> OrgForm | None:
        """The lexicon's entry for ``name`` (its kind, industry, suffix), if it lists it."""
        found = _org_index().get(name) or next((o for o in self.user_orgs if o.name == name), None)
        if found is None:
            return None
        return OrgForm(found.kind, found.industry, found.suffix, found.takes_the)

    # -- the data's own names ----------------------------------------------------------------
    def with_names(self, persons: Iterable[str], organizations: Iterable[str]) -> EntityLexicon:
        """This lexicon with the data's own names added (the paper adds TACRED's): full
        person names whose given name has a known gender and whose culture the name lists
        tell (:func:`name_locales`, :func:`one_culture`), and organisations whose typed
        sub-kind the name shows (see :func:`classify_organization`). Others are left out:
        a replacement must keep the gender, the culture or the kind."""
        people: dict[str, dict[str, None]] = {g: dict.fromkeys(self.user_persons.get(g, ())) for g in GENDERS}
        cultures = dict(self.user_cultures)
        for name in persons:
            words = name.split()
            if not 2 <= len(words) <= 3 or not all(is_latin_word(w.replace("-", "").replace("'", "")) for w in words):
                continue
            gender = self.given_gender(words[0]) or self.name_gender(words[0])
            culture = one_culture(name_locales(words[0], words[-1]))
            if gender not in GENDERS or culture is None or words[0] in kinds.family_first_names():
                continue
            if not _in_combinations(gender, words):
                people[gender][name] = None
                cultures[name] = culture
        orgs = {o.name: o for o in self.user_orgs}
        listed = _org_index()
        for name in organizations:
            name = " ".join(name.split())
            if name in listed or name in orgs:
                continue
            form = classify_organization(name)
            if isinstance(form, OrgForm):
                orgs[name] = _Org(name, form.kind, "", form.suffix, form.takes_the, form.industry or "")
        return EntityLexicon({g: tuple(sorted(v)) for g, v in people.items()}, cultures,
                             tuple(sorted(orgs.values(), key=lambda o: o.name)))

    # -- internals ---------------------------------------------------------------------------
    def _user_persons(self, gender: str, locales: tuple[str, ...] | None) -> tuple[str, ...]:
        names = self.user_persons.get(gender, ())
        if locales is None:
            return names
        return tuple(n for n in names if set(self.user_cultures.get(n, ())) & set(locales))

    def _orgs(self) -> tuple[_Org, ...]:
        return _org_table() + self.user_orgs

    def _org_pool(self, kind: str, suffix: bool | None, industry: str | None, the: bool | None,
                  countries: tuple[str, ...] | None) -> tuple[str, ...]:
        base = _org_pool(kind, suffix, industry, the, countries)
        extra = tuple(o.name for o in self.user_orgs if _org_matches(o, kind, suffix, industry, the, countries))
        return base + extra if extra else base


class _Union:
    """``exclude`` plus a few more names (the members drawn so far, the family's surname)."""

    def __init__(self, exclude: Container[str], more: Sequence[str], *also: str) -> None:
        self.exclude, self.more = exclude, (*more, *also)

    def __contains__(self, item: object) -> bool:
        return item in self.more or item in self.exclude


_COUNTRY_CODES = {"England": "GB", "Scotland": "GB", "Wales": "GB", "Northern Ireland": "GB", "Britain": "GB",
                  "Turkey": "TR", "Russia": "RU", "Korea": "KR", "South Korea": "KR", "North Korea": "KP",
                  "Iran": "IR", "Syria": "SY", "Vietnam": "VN", "Taiwan": "TW", "Palestine": "PS", "Laos": "LA",
                  "Bolivia": "BO", "Venezuela": "VE", "Tanzania": "TZ", "Moldova": "MD", "Czech Republic": "CZ",
                  "Ivory Coast": "CI", "Burma": "MM", "Holland": "NL", "America": "US", "Kosovo": "XK"}


@lru_cache(maxsize=512)
def _country_code(country: str) -> str:
    """ISO alpha-2 of a country name or code ("" when unknown)."""
    import pycountry

    if len(country) == 2 and country.isupper():
        return country
    if country in _COUNTRY_CODES:
        return _COUNTRY_CODES[country]
    try:
        return str(pycountry.countries.lookup(country).alpha_2)
    except LookupError:
        return ""


def _check_gender(gender: str) -> None:
    if gender not in GENDERS:
        raise ValueError(f"gender must be 'male' or 'female', got {gender!r}")


def _locale_key(locales: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if locales is None else tuple(sorted(set(locales)))


@lru_cache(maxsize=256)
def _groups(gender: str, locales: tuple[str, ...] | None) -> tuple[_Group, ...]:
    """The given names of ``gender`` grouped by the cultures (within ``locales``) that list
    them, each group with the union of those cultures' surnames: every distinct full name
    is one (group, given, surname) triple, so weights by combinations sample uniformly."""
    table = _person_table()
    by_signature: dict[tuple[str, ...], list[str]] = {}
    for name, locs in table.given[gender].items():
        sig = tuple(loc for loc in locs if locales is None or loc in locales)
        sig = tuple(loc for loc in sig if table.surnames.get((loc, gender)))
        if sig:
            by_signature.setdefault(sig, []).append(name)
    out = []
    for sig, given in sorted(by_signature.items()):
        surnames = sorted({s for loc in sig for s in table.surnames[(loc, gender)]})
        out.append(_Group(tuple(sorted(given)), tuple(surnames)))
    return tuple(out)


@lru_cache(maxsize=256)
def _given_pool(gender: str, locales: tuple[str, ...] | None) -> tuple[str, ...]:
    table = _person_table()
    return tuple(sorted(w for w, locs in table.given[gender].items()
                        if locales is None or any(loc in locales for loc in locs)))


@lru_cache(maxsize=256)
def _surname_pool(gender: str | None, locales: tuple[str, ...] | None) -> tuple[str, ...]:
    table = _person_table()
    out: set[str] = set()
    for loc in table.country:
        if locales is not None and loc not in locales:
            continue
        if gender is None:
            male, female = table.surnames.get((loc, "male")), table.surnames.get((loc, "female"))
            if male and female:
                out |= set(male) & set(female)
        else:
            out |= set(table.surnames.get((loc, gender), ()))
    return tuple(sorted(out))


@lru_cache(maxsize=1)
def _all_surnames() -> frozenset[str]:
    return frozenset(s for v in _person_table().surnames.values() for s in v)


def _in_combinations(gender: str, words: Sequence[str]) -> bool:
    """Whether a two-word name is already one of the lexicon's full names."""
    if len(words) != 2:
        return False
    table = _person_table()
    locs = table.given[gender].get(words[0], ())
    return any(words[1] in table.surnames.get((loc, gender), ()) for loc in locs)


@lru_cache(maxsize=1)
def _org_index() -> dict[str, _Org]:
    return {o.name: o for o in _org_table()}


@lru_cache(maxsize=1024)
def _longer_names_country(name: str) -> str:
    """The country of most (two in three at least) of the listed organisations whose name
    is ``name`` and more ("Toyota": "Toyota Boshoku", "Toyota Tsusho" are Japanese)."""
    found = Counter(o.country for o in _org_table() if o.name.startswith(name + " "))
    if not found:
        return ""
    country, n = found.most_common(1)[0]
    return country if 3 * n >= 2 * sum(found.values()) else ""


def _org_matches(o: _Org, kind: str, suffix: bool | None, industry: str | None, the: bool | None,
                 countries: tuple[str, ...] | None = None) -> bool:
    return (o.kind == kind and (suffix is None or bool(o.suffix) == suffix)
            and (industry is None or o.industry == industry) and (the is None or o.takes_the == the)
            and (countries is None or o.country in countries))


def _country_key(countries: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if countries is None else tuple(sorted(set(countries)))


@lru_cache(maxsize=512)
def _org_pool(kind: str, suffix: bool | None, industry: str | None, the: bool | None,
              countries: tuple[str, ...] | None = None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(o.name for o in _org_table()
                               if _org_matches(o, kind, suffix, industry, the, countries)))


# -- what kind of organisation a mention names --------------------------------------------------
_PUBLIC_BANK_WORDS = frozenset({"Central", "Reserve", "World", "Development", "Investment", "Federal", "People's",
                                "Export", "Import", "Settlements", "International", "European", "Asian", "African",
                                "Inter-American", "Islamic", "Nordic", "Agricultural", "Cooperative"})
_COMPANY_HEADS = frozenset({"Group", "Holdings", "Holding", "Industries", "Enterprises", "Partners", "Associates",
                            "Sons", "Brothers", "Grupo", "Groupe", "Gruppe", "Corporation", "Conglomerate"})
_HELD_KINDS = frozenset({"company", "bank", "airline", "university"})
# a "bank" of goods given away is a charity, not a bank ("the Greater Tulsa Food Bank")
_CHARITY_BANK = re.compile(r"\b(?:Food|Blood|Seed|Milk|Sperm|Diaper|Nappy|Clothing|Clothes|Toy|Furniture|Book|"
                           r"Baby|Bread|Time|Tissue|Eye|Organ)\s+Banks?\b")
_KNOWN_KIND = {"company": "company", "airline": "airline", "university": "university"}


def classify_organization(core: str) -> OrgForm | str:
    """The :class:`OrgForm` of an organisation's name (without "the" and "'s"), or the
    reason no replacement can keep what it is: a government body, party, court, club,
    charity (a food bank too), news outlet or association is a kind the lexicon does not
    hold; a central or development bank is no commercial bank; a name that shows no kind
    cannot be typed. A university's ``industry`` is its :func:`academic_type`."""
    from .transforms import _COMMERCIAL_BANKS

    words = core.split()
    if not words:
        return "it is empty"
    if _CHARITY_BANK.search(core):
        return "it is a charity organisation (a bank of goods given away), a kind the lexicon does not hold"
    if set(words) & _HOSPITAL_WORDS and not set(words) & _SUFFIX_WORDS:
        return "it is a hospital (\"Cork University Hospital\" is no university), a kind the lexicon does not hold"
    listed = _org_index().get(core)
    if listed is not None:
        return OrgForm(listed.kind, listed.industry, listed.suffix, listed.takes_the)
    known = kinds.known_organization(core)
    if known == "bank":
        if core.removeprefix("the ") in _COMMERCIAL_BANKS:
            return OrgForm("bank", None, legal_suffix(core))
        return "it is a central, public or development bank"
    if known == "university":
        named = set(words) & (ORG_KIND_WORDS["university"] | {"Institute"})
        return OrgForm("university", academic_type(core) if named else "university", "")
    if known in _KNOWN_KIND:
        return OrgForm(_KNOWN_KIND[known], industry_of(core) if known == "company" else None, legal_suffix(core))
    if known is not None:
        return f"it is {'an' if known[0] in 'aeiou' else 'a'} {known} organisation, a kind the lexicon does not hold"
    wordset = set(words)
    suffix = legal_suffix(core)
    if is_bank_name(core):
        if wordset & _PUBLIC_BANK_WORDS:
            return "it is a central, public or development bank"
        return OrgForm("bank", None, suffix)
    if wordset & ORG_KIND_WORDS["insurer"]:
        return OrgForm("insurer", None, suffix)
    if wordset & ORG_KIND_WORDS["airline"] or "Air Lines" in core:
        return OrgForm("airline", None, suffix)
    if wordset & ORG_KIND_WORDS["university"] or (
            "Institute" in wordset and "Technology" in wordset):
        the = "of" in words and words.index("of") > 0 and words[words.index("of") - 1] in (
            *ORG_KIND_WORDS["university"], "Institute")
        return OrgForm("university", academic_type(core), "", the)
    sub = kinds.org_subkind(core)
    if sub is None and not suffix:  # a word of another kind anywhere ("the Coalition for Clean Ports")
        sub = next((k for k, heads in kinds._HEADS.items() if k not in _HELD_KINDS and wordset & heads), None)
    if sub is not None and sub not in _HELD_KINDS and not suffix:
        return f"it is {'an' if sub[0] in 'aeiou' else 'a'} {sub} organisation, a kind the lexicon does not hold"
    industry = industry_of(core)
    if suffix or industry or wordset & _COMPANY_HEADS or sub == "company":
        return OrgForm("company", industry, suffix)
    short = _short_forms().get(core)
    if short is not None:
        return OrgForm(short.kind, short.industry if short.kind == "company" else None, "")
    return "its name does not show what kind of organisation it is"


@lru_cache(maxsize=1)
def _short_forms() -> dict[str, _Org]:
    """Listed names without their legal suffix ("Alphabet" of "Alphabet Inc"), for telling
    what a mention names even where the short form is no replacement (too common a word)."""
    out: dict[str, _Org] = {}
    for o in _org_table():
        if o.suffix and not o.short:
            short = o.name[: len(o.name) - len(o.suffix)].rstrip(" ,")
            out.setdefault(short, o)
    return out


# -- the default lexicon ------------------------------------------------------------------------
@lru_cache(maxsize=1)
def default_lexicon() -> EntityLexicon:
    """The shipped lexicon (no names of the data yet), built once."""
    return EntityLexicon()


def describe(lexicon: EntityLexicon | None = None) -> dict[str, Any]:
    """Sizes and sources of a lexicon (the default one if none is given), for reports."""
    lex = lexicon or default_lexicon()
    return {"sizes": lex.sizes(), "sources": lex.sources()}
