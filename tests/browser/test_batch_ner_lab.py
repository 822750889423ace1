"""The Batch panel on NER data in a real JupyterLab: run TIN-question with both embedded spaCy
pipelines on a slice of the gold sample, click a bar of the error-category chart, and check
the filtered table against ``panel.selection`` in the kernel; then open a row's NER detail.

Vega draws each bar as a ``path`` with ``aria-roledescription="bar"`` and an ``aria-label``
listing its datum ("relation: All relations; model: ner-spacy-sm; category: omission; ..."),
which is how the test finds the bar of a (relation, model, category) to click.
"""

from __future__ import annotations

import json
import re

from lab import Lab, NotebookPage

SETUP = """
import mtwidgets as mt
df = mt.datasets.ner_sample_frame().iloc[:SLICE]
panel = mt.BatchPanel(data=df, models=["ner-spacy-sm", "ner-spacy-md"], relations=["TIN-question"], seed=0)
panel
"""
SLICE = 30

BARS = """
() => {
  const charts = [...document.querySelectorAll('.jp-OutputArea-output .vega-embed')];
  const chart = charts.find((c) => (c.textContent || '').includes('error category'));
  if (!chart) return [];
  return [...chart.querySelectorAll('[aria-roledescription="bar"]')].map((e, k) => {
    const datum = Object.fromEntries((e.getAttribute('aria-label') || '').split('; ').map(
      (kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]));
    const box = e.getBoundingClientRect();
    return {k, relation: datum.relation, model: datum.model, category: datum.category, width: box.width};
  });
}
"""


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str))"))


def test_clicking_a_category_bar_filters_the_ner_table(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([SETUP.replace("SLICE", str(SLICE))]), height=1600)
    try:
        nb.run_all()
        nb.wait_for(".mtw-batch__run")
        assert nb.page.text_content(".mtw-batch__mapping .mtw-batch__mode") == "text + optional gold entities"
        nb.page.click(".mtw-batch__run")
        nb.wait_for(".mtw-batch__tableview[data-state='done']", timeout=240, state="attached")
        assert kernel_json(nb, "panel.state") == "done"
        table = kernel_json(
            nb, "panel.category_summary().query('relation == \"All relations\" and count > 0')"
            "[['model', 'category', 'count']].to_dict('records')"
        )  # fmt: skip
        assert isinstance(table, list) and table, "the run found no error to click on"
        counts = {(r["model"], r["category"]): int(r["count"]) for r in table}

        nb.wait_until(f"() => ({BARS})().length > 0", timeout=60, what="the category chart's bars")
        bars = nb.page.evaluate(BARS)
        clickable = [
            b
            for b in bars
            if b["relation"] == "All relations" and (b["model"], b["category"]) in counts and b["width"] > 2
        ]
        assert clickable, f"no 'All relations' bar in the category chart: bars {bars}, counts {counts}"
        bar = max(clickable, key=lambda b: counts[(b["model"], b["category"])])
        model, category = bar["model"], bar["category"]
        chart = nb.page.locator(".jp-OutputArea-output .vega-embed").filter(has_text="error category").first
        target = chart.locator('[aria-roledescription="bar"]').nth(bar["k"])
        target.scroll_into_view_if_needed()
        target.click()

        nb.wait_until("() => (document.querySelector('.mtw-batch__filter')?.textContent || '').includes('category')",
                      timeout=30, what="the table to filter on the clicked category")  # fmt: skip
        shown_filter = nb.page.text_content(".mtw-batch__filter") or ""
        assert f"model = {model}" in shown_filter and f"category = {category}" in shown_filter
        selection = kernel_json(
            nb, "panel.selection[['relation', 'model', 'verdict', 'group']].to_dict('records')"
        )
        assert isinstance(selection, list) and selection
        assert {(r["model"], r["verdict"]) for r in selection} == {(model, "violation")}
        # the kernel's own judgement: exactly the violations whose suspicious entities show the category
        expected = kernel_json(
            nb, "sorted(i.group for i in __import__('mtwidgets.ner.evaluate', fromlist=['x']).find_issues("
            f"panel.results, gold=panel.task_tally.gold) if i.model == {model!r} and "
            f"{category!r} in {{j.category for j in i.sides}})"
        )  # fmt: skip
        assert sorted(r["group"] for r in selection) == expected
        count = nb.page.text_content(".mtw-batch__count") or ""
        assert re.fullmatch(rf"{len(selection)} rows", count.strip()), count
        rows = nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-batch__row')].map(r => ["
            " r.querySelector('.mtw-batch__cell--model').textContent,"
            " r.querySelector('.mtw-batch__cell--verdict').textContent,"
            " r.querySelector('.mtw-batch__cell--categories').textContent,"
            " r.querySelector('.mtw-batch__cell--source_label').textContent])"
        )
        assert rows and len(rows) == min(len(selection), 25)
        assert all(r[0] == model and r[1] == "violation" and category in r[2] for r in rows), rows
        assert all(re.search(r"\w [A-Z_]+(;|$)", r[3]) or r[3] == "(no entity)" for r in rows), rows

        nb.page.locator(".mtw-batch__row").first.click()
        nb.wait_for(".mtw-batch__ner .mtw-batch__suspect", timeout=30)
        suspects = nb.page.locator(".mtw-batch__suspect-category").all_text_contents()
        assert any(category in s for s in suspects), suspects
        assert nb.page.locator(".mtw-batch__ents--source .mtw-batch__ent").count() > 0
        nb.page.mouse.move(5, 5)  # away from the chart: Vega's tooltip would cover it
        nb.page.wait_for_timeout(200)
        chart.scroll_into_view_if_needed()
        nb.screenshot("batch_ner_selected")
        nb.page.locator(".mtw-batch__detail").first.scroll_into_view_if_needed()
        nb.screenshot("batch_ner_detail")
        assert nb.dialogs == []
    finally:
        nb.close()
