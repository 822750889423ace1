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
    """

    name: str = "model"
    task: str = ""
    kind: str | None = None
    version: str = "1"

    def __init__(self, *, name: str | None = None, batch_size: int = 32) -> None:
        if name is not None:
            self.name = name
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.batch_size = batch_size

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
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        batched: bool = False,
        batch_size: int = 32,
        kind: str | None = None,
        task: str = "",
    ) -> None:
        if not callable(fn):
            raise TypeError(f"expected a callable, got {fn!r}")
        super().__init__(name=name or getattr(fn, "__name__", "callable"), batch_size=batch_size)
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


def as_model(obj: object, name: str, kind: str | None = None) -> Model:
    """Turn what a user passes in ``models={name: obj}`` into a :class:`Model`.

    ``kind`` is the prediction kind a wrapped callable's answers are read as."""
    if isinstance(obj, ModelAdapter):
        return obj
    if hasattr(obj, "predict") and callable(obj.predict):
        return obj  # type: ignore[return-value]
    wrapped = _wrap_by_task(obj, name)
    if wrapped is not None:
        return wrapped
    if callable(obj):
        return CallableModel(obj, name=name, kind=kind)
    raise TypeError(
        f"model {name!r} is a {type(obj).__name__}; give an object with a batched "
        "predict(inputs) method, an object a registered task wraps (such as an OpenNRE-style "
        "infer()), or a callable"
    )


def _wrap_by_task(obj: object, name: str) -> Model | None:
    """The first registered task's ``model_wrappers`` entry that accepts ``obj``."""
    from .task import resolve_ref, tasks

    for task in tasks():
        for ref in task.model_wrappers:
            model = resolve_ref(ref)(obj, name)
            if model is not None:
                return model  # type: ignore[no-any-return]
    return None
