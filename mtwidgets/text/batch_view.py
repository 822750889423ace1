"""The Batch panel's part of the three text tasks: violation rates per topic (the paper's
Tables 9-11) as a heatmap of relation x topic, one panel per model; a click on a cell
filters the table to that cell's violations.

A source's topic is its input's ``topic`` (a news topic for classification, any grouping
for similarity and summarization; the data's ``topic`` column). The tally counts verdicts
per (relation, model, topic) chunk by chunk, so the chart never re-reads the results; the
table gets a topic column (and shows a similarity with its band, a summary as text); a row's
detail adds the two summaries with a word diff, and for a Chinese row the two texts diffed
by jieba's words (the generic diff splits on ``\\w+``, which reads a whole Chinese clause as
one word).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.batch_view import (
    BASE_COLUMNS,
    BatchParts,
    Column,
    detail_extra,
    label_block,
    marked_block,
)

__all__ = ["CHART", "NO_TOPIC", "TextBatchParts", "TopicTally", "parts", "row_topics", "topic_heatmap"]

CHART = "topics"  # the heatmap's key (and the selection kind of its clicks)
NO_TOPIC = "(none)"  # the topic of a source without one
SUMMARY_COLUMNS = ["relation", "model", "topic", "groups", "violations", "passes", "not_applicable",
                   "errors", "vr", "vr_low", "vr_high"]
_VERDICTS = {"violation": "violations", "pass": "passes", "not_applicable": "not_applicable", "error": "errors"}


def _topic(sources: Any) -> str:
    first = sources[0] if isinstance(sources, (list, tuple)) and len(sources) else None
    value = first.get("topic") if isinstance(first, Mapping) else None
    return str(value) if isinstance(value, str) and value.strip() else NO_TOPIC


def row_topics(frame: Any) -> Any:
    """The topic of each results row (its first source's), ``NO_TOPIC`` where it has none."""
    import pandas as pd

    if not len(frame):
        return pd.Series([], index=frame.index, dtype=object)
    return pd.Series([_topic(s) for s in frame["sources"]], index=frame.index, dtype=object)


class TopicTally:
    """Verdicts per (relation, model, topic), added chunk by chunk."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str, str, str]] = Counter()  # (relation, model, topic, count key)
        self.relations: list[str] = []
        self.models: list[str] = []
        self.topics: list[str] = []

    def add(self, results: Any) -> None:
        frame = results.frame
        if not len(frame):
            return
        for rel, model, topic, verdict in zip(
            frame["relation"].astype(str), frame["model"].astype(str), row_topics(frame), frame["verdict"]
        ):
            for value, seen in ((rel, self.relations), (model, self.models), (topic, self.topics)):
                if value not in seen:
                    seen.append(value)
            key = _VERDICTS.get(str(verdict))
            if key is not None:
                self.counts[(rel, model, topic, key)] += 1

    def table(self) -> Any:
        """One row per (relation, model, topic) seen: the verdict counts, groups (passes +
        violations), VR and its 95% Wilson interval (NaN without applicable groups)."""
        import pandas as pd

        from ..core.stats import wilson_interval

        rows = []
        for rel in self.relations:
            for model in self.models:
                for topic in self.topics:
                    n = {k: self.counts[(rel, model, topic, k)] for k in _VERDICTS.values()}
                    if not any(n.values()):
                        continue
                    groups = n["violations"] + n["passes"]
                    low, high = wilson_interval(n["violations"], groups)
                    vr = n["violations"] / groups if groups else float("nan")
                    rows.append({"relation": rel, "model": model, "topic": topic, "groups": groups, **n,
                                 "vr": vr, "vr_low": low, "vr_high": high})
        return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def topic_heatmap(table: Any, *, select: str | None = None, cell: int = 26, title: str | None = None) -> Any:
    """VR per relation x topic, one panel per model; cells without applicable groups are
    left out (blank is "no evidence", which a 0% colour would misstate)."""
    from ..core.task import resolve_ref

    # The chart lives in the presentation layer above the task: looked up by reference,
    # as a task's views are.
    vr_heatmap = resolve_ref("mtwidgets.charts:vr_heatmap")
    return vr_heatmap(table, "topic", "topic", select=select, cell=cell,
                      title=title or "Violation rate per topic (click a cell: its violations)")


MAX_OUTPUT = 300  # characters of a summary shown in a table cell


def _diff_blocks(source: str, followup: str, what: str, words: str) -> list[dict[str, Any]]:
    """Two texts cut into words (jieba's for Chinese), the words that differ marked (``−``
    in the source's, ``+`` in the follow-up's)."""
    from ..lang.text import diff_words
    from .explorer_view import TEXT_LANG

    left: list[list[str]] = []
    right: list[list[str]] = []
    for op, _i, t in diff_words(source, followup, TEXT_LANG):
        piece = t.text + t.ws
        if op in ("eq", "del"):
            left.append([piece, "−" if op == "del" else ""])
        if op in ("eq", "ins"):
            right.append([piece, "+" if op == "ins" else ""])
    return [
        label_block(f"source {what} ({words}; − replaced)"),
        marked_block(left, "mtw-batch__words--source"),
        label_block(f"follow-up {what} ({words}; + put in)"),
        marked_block(right, "mtw-batch__words--followup"),
    ]


def output_text(outputs: Any) -> str:
    """A value or text prediction as a table cell: ``"0.734 · [0.6, 0.8) strong correlation"``
    or the summary (clipped); ``""`` for a label prediction (the generic cell shows it)."""
    first = outputs[0] if isinstance(outputs, (list, tuple)) and len(outputs) else None
    if not isinstance(first, Mapping):
        return ""
    if first.get("value") is not None:
        from .explorer_view import SimilarityParts

        value = float(first["value"])
        return f"{value:.3f} · {SimilarityParts().band_of(value)}"
    text = first.get("text")
    if isinstance(text, str):
        return text if len(text) <= MAX_OUTPUT else text[: MAX_OUTPUT - 1] + "…"
    return ""


class TextBatchParts(BatchParts):
    """The per-topic heatmap, a topic column and (Chinese rows) a jieba word diff."""

    charts = (CHART,)
    summary_name = "topic_summary"

    def start(self, inputs: Sequence[Any]) -> TopicTally | None:
        """A tally when any source has a topic (without one there is nothing to chart)."""
        return TopicTally() if any(getattr(x, "topic", None) for x in inputs) else None

    def build_charts(self, state: Any, *, select: str | None) -> dict[str, Any]:
        if state is None:
            return {}
        table = state.table()
        if not len(table) or not (table["groups"] > 0).any():
            return {}
        return {CHART: topic_heatmap(table, select=select)}

    def selection_mask(self, key: str, state: Any, frame: Any, points: Sequence[Mapping[str, Any]]) -> Any:
        """Rows of any clicked (relation, model, topic) cell."""
        import pandas as pd

        out = pd.Series(False, index=frame.index)
        if key != CHART or not len(frame):
            return out
        topics = row_topics(frame)
        for point in points:
            m = pd.Series(True, index=frame.index)
            for field, value in point.items():
                if field in ("relation", "model"):
                    m &= frame[field].astype(str) == str(value)
                elif field == "topic":
                    m &= topics == str(value)
            out |= m
        return out

    def summary(self, state: Any) -> Any:
        """VR per relation, model and topic (empty before a run or without topics)."""
        import pandas as pd

        return state.table() if state is not None else pd.DataFrame(columns=SUMMARY_COLUMNS)

    def columns(self) -> tuple[Column, ...]:
        return (*BASE_COLUMNS[:2], Column("topic", "topic"), *BASE_COLUMNS[2:])

    def table_extras(self, state: Any, frame: Any, positions: Sequence[int]) -> list[dict[str, Any]]:
        """The topic, and a number's band or a summary where the generic cells show a label."""
        out = []
        for i in positions:
            r = frame.iloc[int(i)]
            row = {"topic": _topic(r["sources"])}
            for key, outputs in (("source_label", r["source_outputs"]), ("followup_label", r["followup_outputs"])):
                shown = output_text(outputs)
                if shown:
                    row[key] = shown
            out.append(row)
        return out

    def row_detail(self, state: Any, frame: Any, i: int) -> dict[str, Any] | None:
        """A Chinese row's texts as jieba words with the changed ones marked (the generic
        diff reads a Chinese clause as one word), and two summaries with a word diff."""
        r = frame.iloc[i]
        src = r["sources"][0] if len(r["sources"]) else {}
        fu = r["followups"][0] if len(r["followups"]) else {}
        blocks: list[dict[str, Any]] = []
        if fu and src.get("lang") == "zh":
            for field, what in (("text", "text"), ("text_a", "S1"), ("text_b", "S2")):
                if field in src and field in fu:
                    blocks.extend(_diff_blocks(str(src[field]), str(fu[field]), what, "jieba words"))
        summaries = [o[0].get("text") if len(o) and isinstance(o[0], Mapping) else None
                     for o in (r["source_outputs"], r["followup_outputs"])]
        if all(isinstance(t, str) for t in summaries):
            words = "jieba words" if src.get("lang") == "zh" else "words"
            blocks.extend(_diff_blocks(str(summaries[0]), str(summaries[1]), "summary", words))
        return detail_extra(blocks, cls="mtw-batch__textdiff") if blocks else None


def parts() -> TextBatchParts:
    """The text tasks' Batch panel parts."""
    return TextBatchParts()
