"""What the Explorer computes, kept apart from the widget class: candidate groups, cached
predictions with verdicts, and the JSON the front end renders.

Everything here is plain Python over the engine (no ipywidgets), so it is tested without a
browser and the widget class stays a thin layer of traits and message handlers.

The widget is task-generic through the task's :class:`~mtwidgets.core.views.ExplorerParts`:
they decide which roles the user marks, how the texts and marks become an input and back,
how a hand-edited follow-up keeps its marks, which front-end components draw the input and
the predictions, and an optional per-model extra part. Words and the follow-up's word diff
come from :mod:`mtwidgets.lang.text` (any script, not only ASCII).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.cache import PredictionCache, default_cache, model_fingerprint
from ..core.errors import InputError
from ..core.evaluate import final_check, precheck
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Check, Group, MetamorphicRelation, stable_rng
from ..core.spans import Span, check_span
from ..core.threads import one_torch_thread
from ..core.views import ExplorerParts, ExtraPart, span_pieces
from ..lang.text import Token, diff_words, token_dicts, tokenize

__all__ = [
    "CandidateList",
    "ModelOutcome",
    "Predictor",
    "candidate_list",
    "check_mark",
    "diff_segments",
    "extra_view",
    "fields_segments",
    "followup_view",
    "input_view",
    "model_view",
    "one_torch_thread",
    "prediction_view",
    "relation_view",
    "segments",
]

# Candidates beyond the relation's own sample are listed in a seeded order; the cap bounds
# the work per source (MR-R1 can have hundreds of same-type replacements).
MAX_CANDIDATES = 1000


# -- marks and words ---------------------------------------------------------------------------
def check_mark(text: str, span: Span, role: str) -> None:
    """Raise :class:`InputError` naming the bad offsets and how to fix them."""
    check_span(text, span, what=f"{role} span")


def tokens_of(parts: ExplorerParts, text: str) -> list[dict[str, Any]]:
    """The clickable tokens of ``text``: the parts' own, else Unicode word tokens."""
    own = parts.tokens(text)
    return own if own is not None else token_dicts(text, parts.lang)


def _split_at(tokens: list[Token], cuts: set[int]) -> list[Token]:
    """Tokens cut where a marked span starts or ends inside one (``Mary's`` with ``Mary``
    marked: ``Mary`` + ``'s``), so every word falls in one role or none."""
    out: list[Token] = []
    for t in tokens:
        inner = sorted(c for c in cuts if t.start < c < t.end)
        bounds = [t.start, *inner, t.end]
        for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
            ws = t.ws if k == len(bounds) - 2 else ""
            out.append(Token(t.text[a - t.start : b - t.start], a, b, ws))
    return out


def _words(text: str, spans: Mapping[str, Span], lang: str) -> list[Token]:
    cuts = {c for s in spans.values() for c in (s.start, s.end)}
    return _split_at(tokenize(text, lang), cuts)


def _word(t: Token, spans: Mapping[str, Span]) -> dict[str, Any]:
    role = next((r for r, s in spans.items() if s.start <= t.start and t.end <= s.end), None)
    label = spans[role].label if role is not None else None
    return {"text": t.text, "ws": t.ws, "role": role, "label": label}


def segments(text: str, spans: Mapping[str, Span], lang: str = "en") -> list[dict[str, Any]]:
    """Words of ``text`` with the role each falls in (no diff)."""
    return [{**_word(t, spans), "op": "eq"} for t in _words(text, spans, lang)]


def diff_segments(
    source: str,
    source_spans: Mapping[str, Span],
    followup: str,
    followup_spans: Mapping[str, Span],
    lang: str = "en",
) -> list[dict[str, Any]]:
    """Word-level diff of the follow-up against the source: ``eq``/``ins``/``del`` words,
    each with the role it belongs to, so highlighting survives the edit."""
    a, b = _words(source, source_spans, lang), _words(followup, followup_spans, lang)
    return [
        {**_word(t, source_spans if op == "del" else followup_spans), "op": op}
        for op, _i, t in diff_words(a, b, lang)
    ]


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
        reason = f"{relation.name} needs {transformation.refusal(slots)}"
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
        from ..core.model import check_outputs

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
        """The model's outputs on ``group`` and the verdict, decided as a run decides it
        (:mod:`mtwidgets.core.evaluate`)."""
        if group.not_applicable is not None:
            early = precheck(relation, group, None, None, self.models[name])
            return ModelOutcome([], [], early or Check("not_applicable", None, group.not_applicable))
        # Sources and follow-ups in one model call: a live edit usually needs both, and one
        # call halves the per-call overhead of a transformer; a follow-up predicted for a
        # group that turns out not applicable is cached for the next edit.
        both = self.predict(name, [*group.sources, *group.followups])
        srcs = both[: len(group.sources)]
        bad = next((p for p in srcs if isinstance(p, str)), None)
        src_preds = [p for p in srcs if isinstance(p, Prediction)] if bad is None else []
        early = precheck(relation, group, src_preds, bad, self.models[name])
        if early is not None:
            return ModelOutcome(src_preds, [], early)
        fus = both[len(group.sources) :]
        bad = next((p for p in fus if isinstance(p, str)), None)
        fu_preds = [p for p in fus if isinstance(p, Prediction)] if bad is None else []
        return ModelOutcome(src_preds, fu_preds, final_check(relation, group, src_preds, fu_preds, bad))


# -- render state (JSON for the front end) -------------------------------------------------------
def _field_entry(parts: ExplorerParts, f: str, texts: Mapping[str, str], tokens: list[dict[str, Any]] | None
                 ) -> dict[str, Any]:
    """One text box; with the role that marks words in it and its tokens, when given."""
    entry: dict[str, Any] = {"name": f, "title": parts.title(f), "text": texts.get(f, "")}
    if tokens is not None:
        entry["role"] = next(r for r in parts.roles if parts.field_of(r) == f)
        entry["tokens"] = tokens
    return entry


def input_view(
    parts: ExplorerParts,
    texts: Mapping[str, str],
    marks: Mapping[str, Span | None],
    row: int,
    n_rows: int,
    relation: MetamorphicRelation | None = None,
) -> dict[str, Any]:
    """The input box: the texts, tokens of the marked text, marks, the roles to mark, the
    suggestions, and which front-end component (``mark_view``) draws it. Where the parts
    mark words in more than one field, each field lists its own tokens and role."""
    text = texts.get(parts.fields[0], "")
    has_text = any(t.strip() for t in texts.values())
    marked = bool(text.strip())
    tokens = tokens_of(parts, text) if marked else []

    def field_tokens(f: str) -> list[dict[str, Any]]:
        own = texts.get(f, "")
        return tokens if f == parts.fields[0] else tokens_of(parts, own) if own.strip() else []

    marked_fields = {parts.field_of(r) for r in parts.roles}
    several = len(marked_fields) > 1  # words marked in several fields: each lists its tokens
    per_field = {f: field_tokens(f) for f in parts.fields if several and f in marked_fields}

    def mark(r: str, s: Span) -> dict[str, Any]:
        own = texts.get(parts.field_of(r), "")
        out = {
            "start": s.start,
            "end": s.end,
            "label": s.label,
            "inferred": parts.type_of(own, s.with_label(None)),
            "text": own[s.start : s.end],
        }
        return {**out, "field": parts.field_of(r)} if per_field else out

    return {
        "mark_view": parts.mark_view,
        "text": text,
        "fields": [_field_entry(parts, f, texts, per_field.get(f)) for f in parts.fields],
        "tokens": tokens,
        "marks": {r: (mark(r, s) if s else None) for r, s in marks.items()},
        "roles": list(parts.roles),
        "types": list(parts.entity_types),
        "suggestions": parts.suggestions(text) if marked and parts.roles else [],
        "todo": (
            (parts.build(texts, marks)[1] or parts.hint_for(texts, marks, relation))
            if has_text
            else "type a sentence or pick a row"
        ),
        "row": row,
        "n_rows": n_rows,
        **parts.input_state(),
    }


def relation_view(relation: MetamorphicRelation, not_applicable: str | None) -> dict[str, Any]:
    """A picker entry: the catalogue fields, and whether this input meets the precondition."""
    return {**relation.info(), "enabled": not_applicable is None, "reason": not_applicable or ""}


def fields_segments(parts: ExplorerParts, x: BaseInput, against: BaseInput | None) -> list[dict[str, Any]]:
    """Every text field of ``x`` as role-tagged words (diffed against ``against``'s same
    field when given); with more than one field, each field starts with a ``field`` marker."""
    texts = parts.texts_of(x)
    base = parts.texts_of(against) if against is not None else None
    spans = parts.spans_of(x)
    base_spans = parts.spans_of(against) if against is not None else {}
    out: list[dict[str, Any]] = []
    for f in parts.fields:
        # each field with the marks that lie in it
        own = {r: s for r, s in spans.items() if parts.field_of(r) == f}
        theirs = {r: s for r, s in base_spans.items() if parts.field_of(r) == f}
        if len(parts.fields) > 1:
            out.append(
                {"field": parts.title(f), "text": "", "ws": "", "role": None, "label": None, "op": "eq"}
            )
        if base is None:
            out.extend(segments(texts[f], own, parts.lang))
        else:
            out.extend(diff_segments(base[f], theirs, texts[f], own, parts.lang))
    return out


def followup_view(parts: ExplorerParts, source: BaseInput | None, group: Group | None) -> dict[str, Any]:
    """The shown group's sources and follow-ups as role-tagged words, diffed against the source."""
    if group is None or source is None:
        return {"note": "", "not_applicable": None, "sources": [], "followups": [], "texts": []}
    return {
        "note": group.note,
        "not_applicable": group.not_applicable,
        "sources": [fields_segments(parts, s, None) for s in group.sources],
        "followups": [fields_segments(parts, f, source) for f in group.followups],
        "texts": [parts.edit_text(f) for f in group.followups],
    }


def prediction_view(
    p: Prediction, top_k: int, parts: ExplorerParts | None = None, text: str | None = None
) -> dict[str, Any]:
    """One prediction as the prediction views draw it: the label with its top-k scores, and
    whichever of spans (as pieces of ``text``), value (with its band) and text it has."""
    out: dict[str, Any] = {"label": p.label, "top": [[k, round(float(v), 4)] for k, v in p.top(top_k)]}
    if p.spans or (text is not None and parts is not None and parts.prediction_view == "spans"):
        out["spans"] = span_pieces(text, p.spans) if text is not None else [s.to_dict() for s in p.spans]
    if p.value is not None:
        out["value"] = float(p.value)
        band = parts.band_of(float(p.value)) if parts is not None else None
        if band is not None:
            out["band"] = band
    if p.text is not None:
        out["text"] = p.text
    return out


def text_diff(a: str, b: str, lang: str = "en") -> list[dict[str, Any]]:
    """Word diff of text ``b`` against ``a`` as ``{text, ws, op}`` segments."""
    return [{"text": t.text, "ws": t.ws, "op": op} for op, _i, t in diff_words(a, b, lang)]


def model_view(
    name: str,
    outcome: ModelOutcome,
    expected: str,
    top_k: int,
    parts: ExplorerParts | None = None,
    group: Group | None = None,
) -> dict[str, Any]:
    """One model's card: verdict, one-line reason, expected output, and the predictions in
    the shape the parts' prediction view (``view``) draws."""
    shown: dict[str, list[str]] = {"source": [], "followup": []}
    if parts is not None and group is not None:
        shown = {
            "source": [parts.text_of(x) for x in group.sources],
            "followup": [parts.text_of(x) for x in group.followups],
        }

    def side(preds: list[Prediction], key: str) -> list[dict[str, Any]]:
        texts = shown[key]
        return [
            prediction_view(p, top_k, parts, texts[k] if k < len(texts) else None)
            for k, p in enumerate(preds)
        ]

    view: dict[str, Any] = {
        "name": name,
        "view": parts.prediction_view if parts is not None else "label-scores",
        "verdict": outcome.check.verdict,
        "reason": outcome.check.reason,
        "expected": outcome.check.expected or expected,
        "source": side(outcome.sources, "source"),
        "followup": side(outcome.followups, "followup"),
    }
    if parts is not None and parts.value_bands:
        view["bands"] = [b.to_dict() for b in parts.value_bands]
    # a text prediction: each follow-up's text diffed against the (first) source's
    src_text = outcome.sources[0].text if outcome.sources else None
    if src_text is not None:
        lang = parts.lang if parts is not None else "en"
        for fu, p in zip(view["followup"], outcome.followups):
            if p.text is not None:
                fu["diff"] = text_diff(src_text, p.text, lang)
    return view


def extra_view(extra: ExtraPart, data: Any) -> dict[str, Any]:
    """The per-model extra component's entry in a model card (``view`` names the component)."""
    return {"view": extra.name, "replaces": bool(extra.replaces_prediction), "data": data}
