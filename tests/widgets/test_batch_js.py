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

from mtwidgets.core.batch_view import BASE_COLUMNS
from mtwidgets.core.task import get_task

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
    "modes": [m.to_dict() for m in get_task("re").column_modes],  # as the panel sends them
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
    "columns": [c.to_dict() for c in BASE_COLUMNS],
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


# -- built from data: the task's declared modes, the table's columns, a detail's blocks ---------------
def test_mapping_form_is_built_from_the_declared_modes(page: Any) -> None:
    from mtwidgets.core.task import ColumnMode, Field

    modes = [
        ColumnMode("message", "one message per row", (Field("text", f"the message {HOSTILE}"),)),
        ColumnMode(
            "titled",
            f"a title and a body {HOSTILE}",
            (
                Field("title", "the subject line"),
                Field("body", "the body"),
                Field("lang", "", required=False),
            ),
        ),
    ]
    state = {**CONTROLS, "columns": [{"name": "subject", "dtype": "str"}, {"name": "content", "dtype": "str"}],
             "mapping": {"mode": "titled", "title": "subject"}, "modes": [m.to_dict() for m in modes]}  # fmt: skip
    _mount(page, "panel", state)
    mode = page.locator("select.mtw-batch__mode option")
    assert mode.all_text_contents() == ["one message per row", f"a title and a body {HOSTILE}"]
    assert [mode.nth(k).get_attribute("value") for k in range(2)] == ["message", "titled"]
    assert page.locator("select.mtw-batch__mode").input_value() == "titled"
    labels = page.locator(".mtw-batch__mapping .mtw-batch__field[data-field] label")
    assert labels.all_text_contents() == ["title", "body", "lang (optional)"]
    assert labels.first.get_attribute("title") == "the subject line"
    assert page.locator(".mtw-batch__col--title").input_value() == "subject"
    page.select_option(".mtw-batch__col--body", "content")
    assert page.evaluate("() => window.model.state.mapping") == {
        "mode": "titled",
        "title": "subject",
        "body": "content",
    }
    page.select_option("select.mtw-batch__mode", "message")  # the other mode's fields replace these
    assert page.evaluate("() => window.model.state.mapping.mode") == "message"
    assert labels.all_text_contents() == ["text"]
    assert labels.first.get_attribute("title") == f"the message {HOSTILE}"
    page.evaluate("(m) => window.model.set('modes', [m])", modes[1].to_dict())  # one mode: nothing to choose
    assert page.locator("select.mtw-batch__mode").count() == 0
    assert page.locator(".mtw-batch__mode").text_content() == f"a title and a body {HOSTILE}"
    assert page.locator(".mtw-batch__mode").get_attribute("data-mode") == "titled"
    page.evaluate("() => window.model.set('modes', [])")
    assert page.locator(".mtw-batch__mapping").text_content() == "This task reads no table columns."
    assert page.locator("img").count() == 0
    page.wait_for_timeout(50)
    assert page.evaluate("() => window.alerts") == []


def test_table_columns_and_detail_blocks_come_as_data(page: Any) -> None:
    from mtwidgets.core.batch_view import Column, detail_extra, label_block, list_block, marked_block

    columns = [Column("model", "the model"), Column("length", HOSTILE), Column("verdict", "verdict")]
    rows = [{**r, "length": f"{k} {HOSTILE}"} for k, r in enumerate(ROWS)]
    _mount(page, "table", {**TABLE, "columns": [c.to_dict() for c in columns], "rows": rows})
    assert page.locator(".mtw-batch__table th").all_text_contents() == ["the model", HOSTILE, "verdict"]
    cells = page.locator(".mtw-batch__row").first.locator("td")
    assert (
        cells.count() == 3 and page.locator(".mtw-batch__cell--length").first.text_content() == f"0 {HOSTILE}"
    )
    page.evaluate("(c) => window.model.set('columns', c)", [Column("reason", "why").to_dict()])
    assert page.locator(".mtw-batch__table th").all_text_contents() == ["why"]
    assert page.locator(".mtw-batch__row").first.locator("td").all_text_contents() == [HOSTILE]
    extra = detail_extra(
        [
            label_block(f"marked {HOSTILE}"),
            marked_block([[HOSTILE, "X"], [" plain ", ""], ["span", HOSTILE]], "toy-line"),
            list_block([[("toy-strong", HOSTILE), ("", " and text")]], "toy-list", "toy-item"),
        ],
        cls="toy-box",
    )
    page.evaluate("(d) => window.model.set('detail', d)", {**DETAIL, "extra": extra})
    box = page.locator(".mtw-batch__detail .toy-box")
    assert box.locator(".mtw-batch__detail-label").text_content() == f"marked {HOSTILE}"
    line = box.locator(".mtw-batch__ents.toy-line")
    assert line.locator(".mtw-batch__ent-text").all_text_contents() == [HOSTILE, "span"]
    assert line.locator(".mtw-batch__ent").nth(1).get_attribute("data-label") == HOSTILE
    assert box.locator("ul.toy-list li.toy-item").text_content() == f"{HOSTILE} and text"
    assert box.locator(".toy-strong").text_content() == HOSTILE
    assert page.locator(".mtw-batch__score").count() == 1  # the outputs stay (replaces_outputs is false)
    page.evaluate(
        "(d) => window.model.set('detail', d)", {**DETAIL, "extra": {**extra, "replaces_outputs": True}}
    )
    assert page.locator(".mtw-batch__score").count() == 0
    assert page.locator("img").count() == 0
    page.wait_for_timeout(50)
    assert page.evaluate("() => window.alerts") == []
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.count()") == 0
