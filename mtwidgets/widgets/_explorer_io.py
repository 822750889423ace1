"""The Explorer's inputs and messages: reading data and models, errors a user can act on.

Kept apart from the widget class so the class holds only traits, handlers and rendering.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..core.data import load_inputs
from ..core.errors import InputError
from ..core.inputs import BaseInput, input_from_dict
from ..core.predictions import Prediction
from ..core.results import Results
from ..core.task import get_task


class SavedGroup(NamedTuple):
    """What a saved suite row brings back beside its first source: its relation, its
    follow-ups, the other sources of a case that joins several (x2, ...) and its meta (the
    transformation it was saved under)."""

    relation: str
    followups: tuple[BaseInput, ...]
    partners: tuple[BaseInput, ...] = ()
    meta: Mapping[str, Any] | None = None


def resolve_models(models: Any, task: str) -> dict[str, Any]:
    """``{name: model}`` from the user's ``models``; default the task's embedded models."""
    from ..models import available, load

    if models is None:
        models = available(task)
        if not models:
            raise InputError(
                f"the {get_task(task).title} task has no embedded models; pass models={{name: model}}"
            )
    if isinstance(models, str):
        models = [models]
    if isinstance(models, dict):
        out = dict(models)
    else:
        out = {str(name): load(str(name)) for name in models}
    if not out:
        embedded = available(task)
        example = f"embedded names like {embedded[:1]}" if embedded else "a {name: model} mapping"
        raise ValueError(f"models is empty; give {{name: model}} or {example}")
    return out


def read_data(data: Any, task: str) -> tuple[list[BaseInput], list[SavedGroup | None]]:
    """Inputs of the data, and for a saved suite the (relation, follow-ups) of each row.

    No data: the task's shipped sample (its ``sample`` part).
    """
    if data is None:
        t = get_task(task)
        make = t.part("sample")
        if make is None:
            raise InputError(f"the {t.title} task ships no sample; pass data=")
        data = make()
    if isinstance(data, Results):
        if not len(data.frame):
            raise InputError(
                "the results are empty; save at least one group before loading them into an Explorer"
            )
        inputs: list[BaseInput] = []
        groups: list[SavedGroup | None] = []
        seen: set[str] = set()
        for rec in data.frame.to_dict("records"):
            key = json.dumps([rec["group"], rec["sources"], rec["followups"]], sort_keys=True, default=str)
            if key in seen or not rec["sources"]:
                continue  # one row per group (a suite holds one row per group and model)
            seen.add(key)
            inputs.append(input_from_dict(rec["sources"][0]))
            groups.append(
                SavedGroup(
                    rec["relation"],
                    tuple(input_from_dict(f) for f in rec["followups"]),
                    tuple(input_from_dict(s) for s in rec["sources"][1:]),
                    rec.get("meta") if isinstance(rec.get("meta"), Mapping) else None,
                )
            )
        return inputs, groups
    loaded = load_inputs(data, task=None if _looks_untyped(data) else task)
    if not loaded.inputs:
        raise InputError("the data holds no inputs; pass at least one row")
    if any(x.task != loaded.inputs[0].task for x in loaded.inputs):
        raise InputError(
            f"the data mixes tasks {sorted({x.task for x in loaded.inputs})}; one Explorer explores one task"
        )
    return loaded.inputs, [None] * len(loaded.inputs)


def _looks_untyped(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and all(isinstance(x, BaseInput) for x in data)


def as_input(value: BaseInput | str | dict[str, Any], task: str) -> BaseInput:
    """An input of ``task`` from an input, a plain string (the task's ``from_text``, e.g.
    relation markup) or an input dict."""
    if isinstance(value, BaseInput):
        if value.task != task:
            raise InputError(
                f"this Explorer explores {task!r} inputs, not {value.task!r}: {value.display()!r}"
            )
        return value
    if isinstance(value, str):
        return get_task(task).input_from_text(value)
    if isinstance(value, dict):
        return input_from_dict(value)
    raise InputError(f"expected an input, markup string or input dict, got {type(value).__name__}: {value!r}")


def one_or_list(preds: list[Prediction]) -> Prediction | list[Prediction] | None:
    if not preds:
        return None
    return preds[0] if len(preds) == 1 else list(preds)


def error_message(exc: BaseException) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return text or type(exc).__name__


def error_hint(message: str) -> str:
    """What to do next, shown under the message (the message itself names the bad value)."""
    low = message.lower()
    if "empty" in low:
        return "Type a sentence in the text box, or pick a row of the data."
    if "span" in low or "overlap" in low or "mark" in low:
        return "Click a token (or drag over several) to mark it; Clear removes marks."
    if "relation" in low:
        return "Pick an enabled relation from the list."
    return "Fix the value named above and try again; the rest of the widget keeps working."
