"""Insertion words and insertion pairs for pairwise compositionality, related by WordNet.

A hand-written vocabulary of common count nouns per *domain* (animals, plants, food,
vehicles, people, objects, places, events) is the material; WordNet 3.0 decides how two
words relate. The words are chosen by hand because WordNet alone proposes rare or
misleading lemmas ("argentine" as an animal, "chess" as a plant); the relations come from
WordNet because a hand-written hierarchy would be the project's opinion.

- Each word reads in its *domain sense*: its noun senses under the domain's WordNet roots
  (the animal sense of "whale", the plant sense of "palm"), plus a few concepts named by
  :data:`EXTRA_CONCEPTS` where WordNet files the everyday sense under a compound lemma
  ("fruit" is ``edible_fruit.n.01`` in the food domain).
- ``(a, b)`` is a *hypernym pair* (``⊇``) when a domain concept of ``a`` is ``b``'s domain
  sense or one of its hypernyms ("animal" ⊇ "dog"); its reverse is a *hyponym pair* (``⊆``).
- ``(a, b)`` is *unrelated* (``none``) only when no sense at all of one word is a hypernym
  of, or shares a synset with, a sense of the other, and neither word occurs in a gloss of
  the other. The gloss test keeps out pairs WordNet links the wrong way for everyday
  inference: "kitten" is filed under *young mammal*, not *cat*, but its gloss says "young
  domestic cat", so (cat, kitten) is neither a hypernym pair nor an unrelated one.

A word is *clear* when its domain sense is its first or dominant WordNet sense: contexts
that accept several domains ("There was no <x>.") take clear words only, so that "palm"
(a hand part first) appears only in plant contexts, which select its sense.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, Literal

from ..core.errors import MTError

Relation = Literal["⊇", "⊆", "none"]
RELATIONS: tuple[Relation, ...] = ("⊇", "⊆", "none")

# Domain -> the WordNet synsets whose hyponyms (and themselves) make the domain sense.
DOMAIN_ROOTS: dict[str, tuple[str, ...]] = {
    "animal": ("animal.n.01",),
    "plant": ("plant.n.02",),
    "food": ("food.n.01", "food.n.02", "produce.n.01", "edible_fruit.n.01", "dish.n.02", "baked_goods.n.01"),
    "vehicle": ("vehicle.n.01", "conveyance.n.03"),
    "person": ("person.n.01",),
    "object": ("artifact.n.01",),
    "place": ("location.n.01", "region.n.03"),
    "event": ("event.n.01", "crisis.n.01", "calamity.n.01", "phenomenon.n.01"),
}

# Domain -> its words, written by hand: common count nouns (the plural reads naturally),
# no word whose everyday sense WordNet files elsewhere than its hierarchy says (gender and
# kinship terms, young animals: see the module notes).
VOCABULARY: dict[str, tuple[str, ...]] = {
    "animal": tuple(
        "animal mammal bird fish insect reptile dog cat horse cow sheep pig goat rabbit mouse rat lion "
        "tiger wolf fox bear deer elephant monkey whale dolphin eagle owl parrot duck goose pigeon crow "
        "sparrow penguin salmon trout shark bee ant butterfly mosquito beetle snake lizard turtle frog "
        "spider poodle terrier spaniel hound bulldog collie pony stallion mare".split()
    ),
    "plant": tuple(
        "plant tree flower shrub grass oak pine maple birch willow palm rose tulip daisy lily orchid "
        "sunflower fern cactus vine conifer fir spruce cedar elm poplar lilac violet poppy".split()
    ) + ("cherry tree", "apple tree"),
    "food": tuple(
        "food fruit vegetable apple pear banana orange grape lemon peach strawberry potato carrot onion "
        "tomato cabbage bean pea bread cake cheese meat beef pork sandwich soup dessert pastry "
        "berry melon pineapple cucumber pie".split()
    ),
    "vehicle": tuple(
        "vehicle car truck bus taxi bicycle motorcycle boat ship yacht canoe airplane helicopter "
        "tractor ambulance jeep limousine ferry submarine aircraft sailboat warship".split()
    ),
    "person": tuple(
        "person woman child doctor surgeon dentist nurse teacher professor lawyer musician pianist "
        "violinist guitarist singer artist painter sculptor writer poet novelist journalist athlete "
        "swimmer soldier sailor farmer scientist chemist physicist biologist engineer student actor".split()
    ),
    "object": tuple(
        "furniture chair sofa bed desk lamp tool hammer drill knife piano guitar violin drum flute "
        "weapon gun rifle pistol sword container box bottle jar basket bag garment shirt dress coat "
        "jacket shoe boot sandal computer laptop telephone camera clock watch cup mug bowl machine "
        "cabinet stool trumpet cello clarinet".split()
    ) + ("musical instrument",),
    "place": tuple(
        "area region town city village suburb port province county settlement hamlet metropolis "
        "municipality".split()
    ),
    "event": tuple(
        "war conflict disaster catastrophe crisis recession revolution collapse famine flood earthquake "
        "epidemic pandemic storm hurricane tornado battle invasion riot strike rebellion scandal "
        "blizzard".split()
    ) + ("civil war", "world war"),
}

# Mass or non-count readings: these words take no "a"/"an" and no plural in a context.
MASS_NOUNS = frozenset("food furniture bread cheese meat beef pork soup grass".split())

# The domain sense where WordNet's first sense in the domain is not the everyday one
# ("dolphin" is first a dolphinfish; "storm" first an assault).
SENSES: dict[str, str] = {"dolphin": "dolphin.n.02", "storm": "storm.n.01", "flood": "flood.n.01"}

# Unordered pairs WordNet calls unrelated that everyday inference relates: never used as
# unrelated pairs (WordNet files "rose" as a shrub, "professor" beside "teacher").
RELATED_ANYWAY = frozenset({"flower|rose", "professor|teacher"})

# Plurals the inflection rules get wrong for these animals and craft ("fishes", "deers").
PLURALS: dict[str, str] = {w: w for w in ("fish", "deer", "salmon", "trout", "aircraft", "sheep")}

# Concepts a word names in its domain beyond its own synsets (WordNet files the everyday
# sense under a compound lemma).
EXTRA_CONCEPTS: dict[str, tuple[str, ...]] = {
    "fruit": ("edible_fruit.n.01",),
    "vegetable": ("vegetable.n.01",),
}


@dataclass(frozen=True)
class Word:
    """One insertion word: its lemma (a space in compounds), domain, WordNet domain sense,
    plural, whether it counts (takes an article and a plural) and whether it is clear."""

    lemma: str
    domain: str
    synset: str
    plural: str
    count: bool
    clear: bool


@dataclass(frozen=True)
class InsertionPair:
    """An insertion pair ``(a, b)`` and how ``a`` relates to ``b``: ``⊇`` (a is a hypernym
    of b), ``⊆`` (a hyponym) or ``none``."""

    a: Word
    b: Word
    relation: Relation

    @property
    def label(self) -> str:
        """The paper's display form, e.g. ``(tree, cherry tree)``."""
        return f"({self.a.lemma}, {self.b.lemma})"

    @property
    def family(self) -> str:
        """The unordered pair (both orders of a pair share it)."""
        return "|".join(sorted((self.a.lemma, self.b.lemma)))

    def swapped(self) -> InsertionPair:
        flip: dict[Relation, Relation] = {"⊇": "⊆", "⊆": "⊇", "none": "none"}
        return InsertionPair(self.b, self.a, flip[self.relation])


def _wn() -> Any:
    from ..lang.wordnet import load_wordnet

    return load_wordnet()


def _key(lemma: str) -> str:
    return lemma.replace(" ", "_")


@cache
def _domain_closure(domain: str) -> frozenset[str]:
    wn = _wn()
    out: set[str] = set()
    for root in DOMAIN_ROOTS[domain]:
        synset = wn.synset(root)
        out.add(synset.name())
        out.update(s.name() for s in synset.closure(lambda s: s.hyponyms()))
    return frozenset(out)


def plural_of(lemma: str) -> str:
    """The plural of an insertion word (its last word inflected; :data:`PLURALS` first)."""
    from ..lang.inflect import inflect

    if lemma in PLURALS:
        return PLURALS[lemma]
    head, _, last = lemma.rpartition(" ")
    plural = inflect(last, "NNS") or last + "s"
    return f"{head} {plural}" if head else plural


@cache
def word(lemma: str, domain: str) -> Word:
    """``lemma`` in ``domain``, or :class:`MTError` when WordNet has no sense of it there."""
    from ..lang.wordnet import dominant_sense

    if domain not in DOMAIN_ROOTS:
        raise MTError(f"unknown domain {domain!r}; known: {', '.join(DOMAIN_ROOTS)}")
    wn = _wn()
    senses = wn.synsets(_key(lemma), "n")
    inside = [s for s in senses if s.name() in _domain_closure(domain)]
    if lemma in SENSES:
        inside = [wn.synset(SENSES[lemma])]
    elif not inside and lemma in EXTRA_CONCEPTS:
        inside = [wn.synset(EXTRA_CONCEPTS[lemma][0])]
    if not inside:
        raise MTError(f"WordNet has no sense of {lemma!r} among the {domain} concepts")
    main = dominant_sense(_key(lemma), "n", min_share=0.5, min_count=3) or (senses[0] if senses else inside[0])
    clear = main.name() == inside[0].name()
    count = lemma not in MASS_NOUNS
    return Word(lemma, domain, inside[0].name(), plural_of(lemma) if count else lemma, count, clear)


def concepts(w: Word) -> frozenset[str]:
    """The synsets ``w`` names in its domain: its domain senses and :data:`EXTRA_CONCEPTS`."""
    if w.lemma in SENSES:
        return frozenset({w.synset})
    inside = {s.name() for s in _wn().synsets(_key(w.lemma), "n") if s.name() in _domain_closure(w.domain)}
    return frozenset(inside | set(EXTRA_CONCEPTS.get(w.lemma, ())))


@cache
def _up(synset: str) -> frozenset[str]:
    """``synset`` and all its hypernyms (instance hypernyms included)."""
    s = _wn().synset(synset)
    return frozenset({synset, *(h.name() for h in s.closure(lambda x: x.hypernyms() + x.instance_hypernyms()))})


def is_hypernym(a: Word, b: Word) -> bool:
    """Whether a domain concept of ``a`` is one of the hypernyms of ``b``'s domain sense (a
    shared synset makes synonyms, not a hypernym pair)."""
    if a.lemma == b.lemma or b.synset in concepts(a) or a.synset in concepts(b):
        return False
    return bool(concepts(a) & _up(b.synset))


@cache
def _all_up(lemma: str) -> frozenset[str]:
    out: set[str] = set()
    for s in _wn().synsets(_key(lemma), "n"):
        out |= _up(s.name())
    return frozenset(out)


@cache
def _glosses(lemma: str) -> str:
    return " ".join(s.definition() for s in _wn().synsets(_key(lemma), "n")).lower()


def _mentions(gloss: str, w: Word) -> bool:
    forms = {w.lemma, w.plural, *w.lemma.split()[-1:]}
    return any(re.search(rf"\b{re.escape(f)}\b", gloss) for f in forms)


def is_unrelated(a: Word, b: Word) -> bool:
    """No sense of either word is a hypernym of (or a synonym of) a sense of the other, and
    neither word occurs in the other's glosses (see the module notes)."""
    if a.lemma == b.lemma or "|".join(sorted((a.lemma, b.lemma))) in RELATED_ANYWAY:
        return False
    wn = _wn()
    a_senses = {s.name() for s in wn.synsets(_key(a.lemma), "n")} | set(EXTRA_CONCEPTS.get(a.lemma, ()))
    b_senses = {s.name() for s in wn.synsets(_key(b.lemma), "n")} | set(EXTRA_CONCEPTS.get(b.lemma, ()))
    if a_senses & _all_up(b.lemma) or b_senses & _all_up(a.lemma):
        return False
    return not (_mentions(_glosses(a.lemma), b) or _mentions(_glosses(b.lemma), a))


def relation(a: Word, b: Word) -> Relation | None:
    """How ``a`` relates to ``b``, or ``None`` when the pair is neither a hypernym pair, a
    hyponym pair nor clearly unrelated (it is then left out of the test material)."""
    if is_hypernym(a, b) and not is_hypernym(b, a):
        return "⊇"
    if is_hypernym(b, a) and not is_hypernym(a, b):
        return "⊆"
    if is_unrelated(a, b):
        return "none"
    return None


@cache
def domain_words(domain: str) -> tuple[Word, ...]:
    """The vocabulary of ``domain`` as :class:`Word` objects (words WordNet lacks dropped)."""
    out = []
    for lemma in VOCABULARY[domain]:
        try:
            out.append(word(lemma, domain))
        except MTError:
            continue
    return tuple(out)


def stable_fraction(*parts: str) -> float:
    """A number in [0, 1) fixed by ``parts`` (a deterministic split that needs no RNG state)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _ranked(pairs: Iterable[tuple[Word, Word]], seed: int, salt: str) -> list[tuple[Word, Word]]:
    return sorted(pairs, key=lambda p: stable_fraction(str(seed), salt, p[0].lemma, p[1].lemma))


def insertion_pairs(
    domains: Sequence[str] | None = None,
    *,
    cross_domain: int = 40,
    max_hypernym_pairs: int | None = None,
    seed: int = 0,
) -> tuple[InsertionPair, ...]:
    """The insertion pairs of ``domains`` (default: all), both orders of each.

    Per domain: every hypernym pair of its vocabulary (at most ``max_hypernym_pairs``,
    a deterministic sample), each with its hyponym reverse, and as many unrelated pairs
    (both orders) as there are hypernym pairs. Then ``cross_domain`` unrelated pairs of
    clear words from two different domains (Table 4's (gun, woman)), both orders. The
    order is fixed: domain by domain, then the cross-domain pairs.
    """
    chosen = tuple(DOMAIN_ROOTS) if domains is None else tuple(domains)
    for d in chosen:
        if d not in DOMAIN_ROOTS:
            raise MTError(f"unknown domain {d!r}; known: {', '.join(DOMAIN_ROOTS)}")
    return _insertion_pairs(chosen, cross_domain, max_hypernym_pairs, seed)


@lru_cache(maxsize=32)
def _insertion_pairs(chosen: tuple[str, ...], cross_domain: int, max_hypernym_pairs: int | None,
                     seed: int) -> tuple[InsertionPair, ...]:
    out: list[InsertionPair] = []
    for d in chosen:
        words = domain_words(d)
        hyper = [(a, b) for a in words for b in words if is_hypernym(a, b) and relation(a, b) == "⊇"]
        hyper = _ranked(hyper, seed, d + "/hyper")[: max_hypernym_pairs or len(hyper)]
        none = [(a, b) for a, b in combinations(words, 2) if relation(a, b) == "none"]
        none = _ranked(none, seed, d + "/none")[: len(hyper)]
        for a, b in sorted(hyper, key=lambda p: (p[0].lemma, p[1].lemma)):
            out += [InsertionPair(a, b, "⊇"), InsertionPair(b, a, "⊆")]
        for a, b in sorted(none, key=lambda p: (p[0].lemma, p[1].lemma)):
            out += [InsertionPair(a, b, "none"), InsertionPair(b, a, "none")]
    if cross_domain and len(chosen) > 1:
        clear = [w for d in chosen for w in domain_words(d) if w.clear]
        across = [(a, b) for a, b in combinations(clear, 2) if a.domain != b.domain and relation(a, b) == "none"]
        for a, b in sorted(_ranked(across, seed, "across")[:cross_domain], key=lambda p: (p[0].lemma, p[1].lemma)):
            out += [InsertionPair(a, b, "none"), InsertionPair(b, a, "none")]
    return tuple(out)
