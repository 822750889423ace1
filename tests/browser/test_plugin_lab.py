"""The toy shout-detection task (tests/plugins/shouting, written outside mtwidgets) in a real
JupyterLab: the Explorer shows its text, follow-up and verdict through the generic view
parts, and the Batch panel runs it from the Run button, both checked against the kernel.
"""

from __future__ import annotations

import json
from pathlib import Path

from lab import Lab, NotebookPage

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
REGISTER = (
    "import sys\n"
    f"sys.path.insert(0, {str(PLUGINS)!r})\n"
    "import mtwidgets as mt, shouting\n"
    "mt.register_task(shouting.TASK, replace=True)\n"
)
IDLE = ".mtw-explorer[data-busy='0']"


def kernel_json(nb: NotebookPage, expr: str) -> object:
    return json.loads(nb.execute(f"import json as _json\nprint(_json.dumps({expr}, default=str))"))


def test_explorer_shows_the_plugin_tasks_follow_up_and_verdict(lab: Lab) -> None:
    cell = REGISTER + (
        "explorer = mt.Explorer(task='shout', data=shouting.sample(), models=['shout-caps'], "
        "relations=['SHOUT-spacing'], seed=0)\nexplorer.source = 'GO GO GO'\nexplorer"
    )
    nb = lab.open(lab.write_notebook([cell]))
    try:
        nb.run_all()
        nb.wait_for(".mtw-explorer")
        nb.wait_until(f"() => document.querySelector({IDLE!r}) !== null", timeout=60, what="the Explorer to settle")
        nb.wait_until(
            "() => [...document.querySelectorAll('.mtw-explorer__model')].some(m => m.dataset.model === 'shout-caps')",
            timeout=60, what="the model card",
        )
        shown = nb.page.evaluate(
            "() => { const m = document.querySelector('.mtw-explorer__model[data-model=\"shout-caps\"]');"
            " return {verdict: m.querySelector('.mtw-explorer__verdict').dataset.verdict,"
            " text: m.textContent, followup: document.querySelector('.mtw-explorer__followup').textContent}; }"
        )
        assert shown["verdict"] == kernel_json(nb, "explorer.verdicts['shout-caps']") == "violation"
        assert "shout" in shown["text"] and "calm" in shown["text"]  # both predictions on the card
        assert "GO" in shown["followup"]
        nb.screenshot("plugin_explorer", ".mtw-explorer")
        assert nb.dialogs == []
    finally:
        nb.close()


def test_batch_panel_runs_the_plugin_task_from_the_run_button(lab: Lab) -> None:
    cell = REGISTER + (
        "import pandas as pd\n"
        "df = pd.DataFrame({'text': list(shouting.SAMPLE)})\n"
        "panel = mt.BatchPanel(data=df, task='shout', models=['shout-caps'], relations='all', seed=0)\npanel"
    )
    nb = lab.open(lab.write_notebook([cell]), height=1400)
    try:
        nb.run_all()
        nb.wait_for(".mtw-batch__run")
        nb.page.click(".mtw-batch__run")
        nb.wait_for(".mtw-batch__tableview[data-state='done']", timeout=120, state="attached")
        assert kernel_json(nb, "panel.state") == "done"
        violations = kernel_json(nb, "panel.results.violations()['source_text'].tolist()")
        assert violations == ["GO GO GO"]
        rows = nb.page.evaluate(
            "() => [...document.querySelectorAll('.mtw-batch__tableview tbody tr')].map(r => r.textContent)"
        )
        assert any("GO GO GO" in r for r in rows), rows
        nb.screenshot("plugin_batch", ".mtw-batch")
        assert nb.dialogs == []
    finally:
        nb.close()
