"""The TIN evaluation metrics (section 4.4): precision of suspicious issues and the repair
transitions TT/TF/FT/FF with Err2Cor, Cor2Err and ErrorReduce.

Pure counting over booleans, so the paper's definitions are checkable on hand-made
numbers; :mod:`mtwidgets.ner.evaluate` decides the booleans against gold labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.stats import wilson_interval


def _ratio(num: int, den: int) -> float:
    return num / den if den else math.nan


@dataclass(frozen=True)
class Precision:
    """Share of suspicious issues that hold a real NER error (TIN eq. 6)."""

    erroneous: int
    issues: int

    @property
    def value(self) -> float:
        return _ratio(self.erroneous, self.issues)

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.erroneous, self.issues)

    def __str__(self) -> str:
        if not self.issues:
            return "—"
        return f"{100 * self.value:.1f}% ({self.erroneous}/{self.issues})"


def precision(erroneous: Iterable[bool]) -> Precision:
    """Precision over issues, each ``True`` when N(s) or N(s') is wrong at a suspicious entity."""
    flags = list(erroneous)
    return Precision(sum(bool(f) for f in flags), len(flags))


@dataclass(frozen=True)
class RepairCounts:
    """Transitions of the prediction at each suspicious entity: before -> after repair.

    ``T``/``F``: correct / incorrect against gold; ``FT`` is a repaired error.
    """

    tt: int = 0
    tf: int = 0
    ft: int = 0
    ff: int = 0

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[bool, bool]]) -> RepairCounts:
        """Count ``(correct_before, correct_after)`` pairs."""
        c = {"tt": 0, "tf": 0, "ft": 0, "ff": 0}
        for before, after in pairs:
            c[("t" if before else "f") + ("t" if after else "f")] += 1
        return cls(**c)

    def __add__(self, other: RepairCounts) -> RepairCounts:
        return RepairCounts(self.tt + other.tt, self.tf + other.tf, self.ft + other.ft, self.ff + other.ff)

    @property
    def total(self) -> int:
        return self.tt + self.tf + self.ft + self.ff

    @property
    def num_error(self) -> int:
        return self.ft + self.ff

    @property
    def num_correct(self) -> int:
        return self.tt + self.tf

    @property
    def err2cor(self) -> float:
        """FT / NumError: how many errors the repair fixed."""
        return _ratio(self.ft, self.num_error)

    @property
    def cor2err(self) -> float:
        """TF / NumCorrect: how many correct predictions the repair broke."""
        return _ratio(self.tf, self.num_correct)

    @property
    def error_reduce(self) -> float:
        """(FT - TF) / NumError: the net reduction of errors."""
        return _ratio(self.ft - self.tf, self.num_error)

    def as_row(self) -> dict[str, float | int]:
        """The paper's Table 6 columns."""
        return {
            "TT": self.tt,
            "TF": self.tf,
            "FT": self.ft,
            "FF": self.ff,
            "NumError": self.num_error,
            "NumCorrect": self.num_correct,
            "Err2Cor": self.err2cor,
            "Cor2Err": self.cor2err,
            "ErrorReduce": self.error_reduce,
        }
