"""The embedded lexical-relation models: trained heads over offline word embeddings.

A :class:`LexicalRelationModel` holds a word embedder and, per language, one
:class:`~mtwidgets.lexical.head.PairHead` per lexical relation it predicts (``v_syn`` and
``v_hyp`` of the paper's section 6.1). It answers word pairs through the ordinary model
contract (``predict(inputs)``, batched) and a whole ``n x n`` matrix of pairs at once
(:meth:`LexicalRelationModel.predict_matrix`: each word embedded once, two matrix products
per relation, no loop over pairs) for three-way transitivity.

The embedded models (weights shipped in ``mtwidgets/lexical/weights``, trained by
:mod:`mtwidgets.lexical.train` on WordNet and Cilin pairs with a held-out split by word;
their held-out metrics are stored with the weights, :meth:`LexicalRelationModel.metrics`):

- ``lexical-spacy-vectors``: the md spaCy pipeline's word vectors; English.
- ``lexical-minilm``: all-MiniLM-L6-v2 word embeddings; English, and Chinese synonymy
  (Cilin has no hypernymy).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import InputError
from ..core.model import ModelAdapter
from ..core.predictions import Prediction
from .embed import MiniLMWordEmbedder, SpacyWordVectors, WordEmbedder
from .head import PairHead
from .inputs import LANGS, RELATIONS, WordPairInput, check_word, pair_label

WEIGHTS_DIR = Path(__file__).parent / "weights"
WEIGHTS = {
    "lexical-spacy-vectors": WEIGHTS_DIR / "lexical_spacy_vectors.npz",
    "lexical-minilm": WEIGHTS_DIR / "lexical_minilm.npz",
}


@dataclass(frozen=True)
class MatrixPrediction:
    """One relation's predictions over every ordered pair of ``words``: ``scores[i, j]`` and
    ``flags[i, j]`` for ``(words[i], words[j])`` (the diagonal is cleared in ``flags``)."""

    relation: str
    lang: str
    words: tuple[str, ...]
    scores: np.ndarray
    flags: np.ndarray


class LexicalRelationModel(ModelAdapter):
    """Word-pair relation heads over a word embedder.

    Parameters
    ----------
    embedder:
        Turns words into unit vectors (:mod:`mtwidgets.lexical.embed`).
    heads:
        ``{lang: {relation: PairHead}}``.
    thresholds:
        Score at which a relation counts as predicted (default 0.5).
    metrics:
        ``{lang: {relation: {...}}}`` held-out metrics, for display.
    """

    task = "lexical"
    kind = "label"
    version = "1"

    def __init__(
        self,
        embedder: WordEmbedder,
        heads: Mapping[str, Mapping[str, PairHead]],
        *,
        name: str = "lexical",
        thresholds: Mapping[str, float] | None = None,
        metrics: Mapping[str, Any] | None = None,
        batch_size: int = 4096,
    ) -> None:
        super().__init__(name=name, batch_size=batch_size)
        for lang, by_rel in heads.items():
            if lang not in LANGS:
                raise InputError(f"unknown language {lang!r}; one of {', '.join(LANGS)}")
            unknown = set(by_rel) - set(RELATIONS)
            if unknown or not by_rel:
                raise InputError(f"heads for {lang!r} must name some of {', '.join(RELATIONS)}, got {sorted(by_rel)}")
            for rel, head in by_rel.items():
                if head.dim != embedder.dim:
                    raise InputError(f"the {lang}/{rel} head reads {head.dim}-d vectors; the embedder gives {embedder.dim}")
        self.embedder = embedder
        self.heads = {lang: dict(by_rel) for lang, by_rel in heads.items()}
        self.thresholds = {r: 0.5 for r in RELATIONS} | dict(thresholds or {})
        self._metrics = dict(metrics or {})

    @property
    def fingerprint(self) -> str:
        """Class, name, embedder, thresholds and a digest of every head's weights (the disk
        cache's key)."""
        digest = hashlib.sha256()
        for lang, by_rel in sorted(self.heads.items()):
            for rel, head in sorted(by_rel.items()):
                for key, array in sorted(head.arrays().items()):
                    digest.update(f"{lang}/{rel}/{key}".encode())
                    digest.update(np.ascontiguousarray(array).tobytes())
        return (f"{super().fingerprint}:{self.embedder.fingerprint}:{digest.hexdigest()[:16]}:"
                f"{sorted(self.thresholds.items())}")

    @property
    def langs(self) -> tuple[str, ...]:
        return tuple(self.heads)

    def relations_for(self, lang: str) -> tuple[str, ...]:
        """The relations this model predicts in ``lang`` (``()`` for another language)."""
        return tuple(r for r in RELATIONS if r in self.heads.get(lang, {}))

    def metrics(self) -> dict[str, Any]:
        """The held-out metrics stored with the weights (``{lang: {relation: {...}}}``)."""
        return dict(self._metrics)

    def _heads(self, lang: str) -> dict[str, PairHead]:
        if lang not in self.heads:
            raise InputError(
                f"model {self.name!r} predicts lexical relations in {', '.join(self.heads)}, not {lang!r}"
            )
        return self.heads[lang]

    def _predict_batch(self, inputs: list[Any]) -> list[Prediction]:
        out: list[Prediction | None] = [None] * len(inputs)
        by_lang: dict[str, list[int]] = {}
        for i, x in enumerate(inputs):
            if not isinstance(x, WordPairInput):
                raise InputError(f"model {self.name!r} reads word pairs (WordPairInput), got {type(x).__name__}")
            by_lang.setdefault(x.lang, []).append(i)
        for lang, idx in by_lang.items():
            heads = self._heads(lang)
            a = self.embedder.embed([inputs[i].w1 for i in idx])
            b = self.embedder.embed([inputs[i].w2 for i in idx])
            scores = {r: h.pair_scores(a, b) for r, h in heads.items()}
            for row, i in enumerate(idx):
                table = {r: float(s[row]) for r, s in scores.items()}
                flags = {r: v >= self.thresholds[r] for r, v in table.items()}
                out[i] = Prediction(label=pair_label(flags), scores=tuple(table.items()))
        return [p for p in out if p is not None]

    def predict_matrix(
        self, words: Sequence[str], lang: str = "en", relations: Sequence[str] | None = None
    ) -> dict[str, MatrixPrediction]:
        """Per relation, the scores and flags of every ordered pair of ``words`` (distinct
        single words), vectorised: one embedding per word, one ``n x n`` product per relation."""
        checked = tuple(check_word(w, f"words[{i}]") for i, w in enumerate(words))
        if len(set(checked)) != len(checked):
            dup = sorted({w for w in checked if checked.count(w) > 1})[:5]
            raise InputError(f"the words must be distinct; repeated: {', '.join(dup)}")
        if len(checked) >= 2:  # language and script checks, as for one pair
            WordPairInput(checked[0], checked[1], lang)
        heads = self._heads(lang)
        wanted = tuple(relations) if relations is not None else tuple(heads)
        missing = [r for r in wanted if r not in heads]
        if missing:
            raise InputError(f"model {self.name!r} does not predict {', '.join(missing)} in {lang!r}")
        e = self.embedder.embed(list(checked))
        out: dict[str, MatrixPrediction] = {}
        for rel in wanted:
            scores = heads[rel].matrix_scores(e)
            flags = scores >= self.thresholds[rel]
            np.fill_diagonal(flags, False)
            out[rel] = MatrixPrediction(rel, lang, checked, scores, flags)
        return out

    # -- persistence -------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        for lang, by_rel in self.heads.items():
            for rel, head in by_rel.items():
                arrays.update(head.arrays(prefix=f"{lang}/{rel}/"))
        arrays["metrics"] = np.array(json.dumps(self._metrics, sort_keys=True))
        arrays["embedder"] = np.array(self.embedder.name)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path, embedder: WordEmbedder, *, name: str = "lexical") -> LexicalRelationModel:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(
                f"no lexical head weights at {path}; rebuild them with python -m mtwidgets.lexical.train"
            )
        with np.load(path) as f:
            arrays = {k: f[k] for k in f.files}
        if str(arrays.get("embedder", embedder.name)) != embedder.name:
            raise InputError(f"{path} holds heads for the {arrays['embedder']} embedder, not {embedder.name}")
        heads: dict[str, dict[str, PairHead]] = {}
        for key in arrays:
            parts = key.split("/")
            if len(parts) == 3 and parts[2] == "W":
                heads.setdefault(parts[0], {})[parts[1]] = PairHead.from_arrays(arrays, prefix=f"{parts[0]}/{parts[1]}/")
        metrics = json.loads(str(arrays["metrics"])) if "metrics" in arrays else {}
        return cls(embedder, heads, name=name, metrics=metrics)


def spacy_vectors_model() -> LexicalRelationModel:
    """``lexical-spacy-vectors``: English synonymy and hypernymy heads over the md spaCy
    pipeline's word vectors."""
    name = "lexical-spacy-vectors"
    return LexicalRelationModel.load(WEIGHTS[name], SpacyWordVectors(), name=name)


def minilm_model() -> LexicalRelationModel:
    """``lexical-minilm``: heads over all-MiniLM-L6-v2 word embeddings (English synonymy and
    hypernymy, Chinese synonymy)."""
    name = "lexical-minilm"
    return LexicalRelationModel.load(WEIGHTS[name], MiniLMWordEmbedder(), name=name)
