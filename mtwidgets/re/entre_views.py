"""ENTRE on screen: the Batch panel's ENTRE section and the Explorer's rounds of one instance.

ENTRE (:mod:`mtwidgets.re.entre`) replaces an instance's PERSON and ORGANIZATION names again
and again while the model stays right; each instance and model is one results row whose
``meta`` tells the rounds. Two views read that:

- **The Batch panel's section** (:class:`EntreTally` and the chart functions, used by
  :class:`~mtwidgets.re.batch_view.RelationBatchParts`): when a run has ENTRE or ENTRE-fast
  rows, three charts of the paper's measures, built from the ENTRE rows alone: the F1
  table (Table 2: per model, the instances, micro-F1 on the originals and after ENTRE, the
  relative drop), the rounds to failure (how many instances first fail at each round), and
  the shortcut share per gold relation (Figure 7: how often the model names the gold
  relation from the entity names alone, on the original names and on the names after
  ENTRE). A click on a row of the F1 table, a round's bar, or a gold relation's bar or row
  filters the panel's table to those ENTRE instances (:func:`selection_mask`); a row's
  detail lists its rounds with the model's label on each (:func:`row_detail`).
- **The Explorer's rounds** (:class:`EntreRounds`, which the relation-extraction Explorer
  parts give for ENTRE through the multi-source hook,
  :meth:`~mtwidgets.core.views.ExplorerParts.multi_source`): the instance shown is
  replaced round by round with the transformation's ``round(x, seed, r)`` (as the run asks
  it, :func:`rounds_of`); the user picks the round shown (1..R), sees that round's instance
  diffed against the original (the replaced names struck out and put in) and, per model,
  its label on the original and on every round, and the round at which it first flips away
  from the reference label: the gold relation when the data gives one, else (a typed
  sentence) the model's own label on the original. Every round of an instance is predicted
  once per model, in one batched call through the Explorer's prediction cache, so stepping
  through the rounds asks no model again.

Plain Python: no widget import; pandas and Altair only inside the functions that draw.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.batch_view import FADED, detail_extra, label_block, list_block, marked_block, point_selection
from ..core.inputs import BaseInput
from ..core.predictions import Prediction
from ..core.relation import Check, MetamorphicRelation
from ..core.views import CaseJudgement, MultiSourceParts
from . import entre
from .inputs import RelationInput

__all__ = [
    "CHARTS",
    "EntreRounds",
    "EntreTally",
    "entre_case",
    "f1_chart",
    "flip_round",
    "rounds_chart",
    "rounds_of",
    "row_detail",
    "section_tables",
    "selection_mask",
    "shortcut_chart",
]

#: The keys of the Batch panel's ENTRE charts (and of the selections their clicks make).
F1_CHART, ROUNDS_CHART, SHORTCUT_CHART = "entre-f1", "entre-rounds", "entre-shortcuts"
CHARTS: tuple[str, ...] = (F1_CHART, ROUNDS_CHART, SHORTCUT_CHART)

# The results columns ENTRE's tables read (the tally keeps only these of the ENTRE rows).
_KEPT = ("relation", "model", "verdict", "sources", "source_label", "followup_label", "meta")
# Rounds listed in a row's detail (the paper allows 200).
DETAIL_ROUNDS = 50
_SELECTED = "#ddf4ff"  # the background of a selected table row (the panel's selected-row blue)


# -- the Batch panel's section ------------------------------------------------------------------
class EntreTally:
    """The ENTRE and ENTRE-fast rows of a run, kept chunk by chunk (a few columns of a few
    rows per instance and model), so the section never re-reads the whole results."""

    def __init__(self) -> None:
        self._parts: list[Any] = []
        self._frame: Any = None
        self._tables: dict[str, Any] | None = None  # the tables of the rows so far, once asked

    def add(self, results: Any) -> None:
        frame = getattr(results, "frame", results)
        if not len(frame):
            return
        rows = frame[frame["relation"].isin(entre.NAMES)]
        if len(rows):
            self._parts.append(rows[list(_KEPT)].copy())
            self._frame, self._tables = None, None

    def __len__(self) -> int:
        return sum(len(p) for p in self._parts)

    @property
    def frame(self) -> Any:
        """The ENTRE rows counted so far (an empty frame of the kept columns before any)."""
        import pandas as pd

        if self._frame is None:
            self._frame = (
                pd.concat(self._parts, ignore_index=True)
                if self._parts
                else pd.DataFrame({c: pd.Series(dtype=object) for c in _KEPT})
            )
        return self._frame

    def tables(self) -> dict[str, Any]:
        """:func:`section_tables` of the rows so far (computed once per new chunk)."""
        if self._tables is None:
            self._tables = section_tables(self.frame)
        return self._tables


def _meta(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _names_in(frame: Any) -> list[str]:
    """The ENTRE relations with rows in ``frame``, in :data:`entre.NAMES` order."""
    present = set(frame["relation"]) if len(frame) else set()
    return [n for n in entre.NAMES if n in present]


def section_tables(frame: Any) -> dict[str, Any]:
    """The section's tables from ENTRE rows (or any results frame: other rows are ignored):

    - ``f1``: one row per (relation, model): ``instances``, ``f1_original``, ``f1_entre``,
      ``relative_drop`` (:func:`entre.f1_table`, per ENTRE relation so ENTRE and ENTRE-fast
      are never pooled);
    - ``rounds``: per model of ENTRE, how many instances first fail at each round, every
      round from 1 to the last with a failure (zeros included), and ``survived``: per model,
      how many stood every round (:func:`entre.fragility_table`);
    - ``shortcuts``: one row per (relation, model, gold relation): ``instances``,
      ``shortcut_original``, ``shortcut_entre`` (:func:`entre.shortcut_table`).
    """
    import pandas as pd

    frame = getattr(frame, "frame", frame)
    names = _names_in(frame) if len(frame) else []
    f1 = [entre.f1_table(frame, n).assign(relation=n) for n in names]
    cuts = [entre.shortcut_table(frame, n).rename(columns={"relation": "gold"}).assign(relation=n) for n in names]
    f1_cols = ["relation", "model", "instances", "f1_original", "f1_entre", "relative_drop"]
    cut_cols = ["relation", "model", "gold", "instances", "shortcut_original", "shortcut_entre"]
    frag = entre.fragility_table(frame) if "ENTRE" in names else pd.DataFrame(columns=["model", "round", "instances"])
    failed = frag[frag["round"] != "survived"]
    rounds = []
    for model in dict.fromkeys(frag["model"]):
        counts = {int(r): int(n) for r, n in zip(failed.loc[failed["model"] == model, "round"],
                                                 failed.loc[failed["model"] == model, "instances"])}
        last = max(counts, default=0)
        rounds += [{"relation": "ENTRE", "model": model, "round": r, "instances": counts.get(r, 0)}
                   for r in range(1, last + 1)]
    survived = frag[frag["round"] == "survived"]
    return {
        "f1": pd.concat(f1, ignore_index=True)[f1_cols] if f1 else pd.DataFrame(columns=f1_cols),
        "rounds": pd.DataFrame(rounds, columns=["relation", "model", "round", "instances"]),
        "survived": {str(m): int(n) for m, n in zip(survived["model"], survived["instances"])},
        "shortcuts": pd.concat(cuts, ignore_index=True)[cut_cols] if cuts else pd.DataFrame(columns=cut_cols),
    }


def _pct(value: Any) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    return "—" if number != number else f"{number:.1f}"


def _row_band(data: Any, y: Any, sel: Any, y_offset: Any = None) -> Any:
    """A full-width band behind each row of a table-like chart (``data=None``: the data of
    the layer it joins): it makes the whole row clickable (the selection's tuple is the
    clicked datum's) and shows the selected row."""
    import altair as alt

    chart = alt.Chart() if data is None else alt.Chart(data)
    band = chart.mark_rect(cursor="pointer", fill="#ffffff").encode(y=y)
    if y_offset is not None:  # a band per sub-row: the layers then share one y layout
        band = band.encode(yOffset=y_offset)
    if sel is None:
        return band
    return band.add_params(sel).encode(
        fill=alt.condition(sel, alt.value(_SELECTED), alt.value("#ffffff"), empty=False)
    )


def f1_chart(table: Any, *, select: str | None = None, title: str | None = None) -> Any:
    """The F1 table (the paper's Table 2 in miniature) drawn as a clickable table: one row per
    (ENTRE relation, model) with its instances, micro-F1 (no_relation excluded) on the
    originals and after ENTRE, and the relative drop. ``select`` names a point selection
    over (relation, model): a click anywhere on a row selects it."""
    import altair as alt
    import pandas as pd

    rows = table.copy()
    rows["row"] = rows["relation"].astype(str) + " · " + rows["model"].astype(str)
    columns = {"model": "model", "relation": "relation", "instances": "instances",
               "f1_original": "F1 original", "f1_entre": "F1 after ENTRE", "relative_drop": "relative drop %"}
    cells = []
    for rec in rows.to_dict("records"):
        for key, heading in columns.items():
            value = rec[key]
            shown = _pct(value) if key in ("f1_original", "f1_entre", "relative_drop") else str(value)
            cells.append({"row": rec["row"], "relation": rec["relation"], "model": rec["model"],
                          "column": heading, "value": shown})
    data = pd.DataFrame(cells, columns=["row", "relation", "model", "column", "value"])
    order = list(dict.fromkeys(rows["row"]))
    y = alt.Y("row:N", sort=order, axis=None)
    sel = point_selection(select, ["relation", "model"])
    text = alt.Chart(data).mark_text(align="left", dx=-40, cursor="pointer").encode(
        x=alt.X("column:N", sort=list(columns.values()), title=None,
                axis=alt.Axis(orient="top", labelAngle=0, domain=False, ticks=False, labelFontWeight="bold")),
        y=y,
        text="value:N",
        tooltip=[alt.Tooltip("relation:N"), alt.Tooltip("model:N"), alt.Tooltip("column:N", title="measure"),
                 alt.Tooltip("value:N")],
    )
    return alt.layer(_row_band(rows, y, sel), text).properties(
        title=title or "ENTRE: micro-F1 before and after (click a row: its instances)",
        width=110 * len(columns), height=alt.Step(24),
    )


def rounds_chart(
    rounds: Any, survived: Mapping[str, int] | None = None, *, select: str | None = None, title: str | None = None
) -> Any:
    """Rounds to failure: per model, how many of the instances it got right first fail at
    each round (every round up to the last failure, zeros included); the instances that
    stood every round are named in the subtitle. ``select`` names a point selection over
    (relation, model, round): a click on a bar selects the instances that failed there."""
    import altair as alt

    data = rounds.copy()
    order = sorted({int(r) for r in data["round"]})
    data["round"] = data["round"].astype(int)
    bars = alt.Chart(data).mark_bar(cursor="pointer").encode(
        x=alt.X("round:O", sort=order, title="round of the first failure", axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("model:N"),
        y=alt.Y("instances:Q", title="instances", axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("model:N", title="model"),
        tooltip=[alt.Tooltip("model:N"), alt.Tooltip("round:O"), alt.Tooltip("instances:Q", title="first fail here")],
    )
    sel = point_selection(select, ["relation", "model", "round"])
    if sel is not None:
        bars = bars.add_params(sel).encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(FADED)))
    stood = "; ".join(f"{m}: {n}" for m, n in (survived or {}).items())
    heading = title or "ENTRE: rounds to failure (click a bar: its instances)"
    return bars.properties(
        title=alt.TitleParams(heading, subtitle=[f"stood every round: {stood}"] if stood else []),
        width=max(160, 22 * len(order) * max(1, data["model"].nunique())),
        height=160,
    )


def shortcut_chart(shortcuts: Any, *, select: str | None = None, title: str | None = None) -> Any:
    """Figure 7 in miniature, clickable: per gold relation (a row), the share of instances
    whose gold relation the model names from the entity names alone, on the original names
    and after ENTRE, one panel per model (and ENTRE relation). ``select`` names a point
    selection over (relation, model, gold): a click on a bar or anywhere on a row selects
    that gold relation's ENTRE instances."""
    import altair as alt

    long = shortcuts.melt(
        id_vars=["relation", "model", "gold", "instances"], value_vars=["shortcut_original", "shortcut_entre"],
        var_name="names", value_name="share",
    )
    long["names"] = long["names"].map({"shortcut_original": "original", "shortcut_entre": "after ENTRE"})
    several = shortcuts["relation"].nunique() > 1
    panel = (long["model"].astype(str) + " · " + long["relation"].astype(str)) if several else long["model"].astype(str)
    long["panel"] = panel
    order = sorted(dict.fromkeys(long["gold"]))
    y = alt.Y("gold:N", sort=order, title="gold relation")
    sel = point_selection(select, ["relation", "model", "gold"])
    names = ["original", "after ENTRE"]
    offset = alt.YOffset("names:N", sort=names)
    bars = alt.Chart().mark_bar(cursor="pointer").encode(
        y=y,
        yOffset=offset,
        x=alt.X("share:Q", title="share named from the entity names alone", scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%")),
        color=alt.Color("names:N", title="entity names", sort=names),
        tooltip=[alt.Tooltip("model:N"), alt.Tooltip("relation:N", title="ENTRE relation"),
                 alt.Tooltip("gold:N", title="gold relation"), alt.Tooltip("names:N", title="names"),
                 alt.Tooltip("share:Q", format=".0%"), alt.Tooltip("instances:Q")],
    )
    if sel is not None:
        bars = bars.encode(opacity=alt.condition(sel, alt.value(1.0), alt.value(FADED)))
    layered = alt.layer(_row_band(None, y, sel, offset), bars, data=long).properties(width=220, height=alt.Step(10))
    return layered.facet(column=alt.Column("panel:N", title=None)).properties(title=title or "ENTRE: shortcuts from the entity names (click a relation: its instances)")


def build_charts(tally: EntreTally | None, *, select: str | None) -> dict[str, Any]:
    """``{chart key: alt.Chart}`` of the section (``{}`` when the run has no ENTRE rows; a
    chart without data is left out)."""
    if tally is None or not len(tally):
        return {}
    tables = tally.tables()
    out: dict[str, Any] = {}
    if len(tables["f1"]):
        out[F1_CHART] = f1_chart(tables["f1"], select=select)
    if len(tables["rounds"]) or tables["survived"]:
        out[ROUNDS_CHART] = rounds_chart(tables["rounds"], tables["survived"], select=select)
    if len(tables["shortcuts"]):
        out[SHORTCUT_CHART] = shortcut_chart(tables["shortcuts"], select=select)
    return out


def selection_mask(key: str, frame: Any, points: Sequence[Mapping[str, Any]]) -> Any:
    """The ENTRE rows of ``frame`` that a click on chart ``key`` selects: those of the
    clicked relation and model and, as the chart says, of the clicked gold relation
    (``gold``) or first failing at the clicked round (``round``)."""
    import pandas as pd

    out = pd.Series(False, index=frame.index)
    if key not in CHARTS or not len(frame):
        return out
    entre_rows = frame["relation"].isin(entre.NAMES)
    metas = frame["meta"].map(_meta)
    for point in points:
        m = entre_rows.copy()
        for field, value in point.items():
            if field in ("relation", "model"):
                m &= frame[field].astype(str) == str(value)
            elif field == "gold":
                m &= metas.map(lambda d: d.get("gold")) == str(value)
            elif field == "round":
                m &= metas.map(lambda d: d.get("round_failed")) == _as_int(value)
        out |= m
    return out


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _mention_parts(markup_or_dict: Any) -> list[list[str]]:
    """The instance's text with its head and tail marked (``[[piece, label]]`` pieces)."""
    x = (RelationInput.from_dict(dict(markup_or_dict)) if isinstance(markup_or_dict, Mapping)
         else RelationInput.parse(str(markup_or_dict)))
    spans = sorted(((x.head, "head"), (x.tail, "tail")), key=lambda p: p[0].start)
    out, pos = [], 0
    for span, role in spans:
        out.append([x.text[pos : span.start], ""])
        out.append([x.text[span.start : span.end], f"{role} {span.label or ''}".strip()])
        pos = span.end
    out.append([x.text[pos:], ""])
    return [p for p in out if p[0]]


def row_detail(frame: Any, i: int) -> dict[str, Any] | None:
    """An ENTRE row's rounds for its detail view: each round's instance with the head and
    tail marked and the model's label on it (the first wrong one flagged), and the label
    from the entity names alone; ``None`` for a row of another relation."""
    r = frame.iloc[i]
    if r["relation"] not in entre.NAMES:
        return None
    meta = _meta(r["meta"])
    chain, labels = list(meta.get("chain") or []), list(meta.get("labels") or [])
    gold, failed = meta.get("gold"), meta.get("round_failed")
    blocks: list[dict[str, Any]] = [
        label_block(
            f"ENTRE rounds: gold {gold or '—'}; the model's label on the original: {r['source_label'] or '—'}"
            + (f"; first wrong at round {failed}" if failed else "")
        )
    ]
    for k, (markup, label) in enumerate(zip(chain[:DETAIL_ROUNDS], labels), start=1):
        mark = "✗ first wrong" if k == failed else ("✓" if label == gold else "")
        blocks.append(label_block(f"round {k}: {label} {mark}".rstrip()))
        try:
            blocks.append(marked_block(_mention_parts(markup), "mtw-batch__ents--entre"))
        except Exception:  # noqa: BLE001 - a round that no longer parses is shown as its markup
            blocks.append({"type": "note", "text": str(markup)})
    if len(chain) > DETAIL_ROUNDS:
        blocks.append({"type": "note", "text": f"… and {len(chain) - DETAIL_ROUNDS} more rounds (row meta['chain'])"})
    if not chain:
        blocks.append({"type": "note", "text": "no round was asked: " + str(r.get("reason", "") or "")})
    cuts = [("", "from the entity names alone: "), ("", f"original {meta.get('shortcut_source') or '—'}")]
    if meta.get("shortcut_followup") is not None:
        cuts.append(("", f", after ENTRE {meta['shortcut_followup']}"))
    blocks.append(list_block([cuts], "mtw-batch__entre-shortcuts"))
    return detail_extra(blocks, cls="mtw-batch__entre")


# -- the Explorer's rounds ---------------------------------------------------------------------------
def entre_settings(relation: MetamorphicRelation) -> tuple[int, bool] | None:
    """``(rounds, fast)`` of an ENTRE relation (``None`` for any other relation): what the
    relation was built with (``mt.relation("ENTRE", rounds=5)``); ENTRE-fast asks one round."""
    prop = getattr(relation, "property", None)
    if not isinstance(prop, entre.GoldLabel):
        return None
    fast = bool(prop.fast)
    found = getattr(relation.iterate, "rounds", None)
    if found is None and relation.iterate is not None:
        try:  # the iterator keeps its settings in its closure (entre.iterator)
            found = inspect.getclosurevars(relation.iterate).nonlocals.get("rounds")
        except (TypeError, ValueError):
            found = None
    rounds = int(found) if isinstance(found, int) and not isinstance(found, bool) else entre.DEFAULT_ROUNDS
    return (1 if fast else rounds), fast


def rounds_of(relation: MetamorphicRelation, x: RelationInput, seed: int, rounds: int
              ) -> tuple[list[RelationInput], str | None]:
    """Rounds 1..``rounds`` of ``x`` as a run with ``seed`` asks them (:mod:`mtwidgets.re.entre`):
    round 1 is the follow-up the relation generates for ``x``, every later round the
    transformation's ``round(x, seed, r)``; they stop where no fresh name is left. ``[]``
    and the reason when ``x`` has no name ENTRE can replace."""
    first = relation.generate(x, seed)[0]
    if first.not_applicable is not None:
        return [], first.not_applicable
    replacement = relation.transformation
    out: list[RelationInput] = []
    for r in range(1, rounds + 1):
        reuse = r == 1 and len(first.followups) == 1 and isinstance(first.followups[0], RelationInput)
        y = first.followups[0] if reuse else replacement.round(x, seed, r)  # type: ignore[attr-defined]
        if not isinstance(y, RelationInput):
            break
        out.append(y)
    if not out:
        return [], f"{relation.name} found no fresh name to put in"
    return out, None


def flip_round(labels: Sequence[str | None], reference: str | None) -> int | None:
    """The first round (1-based) whose label differs from ``reference``, or ``None``."""
    return next((k for k, label in enumerate(labels, start=1) if label != reference), None)


def _score(p: Prediction, label: str | None) -> float:
    """The model's score for ``label``; without scores its label scores 1 and any other 0
    (a label the scores leave out scores 0)."""
    scores = dict(p.scores)
    if scores:
        return float(scores.get(label or "", 0.0))
    return 1.0 if p.label == label else 0.0


class EntreRounds(MultiSourceParts):
    """The Explorer's view of ENTRE on one instance: its rounds, one picked at a time.

    The case has one source, the instance shown; its options are the rounds ``"1"`` ..
    ``"R"``; its follow-ups are the shown round's instance first (the Explorer diffs it
    against the original) and then every round, so each model predicts all of them at once,
    in one batched call its cache then answers for every other round. A model's judgement
    gives its label on the original and on each round, the round at which it first flips
    from the reference label (the gold relation when the data gives one for this instance,
    else the model's label on the original) and ENTRE's verdict: a violation at the first
    flip, a pass when it keeps the label through every round, not applicable when it gets
    the original wrong (ENTRE replaces only what the model gets right).

    ``gold`` looks up the data's gold label of an instance (the Explorer's input carries no
    label); ``seed`` fixes the names drawn (a run's seed gives the run's rounds).
    """

    value_title = "score of the reference label (the gold relation, else the label on the original)"
    premise_title = "original"
    hypothesis_title = "shown round"
    source_titles = ("original",)
    _CACHED = 256  # instances whose rounds are kept

    def __init__(self, relation: MetamorphicRelation, *, gold: Callable[[RelationInput], str | None] | None = None,
                 seed: int = 0) -> None:
        settings = entre_settings(relation)
        if settings is None:
            raise ValueError(f"{relation.name} is not an ENTRE relation")
        self.relation = relation
        self.rounds, self.fast = settings
        self.seed = seed
        self._gold = gold
        self._chains: OrderedDict[tuple[str, str | None, int], tuple[list[RelationInput], str | None]] = OrderedDict()
        self._current: RelationInput | None = None  # the instance of the last follow-ups asked
        self._shown = 1  # the round of the last follow-ups asked (the case on screen)
        self.expected = (
            "the reference label on every round: the gold relation where the data gives one, else the model's "
            "own label on the original" + (" (ENTRE-fast: one round of fresh names)" if self.fast else "")
        )

    # -- the case -------------------------------------------------------------------------
    @property
    def followup_titles(self) -> tuple[str, ...]:  # type: ignore[override]
        chain = self.chain(self._current)[0] if self._current is not None else []
        return (f"round {self._shown} (shown)", *(f"round {k}" for k in range(1, len(chain) + 1)))

    def options(self) -> list[tuple[str, str]]:
        return [(str(r), f"round {r} of {self.rounds}") for r in range(1, self.rounds + 1)]

    def instance(self, x: BaseInput) -> RelationInput:
        """``x`` with the data's gold label for it, when there is one."""
        if not isinstance(x, RelationInput):
            raise TypeError(f"ENTRE replaces names in relation-extraction inputs, not {type(x).__name__}")
        gold = x.gold if x.gold is not None else (self._gold(x) if self._gold is not None else None)
        return x.with_gold(gold)

    def chain(self, x: BaseInput | None) -> tuple[list[RelationInput], str | None]:
        """The rounds of ``x`` (cached per instance, gold label and seed) or why there are none."""
        if x is None:
            return [], "no instance"
        y = self.instance(x)
        key = (y.key(), y.gold, self.seed)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = rounds_of(self.relation, y, self.seed, self.rounds)
            while len(self._chains) > self._CACHED:
                self._chains.popitem(last=False)
        self._chains.move_to_end(key)
        return found

    def followups(self, sources: Sequence[BaseInput], option: str) -> tuple[tuple[BaseInput, ...], str | None]:
        x = self.instance(sources[0])
        self._current = x
        chain, why = self.chain(x)
        if why is not None:
            return (), why
        r = _as_int(option) or 1
        if not 1 <= r <= len(chain):
            return (), f"no round {r}: no fresh name was left after round {len(chain)}"
        self._shown = r
        return (chain[r - 1], *chain), None

    def judge(self, option: str, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> CaseJudgement:
        src = sources[0]
        x = self._current
        gold = x.gold if x is not None else None
        reference = gold if gold is not None else src.label
        r = _as_int(option) or 1
        self._shown = r
        values: list[float | None] = [_score(p, reference) for p in (src, *followups)]
        whose = f"gold {gold}" if gold is not None else "no gold: the model's own label is the reference"
        premise = f"{src.label} ({whose})"
        if not followups:
            return CaseJudgement(Check("not_applicable", reference, "no round to show"), tuple(values), premise,
                                 src.label == reference)
        shown, labels = followups[0], [p.label for p in followups[1:]]
        flip = flip_round(labels, reference)
        hypothesis = f"round {r}: {shown.label}" + (
            f" · first flips at round {flip} ({labels[flip - 1]})" if flip else f" · no flip in {len(labels)} rounds"
        )
        check = self._check(src.label, gold, reference, labels, flip)
        return CaseJudgement(check, tuple(values), premise, src.label == reference, hypothesis,
                             shown.label == reference)

    def _check(self, before: str | None, gold: str | None, reference: str | None, labels: Sequence[str | None],
               flip: int | None) -> Check:
        """ENTRE's verdict on the rounds, as a run decides it (:mod:`mtwidgets.re.entre`)."""
        if gold is not None and self.fast and gold == entre.NO_RELATION:
            return Check("not_applicable", gold, "ENTRE-fast replaces only instances whose gold relation is not "
                         "no_relation")
        if gold is not None and before != gold and not self.fast:
            return Check("not_applicable", gold, f"the model gets the original wrong (predicts {before}, gold "
                         f"{gold}): ENTRE replaces only what it gets right")
        if flip is None:
            return Check("pass", reference, f"keeps {reference} through all {len(labels)} rounds")
        if self.fast and gold is not None and before != gold:
            return Check("not_applicable", gold, f"wrong before and after the replacement (original {before}, "
                         f"replaced {labels[flip - 1]})")
        return Check("violation", reference, f"flips at round {flip}: {reference} -> {labels[flip - 1]}")

    def meta(self, option: str) -> dict[str, Any]:
        return {"transformation": option, "round": _as_int(option), "rounds": self.rounds, "seed": self.seed}


def entre_case(relation: Any, *, gold: Callable[[RelationInput], str | None] | None = None) -> EntreRounds | None:
    """The Explorer's :class:`EntreRounds` for an ENTRE relation, ``None`` for any other."""
    if relation is None or entre_settings(relation) is None:
        return None
    return EntreRounds(relation, gold=gold)
