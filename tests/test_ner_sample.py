"""The shipped NER gold sample (``mtwidgets/data/ner_sample.jsonl``): well formed, rebuilt
exactly from its markup, varied enough for every TIN transformation, and loaded as
:class:`NERInput` with gold spans."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mtwidgets import datasets
from mtwidgets.core.errors import InputError
from mtwidgets.core.spans import Span
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.labels import ONTONOTES
from mtwidgets.training import build_ner_sample as builder

MIN_SENTENCES = 220
MIN_PER_TOPIC = 25
MIN_PER_LABEL = 3


def _rows() -> list[dict]:
    text = datasets.path("ner_sample").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


ROWS = _rows()


# -- the file ---------------------------------------------------------------------------


def test_size() -> None:
    assert len(ROWS) >= MIN_SENTENCES


def test_rows_have_the_contract_keys() -> None:
    for row in ROWS:
        assert list(row) == ["id", "topic", "text", "entities"], row
        for ent in row["entities"]:
            assert set(ent) == {"start", "end", "label"}, (row["id"], ent)


def test_ids_and_texts_unique() -> None:
    for key in ("id", "text"):
        counts = Counter(row[key] for row in ROWS)
        assert not [v for v, n in counts.items() if n > 1], key


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_offsets_are_sorted_disjoint_whole_words(row: dict) -> None:
    text = row["text"]
    spans = [(e["start"], e["end"]) for e in row["entities"]]
    assert spans == sorted(spans), row["id"]
    for (s1, e1), (s2, _) in zip(spans, spans[1:]):
        assert e1 <= s2, (row["id"], text[s1:e1])
    for start, end in spans:
        assert 0 <= start < end <= len(text), (row["id"], start, end)
        mention = text[start:end]
        assert mention == mention.strip() and mention, (row["id"], mention)
        assert start == 0 or not text[start - 1].isalnum(), (row["id"], mention)
        assert end == len(text) or not text[end].isalnum(), (row["id"], mention)


def test_labels_are_ontonotes_and_all_represented() -> None:
    counts = Counter(e["label"] for row in ROWS for e in row["entities"])
    assert set(counts) <= set(ONTONOTES), set(counts) - set(ONTONOTES)
    thin = {label: counts[label] for label in ONTONOTES if counts[label] < MIN_PER_LABEL}
    assert not thin, thin


def test_topic_coverage() -> None:
    counts = Counter(row["topic"] for row in ROWS)
    assert set(counts) == set(builder.TOPICS), counts
    low = {t: n for t, n in counts.items() if n < MIN_PER_TOPIC}
    assert not low, low


def test_ids_name_their_topic() -> None:
    for row in ROWS:
        assert row["id"].startswith(f"ner-{row['topic']}-"), row["id"]


def test_enough_sentences_for_the_shuffle() -> None:
    # The random entity shuffle needs two or more entities of one category in a sentence.
    shufflable = [
        row["id"]
        for row in ROWS
        if any(n >= 2 for n in Counter(e["label"] for e in row["entities"]).values())
    ]
    assert len(shufflable) >= 40, len(shufflable)
    triples = [
        row["id"]
        for row in ROWS
        if any(n >= 3 for n in Counter(e["label"] for e in row["entities"]).values())
    ]
    assert len(triples) >= 15, len(triples)


def test_conventions_leading_the_and_titles_stay_outside() -> None:
    for row in ROWS:
        for ent in row["entities"]:
            mention = row["text"][ent["start"] : ent["end"]]
            first = mention.split()[0]
            # Relative dates keep their "the"; a title of a work may begin with "The".
            if ent["label"] not in ("DATE", "TIME", "WORK_OF_ART"):
                assert first not in ("the", "The"), (row["id"], mention)
            if ent["label"] == "PERSON":
                assert first not in ("President", "Dr.", "Senator", "Mr.", "Mrs."), (row["id"], mention)


# -- the converter ----------------------------------------------------------------------


def test_the_jsonl_is_exactly_the_converters_output() -> None:
    assert datasets.path("ner_sample").read_text(encoding="utf-8") == builder.build()


def test_parse_line_offsets() -> None:
    text, ents = builder.parse_line("President [Ana Ruiz|PERSON] visited [São Paulo|GPE] on [May 7|DATE].")
    assert text == "President Ana Ruiz visited São Paulo on May 7."
    assert [(text[s:e], label) for s, e, label in ents] == [
        ("Ana Ruiz", "PERSON"),
        ("São Paulo", "GPE"),
        ("May 7", "DATE"),
    ]


@pytest.mark.parametrize(
    ("markup", "message"),
    [
        ("[Ana Ruiz|PER] spoke.", "'PER' of 'Ana Ruiz' is not an OntoNotes 5 label"),
        ("[Ana Ruiz|MISC] spoke.", "not an OntoNotes 5 label"),
        ("[ Ana Ruiz|PERSON] spoke.", "outer spaces"),
        ("[|PERSON] spoke.", "empty"),
        ("[Ana Ruiz|PERSON spoke.", "stray '['"),
        ("Ana Ruiz] spoke.", "stray ']'"),
        ("Ana | Ruiz spoke.", "stray '|'"),
        ("[Ana|PERSON]s spoke.", "inside a word"),
        ("Mc[Donald|PERSON] spoke.", "inside a word"),
        ("Ana  spoke.", "double spaces"),
    ],
)
def test_parse_line_rejects_bad_markup(markup: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("|", r"\|")) as info:
        builder.parse_line(markup, where="line 7")
    assert "line 7" in str(info.value)


def test_parse_source_ids_topics_and_comments() -> None:
    source = "# comment\n== sport\n[Ajax|ORG] won.\n\n== local\nIt rained.\n[Leeds|GPE] flooded.\n"
    records = builder.parse_source(source)
    assert [(r.id, r.topic, r.text) for r in records] == [
        ("ner-sport-001", "sport", "Ajax won."),
        ("ner-local-001", "local", "It rained."),
        ("ner-local-002", "local", "Leeds flooded."),
    ]
    assert records[0].entities == ((0, 4, "ORG"),)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("[Ajax|ORG] won.\n", "line 1: sentence .* comes before any '== topic' line"),
        ("== gossip\nIt rained.\n", "line 1: unknown topic 'gossip'"),
        ("== sport\nIt rained.\n== local\nA.\n== sport\nB.\n", "line 5: topic 'sport' starts a second time"),
        ("== sport\nIt rained.\nIt rained.\n", "line 3: sentence 'It rained.' repeats line 2"),
        ("== sport\n== local\nIt rained.\n", "sport have no sentences"),
        ("== sport\nOK.\n[Ajax|TEAM] won.\n", "line 3: label 'TEAM'"),
    ],
)
def test_parse_source_rejects_bad_sources(source: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        builder.parse_source(source)


def test_render_is_deterministic_and_literal() -> None:
    records = builder.parse_source("== world\n[Zürich|GPE] voted.\n")
    out = builder.render(records)
    assert out == builder.render(builder.parse_source("== world\n[Zürich|GPE] voted.\n"))
    assert out == (
        '{"id": "ner-world-001", "topic": "world", "text": "Zürich voted.", '
        '"entities": [{"start": 0, "end": 6, "label": "GPE"}]}\n'
    )


def test_main_writes_checks_and_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "src.txt"
    out = tmp_path / "out.jsonl"
    source.write_text("== local\n[Leeds|GPE] flooded.\n", encoding="utf-8")
    assert builder.main(["--source", str(source), "--out", str(out), "--check"]) == 1
    assert builder.main(["--source", str(source), "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["text"] == "Leeds flooded."
    assert builder.main(["--source", str(source), "--out", str(out), "--check"]) == 0
    source.write_text("== local\n[Leeds|GPE] flooded again.\n", encoding="utf-8")
    assert builder.main(["--source", str(source), "--out", str(out), "--check"]) == 1
    source.write_text("== local\n[Leeds|CITY] flooded.\n", encoding="utf-8")
    assert builder.main(["--source", str(source), "--out", str(out)]) == 2
    assert "'CITY'" in capsys.readouterr().err


# -- the loaders ------------------------------------------------------------------------


def test_ner_sample_returns_inputs_with_gold() -> None:
    inputs = datasets.ner_sample()
    assert len(inputs) == len(ROWS)
    for x, row in zip(inputs, ROWS):
        assert isinstance(x, NERInput)
        assert x.text == row["text"]
        assert x.gold == tuple(Span(e["start"], e["end"], e["label"]) for e in row["entities"])


def test_ner_sample_topic_filter() -> None:
    sport = datasets.ner_sample("sport")
    expected = [row["text"] for row in ROWS if row["topic"] == "sport"]
    assert [x.text for x in sport] == expected and expected
    with pytest.raises(KeyError, match="no topic 'gossip'.*available: business"):
        datasets.ner_sample("gossip")


def test_ner_sample_frame_sentence_level() -> None:
    frame = datasets.ner_sample_frame()
    assert list(frame.columns) == ["id", "topic", "text", "entities", "n_entities"]
    assert len(frame) == len(ROWS)
    assert frame["n_entities"].sum() == sum(len(row["entities"]) for row in ROWS)
    assert frame.iloc[0]["entities"] == ROWS[0]["entities"]


def test_ner_sample_frame_entity_level() -> None:
    frame = datasets.ner_sample_frame("entity")
    assert list(frame.columns) == ["id", "topic", "start", "end", "mention", "label"]
    assert len(frame) == sum(len(row["entities"]) for row in ROWS)
    texts = {row["id"]: row["text"] for row in ROWS}
    for rec in frame.itertuples():
        assert texts[rec.id][rec.start : rec.end] == rec.mention
    with pytest.raises(ValueError, match="level must be 'sentence' or 'entity', got 'token'"):
        datasets.ner_sample_frame("token")
