"""The Explorer: one example, live source vs follow-up, on every model at once.

A thin view over the engine. The user gives an input (typing it, and
marking what the task's parts ask for), picks a relation and steps through follow-ups in
the browser; each action arrives as a message ``{kind, id, ...}``, is
dispatched to a handler here, and the reply (same ``id``) follows the state update, so the
front end knows when the new verdict is on screen. All computation happens in Python with
the engine (relations' transformations, the prediction cache, the output properties); the
front end only renders the JSON render state held in ``_``-prefixed synced traits, which
is also what a saved notebook keeps, so the widget re-renders without a kernel.

Python access mirrors the screen: ``explorer.source``, ``explorer.followups``,
``explorer.predictions``, ``explorer.verdicts`` and the synced traits ``index``,
``relation``, ``seed`` and ``candidate``; setting them updates the view.

A relation whose test case joins several sources (pairwise systematicity: two texts) and
declares how to show one (:class:`~mtwidgets.core.views.MultiSourceParts`) is explored one
case at a time: the input is the case's first source ``x1``, the others (``x2``, ...) are
the rows after it until the user picks or types them (:meth:`Explorer.set_partner`; then
they stay when ``x1`` changes), the synced trait ``case_option`` picks the transformation,
and every model's verdict on the case comes with the premise and the hypothesis
(``explorer.judgements``). See :mod:`mtwidgets.widgets._explorer_multi`.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import anywidget
import traitlets

from ..core.data import FIRST_TASK, infer_task
from ..core.diagram import diagram
from ..core.errors import InputError, MTError
from ..core.inputs import BaseInput
from ..core.registry import resolve
from ..core.relation import Group, MetamorphicRelation
from ..core.results import Results, make_row
from ..core.spans import Span
from ..core.task import get_task
from ..core.views import CaseJudgement, ExplorerParts, ExtraPart, MultiSourceParts, explorer_parts
from ._assets import asset_path, esm
from ._explorer_io import (
    SavedGroup,
    as_input,
    error_hint,
    error_message,
    one_or_list,
    read_data,
    resolve_models,
)
from ._explorer_multi import CaseShown, Partner, Partners, case_group, case_view, evaluate_case, pick_option
from ._explorer_state import (
    CandidateList,
    ModelOutcome,
    Predictor,
    candidate_list,
    check_mark,
    extra_view,
    followup_view,
    input_view,
    model_view,
    one_torch_thread,
    relation_view,
)

_ROWS_SHOWN = 2000  # rows listed in the picker; the rest stay reachable by index


def _costly(rel: MetamorphicRelation) -> bool:
    """Whether finding ``rel``'s follow-ups runs filters (e.g. TIN's MiniLM similarity)."""
    return bool(getattr(rel.transformation, "filters", ()))


class Explorer(anywidget.AnyWidget):
    """Explore one input: give and mark it, apply a relation, compare models' verdicts.

    Parameters
    ----------
    models:
        ``{name: model}`` (anything :func:`mtwidgets.models.as_model` accepts) or a list of
        embedded model names; default the task's embedded models.
    relations:
        Relation names or objects; default every relation of the data's task.
    data:
        A DataFrame, a list of inputs or markup strings, or a :class:`Results` (e.g. a saved
        ``explorer.suite``: its groups come back with their relation and follow-ups);
        default the task's shipped sample (e.g. ``mt.datasets.re_sample()``).
    seed:
        Orders the follow-up candidates; :meth:`reshuffle` draws another order.
    top_k:
        Scores shown per prediction.
    task:
        A registered task's name (``mt.tasks()``); default: the data's task (or the
        relations' or models', without data; else the first registered task). The task's
        Explorer parts decide what the user marks (relation extraction: a head and a tail;
        NER: optional gold entities) and how each model card draws its predictions.
    repair:
        For a task whose model cards have an inspector that repairs (NER: TIN's relabeling,
        Algorithm 1): repair each violation and show the repaired prediction beside the
        original. The first repair loads word vectors and MiniLM (a few seconds).
    repairer_options:
        Options for that inspector's repairer (NER: :class:`mtwidgets.ner.repair.Repairer`,
        e.g. ``fill_mask``).
    """

    _esm = esm("explorer.js")
    _css = asset_path("explorer.css")

    index = traitlets.Int(0, help="Row of the data shown.").tag(sync=True)
    relation = traitlets.Unicode("", help="Name of the relation applied.").tag(sync=True)
    seed = traitlets.Int(0, help="Seed of the candidate order.").tag(sync=True)
    candidate = traitlets.Int(0, help="Which follow-up candidate is shown.").tag(sync=True)
    case_option = traitlets.Unicode(
        "", help="The transformation of a multi-source relation's case ('': the first that applies)."
    ).tag(sync=True)

    # Render state: JSON only, what the front end draws (and what a saved notebook keeps).
    _input = traitlets.Dict().tag(sync=True)  # mark_view, text(s), tokens, marks, roles, types, suggestions
    _rows: traitlets.List[Any] = traitlets.List().tag(sync=True)  # [{i, text}] for the row picker
    # the catalogue, each relation enabled or not on this input (with the reason)
    _relations: traitlets.List[Any] = traitlets.List().tag(sync=True)
    _diagram = traitlets.Unicode("").tag(sync=True)  # the chosen relation in the paper's notation (SVG)
    _followup = traitlets.Dict().tag(sync=True)  # diff segments, candidate counter, note
    # per model: prediction view and predictions, verdict, reason, extra component
    _models: traitlets.List[Any] = traitlets.List().tag(sync=True)
    _error = traitlets.Dict().tag(sync=True)  # {message, hint} or {}
    _saved = traitlets.Int(0).tag(sync=True)  # groups in the suite
    # a multi-source relation's case: its sources, transformation, follow-ups, model cards; {} otherwise
    _case = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        models: Any = None,
        relations: Any = None,
        data: Any = None,
        seed: int = 0,
        top_k: int = 3,
        task: str | None = None,
        repair: bool = True,
        repairer_options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if top_k < 1:
            raise ValueError(f"top_k must be >= 1, got {top_k}")
        self._top_k = top_k
        self._inputs: list[BaseInput]
        self._row_groups: list[SavedGroup | None]
        if task is not None:
            get_task(task)  # an unknown name: the error lists the registered tasks
        self._inputs, self._row_groups = read_data(
            data, task or infer_task(data, models, relations, default=FIRST_TASK)
        )
        self.task = self._inputs[0].task
        self._parts: ExplorerParts = explorer_parts(get_task(self.task))
        self._parts.warm(self._inputs)
        given = resolve(relations, self.task)
        wrong = [r.name for r in given if r.task != self.task]
        if wrong:
            raise InputError(
                f"relations {wrong} are not for {self.task!r} inputs; pick relations of the data's task "
                f"(mt.catalogue({self.task!r}))"
            )
        self._relations_by_name: dict[str, MetamorphicRelation] = {
            r.name: r.prepared(self._inputs) for r in given
        }
        self._predictor = Predictor(resolve_models(models, self.task))
        self._extra: ExtraPart | None = self._parts.extra(
            self._predictor, repair=repair, repairer_options=repairer_options
        )
        self._candidates: OrderedDict[tuple[str, str, int], CandidateList] = OrderedDict()
        self._diagrams: dict[str, str] = {}  # relation name -> its diagram's SVG, drawn once
        self._multi: dict[str, MultiSourceParts | None] = {}  # relation name -> how its case is shown
        self._partners = Partners()  # x2, ... of a multi-source relation's case
        self._suite_rows: list[dict[str, Any]] = []
        self._texts: dict[str, str] = dict.fromkeys(self._parts.fields, "")
        self._custom = False  # True once the input is typed or set from Python, not a data row
        self._marks: dict[str, Span | None] = {}
        self._edited: tuple[BaseInput, ...] | None = None
        self._depth = 0
        self._handlers: dict[str, Callable[[dict[str, Any]], object]] = {
            "mark": lambda m: self.mark(m["role"], m["start"], m["end"], m.get("label")),
            "clear": lambda m: self.clear(m.get("role")),
            "set_type": lambda m: self.set_type(m["role"], m.get("label")),
            "set_text": lambda m: self.set_text(m["texts"] if "texts" in m else m["text"]),
            "row": lambda m: self.select(int(m["index"])),
            "relation": lambda m: self.set_relation(m["name"]),
            "candidate": lambda m: self.next_candidate(int(m.get("step", 1))),
            "reshuffle": lambda m: self.reshuffle(),
            "edit_followup": lambda m: self.edit_followup(m["text"]),
            "save": lambda m: self.save(),
            "partner_text": lambda m: self.set_partner(m["texts"] if "texts" in m else m["text"], int(m.get("slot", 1))),
            "partner_row": lambda m: self.set_partner(int(m["index"]), int(m.get("slot", 1))),
            "partner_auto": lambda m: self.set_partner(None, int(m.get("slot", 1))),
            "case_option": lambda m: self.set_option(str(m["option"])),
        }
        self.on_msg(self._on_msg)
        with self._changing():
            self._rows = [{"i": i, "text": x.display()} for i, x in enumerate(self._inputs[:_ROWS_SHOWN])]
            self.seed = seed
            self._load_row(0)  # a saved suite's row brings its own relation
            if not self.relation:
                self.relation = self._default_relation()

    # -- public Python API ------------------------------------------------------------------
    @property
    def parts(self) -> ExplorerParts:
        """The task's Explorer parts (how inputs are marked and predictions drawn)."""
        return self._parts

    @property
    def source(self) -> BaseInput | None:
        """The input shown (``None`` until it is complete: every text typed, every role marked)."""
        if not any(t.strip() for t in self._texts.values()):
            return None
        return self._parts.build(self._texts, self._marks)[0]

    @source.setter
    def source(self, value: BaseInput | str) -> None:
        x = as_input(value, self.task)
        with self._changing():
            self._texts, self._marks, self._edited = self._parts.texts_of(x), self._parts.marks_of(x), None
            self._custom = True
            self.candidate = 0

    @property
    def followups(self) -> list[BaseInput]:
        """The follow-up inputs shown (empty when the relation does not apply)."""
        group = self._group()
        return list(group.followups) if group is not None else []

    @followups.setter
    def followups(self, value: list[BaseInput] | BaseInput | str) -> None:
        items = value if isinstance(value, list) else [value]
        with self._changing():
            self._edited = tuple(as_input(v, self.task) for v in items)

    @property
    def predictions(self) -> dict[str, dict[str, Any]]:
        """``{model: {"source": Prediction, "followup": Prediction}}`` (a list of
        predictions instead where a relation has two sources); ``None`` where not computed."""
        out: dict[str, dict[str, Any]] = {}
        for name, o in self._outcomes().items():
            out[name] = {"source": one_or_list(o.sources), "followup": one_or_list(o.followups)}
        return out

    @property
    def verdicts(self) -> dict[str, str]:
        """``{model: "pass" | "violation" | "not_applicable" | "error"}`` as on screen."""
        return {name: o.check.verdict for name, o in self._outcomes().items()}

    @property
    def multi_source(self) -> MultiSourceParts | None:
        """How the chosen relation's case is shown when it joins several sources (``None``:
        one group at a time)."""
        return self._multi_of(self.relation)

    @property
    def partners(self) -> list[BaseInput | None]:
        """The case's other sources as shown (``x2``, ...; ``None`` where one is still
        incomplete); empty for a relation shown one group at a time."""
        multi = self.multi_source
        if multi is None:
            return []
        return [self._partner(k)[0] for k in range(1, len(multi.source_titles))]

    @property
    def judgements(self) -> dict[str, CaseJudgement | None]:
        """``{model: CaseJudgement}`` on the shown case of a multi-source relation: the
        values read, the premise and the hypothesis and whether each holds (``None`` for a
        model that failed on a source)."""
        if self.multi_source is None:
            raise InputError(
                f"{self.relation} is explored one group at a time; its verdicts are in explorer.verdicts"
            )
        shown = self._case_shown()
        return {name: o.judgement for name, o in shown.outcomes.items()} if shown is not None else {}

    def set_partner(self, value: Any, slot: int = 1) -> None:
        """Set the case's source ``x{slot + 1}`` (``slot=1``: ``x2``): a data row (an int), a
        typed text (a string, or ``{field: text}``), an input, or ``None`` to go back to the
        default (the row ``slot`` after the input's, following it). A chosen source stays
        when the input (``x1``) changes."""
        with self._action():
            if value is None:
                partner = Partner()
            elif isinstance(value, bool):
                raise InputError(f"a source is a row number, a text or an input, got {value!r}")
            elif isinstance(value, int):
                if not 0 <= value < len(self._inputs):
                    raise InputError(
                        f"row {value} is out of range; the data has rows 0..{len(self._inputs) - 1}"
                    )
                partner = Partner(row=value)
            elif isinstance(value, (str, Mapping)):
                if isinstance(value, Mapping):
                    self._parts.parse_texts(value)  # unknown fields named now
                partner = Partner(text=value if isinstance(value, str) else dict(value))
            else:
                partner = Partner(given=as_input(value, self.task))
            self._partners.set(slot, partner)

    def set_option(self, option: str) -> None:
        """Pick the transformation of the case (as setting ``explorer.case_option``)."""
        with self._action():
            self.case_option = option

    def _extra_with(self, method: str, what: str) -> Any:
        """The extra part when it offers ``method``, else an InputError naming the task."""
        if self._extra is None or not callable(getattr(self._extra, method, None)):
            raise InputError(
                f"{what} are not part of the {get_task(self.task).title} Explorer; its model cards "
                "have no inspector that computes them"
            )
        return self._extra

    @property
    def suspicious(self) -> dict[str, list[Any]]:
        """``{model: [SuspiciousEntity]}`` located on the shown group, for tasks whose
        inspector locates them (NER: TIN section 3.5.1)."""
        extra = self._extra_with("suspicious", "suspicious entities")
        group = self._group()
        if group is None:
            return {}
        rel = self._relations_by_name[self.relation]
        return {name: extra.suspicious(rel, group, o) for name, o in self._outcomes().items()}

    @property
    def repairs(self) -> dict[str, dict[str, Any]]:
        """``{model: {"source": spans, "followup": spans, "relabels": [...]}}``, the repaired
        predictions of the models with a violation on the shown group, for tasks whose
        inspector repairs (NER)."""
        extra = self._extra_with("repairs", "repairs")
        return dict(extra.repairs({m["name"]: (m.get("extra") or {}).get("data") for m in self._models}))

    @property
    def suite(self) -> Results:
        """The saved groups (one row per group and model); ``.save()`` it, load it back with
        ``mt.Results.load`` and pass it as ``Explorer(data=...)``."""
        return Results.from_rows(self._suite_rows)

    def mark(self, role: str, start: int, end: int, label: str | None = None) -> None:
        """Mark ``text[start:end]`` as ``role`` (the task's roles, ``explorer.parts.roles``):
        "head"/"tail" for relation extraction; for NER, "entity" adds a gold entity with
        ``label`` (default: spaCy's label there); for the text tasks, the field ("text", or
        "text_a"/"text_b" of a pair) in which ``start:end`` is the word to replace. The
        offsets are into the text of the field the role marks (``parts.field_of(role)``)."""
        with self._action():
            if role not in self._parts.roles:
                if not self._parts.roles:
                    raise InputError(
                        f"a {get_task(self.task).title} input has nothing to mark; type its text"
                    )
                raise InputError(f"unknown role {role!r}; mark one of {list(self._parts.roles)}")
            text = self._texts.get(self._parts.field_of(role), "")
            if not text.strip():
                raise InputError("there is no text to mark; type a sentence first")
            span = Span(int(start), int(end))
            check_mark(text, span, role)
            self._marks = self._parts.add_mark(text, self._marks, role, span, label)
            self._edited, self.candidate = None, 0

    def clear(self, role: str | None = None) -> None:
        """Clear one role's mark (for NER, one gold entity by its ``"start:end"`` key), or every mark."""
        with self._action():
            if role is not None and not self._parts.accepts(role):
                raise InputError(f"unknown role {role!r}; clear one of {list(self._parts.roles)}")
            self._marks = self._parts.remove_mark(self._marks, role)
            self._edited, self.candidate = None, 0

    def set_type(self, role: str, label: str | None) -> None:
        """Set the entity type of a marked role (``None`` or "" goes back to the inferred type)."""
        with self._action():
            span = self._marks.get(role)
            if span is None:
                raise InputError(f"the {role} is not marked yet; mark it before setting its type")
            types = self._parts.entity_types
            if label and types and label not in types:
                raise InputError(f"unknown entity type {label!r}; choose one of {', '.join(types)}")
            self._marks = {**self._marks, role: span.with_label(label or None)}
            self._edited, self.candidate = None, 0

    def set_text(self, text: str | Mapping[str, str]) -> None:
        """Replace the input's text; marks are cleared (their offsets no longer apply).

        A string is the (first) text; ``{field: text}`` sets the named fields of a
        several-text input (``{"text_a": ..., "text_b": ...}``; also ``"first ||| second"``).
        """
        with self._action():
            values = list(text.values()) if isinstance(text, Mapping) else [text]
            bad = next((v for v in values if not isinstance(v, str)), None)
            if bad is not None or not values:
                raise InputError(f"text must be a string, got {type(bad).__name__}")
            given = self._parts.parse_texts(text)
            self._texts, self._edited, self._custom = {**self._texts, **given}, None, True
            self._marks = self._parts.empty_marks()
            self.candidate = 0
            empty = [f for f, t in given.items() if not t.strip()]
            if empty:
                what = (
                    "text"
                    if len(self._parts.fields) == 1
                    else " and the ".join(map(self._parts.title, empty))
                )
                raise InputError(f"the {what} is empty; type a sentence (or pick a row) to explore")

    def select(self, index: int) -> None:
        """Show row ``index`` of the data (as setting ``explorer.index``)."""
        with self._action():
            self.index = index

    def set_relation(self, name: str) -> None:
        with self._action():
            self.relation = name

    def next_candidate(self, step: int = 1) -> None:
        """Show the next (``step=-1``: previous) follow-up candidate, wrapping around."""
        with self._action():
            multi = self.multi_source
            if multi is not None:
                keys = [k for k, _ in multi.options()]
                shown = self._case_shown()
                at = keys.index(shown.option) if shown is not None and shown.option in keys else 0
                self.case_option = keys[(at + step) % len(keys)]
                return
            cands = self._candidate_list()
            n = len(cands) if cands is not None else 1
            self._edited = None
            self.candidate = (self.candidate + step) % max(n, 1)

    def reshuffle(self) -> None:
        """Draw another candidate order (the seed goes up by one and is shown)."""
        with self._action():
            self.seed = self.seed + 1

    def edit_followup(self, text: str) -> None:
        """Replace the follow-up's text by hand; marks are carried through the edit (the
        task's parts may read markup too: relation extraction re-marks ``[[head]]``/``<<tail>>``;
        a text pair reads ``first ||| second``)."""
        with self._action():
            multi = self.multi_source
            if multi is not None:
                raise InputError(
                    f"the follow-ups of {self.relation} are built from {' and '.join(multi.source_titles)}; "
                    "edit the sources (or pick another transformation) instead"
                )
            group = self._group()
            if group is None or not group.followups:
                raise InputError(
                    "there is no follow-up to edit; mark the input and pick an applicable relation"
                )
            first = self._parts.carry(group.followups[0], text)
            self._edited = (first, *group.followups[1:])

    def save(self) -> Group:
        """Add the shown group (with every model's outputs and verdict) to ``suite``."""
        with self._action():
            group = self._group()
            if group is None:
                raise InputError("nothing to save yet; mark the input first")
            outcomes = self._outcomes()
            if not self._custom:  # keep the data row it came from, for the suite's group id
                group = dataclasses.replace(group, source_index=self.index)
            for name, o in outcomes.items():
                self._suite_rows.append(make_row(group, name, o.sources, o.followups, o.check))
            self._saved = self._saved + 1
        return group

    # -- messages from the front end ------------------------------------------------------
    def handle_message(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Dispatch one front-end message and return the reply sent back (same ``id``)."""
        kind, mid = msg.get("kind"), msg.get("id")
        handler = self._handlers.get(str(kind))
        try:
            if handler is None:
                raise InputError(f"unknown message kind {kind!r}; known: {sorted(self._handlers)}")
            handler(msg)
            reply: dict[str, Any] = {"kind": "reply", "id": mid}
        except Exception as exc:  # noqa: BLE001 - every failure is shown; the widget stays usable
            message = error_message(exc)
            if type(exc) is KeyError:  # a field missing from the message itself
                message = (
                    f"message {kind!r} lacks the field {message!r}; this is a front-end bug, please report it"
                )
            elif not isinstance(exc, (MTError, ValueError, TypeError, traitlets.TraitError)):
                message = f"unexpected {type(exc).__name__} while handling {kind!r}: {message}"
            self._error = {"message": message, "hint": error_hint(message)}
            reply = {"kind": "error", "id": mid, "message": message}
        self.send(reply)
        return reply

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict):
            self.handle_message(content)

    # -- trait validation and observers ------------------------------------------------
    @traitlets.validate("index")
    def _check_index(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if not 0 <= value < len(self._inputs):
            raise traitlets.TraitError(
                f"index {value} is out of range; the data has rows 0..{len(self._inputs) - 1}"
            )
        return value

    @traitlets.validate("relation")
    def _check_relation(self, proposal: Any) -> str:
        name = str(proposal["value"])
        if name not in self._relations_by_name:
            raise traitlets.TraitError(
                f"unknown relation {name!r}; this Explorer has {', '.join(self._relations_by_name)}"
            )
        return name

    @traitlets.validate("case_option")
    def _check_case_option(self, proposal: Any) -> str:
        value = str(proposal["value"])
        multi = self._multi_of(self.relation) if value else None
        if value and multi is None:
            raise traitlets.TraitError(f"{self.relation} has no transformation to pick; it shows one group at a time")
        if multi is not None:
            try:
                pick_option(multi, value, {})
            except InputError as exc:
                raise traitlets.TraitError(str(exc)) from exc
        return value

    @traitlets.validate("candidate")
    def _check_candidate(self, proposal: Any) -> int:
        value = int(proposal["value"])
        cands = self._candidate_list() if self._depth == 0 else None
        n = len(cands) if cands is not None else None
        if value < 0 or (n is not None and value >= n):
            raise traitlets.TraitError(
                f"candidate {value} is out of range; there are {n} candidates (0..{(n or 1) - 1})"
            )
        return value

    @traitlets.observe("index")
    def _on_index(self, change: Any) -> None:
        with self._changing():
            self._load_row(change["new"])

    @traitlets.observe("relation", "seed")
    def _on_relation(self, change: Any) -> None:
        with self._changing():
            self._edited, self.candidate = None, 0
            if change["name"] == "relation":
                self.case_option = ""  # the options are the new relation's

    @traitlets.observe("case_option")
    def _on_case_option(self, _change: Any) -> None:
        """Another transformation: the case is redrawn (when the outermost change ends)."""
        with self._changing():
            pass

    @traitlets.observe("candidate")
    def _on_candidate(self, _change: Any) -> None:
        with self._changing():
            self._edited = None

    # -- internals ------------------------------------------------------------------------
    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """Batch trait changes: the view is recomputed once, when the outermost block ends,
        and every synced change of the block (the user's traits and the render state) goes
        to the front end as one message."""
        with self.hold_sync() if self._depth == 0 else contextlib.nullcontext():
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._render()

    @contextlib.contextmanager
    def _action(self) -> Iterator[None]:
        """A user action: the previous error is cleared; a new one is shown, then raised."""
        try:
            with self._changing():
                self._error = {}
                yield
        except (MTError, ValueError, traitlets.TraitError) as exc:
            message = error_message(exc)
            self._error = {"message": message, "hint": error_hint(message)}
            raise

    def _default_relation(self) -> str:
        return next(iter(self._relations_by_name))

    def _marked_text(self) -> str:
        """The text the marks are on (the first field)."""
        return self._texts.get(self._parts.fields[0], "")

    def _load_row(self, i: int) -> None:
        x = self._inputs[i]
        self._texts, self._marks = self._parts.texts_of(x), self._parts.marks_of(x)
        self._custom = False
        self.candidate = 0
        saved = self._row_groups[i]
        if saved is not None and saved[0] in self._relations_by_name:
            self.relation = saved[0]  # resets the candidate and any edit first
        # A saved group comes back exactly as saved, hand-edited follow-ups included.
        self._edited = saved[1] if saved is not None and saved[1] else None
        multi = self._multi_of(self.relation)
        if saved is not None and saved.partners and multi is not None:
            # a saved case: its other sources and its transformation (follow-ups rebuilt)
            self._edited = None
            for k, x in enumerate(saved.partners[: len(multi.source_titles) - 1], start=1):
                self._partners.set(k, Partner(given=x))
            option = str((saved.meta or {}).get("transformation", ""))
            self.case_option = option if option in {k for k, _ in multi.options()} else ""

    def _candidate_list(self) -> CandidateList | None:
        source = self.source
        rel = self._relations_by_name.get(self.relation)
        if source is None or rel is None:
            return None
        return self._cached_candidates(rel, source)

    def _cached_candidates(self, rel: MetamorphicRelation, source: BaseInput) -> CandidateList:
        key = (rel.name, source.key() + self._parts.candidates_key(source), self.seed)
        found = self._candidates.get(key)
        if found is None:
            with one_torch_thread():  # the filters' encoder on a handful of sentences
                found = self._candidates[key] = candidate_list(rel, source, self.seed)
            while len(self._candidates) > 512:
                self._candidates.popitem(last=False)
        self._candidates.move_to_end(key)
        return found

    def _group(self) -> Group | None:
        if self.multi_source is not None:
            shown = self._case_shown()
            if shown is None:
                return None
            return case_group(self.relation, shown, self.seed, None if self._custom else self.index)
        cands = self._candidate_list()
        if cands is None:
            return None
        group = cands.group(min(self.candidate, len(cands) - 1))
        if self._edited is not None:
            meta = dict(group.meta)
            if group.sources and group.followups and self._edited:
                meta = self._parts.edited_meta(group.sources[0], group.followups[0], self._edited[0], meta)
            meta.update(edited=True, generated=[f.display() for f in group.followups])
            group = Group(
                group.relation,
                group.index,
                group.sources,
                self._edited,
                "follow-up edited by hand",
                group.seed,
                None,
                meta,
            )
        return group

    def _outcomes(self) -> dict[str, ModelOutcome]:
        if self.multi_source is not None:
            shown = self._case_shown()
            return dict(shown.outcomes) if shown is not None else {}
        group = self._group()
        rel = self._relations_by_name.get(self.relation)
        if group is None or rel is None:
            return {}
        return {name: self._predictor.outcome(name, rel, group) for name in self._predictor.models}

    def _render(self) -> None:
        with self.hold_sync():
            self._render_input()
            self._render_relations()
            self._render_followup_and_models()

    def _render_input(self) -> None:
        relation = self._relations_by_name.get(self.relation)
        view = input_view(self._parts, self._texts, self._marks, self.index, len(self._inputs), relation)
        multi = self.multi_source
        if multi is not None and self.source is not None:
            rest = " and ".join(multi.source_titles[1:])
            view["todo"] = (f"this input is {multi.source_titles[0]} of the case; {rest} and the transformation "
                            "are set below")
        self._input = {**view, "custom": self._custom, "task": self.task}

    def _render_relations(self) -> None:
        source = self.source
        views = []
        for rel in self._relations_by_name.values():
            if source is None:
                views.append(relation_view(rel, "mark the input first"))
            elif rel.name == self.relation or not _costly(rel) or self._is_cached(rel, source):
                views.append(relation_view(rel, self._cached_candidates(rel, source).not_applicable))
            else:
                # Whether it applies is known only once its filters have run (a neural
                # encoder over every candidate): checked when the user picks it.
                views.append({**relation_view(rel, None), "checked": False})
        self._relations = views
        self._diagram = self._diagram_of(self.relation)

    def _diagram_of(self, name: str) -> str:
        """The SVG of relation ``name``'s diagram ("" for none, or a shape it declares wrongly)."""
        if name not in self._diagrams:
            rel = self._relations_by_name.get(name)
            try:
                self._diagrams[name] = diagram(rel).svg if rel is not None else ""
            except MTError:
                self._diagrams[name] = ""
        return self._diagrams[name]

    def _is_cached(self, rel: MetamorphicRelation, source: BaseInput) -> bool:
        return (rel.name, source.key() + self._parts.candidates_key(source), self.seed) in self._candidates

    # -- a multi-source relation's case ---------------------------------------------------------
    def _multi_of(self, name: str) -> MultiSourceParts | None:
        """How relation ``name``'s case is shown (``None``: one group at a time), asked once."""
        if name not in self._multi:
            rel = self._relations_by_name.get(name)
            self._multi[name] = self._parts.multi_source(rel) if rel is not None else None
        return self._multi[name]

    def _partner(self, slot: int) -> tuple[BaseInput | None, int | None, str]:
        return self._partners.resolve(slot, self._parts, self._inputs, self.index, self.multi_source, self.source)

    def _case_shown(self) -> CaseShown | None:
        """The case on screen, evaluated on every model (``None`` without a multi-source relation)."""
        multi = self.multi_source
        if multi is None:
            return None
        sources = (self.source, *(self._partner(k)[0] for k in range(1, len(multi.source_titles))))
        return evaluate_case(multi, self._predictor, sources, self.case_option)

    def _render_case(self, multi: MultiSourceParts) -> None:
        shown = self._case_shown()
        assert shown is not None
        x1 = self.source
        own = {
            "slot": 0, "title": multi.source_titles[0], "text": self._parts.edit_text(x1) if x1 is not None else "",
            "row": None if self._custom else self.index, "auto": False, "typed": self._custom,
            "todo": "" if x1 is not None else "type a text above or pick a row",
        }
        others = [
            self._partners.view(k, multi.source_titles[k], self._parts, self._inputs, self.index, multi, x1)
            for k in range(1, len(multi.source_titles))
        ]
        self._case = case_view(self.relation, self._parts, shown, [own, *others], self._top_k)
        self._followup = {
            "relation": self.relation, "seed": self.seed, "candidate": 0, "n_candidates": 0, "edited": False,
            "note": "", "not_applicable": shown.not_applicable, "sources": [], "followups": [], "texts": [],
        }
        self._models = []

    def _render_followup_and_models(self) -> None:
        multi = self.multi_source
        if multi is not None:
            self._render_case(multi)
            return
        self._case = {}
        cands = self._candidate_list()
        self._followup = {
            "relation": self.relation,
            "seed": self.seed,
            "candidate": self.candidate,
            "n_candidates": len(cands) if cands is not None and cands.not_applicable is None else 0,
            "edited": self._edited is not None,
            **followup_view(self._parts, self.source, self._group()),
        }
        rel = self._relations_by_name.get(self.relation)
        expected = rel.expected if rel is not None else ""
        group = self._group()
        views = []
        source = self.source
        for name, o in self._outcomes().items():
            view = model_view(name, o, expected, self._top_k, self._parts, group)
            if self._extra is not None:
                data = self._extra.view(name, rel, source, group, o)
                if data is not None:
                    view["extra"] = extra_view(self._extra, data)
            views.append(view)
        self._models = views
