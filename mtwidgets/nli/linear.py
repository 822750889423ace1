"""Small classifiers in NumPy: the embedded model's head and the hypernymy probe.

Both are trained full-determinism: fixed seeds, NumPy only, a fixed order of minibatches,
so the same data gives the same weights in any process on the same machine (no torch
kernels whose reduction order varies).
"""

from __future__ import annotations

import numpy as np

from ..core.errors import MTError


def _check(x: np.ndarray, y: np.ndarray) -> None:
    if x.ndim != 2 or y.ndim != 1 or len(x) != len(y):
        raise MTError(f"features [n, d] and labels [n] expected, got {x.shape} and {y.shape}")
    if len(x) == 0:
        raise MTError("no training examples")


def standardiser(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-feature mean and standard deviation (floored, so constant features stay finite)."""
    return x.mean(0).astype(np.float32), (x.std(0) + 1e-3).astype(np.float32)


class _Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            v_hat = self.v[k] / (1 - 0.999**self.t)
            params[k] -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def _softmax(logits: np.ndarray) -> np.ndarray:
    logits = logits - logits.max(1, keepdims=True)
    p = np.exp(logits)
    return np.asarray(p / p.sum(1, keepdims=True))


def train_mlp(x: np.ndarray, y: np.ndarray, n_labels: int, *, hidden: int = 64, epochs: int = 40,
              batch_size: int = 128, lr: float = 1e-3, weight_decay: float = 1e-4,
              seed: int = 0) -> dict[str, np.ndarray]:
    """A one-hidden-layer ReLU network with softmax output, trained by Adam on balanced
    cross-entropy (each label weighs the same in total). Returns the weights
    :func:`mtwidgets.nli.minilm.head_probs` reads (``mean``, ``std``, ``w1``, ``b1``, ``w2``, ``b2``)."""
    _check(x, y)
    rng = np.random.default_rng(seed)
    mean, std = standardiser(x)
    z = ((x - mean) / std).astype(np.float32)
    d = z.shape[1]
    params = {
        "w1": (rng.standard_normal((d, hidden)) * np.sqrt(2.0 / d)).astype(np.float32),
        "b1": np.zeros(hidden, dtype=np.float32),
        "w2": (rng.standard_normal((hidden, n_labels)) * np.sqrt(1.0 / hidden)).astype(np.float32),
        "b2": np.zeros(n_labels, dtype=np.float32),
    }
    counts = np.bincount(y, minlength=n_labels).astype(np.float32)
    class_weight = (len(y) / (n_labels * np.maximum(counts, 1.0))).astype(np.float32)
    adam = _Adam(params, lr)
    for _ in range(epochs):
        order = rng.permutation(len(z))
        for start in range(0, len(z), batch_size):
            idx = order[start : start + batch_size]
            xb, yb = z[idx], y[idx]
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0.0)
            p = _softmax(h @ params["w2"] + params["b2"])
            w = class_weight[yb]
            grad_logits = p.copy()
            grad_logits[np.arange(len(yb)), yb] -= 1.0
            grad_logits *= (w / w.sum())[:, None]
            grad_h = (grad_logits @ params["w2"].T) * (h_pre > 0)
            grads = {
                "w2": h.T @ grad_logits + weight_decay * params["w2"],
                "b2": grad_logits.sum(0),
                "w1": xb.T @ grad_h + weight_decay * params["w1"],
                "b1": grad_h.sum(0),
            }
            adam.step(params, grads)
    return {"mean": mean, "std": std, **params}


def train_logistic(x: np.ndarray, y: np.ndarray, *, epochs: int = 200, lr: float = 0.05,
                   l2: float = 1e-3) -> dict[str, np.ndarray]:
    """A binary linear probe (logistic regression on standardised features, balanced
    classes, full-batch gradient descent from zeros: no randomness at all). Returns
    ``mean``, ``std``, ``w`` and ``b`` for :func:`logistic_scores`."""
    _check(x, y)
    if set(np.unique(y).tolist()) != {0, 1}:
        raise MTError(f"a binary probe needs examples of both classes, got labels {sorted(set(y.tolist()))}")
    mean, std = standardiser(x)
    z = ((x - mean) / std).astype(np.float64)
    w = np.zeros(z.shape[1])
    b = 0.0
    pos = y.mean()
    weight = np.where(y == 1, 0.5 / pos, 0.5 / (1 - pos)) / len(y)
    for _ in range(epochs):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = (p - y) * weight
        w -= lr * (z.T @ g + l2 * w)
        b -= lr * float(g.sum())
    return {"mean": mean, "std": std, "w": w.astype(np.float32), "b": np.array([b], dtype=np.float32)}


def logistic_scores(probe: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The probe's logit for each row of ``x`` (higher: more likely the positive class)."""
    z = (x - probe["mean"]) / probe["std"]
    return np.asarray((z.astype(np.float64) @ probe["w"].astype(np.float64)) + float(probe["b"][0]))
