"""The runner: the only place that calls models.

Stages, per chunk of sources and per model (DESIGN: some preconditions and follow-ups
depend on the model's source outputs):

1. build every group of every relation (model-independent, deterministic for a seed);
2. predict every *distinct* source input once (deduplicated across relations and groups,
   batched, cached);
3. decide applicability from the source outputs (MR-S1/S2, MR-R2, MR-C1/C2);
4. predict every distinct follow-up of the applicable groups;
5. check the output property of each group.

An *aggregated* relation (``relation.aggregate`` set: pairwise systematicity, three-way
transitivity) goes through stages 1-4 like any other, so each distinct input is still
predicted once per model; instead of stage 5 its evaluated groups are collected over the
whole run and, once the last chunk is predicted, handed to ``relation.aggregate``, whose
counts become ``Results.aggregates`` (no group rows). An interrupted run keeps no partial
counts for it: the pairs need every source.

An *iterated* relation (``relation.iterate`` set: ENTRE) goes through stages 1-3; instead
of stages 4-5 its live groups are handed to ``relation.iterate`` with the runner's own
prediction function, which builds follow-ups round by round from the model's answers (see
:mod:`mtwidgets.core.iterate`); each outcome is an ordinary row.

A model that raises or answers with the wrong shape does not sink the run: the failing
batch is bisected to the input(s) at fault, their groups get verdict ``error`` with a
reason naming the model and the input, and every other group is still evaluated. A
relation that raises while building a source's follow-ups gives that source one ``error``
group naming the relation, the row and the exception. An interrupt (``KeyboardInterrupt``,
``SystemExit``, any other ``BaseException`` from a model) stops the run cleanly and
re-raises with the finished groups attached as ``.partial`` (also kept in
:attr:`Runner.last_partial`); ``run(..., resume=partial)`` evaluates only the rest.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .aggregate import Evaluated, Status, aggregate_frame, aggregate_row
from .cache import PredictionCache, default_cache, model_fingerprint
from .data import load_inputs, task_hint
from .errors import ModelError, RelationError
from .evaluate import GENERATION_ERROR, final_check, precheck, same_input
from .inputs import BaseInput
from .iterate import Item
from .predictions import Prediction
from .registry import relations_task, resolve
from .relation import Check, Group, MetamorphicRelation
from .results import Results, make_row


@dataclass(frozen=True)
class Progress:
    """One progress report: model inputs predicted in the current stage, and groups."""

    model: str
    stage: str  # "sources" | "follow-ups" | "done"
    done: int
    total: int
    groups_done: int
    groups_total: int
    elapsed: float


ProgressCallback = Callable[[Progress], None]


class _Tqdm:
    """``progress=True``: one tqdm bar per model and stage (terminal or notebook)."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.key: tuple[str, str] | None = None

    def __call__(self, p: Progress) -> None:
        from tqdm.auto import tqdm

        if (p.model, p.stage) != self.key:
            if self.bar is not None:
                self.bar.close()
            self.key = (p.model, p.stage)
            self.bar = tqdm(total=p.total, desc=f"{p.model}: {p.stage}", unit="input", leave=False)
        self.bar.n = p.done
        self.bar.refresh()
        if p.stage == "done" and self.bar is not None:
            self.bar.close()
            self.bar = None


def _load_embedded(name: str) -> Any:
    from .task import embedded_models, resolve_ref

    found = embedded_models()
    if name not in found:
        raise KeyError(f"no embedded model {name!r}; available: {', '.join(found)}")
    return resolve_ref(found[name].factory)()


def _resolve_models(models: Any) -> dict[str, Any]:
    load = _load_embedded

    if models is None:
        raise ValueError("give models={name: model} (or a list of embedded model names)")
    if isinstance(models, str):
        models = [models]
    if isinstance(models, Mapping):
        out = dict(models)
    else:
        out = {name: load(name) for name in models}
    if not out:
        raise ValueError("models is empty; give at least one model")
    return out


class Runner:
    """Runs relations over sources on models, with deduplication, batching and caching.

    Parameters
    ----------
    relations:
        Relation names or objects, or ``"all"`` for every relation of ``task``.
    task:
        A registered task's name; ``None`` takes it from the relations given (``"all"``
        needs it, and the error lists the registered tasks).
    models:
        ``{name: model}``; a model is anything :func:`mtwidgets.models.as_model` accepts.
    seed:
        Fixes every random choice (candidates, samples).
    batch_size:
        Inputs per model call.
    cache:
        A :class:`PredictionCache`, a path for an on-disk cache, or ``None`` for the
        process-wide memory cache.
    progress:
        A callback receiving :class:`Progress`, ``True`` for tqdm, or ``None``.
    on_error:
        ``"record"``: failing groups get verdict ``error`` and the run goes on;
        ``"raise"``: raise :class:`ModelError` after the chunk, with ``.partial`` results.
    max_errors, max_error_share:
        A model is not called again in this run once it failed on at least ``max_errors``
        inputs *and* on more than ``max_error_share`` of the inputs it was called on (a
        model failing on a few inputs keeps being called; one failing on most is given
        up). Its remaining groups get verdict ``error`` with that reason, and a warning
        says how many. ``max_errors=None`` never gives up.

    Attributes
    ----------
    partial:
        After an interrupted run, the groups it finished (also on the exception as
        ``.partial`` and in the class attribute :attr:`last_partial`).
    """

    #: The finished groups of the latest interrupted run in this process (``None`` if none).
    last_partial: Results | None = None

    def __init__(
        self,
        relations: Any = "all",
        models: Any = None,
        *,
        task: str | None = None,
        seed: int = 0,
        batch_size: int = 64,
        cache: PredictionCache | str | None = None,
        progress: ProgressCallback | bool | None = None,
        on_error: str = "record",
        max_errors: int | None = 10,
        max_error_share: float = 0.5,
    ) -> None:
        from .model import as_model, task_kind

        if on_error not in ("record", "raise"):
            raise ValueError(f"on_error must be 'record' or 'raise', got {on_error!r}")
        if max_errors is not None and (isinstance(max_errors, bool) or max_errors < 0):
            raise ValueError(f"max_errors must be a count >= 0 or None, got {max_errors!r}")
        if not 0 <= max_error_share < 1:
            raise ValueError(f"max_error_share must be a share in [0, 1), got {max_error_share!r}")
        if task is not None and not isinstance(task, str):
            task = str(getattr(task, "name", task))  # a Task object
        self.relations: list[MetamorphicRelation] = resolve(relations, task or relations_task(relations))
        # The task the relations test (None only for hand-made relations of an unregistered task).
        self.task: str | None = task or relations_task(self.relations)
        # How raw model answers are read: the prediction kind of the relations' task.
        self.kind: str = task_kind(self.task) or "label"
        self._given = list(self.relations)  # as given, before any data set prepared them
        names = [r.name for r in self.relations]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(
                f"relations {dup} are given twice; results are keyed by relation name, so give each "
                "variant its own name (dataclasses.replace(relation, name='MR-S2-custom'))"
            )
        self.user_models = _resolve_models(models)
        self.models = {name: as_model(m, name, self.kind) for name, m in self.user_models.items()}
        self.fingerprints = {name: model_fingerprint(m, name) for name, m in self.models.items()}
        self.seed = seed
        self.batch_size = batch_size
        self.cache = cache if isinstance(cache, PredictionCache) else (
            PredictionCache(cache) if cache is not None else default_cache()
        )
        self.progress: ProgressCallback | None = _Tqdm() if progress is True else (progress or None)
        self.on_error = on_error
        self.max_errors = max_errors
        self.max_error_share = max_error_share
        self.calls: dict[str, int] = dict.fromkeys(self.models, 0)  # inputs sent to each model
        self.partial: Results | None = None
        self._failures: dict[str, int] = dict.fromkeys(self.models, 0)
        self._attempted: dict[str, int] = dict.fromkeys(self.models, 0)
        self._broken: dict[str, str] = {}  # relation -> why preparing it on the data set failed
        # (model, aggregated relation) -> its evaluated groups so far in this run
        self._evaluated: dict[tuple[str, str], list[Evaluated]] = {}

    # -- groups -------------------------------------------------------------------------
    def groups(self, sources: Sequence[BaseInput], rows: Sequence[Any] | None = None) -> list[Group]:
        """Every group of every relation for these sources (no model involved).

        A relation that raises on a source gives that source one group with verdict
        ``error`` and the reason (relation, row, exception); the other sources and
        relations are built as usual."""
        rows = list(rows) if rows is not None else list(range(len(sources)))
        out: list[Group] = []
        for rel in self.relations:
            broken = self._broken.get(rel.name)
            for row, src in zip(rows, sources):
                if broken is not None:
                    out.append(_error_group(rel.name, src, row, self.seed, f"{broken} (row {row!r})"))
                    continue
                try:
                    out.extend(rel.generate(src, self.seed, source_index=row))
                except Exception as exc:  # noqa: BLE001 - one bad source must not sink the run
                    reason = (
                        f"{rel.name} failed to build follow-ups for row {row!r} "
                        f"({_short(src)}): {type(exc).__name__}: {exc}"
                    )
                    out.append(_error_group(rel.name, src, row, self.seed, reason))
        return out

    def prepare(self, sources: Sequence[BaseInput]) -> None:
        """Let relations see the whole data set once (e.g. MR-R1's candidate pool).

        Always from the relations as given, so a second run over other data does not
        inherit the first data set's candidates. A relation that raises here gives every
        source an ``error`` group naming it."""
        self._broken = {}
        prepared = []
        for r in self._given:
            try:
                prepared.append(r.prepared(sources))
            except Exception as exc:  # noqa: BLE001 - reported on each of its groups
                self._broken[r.name] = f"{r.name} failed to prepare on the data set: {type(exc).__name__}: {exc}"
                prepared.append(r)
        self.relations = prepared

    # -- running ------------------------------------------------------------------------
    def run(
        self, sources: Sequence[BaseInput], rows: Sequence[Any] | None = None, *, resume: Results | None = None
    ) -> Results:
        """Evaluate every group; ``resume`` (the ``.partial`` of an interrupted run) keeps
        its finished groups as they are and evaluates only the others."""
        parts = list(self.iter_chunks(sources, rows, chunk_size=None, resume=resume))
        return Results.concat(parts) if parts else Results.empty()

    def iter_chunks(
        self,
        sources: Sequence[BaseInput],
        rows: Sequence[Any] | None = None,
        *,
        chunk_size: int | None = None,
        resume: Results | None = None,
    ) -> Iterator[Results]:
        """Evaluate ``chunk_size`` sources at a time, yielding each chunk's results.

        Interrupting between chunks keeps every yielded chunk; interrupting inside one
        (``KeyboardInterrupt`` in a model call) re-raises with every finished group as
        ``.partial`` (and :attr:`partial`). The cache makes a rerun skip every prediction
        already made; ``resume`` skips the finished groups themselves.
        """
        rows = list(rows) if rows is not None else list(range(len(sources)))
        self.partial = None
        self.prepare(sources)
        self._reset_failures()
        resumed = _resume_index(resume)
        size = chunk_size or max(len(sources), 1)
        done: list[Results] = []
        for start in range(0, len(sources), size):
            try:
                groups = self.groups(sources[start : start + size], rows[start : start + size])
                part = self._check(groups, done, resumed)
                if start + size >= len(sources):  # the last chunk carries the aggregated relations' counts
                    part.aggregates = aggregate_frame(self._aggregate())
            except BaseException as exc:
                self._stash(exc, Results.concat(done) if done else Results.empty())
                raise
            done.append(part)
            yield part

    def check(self, groups: Sequence[Group], *, resume: Results | None = None) -> Results:
        """Evaluate groups built elsewhere (a saved suite, hand-crafted follow-ups) as they are."""
        known = {r.name for r in self.relations}
        missing = sorted({g.relation for g in groups} - known)
        if missing:
            raise RelationError(
                f"groups of {missing} but the runner has only {sorted(known)}; pass those relations too"
            )
        self.partial = None
        self._reset_failures()
        try:
            part = self._check(list(groups), [], _resume_index(resume))
            part.aggregates = aggregate_frame(self._aggregate())
            return part
        except BaseException as exc:
            self._stash(exc, Results.empty())
            raise

    def _reset_failures(self) -> None:
        # max_errors counts per run; so do the aggregated relations' groups
        self._failures = dict.fromkeys(self.models, 0)
        self._attempted = dict.fromkeys(self.models, 0)
        self._evaluated = {}

    def _aggregate(self) -> list[dict[str, Any]]:
        """The aggregate rows of every aggregated relation and model of this run.

        An aggregator that raises does not sink the run: its relation gets one row whose
        ``errors`` count every group it was given and whose ``detail`` says what was raised
        (and a warning)."""
        out: list[dict[str, Any]] = []
        for rel in self.relations:
            if rel.aggregate is None:
                continue
            for name in self.models:
                evaluated = self._evaluated.get((name, rel.name))
                if evaluated is None:
                    continue
                try:
                    out.extend(dict(r) for r in rel.aggregate(rel, name, evaluated))
                except Exception as exc:  # noqa: BLE001 - reported as the relation's row
                    reason = f"{rel.name} failed to count its cases on model {name!r}: {type(exc).__name__}: {exc}"
                    warnings.warn(reason, RuntimeWarning, stacklevel=4)
                    out.append(aggregate_row(relation=rel.name, task=rel.task, model=name, satisfied=0,
                                             violations=0, errors=len(evaluated), detail={"error": reason}))
        return out

    def _finish(
        self,
        name: str,
        rel: MetamorphicRelation,
        i: int,
        g: Group,
        outs: Sequence[Prediction],
        fouts: Sequence[Prediction],
        check: Check | None,
        rows: dict[int, dict[str, Any]],
    ) -> None:
        """Record group ``i`` decided for model ``name``: a results row, or for an aggregated
        relation its evaluated group (``check`` ``None``: predicted, for the aggregator to count)."""
        if rel.aggregate is None:
            assert check is not None
            rows[i] = make_row(g, name, outs, fouts, check)
            return
        status: Status = "ok" if check is None else ("error" if check.verdict == "error" else "not_applicable")
        reason = "" if check is None else check.reason
        self._evaluated.setdefault((name, rel.name), []).append(Evaluated(g, tuple(outs), tuple(fouts), status, reason))

    def _stash(self, exc: BaseException, partial: Results) -> None:
        """Attach the finished groups to an exception that stops the run (once)."""
        if getattr(exc, "_mt_partial_set", False):
            return
        self.partial = partial
        Runner.last_partial = partial
        try:
            exc.partial = partial  # type: ignore[attr-defined]
            exc._mt_partial_set = True  # type: ignore[attr-defined]
        except (AttributeError, TypeError):  # an exception type refusing attributes
            pass

    def _check(self, groups: list[Group], done: list[Results], resumed: Mapping[tuple[str, str, str], dict[str, Any]]) -> Results:
        result_rows: list[dict[str, Any]] = []
        errors: list[ModelError] = []
        for name in self.models:
            rows: dict[int, dict[str, Any]] = {}
            try:
                model_errors = self._evaluate(name, groups, resumed, rows)
            except BaseException as exc:
                result_rows.extend(rows[i] for i in sorted(rows))
                self._stash(exc, Results.concat([*done, Results.from_rows(result_rows, errors=errors)]))
                raise
            result_rows.extend(rows[i] for i in sorted(rows))  # aggregated relations' groups have no row
            errors.extend(model_errors)
        _warn_generation_errors(groups)
        part = Results.from_rows(result_rows, errors=errors)
        if errors and self.on_error == "raise":
            first = errors[0]
            self._stash(first, Results.concat([*done, part.without_errors()]))
            raise first
        return part

    # -- per model ----------------------------------------------------------------------
    def _evaluate(
        self,
        name: str,
        groups: list[Group],
        resumed: Mapping[tuple[str, str, str], dict[str, Any]],
        rows: dict[int, dict[str, Any]],
    ) -> list[ModelError]:
        """Fill ``rows`` (group index -> row) for model ``name``; on an interrupt, fill the
        groups whose predictions are all at hand and re-raise."""
        todo: list[int] = []
        for i, g in enumerate(groups):
            kept = resumed.get(_resume_key(name, g)) if resumed else None
            if kept is not None:
                rows[i] = dict(kept)
            else:
                todo.append(i)
        try:
            return self._evaluate_todo(name, groups, todo, rows)
        except BaseException:
            self._finish_from_cache(name, groups, todo, rows)
            raise

    def _evaluate_todo(
        self, name: str, groups: list[Group], todo: list[int], rows: dict[int, dict[str, Any]]
    ) -> list[ModelError]:
        rel_by_name = {r.name: r for r in self.relations}
        model = self.models[name]
        started = time.perf_counter()
        live = {i for i in todo if _needs_model(groups[i], model)}
        src_preds, src_errs = self._predict(
            name, _distinct(s for i in sorted(live) for s in groups[i].sources), "sources", len(groups), started,
            groups_done=len(rows),
        )
        pending: list[tuple[int, Group, list[Prediction]]] = []
        for i in todo:
            g = groups[i]
            rel = rel_by_name[g.relation]
            failed = next((src_errs[s.key()] for s in g.sources if s.key() in src_errs), None)
            decided = i not in live or failed is not None
            outs = [] if decided else [src_preds[s.key()] for s in g.sources]
            early = precheck(rel, g, outs, None if failed is None else str(failed), model)
            if early is not None:
                self._finish(name, rel, i, g, outs, [], early, rows)
            else:
                pending.append((i, g, outs))

        iterated = [p for p in pending if rel_by_name[p[1].relation].iterate is not None]
        pending = [p for p in pending if rel_by_name[p[1].relation].iterate is None]
        it_errs = self._iterate(name, rel_by_name, iterated, rows, len(groups), started)
        fu_preds, fu_errs = self._predict(
            name, _distinct(f for _, g, _ in pending for f in g.followups), "follow-ups", len(groups), started,
            groups_done=len(rows),
        )
        for i, g, outs in pending:
            rel = rel_by_name[g.relation]
            failed = next((fu_errs[f.key()] for f in g.followups if f.key() in fu_errs), None)
            fouts = [] if failed is not None else [fu_preds[f.key()] for f in g.followups]
            if rel.aggregate is not None and failed is None:
                self._finish(name, rel, i, g, outs, fouts, None, rows)
                continue
            check = final_check(rel, g, outs, fouts, None if failed is None else str(failed))
            self._finish(name, rel, i, g, outs, fouts, check, rows)
        self._report(name, "done", 1, 1, len(groups), len(groups), started)
        self._warn_given_up(name, [rows[i] for i in todo if i in rows])
        return _unique_errors([*src_errs.values(), *it_errs, *fu_errs.values()])

    def _iterate(
        self,
        name: str,
        rel_by_name: Mapping[str, MetamorphicRelation],
        pending: list[tuple[int, Group, list[Prediction]]],
        rows: dict[int, dict[str, Any]],
        groups_total: int,
        started: float,
    ) -> list[ModelError]:
        """Decide the groups of iterated relations (:mod:`mtwidgets.core.iterate`): each
        relation builds its rounds from model ``name``'s answers through the runner's own
        batched, cached prediction; every outcome becomes one ordinary row."""
        errors: list[ModelError] = []

        def predict(inputs: Sequence[BaseInput], stage: str) -> tuple[dict[str, Prediction], dict[str, Any]]:
            preds, errs = self._predict(name, _distinct(inputs), stage, groups_total, started, groups_done=len(rows))
            errors.extend(errs.values())
            return preds, errs

        by_relation: dict[str, list[Item]] = {}
        for i, g, outs in pending:
            by_relation.setdefault(g.relation, []).append(Item(i, g, tuple(outs)))
        for rel_name, items in by_relation.items():
            rel = rel_by_name[rel_name]
            assert rel.iterate is not None
            for outcome in rel.iterate(rel, name, items, predict):
                item = next(it for it in items if it.index == outcome.index)
                self._finish(name, rel, outcome.index, outcome.group, item.source_outputs,
                             outcome.followup_outputs, outcome.check, rows)
        return errors

    def _finish_from_cache(self, name: str, groups: list[Group], todo: list[int], rows: dict[int, dict[str, Any]]) -> None:
        """After an interrupt: the rows of the groups whose every prediction is cached."""
        rel_by_name = {r.name: r for r in self.relations}
        model = self.models[name]
        open_ = [i for i in todo if i not in rows]
        keys = list({x.key() for i in open_ for x in (*groups[i].sources, *groups[i].followups)})
        try:
            cached = self.cache.get_many(self.user_models[name], self.fingerprints[name], keys)
            for i in open_:
                g = groups[i]
                rel = rel_by_name[g.relation]
                if rel.aggregate is not None or rel.iterate is not None:  # decided over the whole run only
                    continue
                if not _needs_model(g, model):
                    early = precheck(rel, g, [], None, model)
                    if early is not None:
                        rows[i] = make_row(g, name, [], [], early)
                    continue
                if not all(s.key() in cached for s in g.sources):
                    continue
                outs = [cached[s.key()] for s in g.sources]
                early = precheck(rel, g, outs, None, model)
                if early is not None:
                    rows[i] = make_row(g, name, outs, [], early)
                elif all(f.key() in cached for f in g.followups):
                    fouts = [cached[f.key()] for f in g.followups]
                    rows[i] = make_row(g, name, outs, fouts, final_check(rel, g, outs, fouts, None))
        except Exception:  # noqa: BLE001, S110 - keep what was finished; the interrupt goes on
            pass

    def _predict(
        self, name: str, inputs: list[BaseInput], stage: str, groups_total: int, started: float, groups_done: int = 0
    ) -> tuple[dict[str, Prediction], dict[str, ModelError]]:
        model, fingerprint = self.models[name], self.fingerprints[name]
        keys = [x.key() for x in inputs]
        preds = self.cache.get_many(self.user_models[name], fingerprint, keys)
        errors: dict[str, ModelError] = {}
        todo = [(k, x) for k, x in zip(keys, inputs) if k not in preds]
        done = len(inputs) - len(todo)
        self._report(name, stage, done, len(inputs), groups_done, groups_total, started)
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start : start + self.batch_size]
            if self._given_up(name):
                for k, x in batch:
                    errors[k] = self._not_called(name, x)
                continue
            got = self._call(name, model, batch, errors)
            self.cache.put_many(self.user_models[name], fingerprint, got)
            preds.update(got)
            done += len(batch)
            self._report(name, stage, done, len(inputs), groups_done, groups_total, started)
        return preds, errors

    def _call(
        self, name: str, model: Any, batch: list[tuple[str, BaseInput]], errors: dict[str, ModelError]
    ) -> dict[str, Prediction]:
        """Predict a batch; on failure bisect to the inputs at fault and record them.

        Only ``Exception`` is a model failure; ``KeyboardInterrupt``, ``SystemExit`` and
        other ``BaseException`` stop the run (the runner keeps the finished groups)."""
        from .model import check_outputs

        self.calls[name] += len(batch)
        try:
            raw = model.predict([x for _, x in batch])
            preds = check_outputs(name, [x for _, x in batch], raw, kind=self.kind)
        except Exception as exc:  # noqa: BLE001 - any model failure is reported, not raised
            if len(batch) == 1:
                k, x = batch[0]
                self._failures[name] += 1
                self._attempted[name] += 1
                errors[k] = ModelError(
                    f"model {name!r} failed on input {x.display()!r}: {type(exc).__name__}: {exc}",
                    model=name, input=x,
                )
                return {}
            mid = len(batch) // 2
            out = self._call(name, model, batch[:mid], errors)
            if not self._given_up(name):
                out.update(self._call(name, model, batch[mid:], errors))
            else:
                for k, x in batch[mid:]:
                    errors[k] = self._not_called(name, x)
            return out
        self._attempted[name] += len(batch)
        return {k: p for (k, _), p in zip(batch, preds)}

    def _given_up(self, name: str) -> bool:
        """Whether model ``name`` failed often enough (see ``max_errors``) not to be called again."""
        failures = self._failures[name]
        if self.max_errors is None or failures == 0:
            return False
        return failures >= self.max_errors and failures > self.max_error_share * self._attempted[name]

    def _not_called(self, name: str, x: BaseInput) -> ModelError:
        return ModelError(
            f"model {name!r} was not called on {x.display()!r}: it had failed on {self._failures[name]} of the "
            f"{self._attempted[name]} inputs it was called on (max_errors={self.max_errors}, "
            f"max_error_share={self.max_error_share:g})",
            model=name, input=x,
        )

    def _warn_given_up(self, name: str, rows: list[dict[str, Any]]) -> None:
        prefix = f"model {name!r} was not called on "
        skipped = sum(1 for r in rows if r["verdict"] == "error" and str(r["reason"]).startswith(prefix))
        if skipped:
            warnings.warn(
                f"model {name!r} failed on {self._failures[name]} of the {self._attempted[name]} inputs it was "
                f"called on, so it was not called again: {skipped} of its groups have verdict 'error' without "
                f"being evaluated (max_errors={self.max_errors}, max_error_share={self.max_error_share:g}; "
                "max_errors=None always calls it)",
                RuntimeWarning,
                stacklevel=4,
            )

    def _report(self, model: str, stage: str, done: int, total: int, gdone: int, gtotal: int, started: float) -> None:
        if self.progress is not None:
            self.progress(Progress(model, stage, done, total, gdone, gtotal, time.perf_counter() - started))


def last_partial() -> Results | None:
    """The finished groups of the latest interrupted run in this process (see
    :attr:`Runner.last_partial`), to pass as ``mt.run(..., resume=...)``."""
    return Runner.last_partial


def _short(x: Any) -> str:
    try:
        shown = x.display() if hasattr(x, "display") else repr(x)
    except Exception:  # noqa: BLE001 - the input itself may be what is broken
        shown = object.__repr__(x)
    return repr(shown if len(shown) <= 80 else shown[:77] + "...")


def _error_group(relation: str, src: Any, row: Any, seed: int, reason: str) -> Group:
    sources = (src,) if isinstance(src, BaseInput) else tuple(src)
    return Group(relation, 0, sources, (), "", seed, row, meta={GENERATION_ERROR: reason})


def _needs_model(g: Group, model: Any) -> bool:
    """Whether the group's verdict depends on the model's outputs."""
    if g.not_applicable is not None or (g.meta and g.meta.get(GENERATION_ERROR) is not None):
        return False
    return same_input(g, model) is None


def _warn_generation_errors(groups: Sequence[Group]) -> None:
    by_relation: dict[str, list[Any]] = {}
    for g in groups:
        if g.meta and g.meta.get(GENERATION_ERROR) is not None:
            by_relation.setdefault(g.relation, []).append(g.source_index)
    for relation, rows in by_relation.items():
        shown = ", ".join(repr(r) for r in rows[:5]) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
        warnings.warn(
            f"{relation} raised while building follow-ups for {len(rows)} source(s) (rows {shown}); their "
            "groups have verdict 'error' with the reason in results.frame",
            RuntimeWarning,
            stacklevel=5,
        )


def _followups_key(followups: Any) -> str:
    return json.dumps(list(followups), sort_keys=True, ensure_ascii=False, default=str)


def _resume_key(model: str, g: Group) -> tuple[str, str, str]:
    return (model, g.id, _followups_key(f.to_dict() for f in g.followups))


def _resume_index(resume: Results | None) -> dict[tuple[str, str, str], dict[str, Any]]:
    """The finished rows of an earlier (interrupted) run, by model, group id and follow-ups;
    ``error`` rows are left out so their groups are tried again."""
    if resume is None:
        return {}
    if not isinstance(resume, Results):
        raise TypeError(f"resume takes the Results of an earlier run (its .partial), got {type(resume).__name__}")
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in resume.frame.to_dict("records"):
        if row["verdict"] == "error":
            continue
        out[(str(row["model"]), str(row["group"]), _followups_key(row["followups"]))] = row
    return out


def _distinct(inputs: Any) -> list[BaseInput]:
    seen: dict[str, BaseInput] = {}
    for x in inputs:
        seen.setdefault(x.key(), x)
    return list(seen.values())


def _unique_errors(errors: list[ModelError]) -> list[ModelError]:
    seen: set[str] = set()
    out = []
    for e in errors:
        if str(e) not in seen:
            seen.add(str(e))
            out.append(e)
    return out


def run(
    data: Any,
    relations: Any = "all",
    models: Any = None,
    *,
    seed: int = 0,
    task: str | None = None,
    batch_size: int = 64,
    cache: PredictionCache | str | None = None,
    progress: ProgressCallback | bool | None = None,
    on_error: str = "record",
    max_errors: int | None = 10,
    max_error_share: float = 0.5,
    on_bad_rows: str = "raise",
    resume: Results | None = None,
) -> Results:
    """Run metamorphic relations over ``data`` on ``models``.

    ``task=None`` takes the task from the relations given, else from the data (its inputs,
    or a table's columns); when neither tells, the error lists the registered tasks.

    An interrupted run (``KeyboardInterrupt``) re-raises with its finished groups as
    ``.partial``, also kept as ``mt.Runner.last_partial``; ``resume=`` that partial
    evaluates only the groups it lacks.

    Examples
    --------
    >>> results = mt.run(df, relations="all", models={"patterns": mt.models.load("re-patterns")})
    >>> results.summary()
    """
    options: dict[str, Any] = dict(
        seed=seed, batch_size=batch_size, cache=cache, progress=progress, on_error=on_error,
        max_errors=max_errors, max_error_share=max_error_share,
    )
    if isinstance(data, Results):  # a saved suite: check its groups as they are
        groups = data.groups()
        if relations == "all" or relations is None:
            relations = list(dict.fromkeys(g.relation for g in groups))
        suite_runner = Runner(relations, models, task=task, **options)
        names = {r.name for r in suite_runner.relations}
        return suite_runner.check([g for g in groups if g.relation in names], resume=resume)
    task = task or task_hint(models, relations)
    loaded = load_inputs(data, task=task, on_bad=on_bad_rows)  # also a LoadedData from mt.load_inputs
    runner = Runner(relations, models, task=task or loaded.inputs[0].task, **options)
    try:
        results = runner.run(loaded.inputs, loaded.rows, resume=resume)
    except BaseException as exc:
        partial = getattr(exc, "partial", None)
        if isinstance(partial, Results):
            partial.skipped = list(loaded.skipped)
        raise
    results.skipped = list(loaded.skipped)
    return results
