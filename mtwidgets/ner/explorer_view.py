"""The Explorer's parts for named entity recognition (TIN): gold marking, entity views, repair.

Two parts, both plain Python over the engine:

- :class:`NERParts` says how the input is marked. NER needs no marks to run (the relations
  transform plain sentences), so what the user marks are *gold* entities: click or drag
  over tokens adds one with a label, clicking the label chip removes it. Gold protects
  entities from the similar-sentence edits and lets the view judge each model's spans.
- :class:`NERInspector` is the per-model extra part: it turns one model's outcome on the
  shown group into what the card draws: both sentences with the predicted spans coloured
  per label, the suspicious entities (TIN's location) flagged with their disagreement and,
  against gold, their error category, and the repaired prediction (TIN's Algorithm 1)
  beside the original.

The Batch panel's NER view reuses :func:`entity_pieces` and :func:`suspect_view`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Group
from ..core.spans import Span
from ..core.threads import one_torch_thread
from ..core.views import ExplorerParts, ExtraPart, carry_span, span_pieces
from .inputs import NERInput
from .labels import CANONICAL, SPACY
from .locate import KIND_CATEGORY, OffsetMap, SuspiciousEntity, followup_gold, judge
from .oracles import SamePredictionsUnderPermutation, suspicious_entities

Marks = Mapping[str, Span | None]


def _text(x: Any) -> str:
    return str(getattr(x, "text", ""))


# One colour per canonical label, mid-tones readable as a tint behind text on light and
# dark themes; the label name is always printed too, so colour is never the only channel.
LABEL_COLORS: dict[str, str] = dict(
    zip(
        CANONICAL,
        (
            "#3b82f6",  # PERSON
            "#14b8a6",  # NORP
            "#a16207",  # FAC
            "#8b5cf6",  # ORG
            "#22c55e",  # GPE
            "#65a30d",  # LOC
            "#f97316",  # PRODUCT
            "#ec4899",  # EVENT
            "#d946ef",  # WORK_OF_ART
            "#64748b",  # LAW
            "#0ea5e9",  # LANGUAGE
            "#eab308",  # DATE
            "#f59e0b",  # TIME
            "#10b981",  # PERCENT
            "#84cc16",  # MONEY
            "#06b6d4",  # QUANTITY
            "#a3a3a3",  # ORDINAL
            "#94a3b8",  # CARDINAL
            "#78716c",  # MISC
        ),
    )
)


def mark_key(span: Span) -> str:
    """The key a gold entity is stored under in the Explorer's marks (its offsets)."""
    return f"{span.start}:{span.end}"


class NERParts(ExplorerParts):
    """NER: the input is the sentence; marks are its gold entities, each with a label."""

    mark_view = "spans"
    prediction_view = "spans"
    extra_view = "entity-inspector"
    fields = ("text",)
    roles = ("entity",)
    entity_types = CANONICAL

    def marks_of(self, x: BaseInput) -> dict[str, Span | None]:
        assert isinstance(x, NERInput)
        return {mark_key(s): s for s in x.gold}

    def build(self, texts: Mapping[str, str], marks: Marks) -> tuple[BaseInput | None, str | None]:
        return NERInput(texts["text"], tuple(s for s in marks.values() if s is not None)), None

    def tokens(self, text: str) -> list[dict[str, Any]]:
        from ..lang.text import pipeline_tokens

        return pipeline_tokens(text)

    def empty_marks(self) -> dict[str, Span | None]:
        return {}

    def input_state(self) -> dict[str, Any]:
        return {"colors": LABEL_COLORS}

    def extra(self, predictor: Any, **options: Any) -> NERInspector:
        return NERInspector(
            predictor, repair=options.get("repair", True), repairer_options=options.get("repairer_options")
        )

    def hint(self, marks: Mapping[str, Span | None]) -> str:
        if not any(marks.values()):
            return (
                "optional: mark gold entities (drag over tokens, or click a suggestion) to judge the "
                "models' spans and keep the edits away from them"
            )
        return "click or drag to add gold entities; a chip's x removes one"

    def suggestions(self, text: str) -> list[dict[str, Any]]:
        """spaCy's entities with canonical labels: one click adds one as gold."""
        from ..lang.pipelines import parse

        out = []
        for e in parse(text).ents:
            label = SPACY.map(e.label_)
            if label is not None:
                out.append({"start": e.start_char, "end": e.end_char, "label": label, "text": e.text})
        return out

    def type_of(self, text: str, span: Span) -> str | None:
        found = [
            s["label"] for s in self.suggestions(text) if (s["start"], s["end"]) == (span.start, span.end)
        ]
        return found[0] if found else None

    def accepts(self, role: str) -> bool:
        return role == "entity" or ":" in role

    def add_mark(
        self, text: str, marks: Mapping[str, Span | None], role: str, span: Span, label: str | None
    ) -> dict[str, Span | None]:
        """Add a gold entity; gold entities it overlaps are replaced (NER spans are disjoint)."""
        if label and label not in CANONICAL:
            raise InputError(f"unknown entity label {label!r}; choose one of {', '.join(CANONICAL)}")
        label = label or self.type_of(text, span)
        if not label:
            raise InputError(
                f"no label for the entity {text[span.start : span.end]!r}: spaCy sees no entity with exactly "
                "this range; pick its label in 'new entity label' and mark it again"
            )
        kept = {k: s for k, s in marks.items() if s is not None and not s.overlaps(span)}
        return {**kept, mark_key(span): span.with_label(label)}

    def remove_mark(self, marks: Mapping[str, Span | None], role: str | None) -> dict[str, Span | None]:
        if role is None or role == "entity":
            return {}
        if role not in marks:
            raise InputError(f"there is no gold entity {role!r} to remove; gold entities: {sorted(marks)}")
        return {k: s for k, s in marks.items() if k != role}

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        """The edited follow-up with each gold entity carried through the edit, or found again
        by its text; gold the edit removed is dropped (the sentence no longer has it)."""
        assert isinstance(followup, NERInput)
        if not new_text.strip():
            raise InputError("the follow-up text is empty; type a sentence or undo the edit")
        gold: list[Span] = []
        for span in followup.gold:
            found = carry_span(followup.text, new_text, span)
            if found is None:
                mention = followup.mention(span)
                start = new_text.find(mention)
                while start >= 0 and any(Span(start, start + len(mention)).overlaps(g) for g in gold):
                    start = new_text.find(mention, start + 1)
                found = Span(start, start + len(mention), span.label) if start >= 0 else None
            if found is not None and not any(found.overlaps(g) for g in gold):
                gold.append(found)
        return NERInput(new_text, tuple(gold))

    def edited_meta(
        self, source: BaseInput, generated: BaseInput, edited: BaseInput, meta: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Location needs to know which characters the two sentences share: after a hand
        edit, the kept ranges come from a character diff of source and edited follow-up, and
        a shuffle's moved entities are carried through the edit (dropped when edited away)."""
        src, new, old = _text(source), _text(edited), _text(generated)
        matcher = difflib.SequenceMatcher(None, src, new, autojunk=False)
        alignment = [[i, i + n, j, j + n] for i, j, n in matcher.get_matching_blocks() if n]
        out = {k: v for k, v in meta.items() if k not in ("alignment", "permutation")}
        out["alignment"] = alignment
        moved = []
        for entry in meta.get("permutation") or ():
            to = carry_span(old, new, Span(int(entry[2]), int(entry[3])))
            if to is not None:
                moved.append([entry[0], entry[1], to.start, to.end, *entry[4:]])
        if moved:
            out["permutation"] = moved
        return out

    def warm(self, inputs: Sequence[BaseInput]) -> None:
        from ..lang.pipelines import parse_many

        parse_many([x.text for x in inputs if isinstance(x, NERInput)])


# -- entity pieces (what the front end draws) ------------------------------------------------
# the generic span renderer, under the name the NER views use
entity_pieces = span_pieces


def _gold_of(group: Group) -> tuple[tuple[Span, ...] | None, tuple[Span, ...] | None]:
    """Gold of the first source and follow-up, when the source has any (carried if needed)."""
    src = group.sources[0] if group.sources else None
    if not isinstance(src, NERInput) or not src.gold:
        return None, None
    fu = group.followups[0] if group.followups else None
    if isinstance(fu, NERInput) and fu.gold:
        return src.gold, fu.gold
    carried = followup_gold(OffsetMap.from_meta(group.meta), src.gold)
    return src.gold, tuple(carried) if carried is not None else None


class NERInspector(ExtraPart):
    """Suspicious entities and repairs for the Explorer's model cards, cached per sentence.

    Parameters
    ----------
    predictor:
        The Explorer's predictor (its models and prediction cache are reused, so a repair
        predicts the source sentences' mutants only).
    repair:
        Repair violations automatically (TIN Algorithm 1, offline candidates). The first
        repair loads the word-vector table and MiniLM (a few seconds); later ones take
        tenths of a second on the embedded spaCy models.
    repairer_options:
        Keyword arguments for :class:`~mtwidgets.ner.repair.Repairer` (``fill_mask``,
        ``candidates``, ``similarity``, ``config``).
    """

    name = "entity-inspector"
    replaces_prediction = True  # it draws the predicted spans itself, flagged and judged

    def __init__(
        self, predictor: Any, *, repair: bool = True, repairer_options: Mapping[str, Any] | None = None
    ):
        self.predictor = predictor
        self.repair = repair
        self.options = dict(repairer_options or {})
        self._repairers: dict[str, Any] = {}
        self._repaired: dict[tuple[Any, ...], Any] = {}

    def suspicious(self, relation: Any, group: Group, outcome: Any) -> list[SuspiciousEntity]:
        """The entities the relation's oracle located (same pairing and label granularity)."""
        if outcome.check.verdict != "violation" or not outcome.sources or not outcome.followups:
            return []
        prop = relation.property
        return suspicious_entities(
            group,
            outcome.sources,
            outcome.followups,
            granularity=getattr(prop, "granularity", "fine"),
            by_text=isinstance(prop, SamePredictionsUnderPermutation),
        )

    def repairs(self, views: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """``{model: {"source": spans, "followup": spans, "relabels": [...]}}`` from the
        views shown (``{model: view data}``): the models whose violation was repaired."""
        out: dict[str, dict[str, Any]] = {}
        for name, view in views.items():
            rep_ = (view or {}).get("repair") or {}
            if rep_.get("status") == "done":
                out[name] = {
                    "source": [Span.from_value(d) for d in rep_["spans"]["source"]],
                    "followup": [Span.from_value(d) for d in rep_["spans"]["followup"]],
                    "relabels": rep_["relabels"],
                }
        return out

    def repairer(self, name: str) -> Any:
        if name not in self._repairers:
            from .repair import Repairer

            options = {"cache": self.predictor.cache, **self.options}
            self._repairers[name] = Repairer(self.predictor.user_models[name], name=name, **options)
        return self._repairers[name]

    def repaired(
        self, name: str, items: Sequence[tuple[str, Sequence[Span], Sequence[Span]]]
    ) -> list[tuple[tuple[Span, ...], list[Any]]]:
        """``Repairer.repair`` for ``items``, each sentence repaired once per suspicious set."""

        def key(text: str, spans: Sequence[Span], sus: Sequence[Span]) -> tuple[Any, ...]:
            return (
                name,
                text,
                tuple((s.start, s.end, s.label) for s in spans),
                tuple((s.start, s.end) for s in sus),
            )

        todo = {key(*item): item for item in items if key(*item) not in self._repaired}
        if todo:
            with one_torch_thread():
                done = self.repairer(name).repair(list(todo.values()))
            self._repaired.update(zip(todo, done))
        return [self._repaired[key(*item)] for item in items]

    def view(
        self, name: str, relation: Any, source: BaseInput | None, group: Group | None, outcome: Any
    ) -> dict[str, Any] | None:
        """The NER part of one model card: entity pieces, suspicious entities, repair.

        Where the relation does not apply (no follow-up), the source's entities are still
        shown: what the model says about the sentence is worth seeing on its own.
        """
        if group is None or not outcome.sources:
            if source is None:
                return None
            (pred,) = self.predictor.predict(name, [source])
            if not isinstance(pred, Prediction):
                return None
            gold = source.gold if isinstance(source, NERInput) and source.gold else None
            return {
                "has_gold": gold is not None,
                "source": entity_pieces(_text(source), pred.spans, gold=gold),
                "followup": [],
                "suspicious": [],
                "repair": None,
            }
        src_text, src_pred = _text(group.sources[0]), outcome.sources[0]
        fu_text = _text(group.followups[0]) if group.followups else ""
        fu_pred: Prediction | None = outcome.followups[0] if outcome.followups else None
        src_gold, fu_gold = _gold_of(group)
        sus = self.suspicious(relation, group, outcome)
        flagged_src = [s.source_span for s in sus]
        flagged_fu = [s.followup_span for s in sus]
        view: dict[str, Any] = {
            "has_gold": src_gold is not None,
            "source": entity_pieces(src_text, src_pred.spans, flagged=flagged_src, gold=src_gold),
            "followup": (
                entity_pieces(fu_text, fu_pred.spans, flagged=flagged_fu, gold=fu_gold) if fu_pred else []
            ),
            "suspicious": [
                suspect_view(
                    s,
                    src_text,
                    fu_text,
                    _category(src_pred.spans, src_gold, s.source_span) if src_gold is not None else None,
                    (
                        _category(fu_pred.spans, fu_gold, s.followup_span)
                        if fu_gold is not None and fu_pred is not None
                        else None
                    ),
                )
                for s in sus
            ],
            "repair": None,
        }
        if sus and fu_pred is not None:
            view["repair"] = self._repair_view(
                name, src_text, src_pred, fu_text, fu_pred, sus, src_gold, fu_gold
            )
        return view

    def _repair_view(
        self,
        name: str,
        src_text: str,
        src_pred: Prediction,
        fu_text: str,
        fu_pred: Prediction,
        sus: Sequence[SuspiciousEntity],
        src_gold: Sequence[Span] | None,
        fu_gold: Sequence[Span] | None,
    ) -> dict[str, Any]:
        if not self.repair:
            return {"status": "off", "message": "repair is off (Explorer(repair=True) turns it on)"}
        src_sus = list(dict.fromkeys(Span(s.source_span.start, s.source_span.end) for s in sus))
        fu_sus = list(dict.fromkeys(Span(s.followup_span.start, s.followup_span.end) for s in sus))
        try:
            (src_new, src_rel), (fu_new, fu_rel) = self.repaired(
                name, [(src_text, src_pred.spans, src_sus), (fu_text, fu_pred.spans, fu_sus)]
            )
        except Exception as exc:  # noqa: BLE001 - a failed repair is shown; the verdict stays
            return {"status": "error", "message": f"repair failed: {type(exc).__name__}: {exc}"}
        src_changed = [s for s in src_new if s not in src_pred.spans]
        fu_changed = [s for s in fu_new if s not in fu_pred.spans]
        return {
            "status": "done",
            "source": entity_pieces(src_text, src_new, changed=src_changed, gold=src_gold),
            "followup": entity_pieces(fu_text, fu_new, changed=fu_changed, gold=fu_gold),
            "relabels": [
                _relabel_view(side, text, r)
                for side, text, rels in (("source", src_text, src_rel), ("follow-up", fu_text, fu_rel))
                for r in rels
            ],
            "spans": {"source": [s.to_dict() for s in src_new], "followup": [s.to_dict() for s in fu_new]},
        }


def suspect_view(
    s: SuspiciousEntity,
    source_text: str,
    followup_text: str,
    source_category: str | None,
    followup_category: str | None,
) -> dict[str, Any]:
    """One suspicious entity as the widgets list it: what each sentence says, the kind of
    disagreement and, with gold, each side's category (``"correct"`` when right, ``None``
    when unjudged)."""
    return {
        "text": s.text,
        "source": s.source.describe(source_text),
        "followup": s.followup.describe(followup_text),
        "kind": s.kind,
        "suggests": KIND_CATEGORY[s.kind],
        "source_category": source_category,
        "followup_category": followup_category,
    }


def _category(pred: Sequence[Span], gold: Sequence[Span] | None, target: Span) -> str:
    return judge(pred, gold or (), target) or "correct"


def _relabel_view(side: str, text: str, r: Any) -> dict[str, Any]:
    votes = sorted(r.votes.items(), key=lambda kv: -kv[1])
    return {
        "side": side,
        "entity": text[r.span.start : r.span.end],
        "decided": r.decided,
        "label": (r.label or "NULL") if r.decided else None,
        "votes": [[k, round(float(v), 2)] for k, v in votes],
        "mutants": r.mutants,
    }


def parts() -> NERParts:
    """The NER task's Explorer parts."""
    return NERParts()
