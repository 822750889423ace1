"""The model contract: a batched ``predict(inputs) -> list[Prediction]``.

Adapters subclass :class:`ModelAdapter` and implement ``_predict_batch``; the public
``predict`` owns the shared concerns (splitting into batches, checking that exactly one
prediction comes back per input, coercing simple return values) so that every adapter,
and any plain callable a user wraps, fails the same clear way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .predictions import Prediction, coerce_prediction


@runtime_checkable
class Model(Protocol):
    """Anything with a batched ``predict``; the runner needs nothing else."""

    def predict(self, inputs: list[Any]) -> list[Prediction]: ...


class ModelAdapter:
    """Base class of the adapters: batching plus output checks around ``_predict_batch``.

    Parameters
    ----------
    name:
        A short display name.
    batch_size:
        How many inputs go to ``_predict_batch`` at once.

    Class attributes
    ----------------
    task:
        The registered task the model serves (informative; ``""``: not said).
    kind:
        The prediction kind its raw answers are read as (``"label"``, ``"spans"``,
        ``"value"``, ``"text"``); ``None``: the kind of :attr:`task` if registered, else
        the kind of the inputs' task, else ``"label"``.
    version:
        The adapter's own behaviour version (part of :attr:`fingerprint`).
    fingerprint_attrs:
        Attributes (dotted paths) holding what decides the outputs beyond the
        :attr:`fingerprint` string (a wrapped function, a torch module, a pipeline): the
        disk cache's key includes a digest of their values
        (:func:`~mtwidgets.core.cache.model_fingerprint`).

    Instance attributes
    -------------------
    user_version:
        The ``version=`` the user gave (``None``: none); part of the disk cache's key, and
        it vouches for what cannot be fingerprinted.
    """

    name: str = "model"
    task: str = ""
    kind: str | None = None
    version: str = "1"
    fingerprint_attrs: tuple[str, ...] = ()

    def __init__(self, *, name: str | None = None, batch_size: int = 32, version: str | None = None) -> None:
        if name is not None:
            self.name = name
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.batch_size = batch_size
        self.user_version: str | None = None if version is None else str(version)

    @property
    def fingerprint(self) -> str:
        """Identifies the model's behaviour for the on-disk prediction cache."""
        return f"{type(self).__module__}.{type(self).__qualname__}:{self.name}:{self.version}"

    def predict(self, inputs: list[Any]) -> list[Prediction]:
        inputs = list(inputs)
        out: list[Prediction] = []
        for start in range(0, len(inputs), self.batch_size):
            batch = inputs[start : start + self.batch_size]
            raw = self._predict_batch(batch)
            out.extend(check_outputs(self.name, batch, raw, kind=self.kind_for(batch)))
        return out

    @property
    def prediction_kind(self) -> str:
        """The kind raw answers are read as (see :attr:`kind`)."""
        return self.kind or task_kind(self.task) or "label"

    def kind_for(self, inputs: Sequence[Any]) -> str:
        """The kind this batch's raw answers are read as: :attr:`kind`, else the kind of
        :attr:`task`, else that of the inputs' task, else ``"label"``."""
        found = self.kind or task_kind(self.task)
        if found is None and inputs:
            found = task_kind(str(getattr(inputs[0], "task", "") or ""))
        return found or "label"

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def task_kind(task: str | None) -> str | None:
    """The prediction kind of a registered task (``None`` for no or an unknown task)."""
    if not task:
        return None
    from .errors import MTError
    from .task import get_task

    try:
        return get_task(task).prediction
    except MTError:
        return None


def check_outputs(model_name: str, inputs: Sequence[Any], raw: object, kind: str = "label") -> list[Prediction]:
    """One prediction per input, read as ``kind`` (see
    :func:`~mtwidgets.core.predictions.coerce_prediction`), or a ``TypeError`` that says
    what came back instead."""
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Iterable):
        raise TypeError(
            f"model {model_name!r} returned a single {type(raw).__name__} for a batch of "
            f"{len(inputs)} inputs; expected a list with one prediction per input"
        )
    items = list(raw)  # lists, tuples, generators, numpy arrays
    if len(items) != len(inputs):
        raise TypeError(
            f"model {model_name!r} returned {len(items)} predictions for {len(inputs)} inputs; "
            "expected exactly one per input, in order"
        )
    return [coerce_prediction(r, kind) for r in items]


class CallableModel(ModelAdapter):
    """Wrap any Python callable.

    ``batched=True``: ``fn(list_of_inputs) -> list``; ``batched=False``: ``fn(input) ->
    one value``. Return values are read as ``kind``: for ``"label"`` labels, ``(label,
    score)`` pairs or score tables; for ``"spans"`` lists of spans; for ``"value"`` numbers;
    for ``"text"`` strings; :class:`Prediction` objects always. ``kind=None`` takes the kind
    of ``task`` (a registered task's name), else that of the inputs' task, else reads labels.
    ``version``: see :class:`ModelAdapter` (the disk cache already tells functions apart
    by their code, defaults, closure and the globals they read).
    """

    fingerprint_attrs = ("fn",)

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        batched: bool = False,
        batch_size: int = 32,
        kind: str | None = None,
        task: str = "",
        version: str | None = None,
    ) -> None:
        if not callable(fn):
            raise TypeError(f"expected a callable, got {fn!r}")
        super().__init__(name=name or getattr(fn, "__name__", "callable"), batch_size=batch_size, version=version)
        self.fn = fn
        self.batched = batched
        self.task = task
        if kind is not None:
            from .task import PREDICTION_KINDS

            if kind not in PREDICTION_KINDS:
                raise ValueError(f"kind must be one of {', '.join(PREDICTION_KINDS)}, got {kind!r}")
        self.kind = kind

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        if self.batched:
            return self.fn(inputs)  # type: ignore[no-any-return]
        return [self.fn(x) for x in inputs]


def as_model(obj: object, name: str, kind: str | None = None, *, version: str | None = None) -> Model:
    """Turn what a user passes in ``models={name: obj}`` into a :class:`Model`.

    ``kind`` is the prediction kind a wrapped callable's answers are read as. ``version``
    is added to the model's disk-cache fingerprint (change it when the model changes in a
    way the fingerprint cannot see, e.g. a server behind a URL)."""
    if isinstance(obj, ModelAdapter):
        if version is not None:
            obj.user_version = str(version)
        return obj
    if hasattr(obj, "predict") and callable(obj.predict):
        return obj if version is None else _Versioned(obj, str(version))  # type: ignore[return-value]
    wrapped = _wrap_by_task(obj, name)
    if wrapped is not None:
        if version is not None:
            wrapped = wrapped if isinstance(wrapped, ModelAdapter) else _Versioned(wrapped, str(version))
            if isinstance(wrapped, ModelAdapter):
                wrapped.user_version = str(version)
        return wrapped
    if callable(obj):
        return CallableModel(obj, name=name, kind=kind, version=version)
    raise TypeError(
        f"model {name!r} is a {type(obj).__name__}; give an object with a batched "
        "predict(inputs) method, an object a registered task wraps (such as an OpenNRE-style "
        "infer()), or a callable"
    )


class _Versioned:
    """An object with ``predict`` and a user-given ``version`` for the disk cache."""

    def __init__(self, model: Any, version: str) -> None:
        self.model = model
        self.user_version = version

    def predict(self, inputs: list[Any]) -> Any:
        return self.model.predict(inputs)

    def model_input(self, x: Any) -> Any:
        reader = getattr(self.model, "model_input", None)
        return reader(x) if callable(reader) else x.key()


def _wrap_by_task(obj: object, name: str) -> Model | None:
    """The first registered task's ``model_wrappers`` entry that accepts ``obj``."""
    from .task import resolve_ref, tasks

    for task in tasks():
        for ref in task.model_wrappers:
            model = resolve_ref(ref)(obj, name)
            if model is not None:
                return model  # type: ignore[no-any-return]
    return None
