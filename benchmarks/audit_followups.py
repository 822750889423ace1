"""Follow-up validity audit: sample follow-ups of every relation for a person to judge, then
tabulate the judgements.

Two steps:

``sample``
    Builds sources from held-out text (``benchmarks/audit/heldout.txt``, one sentence a line)
    and, for relation extraction, hand-marked examples (``benchmarks/audit/heldout_re.jsonl``):

    - NER: each sentence as an NER input whose gold entities are the reference spaCy
      pipeline's (``--ner-model``, default ``ner-spacy-sm``);
    - RE: the hand-marked examples with their gold labels; ordered pairs of the sentence's
      typed spaCy entities (head a PERSON or ORGANIZATION, at most ``--max-pairs`` a
      sentence), labelled by the embedded RE model (``--re-model``, default
      ``re-patterns``) unless a hand-marked example gives the pair's gold label; for the
      two-source relations (MR-C1/C2) also every two hand-marked examples of one sentence
      that share the head (tail).

    Every relation's ``generate`` runs over ALL its sources (timed side by side, after a
    warm-up and with every source sentence parsed beforehand); a follow-up counts when its
    group is not refused by the transformation nor by the relation's output property given
    the source labels (model-dependent relations: MR-R2, MR-S1/S2, MR-C1/C2, TIN-shuffle).
    Then ``--n`` follow-ups per relation are drawn uniformly (seeded), at most one per
    source, and written one JSON line each with empty ``judgement`` and ``reason`` fields;
    the coverage (sources tried, sources with a follow-up, refusal reasons, speed) goes to
    ``<out stem>.coverage.json`` beside it.

    The text tasks of the Chinese NLP paper (classification, similarity, summarization:
    MR1.1-MR7.3, ``--relations text`` for all 21, ``text:en`` / ``text:zh`` for one
    language) read ``--texts`` (jsonl: id, text, topic; classification and summarization)
    and ``--pairs`` (jsonl: id, text1, text2, score; similarity), of the language ``--lang``
    (default: each row's own). Their follow-ups are drawn per relation and language
    (``MR5.3/en``) or, with ``--per-family``, per MR family and language (``noun/en``: the
    three tasks' MRs of a family share one rewriter, so one sample of ``--n`` judges it), at
    most one per text or pair. Each line carries relation, family, lang, source (a pair as
    ``S1 ||| S2``), follow-up, a word diff (Chinese: over jieba words) and the oracle in
    words with the source's gold topic, score interval or summary replacements.

``table``
    Reads a judged file (``judgement`` in valid / minor / invalid on every line; unjudged
    lines are listed and nothing is counted) and prints, per relation: judged, valid %,
    minor %, invalid %, sources with a follow-up % (from the coverage file beside it);
    ``--markdown PATH`` also writes the table. Text-task lines count per their ``unit``
    (relation or family, and language); several judged files make one table (English and
    Chinese side by side).

Run::

    python benchmarks/audit_followups.py sample --text benchmarks/audit/heldout.txt \\
        --re benchmarks/audit/heldout_re.jsonl --relations all --n 40 --seed 0 \\
        --out benchmarks/audit/followups-<tag>.jsonl
    python benchmarks/audit_followups.py table benchmarks/audit/followups-<tag>.judged.jsonl \\
        --markdown benchmarks/audit/followups-<tag>.md
    python benchmarks/audit_followups.py sample --texts mtwidgets/data/zh_classification.jsonl \\
        --pairs mtwidgets/data/zh_similarity.jsonl --lang zh --relations text --per-family \\
        --n 40 --seed 0 --out benchmarks/audit/followups-text-zh.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

JUDGEMENTS: tuple[str, ...] = ("valid", "minor", "invalid")
TARGET_VALID = 90.0  # % of judged follow-ups
TARGET_INVALID = 3.0
MIN_JUDGED = 40  # judged follow-ups per relation (text tasks: per relation or family, and language)
HEAD_TYPES = frozenset({"PERSON", "ORGANIZATION"})
WARMUP_SOURCES = 3


class AuditError(Exception):
    """A problem with the audit's input files, reported as one line."""


# -- sources ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """One source of a relation: its inputs (two for a combination), how it was built
    (``kind``), and the labels the applicability check reads."""

    id: str
    inputs: tuple[Any, ...]
    kind: str


def read_sentences(path: str | Path) -> list[str]:
    """Non-empty lines of a text file, stripped; '#' lines are comments."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    if not out:
        raise AuditError(f"{path}: no sentences")
    return out


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    rows = []
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise AuditError(f"{path}:{i}: not JSON ({exc.msg})") from None
    return rows


def pair_key(x: Any) -> tuple[str, int, int, int, int]:
    """A relation input's identity regardless of entity types: text and both spans."""
    return (x.text, x.head.start, x.head.end, x.tail.start, x.tail.end)


class Labeller:
    """Source labels for the applicability check: gold where known, else the model's
    prediction (predicted in batches, cached)."""

    def __init__(self, model: Any, key: Callable[[Any], Any], gold: Mapping[Any, Any] | None = None) -> None:
        self.model = model
        self.key = key
        self.known: dict[Any, Any] = dict(gold or {})

    def predict_missing(self, inputs: Iterable[Any]) -> None:
        missing: dict[Any, Any] = {}
        for x in inputs:
            k = self.key(x)
            if k not in self.known and k not in missing:
                missing[k] = x
        if missing:
            preds = self.model.predict(list(missing.values()))
            self.known.update(zip(missing, preds))

    def __call__(self, x: Any) -> Any:
        return self.known[self.key(x)]


def ner_sources(sentences: Sequence[str], task: str, model: Any) -> tuple[list[Source], Labeller]:
    """Each sentence as an input of ``task`` (made from its text by the task), its gold the
    reference model's entities."""
    import mtwidgets as mt

    t = mt.get_task(task)
    bare = [t.input_from_text(s) for s in sentences]
    preds = model.predict(bare)
    sources = [
        Source(f"t{i:04d}", (x.with_gold(p.spans),), "sentence")
        for i, (x, p) in enumerate(zip(bare, preds), 1)
    ]
    labeller = Labeller(model, key=lambda x: x.text, gold={x.text: p for x, p in zip(bare, preds)})
    return sources, labeller


def re_sources(
    sentences: Sequence[str],
    gold_rows: Sequence[Mapping[str, Any]],
    task: str,
    model: Any,
    *,
    max_pairs: int,
    seed: int,
) -> tuple[list[Source], list[Source], Labeller]:
    """(single sources, two-source candidates sharing an argument, labeller)."""
    import mtwidgets as mt
    from mtwidgets.core.predictions import Prediction
    from mtwidgets.core.relation import stable_rng
    from mtwidgets.re.entities import typed_entities

    t = mt.get_task(task)
    singles: list[Source] = []
    gold: dict[Any, Any] = {}
    by_text: dict[str, list[Source]] = {}
    for i, row in enumerate(gold_rows, 1):
        if "gold" not in row:
            raise AuditError(f"hand-marked example #{i} ({row.get('id', '?')}) has no 'gold' label")
        x = t.input_from_row(row)
        src = Source(str(row.get("id", f"g{i:04d}")), (x,), "hand-marked")
        if pair_key(x) in gold:
            raise AuditError(f"hand-marked example {src.id} repeats the pair of an earlier one: {x.to_markup()!r}")
        gold[pair_key(x)] = Prediction(label=str(row["gold"]))
        singles.append(src)
        by_text.setdefault(x.text, []).append(src)
    RelationInput = t.input_class
    for i, text in enumerate(sentences, 1):
        ents = typed_entities(text)
        pairs = [
            RelationInput(text, h, e)
            for h in ents if h.label in HEAD_TYPES
            for e in ents if e is not h and not e.overlaps(h)
        ]
        pairs = [p for p in pairs if pair_key(p) not in gold]
        rng = stable_rng(seed, "pairs", text)
        if len(pairs) > max_pairs:
            pairs = sorted(rng.sample(pairs, max_pairs), key=pair_key)
        singles.extend(Source(f"t{i:04d}/p{j}", (p,), "spacy pair") for j, p in enumerate(pairs, 1))
    doubles = []
    for group in by_text.values():
        for a in group:
            for b in group:
                if a is b:
                    continue
                xa, xb = a.inputs[0], b.inputs[0]
                for role in ("head", "tail"):
                    if getattr(xa, role) == getattr(xb, role) and pair_key(xa) != pair_key(xb):
                        doubles.append(Source(f"{a.id}+{b.id}", (xa, xb), f"hand-marked pair sharing the {role}"))
    labeller = Labeller(model, key=pair_key, gold=gold)
    labeller.predict_missing(s.inputs[0] for s in singles)
    return singles, doubles, labeller


def shared_role(relation: Any) -> str | None:
    """The argument a two-source relation's pairs share (its transformation's ``shared``)."""
    role = getattr(relation.transformation, "shared", None)
    return role if role in ("head", "tail") else None


# -- generation and coverage -----------------------------------------------------------------
@dataclass
class Candidate:
    source: Source
    group: Any
    followup: Any
    expected: str


@dataclass
class Coverage:
    relation: str
    task: str
    sources: int = 0
    with_followup: int = 0
    followups: int = 0
    seconds: float = 0.0
    warmup_seconds: float = 0.0
    refused_by_transformation: Counter[str] = field(default_factory=Counter)
    refused_by_property: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    by_kind: dict[str, list[int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "relation": self.relation,
            "task": self.task,
            "sources": self.sources,
            "with_followup": self.with_followup,
            "with_followup_pct": pct(self.with_followup, self.sources),
            "followups": self.followups,
            "seconds": round(self.seconds, 3),
            "sources_per_s": round(self.sources / self.seconds, 1) if self.seconds > 0 else None,
            "warmup_seconds": round(self.warmup_seconds, 3),
            "by_kind": {k: {"sources": v[0], "with_followup": v[1]} for k, v in sorted(self.by_kind.items())},
            "refused_by_transformation": dict(_generalise(self.refused_by_transformation).most_common()),
            "refused_by_property": dict(_generalise(self.refused_by_property).most_common()),
            "errors": dict(self.errors.most_common()),
        }


def _generalise(reasons: Counter[str]) -> Counter[str]:
    """Refusals name the source's label or mentions; group them by the rest of the sentence
    (``source predicted per:title, not ...`` -> ``source predicted <label>, not ...``,
    ``the head 'Lee' is ...`` -> ``the head '…' is ...``)."""
    out: Counter[str] = Counter()
    for reason, n in reasons.items():
        reason = re.sub(r"\b(?:per|org):[\w/]+|\bno_relation\b|\bNone\b", "<label>", reason)
        reason = re.sub(r"\([^()]* (?:has|have) none\)", "(… have none)", reason)
        out[re.sub(r"(?<!\w)'[^']*'(?!\w)|(?<!\w)\u2018[^\u2019]*\u2019", "'…'", reason)] += n
    return out


def pct(part: int, whole: int) -> float | None:
    return round(100.0 * part / whole, 1) if whole else None


def expected_of(relation: Any, group: Any, source_preds: Sequence[Any]) -> str:
    """The relation's expected output property for this group, with the concrete expected
    label when the property names one (MR-S2: ``per:parents``; MR-C1: the second source's)."""
    from mtwidgets.core.predictions import Prediction

    try:
        check = relation.check(group, source_preds, [Prediction()] * max(1, len(group.followups)))
        concrete = check.expected
    except Exception:  # noqa: BLE001 - the expected text is a convenience for the judge
        concrete = None
    return f"{relation.expected}: {concrete}" if concrete else str(relation.expected)


def generate_all(
    relation: Any, sources: Sequence[Source], labeller: Labeller, seed: int, warmup: int = WARMUP_SOURCES
) -> tuple[list[Candidate], Coverage]:
    """Run ``relation.generate`` over every source (timed, after an untimed pass over the
    first ``warmup`` sources), then keep the follow-ups whose group the output property
    accepts given the source labels."""
    cov = Coverage(relation.name, relation.task)
    prepared = relation.prepared([s.inputs[0] for s in sources]) if sources else relation
    warm = time.perf_counter()
    for s in sources[:warmup]:
        try:
            prepared.generate(s.inputs, seed=seed)
        except Exception:  # noqa: BLE001 - errors are counted in the timed pass
            pass
    cov.warmup_seconds = time.perf_counter() - warm
    results: list[tuple[Source, list[Any]]] = []
    start = time.perf_counter()
    for s in sources:
        try:
            groups = prepared.generate(s.inputs, seed=seed)
        except Exception as exc:  # noqa: BLE001 - a crash is a finding, not the end of the audit
            cov.errors[f"{type(exc).__name__}: {str(exc)[:160]}"] += 1
            groups = []
        results.append((s, groups))
    cov.seconds = time.perf_counter() - start
    labeller.predict_missing(x for _, groups in results for g in groups if g.followups for x in g.sources)
    out: list[Candidate] = []
    for s, groups in results:
        cov.sources += 1
        kind = cov.by_kind.setdefault(s.kind, [0, 0])
        kind[0] += 1
        found = 0
        for g in groups:
            if g.not_applicable or not g.followups:
                cov.refused_by_transformation[g.not_applicable or "no follow-up"] += 1
                continue
            preds = [labeller(x) for x in g.sources]
            reason = relation.applies(g, preds)
            if reason is not None:
                cov.refused_by_property[reason] += 1
                continue
            expected = expected_of(relation, g, preds)
            for f in g.followups:
                out.append(Candidate(s, g, f, expected))
                found += 1
        cov.followups += found
        if found:
            cov.with_followup += 1
            kind[1] += 1
    return out, cov


# -- sampling --------------------------------------------------------------------------------
_TOKEN = re.compile(r"\w+(?:['\u2019]\w+)*|[^\w\s]")


def word_diff(
    a: str, b: str, context: int = 3, *, tokens: Callable[[str], list[str]] | None = None, joiner: str = " "
) -> str:
    """A compact word diff: changed runs as ``[-old-]{+new+}`` with ``context`` words
    around them, the rest elided with '…'. ``tokens`` splits a text into words (default:
    words and punctuation marks); ``joiner`` glues shown words (``""`` for Chinese)."""
    import difflib

    split = tokens or _TOKEN.findall
    ta, tb = split(a), split(b)
    ops = difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes()
    parts: list[str] = []
    for k, (op, i1, i2, j1, j2) in enumerate(ops):
        if op == "equal":
            words = ta[i1:i2]
            if len(ops) == 1:
                return "(no change)"
            head = [] if k == 0 else words[:context]
            tail = [] if k == len(ops) - 1 else words[-context:]
            if len(words) <= len(head) + len(tail):
                parts.append(joiner.join(words))
            else:
                parts.extend(p for p in (joiner.join(head), "…", joiner.join(tail)) if p)
        else:
            old, new = joiner.join(ta[i1:i2]), joiner.join(tb[j1:j2])
            parts.append((f"[-{old}-]" if old else "") + (f"{{+{new}+}}" if new else ""))
    return " ".join(parts)


def _entities(x: Any) -> list[str]:
    """The marked entities of an input, as ``role 'mention' TYPE`` (RE) or ``'mention' LABEL`` (NER)."""
    out = []
    for role in ("head", "tail"):
        span = getattr(x, role, None)
        if span is not None:
            out.append(f"{role} {x.text[span.start:span.end]!r} {span.label or ''}".rstrip())
    gold = getattr(x, "gold", ()) or ()
    for span in () if isinstance(gold, str) else gold:  # NER gold spans; an RE gold is a label
        out.append(f"{x.text[span.start:span.end]!r} {span.label}")
    return out


def input_diff(source: Any, followup: Any) -> str:
    """The word diff of the plain texts, then the entities that changed (markers, types)."""
    text = word_diff(source.text, followup.text)
    a, b = _entities(source), _entities(followup)
    gone, new = [e for e in a if e not in b], [e for e in b if e not in a]
    if not gone and not new:
        return text
    return f"{text}; entities [-{', '.join(gone)}-]{{+{', '.join(new)}+}}"


def draw(
    candidates: Sequence[Candidate], n: int, seed: int, relation: str,
    key: Callable[[Candidate], Any] = lambda c: c.source.id,
) -> list[Candidate]:
    """``n`` follow-ups drawn uniformly over the sources that have one (at most one per
    source, a source told by ``key``), each source's follow-up drawn uniformly among its own."""
    by_source: dict[Any, list[Candidate]] = {}
    for c in candidates:
        by_source.setdefault(key(c), []).append(c)
    rng = random.Random(f"{seed}\x1f{relation}")
    ids = sorted(by_source)
    chosen = rng.sample(ids, min(n, len(ids)))
    return [rng.choice(by_source[i]) for i in chosen]


def record(c: Candidate, labeller: Labeller) -> dict[str, Any]:
    def show(x: Any) -> str:
        return str(x.display())

    sources = [show(x) for x in c.group.sources]
    labels = []
    for x in c.group.sources:
        p = labeller.known.get(labeller.key(x))
        labels.append(getattr(p, "label", None))
    row: dict[str, Any] = {
        "relation": c.group.relation,
        "source_id": c.source.id,
        "source_kind": c.source.kind,
        "source": sources[0],
        "followup": show(c.followup),
        "diff": input_diff(c.group.sources[0], c.followup),
        "expected": c.expected,
        "note": c.group.note,
    }
    if len(sources) > 1:
        row["second_source"] = sources[1]
    if any(lb is not None for lb in labels):
        row["source_labels"] = labels
    row["judgement"] = ""
    row["reason"] = ""
    return row


def coverage_path(path: str | Path) -> Path:
    """``followups-x.jsonl`` and ``followups-x.judged.jsonl`` -> ``followups-x.coverage.json``."""
    p = Path(path)
    stem = p.name
    for suffix in (".jsonl", ".judged"):
        stem = stem.removesuffix(suffix)
    return p.with_name(stem + ".coverage.json")


# The text tasks of the Chinese NLP paper and the file each builds its sources from.
TEXT_TASKS: dict[str, str] = {"classification": "texts", "summarization": "texts", "similarity": "pairs"}
TEXT_SHORTCUT = "text"


def resolve_relations(spec: str, tasks_with_sources: Iterable[str] | None = None) -> tuple[list[str], str | None]:
    """The relation names of ``spec`` and the language it names (``text:zh``), if any.

    ``all`` and ``text`` (the 21 MRs of the text tasks) keep only the relations whose task
    has sources (``tasks_with_sources``; ``None``: every task) and, for ``all``, never mix
    the text tasks into a run given only sentences. Explicit names are kept as given."""
    from mtwidgets.core.registry import names, task_of

    known = names()
    have = None if tasks_with_sources is None else set(tasks_with_sources)
    name, _, lang = spec.partition(":")
    if name in ("all", TEXT_SHORTCUT):
        if lang and name != TEXT_SHORTCUT:
            raise AuditError(f"--relations {spec!r}: only '{TEXT_SHORTCUT}:<lang>' names a language")
        # "text": the paper's 21 MRs (MR1.1 ... MR7.3), not other relations on those tasks
        wanted = [n for n in known if name == "all" or (task_of(n) in TEXT_TASKS and re.fullmatch(r"MR\d\.\d", n))]
        if have is not None:
            wanted = [n for n in wanted if task_of(n) in have]
        if not wanted:
            raise AuditError(f"--relations {spec!r}: no relation has sources (give --text, --texts or --pairs)")
        return wanted, lang or None
    wanted = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise AuditError(f"unknown relation(s) {', '.join(unknown)}; known: {', '.join(known)}, "
                         f"or 'all', '{TEXT_SHORTCUT}', '{TEXT_SHORTCUT}:en', '{TEXT_SHORTCUT}:zh'")
    return wanted, None


def sample(args: argparse.Namespace, out: Any = sys.stdout) -> dict[str, Any]:
    """The ``sample`` step: the held-out sentences' relations (NER, RE) and the text tasks'
    relations (from ``--texts`` / ``--pairs``), side by side in one output file."""
    have: set[str] = set()
    if getattr(args, "text", None):
        have |= _other_tasks()
    if getattr(args, "texts", None):
        have |= {"classification", "summarization"}
    if getattr(args, "pairs", None):
        have.add("similarity")
    if not have:
        raise AuditError("no sources: give --text (NER, RE) or --texts / --pairs (the text tasks)")
    rel_names, spec_lang = resolve_relations(args.relations, have)
    lang = _one_lang(getattr(args, "lang", None), spec_lang)
    text_names = [n for n in rel_names if _task_of(n) in TEXT_TASKS]
    other_names = [n for n in rel_names if n not in text_names]
    if getattr(args, "per_family", False) and other_names:
        raise AuditError(f"--per-family applies to the text tasks' relations only, not {', '.join(other_names)}")
    rows: list[dict[str, Any]] = []
    meta: dict[str, Any] = {"seed": args.seed, "n": args.n, "relations": {}}
    if other_names:
        if not getattr(args, "text", None):
            raise AuditError(f"{', '.join(other_names)} need held-out sentences (--text)")
        meta.update(sentence_sample(args, other_names, rows, out))
    if text_names:
        meta.update(text_sample(args, text_names, lang, rows, meta["relations"], out))
    out_path = Path(args.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with out_path.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    coverage_path(out_path).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print_speed(meta["relations"], out)
    if meta.get("families"):
        print_speed(meta["families"], out, unit="family/lang")
    print(f"wrote {len(rows)} follow-ups to {out_path} and the coverage to {coverage_path(out_path)}", file=out)
    return meta


def _task_of(name: str) -> str:
    from mtwidgets.core.registry import task_of

    return task_of(name)


def _other_tasks() -> set[str]:
    """The tasks whose sources are the held-out sentences (every task but the text tasks)."""
    from mtwidgets.core.registry import names

    return {_task_of(n) for n in names()} - set(TEXT_TASKS)


def _one_lang(option: str | None, from_spec: str | None) -> str | None:
    if option and from_spec and option != from_spec:
        raise AuditError(f"--lang {option} contradicts --relations {TEXT_SHORTCUT}:{from_spec}")
    lang = option or from_spec
    if lang is not None and lang not in ("en", "zh"):
        raise AuditError(f"the language must be en or zh, got {lang!r}")
    return lang


def sentence_sample(
    args: argparse.Namespace, rel_names: Sequence[str], rows: list[dict[str, Any]], out: Any
) -> dict[str, Any]:
    """NER and RE: sources from the held-out sentences (and hand-marked RE examples)."""
    import mtwidgets as mt
    from mtwidgets.lang.pipelines import parse_many

    texts_in = args.text if isinstance(args.text, (list, tuple)) else [args.text]
    sentences = [line for path in texts_in for line in read_sentences(path)]
    if args.limit:
        sentences = sentences[: args.limit]
    relations = [mt.relation(n) for n in rel_names]
    tasks = {r.task for r in relations}
    gold_rows = read_jsonl(args.re) if args.re else []
    if args.limit and gold_rows:
        gold_rows = gold_rows[: args.limit]

    t0 = time.perf_counter()
    per_task: dict[str, tuple[list[Source], list[Source], Labeller]] = {}
    for task in sorted(tasks):
        kind = mt.get_task(task).prediction
        if kind == "spans":
            model = mt.models.load(args.ner_model)
            singles, labeller = ner_sources(sentences, task, model)
            per_task[task] = (singles, [], labeller)
        elif kind == "label":
            model = mt.models.load(args.re_model)
            per_task[task] = re_sources(sentences, gold_rows, task, model, max_pairs=args.max_pairs, seed=args.seed)
        else:
            raise AuditError(f"no source builder for task {task!r} (prediction kind {kind!r})")
    texts = sorted({x.text for s, d, _ in per_task.values() for src in (*s, *d) for x in src.inputs})
    parse_many(texts)
    print(f"sources built in {time.perf_counter() - t0:.1f} s: "
          + ", ".join(f"{t}: {len(s)} single + {len(d)} two-source" for t, (s, d, _) in per_task.items()),
          file=out)

    coverage: dict[str, Any] = {}
    for rel in relations:
        singles, doubles, labeller = per_task[rel.task]
        srcs = list(singles)
        role = shared_role(rel) if rel.n_sources == 2 else None
        if role is not None:
            srcs += [d for d in doubles if d.kind.endswith(role)]
        candidates, cov = generate_all(rel, srcs, labeller, args.seed)
        coverage[rel.name] = cov.to_dict()
        rows.extend(record(c, labeller) for c in draw(candidates, args.n, args.seed, rel.name))
    return {
        "text": str(args.text), "re": str(args.re) if args.re else None, "sentences": len(sentences),
        "re_model": args.re_model, "ner_model": args.ner_model, "max_pairs": args.max_pairs, "relations": coverage,
    }


# -- the text tasks (classification, similarity, summarization) ------------------------------
PER_FAMILY_NOTE = "per family: the three tasks' MRs share one rewriter"


class NoLabels(Labeller):
    """The text tasks' relations do not depend on the model's source outputs: every source
    reads as an empty prediction."""

    def __init__(self) -> None:
        super().__init__(None, key=lambda x: x.key())

    def predict_missing(self, inputs: Iterable[Any]) -> None:
        return None

    def __call__(self, x: Any) -> Any:
        from mtwidgets.core.predictions import Prediction

        return Prediction()


def text_rows(path: str | Path, what: str) -> list[tuple[str, dict[str, Any]]]:
    """``(id, row)`` of a text (``texts``) or pair (``pairs``) file; a row without an id
    gets ``text-0001`` / ``pair-0001`` by its line."""
    out = []
    for i, row in enumerate(read_jsonl(path), 1):
        if not isinstance(row, dict):
            raise AuditError(f"{path}: line {i} is not a JSON object")
        out.append((str(row.get("id") or f"{what[:-1]}-{i:04d}"), row))
    if not out:
        raise AuditError(f"{path}: no {what}")
    return out


def text_sources(
    rows: Sequence[tuple[str, Mapping[str, Any]]], task: str, lang: str | None, path: str | Path
) -> tuple[dict[str, list[Source]], int]:
    """The inputs of ``task`` from the file's rows, by language (``lang`` keeps one), and
    how many rows another language left out."""
    import mtwidgets as mt
    from mtwidgets.core.errors import MTError

    t = mt.get_task(task)
    kind = TEXT_TASKS[task][:-1]
    by_lang: dict[str, list[Source]] = {}
    other = 0
    for i, (sid, row) in enumerate(rows, 1):
        try:
            x = t.input_from_row(row)
        except MTError as exc:
            raise AuditError(f"{path}: line {i} ({sid}): {exc}") from None
        if lang is not None and x.lang != lang:
            other += 1
            continue
        by_lang.setdefault(x.lang, []).append(Source(sid, (x,), kind))
    return by_lang, other


def preload(inputs: Iterable[Any]) -> None:
    """Parse (English, spaCy) or segment (Chinese, jieba) every text a rewriter will read,
    so that the timed generation measures the rewriters alone, as for the other tasks. A
    pair is also read as its two texts joined (see ``RewritePair``)."""
    from mtwidgets.text.relations import PAIR_JOIN

    texts: dict[str, list[str]] = {"en": [], "zh": []}
    for x in inputs:
        parts = [x.text_a, x.text_b, x.text_a + PAIR_JOIN + x.text_b] if hasattr(x, "text_a") else [x.text]
        texts.setdefault(x.lang, []).extend(parts)
    if texts["en"]:
        from mtwidgets.lang.pipelines import parse_many

        parse_many(list(dict.fromkeys(texts["en"])))
    if texts["zh"]:
        from mtwidgets.lang.zh import segment

        for text in dict.fromkeys(texts["zh"]):
            segment(text)


def unit_name(relation: str, family: str, lang: str, per_family: bool) -> str:
    """The row of the table a text follow-up counts in: ``noun/en`` per family,
    ``MR5.3/en`` per relation."""
    return f"{family}/{lang}" if per_family else f"{relation}/{lang}"


def text_sample(
    args: argparse.Namespace, rel_names: Sequence[str], lang: str | None, rows: list[dict[str, Any]],
    coverage: dict[str, Any], out: Any,
) -> dict[str, Any]:
    """Generate every text relation's follow-ups over its sources (per language), then draw
    ``--n`` per relation and language, or per family and language with ``--per-family``."""
    import mtwidgets as mt

    per_family = bool(getattr(args, "per_family", False))
    t0 = time.perf_counter()
    files = {"texts": getattr(args, "texts", None), "pairs": getattr(args, "pairs", None)}
    loaded = {what: text_rows(path, what)[: args.limit or None] for what, path in files.items() if path}
    relations = [mt.relation(n) for n in rel_names]
    sources: dict[str, dict[str, list[Source]]] = {}
    for task in sorted({r.task for r in relations}):
        what = TEXT_TASKS[task]
        if what not in loaded:
            raise AuditError(f"the {task} relations need --{what}")
        sources[task], other = text_sources(loaded[what], task, lang, files[what] or "")
        if other:
            print(f"{task}: {other} {what} in another language than {lang} left out", file=out)
    langs = sorted({lg for by_lang in sources.values() for lg in by_lang})
    if not langs:
        raise AuditError(f"no {lang} texts or pairs in {', '.join(str(p) for p in files.values() if p)}")
    preload(x for by_lang in sources.values() for srcs in by_lang.values() for s in srcs for x in s.inputs)
    print(f"text sources built in {time.perf_counter() - t0:.1f} s: " + ", ".join(
        f"{task} {lg}: {len(srcs)}" for task, by_lang in sources.items() for lg, srcs in sorted(by_lang.items())),
        file=out)

    labeller = NoLabels()
    pools: dict[str, list[Candidate]] = {}
    families: dict[str, dict[str, Any]] = {}
    for rel in relations:
        family = _family(rel)
        for lg in langs:
            srcs = sources[rel.task].get(lg, [])
            if not srcs:
                continue
            # The warm-up reads every source once: a rewriter loads its lexicons (names,
            # countries, synonyms) on the first text that needs them, which may be any.
            candidates, cov = generate_all(rel, srcs, labeller, args.seed, warmup=len(srcs))
            for c in candidates:
                c.expected = text_expected(rel, c.group)
            name = unit_name(rel.name, family, lg, False)
            coverage[name] = {**cov.to_dict(), "family": family, "lang": lg}
            unit = unit_name(rel.name, family, lg, per_family)
            pools.setdefault(unit, []).extend(candidates)
            if per_family:
                _add_family(families.setdefault(unit, _family_entry(family, lg)), rel.name, srcs, candidates, cov)
    for unit, candidates in pools.items():
        chosen = draw(candidates, args.n, args.seed, unit, key=lambda c: (c.source.kind, c.source.id))
        rows.extend(text_record(c, unit, _family(c.group.relation)) for c in chosen)
    meta: dict[str, Any] = {
        "texts": str(files["texts"]) if files["texts"] else None,
        "pairs": str(files["pairs"]) if files["pairs"] else None,
        "lang": lang, "per_family": per_family,
    }
    if per_family:
        meta["families"] = {unit: _family_dict(f) for unit, f in families.items()}
        meta["note"] = PER_FAMILY_NOTE
    return meta


def _family(relation: Any) -> str:
    """The MR family of a text relation (``MR5.3`` -> ``noun``), read from its name. MR7.1
    swaps S1 and S2 and shares no rewriter with MR7.2/7.3 (sentence reordering): it is
    sampled apart, as ``swap``, so that the reorder sample judges reorderings."""
    from mtwidgets.text.rewrite import FAMILIES

    name = relation if isinstance(relation, str) else relation.name
    if name == "MR7.1":
        return "swap"
    return FAMILIES[int(name[2:].split(".")[0]) - 1]


def _family_entry(family: str, lang: str) -> dict[str, Any]:
    return {"family": family, "lang": lang, "tried": set(), "found": set(), "seconds": 0.0, "warmup": 0.0, "generations": 0,
            "followups": 0, "refused": Counter(), "errors": Counter(), "relations": {}}


def _add_family(entry: dict[str, Any], name: str, srcs: Sequence[Source], cands: Sequence[Candidate],
                cov: Coverage) -> None:
    """Fold one relation's coverage into its family's: a text counts once however many of
    the family's tasks read it."""
    entry["tried"].update((s.kind, s.id) for s in srcs)
    entry["found"].update((c.source.kind, c.source.id) for c in cands)
    entry["seconds"] += cov.seconds
    entry["warmup"] += cov.warmup_seconds
    entry["generations"] += cov.sources
    entry["followups"] += cov.followups
    entry["refused"].update(_generalise(cov.refused_by_transformation))
    entry["errors"].update(cov.errors)
    entry["relations"][name] = {"sources": cov.sources, "with_followup": cov.with_followup,
                                "with_followup_pct": pct(cov.with_followup, cov.sources)}


def _family_dict(entry: Mapping[str, Any]) -> dict[str, Any]:
    tried, found, seconds = len(entry["tried"]), len(entry["found"]), entry["seconds"]
    return {
        "family": entry["family"], "lang": entry["lang"], "sources": tried, "with_followup": found,
        "with_followup_pct": pct(found, tried), "followups": entry["followups"], "seconds": round(seconds, 3),
        "sources_per_s": round(entry["generations"] / seconds, 1) if seconds > 0 else None,
        "warmup_seconds": round(entry["warmup"], 3), "relations": entry["relations"],
        "refused_by_transformation": dict(entry["refused"].most_common()), "errors": dict(entry["errors"]),
    }


def text_diff(source: Any, followup: Any) -> str:
    """The word diff of a text (Chinese: of its jieba words), or of both texts of a pair."""
    if hasattr(source, "text_a"):
        if (followup.text_a, followup.text_b) == (source.text_b, source.text_a):
            return "S1 and S2 swapped"
        return (f"S1: {_lang_diff(source.text_a, followup.text_a, source.lang)} ||| "
                f"S2: {_lang_diff(source.text_b, followup.text_b, source.lang)}")
    return _lang_diff(source.text, followup.text, source.lang)


def _lang_diff(a: str, b: str, lang: str) -> str:
    if lang != "zh":
        return word_diff(a, b)
    from mtwidgets.lang.zh import tokens

    return word_diff(a, b, tokens=lambda s: [t.text for t in tokens(s)], joiner="")


def text_expected(relation: Any, group: Any) -> str:
    """The relation's oracle in words, with what it means for this source: the gold topic
    and sentiment (classification), the gold score's interval (similarity), the replacements
    the source summary must undergo (summarization)."""
    from mtwidgets.text.relations import interval, replacements_from_meta

    x = group.sources[0]
    details = []
    if relation.task == "classification":
        details = [f"gold {k} {v}" for k, v in (("topic", x.topic), ("sentiment", x.sentiment)) if v]
    elif relation.task == "similarity" and x.score is not None:
        low, high, name = interval(x.score)
        details = [f"gold score {x.score:g} in [{low:.1f}, {high:.1f}{']' if high == 1.0 else ')'} {name}"]
    elif relation.task == "summarization":
        reps = replacements_from_meta(group.meta.get("replacements"))
        details = [f"replace {', '.join(f'{r.old!r} -> {r.new!r}' for r in reps)}"] if reps else []
    return "; ".join([str(relation.expected), *details])


def text_record(c: Candidate, unit: str, family: str) -> dict[str, Any]:
    """One line to judge: the source text (or ``S1 ||| S2``), the follow-up, their diff and
    the oracle in words."""
    x = c.group.sources[0]
    return {
        "relation": c.group.relation,
        "family": family,
        "lang": x.lang,
        "unit": unit,
        "source_id": c.source.id,
        "source_kind": c.source.kind,
        "source": str(x.display()),
        "followup": str(c.followup.display()),
        "diff": text_diff(x, c.followup),
        "expected": c.expected,
        "note": c.group.note,
        "judgement": "",
        "reason": "",
    }


def print_speed(coverage: Mapping[str, Mapping[str, Any]], out: Any, unit: str = "relation") -> None:
    """Generation speed per relation (or family), measured side by side in this run."""
    head = f"{unit:<14}{'sources':>8}{'with f-u':>10}{'%':>7}{'seconds':>9}{'sources/s':>11}{'warm-up s':>11}{'errors':>8}"
    print(head, file=out)
    for name, c in coverage.items():
        rate = c["sources_per_s"]
        print(f"{name:<14}{c['sources']:>8}{c['with_followup']:>10}{_fmt(c['with_followup_pct']):>7}"
              f"{c['seconds']:>9.2f}{(f'{rate:.1f}' if rate is not None else '-'):>11}"
              f"{c['warmup_seconds']:>11.2f}{sum(c['errors'].values()):>8}", file=out)


# -- the table -------------------------------------------------------------------------------
def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def judged_table(rows: Sequence[Mapping[str, Any]], coverage: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Per relation (in order of first appearance): judged, valid/minor/invalid %, sources
    with a follow-up %. Raises :class:`AuditError` listing every unjudged line."""
    bad = [
        f"line {i}: {r.get('relation', '?')} {r.get('source_id', '?')} judgement={r.get('judgement')!r}"
        for i, r in enumerate(rows, 1)
        if r.get("judgement") not in JUDGEMENTS
    ]
    if bad:
        raise AuditError(
            f"{len(bad)} line(s) not judged (judgement must be one of {', '.join(JUDGEMENTS)}); nothing counted:\n  "
            + "\n  ".join(bad)
        )
    counts: dict[str, Counter[str]] = {}
    mrs: dict[str, Counter[str]] = {}
    for r in rows:
        unit = unit_of(r)
        counts.setdefault(unit, Counter())[str(r["judgement"])] += 1
        mrs.setdefault(unit, Counter())[str(r["relation"])] += 1
    units = {**(coverage or {}).get("relations", {}), **(coverage or {}).get("families", {})}
    table = []
    for name, c in counts.items():
        n = sum(c.values())
        cov = units.get(name)
        entry: dict[str, Any] = {
            "relation": name,
            "judged": n,
            "valid": pct(c["valid"], n),
            "minor": pct(c["minor"], n),
            "invalid": pct(c["invalid"], n),
            "with_followup": cov.get("with_followup_pct") if cov else None,
        }
        if not any(name == m or name.startswith(m + "/") for m in mrs[name]):
            entry["mrs"] = dict(sorted(mrs[name].items()))  # a family: the relations it counts
        table.append(entry)
    return table


def unit_of(row: Mapping[str, Any]) -> str:
    """The table row a judged line counts in: its ``unit`` (text tasks: ``MR5.3/en`` or,
    sampled per family, ``noun/en``), else ``family/lang`` when it carries a family, else
    its relation."""
    if row.get("unit"):
        return str(row["unit"])
    if row.get("family") and row.get("lang"):
        return f"{row['family']}/{row['lang']}"
    return str(row.get("relation", "?"))


def per_family(table: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the table's rows are MR families (each row counts several relations)."""
    return bool(table) and all("mrs" in r for r in table)


def render(table: Sequence[Mapping[str, Any]], *, markdown: bool) -> str:
    """The table as aligned text or markdown, with the target line (and, per family, the
    header saying why a family stands for its three relations)."""
    families = per_family(table)
    cols = ["family/lang" if families else "relation", "judged", "valid %", "minor %", "invalid %",
            "sources with a follow-up %"]
    cells = [[str(r["relation"]), str(r["judged"]), _fmt(r["valid"]), _fmt(r["minor"]), _fmt(r["invalid"]),
              _fmt(r["with_followup"])] for r in table]
    if families:
        cols.append("MRs judged")
        for row, r in zip(cells, table):
            row.append(" ".join(f"{k}:{v}" for k, v in r["mrs"].items()))
    header = PER_FAMILY_NOTE + "\n\n" if families else ""
    missed = [
        r["relation"] for r in table
        if (r["valid"] or 0) < TARGET_VALID or (r["invalid"] or 0) > TARGET_INVALID
    ]
    few = [r["relation"] for r in table if r["judged"] < MIN_JUDGED]
    note = (f"target: valid >= {TARGET_VALID:g} % and invalid <= {TARGET_INVALID:g} %; "
            + (f"missed by {', '.join(missed)}" if missed else f"met by every {'family' if families else 'relation'}")
            + (f"; fewer than {MIN_JUDGED} judged: {', '.join(few)}" if few else ""))
    if markdown:
        align = ["---"] + ["---:"] * 5 + ["---"] * (len(cols) - 6)
        lines = ["| " + " | ".join(cols) + " |", "|" + "|".join(align) + "|"]
        lines += ["| " + " | ".join(c) + " |" for c in cells]
        return header + "\n".join(lines) + "\n\n" + note + "\n"
    widths = [max(len(cols[i]), *(len(c[i]) for c in cells)) for i in range(len(cols))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))]
    lines += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
              for row in cells]
    return header + "\n".join(lines) + "\n" + note + "\n"


def table(args: argparse.Namespace, out: Any = sys.stdout) -> list[dict[str, Any]]:
    """One table over one or more judged files (e.g. the English and the Chinese sample of
    the text tasks), with the coverage beside each (or ``--coverage``)."""
    judged = args.judged if isinstance(args.judged, (list, tuple)) else [args.judged]
    rows = [r for path in judged for r in read_jsonl(path)]
    if not rows:
        raise AuditError(f"{', '.join(map(str, judged))}: no follow-ups")
    given = args.coverage if isinstance(args.coverage, (list, tuple)) else [args.coverage] if args.coverage else []
    cov_files = [Path(c) for c in given] or [coverage_path(p) for p in judged]
    coverage: dict[str, Any] | None = None
    for cov_file in cov_files:
        if not cov_file.exists():
            print(f"note: no coverage file {cov_file}; 'sources with a follow-up %' left blank", file=out)
            continue
        one = json.loads(cov_file.read_text(encoding="utf-8"))
        coverage = coverage or {"relations": {}, "families": {}}
        for key in ("relations", "families"):
            coverage[key].update(one.get(key) or {})
    result = judged_table(rows, coverage)
    print(render(result, markdown=False), file=out, end="")
    if args.markdown:
        Path(args.markdown).write_text(render(result, markdown=True), encoding="utf-8")
        print(f"wrote {args.markdown}", file=out)
    return result


CARRY_KEYS = ("relation", "source", "followup", "expected")


def carry(args: argparse.Namespace, out: Any = sys.stdout) -> dict[str, int]:
    """Copy judgements from earlier judged files onto the identical follow-ups of a new sample
    (same relation, source, follow-up and expected output), so that a re-run after a generator
    change needs judging only where the follow-up changed. The rest stay unjudged."""
    earlier: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for path in args.judged:
        for row in read_jsonl(path):
            if row.get("judgement") in JUDGEMENTS:
                earlier[tuple(row.get(k) for k in CARRY_KEYS)] = row
    rows = read_jsonl(args.sample)
    carried = 0
    for row in rows:
        old = earlier.get(tuple(row.get(k) for k in CARRY_KEYS))
        if old is not None and not row.get("judgement"):
            row["judgement"], row["reason"] = old["judgement"], old.get("reason", "")
            carried += 1
    Path(args.out).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"carried {carried} of {len(rows)} judgements; {len(rows) - carried} left to judge; wrote {args.out}", file=out)
    return {"carried": carried, "total": len(rows)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="generate follow-ups over held-out sources and sample them for judging")
    s.add_argument("--text", nargs="+", default=None, help="held-out sentence files, one sentence a line (NER, RE)")
    s.add_argument("--texts", default=None, help="text tasks: texts (jsonl: id, text, topic) for classification "
                   "and summarization")
    s.add_argument("--pairs", default=None, help="text tasks: sentence pairs (jsonl: id, text1, text2, score) "
                   "for similarity")
    s.add_argument("--lang", choices=("en", "zh"), default=None,
                   help="text tasks: keep the texts and pairs of this language (default: every language found)")
    s.add_argument("--per-family", action="store_true",
                   help="text tasks: draw --n per MR family and language (the three tasks' MRs share one "
                   "rewriter) instead of per relation")
    s.add_argument("--re", default=None, help="hand-marked relation examples (jsonl: id, markup, gold)")
    s.add_argument("--relations", default="all",
                   help="'all', 'text' (the 21 MRs of the text tasks), 'text:en', 'text:zh' or a comma-separated list")
    s.add_argument("--n", type=int, default=40, help="follow-ups sampled per relation (per family: --per-family)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--out", required=True, help="followups-<tag>.jsonl")
    s.add_argument("--re-model", default="re-patterns", help="labels RE sources without a gold label")
    s.add_argument("--ner-model", default="ner-spacy-sm", help="the reference pipeline giving NER gold")
    s.add_argument("--max-pairs", type=int, default=6, help="spaCy entity pairs per sentence (RE)")
    s.add_argument("--limit", type=int, default=0, help="use only the first N sentences and examples")
    t = sub.add_parser("table", help="tabulate a judged file")
    t.add_argument("judged", nargs="+", help="followups-<tag>.judged.jsonl (several: one table)")
    t.add_argument("--coverage", nargs="+", default=None, help="coverage json (default: beside each judged file)")
    t.add_argument("--markdown", default=None, help="also write the table as markdown here")
    c = sub.add_parser("carry", help="copy earlier judgements onto identical follow-ups of a new sample")
    c.add_argument("sample", help="followups-<tag>.jsonl (new, unjudged)")
    c.add_argument("--judged", nargs="+", required=True, help="earlier judged jsonl files")
    c.add_argument("--out", required=True, help="where to write the sample with carried judgements")
    args = parser.parse_args(argv)
    try:
        if args.command == "sample":
            if args.n < 1:
                raise AuditError("--n must be at least 1")
            sample(args)
        elif args.command == "carry":
            carry(args)
        else:
            table(args)
    except AuditError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
