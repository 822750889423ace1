"""Speed and coverage of the Chinese rewriters on the shipped Chinese samples.

For each MR family: the share of sample texts it rewrites (coverage), the commonest
refusal reasons, and sources per second, measured cold (jieba's cache cleared, so each
text is segmented once inside the timing) and warm (segmentation cached, as when several
families read the same text). The similarity pairs count their two texts as two sources.

    python benchmarks/bench_rewrite_zh.py [--examples N]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import time
from importlib import resources

from mtwidgets.lang import zh
from mtwidgets.text.rewrite import FAMILIES
from mtwidgets.text.zh import REWRITERS


def sample_texts() -> list[str]:
    """The classification texts and both sides of the similarity pairs."""
    data = resources.files("mtwidgets.data")
    texts = [
        json.loads(line)["text"] for line in data.joinpath("zh_classification.jsonl").open(encoding="utf-8")
    ]
    for line in data.joinpath("zh_similarity.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        texts += [row["text1"], row["text2"]]
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=0, help="print N example rewrites per family")
    args = parser.parse_args()
    texts = sample_texts()
    for family in FAMILIES:  # load jieba, Cilin and the gazetteer outside the timing
        REWRITERS[family]("法国医生张伟说，他获得了冠军。比赛结束了。观众很高兴。", rng=random.Random(0))
    print(f"{len(texts)} sources")
    print(f"{'family':<12} {'coverage':>9} {'cold/s':>8} {'warm/s':>8}  commonest refusal")
    for family in FAMILIES:
        rewrite = REWRITERS[family]
        zh.segment.cache_clear()
        t0 = time.perf_counter()
        results = [rewrite(t, rng=random.Random(i), k=1) for i, t in enumerate(texts)]
        cold = len(texts) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        for i, t in enumerate(texts):
            rewrite(t, rng=random.Random(i), k=1)
        warm = len(texts) / (time.perf_counter() - t0)
        done = [r for r in results if r]
        why = collections.Counter(re.sub(r"'[^']*'", "'…'", r.why or "") for r in results if not r)
        top = why.most_common(1)[0] if why else ("", 0)
        print(
            f"{family:<12} {len(done) / len(texts):>8.1%} {cold:>8.0f} {warm:>8.0f}  {top[0][:60]} ({top[1]})"
        )
        for r in done[: args.examples]:
            print(f"    {r[0].note}\n        {r[0].text}")


if __name__ == "__main__":
    main()
