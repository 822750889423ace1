"""Front-end unit tests of js/explorer.js's view components on other tasks' parts, in real
Chromium against the fake model: a text pair typed in two boxes, a numeric prediction on
its bands, a text prediction with its word diff; and js/common.js's ``h()`` in both of its
call forms."""

from __future__ import annotations

from typing import Any

import pytest
from _jsserve import mount_explorer

HOSTILE = "<img src=x onerror=alert(1)>"

PAIR_STATE: dict[str, Any] = {
    "_input": {
        "mark_view": "text-pair",
        "text": "A cat sat",
        "fields": [
            {"name": "text_a", "title": "first text", "text": "A cat sat"},
            {"name": "text_b", "title": "second text", "text": f"the cat {HOSTILE}"},
        ],
        "tokens": [],
        "marks": {},
        "roles": [],
        "types": [],
        "suggestions": [],
        "todo": "",
        "row": 0,
        "n_rows": 1,
    },
    "_rows": [{"i": 0, "text": f"A cat sat ||| the cat {HOSTILE}"}],
    "_relations": [
        {
            "name": "SIM-swap",
            "category": "symmetry",
            "description": "Swap.",
            "expected": "same",
            "paper": "tests",
            "enabled": True,
            "reason": "",
        },
    ],
    "_followup": {
        "relation": "SIM-swap",
        "seed": 0,
        "candidate": 0,
        "n_candidates": 1,
        "note": "texts swapped",
        "edited": False,
        "not_applicable": None,
        "texts": ["the cat ||| A cat sat"],
        "sources": [
            [
                {"field": "first text", "text": "", "ws": "", "role": None, "label": None, "op": "eq"},
                {"text": "A", "ws": " ", "role": None, "label": None, "op": "eq"},
                {"field": "second text", "text": "", "ws": "", "role": None, "label": None, "op": "eq"},
                {"text": "the", "ws": "", "role": None, "label": None, "op": "eq"},
            ]
        ],
        "followups": [
            [
                {"field": "first text", "text": "", "ws": "", "role": None, "label": None, "op": "eq"},
                {"text": "A", "ws": " ", "role": None, "label": None, "op": "del"},
                {"text": "the", "ws": "", "role": None, "label": None, "op": "ins"},
                {"field": "second text", "text": "", "ws": "", "role": None, "label": None, "op": "eq"},
                {"text": "A", "ws": "", "role": None, "label": None, "op": "ins"},
            ]
        ],
    },
    "_models": [
        {
            "name": "overlap",
            "view": "number-bands",
            "verdict": "violation",
            "reason": "similarity 0.50 -> 1.00",
            "expected": "0.50",
            "source": [{"label": None, "top": [], "value": 0.5, "band": "related"}],
            "followup": [{"label": None, "top": [], "value": 1.0, "band": "same"}],
            "bands": [
                {"name": "different", "low": 0.0, "high": 0.4},
                {"name": "related", "low": 0.4, "high": 0.8},
                {"name": "same", "low": 0.8, "high": 1.01},
            ],
        },
        {
            "name": "summary",
            "view": "text-diff",
            "verdict": "violation",
            "reason": "summary changed",
            "expected": "",
            "source": [{"label": None, "top": [], "text": "Send the report"}],
            "followup": [
                {
                    "label": None,
                    "top": [],
                    "text": f"Please send {HOSTILE}",
                    "diff": [
                        {"text": "Please", "ws": " ", "op": "ins"},
                        {"text": "Send", "ws": " ", "op": "del"},
                        {"text": "send", "ws": " ", "op": "ins"},
                        {"text": "the", "ws": " ", "op": "del"},
                        {"text": "report", "ws": "", "op": "del"},
                        {"text": HOSTILE, "ws": "", "op": "ins"},
                    ],
                }
            ],
        },
    ],
    "_error": {},
    "_saved": 0,
}


@pytest.fixture()
def page(explorer_page: Any) -> Any:
    return explorer_page


def test_a_text_pair_shows_both_texts_in_two_boxes_and_sends_them(page: Any) -> None:
    mount_explorer(page, PAIR_STATE)
    boxes = page.locator("textarea.mtw-explorer__field")
    assert boxes.count() == 2
    assert [boxes.nth(0).input_value(), boxes.nth(1).input_value()] == ["A cat sat", f"the cat {HOSTILE}"]
    assert page.locator(".mtw-explorer__fieldrow .mtw-explorer__fieldname").all_text_contents() == [
        "first text: ",
        "second text: ",
    ]
    # nothing to mark: no single-text box, no tokens, no mode buttons
    assert page.locator("textarea.mtw-explorer__text:not(.mtw-explorer__field)").count() == 0
    assert page.locator(".mtw-explorer__tokens").is_hidden()
    assert page.locator(".mtw-explorer__modes button").count() == 0
    # the follow-up lists both fields
    assert page.locator(".mtw-explorer__followup .mtw-explorer__fieldname").all_text_contents() == [
        "first text: ",
        "second text: ",
    ]
    assert page.locator(".mtw-explorer__sources .mtw-explorer__source").count() == 1
    boxes.nth(1).fill("a dog")
    page.locator('[data-action="set-text"]').click()
    sent = page.evaluate("() => window.model.sent")
    assert sent == [{"kind": "set_text", "id": 1, "texts": {"text_a": "A cat sat", "text_b": "a dog"}}]
    # a re-render keeps the boxes (and what has focus) in place
    boxes.nth(0).focus()
    page.evaluate("(s) => window.model.set('_input', s)", {**PAIR_STATE["_input"], "todo": "again"})
    assert page.evaluate("() => document.activeElement.dataset.field") == "text_a"
    assert page.locator("img").count() == 0


def test_numeric_and_text_predictions_render_with_bands_and_a_word_diff(page: Any) -> None:
    mount_explorer(page, PAIR_STATE)
    num = page.locator('.mtw-explorer__model[data-model="overlap"]')
    assert num.get_attribute("data-view") == "number-bands"
    assert num.locator(".mtw-explorer__value").all_text_contents() == ["0.500", "1.000"]
    assert num.locator(".mtw-explorer__bandname").all_text_contents() == ["related", "same"]
    assert num.locator(".mtw-explorer__bands").count() == 2
    assert num.locator(".mtw-explorer__band").all_text_contents()[:3] == ["different", "related", "same"]
    left = num.locator(".mtw-explorer__bandmarker").nth(0).evaluate("e => e.style.left")
    assert left.startswith("49.5") or left.startswith("49.50")  # 0.5 on a 0..1.01 scale
    assert num.locator(".mtw-explorer__bar").count() == 0
    text = page.locator('.mtw-explorer__model[data-model="summary"]')
    assert (
        text.locator('.mtw-explorer__textpred[data-side="source"]').text_content()
        == "source: Send the report"
    )
    fu = text.locator('.mtw-explorer__textpred[data-side="followup"]')
    assert fu.locator("ins").all_text_contents() == ["Please ", "send ", HOSTILE]
    assert fu.locator("del").all_text_contents() == ["Send ", "the ", "report"]
    page.wait_for_timeout(100)
    assert page.locator("img").count() == 0 and page.evaluate("() => window.alerts") == []


def test_common_h_builds_elements_in_both_call_forms(page: Any) -> None:
    got = page.evaluate(
        """() => {
            const a = window.h("div", { class: "x y", text: "hi", "data-k": 3, hidden: false, title: null }, []);
            const b = window.h("span", "mtw-batch__hint", 42);
            const c = window.h("p", null);
            const d = window.h("ul", {}, [window.h("li", "", "one"), null, window.h("li", {}, "<b>two</b>")]);
            return [a.outerHTML, b.outerHTML, c.outerHTML, d.outerHTML];
        }"""
    )
    assert got == [
        '<div class="x y" data-k="3">hi</div>',
        '<span class="mtw-batch__hint">42</span>',
        "<p></p>",
        "<ul><li>one</li><li>&lt;b&gt;two&lt;/b&gt;</li></ul>",
    ]
