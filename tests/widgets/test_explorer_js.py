"""Front-end unit tests of js/explorer.js in real Chromium, against a fake model object.

The page and the module are served from the repository's ``js/`` folder through
Playwright's request routing (no server, no network); ``js/tests/fake_model.js`` stands in
for the anywidget model and records the messages the view sends.
"""

from __future__ import annotations

from typing import Any

import pytest
from _jsserve import mount_explorer, split_tokens

HOSTILE = "<img src=x onerror=alert(1)>"
TEXT = f"John met {HOSTILE} today."


STATE: dict[str, Any] = {
    "_input": {
        "mark_view": "head-tail",
        "text": TEXT,
        "tokens": split_tokens(TEXT),
        "marks": {
            "head": {"start": 0, "end": 4, "label": None, "inferred": "PERSON", "text": "John"},
            "tail": None,
        },
        "roles": ["head", "tail"],
        "types": ["PERSON", "CITY", "MISC"],
        "suggestions": [{"start": 0, "end": 4, "label": "PERSON", "text": "John"}],
        "todo": "mark the tail",
        "row": 0,
        "n_rows": 2,
    },
    "_rows": [{"i": 0, "text": TEXT}, {"i": 1, "text": "Mary sang."}],
    "_relations": [
        {
            "name": "MR-S2",
            "category": "swap",
            "description": "Swap head and tail.",
            "expected": "inverse label",
            "paper": "Sun et al. 2023",
            "enabled": True,
            "reason": "",
        },
        {
            "name": "MR-R2",
            "category": "replacement",
            "description": "City to country.",
            "expected": "coarser",
            "paper": "Sun et al. 2023",
            "enabled": False,
            "reason": "MR-R2 needs a CITY head or tail",
        },
    ],
    "_followup": {
        "relation": "MR-S2",
        "seed": 7,
        "candidate": 0,
        "n_candidates": 3,
        "note": "swapped",
        "edited": False,
        "not_applicable": None,
        "texts": ["Bob met today."],
        "sources": [[{"text": "John", "ws": " ", "role": "head", "op": "eq"}]],
        "followups": [
            [
                {"text": "John", "ws": " ", "role": None, "op": "del"},
                {"text": "Bob", "ws": " ", "role": "head", "op": "ins"},
                {"text": HOSTILE, "ws": "", "role": "tail", "op": "eq"},
            ]
        ],
    },
    "_models": [
        {
            "name": "m1",
            "view": "label-scores",
            "verdict": "violation",
            "reason": "expected per:parents, got per:children",
            "expected": "per:parents",
            "source": [{"label": "per:children", "top": [["per:children", 0.7]]}],
            "followup": [{"label": "per:children", "top": [["per:children", 0.6], ["no_relation", 0.4]]}],
        },
        {
            "name": HOSTILE,
            "verdict": "error",
            "reason": f"model failed on {HOSTILE}",
            "expected": "",
            "source": [],
            "followup": [],
        },
    ],
    "_error": {},
    "_saved": 0,
}


@pytest.fixture()
def page(explorer_page: Any) -> Any:
    return explorer_page


def _mount(page: Any, state: dict[str, Any] = STATE) -> None:
    mount_explorer(page, state)


def _sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.model.sent")  # type: ignore[no-any-return]


def test_hostile_text_renders_literally_and_runs_nothing(page: Any) -> None:
    _mount(page)
    root = page.locator(".mtw-explorer")
    assert root.get_attribute("data-busy") == "0"
    assert page.locator("img").count() == 0
    tokens = page.locator(".mtw-explorer__token")
    assert tokens.count() == 6
    assert tokens.nth(2).text_content() == "<img"
    assert page.locator(".mtw-explorer__followup").text_content() == f"John Bob {HOSTILE}"
    assert page.locator(
        f'.mtw-explorer__model[data-model="{HOSTILE}"] .mtw-explorer__reason'
    ).text_content() == (f"model failed on {HOSTILE}")
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.alerts") == []


def test_state_renders_marks_diff_verdicts_and_relation_picker(page: Any) -> None:
    _mount(page)
    assert page.locator('.mtw-explorer__token[data-i="0"]').get_attribute("data-role") == "head"
    assert page.locator('.mtw-explorer__token[data-i="1"]').get_attribute("data-role") is None
    assert page.locator(".mtw-explorer__followup ins").all_text_contents() == ["Bob "]
    assert page.locator(".mtw-explorer__followup del").all_text_contents() == ["John "]
    assert page.locator('.mtw-explorer__followup ins[data-role="head"]').count() == 1
    m1 = page.locator('.mtw-explorer__model[data-model="m1"]')
    assert m1.locator(".mtw-explorer__verdict").get_attribute("data-verdict") == "violation"
    assert m1.locator(".mtw-explorer__reason").text_content() == "expected per:parents, got per:children"
    assert m1.locator(".mtw-explorer__bar").count() == 3
    disabled = page.locator('select.mtw-explorer__relation option[value="MR-R2"]')
    assert disabled.is_disabled()
    assert disabled.get_attribute("title") == "MR-R2 needs a CITY head or tail"
    assert "MR-R2 needs a CITY head or tail" in (disabled.text_content() or "")
    assert page.locator('select.mtw-explorer__relation option[value="MR-S2"]').is_enabled()
    assert "seed 7" in (page.locator('[data-action="reshuffle"]').text_content() or "")
    assert page.locator(".mtw-explorer__counter").text_content() == "candidate 1 of 3"
    assert page.locator(".mtw-explorer__rowinfo").text_content() == "row 1 of 2"
    head_type = page.locator('select.mtw-explorer__type[data-role="head"]')
    assert (
        head_type.input_value() == ""
        and head_type.locator("option:checked").text_content() == "auto (PERSON)"
    )
    assert page.locator('select.mtw-explorer__type[data-role="tail"]').is_disabled()
    assert page.locator(".mtw-explorer__error").is_hidden()


def test_click_marks_a_token_then_the_mode_advances_to_tail(page: Any) -> None:
    _mount(page)
    assert page.locator('[data-action="mode-head"]').get_attribute("aria-pressed") == "true"
    page.locator('.mtw-explorer__token[data-i="1"]').click()
    assert _sent(page) == [{"kind": "mark", "id": 1, "role": "head", "start": 5, "end": 8}]
    assert page.locator(".mtw-explorer").get_attribute("data-busy") == "1"
    assert page.locator('[data-action="mode-tail"]').get_attribute("aria-pressed") == "true"
    page.locator('.mtw-explorer__token[data-i="5"]').click()
    assert _sent(page)[-1] == {"kind": "mark", "id": 2, "role": "tail", "start": 38, "end": 44}
    page.evaluate("() => window.model.reply(1)")
    page.wait_for_timeout(50)
    assert page.locator(".mtw-explorer").get_attribute("data-busy") == "1"  # message 2 still pending
    new_input = {
        **STATE["_input"],
        "marks": {
            **STATE["_input"]["marks"],
            "tail": {"start": 38, "end": 44, "label": "DATE", "text": "today."},
        },
    }
    page.evaluate("(inp) => window.model.reply(2, {_input: inp})", new_input)
    page.wait_for_selector('.mtw-explorer[data-busy="0"]', timeout=2000)
    assert page.locator('.mtw-explorer__token[data-i="5"]').get_attribute("data-role") == "tail"


def test_drag_marks_a_span_of_tokens(page: Any) -> None:
    _mount(page)
    page.locator('.mtw-explorer__token[data-i="3"]').hover()
    page.mouse.down()
    page.locator('.mtw-explorer__token[data-i="5"]').hover()
    assert page.locator(".mtw-explorer__token.is-dragging").count() == 3
    page.mouse.up()
    assert _sent(page) == [{"kind": "mark", "id": 1, "role": "head", "start": 14, "end": 44}]
    assert page.locator(".mtw-explorer__token.is-dragging").count() == 0


def test_keyboard_modes_clear_and_token_activation(page: Any) -> None:
    _mount(page)
    token = page.locator('.mtw-explorer__token[data-i="1"]')
    token.focus()
    page.keyboard.press("t")
    assert page.locator('[data-action="mode-tail"]').get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    assert _sent(page)[-1] == {"kind": "mark", "id": 1, "role": "tail", "start": 5, "end": 8}
    page.keyboard.press("h")
    assert page.locator('[data-action="mode-head"]').get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert _sent(page)[-1] == {"kind": "clear", "id": 2}
    # typing in the text box is not a shortcut
    page.locator(".mtw-explorer__text").focus()
    page.keyboard.press("c")
    assert len(_sent(page)) == 2


def test_actions_send_messages(page: Any) -> None:
    _mount(page)
    page.locator("select.mtw-explorer__relation").select_option("MR-S2")
    page.locator('[data-action="next-candidate"]').click()
    page.locator('[data-action="reshuffle"]').click()
    page.locator('[data-action="next-row"]').click()
    page.locator(".mtw-explorer__edit").fill("Bob met nobody.")
    page.locator('[data-action="apply-edit"]').click()
    page.locator('[data-action="save"]').click()
    page.locator(".mtw-explorer__suggestion").click()
    page.locator('select.mtw-explorer__type[data-role="head"]').select_option("CITY")
    kinds = [(m["kind"], {k: v for k, v in m.items() if k not in ("kind", "id")}) for m in _sent(page)]
    assert kinds == [
        ("relation", {"name": "MR-S2"}),
        ("candidate", {"step": 1}),
        ("reshuffle", {}),
        ("row", {"index": 1}),
        ("edit_followup", {"text": "Bob met nobody."}),
        ("save", {}),
        ("mark", {"role": "head", "start": 0, "end": 4}),
        ("set_type", {"role": "head", "label": "CITY"}),
    ]
    assert [m["id"] for m in _sent(page)] == list(range(1, 9))


def test_error_reply_is_shown_and_the_widget_stays_usable(page: Any) -> None:
    _mount(page)
    page.locator('.mtw-explorer__token[data-i="1"]').click()
    page.evaluate(
        """() => window.model.reply(1, {_error: {message: "head span (5, 8) overlaps the tail",
                                                 hint: "Clear the tail first."}}, "error", "head span (5, 8) overlaps")"""
    )
    err = page.locator(".mtw-explorer__error")
    assert err.is_visible()
    assert page.locator(".mtw-explorer__errormessage").text_content() == "head span (5, 8) overlaps the tail"
    assert page.locator(".mtw-explorer__errorhint").text_content() == "Clear the tail first."
    page.wait_for_selector('.mtw-explorer[data-busy="0"]', timeout=2000)
    page.locator('.mtw-explorer__token[data-i="0"]').click()
    assert _sent(page)[-1]["kind"] == "mark"
    page.evaluate("() => window.model.reply(2, {_error: {}})")
    assert err.is_hidden()


def test_error_without_state_still_shows_the_reply_message(page: Any) -> None:
    _mount(page)
    page.locator('[data-action="save"]').click()
    page.evaluate("() => window.model.reply(1, {}, 'error', 'nothing to save yet; mark the input first')")
    assert (
        page.locator(".mtw-explorer__errormessage").text_content()
        == "nothing to save yet; mark the input first"
    )


def test_cleanup_unsubscribes_every_listener(page: Any) -> None:
    _mount(page)
    assert page.evaluate("() => window.model.listenerCount()") > 0
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.listenerCount()") == 0
