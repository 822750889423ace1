"""Language resources, shared by the tasks and parameterised by language ("en" now).

- :mod:`~mtwidgets.lang.pipelines`: spaCy pipelines (``get_nlp``, ``parse``, ``parse_many``);
- :mod:`~mtwidgets.lang.encoder`: the packaged MiniLM sentence encoder;
- :mod:`~mtwidgets.lang.vectors`: similar words (word vectors, WordNet, a fill-mask model);
- :mod:`~mtwidgets.lang.fill_mask`: a masked language model filling one blank;
- :mod:`~mtwidgets.lang.inflect`: English inflection;
- :mod:`~mtwidgets.lang.text`: tokenization and word diff for the Explorer.

Each imports its heavy dependency (spaCy, torch, transformers) when first used.
"""
