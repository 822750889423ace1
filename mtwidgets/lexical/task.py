"""The lexical-relation task (section 6.1 of the systematicity paper): its one declaration.

Everything heavy is named by reference and imported when first used.
"""

from __future__ import annotations

from ..core.task import ColumnMode, EmbeddedModel, Field, Task

COLUMN_MODES = (
    ColumnMode("pair", "two words + optional language and gold kind",
               (Field("w1", "the first word", aliases=("word1", "word_1", "source", "hyponym")),
                Field("w2", "the second word (for hypernymy: the more general one)",
                      aliases=("word2", "word_2", "target", "hypernym")),
                Field("lang", "en, de, it or zh (empty: zh for Chinese characters, else en)", required=False,
                      aliases=("language",)),
                Field("kind", "gold relation: synonym, hypernym, hyponym, antonym, cohyponym or random",
                      required=False, aliases=("relation", "label")))),
)

TASK = Task(
    name="lexical",
    title="Lexical relations",
    input_type="mtwidgets.lexical.inputs:WordPairInput",
    prediction="label",
    relations=("transitivity-syn", "transitivity-hyp"),
    build_relation="mtwidgets.lexical.relations:build",
    models=(
        EmbeddedModel(
            "lexical-spacy-vectors", "lexical", "mtwidgets.lexical.models:spacy_vectors_model",
            "English synonymy and hypernymy: two small heads (one hidden layer + bilinear form) over the md "
            "spaCy pipeline's word vectors, trained on WordNet pairs with a held-out split by word.",
        ),
        EmbeddedModel(
            "lexical-minilm", "lexical", "mtwidgets.lexical.models:minilm_model",
            "English synonymy and hypernymy, Chinese synonymy: small heads over all-MiniLM-L6-v2 word "
            "embeddings, trained on WordNet and Cilin pairs with a held-out split by word.",
        ),
    ),
    from_row="mtwidgets.lexical.inputs:word_pair_from_row",
    from_text="mtwidgets.lexical.inputs:WordPairInput.parse",
    column_modes=COLUMN_MODES,
    detect="mtwidgets.lexical.inputs:detect",
    sample="mtwidgets.lexical.data:sample",
    explorer="mtwidgets.lexical.explorer:LexicalParts",
    description="An ordered word pair (w1, w2); the model says whether w2 is a synonym and whether it is a "
    "hypernym of w1, with a score for each.",
)
