"""Three-way transitivity of a lexical-relation model over word samples, as aggregate rows.

:func:`transitivity` is the fast path outside the runner: it asks the model for one
``n x n`` matrix per relation (its ``predict_matrix``: each word embedded once), counts the
triplets with :mod:`mtwidgets.lexical.transitivity` and keeps a few example triplets, one
:class:`TransitivityResult` per (relation, language). The catalogue relations
(:mod:`mtwidgets.lexical.relations`) count the same way inside ``mt.run`` from the pairs the
runner predicted (:func:`result_from_matrix`).

:class:`TransitivityResults` gathers results and gives

- :meth:`TransitivityResults.rows`: aggregate rows (:mod:`mtwidgets.core.aggregate`), one
  per relation, model and slice: ``"language=xx"`` for each language and ``"overall"`` for
  all languages pooled. ``tests`` = tested triplets (premise ``v(y12) and v(y23)`` true,
  ``(w1, w3)`` predicted) = ``satisfied + violations``; ``not_applicable`` = the other
  ordered triplets of distinct words; ``errors`` = triplets whose ``(w1, w3)`` failed;
  ``detail`` holds the worst words by role (Table 2 style) and the share of pairs
  predicted true;
- :meth:`TransitivityResults.table5`: the paper's Table 5 (safety by language and relation).

The relations are ``transitivity-syn`` (synonymy) and ``transitivity-hyp`` (hypernymy):
:data:`RELATION_NAMES`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.aggregate import OVERALL, aggregate_row, slice_name
from ..core.errors import InputError
from .transitivity import TransitivityCounts, sample_triplets, transitivity_counts

TASK = "lexical"
# catalogue name -> lexical relation
RELATION_NAMES: dict[str, str] = {"transitivity-syn": "synonym", "transitivity-hyp": "hypernym"}
RELATION_OF: dict[str, str] = {v: k for k, v in RELATION_NAMES.items()}


@dataclass(frozen=True)
class TransitivityResult:
    """The transitivity counts of one relation, one model, one language's word sample."""

    relation: str  # catalogue name, e.g. "transitivity-syn"
    model: str
    lang: str
    words: tuple[str, ...]
    counts: TransitivityCounts
    examples: tuple[dict[str, Any], ...] = ()
    positive_rate: float = math.nan  # share of ordered pairs predicted true
    seconds: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # more detail for display
    worst_k: int = 10  # words listed in a row's detail

    @property
    def safety(self) -> float:
        return self.counts.safety

    def worst(self, k: int = 10) -> list[dict[str, Any]]:
        """The ``k`` words in the most violations (ties: word order), with counts by role
        (Table 2 style)."""
        c = self.counts
        totals = c.word_totals()
        order = sorted(range(c.n), key=lambda i: (-int(totals[i]), i))[:k]
        return [
            {
                "word": self.words[i],
                "violations": int(totals[i]),
                "sources": int(c.word_sources[i].sum()),
                **{f"as_{role}": int(c.word_violations[i, r]) for r, role in enumerate(("first", "middle", "last"))},
            }
            for i in order
            if totals[i] > 0
        ]

    def row(self, slice_: str | None = None) -> dict[str, Any]:
        """This result as one aggregated-results row (slice ``language=<lang>`` unless given):
        ``tests`` are the tested triplets (premise true, closing pair predicted),
        ``not_applicable`` the other ordered triplets of distinct words, ``errors`` those
        whose closing pair the model failed on."""
        c = self.counts
        return aggregate_row(
            relation=self.relation, task=TASK, model=self.model, slice=slice_ or slice_name("language", self.lang),
            satisfied=c.satisfied, violations=c.violations, not_applicable=c.not_applicable, errors=c.errors,
            examples=self.examples,
            detail={
                "lang": self.lang,
                "n_words": c.n,
                "triplets": c.triplets,
                "positive_rate": self.positive_rate,
                "worst": self.worst(self.worst_k),
                "seconds": dict(self.seconds),
                **self.extra,
            },
        )


def _example(words: Sequence[str], lang: str, scores: np.ndarray, t: tuple[int, int, int], verdict: str
             ) -> dict[str, Any]:
    i, j, k = t
    return {
        "verdict": verdict,
        "lang": lang,
        "words": [words[i], words[j], words[k]],
        "pairs": [[words[i], words[j]], [words[j], words[k]], [words[i], words[k]]],
        "scores": [float(scores[i, j]), float(scores[j, k]), float(scores[i, k])],
        "indices": [i, j, k],
    }


def result_from_matrix(
    relation: str,
    model: str,
    lang: str,
    words: Sequence[str],
    flags: np.ndarray,
    scores: np.ndarray,
    *,
    known: np.ndarray | None = None,
    failed: np.ndarray | None = None,
    examples: int = 3,
    seed: int = 0,
    seconds: Mapping[str, float] | None = None,
    extra: Mapping[str, Any] | None = None,
    worst: int = 10,
) -> TransitivityResult:
    """Count one relation's predictions over ``words`` (``flags[i, j]`` for ``(words[i],
    words[j])``; ``known``/``failed`` as in
    :func:`~mtwidgets.lexical.transitivity.transitivity_counts`) and keep ``examples``
    violating and as many satisfied triplets, drawn uniformly with ``seed``."""
    t0 = time.perf_counter()
    counts = transitivity_counts(flags, known=known, failed=failed)
    count_s = time.perf_counter() - t0
    shown = [
        _example(words, lang, scores, t, verdict)
        for kind, verdict in (("violation", "violation"), ("satisfied", "pass"))
        for t in sample_triplets(flags, kind=kind, k=examples, seed=seed, known=known, counts=counts)
    ]
    n = len(words)
    predicted = int(n * (n - 1) if known is None else (known & ~np.eye(n, dtype=bool)).sum())
    positive = int((flags if known is None else flags & known).sum() - np.trace(flags))
    return TransitivityResult(
        relation, model, lang, tuple(words), counts, tuple(shown),
        positive / predicted if predicted else math.nan, {**(seconds or {}), "count": count_s},
        dict(extra or {}, predicted_pairs=predicted, positive_pairs=positive), worst,
    )


def transitivity(
    model: Any,
    words: Sequence[str],
    lang: str = "en",
    *,
    relations: Sequence[str] | None = None,
    model_name: str | None = None,
    examples: int = 3,
    seed: int = 0,
) -> list[TransitivityResult]:
    """Three-way transitivity of ``model`` over ``words`` in ``lang``, one result per relation
    (catalogue names, e.g. ``["transitivity-syn"]``; default: every relation the model predicts
    in ``lang``). ``examples`` violating and as many satisfied triplets are kept per
    relation, drawn uniformly with ``seed``."""
    name = model_name or str(getattr(model, "name", type(model).__name__))
    if relations is None:
        available = getattr(model, "relations_for", None)
        lexical = list(available(lang)) if callable(available) else list(RELATION_OF)
    else:
        unknown = [r for r in relations if r not in RELATION_NAMES]
        if unknown:
            raise InputError(f"unknown transitivity relations {unknown}; known: {', '.join(RELATION_NAMES)}")
        lexical = [RELATION_NAMES[r] for r in relations]
    if len(words) < 3:
        raise InputError(f"three-way transitivity needs at least 3 words, got {len(words)}")
    t0 = time.perf_counter()
    matrices = model.predict_matrix(list(words), lang, lexical)
    predict_s = time.perf_counter() - t0
    return [
        result_from_matrix(RELATION_OF[rel], name, lang, matrices[rel].words, matrices[rel].flags,
                           matrices[rel].scores, examples=examples, seed=seed, seconds={"predict": predict_s})
        for rel in lexical
    ]


@dataclass
class TransitivityResults:
    """Several :class:`TransitivityResult` (relations x languages x models)."""

    results: list[TransitivityResult] = field(default_factory=list)

    def add(self, results: Sequence[TransitivityResult]) -> TransitivityResults:
        self.results.extend(results)
        return self

    def rows(self, *, overall: bool = True) -> list[dict[str, Any]]:
        """Aggregated-results rows: one per result (``language=xx``) and, with ``overall``,
        one ``overall`` row per relation and model pooling its languages' counts."""
        out = [r.row() for r in self.results]
        if overall:
            keys = list(dict.fromkeys((r.relation, r.model) for r in self.results))
            for relation, model in keys:
                parts = [r for r in self.results if (r.relation, r.model) == (relation, model)]
                out.append(_pooled(relation, model, parts))
        return out

    def frame(self, *, overall: bool = True) -> Any:
        """:meth:`rows` as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.rows(overall=overall))

    def table5(self, model: str | None = None) -> Any:
        """Safety by language (rows) and relation (columns), the paper's Table 5, for one
        model (the only one, or ``model``)."""
        import pandas as pd

        models = list(dict.fromkeys(r.model for r in self.results))
        if model is None:
            if len(models) != 1:
                raise InputError(f"results hold models {models}; pass model= one of them")
            model = models[0]
        rows: dict[str, dict[str, float]] = {}
        for r in self.results:
            if r.model == model:
                rows.setdefault(r.lang, {})[r.relation] = r.safety
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "language"
        return frame[[c for c in RELATION_NAMES if c in frame.columns]]


def _pooled(relation: str, model: str, parts: Sequence[TransitivityResult]) -> dict[str, Any]:
    """The ``overall`` row of one relation and model: its languages' counts added."""
    return aggregate_row(
        relation=relation, task=TASK, model=model, slice=OVERALL,
        satisfied=sum(p.counts.satisfied for p in parts), violations=sum(p.counts.violations for p in parts),
        not_applicable=sum(p.counts.not_applicable for p in parts), errors=sum(p.counts.errors for p in parts),
        examples=[e for p in parts for e in p.examples],
        detail={
            "languages": [p.lang for p in parts],
            "n_words": {p.lang: p.counts.n for p in parts},
            "worst": sorted((dict(w, lang=p.lang) for p in parts for w in p.worst()),
                            key=lambda w: (-w["violations"], w["lang"], w["word"]))[:10],
        },
    )


def sample_words(pool: Sequence[str], n: int, seed: int = 0) -> list[str]:
    """``n`` distinct words drawn from ``pool`` (deterministic for ``seed``), in pool order."""
    distinct = list(dict.fromkeys(pool))
    if n > len(distinct):
        raise InputError(f"asked for {n} words from a pool of {len(distinct)}")
    keep = set(random.Random(seed).sample(range(len(distinct)), n))
    return [w for i, w in enumerate(distinct) if i in keep]


def table5(
    models: Mapping[str, Any],
    words: Mapping[str, Sequence[str]],
    *,
    examples: int = 3,
    seed: int = 0,
) -> TransitivityResults:
    """Table 5 in miniature: every model over every language's word sample (``{lang:
    words}``), for the relations each model predicts in that language."""
    results = TransitivityResults()
    for name, model in models.items():
        for lang, ws in words.items():
            relations_for = getattr(model, "relations_for", None)
            if callable(relations_for) and not relations_for(lang):
                continue
            results.add(transitivity(model, ws, lang, model_name=name, examples=examples, seed=seed))
    return results


def embedded_models() -> dict[str, Any]:
    """The two embedded lexical models, loaded (``lexical-spacy-vectors``, ``lexical-minilm``)."""
    from .models import minilm_model, spacy_vectors_model

    return {"lexical-spacy-vectors": spacy_vectors_model(), "lexical-minilm": minilm_model()}


def miniature(
    models: Mapping[str, Any] | None = None,
    *,
    n: int = 300,
    langs: Sequence[str] = ("en", "zh"),
    seed: int = 0,
    examples: int = 3,
) -> TransitivityResults:
    """Table 5 in miniature: ``n`` words drawn (with ``seed``) from each language's held-out
    vocabulary (words the embedded heads never saw in training), every ordered triplet
    counted, for every model (default: the embedded ones)."""
    from .data import heldout_words

    chosen = models if models is not None else embedded_models()
    words = {lang: sample_words(heldout_words(lang), n, seed) for lang in langs}
    return table5(chosen, words, examples=examples, seed=seed)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m mtwidgets.lexical.experiment [--n 300] [--seed 0]``: print Table 5 in miniature."""
    import argparse

    parser = argparse.ArgumentParser(description="Table 5 in miniature on the embedded lexical models.")
    parser.add_argument("--n", type=int, default=300, help="words per language")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    results = miniature(n=args.n, seed=args.seed)
    frame = results.frame()
    cols = ["relation", "model", "slice", "tests", "satisfied", "violations", "safety"]
    print(frame[cols].to_string(index=False))
    for model in dict.fromkeys(r.model for r in results.results):
        print(f"\n{model}: safety (Table 5)\n{results.table5(model).round(3).to_string()}")
    print(f"\n{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
