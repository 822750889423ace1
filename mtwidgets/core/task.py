"""Tasks as plug-ins: one :class:`Task` declaration per task, and the registry of them.

A task package (relation extraction, NER, ...) declares everything the generic engine,
widgets, CLI and report need to know about it in one :class:`Task`: its input type, how
rows and DataFrame columns become inputs, its prediction kind, relations, embedded models,
Explorer and Batch panel view parts, report sections and CLI options. Nothing outside a
task package branches on a task's name: it asks the registry.

Heavy parts are named by reference (``"package.module:attribute"``) and imported only when
first used, so listing the tasks imports no spaCy or torch.

Registering
-----------
- Inside a Python package: an entry point in the group ``mtwidgets.tasks`` naming the
  :class:`Task` object (``[project.entry-points."mtwidgets.tasks"] shout =
  "shouting.task:TASK"``); mtwidgets' own tasks register the same way.
- At run time: ``mt.register_task(TASK)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .errors import MTError

ENTRY_POINT_GROUP = "mtwidgets.tasks"

# What a model answers for one input, per task: the fields of a Prediction it fills.
PREDICTION_KINDS: tuple[str, ...] = ("label", "spans", "value", "text")

# A callable, a class, or a "module:attribute" reference to one (imported on first use).
Ref = Any


def resolve_ref(ref: Ref) -> Any:
    """The object a ``"module:attribute"`` reference names (anything else as it is)."""
    if not isinstance(ref, str):
        return ref
    return _resolve_string(ref)


@cache
def _resolve_string(ref: str) -> Any:
    # Cached: from_row is resolved for every table row; import and attribute walk happen once.
    module_name, sep, attr = ref.partition(":")
    if not sep or not module_name or not attr:
        raise MTError(f"bad reference {ref!r}; write 'package.module:attribute'")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Field:
    """One canonical input field a DataFrame column can fill (the Batch panel's mapping UI
    receives these as data)."""

    name: str
    help: str = ""
    required: bool = True
    # Numbers (e.g. character offsets): a CSV reader leaves them to pandas; every other
    # field's column is read as strings ("46" stays "46", "NA" is not missing).
    numeric: bool = False
    # Other column names that usually hold this field (the Batch panel's mapping guess
    # tries the field's own name first, then these in order).
    aliases: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "help": self.help, "required": self.required}


@dataclass(frozen=True)
class ColumnMode:
    """One way a table's columns describe an input, e.g. RE's ``markup`` or ``offsets``."""

    name: str
    title: str
    fields: tuple[Field, ...]

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required)

    @property
    def optional(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if not f.required)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "fields": [f.to_dict() for f in self.fields]}


@dataclass(frozen=True)
class EmbeddedModel:
    """A model that ships inside installed packages and loads offline."""

    name: str
    task: str
    factory: Ref  # a callable returning a model, or "module:callable"
    description: str


@dataclass(frozen=True)
class Task:
    """Everything mtwidgets knows about one task.

    Parameters
    ----------
    name:
        Short id (``"re"``, ``"ner"``); inputs carry it as their ``task``.
    title:
        Human name, shown in widgets and reports.
    input_type:
        The :class:`~mtwidgets.core.inputs.BaseInput` subclass (or a reference to it).
    prediction:
        The prediction kind models answer with, one of :data:`PREDICTION_KINDS`.
    relations:
        The task's relation names, in catalogue order.
    on_request:
        Relation names listed in the catalogue after ``relations`` that ``relations="all"``
        leaves out: they run only when named (ENTRE needs gold labels and many model calls).
    build_relation:
        ``(name, **options) -> MetamorphicRelation`` for those names (or a reference).
    models:
        The embedded default models.
    from_row:
        ``(row mapping) -> input``, raising :class:`~mtwidgets.core.errors.InputError`
        that says what is wrong with the row.
    from_text:
        ``(str) -> input`` for tasks whose input can be one plain string (``None``: not).
    column_modes:
        The ways a table's columns describe an input (the Batch panel's mapping modes).
    detect:
        ``(column names) -> bool``: whether a table with these columns is this task's
        data (used when the task must be inferred from a DataFrame).
    sample:
        ``() -> data`` the task's shipped sample (a DataFrame or a list of inputs).
    explorer:
        ``() -> ExplorerParts``: how the Explorer marks an input and shows predictions.
    batch:
        ``() -> BatchParts``: the Batch panel's extra charts, columns and tallies.
    report:
        ``(results, context) -> list[str]``: extra HTML sections for the report.
    cli:
        ``() -> CLIParts``: extra ``mtwidgets run`` options and what runs after a run.
    model_wrappers:
        ``(obj, name) -> model | None`` each, tried by :func:`~mtwidgets.core.model.as_model`
        for objects without ``predict`` (e.g. an OpenNRE-style ``infer``).
    """

    name: str
    title: str
    input_type: Ref
    prediction: str
    relations: tuple[str, ...] = ()
    on_request: tuple[str, ...] = ()
    build_relation: Ref = None
    models: tuple[EmbeddedModel, ...] = ()
    from_row: Ref = None
    from_text: Ref = None
    column_modes: tuple[ColumnMode, ...] = ()
    detect: Ref = None
    sample: Ref = None
    explorer: Ref = None
    batch: Ref = None
    report: Ref = None
    cli: Ref = None
    model_wrappers: tuple[Ref, ...] = ()
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise MTError(f"a task needs a non-empty string name, got {self.name!r}")
        if self.prediction not in PREDICTION_KINDS:
            raise MTError(
                f"task {self.name!r}: prediction kind {self.prediction!r} is not one of {', '.join(PREDICTION_KINDS)}"
            )
        for m in self.models:
            if m.task != self.name:
                raise MTError(f"task {self.name!r} lists model {m.name!r} of task {m.task!r}")

    # -- lazily resolved parts -----------------------------------------------------------
    def part(self, name: str) -> Any:
        """A declared part resolved (``None`` when the task does not declare it)."""
        value = getattr(self, name)
        return None if value is None else resolve_ref(value)

    @property
    def input_class(self) -> Any:
        return resolve_ref(self.input_type)

    def input_from_row(self, row: Mapping[str, Any]) -> Any:
        if self.from_row is None:
            raise MTError(f"task {self.name!r} does not read table rows")
        return resolve_ref(self.from_row)(row)

    def input_from_text(self, text: str) -> Any:
        from .errors import InputError

        if self.from_text is None:
            raise InputError(
                f"a {self.title} input is not one plain string; build a {self.input_class.__name__} instead"
            )
        return resolve_ref(self.from_text)(text)

    def matches_columns(self, columns: set[str]) -> bool:
        return bool(self.detect is not None and resolve_ref(self.detect)(columns))

    def mode(self, name: str) -> ColumnMode:
        for m in self.column_modes:
            if m.name == name:
                return m
        raise MTError(
            f"column mapping mode {name!r} does not fit {self.title} data; choose one of "
            f"{', '.join(m.name for m in self.column_modes)}"
        )

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "input": getattr(self.input_type, "__name__", str(self.input_type).rpartition(":")[2]),
            "prediction": self.prediction,
            "relations": ", ".join(self.relations),
            "models": ", ".join(m.name for m in self.models),
            "description": self.description,
        }


# -- the registry ---------------------------------------------------------------------------
_TASKS: dict[str, Task] = {}
_LOADED = False


def register_task(task: Task, *, replace: bool = False) -> Task:
    """Register ``task`` (a :class:`Task`, or a reference to one). Returns it.

    A second task under a registered name is refused unless ``replace=True``.
    """
    task = resolve_ref(task)
    if not isinstance(task, Task):
        raise MTError(f"register_task needs an mtwidgets Task, got {type(task).__name__}")
    _load_entry_points()
    old = _TASKS.get(task.name)
    if old is not None and old is not task and not replace:
        raise MTError(f"a task named {task.name!r} is registered already; pass replace=True to replace it")
    _TASKS[task.name] = task
    _changed()
    return task


def unregister_task(name: str) -> None:
    """Remove a task (tests and notebooks that register a toy task clean up with this)."""
    _load_entry_points()
    _TASKS.pop(name, None)
    _changed()


_LISTENERS: list[Callable[[], None]] = []


def on_change(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever the set of tasks changes (the relation catalogue listens)."""
    _LISTENERS.append(callback)


def _changed() -> None:
    for callback in _LISTENERS:
        callback()


def _load_entry_points() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from importlib.metadata import entry_points

    # mtwidgets' own tasks first, in a fixed order (also from a source tree never installed),
    # then the plug-ins by name.
    builtins = ("mtwidgets.re.task:TASK", "mtwidgets.ner.task:TASK")
    others = sorted((ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.value not in builtins),
                    key=lambda ep: ep.name)
    found: list[Any] = [*(_Builtin(b) for b in builtins), *others]
    for ep in found:
        try:
            task = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break the others
            import warnings

            warnings.warn(f"mtwidgets task plug-in {ep.value!r} failed to load: {exc}", stacklevel=2)
            continue
        if isinstance(task, Task) and task.name not in _TASKS:
            _TASKS[task.name] = task


@dataclass(frozen=True)
class _Builtin:
    value: str

    def load(self) -> Any:
        return resolve_ref(self.value)


def tasks() -> list[Task]:
    """Every registered task, mtwidgets' own first."""
    _load_entry_points()
    return list(_TASKS.values())


def task_names() -> list[str]:
    return [t.name for t in tasks()]


def get_task(name: str | Task) -> Task:
    """The task registered as ``name``; the error lists the registered tasks."""
    if isinstance(name, Task):
        return name
    _load_entry_points()
    if name not in _TASKS:
        raise MTError(f"no task named {name!r}; registered tasks: {', '.join(_TASKS) or 'none'}")
    return _TASKS[name]


def tasks_frame() -> Any:
    """The registered tasks as a DataFrame (``mt.tasks()``)."""
    import pandas as pd

    return pd.DataFrame([t.info() for t in tasks()])


def embedded_models() -> dict[str, EmbeddedModel]:
    """Every registered task's embedded models by name."""
    return {m.name: m for t in tasks() for m in t.models}


def task_for_input(x: Any) -> Task:
    return get_task(str(getattr(x, "task", "")))
