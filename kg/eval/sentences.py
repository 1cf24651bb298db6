"""Scoring extraction on single sentences annotated with the facts they state and the non-facts a
careless extractor would produce (tests/data/constructions/sentences.tsv: id, construction,
sentence, facts, nonfacts, source; facts as ``Subject|relation|Object;...`` in the sentence's own
words).

A fact is found when an assertion of its relation links entities named as the fact names them:
equal names, or one containing the other as whole words (so "ISIL" names the ISIL entity, and
"Syrian Democratic Forces" the SDF entity whose surface forms include it). Symmetric relations
match either way round. An assertion hits a non-fact only when it names the non-fact more closely
than any of the row's facts: an entity named "Mosul Dam" captured is the fact "captured Mosul Dam",
not the non-fact "captured Mosul" that its name contains.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .. import ontology


def norm(text: str) -> str:
    s = unicodedata.normalize("NFKD", text)
    s = "".join(c for c in s if not unicodedata.combining(c)).replace("\u2019", "'").lower()
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"[^a-z0-9]+", " ", s).strip()
    return re.sub(r"^(the|a|an) ", "", s)


def names_match(name: str, names: set[str]) -> bool:
    return name_fit(name, names) > 0


def name_fit(name: str, names: set[str]) -> int:
    """2 when one of ``names`` is ``name``, 1 when one contains it or is contained in it as whole words, else 0."""
    n = norm(name)
    normed = [m for m in map(norm, names) if m]
    if n in normed:
        return 2
    return int(any(f" {m} " in f" {n} " or f" {n} " in f" {m} " for m in normed))


@dataclass(frozen=True)
class Row:
    id: str
    construction: str
    sentence: str
    facts: tuple[tuple[str, str, str], ...]
    nonfacts: tuple[tuple[str, str, str], ...]
    source: str


def load(path: str | Path) -> list[Row]:
    def triples(cell: str) -> tuple[tuple[str, str, str], ...]:
        return tuple(tuple(t.split("|")) for t in cell.split(";") if t.strip())  # type: ignore[misc]

    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [Row(r["id"], r["construction"], r["sentence"], triples(r["facts"]), triples(r["nonfacts"]), r["source"])
                for r in reader]


@dataclass
class Score:
    facts: int = 0
    found: int = 0
    nonfacts: int = 0
    nonfact_hits: int = 0
    predicted: int = 0
    predicted_right: int = 0
    by_construction: dict[str, Counter] = field(default_factory=dict)
    missed: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.facts if self.facts else 0.0

    @property
    def precision(self) -> float:
        """Assertions that are a fact of the sentence, over all assertions of the scored relations."""
        return self.predicted_right / self.predicted if self.predicted else 0.0


def score(rows: list[Row], extractions) -> Score:
    """Score one Extraction per row (in order)."""
    symmetric = ontology.symmetric_relations()
    out = Score()
    for row, extraction in zip(rows, extractions, strict=True):
        names = {e.key: {e.label, *e.aliases} for e in extraction.entities}
        asserted = {(a.subject, a.predicate, a.object) for a in extraction.assertions}
        counts = out.by_construction.setdefault(row.construction, Counter())

        def fit(triple, s, p, o) -> int:
            """How well an assertion names a triple: 0 not at all, else the worse of its two names' fits."""
            fs, fp, fo = triple
            if fp != p:
                return 0
            sn, on = names.get(s, {s}), names.get(o, {o})
            return max(min(name_fit(fs, sn), name_fit(fo, on)),
                       min(name_fit(fs, on), name_fit(fo, sn)) if p in symmetric else 0)

        def hit(triple, s, p, o) -> bool:
            return fit(triple, s, p, o) > 0

        def nonfact_hit(triple, a) -> bool:
            # a non-fact only by a closer name than any fact's: "Mosul Dam" captured is the fact
            # "captured Mosul Dam", not the non-fact "captured Mosul" its name contains
            return fit(triple, *a) > max((fit(t, *a) for t in row.facts), default=0)

        for triple in row.facts:
            out.facts += 1
            counts["facts"] += 1
            if any(hit(triple, *a) for a in asserted):
                out.found += 1
                counts["found"] += 1
            else:
                out.missed.append(f"{row.id} {'|'.join(triple)}")
        for triple in row.nonfacts:
            out.nonfacts += 1
            if any(nonfact_hit(triple, a) for a in asserted):
                out.nonfact_hits += 1
                out.wrong.append(f"{row.id} NONFACT {'|'.join(triple)}")
        for a in asserted:
            out.predicted += 1
            if any(hit(t, *a) for t in row.facts):
                out.predicted_right += 1
            elif not any(nonfact_hit(t, a) for t in row.nonfacts):
                label = lambda k: sorted(names.get(k, {k}), key=len)[-1]  # noqa: E731
                out.wrong.append(f"{row.id} {label(a[0])}|{a[1]}|{label(a[2])}")
    return out
