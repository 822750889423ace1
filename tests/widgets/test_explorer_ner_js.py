"""Front-end unit tests of js/explorer.js with NER's parts (the "spans" mark view and the
"entity-inspector" extra view), in real Chromium, against the fake
model object: gold chips and label colours, the messages marking sends, and the model
cards' entity pieces (suspicious, repaired, judged against gold), all as literal text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _jsserve import mount_explorer, split_tokens

HOSTILE = "<img src=x onerror=alert(1)>"
TEXT = f"Ann joined Acme in {HOSTILE} today."
COLORS = {"PERSON": "#3b82f6", "ORG": "#8b5cf6", "GPE": "#22c55e", "bad": "red;background:url(x)"}


def piece(text: str, label: str | None = None, **flags: Any) -> dict[str, Any]:
    return {"text": text} if label is None and not flags else {"text": text, "label": label, **flags}


NER_VIEW = {
    "has_gold": True,
    "source": [
        piece("Ann", "PERSON", wrong=False),
        piece(" joined "),
        piece("Acme", "ORG", suspicious=True, wrong=False),
    ],
    "followup": [
        piece("Did "),
        piece("Ann", "PERSON", wrong=False),
        piece(" join "),
        piece("Acme", "PERSON", suspicious=True, wrong=True),
        piece("?"),
    ],
    "suspicious": [
        {
            "text": "Acme",
            "source": "ORG",
            "followup": "partial: 'Acme in' PERSON",
            "kind": "range",
            "suggests": "range error",
            "source_category": "correct",
            "followup_category": "range error",
        }
    ],
    "repair": {
        "status": "done",
        "source": [piece("Ann", "PERSON"), piece(" joined "), piece("Acme", "ORG")],
        "followup": [
            piece("Did "),
            piece("Ann", "PERSON"),
            piece(" join "),
            piece("Acme", "ORG", changed=True),
            piece("?"),
        ],
        "relabels": [
            {
                "side": "follow-up",
                "entity": "Acme",
                "decided": True,
                "label": "ORG",
                "votes": [["ORG", 3.5], ["NULL", 0.2]],
                "mutants": 4,
            },
            {"side": "source", "entity": HOSTILE, "decided": False, "label": None, "votes": [], "mutants": 0},
        ],
    },
}

STATE: dict[str, Any] = {
    "_input": {
        "mark_view": "spans",
        "text": TEXT,
        "tokens": split_tokens(TEXT),
        "marks": {
            "0:3": {"start": 0, "end": 3, "label": "PERSON", "inferred": "PERSON", "text": "Ann"},
            "11:15": {"start": 11, "end": 15, "label": "ORG", "inferred": None, "text": "Acme"},
        },
        "roles": ["entity"],
        "types": ["PERSON", "ORG", "GPE"],
        "colors": COLORS,
        "suggestions": [{"start": 0, "end": 3, "label": "PERSON", "text": "Ann"}],
        "todo": "click or drag to add gold entities",
        "row": 0,
        "n_rows": 1,
    },
    "_rows": [{"i": 0, "text": TEXT}],
    "_relations": [
        {
            "name": "TIN-question",
            "category": "structural",
            "description": "Question.",
            "expected": "MR2",
            "paper": "TIN",
            "enabled": True,
            "reason": "",
        },
    ],
    "_followup": {
        "relation": "TIN-question",
        "seed": 0,
        "candidate": 0,
        "n_candidates": 1,
        "note": "question",
        "edited": False,
        "not_applicable": None,
        "texts": ["Did Ann join Acme?"],
        "sources": [[]],
        "followups": [
            [
                {"text": "Did", "ws": " ", "role": None, "label": None, "op": "ins"},
                {"text": "Ann", "ws": " ", "role": "0:3", "label": "PERSON", "op": "eq"},
            ]
        ],
    },
    "_models": [
        {
            "name": "m",
            "verdict": "violation",
            "reason": "1 suspicious",
            "expected": "MR2",
            "view": "spans",
            "source": [],
            "followup": [],
            "extra": {"view": "entity-inspector", "replaces": True, "data": NER_VIEW},
        },
        {
            "name": "quiet",
            "verdict": "pass",
            "reason": "ok",
            "expected": "MR2",
            "view": "spans",
            "source": [],
            "followup": [],
            "extra": {"view": "entity-inspector", "replaces": True, "data": {**NER_VIEW, "suspicious": [], "repair": None}},
        },
    ],
    "_error": {},
    "_saved": 0,
}


@pytest.fixture()
def page(explorer_page: Any) -> Any:
    return explorer_page


def _mount(page: Any, state: dict[str, Any] = STATE) -> None:
    mount_explorer(page, state)


def _sent(page: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in m.items() if k != "id"} for m in page.evaluate("() => window.model.sent")]


def test_gold_tokens_and_chips_carry_their_label_and_colour(page: Any) -> None:
    _mount(page)
    got = page.evaluate(
        "() => [...document.querySelectorAll('.mtw-explorer__token[data-label]')].map(t => "
        "[t.textContent, t.dataset.label, t.dataset.role, getComputedStyle(t).getPropertyValue('--mtw-label').trim()])"
    )
    assert got == [["Ann", "PERSON", "entity", "#3b82f6"], ["Acme", "ORG", "entity", "#8b5cf6"]]
    chips = page.locator(".mtw-explorer__chip")
    assert chips.count() == 2
    assert chips.nth(1).locator("select.mtw-explorer__type").input_value() == "ORG"
    assert page.locator('[data-action="mode-entity"]').get_attribute("aria-pressed") == "true"
    follow = page.locator(".mtw-explorer__followup .mtw-explorer__word[data-label]")
    assert follow.count() == 1 and follow.get_attribute("data-role") == "entity"


def test_marking_sends_the_chosen_label_and_chips_remove_and_relabel(page: Any) -> None:
    _mount(page)
    page.locator('.mtw-explorer__token[data-i="3"]').click()  # no label chosen: spaCy's ("auto")
    page.locator("select.mtw-explorer__newlabel").select_option("GPE")
    page.locator('.mtw-explorer__token[data-i="4"]').click()
    page.locator('.mtw-explorer__chip[data-key="11:15"] [data-action="remove-entity"]').click()
    page.locator('.mtw-explorer__chip[data-key="0:3"] select').select_option("ORG")
    page.locator(".mtw-explorer__suggestion").click()
    assert _sent(page) == [
        {"kind": "mark", "role": "entity", "start": 16, "end": 18},
        {"kind": "mark", "role": "entity", "start": 19, "end": 23, "label": "GPE"},
        {"kind": "clear", "role": "11:15"},
        {"kind": "set_type", "role": "0:3", "label": "ORG"},
        {"kind": "mark", "role": "entity", "start": 0, "end": 3, "label": "PERSON"},
    ]


def test_cards_flag_suspicious_entities_judge_them_and_show_the_repair_beside(page: Any) -> None:
    _mount(page)
    m = page.locator('.mtw-explorer__model[data-model="m"]')
    assert m.locator(".mtw-explorer__bar").count() == 0  # spans, not score bars, for NER
    src = m.locator(".mtw-explorer__inspector > .mtw-explorer__entline[data-side='source'] .mtw-explorer__ent")
    assert src.evaluate_all(
        "es => es.map(e => [e.firstChild.textContent, e.dataset.label, e.dataset.suspicious || ''])"
    ) == [
        ["Ann", "PERSON", ""],
        ["Acme", "ORG", "1"],
    ]
    fu_tags = m.locator(
        ".mtw-explorer__inspector > .mtw-explorer__entline[data-side='followup'] .mtw-explorer__tag"
    )
    assert fu_tags.all_text_contents() == ["PERSON", "⚠ PERSON ✗"]
    assert m.locator(".mtw-explorer__suspect").all_text_contents() == [
        "⚠ \"Acme\": ORG in the source, partial: 'Acme in' PERSON in the follow-up · against gold: source correct, "
        "follow-up range error"
    ]
    repair = m.locator(".mtw-explorer__repair")
    assert repair.get_attribute("data-status") == "done"
    changed = repair.locator("[data-changed]")
    assert changed.count() == 1 and changed.evaluate("e => [e.firstChild.textContent, e.dataset.label]") == [
        "Acme",
        "ORG",
    ]
    assert repair.locator(".mtw-explorer__relabel").all_text_contents() == [
        'follow-up "Acme" → ORG (votes ORG 3.5, NULL 0.2; 4 mutants)',
        f'source "{HOSTILE}": unchanged (no similar entity passed the filters)',
    ]
    quiet = page.locator('.mtw-explorer__model[data-model="quiet"]')
    assert (
        quiet.locator(".mtw-explorer__repair").count() == 0
        and quiet.locator(".mtw-explorer__suspect").count() == 0
    )


def test_hostile_text_and_colours_stay_inert(page: Any) -> None:
    state = json.loads(json.dumps(STATE))
    state["_input"]["marks"]["19:47"] = {
        "start": 19,
        "end": 47,
        "label": "bad",
        "inferred": None,
        "text": HOSTILE,
    }
    _mount(page, state)
    page.wait_for_timeout(100)
    assert page.locator("img").count() == 0
    assert page.evaluate("() => window.alerts") == []
    # a colour that is not a hex code never reaches a style attribute
    bad = page.locator('.mtw-explorer__chip[data-key="19:47"]')
    assert bad.get_attribute("style") is None
    assert bad.locator(".mtw-explorer__marktext").text_content() == HOSTILE
