"""The Explorer's view parts of a task: how an input is marked and shown, how predictions
are drawn, and an optional per-model inspector.

A task declares ``explorer=`` as a callable returning an :class:`ExplorerParts` (or a
``"module:attribute"`` reference to one). The Explorer widget calls only these parts, and
its front end draws each part with the component registered under the part's view name,
so the widget names no task:

- :attr:`ExplorerParts.mark_view` — how the user gives and marks the input:
  ``"head-tail"`` (two roles over tokens), ``"spans"`` (labelled spans, e.g. gold
  entities), ``"text"`` (one text box; with roles, a word to replace is clicked in a token
  strip under it), ``"text-pair"`` (two text boxes, each with its token strip when the
  parts mark words in it), ``"word-pair"`` (two one-line boxes);
- :attr:`ExplorerParts.prediction_view` — how each prediction is drawn:
  ``"label-scores"`` (label and score bars), ``"spans"`` (the text with labelled spans),
  ``"number-bands"`` (a number, placed in the task's :attr:`~ExplorerParts.value_bands`),
  ``"text-diff"`` (a text, the follow-up's diffed against the source's);
- :attr:`ExplorerParts.extra_view` — the name of an optional per-model component, whose
  data an :class:`ExtraPart` computes (NER's suspicious entities and repair).

Generic parts for inputs that are one text (:class:`TextParts`) or two
(:class:`TextPairParts`) need nothing task-specific: a task on
:class:`~mtwidgets.core.inputs.TextInput` declares ``explorer=TextParts`` (or
``explorer=lambda: TextParts(prediction_view="number-bands", value_bands=...)``). Given
``roles`` that name text fields (``TextParts(roles=("text",))``), they let the user mark one
word in one of those fields, which the input receives as ``focus=(field, start, end)``: the
word the task's relations are to replace (the input class must take a ``focus``).

Relations whose test case joins several sources (pairwise systematicity: a pair of texts;
three-way transitivity: word pairs that chain) are shown one case at a time by a
:class:`MultiSourceParts` the *relation* declares (an ``explorer_multi_source`` attribute,
see :func:`multi_source_parts`); the task's parts may override that choice
(:meth:`ExplorerParts.multi_source`). The Explorer then holds every source of the case, the
follow-ups built from them, and each model's verdict on the case.

Plain Python, no widget or heavy import: parts are tested without a browser.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError, MTError
from .inputs import BaseInput
from .predictions import Prediction
from .relation import Check
from .spans import Span
from .task import resolve_ref

__all__ = [
    "MARK_VIEWS",
    "PREDICTION_VIEWS",
    "Band",
    "CaseJudgement",
    "ExplorerParts",
    "ExtraPart",
    "MultiSourceParts",
    "TextPairParts",
    "TextParts",
    "WordMarking",
    "WordPairParts",
    "carry_span",
    "explorer_parts",
    "multi_source_parts",
    "span_pieces",
]

MARK_VIEWS: tuple[str, ...] = ("head-tail", "spans", "text", "text-pair", "word-pair")
PREDICTION_VIEWS: tuple[str, ...] = ("label-scores", "spans", "number-bands", "text-diff")

# The prediction view that fits each prediction kind (when the parts name none).
VIEW_OF_KIND: dict[str, str] = {
    "label": "label-scores",
    "spans": "spans",
    "value": "number-bands",
    "text": "text-diff",
}

Marks = Mapping[str, Span | None]


@dataclass(frozen=True)
class Band:
    """A named range ``[low, high)`` of a numeric prediction (e.g. ``Band("similar", 0.8, 1.01)``)."""

    name: str
    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value < self.high

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "low": self.low, "high": self.high}


class ExtraPart:
    """A per-model component beside the prediction view (e.g. an inspector).

    ``view`` returns the JSON the front-end component :attr:`name` draws for one model's
    card (``None``: nothing to show). When :attr:`replaces_prediction` is set, the card
    shows this component instead of the prediction view (it draws the predictions itself).
    An extra part may offer more Python views (NER's ``suspicious``/``repairs``); the
    Explorer's properties of those names delegate to it.
    """

    name: str = ""
    replaces_prediction: bool = False

    def view(self, model: str, relation: Any, source: BaseInput | None, group: Any, outcome: Any) -> Any:
        raise NotImplementedError


class ExplorerParts:
    """How the Explorer marks, builds, shows and edits one task's inputs.

    The class attributes below are the defaults; any of them can be given as a keyword
    (``TextParts(prediction_view="number-bands")``). The Explorer keeps the input as its
    text fields (:attr:`fields`) plus the user's marks (``{key: Span | None}``); a mark lies
    in the field :meth:`field_of` its role names (by default the first field, the one the
    tokens are drawn for).
    """

    #: front-end component that marks the input (one of :data:`MARK_VIEWS`)
    mark_view: str = "text"
    #: front-end component of each prediction (one of :data:`PREDICTION_VIEWS`; ``None``:
    #: the one that fits the task's prediction kind)
    prediction_view: str | None = None
    #: front-end component of the per-model extra part, if any
    extra_view: str | None = None
    #: the input's text fields, in the order shown
    fields: tuple[str, ...] = ("text",)
    #: what each field is called on screen
    field_titles: Mapping[str, str] = {}
    #: the roles the user marks (``("head", "tail")``); empty: nothing to mark
    roles: tuple[str, ...] = ()
    #: the labels a mark can take
    entity_types: tuple[str, ...] = ()
    #: named ranges of a numeric prediction, for ``"number-bands"``
    value_bands: tuple[Band, ...] = ()
    #: the language of the texts (tokenization and word diff)
    lang: str = "en"
    #: the task these parts were bound to (set by :func:`explorer_parts`)
    task: Any = None

    def __init__(self, **options: Any) -> None:
        for key, value in options.items():
            if key.startswith("_") or not hasattr(type(self), key) or callable(getattr(type(self), key)):
                raise MTError(f"{type(self).__name__} has no option {key!r}")
            setattr(self, key, value)
        if "value_bands" in options:
            self.value_bands = tuple(b if isinstance(b, Band) else Band(*b) for b in self.value_bands)

    # -- the input's texts -----------------------------------------------------------------
    def texts_of(self, x: BaseInput) -> dict[str, str]:
        """The input's text fields, ``{field: text}`` (what the text boxes show)."""
        data = x.to_dict()
        return {f: str(getattr(x, f, data.get(f, ""))) for f in self.fields}

    def text_of(self, x: BaseInput) -> str:
        """The marked field's text (the one the tokens are drawn for)."""
        return self.texts_of(x)[self.fields[0]]

    def parse_texts(self, text: str | Mapping[str, str]) -> dict[str, str]:
        """The fields a user's typed text fills: a mapping names its fields; a string is
        the first field (text pairs also read ``"first ||| second"``)."""
        if isinstance(text, Mapping):
            unknown = sorted(set(text) - set(self.fields))
            if unknown:
                raise InputError(f"unknown text field(s) {unknown}; this input has {list(self.fields)}")
            return {str(k): v for k, v in text.items()}
        return {self.fields[0]: text}

    def edit_text(self, x: BaseInput) -> str:
        """The follow-up as the user edits it in one text box."""
        return self.text_of(x)

    def title(self, field: str) -> str:
        return self.field_titles.get(field, field.replace("_", " "))

    def field_of(self, role: str) -> str:
        """The text field that ``role``'s mark lies in (default: the first field)."""
        return self.fields[0]

    def candidates_key(self, x: BaseInput) -> str:
        """What, beside ``x.key()``, changes the relations' follow-ups of ``x``: something the
        user marked that the model does not see (so not in the key). The Explorer keys its
        candidate lists by both. Default: nothing."""
        return ""

    # -- marking -------------------------------------------------------------------------
    def marks_of(self, x: BaseInput) -> dict[str, Span | None]:
        return {}

    def spans_of(self, x: BaseInput) -> dict[str, Span]:
        """The marked spans of ``x`` by role (highlighted in the follow-up diff)."""
        return {role: span for role, span in self.marks_of(x).items() if span is not None}

    def build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        """The input the texts and marks describe, or ``None`` with what the user still has to do."""
        raise NotImplementedError

    def tokens(self, text: str) -> list[dict[str, Any]] | None:
        """The clickable tokens of ``text``; ``None``: the Explorer's Unicode word tokens."""
        return None

    def suggestions(self, text: str) -> list[dict[str, Any]]:
        return []

    def type_of(self, text: str, span: Span) -> str | None:
        return span.label

    def hint(self, marks: Marks) -> str:
        """What the user may do next once the input is complete (shown under the tokens)."""
        return ""

    def hint_for(self, texts: Mapping[str, str], marks: Marks, relation: Any = None) -> str:
        """The hint shown with the input's texts and the relation picked at hand (parts whose
        hint names the marked words or the relation override this); default :meth:`hint`."""
        return self.hint(marks)

    def accepts(self, role: str) -> bool:
        """Whether ``role`` names something the user marks or clears (a role, or a mark key)."""
        return role in self.roles

    def add_mark(
        self, text: str, marks: Marks, role: str, span: Span, label: str | None
    ) -> dict[str, Span | None]:
        """The marks after marking ``span`` as ``role``: one span per role, never overlapping.

        No explicit type: models and transformations infer it the same way, and the view
        shows the inferred type until the user sets one.
        """
        for other, taken in marks.items():
            if other != role and taken is not None and taken.overlaps(span):
                raise InputError(
                    f"{role} {text[span.start : span.end]!r} ({span.start}, {span.end}) overlaps the "
                    f"{other} ({taken.start}, {taken.end}); clear the {other} or mark another mention"
                )
        return {**marks, role: span.with_label(label or None)}

    def remove_mark(self, marks: Marks, role: str | None) -> dict[str, Span | None]:
        """The marks with ``role`` (``None``: every role) cleared."""
        return {r: (None if role in (None, r) else s) for r, s in marks.items()}

    def empty_marks(self) -> dict[str, Span | None]:
        """The marks of a freshly typed text."""
        return dict.fromkeys(self.roles)

    def input_state(self) -> dict[str, Any]:
        """Extra render state for the input box (e.g. a label colour palette)."""
        return {}

    # -- follow-ups --------------------------------------------------------------------------
    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        """The follow-up with its text replaced by the user's ``new_text``."""
        raise NotImplementedError

    def edited_meta(
        self, source: BaseInput, generated: BaseInput, edited: BaseInput, meta: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A group's ``meta`` after the user replaced the generated follow-up by ``edited``."""
        return dict(meta)

    def warm(self, inputs: Sequence[BaseInput]) -> None:
        """Precompute per-text work for a data set (e.g. parse it in one batch)."""

    # -- predictions -------------------------------------------------------------------------
    def band_of(self, value: float) -> str | None:
        return next((b.name for b in self.value_bands if b.contains(value)), None)

    def extra(self, predictor: Any, **options: Any) -> ExtraPart | None:
        """The per-model extra part for an Explorer's ``predictor`` (``None``: none).

        ``options`` are the Explorer's keyword options for it (e.g. ``repair``).
        """
        return None

    # -- relations whose case joins several sources ----------------------------------------
    def multi_source(self, relation: Any) -> MultiSourceParts | None:
        """How the Explorer shows one case of ``relation`` when that case joins several
        sources (``None``: the relation is shown one group at a time, as usual). Default:
        what the relation declares (:func:`multi_source_parts`); a task overrides this to
        show a relation its own way."""
        return multi_source_parts(relation)


def _build_from_texts(
    parts: ExplorerParts, texts: Mapping[str, str], focus: Focus | None = None
) -> tuple[BaseInput | None, str | None]:
    empty = [f for f in parts.fields if not str(texts.get(f, "")).strip()]
    if empty:
        return None, f"type the {' and the '.join(parts.title(f) for f in empty)}"
    if parts.task is None:
        raise MTError(f"{type(parts).__name__} is not bound to a task; get it with explorer_parts(task)")
    extra = {"focus": focus} if focus is not None else {}
    try:
        return parts.task.input_class(**{f: texts[f] for f in parts.fields}, **extra), None
    except InputError as exc:
        return None, str(exc)


# A word the user marked to replace: (field, start, end).
Focus = tuple[str, int, int]

# How a marked word is changed or unmarked (the end of the hint of parts that mark one).
UNMARK_HINT = "click another word to change, the marked one again (or Clear) to unmark"


class WordMarking(ExplorerParts):
    """The marking of the text parts: one word to replace, marked in one of the text fields
    named by :attr:`roles` (each role is a field's name); the input gets it as
    ``focus=(field, start, end)``. Without roles there is nothing to mark (the default)."""

    def field_of(self, role: str) -> str:
        return role if role in self.fields else self.fields[0]

    def accepts(self, role: str) -> bool:
        return role in self.roles

    def focus(self, marks: Marks) -> Focus | None:
        """The marked word as ``(field, start, end)``, or ``None``."""
        return next(((r, s.start, s.end) for r, s in marks.items() if s is not None and r in self.roles), None)

    def marks_of(self, x: BaseInput) -> dict[str, Span | None]:
        focus = getattr(x, "focus", None)
        return {r: (Span(focus[1], focus[2]) if focus is not None and focus[0] == r else None) for r in self.roles}

    def add_mark(
        self, text: str, marks: Marks, role: str, span: Span, label: str | None
    ) -> dict[str, Span | None]:
        """The marks with ``span`` the one word to replace (a mark elsewhere is moved)."""
        return {r: (span.with_label(None) if r == role else None) for r in self.roles}

    def candidates_key(self, x: BaseInput) -> str:
        focus = getattr(x, "focus", None)
        return "" if focus is None else "focus:{}:{}:{}".format(*focus)

    def hint_for(self, texts: Mapping[str, str], marks: Marks, relation: Any = None) -> str:
        """Which word the relations will replace, and how to change or unmark it."""
        if not self.roles:
            return self.hint(marks)
        marked = self.marked_word(texts, marks)
        if marked is None:
            return "optional: click a word to mark it to replace (the relations then replace that word)"
        return f"the relations will replace {marked} or say why they cannot; {UNMARK_HINT}"

    def marked_word(self, texts: Mapping[str, str], marks: Marks) -> str | None:
        """The marked word as the hint names it (``'accident' (marked in S2)``), or ``None``."""
        focus = self.focus(marks)
        if focus is None:
            return None
        field, start, end = focus
        where = f" in {self.title(field)}" if len(self.fields) > 1 else ""
        return f"{str(texts.get(field, ''))[start:end]!r} (marked{where})"

    def _focused_build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        return _build_from_texts(self, texts, self.focus(marks) if self.roles else None)


class TextParts(WordMarking):
    """An input that is one text, typed by the user: nothing to mark, or (with
    ``roles=("text",)``) one word to replace."""

    mark_view = "text"
    fields = ("text",)

    def build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        return self._focused_build(texts, marks)

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        if not new_text.strip():
            raise InputError("the follow-up text is empty; type a text or undo the edit")
        return _replace(followup, self.parse_texts(new_text))


class TextPairParts(WordMarking):
    """An input that is two texts (similarity, entailment), typed in two boxes; with
    ``roles=("text_a", "text_b")``, one word to replace in either."""

    mark_view = "text-pair"
    fields = ("text_a", "text_b")
    field_titles = {"text_a": "first text", "text_b": "second text"}
    separator = " ||| "

    def parse_texts(self, text: str | Mapping[str, str]) -> dict[str, str]:
        if isinstance(text, str) and self.separator.strip() in text:
            first, _, second = text.partition(self.separator.strip())
            return {self.fields[0]: first.strip(), self.fields[1]: second.strip()}
        return super().parse_texts(text)

    def edit_text(self, x: BaseInput) -> str:
        return self.separator.join(self.texts_of(x).values())

    def build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        return self._focused_build(texts, marks)

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        texts = self.parse_texts(new_text)
        if len(texts) != len(self.fields) or not all(t.strip() for t in texts.values()):
            sep = self.separator.strip()
            raise InputError(f"write both texts of the follow-up, separated by {sep!r}: first {sep} second")
        return _replace(followup, texts)


class WordPairParts(TextPairParts):
    """An input that is two words or short phrases (word similarity), in two one-line boxes."""

    mark_view = "word-pair"
    field_titles = {"text_a": "first word", "text_b": "second word"}


def _replace(x: BaseInput, texts: Mapping[str, str]) -> BaseInput:
    try:
        return dataclasses.replace(x, **texts)  # type: ignore[type-var]
    except TypeError:
        return type(x)(**texts)


def explorer_parts(task: Any) -> ExplorerParts:
    """The task's Explorer parts, bound to it.

    The task's ``explorer`` part is called (a class or a function returning parts); a task
    without one gets the generic parts that fit its input (one text or a text pair). An
    unset ``prediction_view`` becomes the one that fits the task's prediction kind.
    """
    made = task.part("explorer")
    if made is None:
        cls = task.input_class
        names = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        made = TextPairParts if {"text_a", "text_b"} <= names else TextParts
    parts = made() if not isinstance(made, ExplorerParts) else made
    if not isinstance(parts, ExplorerParts):
        raise MTError(
            f"task {task.name!r}: its explorer part gave a {type(parts).__name__}, not ExplorerParts"
        )
    parts.task = task
    if parts.prediction_view is None:
        parts.prediction_view = VIEW_OF_KIND.get(task.prediction, "label-scores")
    return parts


# -- helpers the parts share ---------------------------------------------------------------------
def carry_span(old: str, new: str, span: Span) -> Span | None:
    """``span`` moved through the edit ``old -> new`` if the edit left it untouched."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal" and i1 <= span.start and span.end <= i2:
            return Span(span.start + j1 - i1, span.end + j1 - i1, span.label)
    return None


def span_pieces(
    text: str,
    spans: Sequence[Span],
    *,
    flagged: Sequence[Span] = (),
    changed: Sequence[Span] = (),
    gold: Sequence[Span] | None = None,
) -> list[dict[str, Any]]:
    """``text`` cut into plain runs and labelled spans, for rendering with colours.

    Each span piece has its ``label``; ``suspicious`` when it touches a flagged range,
    ``changed`` when it is in ``changed``, ``wrong`` when gold is known and the span is not
    in it. A flagged range no span touches (the model says "nothing" there) becomes a
    label-less suspicious piece, so an omission is visible too.
    """
    pieces = [(s, any(s.overlaps(f) for f in flagged), any(s == c for c in changed)) for s in spans]
    for f in flagged:
        if not any(s.overlaps(f) for s in spans) and not any(f.overlaps(p[0]) for p in pieces):
            pieces.append((Span(f.start, f.end), True, False))
    pieces.sort(key=lambda p: (p[0].start, p[0].end))
    out: list[dict[str, Any]] = []
    pos = 0
    for span, suspicious, was_changed in pieces:
        if span.start < pos:  # overlapping spans (a model's bug): show the first only
            continue
        if span.start > pos:
            out.append({"text": text[pos : span.start]})
        piece: dict[str, Any] = {"text": text[span.start : span.end], "label": span.label}
        if suspicious:
            piece["suspicious"] = True
        if was_changed:
            piece["changed"] = True
        if gold is not None and span.label is not None:
            piece["wrong"] = not any(
                (g.start, g.end, g.label) == (span.start, span.end, span.label) for g in gold
            )
        out.append(piece)
        pos = span.end
    if pos < len(text):
        out.append({"text": text[pos:]})
    return out


# -- relations whose test case joins several sources --------------------------------------------
@dataclass(frozen=True)
class CaseJudgement:
    """One model's verdict on the case the Explorer shows for a multi-source relation.

    ``check`` is the verdict as a run decides it (``"pass"``: the case is satisfied);
    ``values`` what the relation reads from each prediction, sources first, then follow-ups
    (``None`` where there is none, e.g. no follow-up was built); ``premise`` and
    ``hypothesis`` the relation's two sides written out with those values, and whether each
    holds (``None``: unknown).
    """

    check: Check
    values: tuple[float | None, ...] = ()
    premise: str = ""
    premise_holds: bool | None = None
    hypothesis: str = ""
    hypothesis_holds: bool | None = None


class MultiSourceParts:
    """How the Explorer shows one test case of a relation that joins several sources.

    A relation whose cases are pairs or triplets of sources (pairwise systematicity compares
    two texts' scores before and after the same transformation; three-way transitivity
    chains two word pairs into a third) cannot be explored one source at a time. The
    Explorer then holds :attr:`source_titles` sources: its own input is the first, the others
    are typed or picked from the data (by default the rows after the input's). The user picks
    one of :meth:`options` (e.g. which sentence to add); :meth:`followups` builds the case's
    follow-ups from the sources, or says why it cannot; every model predicts every input (one
    call per model, cached) and :meth:`judge` gives its verdict with the premise and the
    hypothesis written out.

    **Declaring it.** A relation declares its parts with an ``explorer_multi_source``
    attribute on the relation, its ``aggregate`` callable, its output property or its
    transformation (the first one found, as :mod:`mtwidgets.core.diagram` reads
    ``diagram_shape``): a callable or a ``"module:attribute"`` reference to one, called with
    the relation (the relation's own options, e.g. its tie rule, are read there). A task's
    :meth:`ExplorerParts.multi_source` may show a relation its own way instead.

    Plain Python over inputs and predictions: the widget draws the JSON it builds from these
    answers, so parts are tested without a browser.
    """

    #: what each source is called on screen (their number is the case's number of sources)
    source_titles: tuple[str, ...] = ("x1", "x2")
    #: what each follow-up is called on screen
    followup_titles: tuple[str, ...] = ("T(x1)", "T(x2)")
    #: what :meth:`judge` reads from each prediction (shown beside each value)
    value_title: str = "score"
    #: the names of the relation's two sides
    premise_title: str = "premise"
    hypothesis_title: str = "hypothesis"
    #: the relation's property in one line (shown as the expected outcome)
    expected: str = ""

    def options(self) -> list[tuple[str, str]]:
        """The transformations the user picks from: ``(key, what the picker shows)``."""
        raise NotImplementedError

    def followups(self, sources: Sequence[BaseInput], option: str) -> tuple[tuple[BaseInput, ...], str | None]:
        """The case's follow-ups under ``option`` and ``None``, or ``()`` and why the case
        cannot be built (a source the transformation refuses, sources that do not chain)."""
        raise NotImplementedError

    def judge(
        self, option: str, sources: Sequence[Prediction], followups: Sequence[Prediction]
    ) -> CaseJudgement:
        """One model's verdict on the case from its predictions of the sources and of the
        follow-ups (``followups`` empty when none could be built: the premise is still
        shown; the Explorer gives the verdict "not applicable" with the reason)."""
        raise NotImplementedError

    def meta(self, option: str) -> dict[str, Any]:
        """The ``meta`` of the case's group (saved with it in the Explorer's suite)."""
        return {"transformation": option}


_DECLARED = "explorer_multi_source"


def multi_source_parts(relation: Any) -> MultiSourceParts | None:
    """The :class:`MultiSourceParts` ``relation`` declares (``None`` when it declares none).

    Looked up as ``explorer_multi_source`` on the relation, then on its ``aggregate``
    callable, its ``property`` and its ``transformation``; the value is a callable (or a
    ``"module:attribute"`` reference to one) called with the relation.
    """
    for owner in (relation, getattr(relation, "aggregate", None), getattr(relation, "property", None),
                  getattr(relation, "transformation", None)):
        declared = getattr(owner, _DECLARED, None) if owner is not None else None
        if declared is None:
            continue
        made = resolve_ref(declared)(relation)
        if not isinstance(made, MultiSourceParts):
            raise MTError(
                f"relation {getattr(relation, 'name', relation)!r} declares {_DECLARED} = {declared!r}, which gave "
                f"a {type(made).__name__}, not MultiSourceParts"
            )
        if len(made.source_titles) < 2:
            raise MTError(
                f"relation {getattr(relation, 'name', relation)!r}: its multi-source parts name "
                f"{len(made.source_titles)} source(s); a case that joins sources has at least two"
            )
        return made
    return None
