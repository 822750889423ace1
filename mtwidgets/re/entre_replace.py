"""ENTRE's replacement of one instance: type-constrained, random, round by round (Wang et
al. 2023, sections 3.1 and 3.3).

Round ``r`` of an instance gives *every* replaceable PERSON and ORGANIZATION head or tail a
fresh real-world name of its type, drawn from :mod:`mtwidgets.re.entre_lexicon` with a
generator fixed by the seed, the instance and ``r``; a name already in the instance or
drawn in an earlier round of it is never drawn again. Rounds do not depend on any model:
the iteration (:mod:`mtwidgets.re.entre`) asks the model which instances go on.

A replacement keeps what the sentence says about the entity, or the slot is refused with
the reason:

- only PERSON and ORGANIZATION mentions (by label, else the project's typer), never a
  pronoun, only a clean name (no apposition inside the mention, no digits, no title that
  says more than a gender: "Sheikh", "Sir", "Sister" ...), never a name the text gives
  another name ("born", "née", "known as", "Name (ALIAS)"), never the two arguments of an
  ``alternate_names`` relation;
- a person keeps their gender and the form of the mention (a full name, a given name
  alone, a surname alone). The gender comes from the given name (nomquamgender's data,
  else faker's lists), an honorific, a gendered word before or in apposition, or the
  text's pronouns when the person is its only one; it is free only when the text says
  nothing gendered at all, and every name drawn is one whose gender the lexicon knows.
  A surname alone that the text never introduces (no given name, no honorific:
  "Hemingway wrote ...") is how a text names a well-known person, and is refused;
- a person keeps their culture. The paper draws names of any culture; readers find a
  Yoruba name for a Jamaican nurse or an Icelandic one for an Indian twin odd, so a
  replacement is drawn from the cultures of the original name (the faker lists that hold
  it: :func:`~mtwidgets.re.entre_lexicon.name_locales`) that agree with what the text
  ties the person to: a nationality or people describing them ("the Norwegian runner X",
  "X of Norway"), a place of birth or origin ("born in Kingston", "a Chicago native"),
  and, more weakly, the places of their sentences ("in New Delhi", "Segovia's
  churches"). A tie the name's culture contradicts, or one to a country or people whose
  names the lexicon does not list, refuses the slot; a weak tie only narrows. When the
  name's culture is unknown, the places' cultures are taken, and with none the slot is
  refused. Every other mention of the person is renamed the same way ("Leila Karimi ...
  Leila");
- families keep one culture and their shared surnames: persons who share a surname
  (written once too: "Aarav and Anaya Mehta", "the Romano brothers, Marco and Luca") get
  one new surname, and every person the text links by a family word ("her brother",
  "X's wife", "the twins X and Y", "married") shares one culture with them; a relative
  left unchanged constrains that culture too (a Croatian name next to an unchanged
  English son is refused);
- an organisation keeps its typed sub-kind (company, bank, insurer, airline, university),
  the industry its name states ("Castellan Biotech" -> a pharmaceuticals company), the
  sector its clause states ("Tesco's grocery stalls", "X recalled 40,000 vehicles", "the
  bank's depositors": only organisations named for that sector, or refused where the
  lexicon holds none: charities and food banks, estate agents, clubs, law firms), the
  country of the places of its sentence when there are any, and its legal suffix or the
  lack of one. A university keeps being a university (a college a college); one with a
  department, faculty, laboratory or research named with it gets only universities, and
  a school of one field ("Royal College of Music") is refused. Government bodies,
  parties, courts, clubs, charities, news outlets and associations are refused (the
  lexicon holds none), as is an organisation the text places or describes ("the
  Houston-based X", "X, which is based in Omaha", "Denmark's X", "the card processor X",
  "X, a small nonprofit"), abbreviates or shares a word of with another name. "the",
  "a"/"an" and "'s" are made to agree.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.relation import Draft, Slots, Transformation, stable_rng
from ..core.spans import Span
from ..lang import kinds
from ..lang import names as lexicons
from .entities import aliases, initials, named_entities, parse, type_span
from .entre_lexicon import (
    _SUFFIX_WORDS,
    GENDERS,
    INDUSTRY_WORDS,
    ORG_KIND_WORDS,
    EntityLexicon,
    OrgForm,
    _listed,
    classify_organization,
    culture_group,
    culture_of,
    default_lexicon,
    name_cultures,
    native_language,
    one_culture,
)
from .inputs import RelationInput
from .transforms import (
    _ALT_NAME,
    _BORN_NAME,
    _HONORIFIC_OR_TITLE,
    _at_sentence_start,
    _demonyms_in,
    _other_places,
    _split_mention,
    _vowel_sound,
    _word_before,
    clean_name,
    followup_problem,
)

__all__ = ["PERSON_ORG", "EntityReplacement", "EntitySlot"]

PERSON_ORG: tuple[str, str] = ("PERSON", "ORGANIZATION")
ROLES: tuple[str, str] = ("head", "tail")
_TYPE_ALIASES = {"PER": "PERSON", "PERSON": "PERSON", "ORG": "ORGANIZATION", "ORGANIZATION": "ORGANIZATION"}
# fewer fresh names than this for a slot and the iteration (20 rounds by default) could run dry
MIN_POOL = 30
_PRONOUNS = frozenset(p.lower() for p in lexicons.PRONOUNS_PERSON | lexicons.PRONOUNS_ORG) | {
    "they", "them", "their", "theirs", "himself", "herself", "itself", "we", "us", "our", "i", "me", "my", "you",
    "your", "who", "whom", "whose", "this", "that", "these", "those"}
# honorifics that say a gender and nothing else a new name could contradict
_GENDER_HONORIFICS = {"Mr": "male", "Mrs": "female", "Ms": "female", "Miss": "female", "Mx": None, "Dr": None,
                      "Prof": None, "Professor": None}
# titles that say more than a gender: rank, religion, nobility or a language ("Sheikh", "Herr")
_CULTURE_TITLES = frozenset({
    "Sir", "Lord", "Lady", "Dame", "King", "Queen", "Prince", "Princess", "Pope", "Saint", "St", "Sheikh", "Sheik",
    "Sister", "Father", "Brother", "Rev", "Reverend", "Rabbi", "Imam", "Emir", "Sultan", "Chief", "Alhaji", "Hajiya",
    "Herr", "Frau", "Se\u00f1or", "Senor", "Se\u00f1ora", "Senora", "Mme", "Mlle", "Monsieur", "Madame", "Don",
    "Do\u00f1a", "Ayatollah", "Mullah", "Maharaja", "Baron", "Baroness", "Count", "Countess", "Duke", "Duchess",
    "Emperor", "Empress", "Tsar", "Shah", "Raja", "Rani", "Swami", "Lama", "Cardinal", "Bishop", "Archbishop",
    "Deacon", "Pastor", "Mother"})
_TITLE_WORDS = frozenset(w.capitalize() for t in lexicons.TITLES for w in t.split()) | _HONORIFIC_OR_TITLE | {
    "Deputy", "Vice", "Chief", "Executive", "Foreign", "Finance", "Defence", "Defense", "Interior", "State",
    "Secretary", "Coach", "Commissioner", "Chairman", "Chairwoman", "Director", "Ambassador", "Inspector",
    "Detective", "Sergeant", "Officer", "Constable", "Lieutenant", "Colonel", "Major", "Admiral", "Councillor",
    "Councilman", "Councilwoman", "Representative", "Rep", "Sen", "Gov", "Justice", "Speaker", "Premier",
    "Young", "Little", "Former", "Late", "Mayor", "Judge"}
_NAME_CONNECTORS = frozenset({"y", "e", "&", "de", "del", "da", "di", "von", "van", "und", "et", "bin", "ibn", "al"})
_GENDERED_NOUNS = {**{w: "male" for w in lexicons.MALE_WORDS}, **{w: "female" for w in lexicons.FEMALE_WORDS}}
_PRONOUN_GENDER = {"he": "male", "him": "male", "his": "male", "himself": "male",
                   "she": "female", "her": "female", "hers": "female", "herself": "female"}
_KIN_WORDS = frozenset({"son", "daughter", "wife", "husband", "brother", "sister", "mother", "father", "child",
                        "firstborn", "children", "sons", "daughters", "grandson", "granddaughter", "nephew",
                        "niece", "uncle", "aunt", "cousin", "twin", "widow", "widower", "stepson", "stepdaughter"})
_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
_ORIGIN = re.compile(
    r"\b(?:[Bb]orn|[Rr]aised|grew up|[Nn]ative of|hails? from|hailed from|comes? from|came from|originally from|"
    r"citizen of|emigrated from|immigrated from)\b[^.;]{0,40}?\b(?:in|of|from|at|near|outside)\s+(?:the\s+)?"
    r"([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})")
_ORIGIN_BEFORE = re.compile(r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})[- ](?:native|born)\b")
_ORIGIN_AFTER = re.compile(r"\b(?:in|from|to|left)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}),?\s+(?:where\s+(?:he|she)"
                           r"\s+was\s+born|the\s+(?:city|town|village|country|place)\s+of\s+(?:his|her)\s+birth)")
# a pronoun that can only be the person's: right after the name (and X's ...), after its verb,
# in its relative clause, or after an apposition about it
_PRONOUN_AFTER = (
    re.compile(r"\s+and\s+(his|her)\b"),
    re.compile(r"\s+(?P<verb>[a-z]+)\s+(his|her|himself|herself)\b"),
    re.compile(r"\s+(?:said|says|told\s+\w+|added|insists|insisted|explained)\s+(?:that\s+)?(he|she)\b"),
    re.compile(r",\s+who\s+[^,.;]*?\b(his|her|he|she|himself|herself)\b"),
    re.compile(r",[^,.;]{1,60},\s+(?:(?P<verb>[a-z]+)\s+)?(his|her|himself|herself)\b"),
)
_PLURAL_KIN = re.compile(r"\b(?:are|were)\s+(?:twin\s+)?(brothers|sisters)\b")
_ALTERNATE_NAMES = frozenset({"per:alternate_names", "org:alternate_names"})
_PLACED_AFTER = re.compile(r"\s+(?:in|of|from|at)\s+(?:the\s+)?[A-Z]|,?\s*(?:based|headquartered|located)\b|-based\b")
# appositions that state a relation to another organisation, not what the organisation is
_RELATION_NOUNS = frozenset({"unit", "subsidiary", "division", "affiliate", "arm", "member", "part", "parent",
                             "owner", "branch", "shareholder", "partner", "rival", "supplier", "customer"})
_CLAUSE_START = re.compile(r"\s*(?:,\s*|\s+)(which|that|who|whose|where|an?|the|one)\b|\s*[(\u2013\u2014]|\s+--?\s")
# "X of Norway", "X, a nurse from Kingston,": where the person is from, right after the name
_OF_PLACE = re.compile(r"\s*,?\s+(?:of|from)\s+(?:the\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})")
_APPOSITION_FROM = re.compile(r",\s+(?:an?|the)\s+[^,.;()]{0,50}?\bfrom\s+(?:the\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)"
                              r"{0,2})")
# words of family ties between two persons ("X and her brother Y", "Y, X's wife", "married")
_KIN = re.compile(
    r"\b(?:twins?|brothers?|sisters?|siblings?|sons?|daughters?|mother|father|parents?|husband|wife|wives|"
    r"spouses?|cousins?|aunts?|uncles?|nephews?|nieces?|grandsons?|granddaughters?|grandchild(?:ren)?|"
    r"grandmother|grandfather|grandparents?|step(?:son|daughter|mother|father|children|child)|widow(?:er)?|"
    r"mum|mom|dad|child|children|married|marriage|marry|wed|weds|wedding|divorced?|fianc[\u00e9e]e?|in-laws?|"
    r"family|couple|brother-in-law|sister-in-law|son-in-law|daughter-in-law|mother-in-law|father-in-law)\b", re.I)
# a surname written once for a family ("the Romano brothers", "the Mehta twins")
_FAMILY_PHRASE = re.compile(r"\b[Tt]he\s+([A-Z][\w'-]+)\s+(?:brothers|sisters|twins|siblings|family|couple|cousins)\b")
# what may stand between such a phrase and the names it sums up ("the Romano brothers, Marco and Luca")
_ONLY_NAMES = re.compile(r"(?:[\s,:\u2013\u2014-]|\band\b|&|\bnamed\b|\bcalled\b|[A-Z][\w'-]*)*")
# religions a reader ties to the cultures of the countries most of whose people hold them
# ("Rafiq Haddad, a devout Muslim" takes no Portuguese name)
_RELIGION_CULTURES: dict[str, tuple[str, ...]] = {
    "Muslim": ("tr_TR", "id_ID", "uz_UZ", "ha_NG", "fr_DZ"), "Hindu": ("en_IN",), "Sikh": ("en_IN",)}
# peoples that are no nationality (other religions, parties): never a tie to a culture
_NOT_PEOPLES = frozenset({*(set(lexicons.RELIGIONS) - set(_RELIGION_CULTURES)), "Republican", "Republicans", "Democrat", "Democrats", "Democratic",
                          "Conservative", "Conservatives", "Liberal", "Liberals", "Labour", "Socialist", "Socialists",
                          "Communist", "Communists", "Tory", "Tories", "Green", "Greens", "Islamist", "Islamists"})
# Sectors a clause states of an organisation, and what the lexicon holds of each: (kind,
# industry), or None where it holds no organisation of that sector (the slot is refused).
_SECTORS: dict[str, tuple[str, str | None] | None] = {
    "charity": None, "estate agency": None, "club": None, "law firm": None, "consultancy": None, "school": None,
    "bank": ("bank", None), "insurer": ("insurer", None), "airline": ("airline", None),
    **{industry: ("company", industry) for industry in (
        "grocery", "retail", "hospitals", "publishing", "restaurants", "automotive", "pharmaceuticals",
        "oil and gas", "mining", "steel", "technology", "telecommunications", "food and drink",
        "shipping and logistics", "hotels and leisure", "media", "construction", "chemicals", "energy",
        "aerospace and defence", "real estate", "consumer goods")},
}
# the cues, longest first where one holds another ("food bank" before "bank")
_SECTOR_CUES: tuple[tuple[str, str], ...] = (
    ("charity", r"food banks?|charit(?:y|ies|able)|volunteers?|donations?|donors?|non-?profits?|fund-?rais\w*|"
                r"soup kitchens?|homeless shelters?|philanthrop\w*"),
    ("estate agency", r"estate agen(?:t|ts|cy|cies)|realtors?|letting agen(?:t|ts|cy|cies)|"
                      r"(?:sells?|selling|sold)\s+(?:houses|homes|flats|apartments)|house sales|home sales"),
    ("club", r"football clubs?|clubs?|squads?|leagues?|strikers?|goalkeepers?|midfielders?|fans"),
    ("law firm", r"law firms?|attorneys|solicitors|barristers|legal practice"),
    ("consultancy", r"consultanc(?:y|ies)|consulting firms?|management consultants?|accounting firms?|audit firms?|"
                    r"auditors?"),
    ("school", r"pupils|schoolchildren|headteachers?|kindergartens?"),
    ("grocery", r"grocer(?:y|ies|s)?|supermarkets?|hypermarkets?|food retailers?"),
    ("retail", r"retailers?|retail|department stores?|stores|shops|shoppers|shopping malls?|malls?"),
    ("hospitals", r"hospitals?|clinics?|patients|surgeons?|nursing homes?|medical cent(?:er|re)s?|"
                  r"emergency rooms?"),
    ("publishing", r"publish(?:er|ers|ing)|books|novels|magazines?|newspapers?|imprints?"),
    ("restaurants", r"restaurants?|diners|fast-food|fast food|burgers|pizzas?|caf[\u00e9e]s|menus?"),
    ("insurer", r"insurers?|insurance|reinsurers?|policyholders?|underwriters?|insured"),
    ("bank", r"banks?|banking|lenders?|deposits?|depositors?|mortgages?|loans?|bankers?|credit cards?|"
             r"savings accounts?|checking accounts?"),
    ("airline", r"airlines?|air carriers?|flights?|cabin crews?|flight attendants?|airfares?|passengers"),
    ("aerospace and defence", r"planemakers?|aircraft|jets?|jetliners?|airliners?|satellites?|rockets?|missiles?|"
                              r"defen[cs]e contractors?|fighter jets?|drones?|warships?"),
    ("automotive", r"carmakers?|automakers?|car makers?|vehicles?|cars|suvs?|sedans?|trucks?|lorries|dealerships?|"
                   r"car dealers?|motorcycles?|tyres|tires"),
    ("pharmaceuticals", r"drugmakers?|drug makers?|pharmaceuticals?|vaccines?|drugs?|medicines?|clinical trials?|"
                        r"biotech(?:nology)?"),
    ("oil and gas", r"oil|crude|refiner(?:y|ies)|oilfields?|drilling|pipelines?|natural gas|petrol stations?"),
    ("mining", r"miners?|mining|mines?|ores?|gold|copper|iron ore|coal|lithium"),
    ("steel", r"steelmakers?|steel mills?|steel"),
    ("technology", r"software|chipmakers?|chips|semiconductors?|smartphones?|apps?|computers?|search engines?|"
                   r"social networks?|cloud computing|laptops?|data cent(?:er|re)s?"),
    ("telecommunications", r"telecoms?|mobile operators?|mobile networks?|wireless carriers?|broadband|"
                           r"phone networks?|subscribers"),
    ("food and drink", r"brewer(?:s|y|ies)?|beers?|beverages?|soft drinks?|dairy|chocolates?|snacks?|food makers?|"
                       r"food companies|wines?|winer(?:y|ies)|distiller(?:y|ies|s)?|coffee"),
    ("shipping and logistics", r"shipping lines?|shippers?|freight|logistics|container ships?|couriers?|tankers?|"
                               r"parcels?"),
    ("hotels and leisure", r"hotels?|resorts?|casinos?|cruises?|cruise ships?|theme parks?"),
    ("media", r"broadcasters?|film studios?|studios?|films?|movies?|television|tv channels?|record labels?|"
              r"streaming"),
    ("construction", r"construction|builders?|contractors?|homebuilders?|building sites?|bridges?|motorways?"),
    ("chemicals", r"chemicals?|chemical makers?|fertili[sz]ers?|plastics?|paints?|herbicides?|pesticides?|"
                  r"insecticides?|weedkillers?|agrochemicals?|crop protection"),
    ("energy", r"utilit(?:y|ies)|electricity|power plants?|power stations?|wind farms?|solar panels?|"
               r"nuclear plants?"),
    ("real estate", r"property developers?|real estate|landlords?|office buildings?|office towers?|shopping centres?"),
)
_SECTOR_PATTERN = re.compile(r"\b(?:" + "|".join(f"(?P<s{i}>{cue})" for i, (_, cue) in enumerate(_SECTOR_CUES))
                             + r")\b")
# words that name a university's research around it ("the Department of Biosciences at X")
_RESEARCH = re.compile(r"\b(?:departments?|facult(?:y|ies)|school of|laborator(?:y|ies)|labs?|research\w*|"
                       r"professors?|lecturers?|ph\.?d\.?|doctorates?|doctoral|postdoc\w*|dean|thesis|"
                       r"dissertation|institute|centre for|center for)\b", re.I)


# words many organisations' names share ("University", "Bank", "Ltd", "of"): sharing one
# with the text or another new name is no repeat of a name
_GENERIC_WORDS = frozenset({
    *(w for words in ORG_KIND_WORDS.values() for w in words), *(w for words in INDUSTRY_WORDS.values() for w in words),
    *_SUFFIX_WORDS, "of", "the", "and", "&", "for", "de", "la", "State", "National", "International", "Group",
    "Holdings", "Holding", "Institute", "School", "Academy", "Industries", "Company", "Corporation", "New", "First"})


def _core_type(label: str | None) -> str | None:
    return _TYPE_ALIASES.get(label.upper()) if label else None


@dataclass(frozen=True)
class EntitySlot:
    """One replaceable head or tail mention and what a replacement must keep.

    ``form``: for a PERSON "full", "given" (a given name alone) or "surname" (a surname
    alone); for an ORGANIZATION "suffix" (ends in a legal suffix) or "plain".
    ``gender``: "male", "female" or ``None`` when nothing in the text fixes it (either is
    drawn). ``locales``: the name cultures a person's new name is drawn from (the original
    name's, agreeing with the text). ``kind``/``industry``: the organisation's typed
    sub-kind and the industry its name or clause states ("" none, ``None`` any; for a
    university its academic type). ``countries``: the countries (ISO codes) an
    organisation is drawn from (``None``: any). ``family``: the surname this person
    shares with others of the text (they get one new surname).
    """

    role: str
    etype: str
    mention: str
    name: str
    form: str
    gender: str | None = None
    locales: tuple[str, ...] | None = None
    kind: str | None = None
    industry: str | None = None
    takes_the: bool = False
    family: str | None = None
    countries: tuple[str, ...] | None = None


# -- the plan of one instance: who and what is renamed, where ---------------------------------------
@dataclass
class _Person:
    """A person of the text to rename: every mention of them, as full name, given name or
    surname, and what the new name must keep."""

    given: str | None  # as written ("Ana Luisa"); None when only the surname is known
    surname: str | None
    mentions: list[tuple[int, int, str]]  # (start, end, "full" | "given" | "surname")
    gender: str | None = None
    locales: tuple[str, ...] | None = None
    roles: list[str] = field(default_factory=list)  # the arguments it is
    family: int | None = None
    form: str = "full"

    @property
    def role(self) -> bool:
        return bool(self.roles)

    @property
    def full(self) -> str:
        return " ".join(p for p in (self.given, self.surname) if p)


@dataclass
class _OrgPlan:
    role: str
    form: OrgForm
    mentions: list[tuple[int, int]]  # the name (without article and possessive), every occurrence
    modifier: bool  # modifies a noun ("a Boeing spokesman"): keeps the article as it is
    article: tuple[int, int] | None  # a "the" right before the name (in or out of the mention)
    kind: str = "company"  # what is drawn: the kind, the industry (None: any), the countries
    industry: str | None = None
    countries: tuple[str, ...] | None = None


@dataclass
class _Plan:
    slots: list[EntitySlot] = field(default_factory=list)
    why: list[str] = field(default_factory=list)
    persons: list[_Person] = field(default_factory=list)
    orgs: list[_OrgPlan] = field(default_factory=list)


@dataclass(frozen=True)
class _Round:
    """One round's follow-up and what it renamed."""

    followup: RelationInput
    replaced: dict[str, list[str]]  # role -> [old mention, new mention]
    also: list[list[str]]  # other mentions renamed with them
    names: tuple[str, ...]  # the names drawn (kept out of later rounds)


class _Fresh:
    """Names a draw must avoid: the names drawn in earlier rounds, any name sharing a word
    with the source text, and (so one round gives distinct people) any sharing a word
    with a name drawn already in this round."""

    def __init__(self, used: set[str], text_words: frozenset[str]) -> None:
        self.used, self.text_words = used, text_words
        self.names: list[str] = []  # drawn in this round
        self.words: set[str] = set()

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return True
        return name in self.used or any((w in self.text_words or w in self.words) and w not in _GENERIC_WORDS
                                        for w in name.split())

    def take(self, *names: str) -> None:
        for n in names:
            self.names.append(n)
            self.words.update(n.split())


class EntityReplacement(Transformation):
    """ENTRE's random, type-constrained replacement of PERSON and ORGANIZATION heads and
    tails (see the module docstring). :meth:`round` and :meth:`chain` give the rounds of the
    iteration; as a transformation, one draft is round 1 for ``seed`` (0 unless given)."""

    requirement = "a PERSON or ORGANIZATION head or tail that takes another name of its type"
    per_slot = 1

    def __init__(self, lexicon: EntityLexicon | None = None, *, seed: int = 0) -> None:
        super().__init__()
        self._lexicon = lexicon
        self.seed = seed
        self._plans: OrderedDict[tuple[str, str | None], _Plan] = OrderedDict()
        self._chains: OrderedDict[tuple[str, str | None, int], tuple[list[_Round | None], set[str]]] = OrderedDict()

    @property
    def lexicon(self) -> EntityLexicon:
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    # -- data set ------------------------------------------------------------------------------
    def prepare(self, sources: Sequence[BaseInput]) -> EntityReplacement:
        """This replacement with the data's own PERSON and ORGANIZATION head/tail names
        added to the lexicon (the paper adds TACRED's own names to its lexicon)."""
        persons: list[str] = []
        orgs: list[str] = []
        for x in sources:
            if not isinstance(x, RelationInput):
                continue
            for span in (x.head, x.tail):
                etype = _core_type(span.label)
                mention = x.text[span.start : span.end]
                if etype is None or mention.lower() in _PRONOUNS:
                    continue
                core = _clean_person(mention) if etype == "PERSON" else clean_name(mention, etype, source=True)
                if core is None:
                    continue
                (persons if etype == "PERSON" else orgs).append(core)
        if not persons and not orgs:
            return self
        return EntityReplacement(self.lexicon.with_names(persons, orgs), seed=self.seed)

    # -- public API ------------------------------------------------------------------------------
    def slots(self, x: RelationInput) -> tuple[list[EntitySlot], list[str]]:
        """The replaceable head/tail slots of ``x`` and the reasons for the others."""
        plan = self._plan(_check_input(x))
        return list(plan.slots), list(dict.fromkeys(plan.why))

    def round(self, x: RelationInput, seed: int, r: int) -> RelationInput | None:
        """``x`` with every replaceable slot given a fresh name (round ``r`` >= 1), or
        ``None`` when no slot is replaceable (or no fresh name is left)."""
        found = self._round(_check_input(x), seed, r)
        return None if found is None else found.followup

    def chain(self, x: RelationInput, seed: int, rounds: int) -> list[RelationInput]:
        """Rounds 1 .. ``rounds`` of ``x`` (stops early when no fresh name is left)."""
        out = []
        for r in range(1, rounds + 1):
            fu = self.round(x, seed, r)
            if fu is None:
                break
            out.append(fu)
        return out

    # -- Transformation protocol ------------------------------------------------------------------
    def _options(self, sources: tuple[BaseInput, ...]) -> list[list[Any]]:
        x = _relation_input(sources)
        slots, why = self.slots(x)
        if not slots:
            return Slots([[]], why)
        found = self._round(x, self.seed, 1)
        if found is None:
            return Slots([[]], [*why, "no fresh name fits every slot"])
        return Slots([[found]], why)

    def _build(self, sources: tuple[BaseInput, ...], option: Any) -> Draft:
        x = _relation_input(sources)
        found: _Round = option
        changes = "; ".join(f"{old} -> {new}" for old, new in found.replaced.values())
        meta: dict[str, Any] = {"round": 1, "replaced": {k: list(v) for k, v in found.replaced.items()}}
        if found.also:
            meta["also"] = [list(v) for v in found.also]
        return Draft((x,), (found.followup,), f"ENTRE round 1: {changes}", meta)

    # -- rounds ----------------------------------------------------------------------------------
    def _round(self, x: RelationInput, seed: int, r: int) -> _Round | None:
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise InputError(f"round must be a whole number >= 1, got {r!r}")
        plan = self._plan(x)
        if not plan.slots:
            return None
        key = (x.key(), getattr(x, "gold", None), int(seed))
        cached = self._chains.get(key)
        if cached is None:
            cached = ([], set())
            self._chains[key] = cached
            while len(self._chains) > 2048:
                self._chains.popitem(last=False)
        done, used = cached
        while len(done) < r:
            n = len(done) + 1
            found = self._draw_round(x, plan, stable_rng(seed, "ENTRE", x.key(), str(n)), used)
            done.append(found)
            if found is not None:
                used.update(found.names)
        return done[r - 1]

    def _draw_round(self, x: RelationInput, plan: _Plan, rng: random.Random, used: set[str]) -> _Round | None:
        text_words = frozenset(_WORD.findall(x.text))
        for _ in range(4):  # a draw whose text fails the checks is drawn again
            fresh = _Fresh(used, text_words)
            edits = self._person_edits(plan, rng, fresh)
            if edits is None:
                return None
            org_edits = self._org_edits(x, plan, rng, fresh)
            if org_edits is None:
                return None
            found = _apply(x, [*edits, *org_edits])
            if found is not None and followup_problem(x, found[0]) is None:
                fu, renamed = found
                replaced = {role: [getattr(x, f"{role}_text"), getattr(fu, f"{role}_text")] for role in ROLES
                            if getattr(x, f"{role}_text") != getattr(fu, f"{role}_text")}
                args = {(x.head.start, x.head.end), (x.tail.start, x.tail.end)}
                also = [[old, new] for (s, e), (old, new) in renamed.items() if (s, e) not in args
                        and not any(a[0] <= s and e <= a[1] for a in args)]
                return _Round(fu, replaced, also, tuple(fresh.names))
        return None

    def _person_edits(self, plan: _Plan, rng: random.Random, fresh: _Fresh) -> list[tuple[int, int, str]] | None:
        lex = self.lexicon
        new: dict[int, tuple[str | None, str | None]] = {}
        families: dict[int, list[int]] = {}
        for i, p in enumerate(plan.persons):
            if p.family is not None:
                families.setdefault(p.family, []).append(i)
        for _, members in sorted(families.items()):
            genders = [plan.persons[i].gender or rng.choice(GENDERS) for i in members]
            locales = _shared_locales([plan.persons[i].locales for i in members])
            got = lex.family(rng, genders=genders, locales=locales, exclude=fresh)
            if got is None:
                return None
            family_name, givens = got
            fresh.take(family_name, *givens)
            for i, g in zip(members, givens):
                new[i] = (g, family_name)
        for i, p in enumerate(plan.persons):
            if i in new:
                continue
            gender = p.gender or rng.choice(GENDERS)
            if p.form == "given":
                drawn = lex.given_name(rng, gender=gender, locales=p.locales, exclude=fresh)
                parts: tuple[str | None, str | None] = (drawn, None)
            elif p.form == "surname":
                drawn = lex.surname(rng, gender=p.gender, locales=p.locales, exclude=fresh)
                parts = (None, drawn)
            else:
                drawn = lex.person(rng, gender=gender, locales=p.locales, exclude=fresh)
                parts = tuple(drawn.rsplit(" ", 1)) if drawn else (None, None)  # type: ignore[assignment]
            if drawn is None:
                return None
            fresh.take(drawn)
            new[i] = parts
        edits: list[tuple[int, int, str]] = []
        for i, p in enumerate(plan.persons):
            given, surname = new[i]
            for start, end, which in p.mentions:
                written = {"full": f"{given} {surname}" if given and surname else None, "given": given,
                           "surname": surname}[which]
                if written is None:
                    return None
                edits.append((start, end, written))
        return edits

    def _org_edits(self, x: RelationInput, plan: _Plan, rng: random.Random,
                   fresh: _Fresh) -> list[tuple[int, int, str]] | None:
        edits: list[tuple[int, int, str]] = []
        for o in plan.orgs:
            name = self.lexicon.organization(
                rng, kind=o.kind, legal_suffix=_suffix_wanted(o.form), exclude=fresh, industry=o.industry,
                takes_the=False if o.modifier else None, countries=o.countries)
            if name is None:
                return None
            fresh.take(name)
            takes_the = self.lexicon.org_form(name)
            the = takes_the.takes_the if takes_the is not None else False
            for i, (start, end) in enumerate(o.mentions):
                edits.append((start, end, name))
                if i == 0 and not o.modifier:
                    edits.extend(_article_edit(x.text, start, o.article, the))
        return edits

    # -- the plan --------------------------------------------------------------------------------
    def _plan(self, x: RelationInput) -> _Plan:
        key = (x.key(), getattr(x, "gold", None))
        plan = self._plans.get(key)
        if plan is None:
            plan = _Planner(x, self.lexicon).build()
            self._plans[key] = plan
            while len(self._plans) > 4096:
                self._plans.popitem(last=False)
        return plan


# -- planning ------------------------------------------------------------------------------------
class _Planner:
    """Works out, for one instance, which slots take a new name and every mention to
    rename with them; collects the reasons for the slots it refuses."""

    def __init__(self, x: RelationInput, lexicon: EntityLexicon) -> None:
        self.x, self.text, self.lex = x, x.text, lexicon
        self.plan = _Plan()

    def build(self) -> _Plan:
        x, why = self.x, self.plan.why
        gold = getattr(x, "gold", None)
        typed = {role: self._etype(role) for role in ROLES}
        candidates = []
        for role in ROLES:
            span = _span(x, role)
            mention = self.text[span.start : span.end]
            etype = typed[role]
            what = f"the {role} {mention!r}"
            if etype not in PERSON_ORG:
                why.append(f"{what} is a {etype} (ENTRE replaces PERSON and ORGANIZATION names only)")
                continue
            if mention.lower() in _PRONOUNS:
                why.append(f"{what} is a pronoun")
                continue
            if gold in _ALTERNATE_NAMES:
                why.append(f"the head and the tail are two names of one entity ({gold}): new names would not be")
                continue
            candidates.append((role, etype))
        if not candidates:
            return self.plan
        if _ALT_NAME.search(self.text) or _BORN_NAME.search(self.text):
            why.append("the text gives an entity another name (born, née, known as, renamed, ...)")
            return self.plan
        people = [(role, etype) for role, etype in candidates if etype == "PERSON"]
        if people:
            self._plan_persons([role for role, _ in people])
        for role, etype in candidates:
            if etype == "ORGANIZATION":
                self._plan_org(role)
        self.plan.slots.sort(key=lambda s: ROLES.index(s.role))
        return self.plan

    def _etype(self, role: str) -> str:
        span = _span(self.x, role)
        if span.label:
            return _core_type(span.label) or span.label
        try:
            return type_span(self.text, span)
        except ImportError:  # no spaCy: an unlabelled mention cannot be typed
            return "MISC"

    # -- persons -----------------------------------------------------------------------------
    def _plan_persons(self, roles: list[str]) -> None:
        """Persons: the argument persons, every other mention of them, and the persons who
        share a surname with them; refused as a whole when any of them cannot be renamed."""
        text = self.text
        people: list[_Person] = []
        for role in roles:
            person = self._arg_person(role)
            if person is not None:
                people.append(person)
        if not people:
            return
        others = self._other_persons(people)
        if others is None:
            return
        # surname-only or given-only mentions of the argument persons, and their families
        everyone = people + others
        if not self._attach_mentions(everyone):
            return
        self._implicit_surnames(everyone)
        if self._families(everyone) is None or not self._introduced(everyone):
            return
        families = {p.family for p in everyone if p.role and p.family is not None}
        chosen = [p for p in everyone if p.role or (p.family is not None and p.family in families)]
        for p in chosen:
            if not self._gender(p, everyone):
                return
        if not self._cultures(chosen, everyone):
            return
        if not self._capacity(chosen):
            return
        if not self._words_elsewhere(chosen):
            return
        self.plan.persons = chosen
        for p in chosen:
            for role in p.roles:
                span = _span(self.x, role)
                form = next((w for s, e, w in p.mentions if span.start <= s and e <= span.end), p.form)
                self.plan.slots.append(EntitySlot(
                    role, "PERSON", text[span.start : span.end], p.full, form, p.gender, p.locales,
                    family=p.surname if p.family is not None else None))

    def _arg_person(self, role: str) -> _Person | None:
        text, why = self.text, self.plan.why
        span = _span(self.x, role)
        mention = text[span.start : span.end]
        what = f"the {role} {mention!r}"
        article, core, _ = _split_mention(mention)
        if article or _clean_person(mention) is None:
            why.append(f"{what} is not a clean person name")
            return None
        words = core.split()
        before = _word_before(text, span.start).rstrip(".")
        if before in _CULTURE_TITLES:
            why.append(f"{what} follows the title {before!r}, which says more than a gender")
            return None
        problem = self._longer_name(span, before)
        if problem:
            why.append(f"{what} {problem}")
            return None
        if _alias_problem(text, span):
            why.append(f"{what} has another name in brackets")
            return None
        start = span.start + len(article)
        if len(words) == 1:
            form = self._single_form(core, before, span)
            if form is None:
                why.append(f"cannot tell whether {what} is a given name or a surname")
                return None
            return _Person(core if form == "given" else None, core if form == "surname" else None,
                           [(start, start + len(core), form)], roles=[role], form=form)
        given, surname = self._split_full(words)
        return _Person(given, surname, [(start, start + len(core), "full")], roles=[role])

    def _split_full(self, words: list[str]) -> tuple[str, str]:
        """(given names, surname) of a full name: the family name first in cultures that
        write it so ("Wang Fang", "Tran Van Minh"), last otherwise."""
        if words[0] in kinds.family_first_names() and self.lex.given_gender(words[1]) is None and (
                words[1] not in kinds.given_names()):
            return " ".join(words[1:]), words[0]
        return " ".join(words[:-1]), words[-1]

    def _single_form(self, word: str, before: str, span: Span) -> str | None:
        if before in _GENDER_HONORIFICS:
            return "surname"
        if self.lex.given_gender(word) is not None or word in kinds.given_names():
            return "given"
        if re.search(r"\b(?:" + "|".join(_KIN_WORDS) + r")\s*,?\s*$", self.text[: span.start], re.I):
            return "given"
        if self.lex.is_surname(word):
            return "surname"
        return None

    def _longer_name(self, span: Span, before: str) -> str | None:
        """Why the mention may be part of a longer name, or ``None``."""
        text = self.text
        prev = re.search(r"(\S+)\s+$", text[: span.start])
        if prev:
            w = prev.group(1)
            word = w.rstrip(".")
            if (w[:1].isupper() and w[-1].isalpha() and not _at_sentence_start(text, prev.start(1))
                    and word not in _TITLE_WORDS and word not in _GENDER_HONORIFICS
                    and word not in kinds.NATIONALITY_WORDS and word not in lexicons.DEMONYMS):
                return f"follows another capitalised word ({w!r}): it may be part of a longer name"
        after = re.match(r"\s+(\S+)", text[span.end :])
        if after and after.group(1)[:1].isupper() and after.group(1)[:1].isalpha():
            return f"is followed by another capitalised word ({after.group(1)!r}): it may be part of a longer name"
        joined = re.match(r"\s+(\w+)\s+[A-Z]", text[span.end :])
        if joined and joined.group(1) in _NAME_CONNECTORS:
            return f"is followed by {joined.group(1)!r} and a capitalised word: it may be part of a longer name"
        joined = re.search(r"[A-Z][\w'-]*\s+(\w+)\s+$", text[: span.start])
        if joined and joined.group(1) in _NAME_CONNECTORS and joined.group(1) != "and":
            return f"follows a capitalised word and {joined.group(1)!r}: it may be part of a longer name"
        owned = re.match(r"['\u2019]s?\s+([A-Z][\w'-]*)", text[span.end :])
        if owned and not self._is_name_start(span.end + owned.start(1)):
            return (f"is followed by a possessive and a capitalised word ({owned.group(1)!r}): it may be part of "
                    f"a place or organisation name")
        return None

    def _is_name_start(self, pos: int) -> bool:
        """Whether a person's name starts at ``pos`` ("Omar's mother, Nasreen" is fine)."""
        return any(e.start == pos and e.label == "PERSON" for e in named_entities(self.text))

    def _other_persons(self, args: list[_Person]) -> list[_Person] | None:
        """The other persons the text names (spaCy), as full or single-word mentions."""
        text, why = self.text, self.plan.why
        taken = [Span(s, e) for p in args for s, e, _ in p.mentions]
        for role in ROLES:  # nothing overlapping either argument is another person
            taken.append(_span(self.x, role))
        out: list[_Person] = []
        arg_words = {w for p in args for w in p.full.split()}
        for e in named_entities(text):
            if e.label != "PERSON" or any(e.overlaps(t) for t in taken):
                continue
            mention = text[e.start : e.end]
            _, core, _ = _split_mention(mention)
            offset = e.start + mention.index(core)
            words = core.split()
            while words and words[0].rstrip(".") in (*_GENDER_HONORIFICS, *_CULTURE_TITLES, *_TITLE_WORDS):
                offset += len(words[0]) + 1
                words = words[1:]
            core = " ".join(words)
            if not words:
                continue
            clean = _clean_person(core) == core
            if not clean:
                if set(words) & arg_words:
                    why.append(f"the text names {core!r}, which shares a name with an argument and is no clean name")
                    return None
                continue
            if len(words) == 1:
                before = _word_before(text, offset).rstrip(".")
                form = self._single_form(core, before, Span(offset, offset + len(core)))
                if form is None:
                    if core in arg_words:
                        continue  # attached to the argument it repeats
                    continue
                out.append(_Person(core if form == "given" else None, core if form == "surname" else None,
                                   [(offset, offset + len(core), form)], form=form))
            else:
                given, surname = self._split_full(words)
                out.append(_Person(given, surname, [(offset, offset + len(core), "full")]))
        return _merge_same(out, args)

    def _attach_mentions(self, everyone: list[_Person]) -> bool:
        """Single-word mentions elsewhere that are a given name or surname of a full-named
        person become mentions of that person (the same renaming); every other whole-word
        occurrence of an argument's name words is attached, or the slot is refused."""
        text, why = self.text, self.plan.why
        covered = [(s, e) for p in everyone for s, e, _ in p.mentions]
        fulls = [p for p in everyone if p.given and p.surname]
        singles = [p for p in everyone if not (p.given and p.surname)]
        for p in list(singles):
            word = p.given or p.surname or ""
            owners_given = [q for q in fulls if q.given == word]
            owners_surname = [q for q in fulls if q.surname == word]
            owner = None
            if len(owners_given) == 1 and not owners_surname:
                owner, which = owners_given[0], "given"
            elif owners_surname and not owners_given:
                owner, which = owners_surname[0], "surname"
            if owner is not None:
                if owner.roles and p.roles:
                    why.append(f"the head and the tail name the same person ({owner.full!r})")
                    return False
                owner.mentions.extend((s, e, which) for s, e, _ in p.mentions)
                owner.roles = owner.roles + p.roles
                everyone.remove(p)
                continue
            if owners_given and owners_surname:
                if p.role:
                    why.append(f"{word!r} is a given name of one person and the surname of another")
                    return False
        # bare occurrences not tagged by spaCy ("Sorensen said ...")
        for p in everyone:
            for which, part in (("given", p.given), ("surname", p.surname)):
                if not part:
                    continue
                for m in re.finditer(rf"(?<![\w-]){re.escape(part)}(?![\w-])", text):
                    if any(s <= m.start() < e for s, e in covered) or re.match(r"\s+[A-Z]", text[m.end() :]):
                        continue  # part of another name ("Marco Polo Airport"): left to the check below
                    owners = [q for q in everyone if (q.given == part if which == "given" else q.surname == part)]
                    if len(owners) == 1 or which == "surname":
                        p.mentions.append((m.start(), m.end(), which))
                        covered.append((m.start(), m.end()))
        return True

    def _families(self, everyone: list[_Person]) -> bool | None:
        """Group persons who share a surname into families (each gets one new surname),
        a surname's feminine and masculine forms as one ("Kowalska", "Kowalski")."""
        by_surname: dict[str, list[_Person]] = {}
        for p in everyone:
            if p.surname:
                by_surname.setdefault(_family_key(p.surname), []).append(p)
        n = 0
        for _, members in sorted(by_surname.items()):
            if len(members) > 1:
                for p in members:
                    p.family = n
                n += 1
        # a surname-only mention shared by several persons (the Sorensens) stays with the first
        for p in everyone:
            p.mentions = sorted(set(p.mentions))
        seen: dict[tuple[int, int], int] = {}
        for i, p in enumerate(everyone):
            keep = []
            for m in p.mentions:
                if (m[0], m[1]) in seen:
                    other = everyone[seen[(m[0], m[1])]]
                    if other.family is None or other.family != p.family:
                        self.plan.why.append(f"{self.text[m[0]:m[1]]!r} may name more than one person")
                        return None
                    continue
                seen[(m[0], m[1])] = i
                keep.append(m)
            p.mentions = keep
        return True

    def _gender(self, p: _Person, everyone: list[_Person]) -> bool:
        """Sets ``p.gender`` (``None``: free) or refuses with the reason: the given name's
        gender, else the words about the person (an honorific, a gendered noun before or
        in apposition, a pronoun that can only be theirs); free when nothing in the text
        is gendered; the name and the words must agree."""
        why, text = self.plan.why, self.text
        who = repr(p.full)
        first = p.given.split()[0] if p.given else None
        from_name = _name_gender(self.lex, first) if first else None
        cues = self._gender_cues(p)
        words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
        gendered = {_GENDERED_NOUNS[w] for w in words if w in _GENDERED_NOUNS}
        gendered |= {_GENDERED_NOUNS[w[:-1]] for w in words if w.endswith("s") and w[:-1] in _GENDERED_NOUNS}
        others = [e for e in named_entities(text) if e.label == "PERSON"
                  and not any(s <= e.start < t for q in everyone for s, t, _ in q.mentions)]
        pronoun_args = [r for r in ROLES if self.x.text[_span(self.x, r).start : _span(self.x, r).end].lower()
                        in _PRONOUN_GENDER]
        pronouns = {_PRONOUN_GENDER[w] for w in words if w in _PRONOUN_GENDER}
        if len(everyone) == 1 and not others and not pronoun_args and len(pronouns) == 1:
            cues |= pronouns  # the only person of the text: its pronouns are theirs
        if len(cues) > 1 or (from_name and cues and from_name not in cues):
            why.append(f"the gender of {who} is unclear (its name and the words about it disagree)")
            return False
        if from_name or cues:
            p.gender = from_name or next(iter(cues))
            return True
        if not gendered:
            p.gender = None  # nothing in the text is gendered: a name of either gender fits
            return True
        why.append(f"the gender of {who} is unknown (neither its name nor the words about it tell)")
        return False

    def _is_verb(self, pos: int) -> bool:
        """Whether a full verb (not "was", not "as") starts at ``pos``: "X named his son"."""
        return any(t.idx == pos and t.pos_ == "VERB" for t in parse(self.text))

    def _gender_cues(self, p: _Person) -> set[str]:
        text = self.text
        cues: set[str] = set()
        for start, end, _ in p.mentions:
            before = _word_before(text, start).rstrip(".")
            if _GENDER_HONORIFICS.get(before):
                cues.add(str(_GENDER_HONORIFICS[before]))
            noun = re.search(r"([A-Za-z-]+)\s*,?\s*$", text[:start])
            if noun and noun.group(1).lower() in _GENDERED_NOUNS and noun.group(1).lower() not in _PRONOUN_GENDER:
                cues.add(_GENDERED_NOUNS[noun.group(1).lower()])
            appos = re.match(r"\s*,\s*(?:(?:his|her|their|the|a|an)\s+)?(?:[a-z-]+\s+){0,2}?([a-z-]+)\b", text[end:])
            if appos and appos.group(1) in _GENDERED_NOUNS and appos.group(1) not in _PRONOUN_GENDER:
                cues.add(_GENDERED_NOUNS[appos.group(1)])
            for pattern in _PRONOUN_AFTER:
                m = pattern.match(text, end)
                if m is None:
                    continue
                pronoun = m.lastindex or 1
                if not re.search(r"\b[A-Z][a-z]+\s+[A-Z][a-z]+", text[end : m.start(pronoun)]) and (
                        m.groupdict().get("verb") is None or self._is_verb(m.start("verb"))):
                    cues.add(_PRONOUN_GENDER[m.group(pronoun).lower()])
            m = _PLURAL_KIN.search(text, end)
            if m and not re.search(r"[.;!?]", text[end : m.start()]):
                cues.add("male" if m.group(1).lower() == "brothers" else "female")
            # names a gendered plural sums up before them ("the Romano brothers, Marco and Luca")
            m = re.search(r"\b(brothers|sons|sisters|daughters)\b([^.;!?]{0,60})$", text[:start], re.I)
            if m and _ONLY_NAMES.fullmatch(m.group(2)):
                cues.add("male" if m.group(1).lower() in ("brothers", "sons") else "female")
        return cues

    # -- cultures and families ----------------------------------------------------------------------
    def _cultures(self, chosen: list[_Person], everyone: list[_Person]) -> bool:
        """Sets ``locales`` of every renamed person: the cultures their own name may have that
        agree with the text (:meth:`_culture`), shared with the family the text links them to
        (:meth:`_kin_groups`, unchanged relatives included: a member whose name tells no
        culture takes the family's), settled on one culture
        (:func:`~mtwidgets.re.entre_lexicon.one_culture`); refuses with the reason."""
        why = self.plan.why
        for group in self._kin_groups(everyone):
            renamed = sorted(i for i in group if everyone[i] in chosen)
            if not renamed:
                continue
            members = sorted(group)
            family = len(members) > 1
            own: list[frozenset[str]] = []
            for i in members:
                found = self._culture(everyone[i], relative=everyone[i] not in chosen, family=family)
                if found is None:
                    return False
                own.append(found)
            known = [c for c in own if c]
            shared = _shared_culture(known) if known else None
            if shared is None and known and self._one_surname([everyone[i] for i in members]):
                shared = self._surname_culture([everyone[i] for i in members], known)
            if shared is None:
                names = ", ".join(repr(everyone[i].full) for i in members)
                if not known:
                    why.append(f"the cultures of the names of the family {names} are unknown and the text ties "
                               f"them to no place")
                elif not family:
                    why.append(f"the name {names} may be of several cultures ({', '.join(sorted(known[0]))})")
                else:
                    why.append(f"the text makes {names} one family, but their names are of no one culture")
                return False
            for i in renamed:
                everyone[i].locales = shared
        return True

    @staticmethod
    def _one_surname(members: list[_Person]) -> bool:
        return len({p.family for p in members}) == 1 and members[0].family is not None

    def _surname_culture(self, members: list[_Person], known: list[frozenset[str]]) -> tuple[str, ...] | None:
        """The culture of a family that shares one surname but whose given names point to
        several ("Sofia" and "Chiara Marino" in Bologna): of the cultures any member's name
        may have, those of the places the text puts them in."""
        places: set[str] = set()
        for p in members:
            weak = self._tied_locales(p, repr(p.full))[1]
            if weak:
                places |= weak[0]
        if not places:
            return None
        narrowed = _same_culture(frozenset().union(*known), frozenset(places))
        return one_culture(narrowed) if narrowed else None

    def _culture(self, p: _Person, relative: bool = False, family: bool = False) -> frozenset[str] | None:
        """The cultures ``p``'s new name may be drawn from (``None``: refused, with the
        reason): the original name's cultures that agree with the text's ties (a nationality
        or place of origin must agree, the places of the person's sentences narrow), else
        the places' cultures. In a ``family``, a name that tells no culture (empty) or only
        a guess takes the family's."""
        who = f"{p.full!r}" if not relative else f"{p.full!r} (a relative of a renamed person)"
        why = self.plan.why
        name, sure = name_cultures(p.given, p.surname)
        strong, weak, problem = self._tied_locales(p, who)
        if problem:
            why.append(problem)
            return None
        places, unlisted = weak if weak else (frozenset(), "")
        if name:
            if strong:
                tied = _same_culture(name, strong)
                if not tied and sure:
                    why.append(f"the name {who} is of another culture than the country or people the text ties "
                               f"them to")
                    return None
                return tied or strong  # a guess from a given name yields to the tie
            if unlisted:
                why.append(f"the text places {who} in {unlisted}, whose names the lexicon does not list")
                return None
            narrowed = _same_culture(name, places) if places else frozenset()
            given_cultures = _listed(p.given.split()[0], False) if p.given and not narrowed else None
            if places and given_cultures is not None:
                # the surname told a culture the places of the text contradict: a given name
                # of theirs ("Aliyu Bello" in Kano is Hausa, not Italian) or one no list holds
                # takes the places' culture
                at_place = _same_culture(given_cultures, places) if given_cultures else places
                if at_place:
                    return at_place
            if narrowed or sure:
                return narrowed or name
            if places:
                return places
            if family:
                return frozenset()  # a guess from a given name: the family's culture will do
            if max(Counter(culture_group(loc) for loc in name).values()) >= 2:
                return name  # a given name two lists of one culture hold
            why.append(f"the culture of the name {who} is unclear (only its given name is listed, by "
                       f"{', '.join(sorted(name))}) and the text ties them to no place")
            return None
        if strong:
            return strong
        if unlisted:
            why.append(f"the text places {who} in {unlisted}, whose names the lexicon does not list")
            return None
        if places:
            return places
        if family:
            return frozenset()  # the family's culture will do
        why.append(f"the culture of the name {who} is unknown and the text ties them to no place")
        return None

    def _tied_locales(self, p: _Person, who: str) -> tuple[frozenset[str], tuple[frozenset[str], str] | None,
                                                         str | None]:
        """(the cultures of the countries and peoples the text ties ``p`` to; (the cultures of
        the other places of their sentences, a place among them whose names the lexicon does
        not list or ""), or ``None`` without such places; why the ties refuse the slot)."""
        strong: set[str] = set()
        for word, people in self._ties(p):
            if word in _RELIGION_CULTURES:
                strong |= set(_RELIGION_CULTURES[word])
                continue
            country = _country_of(word, people)
            if country is None:
                if people:
                    return frozenset(), None, (f"the text ties {who} to a people ({word!r}) whose names the lexicon "
                                               f"does not list")
                return frozenset(), None, f"the text ties {who} to a place ({word!r}) the lexicon cannot place"
            found = self.lex.country_locales(country)
            if not found:
                return frozenset(), None, f"the text ties {who} to {country}, whose names the lexicon does not list"
            strong |= set(found)
        weak: set[str] = set()
        unlisted = ""
        for country in self._sentence_countries(p):
            if not country:
                continue  # no place the lexicon knows: it tells nothing
            found = self.lex.country_locales(country)
            if found:
                weak |= set(found)
            elif not unlisted:
                unlisted = country
        places = (frozenset(weak), unlisted) if weak or unlisted else None
        return frozenset(strong), places, None

    def _sentences_of(self, p: _Person) -> list[tuple[int, int]]:
        doc = parse(self.text)
        return [(s.start_char, s.end_char) for s in doc.sents
                if any(s.start_char <= a < s.end_char for a, _, _ in p.mentions)]

    def _sentence_countries(self, p: _Person) -> list[str | None]:
        """The countries of the places and peoples in ``p``'s sentences (``None`` for one the
        lexicon cannot place)."""
        text = self.text
        sentences = self._sentences_of(p)
        if not sentences or not p.mentions:
            return []
        first = p.mentions[0]
        out: list[str | None] = []
        for mention, country in _other_places(text, Span(first[0], first[1])):
            found = [m.start() for m in re.finditer(re.escape(mention), text)]
            if any(a <= pos < b for pos in found for a, b in sentences):
                out.append(country or _country_of(mention))
        for start, _, word in _peoples_in(text):
            if any(a <= start < b for a, b in sentences) and word not in _RELIGION_CULTURES:
                out.append(_country_of(word, people=True))
        return out

    def _ties(self, p: _Person) -> list[tuple[str, bool]]:
        """Peoples and places the text ties the person to, each with whether it is a people:
        a people describing them (in their noun phrase, apposition or predicate), where they
        are "of" or "from" right after their name, and places of birth or origin in their
        sentences."""
        text = self.text
        doc = parse(text)
        mine = {t.i for t in doc if any(s <= t.idx < e for s, e, _ in p.mentions)}
        if not mine:
            return []
        described = set(mine)
        for t in doc:
            if t.i not in mine:
                continue
            if t.dep_ == "appos":
                described.add(t.head.i)
            for c in t.children:
                if c.dep_ in ("appos", "compound", "amod"):
                    described.add(c.i)
                if c.dep_ == "relcl":
                    described |= {g.i for g in c.children if g.dep_ in ("attr", "acomp", "oprd")}
            if t.dep_ in ("nsubj", "nsubjpass"):
                verb = t.head
                for c in verb.children:
                    if c.dep_ in ("attr", "acomp", "oprd"):
                        described.add(c.i)
                    if c.dep_ == "xcomp":
                        described |= {g.i for g in c.children if g.dep_ in ("attr", "acomp")}
                    if c.dep_ == "prep" and c.lower_ == "as":
                        described |= {g.i for g in c.children if g.dep_ == "pobj"}
        # nouns whose compound chain reaches the person ("Turkish Deputy Prime Minister X")
        for t in doc:
            h, seen = t, 0
            while h.dep_ in ("compound", "amod", "nmod", "flat") and h.head.i != h.i and seen < 8:
                h, seen = h.head, seen + 1
                if h.i in mine:
                    described.add(t.i)
        out: list[tuple[str, bool]] = []
        peoples = _peoples_in(text)
        for role in ROLES:  # an argument marked a nationality is a people ("the Tongan prop")
            span = _span(self.x, role)
            if _core_type(span.label) is None and (span.label or "").upper() in ("NATIONALITY", "NORP") and not any(
                    s < span.end and span.start < e for s, e, _ in peoples):
                peoples.append((span.start, span.end, text[span.start : span.end]))
        for start, end, word in peoples:
            toks = [t for t in doc if start <= t.idx < end]
            if not toks or any(t.i in mine for t in toks):
                continue
            d = toks[-1]
            h, steps = d, 0
            tied = d.i in described
            while not tied and h.dep_ in ("amod", "compound", "nmod", "npadvmod", "poss") and h.head.i != h.i \
                    and steps < 6:
                h, steps = h.head, steps + 1
                tied = h.i in described
            if not tied:
                first = min(s for s, _, _ in p.mentions)
                between = text[end:first]
                tied = 0 <= first - end <= 60 and bool(re.fullmatch(r"(?:\s+[A-Za-z-]+){0,4}\s+", between)) and all(
                    t.pos_ in ("NOUN", "PROPN", "ADJ") for t in doc if end <= t.idx < first)
            if tied:
                out.append((word, True))
        for _, end, _ in p.mentions:  # "X of Norway", "X, a nurse from Kingston,"
            for pattern in (_OF_PLACE, _APPOSITION_FROM):
                m = pattern.match(text, end)
                if m and _country_of(m.group(1)) is not None:
                    out.append((m.group(1), False))
        # a place of birth or origin in the person's sentence ties every person of it
        sentences = self._sentences_of(p)
        for pattern in (_ORIGIN, _ORIGIN_BEFORE, _ORIGIN_AFTER):
            for m in pattern.finditer(text):
                if any(a <= m.start() < b for a, b in sentences):
                    word = m.group(1).removeprefix("the ")
                    out.append((word, _is_people(word)))
        return out

    def _kin_groups(self, everyone: list[_Person]) -> list[set[int]]:
        """The families of the text: persons sharing a surname, and persons the text links
        by a family word between their names in one sentence ("X and her brother Y", "Y,
        X's wife", "X married Y") or around their coordinated names ("the twins X and Y",
        "X and Y, who are sisters")."""
        parent = list(range(len(everyone)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        def join(i: int, j: int) -> None:
            parent[root(i)] = root(j)

        for i, p in enumerate(everyone):
            for j in range(i + 1, len(everyone)):
                q = everyone[j]
                if p.family is not None and p.family == q.family:
                    join(i, j)
                    continue
                if self._kin_linked(p, q, everyone):
                    join(i, j)
        groups: dict[int, set[int]] = {}
        for i in range(len(everyone)):
            groups.setdefault(root(i), set()).add(i)
        return list(groups.values())

    def _kin_linked(self, p: _Person, q: _Person, everyone: list[_Person]) -> bool:
        text = self.text
        others = [(s, e) for r in everyone if r is not p and r is not q for s, e, _ in r.mentions]
        for a_start, a_end, _ in p.mentions:
            for b_start, b_end, _ in q.mentions:
                (s1, e1), (s2, e2) = sorted([(a_start, a_end), (b_start, b_end)])
                between = text[e1:s2]
                if len(between) > 70 or re.search(r"[.;!?]", between) or any(e1 <= s < s2 for s, _ in others):
                    continue
                if _KIN.search(between):
                    return True
                if re.fullmatch(r"\s*(?:,|and|&|,\s*and)\s*", between):
                    before = re.split(r"[.;!?]", text[max(0, s1 - 40) : s1])[-1]
                    after = re.split(r"[.;!?]", text[e2 : e2 + 50])[0]
                    if _KIN.search(before) or re.match(r"[^.;!?]{0,25}\b(?:are|were|both)\b", after) and \
                            _KIN.search(after):
                        return True
        return False

    def _implicit_surnames(self, everyone: list[_Person]) -> None:
        """A surname written once for a family: "Aarav and Anaya Mehta" (the given name before
        "and" takes the full name's surname) and "the Romano brothers, Marco and Luca" (the
        given names near the phrase take it, and the phrase's surname is theirs to rename)."""
        text = self.text
        singles = [p for p in everyone if p.given and not p.surname and len(p.mentions) >= 1]
        fulls = [p for p in everyone if p.given and p.surname]
        for p in singles:
            for _, end, _ in p.mentions:
                link = re.match(r"\s+(?:and|&)\s+", text[end:])
                if not link:
                    continue
                start = end + link.end()
                owner = next((q for q in fulls if any(s == start for s, _, w in q.mentions if w == "full")), None)
                if owner is not None and owner.surname:
                    p.surname = owner.surname
                    break
        for m in _FAMILY_PHRASE.finditer(text):
            surname = m.group(1)
            if any(q.surname == surname for q in everyone) or _country_of(surname) or _is_people(surname):
                continue
            near = [q for q in everyone if q.given and not q.surname and any(
                0 <= s - m.end() <= 60 and _ONLY_NAMES.fullmatch(text[m.end() : s])
                or 0 <= m.start() - e <= 60 and _ONLY_NAMES.fullmatch(text[e : m.start()])
                for s, e, _ in q.mentions)]
            if not near:
                continue
            for q in near:
                q.surname = surname
            near[0].mentions.append((m.start(1), m.end(1), "surname"))

    def _introduced(self, everyone: list[_Person]) -> bool:
        """Refuses an argument named by a surname alone that the text never introduces (no
        given name anywhere, no honorific before it): "Hemingway wrote ..." names a person
        the reader is taken to know, whose well-known life a new name would not have."""
        for p in everyone:
            if not p.roles or p.given or not p.surname:
                continue
            honoured = any(_word_before(self.text, s).rstrip(".") in _GENDER_HONORIFICS for s, _, _ in p.mentions)
            if not honoured and p.family is None:
                role = p.roles[0]
                span = _span(self.x, role)
                self.plan.why.append(f"the {role} {self.text[span.start:span.end]!r} is a surname alone that the "
                                     f"text never introduces with a given name or an honorific (how a text names "
                                     f"a well-known person)")
                return False
        return True

    def _capacity(self, chosen: list[_Person]) -> bool:
        """Whether every person has enough names of their form, gender and culture for
        fresh rounds (a family: enough surnames its members can share)."""
        families: dict[int, list[_Person]] = {}
        for p in chosen:
            if p.family is not None:
                families.setdefault(p.family, []).append(p)
                continue
            for g in [p.gender] if p.gender else list(GENDERS):
                n = self.lex.count(p.form, gender=g if p.form != "surname" else p.gender, locales=p.locales)
                if n < MIN_POOL:
                    self.plan.why.append(f"too few {p.form} names ({n}) of the gender and culture of {p.full!r} "
                                         f"for fresh rounds")
                    return False
        for members in families.values():
            genders = {p.gender for p in members}
            locales = _shared_locales([p.locales for p in members])
            mixed = len(genders) > 1 or None in genders
            n = self.lex.count("surname", gender=None if mixed else next(iter(genders)), locales=locales)
            if n < MIN_POOL:
                self.plan.why.append(f"too few surnames ({n}) the family of {members[0].full!r} could share")
                return False
        return True

    def _words_elsewhere(self, chosen: list[_Person]) -> bool:
        """Every whole-word occurrence of a renamed person's name words must be one of the
        mentions renamed ("Okafor" in "Okafor Ltd" would keep the old name)."""
        text = self.text
        covered = [(s, e) for p in chosen for s, e, _ in p.mentions]
        for p in chosen:
            for word in p.full.split():
                if len(word) < 2:
                    continue
                for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text):
                    if not any(s <= m.start() < e for s, e in covered):
                        self.plan.why.append(f"{word!r} of {p.full!r} also occurs in another name or word of the text")
                        return False
        return True

    # -- organisations -------------------------------------------------------------------------
    def _plan_org(self, role: str) -> None:
        text, why, x = self.text, self.plan.why, self.x
        span = _span(x, role)
        mention = text[span.start : span.end]
        what = f"the {role} {mention!r}"
        article, core, _ = _split_mention(mention)
        if clean_name(mention, "ORGANIZATION", source=True) is None:
            why.append(f"{what} is not a clean organisation name")
            return
        form = classify_organization(core)
        if isinstance(form, str):
            why.append(f"{what} cannot take another name of its kind: {form}")
            return
        problem = self._org_context(span, core, article)
        if problem:
            why.append(f"{what} {problem}")
            return
        start = span.start + len(article)
        name_span = (start, start + len(core))
        mentions = [name_span]
        for m in re.finditer(rf"(?<![\w-]){re.escape(core)}(?![\w-])", text):
            if (m.start(), m.end()) != name_span and not _span(x, _other(role)).overlaps(Span(m.start(), m.end())):
                mentions.append((m.start(), m.end()))
        modifier = self._modifier(span)
        the = None
        if article:
            the = (span.start, span.start + len(article.rstrip()))
        else:
            found = re.search(r"(?<![\w-])([Tt]he)\s+$", text[: span.start])
            if found:
                the = (found.start(1), found.end(1))
        drawn = self._org_draw(span, form, mentions, core)
        if isinstance(drawn, str):
            why.append(f"{what} {drawn}")
            return
        kind, industry, countries = drawn
        n = self.lex.org_count(kind=kind, legal_suffix=_suffix_wanted(form), industry=industry,
                               takes_the=False if modifier else None, countries=countries)
        if countries is None:  # placed by nothing in the text: where its name says, when the
            # lexicon holds enough of those ("Westmark Holdings": English-speaking countries)
            home = _home_countries(core, self.lex)
            at_home = self.lex.org_count(kind=kind, legal_suffix=_suffix_wanted(form), industry=industry,
                                         takes_the=False if modifier else None, countries=home)
            if home is not None and at_home >= MIN_POOL:
                countries, n = home, at_home
        if n < MIN_POOL:
            sort = f"{industry} {kind}" if industry and kind == "company" else industry if kind == "university" \
                else kind
            where = f" of {', '.join(countries)}" if countries else ""
            why.append(f"{what}: too few real {sort} names{where} of its form for fresh rounds ({n})")
            return
        self.plan.orgs.append(_OrgPlan(role, form, mentions, modifier, the, kind, industry, countries))
        self.plan.slots.append(EntitySlot(role, "ORGANIZATION", mention, core, "suffix" if form.suffix else "plain",
                                          kind=kind, industry=industry, takes_the=bool(article) or the is not None,
                                          countries=countries))

    def _org_draw(self, span: Span, form: OrgForm, mentions: list[tuple[int, int]], core: str
                  ) -> tuple[str, str | None, tuple[str, ...] | None] | str:
        """(kind, industry, countries) to draw the organisation's replacement from, or why
        none fits: the sector its clauses state must be the lexicon's (a charity, an estate
        agent, a club is refused), a university with research named with it takes a
        university, one of a single field is refused; the countries of the places of its
        sentences, when there are any."""
        kind, industry = form.kind, _industry_wanted(form)
        if kind == "university":
            industry = form.industry or "university"
            if form.industry == "field":
                return "names a school of one field, which only a school of that field could replace"
            if self._research_near(mentions):
                industry = "university"
        else:
            sectors = self._stated_sectors(span, mentions)
            own = kind if kind != "company" else industry
            if sectors and own not in sectors:
                if len(sectors) > 1:
                    return f"is tied by its clauses to several sectors ({', '.join(sorted(sectors))})"
                sector = next(iter(sectors))
                held = _SECTORS[sector]
                if held is None:
                    return f"is tied by its clause to a sector the lexicon holds no organisation of ({sector})"
                if kind != "company" and held[0] != kind:
                    return f"is a {kind} its clause ties to another sector ({sector})"
                if kind == "company" and form.industry:
                    return f"is named for one industry ({form.industry}) and tied by its clause to another ({sector})"
                kind, industry = held
        return kind, industry, self._org_countries(mentions) or _named_place_countries(core)

    def _clause_heads(self, mentions: list[tuple[int, int]]) -> list[Any]:
        doc = parse(self.text)
        heads = []
        for start, end in mentions:
            toks = [t for t in doc if start <= t.idx < end]
            if toks:
                heads.append(next((t for t in toks if not (start <= t.head.idx < end) or t.head.i == t.i), toks[-1]))
        return heads

    def _stated_sectors(self, span: Span, mentions: list[tuple[int, int]]) -> set[str]:
        """The sectors the clauses of the organisation state ("Tesco opened grocery stalls",
        "the Toyota vehicles", "X, which runs hospitals", "its depositors"): sector words
        in a clause with one of its mentions, in its noun phrase, or owned by "its"."""
        text = self.text
        doc = parse(text)
        heads = self._clause_heads(mentions)
        own = [(s, e) for s, e in mentions]
        out: set[str] = set()
        for m in _SECTOR_PATTERN.finditer(text):
            if any(s <= m.start() < e for s, e in own) or not m.group(0)[0].islower():
                continue
            sector = _SECTOR_CUES[int(next(k for k, v in m.groupdict().items() if v is not None)[1:])][0]
            cue = next((t for t in doc if t.idx <= m.start() < t.idx + len(t.text)), None)
            if cue is None:
                continue
            if any(_attached(cue, h) for h in heads) or any(c.dep_ == "poss" and c.lower_ in _OWNERS
                                                             for c in cue.children):
                out.add(sector)
        return out

    def _research_near(self, mentions: list[tuple[int, int]]) -> bool:
        """Whether a sentence naming the university names research with it (a department,
        faculty, laboratory, professor, doctorate ...)."""
        doc = parse(self.text)
        for sent in doc.sents:
            if any(sent.start_char <= s < sent.end_char for s, _ in mentions):
                rest = "".join(ch if not any(s <= sent.start_char + i < e for s, e in mentions) else " "
                               for i, ch in enumerate(sent.text))
                if _RESEARCH.search(rest):
                    return True
        return False

    def _org_countries(self, mentions: list[tuple[int, int]]) -> tuple[str, ...] | None:
        """The countries (ISO codes) of the places in the organisation's sentences (``None``
        without any the lexicon can place): a bank that "opened its first branch in
        Charlotte" is replaced by an American one."""
        text = self.text
        doc = parse(text)
        sentences = [(s.start_char, s.end_char) for s in doc.sents
                     if any(s.start_char <= a < s.end_char for a, _ in mentions)]
        first = mentions[0]
        codes = set()
        for mention, country in _other_places(text, Span(first[0], first[1])):
            found = [m.start() for m in re.finditer(re.escape(mention), text)
                     if not any(s <= m.start() < e for s, e in mentions)]
            if any(a <= pos < b for pos in found for a, b in sentences):
                code = self.lex.country_code(country or _country_of(mention) or "")
                if code:
                    codes.add(code)
        if not codes:  # a state, province or region ("mutual insurers in Ohio", "of the Midwest")
            for a, b in sentences:
                piece = "".join(" " if any(s <= i < e for s, e in mentions) else text[i] for i in range(a, b))
                codes |= _region_codes(piece)
        return tuple(sorted(codes)) or None

    def _org_context(self, span: Span, core: str, article: str) -> str | None:
        text = self.text
        after = text[span.end :]
        if _PLACED_AFTER.match(after):
            return "is located or described by the words after it"
        problem = self._clause_problem(span)
        if problem:
            return problem
        if re.search(r"-based\s+(?:[A-Z][\w'-]*\s+)*$", text[: span.start]):
            return "is described by the place it is based in"
        problem = self._described_before(span)
        if problem:
            return problem
        for name, alias in aliases(text):
            if span.overlaps(name) or span.overlaps(alias):
                return "has another name in brackets"
        letters = initials(core)
        if len(core.split()) > 1 and len(letters) > 1 and re.search(rf"(?<![\w-]){re.escape(letters)}(?![\w-])", text):
            return f"is abbreviated in the text ({letters!r})"
        if core.isupper() and len(core) > 1:
            for e in named_entities(text):
                if not e.overlaps(span) and initials(text[e.start : e.end]) == core:
                    return f"abbreviates {text[e.start:e.end]!r}"
        first_word = core.split()[0]
        if len(core.split()) > 1 and len(first_word) > 3 and not kinds.common_word(first_word):
            for m in re.finditer(rf"(?<![\w-]){re.escape(first_word)}(?![\w-])", text):
                inside = span.start <= m.start() < span.end or text[m.start() : m.start() + len(core)] == core
                if not inside:
                    return f"shares its first word {first_word!r} with another name of the text"
        return None

    def _described_before(self, span: Span) -> str | None:
        """Why the words right before the organisation describe it, or ``None``: a place,
        a people or a common noun in its noun phrase ("Denmark's X", "the Swedish carmaker
        X", "the card processor X"), or a description it is in apposition to ("India's
        largest software exporter, X")."""
        doc = parse(self.text)
        before = [t for t in doc if t.idx + len(t.text) <= span.start]
        if not before:
            return None
        i = len(before) - 1
        if before[i].text == "," and i > 0 and before[i - 1].pos_ == "NOUN":
            return f"is in apposition to a description of it (\"{before[i - 1].text}, ...\")"
        mine = {t.i for t in doc if span.start <= t.idx < span.end}
        while i >= 0 and before[i].pos_ in ("ADJ", "NOUN", "PROPN", "PART", "NUM") and before[i].text != ",":
            t = before[i]
            core = t.text
            linked = t.head.i in mine or any(doc[j].head.i == t.i for j in mine) or t.head.i > t.i
            if not linked:
                break
            if core in lexicons.DEMONYMS or core in kinds.NATIONALITY_WORDS or (
                    t.pos_ == "PROPN" and (kinds.place_kinds(core) or lexicons.canonical_country(core))):
                return f"is described by a place or people before it ({core!r})"
            if t.pos_ == "NOUN":
                return f"is described by the noun before it ({core!r}: what it does or is)"
            i -= 1
        return None

    def _clause_problem(self, span: Span) -> str | None:
        """Why an apposition or relative clause after the organisation describes it
        ("X, a construction conglomerate", "X, which makes welding arms"), or ``None``:
        one that only states its relation to the other argument ("X, a unit of Y",
        "X, which Y bought in 2012") leaves nothing a real organisation could contradict."""
        text = self.text
        m = _CLAUSE_START.match(text, span.end)
        if m is None:
            return None
        if m.group(1) is None:
            return "is followed by words in brackets or dashes about it"
        stop = re.compile(r"[,;.!?\u2013\u2014]|\s--?\s")
        end = stop.search(text, m.end())
        clause_end = end.start() if end else len(text)
        other = self._other_span(span)
        holds_other = other is not None and span.end <= other.start and other.end <= clause_end
        clause = text[m.end() : clause_end]
        if not holds_other:
            return "is followed by an apposition or a relative clause that describes it"
        if re.search(r"\b(?:based|headquartered|located|-based)\b", clause) or _demonyms_in(clause):
            return "is followed by an apposition or a relative clause that places it"
        if m.group(1) in ("a", "an", "the", "one"):
            nouns = re.findall(r"\b[a-z]+\b", clause)[:3]
            if not set(nouns) & _RELATION_NOUNS:
                return "is followed by an apposition that describes it"
        return None

    def _other_span(self, span: Span) -> Span | None:
        for role in ROLES:
            s = _span(self.x, role)
            if (s.start, s.end) != (span.start, span.end):
                return s
        return None

    def _modifier(self, span: Span) -> bool:
        """Whether the mention modifies a noun after it ("a Boeing spokesman")."""
        doc = parse(self.text)
        toks = [t for t in doc if span.start <= t.idx < span.end]
        if not toks:
            return False
        last = toks[-1]
        return last.dep_ in ("compound", "amod", "nmod") and last.head.i > last.i and last.head.pos_ in ("NOUN", "PROPN")


# a word of a person's name in any alphabet's letters ("S\u00f8rensen", "Siobh\u00e1n", "Ram\u00f3n"): a capital,
# then small letters, maybe a hyphen or apostrophe and more ("Al-Amin", "D'Souza", "O'Brien")
_PERSON_WORD = re.compile(r"^(?:Mc|Mac|O['\u2019])?[^\W\d_](?:[^\W\d_]*[^\W\d_A-Z])?"
                          r"(?:[-'\u2019][^\W\d_]+)?$")


def _clean_person(mention: str) -> str | None:
    """The person's name in a mention, as :func:`clean_name` takes it, written in letters
    of any alphabet (ENTRE's lexicon holds "S\u00f8rensen" and "Ram\u00f3n" too)."""
    found = clean_name(mention, "PERSON", source=True)
    if found is not None or mention.isascii():
        return found
    _, core, _ = _split_mention(mention.strip())
    core = core.strip()
    words = core.split()
    if not core or not 1 <= len(words) <= 4 or words[0].rstrip(".") in _HONORIFIC_OR_TITLE:
        return None
    ok = all(_PERSON_WORD.match(w) and w[0].isupper() and not (len(w) > 1 and w.isupper()) for w in words)
    return core if ok else None


# the words that own a sector word for the organisation of the text ("its depositors", "the
# company's herbicide")
_OWNERS = frozenset({"its", "their", "company", "firm", "group", "business", "maker", "manufacturer"})


# -- where an organisation is ---------------------------------------------------------------------
_EUROPE = ("AT", "BE", "BG", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GR", "HR", "HU", "IE",
           "IS", "IT", "LT", "LU", "LV", "MT", "NL", "NO", "PL", "PT", "RO", "RS", "SE", "SI", "SK", "UA")
_NORDIC = ("DK", "FI", "IS", "NO", "SE")
_GULF = ("AE", "BH", "KW", "OM", "QA", "SA")
_LATIN_AMERICA = ("AR", "BO", "BR", "CL", "CO", "CR", "DO", "EC", "GT", "MX", "PA", "PE", "PY", "UY", "VE")
_AFRICA = ("CM", "DZ", "EG", "ET", "GH", "KE", "MA", "NG", "RW", "SN", "TN", "TZ", "UG", "ZA", "ZM", "ZW")
_BALKANS = ("AL", "BA", "BG", "GR", "HR", "ME", "MK", "RS", "SI", "XK")
_CARIBBEAN = ("BB", "BS", "DO", "JM", "TT")
# regions the city and country tables do not place, and the peoples of a country's parts
_REGIONS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("Midwest", "Midwestern", "New England", "Appalachia", "Appalachian", "Silicon Valley",
                     "Wall Street", "Deep South", "Pacific Northwest", "Great Plains", "Rust Belt"), ("US",)),
    **dict.fromkeys(("Wales", "Welsh", "Scotland", "Scottish", "England", "Northern Ireland", "Cornish",
                     "Highlands", "Yorkshire", "Midlands"), ("GB",)),
    **dict.fromkeys(("Europe", "European", "EU", "Eurozone"), _EUROPE),
    **dict.fromkeys(("Scandinavia", "Scandinavian", "Nordic"), _NORDIC),
    **dict.fromkeys(("Gulf",), _GULF),
    **dict.fromkeys(("Latin America", "Latin American", "South America", "South American"), _LATIN_AMERICA),
    **dict.fromkeys(("Africa", "African", "sub-Saharan"), _AFRICA),
    **dict.fromkeys(("Balkans", "Balkan"), _BALKANS),
    **dict.fromkeys(("Baltic", "Baltics"), ("EE", "LT", "LV")),
    **dict.fromkeys(("Southern Africa", "Southern African"), ("AO", "BW", "LS", "MW", "MZ", "NA", "SZ", "ZA", "ZM",
                                                              "ZW")),
    **dict.fromkeys(("East Africa", "East African"), ("ET", "KE", "RW", "TZ", "UG")),
    **dict.fromkeys(("West Africa", "West African"), ("BJ", "CI", "GH", "NG", "SN", "TG")),
    **dict.fromkeys(("Caribbean",), _CARIBBEAN),
}
# the English-speaking countries: where an organisation with an English name and no place
# in its text is
_ANGLOPHONE = ("AU", "CA", "GB", "IE", "NZ", "US")


@lru_cache(maxsize=1)
def _subdivisions() -> dict[str, frozenset[str]]:
    """The states and provinces the project's gazetteer knows ("Ohio", "Ontario",
    "Queensland", "Bavaria") -> their countries' codes (ISO 3166-2); names that are also a
    country's are left out ("Georgia" is both), and so are the subdivisions it does not
    know as states, many of which are everyday words ("Bay", "Centre")."""
    import pycountry

    out: dict[str, set[str]] = {}
    for sub in pycountry.subdivisions:
        name = sub.name.split(",")[0].strip()
        if "state" in kinds.place_kinds(name) and not lexicons.canonical_country(name):
            out.setdefault(name, set()).add(sub.country_code)
    return {name: frozenset(codes) for name, codes in out.items()}


_CAPITALISED = re.compile(r"(?<![\w-])[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}")


def _region_codes(text: str) -> set[str]:
    """The countries of the states, provinces and regions ``text`` names (capitalised
    names of up to three words, the longest first; names of several countries' parts are
    left out)."""
    subs = _subdivisions()
    codes: set[str] = set()
    for m in _CAPITALISED.finditer(text):
        words = m.group(0).split()
        for n in range(len(words), 0, -1):
            for i in range(len(words) - n + 1):
                name = " ".join(words[i : i + n])
                found = _REGIONS.get(name) or (tuple(subs[name]) if len(subs.get(name, ())) == 1 else ())
                if found:
                    codes.update(found)
    for m in re.finditer(r"\bsub-Saharan\b", text):
        codes.update(_REGIONS[m.group(0)])
    return codes


def _named_place_countries(core: str) -> tuple[str, ...] | None:
    """The countries of the places, peoples and regions an organisation's own name holds
    ("Samarkand Agro Bank": Uzbekistan, "Baltic Mutual Group": the Baltic states), or
    ``None``."""
    codes = _region_codes(core)
    for w in re.findall(r"[A-Z][\w'-]*", core):
        if w in _GENERIC_WORDS:
            continue
        if not (lexicons.canonical_country(w) or _is_people(w)) and _everyday_word(w):
            continue  # an everyday word that is also some town's name ("Delta", "Summit", "Cork")
        country = _country_of(w, people=_is_people(w))
        code = _country_code_of(country) if country else ""
        if code:
            codes.add(code)
    return tuple(sorted(codes)) or None


@lru_cache(maxsize=4096)
def _everyday_word(word: str) -> bool:
    """Whether English text uses the word mostly as an everyday word (a "delta", a "summit",
    "reading"), not as the name of a place: common in wordfreq's English (Zipf 4 and up),
    or fairly common (3 and up) and no city of a million people ("Osaka", "Lagos" are
    places; "Samarkand" is rare as a word)."""
    from wordfreq import zipf_frequency

    zipf = zipf_frequency(word.lower(), "en")
    if zipf >= 4.0:
        return True
    place = lexicons.city(word)
    return zipf >= 3.0 and (place is None or place.population < 1_000_000)


@lru_cache(maxsize=512)
def _country_code_of(country: str) -> str:
    return default_lexicon().country_code(country)


def _home_countries(core: str, lex: EntityLexicon) -> tuple[str, ...] | None:
    """Where an organisation whose text places it nowhere is: a real one the lexicon lists
    is of its own country ("Toyota": Japan); a name with a word of one culture's language is
    of that culture's countries ("Halvorsen Maritime": Norway, "Banco ..."); any other name
    (English words or none the lexicon can tell: "Westmark Holdings") is of the
    English-speaking countries; ``None`` (anywhere) for an org with no name words at all."""
    listed = lex.org_country(core)
    if listed:
        return (listed,)
    words = [w for w in re.findall(r"[^\W\d_][\w'-]*", core) if w not in _GENERIC_WORDS and w[:1].isupper()]
    if not words:
        return None
    codes = {code for w in words for code in lex.language_countries(native_language(w))}
    return tuple(sorted(codes)) if codes else _ANGLOPHONE


# -- helpers -------------------------------------------------------------------------------------
def _family_key(surname: str) -> str:
    """A surname without the ending that gives it a gender in Polish, Czech and Slovak
    ("Kowalska" and "Kowalski", "Nov\u00e1kov\u00e1" and "Nov\u00e1k"; the Russian and Bulgarian
    "Ivanova" and "Ivanov", "Karenina" and "Karenin" are one family's)."""
    return re.sub(r"(?<=sk|ck)[ai]$|(?<=dzk)[ai]$|ov\u00e1$|(?<=[oe]v|[iy]n)a$", "", surname)


def _clause_verb(token: Any) -> Any:
    """The verb of the clause a token is in (the sentence root at the latest)."""
    t, steps = token, 0
    while t.pos_ not in ("VERB", "AUX") and t.head.i != t.i and steps < 12:
        t, steps = t.head, steps + 1
    return t


def _ancestor(a: Any, b: Any) -> bool:
    return any(t.i == a.i for t in b.ancestors)


def _attached(cue: Any, org: Any) -> bool:
    """Whether a sector word speaks of the organisation: one is in the other's phrase
    ("the Toyota vehicles", "shoppers at Tesco", "X, which runs hospitals"), or both are
    in one clause ("Tesco opened grocery stalls")."""
    return _ancestor(cue, org) or _ancestor(org, cue) or _clause_verb(cue).i == _clause_verb(org).i


def _peoples_in(text: str) -> list[tuple[int, int, str]]:
    """Nationality and people words of ``text`` (the project's demonyms, and spaCy's NORP
    entities: "Jamaican", "Haitian"), without religions and parties."""
    found = [(s, e, w) for s, e, w in _demonyms_in(text) if w not in _NOT_PEOPLES]
    for ent in named_entities(text):
        word = text[ent.start : ent.end]
        if ent.label != "NORP" or word in _NOT_PEOPLES or any(s < ent.end and ent.start < e for s, e, _ in found):
            continue
        if _is_people(word):
            found.append((ent.start, ent.end, word))
    return sorted(found)


def _is_people(word: str) -> bool:
    """Whether a word names a people: a known nationality word or demonym, or a capitalised
    word ending as demonyms do ("Jamaican", "Senegalese", "Kurdish")."""
    return (word in kinds.NATIONALITY_WORDS or word in lexicons.DEMONYMS
            or bool(re.fullmatch(r"[A-Z][a-z]+(?:an|ese|ish|i|ic)", word)) and word not in _NOT_PEOPLES)


@lru_cache(maxsize=4096)
def _country_of(word: str, people: bool = False) -> str | None:
    """The country a place or people belongs to: a country, a demonym ("Jamaican" ->
    Jamaica, also those the project's table lacks), a city of one country, or one whose
    namesakes abroad are three times smaller ("Athens", "Kingston"); ``None`` otherwise."""
    w = word.removeprefix("the ").removeprefix("The ")
    found = lexicons.country_of_demonym(w) or lexicons.place_country(w)
    if found:
        return found
    if people:
        for stem in (w[:-1], w[:-2], w[:-3], w[:-3] + "a", w[:-3] + "ia"):
            found = lexicons.canonical_country(stem) if len(stem) > 2 else None
            if found:
                return found
        return None
    rows = sorted(lexicons._small_homonyms().get(w, ()), key=lambda row: -row[1])
    if rows and all(rows[0][1] >= 3 * people_ for country, people_ in rows[1:] if country != rows[0][0]):
        return rows[0][0]
    return None


def _same_culture(name: frozenset[str], tie: frozenset[str]) -> frozenset[str]:
    """The cultures of ``tie`` of the same language as one of ``name``'s (an Irish name for
    a Chicago native takes the American lists; a Polish one none)."""
    languages = {culture_of(loc) for loc in name}
    return frozenset(loc for loc in tie if culture_of(loc) in languages)


def _shared_culture(cultures: Sequence[frozenset[str]]) -> tuple[str, ...] | None:
    """One culture a family (or a person alone) shares: of the cultures all members' names
    may have, else of those of the first member's of a culture all share; ``None`` when
    they share none or several."""
    common = set(cultures[0]).intersection(*cultures[1:])
    if not common:
        groups = set.intersection(*({culture_group(loc) for loc in c} for c in cultures))
        common = {loc for loc in cultures[0] if culture_group(loc) in groups}
    return one_culture(common) if common else None


def _relation_input(sources: Sequence[BaseInput]) -> RelationInput:
    if not sources:
        raise InputError("ENTRE needs one relation-extraction input")
    return _check_input(sources[0])


def _check_input(x: Any) -> RelationInput:
    if not isinstance(x, RelationInput):
        raise InputError(f"ENTRE replaces names in a RelationInput, got {type(x).__name__}")
    return x


def _span(x: RelationInput, role: str) -> Span:
    return x.head if role == "head" else x.tail


def _other(role: str) -> str:
    return "tail" if role == "head" else "head"


def _alias_problem(text: str, span: Span) -> bool:
    if re.match(r"\s*\([^()]{1,60}\)", text[span.end :]):
        return True
    if text[: span.start].rstrip().endswith("(") and text[span.end :].lstrip().startswith(")"):
        return True
    return any(span.overlaps(n) or span.overlaps(a) for n, a in aliases(text))


def _merge_same(others: list[_Person], args: list[_Person]) -> list[_Person]:
    """Other mentions of the same full name as an argument are that argument's mentions."""
    out: list[_Person] = []
    for p in others:
        same = next((a for a in args if (a.given, a.surname) == (p.given, p.surname) and p.given and p.surname), None)
        if same is not None:
            same.mentions.extend(p.mentions)
        else:
            twin = next((q for q in out if q.given == p.given and q.surname == p.surname), None)
            if twin is not None:
                twin.mentions.extend(p.mentions)
            else:
                out.append(p)
    return out


def _name_gender(lex: EntityLexicon, word: str) -> str | None:
    """The gender of a given name: nomquamgender's data where it knows the name (``None``
    when used by both), else the project's name lists (the ENTRE lexicon, faker's gendered
    lists of every culture), accents folded ("Francois"); ``None`` when unknown or listed
    for both genders. (faker's Kenyan list gives "Wanjiru", a woman's name, as a man's.)"""
    if word in kinds.family_first_names():
        return None
    known = lex.name_gender(word)
    if known is not None:
        return known if known in GENDERS else None
    found = lex.given_gender(word) or lexicons.person_gender(word)
    if found:
        return found
    return _folded_genders().get(_fold(word))


def _fold(word: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _folded_genders() -> dict[str, str]:
    male: set[str] = set()
    female: set[str] = set()
    for m, f, *_ in lexicons._locale_lists().values():
        male |= {_fold(w) for w in m}
        female |= {_fold(w) for w in f}
    only_m, only_f = lexicons.gendered_first_names()
    male |= {_fold(w) for w in only_m}
    female |= {_fold(w) for w in only_f}
    return {**{w: "male" for w in male - female}, **{w: "female" for w in female - male}}


def _shared_locales(values: Sequence[tuple[str, ...] | None]) -> tuple[str, ...] | None:
    out: tuple[str, ...] | None = None
    for v in values:
        if v is None:
            continue
        out = v if out is None else tuple(loc for loc in out if loc in v)
    return out


def _suffix_wanted(form: OrgForm) -> bool | None:
    return None if form.kind == "university" else bool(form.suffix)


def _industry_wanted(form: OrgForm) -> str | None:
    if form.kind != "company":
        return None
    return form.industry or ""


def _article_edit(text: str, start: int, the: tuple[int, int] | None, takes_the: bool) -> list[tuple[int, int, str]]:
    """The edit that makes the article before an organisation's name agree with the new
    name: "the" inserted before "University of Crete", dropped before "Anritsu"."""
    if the is not None and not takes_the:
        end = the[1]
        while end < len(text) and text[end] == " ":
            end += 1
        return [(the[0], end, "")]
    if the is None and takes_the:
        word = "The" if _at_sentence_start(text, start) else "the"
        return [(start, start, word + " ")]
    return []


def _apply(x: RelationInput, edits: Sequence[tuple[int, int, str]]) -> tuple[RelationInput, dict[tuple[int, int], tuple[str, str]]] | None:
    """``x`` with the edits made (non-overlapping; an empty range inserts), its head and tail
    carried to the new offsets, and "a"/"an" made to agree before every renamed name."""
    text = x.text
    edits = sorted(set(edits))
    for a, b in zip(edits, edits[1:]):
        if a[1] > b[0]:
            return None
    extra = []
    for start, end, new in edits:
        if not new or end == start:
            continue
        m = re.search(r"(?<![\w-])([Aa]n?)\s+$", text[:start])
        if m and _vowel_sound(new) != (m.group(1).lower() == "an"):
            word = ("An" if m.group(1)[0] == "A" else "an") if _vowel_sound(new) else m.group(1)[0]
            extra.append((m.start(1), m.end(1), word))
    edits = sorted(set(edits) | set(extra))
    renamed: dict[tuple[int, int], tuple[str, str]] = {}
    pieces, pos = [], 0
    shift_at: list[tuple[int, int, int]] = []  # (old start, old end, length change)
    for start, end, new in edits:
        pieces.append(text[pos:start])
        pieces.append(new)
        pos = end
        shift_at.append((start, end, len(new) - (end - start)))
        if new and end > start:
            renamed[(start, end)] = (text[start:end], new)
    pieces.append(text[pos:])
    new_text = "".join(pieces)

    def moved(p: int, is_end: bool) -> int:
        # an edit ending at or before a boundary moves it; an insertion right at a span's
        # end stays outside the span, one right at its start goes before it
        return p + sum(d for start, end, d in shift_at
                       if end < p or (end == p and (start < end or not is_end)))

    spans = []
    for span in (x.head, x.tail):
        spans.append(Span(moved(span.start, False), moved(span.end, True), span.label))
    try:
        fu = dataclasses.replace(x, text=new_text, head=spans[0], tail=spans[1])
    except InputError:
        return None
    return fu, renamed
