"""Front-end tests of the Batch panel's NER views (js/batch_panel.js, js/batch_table.js) in
real Chromium: the NER column mapping, the NER table columns and the entity-marked detail,
with hostile markup in every user string."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _jsserve import js_page
from test_batch_js import CONTROLS, HOSTILE, PAGE, TABLE, _mount

from mtwidgets.core.task import get_task
from mtwidgets.ner.batch_view import detail_blocks, parts


@pytest.fixture()
def page(chromium: Any) -> Iterator[Any]:
    with js_page(chromium, "index.html", "window.ready === true", {"index.html": PAGE}) as pg:
        yield pg


NER_CONTROLS = {
    **CONTROLS,
    "columns": [
        {"name": "text", "dtype": "str"},
        {"name": "entities", "dtype": "object"},
        {"name": HOSTILE, "dtype": "str"},
    ],
    "mapping": {"mode": "ner", "text": "text", "entities": "entities"},
    "modes": [m.to_dict() for m in get_task("ner").column_modes],
    "relations_available": ["TIN-token", "TIN-question"],
    "relations": ["TIN-question"],
}
SOURCE = f"Elena Marchetti met {HOSTILE} in Rome."
NER_ROWS = [
    {
        "i": 4,
        "relation": "TIN-question",
        "model": "ner-spacy-sm",
        "verdict": "violation",
        "source": SOURCE,
        "followup": f"Did Elena Marchetti meet {HOSTILE} in Rome?",
        "source_label": "Elena Marchetti PERSON; Rome GPE",
        "followup_label": f"Elena Marchetti ORG; {HOSTILE} PERSON",
        "reason": "1 suspicious",
        "categories": "incorrect category",
    }
]
NER_VIEW = {  # what mtwidgets.ner.batch_view.ner_detail makes of a row
    "source": [["Elena Marchetti", "PERSON"], [" met ", ""], [HOSTILE, HOSTILE], [" in Rome.", ""]],
    "followup": [["Did ", ""], ["Elena Marchetti", "ORG"], [f" meet {HOSTILE} in Rome?", ""]],
    "gold": [["Elena Marchetti", "PERSON"], [f" met {HOSTILE} in ", ""], ["Rome", "GPE"], [".", ""]],
    "judged": True,
    "suspicious": [
        {
            "text": HOSTILE,
            "source": "PERSON",
            "followup": "ORG",
            "kind": "label",
            "suggests": "incorrect category",
            "source_category": "correct",
            "followup_category": "incorrect category",
        }
    ],
}
NER_DETAIL = {
    "i": 4,
    "group": "TIN-question/0/0",
    "relation": "TIN-question",
    "model": "ner-spacy-sm",
    "verdict": "violation",
    "reason": "1 suspicious",
    "note": "question (do-support)",
    "expected": "same predictions",
    "seed": 0,
    "source_diff": [["same", SOURCE]],
    "followup_diff": [["ins", "Did "], ["same", "Elena Marchetti"]],
    "other_sources": [],
    "source_output": {"label": "", "scores": []},
    "followup_output": {"label": "", "scores": []},
    "extra": detail_blocks(NER_VIEW),  # the generic blocks the panel sends
}


def test_ner_mapping_shows_text_and_optional_gold_column(page: Any) -> None:
    _mount(page, "panel", NER_CONTROLS)
    assert page.locator("select.mtw-batch__mode").count() == 0  # one mode: nothing to choose
    # the mode's title as the task declares it
    assert page.locator(".mtw-batch__mode").text_content() == get_task("ner").column_modes[0].title
    labels = page.locator(".mtw-batch__mapping label").all_text_contents()
    assert labels == ["data", "text", "entities (optional)"]
    assert page.locator(".mtw-batch__col--entities option").all_text_contents() == [
        "(none)",
        "text",
        "entities",
        HOSTILE,
    ]
    page.select_option(".mtw-batch__col--entities", "")
    assert page.evaluate("() => window.model.state.mapping") == {
        "mode": "ner",
        "text": "text",
        "entities": "",
    }
    assert page.locator("img").count() == 0
    assert page.evaluate("() => window.alerts") == []


def test_ner_table_columns_and_entity_marked_detail_render_literally(page: Any) -> None:
    columns = [c.to_dict() for c in parts().columns()]  # as the panel sends them
    _mount(page, "table", {**TABLE, "rows": [], "total": 0, "columns": columns})
    heads = page.locator(".mtw-batch__table th").all_text_contents()
    assert heads[5:8] == ["source entities", "follow-up entities", "error categories"]  # before any row
    page.evaluate(
        f"() => {{ window.model.set('rows', {json.dumps(NER_ROWS)}); window.model.set('total', 1); }}"
    )
    assert page.locator(".mtw-batch__table th").all_text_contents() == heads
    row = page.locator(".mtw-batch__row").first
    assert (
        row.locator(".mtw-batch__cell--followup_label").text_content()
        == f"Elena Marchetti ORG; {HOSTILE} PERSON"
    )
    assert row.locator(".mtw-batch__cell--categories").text_content() == "incorrect category"
    page.evaluate(f"() => window.model.set('detail', {json.dumps(NER_DETAIL)})")
    source = page.locator(".mtw-batch__ents--source")
    assert source.text_content() == SOURCE.replace(HOSTILE, HOSTILE + HOSTILE).replace(
        "Marchetti", "MarchettiPERSON", 1
    )
    marks = source.locator(".mtw-batch__ent")
    assert marks.count() == 2
    assert marks.nth(1).locator(".mtw-batch__ent-text").text_content() == HOSTILE
    assert marks.nth(1).get_attribute("data-label") == HOSTILE
    gold = page.locator(".mtw-batch__ents--gold .mtw-batch__ent-label").all_text_contents()
    assert gold == ["PERSON", "GPE"]
    suspect = page.locator(".mtw-batch__suspect").first
    assert suspect.locator(".mtw-batch__suspect-text").text_content() == HOSTILE
    assert suspect.locator(".mtw-batch__suspect-category").text_content() == (
        "source correct, follow-up incorrect category"
    )
    assert page.locator(".mtw-batch__score").count() == 0  # NER outputs are the entities, not scores
    assert page.locator("img").count() == 0
    page.wait_for_timeout(50)
    assert page.evaluate("() => window.alerts") == []
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.count()") == 0
