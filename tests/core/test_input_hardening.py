"""Inputs refuse what would break later (wrongly typed span fields, lone surrogates, labels that
would corrupt markup) with an error naming the row, the field and the position; every other
Unicode text is accepted; markup reads back exactly; saved results of every task rebuild in
a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtwidgets as mt
from mtwidgets.cli import main
from mtwidgets.core.data import load_inputs
from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import TextInput, TextPairInput, check_label, input_from_dict
from mtwidgets.core.relation import stable_rng
from mtwidgets.core.spans import Span
from mtwidgets.ner.inputs import NERInput, ner_input_from_row
from mtwidgets.re.inputs import RelationInput, relation_input_from_row

ROOT = Path(__file__).resolve().parents[2]
RE_TASK, NER_TASK = RelationInput.task, NERInput.task


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


GOOD_RE = {"task": RE_TASK, "text": "John met Mary.", "head": {"start": 0, "end": 4, "label": "PERSON"},
           "tail": {"start": 9, "end": 13, "label": "PERSON"}}


# -- 1. span fields are type-checked ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("row", "words"),
    [
        ({**GOOD_RE, "head": {"start": 0, "end": 4, "label": ["PERSON"]}}, "head span label must be a string"),
        ({**GOOD_RE, "tail": {"start": 9, "end": 13, "label": {"t": 1}}}, "tail span label must be a string"),
        ({**GOOD_RE, "tail": {"start": 9, "end": 13, "label": 7}}, "tail span label must be a string"),
        ({**GOOD_RE, "head": {"start": "zero", "end": 4}}, "head span start offset 'zero' is not an integer"),
        ({**GOOD_RE, "head": {"start": 0, "end": [4]}}, "head span end offset"),
        ({**GOOD_RE, "head": {"start": 0, "end": 4, "label": "  "}}, "head type '  ' is blank"),
        ({**GOOD_RE, "head": {"start": 0, "end": 4, "label": "PER\nSON"}}, "head type 'PER\\\\nSON' has the character"),
        ({**GOOD_RE, "tail": {"start": 9, "end": 13, "label": "A|B"}}, "tail type 'A|B' has the character '|'"),
    ],
)
def test_a_relation_row_with_a_badly_typed_span_field_names_the_row_and_field(
    tmp_path: Path, row: dict[str, Any], words: str
) -> None:
    path = _jsonl(tmp_path / "bad.jsonl", [GOOD_RE, row])
    with pytest.raises(InputError, match=rf"^row 1: .*{words}"):
        load_inputs(path)
    loaded = load_inputs(path, on_bad="skip")
    assert [x.to_dict() for x in loaded.inputs] == [input_from_dict(GOOD_RE).to_dict()]
    assert loaded.skipped[0][0] == 1


def test_the_unhashable_label_no_longer_reaches_a_relation(tmp_path: Path) -> None:
    # It used to be accepted and then fail in MR-R1 with "TypeError: unhashable type".
    path = _jsonl(tmp_path / "bad.jsonl", [{**GOOD_RE, "head": {"start": 0, "end": 4, "label": ["PERSON"]}}])
    with pytest.raises(InputError, match="row 0: head span label must be a string .* got list: \\['PERSON'\\]"):
        mt.run(path, relations=["MR-R1"], models={"m": lambda x: "no_relation"})


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ({"text": "John met Mary.", "head_start": 0, "head_end": 4, "tail_start": 9, "tail_end": 13,
          "head_type": ["PERSON"]}, "the 'head_type' cell must be a string, got list"),
        ({"text": ["John met Mary."], "head": "John", "tail": "Mary"}, "the 'text' cell must be a string"),
        ({"text": "John met Mary.", "head": "John", "tail": "Mary", "tail_type": "PER>"}, "tail type 'PER>'"),
        ({"text": "John met Mary.", "head": {"start": 0, "end": 4, "label": ["X"]}, "tail": "Mary"},
         "head span label must be a string"),
    ],
)
def test_relation_table_rows_check_their_cells(row: dict[str, Any], words: str) -> None:
    with pytest.raises(InputError, match=words):
        relation_input_from_row(row)


def test_relation_rows_take_spans_as_json_gives_them() -> None:
    x = relation_input_from_row({"text": "John met Mary.", "head": {"start": 0, "end": 4, "label": "PERSON"},
                                 "tail": [9, 13], "tail_type": "PERSON"})
    assert x == RelationInput("John met Mary.", Span(0, 4, "PERSON"), Span(9, 13, "PERSON"))


@pytest.mark.parametrize(
    ("entities", "words"),
    [
        ([{"start": 0, "end": 5, "label": ["PERSON"]}], "gold entity #0 label must be a string .*got list"),
        ([{"start": 0, "end": 5, "label": " "}], "gold entity #0 label ' ' is blank"),
        ([{"start": "0", "end": 5.5, "label": "PERSON"}], "gold entity #0 end offset 5.5 is not an integer"),
        (5, r"the entities cell must be a list of \{start, end, label\}, got int"),
        ('{"start": 0}', "the entities cell must be a list .* got dict"),
    ],
)
def test_ner_rows_check_their_span_fields(tmp_path: Path, entities: object, words: str) -> None:
    good = {"text": "Obama visited Paris.", "entities": [{"start": 0, "end": 5, "label": "PERSON"}]}
    path = _jsonl(tmp_path / "ner.jsonl", [good, {"text": "Obama visited Paris.", "entities": entities}])
    with pytest.raises(InputError, match=rf"^row 1: {words}"):
        load_inputs(path, task=NER_TASK)


def test_span_labels_are_strings_and_numpy_offsets_are_integers() -> None:
    import numpy as np

    with pytest.raises(InputError, match="label must be a string"):
        Span(0, 4, ["PERSON"])  # type: ignore[arg-type]
    assert Span.from_value({"start": np.int64(0), "end": np.int32(4)}) == Span(0, 4)
    assert check_label(" PERSON ", "type") == "PERSON"
    x = RelationInput("John met Mary.", Span(0, 4, " PERSON"), Span(9, 13))
    assert x.head_type == "PERSON" and RelationInput.parse(x.to_markup()) == x


def test_the_cli_reports_a_badly_typed_label_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _jsonl(tmp_path / "bad.jsonl", [{**GOOD_RE, "head": {"start": 0, "end": 4, "label": ["PERSON"]}}])
    rc = main(["run", "--data", str(path), "--models", "re-patterns", "--relations", "MR-R1", "--quiet"])
    captured = capsys.readouterr()
    assert rc != 0
    assert "Traceback" not in captured.err and captured.err.count("\n") == 1, captured.err
    assert "row 0" in captured.err and "head span label must be a string" in captured.err


# -- 2. lone surrogates are refused, every other code point accepted --------------------------------
@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: RelationInput("John met \ud800Mary.", (0, 4), (10, 14)), "text has a lone surrogate U\\+D800 at character 9"),
        (lambda: RelationInput.parse("[[John]] met <<Mary>>\udfff."), "markup has a lone surrogate U\\+DFFF at character 21"),
        (lambda: RelationInput("John met Mary.", (0, 4, "PER\udc80"), (9, 13)), "head type has a lone surrogate U\\+DC80 at character 3"),
        (lambda: NERInput("Obama \udc80visited.", [(0, 5, "PERSON")]), "text has a lone surrogate U\\+DC80 at character 6"),
        (lambda: NERInput("Obama visited.", [(0, 5, "PERS\ud800")]), "gold entity #0 label has a lone surrogate"),
        (lambda: TextInput("a\ud83d"), "text has a lone surrogate U\\+D83D at character 1"),
        (lambda: TextPairInput("fine", "b\udc00"), "text_b has a lone surrogate"),
    ],
)
def test_lone_surrogates_are_refused_with_their_position(build: Any, words: str) -> None:
    with pytest.raises(InputError, match=words):
        build()


def test_a_surrogate_in_a_data_file_names_the_row_and_position(tmp_path: Path) -> None:
    # JSON's \ud800 escape decodes to a lone surrogate: it used to be accepted, then every
    # relation failed when seeding its generator (UnicodeEncodeError).
    path = tmp_path / "s.jsonl"
    path.write_text('{"markup": "[[John|PERSON]] met <<Mary|PERSON>>."}\n'
                    '{"markup": "[[John|PERSON]] met <<Mary|PERSON>> \\ud800."}\n', encoding="utf-8")
    with pytest.raises(InputError, match="row 1: markup has a lone surrogate U\\+D800 at character 36"):
        load_inputs(path, task=RE_TASK)
    loaded = load_inputs(path, task=RE_TASK, on_bad="skip")
    assert len(loaded.inputs) == 1 and loaded.skipped[0][0] == 1


def test_stable_rng_survives_a_surrogate_and_keeps_its_values() -> None:
    assert stable_rng(3, "MR-R1", "x\ud800").random() == stable_rng(3, "MR-R1", "x\ud800").random()
    # the same generator as before for every valid string
    import hashlib
    import random

    digest = hashlib.sha256("\x1f".join(("3", "MR-R1", "Zoë")).encode()).digest()
    assert stable_rng(3, "MR-R1", "Zoë").random() == random.Random(int.from_bytes(digest[:8], "big")).random()


ODD = {
    "line separator": "\u2028", "paragraph separator": "\u2029", "next line": "\u0085",
    "emoji": "\U0001f469\u200d\U0001f469\u200d\U0001f467", "combining mark": "e\u0301", "right to left": "\u05e9\u05dc\u05d5\u05dd",
    "zero width space": "\u200b", "zero width joiner": "\u200d", "bidi override": "\u202e", "byte order mark": "\ufeff",
    "astral letter": "\U0001d54f", "no-break space": "\u00a0",
}


@pytest.mark.parametrize("odd", list(ODD.values()), ids=list(ODD))
def test_odd_unicode_is_accepted_everywhere(odd: str) -> None:
    text = f"John{odd} met Mary {odd}in Paris."
    head, tail = (0, 4), (text.index("Mary"), text.index("Mary") + 4)
    x = RelationInput(text, Span(*head, "PERSON"), Span(*tail, "PERSON"))
    assert RelationInput.parse(x.to_markup()) == x
    assert input_from_dict(json.loads(json.dumps(x.to_dict()))) == x
    groups = mt.relation("MR-S1").generate(x, seed=1)
    assert groups and groups[0].followups
    n = NERInput(text, [(0, 4, "PERSON"), (*tail, "PERSON")])
    assert input_from_dict(n.to_dict()) == n
    assert TextInput(odd + "a").text == odd + "a"
    # an odd character inside a mention or a type is kept too
    if not odd.isspace():
        y = RelationInput(f"Jo{odd}hn met Mary.", (0, 4 + len(odd)), (9 + len(odd), 13 + len(odd), f"T{odd}"))
        assert RelationInput.parse(y.to_markup()) == y


# -- 3. markup reads back exactly ----------------------------------------------------------------------
def test_a_label_with_a_markup_character_is_refused() -> None:
    # It used to turn 'John met Mary.' into 'John met Mary>.' through to_markup() -> parse().
    for label in ("PER>", "A>B", "<X", "[T]", "A|B", "T\\", "X]]"):
        with pytest.raises(InputError, match="has the character"):
            RelationInput("John met Mary.", Span(0, 4, "PERSON"), Span(9, 13, label))


@pytest.mark.parametrize(
    ("text", "head", "tail", "markup"),
    [
        ("John met Mary.", (0, 4, "PERSON"), (9, 13, None), "[[John|PERSON]] met <<Mary>>."),
        ("a << b met c", (0, 1), (11, 12), "[[a]] \\<< b met <<c>>"),
        ("x [y] <z> w", (2, 5), (6, 9), "x [[[y\\]]] <<<z\\>>> w"),
        ("a|b and c", (0, 3), (8, 9, "T"), "[[a\\|b]] and <<c|T>>"),
        ("C:\\ and d", (0, 3), (8, 9), "[[C:\\\\]] and <<d>>"),
        ("a\\b [[c", (0, 3), (4, 7), "[[a\\b]] <<\\[[c>>"),
        ("line\none and two", (0, 8), (13, 16), "[[line\none]] and <<two>>"),
    ],
)
def test_markup_escapes_only_what_would_read_as_markup(
    text: str, head: tuple[Any, ...], tail: tuple[Any, ...], markup: str
) -> None:
    x = RelationInput(text, Span(*head), Span(*tail))
    assert x.to_markup() == markup
    assert RelationInput.parse(markup) == x


@pytest.mark.parametrize(
    ("markup", "words"),
    [
        ("[[John]] met <<Mary", "the tail mention opened at character 13 is never closed"),
        ("[[John]] met Mary>>", "unbalanced '>>' at character 17"),
        ("[[Jo<<hn]] met <<Mary>>", "unbalanced '<<' at character 4 inside the head mention"),
        ("[[John|]] met <<Mary>>", "empty entity type in the head"),
        ("[[John]] and [[Ann]] met <<Mary>>", "two head mentions"),
    ],
)
def test_broken_markup_says_where(markup: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        RelationInput.parse(markup)


# Texts rich in markup characters, backslashes and odd code points.
_ALPHABET = st.sampled_from(list("ab Z.,|\\[]<>-") + ["\u2028", "\u00a0", "\n", "\u0301", "\U0001f600", "\u200b", "\u05d0"])
_LABELS = st.one_of(st.none(), st.sampled_from(["PERSON", "CITY", "X Y", "é", "\U0001f600", "per:title"]))


@st.composite
def _relation_inputs(draw: Any) -> RelationInput:
    text = "".join(draw(st.lists(_ALPHABET, min_size=4, max_size=30)))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), min_size=4, max_size=4, unique=True)))
    spans = [(cuts[0], cuts[1]), (cuts[2], cuts[3])]
    trimmed = []
    for start, end in spans:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start == end:
            text, start, end = text + " a", len(text) + 1, len(text) + 2
        trimmed.append(Span(start, end, draw(_LABELS)))
    if trimmed[0].overlaps(trimmed[1]):  # the appended mention sits after both
        trimmed[0] = Span(len(text) + 1, len(text) + 2)
        text += " b"
    head, tail = trimmed if draw(st.booleans()) else trimmed[::-1]
    return RelationInput(text, head, tail)


@settings(max_examples=1500, derandomize=True, database=None, deadline=None)
@given(x=_relation_inputs())
def test_markup_round_trip_is_exact_for_every_valid_input(x: RelationInput) -> None:
    markup = x.to_markup()
    assert RelationInput.parse(markup) == x, markup
    assert RelationInput.parse(markup).to_markup() == markup


# -- 4. saved results rebuild in a fresh process -------------------------------------------------------
_FRESH = textwrap.dedent(
    """
    import json, sys
    import mtwidgets as mt
    from mtwidgets.core.model import CallableModel

    out = {}
    for path in sys.argv[1:]:
        r = mt.Results.load(path)
        groups = r.groups()
        sources, followups = r.inputs(0)
        task = sources[0].task
        kind = "spans" if task == sys.argv[1].rsplit("/", 1)[-1].split(".")[0] else "label"
        model = CallableModel(lambda x: [] if kind == "spans" else "no_relation", kind=kind)
        again = mt.run(r, models={"other": model})
        out[path] = [task, len(groups), len(followups), len(again), sorted(set(again.frame["verdict"]))]
    print(json.dumps(out))
    """
)


def test_results_of_every_task_rebuild_in_a_fresh_process(tmp_path: Path) -> None:
    from mtwidgets.core.model import CallableModel

    re_inputs = [RelationInput.parse("[[John|PERSON]] is <<Mary|PERSON>>'s father."),
                 RelationInput.parse("[[Obama|PERSON]] was born in <<Honolulu|CITY>>.")]
    ner_inputs = [NERInput("Obama visited Paris.", [(0, 5, "PERSON"), (14, 19, "GPE")]),
                  ner_input_from_row({"text": "Mary works for IBM in Paris.",
                                      "entities": [{"start": 0, "end": 4, "label": "PERSON"},
                                                   {"start": 15, "end": 18, "label": "ORG"}]})]
    runs = {
        NER_TASK: mt.run(ner_inputs, relations=["TIN-question"], seed=0,
                         models={"m": CallableModel(lambda x: [(0, 5, "PERSON")], kind="spans")}),
        RE_TASK: mt.run(re_inputs, relations=["MR-S1", "MR-R1"], seed=0,
                        models={"m": CallableModel(lambda x: "per:parents", kind="label")}),
    }
    paths = []
    for task, results in runs.items():
        assert len(results) and (results.frame["followups"].map(len) > 0).any()
        for fmt in ("jsonl", "parquet", "csv"):
            paths.append(str(results.save(tmp_path / f"{task}.{fmt}")))
    proc = subprocess.run([sys.executable, "-c", _FRESH, *paths], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for path in paths:
        task = Path(path).stem
        n_groups = len(runs[task].groups())
        assert got[path][0] == task
        assert got[path][1] == n_groups >= 2
        assert got[path][2] >= 1  # the first row's follow-ups rebuilt
        assert got[path][3] == n_groups  # the saved suite checked again, one row per group
        assert "error" not in got[path][4], got[path]
