"""Named entity recognition as a metamorphic-testing task (the TIN paper).

Importing this package is light: inputs and labels only. Transformations, filters and
model adapters import spaCy / torch when they are built.
"""

from __future__ import annotations

from .inputs import NERInput
from .labels import CANONICAL, CONLL, SPACY, LabelMap, coarse, same_label

__all__ = ["CANONICAL", "CONLL", "SPACY", "LabelMap", "NERInput", "coarse", "same_label"]
