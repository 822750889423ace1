"""OpenNRE-style ``infer`` objects and the REST adapter against a real local HTTP server."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from mtwidgets.core.errors import ModelError
from mtwidgets.core.inputs import TextInput
from mtwidgets.core.model import as_model
from mtwidgets.core.predictions import Prediction
from mtwidgets.models.rest import RestModel
from mtwidgets.re.inputs import RelationInput
from mtwidgets.re.models.opennre import OpenNREModel, opennre_item, opennre_token_item

BORN = RelationInput.parse("[[John Smith|PERSON]] was born in <<Honolulu|CITY>>.")
MOTHER = RelationInput.parse("<<Mary|PERSON>> is [[John|PERSON]]'s mother.")

# -- OpenNRE --------------------------------------------------------------------------------


class FakeOpenNRE:
    """Answers like OpenNRE: checks the item it gets and returns ``(label, score)``."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def infer(self, item: dict[str, Any]) -> tuple[str, float]:
        self.items.append(item)
        assert set(item) == {"text", "h", "t"}
        text = item["text"]
        hs, he = item["h"]["pos"]
        ts, te = item["t"]["pos"]
        head, tail = text[hs:he], text[ts:te]
        if (head, tail) == ("John Smith", "Honolulu"):
            return ("per:city_of_birth", 0.875)
        if (head, tail) == ("John", "Mary"):
            return ("per:parents", 0.625)
        return ("no_relation", 0.5)


def test_opennre_gets_character_positions() -> None:
    fake = FakeOpenNRE()
    model = OpenNREModel(fake, name="nre")
    preds = model.predict([BORN, MOTHER, BORN.swapped()])
    assert fake.items[0] == {"text": BORN.text, "h": {"pos": (0, 10)}, "t": {"pos": (23, 31)}}
    assert fake.items[1] == {"text": MOTHER.text, "h": {"pos": (8, 12)}, "t": {"pos": (0, 4)}}
    assert preds == [
        Prediction(label="per:city_of_birth", scores=(("per:city_of_birth", 0.875),)),
        Prediction(label="per:parents", scores=(("per:parents", 0.625),)),
        Prediction(label="no_relation", scores=(("no_relation", 0.5),)),
    ]


def test_as_model_wraps_infer_objects() -> None:
    fake = FakeOpenNRE()
    model = as_model(fake, "opennre-tacred")
    assert isinstance(model, OpenNREModel)
    assert model.name == "opennre-tacred"
    assert model.predict([BORN])[0].label == "per:city_of_birth"


def test_opennre_callable_and_list_results() -> None:
    def infer(item: dict[str, Any]) -> list[object]:
        return ["per:title", 0.25]  # e.g. a (label, score) pair after a JSON round trip

    model = OpenNREModel(infer)
    assert model.name == "infer"
    assert model.predict([BORN]) == [Prediction(label="per:title", scores=(("per:title", 0.25),))]


def test_opennre_token_format() -> None:
    item = opennre_token_item(MOTHER)
    assert item == {
        "token": ["Mary", "is", "John", "'", "s", "mother", "."],
        "h": {"pos": [2, 3]},
        "t": {"pos": [0, 1]},
    }
    born = opennre_token_item(BORN)
    assert born["token"][slice(*born["h"]["pos"])] == ["John", "Smith"]
    assert born["token"][slice(*born["t"]["pos"])] == ["Honolulu"]
    seen: list[dict[str, Any]] = []
    model = OpenNREModel(lambda it: (seen.append(it), ("no_relation", 1.0))[1], input_format="token")
    model.predict([MOTHER])
    assert seen == [item]
    assert opennre_item(MOTHER)["h"] == {"pos": (8, 12)}


def test_opennre_errors() -> None:
    with pytest.raises(TypeError, match="infer"):
        OpenNREModel(42)
    with pytest.raises(ValueError, match="input_format"):
        OpenNREModel(FakeOpenNRE(), input_format="ids")
    with pytest.raises(TypeError, match="'nre'.*RelationInput"):
        OpenNREModel(FakeOpenNRE(), name="nre").predict([TextInput("John was born in Honolulu.")])
    bad = OpenNREModel(lambda item: 3.5, name="bad")
    with pytest.raises(TypeError, match="cannot read a prediction"):
        bad.predict([BORN])


# -- REST -----------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    received: list[dict[str, Any]] = []

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        payload = json.loads(raw)
        self.received.append({"path": self.path, "headers": dict(self.headers), "payload": payload})
        n = len(payload["inputs"]) if isinstance(payload, dict) and "inputs" in payload else 0
        if self.path == "/predict":
            preds: list[Any] = []
            for x in payload["inputs"]:
                if x["task"] != "re":
                    preds.append("no_relation")
                elif x["text"].startswith("John"):
                    preds.append({"label": "per:city_of_birth", "score": 0.9})
                elif x["text"].startswith("Mary"):
                    preds.append(["per:parents", 0.7])
                else:
                    preds.append(
                        {"label": "no_relation", "scores": [["no_relation", 0.6], ["per:title", 0.4]]}
                    )
            self._send(200, json.dumps({"predictions": preds}).encode())
        elif self.path == "/custom":
            self._send(200, json.dumps({"out": [{"rel": "per:title"} for _ in payload["items"]]}).encode())
        elif self.path == "/fail":
            self._send(500, b"Traceback (most recent call last): model exploded " + b"x" * 500, "text/plain")
        elif self.path == "/html":
            self._send(200, b"<html><body>Welcome to nginx!</body></html>", "text/html")
        elif self.path == "/nokey":
            self._send(200, json.dumps({"result": []}).encode())
        elif self.path == "/short":
            self._send(200, json.dumps({"predictions": ["no_relation"] * (n - 1)}).encode())
        elif self.path == "/slow":
            time.sleep(1.0)
            self._send(200, json.dumps({"predictions": ["no_relation"] * n}).encode())
        else:
            self._send(404, b"not found")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # e.g. the timeout test's client hanging up before the slow answer


@pytest.fixture()
def server() -> Iterator[str]:
    _Handler.received = []
    httpd = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


OTHER = RelationInput.parse("In 1961 [[Obama|PERSON]] lived in <<Honolulu|CITY>>.")


def test_rest_predicts_in_batches(server: str) -> None:
    model = RestModel(server + "/predict", batch_size=2, headers={"X-Token": "abc"})
    assert model.name == server + "/predict"
    preds = model.predict([BORN, MOTHER, OTHER, TextInput("Hello there.")])
    assert preds == [
        Prediction(label="per:city_of_birth", scores=(("per:city_of_birth", 0.9),)),
        Prediction(label="per:parents", scores=(("per:parents", 0.7),)),
        Prediction(label="no_relation", scores=(("no_relation", 0.6), ("per:title", 0.4))),
        Prediction(label="no_relation"),
    ]
    assert len(_Handler.received) == 2
    first = _Handler.received[0]
    assert first["payload"] == {"inputs": [BORN.to_dict(), MOTHER.to_dict()]}
    assert first["headers"]["Content-Type"] == "application/json"
    assert first["headers"]["X-Token"] == "abc"


def test_rest_custom_formats(server: str) -> None:
    model = RestModel(
        server + "/custom",
        name="custom",
        request_format=lambda xs: {"items": [x.display() for x in xs]},
        response_format=lambda body: [o["rel"] for o in body["out"]],
    )
    assert model.predict([BORN, MOTHER]) == [Prediction(label="per:title")] * 2
    assert _Handler.received[0]["payload"] == {"items": [BORN.display(), MOTHER.display()]}


def test_rest_http_error(server: str) -> None:
    url = server + "/fail"
    with pytest.raises(ModelError) as info:
        RestModel(url).predict([BORN])
    message = str(info.value)
    assert url in message and "500" in message and "model exploded" in message
    assert "x" * 300 not in message  # only the start of the body
    assert info.value.model == url


def test_rest_not_json(server: str) -> None:
    url = server + "/html"
    with pytest.raises(ModelError, match="not JSON") as info:
        RestModel(url, name="svc").predict([BORN])
    assert url in str(info.value) and "'svc'" in str(info.value) and "Welcome to nginx" in str(info.value)


def test_rest_missing_predictions_key(server: str) -> None:
    with pytest.raises(ModelError, match='no "predictions"'):
        RestModel(server + "/nokey").predict([BORN])


def test_rest_wrong_number_of_predictions(server: str) -> None:
    url = server + "/short"
    with pytest.raises(TypeError, match="returned 1 predictions for 2 inputs") as info:
        RestModel(url).predict([BORN, MOTHER])
    assert url in str(info.value)


def test_rest_timeout(server: str) -> None:
    url = server + "/slow"
    with pytest.raises(ModelError, match="timeout=0.2") as info:
        RestModel(url, timeout=0.2).predict([BORN])
    assert url in str(info.value)


def test_rest_unreachable_and_bad_url(server: str) -> None:
    # a port nobody listens on: bind one, note it, close it
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/predict"
    with pytest.raises(ModelError, match="could not connect") as info:
        RestModel(url, timeout=2).predict([BORN])
    assert url in str(info.value)
    with pytest.raises(ValueError, match="http"):
        RestModel("file:///etc/passwd")
    with pytest.raises(ModelError, match="404"):
        RestModel(server + "/missing").predict([BORN])
