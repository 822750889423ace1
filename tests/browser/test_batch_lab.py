"""The Batch panel in a real JupyterLab: run from the Run button, click a bar of the VR
chart, and check the filtered table against ``panel.selection`` in the kernel.

Vega draws the charts as SVG here, each bar a ``path`` with ``aria-roledescription="bar"``
and an ``aria-label`` listing its datum ("relation: MR-S1; model: re-minilm; ..."): the
test reads those labels to find the bar of a (relation, model) and clicks it with the real
mouse. The selection then travels Vega signal -> JupyterChart -> kernel -> table.
"""

from __future__ import annotations

import json
import re

from lab import Lab, NotebookPage

SETUP = """
import mtwidgets as mt
df = mt.datasets.re_sample()
df = df[df["focus"].isin(["MR-S2", "MR-S1", "MR-R1"])].groupby("focus", sort=False).head(4).reset_index(drop=True)
panel = mt.BatchPanel(data=df, models=["re-patterns", "re-minilm"], relations=["MR-R1", "MR-S1", "MR-S2"], seed=0)
panel
"""

BARS = """
() => {
  const chart = document.querySelector('.jp-OutputArea-output .vega-embed');
  if (!chart) return [];
  return [...chart.querySelectorAll('[aria-roledescription="bar"]')].map((e, k) => {
    const datum = Object.fromEntries((e.getAttribute('aria-label') || '').split('; ').map(
      (kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]));
    const box = e.getBoundingClientRect();
    return {k, relation: datum.relation, model: datum.model, width: box.width};
  });
}
"""


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str))"))


def test_clicking_a_vr_bar_filters_the_table_and_sets_panel_selection(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([SETUP]), height=1400)
    try:
        nb.run_all()
        nb.wait_for(".mtw-batch__run")
        nb.page.click(".mtw-batch__run")
        nb.wait_for(".mtw-batch__tableview[data-state='done']", timeout=120, state="attached")
        assert kernel_json(nb, "panel.state") == "done"
        summary = kernel_json(
            nb, "panel.results.summary().query('relation != \"Overall\"')[['relation', 'model', 'groups', "
            "'violations']].to_dict('records')"
        )  # fmt: skip
        assert isinstance(summary, list)
        violated = {(r["relation"], r["model"]): int(r["violations"]) for r in summary if r["violations"] > 0}
        assert violated, f"the run found no violation to click on: {summary}"

        nb.wait_until(f"() => ({BARS})().length > 0", timeout=60, what="the VR chart's bars")
        bars = nb.page.evaluate(BARS)
        clickable = [b for b in bars if (b["relation"], b["model"]) in violated and b["width"] > 2]
        assert clickable, f"no bar with violations in the VR chart: bars {bars}, violations {violated}"
        bar = max(clickable, key=lambda b: violated[(b["relation"], b["model"])])
        target = (bar["relation"], bar["model"])
        chart_bars = nb.page.locator(".jp-OutputArea-output .vega-embed").first.locator(
            '[aria-roledescription="bar"]'
        )
        chart_bars.nth(bar["k"]).scroll_into_view_if_needed()
        chart_bars.nth(bar["k"]).click()

        nb.wait_until("() => (document.querySelector('.mtw-batch__filter')?.textContent || '').includes('relation')",
                      timeout=30, what="the table to filter on the clicked bar")  # fmt: skip
        shown_filter = nb.page.text_content(".mtw-batch__filter") or ""
        assert f"relation = {target[0]}" in shown_filter and f"model = {target[1]}" in shown_filter
        selection = kernel_json(nb, "panel.selection[['relation', 'model', 'verdict']].to_dict('records')")
        assert isinstance(selection, list)
        assert len(selection) == violated[target]
        assert {(r["relation"], r["model"], r["verdict"]) for r in selection} == {(*target, "violation")}
        count = nb.page.text_content(".mtw-batch__count") or ""
        assert re.fullmatch(rf"{len(selection)} rows", count.strip()), count
        rows = nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-batch__row')].map(r => ["
            " r.querySelector('.mtw-batch__cell--relation').textContent,"
            " r.querySelector('.mtw-batch__cell--model').textContent,"
            " r.querySelector('.mtw-batch__cell--verdict').textContent])"
        )
        assert rows and len(rows) == min(len(selection), 25)
        assert {tuple(r) for r in rows} == {(*target, "violation")}
        nb.page.mouse.move(5, 5)  # away from the chart: Vega's tooltip would cover it
        nb.page.wait_for_timeout(200)
        nb.screenshot("batch_selected")
        assert nb.dialogs == []
    finally:
        nb.close()
