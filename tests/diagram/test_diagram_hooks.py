"""The diagram where users meet relations: the Explorer's relation card (kernel state and
front end in Chromium) and the HTML report."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "widgets"))
from _diagram_svg import parse, parts, text  # noqa: E402
from _jsserve import js_page, mount_explorer, split_tokens  # noqa: E402

import mtwidgets as mt  # noqa: E402
from mtwidgets.report import write_report  # noqa: E402
from mtwidgets.widgets.explorer import Explorer  # noqa: E402

FATHER = "[[John|PERSON]] is <<Mary|PERSON>>'s father."


def parents(x: Any) -> str:
    return "per:parents"


def test_the_explorer_sends_the_chosen_relations_diagram() -> None:
    e = Explorer(models={"const": parents}, data=[FATHER], relations=["MR-S2", "MR-C1"])
    assert e.relation == "MR-S2"
    first = parse(e._diagram)
    assert "MR-S2" in text(first) and parts(first)["source circles"] == 1
    e.relation = "MR-C1"
    second = parse(e._diagram)
    assert "MR-C1" in text(second) and parts(second)["source circles"] == 2
    assert e._diagram == mt.relation("MR-C1").diagram().svg


def test_the_report_draws_each_relation_of_the_run(tmp_path: Path) -> None:
    data = pd.DataFrame({"markup": [FATHER]})
    results = mt.run(data, ["MR-S2", "MR-S1"], {"const": mt.models.CallableModel(parents, name="const")})
    html = write_report(results, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<h2>Relations</h2>" in html
    svgs = re.findall(r"<svg .*?</svg>", html, flags=re.S)
    drawn = [text(parse(s)) for s in svgs]
    assert [name for name in ("MR-S2", "MR-S1") if any(name in d for d in drawn)] == ["MR-S2", "MR-S1"]


def test_relations_outside_the_catalogue_are_left_out_and_aggregated_ones_drawn() -> None:
    from mtwidgets.report import relation_diagrams

    empty = pd.DataFrame(columns=["relation"])
    assert relation_diagrams(SimpleNamespace(frame=empty)) == ""
    assert relation_diagrams(SimpleNamespace(frame=pd.DataFrame({"relation": ["NOT-A-RELATION"]}))) == ""
    # An aggregated relation (one row of counts per slice) is drawn once.
    counts = pd.DataFrame({"relation": ["MR-C1", "MR-C1"], "slice": ["overall", "context=x"]})
    section = relation_diagrams(SimpleNamespace(frame=empty, aggregates=counts))
    assert section.count("<svg ") == 1 and "MR-C1" in section


# -- front end ----------------------------------------------------------------------------
TEXT = "John met Mary."
HOSTILE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10" onload="alert(1)">'
    "<script>alert(2)</script><style>body{display:none}</style>"
    '<a href="javascript:alert(3)"><text>link</text></a>'
    '<foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="x" onerror="alert(4)"/></foreignObject>'
    '<text onclick="alert(5)">kept</text></svg>'
)


def _state(svg: str) -> dict[str, Any]:
    return {
        "_input": {"mark_view": "head-tail", "text": TEXT, "tokens": split_tokens(TEXT), "marks": {},
                   "roles": ["head", "tail"], "types": [], "suggestions": [], "todo": "", "row": 0, "n_rows": 1},
        "_rows": [{"i": 0, "text": TEXT}],
        "_relations": [{"name": "MR-S2", "category": "swap", "description": "Swap head and tail.",
                        "expected": "inverse label", "paper": "Sun et al. 2023", "enabled": True, "reason": ""}],
        "_diagram": svg,
        "_followup": {"relation": "MR-S2", "seed": 0, "candidate": 0, "n_candidates": 0, "note": "",
                      "edited": False, "not_applicable": None, "texts": [], "sources": [], "followups": []},
        "_models": [], "_error": {}, "_saved": 0,
    }


def test_the_relation_card_shows_the_diagram_and_follows_the_relation(chromium: Any) -> None:
    with js_page(chromium, "tests/index.html", "window.mtwReady === true") as page:
        mount_explorer(page, _state(mt.relation("MR-S2").diagram().svg))
        box = page.locator(".mtw-explorer__relationbox .mtw-explorer__diagrambox svg")
        assert box.count() == 1
        assert page.locator(".mtw-explorer__diagram").get_attribute("open") is not None
        assert page.evaluate("() => document.querySelector('.mtw-explorer__diagrambox svg').namespaceURI") == (
            "http://www.w3.org/2000/svg")
        assert "MR-S2" in (box.text_content() or "")
        assert box.locator("circle").count() == 2 and box.locator("polygon").count() == 3
        # drawn at its size, in the widget's text colour
        size = page.evaluate("() => { const r = document.querySelector('.mtw-explorer__diagrambox svg')"
                             ".getBoundingClientRect(); return [r.width, r.height]; }")
        assert size[0] > 300 and size[1] > 200
        page.evaluate(f"() => window.model.set('_diagram', {mt.relation('MR-C1').diagram().svg!r})")
        assert "MR-C1" in (box.text_content() or "") and box.locator("circle").count() == 3
        page.evaluate("() => window.model.set('_diagram', '')")
        assert page.locator(".mtw-explorer__diagram").is_hidden()
        page.evaluate("() => window.model.set('_diagram', '<svg xmlns=\"http://www.w3.org/2000/svg\"><unclosed>')")
        assert page.locator(".mtw-explorer__diagrambox svg").count() == 0


def test_the_relation_card_drops_whatever_could_run_in_an_svg(chromium: Any) -> None:
    with js_page(chromium, "tests/index.html", "window.mtwReady === true") as page:
        mount_explorer(page, _state(HOSTILE_SVG))
        svg = page.locator(".mtw-explorer__diagrambox svg")
        assert svg.count() == 1 and svg.text_content() == "kept"
        for tag in ("script", "style", "a", "foreignObject", "img"):
            assert svg.locator(tag).count() == 0, tag
        assert svg.get_attribute("onload") is None
        assert svg.locator("text").get_attribute("onclick") is None
        page.wait_for_timeout(100)
        assert page.evaluate("() => window.alerts") == []
        assert page.locator("body").is_visible()
