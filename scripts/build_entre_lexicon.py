"""Builds ENTRE's shipped entity lexicon (Wang et al. 2023, section 3.2).

Writes three compact, sorted, deduplicated files that :mod:`mtwidgets.re.entre_lexicon`
reads at run time (nothing is downloaded then):

- ``mtwidgets/re/data/entre_persons.tsv.gz``: given names by gender and surnames by gender,
  per name culture (a faker locale), from faker's person providers (MIT). Full names are
  the given names of a culture crossed with its surnames, so a few thousand words give
  millions of distinct, real-looking names with a known gender and culture. A given name
  is kept only when nomquamgender's data (MIT) confirms faker's gender for it.
- ``mtwidgets/re/data/entre_genders.tsv.gz``: the gender of the given names that
  nomquamgender 0.1.4's data knows with confidence, and those it finds used by both.
- ``mtwidgets/re/data/entre_organizations.tsv.gz``: real organisations with their typed
  sub-kind, country and the sector their name states: listed companies, banks, insurers
  and airlines from investpy 1.0.8's ``resources/stocks.csv`` (MIT), and universities and
  colleges from swot 1.0.1's domain files (MIT).

Usage::

    python scripts/build_entre_lexicon.py                 # pip-downloads the three packages
    python scripts/build_entre_lexicon.py --from DIR      # DIR holds investpy-1.0.8.tar.gz,
                                                          # swot-1.0.1-py3-none-any.whl and
                                                          # nomquamgender-0.1.4-py3-none-any.whl
The output is deterministic for the same package versions.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import gzip
import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtwidgets.lang import kinds  # noqa: E402
from mtwidgets.lang import names as lexicons  # noqa: E402
from mtwidgets.re.entre_lexicon import (  # noqa: E402
    _SUFFIX_WORDS,
    ORG_KIND_WORDS,
    academic_type,
    faker_person_lists,
    fold_name,
    industry_of,
    is_bank_name,
    is_foreign,
    is_latin_word,
    legal_suffix,
)

DATA = ROOT / "mtwidgets" / "re" / "data"
INVESTPY = "investpy==1.0.8"
SWOT = "swot==1.0.1"
NOMQUAMGENDER = "nomquamgender==0.1.4"

# -- persons ------------------------------------------------------------------------------------
# Latin-script faker locales with gendered given names and usable surnames, and the country
# each culture belongs to (ISO alpha-2). Left out: ga_IE (Irish-language surname forms),
# en_NZ (mixed lists), zu_ZA (its surname list holds given names), lt_LT (no gendered given
# names), vi_VN (too few names, family name first), sw (its lists hold Swahili words:
# "Nyoka", snake, as a woman's name) and scripts other than Latin.
PERSON_LOCALES: dict[str, str] = {
    "en_US": "US", "en_GB": "GB", "en_IE": "IE", "en_IN": "IN", "en_KE": "KE", "en_NG": "NG",
    "yo_NG": "NG", "ig_NG": "NG", "ha_NG": "NG", "tw_GH": "GH",
    "de_DE": "DE", "de_AT": "AT", "de_CH": "CH", "de_LI": "LI", "de_LU": "LU",
    "fr_FR": "FR", "fr_CA": "CA", "fr_CH": "CH", "fr_BE": "BE", "fr_DZ": "DZ",
    "es_ES": "ES", "es_MX": "MX", "es_AR": "AR", "es_CO": "CO", "es_CL": "CL", "es_CA": "ES",
    "it_IT": "IT", "pt_BR": "BR", "pt_PT": "PT", "nl_NL": "NL", "nl_BE": "BE",
    "sv_SE": "SE", "no_NO": "NO", "da_DK": "DK", "fi_FI": "FI", "is_IS": "IS",
    "pl_PL": "PL", "cs_CZ": "CZ", "sk_SK": "SK", "hu_HU": "HU", "ro_RO": "RO", "hr_HR": "HR",
    "sl_SI": "SI", "lv_LV": "LV", "et_EE": "EE", "tr_TR": "TR", "uz_UZ": "UZ", "id_ID": "ID",
    "ja_JP": "JP",
}
# At most this many given names per gender and surnames per gender from one culture, in
# faker's order (most lists are ordered by frequency): no culture with a very long list
# (Icelandic, Swiss German) outweighs the others, and rare names stay out.
MAX_GIVEN = 300
MAX_SURNAMES = 1000
_SURNAME = re.compile(r"^(?:Mc|Mac|O')?[^\W\d_][^\W\d_]*$")
# letters English text transliterates ("Hreiðarsson" is written "Hreidarsson"): left out
_UNUSUAL_LETTERS = frozenset("ðÐþÞ")
# given names a reader takes for something else
_NOT_NAMES = frozenset({"Isis", "Adolf", "Osama", "Jihad", "Nazi", "Jesus", "Allah", "Christ", "Lucifer"})
# at most this many patronymic stems for Icelandic (its lists run to the rarest names)
MAX_PATRONYMICS = 300


def _unusable(word: str) -> bool:
    """A word that must not be a person's name: a place, a people, an everyday English word."""
    return (word in kinds.NATIONALITY_WORDS or word in lexicons.DEMONYMS or kinds.common_word(word)
            or lexicons.city(word) is not None or lexicons.canonical_country(word) is not None
            or bool(kinds.place_kinds(word) & {"country", "state", "region"}))


def _given_ok(word: str) -> bool:
    return (len(word) >= 2 and word not in _NOT_NAMES and not set(word) & _UNUSUAL_LETTERS and is_latin_word(word) and word[0].isupper() and word[1:].islower()
            and word not in lexicons._DIMINUTIVES and word not in kinds.family_first_names()
            and not _unusable(word))


def _surname_ok(word: str) -> bool:
    return (len(word) >= 2 and not set(word) & _UNUSUAL_LETTERS and not word.endswith("dr") and bool(_SURNAME.match(word)) and is_latin_word(word.replace("'", ""))
            and word[0].isupper() and not word.isupper() and not _unusable(word))


def _first(words: Iterable[str], keep: int) -> list[str]:
    out: dict[str, None] = {}
    for w in words:
        w = w.strip()
        if w and w not in out:
            out[w] = None
            if len(out) >= keep:
                break
    return list(out)


# nomquamgender's confidence in a name's gender: its share of women's uses at most 1 - P or
# at least P, counted from at least MIN_SOURCES sources and MIN_BEARERS bearers
GENDER_P = 0.9
MIN_SOURCES = 5
MIN_BEARERS = 50
_ASCII_NAME = re.compile(r"[a-z][a-z'-]+")


def build_genders(name_data: dict[str, list[object]]) -> dict[str, str]:
    """Folded given name -> "male", "female" or "both", from nomquamgender's name data
    (name -> [sources, bearers, share of women, ...]) where enough sources count it."""
    out: dict[str, str] = {}
    for name, row in name_data.items():
        if not _ASCII_NAME.fullmatch(name) or len(row) < 3:
            continue
        sources, bearers, female = row[0], row[1], row[2]
        if not isinstance(sources, int) or not isinstance(bearers, int) or not isinstance(female, (int, float)):
            continue
        if sources < MIN_SOURCES or bearers < MIN_BEARERS:
            continue
        out[name] = "female" if female >= GENDER_P else "male" if female <= 1 - GENDER_P else "both"
    return out


def build_persons(genders: dict[str, str]) -> list[str]:
    """Rows ``locale\\tcountry\\tlist\\tname name ...`` (list: given_m, given_f, surname_m,
    surname_f), given names of one gender only across every culture, that gender confirmed
    by ``genders`` (:func:`build_genders`)."""
    raw = {loc: faker_person_lists(loc, MAX_PATRONYMICS) for loc in PERSON_LOCALES}
    cultures = tuple(sorted(PERSON_LOCALES))
    male_anywhere = {w for m, _, _, _ in raw.values() for w in m}
    female_anywhere = {w for _, f, _, _ in raw.values() for w in f}
    only_male, only_female = lexicons.gendered_first_names()
    rows = []
    for loc, (male, female, last_m, last_f) in sorted(raw.items()):
        country = PERSON_LOCALES[loc]
        last_m, last_f = [_mc(w) for w in last_m], [_mc(w) for w in last_f]
        given_m = _first((w for w in male if w not in female_anywhere and w not in only_female and _given_ok(w)
                          and genders.get(fold_name(w)) == "male" and not is_foreign(w, loc, False, cultures)),
                         MAX_GIVEN)
        given_f = _first((w for w in female if w not in male_anywhere and w not in only_male and _given_ok(w)
                          and genders.get(fold_name(w)) == "female" and not is_foreign(w, loc, False, cultures)),
                         MAX_GIVEN)
        lists = {"given_m": given_m, "given_f": given_f,
                 "surname_m": _first((w for w in last_m if _surname_ok(w) and not is_foreign(w, loc, True, cultures)),
                                     MAX_SURNAMES) if given_m else [],
                 "surname_f": _first((w for w in last_f if _surname_ok(w) and not is_foreign(w, loc, True, cultures)),
                                     MAX_SURNAMES) if given_f else []}
        if not (lists["given_m"] and lists["surname_m"]) and not (lists["given_f"] and lists["surname_f"]):
            continue
        for name, words in lists.items():
            if words:
                rows.append(f"{loc}\t{country}\t{name}\t{' '.join(sorted(words))}")
    return rows


# -- organisations ------------------------------------------------------------------------------
_JUNK_TAIL = re.compile(
    r"\s+(?:Class\s+[A-Z]|Cl\s+[A-Z]|[Ss]er(?:ies)?\s+[A-Z0-9]+|[A-Z]|ADR|ADRs|ADS|GDR|GDRs|Pref|Pfd|Preferred|PN|ON|"
    r"NM|PNA|PNB|Units?|Npv|NPV|Reg|Registered|Bearer|Shs|Ord|Ordinary|Common|Stock|Shares|Rights?|Warrants?|"
    r"Non[- ]?Voting|Vtg|Sub\s+Vtg|Red|Dep|Depositary|Receipts?|Old|New|Inh|Vz|Na|Exchangeable|Prf|DRC|DR|BDR|BDRs|CDI|"
    r"SDR|GDS|NVDR|IDR|Rts|WI|When\s+Issued)\.?$")
_LEADING_THE = re.compile(r"^(?:The|THE)\s+")
_THE_SUFFIX = re.compile(r",?\s*\(The\)$|,\s*The$")
_BAD_CHARS = re.compile(r"[\d/()\[\],;:+@#\"*!?%$=<>|\\_]|\s-\s|--")
_CONNECTORS = frozenset({"of", "and", "for", "the", "in", "at", "de", "la", "le", "del", "di", "du", "des", "y",
                         "e", "da", "do", "dos", "das", "della", "degli", "van", "der", "den", "von", "zu", "et",
                         "&", "und", "on", "an"})
# abbreviated or truncated words of listings ("Int Consolidated Airlines", "Veritiv Cor")
_ABBREVIATIONS = frozenset({"Int", "Intl", "Hldg", "Hldgs", "Grp", "Mfg", "Svcs", "Sys", "Ind", "Inds", "Natl", "Amer",
                            "Pharm", "Bk", "Fin", "Mgmt", "Dev", "Prop", "Props", "Res", "Tr", "Cap", "Cor", "Corpo",
                            "Hold", "Holdi", "Limite", "Lt", "Ent", "Tech Co", "Invt", "Inv", "Serv", "Svc", "Co.Ltd",
                            "Gr", "Gp", "Eng", "Elec", "Chem", "Tel", "Comm", "Ins", "Assur", "Mgt", "Un", "Und"})
# words that make a listing no operating company (funds, trusts, instruments, shells)
_NOT_A_COMPANY = frozenset({"Fund", "Funds", "Trust", "ETF", "ETN", "Index", "Bond", "Bonds", "Notes", "Note",
                            "Warrant", "Warrants", "Debenture", "Debentures", "Acquisition", "Acquisitions",
                            "Receipts", "Portfolio", "Income", "Dividend", "Opportunities", "Certificate", "SPAC",
                            "Tracker", "Leveraged", "Inverse", "Municipal", "Treasury", "Blank", "Funding",
                            "Financing", "Jersey", "Guernsey", "Cayman"})


# legal codes English text does not write ("Aayan Leasing Co KSCC", "Astra Otoparts Tbk"):
# such a listing is dropped (its name without the code may stay)
_CODED = frozenset({
    "KSCC", "KSCP", "KSC", "KPSC", "PJSC", "OJSC", "JSC", "Tbk", "Tbk.", "PCL", "SAOG", "SAOC", "QSC", "QPSC", "BSC",
    "SAK", "PSC", "SAL", "SAE", "SAA", "SAB", "SAS", "Bhd", "Berhad", "Persero", "Anonim", "Sirketi",
    "\u015eirketi", "OAO", "ZAO", "PAO", "OOO", "AO", "AD", "DD", "dd", "d.d.", "a.s.", "NL", "Ltda", "Sarl", "SARL",
    "Pty", "PT", "CA", "CV", "KGaA", "AS", "A/S", "Oyj", "OYJ", "Oy"})
# upper-case words English text writes as listings do
_READABLE_CAPS = frozenset({"PLC", "AG", "SA", "SE", "NV", "AB", "ASA", "LLC", "LP", "BV"})
MAX_WORDS = 5
# German compound stems a listing cut after the linking "s" ("Agrana Beteiligungs AG")
_STEM = re.compile(r"(?:ungs|heits|keits|schafts|it\u00e4ts|tums)$")
_GLUED_AMPERSAND = re.compile(r"[A-Za-z]{3,}&|&[A-Za-z]{3,}")


def _mc(name: str) -> str:
    """"Mcdowell" -> "McDowell": listings written in capitals lose the inner capital."""
    return re.sub(r"\bMc([a-z])", lambda m: "Mc" + m.group(1).upper(), name)


@lru_cache(maxsize=1)
def _english_by_initial() -> dict[str, tuple[str, ...]]:
    from wordfreq import top_n_list

    out: dict[str, list[str]] = {}
    for w in top_n_list("en", 30_000):
        if w.isalpha() and len(w) >= 5:
            out.setdefault(w[0], []).append(w)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=65536)
def _misspelt(word: str) -> bool:
    """Whether ``word`` is no word of English or the other languages listings use but one
    letter or two off a frequent English word ("Hlding", "Fiinance", "Physicalrapy")."""
    from wordfreq import zipf_frequency

    low = word.lower()
    if len(low) < 5 or not low.isalpha():
        return False
    if any(zipf_frequency(low, lang) > 0 for lang in ("en", "de", "fr", "es", "it", "nl", "pt", "sv", "pl", "tr")):
        return False
    close = difflib.get_close_matches(low, _english_by_initial().get(low[0], ()), n=1, cutoff=0.86)
    return bool(close) and close[0] != low


def junk_listing(name: str) -> str | None:
    """Why a listed name reads as no company a text would name, or ``None``: an ampersand
    glued to words ("Park&RE"), a legal code English text does not write ("KSCC"), an
    upper-case token that is no word ("ABC Banking", "FW Thorpe"), more than five words,
    a word with a capital inside ("ChemicalInc"), a cut German stem ("Beteiligungs") or a
    misspelt word ("Commscope Hlding")."""
    words = name.split()
    if _GLUED_AMPERSAND.search(name):
        return "ampersand glued to a word"
    if set(words) & _CODED:
        return "coded legal form"
    for w in words:
        core = re.sub(r"[&.\-']", "", w)
        if len(core) >= 2 and core.isupper() and w not in _READABLE_CAPS:
            return "upper-case token"
        if (any(c.isupper() for c in re.sub(r"^(?:Mc|Mac|O')", "", w)[1:]) and not core.isupper()
                and w not in _SUFFIX_WORDS):
            return "capital inside a word"
        if _STEM.search(w):
            return "cut German stem"
        if _misspelt(w):
            return "misspelt word"
    if len(words) > MAX_WORDS:
        return "too long"
    if len(words) == 2 and words[0] in kinds.given_names() and not industry_of(name) and words[1] not in _SUFFIX_WORDS:
        return "reads as a person's name"  # "Milan Blagojev"
    return None


def _words_ok(name: str) -> bool:
    words = name.split()
    if not 1 <= len(words) <= 6 or not words[0][:1].isupper():
        return False
    for w in words:
        if w in _CONNECTORS:
            continue
        core = w.replace("&", "").replace("-", "").replace("'", "").replace(".", "")
        if not core or not is_latin_word(core) or not w[0].isupper() or len(core) == 1:
            return False
        if w in _ABBREVIATIONS or re.search(r"'[A-Z]", w) or re.fullmatch(r"[IVX]{2,4}", w):
            return False
        if w == "The" or "-The" in w or (re.fullmatch(r"(?:[A-Z]\.)+[A-Z]?\.?", w) and w not in _SUFFIX_WORDS):
            return False  # "Alia-The Royal Jordanian Airlines", "K.S.C"
        if len(core) >= 5 and core.isupper():
            return False  # "VAN CARGOES": a ticker-style upper-case listing
    return words[-1] not in _CONNECTORS


@lru_cache(maxsize=1)
def _english_prefixes() -> frozenset[str]:
    """Strict prefixes (3+ letters) of frequent English words: a listing word that is one and
    no word itself is cut off ("Emirates Telec", "Diagnos")."""
    from wordfreq import top_n_list

    return frozenset(w[:i] for w in top_n_list("en", 30_000) if w.isalpha() for i in range(3, len(w)))


def _truncated(name: str) -> bool:
    from wordfreq import zipf_frequency

    return any(len(w) >= 3 and w.lower() in _english_prefixes() and zipf_frequency(w.lower(), "en") < 1.5
               for w in name.split() if w.isalpha() and not w.isupper())


def clean_company(full_name: str) -> str | None:
    """A listed company's name as running text writes it, or ``None`` when the listing is
    not one (share classes, "(The)", tickers and trailing punctuation removed)."""
    name = _mc(" ".join(full_name.split()))
    name = _THE_SUFFIX.sub("", name)
    name = _LEADING_THE.sub("", name)
    for _ in range(4):
        stripped = _JUNK_TAIL.sub("", name).rstrip(" ,.-")
        if stripped == name:
            break
        name = stripped
    if name.endswith(".") and not legal_suffix(name):
        name = name.rstrip(".")
    if _BAD_CHARS.search(name) or not _words_ok(name):
        return None
    if set(name.split()) & _NOT_A_COMPANY or _truncated(name):
        return None
    return name


def _company_kind(name: str) -> str:
    words = set(name.split())
    if is_bank_name(name):
        return "bank"
    for kind in ("bank", "insurer", "airline"):
        if words & ORG_KIND_WORDS[kind] or (kind == "airline" and "Air Lines" in name):
            return kind
    return "company"


def _short_ok(short: str) -> bool:
    """Whether a company's name without its legal suffix reads as that company in running
    text: not one short or everyday word, a place, a person's name or a people."""
    from wordfreq import zipf_frequency

    words = short.split()
    if not words or words[-1] in _CONNECTORS or (words[-1] in ("&", "and")):
        return False
    if len(words) > 1:
        return not (words[-1] in ("Co", "Cos") or short in kinds.given_names())
    word = words[0]
    if word.isupper():
        return False  # an acronym alone ("AEI") reads as no company in particular
    return (len(word) >= 4 and zipf_frequency(word.lower(), "en") < 3.0 and word not in kinds.given_names()
            and not kinds.place_kinds(word) and word not in kinds.NATIONALITY_WORDS
            and lexicons.canonical_country(word) is None)


def _country_code(name: str) -> str:
    import pycountry

    special = {"dubai": "AE", "abu dhabi": "AE", "ivory coast": "CI", "south korea": "KR", "russia": "RU",
               "taiwan": "TW", "vietnam": "VN", "czech republic": "CZ", "palestine": "PS", "venezuela": "VE",
               "bosnia": "BA", "tanzania": "TZ", "iran": "IR", "uk": "GB", "edu": "US", "gov": "US", "mil": "US"}
    if name.lower() in special:
        return special[name.lower()]
    try:
        return str(pycountry.countries.lookup(name).alpha_2)
    except LookupError:
        return name.upper() if len(name) == 2 else ""


_DEPOSITARY = re.compile(r"\b(?:ADRs?|ADS|GDRs?|CEDEARs?|BDRs?|DRC?|CDI|NVDR|IDR|SDR)\b")


def _home_country(listings: list[tuple[str, str, str]]) -> str:
    """The country a company is from, of its listings (listing country, ISIN, full name):
    the ISIN's country most of its shares (not depositary receipts abroad) are issued in,
    else the country it is listed in ("Southwest Airlines" is listed in Mexico too)."""
    from collections import Counter

    issued = Counter(isin[:2] for _, isin, full in listings
                     if re.fullmatch(r"[A-Z]{2}[A-Z0-9]{10}", isin or "") and not _DEPOSITARY.search(full)
                     and isin[:2] not in ("XS", "EU"))
    if issued:
        return issued.most_common(1)[0][0]
    return _country_code(listings[0][0])


def companies(stocks_csv: str) -> list[tuple[str, ...]]:
    """Rows (name, kind, country, suffix, the, industry, form) of the listed companies,
    banks, insurers and airlines, with and without their legal suffix."""
    listings: dict[str, list[tuple[str, str, str]]] = {}
    order: list[str] = []
    for r in csv.DictReader(io.StringIO(stocks_csv)):
        full = r["full_name"] or r["name"]
        name = clean_company(full)
        if name is None:
            continue
        if name not in listings:
            order.append(name)
        listings.setdefault(name, []).append((r["country"], r["isin"], full))
    rows = []
    for name in order:
        suffix = legal_suffix(name)
        short = name[: len(name) - len(suffix)].rstrip(" ,") if suffix else name
        if suffix and not short:
            continue
        kind = _company_kind(name)
        country = _home_country(listings[name])
        if suffix and junk_listing(name) is None:
            rows.append((name, kind, country, suffix, "0", industry_of(name) if kind == "company" else "", "full"))
        if _short_ok(short) and junk_listing(short) is None:
            rows.append((short, kind, country, "", "0", industry_of(short) if kind == "company" else "",
                         "short" if suffix else "full"))
    return rows


_UNIVERSITY_HEADS = ("University", "College", "Institute", "Polytechnic", "School", "Academy")
_UNIVERSITY_VOCAB = ("University", "College", "Institute", "Polytechnic", "School", "Academy", "Technology",
                     "Science", "Sciences", "Engineering", "Management", "Medicine", "Medical", "National",
                     "International", "Business", "Education", "Agriculture", "Agricultural", "Technical",
                     "Economics", "Research", "Studies", "Community", "State", "Federal", "Catholic", "Christian",
                     "Islamic", "Pharmacy", "Nursing", "Theology", "Technological", "Graduate", "Health")


def university(name: str) -> tuple[str, bool] | None:
    """(name, takes "the") for an English-named university, college or institute, or
    ``None`` (other languages, brackets, misspellings: "Instiute")."""
    name = " ".join(name.split())
    the = False
    if name.startswith("The "):
        name, the = name[4:], True
    if _BAD_CHARS.search(name) or "-" in name or not _words_ok(name):
        return None
    words = name.split()
    if not any(h in words for h in _UNIVERSITY_HEADS):
        return None
    if any(len(w) >= 2 and w.isupper() for w in words) or len(words) > MAX_WORDS + 1:
        return None  # "AGH University of Science": an acronym reads as no name
    if len(words) < 2:
        return None
    for w in words:
        if w not in _UNIVERSITY_VOCAB and difflib.get_close_matches(w, _UNIVERSITY_VOCAB, n=1, cutoff=0.8):
            return None  # a misspelt head word
    if "of" in words:
        before = words[words.index("of") - 1] if words.index("of") else ""
        the = the or before in _UNIVERSITY_HEADS
    return name, the


def universities(domains: dict[str, str]) -> list[tuple[str, ...]]:
    """Rows from swot's ``domains/<tld>/.../<name>.txt`` files (path -> first line)."""
    rows = []
    for path, text in sorted(domains.items()):
        line = text.strip().splitlines()[0] if text.strip() else ""
        found = university(line)
        if found is None:
            continue
        name, the = found
        tld = path.split("/")[0]
        rows.append((name, "university", _country_code(tld), "", "1" if the else "0", academic_type(name), "full"))
    return rows


def _read_sources(directory: Path) -> tuple[str, dict[str, str]]:
    sdist = next(directory.glob("investpy-1.0.8.tar.gz"))
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("investpy/resources/stocks.csv"))
        handle = tar.extractfile(member)
        assert handle is not None
        stocks = handle.read().decode("utf-8")
    wheel = next(directory.glob("swot-1.0.1*.whl"))
    domains = {}
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            marker = "swot_lib/lib/domains/"
            if info.filename.endswith(".txt") and marker in info.filename:
                domains[info.filename.split(marker, 1)[1]] = zf.read(info).decode("utf-8", "replace")
    return stocks, domains


def _read_name_data(directory: Path) -> dict[str, list[object]]:
    """nomquamgender's name data (name -> [sources, bearers, share of women, ...])."""
    wheel = next(directory.glob("nomquamgender-0.1.4*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        member = next(n for n in zf.namelist() if n.endswith("nomquamgender/name_data.json"))
        data: dict[str, list[object]] = json.loads(zf.read(member).decode("utf-8"))
    return data


def build_organizations(directory: Path) -> list[str]:
    stocks, domains = _read_sources(directory)
    seen: dict[str, tuple[str, ...]] = {}
    for row in [*universities(domains), *companies(stocks)]:
        if row[0] not in seen:  # first listing wins (universities first: "X University" stays one)
            seen[row[0]] = row
    return ["\t".join(row) for _, row in sorted(seen.items())]


def _write(path: Path, header: str, rows: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = (header + "\n" + "\n".join(rows) + "\n").encode("utf-8")
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(body)  # mtime 0 and no file name: the same bytes on every build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="a directory holding the investpy sdist, "
                        "the swot wheel and the nomquamgender wheel (default: pip download them into a "
                        "temporary directory)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.source
        if directory is None:
            directory = Path(tmp)
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", "investpy",
                            INVESTPY, "-d", tmp], check=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                            SWOT, NOMQUAMGENDER, "-d", tmp], check=True)
        orgs = build_organizations(directory)
        genders = build_genders(_read_name_data(directory))
    persons = build_persons(genders)
    _write(DATA / "entre_persons.tsv.gz", "locale\tcountry\tlist\tnames", persons)
    gender_rows = [f"{g}\t{' '.join(sorted(w for w, v in genders.items() if v == g))}"
                   for g in ("male", "female", "both")]
    _write(DATA / "entre_genders.tsv.gz", "gender\tnames", gender_rows)
    _write(DATA / "entre_organizations.tsv.gz", "name\tkind\tcountry\tsuffix\tthe\tindustry\tform", orgs)
    print(f"wrote {len(persons)} person lists, {len(genders)} name genders and {len(orgs)} organisations to {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
