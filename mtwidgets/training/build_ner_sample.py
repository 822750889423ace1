"""Build the shipped NER gold sample from its marked-up source.

The sample (``mtwidgets/data/ner_sample.jsonl``) is written by hand as inline markup in
``ner_sample_source.txt`` next to this module, because a sentence with ``[Ana Ruiz|PERSON]``
in it can be read and reviewed, while character offsets cannot. This converter is the only
way offsets enter the JSONL: it validates the markup strictly (labels, brackets, word
boundaries, duplicates) and writes the file deterministically, so the test suite can
rebuild it and compare byte for byte.

Source format
-------------
``# ...`` lines are comments; ``== topic`` starts a topic (one of :data:`TOPICS`); every
other non-blank line is one sentence, entities marked ``[mention|LABEL]`` with an
OntoNotes 5 label (:data:`mtwidgets.ner.labels.ONTONOTES`). Ids are ``ner-<topic>-<nnn>``,
numbered within the topic in source order.

Usage::

    python -m mtwidgets.training.build_ner_sample            # rewrite the JSONL
    python -m mtwidgets.training.build_ner_sample --check    # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..ner.labels import ONTONOTES

TOPICS: tuple[str, ...] = ("politics", "business", "sport", "science", "culture", "world", "local")
"""News sections the sample covers; every sentence belongs to exactly one."""

SOURCE = Path(__file__).with_name("ner_sample_source.txt")
TARGET = Path(__file__).resolve().parent.parent / "data" / "ner_sample.jsonl"

_ENTITY = re.compile(r"\[(?P<mention>[^\[\]|]*)\|(?P<label>[^\[\]|]*)\]")
_TOPIC = re.compile(r"^==\s*(?P<topic>\S+)\s*$")
_SPECIAL = ("[", "]", "|")


@dataclass(frozen=True)
class Record:
    """One gold sentence: its id, topic, text and entity spans ``(start, end, label)``."""

    id: str
    topic: str
    text: str
    entities: tuple[tuple[int, int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "topic": self.topic,
            "text": self.text,
            "entities": [{"start": s, "end": e, "label": label} for s, e, label in self.entities],
        }


def parse_line(markup: str, where: str = "sentence") -> tuple[str, tuple[tuple[int, int, str], ...]]:
    """Turn one marked-up sentence into its plain text and entity offsets.

    Parameters
    ----------
    markup:
        A sentence with entities marked ``[mention|LABEL]``.
    where:
        Names the line in error messages (e.g. ``"line 12"``), so a bad mark can be found.

    Raises
    ------
    InputError
        On a label outside OntoNotes 5, an empty or space-padded mention, a stray bracket or
        bar, or an entity that starts or ends inside a word (spaCy could never predict it,
        so it would count as an error against every system).
    """
    parts: list[str] = []
    entities: list[tuple[int, int, str]] = []
    pos = 0
    length = 0
    for m in _ENTITY.finditer(markup):
        parts.append(markup[pos : m.start()])
        length += m.start() - pos
        mention, label = m.group("mention"), m.group("label")
        if not mention.strip() or mention != mention.strip():
            raise InputError(
                f"{where}: entity mention {mention!r} is empty or has outer spaces in {markup!r}; "
                "write [mention|LABEL] with the brackets tight around the words"
            )
        if label not in ONTONOTES:
            raise InputError(
                f"{where}: label {label!r} of {mention!r} is not an OntoNotes 5 label; use one of "
                f"{', '.join(ONTONOTES)}"
            )
        entities.append((length, length + len(mention), label))
        parts.append(mention)
        length += len(mention)
        pos = m.end()
    parts.append(markup[pos:])
    text = "".join(parts)
    for char in _SPECIAL:
        if char in text:
            raise InputError(
                f"{where}: stray {char!r} left after reading the marks in {markup!r}; every entity "
                "must be written [mention|LABEL] and the sentence itself may not contain [ ] |"
            )
    if not text.strip() or text != text.strip() or "  " in text:
        raise InputError(f"{where}: sentence {text!r} is empty or has outer or double spaces")
    for start, end, label in entities:
        before = text[start - 1] if start > 0 else " "
        after = text[end] if end < len(text) else " "
        if before.isalnum() or after.isalnum():
            raise InputError(
                f"{where}: entity {text[start:end]!r} ({label}) starts or ends inside a word in "
                f"{text!r}; move the bracket to the word boundary"
            )
    return text, tuple(entities)


def parse_source(source: str) -> list[Record]:
    """Read the whole marked-up source into records, in source order.

    Raises
    ------
    InputError
        On a sentence before the first topic, an unknown or repeated topic, a duplicate
        sentence, a topic with no sentences, or any markup error (with its line number).
    """
    records: list[Record] = []
    topic: str | None = None
    seen_topics: set[str] = set()
    seen_texts: dict[str, int] = {}
    counts: dict[str, int] = {}
    # "\n" only: str.splitlines would also break a sentence at U+2028, U+2029 or U+0085.
    for number, raw in enumerate(source.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _TOPIC.match(line)
        if match:
            topic = match.group("topic")
            if topic not in TOPICS:
                raise InputError(f"line {number}: unknown topic {topic!r}; use one of {', '.join(TOPICS)}")
            if topic in seen_topics:
                raise InputError(
                    f"line {number}: topic {topic!r} starts a second time; keep each topic in one block"
                )
            seen_topics.add(topic)
            counts[topic] = 0
            continue
        if topic is None:
            raise InputError(f"line {number}: sentence {line[:60]!r} comes before any '== topic' line")
        text, entities = parse_line(line, where=f"line {number}")
        if text in seen_texts:
            raise InputError(f"line {number}: sentence {text!r} repeats line {seen_texts[text]}")
        seen_texts[text] = number
        counts[topic] += 1
        records.append(Record(f"ner-{topic}-{counts[topic]:03d}", topic, text, entities))
    empty = [t for t, n in counts.items() if n == 0]
    if empty:
        raise InputError(f"topic(s) {', '.join(empty)} have no sentences; add some or remove the header")
    return records


def render(records: Sequence[Record]) -> str:
    """The JSONL text for ``records``: one object per line, fixed key order, UTF-8 kept
    literal (``ensure_ascii=False``) so that the file diffs readably."""
    return "".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records)


def build(source: Path = SOURCE) -> str:
    """The JSONL text the source at ``source`` converts to."""
    return render(parse_source(source.read_text(encoding="utf-8")))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build mtwidgets/data/ner_sample.jsonl from its markup.")
    parser.add_argument("--source", type=Path, default=SOURCE, help="marked-up source (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=TARGET, help="JSONL to write (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="only check that --out is up to date")
    args = parser.parse_args(argv)
    try:
        text = build(args.source)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n = text.count("\n")
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(
                f"{args.out} is stale; rebuild with python -m mtwidgets.training.build_ner_sample",
                file=sys.stderr,
            )
            return 1
        print(f"{args.out} is up to date ({n} sentences)")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {n} sentences to {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover - command-line entry
    raise SystemExit(main())
