"""ENTRE in a real JupyterLab: the Batch panel runs ENTRE (the real replacement, 5 rounds) on
a few sample sentences with an embedded model whose name holds HTML; the ENTRE section's
charts appear; a click on a bar of the rounds-to-failure chart and on a bar of the shortcut
chart filters the table to those ENTRE instances (checked against ``panel.selection`` in the
kernel); a row opens in the Explorer, which shows the instance's rounds: stepping to another
round redraws that round's instance with the replaced names struck out and put in, and the
model's card says where it first flips, as the run found. The markup in the model's name
shows as text everywhere. The round trip of a round step is measured in the page.
"""

from __future__ import annotations

import json
from typing import Any

from lab import Lab, NotebookPage

MODEL = "minilm <b>bold</b>"
ROWS = [0, 1, 2, 3, 13, 44, 100, 102, 126, 131, 135]  # sample rows: two stand every round, the rest fail
SETUP = f"""
import mtwidgets as mt
from mtwidgets.re.inputs import relation_input_from_row
df = mt.datasets.re_sample().iloc[{ROWS!r}]
rows = [relation_input_from_row(r) for r in df.to_dict("records")]  # inputs with their gold labels
panel = mt.BatchPanel(data=rows, models={{{MODEL!r}: mt.models.load("re-minilm")}},
                      relations=[mt.relation("ENTRE", rounds=5)], seed=0, task="re")
panel
"""

# Every mark of role `role` ("bar", or "rect mark": a table row's band) of the chart whose title
# holds `title`, with its datum read from the aria label ("field: value; ...") and its size.
BARS = """
([title, role]) => {
  const chart = [...document.querySelectorAll('.jp-OutputArea-output .vega-embed')]
    .find((c) => (c.textContent || '').includes(title));
  if (!chart) return [];
  return [...chart.querySelectorAll(`[aria-roledescription="${role}"]`)].map((e, k) => {
    const datum = Object.fromEntries((e.getAttribute('aria-label') || '').split('; ').map(
      (kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]));
    const box = e.getBoundingClientRect();
    return {k, datum, width: box.width, height: box.height};
  });
}
"""
ROUND_STEP = """
async (value) => {
  const select = document.querySelector('select.mtw-explorer__caseoption');
  const root = document.querySelector('.mtw-explorer');
  const t0 = performance.now();
  select.value = value;
  select.dispatchEvent(new Event('change', {bubbles: true}));
  await new Promise((r) => setTimeout(r, 0));
  while (root.dataset.busy !== '0') await new Promise((r) => setTimeout(r, 2));
  return performance.now() - t0;
}
"""


def kernel_json(nb: NotebookPage, expr: str) -> Any:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str))"))


def chart_bars(nb: NotebookPage, title: str, role: str = "bar") -> list[dict[str, Any]]:
    nb.wait_until(f"() => ({BARS})([{title!r}, {role!r}]).length > 0", timeout=60, what=f"the {role}s of {title!r}")
    return list(nb.page.evaluate(BARS, [title, role]))


def click_bar(nb: NotebookPage, title: str, k: int, role: str = "bar") -> None:
    """Click mark ``k`` with the real mouse; a row's band is clicked at its right end, where
    a bar may lie over it (a bar of the same row: its click selects the same row)."""
    chart = nb.page.locator(".jp-OutputArea-output .vega-embed", has_text=title).first
    mark = chart.locator(f'[aria-roledescription="{role}"]').nth(k)
    mark.scroll_into_view_if_needed()
    if role == "bar":
        mark.click()
        return
    box = mark.bounding_box()
    assert box is not None, f"the {role} {k} of {title!r} is not on screen"
    mark.click(position={"x": box["width"] - 2, "y": box["height"] / 2}, force=True)


def value_of(datum: dict[str, str], word: str) -> str:
    """The datum's value of the field whose title holds ``word`` (aria labels use titles)."""
    return next(v for key, v in datum.items() if word in key)


def shown_rows(nb: NotebookPage) -> list[list[str]]:
    return list(nb.page.evaluate(
        "() => [...document.querySelectorAll('.mtw-batch__row')].map(r => ["
        " r.querySelector('.mtw-batch__cell--relation').textContent,"
        " r.querySelector('.mtw-batch__cell--model').textContent,"
        " r.querySelector('.mtw-batch__cell--source').textContent])"
    ))


def test_entre_section_filters_the_table_and_the_explorer_steps_the_rounds(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([SETUP]), height=1600)
    try:
        nb.run_all()
        nb.wait_for(".mtw-batch__run")
        nb.page.click(".mtw-batch__run")
        nb.wait_for(".mtw-batch__tableview[data-state='done']", timeout=180, state="attached")
        rows = kernel_json(nb, "[(r.verdict, r.meta['gold'], r.meta['round_failed'], r.source_text) "
                               "for r in panel.results.frame.itertuples()]")
        failed = [r for r in rows if r[0] == "violation"]
        assert len(rows) == len(ROWS) and failed, rows

        # -- the rounds-to-failure chart: a click on a round's bar --------------------------------------
        bars = [b for b in chart_bars(nb, "rounds to failure") if b["height"] > 2]
        assert bars, "no bar with instances in the rounds chart"
        bar = max(bars, key=lambda b: int(value_of(b["datum"], "instances")))
        picked = int(value_of(bar["datum"], "round"))
        click_bar(nb, "rounds to failure", bar["k"])
        nb.wait_until("() => (document.querySelector('.mtw-batch__filter')?.textContent || '').includes('round')",
                      timeout=30, what="the table to filter on the clicked round")
        assert f"round = {picked}" in (nb.page.text_content(".mtw-batch__filter") or "")
        selection = kernel_json(nb, "[(r.relation, r.model, r.meta['round_failed']) for r in panel.selection.itertuples()]")
        expected = [r for r in failed if r[2] == picked]
        assert len(selection) == len(expected) > 0
        assert {tuple(s) for s in selection} == {("ENTRE", MODEL, picked)}
        shown = shown_rows(nb)
        assert sorted(s[2] for s in shown) == sorted(r[3] for r in expected)
        assert {(s[0], s[1]) for s in shown} == {("ENTRE", MODEL)}  # the name's markup is text
        nb.page.mouse.move(5, 5)
        nb.screenshot("entre_rounds_selected")

        # -- the shortcut chart: a click on a gold relation's row ----------------------------------------
        golds = {r[1] for r in failed}
        bands = [b for b in chart_bars(nb, "shortcuts from the entity names", "rect mark")
                 if value_of(b["datum"], "gold") in golds and b["height"] > 2]
        assert bands, "no shortcut row of a gold relation with a failure"
        gold = value_of(bands[0]["datum"], "gold")
        click_bar(nb, "shortcuts from the entity names", bands[0]["k"], "rect mark")
        nb.wait_until(f"() => (document.querySelector('.mtw-batch__filter')?.textContent || '').includes({'gold = ' + gold!r})",
                      timeout=30, what="the table to filter on the clicked gold relation")
        selection = kernel_json(nb, "[r.meta['gold'] for r in panel.selection.itertuples()]")
        assert selection and set(selection) == {gold}
        assert len(selection) == sum(1 for r in failed if r[1] == gold)
        assert sorted(s[2] for s in shown_rows(nb)) == sorted(r[3] for r in failed if r[1] == gold)
        assert nb.page.evaluate("() => document.querySelectorAll('.mtw-batch b, .vega-embed b').length") == 0
        nb.page.mouse.move(5, 5)
        nb.screenshot("entre_shortcut_selected")

        # -- a row opens in the Explorer, on its rounds ------------------------------------------------
        nb.page.locator(".mtw-batch__row").first.click()
        nb.wait_for(".mtw-batch__open-explorer")
        opened = nb.page.evaluate("""async () => {
          const t0 = performance.now();
          document.querySelector('.mtw-batch__open-explorer').click();
          while (!document.querySelector(".mtw-explorer[data-case='1'] .mtw-explorer__casemodel"))
            await new Promise((r) => setTimeout(r, 5));
          return performance.now() - t0;
        }""")
        row = kernel_json(nb, "(lambda r: [r.meta['round_failed'], r.source_text])"
                              "(panel.results.frame.iloc[panel.table.selected])")
        flip = int(row[0])
        nb.wait_until("() => document.querySelector(\".mtw-explorer[data-busy='0']\") !== null", timeout=60,
                      what="the Explorer to settle")
        options = nb.page.evaluate("() => [...document.querySelectorAll('select.mtw-explorer__caseoption option')]"
                                   ".map(o => o.value)")
        assert options == ["1", "2", "3", "4", "5"]
        card = nb.page.locator(".mtw-explorer__casemodel").first
        assert card.get_attribute("data-model") == MODEL
        assert (card.locator(".mtw-explorer__reason").text_content() or "").startswith(f"flips at round {flip}:")
        timings = []
        for value in ("3", str(flip), "5", "1"):
            timings.append(nb.page.evaluate(ROUND_STEP, value))
            label = nb.page.text_content(".mtw-explorer__casefollowup .mtw-explorer__label") or ""
            assert label.strip() == f"round {value} (shown):"
            changed = nb.page.evaluate(
                "() => [...document.querySelectorAll('.mtw-explorer__casefollowup ins, .mtw-explorer__casefollowup del')]"
                ".map(w => w.tagName)")
            assert "INS" in changed and "DEL" in changed  # the replaced names, against the source
            hypothesis = card.locator(".mtw-explorer__caseside[data-side='shown round'] .mtw-explorer__casesidetext")
            assert (hypothesis.text_content() or "").startswith(f"round {value}: ")
            assert f"first flips at round {flip}" in (hypothesis.text_content() or "")
        state = kernel_json(nb, "(lambda e: [e.case_option, e.verdicts, e.followups[0].to_markup()])"
                                "(panel._explorer_box.children[0])")
        assert state[0] == "1" and state[1] == {MODEL: "violation"}
        print(f"first ENTRE view in the Explorer {opened:.0f} ms; round steps {[round(t) for t in timings]} ms")
        assert max(timings) < 2000
        nb.screenshot("entre_explorer", ".mtw-explorer")
        assert nb.dialogs == []
    finally:
        nb.close()
