"""Writes notebooks/ner.ipynb (kept as a script so the notebook stays reviewable)."""

from __future__ import annotations

from _notebook import code, md, write_notebook

RELATIONS = "['TIN-token', 'TIN-phrase', 'TIN-question', 'TIN-shuffle']"
cells = [
    md(
        "# Testing NER systems: TIN (Yu et al. 2023)\n\n"
        "Metamorphic testing of named entity recognition needs no gold: a similar sentence (one verb, "
        "adjective or noun phrase swapped for a similar one), the same sentence as a question, or its entities "
        "shuffled within a category, must keep the entities' labels. Where a model changes its mind, the "
        "disagreeing entities are *suspicious*; TIN then repairs them by asking the model about similar "
        "entities and voting. This notebook explores one sentence at a time, then runs the four relations over "
        "the shipped sample on the two embedded spaCy pipelines."
    ),
    code("# parameters (a headless run may override these)\nseed = 0\nsample = 60  # sentences for the batch run (0: all 266)"),
    code(
        "import mtwidgets as mt\n\n"
        "data = mt.datasets.ner_sample_frame()  # text + gold entities, written for the project\n"
        "print(len(data), 'sentences,', data['n_entities'].sum(), 'gold entities')\n"
        "data.head()"
    ),
    md(
        "## One sentence at a time: the Explorer\n"
        "Spans are tinted per label, the label printed beside each. Drag over tokens to add a **gold** entity "
        "(label from *new entity label*, or spaCy's on *auto*), change a chip's label or remove it with ×. Pick "
        "a relation: each model's card shows both sentences with its spans, flags the suspicious entities (with "
        "the error category of each side against the gold) and, on a violation, the repaired prediction with "
        "the votes behind each relabel. The first repair loads word vectors and MiniLM (a few seconds)."
    ),
    code(f"explorer = mt.Explorer(data=data, relations={RELATIONS}, seed=seed)\nexplorer"),
    md("The same from Python: find the first sentence where a question changes a model's mind."),
    code(
        "explorer.relation = 'TIN-question'\n"
        "for i in range(len(data)):\n"
        "    explorer.index = i\n"
        "    if 'violation' in explorer.verdicts.values():\n"
        "        break\n"
        "print(i, explorer.source.text)\n"
        "print(explorer.followups[0].text)\n"
        "print(explorer.verdicts)\n"
        "for model, found in explorer.suspicious.items():\n"
        "    for s in found:\n"
        "        print(model, '-', s.describe(explorer.source.text, explorer.followups[0].text))\n"
        "for model, r in explorer.repairs.items():\n"
        "    print(model, 'repaired follow-up:', [(explorer.followups[0].text[s.start:s.end], s.label) for s in r['followup']])"
    ),
    md(
        "## The whole sample: the Batch panel\n"
        "VR per transformation × model with 95% intervals, and the distribution of the suspicious issues' error "
        "categories (omission, over-labeling, incorrect category, range error, judged against the gold). Click a "
        "bar to list those violations below the charts; a row opens in an Explorer."
    ),
    code(
        "panel = mt.BatchPanel(data=data, models=['ner-spacy-sm', 'ner-spacy-md'],\n"
        f"                      relations={RELATIONS}, seed=seed, sample=sample or None)\n"
        "panel"
    ),
    code("results = panel.run()\npanel.summary()"),
    md(
        "## TIN's tables\n"
        "Suspicious issues and their precision against the gold (Table 3), the error categories, and the repair "
        "metrics (Table 6: Err2Cor, Cor2Err, ErrorReduce). `mtwidgets run --task ner` writes the same tables "
        "and an HTML report from the command line."
    ),
    code(
        "from mtwidgets.ner.evaluate import evaluate\n\n"
        "models = {name: mt.models.load(name) for name in ['ner-spacy-sm', 'ner-spacy-md']}\n"
        "ev = evaluate(results, models)\n"
        "ev.precision[['relation', 'model', 'groups', 'issues', 'precision', 'source_precision']]"
    ),
    code("ev.categories"),
    code("ev.repair"),
]
write_notebook(cells, "ner.ipynb")
