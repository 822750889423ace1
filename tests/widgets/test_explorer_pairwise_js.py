"""Front-end unit tests of the Explorer's case view (js/explorer.js) in real Chromium: the
render state comes from a real Explorer on pairwise systematicity, drawn over a fake model
that records the messages the view sends."""

from __future__ import annotations

from typing import Any

import pytest
from _jsserve import mount_explorer
from test_explorer_pairwise import ROWS, Density, data

from mtwidgets.core.cache import PredictionCache
from mtwidgets.widgets.explorer import Explorer

HOSTILE = "<img src=x onerror=alert(1)> Great."
TRAITS = ("_input", "_rows", "_relations", "_diagram", "_followup", "_models", "_error", "_saved", "_case")


def state_of(ex: Explorer) -> dict[str, Any]:
    return {name: getattr(ex, name) for name in TRAITS}


@pytest.fixture()
def kernel(monkeypatch: pytest.MonkeyPatch) -> Explorer:
    monkeypatch.setattr("mtwidgets.widgets._explorer_state.default_cache", PredictionCache)
    ex = Explorer(data=data(), models={"density": Density()}, relations=["MR7.3", "pairwise-systematicity"],
                  task="classification")
    ex.relation = "pairwise-systematicity"
    return ex


@pytest.fixture()
def page(explorer_page: Any) -> Any:
    return explorer_page


def _sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.model.sent")  # type: ignore[no-any-return]


def _texts(page: Any, selector: str) -> list[str]:
    return list(page.locator(selector).all_text_contents())


def test_the_case_replaces_the_follow_up_and_the_model_cards(page: Any, kernel: Explorer) -> None:
    mount_explorer(page, state_of(kernel))
    assert page.locator(".mtw-explorer").get_attribute("data-case") == "1"
    assert page.locator(".mtw-explorer__case").is_visible()
    assert page.locator(".mtw-explorer__followupbox").is_hidden() and page.locator(".mtw-explorer__models").is_hidden()
    assert _texts(page, ".mtw-explorer__casetitle") == ["x1", "x2"]
    assert page.locator(".mtw-explorer__caseown").text_content() == ROWS[0]
    assert page.locator("textarea.mtw-explorer__casetext").input_value() == ROWS[1]
    assert page.locator("select.mtw-explorer__caserows").input_value() == "auto"
    assert page.locator("select.mtw-explorer__caseoption").input_value() == kernel._case["option"]
    assert page.locator("select.mtw-explorer__caseoption option").count() == 6
    followups = _texts(page, ".mtw-explorer__casefollowup")
    assert followups == [f"T(x1): {kernel.followups[0].text}", f"T(x2): {kernel.followups[1].text}"]
    assert _texts(page, ".mtw-explorer__casefollowups ins")[0].startswith("My ")
    card = page.locator('.mtw-explorer__casemodel[data-model="density"]')
    assert card.locator(".mtw-explorer__verdict").text_content() == "violation"
    model = kernel._case["models"][0]
    shown = _texts(page, '.mtw-explorer__casemodel[data-model="density"] .mtw-explorer__casenum')
    assert shown == [f"{v['value']:.3f}" for v in model["values"]]
    premise = card.locator('.mtw-explorer__caseside[data-side="P_src"]')
    hypothesis = card.locator('.mtw-explorer__caseside[data-side="P_flw"]')
    assert premise.text_content() == f"P_src: {model['premise']['text']} · true"
    assert hypothesis.text_content() == f"P_flw: {model['hypothesis']['text']} · false"
    assert (premise.get_attribute("data-holds"), hypothesis.get_attribute("data-holds")) == ("1", "0")
    assert card.locator(".mtw-explorer__reason").text_content() == model["reason"]
    assert "P_src <=> P_flw" in (page.locator(".mtw-explorer__case .mtw-explorer__expected").text_content() or "")


def test_hostile_text_in_x2_stays_text(page: Any, kernel: Explorer) -> None:
    kernel.set_partner(HOSTILE)
    mount_explorer(page, state_of(kernel))
    assert page.locator("textarea.mtw-explorer__casetext").input_value() == HOSTILE
    assert page.locator("select.mtw-explorer__caserows").input_value() == "typed"
    assert HOSTILE in (page.locator(".mtw-explorer__casefollowups").text_content() or "")
    assert page.locator(".mtw-explorer img").count() == 0
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.alerts") == []


def test_typing_x2_sends_it_once_after_a_pause_and_enter_sends_at_once(page: Any, kernel: Explorer) -> None:
    mount_explorer(page, state_of(kernel))
    box = page.locator("textarea.mtw-explorer__casetext")
    box.fill("")
    box.type("Great film.", delay=20)
    page.wait_for_timeout(600)
    assert _sent(page) == [{"kind": "partner_text", "id": 1, "slot": 1, "text": "Great film."}]
    box.press("End")
    box.type(" Loved it")
    box.press("Enter")
    assert _sent(page)[-1] == {"kind": "partner_text", "id": 2, "slot": 1, "text": "Great film. Loved it"}
    page.wait_for_timeout(500)
    assert len(_sent(page)) == 2  # the pending pause was cancelled by Enter


def test_rows_steps_and_the_transformation_picker_send_their_messages(page: Any, kernel: Explorer) -> None:
    mount_explorer(page, state_of(kernel))
    page.select_option("select.mtw-explorer__caserows", "3")
    assert _sent(page)[-1] == {"kind": "partner_row", "id": 1, "slot": 1, "index": 3}
    page.click('[data-action="next-partner-1"]')
    assert _sent(page)[-1] == {"kind": "partner_row", "id": 2, "slot": 1, "index": 2}  # from x2's row 1
    page.click('[data-action="prev-partner-1"]')
    assert _sent(page)[-1] == {"kind": "partner_row", "id": 3, "slot": 1, "index": 0}
    page.select_option("select.mtw-explorer__caserows", "auto")
    assert _sent(page)[-1] == {"kind": "partner_auto", "id": 4, "slot": 1}
    option = "start: Thank you."
    page.select_option("select.mtw-explorer__caseoption", option)
    assert _sent(page)[-1] == {"kind": "case_option", "id": 5, "option": option}
    page.click('[data-action="case-save"]')
    assert _sent(page)[-1] == {"kind": "save", "id": 6}


def test_a_new_state_from_the_kernel_redraws_the_case(page: Any, kernel: Explorer) -> None:
    mount_explorer(page, state_of(kernel))
    kernel.set_partner(2)
    page.evaluate("(c) => window.model.set('_case', c)", kernel._case)
    assert page.locator("select.mtw-explorer__caserows").input_value() == "2"
    assert page.locator("textarea.mtw-explorer__casetext").input_value() == ROWS[2]
    assert page.locator('.mtw-explorer__casemodel .mtw-explorer__verdict').text_content() == "satisfied"
    # a refused x2: the reason instead of the follow-ups, the option marked
    kernel.set_partner(4)
    page.evaluate("(c) => window.model.set('_case', c)", kernel._case)
    empty = page.locator(".mtw-explorer__casefollowups .mtw-explorer__empty").text_content() or ""
    assert empty == kernel._case["not_applicable"] and "x2" in empty
    assert "not applicable" in (page.locator("select.mtw-explorer__caseoption option").first.text_content() or "")
    assert page.locator('.mtw-explorer__casemodel .mtw-explorer__verdict').text_content() == "not applicable"


def test_x1_is_read_as_typed_only_while_a_case_is_shown(page: Any, kernel: Explorer) -> None:
    mount_explorer(page, state_of(kernel))
    page.fill("textarea.mtw-explorer__text", "Great day.")
    page.wait_for_timeout(600)
    assert _sent(page) == [{"kind": "set_text", "id": 1, "text": "Great day."}]
    kernel.relation = "MR7.3"  # one group at a time: the box waits for Use text
    for name in ("_followup", "_models", "_case"):
        page.evaluate("([k, v]) => window.model.set(k, v)", [name, getattr(kernel, name)])
    assert page.locator(".mtw-explorer__case").is_hidden() and page.locator(".mtw-explorer__followupbox").is_visible()
    assert page.locator(".mtw-explorer").get_attribute("data-case") == "0"
    page.fill("textarea.mtw-explorer__text", "Great night.")
    page.wait_for_timeout(600)
    assert len(_sent(page)) == 1
