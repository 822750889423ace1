"""Writes notebooks/batch.ipynb (kept as a script so the notebook stays reviewable)."""

from __future__ import annotations

from _notebook import code, md, write_notebook

cells = [
    md(
        "# The Batch panel: relations over a whole data set\n\n"
        "The same metamorphic relations the quickstart runs, over a whole DataFrame, charted so you see at a "
        "glance where each model breaks, and can click through to the failing cases. This notebook runs the "
        "eight relation-extraction relations of Sun et al. 2023 on the two embedded models over the shipped "
        "sample."
    ),
    code("# parameters (a headless run may override these)\nexport_dir = 'batch_export'\nseed = 0"),
    code(
        "import mtwidgets as mt\n\n"
        "data = mt.datasets.re_sample()\n"
        "models = {name: mt.models.load(name) for name in mt.models.available('re')}\n"
        "print(len(data), 'sources;', 'models:', list(models))\n"
        "data.head()"
    ),
    md(
        "## The panel\n"
        "**Set-up**: the `markup` column holds the sentences with `[[head|TYPE]]` and `<<tail|TYPE>>` marks "
        "(or map a `text` column plus offset or mention columns); tick relations and models, set the seed, an "
        "optional sample size, and a *slice* column to chart VR per value (here `focus`, the relation each "
        "sentence was written to exercise).\n\n"
        "**Run** works in chunks on the kernel's main thread: the progress bar shows groups done / total, rate, "
        "ETA and the running VR per relation, and the charts fill in as it goes. Interrupt the kernel and every "
        "finished chunk stays; press *Resume* and predictions already made come from the cache."
    ),
    code("panel = mt.BatchPanel(data=data, models=models, relations='all', seed=seed, slice='focus')\npanel"),
    md("Press **Run** above, or run it from Python (the panel above updates either way):"),
    code("results = panel.run()\npanel.summary()"),
    md(
        "## Drill-down\n"
        "Click a bar of the VR chart (or a heatmap cell, or a slice bar): the table below the charts filters "
        "to those violations and `panel.selection` holds them. Click a row for the source / follow-up diff and "
        "both outputs, and *Open in Explorer* to vary the case by hand. The same selection from Python:"
    ),
    code(
        "picked = panel.select(relation='MR-S2', model='re-patterns')\n"
        "picked[['relation', 'model', 'source_text', 'followup_text', 'reason']].head()"
    ),
    code("panel.selection.shape"),
    md(
        "## The panel's results are `mt.run`'s\n"
        "Same inputs, same seed: the same groups and verdicts, in the same order."
    ),
    code(
        "expected = mt.run(data, 'all', models, seed=seed)\n"
        "cols = ['relation', 'model', 'group', 'source_index', 'followup_text', 'verdict']\n"
        "assert panel.results.frame[cols].equals(expected.frame[cols])\n"
        "print('identical:', len(expected), 'groups')"
    ),
    md(
        "## Export\n"
        "Results as Parquet, JSONL and CSV; each chart as HTML (opens offline) and PNG; one standalone HTML "
        "report. The panel's *Export* button writes the same files."
    ),
    code("for path in panel.export(export_dir):\n    print(path)"),
]
write_notebook(cells, "batch.ipynb")
