"""Train the embedded lexical-relation heads (``python -m mtwidgets.lexical.train``).

For each language and relation, the pairs of :mod:`mtwidgets.lexical.data` are split by
word (:func:`~mtwidgets.lexical.data.split_by_word`: no held-out word is seen in
training). A head's pair set (:func:`head_pairs`) is balanced: its positives (capped at
``cap``) and as many negatives, drawn by gold kind in fixed shares so that the hard
negatives are well represented (for synonymy: antonyms, hypernyms, hyponyms, cohyponyms;
for hypernymy: the reversed pairs, synonyms, cohyponyms), the rest random pairs. The held-out
set is built the same way from the held-out pairs (all of them), so chance accuracy is 0.5.
The metrics (accuracy, precision, recall, F1, and accuracy per gold kind) are stored with
the weights.

Everything is seeded: the same WordNet / Cilin data and embedder give the same weights.
Run it to regenerate ``mtwidgets/lexical/weights/*.npz`` (a few minutes, most of it building
the WordNet table and embedding 15,000 words with MiniLM).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from .data import HELDOUT_SHARE, LexicalPair, load_pairs, split_by_word, write_heldout_words
from .embed import WordEmbedder, get_embedder
from .head import DEFAULT_CONFIG, PairHead, TrainConfig, binary_metrics, train_head
from .models import WEIGHTS, LexicalRelationModel

# Negatives per positive, by gold kind (what is left is filled with random pairs).
NEGATIVE_SHARES: dict[str, dict[str, float]] = {
    "synonym": {"antonym": 0.15, "hypernym": 0.2, "hyponym": 0.15, "cohyponym": 0.2, "random": 0.3},
    "hypernym": {"hyponym": 0.3, "synonym": 0.15, "cohyponym": 0.2, "antonym": 0.05, "random": 0.3},
}
# The relations each language's data can train.
LANG_RELATIONS: dict[str, tuple[str, ...]] = {"en": ("synonym", "hypernym"), "zh": ("synonym",)}
CAP = 30000


def head_pairs(pairs: Sequence[LexicalPair], relation: str, cap: int | None = CAP, seed: int = 0) -> list[LexicalPair]:
    """A balanced pair set for one head: positives (at most ``cap``) and as many negatives,
    by kind in :data:`NEGATIVE_SHARES`, in a fixed order."""
    rng = random.Random(seed)
    pos = [p for p in pairs if getattr(p, relation)]
    if cap is not None and len(pos) > cap:
        pos = rng.sample(pos, cap)
    by_kind: dict[str, list[LexicalPair]] = defaultdict(list)
    for p in pairs:
        if not getattr(p, relation):
            by_kind[p.kind].append(p)
    neg: list[LexicalPair] = []
    for kind, share in NEGATIVE_SHARES[relation].items():
        pool = by_kind.get(kind, [])
        neg.extend(rng.sample(pool, min(len(pool), int(round(share * len(pos))))))
    taken = set(neg)
    rest = [p for p in by_kind.get("random", []) if p not in taken]
    neg.extend(rng.sample(rest, max(0, min(len(rest), len(pos) - len(neg)))))
    return pos + neg


def _xy(embedder: WordEmbedder, pairs: Sequence[LexicalPair], relation: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = embedder.embed([p.w1 for p in pairs])
    b = embedder.embed([p.w2 for p in pairs])
    y = np.array([getattr(p, relation) for p in pairs], dtype=np.float32)
    return a, b, y


def evaluate(head: PairHead, embedder: WordEmbedder, pairs: Sequence[LexicalPair], relation: str) -> dict[str, Any]:
    """Held-out metrics of ``head`` on ``pairs``, with the accuracy per gold kind."""
    a, b, y = _xy(embedder, pairs, relation)
    pred = head.pair_scores(a, b) >= 0.5
    out: dict[str, Any] = binary_metrics(y > 0, pred).to_dict()
    kinds: dict[str, list[bool]] = defaultdict(list)
    for p, ok in zip(pairs, pred == (y > 0)):
        kinds[p.kind].append(bool(ok))
    out["by_kind"] = {k: {"n": len(v), "accuracy": round(float(np.mean(v)), 4)} for k, v in sorted(kinds.items())}
    return out


def train_relation(
    embedder: WordEmbedder,
    pairs: Sequence[LexicalPair],
    relation: str,
    *,
    config: TrainConfig = DEFAULT_CONFIG,
    cap: int | None = CAP,
    heldout_share: float = HELDOUT_SHARE,
) -> tuple[PairHead, dict[str, Any]]:
    """One head trained on the training side of ``pairs``, with its held-out metrics
    (``heldout_share`` of the words are held out)."""
    train, heldout = split_by_word(pairs, heldout_share)
    train_set = head_pairs(train, relation, cap, seed=config.seed)
    heldout_set = head_pairs(heldout, relation, None, seed=config.seed + 1)
    if not heldout_set:
        raise ValueError(f"no held-out {relation} pairs: too few words")
    a, b, y = _xy(embedder, train_set, relation)
    t0 = time.perf_counter()
    head, losses = train_head(a, b, y, config)
    seconds = time.perf_counter() - t0
    metrics = evaluate(head, embedder, heldout_set, relation)
    metrics.update(train_pairs=len(train_set), train_seconds=round(seconds, 1), final_loss=round(losses[-1], 4))
    return head, metrics


def train_model(
    embedder: WordEmbedder,
    data: dict[str, Sequence[LexicalPair]],
    *,
    name: str,
    config: TrainConfig = DEFAULT_CONFIG,
    cap: int | None = CAP,
) -> LexicalRelationModel:
    """A model with one head per language of ``data`` and relation of
    :data:`LANG_RELATIONS`, and their held-out metrics."""
    heads: dict[str, dict[str, PairHead]] = {}
    metrics: dict[str, dict[str, Any]] = {}
    for lang, pairs in data.items():
        for relation in LANG_RELATIONS[lang]:
            head, m = train_relation(embedder, pairs, relation, config=config, cap=cap)
            heads.setdefault(lang, {})[relation] = head
            metrics.setdefault(lang, {})[relation] = m
    return LexicalRelationModel(embedder, heads, name=name, metrics=metrics)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Train the embedded lexical-relation heads.")
    parser.add_argument("--model", choices=sorted(WEIGHTS), action="append",
                        help="which model(s) to train (default: all)")
    parser.add_argument("--out-dir", default=None, help="write the .npz files here instead of the package")
    args = parser.parse_args(argv)
    embedders = {"lexical-spacy-vectors": ("spacy-md-vectors", ("en",)), "lexical-minilm": ("minilm", ("en", "zh"))}
    write_heldout_words({lang: load_pairs(lang) for lang in LANG_RELATIONS})
    for name in args.model or sorted(WEIGHTS):
        embedder_name, langs = embedders[name]
        embedder = get_embedder(embedder_name)
        t0 = time.perf_counter()
        model = train_model(embedder, {lang: load_pairs(lang) for lang in langs}, name=name)
        path = WEIGHTS[name] if args.out_dir is None else f"{args.out_dir}/{WEIGHTS[name].name}"
        model.save(path)
        print(json.dumps({"model": name, "seconds": round(time.perf_counter() - t0, 1), "path": str(path),
                          "metrics": model.metrics()}, indent=1))


if __name__ == "__main__":
    main()
