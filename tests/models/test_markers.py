"""Entity-marker formats on hand-checked inputs."""

from __future__ import annotations

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import TextInput
from mtwidgets.re.inputs import RelationInput
from mtwidgets.re.models import markers
from mtwidgets.re.models.markers import MARKERS, MarkedText, entity_types, mark, marker_tokens

BORN = RelationInput.parse("[[John|PERSON]] was born in <<Honolulu|CITY>>.")


@pytest.mark.parametrize(
    ("marker", "expected", "tail_start"),
    [
        ("typed_punct", "@ * person * John @ was born in # ^ city ^ Honolulu #.", 32),
        ("typed_tokens", "[E1:PERSON] John [/E1] was born in [E2:CITY] Honolulu [/E2].", 35),
        ("plain", "[E1] John [/E1] was born in [E2] Honolulu [/E2].", 28),
    ],
)
def test_formats_exact(marker: str, expected: str, tail_start: int) -> None:
    marked = mark(BORN, marker)
    assert marked == MarkedText(expected, 0, tail_start)
    assert marked.text[marked.tail_start] in "#["
    # unpacks as (text, head_start, tail_start)
    text, head_start, _ = marked
    assert text == expected and head_start == 0


def test_default_is_typed_punct() -> None:
    assert mark(BORN) == mark(BORN, "typed_punct")


def test_multiword_types_and_mentions() -> None:
    x = RelationInput.parse("[[Acme Corp|ORGANIZATION]] is based in <<New South Wales|STATE_OR_PROVINCE>>")
    assert mark(x).text == (
        "@ * organization * Acme Corp @ is based in # ^ state or province ^ New South Wales #"
    )
    assert mark(x, "typed_tokens").text == (
        "[E1:ORGANIZATION] Acme Corp [/E1] is based in [E2:STATE_OR_PROVINCE] New South Wales [/E2]"
    )


def test_head_after_tail() -> None:
    x = RelationInput.parse("<<Mary|PERSON>> is [[John|PERSON]]'s mother.")
    punct = mark(x)
    assert punct.text == "# ^ person ^ Mary # is @ * person * John @'s mother."
    assert punct.tail_start == 0
    assert punct.head_start == 23
    assert punct.text[punct.head_start :].startswith("@ * person * John @")
    tokens = mark(x, "typed_tokens")
    assert tokens.text == "[E2:PERSON] Mary [/E2] is [E1:PERSON] John [/E1]'s mother."
    assert (tokens.head_start, tokens.tail_start) == (26, 0)
    plain = mark(x, "plain")
    assert plain.text == "[E2] Mary [/E2] is [E1] John [/E1]'s mother."
    assert plain.text[plain.head_start :].startswith("[E1] John")


def test_adjacent_letters_get_a_space_punctuation_does_not() -> None:
    x = RelationInput.create("AcmeCorp hired John.", (0, 4), "John", "ORGANIZATION", "PERSON")
    assert mark(x, "plain") == MarkedText("[E1] Acme [/E1] Corp hired [E2] John [/E2].", 0, 27)
    y = RelationInput.create("(John) met Mary", "John", "Mary", "PERSON", "PERSON")
    assert mark(y, "plain").text == "([E1] John [/E1]) met [E2] Mary [/E2]"


def test_types_from_labels_win_over_inference() -> None:
    # "Honolulu" would be typed CITY; the label says otherwise and is kept.
    x = RelationInput.parse("[[He|PERSON]] loves <<Honolulu|MISC>>.")
    assert entity_types(x) == ("PERSON", "MISC")
    assert mark(x).text == "@ * person * He @ loves # ^ misc ^ Honolulu #."


def test_missing_types_are_inferred() -> None:
    # Both mentions are typed by the offline lexicons (a pronoun and a city).
    x = RelationInput.parse("[[He]] was born in <<Honolulu>>.")
    assert entity_types(x) == ("PERSON", "CITY")
    assert mark(x).text == "@ * person * He @ was born in # ^ city ^ Honolulu #."
    assert mark(x, "typed_tokens").text == "[E1:PERSON] He [/E1] was born in [E2:CITY] Honolulu [/E2]."


def test_no_inference_gives_entity() -> None:
    x = RelationInput.parse("[[He]] was born in <<Honolulu|CITY>>.")
    assert entity_types(x, infer=False) == ("entity", "CITY")
    assert mark(x, infer_types=False).text == "@ * entity * He @ was born in # ^ city ^ Honolulu #."
    assert mark(x, "typed_tokens", infer_types=False).text.startswith("[E1:ENTITY] He [/E1]")


def test_inference_unavailable_gives_entity(monkeypatch: pytest.MonkeyPatch) -> None:
    import mtwidgets.re.entities as entities

    def missing(text: str, span: object) -> str:
        raise ImportError("spaCy is needed")

    monkeypatch.setattr(entities, "type_span", missing)
    x = RelationInput.parse("[[He]] was born in <<Honolulu>>.")
    assert entity_types(x) == ("entity", "entity")


def test_plain_never_infers(monkeypatch: pytest.MonkeyPatch) -> None:
    import mtwidgets.re.entities as entities

    def boom(text: str, span: object) -> str:
        raise AssertionError("plain markers must not type entities")

    monkeypatch.setattr(entities, "type_span", boom)
    x = RelationInput.parse("[[He]] was born in <<Honolulu>>.")
    assert mark(x, "plain").text == "[E1] He [/E1] was born in [E2] Honolulu [/E2]."


def test_offsets_point_at_markers_for_every_format() -> None:
    x = RelationInput.parse("In 1961, <<Honolulu|CITY>> saw the birth of [[Barack Obama|PERSON]].")
    for marker in MARKERS:
        m = mark(x, marker)
        head_open = {"typed_punct": "@ * person *", "typed_tokens": "[E1:PERSON]", "plain": "[E1]"}[marker]
        tail_open = {"typed_punct": "# ^ city ^", "typed_tokens": "[E2:CITY]", "plain": "[E2]"}[marker]
        assert m.text[m.head_start :].startswith(head_open + " Barack Obama")
        assert m.text[m.tail_start :].startswith(tail_open + " Honolulu")
        assert m.text.startswith("In 1961, ")


def test_bad_marker_and_input() -> None:
    with pytest.raises(InputError, match="typed_punct"):
        mark(BORN, "brackets")
    with pytest.raises(TypeError, match="RelationInput"):
        mark(TextInput("John was born in Honolulu."))  # type: ignore[arg-type]


def test_marker_tokens() -> None:
    assert marker_tokens("typed_punct") == []
    assert marker_tokens("plain") == ["[E1]", "[/E1]", "[E2]", "[/E2]"]
    assert marker_tokens("typed_tokens", ["PERSON", "city", "PERSON"]) == [
        "[E1:PERSON]",
        "[E1:CITY]",
        "[E2:PERSON]",
        "[E2:CITY]",
        "[/E1]",
        "[/E2]",
    ]
    default = marker_tokens("typed_tokens")
    assert "[E1:STATE_OR_PROVINCE]" in default and "[E2:ENTITY]" in default
    assert len(default) == len(set(default))
    assert markers.DEFAULT_TYPE == "entity"
