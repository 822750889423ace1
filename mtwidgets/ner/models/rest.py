"""NER behind an HTTP endpoint shaped like the commercial NER APIs the TIN paper tests.

Three wire formats (one POST per batch, standard library only, through
:class:`~mtwidgets.models.rest.RestModel`):

- ``"aws"`` (default), as Amazon Comprehend's BatchDetectEntities:
  request ``{"TextList": [...], "LanguageCode": "en"}``, response
  ``{"ResultList": [{"Index": i, "Entities": [{"BeginOffset", "EndOffset", "Type",
  "Score", "Text"}]}], "ErrorList": [...]}``;
- ``"azure"``, as Azure's entity recognition: request ``{"documents": [{"id", "language",
  "text"}]}``, response ``{"documents": [{"id", "entities": [{"text", "category",
  "offset", "length", "confidenceScore"}]}], "errors": [...]}``;
- ``"google"``, as Google Cloud Natural Language analyzeEntities, which takes one document
  per request: request ``{"document": {"type": "PLAIN_TEXT", "content"}, "encodingType":
  "UTF32"}``, response ``{"entities": [{"name", "type", "mentions": [{"text": {"content",
  "beginOffset"}, "type": "PROPER"|"COMMON"}]}]}``; only PROPER mentions are named
  entities.

Offsets are read as code-point indices into the text (Python string indices; UTF32 for
Google, ``stringIndexType=UnicodeCodePoint`` for Azure) and checked against the returned
mention text: an endpoint counting in another unit is reported, never silently misaligned.
Labels go through the ``COMMERCIAL`` label map by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ...core.errors import ModelError
from ...core.predictions import Prediction
from ...models.rest import RestModel
from ..labels import COMMERCIAL, LabelMap, label_map
from .hf import clean_spans
from .spacy import _ner_text

Style = Literal["aws", "azure", "google"]
STYLES: tuple[str, ...] = ("aws", "azure", "google")


class RestNER(RestModel):
    """A REST NER service in one of the commercial wire formats (see the module docstring).

    Parameters
    ----------
    url:
        The endpoint (``http://`` or ``https://``).
    style:
        ``"aws"``, ``"azure"`` or ``"google"``.
    label_map:
        The service's labels -> canonical (default: the commercial-API map).
    language:
        The language code sent with each request.
    headers, timeout, batch_size, name:
        As :class:`~mtwidgets.models.rest.RestModel` (put API keys in ``headers``).
    """

    task = "ner"

    def __init__(
        self,
        url: str,
        *,
        style: Style = "aws",
        label_map: LabelMap | dict[str, str] | str = COMMERCIAL,
        language: str = "en",
        name: str | None = None,
        batch_size: int = 25,
        timeout: float = 30,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
        if style == "google":
            batch_size = 1  # analyzeEntities takes one document per request
        super().__init__(url, name=name, batch_size=batch_size, timeout=timeout, headers=headers)
        self.style = style
        self.language = language
        self.label_map = _as_label_map(label_map)

    @property
    def fingerprint(self) -> str:
        return f"{super().fingerprint}:{self.style}:{self.label_map.name}"

    # -- wire formats ---------------------------------------------------------------------
    def _request(self, texts: list[str]) -> Any:
        if self.style == "aws":
            return {"TextList": texts, "LanguageCode": self.language}
        if self.style == "azure":
            return {
                "documents": [
                    {"id": str(i), "language": self.language, "text": t} for i, t in enumerate(texts)
                ]
            }
        return {"document": {"type": "PLAIN_TEXT", "content": texts[0]}, "encodingType": "UTF32"}

    def _entities(self, body: Any, n: int) -> list[list[tuple[int, int, str, float, str]]]:
        """Per text: (start, end, system label, score, mention text as the service gave it)."""
        if not isinstance(body, Mapping):
            raise self._fail(f"the answer is a {type(body).__name__}, not a JSON object: {str(body)[:200]!r}")
        out: list[list[tuple[int, int, str, float, str]]] = [[] for _ in range(n)]
        try:
            if self.style == "aws":
                if body.get("ErrorList"):
                    raise self._fail(f"the service reported errors: {body['ErrorList']!r}"[:300])
                for result in body["ResultList"]:
                    out[int(result["Index"])] = [
                        (int(e["BeginOffset"]), int(e["EndOffset"]), str(e["Type"]), float(e.get("Score", 1.0)),
                         str(e.get("Text", "")))
                        for e in result["Entities"]
                    ]  # fmt: skip
            elif self.style == "azure":
                if body.get("errors"):
                    raise self._fail(f"the service reported errors: {body['errors']!r}"[:300])
                for doc in body["documents"]:
                    out[int(doc["id"])] = [
                        (int(e["offset"]), int(e["offset"]) + int(e["length"]), str(e["category"]),
                         float(e.get("confidenceScore", 1.0)), str(e.get("text", "")))
                        for e in doc["entities"]
                    ]  # fmt: skip
            else:
                for ent in body.get("entities", []):
                    for m in ent.get("mentions", []):
                        if m.get("type", "PROPER") != "PROPER":
                            continue
                        content = str(m["text"]["content"])
                        start = int(m["text"].get("beginOffset", -1))
                        out[0].append((start, start + len(content), str(ent["type"]),
                                       float(ent.get("salience", 1.0)), content))  # fmt: skip
        except ModelError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise self._fail(
                f"the answer does not have the {self.style} NER shape ({type(exc).__name__}: {exc}); "
                f"body: {str(body)[:200]!r}"
            ) from None
        return out

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        texts = [_ner_text(x) for x in inputs]
        status, raw = self._post(self._request(texts))
        import json

        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise self._fail(f"HTTP {status} answer is not JSON; body: {raw[:200]!r}") from None
        predictions = []
        for text, found in zip(texts, self._entities(body, len(texts))):
            spans = []
            for start, end, system_label, score, mention in found:
                if not (0 <= start < end <= len(text)) or (mention and text[start:end] != mention):
                    raise self._fail(
                        f"entity {mention!r} at ({start}, {end}) does not match the text {text[:80]!r} "
                        f"(which has {text[max(start, 0) : max(end, 0)]!r} there); the service may count "
                        "offsets in UTF-16 units or bytes: ask it for code points"
                    )
                label = self.label_map.map(system_label)
                if label is not None:
                    spans.append((start, end, label, score))
            predictions.append(Prediction(spans=clean_spans(text, spans)))
        return predictions


_as_label_map = label_map
