"""NER adapters: spaCy (both embedded pipelines), HF token classification on a tiny model
the test builds, REST in the commercial APIs' shapes against a local server, callables."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mtwidgets import models
from mtwidgets.core.errors import InputError, ModelError
from mtwidgets.core.model import as_model
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.spans import Span
from mtwidgets.ner import NERInput
from mtwidgets.ner.labels import LabelMap
from mtwidgets.ner.models.spacy import SpacyNER

OBAMA = NERInput("Barack Obama visited Paris with Google on Monday.")


def _found(x: NERInput, p: Prediction) -> list[tuple[str, str | None]]:
    return [(x.mention(s), s.label) for s in p.spans]


# -- spaCy -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ner-spacy-sm", "ner-spacy-md"])
def test_embedded_spacy_models(name: str) -> None:
    assert name in models.available("ner")
    model = models.load(name)
    assert model.name == name and model.task == "ner"
    empty = NERInput("He cried.")
    p, q = model.predict([OBAMA, empty])
    assert _found(OBAMA, p) == [
        ("Barack Obama", "PERSON"),
        ("Paris", "GPE"),
        ("Google", "ORG"),
        ("Monday", "DATE"),
    ]
    assert q.spans == ()


def test_spacy_label_map_and_loaded_pipeline() -> None:
    from mtwidgets.lang.pipelines import get_nlp

    coarse_map = LabelMap({"PERSON": "PERSON", "GPE": "GPE", "ORG": "ORG"}, "three", unknown="drop")
    model = SpacyNER(get_nlp(), label_map=coarse_map)
    (p,) = model.predict([OBAMA])
    assert _found(OBAMA, p) == [("Barack Obama", "PERSON"), ("Paris", "GPE"), ("Google", "ORG")]
    strict = SpacyNER(get_nlp(), label_map=LabelMap({"PERSON": "PERSON"}, "persons only"))
    with pytest.raises(InputError, match="'GPE' is not in the persons only label map"):
        strict.predict([OBAMA])


def test_spacy_bad_arguments() -> None:
    import spacy

    with pytest.raises(ValueError, match="no 'ner' component"):
        SpacyNER(spacy.blank("en"))
    with pytest.raises(TypeError, match="spaCy pipeline or its name"):
        SpacyNER(42)
    with pytest.raises(TypeError, match="NERInput"):
        models.load("ner-spacy-sm").predict([3.5])


# -- callables -------------------------------------------------------------------------------


def test_callables_through_as_model() -> None:
    def capitals(x: NERInput) -> Prediction:
        spans = []
        pos = 0
        for word in x.text.rstrip(".").split(" "):
            if word[:1].isupper():
                spans.append(Span(pos, pos + len(word), "PERSON"))
            pos += len(word) + 1
        return Prediction(spans=tuple(spans))

    model = as_model(capitals, "caps")
    (p,) = model.predict([NERInput("Ann met Bob.")])
    assert _found(NERInput("Ann met Bob."), p) == [("Ann", "PERSON"), ("Bob", "PERSON")]


# -- Hugging Face token classification ----------------------------------------------------

LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
# a designed tagger: each word piece's embedding points at its label
DESIGN = {"barack": "B-PER", "obama": "I-PER", "google": "B-ORG", "paris": "B-LOC", "berlin": "B-LOC",
          "##s": "I-LOC", "euro": "B-MISC"}  # fmt: skip
WORDS = ["visited", "and", "with", "on", "monday", "he", "said", ".", ",", *DESIGN]


@pytest.fixture(scope="module")
def tagger_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    path = tmp_path_factory.mktemp("tiny-tagger")
    (path / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    tokenizer = transformers.BertTokenizer(vocab=str(path / "vocab.txt"))
    assert "[UNK]" not in tokenizer.tokenize(SENT.text.lower())
    config = transformers.BertConfig(
        vocab_size=len(tokenizer), hidden_size=16, num_hidden_layers=0, num_attention_heads=2,
        intermediate_size=16, max_position_embeddings=64,
        id2label=dict(enumerate(LABELS)), label2id={lab: i for i, lab in enumerate(LABELS)},
    )  # fmt: skip
    model = transformers.BertForTokenClassification(config)
    with torch.no_grad():
        emb = model.bert.embeddings
        emb.word_embeddings.weight.zero_()
        emb.position_embeddings.weight.zero_()
        emb.token_type_embeddings.weight.zero_()
        for token, token_id in tokenizer.get_vocab().items():
            emb.word_embeddings.weight[token_id, LABELS.index(DESIGN.get(token, "O"))] = 10.0
        model.classifier.weight.zero_()
        model.classifier.bias.zero_()
        for i in range(len(LABELS)):
            model.classifier.weight[i, i] = 1.0
    tokenizer.save_pretrained(str(path))
    model.save_pretrained(str(path))
    return str(path)


SENT = NERInput("Barack Obama visited Paris and Berlins with Google on Monday.")
EXPECTED = [("Barack Obama", "PERSON"), ("Paris", "GPE"), ("Berlins", "GPE"), ("Google", "ORG")]


@pytest.mark.parametrize("aggregation", ["simple", "first", "none"])
def test_hf_token_classifier_aggregates_word_pieces(tagger_dir: str, aggregation: str) -> None:
    from mtwidgets.ner.models.hf import HFTokenClassifier

    model = HFTokenClassifier(tagger_dir, aggregation=aggregation)
    assert model.task == "ner"
    p, q = model.predict([SENT, NERInput("He said.")])
    assert _found(SENT, p) == EXPECTED
    assert q.spans == ()


def test_hf_token_classifier_from_pipeline_and_path_object(tagger_dir: str) -> None:
    import transformers

    from mtwidgets.ner.models.hf import HFTokenClassifier

    pipe = transformers.pipeline("token-classification", model=tagger_dir, aggregation_strategy="simple")
    by_pipe = HFTokenClassifier(pipe).predict([SENT])
    by_path = HFTokenClassifier(Path(tagger_dir)).predict([SENT])
    assert by_pipe == by_path and _found(SENT, by_pipe[0]) == EXPECTED


def test_hf_label_map_and_bad_arguments(tagger_dir: str) -> None:
    from mtwidgets.ner.models.hf import HFTokenClassifier

    only_people = HFTokenClassifier(
        tagger_dir, label_map=LabelMap({"PER": "PERSON"}, "people", unknown="drop")
    )
    assert _found(SENT, only_people.predict([SENT])[0]) == [("Barack Obama", "PERSON")]
    with pytest.raises(ValueError, match="aggregation must be one of"):
        HFTokenClassifier(tagger_dir, aggregation="mean")
    with pytest.raises(TypeError, match="hub name, a local path or a token-classification pipeline"):
        HFTokenClassifier(42)


def test_merge_bio_and_clean_spans() -> None:
    from mtwidgets.ner.labels import CONLL
    from mtwidgets.ner.models.hf import clean_spans, merge_bio

    tokens = [
        {"entity": "B-PER", "start": 0, "end": 3, "score": 0.9},
        {"entity": "I-PER", "start": 4, "end": 7, "score": 0.7},
        {"entity": "B-PER", "start": 8, "end": 11, "score": 0.8},  # B- starts a new entity
        {"entity": "I-LOC", "start": 12, "end": 15, "score": 0.6},  # type change starts one too
    ]
    assert merge_bio(tokens, CONLL) == [(0, 7, "PERSON", pytest.approx(0.8)), (8, 11, "PERSON", 0.8),
                                        (12, 15, "GPE", 0.6)]  # fmt: skip
    text = "Ann Lee Bob Rio"
    assert clean_spans(text, [(0, 8, "PERSON", 0.5), (4, 11, "ORG", 0.9), (12, 15, "GPE", 0.1)]) == (
        Span(4, 11, "ORG"),  # overlap: the higher score wins; trailing space trimmed
        Span(12, 15, "GPE"),
    )


# -- REST in the commercial APIs' shapes ---------------------------------------------------


def _entities(text: str) -> list[tuple[int, int, str]]:
    out = []
    for mention, label in (("Barack Obama", "PERSON"), ("Paris", "LOCATION"), ("Google", "ORGANIZATION")):
        i = text.find(mention)
        if i >= 0:
            out.append((i, i + len(mention), label))
    return out


class _Handler(BaseHTTPRequestHandler):
    requests: list[tuple[str, Any]] = []
    shift = 0

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append((self.path, body))
        if self.path == "/fail":
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b"overloaded")
            return
        shift = type(self).shift
        if "TextList" in body:
            answer: Any = {"ResultList": [
                {"Index": i, "Entities": [{"BeginOffset": s + shift, "EndOffset": e + shift, "Type": lab,
                                           "Score": 0.9, "Text": t[s:e]} for s, e, lab in _entities(t)]}
                for i, t in enumerate(body["TextList"])], "ErrorList": []}  # fmt: skip
        elif "documents" in body:
            answer = {"documents": [
                {"id": d["id"], "entities": [{"text": d["text"][s:e], "category": lab.title(), "offset": s,
                                              "length": e - s, "confidenceScore": 0.8} for s, e, lab in
                                             _entities(d["text"])]} for d in body["documents"]], "errors": []}  # fmt: skip
        else:
            t = body["document"]["content"]
            answer = {"entities": [
                {"name": t[s:e], "type": {"ORGANIZATION": "ORGANIZATION"}.get(lab, lab), "salience": 0.5,
                 "mentions": [{"text": {"content": t[s:e], "beginOffset": s}, "type": "PROPER"}]}
                for s, e, lab in _entities(t)]
                + [{"name": "president", "type": "PERSON", "mentions": [
                    {"text": {"content": "visited", "beginOffset": t.find("visited")}, "type": "COMMON"}]}]}  # fmt: skip
        raw = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture()
def server() -> Iterator[str]:
    _Handler.requests = []
    _Handler.shift = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


REST_EXPECTED = [("Barack Obama", "PERSON"), ("Paris", "GPE"), ("Google", "ORG")]


@pytest.mark.parametrize("style", ["aws", "azure", "google"])
def test_rest_ner_styles(server: str, style: str) -> None:
    from mtwidgets.ner.models.rest import RestNER

    model = RestNER(server + "/ner", style=style)  # type: ignore[arg-type]
    other = NERInput("Nothing here.")
    p, q = model.predict([OBAMA, other])
    assert _found(OBAMA, p) == REST_EXPECTED and q.spans == ()
    path, body = _Handler.requests[0]
    if style == "aws":
        assert len(_Handler.requests) == 1 and body == {
            "TextList": [OBAMA.text, other.text],
            "LanguageCode": "en",
        }
    elif style == "azure":
        assert body["documents"][1] == {"id": "1", "language": "en", "text": other.text}
    else:
        assert len(_Handler.requests) == 2  # one document per request
        assert body == {"document": {"type": "PLAIN_TEXT", "content": OBAMA.text}, "encodingType": "UTF32"}


def test_rest_ner_reports_misaligned_offsets_and_http_errors(server: str) -> None:
    from mtwidgets.ner.models.rest import RestNER

    _Handler.shift = 1
    with pytest.raises(ModelError, match="does not match the text.*code points"):
        RestNER(server + "/ner").predict([OBAMA])
    with pytest.raises(ModelError, match="HTTP 503"):
        RestNER(server + "/fail").predict([OBAMA])
    with pytest.raises(ValueError, match="style must be one of"):
        RestNER(server, style="ibm")  # type: ignore[arg-type]
