"""The Batch panel's relation-extraction part: the generic panel as it is.

Relation extraction's models answer with one label, so the panel keeps the heatmap of VR
per source label, and the table and detail show labels and scores; the offsets mode's
columns are checked for integers through their declared fields (``Field(numeric=True)``).
"""

from __future__ import annotations

from ..core.batch_view import BatchParts


def parts() -> BatchParts:
    return BatchParts()
