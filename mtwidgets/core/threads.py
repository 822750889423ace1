"""Torch's intra-op threads for small encoder calls.

An encoder call on a handful of sentences (a live edit, one sentence's filter candidates,
one repair) is too little work for intra-op parallelism, and on a 2-core machine shared
with other work torch's worker threads wait on each other. Measured here (2 cores, load
about 3): one sentence through MiniLM took 0.49 s on two threads and 0.01 s on one; the
TIN-phrase follow-ups of 30 sentences took 25-32 s on two threads and 2.2 s on one.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """Run torch on one thread inside the block, then restore the previous setting.

    torch is never imported here; a process without it is left alone. In the Explorer,
    the p95 of a mark action went from 826 ms with torch's default two threads to 132 ms
    with one (embedded models, 2 shared cores, load about 5).
    """
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)
