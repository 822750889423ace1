"""The Explorer's parts for the three text tasks: classification and summarization (one
text), similarity (a sentence pair).

What the generic text parts (:class:`~mtwidgets.core.views.TextParts`,
:class:`~mtwidgets.core.views.TextPairParts`) lack for these tasks is language: an input is
English or Chinese (its ``lang``), and Chinese writes no spaces, so the Explorer's words, the
follow-up's word diff (where the replaced words are marked: struck out in the source's text,
inserted in the follow-up's, in one text or in both texts of a pair) and the diff of two
summaries go by jieba's words for a Chinese text and by the Unicode word rules for an
English one. The parts' language is :data:`TEXT_LANG`, a tokenizer registered with
:func:`mtwidgets.lang.text.register_tokenizer` that reads each text's language as the
inputs do (:func:`mtwidgets.text.inputs.infer_lang`).

The user may mark one word to replace, by clicking it in the token strip under the text (or
under S1 or S2 of a pair): the input then carries it as its ``focus`` and the relations
MR1-MR6 replace that word or say why they cannot (:mod:`mtwidgets.text.relations`); MR7
(sentence order, or S1 and S2 swapped) ignores it. The hint under the input says which.

Predictions: classification shows label scores, similarity its number on the paper's five
interval bands ([0.8, 1], [0.6, 0.8), [0.4, 0.6), [0.2, 0.4), [0, 0.2)), summarization the
two summaries with a word diff.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, cast

from ..core.errors import InputError
from ..core.inputs import BaseInput
from ..core.views import UNMARK_HINT, Band, Marks, TextPairParts, TextParts, WordMarking
from ..lang.text import Token, register_tokenizer, token_dicts, tokenize
from ..lang.zh import tokens as zh_tokens
from .inputs import SimilarityInput, infer_lang
from .relations import INTERVALS, TASK_SUFFIX, relation_name
from .rewrite import FAMILIES

__all__ = [
    "TEXT_LANG",
    "ClassificationParts",
    "SimilarityParts",
    "SummarizationParts",
    "classification_parts",
    "similarity_bands",
    "similarity_parts",
    "summarization_parts",
    "text_tokens",
]

# The tokenizer name of texts that may be English or Chinese (each text read on its own).
TEXT_LANG = "en|zh"


def text_tokens(text: str) -> list[Token]:
    """The words of ``text``: jieba's for a Chinese text, the Unicode word rules otherwise."""
    return zh_tokens(text) if infer_lang(text) == "zh" else tokenize(text, "en")


# Only this module's own name is registered: "zh" stays as the engine set it, so importing the
# widgets never changes what the oracles compute (their token F1 tokenizes "zh" itself).
register_tokenizer(TEXT_LANG, text_tokens)


def similarity_bands() -> tuple[Band, ...]:
    """The paper's five intervals as bands, top first; the top one is closed (``[0.8, 1]``)."""
    out = []
    for low, high, name in INTERVALS:
        closed = high >= 1.0
        label = f"[{low:g}, {high:g}{']' if closed else ')'} {name}"
        out.append(Band(label, low, high + 1e-9 if closed else high))
    return tuple(out)


# Inputs remembered by their texts (see _Language.build); enough for the rows a user visits.
_REMEMBERED = 4096


class _Language(WordMarking):
    """Tokens and diffs by the text's language, and inputs that keep what is not text
    (mixed into the text parts)."""

    lang = TEXT_LANG

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._inputs: OrderedDict[tuple[str, ...], BaseInput] = OrderedDict()

    def tokens(self, text: str) -> list[dict[str, Any]]:
        return token_dicts(text, TEXT_LANG)

    def texts_of(self, x: BaseInput) -> dict[str, str]:
        """The input's texts; the input is remembered, so that :meth:`build` on the same
        texts gives it back with its language, topic and gold (a data row keeps its topic)."""
        texts = {f: str(getattr(x, f)) for f in self.fields}
        key = tuple(texts.values())
        self._inputs[key] = x
        self._inputs.move_to_end(key)
        while len(self._inputs) > _REMEMBERED:
            self._inputs.popitem(last=False)
        return texts

    def build(self, texts: Mapping[str, str], marks: Any) -> tuple[BaseInput | None, str | None]:
        """The remembered input with exactly these texts (and the word marked now), else a
        new one from the texts (its language inferred from them)."""
        known = self._inputs.get(tuple(str(texts.get(f, "")) for f in self.fields))
        if known is not None:
            try:
                return cast(Any, known).with_focus(self.focus(marks)), None
            except InputError as exc:
                return None, str(exc)
        return super().build(texts, marks)

    def hint_for(self, texts: Mapping[str, str], marks: Marks, relation: Any = None) -> str:
        """What the relation picked does with the marked word: MR1-MR6 replace it (or say
        why they cannot), MR7 ignores it."""
        task = self.task.name if self.task is not None else None
        if task not in TASK_SUFFIX:
            return super().hint_for(texts, marks, relation)
        replacing = f"{relation_name('name', task)}-{relation_name('verb', task)}"
        reorder = relation_name("reorder", task)
        does = "swaps S1 and S2" if task == "similarity" else "reorders the sentences"
        marked = self.marked_word(texts, marks)
        name = getattr(relation, "name", None)
        if marked is None:
            return (f"optional: click a word to mark it for {replacing} to replace "
                    f"({reorder} {does} and ignores a mark)")
        if name == reorder:
            return f"{reorder} {does} and ignores {marked}; {replacing} replace it; {UNMARK_HINT}"
        if name in {relation_name(f, task) for f in FAMILIES if f != "reorder"}:
            return f"{name} will replace {marked}, or say below why not; {UNMARK_HINT}"
        return f"{replacing} replace {marked} (other relations ignore the mark); {UNMARK_HINT}"


class ClassificationParts(_Language, TextParts):
    """A text to classify: typed in one box, a word to replace clicked under it;
    predictions are label scores."""

    prediction_view = "label-scores"
    field_titles = {"text": "text"}
    roles = ("text",)


class SummarizationParts(_Language, TextParts):
    """A text to summarize: typed in one box, a word to replace clicked under it;
    predictions are the two summaries, the follow-up's diffed word by word against the
    source's."""

    prediction_view = "text-diff"
    field_titles = {"text": "text"}
    roles = ("text",)


class SimilarityParts(_Language, TextPairParts):
    """A sentence pair (S1, S2) in two boxes, a word to replace clicked under either;
    predictions are the similarity on its band."""

    prediction_view = "number-bands"
    field_titles = {"text_a": "S1", "text_b": "S2"}
    roles = ("text_a", "text_b")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if not self.value_bands:
            self.value_bands = similarity_bands()

    def band_of(self, value: float) -> str | None:
        """The band of a score, clipped to [0, 1] first (as the oracle reads it)."""
        return super().band_of(min(1.0, max(0.0, float(value))))

    def carry(self, followup: BaseInput, new_text: str) -> BaseInput:
        """The follow-up pair with the user's texts (``S1 ||| S2``); the source's gold score
        does not carry over to an edited pair."""
        texts = self.parse_texts(new_text)
        if not isinstance(followup, SimilarityInput):
            return super().carry(followup, new_text)
        if len(texts) != 2 or not all(t.strip() for t in texts.values()):
            sep = self.separator.strip()
            raise InputError(f"write both texts of the follow-up, separated by {sep!r}: S1 {sep} S2")
        return followup.with_texts(texts["text_a"], texts["text_b"])


def classification_parts() -> ClassificationParts:
    """The classification task's Explorer parts."""
    return ClassificationParts()


def similarity_parts() -> SimilarityParts:
    """The similarity task's Explorer parts."""
    return SimilarityParts()


def summarization_parts() -> SummarizationParts:
    """The summarization task's Explorer parts."""
    return SummarizationParts()
