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

A word the user marked (the input's ``focus``, see :mod:`mtwidgets.text.inputs`) narrows
MR1-MR6 to the rewrites that replace it: the rewriter is asked for every rewrite it can
defend and only those whose replacements cover the marked word are kept; when none does, the
relation does not apply, and the reason names the word and why the family's rewriter leaves
it alone (its own reason where it gives one). MR7 reorders and ignores the mark.
"""

from __future__ import annotations

import importlib
import re
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
from ..lang.text import is_cjk
from .inputs import focus_word
from .rewrite import FAMILIES, Replacement, Rewrite, Rewriter, Rewrites, apply_replacements, transfer

PAPER = ("Jiang et al. 2022, Metamorphic Testing of Chinese NLP Systems: Text Similarity, Text "
         "Summarization and Text Classification (Mathematics 10(8), 1276)")

# The language modules that hold a ``REWRITERS`` table.
LANGUAGE_MODULES: dict[str, str] = {"en": "mtwidgets.text.en", "zh": "mtwidgets.text.zh"}

# How many rewrites a rewriter is asked for per source; a run tests one, drawn with its seed.
OPTIONS_PER_SOURCE = 8
# ... and when the user marked a word: enough for every site the rewriter can replace, so the
# marked one is among them whenever the rewriter would replace it at all.
FOCUS_OPTIONS = 64

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


def _rewrite_all(family: str, lang: str, text: str, k: int) -> Rewrites:
    """At most ``k`` rewrites of ``text`` (deterministic) with the rewriter's ``why``: why it
    built none, or none at some other site (a rewriter may say it beside its rewrites)."""
    table = rewriters(lang)
    if isinstance(table, str):
        return Rewrites((), table)
    rewriter = table.get(family)
    if rewriter is None:
        return Rewrites((), f"the {lang} rewriters have no {family!r} family")
    found = rewriter(text, rng=stable_rng(0, family, text), k=k)
    return Rewrites(found, getattr(found, "why", None) or (None if found else "nothing to rewrite"))


def _rewrites(family: str, lang: str, text: str) -> tuple[list[Rewrite], str | None]:
    """The rewrites of ``text`` a run chooses from (deterministic), and why there are none."""
    found = _rewrite_all(family, lang, text, OPTIONS_PER_SOURCE)
    return list(found), (None if found else found.why)


# -- a marked word ------------------------------------------------------------------------------
def _covers(reps: Sequence[Replacement], start: int, end: int) -> bool:
    """Whether one of the replacements overlaps ``[start, end)`` (the marked word)."""
    return any(r.start < end and start < r.end for r in reps)


def _forms(word: str) -> set[str]:
    """The marked word and the stems it may be named by in a reason (a reason names a lemma:
    'accident' for "accidents", 'sign' for "signed")."""
    w = word.lower()
    out = {w}
    for suffix in ("s", "es", "ed", "d", "ing"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            out.add(w[: -len(suffix)])
    return out


def _mentions(reason: str, word: str) -> bool:
    """Whether ``reason`` names ``word`` (as a whole word; a Chinese word as a substring)."""
    low = reason.lower()
    for form in _forms(word):
        if any(is_cjk(ch) for ch in form):
            if form in low:
                return True
        elif re.search(r"(?<!\w)" + re.escape(form) + r"(?!\w)", low):
            return True
    return False


def focus_refusal(family: str, word: str, found: Sequence[Rewrite], why: str | None,
                  olds: Sequence[str] = (), where: str = "", alone: str | None = None) -> str:
    """Why no rewrite of ``family`` replaces the marked ``word`` (``where``: e.g. " in S2"):
    the rewriter's own reason where one names the word (in the text, else ``alone``: what it
    says of the word on its own), else that it finds nothing of the family's kind there;
    with what it does replace in the text (``olds``), so the user sees which words to mark
    instead, or why it replaces nothing at all."""
    pieces = [p.strip() for p in (why or "").split(";") if p.strip()]
    own = [p for p in pieces if _mentions(p, word)]
    if own:
        reason = "; ".join(own[:2])
    elif alone:
        reason = alone
    else:
        need = re.sub(r"^an? ", "", _REQUIREMENT[family])
        reason = f"the rewriter finds no {need} there"
    instead = list(dict.fromkeys(o for o in olds if o.strip()))
    if instead:
        reason += f"; it replaces {', '.join(repr(o) for o in instead[:4])} here"
    elif not own and not found and pieces:
        reason += f"; it replaces no other word either ({'; '.join(pieces[:2])})"
    subject = f"the word {word!r} marked{where}" if where else f"the marked word {word!r}"
    return f"{subject} is not replaced: {reason}"


def word_alone(family: str, lang: str, word: str) -> str | None:
    """What the family's rewriter says of ``word`` on its own, when the text's reasons do not
    name it (a rewriter may report one reason per text): its reason when it names the word
    (e.g. the lexicon has no reviewed synonym of it), or that the text's context rules out a
    word it would replace alone; ``None`` when it says nothing of the word."""
    found = _rewrite_all(family, lang, word, 1)
    if found:
        return "the rewriter replaces it on its own but not in this text (its context rules that out)"
    pieces = [p.strip() for p in (found.why or "").split(";") if p.strip()]
    own = [p for p in pieces if _mentions(p, word)]
    return "; ".join(own[:2]) or None


def _focused(family: str, lang: str, text: str, start: int, end: int, word: str
             ) -> tuple[list[Rewrite], str | None]:
    """The rewrites of ``text`` that replace ``text[start:end]``, or why there are none."""
    found = _rewrite_all(family, lang, text, FOCUS_OPTIONS)
    hit = [rw for rw in found if _covers(rw.replacements, start, end)]
    if hit:
        return hit, None
    olds = [r.old for rw in found for r in rw.replacements]
    return [], focus_refusal(family, word, list(found), found.why, olds, alone=_alone(family, lang, word, found.why))


def _alone(family: str, lang: str, word: str, why: str | None) -> str | None:
    """:func:`word_alone`, asked only when the text's reasons do not name the word."""
    if any(_mentions(p, word) for p in (why or "").split(";")):
        return None
    return word_alone(family, lang, word)


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
        word = focus_word(x)
        if word is not None and self.family != "reorder":
            _, start, end = x.focus
            found, why = _focused(self.family, x.lang, x.text, start, end, word)
        else:
            found, why = _rewrites(self.family, x.lang, x.text)
        return Slots([found] if found else [], [why] if why else [])

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        x = sources[0]
        meta = {"family": self.family, "lang": x.lang, "replacements": replacements_meta(option.replacements)}
        meta.update({k: v for k, v in option.meta.items() if k in ("order", "kind", "old", "new")})
        return Draft((x,), (x.with_text(option.text),), _noted(option.note, x, self.family), _marked(meta, x))


def _noted(note: str, x: Any, family: str) -> str:
    """The rewrite's note; a reordering of a text with a marked word says it ignored the mark."""
    word = focus_word(x)
    if word is None or family != "reorder":
        return note
    return f"{note} (the marked word {word!r} plays no part: the order changes, no word is replaced)"


def _marked(meta: dict[str, Any], x: Any) -> dict[str, Any]:
    """The group's meta with the marked word, ``[field, start, end, word]``, when there is one."""
    word = focus_word(x)
    return meta if word is None else {**meta, "focus": [*x.focus, word]}


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
        k = OPTIONS_PER_SOURCE if x.focus is None else FOCUS_OPTIONS
        if self.family == "punctuation":
            found_a = _rewrite_all(self.family, x.lang, x.text_a, k)
            found_b = _rewrite_all(self.family, x.lang, x.text_b, k)
            options = _same_kind(list(found_a), list(found_b), x.text_a, x.text_b)
            found = [*found_a, *found_b]
            said = [f"S1: {found_a.why}" if found_a.why else "", f"S2: {found_b.why}" if found_b.why else ""]
            why = [w for w, rws in zip(said, (found_a, found_b)) if w and not rws]
        else:
            joined = _rewrite_all(self.family, x.lang, x.text_a + PAIR_JOIN + x.text_b, k)
            options = [o for o in (_split(rw, x.text_a, x.text_b) for rw in joined) if o is not None]
            found, said = list(joined), [joined.why or ""]
            why = [] if joined else said
        if x.focus is not None:
            options, refused = _pair_focus(self.family, x, options, found, "; ".join(w for w in said if w))
            why = [refused] if refused else []
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
        return Draft((x,), (x.with_texts(ra.text, rb.text),), note, _marked(meta, x))


def _pair_focus(family: str, x: Any, options: list[tuple[Rewrite, Rewrite, bool]], found: Sequence[Rewrite],
                why: str) -> tuple[list[tuple[Rewrite, Rewrite, bool]], str | None]:
    """The pair's options that replace the marked word (in S1 or S2; the same word elsewhere
    in the pair is replaced with it), or why none does."""
    field, start, end = x.focus
    in_a = field == "text_a"
    hit = [o for o in options if _covers((o[0] if in_a else o[1]).replacements, start, end)]
    if hit:
        return hit, None
    olds = [r.old for rw in found for r in rw.replacements]
    where = " in S1" if in_a else " in S2"
    word = focus_word(x) or ""
    return [], focus_refusal(family, word, found, why, olds, where, _alone(family, x.lang, word, why))


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
        word = focus_word(x)
        note = "S1 and S2 swapped" + (f" (the marked word {word!r} plays no part: no word is replaced)" if word else "")
        return Draft((x,), (x.with_texts(x.text_b, x.text_a),), note, _marked({"family": "reorder"}, x))


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


# Relations of other papers a text task lists, built where they live (named by reference).
OTHER_BUILDERS: dict[str, str] = {"pairwise-systematicity": "mtwidgets.systematicity.pairwise:build"}


def build(name: str, **options: Any) -> MetamorphicRelation:
    """One of the 21 relations by its paper name (``"MR1.1"`` ... ``"MR7.3"``), or one of
    :data:`OTHER_BUILDERS`."""
    if name in OTHER_BUILDERS:
        from ..core.task import resolve_ref

        return resolve_ref(OTHER_BUILDERS[name])(name, **options)  # type: ignore[no-any-return]
    task = next((t for t, table in TABLES.items() if name in table), None)
    if task is None:
        raise KeyError(name)
    return build_from_table(TABLES[task], name, task=task, paper=PAPER, options=options)
