"""English rewriters for the seven MR families of the Chinese NLP paper (section 3).

One rewriter per family (:data:`REWRITERS`, keyed by :data:`~mtwidgets.text.rewrite.FAMILIES`),
each ``(text, *, rng, k=1) -> Rewrites``. Every rewrite must read as a text a person would
write and keep what the relation promises; where that cannot be defended the rewriter
refuses with its reason:

- ``name`` (MRPpbs1): a person's name -> another of the same gender, era and culture
  (the RE task's lexicons: :func:`mtwidgets.lang.names.name_culture`): a full name keeps
  its given name and takes a surname of its culture, a lone English given name becomes a
  classic one; refused when the culture or gender is unknown, for Indian names, when the
  text ties the person to a country whose name lists do not hold that culture ("Danish
  actor", "a taxi driver in Cairo"), or names another person of another or unknown culture.
- ``country`` (MRPpbs2): a country -> another real country of its region, every mention,
  with "the" where the country takes it; only where the country is the one geographic fact
  of the text: refused when the text names another place, country, people, language, event,
  organisation or person, ranks something, or speaks of a part of the country, a war, its
  wildlife or its institutions.
- ``occupation`` (MRPpbs3): an occupation noun -> another of the same field and plural,
  every mention, with "a"/"an" fixed (the article of an adjective before it stays); refused
  inside a term ("street painters", "Engineer Priya Nair"), when the text speaks of the
  occupation's own work (an electrician's "wiring") and, in a pair, when only one text has
  the word and the other names the same person.
- ``punctuation`` (MRPpbs4): marks -> their exact typographic equivalents, every kind in
  one rewrite so the text never mixes styles: straight double quotes -> typographic quotes,
  apostrophes -> typographic apostrophes, spaced hyphens -> dashes, "..." -> an ellipsis;
  refused when one mark cannot be converted like the others. The paper asks only for
  "punctuation1 -> punctuation2"; a full stop is never made "!" (the tone would change).
- ``noun``/``verb`` (MRPsbs5/6): a noun or verb -> its first reviewed synonym
  (:func:`mtwidgets.lang.synonyms_en.vetted_synonyms`, the paper's "highest score" choice),
  inflected like the original, every occurrence of that lemma; refused in a fixed phrase
  ("the first of its kind"), a named event ("the uprising of 1944") or when the synonym is
  already a word of the text in any form.
- ``reorder`` (MRPr7): the sentences in another order; the lead, quotations, reported
  speech, sentences with a marker tying them to the one before ("though", "as a result")
  and a closing call to action or sign-off keep their place; refused for personal texts
  (the first person singular, or letters in the plural), when a quotation runs over
  sentences or a later sentence leans on an earlier one (a connective, a pronoun, ...).

spaCy (:mod:`mtwidgets.lang.pipelines`) tags the text; its parse is cached by text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..lang.inflect import indefinite_article as article_for
from .rewrite import Replacement, Rewrite, Rewriter, Rewrites, apply_replacements

# -- shared helpers ---------------------------------------------------------------------------


def _parse(text: str) -> Any:
    from ..lang.pipelines import parse

    return parse(text)


def _rewrite(text: str, reps: Sequence[Replacement], note: str, **meta: Any) -> Rewrite:
    reps = tuple(sorted(reps, key=lambda r: r.start))
    return Rewrite(apply_replacements(text, reps), note, reps, dict(meta))


def _pick(options: list[Rewrite], rng: random.Random, k: int, why: str | None) -> Rewrites:
    """At most ``k`` distinct rewrites drawn with ``rng`` (in source order), or a refusal."""
    seen: dict[str, Rewrite] = {}
    for rw in options:
        seen.setdefault(rw.text, rw)
    unique = list(seen.values())
    if not unique:
        return Rewrites((), why or "nothing to replace")
    chosen = unique if len(unique) <= k else rng.sample(unique, k)
    order = {id(rw): i for i, rw in enumerate(unique)}
    return Rewrites(sorted(chosen, key=lambda rw: order[id(rw)]), why)


def _why(reasons: Iterable[str], default: str) -> str:
    found = list(dict.fromkeys(reasons))
    return "; ".join(found[:3]) if found else default


def _capital(like: str, word: str) -> str:
    """``word`` capitalised when ``like`` starts with a capital."""
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _article_fix(doc: Any, token: Any, new_word: str) -> Replacement | None:
    """The replacement of the indefinite article before ``token`` when ``new_word`` needs the
    other one ("a teacher" -> "an engineer")."""
    det = _article_before(doc, token)
    if det is None or det.i != token.i - 1:  # "a Dutch painter": the article goes with "Dutch"
        return None
    wanted = article_for(new_word)
    if det.lower_ == wanted:
        return None
    return Replacement(det.idx, det.idx + len(det.text), det.text, _capital(det.text, wanted))


def _article_before(doc: Any, token: Any) -> Any:
    """The "a"/"an" of ``token``'s noun phrase when it directly precedes the word (or one
    adjective before it), else ``None``."""
    for back in (1, 2):
        i = token.i - back
        if i < 0:
            return None
        t = doc[i]
        if t.lower_ in ("a", "an"):
            return t if back == 1 or doc[token.i - 1].pos_ == "ADJ" else None
        if back == 1 and t.pos_ != "ADJ":
            return None
    return None


# -- MR1: person names ------------------------------------------------------------------------
_NAME_WORD = re.compile(r"^[A-Z\u00c0-\u00de][a-z\u00df-\u00ff]+(?:['-][A-Z\u00c0-\u00de]?[a-z\u00df-\u00ff]+)*$")
# Faker lists a few "Mc"/"Mac" names without their inner capital ("Mccoy"): never drawn.
_MISSPELT = re.compile(r"^Ma?c[a-z]")


class _Person:
    """One person named in a text: gender, given name and surname as first written, and
    the character spans of every mention."""

    def __init__(self, first: str | None, last: str | None, gender: str) -> None:
        self.first, self.last, self.gender = first, last, gender
        self.mentions: list[tuple[int, int, str]] = []  # (start, end, "full"|"first"|"last")

    @property
    def label(self) -> str:
        return " ".join(p for p in (self.first, self.last) if p)


def _gender_by_culture(name: str) -> str | None:
    """The gender of a name its culture's own lists settle ("María López"), else ``None``."""
    from ..lang.names import culture_gender, name_culture

    locales = name_culture(name)
    return culture_gender(name, locales) if locales else None


def _people(doc: Any) -> tuple[list[_Person], list[str]]:
    from ..lang.names import person_gender

    people: dict[str, _Person] = {}
    why: list[str] = []
    singles = []
    for ent in doc.ents:
        if ent.label_ != "PERSON":
            continue
        name = re.sub(r"['\u2019]s$", "", ent.text)
        words = name.split()
        if not all(_NAME_WORD.match(w) for w in words) or len(words) > 2:
            why.append(f"the name {ent.text!r} is not a plain given name and surname")
            continue
        before = doc[ent.start - 1].text if ent.start > 0 else ""
        gender = person_gender(name, before) or _gender_by_culture(name)
        end = ent.start_char + len(name)
        if len(words) == 2:
            if gender is None:
                why.append(f"the gender of {ent.text!r} is unknown")
                continue
            key = words[1]
            p = people.setdefault(key, _Person(words[0], words[1], gender))
            if p.first != words[0]:
                why.append(f"two people share the surname {words[1]!r}")
                people.pop(key)
                continue
            p.mentions.append((ent.start_char, end, "full"))
        else:
            singles.append((ent.start_char, end, name, gender, before))
    from ..lang.names import gendered_first_names

    male, female = gendered_first_names()
    for start, end, word, gender, before in singles:
        owner = people.get(word) or next((p for p in people.values() if p.first == word), None)
        if owner is not None:
            owner.mentions.append((start, end, "last" if owner.last == word else "first"))
            continue
        if gender is None:
            why.append(f"the gender of {word!r} is unknown")
            continue
        given = word in male or word in female
        if given and before not in ("Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Miss", "Dr", "Dr."):
            p = people.setdefault("first:" + word, _Person(word, None, gender))
            p.mentions.append((start, end, "first"))
        else:
            p = people.setdefault(word, _Person(None, word, gender))
            p.mentions.append((start, end, "last"))
    _add_missed_mentions(doc, list(people.values()))
    return list(people.values()), why


def _add_missed_mentions(doc: Any, people: list[_Person]) -> None:
    """Mentions spaCy did not mark as PERSON ("Lopez" tagged ORG once): every other proper
    noun spelled like a person's surname (or given name) is the same person."""
    for p in people:
        taken = {s for s, _, _ in p.mentions}
        covered = [(s, e) for s, e, _ in p.mentions]
        for t in doc:
            if not t.is_title or t.idx in taken or any(s <= t.idx < e for s, e in covered):
                continue
            if p.last and t.text == p.last:
                p.mentions.append((t.idx, t.idx + len(t.text), "last"))
            elif p.first and t.text == p.first:
                p.mentions.append((t.idx, t.idx + len(t.text), "first"))


_RELIGIONS = frozenset({"Catholic", "Muslim", "Jewish", "Hindu", "Buddhist", "Christian", "Sikh"})


def _culture_problem(doc: Any, person: _Person, locales: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """``locales`` narrowed to the cultures every country the text ties to the person (by a
    people's adjective, a country or a city of one country) lists, or why none fits: a
    "Danish actor" keeps a Danish name, a Cairo taxi driver is refused (no Egyptian list)."""
    from ..lang import kinds
    from ..lang import names as lexicons

    what = repr(person.label)
    countries: set[str] = set()
    for ent in doc.ents:
        if ent.label_ == "NORP" or ent.text in kinds.NATIONALITY_WORDS:
            word = ent.text.removesuffix("s") if ent.text not in lexicons.DEMONYMS else ent.text
            country = lexicons.country_of_demonym(ent.text) or lexicons.country_of_demonym(word)
            if country is None and ent.text not in _RELIGIONS:
                return locales, f"the text ties {what} to a people ({ent.text!r}) whose names are not listed"
            if country:
                countries.add(country)
        elif ent.label_ in ("GPE", "LOC", "FAC", "ORG"):
            country = lexicons.place_country(ent.text)
            if country:
                countries.add(country)
    for country in sorted(countries):
        fitting = lexicons.country_locales(country)
        if not fitting:
            return locales, f"the text names {country}, for whose people no name list is known"
        locales = tuple(loc for loc in locales if loc in fitting)
        if not locales:
            return locales, f"the text ties {what} to {country}, whose names are of another culture"
    return locales, None


def _other_people_problem(doc: Any, person: _Person, language: str) -> str | None:
    """Why another person of the text forbids a new name for ``person``: one whose name
    culture is unknown or other (a Pakistani captain beside the bowler), else ``None``."""
    from ..lang import names as lexicons

    own = set(person.label.split())
    for ent in doc.ents:
        if ent.label_ != "PERSON":
            continue
        other = re.sub(r"['\u2019]s$", "", ent.text)
        if set(other.split()) & own:
            continue
        theirs = lexicons.name_culture(other)
        if theirs is None:
            return f"the text names {other!r}, whose name culture is unknown: {person.label!r} may share it"
        if lexicons.culture_language(theirs) != language:
            return f"the text names {other!r}, of another name culture than {person.label!r}"
    return None


# Locales whose one name list mixes peoples with names of their own (Kenya's Kikuyu, Luo,
# Kalenjin, Somali and coastal names): a surname drawn from it may be of another people.
_MANY_PEOPLES = ("_KE", "_NG", "_GH", "_UG", "_TZ", "_ZA", "_ET")


def _culture_pool(doc: Any, person: _Person) -> tuple[tuple[str, ...], str | None]:
    """The replacements for ``person`` (surnames for a full name, given names for a lone
    given name) of the same gender, era and culture, or why none can be drawn (the RE task's
    rules: :meth:`mtwidgets.re.transforms.ReplaceEntity._person_pool`)."""
    from ..lang import names as lexicons

    what = repr(person.label)
    if person.first is None:
        return (), f"{what} is a surname alone: its culture cannot be told"
    locales = lexicons.name_culture(person.label)
    if locales is None:
        return (), f"the name culture of {what} is unknown or mixed"
    if any(loc.endswith("_IN") for loc in locales):
        return (), f"{what} is an Indian name: its parts mark region and religion, which the lists do not record"
    if any(loc.endswith(_MANY_PEOPLES) for loc in locales):  # Njeri Kamau -> Njeri Bashir
        return (), (f"{what} is a name of a country of many peoples ({', '.join(locales)}): its parts mark "
                    "the people and religion, which the lists do not record")
    if lexicons.culture_gender(person.label, locales) != person.gender:
        return (), f"the gender of {what} is not settled by its culture's lists"
    locales, problem = _culture_problem(doc, person, locales)
    if problem:
        return (), problem
    language = lexicons.culture_language(locales)
    problem = _other_people_problem(doc, person, language)
    if problem:
        return (), problem
    if person.last is not None:  # a full name keeps its given name, another surname of its culture
        return lexicons.culture_surnames(locales, person.gender), None
    if language == "en":  # a lone given name: one in steady use in every era
        return lexicons.CLASSIC_GIVEN_NAMES[person.gender], None
    return lexicons.culture_names(locales, person.gender, True), None


def _name_options(text: str, doc: Any, person: _Person, rng: random.Random, n: int,
                  why: list[str]) -> list[Rewrite]:
    pool, problem = _culture_pool(doc, person)
    if problem:
        why.append(problem)
        return []
    words = set(re.findall(r"\w+", text))
    pool = tuple(w for w in pool if w not in words and w != person.first and w != person.last
                 and not _MISSPELT.match(w))
    if not pool:
        why.append(f"no name of the culture of {person.label!r} is left to draw")
        return []
    out = []
    for new in rng.sample(pool, min(n, len(pool))):
        if person.last is not None:  # the surname changes; the given name stays
            reps = [Replacement(s, e, text[s:e], f"{person.first} {new}" if kind == "full" else new)
                    for s, e, kind in person.mentions if kind != "first"]
            shown = f"{person.first} {new}"
        else:
            reps = [Replacement(s, e, text[s:e], new) for s, e, _ in person.mentions]
            shown = new
        out.append(_rewrite(text, reps, f"name {person.label!r} -> {shown!r} ({person.gender})",
                            family="name", old=person.label, new=shown))
    return out


def rewrite_name(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR1: replace one person's name (every mention) by a name of the same gender."""
    doc = _parse(text)
    people, why = _people(doc)
    if not people:
        pronouns = [t.text for t in doc if t.lower_ in ("he", "she", "him", "her", "his")]
        if pronouns:
            why.append(f"only pronouns ({pronouns[0]!r}) and no name: another pronoun would change who is meant")
        return Rewrites((), _why(why, "no person's name"))
    options: list[Rewrite] = []
    for person in people:
        options.extend(_name_options(text, doc, person, rng, max(1, k), why))
    return _pick(options, rng, k, _why(why, "") or None)


# -- MR2: countries ---------------------------------------------------------------------------
# Countries a news text names, with the article English uses before them, by region: a
# replacement stays in the region, so what the text says stays plausible (a ski race in
# Austria moves to Switzerland, not to Vietnam).
REGIONS: dict[str, tuple[str, ...]] = {
    "europe": ("Austria", "Belgium", "Bulgaria", "Croatia", "Denmark", "Estonia", "Finland", "France", "Germany",
               "Greece", "Hungary", "Iceland", "Ireland", "Italy", "Latvia", "Lithuania", "Norway", "Poland",
               "Portugal", "Romania", "Slovenia", "Spain", "Sweden", "Switzerland", "Ukraine", "the Netherlands",
               "the United Kingdom", "the Czech Republic", "Slovakia"),
    "asia": ("China", "India", "Indonesia", "Japan", "Malaysia", "Pakistan", "Singapore", "South Korea", "Thailand",
             "Vietnam", "the Philippines", "Taiwan"),
    "africa": ("Egypt", "Ethiopia", "Ghana", "Kenya", "Morocco", "Nigeria", "Senegal", "South Africa", "Tunisia",
               "Tanzania", "Uganda", "Algeria"),
    "americas": ("Argentina", "Brazil", "Canada", "Chile", "Colombia", "Mexico", "Peru", "Uruguay",
                 "the United States", "the Dominican Republic", "Ecuador"),
    "oceania": ("Australia", "New Zealand"),
    "middle east": ("Israel", "Jordan", "Turkey", "the United Arab Emirates", "Qatar", "Oman"),
}
COUNTRIES: tuple[str, ...] = tuple(c for countries in REGIONS.values() for c in countries)
# ISO codes, for the peer groups (:mod:`mtwidgets.lang.country_peers`): a country is replaced
# only by a peer, alike in what a text may say of it; one without peers is kept.
_CODE: dict[str, str] = {
    name.replace("_", " "): code for name, code in (pair.split(":") for pair in (
        "Austria:AT Belgium:BE Bulgaria:BG Croatia:HR Denmark:DK Estonia:EE Finland:FI France:FR Germany:DE Greece:GR "
        "Hungary:HU Iceland:IS Ireland:IE Italy:IT Latvia:LV Lithuania:LT Norway:NO Poland:PL Portugal:PT Romania:RO "
        "Slovenia:SI Spain:ES Sweden:SE Switzerland:CH Ukraine:UA the_Netherlands:NL the_United_Kingdom:GB "
        "the_Czech_Republic:CZ Slovakia:SK China:CN India:IN Indonesia:ID Japan:JP Malaysia:MY Pakistan:PK "
        "Singapore:SG South_Korea:KR Thailand:TH Vietnam:VN the_Philippines:PH Taiwan:TW Egypt:EG Ethiopia:ET "
        "Ghana:GH Kenya:KE Morocco:MA Nigeria:NG Senegal:SN South_Africa:ZA Tunisia:TN Tanzania:TZ Uganda:UG "
        "Algeria:DZ Argentina:AR Brazil:BR Canada:CA Chile:CL Colombia:CO Mexico:MX Peru:PE Uruguay:UY "
        "the_United_States:US the_Dominican_Republic:DO Ecuador:EC Australia:AU New_Zealand:NZ Israel:IL Jordan:JO "
        "Turkey:TR the_United_Arab_Emirates:AE Qatar:QA Oman:OM").split())}
_BY_CODE = {code: name for name, code in _CODE.items()}
_THE = {c.removeprefix("the "): c for c in COUNTRIES if c.startswith("the ")}
_BARE = {c for c in COUNTRIES if not c.startswith("the ")}
# Short forms as a source: the article they take and their canonical name.
_ALIASES = {"US": "the United States", "U.S.": "the United States", "UK": "the United Kingdom",
            "Britain": "the United Kingdom", "Great Britain": "the United Kingdom", "America": "the United States",
            "Holland": "the Netherlands", "Czechia": "the Czech Republic", "UAE": "the United Arab Emirates"}
_ALIAS_TAKES_THE = frozenset({"US", "U.S.", "UK", "UAE"})


def _canonical(name: str) -> str | None:
    """The :data:`COUNTRIES` entry of a country mention (without a leading "the"), or ``None``."""
    if name in _BARE:
        return name
    if name in _THE:
        return _THE[name]
    return _ALIASES.get(name)


def _country_mentions(doc: Any, refused: list[str]) -> dict[str, list[tuple[int, int, bool, bool]]]:
    """Canonical country -> its mentions as (start, end, is_modifier, possessive); a mention's
    span includes its "the". A country whose name with its "the" modifies a noun ("the U.S.
    company") is left out, with the reason added to ``refused``."""
    found: dict[str, list[tuple[int, int, bool, bool]]] = {}
    blocked: set[str] = set()
    for ent in doc.ents:
        if ent.label_ != "GPE":
            continue
        name = ent.text.removeprefix("the ").removeprefix("The ")
        canonical = _canonical(name)
        if canonical is None:
            continue
        start = ent.start_char
        prev = doc[ent.start - 1] if ent.start > 0 else None
        own_the = canonical.startswith("the ") and (name in _THE or name in _ALIAS_TAKES_THE)
        if ent.text[:4].lower() == "the ":
            pass
        elif prev is not None and prev.lower_ == "the" and own_the:
            start = prev.idx
        modifier = ent.root.dep_ in ("compound", "amod", "nmod") or (
            prev is not None and not own_the and (prev.pos_ in ("DET", "ADJ") or prev.tag_ == "PRP$")
        )
        nxt = doc[ent.end] if ent.end < len(doc) else None
        possessive = nxt is not None and nxt.tag_ == "POS"
        if modifier and own_the:
            refused.append(f"{ent.text!r} is a modifier ({ent.text} {ent.root.head.text}); "
                           "another country would need an adjective")
            found.pop(canonical, None)
            blocked.add(canonical)
            continue
        if canonical not in blocked:
            found.setdefault(canonical, []).append((start, ent.end_char, modifier, possessive))
    return found


# Words that tie what a text says to its country: a ranking ("the world's largest
# producers"), a part of it ("northern Pakistan"), a war or a people's history, its wildlife,
# a national body ("space agency"). A text with one of these stays with its country.
_COUNTRY_FACT = re.compile(
    r"\b(?:north|south|east|west|central|northern|southern|eastern|western|north-?eastern|north-?western|"
    r"south-?eastern|south-?western|rural|coastal|coast|islands?|mountains?|border|borders|neighbou?rs?|"
    r"neighbou?ring)\b|\b(?:wars?|invasion|invaded|occupation|occupied|"
    r"conflict|ceasefire|refugees?|coup|uprising|revolution|independence|colonial|empire|dynasty|"
    r"penguins?|kangaroos?|koalas?|lions?|elephants?|tigers?|pandas?|wolves|wolf|bears?|whales?|"
    r"agency|president|prime minister|national|capital|province|state|"
    r"language|languages|spoken|rank(?:ed|ing|s)?|number one|record|first|only|largest|biggest|"
    r"smallest|highest|lowest|most|least|leading|top)\b"
    # money, the EU and a country's people: its currency, bloc and size belong to it
    # ("a EUR390 million fine" from Ireland's regulator, "a study of 400,000 adults in Britain")
    r"|[£€$¥₹]|\b(?:euros?|pounds? sterling|sterling|pence|dollars?|cents?|yen|yuan|renminbi|rupees?|pesos?|"
    r"rand|naira|francs?|krona|krone|kroner|zloty|lira|EU|European Union|eurozone|euro zone|Schengen|Brussels|"
    r"population|populations|census|birth ?rate|citizens|inhabitants|residents|nationwide|"
    r"millions?|billions?|\d{1,3}(?:,\d{3})+|\d{5,}|"
    # its institutions, nature, shares and systems ("Swiss referendums", "typhoons", "a fifth
    # of all electricity", "study permits", "senior high school")
    r"referendums?|referenda|parliament|constitution|monarchy|king|queen|typhoons?|hurricanes?|cyclones?|"
    r"earthquakes?|monsoons?|volcan\w*|tsunamis?|salmon|fjords?|permits?|visas?|curriculum|school system|"
    r"senior high|aged \d+|over \d+|one in (?:two|three|four|five|six|seven|eight|nine|ten)|"
    r"a (?:half|third|quarter|fifth|tenth) of|per ?cent of|percent of|% of|"
    # its energy, wealth and sights ("two of its nuclear reactors", "its sovereign wealth fund")
    r"nuclear|reactors?|coal|sovereign wealth|oil fund|aurora|northern lights|glaciers?|"
    # what it is known for making, growing or having made law ("anime exports", "coffee harvest")
    r"anime|manga|k-pop|coffee|cocoa|tea|same-sex|migrant workers?)\b", re.IGNORECASE)


def _country_refusal(doc: Any, canonical: str, mentions: Sequence[tuple[int, int, bool, bool]]) -> str | None:
    """Why ``canonical`` may not change in this text, or ``None``. It may change only where
    it is the one geographic fact of the text: any other place, country, people, language,
    event, organisation or person (spaCy's entities, or a gazetteer's place), a ranking or
    a part of the country, a war or wildlife ties what the text says to the country
    ("Barcelona ... crossing into France", "Kerala, India", "Twi ... Ghana")."""
    from ..lang import kinds

    plain = canonical.removeprefix("the ")
    spans = [(s, e) for s, e, _, _ in mentions]
    for ent in doc.ents:
        if any(s <= ent.start_char < e for s, e in spans):
            continue
        if ent.label_ in ("GPE", "LOC", "FAC", "NORP", "LANGUAGE", "EVENT", "ORG", "PERSON", "PRODUCT",
                          "WORK_OF_ART", "LAW"):
            return f"the text also names {ent.text!r} ({ent.label_}), which may tie what it says to {plain}"
    for t in doc:
        if (t.is_title and not t.is_sent_start and t.pos_ == "PROPN" and not any(s <= t.idx < e for s, e in spans)
                and kinds.place_kinds(t.text)):
            return f"the text names the place {t.text!r}, which may belong to {plain}"
        if t.tag_ in ("JJS", "RBS"):
            return f"the text ranks something ({t.text!r}): the ranking may hold for {plain} alone"
    blanked = doc.text
    for s, e in spans:  # the country's own name ("South Africa") says nothing more of it
        blanked = blanked[:s] + " " * (e - s) + blanked[e:]
    fact = _COUNTRY_FACT.search(blanked)
    if fact:
        return f"the text says something of the country ({fact.group(0)!r}) that another may not share"
    return None


def _country_form(target: str, at_start: bool) -> str:
    return _capital("T", target) if at_start and target.startswith("the ") else target


def rewrite_country(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR2: replace one country (every mention) by a peer (:mod:`mtwidgets.lang.country_peers`)."""
    from ..lang.country_peers import peers

    doc = _parse(text)
    why: list[str] = []
    found = _country_mentions(doc, why)
    named_demonyms = [e.text for e in doc.ents if e.label_ == "NORP"]
    if not found:
        if named_demonyms:
            why.append(f"only a nationality adjective ({named_demonyms[0]!r}), which is not replaced")
        return Rewrites((), _why(why, "no country named"))
    present = set(found)
    options: list[Rewrite] = []
    for canonical, mentions in found.items():
        problem = _country_refusal(doc, canonical, mentions)
        if problem:
            why.append(problem)
            continue
        modifier = next((text[s:e] for s, e, is_modifier, _ in mentions if is_modifier), None)
        if modifier is not None:
            why.append(f"{modifier!r} modifies a noun: another country would often need its adjective "
                       f"('Vietnamese hospitals', not 'Vietnam hospitals')")
            continue
        peer_codes = peers(_CODE[canonical])
        if not peer_codes:
            why.append(f"{canonical.removeprefix('the ')} has no peer alike in what a text may say of it "
                       "(exports, climate, customs, size)")
            continue
        # a city-state (Singapore) has no peer group, so it is never a replacement either
        pool = sorted(_BY_CODE[c] for c in peer_codes if c in _BY_CODE and _BY_CODE[c] not in present)
        if any(m[3] for m in mentions):
            pool = [c for c in pool if not c.endswith("s")]
        for target in rng.sample(pool, min(max(1, k), len(pool))):
            reps = []
            for start, end, _, _ in mentions:
                at_start = start == 0 or text[:start].rstrip().endswith((".", "!", "?", '"', "\n"))
                reps.append(Replacement(start, end, text[start:end], _country_form(target, at_start)))
            shown = target.removeprefix("the ")
            options.append(_rewrite(text, reps, f"country {canonical.removeprefix('the ')!r} -> {shown!r}",
                                    family="country", old=canonical, new=target))
    return _pick(options, rng, k, _why(why, "") or None)


# -- MR3: occupations -------------------------------------------------------------------------
# Gender-neutral occupation nouns in groups whose members do the same kind of work, so a
# replacement keeps the sentence plausible and its topic and tone what they were ("surgeons
# blamed a lack of beds" -> "doctors ..."). Ambiguous words are left out ("trader" of
# goods or shares, "driver" of a bus or a racing car, "broadcaster" a person or a company,
# "builder" a person or a firm); so are fixed phrases ("head teacher", "teacher training").
OCCUPATIONS: dict[str, tuple[str, ...]] = {
    "science": ("scientist", "researcher"),
    "accounting": ("accountant", "bookkeeper"),
    "software": ("programmer", "developer"),
    "news": ("journalist", "reporter"),
    "singing": ("singer", "vocalist"),
}
# Dropped after held-out audits: the building trades (electrician, plumber, carpenter,
# bricklayer, welder: a text gives each its own task, "built the benches", "fixed the
# fault", which another trade does not do), "painter" -> "artist" ("painter and decorator"
# is a house painter) and "professor" <-> "lecturer" (ranks; "professor of" but "lecturer in").
# Left out as doubtful: "educator" (stiff and American for a teacher), "novelist" (a
# writer or author may be a critic or a study's author), "cook" (a home cook, not a chef),
# "technician" (not an engineer's work), "analyst" ("political economist"), "solicitor" and
# "attorney" (a lawyer of one country's courts), "coder" (informal), "physician" (in British
# or sports news "doctors" is the word), "correspondent" (reporters at a press conference).
# ... and "auditor" (checks the accounts others keep: "auditors ignored the warnings").
# Replacements that are never replaced themselves: a "developer" may be a property or an
# app firm, and "researchers" of a reading study are not "scientists".
_TARGET_ONLY = frozenset({"developer", "researcher"})
# A replacement that fits only where the text says so ("vocalist": of a band, not a solo
# star), or reads badly beside a word of its own stem ("a reporter ... reported").
_TARGET_NEEDS: dict[str, str] = {"vocalist": r"\b(?:bands?|group|choir|orchestra|ensemble|line-?up|frontman|frontwoman)\b"}
_TARGET_CLASHES: dict[str, str] = {"reporter": r"\breport(?:s|ed|ing)?\b"}
_FIELD_OF = {w: f for f, words in OCCUPATIONS.items() for w in words if " " not in w and w not in _TARGET_ONLY}
# Words that tie what a text says to the occupation itself ("a retired electrician ... the
# wiring"): another of its field would no longer know or do it, so the text is refused.
_TIED_WORDS: dict[str, str] = {
    "singer": r"sings?|sang|sung|singing|songs?|voice",
    "vocalist": r"sings?|sang|sung|singing|songs?|voice",
    "journalist": r"journalism",
    "reporter": r"report\w*",
    "accountant": r"account\w*",
    "bookkeeper": r"bookkeeping",
    "programmer": r"program\w*",
    "developer": r"develop\w*",
    "scientist": r"scien\w*",
    "researcher": r"research\w*",
}
# Words before an occupation that make it part of a title ("head teacher").
_TITLE_WORDS = frozenset({"head", "deputy", "assistant", "supply", "student", "trainee", "chief", "senior", "junior"})


def _fixed_term(doc: Any, t: Any) -> bool:
    """Whether the occupation ``t`` is part of a term: a title word, noun or name before it
    ("clown doctors", "head teacher", "Engineer Priya Nair"), a noun after it ("doctor
    shortage"), or quotation marks around it ("\"clown doctors\"")."""
    if t.dep_ == "compound" or any(c.dep_ == "compound" for c in t.children):
        return True
    prev = doc[t.i - 1] if t.i > 0 else None
    nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
    if prev is not None and (prev.lower_ in _TITLE_WORDS or prev.pos_ in ("NOUN", "PROPN")):
        return True
    if nxt is not None and (nxt.pos_ in ("NOUN", "PROPN") or nxt.ent_type_ == "PERSON"):
        return True
    sentence = t.sent.text
    return sentence.count('"') + sentence.count("\u201c") > 0 and _inside_quotes(doc.text, t.idx)


def _inside_quotes(text: str, at: int) -> bool:
    """Whether position ``at`` lies inside a pair of double quotes on its line."""
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at]
    return (before.count('"') + before.count("\u201c") - before.count("\u201d")) % 2 == 1


def _pair_problem(doc: Any, tokens: Sequence[Any], lemma: str) -> str | None:
    """For a pair (two texts joined by a line break): why changing ``lemma`` where it occurs
    would set one text against the other, or ``None``. When only one text has the word and
    the other names the same person or says the job another way ("Engineer Priya Nair" /
    "an engineer"), the pair would contradict itself."""
    text = doc.text
    cut = text.find("\n")
    if cut < 0:
        return None
    sides = {t.idx > cut for t in tokens}
    if len(sides) == 2:
        return None
    other = text[cut + 1 :] if sides == {False} else text[:cut]
    people = {e.text for e in doc.ents if e.label_ == "PERSON"}
    if any(p in other for p in people):
        return f"only one text of the pair says {lemma!r}, and both name the same person"
    if re.search(rf"\b{re.escape(lemma)}", other, re.IGNORECASE):
        return f"the other text of the pair says {lemma!r} in another form"
    return None


def _tied_problem(text: str, tokens: Sequence[Any], lemma: str) -> str | None:
    """Why the text ties what it says to ``lemma`` itself (:data:`_TIED_WORDS`: "the wiring"
    beside an electrician, "research" beside researchers), or ``None``."""
    pattern = _TIED_WORDS.get(lemma)
    if pattern is None:
        return None
    own = {t.idx for t in tokens}
    for m in re.finditer(rf"\b(?:{pattern})\b", text, re.IGNORECASE):
        if m.start() not in own:
            return f"the text ties what it says to the {lemma}'s own work ({m.group(0)!r})"
    return None


def rewrite_occupation(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR3: replace one occupation noun (every mention of it) by another of its field."""
    from ..lang.inflect import inflect

    doc = _parse(text)
    by_lemma: dict[str, list[Any]] = {}
    fixed: set[str] = set()
    for t in doc:
        if t.pos_ == "NOUN" and t.tag_ in ("NN", "NNS") and t.lemma_.lower() in _FIELD_OF and not t.ent_type_:
            if _fixed_term(doc, t):
                fixed.add(t.lemma_.lower())
                continue
            by_lemma.setdefault(t.lemma_.lower(), []).append(t)
        elif t.lemma_.lower() in _FIELD_OF:  # a capitalised or tagged-otherwise mention: left as it is
            fixed.add(t.lemma_.lower())
    for lemma in fixed:  # a word in a fixed phrase is not replaced anywhere in the text
        by_lemma.pop(lemma, None)
    why: list[str] = []
    for lemma, tokens in list(by_lemma.items()):
        problem = _pair_problem(doc, tokens, lemma) or _tied_problem(text, tokens, lemma)
        if problem:
            why.append(problem)
            by_lemma.pop(lemma)
    if not by_lemma:
        if fixed:
            why.append(f"the occupation {sorted(fixed)[0]!r} is part of a fixed phrase or a title")
        return Rewrites((), _why(why, "no occupation noun of the list"))
    options: list[Rewrite] = []
    for lemma, tokens in by_lemma.items():
        peers = [w for w in OCCUPATIONS[_FIELD_OF[lemma]] if w != lemma and " " not in w and _target_fits(text, w)]
        if not peers:
            why.append(f"no occupation of {lemma!r}'s field fits this text")
            continue
        for target in rng.sample(peers, min(max(1, k), len(peers))):
            reps = []
            for t in tokens:
                word = inflect(target, t.tag_) or target
                reps.append(Replacement(t.idx, t.idx + len(t.text), t.text, _capital(t.text, word)))
                fix = _article_fix(doc, t, word)
                if fix is not None:
                    reps.append(fix)
            options.append(_rewrite(text, reps, f"occupation {lemma!r} -> {target!r}", family="occupation",
                                    old=lemma, new=target))
    return _pick(options, rng, k, _why(why, "") or None)


def _target_fits(text: str, target: str) -> bool:
    """Whether ``target`` may replace an occupation here (:data:`_TARGET_NEEDS`, :data:`_TARGET_CLASHES`)."""
    needs = _TARGET_NEEDS.get(target)
    if needs and not re.search(needs, text, re.IGNORECASE):
        return False
    clash = _TARGET_CLASHES.get(target)
    return not (clash and re.search(clash, text, re.IGNORECASE))


# -- MR4: punctuation -------------------------------------------------------------------------
_QUOTE_PAIR = re.compile(r'"([^"\n]{1,300})"')
_SPACED_HYPHEN = re.compile(r"(?<=\w) (?:-|--) (?=\w)")
_DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")


def _typographic_quotes(text: str) -> list[Replacement] | None:
    """Every straight double quote of the text as its typographic pair (all or none: a text
    never mixes the two styles), or ``None`` when the text has none, already has a
    typographic one, or a line whose quotes do not pair up."""
    if '"' not in text or "\u201c" in text or "\u201d" in text:
        return None
    if any(line.count('"') % 2 for line in text.split("\n")):
        return None
    reps = []
    for m in _QUOTE_PAIR.finditer(text):
        reps += [Replacement(m.start(), m.start() + 1, '"', "\u201c"), Replacement(m.end() - 1, m.end(), '"', "\u201d")]
    return reps if len(reps) == text.count('"') else None


def _typographic_apostrophes(text: str) -> list[Replacement] | None:
    """Every straight apostrophe as the typographic one ("don't" -> "don\u2019t", "Ghana's"),
    all or none, or ``None`` when the text has none, already has a typographic one, or a
    "'" that is not inside a word (a single quotation mark, a plural possessive "players'")."""
    if "'" not in text or "\u2019" in text or "\u2018" in text:
        return None
    inside = [m.start() for m in re.finditer(r"(?<=[A-Za-z])'(?=[A-Za-z])", text)]
    if len(inside) != text.count("'"):
        return None
    return [Replacement(i, i + 1, "'", "\u2019") for i in inside]


# A spaced hyphen the dash pattern cannot take (before a quote or at a line's start): left
# straight it would sit beside converted dashes, so the text is refused.
_ANY_SPACED_HYPHEN = re.compile(r"(?:^|(?<=\s))--?(?=\s)", re.MULTILINE)


def _typographic_all(text: str) -> tuple[list[Replacement], list[str]] | str:
    """Every straight mark of the text as its typographic equivalent in one go (quotes,
    apostrophes, spaced hyphens, "..."), with the kinds converted, or why the text is
    refused: a kind present that cannot be converted throughout would leave the text
    mixing straight and typographic marks (curly quotes beside "didn't", one dash of a pair)."""
    reps: list[Replacement] = []
    kinds: list[str] = []
    quotes = _typographic_quotes(text)
    if '"' in text:
        if quotes is None:
            return "straight double quotes that cannot all be paired as typographic ones"
        reps += quotes
        kinds.append("quotes")
    apostrophes = _typographic_apostrophes(text)
    if "'" in text:
        if apostrophes is None:
            return "a straight \"'\" that is not an apostrophe inside a word (or typographic ones beside it)"
        reps += apostrophes
        kinds.append("apostrophes")
    dashes = list(_SPACED_HYPHEN.finditer(text))
    if dashes or _ANY_SPACED_HYPHEN.search(text):
        if len(dashes) != len(_ANY_SPACED_HYPHEN.findall(text)) or "\u2013" in text:
            return "a spaced hyphen that cannot be made a dash like the others (or en dashes beside them)"
        reps += [Replacement(m.start(), m.end(), m.group(0), " \u2014 ") for m in dashes]
        kinds.append("dash")
    dots = list(_DOTS.finditer(text))
    if dots:
        reps += [Replacement(m.start(), m.end(), "...", "\u2026") for m in dots]
        kinds.append("ellipsis")
    return reps, kinds


def rewrite_punctuation(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR4: replace the punctuation marks by their exact typographic equivalents, all in
    one rewrite: every pair of straight double quotes by typographic quotes, every
    apostrophe by the typographic one, every spaced hyphen by a dash, "..." by an ellipsis,
    so the text never mixes the two styles; refused when one of them cannot be converted.
    The paper's MR4 replaces "punctuation1 -> punctuation2" and asks only that the output
    stay consistent; a full stop turned into "!" changes the tone of neutral, solemn or
    apologetic prose, so it is not done."""
    found = _typographic_all(text)
    if isinstance(found, str):
        return Rewrites((), f"{found}: converting the rest would mix straight and typographic marks")
    reps, kinds = found
    if not reps:
        return Rewrites((), "no straight punctuation mark with an exact typographic equivalent: no straight quotes, "
                            "apostrophe, spaced hyphen or '...' (a full stop is not turned into '!': the tone "
                            "would change)")
    note = "straight marks -> typographic ones (" + ", ".join(kinds) + ")"
    return _pick([_rewrite(text, reps, note, family="punctuation", kind="+".join(kinds))], rng, k, None)


# -- MR5 / MR6: synonyms ----------------------------------------------------------------------
_SKIP_VERBS = frozenset({"be", "have", "do", "will", "would", "can", "could", "may", "might", "shall", "should",
                         "must", "get", "let"})
_NOUN_TAGS = ("NN", "NNS")
_VERB_TAGS = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")


# Reviewed synonyms whose register differs in common use (street vendors "shout" their
# wares; "yell" is harsher): not drawn.
_REGISTER_SHIFTS = frozenset({("shout", "yell")})


def _synonym_for(lemma: str, pos: str) -> str | None:
    from ..lang.synonyms_en import vetted_synonyms

    for cand in vetted_synonyms(lemma, pos):
        if (lemma, cand.lower()) in _REGISTER_SHIFTS:
            return None
        if cand.isalpha() and cand.lower() != lemma:
            return cand.lower()
    return None


def _synonym_targets(doc: Any, pos: str) -> tuple[dict[str, list[Any]], list[str]]:
    tags = _NOUN_TAGS if pos == "NOUN" else _VERB_TAGS
    found: dict[str, list[Any]] = {}
    why: list[str] = []
    for t in doc:
        if t.pos_ != pos or t.tag_ not in tags or not t.is_alpha or t.ent_type_:
            continue
        lemma = t.lemma_.lower()
        if pos == "VERB" and (lemma in _SKIP_VERBS or any(c.dep_ == "prt" for c in t.children)):
            continue
        if pos == "VERB" and _modifier_verb(t):
            why.append(f"{t.text!r} may be a word before a noun rather than a verb")
            continue
        if t.text[:1].isupper() and not t.is_sent_start:
            continue
        if pos == "NOUN" and _inside_quotes(doc.text, t.idx):  # quoted words are the speaker's own
            continue
        found.setdefault(lemma, []).append(t)
    return found, why


def _modifier_verb(t: Any) -> bool:
    """Whether the verb candidate ``t`` may be a noun or adjective before a noun that spaCy
    tagged as a verb ("Aid worker Sarah ... said": "Aid" is no verb): it modifies a noun
    (compound, amod, nmod), the noun after it is its head, or it is capitalised at the start
    of a sentence, where the tagger misreads such words most."""
    if t.dep_ in ("compound", "amod", "nmod"):
        return True
    doc = t.doc
    nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
    if nxt is not None and nxt.pos_ in ("NOUN", "PROPN") and t.head.i == nxt.i:
        return True
    return t.is_sent_start and t.text[:1].isupper()


# Synonyms that read as a word of their own only with a modifier ("car makers", not "makers").
_NEEDS_MODIFIER = frozenset({"maker"})


def _noun_problem(t: Any, synonym: str) -> str | None:
    """Why the noun ``t`` may not become ``synonym``, or ``None``: a bare "maker" for
    "manufacturer"; a noun named by a name or a year ("the 1944 uprising", "the Warsaw
    uprising": a named event keeps its name)."""
    mods = [c for c in t.children if c.dep_ in ("amod", "compound", "nmod") and c.i < t.i]
    if synonym in _NEEDS_MODIFIER and not any(c.pos_ in ("NOUN", "ADJ", "PROPN") and c.lower_ not in _QUANTIFIERS
                                              for c in mods):
        return f"{synonym!r} needs a word before it to stand for {t.text!r}"
    for c in t.children:
        if c.i < t.i and (c.pos_ == "PROPN" or c.ent_type_ in ("GPE", "NORP", "DATE", "EVENT")
                          or re.fullmatch(r"1\d{3}|20\d\d", c.text)):
            return f"{t.text!r} is named by {c.text!r}: a named thing keeps its name"
    doc = t.doc
    after = doc[t.i + 1 : t.i + 3]
    if len(after) == 2 and after[0].lower_ == "of" and (re.fullmatch(r"1\d{3}|20\d\d", after[1].text)
                                                          or after[1].ent_type_ == "EVENT"):
        return f"'{t.text} of {after[1].text}' names an event: a named thing keeps its name"
    for m in _FIXED_NOUN_PHRASE.finditer(doc.text):
        if m.start() <= t.idx < m.end():
            return f"{t.text!r} is part of the fixed phrase {m.group(0)!r}"
    return None


# Fixed phrases whose noun takes no synonym ("the first of its kind", "kind of" as a hedge).
_FIXED_NOUN_PHRASE = re.compile(
    r"\b(?:of (?:its|a|their|his|her|our) (?:kind|sort)|(?:kind|sort)s? of|on the other hand|at the end of the day|"
    r"in the long run|a matter of time|in the first place|by the way|in a sense|make[sd]? sense|making sense|"
    r"t[ao]k(?:e|es|en|ing)? place|took place|in place|in charge|in time|on time|in fact|of course)\b",
    re.IGNORECASE)


_QUANTIFIERS = frozenset("several many some other few all most more various numerous certain".split())


_VERB_TAGS = ("VB", "VBP", "VBZ", "VBD", "VBN", "VBG")


def _inflected_like(token: Any, synonym: str) -> str | None:
    """``synonym`` in the form of ``token``: the token's tag, once checked against its word
    (the parser tags "leapt" VBZ, which would give "jumps"). When the word is no form of its
    lemma under that tag, the tags under which it is one decide, if they agree on the
    synonym's form ("leapt": VBD and VBN both give "jumped"); else ``None``."""
    from ..lang.inflect import forms_of, inflect

    lemma, word = token.lemma_.lower(), token.text.lower()
    if word in forms_of(lemma, token.tag_):
        return inflect(synonym, token.tag_)
    family = _VERB_TAGS if token.tag_ in _VERB_TAGS else (token.tag_,)
    outs = {inflect(synonym, tag) for tag in family if word in forms_of(lemma, tag)}
    return outs.pop() if len(outs) == 1 else None


def _rewrite_synonym(text: str, pos: str, rng: random.Random, k: int) -> Rewrites:
    doc = _parse(text)
    found, why = _synonym_targets(doc, pos)
    what = "noun" if pos == "NOUN" else "verb"
    options: list[Rewrite] = []
    for lemma, tokens in found.items():
        synonym = _synonym_for(lemma, pos)
        if synonym is None:
            continue
        if re.search(rf"\b{re.escape(synonym)}", text, re.IGNORECASE) or any(
                t.lemma_.lower() == synonym for t in doc):  # "supplies" beside "providing"
            why.append(f"{synonym!r}, the synonym of {lemma!r}, is already a word of the text")
            continue
        problem = next((p for p in (_noun_problem(t, synonym) for t in tokens) if p), None) if pos == "NOUN" else None
        if problem:
            why.append(problem)
            continue
        reps = []
        for t in tokens:
            word = _inflected_like(t, synonym)
            if word is None:
                why.append(f"{t.text!r} is not a form of {lemma!r} its tag ({t.tag_}) says: "
                           f"its synonym's form cannot be told")
                break
            reps.append(Replacement(t.idx, t.idx + len(t.text), t.text, _capital(t.text, word)))
            if pos == "NOUN":
                fix = _article_fix(doc, t, word)
                if fix is not None:
                    reps.append(fix)
        else:
            options.append(_rewrite(text, reps, f"{what} {lemma!r} -> synonym {synonym!r}", family=what,
                                    old=lemma, new=synonym))
    if not options and why:
        return Rewrites((), _why(why, ""))
    if not options:
        return Rewrites((), f"no {what} with a reviewed synonym" + (f" ({found and ', '.join(list(found)[:4])} have none)"
                                                                   if found else ""))
    return _pick(options, rng, k, None)


def rewrite_noun(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR5: replace a noun (every occurrence of its lemma) by its reviewed synonym."""
    return _rewrite_synonym(text, "NOUN", rng, k)


def rewrite_verb(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR6: replace a verb (every occurrence of its lemma) by its reviewed synonym."""
    return _rewrite_synonym(text, "VERB", rng, k)


# -- MR7: sentence order ----------------------------------------------------------------------
_ABBREVS = ("Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Inc.", "Ltd.", "Co.", "Corp.", "Jr.", "Sr.", "vs.", "No.", "U.S.",
            "U.K.", "a.m.", "p.m.", "e.g.", "i.e.")
_CONNECTIVES = frozenset("""however but and so also meanwhile then still instead moreover furthermore besides yet
therefore thus hence actually anyway anyhow nevertheless nonetheless later afterwards finally first second third next similarly likewise
consequently otherwise indeed in-fact despite after before because while although though or nor such""".split())
# Words that always lean on what came before.
_BACK_WORDS = frozenset("""this these those also too again another former latter same following nobody
later earlier previous""".split())
# "this week", "these days": deixis of time, not a reference back.
_TIME_NOUNS = frozenset("""year years week weeks month months summer winter spring autumn season morning evening
afternoon night weekend term quarter decade century day days""".split())
# Pronouns, by the antecedent that may resolve them inside their own sentence.
_PERSON_PRONOUNS = frozenset("he him his himself she her hers herself".split())
_THING_PRONOUNS = frozenset("it its itself".split())
_GROUP_PRONOUNS = frozenset("they them their theirs themselves".split())
# Quantifiers that, as a sentence's subject, take a part of a group named before ("Some will ...").
_PART_OF = frozenset("some many most others several few each all none one two three half".split())
# Words that refer back only when they open the sentence ("That was ...", "There, ...").
_BACK_OPENERS = frozenset({"that", "there", "both", "such", "here"})


def split_sentences(text: str) -> list[str] | None:
    """The sentences of a one-paragraph text (split after ``.``, ``!`` or ``?`` followed by a
    space and a capital or a quote), or ``None`` when the text has line breaks."""
    if "\n" in text.strip():
        return None
    body = text.strip()
    pieces: list[str] = []
    start = 0
    for m in re.finditer(r"[.!?][\"'\u201d\u2019)]?(\s+)(?=[A-Z\"\u201c\u2018(])", body):
        end = m.start(1)
        candidate = body[start:end]
        if candidate.endswith(_ABBREVS) or re.search(r"\b[A-Z]\.$", candidate):
            continue
        pieces.append(candidate)
        start = m.end(1)
    pieces.append(body[start:])
    return [p for p in pieces if p]


def _leans_on(sentence: Any, earlier: Any, lead: Any) -> str | None:
    """Why ``sentence`` cannot come before ``earlier`` (a sentence it followed; ``lead``, the
    text's first sentence, stays first), or ``None``. It can not when it starts with a
    connective, uses a word that points back ("also", "this", "the following"), names
    someone of ``earlier`` by a short name, takes up a noun of ``earlier`` with "the", or has
    a pronoun without a possible antecedent before it (a name in the lead or the sentence for
    "he"/"she"; a noun in the sentence itself for "it" and "they")."""
    first = sentence[0].lower_ if len(sentence) else ""
    if first in _CONNECTIVES or first in _BACK_OPENERS:
        return f"a sentence starts with {sentence[0].text!r}"
    problem = _follows_its_predecessor(sentence)
    if problem:
        return problem
    lead_nouns = {t.lemma_.lower() for t in lead if t.pos_ == "NOUN"}
    earlier_nouns = {t.lemma_.lower() for t in earlier if t.pos_ == "NOUN"} - lead_nouns
    lead_person = any(t.ent_type_ == "PERSON" for t in lead)
    for i, t in enumerate(sentence):
        w = t.lower_
        nxt = sentence[i + 1].lower_ if i + 1 < len(sentence) else ""
        if w in _BACK_WORDS and not (w in ("this", "these") and nxt in _TIME_NOUNS):
            return f"the sentence {sentence.text[:40]!r} refers back ({t.text!r})"
        problem = _pronoun_problem(sentence, i, lead_person)
        if problem:
            return problem
        if t.pos_ == "NOUN" and t.lemma_.lower() in earlier_nouns and any(
            c.lower_ == "the" for c in t.children
        ):
            return f"'the {t.text}' in {sentence.text[:40]!r} takes up a noun of the sentence before"
    for m in _FULL_NAME.finditer(earlier.text):
        full, last = m.group(0), m.group(1)
        if full in lead.text:
            continue
        if re.search(rf"\b{re.escape(last)}\b", sentence.text) and full not in sentence.text:
            return f"a sentence calls {full} by the short name {last!r}"
    return None


def _pronoun_problem(sentence: Any, i: int, lead_person: bool) -> str | None:
    """Why the ``i``-th word of ``sentence``, a pronoun, needs the sentence before it for its
    antecedent (a name in the lead or before it for "he"/"she"; a noun before it in the
    sentence for "it" and "they"), or ``None``."""
    t, before = sentence[i], sentence[:i]
    w = t.lower_
    if w in _PERSON_PRONOUNS and not lead_person and not any(b.ent_type_ == "PERSON" for b in before):
        return f"{t.text!r} in {sentence.text[:40]!r} has no name before it"
    if w in _THING_PRONOUNS and not any(b.tag_ in ("NN", "NNP") for b in before):
        return f"{t.text!r} in {sentence.text[:40]!r} has no noun before it in its sentence"
    if w in _GROUP_PRONOUNS and not any(b.tag_ in ("NNS", "NNPS") or b.lower_ in _COLLECTIVE for b in before):
        return f"{t.text!r} in {sentence.text[:40]!r} has no plural noun before it in its sentence"
    return None


_ANCHOR_ENTS = frozenset({"DATE", "TIME", "GPE", "LOC", "ORG", "PERSON", "FAC", "EVENT", "NORP"})
_ANCHOR_WORDS = frozenset("in on at by during since after before last this next from across".split())
_REFERRING_WORDS = frozenset("he him his she her hers it its they them their theirs this that these those such "
                             "also too again another other others same similar similarly likewise comparable "
                             "then".split())
# Nouns of events and decisions that, with a bare "the", take up one told before ("described
# the talks", "the measures are expected ...", "address the session").
_EVENT_NOUNS = frozenset("""talks session meeting summit measures measure plan plans deal agreement move decision
incident proposal proposals vote ceremony changes rules reform reforms scheme programme program project announcement
event match game race tournament final trial hearing case investigation inquiry attack crash accident visit
conference negotiations statement report results result figures findings policy law bill""".split())


def _stands_alone(sentence: Any, spans: Sequence[Any]) -> bool:
    """Whether ``sentence`` reads the same wherever it stands: it opens on an anchor (a
    date, a place, an institution or a person's full name, or a preposition before one)
    and holds no pronoun, no demonstrative and no "the" + noun that another sentence names."""
    tokens = [t for t in sentence if not t.is_punct]
    if not tokens:
        return False
    first = tokens[0]
    opener = first if first.lower_ not in _ANCHOR_WORDS or len(tokens) < 2 else tokens[1]
    if opener.ent_type_ not in _ANCHOR_ENTS or (opener.ent_type_ == "PERSON" and not _full_name_at(sentence, opener)):
        return False
    if any(t.lower_ in _REFERRING_WORDS for t in sentence):
        return False
    if _tells_a_sequel(sentence):
        return False
    others = {t.lemma_.lower() for other in spans if other is not sentence for t in other if t.pos_ == "NOUN"}
    return not any(t.pos_ == "NOUN" and t.lemma_.lower() in others and any(c.lower_ == "the" for c in t.children)
                   for t in sentence)


def _tells_a_sequel(sentence: Any) -> bool:
    """Whether ``sentence`` continues a story or takes up an event told before it: "went on
    to win", a past perfect ("had led at half-time", set before another event), or a bare
    "the" before an event noun ("described the talks", "the measures are expected")."""
    for t in sentence:
        if t.lower_ == "went" and t.i + 1 < t.doc.__len__() and t.doc[t.i + 1].lower_ == "on":
            return True
        if t.lower_ == "had" and t.dep_ == "aux" and t.head.tag_ == "VBN":
            return True
        if t.pos_ == "NOUN" and t.lower_ in _EVENT_NOUNS and any(c.lower_ == "the" for c in t.children) and not any(
                c.dep_ in ("prep", "acl", "relcl", "compound", "amod", "nmod", "poss") for c in t.children):
            return True
    return False


# Words by which a sentence comments on or continues the item before it ("his side", "were
# still searching", "admitted", "described the performance").
_COMMENT_WORDS = frozenset("""his her their its still admitted admits described describes called calls praised
praises criticised criticized welcomed welcomes""".split())


def _continues_an_item(text: str, sentence: Any) -> bool:
    """Whether ``sentence`` reads as a comment on or a continuation of the sentence before
    it: it takes up an event (:func:`_tells_a_sequel`), reports speech ("Course leader Marcus
    Delgado said ..."), or has a possessive or "still" tying it to someone just named."""
    return (_tells_a_sequel(sentence) or bool(_SPEECH.search(text)) or bool(re.search(r"[\"\u201c\u201d]", text))
            or any(t.lower_ in _COMMENT_WORDS for t in sentence))


def _full_name_at(sentence: Any, token: Any) -> bool:
    """Whether the PERSON entity starting at ``token`` is a full name (two words or more)."""
    ent = next((e for e in sentence.ents if e.start <= token.i < e.end), None)
    return ent is not None and len(ent) >= 2


def _follows_its_predecessor(sentence: Any) -> str | None:
    """Why ``sentence`` reads only right after the sentence it followed, or ``None``: it
    opens on a part of a group named there ("Some will spend a semester abroad.") or dates
    itself from what that sentence told ("Her students have since won ...")."""
    if re.match(r"(?:The|A|An) \d+-year-old\b", sentence.text):  # "The 27-year-old ...": who was just named
        return f"the sentence {sentence.text[:40]!r} names someone by their age, after the sentence that names them"
    if len(sentence) and sentence[0].lower_ in _PART_OF and sentence[0].dep_ in ("nsubj", "nsubjpass"):
        return f"the sentence {sentence.text[:40]!r} opens on a part of something named before ({sentence[0].text!r})"
    for i, t in enumerate(sentence):
        # "have since won" (the parser marks it advmod, with any tag): since what came before
        if t.lower_ == "since" and (t.pos_ == "ADV" or t.dep_ == "advmod"):
            return f"the sentence {sentence.text[:40]!r} dates itself from the one before ({t.text!r})"
        # "that race", "more understated": a thing or a comparison the sentence before set up
        if t.lower_ in ("that", "those") and t.dep_ == "det" and i > 0:
            return f"the sentence {sentence.text[:40]!r} points back ('{t.text} {t.head.text}')"
        if _bare_comparative(sentence, t):
            return f"the sentence {sentence.text[:40]!r} compares with something before it ({t.text!r})"
    return None


# Comparatives of time, age and price that need nothing before them ("later this year",
# "markets closed lower").
_LOOSE_COMPARATIVES = frozenset("later earlier further longer older younger higher lower".split())


def _bare_comparative(sentence: Any, t: Any) -> bool:
    """Whether ``t`` compares with something outside its sentence: a comparative with no
    "than" in the sentence ("Whitfield was more understated"; not "more than 200")."""
    if t.tag_ not in ("JJR", "RBR") or t.lower_ in _LOOSE_COMPARATIVES or any(w.lower_ == "than" for w in sentence):
        return False
    if t.lower_ in ("more", "less"):  # "more understated", not "more people" or "more" alone
        return t.head.pos_ in ("ADJ", "ADV") and t.dep_ == "advmod"
    return True


def _order_problem(spans: Sequence[Any], order: Sequence[int]) -> str | None:
    """Why ``order`` (the lead first) breaks the text, or ``None``: a sentence comes before
    one it leans on, or one whose pronoun leans on the sentence before it follows another
    now ("They said ..." after a sentence about other people)."""
    lead_person = any(t.ent_type_ == "PERSON" for t in spans[0])
    for at in range(1, len(order)):
        j = order[at]
        if order[at - 1] != j - 1:
            # a sentence that leans on the one it followed in any way (a connective, "That
            # was ...", a noun taken up with "the") stays right after it
            problem = _follows_its_predecessor(spans[j]) or _leans_on(spans[j], spans[j - 1], spans[0]) or next(
                (p for p in (_pronoun_problem(spans[j], i, lead_person) for i in range(len(spans[j]))) if p), None)
            if problem:
                return problem + ", and the sentence before it is no longer the one it followed"
    for at, j in enumerate(order):
        for i in order[at + 1 :]:
            if 0 < i < j:
                problem = _leans_on(spans[j], spans[i], spans[0])
                if problem:
                    return problem
    return None


_COLLECTIVE = frozenset("team club government company police staff family council party".split())


def _sentence_spans(text: str, sentences: Sequence[str]) -> list[Any] | None:
    """The sentences as spans of ``text``'s spaCy parse (``None`` when they do not align)."""
    doc = _parse(text)
    spans = []
    pos = 0
    for sentence in sentences:
        start = text.find(sentence, pos)
        span = doc.char_span(start, start + len(sentence), alignment_mode="expand") if start >= 0 else None
        if span is None:
            return None
        spans.append(span)
        pos = start + len(sentence)
    return spans


# Words inside a sentence that tie it to the one before ("By Saturday, though, ...").
_MID_MARKERS = re.compile(r"\b(?:though|however|also|too|instead|still|as a result|therefore|thus|then|"
                          r"meanwhile|nevertheless|even so|in reality|in fact|by contrast)\b", re.IGNORECASE)
# Reported speech: the sentence belongs next to the quotation it introduces or closes.
_SPEECH = re.compile(r"\b(?:said|says|say|told|tells|added|adds|explains?|explained|recalls?|recalled|"
                     r"asked|asks|warned|warns|noted|notes|stressed|stresses|cautioned|insisted|according to)\b")
# A closing line: a call to action or a sign-off stays last.
_CLOSING = re.compile(r"^(?:If you|Please|Apply|Contact|Call|Email|Visit|Join|Book|Sign up|Register|Find out|"
                      r"Thank|Thanks|See you|Don't|Do not|Get|Send|Write|Click|Come|Tickets)\b")
# A sign-off of a letter or a postcard ("Yours, a tired fan", "- Rachel, Kadikoy") stays last.
_SIGN_OFF = re.compile(r"^(?:Yours|Best wishes|Best|Love|Regards|Kind regards|Warm regards|Cheers|All the best|"
                       r"More soon|Take care)\b|^[-\u2013\u2014]")
# A personal text (a letter, a postcard, a newsletter, an anecdote) is told in its order:
# the first person singular outside quotations, or the plural in a text that greets or
# signs off like a letter.
_FIRST_SINGULAR = re.compile(r"\bI\b|\b(?:[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b")
_FIRST_PLURAL = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Oo]urs|[Uu]s|[Oo]urselves)\b")
_LETTER_MARK = re.compile(r"^(?:Dear|Greetings|Hello|Hi|Hey)\b|\b(?:letter|postcard|newsletter)\b", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")


def _personal_text(sentences: Sequence[str]) -> str | None:
    """Why the text is a personal one whose order is the writer's own, or ``None``: it says
    "I"/"my" outside quotations, or "we"/"our" and greets or signs off like a letter."""
    text = _QUOTED.sub(" ", " ".join(sentences))
    word = _FIRST_SINGULAR.search(text)
    if word:
        return f"the text is told in the first person ({word.group(0)!r}): a personal account keeps its order"
    word = _FIRST_PLURAL.search(text)
    if word and (_LETTER_MARK.search(sentences[0]) or _SIGN_OFF.match(sentences[-1].strip())):
        return f"the text is a letter in the first person ({word.group(0)!r}): it keeps its order"
    return None


def _quotes_cross(sentences: Sequence[str]) -> bool:
    """Whether a quotation runs over a sentence boundary (a sentence's quotes do not pair up)."""
    for sentence in sentences:
        straight = sentence.count('"')
        if straight % 2 or sentence.count("\u201c") != sentence.count("\u201d"):
            return True
    return False


def _pinned(sentences: Sequence[str], spans: Sequence[Any]) -> set[int]:
    """The sentences that keep their place: the lead; one with a quotation or reported
    speech (a quote stays by its attribution, a pronoun by its referent); one with a marker
    that ties it to the one before ("though", "as a result"); the last sentence when it is a
    call to action, a sign-off or an exclamation ("Apply with your CV ...", "Progress!")."""
    pinned = {0}
    for i, sentence in enumerate(sentences):
        if re.search(r"[\"\u201c\u201d]", sentence) or _SPEECH.search(sentence) or _MID_MARKERS.search(sentence):
            pinned.add(i)
    last = len(sentences) - 1
    root = spans[last].root
    imperative = root.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in root.children)
    if imperative or _CLOSING.match(sentences[last]) or _SIGN_OFF.match(sentences[last]) or sentences[last].rstrip().endswith("!") or len(
            sentences[last].split()) < 3:
        pinned.add(last)
    return pinned


def rewrite_reorder(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR7: the same sentences in another order. The first sentence, which introduces what
    the text is about, stays first (as in the paper's Table 4), and so does every sentence
    :func:`_pinned` holds in place; the others change places where none of them leans on
    one it would now precede. A text whose quotation runs over sentences is refused."""
    sentences = split_sentences(text)
    if sentences is None:
        return Rewrites((), "the text has line breaks (paragraphs are not reordered)")
    if len(sentences) < 3:
        return Rewrites((), f"{len(sentences)} sentence(s): the lead stays first, so at least three are needed")
    if _quotes_cross(sentences):
        return Rewrites((), "a quotation runs over more than one sentence: its sentences stay in order")
    personal = _personal_text(sentences)
    if personal:
        return Rewrites((), personal)
    spans = _sentence_spans(text, sentences)
    if spans is None:
        return Rewrites((), "the sentences could not be aligned with the parse")
    n = len(sentences)
    pinned = _pinned(sentences, spans)
    free = [i for i in range(n) if i not in pinned]
    if len(free) < 2:
        return Rewrites((), f"{len(free)} sentence(s) may move (the lead, quotations, reported speech, "
                            "sentences tied to the one before and a closing line keep their place)")
    identity = tuple(range(n))
    # Only two neighbouring sentences that each stand on their own change places, and never
    # the closing one: larger shuffles moved introductions to the end and closing lines into
    # the middle in every audit of news text.
    alone = {i for i in free if i != n - 1 and _stands_alone(spans[i], spans)}
    # the sentence after the pair follows another sentence now: it must not continue the item
    # it followed ("The measures are expected ...", "Coach Eoin Gallagher described his side's ...")
    orders = [identity[:i] + (i + 1, i) + identity[i + 2:] for i in range(1, n - 1)
              if i in alone and i + 1 in alone and (i + 2 >= n or not _continues_an_item(sentences[i + 2], spans[i + 2]))]
    if not orders:
        return Rewrites((), "no two neighbouring sentences stand on their own (each opening on a date, a place or "
                            "a full name, with no pronoun and nothing taken up from another sentence)")
    problems: list[str] = []
    options = []
    for order in orders:
        problem = _order_problem(spans, order)
        if problem:
            problems.append(problem)
            continue
        options.append(Rewrite(" ".join(sentences[i] for i in order), f"sentences reordered {[i + 1 for i in order]}",
                               (), {"family": "reorder", "order": list(order)}))
    return _pick(options, rng, k, None if options else _why(problems, "no order keeps the text readable"))


# A name of several capitalised words ("Dr Pedro Alvarez", "Dr. Ana Costa"); group 1 is its
# last word, the short name a later sentence may call the person by.
_FULL_NAME = re.compile(r"\b(?:[A-Z][a-z]+\.? )+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")


REWRITERS: dict[str, Rewriter] = {
    "name": rewrite_name,
    "country": rewrite_country,
    "occupation": rewrite_occupation,
    "punctuation": rewrite_punctuation,
    "noun": rewrite_noun,
    "verb": rewrite_verb,
    "reorder": rewrite_reorder,
}

