"""Three-way transitivity (section 6 of the systematicity paper) counted with matrix products.

Over ``n`` words a model's boolean predictions for one transitive relation form the matrix
``A`` with ``A[i, j] = v(y_ij)`` for the ordered pair ``(w_i, w_j)``; the diagonal (a word
with itself) is never a test and is ignored. Every ordered triplet ``(i, j, k)`` of
distinct words is a case. It is tested (a *source* triplet) when the premise holds,
``A[i, j] and A[j, k]``, and the pair ``(i, k)`` was predicted; it is then *satisfied*
when ``A[i, k]`` and a *violation* otherwise (property P of Equation 6:
``v(y_12) and v(y_23) => v(y_13)``). When only some pairs were predicted, ``known`` marks
them (a pair outside it is neither true nor false), and ``failed`` the pairs the model
failed on: a triplet whose premise holds and whose ``(i, k)`` failed is an *error*. Every
other triplet is not applicable.

Counting never enumerates triplets: with ``P = A @ A`` (``P[i, k]`` = how many middles
``j`` chain ``i`` to ``k``), the sources are the entries of ``P`` off its diagonal (where
``(i, k)`` is known), the satisfied ones those where ``A[i, k]`` holds and the violations
the rest. Per word, the counts are kept by role (first, middle, last) from the same
products; the middle role needs one more product (``A @ A.T``, and ``K @ A.T`` with a
``known`` mask) and can be skipped (``per_word=False``). Dense input
is processed in row blocks (bounded memory: a few ``block x n`` float32 arrays), sparse
input (``scipy.sparse``) with sparse products. Float32 products are exact here: every
entry is an integer at most ``n`` (< 2**24), and sums are accumulated in float64.

The counts equal :func:`brute_force_counts` (a plain triple loop, kept for tests and the
benchmark). :func:`sample_triplets` draws a deterministic, uniform sample of violating or
satisfied triplets for display without listing them all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import InputError

ROLES: tuple[str, ...] = ("first", "middle", "last")
# Rows of A processed at once in the dense path: block x n float32 arrays stay ~32 MB at
# n = 16,000; larger blocks are no faster for BLAS.
_BLOCK_BYTES = 32 * 2**20
_MAX_EXACT = 2**24  # float32 holds every integer up to here


def _is_sparse(a: object) -> bool:
    return hasattr(a, "tocsr") and hasattr(a, "nnz")


def as_relation_matrix(a: Any) -> Any:
    """``a`` checked as a square boolean relation matrix: a NumPy ``bool`` array (a copy with
    a clear diagonal), or a SciPy sparse matrix in CSR form (diagonal dropped).

    Raises :class:`InputError` for anything that is not a square 2-D matrix of booleans
    (0/1 numbers are accepted; other values are refused rather than read as true)."""
    if _is_sparse(a):
        m = a.tocsr()
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise InputError(f"the prediction matrix must be square (n x n), got shape {m.shape}")
        m = m.astype(np.float32)
        m.setdiag(0)
        m.eliminate_zeros()
        if m.nnz and not np.all(m.data == 1.0):
            raise InputError("the prediction matrix must hold booleans (0/1); threshold scores first")
        return m
    arr = np.asarray(a)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise InputError(f"the prediction matrix must be square (n x n), got shape {arr.shape}")
    if arr.dtype != bool:
        if arr.dtype.kind not in "iuf" or not np.all((arr == 0) | (arr == 1)):
            raise InputError(
                f"the prediction matrix must hold booleans (0/1), got dtype {arr.dtype}; threshold scores first"
            )
        arr = arr != 0
    else:
        arr = arr.copy()
    np.fill_diagonal(arr, False)
    return arr


@dataclass(frozen=True)
class TransitivityCounts:
    """The counts of one relation over ``n`` words.

    ``sources`` are the triplets tested (premise true and the pair ``(i, k)`` predicted):
    ``satisfied + violations``. ``errors`` are triplets whose premise holds but whose pair
    ``(i, k)`` the model failed on; every other ordered triplet is not applicable.

    ``word_sources`` and ``word_violations`` are ``(n, 3)`` integer arrays: per word, the
    tested triplets (and the violations) it takes part in as first, middle and last word
    (``ROLES``); each triplet counts once per role, so a column sums to ``sources``
    (``violations``). Without the middle role (``per_word=False``) that column is -1.
    """

    n: int
    sources: int
    satisfied: int
    violations: int
    word_sources: np.ndarray = field(repr=False)
    word_violations: np.ndarray = field(repr=False)
    errors: int = 0

    @property
    def triplets(self) -> int:
        """Ordered triplets of distinct words: ``n (n - 1) (n - 2)``."""
        return self.n * (self.n - 1) * (self.n - 2)

    @property
    def not_applicable(self) -> int:
        """Triplets not tested: the premise ``A[i, j] and A[j, k]`` fails, or the pair
        ``(i, k)`` was not predicted (and did not fail)."""
        return self.triplets - self.sources - self.errors

    @property
    def safety(self) -> float:
        """Share of satisfied tested triplets (the paper's Table 5), NaN without any."""
        return self.satisfied / self.sources if self.sources else math.nan

    def word_totals(self) -> np.ndarray:
        """Per word: violations it takes part in, in any role (``(n,)``)."""
        roles = self.word_violations
        if np.any(roles[:, 1] < 0):
            raise InputError("per-word middle counts were skipped (per_word=False); count again with per_word=True")
        return np.asarray(roles.sum(axis=1), dtype=np.int64)

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.sources, self.satisfied, self.violations)


def _block_rows(n: int) -> int:
    return max(1, min(n, _BLOCK_BYTES // max(4 * n, 1)))


def _dense_counts(a: np.ndarray, known: np.ndarray | None, failed: np.ndarray | None, per_word: bool
                  ) -> TransitivityCounts:
    n = a.shape[0]
    if n >= _MAX_EXACT:
        raise InputError(f"n = {n} words is beyond exact float32 counting ({_MAX_EXACT}); use a sparse matrix")
    af = a.astype(np.float32)
    aft = np.ascontiguousarray(af.T)
    kf = None if known is None else known.astype(np.float32)
    src_first, src_last, viol_first, viol_last = (np.zeros(n) for _ in range(4))
    sat_mid = np.zeros(n)
    src_mid = np.zeros(n)
    errors = 0.0
    step = _block_rows(n)
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        rows = af[r0:r1]
        diag = (np.arange(r1 - r0), np.arange(r0, r1))
        p = rows @ af  # p[i, k]: middles j with A[i, j] and A[j, k]
        p[diag] = 0.0  # i == k is no triplet
        tested = p if kf is None else p * kf[r0:r1]  # ... and (i, k) predicted
        s = p * rows  # ... and A[i, k]: satisfied
        if failed is not None:
            errors += float((p * failed[r0:r1]).sum(dtype=np.float64))
        src_first[r0:r1] = tested.sum(axis=1, dtype=np.float64)
        viol_first[r0:r1] = src_first[r0:r1] - s.sum(axis=1, dtype=np.float64)
        last = tested.sum(axis=0, dtype=np.float64)
        src_last += last
        viol_last += last - s.sum(axis=0, dtype=np.float64)
        if per_word:
            # with j in the middle: sum_i A[i, j] * #{k : A[j, k] and (A or K)[i, k]}
            # (k == i is cleared by the diagonals of A and K, k == j by A[j, j])
            sat_mid += (rows * (rows @ aft)).sum(axis=0, dtype=np.float64)
            if kf is not None:
                src_mid += (rows * (kf[r0:r1] @ aft)).sum(axis=0, dtype=np.float64)
    sources = int(round(src_first.sum()))
    violations = int(round(viol_first.sum()))
    if per_word and kf is None:
        src_mid = _middle_sources(a)
    mid_sources = src_mid if per_word else -np.ones(n)
    mid_violations = (src_mid - sat_mid) if per_word else -np.ones(n)
    return TransitivityCounts(
        n, sources, sources - violations, violations,
        np.rint(np.stack([src_first, mid_sources, src_last], axis=1)).astype(np.int64),
        np.rint(np.stack([viol_first, mid_violations, viol_last], axis=1)).astype(np.int64),
        int(round(errors)),
    )


def _middle_sources(a: np.ndarray) -> np.ndarray:
    """Per middle word ``j`` when every pair is predicted: tested triplets ``(i, j, k)``,
    ``i != k``: in-degree x out-degree minus the 2-cycles ``i -> j -> i``."""
    indeg = a.sum(axis=0, dtype=np.float64)
    outdeg = a.sum(axis=1, dtype=np.float64)
    cycles = (a & a.T).sum(axis=0, dtype=np.float64)
    return np.asarray(indeg * outdeg - cycles, dtype=np.float64)


def _sparse_counts(a: Any, known: Any, failed: Any, per_word: bool) -> TransitivityCounts:
    n = a.shape[0]
    p = (a @ a).tocsr()
    p.setdiag(0)
    p.eliminate_zeros()
    tested = p if known is None else p.multiply(known).tocsr()
    s = p.multiply(a).tocsr()
    errors = 0 if failed is None else int(round(float(p.multiply(failed).sum())))

    def sums(m: Any, axis: int) -> np.ndarray:
        return np.asarray(m.sum(axis=axis), dtype=np.float64).ravel()

    src_first, src_last = sums(tested, 1), sums(tested, 0)
    sat_first, sat_last = sums(s, 1), sums(s, 0)
    if per_word:
        sat_mid = sums(a.multiply(a @ a.T), 0)
        if known is None:
            indeg, outdeg = sums(a, 0), sums(a, 1)
            src_mid = indeg * outdeg - sums(a.multiply(a.T), 0)
        else:
            src_mid = sums(a.multiply(known @ a.T), 0)
        viol_mid = src_mid - sat_mid
    else:
        src_mid = viol_mid = -np.ones(n)
    sources = int(round(src_first.sum()))
    satisfied = int(round(sat_first.sum()))
    return TransitivityCounts(
        n, sources, satisfied, sources - satisfied,
        np.rint(np.stack([src_first, src_mid, src_last], axis=1)).astype(np.int64),
        np.rint(np.stack([src_first - sat_first, viol_mid, src_last - sat_last], axis=1)).astype(np.int64),
        errors,
    )


def _masks(m: Any, known: Any, failed: Any) -> tuple[Any, Any, Any]:
    """``(A, K, F)`` made consistent: ``A`` within ``K`` (a pair predicted true was
    predicted), ``F`` outside ``K``; ``None`` stays ``None`` (every pair predicted / none
    failed)."""
    sparse_input = _is_sparse(m)
    out: list[Any] = []
    for mask, what in ((known, "known"), (failed, "failed")):
        if mask is None:
            out.append(None)
            continue
        checked = as_relation_matrix(mask)
        if checked.shape != m.shape:
            raise InputError(f"the {what} mask has shape {checked.shape}, the predictions {m.shape}")
        if sparse_input != _is_sparse(checked):
            checked = _as_like(checked, sparse_input)
        out.append(checked)
    k, f = out
    if k is None and f is not None:  # every pair predicted but the failed ones
        k = _complement(f)
    if k is not None:
        m = m.multiply(k).tocsr() if sparse_input else (m & k)
        if f is not None:
            f = (f - f.multiply(k)).tocsr() if sparse_input else (f & ~k)
    return m, k, f


def _complement(mask: Any) -> Any:
    """The pairs outside ``mask`` (diagonal clear)."""
    if _is_sparse(mask):
        from scipy import sparse

        n = mask.shape[0]
        return as_relation_matrix(sparse.csr_matrix(np.ones((n, n), np.float32)) - mask)
    return as_relation_matrix(~mask)


def _as_like(mask: Any, sparse_wanted: bool) -> Any:
    if sparse_wanted:
        from scipy import sparse

        return as_relation_matrix(sparse.csr_matrix(mask))
    return as_relation_matrix(mask.toarray())


def transitivity_counts(
    a: Any, *, known: Any = None, failed: Any = None, per_word: bool = True, method: str = "auto"
) -> TransitivityCounts:
    """Count the three-way transitivity tests of the boolean prediction matrix ``a``.

    ``known``: which pairs were predicted (default: all but the failed ones); a triplet
    whose premise holds is tested only when its pair ``(i, k)`` is known. ``failed``:
    pairs the model failed on (a triplet whose premise holds and whose ``(i, k)`` failed is
    an error). Predictions outside ``known`` are ignored. ``method``:
    ``"dense"`` (NumPy BLAS in row blocks), ``"sparse"`` (SciPy sparse products; needs
    ``scipy``) or ``"auto"`` (sparse for a SciPy sparse matrix, dense otherwise).
    ``per_word=False`` skips the middle-role counts (fewer products)."""
    if method not in ("auto", "dense", "sparse"):
        raise InputError(f"method must be 'auto', 'dense' or 'sparse', got {method!r}")
    m = as_relation_matrix(a)
    if method == "sparse" and not _is_sparse(m):
        try:
            from scipy import sparse
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError("method='sparse' needs scipy: pip install scipy") from exc
        m = as_relation_matrix(sparse.csr_matrix(m))
    if method == "dense" and _is_sparse(m):
        m = as_relation_matrix(m.toarray())
    m, k, f = _masks(m, known, failed)
    if _is_sparse(m):
        return _sparse_counts(m, k, f, per_word)
    return _dense_counts(m, k, f, per_word)


def brute_force_counts(a: Any, *, known: Any = None, failed: Any = None) -> TransitivityCounts:
    """The same counts by enumerating every ordered triplet of distinct words (O(n^3)
    Python steps: for tests and small benchmarks only)."""
    m, k, f = _masks(as_relation_matrix(a), known, failed)
    dense = [x.toarray() if _is_sparse(x) else x for x in (m, k, f)]
    m = dense[0]
    n = m.shape[0]
    rows = m.tolist()
    known_rows = dense[1].astype(bool).tolist() if dense[1] is not None else None
    failed_rows = dense[2].astype(bool).tolist() if dense[2] is not None else None
    ws = np.zeros((n, 3), dtype=np.int64)
    wv = np.zeros((n, 3), dtype=np.int64)
    sources = violations = errors = 0
    for i in range(n):
        ri = rows[i]
        for j in range(n):
            if j == i or not ri[j]:
                continue
            rj = rows[j]
            for kk in range(n):
                if kk == i or kk == j or not rj[kk]:
                    continue
                if failed_rows is not None and failed_rows[i][kk]:
                    errors += 1
                    continue
                if known_rows is not None and not known_rows[i][kk]:
                    continue
                sources += 1
                ws[i, 0] += 1
                ws[j, 1] += 1
                ws[kk, 2] += 1
                if not ri[kk]:
                    violations += 1
                    wv[i, 0] += 1
                    wv[j, 1] += 1
                    wv[kk, 2] += 1
    return TransitivityCounts(n, sources, sources - violations, violations, ws, wv, errors)


# -- a deterministic sample of triplets ------------------------------------------------------------


def _row(m: Any, i: int) -> np.ndarray:
    if _is_sparse(m):
        return np.asarray(m.getrow(i).toarray(), dtype=np.float32).ravel()
    return np.asarray(m[i], dtype=np.float32)


def _col(m: Any, k: int) -> np.ndarray:
    if _is_sparse(m):
        return np.asarray(m.getcol(k).toarray(), dtype=np.float32).ravel()
    return np.asarray(m[:, k], dtype=np.float32)


def sample_triplets(
    a: Any,
    *,
    kind: str = "violation",
    k: int = 5,
    seed: int = 0,
    known: Any = None,
    counts: TransitivityCounts | None = None,
) -> list[tuple[int, int, int]]:
    """Up to ``k`` distinct tested triplets ``(i, j, k)`` of ``kind`` (``"violation"`` or
    ``"satisfied"``), drawn uniformly from all of them with a generator fixed by ``seed``,
    returned in a fixed order (by ``i``, then ``k``, then ``j``). ``known`` as in
    :func:`transitivity_counts`; ``counts`` (of the same matrices) saves counting again.

    Each draw is a triplet index located through the per-first-word counts, then one row
    product (O(n^2) per draw); no triplet list is built."""
    if kind not in ("violation", "satisfied"):
        raise InputError(f"kind must be 'violation' or 'satisfied', got {kind!r}")
    if k < 0:
        raise InputError(f"k must be >= 0, got {k}")
    m, km, _ = _masks(as_relation_matrix(a), known, None)
    counts = counts if counts is not None else transitivity_counts(m, known=km, per_word=False)
    per_first = counts.word_violations[:, 0] if kind == "violation" else (
        counts.word_sources[:, 0] - counts.word_violations[:, 0]
    )
    total = int(per_first.sum())
    if total == 0 or k == 0:
        return []
    rng = np.random.default_rng(seed)
    picks: set[int] = set()
    want = min(k, total)
    while len(picks) < want:
        picks.update(int(x) for x in rng.integers(0, total, size=want - len(picks)))
    bounds = np.cumsum(per_first)
    mf = m.astype(np.float32)  # float32 once (rows and products); sparse stays sparse
    out: list[tuple[int, int, int]] = []
    for t in sorted(picks):
        i = int(np.searchsorted(bounds, t, side="right"))
        offset = t - (int(bounds[i - 1]) if i else 0)
        ri = _row(mf, i)
        p = _row_product(mf, ri)  # p[k]: middles chaining i to k
        p[i] = 0.0
        if kind == "satisfied":
            weight = p * ri
        else:
            ki = np.ones_like(ri) if km is None else _row(km, i)
            weight = p * ki * (1.0 - ri)
        cum = np.cumsum(weight, dtype=np.float64)
        kk = int(np.searchsorted(cum, offset, side="right"))
        before = int(round(cum[kk - 1])) if kk else 0
        middles = np.flatnonzero((ri > 0) & (_col(mf, kk) > 0))
        out.append((i, int(middles[offset - before]), kk))
    return sorted(out, key=lambda t: (t[0], t[2], t[1]))


def _row_product(m: Any, ri: np.ndarray) -> np.ndarray:
    """``ri @ m`` as a float32 vector (row ``i`` of ``A @ A``)."""
    if _is_sparse(m):
        return np.asarray(m.T @ ri, dtype=np.float32).ravel()
    return np.asarray(ri @ m, dtype=np.float32)
