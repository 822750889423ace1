"""A masked language model that fills one blank: the paper's BERT_MLM.

Used for similar words in context (token-level transformation) and for the repair's
similar entities. Texts mark the blank with the model-independent :data:`MASK`, replaced
by the tokenizer's own mask token (``[MASK]``, ``<mask>``, ...) before encoding.
Loads by hub name or local path with the same call; ``torch``/``transformers`` are
imported when a FillMask is built.
"""

from __future__ import annotations

from typing import Any, Literal

MASK = "[MASK]"
_EXTRA = "pip install 'mtwidgets[models]'"


class FillMask:
    """Top-k whole-word fillers for the single :data:`MASK` in each text.

    Parameters
    ----------
    model_or_path:
        A hub name, a local ``save_pretrained`` directory, or ``(model, tokenizer)``.
    top_k:
        Fillers returned per text.
    score:
        ``"prob"`` (softmax over the vocabulary, the default) or ``"logit"`` (the raw
        logit; the paper's repair thresholds a logit, PThreshold = 5.5).
    batch_size:
        Texts per forward pass.

    Sub-word pieces (``##ing``) and special tokens are skipped, so each answer is a word
    that can stand in the blank.
    """

    def __init__(
        self,
        model_or_path: Any,
        top_k: int = 10,
        *,
        score: Literal["prob", "logit"] = "prob",
        batch_size: int = 16,
        device: str = "cpu",
    ) -> None:
        try:
            import torch
            import transformers
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(f"FillMask needs torch and transformers: {_EXTRA}") from exc
        if top_k < 1:
            raise ValueError(f"top_k must be >= 1, got {top_k}")
        if score not in ("prob", "logit"):
            raise ValueError(f"score must be 'prob' or 'logit', got {score!r}")
        if isinstance(model_or_path, tuple):
            model, tokenizer = model_or_path
            self.source = str(getattr(model, "name_or_path", "model"))
        else:
            tokenizer = transformers.AutoTokenizer.from_pretrained(str(model_or_path))
            model = transformers.AutoModelForMaskedLM.from_pretrained(str(model_or_path))
            self.source = str(model_or_path)
        if tokenizer.mask_token is None:
            raise ValueError(
                f"the tokenizer of {self.source!r} has no mask token; give a masked language model"
            )
        self.torch = torch
        self.model = model.to(device).eval()
        self.tokenizer = tokenizer
        self.top_k = top_k
        self.score = score
        self.batch_size = batch_size
        self.device = device
        vocab = tokenizer.convert_ids_to_tokens(list(range(len(tokenizer))))
        special = set(tokenizer.all_special_ids)
        self._word_ids = [
            i
            for i, tok in enumerate(vocab)
            if i not in special and tok and not tok.startswith("##") and i < model.config.vocab_size
        ]

    def _check(self, text: str) -> str:
        if not isinstance(text, str) or text.count(MASK) != 1:
            raise ValueError(
                f"each text needs exactly one {MASK!r} marking the blank, got {text!r}; "
                f"e.g. 'He {MASK} the ball.'"
            )
        return text.replace(MASK, self.tokenizer.mask_token)

    def fill(self, texts_with_one_mask: list[str]) -> list[list[tuple[str, float]]]:
        """For each text, ``[(word, score), ...]`` best first (``top_k`` of them)."""
        texts = [self._check(t) for t in texts_with_one_mask]
        torch = self.torch
        words = torch.tensor(self._word_ids, dtype=torch.long)
        out: list[list[tuple[str, float]]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            enc = self.tokenizer(batch, return_tensors="pt", padding=True, truncation=True).to(self.device)
            with torch.no_grad():
                logits = self.model(**enc).logits
            rows, cols = (enc["input_ids"] == self.tokenizer.mask_token_id).nonzero(as_tuple=True)
            if len(rows) != len(batch):
                raise ValueError(f"the mask was truncated away or split in one of {batch!r}")
            for row, col in zip(rows.tolist(), cols.tolist()):
                full = logits[row, col]
                values = full.softmax(-1) if self.score == "prob" else full
                picked = values[words]
                k = min(self.top_k, len(self._word_ids))
                top = picked.topk(k)
                ids = words[top.indices].tolist()
                tokens = self.tokenizer.convert_ids_to_tokens(ids)
                out.append([(str(t).lstrip("Ġ▁"), float(v)) for t, v in zip(tokens, top.values.tolist())])
        return out

    def __repr__(self) -> str:
        return f"<FillMask {self.source!r} top_k={self.top_k}>"
