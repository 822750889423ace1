"""Three-way transitivity: counting all n(n - 1)(n - 2) ordered triplets of n = 2,000 words.

Measured, each the median of ``--reps`` runs, wall clock and CPU time of the process (CPU
time stays honest on a busy machine; BLAS threads make it exceed the wall time on a quiet
one), with the peak memory of one traced run (tracemalloc, which sees NumPy's buffers):

1. Real predictions: an embedded lexical model (``lexical-spacy-vectors`` by default) over
   the ``n`` most frequent English words (wordfreq's list, alphabetic, 3+ letters). The
   model's ``predict_matrix`` (every ordered pair scored, vectorised) is timed on its own;
   the counting (``transitivity_counts`` with per-word counts by role) is the target
   (< 2 s at n = 2,000); the sample of example triplets is timed too.
2. Synthetic boolean matrices at n = 2,000 and several densities, dense (NumPy BLAS in row
   blocks) and sparse (SciPy), with and without a mask of unpredicted pairs.
3. Brute force (a triple loop over triplets) beside the matrix count on small n, with
   their agreement checked.

Run: ``python benchmarks/bench_transitivity.py [--n 2000] [--reps 3] [--model lexical-minilm]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import sparse

from mtwidgets.lexical.transitivity import brute_force_counts, sample_triplets, transitivity_counts

TARGET_S = 2.0


def measure(fn: Callable[[], Any], reps: int) -> tuple[float, float, float, Any]:
    """Median wall seconds, median CPU seconds, peak MiB (of one traced run) and the last result."""
    wall, cpu = [], []
    out = None
    for _ in range(reps):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return statistics.median(wall), statistics.median(cpu), peak / 2**20, out


def frequent_words(n: int) -> list[str]:
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 8 * n) if w.isalpha() and w.isascii() and len(w) >= 3]
    if len(words) < n:
        raise SystemExit(f"wordfreq lists only {len(words)} usable words; ask for fewer")
    return words[:n]


def load_model(name: str) -> Any:
    from mtwidgets.lexical.models import minilm_model, spacy_vectors_model

    return {"lexical-spacy-vectors": spacy_vectors_model, "lexical-minilm": minilm_model}[name]()


def real(n: int, reps: int, model_name: str) -> bool:
    print(f"== 1. {model_name} over the {n:,} most frequent English words ==")
    words = frequent_words(n)
    t0 = time.perf_counter()
    model = load_model(model_name)
    print(f"model loaded in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    model.embedder.embed(words)  # the embeddings once; predict_matrix below is the heads' work
    print(f"embedding {n:,} words: {time.perf_counter() - t0:.2f} s")
    wall, cpu, peak, matrices = measure(lambda: model.predict_matrix(words, "en"), reps)
    print(f"predict_matrix (both relations, {n * (n - 1):,} ordered pairs, embeddings cached): "
          f"{wall:.3f} s wall, {cpu:.3f} s CPU, peak {peak:.0f} MiB")
    ok = True
    for relation, m in matrices.items():
        wall, cpu, peak, counts = measure(lambda m=m: transitivity_counts(m.flags), reps)
        swall, _, _, shown = measure(lambda m=m, c=counts: sample_triplets(m.flags, k=3, counts=c), reps)
        ok &= wall < TARGET_S
        print(f"{relation:9s} pairs true {m.flags.mean():.4f} | tested {counts.sources:,} of {counts.triplets:,} "
              f"triplets, safety {counts.safety:.3f} | count {wall:.3f} s wall, {cpu:.3f} s CPU, peak {peak:.0f} MiB"
              f" | 3 examples {swall * 1000:.0f} ms: "
              + "; ".join("(" + ", ".join(m.words[i] for i in t) + ")" for t in shown))
    return ok


def synthetic(n: int, reps: int) -> bool:
    print(f"\n== 2. synthetic boolean matrices, n = {n:,} ==")
    rng = np.random.default_rng(0)
    ok = True
    for density in (0.001, 0.01, 0.05, 0.2):
        a = rng.random((n, n)) < density
        known = rng.random((n, n)) < 0.9
        dense = measure(lambda a=a: transitivity_counts(a), reps)
        masked = measure(lambda a=a, k=known: transitivity_counts(a, known=k), reps)
        sa = sparse.csr_matrix(a)
        sp = measure(lambda sa=sa: transitivity_counts(sa), reps)
        assert dense[3].as_tuple() == sp[3].as_tuple()
        ok &= dense[0] < TARGET_S
        print(f"density {density:<6} tested {dense[3].sources:>13,} | dense {dense[0]:.3f} s wall "
              f"{dense[1]:.3f} s CPU {dense[2]:4.0f} MiB | dense, 90% of pairs predicted {masked[0]:.3f} s "
              f"{masked[2]:4.0f} MiB | sparse {sp[0]:.3f} s wall {sp[1]:.3f} s CPU {sp[2]:4.0f} MiB")
    return ok


def brute(sizes: tuple[int, ...]) -> None:
    print("\n== 3. brute force vs matrix products ==")
    rng = np.random.default_rng(1)
    for n in sizes:
        a = rng.random((n, n)) < 0.2
        t0 = time.perf_counter()
        slow = brute_force_counts(a)
        t1 = time.perf_counter()
        fast = transitivity_counts(a)
        t2 = time.perf_counter()
        same = slow.as_tuple() == fast.as_tuple() and (slow.word_violations == fast.word_violations).all()
        print(f"n = {n:>4}: brute force {t1 - t0:8.3f} s | matrix {1000 * (t2 - t1):7.2f} ms | "
              f"tested {fast.sources:>9,} violations {fast.violations:>9,} | equal: {same}")
        assert same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--model", default="lexical-spacy-vectors", choices=["lexical-spacy-vectors", "lexical-minilm"])
    parser.add_argument("--skip-model", action="store_true", help="synthetic matrices and brute force only")
    args = parser.parse_args()
    ok = True
    if not args.skip_model:
        ok &= real(args.n, args.reps, args.model)
    ok &= synthetic(args.n, args.reps)
    brute((20, 40, 60, 100, 150))
    print(f"\ncounting n = {args.n:,} words in < {TARGET_S:.0f} s: {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
