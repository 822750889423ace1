"""The runner under failure: relations that raise, stale disk caches, interrupts, models
failing on a few inputs, and follow-ups a model cannot tell from their sources."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import textwrap
import threading
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mtwidgets as mt
from mtwidgets.core.cache import PredictionCache, model_fingerprint
from mtwidgets.core.evaluate import SAME_INPUT, precheck, same_input
from mtwidgets.core.relation import Group
from mtwidgets.core.runner import Runner
from mtwidgets.models import CallableModel, as_model
from mtwidgets.re.inputs import RelationInput

FATHER = "[[John|PERSON]] is <<Mary|PERSON>>'s father."
SISTER = "[[Lily|PERSON]] is <<Mary|PERSON>>'s sister."
MARRIED = "[[Maria|PERSON]] married <<Carlos|PERSON>> in 1998."
BORN = "[[Richard|PERSON]] was born in <<San Francisco|CITY>>."
AGE = "[[Jupp|PERSON]], <<46|NUMBER>>, works in the lab."
DATA = [FATHER, SISTER, MARRIED, BORN, AGE]
LIGHT = ["MR-S1", "MR-S2", "MR-R2", "MR-R3"]
LABELS = {"father": "per:children", "sister": "per:siblings", "married": "per:spouse", "born": "per:city_of_birth"}


def label_of(x: RelationInput) -> str:
    for word, label in LABELS.items():
        if word in x.text:
            return label if x.head.start < x.tail.start else label.replace("children", "parents")
    return "no_relation"


class Counting:
    """A deterministic model that records every input it is sent."""

    def __init__(self, fail_on: Any = None, stop_at: int | None = None, stop: type[BaseException] = KeyboardInterrupt):
        self.seen: list[str] = []
        self.fail_on = fail_on
        self.stop_at = stop_at
        self.stop = stop

    def predict(self, inputs: list[RelationInput]) -> list[str]:
        if self.stop_at is not None and len(self.seen) + len(inputs) > self.stop_at:
            raise self.stop()
        out = []
        for x in inputs:
            if self.fail_on is not None and self.fail_on(x):
                raise ValueError(f"cannot read {x.head_text}")
            out.append(label_of(x))
        self.seen.extend(x.key() for x in inputs)  # only inputs answered
        return out


# -- 1. a relation that raises on some sources ----------------------------------------------
class Hostile:
    """Wraps a transformation and raises on sources whose text says 'Boom'."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.requirement = inner.requirement

    def __call__(self, sources: Any, rng: random.Random) -> Any:
        if "Boom" in sources[0].text:
            raise ZeroDivisionError("a bug in the transformation")
        return self.inner(sources, rng)

    def prepare(self, sources: Any) -> Hostile:
        return self


def hostile_relation() -> Any:
    base = mt.relation("MR-S2")
    return dataclasses.replace(base, name="MR-S2-hostile", transformation=Hostile(base.transformation))


def test_a_relation_raising_on_some_rows_errors_only_those_rows() -> None:
    hostile_rows = ["[[Boom|PERSON]] is <<Mary|PERSON>>'s father.", "[[Ann Boom|PERSON]] married <<Bo|PERSON>>."]
    data = [FATHER, hostile_rows[0], MARRIED, hostile_rows[1], SISTER]
    with pytest.warns(RuntimeWarning, match=r"MR-S2-hostile raised while building follow-ups for 2 source"):
        res = mt.run(data, [hostile_relation(), "MR-S1"], {"m": Counting()}, cache=PredictionCache())
    f = res.frame
    errors = f[f["verdict"] == "error"]
    assert list(errors["relation"]) == ["MR-S2-hostile", "MR-S2-hostile"]
    assert list(errors["source_index"]) == [1, 3]
    for reason, row in zip(errors["reason"], (1, 3)):
        assert reason.startswith(f"MR-S2-hostile failed to build follow-ups for row {row} ")
        assert reason.endswith("ZeroDivisionError: a bug in the transformation")
    # every good group has the verdict a run over the good rows alone gives
    good = mt.run([FATHER, MARRIED, SISTER], [mt.relation("MR-S2"), "MR-S1"], {"m": Counting()},
                  cache=PredictionCache())
    kept = f[f["source_index"].isin([0, 2, 4])]
    assert len(kept) == len(good) == 6
    assert list(kept["verdict"]) == list(good.frame["verdict"])
    assert list(kept["followup_text"]) == list(good.frame["followup_text"])
    s1 = f[f["relation"] == "MR-S1"]
    assert list(s1["source_index"]) == [0, 1, 2, 3, 4] and "error" not in set(s1["verdict"])  # on every row
    assert res.errors == []  # no model failed


def test_a_relation_failing_to_prepare_errors_its_groups_and_the_run_goes_on() -> None:
    class Unpreparable(Hostile):
        def prepare(self, sources: Any) -> Hostile:
            raise RuntimeError("no candidates")

    base = mt.relation("MR-S2")
    broken = dataclasses.replace(base, name="MR-S2-broken", transformation=Unpreparable(base.transformation))
    with pytest.warns(RuntimeWarning):
        res = mt.run([FATHER, SISTER], [broken, "MR-S2"], {"m": Counting()}, cache=PredictionCache())
    f = res.frame.set_index("group")
    assert f.loc["MR-S2-broken/0/0", "verdict"] == "error"
    assert "MR-S2-broken failed to prepare on the data set: RuntimeError: no candidates (row 0)" in str(
        f.loc["MR-S2-broken/0/0", "reason"]
    )
    assert f.loc["MR-S2/0/0", "verdict"] == "pass"


def test_the_cli_reports_generation_errors_as_rows_not_a_crash(tmp_path: Path) -> None:
    # the CLI runs through mt.run; a hostile row no longer ends the run
    res = Runner([hostile_relation()], {"m": Counting()}, cache=PredictionCache())
    with pytest.warns(RuntimeWarning):
        out = res.run([RelationInput.parse("[[Boom|PERSON]] is <<Mary|PERSON>>'s father.")])
    assert list(out.frame["verdict"]) == ["error"]


# -- 2. disk-cache fingerprints --------------------------------------------------------------
SCRIPT = """
import mtwidgets as mt
LOG = {log!r}

def model(x):
    with open(LOG, "a") as fh:
        fh.write("call\\n")
    return {label!r}

res = mt.run([{source!r}], ["MR-S2"], {{"m": model}}, cache={cache!r})
print(res.frame.loc[0, "source_label"])
"""


def run_script(tmp_path: Path, label: str) -> tuple[str, int]:
    log, cache = tmp_path / "calls.log", tmp_path / "cache.sqlite"
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(SCRIPT.format(log=str(log), label=label, source=FATHER, cache=str(cache))))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=300)
    calls = len(log.read_text().splitlines()) if log.exists() else 0
    return out.stdout.strip().splitlines()[-1], calls


@pytest.mark.slow
def test_a_fixed_function_rerun_with_the_same_cache_file_gets_fresh_answers(tmp_path: Path) -> None:
    # source and follow-up predicted (per:children is invertible, so MR-S2 applies)
    assert run_script(tmp_path, "per:children") == ("per:children", 2)
    assert run_script(tmp_path, "per:children") == ("per:children", 2)  # same code: served from the file
    assert run_script(tmp_path, "per:parents") == ("per:parents", 4)  # fixed code: called again


def test_two_lambdas_do_not_share_disk_predictions(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    a = mt.run([FATHER], ["MR-S2"], {"m": lambda x: "per:children"}, cache=path)
    b = mt.run([FATHER], ["MR-S2"], {"m": lambda x: "per:spouse"}, cache=PredictionCache(path))
    assert (a.frame.loc[0, "source_label"], b.frame.loc[0, "source_label"]) == ("per:children", "per:spouse")


def make(label: str, threshold: int = 3) -> Any:
    def model(x: RelationInput) -> str:
        return label if len(x.text) > threshold else "no_relation"

    return model


LIMIT = 3


def reads_a_global(x: RelationInput) -> str:
    return "per:children" if len(x.text) > LIMIT else "no_relation"


def test_fingerprints_follow_code_closures_defaults_and_globals() -> None:
    def fp(fn: Any) -> str | None:
        return model_fingerprint(as_model(fn, "m"), "m")

    assert fp(make("a")) == fp(make("a"))  # same code, same values: one fingerprint
    assert fp(make("a")) != fp(make("b"))  # a closure value
    assert fp(make("a", 3)) != fp(make("a", 4))  # a closure value from a default
    before = fp(reads_a_global)
    global LIMIT
    LIMIT = 4
    try:
        assert fp(reads_a_global) != before  # a global the code reads
    finally:
        LIMIT = 3
    assert fp(reads_a_global) == before
    assert fp(lambda x, k=1: k) != fp(lambda x, k=2: k)  # defaults
    v2 = model_fingerprint(CallableModel(make("a"), version="2"), "m")
    v3 = model_fingerprint(CallableModel(make("a"), version="3"), "m")
    assert v2 is not None and v3 is not None and v2 != v3 and v2.endswith("|version=2")


def test_a_model_that_cannot_be_fingerprinted_stays_out_of_the_disk_cache(tmp_path: Path) -> None:
    lock = threading.Lock()  # library state the fingerprint cannot read

    def guarded(x: RelationInput) -> str:
        with lock:
            return "per:children"

    path = tmp_path / "c.sqlite"
    with pytest.warns(UserWarning, match="cannot fingerprint .*lock.*not kept in the disk cache"):
        assert model_fingerprint(as_model(guarded, "guarded"), "guarded") is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = mt.run([FATHER], ["MR-S2"], {"guarded": guarded}, cache=str(path))
    assert res.frame.loc[0, "source_label"] == "per:children"
    import sqlite3

    assert sqlite3.connect(str(path)).execute("SELECT COUNT(*) FROM predictions").fetchone() == (0,)
    # a version vouches for it: then it is cached on disk
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        versioned = as_model(guarded, "guarded", version="1")
        assert model_fingerprint(versioned, "guarded") is not None
        mt.run([FATHER], ["MR-S2"], {"guarded": versioned}, cache=str(path))
    assert sqlite3.connect(str(path)).execute("SELECT COUNT(*) FROM predictions").fetchone() == (2,)


def test_torch_weights_are_in_the_fingerprint() -> None:
    torch = pytest.importorskip("torch")

    class Scorer:
        def __init__(self) -> None:
            torch.manual_seed(0)
            self.net = torch.nn.Linear(4, 2)

        def predict(self, inputs: list[Any]) -> list[str]:
            return ["no_relation" for _ in inputs]

    m = Scorer()
    first = model_fingerprint(m, "m")
    assert first is not None and first == model_fingerprint(m, "m")
    with torch.no_grad():
        m.net.weight[0, 0] += 1.0  # an in-place update, as an optimizer step makes
    assert model_fingerprint(m, "m") != first
    assert model_fingerprint(Scorer(), "m") == first  # the same weights in a new object


# -- 3. interrupts keep finished work -------------------------------------------------------
@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_an_interrupted_run_keeps_finished_groups_and_resumes_with_only_the_rest(stop: type[BaseException]) -> None:
    full = mt.run(DATA, LIGHT, {"m": Counting()}, cache=PredictionCache(), batch_size=1)
    n_inputs = len(Counting().seen) or None
    model = Counting(stop_at=8, stop=stop)  # answers 8 inputs (sources, then some follow-ups), then stops
    cache = PredictionCache()
    with pytest.raises(stop) as info:
        mt.run(DATA, LIGHT, {"m": model}, cache=cache, batch_size=1)
    partial = info.value.partial  # type: ignore[attr-defined]
    assert partial is mt.Runner.last_partial
    assert 0 < len(partial) < len(full)
    assert "error" not in set(partial.frame["verdict"])
    first_calls = list(model.seen)
    assert len(first_calls) == 8 and n_inputs is None
    # every group it kept is exactly the uninterrupted run's
    merged = partial.frame.merge(full.frame, on=["model", "group"], suffixes=("", "_full"))
    assert len(merged) == len(partial)
    assert list(merged["verdict"]) == list(merged["verdict_full"])

    # the README's one-liner
    model.stop_at = None
    results = mt.run(DATA, LIGHT, {"m": model}, cache=cache, batch_size=1, resume=mt.Runner.last_partial)
    pd.testing.assert_frame_equal(results.frame, full.frame)
    resumed_calls = model.seen[len(first_calls):]
    assert max(Counter(model.seen).values()) == 1, "an input was predicted twice"
    done = set(partial.frame["group"])
    unfinished = full.frame[~full.frame["group"].isin(done)]
    needed = {RelationInput.from_dict(d).key() for col in ("sources", "followups") for ds in unfinished[col] for d in ds}
    assert resumed_calls and set(resumed_calls) <= needed


def test_an_interrupt_in_the_second_model_keeps_the_first_models_groups() -> None:
    a, b = Counting(), Counting(stop_at=2)
    with pytest.raises(KeyboardInterrupt) as info:
        mt.run(DATA, LIGHT, {"a": a, "b": b}, cache=PredictionCache(), batch_size=1)
    partial = info.value.partial  # type: ignore[attr-defined]
    assert set(partial.frame["model"]) <= {"a", "b"}
    assert (partial.frame["model"] == "a").sum() == len(mt.run(DATA, LIGHT, {"a": Counting()}, cache=PredictionCache()))
    b.stop_at = None
    a_calls = len(a.seen)
    again = mt.run(DATA, LIGHT, {"a": a, "b": b}, cache=PredictionCache(), resume=partial)
    assert len(a.seen) == a_calls  # nothing of model a's is evaluated again
    assert set(again.frame["model"]) == {"a", "b"}


# -- 4. a model failing on a few inputs is still called on the others -----------------------
def many(n: int) -> list[str]:
    return [f"[[Person{i}|PERSON]] is <<Mary{i}|PERSON>>'s father." for i in range(n)]


def test_a_model_failing_on_14_of_600_inputs_still_evaluates_every_good_group() -> None:
    data = many(300)  # 300 sources + 300 follow-ups
    bad = {f"Person{i}" for i in range(0, 280, 20)}  # 14 sources

    def fails(x: RelationInput) -> bool:
        return x.head_text in bad or x.tail_text in bad

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "not called again" warning
        res = mt.run(data, ["MR-S2"], {"m": Counting(fail_on=fails)}, cache=PredictionCache())
    f = res.frame
    errors = f[f["verdict"] == "error"]
    assert len(errors) == 14 and not errors["reason"].str.contains("not called").any()
    assert set(f[f["verdict"] != "error"]["verdict"]) == {"pass"}
    assert (f["verdict"] == "pass").sum() == 286
    assert len(res.errors) == 14


def test_a_model_failing_on_most_inputs_is_given_up_with_the_count_said() -> None:
    model = Counting(fail_on=lambda x: True)
    with pytest.warns(RuntimeWarning, match=r"failed on \d+ of the \d+ inputs .* (\d+) of its groups have verdict"):
        res = mt.run(many(100), ["MR-S2"], {"m": model}, cache=PredictionCache(), batch_size=8)
    reasons = res.frame["reason"]
    skipped = reasons[reasons.str.contains("was not called")]
    assert len(skipped) > 50  # most groups were never sent
    assert all("max_errors=10" in r and "max_error_share=0.5" in r for r in skipped)
    assert res.summary().loc[0, "errors"] == 100
    # max_errors=None never gives up
    stubborn = mt.run(many(30), ["MR-S2"], {"m": Counting(fail_on=lambda x: True)}, cache=PredictionCache(),
                      max_errors=None)
    assert not stubborn.frame["reason"].str.contains("not called").any()


# -- 5. a follow-up that is the same model input ---------------------------------------------
class TypeBlind(Counting):
    """Reads only the text and the two positions (like LUKE or OpenNRE)."""

    def model_input(self, x: RelationInput) -> Any:
        return (x.text, x.head.start, x.head.end, x.tail.start, x.tail.end)


def retyped_group() -> Group:
    x = RelationInput.parse(AGE)
    y = RelationInput.parse("[[Jupp|PERSON]], <<46|DURATION>>, works in the lab.")
    return Group("MR-R3", 0, (x,), (y,), "retyped", 0, source_index=0)


def test_a_retyped_mention_is_the_same_input_for_a_type_blind_model() -> None:
    blind, seeing = TypeBlind(), Counting()
    res = Runner(["MR-R3"], {"blind": blind, "seeing": seeing}, cache=PredictionCache()).check([retyped_group()])
    f = res.frame.set_index("model")
    assert f.loc["blind", "verdict"] == "not_applicable"
    assert f.loc["blind", "reason"] == SAME_INPUT == "follow-up is the same input as the source for this model"
    assert blind.seen == []  # decided without calling the model
    assert f.loc["seeing", "verdict"] in ("pass", "violation") and len(seeing.seen) == 2


def test_same_input_for_adapters_and_for_identical_texts() -> None:
    from mtwidgets.re.models.opennre import OpenNREModel

    g = retyped_group()
    assert same_input(g, OpenNREModel(lambda item: ("no_relation", 1.0))) == SAME_INPUT
    assert same_input(g, CallableModel(label_of)) is None  # a callable may read the types
    assert same_input(g) is None
    ner = mt.get_task("ner")
    x = ner.input_from_text("Alice lives in Paris.")
    identical = Group("TIN-token", 0, (x,), (ner.input_from_text("Alice lives in Paris."),), "", 0)
    assert same_input(identical) == SAME_INPUT  # the same text: the same input for every model
    check = precheck(mt.relation("MR-R3"), g, [], None, TypeBlind())
    assert check is not None and (check.verdict, check.reason) == ("not_applicable", SAME_INPUT)


def test_the_explorers_predictor_decides_same_inputs_as_the_runner() -> None:
    from mtwidgets.widgets._explorer_state import Predictor

    ner = mt.get_task("ner")
    x = ner.input_from_text("Alice lives in Paris.")
    group = Group("TIN-token", 0, (x,), (ner.input_from_text("Alice lives in Paris."),), "", 0)
    calls: list[int] = []

    def spans(xs: list[Any]) -> list[list[Any]]:
        calls.append(len(xs))
        return [[] for _ in xs]

    predictor = Predictor({"m": CallableModel(spans, batched=True, kind="spans")}, cache=PredictionCache())
    outcome = predictor.outcome("m", mt.relation("TIN-token"), group)
    assert (outcome.check.verdict, outcome.check.reason) == ("not_applicable", SAME_INPUT)
    runner = Runner(["TIN-token"], {"m": CallableModel(spans, batched=True, kind="spans")}, cache=PredictionCache())
    assert list(runner.check([group]).frame["reason"]) == [SAME_INPUT]


def test_the_explorers_predictor_asks_the_model_what_it_sees() -> None:
    from mtwidgets.widgets._explorer_state import Predictor

    predictor = Predictor({"blind": TypeBlind(), "seeing": Counting()}, cache=PredictionCache())
    blind = predictor.outcome("blind", mt.relation("MR-R3"), retyped_group())
    assert (blind.check.verdict, blind.check.reason) == ("not_applicable", SAME_INPUT)
    seeing = predictor.outcome("seeing", mt.relation("MR-R3"), retyped_group())
    assert seeing.check.verdict in ("pass", "violation")
