"""What the Explorer computes, kept apart from the widget class: task adapters, candidate
groups, cached predictions with verdicts, and the JSON the front end renders.

Everything here is plain Python over the engine (no ipywidgets), so it is tested without a
browser and the widget class stays a thin layer of traits and message handlers.

The widget is task-generic through :class:`TaskAdapter`: the input type decides which
roles the user marks (``["head", "tail"]`` for relation extraction), how marks become an
input and back, and how a hand-edited follow-up keeps its marks. A new task registers one
adapter in :data:`ADAPTERS`; the widget and the front end read ``roles`` from the state.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.cache import PredictionCache, default_cache, model_fingerprint
from ..core.errors import InputError
from ..core.inputs import BaseInput, RelationInput
from ..core.predictions import Prediction
from ..core.relation import Check, Group, MetamorphicRelation, stable_rng
from ..core.spans import Span, check_span
from ..core.threads import one_torch_thread

# Candidates beyond the relation's own sample are listed in a seeded order; the cap bounds
# the work per source (MR-R1 can have hundreds of same-type replacements).
MAX_CANDIDATES = 1000


# -- task adapters ------------------------------------------------------------------------
class TaskAdapter:
    """How one input type is marked, built and edited in the Explorer."""

    task: str = ""
    roles: tuple[str, ...] = ()
    entity_types: tuple[str, ...] = ()

    def marks_of(self, x: BaseInput) -> dict[str, Span | None]:
        raise NotImplementedError

    def build(self, text: str, marks: Mapping[str, Span | None]) -> tuple[BaseInput | None, str | None]:
        """The input the marks describe, or ``None`` with what the user still has to do."""
        raise NotImplementedError

    def tokens(self, text: str) -> list[dict[str, Any]]:
        raise NotImplementedError

    def suggestions(self, text: str) -> list[dict[str, Any]]:
        return []

    def type_of(self, text: str, span: Span) -> str | None:
        return span.label

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        raise NotImplementedError

    def spans_of(self, x: BaseInput) -> dict[str, Span]:
        return {role: span for role, span in self.marks_of(x).items() if span is not None}

    def warm(self, inputs: Sequence[BaseInput]) -> None:
        """Precompute per-text work for a data set (e.g. parse it in one batch)."""

    def hint(self, marks: Mapping[str, Span | None]) -> str:
        """What the user may do next once the input is complete (shown under the tokens)."""
        return ""

    def accepts(self, role: str) -> bool:
        """Whether ``role`` names something the user marks or clears (a role, or a mark key)."""
        return role in self.roles

    def add_mark(
        self, text: str, marks: Mapping[str, Span | None], role: str, span: Span, label: str | None
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

    def remove_mark(self, marks: Mapping[str, Span | None], role: str | None) -> dict[str, Span | None]:
        """The marks with ``role`` (``None``: every role) cleared."""
        return {r: (None if role in (None, r) else s) for r, s in marks.items()}

    def edited_meta(
        self, source: BaseInput, generated: BaseInput, edited: BaseInput, meta: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A group's ``meta`` after the user replaced the generated follow-up by ``edited``."""
        return dict(meta)


class RelationAdapter(TaskAdapter):
    """Relation extraction: the user marks a head and a tail mention over spaCy tokens."""

    task = "re"
    roles = ("head", "tail")

    @property
    def entity_types(self) -> tuple[str, ...]:  # type: ignore[override]
        from ..re.entities import ENTITY_TYPES

        return ENTITY_TYPES

    def marks_of(self, x: BaseInput) -> dict[str, Span | None]:
        assert isinstance(x, RelationInput)
        return {"head": x.head, "tail": x.tail}

    def build(self, text: str, marks: Mapping[str, Span | None]) -> tuple[BaseInput | None, str | None]:
        head, tail = marks.get("head"), marks.get("tail")
        if head is None or tail is None:
            missing = [r for r, s in (("head", head), ("tail", tail)) if s is None]
            return None, f"mark the {' and the '.join(missing)} (click or drag over tokens)"
        return RelationInput(text, head, tail), None

    def tokens(self, text: str) -> list[dict[str, Any]]:
        return spacy_tokens(text)

    def suggestions(self, text: str) -> list[dict[str, Any]]:
        from ..re.entities import typed_entities

        return [
            {"start": s.start, "end": s.end, "label": s.label, "text": text[s.start : s.end]}
            for s in typed_entities(text)
        ]

    def type_of(self, text: str, span: Span) -> str | None:
        from ..re.entities import type_span

        return type_span(text, span)

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        """The follow-up with its text replaced by ``new_text`` and head/tail carried along.

        Markup (``[[head]]``, ``<<tail>>``) in ``new_text`` re-marks explicitly; otherwise
        each mention is moved through a character diff, or found again by its text when the
        edit touched it. A mention that cannot be found raises with what to write instead.
        """
        assert isinstance(followup, RelationInput)
        if "[[" in new_text or "<<" in new_text:
            return RelationInput.parse(new_text)
        if not new_text.strip():
            raise InputError("the follow-up text is empty; type a sentence or undo the edit")
        moved: dict[str, Span] = {}
        for role in self.roles:
            span = followup.head if role == "head" else followup.tail
            mention = followup.text[span.start : span.end]
            found = carry_span(followup.text, new_text, span)
            if found is None:
                avoid = moved.get("head")
                start = new_text.find(mention)
                while start >= 0 and avoid is not None and Span(start, start + len(mention)).overlaps(avoid):
                    start = new_text.find(mention, start + 1)
                if start < 0:
                    raise InputError(
                        f"the edit removed the {role} {mention!r}; keep it in the text, or re-mark the "
                        f"follow-up with markup: [[head]] ... <<tail>>"
                    )
                found = Span(start, start + len(mention), span.label)
            moved[role] = found
        return RelationInput(new_text, moved["head"], moved["tail"])

    def warm(self, inputs: Sequence[BaseInput]) -> None:
        from ..re.entities import parse_many

        parse_many([x.text for x in inputs if isinstance(x, RelationInput)])


def spacy_tokens(text: str) -> list[dict[str, Any]]:
    """The clickable tokens of ``text``: spaCy's (cached) parse, spaces folded into ``ws``."""
    from ..re.entities import parse

    out: list[dict[str, Any]] = []
    for t in parse(text):
        if t.is_space and out:  # runs of spaces/newlines: kept as the previous token's spacing
            out[-1]["ws"] += t.text + t.whitespace_
        elif not t.is_space:
            out.append(
                {"i": t.i, "text": t.text, "start": t.idx, "end": t.idx + len(t.text), "ws": t.whitespace_}
            )
    return out


def carry_span(old: str, new: str, span: Span) -> Span | None:
    """``span`` moved through the edit ``old -> new`` if the edit left it untouched."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal" and i1 <= span.start and span.end <= i2:
            return Span(span.start + j1 - i1, span.end + j1 - i1, span.label)
    return None


def _ner_adapter() -> TaskAdapter:
    from ._explorer_ner import NERAdapter

    return NERAdapter()


ADAPTERS: dict[str, TaskAdapter] = {"re": RelationAdapter()}
LAZY_ADAPTERS = {"ner": _ner_adapter}


def adapter_for(task: str) -> TaskAdapter:
    if task not in ADAPTERS and task in LAZY_ADAPTERS:
        ADAPTERS[task] = LAZY_ADAPTERS[task]()
    if task not in ADAPTERS:
        raise InputError(
            f"the Explorer has no marking interface for {task!r} inputs yet; known: {sorted(ADAPTERS)}"
        )
    return ADAPTERS[task]


def check_mark(text: str, span: Span, role: str) -> None:
    """Raise :class:`InputError` naming the bad offsets and how to fix them."""
    check_span(text, span, what=f"{role} span")


# -- word-level diff ------------------------------------------------------------------------
_WORD = re.compile(r"\w+|[^\w\s]")


def _words(text: str, spans: Mapping[str, Span]) -> list[dict[str, Any]]:
    out = []
    for m in _WORD.finditer(text):
        end = m.end()
        ws_end = end
        while ws_end < len(text) and text[ws_end].isspace():
            ws_end += 1
        role = next((r for r, s in spans.items() if s.start <= m.start() and end <= s.end), None)
        label = spans[role].label if role is not None else None
        out.append({"text": m.group(), "ws": text[end:ws_end], "role": role, "label": label})
    return out


def segments(text: str, spans: Mapping[str, Span]) -> list[dict[str, Any]]:
    """Words of ``text`` with the role each falls in (no diff)."""
    return [{**w, "op": "eq"} for w in _words(text, spans)]


def diff_segments(
    source: str, source_spans: Mapping[str, Span], followup: str, followup_spans: Mapping[str, Span]
) -> list[dict[str, Any]]:
    """Word-level diff of the follow-up against the source: ``eq``/``ins``/``del`` words,
    each with the entity role it belongs to, so highlighting survives the edit."""
    a, b = _words(source, source_spans), _words(followup, followup_spans)
    matcher = difflib.SequenceMatcher(None, [w["text"] for w in a], [w["text"] for w in b], autojunk=False)
    out: list[dict[str, Any]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend({**w, "op": "eq"} for w in b[j1:j2])
            continue
        out.extend({**w, "op": "del"} for w in a[i1:i2])
        out.extend({**w, "op": "ins"} for w in b[j1:j2])
    return out


# -- candidate groups -------------------------------------------------------------------------
@dataclass
class CandidateList:
    """The follow-up groups a user steps through for one (relation, source, seed).

    Every option of the transformation, in an order fixed by the seed (reshuffling draws
    another order). Options are cheap descriptions; a group is built when it is shown, so
    stepping through 800 MR-R1 replacements costs one edit per step, not 800 up front.
    """

    relation: MetamorphicRelation
    sources: tuple[BaseInput, ...]
    seed: int
    options: list[Any]
    not_applicable: str | None = None
    built: dict[int, Group] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.options) if self.not_applicable is None else 1

    def group(self, k: int) -> Group:
        if self.not_applicable is not None:
            return Group(
                self.relation.name, 0, self.sources, (), "", self.seed, not_applicable=self.not_applicable
            )
        if k not in self.built:
            # Building only the option shown keeps each step cheap.
            draft = self.relation.transformation.build(self.sources, self.options[k])
            self.built[k] = Group(
                self.relation.name, k, draft.sources, draft.followups, draft.note, self.seed, None, draft.meta
            )
        return self.built[k]


def candidate_list(relation: MetamorphicRelation, source: BaseInput, seed: int) -> CandidateList:
    """All follow-up options of ``relation`` for ``source`` in the seed's order.

    A source the transformation cannot transform gives one not-applicable entry whose
    reason is the relation's own (``"MR-R2 needs a head or tail that is a CITY ..."``).
    """
    sources = (source,)
    if source.task != relation.task:
        raise InputError(f"{relation.name} applies to {relation.task!r} inputs, not {source.task!r}")
    transformation = relation.transformation
    slots = transformation.options(sources)
    if not any(slots):
        reason = relation.generate(source, seed)[0].not_applicable or f"{relation.name} has no follow-up here"
        return CandidateList(relation, sources, seed, [], reason)
    # First the options a batch run with this seed tests (same generator, same draw), then
    # the others in a seed-fixed order, so candidate 0 is what `mt.run` reports.
    chosen = transformation.choose(slots, relation.rng(sources, seed))
    taken = {id(o) for o in chosen}
    rest = [o for slot in slots for o in slot if id(o) not in taken]
    stable_rng(seed, "explorer", relation.name, source.key()).shuffle(rest)
    return CandidateList(relation, sources, seed, (chosen + rest)[:MAX_CANDIDATES])


# -- predictions and verdicts ---------------------------------------------------------------------
@dataclass
class ModelOutcome:
    """One model on the shown group: what the model said and the verdict."""

    sources: list[Prediction]
    followups: list[Prediction]
    check: Check


class Predictor:
    """Calls the models through the engine's :class:`PredictionCache`, so a source is
    predicted once however often the user edits the relation, candidate or follow-up."""

    def __init__(self, models: Mapping[str, Any], cache: PredictionCache | None = None) -> None:
        from ..models import as_model

        self.user_models = dict(models)
        self.models = {name: as_model(m, name) for name, m in self.user_models.items()}
        self.fingerprints = {name: model_fingerprint(m, name) for name, m in self.models.items()}
        self.cache = cache if cache is not None else default_cache()

    def predict(self, name: str, inputs: Sequence[BaseInput]) -> list[Prediction | str]:
        """One prediction per input, or the error message for inputs the model failed on."""
        user, fp = self.user_models[name], self.fingerprints[name]
        keys = [x.key() for x in inputs]
        found: dict[str, Prediction | str] = dict(self.cache.get_many(user, fp, keys))
        todo = [(k, x) for k, x in dict(zip(keys, inputs)).items() if k not in found]
        if todo:
            found.update(self._call(name, todo))
        return [found[k] for k in keys]

    def _call(self, name: str, todo: list[tuple[str, BaseInput]]) -> dict[str, Prediction | str]:
        """Predict in one call; if it fails, one input at a time, so the error lands on the
        input at fault and the others still get their predictions."""
        from ..models.base import check_outputs

        user, fp = self.user_models[name], self.fingerprints[name]
        try:
            with one_torch_thread():
                got = check_outputs(
                    name, [x for _, x in todo], self.models[name].predict([x for _, x in todo])
                )
        except Exception as exc:  # noqa: BLE001 - a failing model becomes an error verdict
            if len(todo) > 1:
                out: dict[str, Prediction | str] = {}
                for item in todo:
                    out.update(self._call(name, [item]))
                return out
            k, x = todo[0]
            return {
                k: (
                    f"model {name!r} failed on {x.display()!r}: {type(exc).__name__}: {exc}. "
                    "Fix the model (or its adapter) and edit the input to retry"
                )
            }
        preds = {k: p for (k, _), p in zip(todo, got)}
        self.cache.put_many(user, fp, preds)
        return dict(preds)

    def outcome(self, name: str, relation: MetamorphicRelation, group: Group) -> ModelOutcome:
        if group.not_applicable is not None:
            return ModelOutcome([], [], Check("not_applicable", None, group.not_applicable))
        # Sources and follow-ups in one model call: a live edit usually needs both, and one
        # call halves the per-call overhead of a transformer; a follow-up predicted for a
        # group that turns out not applicable is cached for the next edit.
        both = self.predict(name, [*group.sources, *group.followups])
        srcs = both[: len(group.sources)]
        bad = next((p for p in srcs if isinstance(p, str)), None)
        if bad is not None:
            return ModelOutcome([], [], Check("error", None, bad))
        src_preds = [p for p in srcs if isinstance(p, Prediction)]
        why = relation.applies(group, src_preds)
        if why is not None:
            return ModelOutcome(src_preds, [], Check("not_applicable", None, why))
        fus = both[len(group.sources) :]
        bad = next((p for p in fus if isinstance(p, str)), None)
        if bad is not None:
            return ModelOutcome(src_preds, [], Check("error", None, bad))
        fu_preds = [p for p in fus if isinstance(p, Prediction)]
        return ModelOutcome(src_preds, fu_preds, relation.check(group, src_preds, fu_preds))


def prediction_view(p: Prediction, top_k: int) -> dict[str, Any]:
    top = [[k, round(float(v), 4)] for k, v in p.top(top_k)]
    return {"label": p.label, "top": top}


# -- render state (JSON for the front end) -------------------------------------------------------
def input_view(
    adapter: TaskAdapter, text: str, marks: Mapping[str, Span | None], row: int, n_rows: int
) -> dict[str, Any]:
    """Tokens, marks, the roles to mark and spaCy's suggestions for the input box."""
    has_text = bool(text.strip())
    return {
        "text": text,
        "tokens": adapter.tokens(text) if has_text else [],
        "marks": {
            r: (
                {
                    "start": s.start,
                    "end": s.end,
                    "label": s.label,
                    "inferred": adapter.type_of(text, s.with_label(None)),
                    "text": text[s.start : s.end],
                }
                if s
                else None
            )
            for r, s in marks.items()
        },
        "roles": list(adapter.roles),
        "types": list(adapter.entity_types),
        "suggestions": adapter.suggestions(text) if has_text else [],
        "todo": (adapter.build(text, marks)[1] or adapter.hint(marks)) if has_text else "type a sentence or pick a row",
        "row": row,
        "n_rows": n_rows,
    }


def relation_view(relation: MetamorphicRelation, not_applicable: str | None) -> dict[str, Any]:
    """A picker entry: the catalogue fields, and whether this input meets the precondition."""
    return {**relation.info(), "enabled": not_applicable is None, "reason": not_applicable or ""}


def followup_view(adapter: TaskAdapter, source: BaseInput | None, group: Group | None) -> dict[str, Any]:
    """The shown group's sources and follow-ups as role-tagged words, diffed against the source."""
    if group is None or source is None:
        return {"note": "", "not_applicable": None, "sources": [], "followups": [], "texts": []}
    text = source.to_dict()["text"]
    spans = adapter.spans_of(source)
    return {
        "note": group.note,
        "not_applicable": group.not_applicable,
        "sources": [segments(s.to_dict()["text"], adapter.spans_of(s)) for s in group.sources],
        "followups": [
            diff_segments(text, spans, f.to_dict()["text"], adapter.spans_of(f)) for f in group.followups
        ],
        "texts": [f.to_dict()["text"] for f in group.followups],
    }


def model_view(name: str, outcome: ModelOutcome, expected: str, top_k: int) -> dict[str, Any]:
    """One model's card: verdict, one-line reason, expected output, top-k scores."""
    return {
        "name": name,
        "verdict": outcome.check.verdict,
        "reason": outcome.check.reason,
        "expected": outcome.check.expected or expected,
        "source": [prediction_view(p, top_k) for p in outcome.sources],
        "followup": [prediction_view(p, top_k) for p in outcome.followups],
    }
