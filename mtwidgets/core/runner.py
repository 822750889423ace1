"""The runner: the only place that calls models.

Stages, per chunk of sources and per model (DESIGN: some preconditions and follow-ups
depend on the model's source outputs):

1. build every group of every relation (model-independent, deterministic for a seed);
2. predict every *distinct* source input once (deduplicated across relations and groups,
   batched, cached);
3. decide applicability from the source outputs (MR-S1/S2, MR-R2, MR-C1/C2);
4. predict every distinct follow-up of the applicable groups;
5. check the output property of each group.

A model that raises or answers with the wrong shape does not sink the run: the failing
batch is bisected to the input(s) at fault, their groups get verdict ``error`` with a
reason naming the model and the input, and every other group is still evaluated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cache import PredictionCache, default_cache, model_fingerprint
from .data import load_inputs, task_hint
from .errors import ModelError, RelationError
from .evaluate import final_check, precheck
from .inputs import BaseInput
from .predictions import Prediction
from .registry import relations_task, resolve
from .relation import Group, MetamorphicRelation
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
    max_errors:
        After this many failing inputs a model is not called again in this run.
    """

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
        max_errors: int = 10,
    ) -> None:
        from .model import as_model, task_kind

        if on_error not in ("record", "raise"):
            raise ValueError(f"on_error must be 'record' or 'raise', got {on_error!r}")
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
        self.calls: dict[str, int] = dict.fromkeys(self.models, 0)  # inputs sent to each model
        self._failures: dict[str, int] = dict.fromkeys(self.models, 0)

    # -- groups -------------------------------------------------------------------------
    def groups(self, sources: Sequence[BaseInput], rows: Sequence[Any] | None = None) -> list[Group]:
        """Every group of every relation for these sources (no model involved)."""
        rows = list(rows) if rows is not None else list(range(len(sources)))
        out: list[Group] = []
        for rel in self.relations:
            for row, src in zip(rows, sources):
                out.extend(rel.generate(src, self.seed, source_index=row))
        return out

    def prepare(self, sources: Sequence[BaseInput]) -> None:
        """Let relations see the whole data set once (e.g. MR-R1's candidate pool).

        Always from the relations as given, so a second run over other data does not
        inherit the first data set's candidates."""
        self.relations = [r.prepared(sources) for r in self._given]

    # -- running ------------------------------------------------------------------------
    def run(self, sources: Sequence[BaseInput], rows: Sequence[Any] | None = None) -> Results:
        parts = list(self.iter_chunks(sources, rows, chunk_size=None))
        return Results.concat(parts) if parts else Results.empty()

    def iter_chunks(
        self, sources: Sequence[BaseInput], rows: Sequence[Any] | None = None, *, chunk_size: int | None = None
    ) -> Iterator[Results]:
        """Evaluate ``chunk_size`` sources at a time, yielding each chunk's results.

        Interrupting between chunks keeps every yielded chunk; the cache makes a rerun
        skip every prediction already made.
        """
        rows = list(rows) if rows is not None else list(range(len(sources)))
        self.prepare(sources)
        self._failures = dict.fromkeys(self.models, 0)  # max_errors counts per run
        size = chunk_size or max(len(sources), 1)
        done: list[Results] = []
        for start in range(0, len(sources), size):
            part = self._check(self.groups(sources[start : start + size], rows[start : start + size]), done)
            done.append(part)
            yield part

    def check(self, groups: Sequence[Group]) -> Results:
        """Evaluate groups built elsewhere (a saved suite, hand-crafted follow-ups) as they are."""
        known = {r.name for r in self.relations}
        missing = sorted({g.relation for g in groups} - known)
        if missing:
            raise RelationError(
                f"groups of {missing} but the runner has only {sorted(known)}; pass those relations too"
            )
        self._failures = dict.fromkeys(self.models, 0)
        return self._check(list(groups), [])

    def _check(self, groups: list[Group], done: list[Results]) -> Results:
        result_rows: list[dict[str, Any]] = []
        errors: list[ModelError] = []
        for name in self.models:
            model_rows, model_errors = self._evaluate(name, groups)
            result_rows.extend(model_rows)
            errors.extend(model_errors)
        part = Results.from_rows(result_rows, errors=errors)
        if errors and self.on_error == "raise":
            exc = errors[0]
            exc.partial = Results.concat([*done, part.without_errors()])
            raise exc
        return part

    # -- per model ----------------------------------------------------------------------
    def _evaluate(self, name: str, groups: list[Group]) -> tuple[list[dict[str, Any]], list[ModelError]]:
        rel_by_name = {r.name: r for r in self.relations}
        started = time.perf_counter()
        live = [g for g in groups if g.not_applicable is None]
        src_preds, src_errs = self._predict(name, _distinct(s for g in live for s in g.sources), "sources", len(groups), started)

        rows: dict[int, dict[str, Any]] = {}
        pending: list[tuple[int, Group, list[Prediction]]] = []
        for i, g in enumerate(groups):
            rel = rel_by_name[g.relation]
            failed = next((src_errs[s.key()] for s in g.sources if s.key() in src_errs), None)
            decided = g.not_applicable is not None or failed is not None
            outs = [] if decided else [src_preds[s.key()] for s in g.sources]
            early = precheck(rel, g, outs, None if failed is None else str(failed))
            if early is not None:
                rows[i] = make_row(g, name, outs, [], early)
            else:
                pending.append((i, g, outs))

        fu_preds, fu_errs = self._predict(
            name, _distinct(f for _, g, _ in pending for f in g.followups), "follow-ups", len(groups), started,
            groups_done=len(rows),
        )
        for i, g, outs in pending:
            failed = next((fu_errs[f.key()] for f in g.followups if f.key() in fu_errs), None)
            fouts = [] if failed is not None else [fu_preds[f.key()] for f in g.followups]
            check = final_check(rel_by_name[g.relation], g, outs, fouts, None if failed is None else str(failed))
            rows[i] = make_row(g, name, outs, fouts, check)
        self._report(name, "done", 1, 1, len(groups), len(groups), started)
        errors = _unique_errors([*src_errs.values(), *fu_errs.values()])
        return [rows[i] for i in range(len(groups))], errors

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
            if self._failures[name] >= self.max_errors:
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
        """Predict a batch; on failure bisect to the inputs at fault and record them."""
        from .model import check_outputs

        self.calls[name] += len(batch)
        try:
            raw = model.predict([x for _, x in batch])
            preds = check_outputs(name, [x for _, x in batch], raw, kind=self.kind)
            return {k: p for (k, _), p in zip(batch, preds)}
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - any model failure is reported, not raised
            if len(batch) == 1:
                k, x = batch[0]
                self._failures[name] += 1
                errors[k] = ModelError(
                    f"model {name!r} failed on input {x.display()!r}: {type(exc).__name__}: {exc}",
                    model=name, input=x,
                )
                return {}
            mid = len(batch) // 2
            out = self._call(name, model, batch[:mid], errors)
            if self._failures[name] < self.max_errors:
                out.update(self._call(name, model, batch[mid:], errors))
            else:
                for k, x in batch[mid:]:
                    errors[k] = self._not_called(name, x)
            return out

    def _not_called(self, name: str, x: BaseInput) -> ModelError:
        return ModelError(
            f"model {name!r} was not called on {x.display()!r}: it failed on "
            f"{self._failures[name]} inputs already (max_errors={self.max_errors})",
            model=name, input=x,
        )

    def _report(self, model: str, stage: str, done: int, total: int, gdone: int, gtotal: int, started: float) -> None:
        if self.progress is not None:
            self.progress(Progress(model, stage, done, total, gdone, gtotal, time.perf_counter() - started))


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
    max_errors: int = 10,
    on_bad_rows: str = "raise",
) -> Results:
    """Run metamorphic relations over ``data`` on ``models``.

    ``task=None`` takes the task from the relations given, else from the data (its inputs,
    or a table's columns); when neither tells, the error lists the registered tasks.

    Examples
    --------
    >>> results = mt.run(df, relations="all", models={"patterns": mt.models.load("re-patterns")})
    >>> results.summary()
    """
    if isinstance(data, Results):  # a saved suite: check its groups as they are
        groups = data.groups()
        if relations == "all" or relations is None:
            relations = list(dict.fromkeys(g.relation for g in groups))
        suite_runner = Runner(
            relations, models, task=task, seed=seed, batch_size=batch_size, cache=cache,
            progress=progress, on_error=on_error, max_errors=max_errors,
        )
        names = {r.name for r in suite_runner.relations}
        return suite_runner.check([g for g in groups if g.relation in names])
    task = task or task_hint(models, relations)
    loaded = load_inputs(data, task=task, on_bad=on_bad_rows)  # also a LoadedData from mt.load_inputs
    runner = Runner(
        relations, models, task=task or loaded.inputs[0].task, seed=seed, batch_size=batch_size, cache=cache,
        progress=progress, on_error=on_error, max_errors=max_errors,
    )
    results = runner.run(loaded.inputs, loaded.rows)
    results.skipped = list(loaded.skipped)
    return results
