"""Marking the word to replace in a real JupyterLab: the Explorer on a sentence pair (a click
on a word in S2's token strip makes MR2.1 replace that country in both texts; a click on the
marked word, or Clear, unmarks it; a word the rewriter does not replace makes the relation
not applicable with a reason naming it; MR7.1 ignores the mark and the hint says so), and on
Chinese text (the strip lists jieba's words, a word is marked from the keyboard too). Every
on-screen value is checked against what the kernel holds.
"""

from __future__ import annotations

import json

from lab import Lab, NotebookPage

# Fixed rewrites (the widgets are tested here, not the lexicons): one rewrite per listed word
# found, every mention of it replaced; a word listed with None is refused with its reason.
FIXED_REWRITERS = """
import re
from mtwidgets.text import en, zh
from mtwidgets.text.rewrite import Replacement, Rewrite, Rewrites, apply_replacements

def sites(pairs, what):
    def rewrite(text, *, rng=None, k=1):
        out, why = [], []
        for old, new in pairs.items():
            starts = [m.start() for m in re.finditer(re.escape(old), text)]
            if not starts:
                continue
            if new is None:
                why.append(f"no reviewed {what} for {old!r}")
                continue
            reps = tuple(Replacement(i, i + len(old), old, new) for i in starts)
            out.append(Rewrite(apply_replacements(text, reps), f"{what} {old!r} -> {new!r}", reps))
        return Rewrites(out[:k], "; ".join(why) or (None if out else f"no {what} of the test's list"))
    return rewrite

for table in (en.REWRITERS, zh.REWRITERS):
    table.update(country=sites({"France": "Chile", "Germany": "Peru", "Europe": None}, "country"),
                 occupation=sites({"医生": "护士", "老师": "教授"}, "occupation"))
"""
ROOT = ".mtw-explorer"
IDLE = ".mtw-explorer[data-busy='0']"
S1 = "France and Germany signed the deal in Europe."
S2 = "Germany praised <b>France</b> on Monday."
PAIR_CELL = f"""
import mtwidgets as mt
from mtwidgets.text.inputs import SimilarityInput

def jaccard(x):
    a, b = set(x.text_a.lower().split()), set(x.text_b.lower().split())
    return len(a & b) / len(a | b)

explorer = mt.Explorer(data=[SimilarityInput({S1!r}, {S2!r})], models={{"jaccard": jaccard}}, relations=["MR2.1", "MR7.1"])
explorer
"""
ZH_TEXT = "刘芳是上海的一名医生。她的哥哥是一名老师。"
ZH_CELL = f"""
import mtwidgets as mt
from mtwidgets.text.inputs import ClassificationInput

explorer = mt.Explorer(data=[ClassificationInput({ZH_TEXT!r})], models={{"size": lambda x: "long" if len(x.text) > 20 else "short"}}, relations=["MR3.3"])
explorer
"""


def wait_idle(nb: NotebookPage, what: str, timeout: float = 90) -> None:
    nb.wait_until(f"() => document.querySelector({IDLE!r}) !== null", timeout=timeout, what=what)


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str, ensure_ascii=False))"))


def strip(nb: NotebookPage, field: str) -> list[list[str]]:
    """The tokens of a field's strip as ``[text, marked]`` ("1" or "")."""
    return nb.page.evaluate(
        "(f) => [...document.querySelectorAll(`.mtw-explorer__wordslot[data-field='${f}'] .mtw-explorer__token`)]"
        ".map(t => [t.textContent, t.dataset.marked || ''])",
        field,
    )


def token(field: str, text: str) -> str:
    return f".mtw-explorer__wordslot[data-field='{field}'] .mtw-explorer__token:text-is('{text}')"


def click(nb: NotebookPage, selector: str, what: str) -> None:
    nb.page.click(selector)
    wait_idle(nb, what)


def todo(nb: NotebookPage) -> str:
    return nb.page.text_content(".mtw-explorer__todo") or ""


def test_a_word_marked_in_s2_is_the_one_replaced_in_both_texts(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([FIXED_REWRITERS, PAIR_CELL]), height=1200)
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model", timeout=120)
        wait_idle(nb, "the first render")
        # a strip under each box: the kernel's tokens, nothing marked; hostile HTML stays text
        fields = kernel_json(nb, "explorer._input['fields']")
        assert isinstance(fields, list)
        for f in fields:
            assert strip(nb, f["name"]) == [[t["text"], ""] for t in f["tokens"]]
        assert [t for t, _ in strip(nb, "text_b")][:5] == ["Germany", "praised", "<", "b", ">"]
        assert nb.page.evaluate("() => document.querySelectorAll('.mtw-explorer b, .mtw-explorer img').length") == 0
        assert todo(nb).startswith("optional: click a word to mark it for MR1.1-MR6.1 to replace")
        assert nb.page.is_disabled(f"{ROOT} .mtw-explorer__modes [data-action='clear']")  # nothing to clear yet
        unmarked = kernel_json(nb, "[explorer.followups[0].text_a, explorer.followups[0].text_b]")
        assert unmarked in ([S1.replace(a, b), S2.replace(a, b)] for a, b in (("France", "Chile"), ("Germany", "Peru")))

        # click "Germany" in S2: MR2.1 now replaces Germany, in both texts
        click(nb, token("text_b", "Germany"), "the mark in S2")
        assert kernel_json(nb, "explorer.source.focus") == ["text_b", 0, 7]
        assert strip(nb, "text_b")[0] == ["Germany", "1"] and all(m == "" for _, m in strip(nb, "text_a"))
        assert kernel_json(nb, "[explorer.followups[0].text_a, explorer.followups[0].text_b]") == [
            S1.replace("Germany", "Peru"), S2.replace("Germany", "Peru")
        ]
        shown = [t.strip() for t in nb.page.locator(".mtw-explorer__followup ins").all_text_contents()]
        assert shown == ["Peru", "Peru"]
        assert todo(nb) == kernel_json(nb, "explorer._input['todo']")
        assert todo(nb).startswith("MR2.1 will replace 'Germany' (marked in S2), or say below why not")
        # the marked word is shown in the source's S2 words
        marked = nb.page.locator(".mtw-explorer__sources .mtw-explorer__word[data-role='text_b']").all_text_contents()
        assert [w.strip() for w in marked] == ["Germany"]
        assert nb.page.is_enabled(f"{ROOT} .mtw-explorer__modes [data-action='clear']")
        nb.screenshot("explorer_text_focus_marked", ROOT)

        # a click on the marked word unmarks it: back to the first candidate
        click(nb, token("text_b", "Germany"), "the unmark")
        assert kernel_json(nb, "explorer.source.focus") is None
        assert all(m == "" for _, m in strip(nb, "text_b"))
        assert kernel_json(nb, "[explorer.followups[0].text_a, explorer.followups[0].text_b]") == unmarked

        # a word the rewriter refuses: not applicable, and why, naming the word
        click(nb, token("text_a", "Europe"), "the refused word")
        reason = kernel_json(nb, "explorer._followup['not_applicable']")
        assert isinstance(reason, str)
        assert "the word 'Europe' marked in S1 is not replaced: no reviewed country for 'Europe'" in reason
        assert nb.page.text_content(".mtw-explorer__followup .mtw-explorer__empty") == reason
        card = f"{ROOT} .mtw-explorer__model[data-model='jaccard']"
        assert nb.page.text_content(f"{card} .mtw-explorer__verdict") == "not applicable"

        # MR7.1 ignores the mark, and the hint says so; Clear unmarks
        nb.page.select_option("select.mtw-explorer__relation", "MR7.1")
        wait_idle(nb, "the swap")
        assert todo(nb).startswith("MR7.1 swaps S1 and S2 and ignores 'Europe' (marked in S1)")
        assert kernel_json(nb, "[explorer.followups[0].text_a, explorer.followups[0].text_b]") == [S2, S1]
        click(nb, f"{ROOT} .mtw-explorer__modes [data-action='clear']", "the clear button")
        assert kernel_json(nb, "explorer.source.focus") is None
        assert all(m == "" for f in ("text_a", "text_b") for _, m in strip(nb, f))
        nb.screenshot("explorer_text_focus_pair", ROOT)
        assert nb.dialogs == []
    finally:
        nb.close()


def test_chinese_words_are_marked_as_jieba_cuts_them(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([FIXED_REWRITERS, ZH_CELL]), height=1000)
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__wordslot .mtw-explorer__token", timeout=120)
        wait_idle(nb, "the first render")
        # jieba's words, as the kernel's parts cut them (never characters)
        words = kernel_json(nb, "[t.text for t in __import__('mtwidgets.text.explorer_view', fromlist=['x']).text_tokens(explorer.source.text)]")
        assert [t for t, _ in strip(nb, "one")] == words
        assert "医生" in words and "老师" in words
        assert kernel_json(nb, "explorer.followups[0].text") == ZH_TEXT.replace("医生", "护士")
        # mark 老师 from the keyboard: the occupation replaced is that one
        nb.page.focus(token("one", "老师"))
        nb.page.keyboard.press("Enter")
        wait_idle(nb, "the keyboard mark")
        start = ZH_TEXT.index("老师")
        assert kernel_json(nb, "explorer.source.focus") == ["text", start, start + 2]
        assert kernel_json(nb, "explorer.followups[0].text") == ZH_TEXT.replace("老师", "教授")
        assert [t for t, m in strip(nb, "one") if m] == ["老师"]
        assert todo(nb).startswith("MR3.3 will replace '老师' (marked)")
        shown = [t.strip() for t in nb.page.locator(".mtw-explorer__followup ins").all_text_contents()]
        assert shown == ["教授"]
        # Escape unmarks
        nb.page.focus(token("one", "刘芳"))
        nb.page.keyboard.press("Escape")
        wait_idle(nb, "the unmark")
        assert kernel_json(nb, "explorer.source.focus") is None
        nb.screenshot("explorer_text_focus_zh", ROOT)
        assert nb.dialogs == []
    finally:
        nb.close()
