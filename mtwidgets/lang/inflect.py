"""English inflection: a lemma put in a Penn Treebank tag (a language resource).

The morphology library ``lemminflect`` (a lexicon of English inflections) is asked first;
where it knows several forms, the one the spelling rules here give wins (so British
doubling, "travelled", is kept), and irregular forms of the tables here win over regular
ones it also lists ("people", not "persons"). Words it does not know follow the rules:
irregular verbs and plurals from tables of common ones, the rest by spelling (cry ->
cries/cried, stop -> stopped, make -> making). Used by the NER transformations to inflect
a replacement to the original word's tag and to check base forms for do-support questions.

:func:`indefinite_article` chooses "a" or "an" for a word (the English rewriters fix the
article of a replaced noun with it; the NLI contexts put it before an insertion word).
"""

from __future__ import annotations

import re
from functools import lru_cache

_IRREGULAR: dict[str, tuple[str, str]] = {
    w.split()[0]: (w.split()[1], w.split()[2])
    for w in (
        "arise arose arisen", "beat beat beaten", "become became become", "begin began begun",
        "bend bent bent", "bet bet bet", "bind bound bound", "bite bit bitten", "bleed bled bled",
        "blow blew blown", "break broke broken", "bring brought brought", "build built built",
        "burst burst burst", "buy bought bought", "catch caught caught", "choose chose chosen",
        "come came come", "cost cost cost", "cut cut cut", "deal dealt dealt", "dig dug dug",
        "draw drew drawn", "drink drank drunk", "drive drove driven", "eat ate eaten",
        "fall fell fallen", "feed fed fed", "feel felt felt", "fight fought fought", "find found found",
        "flee fled fled", "fly flew flown", "forbid forbade forbidden", "forget forgot forgotten",
        "forgive forgave forgiven", "freeze froze frozen", "get got got", "give gave given",
        "go went gone", "grow grew grown", "hang hung hung", "have had had", "hear heard heard",
        "hide hid hidden", "hit hit hit", "hold held held", "hurt hurt hurt", "keep kept kept",
        "know knew known", "lay laid laid", "lead led led", "leave left left", "lend lent lent",
        "let let let", "lie lay lain", "lose lost lost", "make made made", "mean meant meant",
        "meet met met", "pay paid paid", "put put put", "quit quit quit", "read read read",
        "ride rode ridden", "ring rang rung", "rise rose risen", "run ran run", "say said said",
        "see saw seen", "seek sought sought", "sell sold sold", "send sent sent", "set set set",
        "shake shook shaken", "shed shed shed", "shine shone shone", "shoot shot shot", "show showed shown",
        "shut shut shut", "sing sang sung", "sink sank sunk", "sit sat sat", "sleep slept slept",
        "slide slid slid", "speak spoke spoken", "spend spent spent", "spin spun spun", "split split split",
        "spread spread spread", "stand stood stood", "steal stole stolen", "stick stuck stuck",
        "strike struck struck", "swear swore sworn", "sweep swept swept", "swim swam swum",
        "take took taken", "teach taught taught", "tear tore torn", "tell told told", "think thought thought",
        "throw threw thrown", "understand understood understood", "wake woke woken", "wear wore worn",
        "win won won", "withdraw withdrew withdrawn", "write wrote written", "undertake undertook undertaken",
        "overcome overcame overcome", "oversee oversaw overseen", "uphold upheld upheld",
    )
}  # fmt: skip
_PLURAL_IRREGULAR = {
    "man": "men", "woman": "women", "child": "children", "person": "people", "foot": "feet",
    "tooth": "teeth", "mouse": "mice", "goose": "geese", "crisis": "crises", "analysis": "analyses",
}  # fmt: skip
VOWELS = "aeiou"
_VOWELS = VOWELS


# Verbs stressed on a final consonant-vowel-consonant syllable double it (admit -> admitted).
_STRESSED_FINAL = frozenset(
    "admit commit submit permit omit emit transmit regret prefer refer occur incur deter confer "
    "equip compel propel rebel patrol control upset forget begin abet ban".split()
)


def _doubles(lemma: str) -> bool:
    """Whether the last consonant doubles before -ed/-ing: short CVC verbs (stop -> stopped),
    stressed-final ones (admit -> admitted) and, in the British spelling of news text, a
    single vowel + l (travel -> travelled, expel -> expelled)."""
    if len(lemma) < 3 or lemma[-1] in _VOWELS + "wxy" or lemma[-2] not in _VOWELS or lemma[-3] in _VOWELS:
        return False
    monosyllable = not any(ch in _VOWELS for ch in lemma[:-2])
    return monosyllable or lemma in _STRESSED_FINAL or lemma[-1] == "l"


def _s_form(word: str) -> str:
    if word.endswith(("s", "x", "z", "ch", "sh")) or (word.endswith("o") and word[-2:-1] not in _VOWELS):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


@lru_cache(maxsize=65536)
def inflect(lemma: str, tag: str) -> str | None:
    """``lemma`` in the Penn tag ``tag`` (VB, VBP, VBZ, VBD, VBN, VBG, NN, NNS, JJ), or
    ``None`` for a tag this routine does not produce (JJR, JJS, ...).

    lemminflect's lexicon first (see the module notes), then the spelling rules."""
    lemma = lemma.lower()
    rule = _rule_inflect(lemma, tag)
    if rule is None or lemma in _IRREGULAR or lemma in _PLURAL_IRREGULAR:
        return rule
    forms = _lexicon_forms(lemma, tag)
    if not forms or rule in forms:
        return rule
    return forms[0]


# Words spelt with a vowel but said with a consonant ("a university", "a one-off"), and
# words spelt with a silent h ("an hour").
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one", "once")
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")
_YOU_SOUND = re.compile(r"u[bcdfgklmnprstvz][aeiou]")  # "a unicorn", "a ukulele", "a utensil"


def indefinite_article(word: str) -> str:
    """"an" before a vowel sound, else "a": spelling rules with the common exceptions
    ("an hour", "a university", "a one-day strike", "an umbrella")."""
    w = word.lower()
    if w.startswith(_SILENT_H):
        return "an"
    if w.startswith(_CONSONANT_SOUND) or _YOU_SOUND.match(w):
        return "a"
    return "an" if w[:1] in _VOWELS else "a"


def forms_of(lemma: str, tag: str) -> frozenset[str]:
    """Every spelling of ``lemma`` in the tag ``tag`` that this module or the lexicon knows
    ("leap", VBD: leaped, leapt), lower-cased; for checking a parser's tag against its word."""
    lemma = lemma.lower()
    found = {f.lower() for f in _lexicon_forms(lemma, tag)}
    found.update(f for f in (inflect(lemma, tag), _rule_inflect(lemma, tag)) if f is not None)
    return frozenset(found)


def _lexicon_forms(lemma: str, tag: str) -> tuple[str, ...]:
    try:
        from lemminflect import getInflection
    except ImportError:  # pragma: no cover - depends on the install
        return ()
    return tuple(getInflection(lemma, tag, inflect_oov=False))


def _rule_inflect(lemma: str, tag: str) -> str | None:
    """The spelling-rule inflection (see :func:`inflect`)."""
    if not lemma.isalpha():
        return None
    if tag in ("VB", "VBP", "NN", "JJ"):
        return lemma
    if tag == "VBZ":
        return {"have": "has", "be": "is", "do": "does", "go": "goes"}.get(lemma) or _s_form(lemma)
    if tag == "NNS":
        return _PLURAL_IRREGULAR.get(lemma) or _s_form(lemma)
    if tag in ("VBD", "VBN"):
        if lemma in _IRREGULAR:
            return _IRREGULAR[lemma][0 if tag == "VBD" else 1]
        if lemma.endswith("e"):
            return lemma + "d"
        if lemma.endswith("y") and lemma[-2] not in _VOWELS:
            return lemma[:-1] + "ied"
        return lemma + lemma[-1] + "ed" if _doubles(lemma) else lemma + "ed"
    if tag == "VBG":
        if lemma.endswith("ie"):
            return lemma[:-2] + "ying"
        if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")):
            return lemma[:-1] + "ing"
        return lemma + lemma[-1] + "ing" if _doubles(lemma) else lemma + "ing"
    return None
