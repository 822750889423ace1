"""Front-end unit tests of js/batch_aggregates.js (and the aggregated chips of
js/batch_panel.js) in real Chromium, on a fake anywidget model that records what the view
sends and sets. The sections are built by the Python code the panel uses, from aggregate
rows holding hostile text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _jsserve import js_page

import mtwidgets as mt
from mtwidgets.core.aggregate import aggregate_row
from mtwidgets.widgets._batch_aggregates import view_sections

HOSTILE = "<img src=x onerror=alert(1)>"
PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="batch.css"></head>
<body><div id="root"></div><script type="module">
import aggregates from "./batch_aggregates.js";
import panel from "./batch_panel.js";
function fake(initial) {
  const state = { ...initial }, listeners = new Map(), sent = [];
  const model = {
    sent, state,
    get: (k) => state[k],
    set(k, v) { state[k] = v; model.emit(`change:${k}`); },
    save_changes() {},
    send(c) { sent.push(c); },
    on(e, f) { if (!listeners.has(e)) listeners.set(e, new Set()); listeners.get(e).add(f); },
    off(e, f) { listeners.get(e)?.delete(f); },
    emit(e, ...a) { for (const f of [...(listeners.get(e) || [])]) f(...a); },
    count() { let n = 0; for (const s of listeners.values()) n += s.size; return n; },
  };
  return model;
}
window.mtw = { aggregates, panel, fake };
window.ready = true;
</script></body></html>"""

WORST = [
    {"source_index": 12, "text": f"{HOSTILE} twelve", "label": HOSTILE, "score": 0.25, "satisfied": 6,
     "violations": 3, "safety": 6 / 9},
    {"source_index": 4, "text": "four", "label": "negative", "score": 0.0, "satisfied": 8, "violations": 1,
     "safety": 8 / 9},
    {"source_index": None, "text": "no row to open", "satisfied": 9, "violations": 0, "safety": 1.0},
]  # fmt: skip
EXAMPLE = {"verdict": "violation", "transformation": HOSTILE, "reason": f"order lost {HOSTILE}",
           "x1": {"text": HOSTILE, "followup": f"{HOSTILE} Thank you.", "score": 0.5, "followup_score": 0.1},
           "x2": {"text": "b", "followup": "b Thank you.", "score": 0.2, "followup_score": 0.3}}  # fmt: skip


def rows() -> list[dict[str, Any]]:
    def row(slice_: str, satisfied: int, violations: int, **extra: Any) -> dict[str, Any]:
        return aggregate_row(relation=f"pairs {HOSTILE}", task="classification", model="m1", slice=slice_,
                             satisfied=satisfied, violations=violations, **extra)  # fmt: skip

    return [
        row("overall", 90, 10, detail={"worst_sources": WORST, "ties": "strict"}, examples=[EXAMPLE]),
        row(f"transformation={HOSTILE}", 45, 5, detail={"worst_sources": WORST[1:2]}),
        row("transformation=end: Thanks.", 45, 5, not_applicable=7),
    ]


def state(**over: Any) -> dict[str, Any]:
    aggregates = mt.Results(mt.Results.empty().frame, aggregates=rows()).aggregates
    base = {"sections": view_sections(aggregates), "shown": {}, "pending": [], "state": "done", "error": ""}
    return json.loads(json.dumps({**base, **over}))


@pytest.fixture()
def page(chromium: Any) -> Iterator[Any]:
    with js_page(chromium, "index.html", "window.ready === true", {"index.html": PAGE}) as pg:
        yield pg


def _mount(page: Any, which: str, initial: dict[str, Any]) -> None:
    page.evaluate(
        """([which, state]) => {
            window.model = window.mtw.fake(state);
            window.cleanup = window.mtw[which].render({ model: window.model, el: document.getElementById("root") });
        }""",
        [which, initial],
    )


def test_a_section_shows_counts_slices_and_worst_sources_literally(page: Any) -> None:
    _mount(page, "aggregates", state())
    section = page.locator(".mtw-batch__agg")
    assert section.count() == 1 and section.get_attribute("data-relation") == f"pairs {HOSTILE}"
    assert page.locator(".mtw-batch__agg-title").text_content() == f"pairs {HOSTILE} · m1"
    counts = page.locator(".mtw-batch__agg-count").all_text_contents()
    assert counts == ["tests100", "satisfied90", "violations10", "not applicable0", "errors0", "safety90.0%"]
    slices = page.locator(".mtw-batch__agg-slice")
    assert [slices.nth(k).get_attribute("data-slice") for k in range(3)] == [
        "overall", f"transformation={HOSTILE}", "transformation=end: Thanks."
    ]  # fmt: skip
    assert slices.nth(2).locator("td").all_text_contents() == ["transformation=end: Thanks.", "50", "5", "7", "90.0%"]
    assert slices.nth(0).get_attribute("class").endswith("--shown")
    fill = slices.nth(0).locator(".mtw-batch__agg-fill").evaluate("e => e.style.width")
    assert fill == "90%"
    worst = page.locator(".mtw-batch__agg-source")
    assert worst.count() == 3
    assert worst.nth(0).locator("td").all_text_contents() == ["1", f"{HOSTILE} twelve", f"{HOSTILE} 0.250", "3", "9",
                                                              "66.7%"]  # fmt: skip
    assert "mtw-batch__agg-source--static" in worst.nth(2).get_attribute("class")
    assert page.locator(".mtw-batch__agg-notes").text_content() == "ties: strict"
    page.click(".mtw-batch__agg-examples summary")
    example = page.locator(".mtw-batch__agg-example--violation")
    assert example.locator(".mtw-batch__agg-example-head").text_content() == f"violation · transformation: {HOSTILE}"
    assert example.locator(".mtw-batch__agg-side-name").all_text_contents() == ["x1", "x2"]
    assert example.locator(".mtw-batch__agg-side-text").first.text_content() == f"{HOSTILE} (0.500)"
    assert example.locator(".mtw-batch__agg-side-followup").first.text_content() == f"→ {HOSTILE} Thank you. (0.100)"
    assert page.locator("img").count() == 0
    page.wait_for_timeout(50)
    assert page.evaluate("() => window.alerts") == []


def test_clicks_choose_a_slice_and_open_a_source(page: Any) -> None:
    _mount(page, "aggregates", state())
    key = f"pairs {HOSTILE} · m1"
    page.locator(".mtw-batch__agg-source").nth(1).click()
    assert page.evaluate("() => window.model.sent.at(-1)") == {
        "id": "a1", "kind": "source", "key": key, "slice": "overall", "rank": 1
    }  # fmt: skip
    page.locator(".mtw-batch__agg-source").nth(2).click()  # no source index: nothing to open
    assert page.evaluate("() => window.model.sent.length") == 1
    page.locator(".mtw-batch__agg-slice").nth(1).click()
    assert page.evaluate("() => window.model.state.shown") == {key: f"transformation={HOSTILE}"}
    assert page.locator(".mtw-batch__agg-slice--shown").get_attribute("data-slice") == f"transformation={HOSTILE}"
    worst = page.locator(".mtw-batch__agg-source")
    assert worst.count() == 1 and worst.first.get_attribute("data-rank") == "0"
    assert page.locator(".mtw-batch__agg-worstbox .mtw-batch__detail-label").text_content().startswith(
        f"worst sources · transformation={HOSTILE}"
    )
    worst.first.click()
    assert page.evaluate("() => window.model.sent.at(-1)")["slice"] == f"transformation={HOSTILE}"
    page.locator(".mtw-batch__agg-slice").nth(2).click()  # a slice listing no source
    assert page.locator(".mtw-batch__agg-source").count() == 0
    assert "no worst sources listed" in page.locator(".mtw-batch__agg-worstbox").text_content()
    page.evaluate("() => window.model.set('shown', {})")  # Python cleared it: back to overall
    assert page.locator(".mtw-batch__agg-source").count() == 3
    page.evaluate(f"() => window.model.emit('msg:custom', {{kind: 'error', id: 'a1', message: '{HOSTILE}'}})")
    assert page.locator(".mtw-batch__aggregates > .mtw-batch__message--error").text_content() == HOSTILE
    assert page.locator("img").count() == 0
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.count()") == 0


def test_pending_relations_and_an_empty_view(page: Any) -> None:
    note = f"pairs {HOSTILE}: counted when every source is predicted (8 of 40 sources so far)"
    _mount(page, "aggregates", state(sections=[], pending=[{"relation": "x", "text": note}], state="interrupted"))
    root = page.locator(".mtw-batch__aggregates")
    assert root.get_attribute("data-state") == "interrupted" and root.is_visible()
    assert page.locator(".mtw-batch__message--info").text_content() == note
    page.evaluate("() => window.model.set('pending', [])")
    assert not root.is_visible()  # nothing to show: hidden
    assert page.locator("img").count() == 0


def test_progress_chips_keep_aggregated_relations_apart(page: Any) -> None:
    controls = {"columns": [], "mapping": {}, "modes": [], "relations_available": [], "relations": [],
                "models_available": [], "models": [], "seed": 0, "sample": 0, "slice_column": "", "state": "done",
                "messages": [], "exported": [], "error": "",
                "progress": {"sources_done": 40, "sources_total": 40, "fraction": 1, "groups_done": 12,
                             "groups_total": 12, "groups_exact": True, "rate": 3, "eta": None, "elapsed": 1,
                             "vr": [{"relation": "MR7.3", "groups": 12, "violations": 3, "vr": 0.25}],
                             "aggregated": [{"relation": HOSTILE, "model": "m1", "tests": 1560, "violations": 78,
                                             "safety": 0.95}, {"relation": "later", "model": None}]}}  # fmt: skip
    _mount(page, "panel", controls)
    assert page.locator(".mtw-batch__vr-item").all_text_contents() == ["MR7.3 25.0% (3/12)"]
    assert page.locator(".mtw-batch__agg-item").all_text_contents() == [
        f"{HOSTILE} · m1 safety 95.0% (78/1560 violated)", "later: counted at the end of the run"
    ]  # fmt: skip
    assert page.locator("img").count() == 0
