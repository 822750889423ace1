"""The five shapes of the paper's notation, how a relation's shape is found, and the
Diagram object."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _diagram_svg import parse, parts, shown_text, text  # noqa: E402

from mtwidgets.core.diagram import Diagram, diagram, diagram_shape  # noqa: E402
from mtwidgets.core.errors import MTError  # noqa: E402
from mtwidgets.core.relation import MetamorphicRelation, OutputProperty, Transformation  # noqa: E402


def relation(category: str = "replacement", n_sources: int = 1, *, task: str = "classification",
             prop: OutputProperty | None = None, **fields: str) -> MetamorphicRelation:
    values = {"name": "TEST-1", "description": "Append a neutral sentence.", "expected": "the same label",
              "paper": "Manino et al. 2022", **fields}
    return MetamorphicRelation(
        values["name"], task=task, category=category, description=values["description"],
        expected=values["expected"], paper=values["paper"], transformation=Transformation(),
        property=prop or OutputProperty(), n_sources=n_sources,
    )


class Declared(OutputProperty):
    """A property that names the shape of the relations it belongs to."""

    diagram_shape = "three-way"


@pytest.mark.parametrize(("category", "n_sources", "shape"), [
    ("replacement", 1, "single"),
    ("combination", 2, "combination"),
    ("pairwise systematicity", 2, "pairwise"),
    ("Pairwise", 2, "pairwise"),
    ("pairwise compositionality", 2, "no-transformation"),
    ("three-way transitivity", 3, "three-way"),
    ("anything", 3, "three-way"),
])
def test_the_shape_is_inferred_from_category_and_sources(category: str, n_sources: int, shape: str) -> None:
    assert diagram_shape(relation(category, n_sources)) == shape


def test_a_declared_shape_wins_and_may_use_the_papers_names() -> None:
    assert diagram_shape(relation("replacement", 1, prop=Declared())) == "three-way"
    rel = relation("replacement", 1)
    object.__setattr__(rel, "diagram_shape", "Compositionality")
    assert diagram_shape(rel) == "no-transformation"
    object.__setattr__(rel, "diagram_shape", "pairwise_systematicity")
    assert diagram(rel).shape == "pairwise"


def test_an_unknown_declared_shape_is_an_error_that_lists_the_shapes() -> None:
    rel = relation()
    object.__setattr__(rel, "diagram_shape", "triangle")
    with pytest.raises(MTError, match="'triangle'.*single, combination, pairwise, no-transformation, three-way"):
        diagram(rel)


# What each shape draws: sources (shaded circles), follow-ups and pairs (white circles),
# scores (squares), property boxes (P and its premise/hypothesis), arrows (T, f, g).
DRAWN = {
    "single": ("replacement", 1, {"source circles": 1, "circles": 1, "squares": 2, "properties": 1, "arrows": 3}),
    "combination": ("combination", 2,
                    {"source circles": 2, "circles": 1, "squares": 3, "properties": 1, "arrows": 5}),
    "pairwise": ("pairwise systematicity", 2,
                 {"source circles": 2, "circles": 2, "squares": 4, "properties": 3, "arrows": 6}),
    "no-transformation": ("pairwise compositionality", 2,
                          {"source circles": 2, "squares": 4, "properties": 3, "arrows": 4}),
    "three-way": ("three-way transitivity", 3,
                  {"source circles": 3, "circles": 3, "squares": 3, "properties": 1, "arrows": 9}),
}


@pytest.mark.parametrize("shape", list(DRAWN))
def test_each_shape_draws_the_nodes_of_its_figure(shape: str) -> None:
    category, n_sources, expected = DRAWN[shape]
    d = diagram(relation(category, n_sources))
    root = parse(d.svg)
    assert d.shape == shape
    assert parts(root) == expected


def test_labels_follow_the_paper() -> None:
    """Arrows are T and f (g past the hidden layer), properties P, P_src/P_flw, P_hid/P_out."""
    def labels(category: str, n: int) -> str:
        return shown_text(parse(diagram(relation(category, n)).svg))

    single = labels("replacement", 1)
    assert {"x", "x′", "y", "y′", "T", "f", "P"} <= set(single.split("\n"))
    pairwise = labels("pairwise systematicity", 2).split("\n")
    assert {"x1", "x1′", "y2′", "Psrc", "Pflw", "P"} <= set(pairwise)
    assert "T" in pairwise and "g" not in pairwise
    composition = labels("pairwise compositionality", 2).split("\n")
    assert {"z1", "z2", "Phid", "Pout", "f", "g"} <= set(composition)
    assert "T" not in composition  # Figure 4 has no transformation
    three = labels("three-way transitivity", 3).split("\n")
    assert {"x12", "x23", "x13", "y13", "f", "P"} <= set(three) and "T" not in three
    # The caption names the transformation only where there is one.
    assert "T:" in labels("replacement", 1) and "T:" not in labels("pairwise compositionality", 2)


def test_the_caption_gives_name_category_task_description_property_and_paper() -> None:
    rel = relation("pairwise systematicity", 2, expected="P_src ⇔ P_flw: the order of the scores is kept")
    words = text(parse(diagram(rel).svg))
    for part in ("TEST-1", "pairwise systematicity", "classification", "Append a neutral sentence.",
                 "P_src ⇔ P_flw: the order of the scores is kept", "Manino et al. 2022"):
        assert part in words


def test_diagram_object_shows_itself_and_saves(tmp_path: Path) -> None:
    import mtwidgets as mt

    d = mt.relation("MR-R1").diagram()
    assert isinstance(d, Diagram) and d.relation == "MR-R1"
    assert str(d) == d.svg == d._repr_svg_()
    assert d._repr_html_().startswith('<div class="mtw-diagram"><svg ') and d.svg in d._repr_html_()
    root = parse(d.svg)
    assert (int(root.get("width", 0)), int(root.get("height", 0))) == (d.width, d.height)
    path = d.save(tmp_path / "sub" / "mr-r1.svg")
    assert path.read_text(encoding="utf-8") == d.svg


def test_a_name_is_refused_with_the_call_to_use() -> None:
    with pytest.raises(MTError, match=r"mt.relation\('MR-R1'\).diagram\(\)"):
        diagram("MR-R1")


def test_drawing_is_deterministic() -> None:
    a: Any = diagram(relation("three-way transitivity", 3)).svg
    assert a == diagram(relation("three-way transitivity", 3)).svg


def test_a_relation_of_an_unregistered_task_still_draws() -> None:
    d = diagram(relation(task="nowhere"))
    assert parts(parse(d.svg))["squares"] == 2
