"""A small classification head over two word embeddings, in NumPy.

For word embeddings ``a`` (of ``w1``) and ``b`` (of ``w2``), unit length, the head scores

    z(a, b) = h(a)^T M h(b) + u . h(a) + v . h(b) + a^T diag(D) b + alpha cos(a, b) + c,
    h(x) = relu(W x + d)            (one hidden layer of ``hidden`` units, shared)

and the relation holds when ``sigmoid(z) >= 0.5``. The non-symmetric ``M`` and the two
vectors ``u``, ``v`` let the head tell ``(dog, animal)`` from ``(animal, dog)``; the
diagonal form ``D`` weighs each embedding dimension's agreement between the two words (the
cosine with learned weights), the signal synonymy mostly rests on.

Why this shape: it is an MLP over each word followed by a bilinear form, so the scores of
all ``n x n`` pairs of ``n`` words come from one hidden layer per word and two matrix
products (:meth:`PairHead.matrix_logits`), with no loop over pairs. A head on the
concatenated pair would cost ``n^2`` hidden layers.

Training (:func:`train_head`) is full NumPy: binary cross-entropy with class weights
that balance positives and negatives, Adam, L2 on the weights, mini-batches in an order
fixed by ``seed``; the same data and seed give the same weights. Weights save to and load
from a small ``.npz`` (float32).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

_PARAMS = ("W", "d", "M", "u", "v", "D", "alpha", "c")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * z)))


@dataclass
class PairHead:
    """The head's parameters (see the module notes) and its two ways of scoring."""

    W: np.ndarray
    d: np.ndarray
    M: np.ndarray
    u: np.ndarray
    v: np.ndarray
    D: np.ndarray
    alpha: np.ndarray
    c: np.ndarray
    meta: dict[str, str] = field(default_factory=dict)

    @classmethod
    def init(cls, dim: int, hidden: int, seed: int) -> PairHead:
        rng = np.random.default_rng(seed)
        return cls(
            W=(rng.standard_normal((hidden, dim)) * np.sqrt(2.0 / dim)).astype(np.float32),
            d=np.zeros(hidden, np.float32),
            M=(rng.standard_normal((hidden, hidden)) * 0.01).astype(np.float32),
            u=np.zeros(hidden, np.float32),
            v=np.zeros(hidden, np.float32),
            D=np.zeros(dim, np.float32),
            alpha=np.zeros(1, np.float32),
            c=np.zeros(1, np.float32),
        )

    @property
    def dim(self) -> int:
        return int(self.W.shape[1])

    def hidden(self, e: np.ndarray) -> np.ndarray:
        """``h(x)`` for every row of ``e`` (``(n, hidden)``)."""
        return np.maximum(e @ self.W.T + self.d, 0.0)

    def pair_logits(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """``z`` for the pairs ``(a[i], b[i])`` (row-wise, vectorised)."""
        ha, hb = self.hidden(a), self.hidden(b)
        cos = np.einsum("ij,ij->i", a, b)
        diag = np.einsum("ij,ij->i", a * self.D, b)
        return np.asarray(np.einsum("ij,ij->i", ha @ self.M, hb) + ha @ self.u + hb @ self.v
                          + diag + self.alpha[0] * cos + self.c[0])

    def matrix_logits(self, e: np.ndarray) -> np.ndarray:
        """``z`` for every ordered pair of rows of ``e`` (``(n, n)``): ``[i, j]`` scores
        ``(w_i, w_j)``. Two matrix products; the diagonal is scored too."""
        h = self.hidden(e)
        out = (h @ self.M) @ h.T
        out += (h @ self.u)[:, None]
        out += (h @ self.v)[None, :]
        out += (e * (self.D + self.alpha[0])) @ e.T
        out += self.c[0]
        return np.asarray(out, dtype=np.float32)

    def pair_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return _sigmoid(self.pair_logits(a, b))

    def matrix_scores(self, e: np.ndarray) -> np.ndarray:
        return _sigmoid(self.matrix_logits(e)).astype(np.float32)

    # -- persistence -------------------------------------------------------------------------
    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        out = {f"{prefix}{k}": np.asarray(getattr(self, k), dtype=np.float32) for k in _PARAMS}
        for k, v in self.meta.items():
            out[f"{prefix}meta:{k}"] = np.array(v)
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str = "") -> PairHead:
        missing = [k for k in _PARAMS if f"{prefix}{k}" not in arrays]
        if missing:
            raise ValueError(f"head weights lack {', '.join(prefix + k for k in missing)}")
        meta = {
            k[len(prefix) + 5 :]: str(v) for k, v in arrays.items() if k.startswith(f"{prefix}meta:")
        }
        return cls(**{k: np.asarray(arrays[f"{prefix}{k}"], dtype=np.float32) for k in _PARAMS}, meta=meta)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, **self.arrays())  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> PairHead:
        with np.load(path) as f:
            return cls.from_arrays({k: f[k] for k in f.files})


@dataclass(frozen=True)
class TrainConfig:
    """How :func:`train_head` trains (the defaults made the shipped heads)."""

    hidden: int = 32
    epochs: int = 15
    batch: int = 1024
    lr: float = 3e-3
    l2: float = 1e-3
    seed: int = 0


DEFAULT_CONFIG = TrainConfig()


def _grads(head: PairHead, a: np.ndarray, b: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float
           ) -> tuple[float, dict[str, np.ndarray]]:
    """Weighted BCE loss and its gradients for one batch (hand-written backpropagation)."""
    za, zb = a @ head.W.T + head.d, b @ head.W.T + head.d
    ha, hb = np.maximum(za, 0.0), np.maximum(zb, 0.0)
    hm = ha @ head.M
    ab = a * b
    cos = ab.sum(axis=1)
    z = np.einsum("ij,ij->i", hm, hb) + ha @ head.u + hb @ head.v + ab @ head.D + head.alpha[0] * cos + head.c[0]
    p = _sigmoid(z)
    eps = 1e-7
    loss = float(-(w * (y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))).sum() / w.sum())
    g = (w * (p - y) / w.sum()).astype(np.float32)  # dLoss/dz
    dha = g[:, None] * (hb @ head.M.T + head.u)
    dhb = g[:, None] * (hm + head.v)
    dza, dzb = dha * (za > 0), dhb * (zb > 0)
    grads = {
        "W": dza.T @ a + dzb.T @ b + l2 * head.W,
        "d": dza.sum(0) + dzb.sum(0),
        "M": ha.T @ (g[:, None] * hb) + l2 * head.M,
        "u": ha.T @ g,
        "v": hb.T @ g,
        "D": ab.T @ g + l2 * head.D,
        "alpha": np.array([g @ cos], np.float32),
        "c": np.array([g.sum()], np.float32),
    }
    return loss, grads


def train_head(
    a: np.ndarray, b: np.ndarray, y: np.ndarray, config: TrainConfig = DEFAULT_CONFIG
) -> tuple[PairHead, list[float]]:
    """A head trained on the pairs ``(a[i], b[i])`` with labels ``y`` (0/1), and the mean
    loss per epoch. Deterministic for the same inputs and ``config.seed``."""
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    y = np.asarray(y, np.float32)
    if not (len(a) == len(b) == len(y)) or len(y) == 0:
        raise ValueError(f"need as many pairs as labels (> 0), got {len(a)}, {len(b)}, {len(y)}")
    pos = float(y.sum())
    if pos == 0 or pos == len(y):
        raise ValueError("training needs both positive and negative pairs")
    weights = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * (len(y) - pos))).astype(np.float32)
    head = PairHead.init(a.shape[1], config.hidden, config.seed)
    rng = np.random.default_rng(config.seed + 1)
    m = {k: np.zeros_like(getattr(head, k)) for k in _PARAMS}
    s = {k: np.zeros_like(getattr(head, k)) for k in _PARAMS}
    beta1, beta2, step = 0.9, 0.999, 0
    losses: list[float] = []
    for _ in range(config.epochs):
        order = rng.permutation(len(y))
        total = 0.0
        for start in range(0, len(y), config.batch):
            idx = order[start : start + config.batch]
            loss, grads = _grads(head, a[idx], b[idx], y[idx], weights[idx], config.l2)
            total += loss * len(idx)
            step += 1
            for k in _PARAMS:
                m[k] = beta1 * m[k] + (1 - beta1) * grads[k]
                s[k] = beta2 * s[k] + (1 - beta2) * grads[k] ** 2
                mh = m[k] / (1 - beta1**step)
                sh = s[k] / (1 - beta2**step)
                setattr(head, k, (getattr(head, k) - config.lr * mh / (np.sqrt(sh) + 1e-8)).astype(np.float32))
        losses.append(total / len(y))
    return head, losses


@dataclass(frozen=True)
class Metrics:
    """Binary metrics of a head on labelled pairs."""

    n: int
    positives: int
    accuracy: float
    precision: float
    recall: float
    f1: float

    def to_dict(self) -> dict[str, float]:
        return {"n": self.n, "positives": self.positives, "accuracy": round(self.accuracy, 4),
                "precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": round(self.f1, 4)}


def binary_metrics(y: Sequence[bool] | np.ndarray, pred: Sequence[bool] | np.ndarray) -> Metrics:
    """Accuracy, precision, recall and F1 of ``pred`` against ``y``."""
    yt = np.asarray(y, bool)
    yp = np.asarray(pred, bool)
    tp = int((yt & yp).sum())
    fp = int((~yt & yp).sum())
    fn = int((yt & ~yp).sum())
    n = len(yt)
    acc = float((yt == yp).mean()) if n else float("nan")
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return Metrics(n, int(yt.sum()), acc, prec, rec, f1)
