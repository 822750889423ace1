"""The headless form of the demo: execute the quickstart notebook and keep its outputs.

The notebook's first code cell holds its parameters; the headless run injects a cell
after it (as papermill does) so the notebook writes its report where we ask.
"""

from __future__ import annotations

import json
from pathlib import Path


def run_headless(notebook: Path, out_dir: Path, *, timeout: int = 1200) -> tuple[Path, Path]:
    import nbformat
    from nbclient import NotebookClient

    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    report = out_dir / "quickstart_report.html"
    nb = nbformat.read(str(notebook), as_version=4)
    first_code = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    injected = nbformat.v4.new_code_cell(
        f"# parameters injected by `mtwidgets demo --headless`\nreport_path = {json.dumps(str(report))}\n"
        f"results_path = {json.dumps(str(out_dir / 'quickstart_results.jsonl'))}"
    )
    nb.cells.insert(first_code + 1, injected)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(out_dir)}})
    client.execute()
    executed = out_dir / "quickstart.executed.ipynb"
    nbformat.write(nb, str(executed))
    if not report.exists():
        raise RuntimeError(f"the notebook ran but wrote no report at {report}")
    return executed, report
