"""The Batch panel's aggregated relations in a real JupyterLab: run pairwise systematicity
beside a per-group relation with two embedded sentiment models from the Run button, read the
section's counts against ``panel.results.aggregates`` in the kernel, choose a slice from its
row and from its bar in the safety chart, and open a worst source in the Explorer.

The safety chart is Vega SVG: each bar a ``path`` with ``aria-roledescription="bar"`` and an
``aria-label`` listing its datum ("relation: ...; model: ...; slice: ..."), which is how
the test finds the bar of a (model, slice) to click with the real mouse.
"""

from __future__ import annotations

import json

from lab import Lab, NotebookPage

PAIRWISE = "pairwise-systematicity"
SETUP = """
import mtwidgets as mt
import pandas as pd
from pathlib import Path
df = pd.read_json(Path(mt.__file__).parent / "data" / "en_classification.jsonl", lines=True).head(40)
panel = mt.BatchPanel(data=df, models=["sentiment-vader", "sentiment-textblob"],
                      relations=["MR7.3", "pairwise-systematicity"], seed=0, chunk_size=10)
panel
"""

BARS = """
() => {
  const charts = [...document.querySelectorAll('.jp-OutputArea-output .vega-embed')];
  const chart = charts.find((c) => (c.textContent || '').includes('Safety per slice'));
  if (!chart) return [];
  return [...chart.querySelectorAll('[aria-roledescription="bar"]')].map((e, k) => {
    const datum = Object.fromEntries((e.getAttribute('aria-label') || '').split('; ').map(
      (kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]));
    const box = e.getBoundingClientRect();
    return {k, relation: datum.relation, model: datum.model, slice: datum.slice, width: box.width};
  });
}
"""

SECTIONS = """
() => [...document.querySelectorAll('.mtw-batch__agg')].map((s) => ({
  relation: s.dataset.relation, model: s.dataset.model,
  counts: Object.fromEntries([...s.querySelectorAll('.mtw-batch__agg-count')].map(
    (c) => [c.dataset.key, c.querySelector('b').textContent])),
  slices: [...s.querySelectorAll('.mtw-batch__agg-slice')].map((r) => r.dataset.slice),
  shown: s.querySelector('.mtw-batch__agg-slice--shown')?.dataset.slice,
  worst: [...s.querySelectorAll('.mtw-batch__agg-source .mtw-batch__agg-source-text')].map((t) => t.textContent),
}))
"""


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str))"))


def test_aggregated_section_counts_slices_and_worst_source_to_explorer(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([SETUP]), height=1800)
    try:
        nb.run_all()
        nb.wait_for(".mtw-batch__run")
        nb.page.click(".mtw-batch__run")
        nb.wait_for(".mtw-batch__tableview[data-state='done']", timeout=240, state="attached")
        assert kernel_json(nb, "panel.state") == "done"
        rows = kernel_json(
            nb, "panel.results.aggregates.drop(columns=['examples', 'detail']).to_dict('records')"
        )  # fmt: skip
        assert isinstance(rows, list) and rows
        overall = {r["model"]: r for r in rows if r["slice"] == "overall"}
        assert set(overall) == {"sentiment-vader", "sentiment-textblob"}

        # the VR chips hold the per-group relation only; the aggregated one has chips of its own
        nb.wait_for(".mtw-batch__agg")
        chips = nb.page.locator(".mtw-batch__vr-item").all_text_contents()
        assert chips and all(c.startswith("MR7.3 ") for c in chips), chips
        agg_chips = nb.page.locator(".mtw-batch__agg-item").all_text_contents()
        assert len(agg_chips) == 2 and all(c.startswith(f"{PAIRWISE} · sentiment-") for c in agg_chips)

        sections = nb.page.evaluate(SECTIONS)
        assert [(s["relation"], s["model"]) for s in sections] == [
            (PAIRWISE, "sentiment-vader"), (PAIRWISE, "sentiment-textblob")
        ]  # fmt: skip
        for s in sections:
            want = overall[s["model"]]
            assert s["counts"]["tests"] == f"{want['tests']:,}" and s["counts"]["violations"] == f"{want['violations']:,}"
            assert s["counts"]["safety"] == f"{100 * want['safety']:.1f}%"
            assert s["slices"] == [r["slice"] for r in rows if r["model"] == s["model"]]
            assert s["shown"] == "overall" and 0 < len(s["worst"]) <= 10

        # a slice row: its worst sources, in the kernel too
        vader = nb.page.locator(".mtw-batch__agg").first
        first_slice = sections[0]["slices"][1]
        vader.locator(".mtw-batch__agg-slice").nth(1).click()
        nb.wait_until(
            "(s) => document.querySelector('.mtw-batch__agg .mtw-batch__agg-slice--shown')?.dataset.slice === s",
            first_slice, timeout=30, what="the clicked slice to be shown",
        )  # fmt: skip
        assert kernel_json(nb, "panel.aggregates_view.shown") == {f"{PAIRWISE} · sentiment-vader": first_slice}

        # a bar of the safety chart: that slice of that model
        nb.wait_until(f"() => ({BARS})().length > 0", timeout=60, what="the safety chart's bars")
        bars = [b for b in nb.page.evaluate(BARS) if b["model"] == "sentiment-textblob" and b["width"] > 2]
        assert bars, "no bar of sentiment-textblob in the safety chart"
        bar = bars[-1]
        chart = nb.page.locator(".jp-OutputArea-output .vega-embed").filter(has_text="Safety per slice").first
        target = chart.locator('[aria-roledescription="bar"]').nth(bar["k"])
        target.scroll_into_view_if_needed()
        target.click()
        key = f"{PAIRWISE} · sentiment-textblob"
        nb.wait_until(
            "(s) => document.querySelectorAll('.mtw-batch__agg')[1]?.querySelector('.mtw-batch__agg-slice--shown')"
            "?.dataset.slice === s", bar["slice"], timeout=30, what="the clicked bar's slice to be shown",
        )  # fmt: skip
        shown = kernel_json(nb, "panel.aggregates_view.shown")
        assert isinstance(shown, dict) and shown[key] == bar["slice"]

        # a worst source: the Explorer opens below on that source
        source = nb.page.locator(".mtw-batch__agg").nth(1).locator(".mtw-batch__agg-source").first
        source.scroll_into_view_if_needed()
        source.click()
        nb.wait_for(".mtw-explorer", timeout=120)
        expected = kernel_json(nb, f"panel.worst_sources({PAIRWISE!r}, 'sentiment-textblob', {bar['slice']!r})"
                                   ".iloc[0][['source_index', 'text']].to_dict()")  # fmt: skip
        opened = kernel_json(
            nb, "{'index': panel._explorer_box.children[0].index, 'relation': panel._explorer_box.children[0].relation,"
            " 'text': panel._explorer_box.children[0].source.display()}"
        )  # fmt: skip
        assert isinstance(expected, dict) and isinstance(opened, dict)
        assert opened["relation"] == PAIRWISE and opened["text"] == expected["text"]
        assert opened["index"] == expected["source_index"]  # the frame's row labels are 0..39
        nb.page.locator(".mtw-batch__agg").first.scroll_into_view_if_needed()
        nb.page.mouse.move(5, 5)
        nb.page.wait_for_timeout(200)
        nb.screenshot("batch_aggregates", ".mtw-batch__aggregates")
        assert nb.dialogs == []
    finally:
        nb.close()
