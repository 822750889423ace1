"""The relation-extraction task (Sun et al. 2023): its one declaration.

Everything heavy is named by reference and imported when first used.
"""

from __future__ import annotations

from ..core.task import ColumnMode, EmbeddedModel, Field, Task

_TYPES = (
    Field("head_type", "entity type of the head (PERSON, CITY, ...); inferred when empty", required=False),
    Field("tail_type", "entity type of the tail; inferred when empty", required=False),
    Field("gold", "the gold relation label (ENTRE scores against it); optional", required=False),
)
OFFSETS: tuple[str, ...] = ("head_start", "head_end", "tail_start", "tail_end")

COLUMN_MODES = (
    ColumnMode("markup", "markup: [[head|TYPE]] ... <<tail|TYPE>>",
               (Field("markup", "the sentence with [[head]] and <<tail>> marked"), *_TYPES)),
    ColumnMode("offsets", "text + character offsets",
               (Field("text", "the sentence"),
                *(Field(c, f"character offset: {c.replace('_', ' ')}", numeric=True) for c in OFFSETS),
                *_TYPES)),
    ColumnMode("mentions", "text + mention strings",
               (Field("text", "the sentence"), Field("head", "the head mention as written in the text"),
                Field("tail", "the tail mention as written in the text"), *_TYPES)),
)

# Columns that only relation-extraction data has.
RE_COLUMNS = frozenset({"markup", "head", "tail", *OFFSETS})


def detect(columns: set[str]) -> bool:
    return bool(columns & RE_COLUMNS)


TASK = Task(
    name="re",
    title="Relation extraction",
    input_type="mtwidgets.re.inputs:RelationInput",
    prediction="label",
    relations=("MR-R1", "MR-R2", "MR-R3", "MR-R4", "MR-S1", "MR-S2", "MR-C1", "MR-C2"),
    on_request=("ENTRE", "ENTRE-fast"),  # need gold labels and up to `rounds` model calls per instance
    build_relation="mtwidgets.re.relations:build",
    models=(
        EmbeddedModel(
            "re-patterns", "re", "mtwidgets.re.models.patterns:PatternRelationExtractor",
            "Transparent dependency-pattern relation extractor over spaCy (en_core_web_sm), "
            "TACRED labels; every prediction names the rule that fired.",
        ),
        EmbeddedModel(
            "re-minilm", "re", "mtwidgets.re.models.minilm:MiniLMRelationClassifier",
            "Frozen MiniLM encoder (all-MiniLM-L6-v2) with typed entity markers and a small "
            "trained classification head, TACRED labels; trained on the project's generated data.",
        ),
    ),
    from_row="mtwidgets.re.inputs:relation_input_from_row",
    from_text="mtwidgets.re.inputs:RelationInput.parse",
    column_modes=COLUMN_MODES,
    detect=detect,
    sample="mtwidgets.re.data:sample",
    explorer="mtwidgets.re.explorer_view:parts",
    batch="mtwidgets.re.batch_view:parts",
    report="mtwidgets.re.report:sections",
    cli="mtwidgets.re.cli:RECLI",
    model_wrappers=("mtwidgets.re.models.opennre:wrap_infer",),
    description="A sentence with a head and a tail entity; the model names the relation between them "
    "(TACRED labels).",
)
