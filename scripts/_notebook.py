"""What every notebook writer under scripts/ shares: the cell constructors and the tail that
writes the notebook with a Python 3 kernel spec into notebooks/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat as nbf

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell


def write_notebook(cells: list[Any], name: str) -> Path:
    """Write ``cells`` to ``notebooks/<name>`` and say where."""
    nb = nbf.v4.new_notebook()
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids: regenerating an unchanged notebook changes nothing
    nb.cells = cells
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    out = Path(__file__).resolve().parents[1] / "notebooks" / name
    nbf.write(nb, str(out))
    print("wrote", out)
    return out
