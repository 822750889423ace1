"""OpenNRE-style models: ``infer(item) -> (label, score)`` on one sentence at a time.

OpenNRE's sentence-level models take a dict with the sentence and the head/tail positions::

    model.infer({"text": "...", "h": {"pos": (18, 46)}, "t": {"pos": (78, 91)}})
    # -> ("father", 0.51)

With ``input_format="text"`` (the default) ``pos`` is a pair of character offsets,
end exclusive, which is how OpenNRE reads a ``text`` item. With ``input_format="token"``
the item is ``{"token": [...], "h": {"pos": [i, j]}, "t": {"pos": [k, l]}}`` with token
indices, end exclusive; the text is split into words and punctuation
(``\\w+|[^\\w\\s]``) with the mentions' boundaries always on token boundaries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from ...core.model import ModelAdapter
from ..inputs import RelationInput

_TOKEN = re.compile(r"\w+|[^\w\s]")


def opennre_item(x: RelationInput) -> dict[str, Any]:
    """The character-offset item OpenNRE's ``infer`` reads for ``x``."""
    return {
        "text": x.text,
        "h": {"pos": (x.head.start, x.head.end)},
        "t": {"pos": (x.tail.start, x.tail.end)},
    }


def opennre_token_item(x: RelationInput) -> dict[str, Any]:
    """The token-index item (``{"token": [...], "h": {"pos": [i, j]}, ...}``) for ``x``."""
    first, second = sorted([("h", x.head), ("t", x.tail)], key=lambda p: p[1].start)
    tokens: list[str] = []
    positions: dict[str, list[int]] = {}
    pos = 0
    for role, span in (first, second):
        tokens += _TOKEN.findall(x.text[pos : span.start])
        begin = len(tokens)
        tokens += _TOKEN.findall(x.text[span.start : span.end])
        positions[role] = [begin, len(tokens)]
        pos = span.end
    tokens += _TOKEN.findall(x.text[pos:])
    return {"token": tokens, "h": {"pos": positions["h"]}, "t": {"pos": positions["t"]}}


def _read_result(value: object) -> object:
    # OpenNRE returns a (label, score) tuple; accept a 2-list too (e.g. after JSON).
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], str):
        return (value[0], value[1])
    return value


class OpenNREModel(ModelAdapter):
    """Wrap an object with OpenNRE's ``infer(item)`` (or a callable taking the same item).

    Parameters
    ----------
    obj_or_callable:
        An OpenNRE model (``opennre.get_model(...)``) or any object with ``infer``, or a
        function ``f(item) -> (label, score)``.
    input_format:
        ``"text"`` (character offsets, default) or ``"token"`` (token indices); see the
        module documentation.
    """

    task = "re"

    def __init__(
        self,
        obj_or_callable: Any,
        *,
        name: str | None = None,
        input_format: str = "text",
        batch_size: int = 32,
    ) -> None:
        infer = getattr(obj_or_callable, "infer", None)
        if callable(infer):
            fn: Callable[[dict[str, Any]], Any] = infer
        elif callable(obj_or_callable):
            fn = obj_or_callable
        else:
            raise TypeError(
                f"expected an object with infer(item) or a callable, got {type(obj_or_callable).__name__}"
            )
        if input_format not in ("text", "token"):
            raise ValueError(f"input_format must be 'text' or 'token', got {input_format!r}")
        default_name = getattr(obj_or_callable, "__name__", None) or type(obj_or_callable).__name__
        super().__init__(name=name or default_name, batch_size=batch_size)
        self.obj = obj_or_callable
        self.fn = fn
        self.input_format = input_format

    fingerprint_attrs = ("fn",)  # a bound infer: its code and its model's weights

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.input_format}"

    def model_input(self, x: object) -> object:
        """What ``infer`` sees of ``x``: the item (text or tokens and the two positions;
        OpenNRE items carry no entity types)."""
        if isinstance(x, RelationInput):
            return json.dumps(self.item(x), sort_keys=True, ensure_ascii=False)
        return x.key()  # type: ignore[attr-defined]

    def item(self, x: object) -> dict[str, Any]:
        """The dict ``infer`` receives for ``x``."""
        if not isinstance(x, RelationInput):
            raise TypeError(
                f"OpenNRE model {self.name!r} takes RelationInputs, got {type(x).__name__}: {x!r}"
            )
        return opennre_item(x) if self.input_format == "text" else opennre_token_item(x)

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        return [_read_result(self.fn(self.item(x))) for x in inputs]


def wrap_infer(obj: object, name: str) -> OpenNREModel | None:
    """The relation task's model wrapper (see :attr:`mtwidgets.core.task.Task.model_wrappers`):
    an object with OpenNRE's ``infer(item)`` and no ``predict`` becomes an
    :class:`OpenNREModel`; anything else is not this wrapper's (``None``)."""
    if hasattr(obj, "predict") or not callable(getattr(obj, "infer", None)):
        return None
    return OpenNREModel(obj, name=name)
