"""Hostile and awkward text in a relation's metadata: escaped, still well-formed, wrapped
inside the canvas with the full text kept as a tooltip."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _diagram_svg import SVG, parse, shown_text, tags, text  # noqa: E402
from test_diagram_shapes import relation  # noqa: E402

from mtwidgets.core.diagram import diagram  # noqa: E402

HOSTILE = "<script>alert(\"x\")</script> & 'quoted' \"double\" ]]> <img src=x onerror=alert(1)>"


def test_hostile_text_in_every_field_is_escaped_and_drawn_literally() -> None:
    rel = relation("pairwise systematicity", 2, name=f"MR<1>&{HOSTILE}", description=HOSTILE,
                   expected=f"P {HOSTILE}", paper=HOSTILE)
    object.__setattr__(rel, "category", HOSTILE)
    d = diagram(rel)
    root = parse(d.svg)
    assert tags(root) <= {"svg", "title", "style", "g", "text", "tspan", "circle", "rect", "line", "path", "polygon"}
    assert "<script" not in d.svg and "<img" not in d.svg
    assert "&lt;script&gt;" in d.svg and "&amp;" in d.svg and "&quot;" in d.svg
    words = text(root)
    assert HOSTILE in words and f"MR<1>&{HOSTILE}" in words and f"P {HOSTILE}" in words
    assert d.relation == f"MR<1>&{HOSTILE}"


def test_characters_xml_forbids_become_replacement_characters() -> None:
    awkward = "nul\x00 escape\x1b bell\x07 lone\ud800 surrogate \ufffe end"
    d = diagram(relation(description=awkward, expected="tab\there\nnewline"))
    words = text(parse(d.svg))
    assert "nul\ufffd escape\ufffd bell\ufffd lone\ufffd surrogate \ufffd end" in words
    assert "tab here newline" in words  # whitespace runs drawn as one space


def test_long_descriptions_wrap_then_truncate_with_the_full_text_as_tooltip() -> None:
    long = " ".join(f"word{i}" for i in range(200))
    d = diagram(relation(description=long))
    root = parse(d.svg)
    drawn = shown_text(root).split("\n")
    lines = [line for line in drawn if line.startswith("T:") or line.startswith("word")]
    assert len(lines) == 3 and lines[-1].endswith(" …")
    assert d.width <= 560
    tooltips = [el.text for el in root.iter(f"{SVG}title")]
    assert f"T: {long}" in tooltips


def test_a_word_longer_than_a_line_and_chinese_text_are_cut_by_characters() -> None:
    url = "https://example.org/" + "a" * 400
    chinese = "把第一个句子中的人名替换成同性别的另一个名字" * 4
    d = diagram(relation(description=url, expected=chinese))
    root = parse(d.svg)
    drawn = shown_text(root).split("\n")
    assert any(line.startswith("P:") for line in drawn)
    # Every drawn line fits the canvas by the estimate the layout uses (each character of
    # the Chinese text counts one em at 12 px).
    assert all(len(line) * 12 <= d.width for line in drawn if line.startswith("P:"))
    assert url in text(root) and chinese in text(root)


def test_empty_metadata_still_draws() -> None:
    d = diagram(relation(name="R", description="", expected="", paper=""))
    root = parse(d.svg)
    drawn = shown_text(root).split("\n")
    assert drawn[0] == "R· replacement · classification"  # the gap after the name is a dx
    assert not any(line.startswith(("T:", "P:")) for line in drawn)
