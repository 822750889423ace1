"""The rules of the ``re-patterns`` model, in the order they are tried.

A rule looks at a :class:`Pair`: the syntactic head tokens of the two marked mentions, their
TACRED entity types and the dependency path between them, written as one string::

    John nsubj> be <attr father <poss Mary

``dep>`` climbs from a token to its syntactic head, ``<dep`` descends to a child, and the
tokens in between appear as lower-cased lemmas (the two arguments themselves are left out
of the string that rules match). Most rules are regular expressions over that string plus
a check of the two entity types; the relational-noun rule splits the path at a noun such
as *father* or *chairman* and reads which argument is the noun's referent and which its
possessor. The first rule that fires gives the label; the model answers ``no_relation``
when none does. Labels describe the tail relative to the head (TACRED's convention).

The rules are deliberately syntactic and simple: they are right on plain sentences and
fail in ways a metamorphic test can show (negation, coordination, long attachments).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

PER = frozenset({"PERSON"})
ORG = frozenset({"ORGANIZATION"})
GEO = frozenset({"CITY", "STATE_OR_PROVINCE", "COUNTRY", "LOCATION"})
DATE = frozenset({"DATE"})
MEMBER_STATES = ORG | frozenset({"COUNTRY", "STATE_OR_PROVINCE", "LOCATION"})


@dataclass(frozen=True)
class Pair:
    """One relation input as the rules see it."""

    text: str
    head: Any  # spaCy Span of the head mention
    tail: Any  # spaCy Span of the tail mention
    head_type: str
    tail_type: str
    tokens: tuple[Any, ...]  # the path head root .. tail root; () when there is none

    @cached_property
    def path(self) -> str:
        return signature(self.tokens)

    @cached_property
    def rpath(self) -> str:
        return signature(self.tokens[::-1])

    def shown(self) -> str:
        """The path with the two arguments' head words at its ends."""
        if not self.tokens:
            return f"{self.head.root.text} (no path) {self.tail.root.text}"
        return f"{self.tokens[0].text} {self.path} {self.tokens[-1].text}"


@dataclass(frozen=True)
class Match:
    label: str
    confidence: float
    why: str


def dep_path(a: Any, b: Any) -> tuple[Any, ...]:
    """Tokens from ``a`` up to the lowest common ancestor and down to ``b`` (() if none)."""
    if a.i == b.i:
        return ()
    up = [a, *a.ancestors]
    where = {t.i: n for n, t in enumerate(up)}
    down: list[Any] = []
    for t in (b, *b.ancestors):
        if t.i in where:
            return tuple(up[: where[t.i] + 1] + down[::-1])
        down.append(t)
    return ()  # different sentences


def signature(tokens: Sequence[Any]) -> str:
    parts: list[str] = []
    for n in range(len(tokens) - 1):
        a, b = tokens[n], tokens[n + 1]
        parts.append(f"{a.dep_}>" if a.head.i == b.i else f"<{b.dep_}")
        if n + 2 < len(tokens):
            parts.append(b.lemma_.lower())
    return " ".join(parts)


# Place and date labels picked by the tail's type; LOCATION (a GPE the lexicons could not
# refine) is read as a city, the commonest case in news text, at a lower confidence.
PLACE_LABELS: dict[str, dict[str, str]] = {
    "birth": {"CITY": "per:city_of_birth", "STATE_OR_PROVINCE": "per:stateorprovince_of_birth",
              "COUNTRY": "per:country_of_birth", "DATE": "per:date_of_birth"},
    "death": {"CITY": "per:city_of_death", "STATE_OR_PROVINCE": "per:stateorprovince_of_death",
              "COUNTRY": "per:country_of_death", "DATE": "per:date_of_death"},
    "residence": {"CITY": "per:cities_of_residence", "STATE_OR_PROVINCE": "per:stateorprovinces_of_residence",
                  "COUNTRY": "per:countries_of_residence"},
    "headquarters": {"CITY": "org:city_of_headquarters", "STATE_OR_PROVINCE": "org:stateorprovince_of_headquarters",
                     "COUNTRY": "org:country_of_headquarters"},
}
LOCATION_DISCOUNT = 0.7


def resolve(label: str, other_type: str, confidence: float) -> tuple[str, float] | None:
    """``"@birth"`` etc. become the label for the place's granularity; others pass through."""
    if not label.startswith("@"):
        return label, confidence
    table = PLACE_LABELS[label[1:]]
    if other_type == "LOCATION":
        return table["CITY"], round(confidence * LOCATION_DISCOUNT, 3)
    return (table[other_type], confidence) if other_type in table else None


# Macros for the path patterns: how a clause's subject reaches its verb, either as its
# grammatical subject or as the noun a relative/reduced clause hangs from ("Smith, who
# works for ..."; "Siemens, based in ...").
MACROS = {
    "S": r"(?:nsubj>|<relcl|<acl)",
    "SP": r"(?:nsubjpass>|<relcl|<acl)",
    # a state or country after a city ("born in Springfield, Illinois" with tail Illinois)
    "END": r"(?: \S+ <(?:appos|npadvmod|conj))?",
}


def _compile(patterns: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p.format(**MACROS)) for p in patterns)


@dataclass(frozen=True)
class Rule:
    """A named rule: ``match(pair)`` gives a :class:`Match` or ``None``."""

    name: str
    confidence: float
    description: str

    def match(self, p: Pair) -> Match | None:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class PathRule(Rule):
    """Fires when a pattern matches the whole head->tail path and the types fit.

    ``inverse`` is the label given when a pattern matches the path read from the tail to
    the head instead (types swapped), so one pattern serves a relation and its inverse.
    """

    head: frozenset[str] = frozenset()
    tail: frozenset[str] = frozenset()
    patterns: tuple[str, ...] = ()
    label: str = ""
    inverse: str | None = None
    compiled: tuple[re.Pattern[str], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", _compile(self.patterns))

    def match(self, p: Pair) -> Match | None:
        tries = [(p.head_type, p.tail_type, p.path, self.label, p.tail_type, "head->tail")]
        if self.inverse:
            tries.append((p.tail_type, p.head_type, p.rpath, self.inverse, p.head_type, "tail->head"))
        for first, second, path, label, other, way in tries:
            if first in self.head and second in self.tail and path:
                for text, rx in zip(self.patterns, self.compiled):
                    if rx.fullmatch(path):
                        found = resolve(label, other, self.confidence)
                        if found:
                            shown = text.replace("(?:", "(").replace("{END}", "")
                            shown = shown.replace("{SP}", "subjpass").replace("{S}", "subj")
                            return Match(found[0], found[1], f"{way} path matches '{shown}'")
        return None


@dataclass(frozen=True)
class FunctionRule(Rule):
    """A rule written as a function; its ``confidence`` is nominal, each Match sets its own."""

    fn: Callable[[Pair], Match | None] = lambda p: None

    def match(self, p: Pair) -> Match | None:
        return self.fn(p)


# -- relational nouns -------------------------------------------------------------------
@dataclass(frozen=True)
class RelNoun:
    """A noun that relates the entity it names (referent) to another (possessor).

    In "Mary's father, John", *father* names John (referent) relative to Mary (possessor).
    ``as_referent`` is the label when the head is the referent, ``as_possessor`` when the
    head is the possessor (``None``: TACRED has no label for that direction).
    """

    lemmas: frozenset[str]
    referent: frozenset[str]
    possessor: frozenset[str]
    as_referent: str | None
    as_possessor: str | None
    confidence: float = 0.9


def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


ROLE_WORDS = _words(
    "president chairman chairwoman chair director spokesman spokeswoman spokesperson minister "
    "governor editor founder coach manager secretary treasurer executive officer ceo head leader "
    "chief employee official analyst economist professor lecturer researcher scientist engineer "
    "reporter correspondent columnist lawyer attorney adviser advisor consultant partner vice"
)
RELATIONAL_NOUNS: tuple[RelNoun, ...] = (
    RelNoun(_words("father mother parent dad mom stepfather stepmother"), PER, PER, "per:children", "per:parents"),
    RelNoun(_words("son daughter child kid stepson stepdaughter"), PER, PER, "per:parents", "per:children"),
    RelNoun(_words("wife husband spouse widow widower"), PER, PER, "per:spouse", "per:spouse"),
    RelNoun(_words("brother sister sibling"), PER, PER, "per:siblings", "per:siblings"),
    RelNoun(_words("cousin uncle aunt nephew niece grandfather grandmother grandparent grandson "
                   "granddaughter grandchild in-law"), PER, PER, "per:other_family", "per:other_family", 0.85),
    RelNoun(_words("subsidiary unit division affiliate arm"), ORG, ORG, "org:parents", "org:subsidiaries", 0.85),
    RelNoun(_words("parent owner"), ORG, ORG, "org:subsidiaries", "org:parents", 0.8),
    RelNoun(_words("member"), MEMBER_STATES, ORG, "org:member_of", "org:members", 0.85),
    RelNoun(_words("founder co-founder cofounder"), PER, ORG, "per:employee_of", "org:founded_by", 0.85),
    RelNoun(_words("graduate alumnus alumna student"), PER, ORG, "per:schools_attended", None, 0.8),
    RelNoun(_words("resident"), PER, GEO, "@residence", None, 0.8),
    # TACRED folds membership of a person into employee_of
    RelNoun(ROLE_WORDS | {"member"}, PER, ORG, "per:employee_of", "org:top_members/employees", 0.85),
)

# How the referent reaches the noun (read from the referent towards the noun); the title
# rule reuses them, a title being a relational noun without a possessor.
REFERENT_PATTERNS = (
    r"appos>",                                   # "Mary's father, John": the name in apposition
    r"<appos",                                   # "John, Mary's father, ...": the noun in apposition
    r"<compound|<nmod",                          # "chairman John Smith", parser's nmod for "mother-in-law Ann"
    r"nsubj> (?:be|become|remain) <attr",        # "John is Mary's father": copula
    r"nsubj> serve <prep as <pobj",              # "served as chairman of ..."
    r"nsubjpass> (?:name|appoint|elect) <oprd",  # "was named chairman of ..."
)
REFERENT_LINKS = _compile(REFERENT_PATTERNS)
# The parser's habit with "His grandson Tom lives ...": noun and name both as subjects.
TWO_SUBJECTS = re.compile(r"nsubj> \S+ <nsubj")
# How the possessor reaches the noun.
POSSESSOR_LINKS = _compile((
    r"poss>",                                    # "Mary's father", "his wife", "Microsoft's spokesman"
    r"pobj> (?:of|at|for|with) prep>",           # "the father of Mary", "a professor at Harvard"
    r"compound>|nmod>",                          # "Microsoft chairman Bill Gates" (nmod: "Apple chief executive")
    r"nsubj> have <dobj",                        # "He has a daughter, Anna"
))


def _noun_key(tok: Any) -> str:
    if tok.doc[tok.i + 1 : tok.i + 5].text.replace(" ", "") == "-in-law":
        return "in-law"
    return tok.lemma_.lower()


def _link(links: Sequence[re.Pattern[str]], path: str) -> bool:
    return any(rx.fullmatch(path) for rx in links)


def _referent_link(path: str, ref: Any, noun: Any) -> float | None:
    """1.0 for a regular link, a discount for the two-subjects parse, None for no link."""
    if _link(REFERENT_LINKS, path):
        return 1.0
    if TWO_SUBJECTS.fullmatch(path) and ref.start == noun.i + 1:  # only right after the noun
        return 0.7
    return None


def _noun_splits(p: Pair) -> list[tuple[Any, str, str]]:
    """(noun, head->noun link, tail->noun link) for each noun the path passes through."""
    toks = p.tokens
    out = [(toks[k], signature(toks[: k + 1]), signature(toks[k:][::-1])) for k in range(1, len(toks) - 1)]
    # "Facebook's subsidiary Instagram": the parser hangs the possessive on the name and
    # makes the noun its compound; read it as if the noun were on the path.
    if len(toks) == 2 and p.path in ("poss>", "<poss"):
        name = toks[1] if p.path == "poss>" else toks[0]
        for child in name.children:
            if child.dep_ in ("compound", "nmod") and child.i < name.i:
                name_link = f"<{child.dep_}"
                out.append((child, "poss>", name_link) if p.path == "poss>" else (child, name_link, "poss>"))
    return out


def relational_noun(p: Pair) -> Match | None:
    for noun, h_link, t_link in _noun_splits(p):
        if noun.pos_ not in ("NOUN", "PROPN"):
            continue
        key = _noun_key(noun)
        for entry in RELATIONAL_NOUNS:
            if key not in entry.lemmas:
                continue
            for head_is_ref in (True, False):
                label = entry.as_referent if head_is_ref else entry.as_possessor
                ref, pos = (p.head, p.tail) if head_is_ref else (p.tail, p.head)
                ref_t, pos_t = (p.head_type, p.tail_type) if head_is_ref else (p.tail_type, p.head_type)
                ref_link, pos_link = (h_link, t_link) if head_is_ref else (t_link, h_link)
                if label is None or ref_t not in entry.referent or pos_t not in entry.possessor:
                    continue
                factor = _referent_link(ref_link, ref, noun)
                if factor is None or not _link(POSSESSOR_LINKS, pos_link):
                    continue
                found = resolve(label, pos_t, round(entry.confidence * factor, 3))
                if found:
                    why = f"'{noun.text}' names {ref.text!r} ({ref_link}) relative to {pos.text!r} ({pos_link})"
                    return Match(found[0], found[1], why)
    return None


# -- other rules written as functions ---------------------------------------------------
def _initials(name: str) -> str:
    words = re.findall(r"[A-Za-z][\w&'-]*", name)
    return "".join(w[0] for w in words if w[0].isupper() and w not in ("The", "Of", "And", "For"))


def acronym(p: Pair) -> Match | None:
    if p.head_type not in ORG or p.tail_type not in ORG or len(p.tokens) != 2:
        return None
    first, second = sorted((p.head, p.tail), key=lambda s: s.start_char)
    if p.text[first.end_char : second.start_char].strip() != "(":
        return None
    if not p.text[second.end_char :].lstrip().startswith(")"):
        return None
    short, full = sorted((first, second), key=lambda s: len(s.text))
    letters = short.text.replace(".", "")
    if not (letters.isalpha() and letters.isupper()):
        return None
    confidence = 0.9 if _initials(full.text) == letters else 0.7
    return Match("org:alternate_names", confidence, f"({short.text}) is bracketed next to {full.text!r}")


SYMMETRIC_PLURALS = {"brother": "per:siblings", "sister": "per:siblings", "sibling": "per:siblings",
                     "twin": "per:siblings", "cousin": "per:other_family", "spouse": "per:spouse"}


def conjoined(p: Pair) -> Match | None:
    if p.head_type not in PER or p.tail_type not in PER or p.path not in ("<conj", "conj>"):
        return None
    first = p.tokens[0] if p.path == "<conj" else p.tokens[-1]
    if first.dep_ not in ("nsubj", "nsubjpass"):
        return None
    verb = first.head
    if verb.lemma_.lower() in ("marry", "wed", "divorce"):
        return Match("per:spouse", 0.8, f"conjoined subjects of '{verb.text}'")
    if verb.lemma_.lower() == "be":
        for child in verb.children:
            lemma = child.lemma_.lower()
            if child.dep_ == "acomp" and lemma in ("married", "divorced"):
                return Match("per:spouse", 0.8, f"conjoined subjects of 'are {child.text}'")
            if child.dep_ == "attr" and lemma in SYMMETRIC_PLURALS:
                return Match(SYMMETRIC_PLURALS[lemma], 0.8, f"conjoined subjects of 'are {child.text}'")
    return None


MODIFIER_PATTERNS = (
    r"<amod|<compound",                                             # "French Claude Chabrol"
    r"(?:<compound|<appos|appos>|<nmod) \S+ <(?:amod|compound)",   # "French filmmaker Claude Chabrol"
    r"nsubj> (?:be|become) <(?:attr|acomp)",                        # "He is Italian"
    r"nsubj> (?:be|become) <attr \S+ <(?:amod|compound)",          # "She is a French author"
)
PLACE_OR_DATE = GEO | DATE


def _rule(name: str, confidence: float, description: str, **kw: Any) -> PathRule:
    return PathRule(name, confidence, description, **kw)


# The rules in the order they are tried; the first that fires gives the label.
RULES: tuple[Rule, ...] = (
    # A bracketed all-capitals name right after another is the commonest alias form in news.
    FunctionRule("acronym", 0.9, "ORG (ACRONYM) or ACRONYM (ORG), one attached to the other", acronym),
    # "also known as" / "called" hang an alias on the name as a reduced relative clause.
    _rule("per_known_as", 0.85, "PERSON, also known as PERSON", head=PER, tail=PER,
          patterns=(r"<acl know <prep as <pobj", r"<acl (?:call|nickname|dub) <oprd"),
          label="per:alternate_names", inverse="per:alternate_names"),
    _rule("org_known_as", 0.85, "ORG, also known as ORG", head=ORG, tail=ORG,
          patterns=(r"<acl know <prep as <pobj", r"<acl (?:call|nickname|dub) <oprd"),
          label="org:alternate_names", inverse="org:alternate_names"),
    # Kinship, role, ownership and membership nouns carry direction in their syntax:
    # the possessor ("Mary's", "of Mary") versus the name the noun stands for.
    FunctionRule("relational_noun", 0.9, "a noun like father/chairman/subsidiary links the two", relational_noun),
    # "Smith and Jones are brothers": a symmetric plural noun over conjoined subjects.
    FunctionRule("conjoined", 0.8, "X and Y are brothers / married", conjoined),
    # Marriage verbs: subject and object (or "married to") are spouses, in either order.
    _rule("spouse_verb", 0.85, "X married Y / X is married to Y", head=PER, tail=PER,
          patterns=(r"nsubj> (?:marry|wed|divorce) <dobj", r"nsubj> be <acomp married <prep to <pobj",
                    r"nsubjpass> (?:marry|wed) <prep to <pobj"),
          label="per:spouse", inverse="per:spouse"),
    # A title stands to its holder as a relational noun does to its referent.
    _rule("title", 0.85, "chairman John Smith / John Smith, the chairman", head=PER,
          tail=frozenset({"TITLE"}), patterns=REFERENT_PATTERNS, label="per:title"),
    # Nationality and religion words modify the person or a noun in apposition to them.
    _rule("origin", 0.8, "French filmmaker Claude Chabrol", head=PER, tail=frozenset({"NATIONALITY"}),
          patterns=MODIFIER_PATTERNS, label="per:origin"),
    _rule("religion", 0.8, "a devout Catholic / he is Muslim", head=PER, tail=frozenset({"RELIGION"}),
          patterns=MODIFIER_PATTERNS, label="per:religion"),
    # Ages are numbers in apposition ("Jupp, 46,") or inside "46-year-old" / "aged 46".
    _rule("age", 0.9, "Jupp, 46, / the 46-year-old Jupp / he is 46", head=PER,
          tail=frozenset({"NUMBER", "DURATION"}),
          patterns=(r"<appos", r"<amod", r"<amod old(?: <npadvmod year)? <nummod",
                    r"<(?:amod|acl) (?:age|aged) <(?:npadvmod|dobj|nummod)", r"nsubj> be <(?:attr|acomp)"),
          label="per:age"),
    # "died of/from" names the cause; the type check keeps "died in Paris" out.
    _rule("cause_of_death", 0.85, "X died of cancer", head=PER, tail=frozenset({"CAUSE_OF_DEATH"}),
          patterns=(r"{S} (?:die|succumb) <prep (?:of|from|after|in|to) <pobj",), label="per:cause_of_death"),
    # Legal verbs with the charge as their prepositional object, active or passive.
    _rule("charges", 0.85, "X was charged with / accused of / convicted of fraud", head=PER,
          tail=frozenset({"CRIMINAL_CHARGE"}),
          patterns=(r"(?:nsubjpass>|dobj>|<relcl|<acl) (?:charge|accuse|convict|arrest|indict|sentence|jail"
                    r"|try|acquit|suspect|investigate|prosecute) <prep (?:with|of|for|on) <pobj"
                    r"(?: charge <(?:compound|amod))?",
                    r"{S} plead <oprd guilty <prep to <pobj",
                    r"nsubjpass> find <oprd (?:guilty|innocent) <prep of <pobj"),
          label="per:charges"),
    # "born in/on": the tail's type picks city/state/country/date of birth.
    _rule("born", 0.9, "X was born in PLACE/DATE", head=PER, tail=PLACE_OR_DATE,
          patterns=(r"{SP} bear <prep (?:in|on|at) <pobj{END}",), label="@birth"),
    # "died in" (or was killed in): place or date of death by the tail's type.
    _rule("died", 0.85, "X died in PLACE/DATE", head=PER, tail=PLACE_OR_DATE,
          patterns=(r"(?:{S} die|{SP} kill) <prep (?:in|on|at) <pobj{END}",), label="@death"),
    # Living and moving verbs; moving is weaker evidence, hence the lower confidence.
    _rule("residence", 0.75, "X lives in / moved to PLACE", head=PER, tail=GEO,
          patterns=(r"{S} (?:live|reside|settle) <prep in <pobj{END}", r"{S} move <prep to <pobj{END}"),
          label="@residence"),
    # "headquartered/based in", "Munich-based", "has its headquarters in".
    _rule("headquarters", 0.85, "ORG is based in PLACE", head=ORG, tail=GEO,
          patterns=(r"{SP} (?:headquarter|base) <prep in <pobj{END}", r"<amod base <npadvmod",
                    r"{S} have <dobj headquarters <prep in <pobj{END}"),
          label="@headquarters"),
    # The founding verb's agent (passive) or subject (active) is the founder.
    _rule("founded_by", 0.85, "ORG was founded by X / X founded ORG", head=ORG, tail=PER,
          patterns=(r"{SP} (?:found|establish|create|start) <agent by <pobj",
                    r"dobj> (?:found|establish|create|start|cofound) <nsubj"),
          label="org:founded_by"),
    # The same verbs with a DATE in "in" give the founding date.
    _rule("founded", 0.85, "ORG was founded in DATE", head=ORG, tail=DATE,
          patterns=(r"{SP} (?:found|establish|create|form) <prep in <pobj",
                    r"dobj> (?:found|establish|create|start|form) <prep in <pobj"),
          label="org:founded"),
    # Education verbs come before employment: "studied at" and "works at" share the "at".
    _rule("schools", 0.85, "X graduated from / studied at ORG", head=PER, tail=ORG,
          patterns=(r"{S} graduate <prep from <pobj", r"{S} (?:study|enroll|enrol) <prep at <pobj",
                    r"{S} attend <dobj", r"{S} (?:earn|receive|get) <dobj \S+ <prep (?:from|at) <pobj"),
          label="per:schools_attended"),
    # Ownership verbs: the owned company's parent is the owner (inverse: subsidiaries).
    _rule("ownership", 0.8, "ORG is owned by / acquired by ORG", head=ORG, tail=ORG,
          patterns=(r"{SP} (?:own|acquire|buy|control) <agent by <pobj",
                    r"dobj> (?:own|acquire|buy|control) <nsubj"),
          label="org:parents", inverse="org:subsidiaries"),
    # An organisation or state joining an organisation becomes a member.
    _rule("membership", 0.8, "ORG joined ORG", head=MEMBER_STATES, tail=ORG,
          patterns=(r"{S} join <dobj",), label="org:member_of", inverse="org:members"),
    # Employment verbs, last: the broadest patterns, and only for PERSON-ORG pairs.
    _rule("employment", 0.8, "X works for / joined / heads ORG; ORG hired X", head=PER, tail=ORG,
          patterns=(r"{S} (?:work|serve) <prep (?:for|at|with) <pobj",
                    r"{S} (?:join|head|lead|run|chair|direct|manage|leave) <dobj",
                    r"dobj> (?:hire|employ|appoint|recruit|fire) <nsubj",
                    r"nsubjpass> (?:hire|employ|appoint|recruit) <agent by <pobj",
                    r"{S} (?:resign|retire) <prep from <pobj"),
          label="per:employee_of", inverse="org:top_members/employees"),
)


def first_match(p: Pair, rules: Sequence[Rule] = RULES) -> tuple[Rule, Match] | None:
    for rule in rules:
        found = rule.match(p)
        if found is not None:
            return rule, found
    return None
