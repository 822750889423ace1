"""Every relation of every registered task drawn, and each drawing read back as SVG."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _diagram_svg import attributes, parse, parts, tags, text  # noqa: E402

from mtwidgets.core import registry  # noqa: E402
from mtwidgets.core.diagram import SHAPES, diagram, diagram_shape  # noqa: E402
from mtwidgets.core.registry import relation as named  # noqa: E402
from mtwidgets.core.task import tasks  # noqa: E402

# The drawing's whole vocabulary: nothing that runs, links or loads.
ALLOWED_TAGS = {"svg", "title", "style", "g", "text", "tspan", "circle", "rect", "line", "path", "polygon"}
# Source nodes (shaded) per shape: the sources of Figures 1, 2, 4, 5 and MR-C1/C2.
SOURCES = {"single": 1, "combination": 2, "pairwise": 2, "no-transformation": 2, "three-way": 3}


def _every_relation() -> list[Any]:
    """Each registered task's relations (its own catalogue order), then any relation the
    catalogue holds besides (registered by hand)."""
    names = [n for t in tasks() if t.build_relation is not None for n in t.relations]
    names += [n for n in registry.names() if n not in names]
    return [registry.relation(n) for n in names]


def test_every_relation_of_every_task_draws_as_well_formed_svg(shout_task: Any) -> None:
    relations = _every_relation()
    by_task = {r.task for r in relations}
    # mtwidgets' own five tasks and the plug-in registered by the fixture are all drawn.
    assert {"re", "ner", "classification", "similarity", "summarization", "shout"} <= by_task
    assert len(relations) >= 34
    shapes = set()
    for rel in relations:
        d = diagram(rel)
        root = parse(d.svg)
        words = text(root)
        assert rel.name in words, rel.name
        assert " ".join(rel.expected.split()) in words, rel.name
        assert " ".join(rel.description.split()) in words, rel.name
        assert tags(root) <= ALLOWED_TAGS, (rel.name, tags(root) - ALLOWED_TAGS)
        assert not any(a.startswith("on") or "href" in a for a in attributes(root)), rel.name
        assert d.svg.count("http") == 1  # the SVG namespace, nothing fetched
        assert d.shape == diagram_shape(rel) in SHAPES
        counts = parts(root)
        assert counts["source circles"] == SOURCES[d.shape], rel.name
        if rel.aggregate is None:  # a per-group relation: its groups hold the sources drawn
            assert SOURCES[d.shape] == min(rel.n_sources, 3), rel.name
        else:  # an aggregated one compares sources across groups: pairs or triplets
            assert d.shape in ("pairwise", "three-way", "no-transformation"), rel.name
        shapes.add(d.shape)
    assert {"single", "combination", "pairwise", "three-way"} <= shapes


@pytest.mark.parametrize(("name", "shape"), [("MR-R1", "single"), ("MR-S2", "single"), ("MR-C1", "combination"),
                                             ("MR-C2", "combination"), ("TIN-shuffle", "single"),
                                             ("MR7.1", "single"), ("MR1.2", "single")])
def test_catalogue_relations_get_the_shape_of_their_sources(name: str, shape: str) -> None:
    assert diagram(named(name)).shape == shape


def test_a_combination_draws_both_sources_one_follow_up_and_three_outputs() -> None:
    root = parse(diagram(named("MR-C1")).svg)
    assert parts(root) == {"source circles": 2, "circles": 1, "squares": 3, "properties": 1, "arrows": 5}


def test_a_task_answering_with_text_draws_its_outputs_as_circles() -> None:
    """Summaries are texts (circles in the paper's notation), labels are scores (squares)."""
    summary = parts(parse(diagram(named("MR1.2")).svg))
    label = parts(parse(diagram(named("MR1.3")).svg))
    assert (summary["circles"], summary["squares"]) == (3, 0)
    assert (label["circles"], label["squares"]) == (1, 2)
