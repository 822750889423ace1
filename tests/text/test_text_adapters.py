"""Adapters for the models users bring, on tiny models built here and a local HTTP server:
Hugging Face text-classification and summarization pipelines, a sentence-transformers model,
and REST services in the Baidu and Tencent JSON shapes."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import mtwidgets as mt
from mtwidgets.core.errors import ModelError
from mtwidgets.text.adapters import (
    SentenceTransformerSimilarity,
    hf_classifier,
    hf_summarizer,
    rest_model,
    wrap_sentence_transformer,
)
from mtwidgets.text.inputs import ClassificationInput, SimilarityInput, SummarizationInput

WORDS = ("the a shares rose fell on monday team won lost game prices markets closed lower analysts expect week "
         "oil pierre lefebvre france . , !").split()


def _vocab(tmp: Path) -> Path:
    path = tmp / "vocab.txt"
    path.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    import transformers

    tmp = tmp_path_factory.mktemp("tiny_text")
    tokenizer = transformers.BertTokenizer(vocab_file=str(_vocab(tmp)))
    torch.manual_seed(0)
    cls_dir = tmp / "cls"
    config = transformers.BertConfig(vocab_size=len(WORDS) + 5, hidden_size=16, num_hidden_layers=1,
                                     num_attention_heads=2, intermediate_size=32, max_position_embeddings=64,
                                     id2label={0: "business", 1: "sport"}, label2id={"business": 0, "sport": 1})
    transformers.BertForSequenceClassification(config).save_pretrained(cls_dir)
    tokenizer.save_pretrained(cls_dir)
    sum_dir = tmp / "sum"
    bart = transformers.BartConfig(vocab_size=len(WORDS) + 5, d_model=16, encoder_layers=1, decoder_layers=1,
                                   encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                                   decoder_ffn_dim=32, max_position_embeddings=64, pad_token_id=0, bos_token_id=2,
                                   eos_token_id=3, decoder_start_token_id=2, forced_eos_token_id=3)
    transformers.BartForConditionalGeneration(bart).save_pretrained(sum_dir)
    tokenizer.save_pretrained(sum_dir)
    st_dir = tmp / "st"
    transformers.BertModel(config).save_pretrained(st_dir / "bert")
    tokenizer.save_pretrained(st_dir / "bert")
    return tmp


def test_hf_text_classification_pipeline_answers_every_label_score(tiny_dir: Path) -> None:
    model = hf_classifier(str(tiny_dir / "cls"), name="tiny")
    x = [ClassificationInput("Shares rose on Monday."), ClassificationInput("The team won the game.")]
    preds = model.predict(x)
    for p in preds:
        assert {k for k, _ in p.scores} == {"business", "sport"}
        assert abs(sum(v for _, v in p.scores) - 1) < 1e-5 and p.label == p.scores[0][0]
    again = hf_classifier(str(tiny_dir / "cls")).predict(x)
    assert [p.scores for p in again] == [p.scores for p in preds]


def test_hf_seq2seq_summarizer_answers_text_deterministically(tiny_dir: Path) -> None:
    model = hf_summarizer(str(tiny_dir / "sum"), max_new_tokens=6)
    docs = [SummarizationInput("Oil prices rose on Monday. Markets closed lower."),
            SummarizationInput("The team won the game.")]
    preds = model.predict(docs)
    assert all(isinstance(p.text, str) for p in preds)
    assert set(" ".join(p.text for p in preds).split()) <= set(WORDS)
    assert [p.text for p in model.predict(docs[::-1])] == [p.text for p in preds][::-1]
    results = mt.run([SummarizationInput("Pierre Lefebvre won in France. The team lost the game. Analysts expect a week.")],
                     relations=["MR1.2"], models={"tiny": model}, task="summarization")
    assert len(results.frame) == 1 and set(results.frame["verdict"]) <= {"pass", "violation"}


def test_sentence_transformers_similarity_is_a_clipped_cosine(tiny_dir: Path) -> None:
    from sentence_transformers import SentenceTransformer, models

    word = models.Transformer(str(tiny_dir / "st" / "bert"))
    st = SentenceTransformer(modules=[word, models.Pooling(word.get_embedding_dimension())], device="cpu")
    model = SentenceTransformerSimilarity(st, name="tiny-st")
    same = SimilarityInput("Shares rose on Monday.", "Shares rose on Monday.")
    other = SimilarityInput("Shares rose on Monday.", "The team lost the game.")
    values = [p.value for p in model.predict([same, other])]
    assert values[0] == pytest.approx(1.0, abs=1e-5) and 0.0 <= values[1] < 1.0
    assert isinstance(wrap_sentence_transformer(st, "x"), SentenceTransformerSimilarity)
    assert wrap_sentence_transformer(object(), "x") is None
    results = mt.run([other], relations=["MR7.1"], models={"st": st}, task="similarity")
    assert results.frame["verdict"].tolist() == ["pass"]


# -- REST ----------------------------------------------------------------------------------
ANSWERS: dict[str, Any] = {
    "/baidu/sentiment": {"log_id": 1, "items": [{"sentiment": 2, "confidence": 0.8, "positive_prob": 0.9,
                                                  "negative_prob": 0.1}]},
    "/baidu/topic": {"log_id": 1, "item": {"lv1_tag_list": [{"score": 0.8, "tag": "sport"},
                                                            {"score": 0.1, "tag": "business"}], "lv2_tag_list": []}},
    "/baidu/similarity": {"log_id": 1, "score": 0.72},
    "/baidu/summarization": {"log_id": 1, "summary": "Oil prices rose."},
    "/tencent/sentiment": {"Response": {"Positive": 0.1, "Negative": 0.85, "Neutral": 0.05, "Sentiment": "negative",
                                        "RequestId": "r"}},
    "/tencent/topic": {"Response": {"Classes": [{"FirstClassName": "business", "FirstClassProbability": 0.7}],
                                    "RequestId": "r"}},
    "/tencent/similarity": {"Response": {"Similarity": [{"Text": "b", "Score": 0.41}], "RequestId": "r"}},
    "/tencent/summarization": {"Response": {"Summary": "Markets closed lower.", "RequestId": "r"}},
    "/broken": {"error_code": 110, "error_msg": "Access token invalid"},
}


class _Handler(BaseHTTPRequestHandler):
    received: list[tuple[str, Any]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Handler.received.append((self.path, body))
        data = json.dumps(ANSWERS[self.path]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_rest_services_in_the_papers_systems_shapes(server: str) -> None:
    text = ClassificationInput("Shares rose on Monday.")
    pair = SimilarityInput("Shares rose.", "Prices fell.")
    doc = SummarizationInput("Oil prices rose. Markets closed lower. Analysts expect a week.")
    _Handler.received.clear()
    assert rest_model(f"{server}/baidu/sentiment", system="baidu", service="sentiment").predict([text])[0].label == \
        "positive"
    assert rest_model(f"{server}/baidu/topic", system="baidu", service="topic").predict([text])[0].label == "sport"
    assert rest_model(f"{server}/baidu/similarity", system="baidu", service="similarity").predict([pair])[0].value == \
        0.72
    assert rest_model(f"{server}/baidu/summarization", system="baidu",
                      service="summarization").predict([doc])[0].text == "Oil prices rose."
    tencent = {s: rest_model(f"{server}/tencent/{s}", system="tencent", service=s)
               for s in ("sentiment", "topic", "similarity", "summarization")}
    assert tencent["sentiment"].predict([text])[0].label == "negative"
    assert tencent["topic"].predict([text])[0].label == "business"
    assert tencent["similarity"].predict([pair, pair])[0].value == 0.41
    assert tencent["summarization"].predict([doc])[0].text == "Markets closed lower."
    bodies = dict(_Handler.received)
    assert bodies["/baidu/similarity"] == {"text_1": "Shares rose.", "text_2": "Prices fell."}
    assert bodies["/tencent/similarity"] == {"SrcText": "Shares rose.", "TargetText": ["Prices fell."]}
    assert sum(path == "/tencent/similarity" for path, _ in _Handler.received) == 2  # one pair per request


def test_rest_errors_name_the_model_and_the_body(server: str) -> None:
    model = rest_model(f"{server}/broken", system="baidu", service="similarity")
    with pytest.raises(ModelError, match="baidu-similarity.*Access token invalid"):
        model.predict([SimilarityInput("A.", "B.")])
    with pytest.raises(ValueError, match="system must be one of"):
        rest_model(server, system="ali", service="topic")
    with pytest.raises(ValueError, match="service must be one of"):
        rest_model(server, system="baidu", service="ner")
