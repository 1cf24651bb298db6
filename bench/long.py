"""What one long article costs: seconds and peak memory of `kg build` on a single article of
0.1, 1 and 5 MB (news paragraphs of bench/corpus.py, one after another), each in a fresh process,
reported per MB and as ratios to the 0.1 MB article measured in the same run.

    python bench/long.py              # 0.1, 1 and 5 MB
    python bench/long.py --sizes 0.1 1

Issue 35's bound: a 1 MB article builds in under 20x the time of a 100 KB one, with peak memory
within 1.5x. The machine's speed cancels out of the ratios; the seconds are this machine's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))


def article(megabytes: float) -> str:
    """Paragraphs of the benchmark corpus until the text has ``megabytes`` MB."""
    from corpus import Writer  # bench/corpus.py

    writer, want, parts, size, i = Writer(), int(megabytes * 1_000_000), [], 0, 0
    while size < want:
        for paragraph in writer.article(i)["text"].split(" - ", 1)[1].split("\n\n"):  # no dateline: one story
            parts.append(paragraph)
            size += len(paragraph.encode("utf-8")) + 2
        i += 1
    return "\n\n".join(parts)


def measure(megabytes: float, folder: Path) -> dict:
    path = folder / f"article-{megabytes}MB.txt"
    path.write_text(article(megabytes), encoding="utf-8")
    store = folder / f"store-{megabytes}"
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "kg", "build", str(path), "--store", str(store), "-q"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench/long.py: kg build failed on {megabytes} MB: {child.stderr.read().decode()[-500:]}")
    size = path.stat().st_size / 1e6
    return {"mb": round(size, 3), "seconds": round(seconds, 1), "peak_mb": round(usage.ru_maxrss / 1024),
            "seconds_per_mb": round(seconds / size, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[0.1, 1, 5], metavar="MB")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(mb, Path(tmp)) for mb in args.sizes]
    base = rows[0]
    for row in rows:
        row["time_vs_first"] = round(row["seconds"] / base["seconds"], 2)
        row["memory_vs_first"] = round(row["peak_mb"] / base["peak_mb"], 2)
        print(json.dumps(row))


if __name__ == "__main__":
    main()
