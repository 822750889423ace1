"""The Explorer on pairwise systematicity in a real JupyterLab, with two embedded sentiment
models: pick the relation and the pair (x1, x2) appears with both follow-ups, each model's four
positive scores, P_src, P_flw and the verdict; type x2 (the pair follows at once), pick
another transformation, type an x2 the transformation refuses (not applicable, with the
reason), type hostile HTML (shown as text), step x1 through the rows and open a source as the
Batch panel does (x1 changes, the chosen x2 stays). Every on-screen value is checked against
what the kernel holds; the round trip of an update is measured in the page.
"""

from __future__ import annotations

import json
from typing import Any

from lab import Lab, NotebookPage, assert_legible_in_both_themes

ROOT = ".mtw-explorer"
IDLE = ".mtw-explorer[data-busy='0']"
PAIRWISE = "pairwise-systematicity"
HOSTILE = "<img src=x onerror=alert(1)> What a wonderful, happy film."
CELL = f"""
import mtwidgets as mt
from mtwidgets.text import data

rows = [x for x in data.classification_sample() if x.lang == "en"][:12]
explorer = mt.Explorer(data=rows, models=["sentiment-vader", "sentiment-textblob"],
                       relations=["MR7.3", {PAIRWISE!r}], task="classification")
explorer
"""
# The time from Enter in x2's box to the new case on screen (the reply after the state update).
ROUND_TRIP = """
async (text) => {
  const box = document.querySelector('textarea.mtw-explorer__casetext');
  const root = document.querySelector('.mtw-explorer');
  box.focus();
  box.value = text;
  const t0 = performance.now();
  box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
  await new Promise((r) => setTimeout(r, 0));
  while (root.dataset.busy !== '0') await new Promise((r) => setTimeout(r, 2));
  return performance.now() - t0;
}
"""
CARDS = """
() => [...document.querySelectorAll('.mtw-explorer__casemodel')].map((c) => ({
  name: c.dataset.model,
  verdict: c.querySelector('.mtw-explorer__verdict').textContent,
  values: [...c.querySelectorAll('.mtw-explorer__casenum')].map((v) => v.textContent),
  premise: c.querySelector('.mtw-explorer__caseside[data-side="P_src"] .mtw-explorer__casesidetext').textContent,
  hypothesis: c.querySelector('.mtw-explorer__caseside[data-side="P_flw"] .mtw-explorer__casesidetext').textContent,
  reason: c.querySelector('.mtw-explorer__reason').textContent,
}))
"""
SHOWN = {"pass": "satisfied", "violation": "violation", "not_applicable": "not applicable", "error": "error"}


def wait_idle(nb: NotebookPage, what: str, timeout: float = 90) -> None:
    nb.wait_until(f"() => document.querySelector({IDLE!r}) !== null", timeout=timeout, what=what)


def kernel_json(nb: NotebookPage, expr: str) -> Any:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str, ensure_ascii=False))"))


def expected_cards(nb: NotebookPage) -> list[dict[str, Any]]:
    """The model cards as the kernel's case says they must read."""
    models = kernel_json(nb, "explorer._case['models']")
    return [
        {
            "name": m["name"],
            "verdict": SHOWN[m["verdict"]],
            "values": ["—" if v["value"] is None else f"{v['value']:.3f}" for v in m["values"]],
            "premise": m["premise"]["text"] or "—",
            "hypothesis": m["hypothesis"]["text"] or "—",
            "reason": m["reason"],
        }
        for m in models
    ]


def screen_matches_kernel(nb: NotebookPage) -> None:
    assert nb.page.evaluate(CARDS) == expected_cards(nb)
    shown = [t.split(": ", 1)[1] for t in nb.page.locator(".mtw-explorer__casefollowup").all_text_contents()]
    assert shown == kernel_json(nb, "[f.text for f in explorer.followups]")
    assert nb.page.input_value("select.mtw-explorer__caseoption") == kernel_json(nb, "explorer._case['option']")


def test_explorer_shows_one_pair_live(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([CELL]), height=1400)
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model", timeout=180)
        wait_idle(nb, "the first render")
        assert nb.page.locator(".mtw-explorer__case").is_hidden()

        # the relation: the pair replaces the one-group follow-up and cards
        nb.page.select_option("select.mtw-explorer__relation", PAIRWISE)
        nb.wait_for(".mtw-explorer__casemodel", timeout=120)
        wait_idle(nb, "the pair")
        assert nb.page.locator(".mtw-explorer__followupbox").is_hidden()
        rows = kernel_json(nb, "[x.text for x in explorer._inputs]")
        assert nb.page.text_content(".mtw-explorer__caseown") == rows[0]
        assert nb.page.input_value("textarea.mtw-explorer__casetext") == rows[1]
        assert nb.page.input_value("select.mtw-explorer__caserows") == "auto"
        assert [c["name"] for c in nb.page.evaluate(CARDS)] == ["sentiment-vader", "sentiment-textblob"]
        screen_matches_kernel(nb)
        assert nb.page.locator(".mtw-explorer__diagrambox svg").count() == 1  # the relation card keeps its diagram

        # x2 typed with the real keyboard: the pair follows after a pause
        box = nb.page.locator("textarea.mtw-explorer__casetext")
        box.fill("")
        box.type("The service was slow and the food was cold.", delay=15)
        nb.wait_until(
            "(t) => document.querySelector('.mtw-explorer__casefollowup:nth-child(2)')?.textContent.includes(t)",
            "The service was slow", timeout=30, what="the typed x2's follow-up",
        )  # fmt: skip
        wait_idle(nb, "the typed x2")
        assert kernel_json(nb, "explorer.partners[0].text") == "The service was slow and the food was cold."
        assert nb.page.input_value("select.mtw-explorer__caserows") == "typed"
        screen_matches_kernel(nb)

        # another transformation
        nb.page.select_option("select.mtw-explorer__caseoption", "start: Thank you.")
        wait_idle(nb, "the other transformation")
        assert kernel_json(nb, "explorer.case_option") == "start: Thank you."
        assert all(f.startswith("T(x") and ": Thank you. " in f
                   for f in nb.page.locator(".mtw-explorer__casefollowup").all_text_contents())
        screen_matches_kernel(nb)

        # an x2 the end sentences refuse: not applicable under one of them, with the reason
        nb.page.select_option("select.mtw-explorer__caseoption", "end: My friends were happy, though.")
        wait_idle(nb, "an end sentence")
        box.fill("An ending without a stop")
        box.press("Enter")
        nb.wait_until(
            "() => (document.querySelector('.mtw-explorer__casefollowups .mtw-explorer__empty')?.textContent || '')"
            ".includes('x2')", timeout=30, what="the refusal",
        )  # fmt: skip
        wait_idle(nb, "the refused x2")
        reason = kernel_json(nb, "explorer._case['not_applicable']")
        assert "does not end a sentence" in reason
        assert nb.page.text_content(".mtw-explorer__casefollowups .mtw-explorer__empty") == reason
        assert {c["verdict"] for c in nb.page.evaluate(CARDS)} == {"not applicable"}
        screen_matches_kernel(nb)

        # hostile HTML stays text
        box.fill(HOSTILE)
        box.press("Enter")
        wait_idle(nb, "the hostile x2")
        nb.wait_until("(t) => document.querySelector('.mtw-explorer__casefollowups').textContent.includes(t)",
                      HOSTILE, timeout=30, what="the hostile x2 shown")  # fmt: skip
        assert nb.page.evaluate("() => document.querySelectorAll('.mtw-explorer img').length") == 0
        screen_matches_kernel(nb)

        # x1 stepped through the rows: the typed x2 stays
        nb.page.click("[data-action='next-row']")
        wait_idle(nb, "the next row")
        nb.wait_until("(t) => document.querySelector('.mtw-explorer__caseown').textContent === t", rows[1],
                      timeout=30, what="x1 to be row 1")  # fmt: skip
        assert kernel_json(nb, "[explorer.source.text, explorer.partners[0].text]") == [rows[1], HOSTILE]
        screen_matches_kernel(nb)

        # the Batch panel's call: the source's row set from Python; x2 stays
        nb.execute("explorer.index = 5")
        nb.wait_until("(t) => document.querySelector('.mtw-explorer__caseown').textContent === t", rows[5],
                      timeout=30, what="x1 to be row 5")  # fmt: skip
        wait_idle(nb, "the opened source")
        assert kernel_json(nb, "[explorer.source.text, explorer.partners[0].text]") == [rows[5], HOSTILE]
        # back to a data row for x2 (auto follows x1)
        nb.page.select_option("select.mtw-explorer__caserows", "auto")
        wait_idle(nb, "x2 back to auto")
        assert nb.page.input_value("textarea.mtw-explorer__casetext") == rows[6]
        screen_matches_kernel(nb)

        # the round trip of an update: Enter in x2's box to the new pair on screen
        times = [float(nb.page.evaluate(ROUND_TRIP, f"A pleasant film, number {k}.")) for k in range(10)]
        times.sort()
        print(f"pair update round trip in JupyterLab: median {times[5]:.0f} ms, max {times[-1]:.0f} ms")
        assert times[5] < 1000, times
        screen_matches_kernel(nb)

        case = ".mtw-explorer__case"
        nb.page.locator(case).scroll_into_view_if_needed()
        nb.screenshot("explorer_pairwise", case)
        assert_legible_in_both_themes(
            nb,
            [".mtw-explorer__casemodel .mtw-explorer__caseholds", ".mtw-explorer__casemodel .mtw-explorer__casenum",
             ".mtw-explorer__casemodel .mtw-explorer__caselabel", ".mtw-explorer__caselegend"],
            "explorer_pairwise", case,
        )  # fmt: skip
        assert nb.dialogs == []
    finally:
        nb.close()
