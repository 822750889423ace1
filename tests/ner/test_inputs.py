from __future__ import annotations

import pytest

from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import input_from_dict
from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput


def test_gold_is_validated_sorted_and_read_from_pairs_dicts_and_spans() -> None:
    x = NERInput("Obama visited Paris.", [{"start": 14, "end": 19, "label": "GPE"}, (0, 5, "PERSON")])
    assert x.gold == (Span(0, 5, "PERSON"), Span(14, 19, "GPE"))
    assert [x.mention(s) for s in x.gold] == ["Obama", "Paris"]
    assert x.display() == "[Obama|PERSON] visited [Paris|GPE]."


def test_round_trip_through_the_engine_registry() -> None:
    x = NERInput("Obama visited Paris.", [(0, 5, "PERSON")])
    data = x.to_dict()
    assert data == {
        "task": "ner",
        "text": "Obama visited Paris.",
        "gold": [{"start": 0, "end": 5, "label": "PERSON"}],
    }
    assert input_from_dict(data) == x
    assert NERInput.from_dict({"text": "Obama visited Paris.", "entities": [[0, 5, "PERSON"]]}) == x


def test_key_depends_on_the_text_only() -> None:
    a = NERInput("Obama visited Paris.")
    b = NERInput("Obama visited Paris.", [(0, 5, "PERSON")])
    assert a.key() == b.key()
    assert a.key() != NERInput("Obama visited Rome.").key()


@pytest.mark.parametrize(
    ("text", "gold", "needle"),
    [
        ("   ", (), "empty"),
        ("Obama visited Paris.", [(14, 40, "GPE")], "past the end"),
        ("Obama visited Paris.", [(0, 5, "PERSON"), (3, 10, "ORG")], "overlap"),
        ("Obama visited Paris.", [(0, 5)], "no label"),
        ("Obama visited Paris.", [(0, 5, "PER")], "'PER'"),
        ("Obama visited Paris.", [(0, 6, "PERSON")], "whitespace"),
        ("Obama visited Paris.", "Obama", "list of spans"),
    ],
)
def test_bad_inputs_name_the_problem(text: str, gold: object, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        NERInput(text, gold)  # type: ignore[arg-type]


def test_overlap_error_names_both_mentions() -> None:
    with pytest.raises(InputError) as info:
        NERInput("Barack Obama visited Paris.", [(0, 12, "PERSON"), (7, 12, "PERSON")])
    assert "'Barack Obama'" in str(info.value) and "'Obama'" in str(info.value)


def test_data_frames_load_as_ner_inputs_with_gold_from_lists_or_json_cells() -> None:
    import pandas as pd

    from mtwidgets.core.data import load_inputs

    frame = pd.DataFrame(
        {
            "text": ["Obama visited Paris.", "Nothing here.", "Bad span.", "Obama spoke."],
            "entities": [
                [{"start": 0, "end": 5, "label": "PERSON"}, {"start": 14, "end": 19, "label": "GPE"}],
                None,
                '[{"start": 0, "end": 40, "label": "ORG"}]',
                '[{"start": 0, "end": 5, "label": "PERSON"}]',
            ],
        },
        index=[10, 11, 12, 13],
    )
    loaded = load_inputs(frame, task="ner", on_bad="skip")
    assert [x.text for x in loaded.inputs] == ["Obama visited Paris.", "Nothing here.", "Obama spoke."]
    assert [[(s.start, s.end, s.label) for s in x.gold] for x in loaded.inputs] == [
        [(0, 5, "PERSON"), (14, 19, "GPE")],
        [],
        [(0, 5, "PERSON")],
    ]
    assert loaded.rows == [10, 11, 13]
    assert [label for label, _ in loaded.skipped] == [12]
    assert "past the end" in loaded.skipped[0][1] or "40" in loaded.skipped[0][1]
    with pytest.raises(InputError, match="not a JSON list"):
        load_inputs(pd.DataFrame({"text": ["A b."], "entities": ["[{oops"]}), task="ner")
