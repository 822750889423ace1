"""The Explorer in a real JupyterLab: what a person does with the mouse, checked against the
kernel.

Each test drives the DOM contract of ``js/explorer.js`` (root ``.mtw-explorer`` with
``data-busy``, tokens ``.mtw-explorer__token[data-i]`` with ``data-role``, the relation
picker, the follow-up and one ``.mtw-explorer__model`` per model with its verdict badge)
and then asks the kernel what it holds, so a view that drifts from the engine fails here.
"""

from __future__ import annotations

import json

from lab import Lab, NotebookPage, assert_legible_in_both_themes

SENTENCE = "Omar's mother, Nasreen, was a schoolteacher in Karachi."
# Loaded with other marks than the ones the test clicks, so the clicks must change them.
MARKUP = "[[Omar|PERSON]]'s mother, Nasreen, was a schoolteacher in <<Karachi|CITY>>."
ROOT = ".mtw-explorer"
IDLE = ".mtw-explorer[data-busy='0']"


def explorer_cell(models: str = "None") -> str:
    return f"import mtwidgets as mt\nexplorer = mt.Explorer(models={models}, data={[MARKUP]!r}, seed=0)\nexplorer"


def wait_idle(nb: NotebookPage, what: str) -> None:
    """Wait for the kernel's reply to the last action to be rendered (``data-busy`` back to 0)."""
    nb.wait_until(f"() => document.querySelector({IDLE!r}) !== null", timeout=60, what=what)


def rendered_models(nb: NotebookPage) -> dict[str, dict[str, str]]:
    return dict(
        nb.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.mtw-explorer__model')].map(m => [m.dataset.model, {"
            " verdict: m.querySelector('.mtw-explorer__verdict').dataset.verdict,"
            " badge: m.querySelector('.mtw-explorer__verdict').textContent,"
            " reason: m.querySelector('.mtw-explorer__reason').textContent}]))"
        )
    )


def roles(nb: NotebookPage, selector: str) -> list[tuple[str, str]]:
    """(text, role) of every element under ``selector`` that carries a role."""
    return [
        (text.strip(), role)
        for text, role in nb.page.evaluate(
            "(sel) => [...document.querySelectorAll(sel)].filter(e => e.dataset.role)"
            ".map(e => [e.textContent, e.dataset.role])",
            selector,
        )
    ]


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}))"))


def test_marking_tokens_and_choosing_mr_s2_renders_the_verdicts_the_kernel_holds(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([explorer_cell()]))
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__token")
        assert roles(nb, ".mtw-explorer__token") == [("Omar", "head"), ("Karachi", "tail")]

        nb.page.click("[data-action='clear']")
        wait_idle(nb, "the marks to be cleared")
        assert roles(nb, ".mtw-explorer__token") == []
        nb.page.click("[data-action='mode-head']")
        nb.page.click(".mtw-explorer__token[data-i='0']")  # Omar
        wait_idle(nb, "the head mark")
        # After the head, the mode moves on to the tail: the next click marks the tail.
        assert nb.page.get_attribute("[data-action='mode-tail']", "aria-pressed") == "true"
        nb.page.click(".mtw-explorer__token[data-i='4']")  # Nasreen
        wait_idle(nb, "the tail mark")
        assert roles(nb, ".mtw-explorer__token") == [("Omar", "head"), ("Nasreen", "tail")]
        assert kernel_json(nb, "[explorer.source.head.start, explorer.source.head.end, explorer.source.tail.start, "
                               "explorer.source.tail.end]") == [0, 4, 15, 22]  # fmt: skip

        nb.page.select_option("select.mtw-explorer__relation", "MR-S2")
        wait_idle(nb, "the MR-S2 follow-up and verdicts")
        # MR-S2 swaps the arguments: the follow-up keeps the text with head and tail exchanged.
        assert roles(nb, ".mtw-explorer__followup .mtw-explorer__word") == [
            ("Omar", "tail"),
            ("Nasreen", "head"),
        ]
        followup_text = nb.page.text_content(".mtw-explorer__followup") or ""
        assert " ".join(followup_text.split()) == SENTENCE
        assert kernel_json(nb, "explorer.relation") == "MR-S2"
        followups = kernel_json(
            nb, "[[f.text, f.head.start, f.head.end, f.tail.start, f.tail.end] for f in explorer.followups]"
        )
        assert followups == [[SENTENCE, 15, 22, 0, 4]]

        shown = rendered_models(nb)
        verdicts = kernel_json(nb, "explorer.verdicts")
        reasons = kernel_json(nb, "{m['name']: m['reason'] for m in explorer._models}")
        assert set(shown) == {"re-patterns", "re-minilm"}
        assert {m: v["verdict"] for m, v in shown.items()} == verdicts
        assert {m: v["reason"] for m, v in shown.items()} == reasons
        for name, v in shown.items():
            assert v["verdict"] in {"pass", "violation", "not_applicable"}, (name, v)
            assert v["badge"] == v["verdict"].replace("_", " ")
            # Both models read the source as per:parents; MR-S2 expects the inverse label.
            assert "per:parents -> inverse: expected per:children" in v["reason"], (name, v)
        nb.screenshot("explorer_mr_s2", ROOT)
        nb.screenshot("explorer_mr_s2_page")
        assert nb.dialogs == []
    finally:
        nb.close()


HOSTILE = '<img src=x onerror=alert(1)> met <b>Bob</b> & "Eve" <script>alert(2)</script>'


def test_hostile_html_in_the_text_renders_literally_and_runs_nothing(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([explorer_cell("['re-patterns']")]))
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__token")
        nb.page.fill("textarea.mtw-explorer__text", HOSTILE)
        nb.page.click("[data-action='set-text']")
        wait_idle(nb, "the hostile text to be tokenized")
        nb.wait_until("() => [...document.querySelectorAll('.mtw-explorer__token')].some(t => t.textContent.includes('img'))",
                      what="the new tokens")  # fmt: skip
        assert kernel_json(nb, "explorer._input['text']") == HOSTILE
        # Every character is shown as text: the tokens joined with their spaces give the input back.
        shown = nb.page.evaluate("() => document.querySelector('.mtw-explorer__tokens').textContent")
        assert shown == HOSTILE
        # Mark the tag-like tokens too, so the marks and the model views render the text as well.
        nb.page.click("[data-action='mode-head']")
        nb.page.click(".mtw-explorer__token[data-i='0']")
        wait_idle(nb, "the head mark on hostile text")
        nb.page.wait_for_timeout(300)  # time for an injected onerror handler to fire, were there one
        counts = nb.page.evaluate(
            "() => ({img: document.querySelectorAll('.mtw-explorer img, .mtw-explorer script, .mtw-explorer b').length,"
            " stray: document.querySelectorAll('img[src=\"x\"]').length})"
        )
        assert counts == {"img": 0, "stray": 0}
        assert nb.dialogs == []
        nb.screenshot("explorer_hostile", ROOT)
    finally:
        nb.close()


def test_the_view_renders_from_widget_state_saved_with_the_notebook(lab: Lab) -> None:
    path = lab.write_notebook([explorer_cell("['re-patterns']")])
    nb = lab.open(path)
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__token")
        nb.execute(
            "explorer.clear(); explorer.mark('head', 0, 4); explorer.mark('tail', 15, 22); explorer.relation = 'MR-S2'"
        )
        nb.wait_until("() => [...document.querySelectorAll('.mtw-explorer__followup [data-role]')].length === 2",
                      what="the MR-S2 follow-up")  # fmt: skip
        before = {
            "tokens": roles(nb, ".mtw-explorer__token"),
            "followup": roles(nb, ".mtw-explorer__followup .mtw-explorer__word"),
            "models": rendered_models(nb),
            "relation": nb.page.input_value("select.mtw-explorer__relation"),
        }
        assert before["relation"] == "MR-S2" and before["models"]
        saved = nb.save()
    finally:
        nb.close()  # the kernel goes away: only the notebook file remains

    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    explorers = [m for m in state.values() if "_models" in m["state"] and "_input" in m["state"]]
    assert len(explorers) == 1, "the Explorer's model state was not saved with the notebook"
    assert explorers[0]["state"]["relation"] == "MR-S2"

    reopened = lab.open(path)
    try:
        reopened.wait_for(f"{ROOT} .mtw-explorer__model")
        after = {
            "tokens": roles(reopened, ".mtw-explorer__token"),
            "followup": roles(reopened, ".mtw-explorer__followup .mtw-explorer__word"),
            "models": rendered_models(reopened),
            "relation": reopened.page.input_value("select.mtw-explorer__relation"),
        }
        assert after == before
        # Rendered from the file alone: the fresh kernel never ran the cell.
        assert reopened.execute("print('explorer' in globals())").strip() == "False"
        reopened.screenshot("explorer_reopened", ROOT)
    finally:
        reopened.close()


# What a user must read, in both themes, at WCAG AA for normal text (4.5:1): plain tokens,
# the relation picker, the reasons, the coloured head/tail marks and the verdict badges.
LEGIBLE = (
    ".mtw-explorer__token:not([data-role])",
    "select.mtw-explorer__relation",
    ".mtw-explorer__reason",
    ".mtw-explorer__token[data-role='head']",
    ".mtw-explorer__token[data-role='tail']",
    ".mtw-explorer__verdict",
)


def test_the_explorer_is_legible_in_the_light_and_the_dark_theme(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([explorer_cell("['re-patterns']")]))
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model")
        assert_legible_in_both_themes(nb, LEGIBLE, "explorer", ROOT)
    finally:
        nb.close()
