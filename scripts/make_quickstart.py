"""Writes notebooks/quickstart.ipynb (kept as a script so the notebook stays reviewable)."""

from __future__ import annotations

from _notebook import code, md, write_notebook

cells = [
    md(
        "# mtwidgets quickstart: metamorphic testing of relation extraction\n\n"
        "Metamorphic testing needs no gold labels: transform a *source* input into a *follow-up* whose effect "
        "on the output is known, run the model on both, and flag a **violation** when the outputs break the "
        "expected relation. This notebook runs the eight relations of *Metamorphic Testing of Relation "
        "Extraction Models* (Sun et al. 2023) on the two embedded models and reproduces its Table 6 in miniature."
    ),
    code(
        "# parameters (the headless demo overrides these)\nreport_path = 'quickstart_report.html'\n"
        "results_path = 'quickstart_results.jsonl'"
    ),
    code("import mtwidgets as mt\n\nmt.catalogue()"),
    md("## A hand-crafted example\nMark the head as `[[mention|TYPE]]` and the tail as `<<mention|TYPE>>`."),
    code(
        'x = mt.RelationInput.parse("[[John|PERSON]] is <<Mary|PERSON>>\'s father.")\n'
        "models = {name: mt.models.load(name) for name in mt.models.available('re')}\n"
        "for group in mt.relation('MR-S2').generate(x):\n"
        "    print('follow-up:', group.followups[0].to_markup())\n"
        "    for name, model in models.items():\n"
        "        src, fu = model.predict([x, group.followups[0]])\n"
        "        print(f'  {name:10s} source {src.label:15s} follow-up {fu.label}')"
    ),
    md(
        "## Explore one example live\n"
        "The Explorer shows one input at a time on every model: click a token (or drag over several) to mark "
        "the **head** (blue) and the **tail** (red), pick a relation, step through its follow-ups or edit one by "
        "hand, and watch each model's verdict with its reason. Keys: `h` head, `t` tail, `Esc` clear. "
        "Relations whose precondition fails on the input are greyed out with the reason."
    ),
    code(
        "explorer = mt.Explorer(models=models, data=mt.datasets.re_sample())\n"
        'explorer.source = "[[John|PERSON]] is <<Mary|PERSON>>\'s father."\n'
        "explorer.relation = 'MR-S2'\nexplorer"
    ),
    md(
        "What is on screen is readable (and settable) from Python: `explorer.source`, `explorer.followups`, "
        "`explorer.predictions`, `explorer.verdicts`, and the traits `index`, `relation`, `seed`, `candidate`."
    ),
    code("print(explorer.followups[0].to_markup())\nexplorer.verdicts"),
    md(
        "**Save** (or `explorer.save()`) adds the group on screen to `explorer.suite`, a `Results` you can "
        "`.save()` and load back into an Explorer (`mt.Explorer(data=mt.Results.load(path))`) or inspect like a "
        "batch run's results."
    ),
    code(
        "explorer.save()\nexplorer.suite.frame[['relation', 'model', 'followup_text', 'verdict', 'reason']]"
    ),
    md(
        "## The shipped sample\nHand-written sentences covering every relation's precondition (the gold labels are "
        "there for reference only: metamorphic testing does not use them)."
    ),
    code("data = mt.datasets.re_sample()\nprint(len(data), 'sources')\ndata.head()"),
    md("## Run all eight relations on both models"),
    code("results = mt.run(data, relations='all', models=models, seed=0, progress=True)\nresults"),
    md(
        "### Violation rates (the paper's Table 6)\n`groups` counts the applicable metamorphic groups; "
        "`vr_low`/`vr_high` are 95% Wilson intervals."
    ),
    code("summary = results.summary()\nsummary"),
    code("results.chart()"),
    md("### Where the models break\nEvery violation carries a one-line reason."),
    code("results.violations()[['relation', 'model', 'source_text', 'followup_text', 'reason']].head(10)"),
    md("## Save and report"),
    code(
        "results.save(results_path)\nreloaded = mt.Results.load(results_path)\n"
        "assert reloaded.frame.equals(results.frame)\nresults.report(report_path)\nprint('report written to', report_path)"
    ),
]
write_notebook(cells, "quickstart.ipynb")
