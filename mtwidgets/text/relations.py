"""The 21 metamorphic relations of the Chinese NLP paper (section 3), for three tasks.

Seven MR families (MR1 name or pronoun, MR2 country, MR3 occupation, MR4 punctuation: the
property-based substitutions, MRPpbs; MR5 noun and MR6 verb synonyms: MRPsbs; MR7 sentence
order: MRPr) times three tasks, named as the paper does: ``MRi.1`` similarity, ``MRi.2``
summarization, ``MRi.3`` classification. The follow-ups come from the language's rewriters
(:mod:`mtwidgets.text.en`; Chinese from ``mtwidgets.text.zh``, imported when a Chinese input
first needs it). The oracles are the paper's:

- similarity: ``sim(S1, S2)`` and ``sim(Sf1, Sf2)`` fall in the same of the five intervals
  ([0.8, 1], [0.6, 0.8), [0.4, 0.6), [0.2, 0.4), [0, 0.2)); the replacement is applied to both
  texts of the pair where the word occurs; MR7.1 swaps S1 and S2;
- summarization: ``sum(Tf) = Replace_{X1->X2}(sum(Ts))`` (MR1.2-MR6.2; a token F1 between
  the two is recorded beside the verdict) and ``sum(Tf) = sum(Ts)`` for MR7.2;
- classification: the same label (MR1.3-MR7.3).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.predictions import Prediction
from ..core.properties import SameLabel
from ..core.relation import (
    Check,
    Draft,
    Group,
    MetamorphicRelation,
    OutputProperty,
    RelationSpec,
    Slots,
    Transformation,
    build_from_table,
    stable_rng,
)
from .rewrite import FAMILIES, Replacement, Rewrite, Rewriter, apply_replacements, transfer

PAPER = ("Jiang et al. 2022, Metamorphic Testing of Chinese NLP Systems: Text Similarity, Text "
         "Summarization and Text Classification (Mathematics 10(8), 1276)")

# The language modules that hold a ``REWRITERS`` table.
LANGUAGE_MODULES: dict[str, str] = {"en": "mtwidgets.text.en", "zh": "mtwidgets.text.zh"}

# How many rewrites a rewriter is asked for per source; a run tests one, drawn with its seed.
OPTIONS_PER_SOURCE = 8

TASK_SUFFIX: dict[str, int] = {"similarity": 1, "summarization": 2, "classification": 3}

CATEGORY: dict[str, str] = {
    "name": "MRPpbs", "country": "MRPpbs", "occupation": "MRPpbs", "punctuation": "MRPpbs",
    "noun": "MRPsbs", "verb": "MRPsbs", "reorder": "MRPr",
}  # fmt: skip

_WHAT: dict[str, str] = {
    "name": "a person's name (every mention) with a name of the same gender",
    "country": "a country (every mention) with another country",
    "occupation": "an occupation noun with another of the same field",
    "punctuation": "a punctuation mark with an equivalent one",
    "noun": "a noun with its reviewed synonym",
    "verb": "a verb with its reviewed synonym",
    "reorder": "the order of the sentences",
}
_REQUIREMENT: dict[str, str] = {
    "name": "a person's name of known gender",
    "country": "a country name",
    "occupation": "an occupation noun",
    "punctuation": "a punctuation mark with an equivalent",
    "noun": "a noun with a reviewed synonym",
    "verb": "a verb with a reviewed synonym",
    "reorder": "two or more sentences that stand on their own",
}


def rewriters(lang: str) -> dict[str, Rewriter] | str:
    """The rewriters of ``lang`` by family, or why there are none."""
    module_name = LANGUAGE_MODULES.get(lang)
    if module_name is None:
        return f"no rewriters for the language {lang!r} (known: {', '.join(LANGUAGE_MODULES)})"
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        return f"the {lang} rewriters ({module_name}) cannot be imported: {exc}"
    table = getattr(module, "REWRITERS", None)
    if not isinstance(table, Mapping):
        return f"{module_name} has no REWRITERS table"
    return dict(table)


def _rewrites(family: str, lang: str, text: str) -> tuple[list[Rewrite], str | None]:
    """The rewrites of ``text`` a run chooses from (deterministic), and why there are none."""
    table = rewriters(lang)
    if isinstance(table, str):
        return [], table
    rewriter = table.get(family)
    if rewriter is None:
        return [], f"the {lang} rewriters have no {family!r} family"
    found = rewriter(text, rng=stable_rng(0, family, text), k=OPTIONS_PER_SOURCE)
    return list(found), (None if found else getattr(found, "why", None) or "nothing to rewrite")


def replacements_meta(reps: Sequence[Replacement]) -> list[list[Any]]:
    """Replacements as JSON-able ``[start, end, old, new]`` lists (a group's meta)."""
    return [[r.start, r.end, r.old, r.new] for r in reps]


def replacements_from_meta(value: Any) -> tuple[Replacement, ...]:
    return tuple(Replacement(int(s), int(e), str(o), str(n)) for s, e, o, n in (value or ()))


# -- transformations ---------------------------------------------------------------------------
class RewriteText(Transformation):
    """One text -> the same input with a rewritten text (classification, summarization)."""

    def __init__(self, family: str) -> None:
        if family not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
        self.family = family
        self.requirement = _REQUIREMENT[family]

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        x = sources[0]
        found, why = _rewrites(self.family, x.lang, x.text)
        return Slots([found] if found else [], [why] if why else [])

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        x = sources[0]
        meta = {"family": self.family, "lang": x.lang, "replacements": replacements_meta(option.replacements)}
        meta.update({k: v for k, v in option.meta.items() if k in ("order", "kind", "old", "new")})
        return Draft((x,), (x.with_text(option.text),), option.note, meta)


# Between the two texts of a pair when a rewriter reads them as one text.
PAIR_JOIN = "\n"


class RewritePair(Transformation):
    """``(S1, S2)`` -> ``(Sf1, Sf2)``: the paper's ``Replace_{X1->X2}(S1, S2)``. The rewriter
    reads the two texts as one (joined by a line break), so a word is replaced in both texts
    wherever it occurs and each text's context counts (a surname in S2 of a person named in
    S1, a country's adjective in either text); rewrites that change both texts are
    preferred. Punctuation is changed the same way in both texts, each on its own."""

    def __init__(self, family: str) -> None:
        if family not in FAMILIES or family == "reorder":
            raise ValueError(f"family must be one of {FAMILIES[:-1]}, got {family!r}")
        self.family = family
        self.requirement = _REQUIREMENT[family] + " in either text"

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        x = sources[0]
        if self.family == "punctuation":
            found_a, why_a = _rewrites(self.family, x.lang, x.text_a)
            found_b, why_b = _rewrites(self.family, x.lang, x.text_b)
            options = _same_kind(found_a, found_b, x.text_a, x.text_b)
            why = [w for w in (why_a and f"S1: {why_a}", why_b and f"S2: {why_b}") if w]
        else:
            found, reason = _rewrites(self.family, x.lang, x.text_a + PAIR_JOIN + x.text_b)
            options = [o for o in (_split(rw, x.text_a, x.text_b) for rw in found) if o is not None]
            why = [reason] if reason else []
        both = [o for o in options if o[2]]
        seen: dict[tuple[str, str], Any] = {}
        for o in both or options:
            seen.setdefault((o[0].text, o[1].text), o)
        return Slots([list(seen.values())] if seen else [], why)

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        x = sources[0]
        ra, rb, _ = option
        note = ra.note or rb.note
        meta = {"family": self.family, "lang": x.lang, "replacements_a": replacements_meta(ra.replacements),
                "replacements_b": replacements_meta(rb.replacements)}
        meta.update({k: v for k, v in (ra.meta or rb.meta).items() if k in ("kind", "old", "new")})
        return Draft((x,), (x.with_texts(ra.text, rb.text),), note, meta)


def _split(rw: Rewrite, text_a: str, text_b: str) -> tuple[Rewrite, Rewrite, bool] | None:
    """A rewrite of the joined pair as ``(rewrite of S1, rewrite of S2, both changed)``;
    ``None`` when a replacement crosses the join."""
    cut = len(text_a)
    offset = cut + len(PAIR_JOIN)
    reps_a = [r for r in rw.replacements if r.end <= cut]
    reps_b = [Replacement(r.start - offset, r.end - offset, r.old, r.new) for r in rw.replacements
              if r.start >= offset]
    if len(reps_a) + len(reps_b) != len(rw.replacements):
        return None
    ra = Rewrite(apply_replacements(text_a, reps_a), rw.note, tuple(reps_a), rw.meta) if reps_a else _unchanged(text_a)
    rb = Rewrite(apply_replacements(text_b, reps_b), rw.note, tuple(reps_b), rw.meta) if reps_b else _unchanged(text_b)
    return ra, rb, bool(reps_a) and bool(reps_b)


def _unchanged(text: str) -> Rewrite:
    return Rewrite(text, "", ())


def _same_kind(found_a: list[Rewrite], found_b: list[Rewrite], text_a: str, text_b: str
               ) -> list[tuple[Rewrite, Rewrite, bool]]:
    """Punctuation rewrites of the same kind in both texts; failing that, one text alone."""
    by_kind_b: dict[str, list[Rewrite]] = {}
    for rw in found_b:
        by_kind_b.setdefault(str(rw.meta.get("kind")), []).append(rw)
    both = [(ra, rb, True) for ra in found_a for rb in by_kind_b.get(str(ra.meta.get("kind")), ())]
    if both:
        return both
    return [(ra, _unchanged(text_b), False) for ra in found_a] + [(_unchanged(text_a), rb, False) for rb in found_b]


class SwapPair(Transformation):
    """MR7.1: ``(S1, S2)`` -> ``(S2, S1)``."""

    requirement = "two different texts"

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        x = sources[0]
        if x.text_a == x.text_b:
            return Slots([], ["S1 and S2 are the same text"])
        return [["swap"]]

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        x = sources[0]
        return Draft((x,), (x.with_texts(x.text_b, x.text_a),), "S1 and S2 swapped", {"family": "reorder"})


# -- output properties -------------------------------------------------------------------------
# The paper's five intervals of a similarity score, from the top.
INTERVALS: tuple[tuple[float, float, str], ...] = (
    (0.8, 1.0, "perfect correlation"),
    (0.6, 0.8, "strong correlation"),
    (0.4, 0.6, "regulated correlation"),
    (0.2, 0.4, "weak correlation"),
    (0.0, 0.2, "zero correlation"),
)


def interval(value: float) -> tuple[float, float, str]:
    """The interval of a score (values outside [0, 1] are clipped to it first)."""
    v = min(1.0, max(0.0, float(value)))
    for low, high, name in INTERVALS:
        if v >= low:
            return low, high, name
    return INTERVALS[-1]


def _band(value: float) -> str:
    low, high, name = interval(value)
    close = "]" if high == 1.0 else ")"
    return f"[{low:.1f}, {high:.1f}{close} {name}"


class SameInterval(OutputProperty):
    """Similarity: the source and follow-up scores fall in the same interval."""

    description = "both similarities in the same interval"

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        src, flw = sources[0].value, followups[0].value
        if src is None or flw is None:
            return Check("error", None, "the model gave no similarity value")
        expected = _band(src)
        got = _band(flw)
        same = interval(src) == interval(flw)
        return Check("pass" if same else "violation", expected, f"sim {src:.3f} in {expected}; follow-up {flw:.3f} in {got}")


def _tokens(text: str) -> list[str]:
    from ..lang.text import tokenize

    return [t.text.lower() for t in tokenize(text, "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en")]


def token_f1(a: str, b: str) -> float:
    """Token-overlap F1 between two texts (1.0 for two empty texts)."""
    from collections import Counter

    ta, tb = Counter(_tokens(a)), Counter(_tokens(b))
    if not ta and not tb:
        return 1.0
    common = sum((ta & tb).values())
    if not common:
        return 0.0
    p, r = common / sum(tb.values()), common / sum(ta.values())
    return 2 * p * r / (p + r)


def _norm(text: str) -> str:
    return " ".join(text.split())


class SummaryUnderReplacement(OutputProperty):
    """MR1.2-MR6.2: the follow-up's summary equals the source's summary with the same
    replacements applied (located by their context, see
    :func:`~mtwidgets.text.rewrite.transfer`); the token F1 between the two is recorded."""

    description = "sum(Tf) = Replace_{X1->X2}(sum(Ts))"

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        src, flw = sources[0].text, followups[0].text
        if src is None or flw is None:
            return Check("error", None, "the model gave no summary")
        reps = replacements_from_meta(group.meta.get("replacements"))
        expected = transfer(str(getattr(group.sources[0], "text", "")), src, reps)
        f1 = token_f1(expected, flw)
        if _norm(expected) == _norm(flw):
            return Check("pass", expected, f"follow-up summary = replaced source summary (token F1 {f1:.2f})")
        return Check("violation", expected, f"follow-up summary differs from the replaced source summary "
                     f"(token F1 {f1:.2f})")


class SameSummary(OutputProperty):
    """MR7.2: the follow-up's summary equals the source's."""

    description = "sum(Tf) = sum(Ts)"

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        src, flw = sources[0].text, followups[0].text
        if src is None or flw is None:
            return Check("error", None, "the model gave no summary")
        f1 = token_f1(src, flw)
        if _norm(src) == _norm(flw):
            return Check("pass", src, f"same summary (token F1 {f1:.2f})")
        return Check("violation", src, f"summaries differ (token F1 {f1:.2f})")


# -- the table ----------------------------------------------------------------------------------
def relation_name(family: str, task: str) -> str:
    """The paper's name, e.g. ``("country", "summarization") -> "MR2.2"``."""
    return f"MR{FAMILIES.index(family) + 1}.{TASK_SUFFIX[task]}"


def _maker(cls: Any, *args: Any) -> Any:
    """A RelationSpec factory building ``cls(*args)`` (the build options are not used)."""

    def make(options: Mapping[str, Any]) -> Any:
        return cls(*args)

    return make


def _spec(family: str, task: str) -> RelationSpec:
    what = _WHAT[family]
    if task == "similarity":
        if family == "reorder":
            return RelationSpec(CATEGORY[family], "sim(S1, S2) and sim(S2, S1) in the same interval",
                                "Swap S1 and S2.", _maker(SwapPair), _maker(SameInterval))
        return RelationSpec(CATEGORY[family], "sim(S1, S2) and sim(Sf1, Sf2) in the same interval",
                            f"Replace {what}, in both texts of the pair where it occurs.",
                            _maker(RewritePair, family), _maker(SameInterval))
    if task == "summarization":
        if family == "reorder":
            return RelationSpec(CATEGORY[family], "sum(Tf) = sum(Ts)", "Change the order of the sentences.",
                                _maker(RewriteText, family), _maker(SameSummary))
        return RelationSpec(CATEGORY[family], "sum(Tf) = Replace_{X1->X2}(sum(Ts))", f"Replace {what}.",
                            _maker(RewriteText, family), _maker(SummaryUnderReplacement))
    return RelationSpec(CATEGORY[family], "the same label (Ls = Lf)",
                        f"Change {what}." if family == "reorder" else f"Replace {what}.",
                        _maker(RewriteText, family), _maker(SameLabel))


TABLES: dict[str, dict[str, RelationSpec]] = {
    task: {relation_name(f, task): _spec(f, task) for f in FAMILIES} for task in TASK_SUFFIX
}


def names(task: str) -> tuple[str, ...]:
    """The seven relation names of ``task``, in the paper's order."""
    return tuple(TABLES[task])


def build(name: str, **options: Any) -> MetamorphicRelation:
    """One of the 21 relations by its paper name (``"MR1.1"`` ... ``"MR7.3"``)."""
    task = next((t for t, table in TABLES.items() if name in table), None)
    if task is None:
        raise KeyError(name)
    return build_from_table(TABLES[task], name, task=task, paper=PAPER, options=options)
