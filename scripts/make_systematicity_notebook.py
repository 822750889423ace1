"""Writes notebooks/systematicity.ipynb (kept as a script so the notebook stays reviewable)."""

from __future__ import annotations

from _notebook import code, md, write_notebook

cells = [
    md(
        "# Systematicity, compositionality and transitivity (Manino et al. 2022)\n\n"
        "Most metamorphic relations for NLP models take *one* source input, change it a little and ask the output "
        "not to change (robustness). Manino et al. propose three classes of relations over *several* sources, so "
        "that one data set of k inputs gives O(k²) or O(k³) test cases, none of them needing a gold label:\n\n"
        "- **pairwise systematicity** (section 4): two sources x1, x2 and the same transformation T of both; the "
        "order of the model's sentiment scores on the sources (the premise P_src) must be the order on the "
        "follow-ups (the hypothesis P_flw): `P_src ⇔ P_flw` (Tables 1 and 2);\n"
        "- **pairwise compositionality** (section 5): two NLI inputs (C(ℓa), C(ℓb)) built on the same context C "
        "from two insertion pairs; the order of a linear hypernymy probe's scores on the model's hidden layer "
        "(P_hid) must match the order of its entailment scores (P_out), in the direction the context's "
        "monotonicity says (Tables 3 and 4);\n"
        "- **three-way transitivity** (section 6): three words; if a lexical-relation model says (w1, w2) and "
        "(w2, w3) are synonyms (or hypernyms), it must say so of (w1, w3) (Table 5).\n\n"
        "The measure is the *safety*: the share of tested cases that satisfy the relation. The counts are exact "
        "over every pair or triplet, never built one by one: the pairs by an O(k log k) count of discordant "
        "orders, the triplets by boolean matrix products.\n\n"
        "This notebook reproduces the paper's five tables in miniature on the embedded models (three sentiment "
        "classifiers, an NLI model, two lexical-relation models), on the shipped English sample, a slice of the "
        "WordNet insertion pairs and a few hundred held-out words, so that it runs top to bottom in under a "
        "minute on a laptop CPU (executed headless with nbclient on 2 cores: 29-43 s with the kernel's start, "
        "most of it loading the six models and WordNet; the last cell prints the time of the run). Enlarge the sizes in the parameters cell for the full "
        "material: `mtwidgets run --task nli --data sample --full-material` and "
        "`python -m mtwidgets.lexical.experiment` run the bigger versions."
    ),
    code(
        "# parameters (a headless run may override these)\n"
        "seed = 0\n"
        "# Tables 1-2: sources drawn from the English classification sample (0: all of its 208 texts)\n"
        "sentiment_sources = 0\n"
        "table2_model = 'sentiment-spacy-textcat'  # whose worst and best sources Table 2 lists\n"
        "table2_rows = 5  # worst sources shown (and up to 3 best)\n"
        "# Tables 3-4: the insertion pairs of these WordNet domains (at most this many hypernym pairs each,\n"
        "# with their reverses and as many unrelated pairs) and this many unrelated cross-domain pairs,\n"
        "# composed with every shipped context that accepts them\n"
        "nli_domains = ('plant', 'food', 'vehicle', 'place', 'event')\n"
        "nli_hypernym_pairs = 8\n"
        "nli_cross_domain = 10\n"
        "# Table 5: held-out words drawn per language (every ordered triplet of them is counted)\n"
        "lexical_words = 200\n"
        "lexical_langs = ('en', 'zh')"
    ),
    code(
        "import random\n"
        "import time\n"
        "import warnings\n\n"
        "import pandas as pd\n"
        "from IPython.display import HTML\n\n"
        "import mtwidgets as mt\n"
        "from mtwidgets.text import data\n\n"
        "started = time.perf_counter()\n"
        "warnings.filterwarnings('ignore', message=r'\\[W095\\]')  # spaCy: a pipeline saved by an older minor version\n"
        "pd.set_option('display.max_colwidth', 110)\n"
        "SENTIMENT = ('sentiment-vader', 'sentiment-textblob', 'sentiment-spacy-textcat')\n"
        "LEXICAL = ('lexical-spacy-vectors', 'lexical-minilm')\n\n\n"
        "def subsample(items, k):\n"
        "    \"\"\"`k` of `items` drawn with the seed, in their order (0: all).\"\"\"\n"
        "    if not k or k >= len(items):\n"
        "        return list(items)\n"
        "    keep = set(random.Random(seed).sample(range(len(items)), k))\n"
        "    return [x for i, x in enumerate(items) if i in keep]\n\n\n"
        "def ends(table, n=5):\n"
        "    \"\"\"The first and last `n` rows of a sorted table (the paper prints them with '...').\"\"\"\n"
        "    return table if len(table) <= 2 * n else pd.concat([table.head(n), table.tail(n)])\n\n\n"
        "def counts(aggregates, slices):\n"
        "    \"\"\"The count columns and the safety of some slices of an aggregates frame.\"\"\"\n"
        "    cols = ['model', 'slice', 'tests', 'satisfied', 'violations', 'not_applicable', 'safety']\n"
        "    return aggregates.loc[aggregates['slice'].isin(slices), cols].reset_index(drop=True)"
    ),
    md(
        "## The graphical notation (section 2)\n"
        "Texts are circles, numbers (scores, embeddings) squares; the sources are shaded grey; arrows are the "
        "model f and the transformations T; the output property P is linked to the outputs it speaks of by "
        "dashed lines. Pairwise systematicity (Figure 2) relates the order of two source outputs to the order "
        "of their follow-ups; pairwise compositionality (Figure 4) has no transformation but splits the model "
        "into a hidden layer z = f(x) and an output y = g(z); three-way transitivity (Figure 5) combines three "
        "sources into three pairs. `mt.relation(name).diagram()` draws any relation of the catalogue this way."
    ),
    code(
        "diagrams = {name: mt.relation(name).diagram()\n"
        "            for name in ('pairwise-systematicity', 'pairwise-compositionality', 'transitivity-syn')}\n"
        "HTML('<div style=\"display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start\">'\n"
        "     + ''.join(f'<div>{d.svg}</div>' for d in diagrams.values()) + '</div>')"
    ),
    md(
        "## Pairwise systematicity of sentiment models (Table 1)\n"
        "Each of Table 1's six neutral sentences is added at the start or the end of every source; for every "
        "ordered pair of sources, the order of the positive-sentiment scores must survive. k sources give "
        "k(k - 1) ordered pairs per sentence from 7k model calls (the sources and their six follow-ups). "
        "Safety per sentence (rows) and model (columns), with the paper's RoBERTa beside them (movie reviews; "
        "the sample here is short news and reviews)."
    ),
    code(
        "from mtwidgets.systematicity import TABLE_1\n\n"
        "PAPER_TABLE_1 = (0.900, 0.910, 0.922, 0.932, 0.943, 0.955)  # RoBERTa on SST, in TABLE_1's order\n"
        "texts = subsample(data.inputs('classification', 'en'), sentiment_sources)\n"
        "sentiment = {name: mt.models.load(name) for name in SENTIMENT}\n"
        "systematicity = mt.run(texts, relations='pairwise-systematicity', models=sentiment, seed=seed)\n"
        "sys_rows = systematicity.aggregates\n"
        "safety = sys_rows.pivot(index='slice', columns='model', values='safety')\n"
        "table1 = pd.DataFrame(\n"
        "    [[c.position.capitalize(), c.text, *safety.loc[f'transformation={c.label}', list(SENTIMENT)], paper]\n"
        "     for c, paper in zip(TABLE_1, PAPER_TABLE_1)]\n"
        "    + [['All', '(the six pooled)', *safety.loc['overall', list(SENTIMENT)], None]],\n"
        "    columns=['Position', 'Concatenated Text', *SENTIMENT, 'paper (RoBERTa)'])\n"
        "k, pairs = len(texts), int(sys_rows.loc[sys_rows['slice'] == 'overall', 'tests'].iloc[0])\n"
        "print(f'{k} sources: {pairs:,} tested pairs per model from {7 * k} model calls')\n"
        "table1.round(3)"
    ),
    md(
        "## The sources in the most violations (Table 2)\n"
        "The same pass counts the violations of every source over all six sentences (each source is in "
        "2(k - 1) ordered pairs per sentence). The paper found its least systematic sources all misclassified; "
        "the sample's gold sentiment is shown beside the model's label."
    ),
    code(
        "def table2(model, n=table2_rows):\n"
        "    \"\"\"The model's `n` worst and up to 3 best sources (safety: their share of satisfied pairs).\"\"\"\n"
        "    detail = sys_rows[(sys_rows['model'] == model) & (sys_rows['slice'] == 'overall')].iloc[0]['detail']\n"
        "    listed = detail['worst_sources'][:n] + detail['best_sources']\n"
        "    return pd.DataFrame([{'Safety': s['safety'], 'Source Input': s['text'], 'Pred.': s['label'],\n"
        "                          'Gold': texts[s['source_index']].sentiment, 's_pos': s['score'],\n"
        "                          'violations': s['violations'], 'satisfied': s['satisfied'],\n"
        "                          'source_index': s['source_index']} for s in listed])\n\n\n"
        "worst = table2(table2_model)\n"
        "print(f'{table2_model}: the {table2_rows} worst sources, then the best')\n"
        "worst.round(3)"
    ),
    md(
        "## Pairwise compositionality of an NLI model (Tables 3 and 4)\n"
        "Contexts with a slot (upward or downward monotone) composed with WordNet insertion pairs: hypernyms "
        "(⊇), hyponyms (⊆) or unrelated; only Up(⊆) and Down(⊇) are entailed. A linear probe trained on half of "
        "the insertion pairs reads the hypernymy of ℓa over ℓb from the model's second-to-last layer; every "
        "pair of compositions of one context is then a test: in a downward context more hypernymy must mean "
        "more entailment, in an upward one less. The model is the embedded `nli-minilm` (a head over MiniLM "
        "trained by the project on generated material)."
    ),
    code(
        "from mtwidgets.nli import compositions\n"
        "from mtwidgets.nli.compositionality import table3 as contexts_table, table4 as insertions_table\n"
        "from mtwidgets.nli.lexicon import insertion_pairs\n\n"
        "insertions = insertion_pairs(nli_domains, cross_domain=nli_cross_domain, max_hypernym_pairs=nli_hypernym_pairs)\n"
        "material = compositions(pairs=insertions)\n"
        "compositionality = mt.run(material, relations='pairwise-compositionality',\n"
        "                          models={'nli-minilm': mt.models.load('nli-minilm')}, seed=seed)\n"
        "comp_rows = compositionality.aggregates\n"
        "comp_overall = comp_rows[comp_rows['slice'] == 'overall'].iloc[0]['detail']\n"
        "table3 = contexts_table(comp_rows).drop(columns='model')\n"
        "table4 = insertions_table(comp_rows).drop(columns='model')\n"
        "print(f'{len(material)} compositions of {len(table3)} contexts with {len(table4)} insertion pairs '\n"
        "      f'(each context takes the pairs of its domains): '\n"
        "      f'{int(comp_rows.loc[comp_rows.slice == \"overall\", \"tests\"].iloc[0]):,} tested pairs')\n"
        "print(f\"hypernymy probe: held-out accuracy {comp_overall['probe_accuracy']:.3f} \"\n"
        "      f\"(training {comp_overall['probe_train_accuracy']:.3f}; the paper's probe on RoBERTa: 0.988); \"\n"
        "      f\"the model's entailment accuracy on the compositions: {comp_overall['entailment_accuracy']:.3f}\")\n"
        "up_down = counts(comp_rows, ['overall', 'monotonicity=up', 'monotonicity=down']).drop(columns='model')\n"
        "up_down['paper (RoBERTa)'] = [0.5936, 0.6880, 0.4808]\n"
        "up_down.round(3)"
    ),
    md("Contexts by increasing safety (Table 3; the five least and the five most compositional):"),
    code("ends(table3).round(3)"),
    md("Insertion pairs by increasing safety over all the contexts that take them (Table 4):"),
    code("ends(table4).round(3)"),
    md(
        "## Three-way transitivity of lexical-relation models (Table 5)\n"
        "Two heads per model (synonymy v_syn, hypernymy v_hyp) over word vectors (`lexical-spacy-vectors`, "
        "English) or MiniLM embeddings (`lexical-minilm`, English and Chinese synonymy), trained on WordNet and "
        "Cilin pairs. Words the heads never saw in training are drawn per language; every ordered triplet "
        "(w1, w2, w3) with v(w1, w2) and v(w2, w3) predicted is a test, satisfied when v(w1, w3) is predicted "
        "too. Safety per language (rows) and model and relation (columns); no head of a model for a language: "
        "empty. The paper's fine-tuned XLM-R on CogALex is beside them."
    ),
    code(
        "from mtwidgets.lexical import miniature\n\n"
        "lexical_models = {name: mt.models.load(name) for name in LEXICAL}\n"
        "transitivity = miniature(lexical_models, n=lexical_words, langs=lexical_langs, seed=seed)\n"
        "lex_rows = transitivity.frame()\n"
        "paper = pd.DataFrame({'transitivity-syn': {'en': 0.191, 'zh': 0.390}, 'transitivity-hyp': {'en': 0.277, 'zh': 0.394}})\n"
        "table5 = pd.concat({**{m: transitivity.table5(m) for m in LEXICAL}, 'paper (XLM-R)': paper}, axis=1)\n"
        "table5 = table5.reindex(list(lexical_langs))\n"
        "table5.index.name = 'language'\n"
        "tested = lex_rows[lex_rows['slice'] != 'overall']\n"
        "print(f'{lexical_words} words per language: {int(tested.tests.sum()):,} tested triplets '\n"
        "      f'out of {int((tested.tests + tested.not_applicable + tested.errors).sum()):,}')\n"
        "table5.round(3)"
    ),
    md(
        "## One pair at a time: the Explorer\n"
        "The Explorer shows one pair of pairwise systematicity live: x1, x2, the sentence T added to both, each "
        "model's four positive scores, P_src, P_flw and the verdict. It opens here on a violating pair the run "
        "counted for Table 2's model; pick another x2 (a row or a typed text) or another sentence and the case "
        "is recomputed. From Python, `explorer.verdicts` and `explorer.judgements` hold what the cards show."
    ),
    code(
        "example = next(e for e in sys_rows[(sys_rows['model'] == table2_model) & (sys_rows['slice'] == 'overall')]\n"
        "               .iloc[0]['examples'] if e['verdict'] == 'violation')\n"
        "explorer = mt.Explorer(relations=['pairwise-systematicity'], data=texts, models=sentiment, seed=seed)\n"
        "explorer.index = example['x1']['source_index']\n"
        "explorer.set_partner(example['x2']['source_index'])\n"
        "explorer.set_option(example['transformation'])\n"
        "print(explorer.case_option, '| x1 =', explorer.index, '| x2 =', example['x2']['source_index'])\n"
        "print(explorer.verdicts)\n"
        "print(table2_model + ':', explorer.judgements[table2_model].check.reason)\n"
        "explorer"
    ),
    md(
        "## The whole run: the Batch panel\n"
        "The Batch panel shows an aggregated relation as counts, its safety per sentence and its worst sources "
        "(Table 2 for every model and slice); clicking a source opens it in an Explorer. Its run reuses the "
        "predictions above (the process-wide cache)."
    ),
    code(
        "panel = mt.BatchPanel(data=texts, models=sentiment, relations=['pairwise-systematicity'], seed=seed)\n"
        "panel.run()\n"
        "panel"
    ),
    code("print(f'notebook ran in {time.perf_counter() - started:.1f} s')"),
]
write_notebook(cells, "systematicity.ipynb")
