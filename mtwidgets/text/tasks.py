"""The three text tasks of the Chinese NLP paper (Jiang et al. 2022): classification,
similarity and summarization, declared here, where their inputs, relations, models and
command-line parts live (``mtwidgets.classification.task:TASK`` and its siblings name them
for the entry points).

Everything heavy is named by reference and imported when first used.
"""

from __future__ import annotations

from ..core.task import ColumnMode, EmbeddedModel, Field, Task

CLASSIFICATION_COLUMNS = (
    ColumnMode("text", "text + optional topic / sentiment",
               (Field("text", "the text to classify", aliases=("sentence", "document")),
                Field("lang", "en or zh (empty: inferred from the text)", required=False, aliases=("language",)),
                Field("topic", "the gold news topic", required=False, aliases=("label", "category")),
                Field("sentiment", "the gold sentiment", required=False, aliases=("polarity",)))),
)

CLASSIFICATION = Task(
    name="classification",
    title="Text classification",
    input_type="mtwidgets.text.inputs:ClassificationInput",
    prediction="label",
    relations=("MR1.3", "MR2.3", "MR3.3", "MR4.3", "MR5.3", "MR6.3", "MR7.3", "pairwise-systematicity"),
    build_relation="mtwidgets.text.relations:build",
    models=(
        EmbeddedModel("sentiment-vader", "classification", "mtwidgets.text.models:vader_sentiment",
                      "English sentiment: VADER's rule-based lexicon (positive / neutral / negative)."),
        EmbeddedModel("sentiment-textblob", "classification", "mtwidgets.text.models:textblob_sentiment",
                      "English sentiment: TextBlob's pattern-lexicon polarity (positive / neutral / negative)."),
        EmbeddedModel("sentiment-spacy-textcat", "classification", "mtwidgets.text.models:spacy_sentiment",
                      "English sentiment: the spaCy text classifier of eng-spacysentiment (3 classes)."),
        EmbeddedModel("topic-minilm", "classification", "mtwidgets.text.models:minilm_topic",
                      "English news topic: nearest label description in all-MiniLM-L6-v2 embedding space."),
        EmbeddedModel("zh-sentiment-snownlp", "classification", "mtwidgets.text.models_zh:snownlp_sentiment",
                      "Chinese sentiment: SnowNLP's shipped Bayes classifier."),
    ),
    from_row="mtwidgets.text.inputs:classification_from_row",
    from_text="mtwidgets.text.inputs:ClassificationInput",
    column_modes=CLASSIFICATION_COLUMNS,
    detect="mtwidgets.text.inputs:detect_classification",
    sample="mtwidgets.text.data:classification_sample",
    explorer="mtwidgets.text.explorer_view:classification_parts",
    batch="mtwidgets.text.batch_view:parts",
    report="mtwidgets.text.report:sections",
    cli="mtwidgets.text.cli:ClassificationCLI",
    description="A text (English or Chinese); the model answers a label (news topic or sentiment) with scores.",
)

SIMILARITY_COLUMNS = (
    ColumnMode("pair", "two texts + optional gold score",
               (Field("text_a", "the first sentence (S1)", aliases=("sentence1", "text1", "s1")),
                Field("text_b", "the second sentence (S2)", aliases=("sentence2", "text2", "s2")),
                Field("lang", "en or zh (empty: inferred from the texts)", required=False, aliases=("language",)),
                Field("topic", "a topic to group results by", required=False),
                Field("score", "the gold similarity in [0, 1]", required=False, numeric=True,
                      aliases=("similarity", "gold")))),
)

SIMILARITY = Task(
    name="similarity",
    title="Sentence similarity",
    input_type="mtwidgets.text.inputs:SimilarityInput",
    prediction="value",
    relations=("MR1.1", "MR2.1", "MR3.1", "MR4.1", "MR5.1", "MR6.1", "MR7.1"),
    build_relation="mtwidgets.text.relations:build",
    models=(
        EmbeddedModel("similarity-minilm", "similarity", "mtwidgets.text.models:minilm_similarity",
                      "English: cosine of all-MiniLM-L6-v2 sentence embeddings, clipped to [0, 1]."),
        EmbeddedModel("similarity-spacy-vectors", "similarity", "mtwidgets.text.models:spacy_vector_similarity",
                      "English: cosine of the spaCy md pipeline's averaged word vectors, clipped to [0, 1]."),
        EmbeddedModel("zh-similarity-bm25", "similarity", "mtwidgets.text.models_zh:bm25_similarity",
                      "Chinese: SnowNLP's BM25 over jieba tokens, scaled to [0, 1]."),
        EmbeddedModel("zh-similarity-tfidf", "similarity", "mtwidgets.text.models_zh:tfidf_similarity",
                      "Chinese: TF-IDF cosine over jieba tokens."),
    ),
    from_row="mtwidgets.text.inputs:similarity_from_row",
    column_modes=SIMILARITY_COLUMNS,
    detect="mtwidgets.text.inputs:detect_similarity",
    sample="mtwidgets.text.data:similarity_sample",
    explorer="mtwidgets.text.explorer_view:similarity_parts",
    batch="mtwidgets.text.batch_view:parts",
    report="mtwidgets.text.report:sections",
    model_wrappers=("mtwidgets.text.adapters:wrap_sentence_transformer",),
    cli="mtwidgets.text.cli:SimilarityCLI",
    description="A sentence pair (English or Chinese); the model answers a similarity in [0, 1].",
)

SUMMARIZATION_COLUMNS = (
    ColumnMode("text", "text + optional reference summary",
               (Field("text", "the text to summarize", aliases=("document", "article")),
                Field("lang", "en or zh (empty: inferred from the text)", required=False, aliases=("language",)),
                Field("topic", "a topic to group results by", required=False, aliases=("category",)),
                Field("reference", "a reference summary", required=False, aliases=("summary", "highlights")))),
)

SUMMARIZATION = Task(
    name="summarization",
    title="Text summarization",
    input_type="mtwidgets.text.inputs:SummarizationInput",
    prediction="text",
    relations=("MR1.2", "MR2.2", "MR3.2", "MR4.2", "MR5.2", "MR6.2", "MR7.2"),
    build_relation="mtwidgets.text.relations:build",
    models=(
        EmbeddedModel("summary-lead", "summarization", "mtwidgets.text.models:lead_summary",
                      "English/any: the first third of the sentences (lead-k, at least one)."),
        EmbeddedModel("summary-textrank-minilm", "summarization", "mtwidgets.text.models:textrank_summary",
                      "English: TextRank over all-MiniLM-L6-v2 sentence embeddings, a third of the sentences."),
        EmbeddedModel("zh-summary-snownlp", "summarization", "mtwidgets.text.models_zh:snownlp_summary",
                      "Chinese: SnowNLP's TextRank summary."),
        EmbeddedModel("zh-summary-textrank", "summarization", "mtwidgets.text.models_zh:textrank_summary",
                      "Chinese: textrank4zh's key sentences."),
    ),
    from_row="mtwidgets.text.inputs:summarization_from_row",
    from_text="mtwidgets.text.inputs:SummarizationInput",
    column_modes=SUMMARIZATION_COLUMNS,
    detect="mtwidgets.text.inputs:detect_summarization",
    sample="mtwidgets.text.data:summarization_sample",
    explorer="mtwidgets.text.explorer_view:summarization_parts",
    batch="mtwidgets.text.batch_view:parts",
    report="mtwidgets.text.report:sections",
    cli="mtwidgets.text.cli:SummarizationCLI",
    description="A text of several sentences (English or Chinese); the model answers a summary.",
)
