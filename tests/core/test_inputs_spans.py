"""Spans, typed inputs, markup and the one text edit (replace_span), on hand-checked values
and on random texts (Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import TextInput, TextPairInput, input_from_dict
from mtwidgets.core.spans import Span, check_span, replace_span
from mtwidgets.re.inputs import RelationInput

FATHER = "[[John|PERSON]] is <<Mary|PERSON>>'s father."


# -- Span -----------------------------------------------------------------------------------
def test_span_basics() -> None:
    s = Span(2, 5, "PERSON")
    assert (s.start, s.end, s.label) == (2, 5, "PERSON")
    assert s.shifted(3) == Span(5, 8, "PERSON")
    assert s.with_label(None) == Span(2, 5)
    assert s.to_dict() == {"start": 2, "end": 5, "label": "PERSON"}
    assert Span(2, 5).to_dict() == {"start": 2, "end": 5}
    # half-open: touching spans do not overlap
    assert not Span(0, 4).overlaps(Span(4, 6))
    assert Span(0, 5).overlaps(Span(4, 6)) and Span(4, 6).overlaps(Span(0, 5))
    assert Span(0, 10).overlaps(Span(3, 4))


@pytest.mark.parametrize(
    ("start", "end", "words"),
    [
        (3, 3, "empty or reversed"),
        (5, 2, "empty or reversed"),
        (-1, 2, "empty or reversed"),
        (1.0, 2, "must be integers"),
        ("1", 2, "must be integers"),
        (0, None, "must be integers"),
        (True, 2, "must be integers"),
    ],
)
def test_span_rejects(start: object, end: object, words: str) -> None:
    with pytest.raises(InputError, match=words):
        Span(start, end)  # type: ignore[arg-type]


def test_span_from_value_forms() -> None:
    assert Span.from_value(Span(1, 2)) == Span(1, 2)
    assert Span.from_value((1, 3)) == Span(1, 3)
    assert Span.from_value([1, 3, "CITY"]) == Span(1, 3, "CITY")
    assert Span.from_value({"start": 1, "end": 3, "label": "X"}) == Span(1, 3, "X")
    # values as spreadsheets and JSON give them
    assert Span.from_value({"start": "1", "end": 3.0}) == Span(1, 3)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"start": 1}, "needs 'start' and 'end'"),
        ((1, 2.5), "not an integer"),
        ((True, 2), "not an integer"),
        (("a", 2), "not an integer"),
        ((1,), "must be a Span"),
        ("1-2", "must be a Span"),
        (None, "must be a Span"),
    ],
)
def test_span_from_value_rejects(value: object, words: str) -> None:
    with pytest.raises(InputError, match=words):
        Span.from_value(value)


@pytest.mark.parametrize(
    ("span", "words"),
    [
        (Span(9, 20), "runs past the end"),
        (Span(4, 5), "covers only whitespace"),
        (Span(3, 5), "starts or ends with whitespace"),
        (Span(4, 9), "starts or ends with whitespace"),
    ],
)
def test_check_span_rejects(span: Span, words: str) -> None:
    text = "John met Mary"  # 'John'=0:4, ' '=4:5, 'met'=5:8
    with pytest.raises(InputError, match=words):
        check_span(text, span)


def test_check_span_mention_message_names_both() -> None:
    with pytest.raises(InputError) as exc:
        check_span("John met Mary", Span(0, 4), what="head span", mention="Mary")
    msg = str(exc.value)
    assert "'John'" in msg and "'Mary'" in msg and "(9, 13)" in msg


# -- TextInput / TextPairInput --------------------------------------------------------------
def test_text_inputs_validate() -> None:
    with pytest.raises(InputError, match="empty"):
        TextInput("   ")
    with pytest.raises(InputError, match="must be a string"):
        TextInput(3)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="text_b"):
        TextPairInput("a", "")
    assert TextPairInput("a", "b").display() == "a ||| b"


# -- RelationInput: construction and errors -------------------------------------------------
def test_relation_input_views() -> None:
    x = RelationInput.parse(FATHER)
    assert x.text == "John is Mary's father."
    assert (x.head, x.tail) == (Span(0, 4, "PERSON"), Span(8, 12, "PERSON"))
    assert (x.head_text, x.tail_text, x.head_type, x.tail_type) == ("John", "Mary", "PERSON", "PERSON")
    assert x.task == "re"
    sw = x.swapped()
    assert (sw.head_text, sw.tail_text) == ("Mary", "John") and sw.text == x.text
    assert sw.to_markup() == "<<John|PERSON>> is [[Mary|PERSON]]'s father."
    assert x.with_types(None, "CITY").to_markup() == "[[John]] is <<Mary|CITY>>'s father."
    assert x.display() == FATHER


def test_relation_input_overlap_message_names_both() -> None:
    with pytest.raises(InputError) as exc:
        RelationInput("John Smith met Mary", Span(0, 10), Span(5, 10))
    msg = str(exc.value)
    assert "'John Smith'" in msg and "'Smith'" in msg and "overlap" in msg
    with pytest.raises(InputError, match="overlap"):
        RelationInput("John met Mary", Span(0, 4), Span(0, 4))


def test_relation_input_offsets_must_select_the_mention() -> None:
    with pytest.raises(InputError) as exc:
        RelationInput.create("John met Mary", (0, 4), (9, 13), head_mention="Jim")
    msg = str(exc.value)
    assert "'John'" in msg and "'Jim'" in msg and "head" in msg
    with pytest.raises(InputError) as exc:
        RelationInput.create("John met Mary", (0, 4), (5, 8), tail_mention="Mary")
    msg = str(exc.value)
    assert "'met'" in msg and "'Mary'" in msg and "(9, 13)" in msg and "tail" in msg


def test_relation_input_span_errors() -> None:
    with pytest.raises(InputError, match="head span .*runs past the end"):
        RelationInput("John met Mary", (0, 40), (9, 13))
    with pytest.raises(InputError, match="tail span .*whitespace"):
        RelationInput("John met Mary", (0, 4), (8, 13))
    with pytest.raises(InputError, match="tail span"):
        RelationInput("John met Mary", (0, 4), "9-13")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="empty"):
        RelationInput("  ", (0, 1), (1, 2))


def test_create_from_mentions() -> None:
    x = RelationInput.create("John met Mary in Paris.", "John", "Paris", "PERSON", "CITY")
    assert x == RelationInput("John met Mary in Paris.", Span(0, 4, "PERSON"), Span(17, 22, "CITY"))
    # the tail is searched outside the head
    y = RelationInput.create("Anna told Anna.", "Anna", "Anna")
    assert (y.head, y.tail) == (Span(0, 4), Span(10, 14))
    # a tail mention inside the head is skipped for its next occurrence
    z = RelationInput.create("New York Times and York", "New York Times", "York")
    assert z.tail == Span(19, 23)


def test_create_from_offsets_and_dicts() -> None:
    text = "John met Mary in Paris."
    a = RelationInput.create(text, (0, 4), (17, 22), "PERSON", "CITY", head_mention="John", tail_mention="Paris")
    b = RelationInput.create(text, {"start": 0, "end": 4, "label": "PERSON"}, Span(17, 22, "CITY"))
    c = RelationInput.create(text, [0, 4], {"start": "17", "end": "22"}, "PERSON", "CITY")
    assert a == b == c
    # an explicit type overrides a label carried by the span
    d = RelationInput.create(text, Span(0, 4, "MISC"), (17, 22), "PERSON")
    assert d.head_type == "PERSON" and d.tail_type is None


@pytest.mark.parametrize("mention", ["Bob", ""])
def test_create_unknown_mention(mention: str) -> None:
    with pytest.raises(InputError, match="tail mention .* does not occur"):
        RelationInput.create("John met Mary", "John", mention)
    with pytest.raises(InputError, match="head mention .* does not occur"):
        RelationInput.create("John met Mary", mention, "Mary")


# -- markup ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("markup", "text", "head", "tail"),
    [
        (FATHER, "John is Mary's father.", Span(0, 4, "PERSON"), Span(8, 12, "PERSON")),
        ("[[John]] is <<Mary>>'s father.", "John is Mary's father.", Span(0, 4), Span(8, 12)),
        # tail before head
        ("<<French|NATIONALITY>> filmmaker [[Claude|PERSON]] dies at 80.",
         "French filmmaker Claude dies at 80.", Span(17, 23, "PERSON"), Span(0, 6, "NATIONALITY")),
        # type only on one side, spaces around the type are dropped
        ("[[Richard]] was born in <<San Francisco| CITY >>.",
         "Richard was born in San Francisco.", Span(0, 7), Span(20, 33, "CITY")),
        # a bar inside the mention: the type is after the last one
        ("[[A|B|ORGANIZATION]] hired <<Mary>>", "A|B hired Mary", Span(0, 3, "ORGANIZATION"), Span(10, 14)),
        # adjacent markers
        ("[[a]]<<b>>", "ab", Span(0, 1), Span(1, 2)),
    ],
)
def test_parse_exact(markup: str, text: str, head: Span, tail: Span) -> None:
    x = RelationInput.parse(markup)
    assert (x.text, x.head, x.tail) == (text, head, tail)
    assert RelationInput.parse(x.to_markup()) == x


def test_markup_printing_exact() -> None:
    x = RelationInput("French filmmaker Claude dies at 80.", Span(17, 23, "PERSON"), Span(0, 6))
    assert x.to_markup() == "<<French>> filmmaker [[Claude|PERSON]] dies at 80."
    y = RelationInput("ab", Span(1, 2, "T"), Span(0, 1, "H"))
    assert y.to_markup() == "<<a|H>>[[b|T]]"


@pytest.mark.parametrize(
    ("markup", "words"),
    [
        ("John is <<Mary>>'s father.", "no head mention"),
        ("[[John]] is Mary's father.", "no tail mention"),
        ("John is Mary's father.", "no head and no tail"),
        ("[[John]] and [[Bob]] met <<Mary>>.", "two head mentions"),
        ("[[John]] met <<Mary>> and <<Bob>>.", "two tail mentions"),
        ("[[John]] met <<Mary>> ]] today", "unbalanced"),
        ("[[John]] met <<Mary>> << today", "unbalanced"),
        ("[[John]] met [[Mary <<Bob>>", "unbalanced"),
        ("[[John|]] met <<Mary>>", "empty entity type"),
        ("[[ John]] met <<Mary>>", "outer spaces"),
        ("[[John]] met << |CITY>>", "empty or has outer spaces"),
        ("   ", "empty"),
    ],
)
def test_parse_errors(markup: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        RelationInput.parse(markup)


# -- dict round trips and keys --------------------------------------------------------------
@pytest.mark.parametrize(
    "x",
    [
        TextInput("A film about cats."),
        TextPairInput("A man sleeps.", "Nobody is awake."),
        RelationInput.parse(FATHER),
        RelationInput.parse("<<French>> filmmaker [[Claude|PERSON]] dies at 80."),
        RelationInput.parse("[[Jupp]], <<46>>, works in the lab."),
    ],
)
def test_input_from_dict_round_trip(x: object) -> None:
    d = x.to_dict()  # type: ignore[attr-defined]
    assert input_from_dict(d) == x
    assert input_from_dict(d).key() == x.key()  # type: ignore[attr-defined]
    assert type(input_from_dict(d)) is type(x)


def test_keys_are_stable_and_distinguish_types() -> None:
    a = RelationInput.parse(FATHER)
    assert a.key() == RelationInput.parse(FATHER).key()
    assert a.key() != RelationInput.parse("[[John]] is <<Mary|PERSON>>'s father.").key()
    assert a.key() != a.swapped().key()
    assert TextInput("x").key() != TextPairInput("x", "x").key()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"text": "x"}, "'task' key"),
        ("text", "'task' key"),
        ({"task": "no-such-task", "text": "x"}, "unknown input task 'no-such-task'"),
        ({"task": "re", "text": "John met Mary"}, "lacks the key 'head'"),
        ({"task": "pair", "text_a": "x"}, "lacks the key 'text_b'"),
    ],
)
def test_input_from_dict_errors(data: object, words: str) -> None:
    with pytest.raises(InputError, match=words):
        input_from_dict(data)  # type: ignore[arg-type]


# -- replace_span on hand-checked values -----------------------------------------------------
def test_replace_span_carries_spans_before_and_after() -> None:
    text = "Richard was born in San Francisco in 1950."
    before, target, after = Span(0, 7, "PERSON"), Span(20, 33, "CITY"), Span(37, 41, "DATE")
    new, span, (b, a) = replace_span(text, target, "the United States", [before, after])
    assert new == "Richard was born in the United States in 1950."
    assert span == Span(20, 37, "CITY")
    assert b == before  # untouched
    assert a == Span(41, 45, "DATE")
    assert new[a.start : a.end] == "1950" and new[b.start : b.end] == "Richard"
    # shorter replacement moves the later span left
    new2, span2, (a2,) = replace_span(text, target, "Rome", [after])
    assert new2 == "Richard was born in Rome in 1950." and span2 == Span(20, 24, "CITY")
    assert new2[a2.start : a2.end] == "1950"


def test_replace_span_adjacent_spans() -> None:
    new, span, (left, right) = replace_span("abc", Span(1, 2), "XYZ", [Span(0, 1), Span(2, 3)])
    assert new == "aXYZc" and span == Span(1, 4)
    assert (left, right) == (Span(0, 1), Span(4, 5))


@pytest.mark.parametrize("other", [Span(18, 25), Span(25, 30), Span(20, 33), Span(0, 40)])
def test_replace_span_rejects_overlap(other: Span) -> None:
    text = "Richard was born in San Francisco in 1950."
    with pytest.raises(InputError, match="overlaps"):
        replace_span(text, Span(20, 33), "Rome", [other])


@pytest.mark.parametrize("replacement", ["", " Rome", "Rome ", "\t"])
def test_replace_span_rejects_bad_replacement(replacement: str) -> None:
    with pytest.raises(InputError, match="empty or has outer whitespace"):
        replace_span("born in Paris", Span(8, 13), replacement)


# -- property tests -------------------------------------------------------------------------
# Words never contain markup characters or whitespace; everything else is fair game.
_ALPHABET = st.characters(
    blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"), blacklist_characters="[]<>|\u0085\u180e"
)
WORDS = st.text(alphabet=_ALPHABET, min_size=1, max_size=8)
TYPES = st.sampled_from([None, "PERSON", "CITY", "ORGANIZATION", "NUMBER"])


@st.composite
def texts_with_spans(draw: st.DrawFn, n_spans: int = 2) -> tuple[str, list[Span]]:
    """A text of random words and ``n_spans`` non-overlapping spans of whole words, in a
    random order (so the head may come after the tail)."""
    words = draw(st.lists(WORDS, min_size=2 * n_spans, max_size=14))
    seps = draw(st.lists(st.sampled_from([" ", "  ", ", ", " - ", "; "]),
                         min_size=len(words) - 1, max_size=len(words) - 1))
    starts, pos = [], 0
    for i, w in enumerate(words):
        starts.append(pos)
        pos += len(w) + (len(seps[i]) if i < len(seps) else 0)
    text = "".join(w + (seps[i] if i < len(seps) else "") for i, w in enumerate(words))
    cuts = sorted(draw(st.lists(st.integers(0, len(words)), unique=True, min_size=2 * n_spans, max_size=2 * n_spans)))
    spans = []
    for i in range(n_spans):
        a, b = cuts[2 * i], cuts[2 * i + 1]  # words a .. b-1
        spans.append(Span(starts[a], starts[b - 1] + len(words[b - 1]), draw(TYPES)))
    return text, list(draw(st.permutations(spans)))


@settings(max_examples=150, deadline=None)
@given(texts_with_spans())
def test_markup_round_trip_random(case: tuple[str, list[Span]]) -> None:
    text, (head, tail) = case
    x = RelationInput(text, head, tail)
    markup = x.to_markup()
    back = RelationInput.parse(markup)
    assert back == x
    assert back.to_markup() == markup
    assert (back.head_text, back.tail_text) == (text[head.start : head.end], text[tail.start : tail.end])
    assert input_from_dict(x.to_dict()) == x


@settings(max_examples=150, deadline=None)
@given(texts_with_spans(n_spans=3), st.lists(WORDS, min_size=1, max_size=3), st.integers(0, 2))
def test_replace_span_random(case: tuple[str, list[Span]], repl_words: list[str], which: int) -> None:
    text, spans = case
    target = spans[which]
    others = [s for i, s in enumerate(spans) if i != which]
    replacement = " ".join(repl_words)
    new, span, moved = replace_span(text, target, replacement, others)
    assert new == text[: target.start] + replacement + text[target.end :]
    assert span == Span(target.start, target.start + len(replacement), target.label)
    assert new[span.start : span.end] == replacement
    assert len(moved) == len(others)
    for old, now in zip(others, moved):
        assert new[now.start : now.end] == text[old.start : old.end]
        assert now.label == old.label
        assert not now.overlaps(span)
    # the edited text still makes a valid relation input for the other spans
    head, tail = span, moved[0]
    assert RelationInput(new, head, tail).to_markup().count("[[") == 1
