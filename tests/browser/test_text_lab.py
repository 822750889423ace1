"""The text tasks' widgets in a real JupyterLab: the Explorer on a sentence pair (both texts
in their boxes, the replaced words marked in both, the similarity on its five bands, hostile
HTML shown as text, an error shown inside the widget), the Explorer on Chinese text (the
follow-up and the two summaries diffed by jieba's words), and the Batch panel's per-topic
heatmap: a click on a (relation, topic) cell filters the table to that cell's violations.
Every on-screen value is checked against what the kernel holds.
"""

from __future__ import annotations

import json

from lab import Lab, NotebookPage

# Fixed rewrites (the widgets are tested here, not the lexicons, which have their own tests
# and change as they are reviewed): every mention of a listed word, or the sentences reversed.
FIXED_REWRITERS = """
import re
from mtwidgets.text import en, zh
from mtwidgets.text.rewrite import Replacement, Rewrite, Rewrites, apply_replacements

def swap(pairs, what):
    def rewrite(text, *, rng=None, k=1):
        for old, new in pairs.items():
            reps = tuple(Replacement(m.start(), m.end(), old, new) for m in re.finditer(re.escape(old), text))
            if reps:
                return Rewrites([Rewrite(apply_replacements(text, reps), f"{what} {old!r} -> {new!r}", reps)])
        return Rewrites([], f"no {what} of the test's list")
    return rewrite

def reverse_sentences(text, *, rng=None, k=1):
    sentences = re.findall(r"[^.!?。！？]+[.!?。！？]\\s*", text)
    if len(sentences) < 2 or "".join(sentences) != text:
        return Rewrites([], "fewer than two sentences")
    return Rewrites([Rewrite(("" if "。" in text else " ").join(s.strip() for s in reversed(sentences)), "reversed")])

for table in (en.REWRITERS, zh.REWRITERS):
    table.update(name=swap({"刘芳": "王丽"}, "name"), country=swap({"France": "Chile"}, "country"),
                 occupation=swap({"医生": "护士"}, "occupation"), punctuation=swap({",": ";"}, "punctuation"),
                 reorder=reverse_sentences)
"""
ROOT = ".mtw-explorer"
IDLE = ".mtw-explorer[data-busy='0']"
HOSTILE = "<img src=x onerror=alert(1)> France signed the trade deal on Monday."
PAIR_CELL = f"""
import mtwidgets as mt
from mtwidgets.text.inputs import SimilarityInput

def jaccard(x):
    a, b = set(x.text_a.lower().split()), set(x.text_b.lower().split())
    return len(a & b) / len(a | b)

pair = SimilarityInput({HOSTILE!r}, "The trade deal with France was signed on Monday.", topic="business")
explorer = mt.Explorer(data=[pair], models={{"jaccard": jaccard}}, relations=["MR2.1", "MR7.1"])
explorer
"""
ZH_TEXT = "刘芳是上海的一名医生。她每天早上骑车去医院。周末她常和朋友去公园散步。"
ZH_CELL = f"""
import mtwidgets as mt
from mtwidgets.text.inputs import SummarizationInput

def lead(x):
    return x.text.split("。")[0] + "。"

explorer = mt.Explorer(data=[SummarizationInput({ZH_TEXT!r})], models={{"lead": lead}}, relations=["MR1.2", "MR3.2"])
explorer
"""
BATCH_CELL = """
import mtwidgets as mt, pandas as pd
from mtwidgets.text import data

sample = data.classification_sample()[::12]
df = pd.DataFrame([{"text": x.text, "topic": x.topic} for x in sample])

def parity(x):
    return "odd" if sum(i * ord(c) for i, c in enumerate(x.text)) % 2 else "even"

panel = mt.BatchPanel(data=df, models={"parity": parity}, relations=["MR4.3", "MR7.3"], task="classification", seed=0)
panel
"""
CELLS = """
() => {
  const charts = [...document.querySelectorAll('.jp-OutputArea-output .vega-embed')];
  const chart = charts.find((c) => (c.textContent || '').includes('Violation rate per topic'));
  if (!chart) return [];
  return [...chart.querySelectorAll('[aria-label*="topic: "]')].filter((e) => e.tagName === 'path').map((e, k) => {
    const datum = Object.fromEntries((e.getAttribute('aria-label') || '').split('; ').map(
      (kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]));
    const box = e.getBoundingClientRect();
    return {k, relation: datum.relation, topic: datum.topic, width: box.width};
  });
}
"""


def wait_idle(nb: NotebookPage, what: str, timeout: float = 90) -> None:
    nb.wait_until(f"() => document.querySelector({IDLE!r}) !== null", timeout=timeout, what=what)


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str, ensure_ascii=False))"))


def texts(nb: NotebookPage, selector: str) -> list[str]:
    return list(nb.page.locator(selector).all_text_contents())


def changed_words(nb: NotebookPage, scope: str) -> dict[str, list[str]]:
    """The struck-out and inserted words under ``scope``, in order."""
    return {op: [t.strip() for t in texts(nb, f"{scope} {op}")] for op in ("del", "ins")}


def kernel_changes(nb: NotebookPage, expr: str) -> dict[str, list[str]]:
    segs = kernel_json(nb, expr)
    assert isinstance(segs, list)
    return {op: [w["text"] for w in segs if w["op"] == op and "field" not in w] for op in ("del", "ins")}


def test_explorer_on_a_text_pair(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([FIXED_REWRITERS, PAIR_CELL]), height=1200)
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model", timeout=120)
        wait_idle(nb, "the first render")
        # both texts in their boxes, as the kernel holds them
        boxes = nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-explorer__field')].map(b => [b.dataset.field, b.value])"
        )
        assert boxes == [["text_a", HOSTILE], ["text_b", "The trade deal with France was signed on Monday."]]
        # the replaced country marked in both texts of the follow-up pair
        fu = kernel_json(nb, "[explorer.followups[0].text_a, explorer.followups[0].text_b]")
        assert fu == [HOSTILE.replace("France", "Chile"), "The trade deal with Chile was signed on Monday."]
        new = "Chile"
        shown = changed_words(nb, ".mtw-explorer__followup")
        assert shown == {"del": ["France", "France"], "ins": [new, new]}
        assert shown == kernel_changes(nb, "explorer._followup['followups'][0]")
        # ... and the words to replace marked in both texts of the source pair
        assert [t.strip() for t in texts(nb, ".mtw-explorer__sources [data-replaced='1']")] == ["France", "France"]
        names = [f.strip() for f in texts(nb, ".mtw-explorer__followup .mtw-explorer__fieldname")]
        assert names == ["S1:", "S2:"]
        # the similarity on its five bands, as the kernel computed it
        card = f"{ROOT} .mtw-explorer__model[data-model='jaccard']"
        assert nb.page.get_attribute(card, "data-view") == "number-bands"
        model = kernel_json(nb, "explorer._models[0]")
        assert isinstance(model, dict)
        assert texts(nb, f"{card} .mtw-explorer__bandname") == [model["source"][0]["band"], model["followup"][0]["band"]]
        assert texts(nb, f"{card} .mtw-explorer__value") == [f"{model['source'][0]['value']:.3f}"] * 2
        assert nb.page.locator(f"{card} .mtw-explorer__band").count() == 10
        bands = [b["name"] for b in model["bands"]]
        assert [b.split(" ")[0] + " " + b.split(" ")[1] for b in bands] == [
            "[0.8, 1]", "[0.6, 0.8)", "[0.4, 0.6)", "[0.2, 0.4)", "[0, 0.2)"
        ]  # fmt: skip
        assert nb.page.text_content(f"{card} .mtw-explorer__verdict") == kernel_json(nb, "explorer.verdicts['jaccard']")
        # hostile HTML stays text
        assert "<img src=x onerror=alert(1)>" in (nb.page.text_content(".mtw-explorer__followup") or "")
        assert nb.page.evaluate("() => document.querySelectorAll('.mtw-explorer img').length") == 0

        # an empty second text: the error is shown inside the widget; then a good pair
        nb.page.fill(".mtw-explorer__field[data-field='text_a']", "Paris is a big city.")
        nb.page.fill(".mtw-explorer__field[data-field='text_b']", "   ")
        nb.page.click("[data-action='set-text']")
        nb.wait_for(".mtw-explorer__error:not([hidden])", timeout=30)
        assert "S2" in (nb.page.text_content(".mtw-explorer__errormessage") or "")
        nb.page.fill(".mtw-explorer__field[data-field='text_b']", "Paris is a small city.")
        nb.page.click("[data-action='set-text']")
        wait_idle(nb, "the typed pair")
        nb.wait_until("() => document.querySelector('.mtw-explorer__error').hidden", what="the error to clear")
        assert kernel_json(nb, "[explorer.source.text_a, explorer.source.text_b]") == [
            "Paris is a big city.", "Paris is a small city."
        ]
        nb.page.select_option("select.mtw-explorer__relation", "MR7.1")
        wait_idle(nb, "the swapped pair")
        assert kernel_json(nb, "[explorer.followups[0].text_a, explorer.followups[0].text_b]") == [
            "Paris is a small city.", "Paris is a big city."
        ]
        nb.screenshot("explorer_text_pair", ROOT)
        assert nb.dialogs == []
    finally:
        nb.close()


def test_explorer_on_chinese_text(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([FIXED_REWRITERS, ZH_CELL]), height=1200)
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model", timeout=120)
        wait_idle(nb, "the first render")
        assert nb.page.input_value("textarea.mtw-explorer__text") == ZH_TEXT
        # the name replaced as one jieba word, in the follow-up and in the follow-up's summary
        name = "王丽"
        assert kernel_json(nb, "explorer.followups[0].text") == ZH_TEXT.replace("刘芳", name)
        shown = changed_words(nb, ".mtw-explorer__followup")
        assert shown == {"del": ["刘芳"], "ins": [name]} == kernel_changes(nb, "explorer._followup['followups'][0]")
        card = f"{ROOT} .mtw-explorer__model[data-model='lead']"
        assert nb.page.get_attribute(card, "data-view") == "text-diff"
        summaries = texts(nb, f"{card} .mtw-explorer__textpred")
        assert summaries[0] == "source: 刘芳是上海的一名医生。"
        assert summaries[1] == f"follow-up: 刘芳{name}是上海的一名医生。"  # the struck name, then the new one
        assert changed_words(nb, f"{card} .mtw-explorer__textpred[data-side='followup']") == {"del": ["刘芳"], "ins": [name]}
        words = texts(nb, f"{card} .mtw-explorer__textpred[data-side='followup'] .mtw-explorer__word")
        assert words == ["刘芳", name, "是", "上海", "的", "一名", "医生", "。"]  # jieba's words, not characters
        assert nb.page.text_content(f"{card} .mtw-explorer__verdict") == kernel_json(nb, "explorer.verdicts['lead']")
        # another relation: the occupation, again a whole word
        nb.page.select_option("select.mtw-explorer__relation", "MR3.2")
        wait_idle(nb, "the occupation follow-up")
        shown = changed_words(nb, ".mtw-explorer__followup")
        assert shown == kernel_changes(nb, "explorer._followup['followups'][0]")
        assert shown == {"del": ["医生"], "ins": ["护士"]}
        nb.screenshot("explorer_text_zh", ROOT)
        assert nb.dialogs == []
    finally:
        nb.close()


def test_topic_heatmap_cell_drills_down_to_its_failing_rows(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([FIXED_REWRITERS, BATCH_CELL]), height=1800)
    try:
        nb.run_all()
        nb.wait_for(".mtw-batch__run")
        nb.page.click(".mtw-batch__run")
        nb.wait_for(".mtw-batch__tableview[data-state='done']", timeout=240, state="attached")
        assert kernel_json(nb, "panel.state") == "done"
        table = kernel_json(
            nb, "panel.topic_summary().query('violations > 0')[['relation', 'topic', 'violations']].to_dict('records')"
        )
        assert isinstance(table, list) and table, "the run found no violation to click on"
        counts = {(r["relation"], r["topic"]): int(r["violations"]) for r in table}

        nb.wait_until(f"() => ({CELLS})().length > 0", timeout=60, what="the topic heatmap's cells")
        cells = nb.page.evaluate(CELLS)
        clickable = [c for c in cells if (c["relation"], c["topic"]) in counts and c["width"] > 2]
        assert clickable, f"no violated cell in the heatmap: cells {cells}, counts {counts}"
        cell = max(clickable, key=lambda c: counts[(c["relation"], c["topic"])])
        relation, topic = cell["relation"], cell["topic"]
        chart = nb.page.locator(".jp-OutputArea-output .vega-embed").filter(has_text="Violation rate per topic").first
        target = chart.locator('path[aria-label*="topic: "]').nth(cell["k"])
        target.scroll_into_view_if_needed()
        target.click()

        nb.wait_until("() => (document.querySelector('.mtw-batch__filter')?.textContent || '').includes('topic')",
                      timeout=30, what="the table to filter on the clicked cell")  # fmt: skip
        shown_filter = nb.page.text_content(".mtw-batch__filter") or ""
        assert f"relation = {relation}" in shown_filter and f"topic = {topic}" in shown_filter
        selection = kernel_json(nb, "panel.selection[['relation', 'verdict', 'group']].to_dict('records')")
        assert isinstance(selection, list) and len(selection) == counts[(relation, topic)]
        assert {(r["relation"], r["verdict"]) for r in selection} == {(relation, "violation")}
        rows = nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-batch__row')].map(r => ["
            " r.querySelector('.mtw-batch__cell--relation').textContent,"
            " r.querySelector('.mtw-batch__cell--verdict').textContent,"
            " r.querySelector('.mtw-batch__cell--topic').textContent])"
        )
        assert rows == [[relation, "violation", topic]] * min(len(selection), 25)
        nb.page.mouse.move(5, 5)  # away from the chart: Vega's tooltip would cover it
        chart.scroll_into_view_if_needed()
        nb.screenshot("batch_text_topics")
        assert nb.dialogs == []
    finally:
        nb.close()
