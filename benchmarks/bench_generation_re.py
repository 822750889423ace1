"""Follow-up generation speed of the eight relation-extraction relations (sources per second).

News-length sentences with a marked head and tail; spaCy parses each text once (the
parse cache is shared by all relations, as in a run), then every relation generates its
follow-ups for every source. Prints sources/s per relation, side by side.

    python benchmarks/bench_generation_re.py [--n 600]
"""

from __future__ import annotations

import argparse
import time

import mtwidgets as mt
from mtwidgets.re.entities import parse_many, typed_entities
from mtwidgets.re.relations import NAMES

TEMPLATES = [
    "[[{p1}]], {age}, a {nat} lawyer, said on Tuesday that <<{org}>> had hired her sister {p2} in {city}.",
    "<<{org}>> said [[it]] would open a new plant near {city} next year, according to a statement from {p1}.",
    "[[{p1}]] and her husband <<{p2}>> met officials of {org} in {city} to discuss the merger plans.",
    "The {org} ([[{abbr}]]) appointed <<{p1}>> as its new chief executive, the company said in {city}.",
    "[[{p1}]] was born in <<{city}>> and studied economics before joining {org} as an analyst in 1998.",
    "Police in [[{city}]] arrested <<{p1}>>, {age}, on charges of fraud after a complaint by {org}.",
    "[[{p1}]] is <<{nat}>>, and he moved to {city} with his brother {p2} after the war.",
    "The [[US]] ambassador <<{p1}>> told reporters in {city} that {org} would cut 300 jobs.",
]
PEOPLE = ["John Carter", "Maria Lopez", "Anna Schmidt", "David Brown", "Laura Robinson", "Peter Novak",
          "Sarah Kim", "Thomas Meyer"]
ORGS = ["Siemens", "Reuters", "the World Bank", "Toyota", "Barclays", "Nestle"]
ORGS_BARE = ["Federal Trade Commission", "National Science Foundation", "European Space Agency"]
CITIES = ["Paris", "Chicago", "Madrid", "Boston", "Berlin", "Houston", "Toronto"]
NATS = ["Brazilian", "French", "German", "Italian", "Canadian"]


def sources(n: int) -> list[mt.RelationInput]:
    out = []
    for i in range(n):
        t = TEMPLATES[i % len(TEMPLATES)]
        org = ORGS_BARE[i % len(ORGS_BARE)] if "({abbr})" in t else ORGS[i % len(ORGS)]
        abbr = "".join(w[0] for w in org.split())
        markup = t.format(p1=PEOPLE[i % len(PEOPLE)], p2=PEOPLE[(i * 3 + 1) % len(PEOPLE)], org=org, abbr=abbr,
                          city=CITIES[i % len(CITIES)], nat=NATS[i % len(NATS)], age=30 + i % 40)
        out.append(mt.RelationInput.parse(markup))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600)
    args = ap.parse_args()
    xs = sources(args.n)
    t0 = time.perf_counter()
    parse_many([x.text for x in xs])
    for x in xs:
        typed_entities(x.text)
    parse_s = time.perf_counter() - t0
    print(f"{len(xs)} sources, {len({x.text for x in xs})} distinct texts; spaCy parse {len(xs) / parse_s:.0f} sources/s")
    rates = {}
    for name in NAMES:
        rel = mt.relation(name).prepared(xs)
        rel.generate(xs[0], 0)  # lexicons and pools built once
        t0 = time.perf_counter()
        groups = [g for x in xs for g in rel.generate(x, 0)]
        dt = time.perf_counter() - t0
        applicable = sum(1 for g in groups if not g.not_applicable)
        rates[name] = (len(xs) / dt, applicable)
    print(f"{'relation':<8} {'sources/s':>10} {'follow-ups':>11}")
    for name, (rate, applicable) in rates.items():
        flag = "" if rate >= 200 else "  (below 200/s)"
        print(f"{name:<8} {rate:>10.0f} {applicable:>11}{flag}")


if __name__ == "__main__":
    main()
