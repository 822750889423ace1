"""How the candidate pairs of ``mtwidgets/lang/data/synonyms_en.tsv`` were listed for review.

The shipped lexicon is the *reviewed* file: every pair below was read and kept or dropped
with a reason (the ``verdict`` and ``reason`` columns). This script only re-creates the
lists that went to review, so a new review round starts from the same candidates:

- batch 1: every WordNet same-sense synonym of the 20,000 most frequent English words (a
  lemma of its POS on both sides, Zipf >= 3) that the former automatic pair checks let
  through (:func:`first_batch_problem`: dominant shared sense, no scalar, register,
  dialect or spelling-variant word, Zipf gap, marked usage);
- batch 2: the synonyms in the main senses (share >= 0.25 of the sense-tagged uses, or
  the first sense) of the 30,000 most frequent words with Zipf >= 3.5, substitutes with
  Zipf >= 3.3, no antonym, no derivation or spelling variant, and not in batch 1.

Usage::

    python benchmarks/synonym_candidates.py batch1 > batch1.jsonl
    python benchmarks/synonym_candidates.py batch2 > batch2.jsonl
    python benchmarks/synonym_candidates.py stats   # kept / reviewed per batch and POS
"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from typing import Any

from lemminflect import getLemma
from wordfreq import top_n_list, zipf_frequency

from mtwidgets.lang.wordnet import is_lemma, iter_sense_synonyms, lemma_count, load_wordnet
from mtwidgets.ner.transforms import _spelling_variants, _zipf

POS = {"VERB": "v", "ADJ": "a", "NOUN": "n"}

# The word lists the former automatic checks refused (batch 1 leaves these words out).
# Gradable scalar words: a substitute changes the strength ("big" -> "huge", "small" -> "tiny").
_SCALAR = frozenset(
    "big large huge enormous vast immense giant gigantic massive colossal tremendous great "
    "small little tiny minute miniature mini petite wee slight minor major bulky hefty sizeable "
    "sizable substantial considerable significant extensive broad wide narrow tall short long high "
    "low deep shallow heavy light fat thin slim slender thick hot warm cold cool freezing boiling "
    "fast quick rapid swift speedy slow strong weak powerful mighty intense extreme severe serious "
    "mild gentle terrible awful horrible dreadful bad good excellent superb wonderful fantastic "
    "brilliant great fine okay ok decent marvellous marvelous terrific outstanding old ancient "
    "elderly aged young new brand-new angry furious livid happy glad delighted ecstatic sad "
    "unhappy miserable tired exhausted afraid scared terrified frightened hungry starving "
    "famous renowned notorious rich wealthy poor needy cheap inexpensive expensive costly pricey "
    "increase surge rise jump soar rocket plunge plummet drop fall decline slump gorgeous stunning "
    "spotless immaculate excruciating ferocious suicidal".split()
)
# Polysemous adjectives whose every sense WordNet's counts do not separate well enough.
_POLYSEMOUS_ADJ = frozenset(
    "quiet single fine fair light hard sharp clear plain poor bright cool fresh strong rich dry "
    "free present right low high short flat dark deep full open close even odd common direct "
    "firm sound sure smart hot cold soft still just late early simple straight square tight loose "
    "dead live calm mean kind dear main".split()
)
# Quantifiers and determiner-like words: "several" -> "various" changes how many.
_QUANTIFIERS = frozenset(
    "several various many few numerous multiple countless some any all both each every either "
    "neither much more most less least enough certain sundry divers diverse other another own "
    "whole entire".split()
)
# Words of a marked register (informal or formal) or of one variety of English; either side
# of a substitution being one is a change of register or dialect, not of words.
_REGISTER = frozenset(
    "kid kids bike telly fridge mum mom dad mummy daddy guy guys cop cops veggie veggies loo "
    "booze cash buck bucks quid pal mate chap bloke lad gal folks okay awesome cool nice stuff "
    "purchase construct commence terminate utilize utilise obtain assist reside endeavour endeavor "
    "acquire depart inquire enquire request sufficient additional prior subsequent facilitate "
    "ascertain demonstrate indicate possess retain initiate remainder residence vehicle "
    "individual telephone automobile physician attorney beverage attempt state vacate".split()
)
# Words whose senses a substitute easily leaves ("finished the race" -> "completed the race",
# "need" / "require", "try a variety" -> "attempt"), or substitutes whose own common reading
# is another word ("gay", "cherry", "cardinal"): never replaced nor used.
_SENSE_TRAPS = frozenset(
    "finish complete need require try attempt contain comprise vote voting shoot shooting "
    "daylight daytime bike motorcycle exercise workout tell state gay cherry ruby cardinal "
    "print apply investigator investigators".split()
)
# British/American pairs (the later words are the other variety's).
_DIALECT = frozenset(
    "tyre tire timber lumber lorry truck petrol gasoline gas flat apartment pavement sidewalk "
    "holiday vacation autumn fall motorway freeway highway trousers pants rubbish garbage trash "
    "queue line film movie mobile cellphone biscuit cookie nappy diaper post mail chemist "
    "pharmacy drugstore lift elevator football soccer maths math aubergine eggplant courgette "
    "zucchini crisps chips sweets candy cinema theater theatre shop store fortnight railway "
    "railroad underground subway saltwater seawater bonnie bonny airplane aeroplane".split()
)



def own_lemma(word: str, pos: str) -> bool:
    """Whether ``word`` is its own lemma as ``pos`` (no inflected form is a candidate)."""
    found = getLemma(word, pos)
    return bool(found) and found[0] == word


# The dominant sense share a word needs before any of its synonyms is used: the sense-tagged
# counts must make the word's meaning in the source close to certain ("bike": bicycle or
# motorcycle; "require"/"need" share a verb sense that is not "require"'s every use).
SENSE_SHARE_NEEDED = {"VERB": 0.5, "NOUN": 0.5, "ADJ": 0.5}
# Without this many sense-tagged uses, only a word with a single sense qualifies.
MIN_TAGGED = 3
# Largest Zipf-frequency difference between the word and its substitute: a much rarer or
# much more common word is a change of register ("built" -> "constructed").
MAX_ZIPF_GAP = 2.0
# The share of the substitute's own tagged uses its shared sense needs ("tell" is "say" in
# only a third of its uses: "said goodbye" -> "told goodbye").
SUBSTITUTE_SHARE = 0.4
# An adjective's similar-to neighbour ("dangerous" -> "hazardous") only for a sense holding
# this share of the adjective's uses, and only when it is the neighbour's own main sense.
NEIGHBOUR_SHARE = 0.8



def first_batch_problem(lemma: str, original: str, pos: str, syn: Any, form: str) -> str | None:
    """Why ``form`` (lemma ``syn.word``, a :class:`~mtwidgets.lang.wordnet.SenseSynonym` of
    ``lemma``) may not replace ``original`` (a word of spaCy POS ``pos``), or ``None``.
    Cheapest checks first. The pair must be a same-sense swap a careful reader accepts:
    the shared sense is ``lemma``'s dominant sense by a wide margin
    (:data:`SENSE_SHARE_NEEDED`; a word with fewer than :data:`MIN_TAGGED` tagged uses only
    with a single sense) and the substitute's own most frequent sense; a lemma of that very
    synset (no similar-to neighbour: "huge" -> "large"); no gerund for a noun ("flight" ->
    "flying", "vote" -> "voting"); no scalar, quantifier, register or dialect word on either
    side, no spelling variant, no WordNet usage/region-marked sense; Zipf frequencies within
    :data:`MAX_ZIPF_GAP`."""
    from mtwidgets.lang.wordnet import marked_usage, sense_evidence, synset_lemma_names

    word = syn.word.lower()
    if pos in ("NOUN", "ADJ") and form.lower().endswith("ing") and not original.lower().endswith("ing"):
        return "a gerund or participle for a word that is none"
    for w in (word, form.lower()):
        if w in _SCALAR or w in _QUANTIFIERS or w in _REGISTER or w in _DIALECT or w in _SENSE_TRAPS:
            return f"{w!r} is a scalar, quantifier, register or dialect word"
    if _spelling_variants(original, form) or _spelling_variants(lemma, word):
        return "a spelling variant"
    if abs(_zipf(form.lower()) - _zipf(original.lower())) > MAX_ZIPF_GAP:
        return "a much rarer or more common word (register)"
    neighbour = lemma not in synset_lemma_names(syn.synset)
    if neighbour and (pos != "ADJ" or syn.share < NEIGHBOUR_SHARE):
        return "a neighbour of the word's sense, not a synonym in it"
    if not (syn.dominant or neighbour) or syn.share < SENSE_SHARE_NEEDED.get(pos, 1.0):
        return "the shared sense is not the word's clearly dominant one"
    own = sense_evidence(lemma, pos)
    if own.tagged < MIN_TAGGED and own.senses != 1:
        return "too little sense-tagged evidence for a polysemous word"
    if neighbour or own.senses > 1:
        # a polysemous word: the substitute must read in the shared sense on its own too
        theirs = sense_evidence(word, pos)
        if (
            theirs.primary != syn.synset
            or theirs.share < SUBSTITUTE_SHARE
            or (theirs.tagged < MIN_TAGGED and theirs.senses != 1)
        ):
            return "the shared sense is not the substitute's own dominant one"
    if marked_usage(syn.synset):
        return "a sense of marked usage or region"
    return None


def _described(pos: str, word: str, substitute: str, synset: Any) -> dict[str, str]:
    return dict(pos=pos, word=word, substitute=substitute, synset=synset.name(),
                definition=synset.definition(), example=(synset.examples() or [""])[0])


def batch1(n: int = 20000) -> Iterator[dict[str, str]]:
    wn = load_wordnet()
    lists = _SCALAR | _QUANTIFIERS | _REGISTER | _DIALECT | _SENSE_TRAPS
    seen: set[tuple[str, str, str]] = set()
    for w in top_n_list("en", n):
        if not w.isalpha() or not w.islower() or w in lists:
            continue
        for pos in POS:
            if not is_lemma(w, pos) or (pos == "ADJ" and w in _POLYSEMOUS_ADJ):
                continue
            for s in iter_sense_synonyms(w, pos):
                key = (pos, w, s.word)
                if ("_" in s.word or zipf_frequency(s.word, "en") < 3 or key in seen
                        or not own_lemma(w, pos) or not own_lemma(s.word, pos)):
                    continue
                if first_batch_problem(w, w, pos, s, s.word) is None:
                    seen.add(key)
                    yield _described(pos, w, s.word, wn.synset(s.synset))


def batch2(first: set[tuple[str, str, str]], n: int = 30000) -> Iterator[dict[str, str]]:
    wn = load_wordnet()
    seen: set[tuple[str, str, str]] = set()
    for w in top_n_list("en", n):
        if not w.isalpha() or len(w) < 3 or zipf_frequency(w, "en") < 3.5:
            continue
        for pos, p in POS.items():
            if not own_lemma(w, pos):
                continue
            synsets = [s for s in wn.synsets(w, p) if s.pos() in ((p, "s") if p == "a" else (p,))]
            counts = [next((lemma_count(lem) for lem in s.lemmas() if lem.name().lower() == w), 0) for s in synsets]
            total = sum(counts)
            for i, s in enumerate(synsets):
                share = counts[i] / total if total else float(i == 0)
                if share < 0.25 and i != 0:
                    continue
                opposed = {a.name() for lem in s.lemmas() for a in lem.antonyms()}
                for lem in s.lemmas():
                    sub = lem.name()
                    key = (pos, w, sub)
                    if ("_" in sub or not sub.isalpha() or not sub.islower() or sub == w or sub in opposed
                            or zipf_frequency(sub, "en") < 3.3 or not own_lemma(sub, pos)
                            or (sub.startswith(w[:3]) and abs(len(sub) - len(w)) <= 2)
                            or key in first or key in seen):
                        continue
                    seen.add(key)
                    yield _described(pos, w, sub, s)


def reviewed() -> list[dict[str, str]]:
    path = resources.files("mtwidgets.lang").joinpath("data/synonyms_en.tsv")
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def main(argv: list[str]) -> None:
    what = argv[0] if argv else "stats"
    if what == "batch1":
        for d in batch1():
            print(json.dumps(d))
    elif what == "batch2":
        first = {(d["pos"], d["word"], d["substitute"]) for d in batch1()}
        for d in batch2(first):
            print(json.dumps(d))
    else:
        rows = reviewed()
        print(f"{len(rows)} pairs reviewed, {sum(r['verdict'] == 'keep' for r in rows)} kept")
        print(dict(Counter(r["pos"] for r in rows if r["verdict"] == "keep")))


if __name__ == "__main__":
    main(sys.argv[1:])
