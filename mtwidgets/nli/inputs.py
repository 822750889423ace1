"""The NLI inputs: a premise and a hypothesis, and a composition of a context with an insertion pair.

:class:`NLIInput` is a :class:`~mtwidgets.core.inputs.TextPairInput` (``text_a`` is the
premise, ``text_b`` the hypothesis), so every text-pair model adapter reads it as it is (a
Hugging Face pipeline receives ``{"text": premise, "text_pair": hypothesis}``). The gold
label never changes what a model sees: ``key()`` depends on the two texts alone.

:class:`CompositionInput` is the input of pairwise compositionality (section 5 of the
systematicity paper): ``(C(ℓa), C(ℓb))``, one context ``C`` with the two words of an
insertion pair, which also says which context and pair built it and where the two words sit
(their character spans: the hypernymy probe reads the model's hidden states there). A
model reads it as any NLI input; the NLI adapters and ``nli-minilm`` also return those
hidden states with its prediction (:mod:`mtwidgets.nli.states`), so its ``key()`` holds the
spans as well.

Table rows become compositions when they name a ``context`` (a template with one slot,
``{x}`` or ``{xs}``; the paper's ``⟨x⟩`` is read as ``{x}``), its ``monotonicity`` (up or
down), the insertion words ``a`` and ``b`` and their ``relation`` (``⊇``/hypernym,
``⊆``/hyponym, ``none``/unrelated); the premise and hypothesis are then written from them,
or, when the row gives them, checked against them (:func:`composition_from_row`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.errors import InputError
from ..core.inputs import TextPairInput, register_input_type
from .contexts import MONOTONICITIES, check_template, fill, is_plural, locate
from .labels import ALL_LABELS, ENTAILMENT, NEUTRAL, canonical_label
from .lexicon import RELATIONS, Relation, plural_of

Span = tuple[int, int]


def _gold(value: object) -> str | None:
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return None
    label = canonical_label(value)
    if label is None:
        raise InputError(f"the gold NLI label must be one of {', '.join(ALL_LABELS)}, got {value!r}")
    return label


@dataclass(frozen=True)
class NLIInput(TextPairInput):
    """A premise and a hypothesis; ``label`` is the gold label when known.

    >>> NLIInput("There was no tree.", "There was no cherry tree.", "ENTAILMENT").label
    'entailment'
    """

    label: str | None = None
    task: ClassVar[str] = "nli"

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "label", _gold(self.label))

    @property
    def premise(self) -> str:
        return self.text_a

    @property
    def hypothesis(self) -> str:
        return self.text_b

    def key(self) -> str:
        cached = self.__dict__.get("_key")
        if cached is None:
            cached = json.dumps({"task": self.task, "text_a": self.text_a, "text_b": self.text_b},
                                sort_keys=True, ensure_ascii=False)
            object.__setattr__(self, "_key", cached)
        return str(cached)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text_a": self.text_a, "text_b": self.text_b}
        if self.label is not None:
            out["label"] = self.label
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NLIInput:
        if "composition" in data:
            return CompositionInput.from_dict(data)
        return cls(data["text_a"], data["text_b"], data.get("label"))


register_input_type(NLIInput)


# -- compositions -----------------------------------------------------------------------------

# How a table may name a lexical relation or a monotonicity.
RELATION_NAMES: dict[str, Relation] = {
    "⊇": "⊇", "hypernym": "⊇", "hypernyms": "⊇", "hypernymy": "⊇", ">": "⊇",
    "⊆": "⊆", "hyponym": "⊆", "hyponyms": "⊆", "hyponymy": "⊆", "<": "⊆",
    "none": "none", "unrelated": "none",
}
MONOTONICITY_NAMES: dict[str, str] = {"up": "up", "upward": "up", "down": "down", "downward": "down"}


def entailed(monotonicity: str, relation: str) -> bool:
    """Up(⊆) and Down(⊇) are entailed; every other composition is not."""
    return (monotonicity, relation) in (("up", "⊆"), ("down", "⊇"))


def canonical_relation(value: object) -> Relation:
    """``⊇``, ``⊆`` or ``none`` for the names a table may use, else an :class:`InputError`."""
    key = str(value).strip().lower() if isinstance(value, str) else None
    if key is None or key not in RELATION_NAMES:
        raise InputError(
            f"the lexical relation of an insertion pair must be one of {', '.join(RELATIONS)} (or hypernym, "
            f"hyponym, unrelated), got {value!r}"
        )
    return RELATION_NAMES[key]


def canonical_monotonicity(value: object) -> str:
    """``up`` or ``down`` for the names a table may use, else an :class:`InputError`."""
    key = str(value).strip().lower() if isinstance(value, str) else None
    if key is None or key not in MONOTONICITY_NAMES:
        raise InputError(f"the monotonicity of a context must be one of {', '.join(MONOTONICITIES)}, got {value!r}")
    return MONOTONICITY_NAMES[key]


def _span(value: object, text: str, what: str) -> Span:
    try:
        start, end = (int(v) for v in value)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise InputError(f"the span of {what} must be two character offsets (start, end), got {value!r}") from None
    if not 0 <= start < end <= len(text) or not text[start:end].strip():
        raise InputError(f"the span ({start}, {end}) of {what} covers no word of {text!r}")
    return start, end


@dataclass(frozen=True)
class CompositionInput(NLIInput):
    """``(C(ℓa), C(ℓb))``: context ``context`` (a template with one slot) composed with the
    insertion pair ``(a, b)`` of lexical relation ``relation`` (``⊇``: a is a hypernym of
    b; ``⊆``: a hyponym; ``none``), ``spans`` the characters of the two words in the
    premise and the hypothesis. ``domains`` (the context's insertion domains), ``domain_a``,
    ``domain_b`` and ``source`` (``paper``, ``project`` or the user's) are shown in results.

    The gold label follows from the composition: entailment for Up(⊆) and Down(⊇), else
    neutral; a given label must agree. Build one with :meth:`compose` (which writes the two
    sentences) or from a table row (:func:`composition_from_row`).
    """

    context: str = ""
    monotonicity: str = ""
    a: str = ""
    b: str = ""
    relation: str = ""
    spans: tuple[Span, Span] = ((0, 0), (0, 0))
    domains: tuple[str, ...] = ()
    domain_a: str = ""
    domain_b: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        TextPairInput.__post_init__(self)  # the texts; the gold label is checked against the composition below
        check_template(self.context)
        object.__setattr__(self, "monotonicity", canonical_monotonicity(self.monotonicity))
        object.__setattr__(self, "relation", canonical_relation(self.relation))
        for name in ("a", "b"):
            word = getattr(self, name)
            if not isinstance(word, str) or not word.strip():
                raise InputError(f"the insertion word {name} must be a non-empty string, got {word!r}")
        if not isinstance(self.spans, (tuple, list)) or len(self.spans) != 2:
            raise InputError(
                f"spans must be two (start, end) pairs, for the premise and the hypothesis; got {self.spans!r}")
        spans = (_span(self.spans[0], self.text_a, f"{self.a!r} in the premise"),
                 _span(self.spans[1], self.text_b, f"{self.b!r} in the hypothesis"))
        object.__setattr__(self, "spans", spans)
        object.__setattr__(self, "domains", tuple(str(d) for d in self.domains))
        gold = ENTAILMENT if entailed(self.monotonicity, self.relation) else NEUTRAL
        given = _gold(self.label)
        if given is not None and (given == ENTAILMENT) != (gold == ENTAILMENT):
            raise InputError(
                f"{self.composition} is {'entailed' if gold == ENTAILMENT else 'not entailed'} (only Up(⊆) and "
                f"Down(⊇) are), but its gold label is {given!r}"
            )
        object.__setattr__(self, "label", given or gold)

    @property
    def composition(self) -> str:
        """The paper's name of the composition, e.g. ``Down(⊇)``."""
        return f"{self.monotonicity.capitalize()}({self.relation})"

    @classmethod
    def compose(cls, context: str, monotonicity: str, a: str, b: str, relation: str, *,
                forms: tuple[str, str] | None = None, label: str | None = None, domains: tuple[str, ...] = (),
                domain_a: str = "", domain_b: str = "", source: str = "") -> CompositionInput:
        """The composition of ``context`` with ``(a, b)``: the premise ``C(a)`` and the
        hypothesis ``C(b)`` written by :func:`~mtwidgets.nli.contexts.fill`; ``forms`` are the
        words as they go in the slot (default: the words, or their plurals for ``{xs}``)."""
        check_template(context)
        if forms is None:
            forms = (plural_of(a), plural_of(b)) if is_plural(context) else (a, b)
        premise, span_a = fill(context, forms[0])
        hypothesis, span_b = fill(context, forms[1])
        return cls(premise, hypothesis, label, context=context, monotonicity=monotonicity, a=a, b=b,
                   relation=relation, spans=(span_a, span_b), domains=tuple(domains), domain_a=domain_a,
                   domain_b=domain_b, source=source)

    def key(self) -> str:
        cached = self.__dict__.get("_key")
        if cached is None:
            cached = json.dumps({"task": self.task, "text_a": self.text_a, "text_b": self.text_b,
                                 "spans": [list(s) for s in self.spans]}, sort_keys=True, ensure_ascii=False)
            object.__setattr__(self, "_key", cached)
        return str(cached)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["composition"] = {
            "context": self.context, "monotonicity": self.monotonicity, "a": self.a, "b": self.b,
            "relation": self.relation, "spans": [list(s) for s in self.spans], "domains": list(self.domains),
            "domain_a": self.domain_a, "domain_b": self.domain_b, "source": self.source,
        }
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CompositionInput:
        c = data["composition"]
        return cls(data["text_a"], data["text_b"], data.get("label"), context=c["context"],
                   monotonicity=c["monotonicity"], a=c["a"], b=c["b"], relation=c["relation"],
                   spans=tuple(tuple(s) for s in c["spans"]),  # type: ignore[arg-type]
                   domains=tuple(c.get("domains", ())), domain_a=c.get("domain_a", ""),
                   domain_b=c.get("domain_b", ""), source=c.get("source", ""))

PREMISE_COLUMNS = ("premise", "text_a", "sentence1", "text1", "s1")
HYPOTHESIS_COLUMNS = ("hypothesis", "text_b", "sentence2", "text2", "s2")
LABEL_COLUMNS = ("label", "gold_label", "gold")


def _cell(row: Mapping[str, Any], names: tuple[str, ...], what: str) -> str:
    for name in names:
        if name in row:
            value = row[name]
            if not isinstance(value, str):
                raise InputError(f"the {what} (column {name!r}) must be a string, got {type(value).__name__}: {value!r}")
            return value
    raise InputError(
        f"the row has no {what} column ({' or '.join(repr(n) for n in names)}); its columns: {sorted(map(str, row))}"
    )


CONTEXT_COLUMNS = ("context", "template")
MONOTONICITY_COLUMNS = ("monotonicity", "mon")
A_COLUMNS = ("a", "insertion_a", "word_a")
B_COLUMNS = ("b", "insertion_b", "word_b")
RELATION_COLUMNS = ("relation", "lexical_relation", "lex_rel")


def _optional(row: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        value = row.get(name)
        if value is not None and not (isinstance(value, float) and math.isnan(value)) and value != "":
            return value
    return None


def _words(value: Any) -> tuple[str, ...]:
    """A list of domain names, or one string of them separated by spaces or commas."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.replace(",", " ").split())
    return tuple(str(v) for v in value)


def _slot_form(context: str, text: str, word: str, what: str) -> tuple[str, Span]:
    """The word in the slot of ``context`` within the given ``text``, checked to be
    ``word`` (or its plural in a ``{xs}`` slot)."""
    found = locate(context, text)
    if found is None:
        raise InputError(f"the {what} {text!r} is not the context {context!r} with a word in its slot")
    form, span = found
    wanted = plural_of(word) if is_plural(context) else word
    if form.lower() not in {word.lower(), wanted.lower()}:
        raise InputError(f"the {what} {text!r} has {form!r} in the slot of {context!r}, not {wanted!r}")
    return form, span


def composition_from_row(row: Mapping[str, Any]) -> CompositionInput:
    """A composition from a row with ``context``, ``monotonicity``, ``a``, ``b`` and
    ``relation`` (see the module notes); a ``premise`` and ``hypothesis`` given too must be
    the context with ``a`` and with ``b``. Optional: ``label``, ``domains``, ``domain_a``,
    ``domain_b``, ``source``."""
    context = str(_cell(row, CONTEXT_COLUMNS, "context")).replace("⟨x⟩", "{x}")
    monotonicity = _cell(row, MONOTONICITY_COLUMNS, "monotonicity")
    a, b = _cell(row, A_COLUMNS, "insertion word a"), _cell(row, B_COLUMNS, "insertion word b")
    relation = _cell(row, RELATION_COLUMNS, "lexical relation")
    check_template(context)
    premise, hypothesis = _optional(row, PREMISE_COLUMNS), _optional(row, HYPOTHESIS_COLUMNS)
    forms = None
    if premise is not None or hypothesis is not None:
        if premise is None or hypothesis is None:
            raise InputError("give both the premise and the hypothesis of a composition, or neither")
        forms = (_slot_form(context, str(premise), a, "premise")[0],
                 _slot_form(context, str(hypothesis), b, "hypothesis")[0])
    x = CompositionInput.compose(
        context, monotonicity, a, b, relation, forms=forms, label=_optional(row, LABEL_COLUMNS),
        domains=_words(_optional(row, ("domains",))), domain_a=str(_optional(row, ("domain_a",)) or ""),
        domain_b=str(_optional(row, ("domain_b",)) or ""), source=str(_optional(row, ("source",)) or "user"))
    if premise is not None and (x.premise, x.hypothesis) != (premise, hypothesis):
        raise InputError(f"the premise and hypothesis {premise!r} / {hypothesis!r} are not the context {context!r} "
                         f"written with {a!r} and {b!r} ({x.premise!r} / {x.hypothesis!r})")
    return x


def is_composition_row(row: Mapping[str, Any]) -> bool:
    """Whether a row names a context (it is then read as a composition)."""
    return any(name in row for name in CONTEXT_COLUMNS)


def nli_from_row(row: Mapping[str, Any]) -> NLIInput:
    """``premise``/``hypothesis`` (or ``text_a``/``text_b``, ``sentence1``/``sentence2``),
    optional gold ``label`` (or ``gold_label``); a row that names a ``context`` is a
    composition (:func:`composition_from_row`)."""
    if is_composition_row(row):
        return composition_from_row(row)
    gold = next((row[k] for k in LABEL_COLUMNS if k in row), None)
    return NLIInput(_cell(row, PREMISE_COLUMNS, "premise"), _cell(row, HYPOTHESIS_COLUMNS, "hypothesis"), gold)


def detect_nli(columns: set[str]) -> bool:
    """A premise column and a hypothesis column (named so: a generic text pair is similarity
    data), or the columns of a composition (a context and an insertion pair)."""
    if "premise" in columns and "hypothesis" in columns:
        return True
    return "context" in columns and "monotonicity" in columns and {"a", "b"} <= columns
