"""A model behind an HTTP endpoint (standard library only).

The default protocol is one POST per batch::

    request:  {"inputs": [input.to_dict(), ...]}
    response: {"predictions": [prediction, ...]}      # one per input, in order

Each prediction may be anything :func:`~mtwidgets.core.predictions.coerce_prediction`
reads (a label, ``[label, score]``, ``{"label": .., "score": ..}``, a score table) or a
``Prediction.to_dict()`` (``{"label": .., "scores": [[label, score], ...]}``). Other
protocols plug in with ``request_format(inputs) -> JSON value`` and
``response_format(parsed_json) -> list``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.errors import ModelError
from ..core.model import ModelAdapter
from ..core.predictions import Prediction

_PREDICTION_KEYS = frozenset({"label", "scores", "spans", "value", "text"})
_SNIPPET = 200


def _snippet(raw: bytes | str) -> str:
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    return repr(text[:_SNIPPET])


def _read_item(item: object) -> object:
    """A ``Prediction.to_dict()`` back to a Prediction; other shapes are left to coerce."""
    if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
        return (item[0], item[1])
    if isinstance(item, Mapping) and item and set(item) <= _PREDICTION_KEYS:
        scores = item.get("scores")
        if isinstance(scores, list) or any(k in item for k in ("spans", "value", "text")):
            try:
                return Prediction.from_dict(item)
            except (TypeError, ValueError):
                return item
    return item


def default_request(inputs: Sequence[Any]) -> dict[str, Any]:
    """``{"inputs": [input.to_dict(), ...]}``."""
    return {"inputs": [x.to_dict() if hasattr(x, "to_dict") else x for x in inputs]}


class RestModel(ModelAdapter):
    """POST batches of inputs as JSON to ``url`` and read one prediction per input.

    Parameters
    ----------
    url:
        An ``http://`` or ``https://`` endpoint.
    timeout:
        Seconds to wait for each answer.
    headers:
        Extra request headers (e.g. ``{"Authorization": "Bearer ..."}``).
    request_format:
        ``f(inputs) -> JSON value`` replacing the default ``{"inputs": [...]}`` body.
    response_format:
        ``f(parsed_json) -> list`` replacing the default ``body["predictions"]``.
    kind:
        The prediction kind the answers are read as (``"label"``, ``"spans"``, ``"value"``,
        ``"text"``); ``None`` (the default) reads labels unless ``task`` names a registered
        task, whose kind is then used.
    task:
        The registered task the endpoint serves (informative; sets the default ``kind``).

    Connection failures, timeouts, HTTP error statuses and bodies that are not JSON (or
    lack ``"predictions"``) raise :class:`~mtwidgets.core.errors.ModelError` naming the
    model, the URL, the HTTP status and the start of the body.
    """

    def __init__(
        self,
        url: str,
        *,
        name: str | None = None,
        batch_size: int = 32,
        timeout: float = 30,
        headers: Mapping[str, str] | None = None,
        request_format: Callable[[Sequence[Any]], Any] | None = None,
        response_format: Callable[[Any], Any] | None = None,
        kind: str | None = None,
        task: str = "",
    ) -> None:
        scheme = urllib.parse.urlsplit(url).scheme if isinstance(url, str) else ""
        if scheme not in ("http", "https"):
            raise ValueError(f"RestModel needs an http:// or https:// URL, got {url!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        super().__init__(name=name or url, batch_size=batch_size)
        self.url = url
        self.timeout = timeout
        self.headers = dict(headers or {})
        self.request_format = request_format
        self.response_format = response_format
        if kind is not None:
            self.kind = kind
        if task:
            self.task = task

    # What the server runs behind the URL cannot be seen: give version= (as_model(api,
    # name, version=...)) and change it when the served model changes.
    fingerprint_attrs = ("request_format", "response_format")

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.url}"

    def _fail(self, message: str) -> ModelError:
        return ModelError(f"model {self.name!r} at {self.url}: {message}", model=self.name)

    def _post(self, payload: Any) -> tuple[int, bytes]:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json", **self.headers}
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as exc:
            try:
                body = exc.read()
            except Exception:  # the status alone is still worth reporting
                body = b""
            raise self._fail(f"HTTP {exc.code} {exc.reason}; body: {_snippet(body)}") from None
        except TimeoutError:
            raise self._fail(f"no answer within timeout={self.timeout}s") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise self._fail(f"no answer within timeout={self.timeout}s") from None
            raise self._fail(f"could not connect ({exc.reason})") from None

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        payload = self.request_format(inputs) if self.request_format else default_request(inputs)
        status, raw = self._post(payload)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise self._fail(f"HTTP {status} answer is not JSON; body: {_snippet(raw)}") from None
        if self.response_format is not None:
            predictions = self.response_format(body)
        else:
            if not isinstance(body, Mapping) or "predictions" not in body:
                raise self._fail(f'HTTP {status} answer has no "predictions" list; body: {_snippet(raw)}')
            predictions = body["predictions"]
        if isinstance(predictions, list):
            return [_read_item(p) for p in predictions]
        return predictions  # type: ignore[no-any-return]  # check_outputs names the wrong type
