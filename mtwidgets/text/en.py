"""English rewriters for the seven MR families of the Chinese NLP paper (section 3).

One rewriter per family (:data:`REWRITERS`, keyed by :data:`~mtwidgets.text.rewrite.FAMILIES`),
each ``(text, *, rng, k=1) -> Rewrites``. Every rewrite must read as a text a person would
write and keep what the relation promises; where that cannot be defended the rewriter
refuses with its reason:

- ``name`` (MRPpbs1): a person's name -> a name of the same gender (every mention of that
  person: full name, surname, given name), so the pronouns stay right; a name whose gender
  is unknown is refused.
- ``country`` (MRPpbs2): a country -> another real country, every mention, with "the" where
  the country takes it ("the Netherlands") and none where the name is a modifier; refused
  when the text also names the country by its adjective ("French") or by one of its cities.
- ``occupation`` (MRPpbs3): an occupation noun -> another of the same field and plural,
  every mention, with "a"/"an" fixed.
- ``punctuation`` (MRPpbs4): a punctuation mark -> an equivalent mark: straight quotes ->
  typographic quotes, a spaced hyphen -> a dash, "..." -> an ellipsis; failing those, a
  statement's full stop -> an exclamation mark (the tone changes, the content does not: the
  paper reads MR4 as a change of tone).
- ``noun``/``verb`` (MRPsbs5/6): a noun or verb -> its first reviewed synonym
  (:func:`mtwidgets.lang.synonyms_en.vetted_synonyms`, the paper's "highest score" choice),
  inflected like the original, every occurrence of that lemma.
- ``reorder`` (MRPr7): the sentences in another order; refused when a later sentence leans
  on an earlier one (a connective, a pronoun, "also", ...).

spaCy (:mod:`mtwidgets.lang.pipelines`) tags the text; its parse is cached by text.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

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


def article_for(word: str) -> str:
    """"an" before a vowel sound, else "a" (spelling rules with the common exceptions)."""
    w = word.lower()
    if w.startswith(("hour", "honest", "honor", "honour", "heir")):
        return "an"
    if w.startswith(("uni", "use", "usu", "uti", "eu", "one", "once")) or re.match(r"u[bcdfgklmnprstvz][aeiou]", w):
        return "a"
    return "an" if w[:1] in "aeiou" else "a"


def _article_fix(doc: Any, token: Any, new_word: str) -> Replacement | None:
    """The replacement of the indefinite article before ``token`` when ``new_word`` needs the
    other one ("a teacher" -> "an engineer")."""
    det = _article_before(doc, token)
    if det is None:
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
_NAME_WORD = re.compile(r"^[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)*$")


@lru_cache(maxsize=2)
def _name_pool(gender: str) -> tuple[tuple[str, str], ...]:
    """(given name, surname) pairs of ``gender`` whose parts are both on faker's en_US lists
    (common, easy to read in an English news text), surnames that are common words left out."""
    from faker.providers.person.en_US import Provider

    from ..re.lexicons import gendered_person_names

    given = set(Provider.first_names_male if gender == "male" else Provider.first_names_female)
    surnames = set(Provider.last_names)
    pairs = [tuple(n.split(" ", 1)) for n in gendered_person_names(gender, 300)]
    return tuple((f, s) for f, s in pairs if f in given and s in surnames and not _common_word(s))


def _common_word(name: str) -> bool:
    """Whether a surname is also a common English word ("Young", "King", "Green"): alone in a
    later sentence ("Young had been one of the favourites") it reads as the word."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - wordfreq comes with the NER extra
        return False
    return zipf_frequency(name.lower(), "en") >= 4.75


class _Person:
    """One person named in a text: gender, given name and surname as first written, and
    the character spans of every mention."""

    def __init__(self, first: str | None, last: str | None, gender: str) -> None:
        self.first, self.last, self.gender = first, last, gender
        self.mentions: list[tuple[int, int, str]] = []  # (start, end, "full"|"first"|"last")

    @property
    def label(self) -> str:
        return " ".join(p for p in (self.first, self.last) if p)


def _people(doc: Any) -> tuple[list[_Person], list[str]]:
    from ..re.lexicons import person_gender

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
        gender = person_gender(name, before)
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
    from ..re.lexicons import gendered_first_names

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


def _name_options(text: str, doc: Any, person: _Person, rng: random.Random, n: int) -> list[Rewrite]:
    words = set(re.findall(r"[A-Za-z]+", text))
    pool = [fl for fl in _name_pool(person.gender) if fl[0] not in words and fl[1] not in words]
    out = []
    for first, last in rng.sample(pool, min(n, len(pool))):
        new = {"full": f"{first} {last}", "first": first, "last": last}
        reps = [Replacement(s, e, text[s:e], new[kind]) for s, e, kind in person.mentions]
        if person.first is None or person.last is None:  # one-word mention: replace by one word
            reps = [Replacement(s, e, text[s:e], first if person.first else last) for s, e, _ in person.mentions]
        shown = " ".join(x for x in (first if person.first else None, last if person.last else None) if x)
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
        options.extend(_name_options(text, doc, person, rng, max(1, k)))
    return _pick(options, rng, k, _why(why, "") or None)


# -- MR2: countries ---------------------------------------------------------------------------
# Countries a news text names, with the article English uses before them, by region: a
# replacement stays in the region, so what the text says stays plausible (a ski race in
# Austria moves to Switzerland, not to Vietnam).
REGIONS: dict[str, tuple[str, ...]] = {
    "europe": ("Austria", "Belgium", "Bulgaria", "Croatia", "Denmark", "Estonia", "Finland", "France", "Germany",
               "Greece", "Hungary", "Iceland", "Ireland", "Italy", "Latvia", "Lithuania", "Norway", "Poland",
               "Portugal", "Romania", "Slovenia", "Spain", "Sweden", "Switzerland", "Ukraine", "the Netherlands",
               "the United Kingdom", "the Czech Republic"),
    "asia": ("China", "India", "Indonesia", "Japan", "Malaysia", "Pakistan", "Singapore", "South Korea", "Thailand",
             "Vietnam", "the Philippines", "Taiwan"),
    "africa": ("Egypt", "Ethiopia", "Ghana", "Kenya", "Morocco", "Nigeria", "Senegal", "South Africa", "Tunisia",
               "Tanzania", "Uganda"),
    "americas": ("Argentina", "Brazil", "Canada", "Chile", "Colombia", "Mexico", "Peru", "Uruguay",
                 "the United States", "the Dominican Republic", "Ecuador"),
    "oceania": ("Australia", "New Zealand", "Fiji"),
    "middle east": ("Israel", "Jordan", "Turkey", "the United Arab Emirates", "Qatar", "Oman"),
}
COUNTRIES: tuple[str, ...] = tuple(c for countries in REGIONS.values() for c in countries)
_REGION_OF = {c: r for r, countries in REGIONS.items() for c in countries}
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


def _country_refusal(doc: Any, canonical: str) -> str | None:
    from ..re.lexicons import city_countries, country_of_demonym

    plain = canonical.removeprefix("the ")
    for ent in doc.ents:
        if ent.label_ == "NORP" and country_of_demonym(ent.text) == plain:
            return f"the text also names {plain} by its adjective {ent.text!r}"
        if ent.label_ in ("GPE", "LOC") and _canonical(ent.text.removeprefix("the ")) is None:
            if plain in city_countries(ent.text):
                return f"the text names {ent.text!r}, a city of {plain}"
    return None


def _country_form(target: str, at_start: bool) -> str:
    return _capital("T", target) if at_start and target.startswith("the ") else target


def rewrite_country(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR2: replace one country (every mention) by another real country."""
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
        problem = _country_refusal(doc, canonical)
        if problem:
            why.append(problem)
            continue
        pool = [c for c in REGIONS[_REGION_OF[canonical]] if c not in present]
        if any(m[2] for m in mentions):
            pool = [c for c in pool if not c.startswith("the ")]
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
    "teaching": ("teacher", "educator"),
    "higher education": ("lecturer", "professor"),
    "medicine": ("doctor", "physician"),
    "science": ("scientist", "researcher"),
    "law": ("lawyer", "attorney", "solicitor"),
    "accounting": ("accountant", "auditor", "bookkeeper"),
    "economics": ("economist", "analyst"),
    "software": ("programmer", "developer", "coder"),
    "engineering": ("engineer", "technician"),
    "building trades": ("electrician", "plumber", "carpenter", "bricklayer", "welder"),
    "news": ("journalist", "reporter", "correspondent"),
    "singing": ("singer", "vocalist"),
    "visual art": ("painter", "artist"),
    "writing": ("writer", "novelist", "author"),
    "kitchen": ("chef", "cook"),
}
_FIELD_OF = {w: f for f, words in OCCUPATIONS.items() for w in words if " " not in w}
# Words before an occupation that make it part of a title ("head teacher").
_TITLE_WORDS = frozenset({"head", "deputy", "assistant", "supply", "student", "trainee", "chief", "senior", "junior"})


def rewrite_occupation(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR3: replace one occupation noun (every mention of it) by another of its field."""
    from ..lang.inflect import inflect

    doc = _parse(text)
    by_lemma: dict[str, list[Any]] = {}
    fixed: set[str] = set()
    for t in doc:
        if t.pos_ == "NOUN" and t.tag_ in ("NN", "NNS") and t.lemma_.lower() in _FIELD_OF and not t.ent_type_:
            if t.dep_ == "compound" or (t.i > 0 and doc[t.i - 1].lower_ in _TITLE_WORDS):
                fixed.add(t.lemma_.lower())
                continue
            by_lemma.setdefault(t.lemma_.lower(), []).append(t)
    for lemma in fixed:  # a word in a fixed phrase is not replaced anywhere in the text
        by_lemma.pop(lemma, None)
    if not by_lemma:
        if fixed:
            return Rewrites((), f"the occupation {sorted(fixed)[0]!r} is part of a fixed phrase")
        return Rewrites((), "no occupation noun of the list")
    options: list[Rewrite] = []
    for lemma, tokens in by_lemma.items():
        peers = [w for w in OCCUPATIONS[_FIELD_OF[lemma]] if w != lemma and " " not in w]
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
    return _pick(options, rng, k, None)


# -- MR4: punctuation -------------------------------------------------------------------------
_ABBREV_END = re.compile(r"(?:\b[A-Z]\.|\b(?:Mr|Mrs|Ms|Dr|St|Inc|Ltd|Co|Corp|Jr|Sr|vs|etc|No)\.)$")
_QUOTE_PAIR = re.compile(r'"([^"\n]{1,300})"')
_SPACED_HYPHEN = re.compile(r"(?<=\w) (?:-|--) (?=\w)")
_DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")


def _full_stops(text: str) -> list[int]:
    """Positions of full stops that end a statement: after a word, not an abbreviation or a
    number, outside quotes, followed by the end or a space and a capital."""
    out = []
    quotes = 0
    for i, ch in enumerate(text):
        if ch in '"\u201c\u201d':
            quotes += 1
            continue
        if ch != "." or quotes % 2:
            continue
        before, after = text[:i], text[i + 1 :]
        if not before or not before[-1].isalpha() or _ABBREV_END.search(before + "."):
            continue
        if text[i - 1 : i + 2].count(".") > 1:
            continue
        if after and not re.match(r"\s+[A-Z\"\u201c]", after):
            continue
        out.append(i)
    return out


def rewrite_punctuation(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR4: replace a punctuation mark by an equivalent one (see the module notes)."""
    options: list[Rewrite] = []
    for m in _QUOTE_PAIR.finditer(text):
        reps = [Replacement(m.start(), m.start() + 1, '"', "\u201c"), Replacement(m.end() - 1, m.end(), '"', "\u201d")]
        options.append(_rewrite(text, reps, "straight quotes -> typographic quotes", family="punctuation",
                                kind="quotes"))
    for m in _SPACED_HYPHEN.finditer(text):
        reps = [Replacement(m.start(), m.end(), m.group(0), " \u2014 ")]
        options.append(_rewrite(text, reps, "spaced hyphen -> dash", family="punctuation", kind="dash"))
    for m in _DOTS.finditer(text):
        reps = [Replacement(m.start(), m.end(), "...", "\u2026")]
        options.append(_rewrite(text, reps, "'...' -> ellipsis '\u2026'", family="punctuation", kind="ellipsis"))
    if options:  # an exact typographic equivalent first: the text says exactly the same
        return _pick(options, rng, k, None)
    for i in _full_stops(text):
        options.append(_rewrite(text, [Replacement(i, i + 1, ".", "!")], "full stop -> exclamation mark",
                                family="punctuation", kind="exclamation"))
    why = None if options else (
        "no punctuation mark with an equivalent: no straight quotes, spaced hyphen, '...' or full stop "
        "ending a statement")
    return _pick(options, rng, k, why)


# -- MR5 / MR6: synonyms ----------------------------------------------------------------------
_SKIP_VERBS = frozenset({"be", "have", "do", "will", "would", "can", "could", "may", "might", "shall", "should",
                         "must", "get", "let"})
_NOUN_TAGS = ("NN", "NNS")
_VERB_TAGS = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")


def _synonym_for(lemma: str, pos: str) -> str | None:
    from ..lang.synonyms_en import vetted_synonyms

    for cand in vetted_synonyms(lemma, pos):
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
        if t.text[:1].isupper() and not t.is_sent_start:
            continue
        found.setdefault(lemma, []).append(t)
    return found, why


def _rewrite_synonym(text: str, pos: str, rng: random.Random, k: int) -> Rewrites:
    from ..lang.inflect import inflect

    doc = _parse(text)
    found, why = _synonym_targets(doc, pos)
    what = "noun" if pos == "NOUN" else "verb"
    options: list[Rewrite] = []
    for lemma, tokens in found.items():
        synonym = _synonym_for(lemma, pos)
        if synonym is None:
            continue
        reps = []
        for t in tokens:
            word = inflect(synonym, t.tag_)
            if word is None:
                break
            reps.append(Replacement(t.idx, t.idx + len(t.text), t.text, _capital(t.text, word)))
            if pos == "NOUN":
                fix = _article_fix(doc, t, word)
                if fix is not None:
                    reps.append(fix)
        else:
            options.append(_rewrite(text, reps, f"{what} {lemma!r} -> synonym {synonym!r}", family=what,
                                    old=lemma, new=synonym))
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
therefore thus hence nevertheless nonetheless later afterwards finally first second third next similarly likewise
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
    lead_nouns = {t.lemma_.lower() for t in lead if t.pos_ == "NOUN"}
    earlier_nouns = {t.lemma_.lower() for t in earlier if t.pos_ == "NOUN"} - lead_nouns
    lead_person = any(t.ent_type_ == "PERSON" for t in lead)
    for i, t in enumerate(sentence):
        w = t.lower_
        nxt = sentence[i + 1].lower_ if i + 1 < len(sentence) else ""
        if w in _BACK_WORDS and not (w in ("this", "these") and nxt in _TIME_NOUNS):
            return f"the sentence {sentence.text[:40]!r} refers back ({t.text!r})"
        before = sentence[:i]
        if w in _PERSON_PRONOUNS and not lead_person and not any(b.ent_type_ == "PERSON" for b in before):
            return f"{t.text!r} in {sentence.text[:40]!r} has no name before it"
        if w in _THING_PRONOUNS and not any(b.tag_ in ("NN", "NNP") for b in before):
            return f"{t.text!r} in {sentence.text[:40]!r} has no noun before it in its sentence"
        if w in _GROUP_PRONOUNS and not any(b.tag_ in ("NNS", "NNPS") or b.lower_ in _COLLECTIVE for b in before):
            return f"{t.text!r} in {sentence.text[:40]!r} has no plural noun before it in its sentence"
        if t.pos_ == "NOUN" and t.lemma_.lower() in earlier_nouns and any(
            c.lower_ == "the" for c in t.children
        ):
            return f"'the {t.text}' in {sentence.text[:40]!r} takes up a noun of the sentence before"
    for first_name, last in _FULL_NAME.findall(earlier.text):
        if f"{first_name} {last}" in lead.text:
            continue
        if re.search(rf"\b{re.escape(last)}\b", sentence.text) and f"{first_name} {last}" not in sentence.text:
            return f"a sentence calls {first_name} {last} by the short name {last!r}"
    return None


def _order_problem(spans: Sequence[Any], order: Sequence[int]) -> str | None:
    """Why ``order`` (the lead first) breaks the text, or ``None``."""
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


def rewrite_reorder(text: str, *, rng: random.Random, k: int = 1) -> Rewrites:
    """MR7: the same sentences in another order. The first sentence, which introduces what
    the text is about, stays first (as in the paper's Table 4); the others change places
    where none of them leans on one it would now precede."""
    sentences = split_sentences(text)
    if sentences is None:
        return Rewrites((), "the text has line breaks (paragraphs are not reordered)")
    if len(sentences) < 3:
        return Rewrites((), f"{len(sentences)} sentence(s): the lead stays first, so at least three are needed")
    spans = _sentence_spans(text, sentences)
    if spans is None:
        return Rewrites((), "the sentences could not be aligned with the parse")
    n = len(sentences)
    identity = tuple(range(n))
    if n <= 6:
        orders = [(0, *p) for p in itertools.permutations(range(1, n)) if (0, *p) != identity]
    else:
        seen: set[tuple[int, ...]] = set()
        for _ in range(200):
            rest = list(range(1, n))
            rng.shuffle(rest)
            seen.add((0, *rest))
        orders = sorted(seen - {identity})
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


_FULL_NAME = re.compile(r"\b([A-Z][a-z]+) ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")


REWRITERS: dict[str, Rewriter] = {
    "name": rewrite_name,
    "country": rewrite_country,
    "occupation": rewrite_occupation,
    "punctuation": rewrite_punctuation,
    "noun": rewrite_noun,
    "verb": rewrite_verb,
    "reorder": rewrite_reorder,
}

