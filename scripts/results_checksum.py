"""A checksum of a saved results file that survives harmless float noise.

Every record is written as canonical JSON (sorted keys, floats rounded to 3 decimals) and
the lines are hashed in order. Used to show that a refactor left ``mtwidgets run``'s results
exactly as they were (``tests/test_results_checksum.py``).

    python scripts/results_checksum.py results.jsonl
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any


def _canonical(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def checksum(path: str | Path) -> str:
    digest = hashlib.sha256()
    for line in Path(path).read_text(encoding="utf-8").split("\n"):
        if line.strip():
            record = _canonical(json.loads(line))
            digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8"))
            digest.update(b"\n")
    return digest.hexdigest()


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(checksum(name), name)
