"""Adapters for the text models users bring: Hugging Face pipelines, sentence-transformers,
and REST services in the JSON shapes of the commercial systems the paper tested.

- :func:`hf_classifier`: a ``transformers`` text-classification pipeline (built, or a hub
  name / local path) as a model; :func:`hf_summarizer`: a sequence-to-sequence model by hub
  name / local path (:class:`HFSeq2SeqSummarizer`), or a built summarization pipeline;
- :class:`SentenceTransformerSimilarity`: cosine of a sentence-transformers model's
  embeddings, clipped to [0, 1] (a ``SentenceTransformer`` passed in ``models=`` is wrapped
  this way automatically);
- :func:`rest_model`: an HTTP endpoint speaking one of the paper's systems' JSON shapes
  (:data:`REST_SHAPES`: Baidu NLP and Tencent Cloud NLP, one text or pair per request),
  or the project's own batch protocol (:class:`~mtwidgets.models.rest.RestModel`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.errors import ModelError
from ..core.model import ModelAdapter
from ..core.predictions import Prediction

# -- Hugging Face pipelines ----------------------------------------------------------------------


def hf_classifier(pipeline_or_model: Any, *, name: str | None = None, batch_size: int = 16) -> ModelAdapter:
    """A text-classification pipeline (or a hub name / local path to build one) as a
    classification model answering a label with every label's score."""
    from ..models.hf import HFPipelineModel

    if isinstance(pipeline_or_model, str):
        return HFPipelineModel("text-classification", pipeline_or_model, name=name, batch_size=batch_size, kind="label")
    return HFPipelineModel(pipeline_or_model, name=name, batch_size=batch_size, kind="label")


class HFSeq2SeqSummarizer(ModelAdapter):
    """A sequence-to-sequence model (BART, T5, PEGASUS, ...) generating the summary.

    ``model``: a hub name or local path (loaded with ``AutoModelForSeq2SeqLM`` and its
    tokenizer), or a loaded model with ``tokenizer=``. ``prefix`` is put before every text
    (``"summarize: "`` for T5); ``generate`` options (``max_new_tokens``, ``num_beams``...)
    go to every ``generate`` call. Greedy decoding by default, so a summary is deterministic.
    (transformers 5 has no summarization pipeline; with transformers 4 a built
    summarization pipeline can be passed to :func:`hf_summarizer` as well.)
    """

    task = "summarization"
    kind = "text"
    fingerprint_attrs = ("model", "generate")

    def __init__(self, model: Any, tokenizer: Any = None, *, name: str | None = None, batch_size: int = 8,
                 prefix: str = "", max_input_tokens: int = 512, **generate: Any) -> None:
        from ..models.hf import _require, model_and_tokenizer

        torch, transformers = _require("HFSeq2SeqSummarizer")
        model, tokenizer, source = model_and_tokenizer(model, tokenizer, transformers.AutoModelForSeq2SeqLM)
        super().__init__(name=name or str(source or "seq2seq"), batch_size=batch_size)
        self.torch = torch
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.prefix = prefix
        self.max_input_tokens = max_input_tokens
        self.generate = {"do_sample": False, **generate}

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        batch = self.tokenizer([self.prefix + x.text for x in inputs], return_tensors="pt", padding=True,
                               truncation=True, max_length=self.max_input_tokens)
        batch.pop("token_type_ids", None)
        with self.torch.no_grad():
            out = self.model.generate(**batch, **self.generate)
        texts = self.tokenizer.batch_decode(out, skip_special_tokens=True)
        return [Prediction(text=" ".join(t.split())) for t in texts]


def hf_summarizer(pipeline_or_model: Any, *, name: str | None = None, batch_size: int = 8,
                  **generate: Any) -> ModelAdapter:
    """A summarization model: a hub name or local path of a sequence-to-sequence model
    (:class:`HFSeq2SeqSummarizer`), or a built pipeline that answers ``summary_text`` /
    ``generated_text``; ``generate`` options (``max_new_tokens``, ``num_beams``...) go to every call."""
    from ..models.hf import HFPipelineModel

    if isinstance(pipeline_or_model, str):
        return HFSeq2SeqSummarizer(pipeline_or_model, name=name, batch_size=batch_size, **generate)
    return HFPipelineModel(pipeline_or_model, name=name, batch_size=batch_size, kind="text", **generate)


# -- sentence-transformers -------------------------------------------------------------------------
class SentenceTransformerSimilarity(ModelAdapter):
    """Similarity as the cosine of a sentence-transformers model's embeddings, in [0, 1].

    ``model``: a ``SentenceTransformer`` or the hub name / local path to load one from.
    """

    task = "similarity"
    kind = "value"
    fingerprint_attrs = ("model",)

    def __init__(self, model: Any, *, name: str | None = None, batch_size: int = 64) -> None:
        source: Any = model
        if isinstance(model, str):
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(model, device="cpu")
        else:
            source = getattr(getattr(model, "model_card_data", None), "base_model", None)
        super().__init__(name=name or str(source or "sentence-transformer"), batch_size=batch_size)
        self.model = model

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        texts = list(dict.fromkeys(t for x in inputs for t in (x.text_a, x.text_b)))
        vectors = self.model.encode(texts, normalize_embeddings=True, show_progress_bar=False)
        index = {t: i for i, t in enumerate(texts)}
        out = []
        for x in inputs:
            value = float(vectors[index[x.text_a]] @ vectors[index[x.text_b]])
            out.append(Prediction(value=min(1.0, max(0.0, value))))
        return out


def wrap_sentence_transformer(obj: object, name: str) -> ModelAdapter | None:
    """The similarity adapter for a ``SentenceTransformer`` object (``None`` for anything else):
    the similarity task's model wrapper."""
    if any(c.__name__ == "SentenceTransformer" for c in type(obj).__mro__) and hasattr(obj, "encode"):
        return SentenceTransformerSimilarity(obj, name=name)
    return None


# -- REST, in the paper's systems' shapes ---------------------------------------------------------
def _baidu_sentiment(body: Mapping[str, Any]) -> Prediction:
    item = body["items"][0]
    labels = {0: "negative", 1: "neutral", 2: "positive"}
    pos, neg = float(item["positive_prob"]), float(item["negative_prob"])
    return Prediction(label=labels[int(item["sentiment"])],
                      scores=tuple(sorted((("positive", pos), ("negative", neg)), key=lambda kv: -kv[1])))


def _baidu_topic(body: Mapping[str, Any]) -> Prediction:
    tags = body["item"]["lv1_tag_list"]
    return Prediction.from_scores({str(t["tag"]): float(t["score"]) for t in tags})


def _tencent_classes(body: Mapping[str, Any]) -> Prediction:
    classes = body["Response"]["Classes"]
    return Prediction.from_scores({str(c["FirstClassName"]): float(c["FirstClassProbability"]) for c in classes})


def _tencent_sentiment(body: Mapping[str, Any]) -> Prediction:
    r = body["Response"]
    scores = {k.lower(): float(r[k]) for k in ("Positive", "Negative", "Neutral") if r.get(k) is not None}
    label = str(r.get("Sentiment") or max(scores, key=scores.__getitem__)).lower()
    return Prediction(label=label, scores=tuple(sorted(scores.items(), key=lambda kv: -kv[1])))


# system -> task -> (request body of one input, reading of one answer)
REST_SHAPES: dict[str, dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]]] = {
    "baidu": {
        "sentiment": (lambda x: {"text": x.text}, _baidu_sentiment),
        "topic": (lambda x: {"title": x.text[:40], "content": x.text}, _baidu_topic),
        "similarity": (lambda x: {"text_1": x.text_a, "text_2": x.text_b},
                       lambda b: Prediction(value=float(b["score"]))),
        "summarization": (lambda x: {"content": x.text, "max_summary_len": 200},
                          lambda b: Prediction(text=str(b["summary"]))),
    },
    "tencent": {
        "sentiment": (lambda x: {"Text": x.text, "Mode": "3class"}, _tencent_sentiment),
        "topic": (lambda x: {"Text": x.text}, _tencent_classes),
        "similarity": (lambda x: {"SrcText": x.text_a, "TargetText": [x.text_b]},
                       lambda b: Prediction(value=float(b["Response"]["Similarity"][0]["Score"]))),
        "summarization": (lambda x: {"Text": x.text, "Length": 200},
                          lambda b: Prediction(text=str(b["Response"]["Summary"]))),
    },
}
_KIND = {"sentiment": "label", "topic": "label", "similarity": "value", "summarization": "text"}
_TASK = {"sentiment": "classification", "topic": "classification", "similarity": "similarity",
         "summarization": "summarization"}


def rest_model(url: str, *, system: str, service: str, name: str | None = None, timeout: float = 30,
               headers: Mapping[str, str] | None = None) -> ModelAdapter:
    """A REST service in the JSON shape of one of the paper's systems.

    Parameters
    ----------
    system:
        ``"baidu"`` (Baidu AI Cloud NLP: ``sentiment_classify``, ``topic``, ``simnet``,
        ``news_summary``) or ``"tencent"`` (Tencent Cloud NLP: ``SentimentAnalysis``,
        ``TextClassification``, ``TextSimilarity``, ``AutoSummarization``; the answer's
        ``Response`` object).
    service:
        ``"sentiment"``, ``"topic"``, ``"similarity"`` or ``"summarization"``.
    url, headers:
        The endpoint (with its access token, for Baidu) and extra headers (signing, for Tencent).

    One input per request (these services take one text or pair); an answer without the
    expected fields (an error object) raises :class:`~mtwidgets.core.errors.ModelError` with
    the body's start.
    """
    from ..models.rest import RestModel

    if system not in REST_SHAPES:
        raise ValueError(f"system must be one of {', '.join(REST_SHAPES)}, got {system!r}")
    if service not in REST_SHAPES[system]:
        raise ValueError(f"service must be one of {', '.join(REST_SHAPES[system])}, got {service!r}")
    request, read = REST_SHAPES[system][service]
    label = name or f"{system}-{service}"

    def response(body: Any) -> list[Prediction]:
        try:
            return [read(body)]
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ModelError(f"model {label!r} at {url}: the answer lacks {exc} ({str(body)[:200]!r})",
                             model=label) from None

    return RestModel(url, name=label, batch_size=1, timeout=timeout, headers=headers,
                     request_format=lambda inputs: request(inputs[0]), response_format=response,
                     kind=_KIND[service], task=_TASK[service])
