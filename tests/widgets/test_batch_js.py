"""Front-end unit tests of js/batch_panel.js and js/batch_table.js in real Chromium.

The modules are served from ``js/`` through Playwright's request routing (no server, no
network) into a page that mounts them on a minimal fake of the anywidget model, which
records what the view sends and sets.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _jsserve import js_page

HOSTILE = "<img src=x onerror=alert(1)>"
PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="batch.css"></head>
<body><div id="root"></div><script type="module">
import panel from "./batch_panel.js";
import table from "./batch_table.js";
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
window.mtw = { panel, table, fake };
window.ready = true;
</script></body></html>"""

CONTROLS = {
    "columns": [{"name": "markup", "dtype": "object"}, {"name": HOSTILE, "dtype": "object"}],
    "mapping": {"mode": "markup", "markup": "markup"},
    "relations_available": ["MR-S1", "MR-S2"],
    "relations": ["MR-S2"],
    "models_available": ["m1", HOSTILE],
    "models": ["m1", HOSTILE],
    "seed": 0,
    "sample": 0,
    "slice_column": "",
    "state": "idle",
    "progress": {},
    "messages": [{"level": "warning", "text": f"1 rows skipped: row 3: {HOSTILE}"}],
    "exported": [],
    "error": "",
}
ROWS = [
    {
        "i": 10 + k,
        "relation": "MR-S2",
        "model": "m1",
        "verdict": "violation",
        "source": f"{HOSTILE} {k}",
        "followup": "b",
        "source_label": "per:children",
        "followup_label": "per:children",
        "reason": HOSTILE,
    }
    for k in range(3)
]
TABLE = {
    "rows": ROWS,
    "page": 0,
    "page_size": 3,
    "total": 7,
    "verdict": "violation",
    "filter": "",
    "selected": -1,
    "detail": {},
    "state": "done",
    "error": "",
}
DETAIL = {
    "i": 11,
    "group": "MR-S2/1/0",
    "relation": "MR-S2",
    "model": "m1",
    "verdict": "violation",
    "reason": "expected per:parents, got per:children",
    "note": "swapped",
    "expected": "per:parents",
    "seed": 0,
    "source_diff": [["same", "[["], ["del", HOSTILE], ["same", "]] met"]],
    "followup_diff": [["same", "[["], ["ins", "Bob"], ["same", "]] met"]],
    "other_sources": [],
    "source_output": {"label": "per:children", "scores": [["per:children", 0.7]]},
    "followup_output": {"label": "per:children", "scores": []},
}


@pytest.fixture()
def page(chromium: Any) -> Iterator[Any]:
    with js_page(chromium, "index.html", "window.ready === true", {"index.html": PAGE}) as pg:
        yield pg


def _mount(page: Any, which: str, state: dict[str, Any]) -> None:
    page.evaluate(
        """([which, state]) => {
            window.model = window.mtw.fake(state);
            window.cleanup = window.mtw[which].render({ model: window.model, el: document.getElementById("root") });
        }""",
        [which, json.loads(json.dumps(state))],
    )


def test_controls_render_state_mapping_and_hostile_text_literally(page: Any) -> None:
    _mount(page, "panel", CONTROLS)
    root = page.locator(".mtw-batch__controls")
    assert root.get_attribute("data-state") == "idle"
    assert page.locator("img").count() == 0
    assert page.locator(".mtw-batch__message--warning").text_content() == f"1 rows skipped: row 3: {HOSTILE}"
    assert page.locator(".mtw-batch__model").all_text_contents() == [" m1", f" {HOSTILE}"]
    options = page.locator(".mtw-batch__col--markup option").all_text_contents()
    assert options == ["(none)", "markup", HOSTILE]
    page.select_option(".mtw-batch__mode", "mentions")
    assert page.evaluate("() => window.model.state.mapping.mode") == "mentions"
    assert page.locator(".mtw-batch__col--head").count() == 1  # the mentions fields appear
    page.locator(".mtw-batch__relation input").first.check()
    assert page.evaluate("() => window.model.state.relations") == ["MR-S1", "MR-S2"]
    page.evaluate("() => window.model.set('state', 'running')")
    assert root.get_attribute("data-state") == "running"
    assert page.locator(".mtw-batch__run").is_disabled()
    page.wait_for_timeout(50)
    assert page.evaluate("() => window.alerts") == []


def test_run_button_progress_and_errors(page: Any) -> None:
    _mount(page, "panel", CONTROLS)
    page.click(".mtw-batch__run")
    assert page.evaluate("() => window.model.sent.map(m => m.kind)") == ["run"]
    page.evaluate("""() => window.model.set('progress', {sources_done: 10, sources_total: 40, fraction: 0.25,
        groups_done: 80, groups_total: 320, groups_exact: false, rate: 50.5, eta: 75, elapsed: 2,
        vr: [{relation: 'MR-S2', groups: 8, violations: 2, vr: 0.25}]})""")
    stats = page.locator(".mtw-batch__stats").text_content()
    assert stats.startswith("groups 80 / ~320 · sources 10 / 40 · 50.5 groups/s") and "ETA 1m 15s" in stats
    assert page.locator(".mtw-batch__vr-item").all_text_contents() == ["MR-S2 25.0% (2/8)"]
    assert page.locator(".mtw-batch__fill").evaluate("e => e.style.width") == "25%"
    sent_id = page.evaluate("() => window.model.sent[0].id")
    page.evaluate(
        f"() => window.model.emit('msg:custom', {{kind: 'error', id: '{sent_id}', message: '{HOSTILE}'}})"
    )
    assert page.locator(".mtw-batch__message--error").first.text_content() == HOSTILE
    assert page.locator("img").count() == 0
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.count()") == 0


def test_table_rows_detail_pager_and_explorer(page: Any) -> None:
    _mount(page, "table", TABLE)
    rows = page.locator(".mtw-batch__row")
    assert rows.count() == 3 and rows.nth(1).get_attribute("data-i") == "11"
    assert page.locator(".mtw-batch__tableview").get_attribute("data-state") == "done"
    assert rows.nth(0).locator(".mtw-batch__cell--source").text_content() == f"{HOSTILE} 0"
    assert page.locator("img").count() == 0
    assert page.locator(".mtw-batch__page").text_content() == "page 1 / 3"
    rows.nth(1).click()
    assert page.evaluate("() => window.model.state.selected") == 11
    page.evaluate(f"() => window.model.set('detail', {json.dumps(DETAIL)})")
    assert page.locator(".mtw-batch__detail .mtw-batch__tok--del").text_content() == HOSTILE
    assert page.locator(".mtw-batch__detail .mtw-batch__tok--ins").text_content() == "Bob"
    assert page.locator(".mtw-batch__score").all_text_contents() == ["per:children: 0.700"]
    page.click(".mtw-batch__open-explorer")
    assert page.evaluate("() => window.model.sent.at(-1)")["kind"] == "explorer"
    assert page.evaluate("() => window.model.sent.at(-1).i") == 11
    page.click(".mtw-batch__next")
    assert page.evaluate("() => window.model.state.page") == 1
    assert page.locator(".mtw-batch__prev").is_enabled()
    page.evaluate("() => window.model.set('filter', 'relation = MR-S2 · model = m1')")
    assert (
        page.locator(".mtw-batch__filter").text_content()
        == "selected in chart: relation = MR-S2 · model = m1"
    )
    page.click(".mtw-batch__clear")
    assert page.evaluate("() => window.model.sent.at(-1).kind") == "clear_selection"
    page.select_option(".mtw-batch__verdict", "all")
    assert page.evaluate("() => window.model.state.verdict") == "all"
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.count()") == 0
