"""Prediction caches: per (model, input), in memory and optionally on disk.

The memory cache is keyed by the model *object* the user passed (weakly, so a dropped
model frees its entries); the disk cache (SQLite) by the model's fingerprint, so a
rerun in a new process recomputes nothing. Only the runner reads and writes caches.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import weakref
from collections.abc import Iterable
from pathlib import Path

from .predictions import Prediction


def model_fingerprint(model: object, name: str) -> str:
    """What identifies a model's behaviour across processes (adapters define it).

    An adapter wrapping a user callable (``model.fn``) adds the callable's module and
    qualified name to its fingerprint: two different functions registered under the same
    name must not share on-disk predictions.
    """
    fp = getattr(model, "fingerprint", None)
    fn = getattr(model, "fn", None)
    if fn is not None and callable(fn):
        qual = getattr(fn, "__qualname__", type(fn).__qualname__)
        ident = f"{getattr(fn, '__module__', '?')}.{qual}"
        return f"{fp}|{ident}" if isinstance(fp, str) else f"{ident}:{name}"
    if isinstance(fp, str):
        return fp
    qual = getattr(model, "__qualname__", type(model).__qualname__)
    return f"{getattr(model, '__module__', '?')}.{qual}:{name}"


class PredictionCache:
    """Memory cache, plus an optional SQLite file shared by runs and processes."""

    def __init__(self, path: str | Path | None = None) -> None:
        self._memory: weakref.WeakKeyDictionary[object, dict[str, Prediction]] = weakref.WeakKeyDictionary()
        self._by_id: dict[int, tuple[object, dict[str, Prediction]]] = {}
        self.path = Path(path) if path is not None else None
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS predictions (model TEXT, key TEXT, value TEXT, PRIMARY KEY (model, key))"
            )
            self._db.commit()

    def _table(self, model: object) -> dict[str, Prediction]:
        try:
            table = self._memory.get(model)
            if table is None:
                table = self._memory[model] = {}
            return table
        except TypeError:  # not weak-referenceable: keep the object alive with its table
            entry = self._by_id.get(id(model))
            if entry is None or entry[0] is not model:
                entry = self._by_id[id(model)] = (model, {})
            return entry[1]

    def get_many(self, model: object, fingerprint: str, keys: Iterable[str]) -> dict[str, Prediction]:
        table = self._table(model)
        found = {k: table[k] for k in keys if k in table}
        missing = [k for k in keys if k not in found]
        if missing and self._db is not None:
            with self._lock:
                for start in range(0, len(missing), 500):
                    chunk = missing[start : start + 500]
                    rows = self._db.execute(
                        f"SELECT key, value FROM predictions WHERE model = ? AND key IN ({','.join('?' * len(chunk))})",
                        [fingerprint, *chunk],
                    ).fetchall()
                    for key, value in rows:
                        pred = Prediction.from_dict(json.loads(value))
                        table[key] = found[key] = pred
        return found

    def put_many(self, model: object, fingerprint: str, items: dict[str, Prediction]) -> None:
        self._table(model).update(items)
        if self._db is not None and items:
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO predictions VALUES (?, ?, ?)",
                    [(fingerprint, k, json.dumps(p.to_dict())) for k, p in items.items()],
                )
                self._db.commit()

    def clear(self) -> None:
        self._memory = weakref.WeakKeyDictionary()
        self._by_id.clear()
        if self._db is not None:
            with self._lock:
                self._db.execute("DELETE FROM predictions")
                self._db.commit()


_DEFAULT = PredictionCache()


def default_cache() -> PredictionCache:
    """The process-wide memory cache ``mt.run`` uses unless given another."""
    return _DEFAULT
