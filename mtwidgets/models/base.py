"""The model contract: a batched ``predict(inputs) -> list[Prediction]``.

Adapters subclass :class:`ModelAdapter` and implement ``_predict_batch``; the public
``predict`` owns the shared concerns (splitting into batches, checking that exactly one
prediction comes back per input, coercing simple return values) so that every adapter,
and any plain callable a user wraps, fails the same clear way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..core.predictions import Prediction, coerce_prediction


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
    task:
        The input task the model serves (``"re"``, ``"text"``, ...); informative.
    """

    name: str = "model"
    task: str = "re"
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
            out.extend(check_outputs(self.name, batch, raw))
        return out

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def check_outputs(model_name: str, inputs: Sequence[Any], raw: object) -> list[Prediction]:
    """One prediction per input, or a ``TypeError`` that says what came back instead."""
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
    return [coerce_prediction(r) for r in items]


class CallableModel(ModelAdapter):
    """Wrap any Python callable.

    ``batched=True``: ``fn(list_of_inputs) -> list``; ``batched=False``: ``fn(input) ->
    one value``. Return values may be labels, ``(label, score)`` pairs, score tables or
    :class:`Prediction` objects.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        batched: bool = False,
        batch_size: int = 32,
        task: str = "re",
    ) -> None:
        if not callable(fn):
            raise TypeError(f"expected a callable, got {fn!r}")
        super().__init__(name=name or getattr(fn, "__name__", "callable"), batch_size=batch_size)
        self.fn = fn
        self.batched = batched
        self.task = task

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        if self.batched:
            return self.fn(inputs)  # type: ignore[no-any-return]
        return [self.fn(x) for x in inputs]


def as_model(obj: object, name: str) -> Model:
    """Turn what a user passes in ``models={name: obj}`` into a :class:`Model`."""
    if isinstance(obj, ModelAdapter):
        return obj
    if hasattr(obj, "predict") and callable(obj.predict):
        return obj  # type: ignore[return-value]
    if hasattr(obj, "infer") and callable(obj.infer):
        from .opennre import OpenNREModel

        return OpenNREModel(obj, name=name)
    if callable(obj):
        return CallableModel(obj, name=name)
    raise TypeError(
        f"model {name!r} is a {type(obj).__name__}; give an object with a batched "
        "predict(inputs) method, an OpenNRE-style object with infer(), or a callable"
    )
