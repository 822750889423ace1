"""NER label schemes and the mapping layer between them.

Canonical labels are the 18 OntoNotes 5 names spaCy's English pipelines use, plus
``MISC`` for the "other named entity" class of coarse schemes (CoNLL, commercial APIs),
which has no single OntoNotes counterpart. Every adapter maps its system's labels to
canonical ones with a :class:`LabelMap`, so oracles, location and repair compare one
vocabulary; :func:`coarse` folds canonical labels into the CoNLL classes for comparing a
fine-grained system with a coarse one.

Decisions (documented because other schemes are lossy):

- CoNLL ``LOC`` and commercial ``LOCATION`` map to ``GPE``: in news text most locations
  are countries, cities and states. Fine comparisons across schemes are therefore only
  fair with ``granularity="coarse"``, where GPE, LOC and FAC are all ``LOC``.
- ``MISC``/``OTHER`` map to ``MISC``; numeric and temporal classes map to their OntoNotes
  names (``DATE``, ``QUANTITY``, ``MONEY``) and fold to ``None`` at the coarse level,
  which CoNLL does not annotate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from ..core.errors import InputError

ONTONOTES: tuple[str, ...] = (
    "PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
    "LANGUAGE", "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL",
)  # fmt: skip
CANONICAL: tuple[str, ...] = (*ONTONOTES, "MISC")

COARSE: tuple[str, ...] = ("PER", "ORG", "LOC", "MISC")
_COARSE: Mapping[str, str | None] = MappingProxyType({
    "PERSON": "PER",
    "ORG": "ORG",
    "GPE": "LOC", "LOC": "LOC", "FAC": "LOC",
    "NORP": "MISC", "PRODUCT": "MISC", "EVENT": "MISC", "WORK_OF_ART": "MISC", "LAW": "MISC",
    "LANGUAGE": "MISC", "MISC": "MISC",
    "DATE": None, "TIME": None, "PERCENT": None, "MONEY": None, "QUANTITY": None,
    "ORDINAL": None, "CARDINAL": None,
})  # fmt: skip

Granularity = Literal["fine", "coarse"]


def _check_canonical(label: object) -> str:
    if label not in _COARSE:
        raise InputError(
            f"{label!r} is not a canonical NER label; expected one of {', '.join(CANONICAL)} "
            "(map system labels with a LabelMap, e.g. mtwidgets.ner.labels.CONLL.map('PER'))"
        )
    return str(label)


def coarse(label: str) -> str | None:
    """The CoNLL class of a canonical label: PER, ORG, LOC, MISC, or ``None`` for the
    numeric and temporal classes CoNLL does not annotate."""
    return _COARSE[_check_canonical(label)]


def same_label(a: str | None, b: str | None, granularity: Granularity = "fine") -> bool:
    """Whether two canonical labels agree at ``granularity``.

    ``None`` (no entity) equals only ``None``; at the coarse level two numeric classes
    (both folding to ``None``) agree, since a coarse system cannot tell them apart.
    """
    if granularity not in ("fine", "coarse"):
        raise ValueError(f"granularity must be 'fine' or 'coarse', got {granularity!r}")
    if a is None or b is None:
        return a is None and b is None
    if granularity == "fine":
        return _check_canonical(a) == _check_canonical(b)
    return coarse(a) == coarse(b)


def strip_bio(label: str) -> str:
    """``"B-PER"`` / ``"I-PER"`` / ``"E-PER"`` / ``"S-PER"`` / ``"L-"``/``"U-"`` -> ``"PER"``."""
    if len(label) > 2 and label[1] in "-_" and label[0].upper() in "BIESLU":
        return label[2:]
    return label


@dataclass(frozen=True)
class LabelMap:
    """Maps one system's entity labels to canonical ones.

    Parameters
    ----------
    mapping:
        System label -> canonical label, or ``""`` to drop that class (e.g. ``"O"``).
        Lookup tries the label as given, then upper-cased, after stripping a BIO prefix.
    name:
        Shown in error messages.
    unknown:
        What to do with a label outside ``mapping``: ``"error"`` (default: a silent drop
        would hide a scheme mismatch as omissions), ``"drop"``, or ``"keep"`` when it is
        already canonical.
    """

    mapping: Mapping[str, str]
    name: str = "custom"
    unknown: Literal["error", "drop", "keep"] = "error"
    _table: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.unknown not in ("error", "drop", "keep"):
            raise ValueError(f"unknown must be 'error', 'drop' or 'keep', got {self.unknown!r}")
        table: dict[str, str] = {}
        for source, target in self.mapping.items():
            if target != "":
                _check_canonical(target)
            table[str(source)] = target
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "mapping", MappingProxyType(dict(self.mapping)))

    def map(self, label: str) -> str | None:
        """The canonical label for ``label``, or ``None`` when the class is dropped."""
        raw = strip_bio(str(label))
        for key in (raw, raw.upper()):
            if key in self._table:
                return self._table[key] or None
        if raw.upper() in ("O", ""):
            return None
        if self.unknown == "drop":
            return None
        if self.unknown == "keep" and raw.upper() in _COARSE:
            return raw.upper()
        raise InputError(
            f"label {label!r} is not in the {self.name} label map (knows {', '.join(sorted(self._table))}); "
            "pass a LabelMap that covers it, e.g. LabelMap({..., "
            f"{raw!r}: 'ORG'}}, name='mine'), or unknown='drop'"
        )

    def __call__(self, label: str) -> str | None:
        return self.map(label)

    def extended(self, extra: Mapping[str, str], name: str | None = None) -> LabelMap:
        """This map plus (or overriding with) ``extra``."""
        return LabelMap({**self.mapping, **extra}, name or f"{self.name}+", self.unknown)


_IDENTITY = {label: label for label in CANONICAL}

SPACY = LabelMap(_IDENTITY, "spaCy/OntoNotes")
"""spaCy's English pipelines already speak OntoNotes: identity."""

BIO = LabelMap(_IDENTITY, "BIO/OntoNotes")
"""OntoNotes labels with B-/I- prefixes (token classifiers fine-tuned on OntoNotes); the
prefix is stripped by every map, this one just names the case."""

CONLL = LabelMap({"PER": "PERSON", "ORG": "ORG", "LOC": "GPE", "MISC": "MISC"}, "CoNLL-2003")
"""CoNLL-2003 (PER, ORG, LOC, MISC); LOC -> GPE, see the module docstring."""

COMMERCIAL = LabelMap(
    {
        # AWS Comprehend
        "PERSON": "PERSON", "ORGANIZATION": "ORG", "LOCATION": "GPE", "COMMERCIAL_ITEM": "PRODUCT",
        "EVENT": "EVENT", "DATE": "DATE", "QUANTITY": "QUANTITY", "TITLE": "WORK_OF_ART", "OTHER": "MISC",
        # Google Cloud Natural Language / Azure Text Analytics extras
        "CONSUMER_GOOD": "PRODUCT", "WORK_OF_ART": "WORK_OF_ART", "NUMBER": "CARDINAL", "PRICE": "MONEY",
        "ADDRESS": "FAC", "PRODUCT": "PRODUCT", "DATETIME": "DATE", "PHONE_NUMBER": "", "PHONENUMBER": "",
        "PERSONTYPE": "", "SKILL": "", "EMAIL": "", "URL": "", "IP": "", "UNKNOWN": "",
    },
    "commercial API",
)  # fmt: skip
"""Label names of commercial NER APIs (AWS Comprehend, Google Cloud NL, Azure); matching is
case-insensitive, so Azure's ``Person``/``Organization`` work too. Classes with no entity
counterpart (phone numbers, e-mails, person types) are dropped."""

MAPS: Mapping[str, LabelMap] = MappingProxyType(
    {"spacy": SPACY, "bio": BIO, "conll": CONLL, "commercial": COMMERCIAL}
)


def label_map(value: LabelMap | Mapping[str, str] | str) -> LabelMap:
    """A LabelMap from itself, a ready map's name (``"conll"``) or a plain dict."""
    if isinstance(value, LabelMap):
        return value
    if isinstance(value, str):
        if value.lower() not in MAPS:
            raise ValueError(f"no label map named {value!r}; known: {', '.join(MAPS)}, or pass a dict")
        return MAPS[value.lower()]
    if isinstance(value, Mapping):
        return LabelMap(dict(value), "custom")
    raise TypeError(f"label_map must be a LabelMap, a dict or a name, got {type(value).__name__}: {value!r}")
