"""Prediction caches: per (model, input), in memory and optionally on disk.

The memory cache is keyed by the model *object* the user passed (weakly, so a dropped
model frees its entries); the disk cache (SQLite) by the model's fingerprint
(:func:`model_fingerprint`), so a rerun in a new process recomputes nothing, and a model
that changed (its code, the values its code reads, its weights) gets fresh predictions.
A model that cannot be fingerprinted reliably is kept out of the disk cache (with one
warning). Only the runner, the Explorer's predictor and the repairer read and write caches.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
import sqlite3
import sys
import sysconfig
import threading
import types
import warnings
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .predictions import Prediction

_SIMPLE = (type(None), bool, int, float, complex, str, bytes, range, type(Ellipsis))
_MAX_NODES = 20000  # values visited for one fingerprint; beyond, it is not reliable
_WARNED: set[str] = set()
# Per live parameter tensor, by id: (weak reference, data pointer, version counter,
# digest); the version counter moves on every in-place change (an optimizer step), so a
# digest is reused only while the weights are untouched.
_TENSOR_DIGESTS: dict[int, tuple[Any, int, int, str]] = {}


class Unfingerprintable(Exception):
    """A value whose effect on a model's outputs cannot be captured (says which)."""


def model_fingerprint(model: object, name: str) -> str | None:
    """What identifies a model's behaviour across processes, or ``None`` when it cannot be
    told reliably (the disk cache is then not used for it; a warning says so, once).

    - an adapter's own :attr:`~mtwidgets.core.model.ModelAdapter.fingerprint` (class,
      name, version and options), plus a digest of what its ``fingerprint_attrs`` hold
      (the wrapped function, the torch module's weights, the pipeline);
    - a plain function: its code (bytecode, constants, names, nested functions), its
      defaults, the values in its closure and the globals it reads, each by value
      (library functions, classes and modules by name and installed version);
    - an object with ``predict``: its class's code and its attributes' values;
    - a torch module: a hash of every parameter and buffer; a spaCy pipeline: its name,
      version and config; a numpy array: a hash of its bytes.

    A user ``version=`` (``CallableModel(fn, version="2")``, ``as_model(obj, name,
    version=...)``, any adapter) is added, and vouches for what could not be captured.
    """
    fp = getattr(model, "fingerprint", None)
    qual = getattr(model, "__qualname__", type(model).__qualname__)
    base = fp if isinstance(fp, str) else f"{getattr(model, '__module__', '?')}.{qual}:{name}"
    user_version = getattr(model, "user_version", None)
    try:
        digest = _digest(_behaviour(model, fp))
    except Unfingerprintable as why:
        if user_version is None:
            key = f"{type(model).__qualname__}:{name}:{why}"
            if key not in _WARNED:
                _WARNED.add(key)
                warnings.warn(
                    f"model {name!r}: cannot fingerprint {why}, so its predictions are not kept in the "
                    "disk cache (a changed model could otherwise be served stale answers); give "
                    "version='...' (mt.models.as_model(model, name, version=...) or the adapter's "
                    "version=) and change it whenever the model changes to cache it on disk",
                    UserWarning,
                    stacklevel=3,
                )
            return None
        digest = "partial"
    out = f"{base}|{digest}"
    return f"{out}|version={user_version}" if user_version is not None else out


def _behaviour(model: object, fp: object) -> str:
    """The token of what determines ``model``'s outputs beyond its ``fingerprint`` string."""
    attrs = getattr(model, "fingerprint_attrs", None)
    if isinstance(fp, str) and isinstance(attrs, tuple):  # an adapter: its declared parts
        parts = []
        for path in attrs:
            value: Any = model
            for part in path.split("."):
                value = getattr(value, part, None)
            parts.append(f"{path}={_Tokens().token(value)}")
        return ";".join(parts)
    if isinstance(fp, str):  # an object that states its own fingerprint
        return ""
    return _Tokens().token(model)


def value_fingerprint(value: object) -> str:
    """A digest of what ``value`` (a function, an object, weights) would compute with;
    raises :class:`Unfingerprintable` naming the part that cannot be captured."""
    return _digest(_Tokens().token(value))


def _digest(token: str) -> str:
    return hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _is_library(module: str | None) -> bool:
    """Whether ``module`` is installed code (the standard library or site-packages), which
    is identified by name and version rather than read."""
    if not module or module == "__main__":
        return False
    top = module.split(".")[0]
    if top in sys.builtin_module_names or top in getattr(sys, "stdlib_module_names", ()):
        return True
    mod = sys.modules.get(top)
    path = getattr(mod, "__file__", None) or ""
    return any(path.startswith(p) for p in _library_paths())


_LIB_PATHS: list[str] = []


def _library_paths() -> list[str]:
    if not _LIB_PATHS:
        paths = sysconfig.get_paths()
        _LIB_PATHS.extend(sorted({paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}))
    return _LIB_PATHS


_VERSIONS: dict[str, str] = {}


def _package_version(module: str) -> str:
    top = module.split(".")[0]
    if top not in _VERSIONS:
        version = getattr(sys.modules.get(top), "__version__", None)
        if not isinstance(version, str):
            try:
                version = importlib.metadata.version(top)
            except Exception:  # noqa: BLE001 - no distribution of that name
                version = sys.version.split()[0] if top in getattr(sys, "stdlib_module_names", ()) else "?"
        _VERSIONS[top] = version
    return _VERSIONS[top]


class _Tokens:
    """Turns values into stable strings; raises :class:`Unfingerprintable` when it cannot."""

    def __init__(self) -> None:
        self.nodes = 0
        self.stack: set[int] = set()

    def token(self, v: Any) -> str:
        self.nodes += 1
        if self.nodes > _MAX_NODES:
            raise Unfingerprintable(f"more than {_MAX_NODES} values reachable from the model")
        if isinstance(v, _SIMPLE):
            return f"{type(v).__name__}:{v!r}"
        if id(v) in self.stack:
            return f"cycle:{type(v).__qualname__}"
        self.stack.add(id(v))
        try:
            return self._token(v)
        finally:
            self.stack.discard(id(v))

    def _token(self, v: Any) -> str:
        if isinstance(v, (list, tuple)):
            return f"{type(v).__name__}[{','.join(self.token(x) for x in v)}]"
        if isinstance(v, (set, frozenset)):
            return f"{type(v).__name__}{{{','.join(sorted(self.token(x) for x in v))}}}"
        if isinstance(v, dict):
            items = sorted(f"{self.token(k)}:{self.token(x)}" for k, x in v.items())
            return f"dict{{{','.join(items)}}}"
        if isinstance(v, re.Pattern):
            return f"regex:{v.pattern!r}:{v.flags}"
        if isinstance(v, types.ModuleType):
            name = v.__name__
            return f"module:{name}@{_package_version(name)}" if _is_library(name) else f"module:{name}"
        if isinstance(v, types.FunctionType):
            return self._function(v)
        if isinstance(v, types.MethodType):
            return f"method({self.token(v.__func__)},{self.token(v.__self__)})"
        if isinstance(v, (types.BuiltinFunctionType, types.MethodWrapperType, types.WrapperDescriptorType,
                          types.MethodDescriptorType, types.ClassMethodDescriptorType)):
            owner = getattr(v, "__self__", None)
            where = getattr(v, "__module__", None) or type(owner).__module__
            name = f"builtin:{where}.{getattr(v, '__qualname__', v.__name__)}"
            if owner is None or isinstance(owner, types.ModuleType):
                return name
            return f"{name}({self.token(owner)})"
        if isinstance(v, type):
            return self._class(v)
        if isinstance(v, (staticmethod, classmethod)):
            return f"{type(v).__name__}({self.token(v.__func__)})"
        if isinstance(v, property):
            return f"property({self.token(v.fget)},{self.token(v.fset)})"
        fp = getattr(v, "fingerprint", None)
        if isinstance(fp, str):  # an mtwidgets adapter (or an object stating its own)
            found = model_fingerprint(v, getattr(v, "name", "model"))
            if found is None:
                raise Unfingerprintable(f"the wrapped model {v!r}")
            return f"model:{found}"
        cls = type(v)
        module = cls.__module__
        if module.startswith("functools") and cls.__name__ == "partial":
            return f"partial({self.token(v.func)},{self.token(v.args)},{self.token(v.keywords)})"
        if _is_torch_module(v):
            return f"torch:{cls.__module__}.{cls.__qualname__}:{weights_digest(v)}"
        if _is_tensor(v):
            return f"tensor:{_tensor_digest(v)}"
        if module.startswith("numpy") and hasattr(v, "tobytes") and hasattr(v, "dtype"):
            data = v.tobytes() if getattr(v, "dtype", None) is not None and v.dtype != object else None
            if data is None:
                raise Unfingerprintable(f"a numpy array of Python objects ({cls.__qualname__})")
            return f"ndarray:{v.dtype}:{getattr(v, 'shape', '')}:{hashlib.blake2b(data, digest_size=12).hexdigest()}"
        if callable(getattr(v, "pipe", None)) and isinstance(getattr(v, "meta", None), dict) and hasattr(v, "pipe_names"):
            meta = v.meta  # a spaCy pipeline
            config = v.config.to_str() if hasattr(getattr(v, "config", None), "to_str") else ""
            return (f"spacy:{meta.get('lang')}_{meta.get('name')}-{meta.get('version')}:{list(v.pipe_names)}:"
                    f"{_digest(config)}")
        if _is_torch_module(getattr(v, "model", None)) and hasattr(v, "task"):  # a transformers pipeline
            return f"pipeline:{module}.{cls.__qualname__}:{v.task}:{self.token(v.model)}"
        if _is_library(module):
            raise Unfingerprintable(f"a {module}.{cls.__qualname__} object (its state is not readable)")
        state = getattr(v, "__dict__", None)
        if state is None:
            slots = [s for c in cls.__mro__ for s in getattr(c, "__slots__", ()) if isinstance(s, str)]
            if not slots:
                raise Unfingerprintable(f"a {cls.__qualname__} object (no readable state)")
            state = {s: getattr(v, s, None) for s in slots}
        return f"object({self._class(cls)},{self.token(dict(state))})"

    def _class(self, cls: type) -> str:
        name = f"{cls.__module__}.{cls.__qualname__}"
        if _is_library(cls.__module__):
            return f"class:{name}@{_package_version(cls.__module__)}"
        body = []
        for klass in cls.__mro__:
            if _is_library(klass.__module__):
                body.append(f"{klass.__module__}.{klass.__qualname__}@{_package_version(klass.__module__)}")
                continue
            for key, value in sorted(vars(klass).items()):
                if key.startswith("__") and key not in ("__call__", "__init__"):
                    continue
                if isinstance(value, (types.FunctionType, staticmethod, classmethod, property)):
                    body.append(f"{key}={self.token(value)}")
                elif isinstance(value, _SIMPLE) or isinstance(value, (tuple, frozenset)):
                    body.append(f"{key}={self.token(value)}")
        return f"class:{name}[{';'.join(body)}]"

    def _function(self, fn: types.FunctionType) -> str:
        module = getattr(fn, "__module__", None)
        if _is_library(module):
            return f"function:{module}.{fn.__qualname__}@{_package_version(str(module))}"
        code = fn.__code__
        parts = [_code_token(code), f"defaults={self.token(fn.__defaults__)}",
                 f"kwdefaults={self.token(fn.__kwdefaults__)}"]
        for var, cell in zip(code.co_freevars, fn.__closure__ or ()):
            try:
                content = cell.cell_contents
            except ValueError:  # an empty cell
                parts.append(f"{var}=<empty>")
                continue
            parts.append(f"{var}={self.token(content)}")
        globals_ = fn.__globals__
        for name in sorted(_global_names(code)):
            if name in globals_:
                parts.append(f"{name}={self.token(globals_[name])}")
        return f"function:{fn.__qualname__}[{';'.join(parts)}]"


def _code_token(code: types.CodeType) -> str:
    consts = [(_code_token(c) if isinstance(c, types.CodeType) else repr(c)) for c in code.co_consts]
    return _digest("|".join([code.co_code.hex(), ",".join(consts), ",".join(code.co_names),
                             ",".join(code.co_varnames), str(code.co_argcount), str(code.co_flags)]))


def _global_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _global_names(c)
    return names


def _is_tensor(v: object) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(v, torch.Tensor)


def _is_torch_module(v: object) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(v, torch.nn.Module)


def _tensor_digest(t: Any) -> str:
    torch = sys.modules["torch"]
    version, ptr = int(getattr(t, "_version", 0)), int(t.data_ptr())
    memo = _TENSOR_DIGESTS.get(id(t))
    if memo is not None and memo[0]() is t and memo[1] == ptr and memo[2] == version:
        return str(memo[3])
    data = t.detach().to("cpu").contiguous().reshape(-1).view(torch.uint8).numpy()
    digest = hashlib.blake2b(data, digest_size=12).hexdigest()
    digest = f"{tuple(t.shape)}:{t.dtype}:{digest}"
    key = id(t)
    try:
        ref = weakref.ref(t, lambda _: _TENSOR_DIGESTS.pop(key, None))
    except TypeError:  # not weak-referenceable: not memoised
        return digest
    _TENSOR_DIGESTS[key] = (ref, ptr, version, digest)
    return digest


def weights_digest(module: Any) -> str:
    """A hash of a torch module's parameters and buffers (names, shapes, dtypes, bytes),
    memoised per tensor until it changes in place."""
    h = hashlib.blake2b(digest_size=12)
    for name, t in [*module.named_parameters(), *module.named_buffers()]:
        h.update(f"{name}={_tensor_digest(t)};".encode())
    return h.hexdigest()


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

    def get_many(self, model: object, fingerprint: str | None, keys: Iterable[str]) -> dict[str, Prediction]:
        """Cached predictions of ``model`` for ``keys``; ``fingerprint=None`` (a model that
        cannot be fingerprinted) reads the memory cache only."""
        keys = list(keys)
        table = self._table(model)
        found = {k: table[k] for k in keys if k in table}
        missing = [k for k in keys if k not in found]
        if missing and self._db is not None and fingerprint is not None:
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

    def put_many(self, model: object, fingerprint: str | None, items: dict[str, Prediction]) -> None:
        self._table(model).update(items)
        if self._db is not None and items and fingerprint is not None:
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
