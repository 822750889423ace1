"""NLI label names: the three canonical labels and the names models give them.

Models name their outputs in many ways: ``ENTAILMENT``, ``entailment``, ``Entails``,
``CONTRADICTION``, ``not_entailment`` (two-way models such as RTE's), or only ``LABEL_0``..
``LABEL_2`` with the meaning left to the config's ``label2id``. :func:`canonical_label`
reads one name; :func:`output_labels` reads a Hugging Face config (with a user's mapping
where the config says nothing) into the canonical name of every output, and refuses a
model none of whose outputs is entailment, since every NLI relation needs that score.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import MTError

ENTAILMENT, NEUTRAL, CONTRADICTION = "entailment", "neutral", "contradiction"
NOT_ENTAILMENT = "not_entailment"
LABELS: tuple[str, ...] = (ENTAILMENT, NEUTRAL, CONTRADICTION)
ALL_LABELS: tuple[str, ...] = (*LABELS, NOT_ENTAILMENT)

_GENERIC = re.compile(r"^label_(\d+)$")


def canonical_label(name: object) -> str | None:
    """The canonical label a model's output name means, or ``None`` when it is not an NLI
    name. Zero-shot convention: a name starting with "entail" is entailment, one starting
    with "contradict" is contradiction; "not"/"non" entailment is the two-way negative."""
    if not isinstance(name, str):
        return None
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    if key.startswith(("not_entail", "non_entail", "nonentail")):
        return NOT_ENTAILMENT
    if key.startswith("entail"):
        return ENTAILMENT
    if key.startswith("contradict"):
        return CONTRADICTION
    if key == NEUTRAL:
        return NEUTRAL
    return None


def _config_names(config: Any, n: int) -> list[str | None]:
    """Per output index, the name the config gives it: ``id2label`` unless generic
    (``LABEL_i``), else the name ``label2id`` maps to that index."""
    id2label = getattr(config, "id2label", None) or {}
    label2id = getattr(config, "label2id", None) or {}
    by_index = {int(v): str(k) for k, v in label2id.items() if not _GENERIC.match(str(k).lower())}
    names: list[str | None] = []
    for i in range(n):
        name = id2label.get(i, id2label.get(str(i)))
        if name is None or _GENERIC.match(str(name).lower()):
            name = by_index.get(i)
        names.append(None if name is None else str(name))
    return names


def _mapped(labels: Mapping[Any, str], i: int, config_name: str | None) -> str | None:
    """The user's name for output ``i``: keyed by index, ``LABEL_i`` or the config's name."""
    for key in (i, str(i), f"LABEL_{i}", config_name):
        if key is not None and key in labels:
            return labels[key]
    return config_name


def output_labels(
    config: Any, n: int, labels: Sequence[str] | Mapping[str, str] | None = None, *, model: str = "model"
) -> list[str]:
    """The canonical label of each of a model's ``n`` outputs.

    ``labels``: the user's word where the config says nothing useful — a sequence of names
    in output order (``["contradiction", "neutral", "entailment"]``), or a mapping from the
    model's names (``"LABEL_2"``) or indices to names. Raises :class:`MTError` for names
    that are no NLI label, two outputs with the same label, or no entailment output.
    """
    names: list[str | None]
    if labels is None:
        names = _config_names(config, n)
    elif isinstance(labels, Mapping):
        config_names = _config_names(config, n)
        names = [_mapped(labels, i, config_names[i]) for i in range(n)]
    else:
        if len(labels) != n:
            raise MTError(f"labels= names {len(labels)} outputs but {model} has {n}: {list(labels)}")
        names = [str(x) for x in labels]
    out: list[str] = []
    for i, name in enumerate(names):
        label = canonical_label(name)
        if label is None:
            shown = ", ".join(repr(x) if x is not None else f"LABEL_{j}" for j, x in enumerate(names))
            raise MTError(
                f"cannot tell what output {i} of {model} means ({shown}): pass labels= with the NLI label of "
                f"every output in order, e.g. labels=['contradiction', 'neutral', 'entailment']"
            )
        out.append(label)
    if len(set(out)) != len(out):
        raise MTError(f"{model}: two outputs mean the same label ({out}); check labels=")
    if ENTAILMENT not in out:
        raise MTError(f"{model} has no entailment output ({out}); an NLI model must score entailment")
    return out


def entailment_score(scores: Sequence[tuple[str, float]] | Mapping[str, float], *, model: str = "model") -> float:
    """The entailment score of one prediction's score table, or :class:`MTError` naming the
    labels the model gave instead."""
    table = dict(scores)
    if ENTAILMENT in table:
        return float(table[ENTAILMENT])
    for name, value in table.items():
        if canonical_label(name) == ENTAILMENT:
            return float(value)
    raise MTError(
        f"{model} gave no entailment score (its scores: {sorted(table) or 'none'}); pairwise compositionality "
        "orders entailment scores, so the model must return every label's score"
    )
