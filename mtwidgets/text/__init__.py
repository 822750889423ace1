"""The three text tasks of the Chinese NLP paper (Jiang et al. 2022): classification,
similarity and summarization, in English and Chinese.

- :mod:`.tasks` declares the tasks (``mtwidgets.classification.task:TASK`` and its siblings
  re-export them for the entry points); :mod:`.inputs` their inputs (with a ``lang``);
- :mod:`.rewrite` is the language layer's interface (a rewriter per MR family), :mod:`.en`
  the English rewriters, ``zh`` the Chinese ones;
- :mod:`.relations` the 21 relations MR1.1-MR7.3 with the paper's oracles;
- :mod:`.models` the embedded English models, ``models_zh`` the Chinese ones, and
  :mod:`.adapters` the adapters for models users bring (Hugging Face, sentence-transformers,
  REST in the paper's systems' shapes);
- :mod:`.data` the shipped samples, :mod:`.cli` the ``mtwidgets run`` part, :mod:`.report`
  the per-topic violation rates, :mod:`.bench` the follow-up generation speed.

Nothing here is imported by ``import mtwidgets``.
"""
