"""Agreement between two annotations of the same articles: pair F1, one annotator's required rows
taken as the other's gold (F1 is symmetric in the two).

A row of A matches a row of B when they share a document, a relation, and for each argument a
name (an alias, compared as ``kg eval`` compares names), symmetric relations either way round.
Rows of other statuses are not compared. ``python -m kg.train.agree A B [A2 B2 ...]``, where each
is a set folder of ``docs/annotation.md`` (``articles/`` beside ``gold/``); the rows of the article
files both annotated are compared, pair by pair, and counted together.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from .. import ontology
from .data import gold_folder


def _rows(folder: Path) -> tuple[set[str], list[tuple[str, str, frozenset[str], frozenset[str]]]]:
    """The articles a set annotated, and its required rows as (article, relation, names, names)."""
    documents, _ = gold_folder(folder)
    out = set()
    for d in documents:
        stem = d.id.split("/", 1)[1]
        for label in d.labels:
            if label.status == "required":
                for p in label.predicates:
                    out.add((stem, p, label.subject.names, label.object.names))
    return {d.id.split("/", 1)[1] for d in documents}, sorted(out, key=str)


def _same(a, b, symmetric) -> bool:
    if a[0] != b[0] or a[1] != b[1]:
        return False
    forward = a[2] & b[2] and a[3] & b[3]
    return bool(forward or (a[1] in symmetric and a[2] & b[3] and a[3] & b[2]))


def agreement(pairs: list[tuple[str | Path, str | Path]]) -> dict:
    """Pair F1 over every (A, B) pair of set folders, the rows of the articles both annotated."""
    symmetric = ontology.symmetric_relations()
    counts = Counter()
    by_relation: Counter = Counter()
    for a, b in pairs:
        (stems_a, rows_a), (stems_b, rows_b) = _rows(Path(a)), _rows(Path(b))
        stems = stems_a & stems_b
        rows_a = [r for r in rows_a if r[0] in stems]
        rows_b = [r for r in rows_b if r[0] in stems]
        counts.update(
            {
                "documents": len(stems),
                "rows_a": len(rows_a),
                "rows_b": len(rows_b),
                "a_in_b": sum(any(_same(x, y, symmetric) for y in rows_b) for x in rows_a),
                "b_in_a": sum(any(_same(y, x, symmetric) for x in rows_a) for y in rows_b),
            }
        )
        by_relation.update(Counter(x[1] for x in rows_a) + Counter(y[1] for y in rows_b))
    p = counts["a_in_b"] / counts["rows_a"] if counts["rows_a"] else 0.0  # A's rows B has
    r = counts["b_in_a"] / counts["rows_b"] if counts["rows_b"] else 0.0  # B's rows A has
    return {
        **counts,
        "pair_f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
        "rows_by_relation": dict(sorted(by_relation.items())),
    }


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 2:
        print(__doc__)
        return 2
    result = agreement(list(zip(argv[::2], argv[1::2])))
    for key, value in result.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
