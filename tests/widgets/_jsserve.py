"""Serving the widgets' front ends to Chromium through Playwright's request routing.

No server, no network: requests under ``BASE`` are answered from the repository's ``js/``
folder (plus any in-memory pages a test adds), everything else outside it gets a 404.
A widget module is served as anywidget receives it: its ``// @include common.js`` lines
replaced by the shared file (``mtwidgets.widgets._assets.inline_includes``).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mtwidgets.widgets._assets import inline_includes

JS = Path(__file__).resolve().parents[2] / "js"
BASE = "http://mtw.test/"


def js_route(pages: Mapping[str, str] | None = None) -> Callable[[Any], None]:
    """A route handler answering ``BASE<name>`` from ``pages`` or the ``js/`` folder."""

    def serve(route: Any) -> None:
        name = route.request.url.removeprefix(BASE).split("?")[0]
        if pages and name in pages:
            route.fulfill(status=200, body=pages[name], headers={"content-type": "text/html"})
            return
        path = (JS / name).resolve()
        if not path.is_file() or JS not in path.parents:
            route.fulfill(status=404, body="not found")
            return
        ctype = (
            "text/javascript"
            if path.suffix == ".js"
            else (mimetypes.guess_type(path.name)[0] or "text/plain")
        )
        body = (
            inline_includes(path.read_text(encoding="utf-8"), path.parent).encode("utf-8")
            if path.suffix == ".js"
            else path.read_bytes()
        )
        route.fulfill(status=200, body=body, headers={"content-type": ctype})

    return serve


@contextmanager
def js_page(browser: Any, start: str, ready: str, pages: Mapping[str, str] | None = None) -> Iterator[Any]:
    """A fresh page on ``BASE + start``, ready once the JS expression ``ready`` is true.

    Alerts are recorded in ``window.alerts`` instead of shown; an uncaught page error fails
    the test when the page closes.
    """
    context = browser.new_context()
    page = context.new_page()
    page.route(f"{BASE}**", js_route(pages))
    page.route("**/x", lambda r: r.fulfill(status=404))  # a hostile <img src=x>, were it ever created
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{BASE}{start}")
    page.wait_for_function(f"() => {ready}")
    page.evaluate("() => { window.alerts = []; window.alert = (m) => window.alerts.push(m); }")
    try:
        yield page
    finally:
        context.close()
    assert errors == [], errors


def split_tokens(text: str) -> list[dict[str, Any]]:
    """Tokens of ``text`` split at single spaces, in the Explorer's render-state shape."""
    out, pos = [], 0
    for i, word in enumerate(text.split(" ")):
        out.append({"i": i, "text": word, "start": pos, "end": pos + len(word), "ws": " "})
        pos += len(word) + 1
    out[-1]["ws"] = ""
    return out


def mount_explorer(page: Any, state: dict[str, Any]) -> None:
    """Render js/explorer.js on ``page`` over a fake model holding ``state`` (as JSON)."""
    import json

    page.evaluate(
        """(state) => {
            window.model = window.mtw.createFakeModel(state);
            window.cleanup = window.mtw.widget.render({ model: window.model, el: document.getElementById("root") });
        }""",
        json.loads(json.dumps(state)),
    )
