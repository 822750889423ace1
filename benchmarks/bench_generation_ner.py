"""Follow-up generation speed of the four TIN relations (NER).

Prints, side by side, sources per second for each relation on news-length sentences
(about 25 words, the default relations with their filters): given the reference parse of
the source (a run parses every source once, batched, for all NER relations; its rate is
printed too) and including it; then the time TIN-token and
TIN-phrase take on one document of 250, 1k, 2.5k and 10k characters (it should grow
linearly: every sentence is parsed once, and only the sentence holding a change is parsed
again). Run: ``.venv/bin/python benchmarks/bench_generation_ner.py``.
"""

from __future__ import annotations

import time

import mtwidgets as mt
from mtwidgets.ner import NERInput

SENTENCES = [
    "The company bought a large stake in the firm last year, and analysts expect more deals soon.",
    "Doctors examined an infected person at the hospital after the outbreak spread across the region on Friday.",
    "Police said the man had tried to buy a car with a stolen card before he was arrested in Leeds.",
    "The government helped families with big bills this winter, but critics say the support came too late.",
    "A child was hurt in the crash on the motorway, which closed for several hours on Sunday morning.",
    "Officials began talks with the union about pay, hoping to avoid a strike that could last for weeks.",
    "Many parts of the UK were hit by heavy snow, while Northern Ireland escaped the worst of the weather.",
    "Shares in the bank rose sharply after it reported strong profits for the third quarter in a row.",
    "The minister promised to start building new homes in the city before the next general election.",
    "Residents were asked to stay indoors as firefighters tried to control the blaze near the old factory.",
]
RELATIONS = ["TIN-token", "TIN-phrase", "TIN-question", "TIN-shuffle"]


def _fresh(texts: list[str], name: str, r: int) -> list[str]:
    # a fresh text each round: no cached parse helps
    return [text.replace(".", f" in round {r}{i} of {name}.") for i, text in enumerate(texts)]


def _warm(rel: object) -> None:
    # each warm-up sentence has a substitution or shuffle to make, so the encoder and the
    # lexicon load here and not inside the timed loop
    for warm in ("The letters vanished from the archive.", "The firm began a yearly review.",
                 "A quake hit the town.", "France and Germany met."):
        rel.generate(NERInput(warm), seed=0)  # type: ignore[attr-defined]  # pipeline, WordNet, encoder


def sources_per_second(name: str, texts: list[str], rounds: int = 3, parsed: bool = False) -> float:
    """Sources/s of one relation's ``generate`` on fresh texts; with ``parsed`` the reference
    parse of each source is made first, batched, as a run does once for every NER relation
    (the relation's own re-parses of changed sentences and its encoder calls still count)."""
    from mtwidgets.lang.pipelines import parse_many

    rel = mt.relation(name)
    _warm(rel)
    batches = [_fresh(texts, f"{name[4:]}{'p' if parsed else ''}", r) for r in range(rounds)]
    if parsed:
        parse_many([t for b in batches for t in b])
    start = time.perf_counter()
    for batch in batches:
        for text in batch:
            rel.generate(NERInput(text), seed=0)
    return sum(map(len, batches)) / (time.perf_counter() - start)


def parses_per_second(texts: list[str], rounds: int = 3) -> float:
    from mtwidgets.lang.pipelines import parse_many

    parse_many(["A warm-up sentence."])
    batch = [t for r in range(rounds) for t in _fresh(texts, "parse", r)]
    start = time.perf_counter()
    parse_many(batch)
    return len(batch) / (time.perf_counter() - start)


def document(chars: int) -> str:
    out: list[str] = []
    i = 0
    while sum(len(s) + 1 for s in out) < chars:
        # every sentence different (no parse is reused from the cache)
        out.append(SENTENCES[i % len(SENTENCES)].replace(".", f" in week {i}."))
        i += 1
    return " ".join(out)[:chars].rsplit(" ", 1)[0] + "."


def main() -> None:
    print("sources/s (news sentences, default relations with filters), measured side by side")
    print(f"  reference parse, batched (once per source, shared by every NER relation): "
          f"{parses_per_second(SENTENCES):.1f}")
    print(f"  {'relation':13s} {'given the parse':>16s} {'incl. the parse':>16s}")
    for name in RELATIONS:
        given = sources_per_second(name, SENTENCES, parsed=True)
        alone = sources_per_second(name, SENTENCES)
        print(f"  {name:13s} {given:16.1f} {alone:16.1f}")
    print("\ntime vs text length (one document)")
    print(f"  {'chars':>6s} " + " ".join(f"{n:>12s}" for n in ("TIN-token", "TIN-phrase")))
    for chars in (250, 1000, 2500, 10000):
        times = []
        for name in ("TIN-token", "TIN-phrase"):
            doc = document(chars) + f" Run {name}."
            start = time.perf_counter()
            mt.relation(name).generate(NERInput(doc), seed=0)
            times.append(time.perf_counter() - start)
        print(f"  {chars:6d} " + " ".join(f"{t:11.2f}s" for t in times))


if __name__ == "__main__":
    main()
