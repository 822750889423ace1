"""The natural language inference task: its one declaration.

A premise and a hypothesis; the model answers entailment / neutral / contradiction with
every label's score. The task's relation, ``pairwise-compositionality`` (section 5 of the
systematicity paper), is an aggregated relation over compositions of a context with an
insertion pair (:mod:`mtwidgets.nli.relations`). Everything heavy is named by reference and
imported when first used.
"""

from __future__ import annotations

from ..core.task import ColumnMode, EmbeddedModel, Field, Task

COLUMN_MODES = (
    ColumnMode("pair", "premise + hypothesis + optional gold label",
               (Field("premise", "the premise (the text that may entail)", aliases=("text_a", "sentence1")),
                Field("hypothesis", "the hypothesis (the text that may follow)", aliases=("text_b", "sentence2")),
                Field("label", "the gold label: entailment, neutral or contradiction", required=False,
                      aliases=("gold_label", "gold")))),
    ColumnMode("composition", "context + monotonicity + insertion pair (a, b) + lexical relation",
               (Field("context", "a sentence with one slot for the insertion: {x} (singular) or {xs} (plural)",
                      aliases=("template",)),
                Field("monotonicity", "up or down: whether the context keeps or inverts the insertion's relation",
                      aliases=("mon",)),
                Field("a", "the insertion word of the premise", aliases=("insertion_a", "word_a")),
                Field("b", "the insertion word of the hypothesis", aliases=("insertion_b", "word_b")),
                Field("relation", "how a relates to b: ⊇ (hypernym), ⊆ (hyponym) or none (unrelated)",
                      aliases=("lexical_relation", "lex_rel")))),
)

TASK = Task(
    name="nli",
    title="Natural language inference",
    input_type="mtwidgets.nli.inputs:NLIInput",
    prediction="label",
    relations=("pairwise-compositionality",),
    build_relation="mtwidgets.nli.relations:build",
    models=(
        EmbeddedModel(
            "nli-minilm", "nli", "mtwidgets.nli.minilm:minilm_nli",
            "Frozen MiniLM (all-MiniLM-L6-v2) sentence and changed-token features with a small trained head; "
            "entailment / neutral / contradiction, trained on the project's generated context x WordNet pairs "
            "(held-out accuracy in mtwidgets/nli/data/nli_minilm_head.json).",
        ),
    ),
    from_row="mtwidgets.nli.inputs:nli_from_row",
    column_modes=COLUMN_MODES,
    detect="mtwidgets.nli.inputs:detect_nli",
    sample="mtwidgets.nli.samples:sample",
    cli="mtwidgets.nli.cli:NLICLI",
    description="A premise and a hypothesis (English); the model answers entailment, neutral or contradiction "
                "with scores. Compositions of a context with an insertion pair also carry what pairwise "
                "compositionality needs.",
)
