"""A word the user marks to replace, in one text or in either text of a pair: the inputs'
``focus`` (kept out of the key, saved with the input), the relations MR1-MR6 narrowed to the
rewrites that replace it (or refused with the reason naming it), MR7 ignoring it, and the
Explorer's marking, hint and candidate lists over it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import input_from_dict
from mtwidgets.text import en, zh
from mtwidgets.text import relations as R
from mtwidgets.text.inputs import ClassificationInput, SimilarityInput, SummarizationInput, focus_word
from mtwidgets.text.rewrite import Replacement, Rewrite, Rewrites, apply_replacements
from mtwidgets.widgets._explorer_state import candidate_list
from mtwidgets.widgets.explorer import Explorer

# Ten nouns, each with its replacement: more sites than a run asks a rewriter for (8).
NOUNS = {f"item{i}": f"thing{i}" for i in range(10)}
TEN = "We counted " + ", ".join(NOUNS) + " in the shed."


def sites(pairs: dict[str, str | None], what: str, asked: list[int] | None = None) -> Any:
    """A rewriter with one rewrite per listed word found (every mention of it replaced), at
    most ``k`` of them; a word listed with ``None`` is refused with a reason naming it (the
    widgets are tested on fixed rewrites, not on the lexicons)."""

    def rewrite(text: str, *, rng: Any = None, k: int = 1) -> Rewrites:
        if asked is not None:
            asked.append(k)
        out, why = [], []
        for old, new in pairs.items():
            starts = [m.start() for m in re.finditer(rf"\b{re.escape(old)}\b", text)]
            if not starts:
                continue
            if new is None:
                why.append(f"no reviewed synonym of {old!r}")
                continue
            reps = tuple(Replacement(i, i + len(old), old, new) for i in starts)
            out.append(Rewrite(apply_replacements(text, reps), f"{what} {old!r} -> {new!r}", reps))
        return Rewrites(out[:k], "; ".join(why) or (None if out else f"no {what} of the test's list"))

    return rewrite


def reverse_sentences(text: str, *, rng: Any = None, k: int = 1) -> Rewrites:
    sentences = re.findall(r"[^.!?]+[.!?]\s*", text)
    if len(sentences) < 2 or "".join(sentences) != text:
        return Rewrites([], "fewer than two sentences")
    return Rewrites([Rewrite(" ".join(s.strip() for s in reversed(sentences)), "sentences reversed")])


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fixed rewriters in both languages; the list records the ``k`` the noun rewriter is asked for."""
    calls: list[int] = []
    for table in (en.REWRITERS, zh.REWRITERS):
        monkeypatch.setitem(table, "noun", sites({**NOUNS, "crash": "collision", "accident": None}, "noun", calls))
        monkeypatch.setitem(table, "country", sites({"France": "Chile"}, "country"))
        monkeypatch.setitem(table, "reorder", reverse_sentences)
    return calls


def at(text: str, word: str, field: str = "text", nth: int = 0) -> tuple[str, int, int]:
    """The focus on the ``nth`` whole-word mention of ``word`` in ``text``."""
    m = list(re.finditer(rf"\b{re.escape(word)}\b", text))[nth]
    return (field, m.start(), m.end())


def options(name: str, x: Any) -> tuple[list[Any], str]:
    """The follow-ups (built) of relation ``name`` on ``x``, and its refusal when it has none."""
    rel = R.build(name)
    slots = rel.transformation.options((x,))
    built = [rel.transformation.build((x,), o) for slot in slots for o in slot]
    return built, ("" if built else rel.transformation.refusal(slots))


# -- the inputs ---------------------------------------------------------------------------------
def test_the_focus_is_no_part_of_the_key_and_is_saved_with_the_input() -> None:
    text = "A crash closed the road. The crash was cleared by noon."
    plain = ClassificationInput(text, "", "world", "negative")  # positional fields as before
    marked = ClassificationInput(text, "", "world", "negative", focus=at(text, "crash", nth=1))
    assert marked.key() == plain.key() and marked.model_text() == plain.model_text()
    assert marked != plain and focus_word(marked) == "crash" and focus_word(plain) is None
    assert marked.to_dict()["focus"] == ["text", 29, 34] and "focus" not in plain.to_dict()
    assert input_from_dict(marked.to_dict()) == marked == ClassificationInput.from_dict(marked.to_dict())
    # a follow-up keeps the mark only while its text is the same
    assert marked.with_text(text).focus == marked.focus and marked.with_text("Roads reopened.").focus is None
    assert marked.with_focus(None) == plain and marked.with_focus(marked.focus) is marked
    summary = SummarizationInput(text, focus=["text", 2, 7])  # JSON gives a list back
    assert summary.focus == ("text", 2, 7) and SummarizationInput.from_dict(summary.to_dict()) == summary


def test_a_pair_keeps_its_mark_while_the_marked_text_is_unchanged() -> None:
    pair = SimilarityInput("France won.", "The team from France won the cup.", score=0.7, focus=("text_b", 14, 20))
    assert focus_word(pair) == "France" and pair.key() == SimilarityInput(pair.text_a, pair.text_b).key()
    assert pair.with_texts("Chile won.", pair.text_b).focus == ("text_b", 14, 20)
    assert pair.with_texts(pair.text_a, "The team from Chile won the cup.").focus is None
    assert pair.with_texts(pair.text_b, pair.text_a).focus is None  # swapped: S2 is another text now
    assert input_from_dict(pair.to_dict()) == pair


@pytest.mark.parametrize(
    ("focus", "message"),
    [
        (("text_b", 0, 1), "names the field 'text_b'"),
        (("text", 3, 99), "not inside the text"),
        (("text", 4, 4), "not inside the text"),
        (("text", 1, 3), "is not a word"),
        (("text", 0.5, 3), "must be integers"),
        ("text", "must be \\(field, start, end\\)"),
    ],
)
def test_a_bad_focus_is_refused_with_what_to_fix(focus: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        ClassificationInput("A crash.", focus=focus)


# -- the relations ------------------------------------------------------------------------------
def test_a_marked_word_keeps_only_the_rewrites_that_replace_it(asked: list[int]) -> None:
    built, _ = options("MR5.3", ClassificationInput(TEN))
    assert asked == [R.OPTIONS_PER_SOURCE] and len(built) == 8
    assert not any("item9" in d.note for d in built)  # the tenth site is beyond a run's eight
    marked = ClassificationInput(TEN, focus=at(TEN, "item9"))
    built, _ = options("MR5.3", marked)
    assert asked[-1] == R.FOCUS_OPTIONS  # asked for every site, so the marked one is among them
    (draft,) = built
    assert draft.followups[0].text == TEN.replace("item9", "thing9") and draft.note == "noun 'item9' -> 'thing9'"
    assert draft.meta["focus"] == ["text", *marked.focus[1:], "item9"]
    assert draft.followups[0].focus is None  # the follow-up's text changed: no mark on it


def test_a_word_the_rewriter_refuses_gets_its_own_reason(asked: list[int]) -> None:
    text = "The accident and the crash closed the road."
    _, why = options("MR5.3", ClassificationInput(text, focus=at(text, "accident")))
    assert why == (
        "a noun with a reviewed synonym (not here: the marked word 'accident' is not replaced: "
        "no reviewed synonym of 'accident'; it replaces 'crash' here)"
    )
    # a word the rewriter says nothing of: the family's kind is named, and what it replaces instead
    _, why = options("MR5.3", ClassificationInput(text, focus=at(text, "road")))
    assert "the marked word 'road' is not replaced: the rewriter finds no noun with a reviewed synonym there" in why
    assert why.endswith("it replaces 'crash' here)")
    # the Explorer's not-applicable entry names the relation
    cands = candidate_list(R.build("MR5.3"), ClassificationInput(text, focus=at(text, "road")), 0)
    assert cands.not_applicable is not None and cands.not_applicable.startswith("MR5.3 needs a noun")


def test_reordering_ignores_the_mark_and_says_so(asked: list[int]) -> None:
    text = "The crash closed the road. Police cleared it by noon. Traffic resumed later."
    plain, _ = options("MR7.2", SummarizationInput(text))
    marked, _ = options("MR7.2", SummarizationInput(text, focus=at(text, "crash")))
    assert [d.followups[0].text for d in marked] == [d.followups[0].text for d in plain]
    assert marked[0].note == "sentences reversed (the marked word 'crash' plays no part: the order changes, no word is replaced)"


def test_a_word_marked_in_either_text_of_a_pair_is_replaced_in_both(asked: list[int]) -> None:
    a, b = "France won the final.", "The team from France won the cup."
    for focus in (at(a, "France", "text_a"), at(b, "France", "text_b")):
        (draft,) = options("MR2.1", SimilarityInput(a, b, focus=focus))[0]
        fu = draft.followups[0]
        assert (fu.text_a, fu.text_b) == (a.replace("France", "Chile"), b.replace("France", "Chile"))
    _, why = options("MR2.1", SimilarityInput(a, b, focus=at(b, "cup", "text_b")))
    assert "the word 'cup' marked in S2 is not replaced: the rewriter finds no country name there" in why
    assert "it replaces 'France' here" in why
    # MR7.1 swaps the texts whatever is marked
    (swap,) = options("MR7.1", SimilarityInput(a, b, focus=at(b, "cup", "text_b")))[0]
    assert (swap.followups[0].text_a, swap.followups[0].text_b) == (b, a)
    assert swap.note == "S1 and S2 swapped (the marked word 'cup' plays no part: no word is replaced)"


def test_the_english_rewriters_replace_the_marked_word_or_say_why_not(synonyms: Any) -> None:
    text = "The company bought a car. The car was cheap and the company praised the engine."
    built, _ = options("MR5.3", ClassificationInput(text, focus=at(text, "car", nth=1)))
    # every mention replaced, the article with it
    assert [d.followups[0].text for d in built] == [text.replace("a car", "an automobile").replace("car", "automobile")]
    built, _ = options("MR5.3", ClassificationInput(text, focus=at(text, "company")))
    assert [d.followups[0].text for d in built] == [text.replace("company", "firm")]
    # "engine" has no reviewed synonym: the rewriter's own reason, asked of the word alone
    _, why = options("MR5.3", ClassificationInput(text, focus=at(text, "engine")))
    assert "the marked word 'engine' is not replaced: no noun with a reviewed synonym (engine have none)" in why
    built, _ = options("MR6.3", ClassificationInput(text, focus=at(text, "praised")))
    assert [d.followups[0].text for d in built] == [text.replace("praised", "commended")]


def test_the_chinese_rewriters_replace_the_marked_name_and_name_what_they_refuse() -> None:
    text = "刘芳是上海的一名医生。她每天早上骑车去医院。周末她常和朋友去公园散步。"
    built, _ = options("MR1.3", ClassificationInput(text, focus=("text", 0, 2)))
    assert built and all(d.followups[0].text != text and "刘芳" not in d.followups[0].text for d in built)
    start = text.index("公园")
    _, why = options("MR1.3", ClassificationInput(text, focus=("text", start, start + 2)))
    assert "the marked word '公园' is not replaced" in why and "it replaces '刘芳' here" in why


# -- the Explorer --------------------------------------------------------------------------------
def counting() -> tuple[Any, list[str]]:
    seen: list[str] = []

    def model(x: ClassificationInput) -> str:
        seen.append(x.text)
        return "long" if len(x.text) > 60 else "short"

    return model, seen


def test_the_explorer_marks_one_word_and_the_relations_follow_it(asked: list[int]) -> None:
    text = "The crash and the accident near item3 closed the road. Police cleared item7 by noon."
    model, seen = counting()
    e = Explorer(data=[ClassificationInput(text, topic="world")], models={"m": model},
                 relations=["MR5.3", "MR7.3"])
    assert e._input["roles"] == ["text"] and e._input["mark_view"] == "text"
    assert e._input["todo"] == "optional: click a word to mark it for MR1.3-MR6.3 to replace (MR7.3 reorders " \
        "the sentences and ignores a mark)"
    first = e.followups[0].text
    for word, new in (("item7", "thing7"), ("crash", "collision"), ("item3", "thing3")):
        _, start, end = at(text, word)
        assert e.handle_message({"kind": "mark", "id": 1, "role": "text", "start": start, "end": end})["kind"] == "reply"
        assert e.source.focus == ("text", start, end) and e._input["marks"]["text"]["text"] == word
        assert [f.text for f in e.followups] == [text.replace(word, new)]  # each mark its own candidates
        assert e._input["todo"].startswith(f"MR5.3 will replace {word!r} (marked), or say below why not; click another")
    assert seen.count(text) == 1  # the source is predicted once: the mark is no part of its key
    _, start, end = at(text, "accident")
    e.mark("text", start, end)
    assert e.followups == [] and "the marked word 'accident' is not replaced: no reviewed synonym" in str(
        e._followup["not_applicable"])
    e.relation = "MR7.3"
    assert e._input["todo"].startswith("MR7.3 reorders the sentences and ignores 'accident' (marked); MR1.3-MR6.3")
    assert "plays no part" in e._followup["note"]
    e.handle_message({"kind": "clear", "id": 2})
    assert e.source.focus is None and e._input["marks"] == {"text": None}
    e.relation = "MR5.3"
    assert e.followups[0].text == first  # back to the unmarked candidates
    e.mark("text", *at(text, "crash")[1:])
    e.set_text("A new text about item1.")  # new text: the mark goes
    assert e.source.focus is None


def test_the_explorer_marks_a_word_in_s2_of_a_pair(asked: list[int]) -> None:
    a, b = "France won the final.", "The team from France won the cup."
    e = Explorer(data=[SimilarityInput(a, b)], models={"len": lambda x: len(x.text_a) / len(x.text_b) / 2},
                 relations=["MR2.1", "MR7.1"])
    fields = e._input["fields"]
    assert [(f["name"], f["role"]) for f in fields] == [("text_a", "text_a"), ("text_b", "text_b")]
    assert [t["text"] for t in fields[1]["tokens"]] == ["The", "team", "from", "France", "won", "the", "cup", "."]
    _, start, end = at(b, "France", "text_b")
    e.handle_message({"kind": "mark", "id": 1, "role": "text_b", "start": start, "end": end})
    assert e.source.focus == ("text_b", start, end)
    assert e._input["marks"]["text_b"] == {"start": start, "end": end, "label": None, "inferred": None,
                                           "text": "France", "field": "text_b"}
    assert e._input["marks"]["text_a"] is None
    assert e._input["todo"].startswith("MR2.1 will replace 'France' (marked in S2)")
    fu = e.followups[0]
    assert (fu.text_a, fu.text_b) == (a.replace("France", "Chile"), b.replace("France", "Chile"))
    # the marked word carries its role in the source's words (S2 only), for the view to show it
    (src,) = e._followup["sources"]
    assert [(w["text"], w["role"]) for w in src if w.get("role")] == [("France", "text_b")]
    # marking in S1 moves the mark; offsets are checked against the text they are in
    e.mark("text_a", 0, 6)
    assert e.source.focus == ("text_a", 0, 6) and e._input["marks"]["text_b"] is None
    reply = e.handle_message({"kind": "mark", "id": 2, "role": "text_b", "start": 30, "end": 40})
    assert reply["kind"] == "error" and "runs past the end of the text" in reply["message"]
    e.relation = "MR7.1"
    assert e._input["todo"].startswith("MR7.1 swaps S1 and S2 and ignores 'France' (marked in S1)")
    e.clear("text_a")
    assert e.source.focus is None
