"""The Explorer on NER in a real JupyterLab, with the embedded spaCy models: gold marked
with the mouse, spans coloured per label, suspicious entities and the repaired
prediction on screen, each checked against what the kernel holds."""

from __future__ import annotations

import json

from lab import Lab, NotebookPage, assert_legible_in_both_themes

from mtwidgets.ner.explorer_view import LABEL_COLORS

SENTENCE = "The European Commission fined Nordvik Telecom 240 million euros for blocking rival networks."
GOLD = [(4, 23, "ORG"), (30, 45, "ORG"), (46, 63, "MONEY")]
ROOT = ".mtw-explorer"
IDLE = ".mtw-explorer[data-busy='0']"
CELL = (
    "import mtwidgets as mt\nfrom mtwidgets.ner import NERInput\n"
    f"explorer = mt.Explorer(data=[NERInput({SENTENCE!r}, {GOLD!r})], relations=['TIN-question', 'TIN-token'])\n"
    "explorer"
)


def wait_idle(nb: NotebookPage, what: str, timeout: float = 90) -> None:
    nb.wait_until(f"() => document.querySelector({IDLE!r}) !== null", timeout=timeout, what=what)


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}))"))


def labelled_tokens(nb: NotebookPage) -> list[list[str]]:
    return list(
        nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-explorer__token[data-label]')]"
            ".map(t => [t.textContent, t.dataset.label, getComputedStyle(t).getPropertyValue('--mtw-label').trim()])"
        )
    )


def card_entities(nb: NotebookPage, model: str, selector: str) -> list[list[str]]:
    """(text, label) of the entity pieces under ``selector`` in one model's card."""
    return list(
        nb.page.evaluate(
            "([m, sel]) => [...document.querySelectorAll(`.mtw-explorer__model[data-model='${m}'] ${sel}`)]"
            ".map(e => [e.firstChild.textContent, e.dataset.label])",
            [model, selector],
        )
    )


def test_gold_marking_label_colours_suspicious_entities_and_repair_match_the_kernel(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([CELL]))
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model", timeout=120)
        wait_idle(nb, "the first render")
        org, money = LABEL_COLORS["ORG"], LABEL_COLORS["MONEY"]
        assert labelled_tokens(nb) == [
            ["European", "ORG", org],
            ["Commission", "ORG", org],
            ["Nordvik", "ORG", org],
            ["Telecom", "ORG", org],
            ["240", "MONEY", money],
            ["million", "MONEY", money],
            ["euros", "MONEY", money],
        ]

        # remove the MONEY gold entity with its chip's x, then mark it again by dragging
        nb.page.click(".mtw-explorer__chip[data-key='46:63'] [data-action='remove-entity']")
        wait_idle(nb, "the gold entity to be removed")
        assert [t[0] for t in labelled_tokens(nb)] == ["European", "Commission", "Nordvik", "Telecom"]
        assert kernel_json(nb, "[[s.start, s.end, s.label] for s in explorer.source.gold]") == [
            [4, 23, "ORG"],
            [30, 45, "ORG"],
        ]
        nb.page.select_option("select.mtw-explorer__newlabel", "MONEY")
        ids = nb.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.mtw-explorer__token')].map(t => [t.textContent, t.dataset.i]))"
        )
        nb.page.hover(f".mtw-explorer__token[data-i='{ids['240']}']")
        nb.page.mouse.down()
        nb.page.hover(f".mtw-explorer__token[data-i='{ids['euros']}']")
        nb.page.mouse.up()
        wait_idle(nb, "the dragged gold entity")
        assert kernel_json(nb, "[[s.start, s.end, s.label] for s in explorer.source.gold]") == [
            list(g) for g in GOLD
        ]

        # TIN-question: the question moves "fined" -> "Did ... fine"; the small pipeline
        # reads the money amount differently in the question (the first repair loads
        # word vectors and MiniLM: allow for it)
        nb.page.select_option("select.mtw-explorer__relation", "TIN-question")
        wait_idle(nb, "the question, the verdicts and the repair", timeout=180)
        verdicts = kernel_json(nb, "explorer.verdicts")
        shown = nb.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.mtw-explorer__model')]"
            ".map(m => [m.dataset.model, m.querySelector('.mtw-explorer__verdict').dataset.verdict]))"
        )
        assert shown == verdicts and verdicts["ner-spacy-sm"] == "violation"
        suspicious = kernel_json(
            nb,
            "{m: sorted({explorer.source.text[s.source_span.start:s.source_span.end] for s in v}) "
            "for m, v in explorer.suspicious.items()}",
        )
        assert suspicious["ner-spacy-sm"], "a violation names its suspicious entities"
        flagged = card_entities(
            nb, "ner-spacy-sm", ".mtw-explorer__entline[data-side='source'] [data-suspicious]"
        )
        assert flagged and all(any(t in s or s in t for s in suspicious["ner-spacy-sm"]) for t, _ in flagged)
        items = nb.page.locator(".mtw-explorer__model[data-model='ner-spacy-sm'] .mtw-explorer__suspect")
        listed = kernel_json(nb, "[s.text for s in explorer.suspicious['ner-spacy-sm']]")
        assert isinstance(listed, list) and items.count() == len(listed)
        assert [
            t.split('"')[1] for t in items.locator(".mtw-explorer__suspecttext").all_text_contents()
        ] == listed

        # the repaired prediction beside the original, as the kernel's repairs say
        repair = nb.page.locator(".mtw-explorer__model[data-model='ner-spacy-sm'] .mtw-explorer__repair")
        assert repair.get_attribute("data-status") == "done"
        repaired = kernel_json(
            nb,
            "[[explorer.followups[0].text[s.start:s.end], s.label] for s in explorer.repairs['ner-spacy-sm']['followup']]",
        )
        on_screen = card_entities(
            nb,
            "ner-spacy-sm",
            ".mtw-explorer__repair .mtw-explorer__entline[data-side='followup'] .mtw-explorer__ent",
        )
        assert on_screen == repaired
        nb.screenshot("explorer_ner_question", ROOT)
        nb.screenshot("explorer_ner_repair", ".mtw-explorer__model[data-model='ner-spacy-sm']")
        assert nb.dialogs == []
    finally:
        nb.close()


HOSTILE = "<img src=x onerror=alert(1)> Nordvik Telecom fined <b>Acme</b> in Oslo."


def test_hostile_text_in_an_ner_explorer_renders_literally(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([CELL.replace("'TIN-question', 'TIN-token'", "'TIN-question'")]))
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__model", timeout=120)
        nb.page.fill("textarea.mtw-explorer__text", HOSTILE)
        nb.page.click("[data-action='set-text']")
        wait_idle(nb, "the hostile text")
        nb.wait_until(
            "() => document.querySelector('.mtw-explorer__tokens').textContent.includes('onerror')",
            what="the new tokens",
        )
        nb.page.wait_for_timeout(300)
        assert (
            nb.page.evaluate("() => document.querySelector('.mtw-explorer__tokens').textContent") == HOSTILE
        )
        lines = nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-explorer__entline[data-side=source]')]"
            ".map(l => [...l.childNodes].slice(1).map(n => n.firstChild && n.nodeType === 1 ? n.firstChild.textContent : n.textContent).join(''))"
        )
        assert lines and all(line == HOSTILE for line in lines)
        assert (
            nb.page.evaluate("() => document.querySelectorAll('.mtw-explorer img, .mtw-explorer b').length")
            == 0
        )
        assert nb.dialogs == []
    finally:
        nb.close()


LEGIBLE = (
    ".mtw-explorer__token[data-label='ORG']",
    ".mtw-explorer__token[data-label='MONEY']",
    ".mtw-explorer__ent[data-label='ORG']",
    ".mtw-explorer__ent[data-label='MONEY'] .mtw-explorer__tag",
    ".mtw-explorer__chip .mtw-explorer__marktext",
)


def test_label_colours_keep_entity_text_legible_in_both_themes(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([CELL.replace("'TIN-question', 'TIN-token'", "'TIN-question'")]))
    try:
        nb.run_all()
        nb.wait_for(f"{ROOT} .mtw-explorer__ent", timeout=120)
        assert_legible_in_both_themes(nb, LEGIBLE, "explorer_ner", ROOT)
    finally:
        nb.close()
