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

``table``
    Reads a judged file (``judgement`` in valid / minor / invalid on every line; unjudged
    lines are listed and nothing is counted) and prints, per relation: judged, valid %,
    minor %, invalid %, sources with a follow-up % (from the coverage file beside it);
    ``--markdown PATH`` also writes the table.

Run::

    python benchmarks/audit_followups.py sample --text benchmarks/audit/heldout.txt \\
        --re benchmarks/audit/heldout_re.jsonl --relations all --n 40 --seed 0 \\
        --out benchmarks/audit/followups-<tag>.jsonl
    python benchmarks/audit_followups.py table benchmarks/audit/followups-<tag>.judged.jsonl \\
        --markdown benchmarks/audit/followups-<tag>.md
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
    relation: Any, sources: Sequence[Source], labeller: Labeller, seed: int
) -> tuple[list[Candidate], Coverage]:
    """Run ``relation.generate`` over every source (timed), then keep the follow-ups whose
    group the output property accepts given the source labels."""
    cov = Coverage(relation.name, relation.task)
    prepared = relation.prepared([s.inputs[0] for s in sources]) if sources else relation
    warm = time.perf_counter()
    for s in sources[:WARMUP_SOURCES]:
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


def word_diff(a: str, b: str, context: int = 3) -> str:
    """A compact word diff: changed runs as ``[-old-]{+new+}`` with ``context`` words
    around them, the rest elided with '…'."""
    import difflib

    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
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
                parts.append(" ".join(words))
            else:
                parts.extend(p for p in (" ".join(head), "…", " ".join(tail)) if p)
        else:
            old, new = " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
            parts.append((f"[-{old}-]" if old else "") + (f"{{+{new}+}}" if new else ""))
    return " ".join(parts)


def _entities(x: Any) -> list[str]:
    """The marked entities of an input, as ``role 'mention' TYPE`` (RE) or ``'mention' LABEL`` (NER)."""
    out = []
    for role in ("head", "tail"):
        span = getattr(x, role, None)
        if span is not None:
            out.append(f"{role} {x.text[span.start:span.end]!r} {span.label or ''}".rstrip())
    for span in getattr(x, "gold", ()) or ():
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


def draw(candidates: Sequence[Candidate], n: int, seed: int, relation: str) -> list[Candidate]:
    """``n`` follow-ups drawn uniformly over the sources that have one (at most one per
    source), each source's follow-up drawn uniformly among its own."""
    by_source: dict[str, list[Candidate]] = {}
    for c in candidates:
        by_source.setdefault(c.source.id, []).append(c)
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


def resolve_relations(spec: str) -> list[str]:
    from mtwidgets.core.registry import names

    known = names()
    if spec == "all":
        return known
    wanted = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise AuditError(f"unknown relation(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return wanted


def sample(args: argparse.Namespace, out: Any = sys.stdout) -> dict[str, Any]:
    import mtwidgets as mt
    from mtwidgets.lang.pipelines import parse_many

    texts_in = args.text if isinstance(args.text, (list, tuple)) else [args.text]
    sentences = [line for path in texts_in for line in read_sentences(path)]
    if args.limit:
        sentences = sentences[: args.limit]
    rel_names = resolve_relations(args.relations)
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

    rows: list[dict[str, Any]] = []
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
    out_path = Path(args.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with out_path.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    meta = {
        "text": str(args.text), "re": str(args.re) if args.re else None, "sentences": len(sentences),
        "seed": args.seed, "n": args.n, "re_model": args.re_model, "ner_model": args.ner_model,
        "max_pairs": args.max_pairs, "relations": coverage,
    }
    coverage_path(out_path).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print_speed(coverage, out)
    print(f"wrote {len(rows)} follow-ups to {out_path} and the coverage to {coverage_path(out_path)}", file=out)
    return meta


def print_speed(coverage: Mapping[str, Mapping[str, Any]], out: Any) -> None:
    """Generation speed per relation, measured side by side in this run."""
    head = f"{'relation':<14}{'sources':>8}{'with f-u':>10}{'%':>7}{'seconds':>9}{'sources/s':>11}{'warm-up s':>11}{'errors':>8}"
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
    for r in rows:
        counts.setdefault(str(r["relation"]), Counter())[str(r["judgement"])] += 1
    rels = (coverage or {}).get("relations", {})
    table = []
    for name, c in counts.items():
        n = sum(c.values())
        cov = rels.get(name)
        table.append({
            "relation": name,
            "judged": n,
            "valid": pct(c["valid"], n),
            "minor": pct(c["minor"], n),
            "invalid": pct(c["invalid"], n),
            "with_followup": cov.get("with_followup_pct") if cov else None,
        })
    return table


def render(table: Sequence[Mapping[str, Any]], *, markdown: bool) -> str:
    cols = ["relation", "judged", "valid %", "minor %", "invalid %", "sources with a follow-up %"]
    cells = [[str(r["relation"]), str(r["judged"]), _fmt(r["valid"]), _fmt(r["minor"]), _fmt(r["invalid"]),
              _fmt(r["with_followup"])] for r in table]
    missed = [
        r["relation"] for r in table
        if (r["valid"] or 0) < TARGET_VALID or (r["invalid"] or 0) > TARGET_INVALID
    ]
    note = (f"target: valid >= {TARGET_VALID:g} % and invalid <= {TARGET_INVALID:g} %; "
            + (f"missed by {', '.join(missed)}" if missed else "met by every relation"))
    if markdown:
        lines = ["| " + " | ".join(cols) + " |", "|" + "|".join(["---"] + ["---:"] * (len(cols) - 1)) + "|"]
        lines += ["| " + " | ".join(c) + " |" for c in cells]
        return "\n".join(lines) + "\n\n" + note + "\n"
    widths = [max(len(cols[i]), *(len(c[i]) for c in cells)) for i in range(len(cols))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))]
    lines += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
              for row in cells]
    return "\n".join(lines) + "\n" + note + "\n"


def table(args: argparse.Namespace, out: Any = sys.stdout) -> list[dict[str, Any]]:
    rows = read_jsonl(args.judged)
    if not rows:
        raise AuditError(f"{args.judged}: no follow-ups")
    cov_file = Path(args.coverage) if args.coverage else coverage_path(args.judged)
    coverage = json.loads(cov_file.read_text(encoding="utf-8")) if cov_file.exists() else None
    if coverage is None:
        print(f"note: no coverage file {cov_file}; 'sources with a follow-up %' left blank", file=out)
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
    s.add_argument("--text", required=True, nargs="+", help="held-out sentence files, one sentence a line")
    s.add_argument("--re", default=None, help="hand-marked relation examples (jsonl: id, markup, gold)")
    s.add_argument("--relations", default="all", help="'all' or a comma-separated list")
    s.add_argument("--n", type=int, default=40, help="follow-ups sampled per relation")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--out", required=True, help="followups-<tag>.jsonl")
    s.add_argument("--re-model", default="re-patterns", help="labels RE sources without a gold label")
    s.add_argument("--ner-model", default="ner-spacy-sm", help="the reference pipeline giving NER gold")
    s.add_argument("--max-pairs", type=int, default=6, help="spaCy entity pairs per sentence (RE)")
    s.add_argument("--limit", type=int, default=0, help="use only the first N sentences and examples")
    t = sub.add_parser("table", help="tabulate a judged file")
    t.add_argument("judged", help="followups-<tag>.judged.jsonl")
    t.add_argument("--coverage", default=None, help="coverage json (default: beside the judged file)")
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
