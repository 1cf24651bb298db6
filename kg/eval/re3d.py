"""re3d as a gold set: ``kg eval FOLDER`` on a folder of re3d sources (each a folder of re3d's
``documents.json``, ``entities.json``, ``relations.json``, as tests/data/re3d holds them).

It counts as the benchmark's own scorer does (../shared/eval/re3d/re3d.py, which a test checks it
agrees with): per sentence mention pair, the unit re3d annotates. A gold item is a relation of a
mapped type between Person / Organisation / Location / Nationality mentions, of confidence 0.5 or
more, once per (document, type, names, sentence); it is found when an assertion of the mapped
predicate has a sentence span holding both mentions and entities whose names (labels, alternative
labels, surface forms) match the mentions (equal, or one within the other as whole words; a pronoun
or generic mention matches any name). An assertion is correct when it matches any annotated pair of
its type, whatever the two mentions' types, a place written as one mention with its country
("Palmyra, Syria"), or a title re3d wrote as a synonym of the person ("Gen. X" / "commander of Y").
Precision is therefore a lower bound: re3d does not annotate every relation a text states.

The mapping: AlliesOf -> allyOf, FightingAgainst -> attacked (both either way round), BelongsTo ->
memberOf, InChargeOf -> leaderOf, CoLocated of two places -> locatedIn. "Named" figures keep only
gold pairs whose mentions are both proper names. Also reported: precision by confidence band, and
how many of re3d's synonym pairs of two names one entity carries, and the entity mentions found,
typed right, spurious or merged (:mod:`kg.eval.entities`).

``python -m kg.eval.re3d texts FOLDER OUT.jsonl`` writes the documents as kg JSONL (id = re3d id).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import texts_command
from .surface import NAME_PROPERTIES, PRONOUNS, is_name, norm

ARGUMENT_TYPES = {"Person", "Organisation", "Location", "Nationality"}
ANY = {"Person", "Organisation", "Nationality", "Location"}
MAPPING = {  # re3d type -> (kg relation, source types, target types, either way round)
    "AlliesOf": ("allyOf", ANY, ANY, True),
    "FightingAgainst": ("attacked", ANY, ANY, True),
    "BelongsTo": ("memberOf", {"Person", "Organisation"}, {"Organisation"}, False),
    "InChargeOf": ("leaderOf", {"Person"}, {"Organisation", "Location"}, False),
    "CoLocated": ("locatedIn", {"Location"}, {"Location"}, False),
}
BANDS = (0.5, 0.6, 0.7, 0.8, 0.9)


def name_matches(mention: str, names: Iterable[str]) -> bool:
    """A gold mention and an entity's names name the same thing (any name, for a pronoun)."""
    g = norm(mention)
    if not g or g in PRONOUNS or not is_name(mention):
        return True
    for n in map(norm, names):
        if n and (n == g or f" {n} " in f" {g} " or (len(g) >= 3 and f" {g} " in f" {n} ")):
            return True
    return False


def is_re3d(folder: str | Path) -> bool:
    """Whether ``folder`` holds re3d sources (subfolders with documents.json, entities.json, relations.json)."""
    return any(_is_source(p) for p in Path(folder).iterdir()) if Path(folder).is_dir() else False


def _is_source(folder: Path) -> bool:
    return all((folder / n).is_file() for n in ("documents.json", "entities.json", "relations.json"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Rough sentence spans, only to count a pair stated once per sentence once."""
    spans, start = [], 0
    for m in re.finditer(r"[.!?][\"'\u201d)\]]*\s+(?=[A-Z\"\u201c(])|\n+", text):
        spans.append((start, m.end()))
        start = m.end()
    return spans + [(start, len(text))]


@dataclass
class Gold:
    documents: dict[str, dict]
    items: list[dict]  # the gold pairs to find
    support: list[dict]  # every annotated pair of a mapped type: what makes a prediction correct
    titles: list[tuple]  # (document, mention, mention, start, end) of every synonym pair
    synonyms: list[tuple[str, str, str]]  # (document, name, name) pairs of two names
    # every entity annotation of the chosen sources: doc, text, type, confidence, begin, end
    mentions: list[dict] = field(default_factory=list)
    # (document, normalized mention, normalized mention, both names) of every IsSynonymOf pair of
    # every source in the folder, chosen or not (kg.eval.entities tells merges from them)
    links: list[tuple[str, str, str, bool]] = field(default_factory=list)


def load_gold(folder: str | Path, sources: Iterable[str] | None = None, min_confidence: float = 0.5) -> Gold:
    """The gold of the re3d sources under ``folder`` (all, or those named)."""
    root = Path(folder)
    chosen = [p for p in sorted(root.iterdir()) if _is_source(p) and (sources is None or p.name in set(sources))]
    documents, types, relations, mentions = {}, {}, [], []
    for source in chosen:
        for d in _lines(source / "documents.json"):
            documents[d["_id"]] = d
        for e in _lines(source / "entities.json"):
            types[(e["documentId"], e["begin"], e["end"])] = e["type"]
            mentions.append(e)
        relations += _lines(source / "relations.json")
    gold = Gold(documents, [], [], [], [])
    for e in mentions:
        if e["documentId"] in documents:
            text = e.get("value") or documents[e["documentId"]]["text"][e["begin"]:e["end"]]
            gold.mentions.append({"doc": e["documentId"], "text": text, "type": e["type"],
                                  "confidence": e.get("confidence", 1), "begin": e["begin"], "end": e["end"]})
    for source in (p for p in sorted(root.iterdir()) if _is_source(p)):
        for r in _lines(source / "relations.json"):
            if r["type"] == "IsSynonymOf" and r.get("confidence", 1) >= min_confidence:
                gold.links.append((r["documentId"], norm(r["source"]), norm(r["target"]),
                                   is_name(r["source"]) and is_name(r["target"])))
    sentences = {d: sentence_spans(x["text"]) for d, x in documents.items()}
    seen = set()
    for r in relations:
        if r.get("confidence", 1) < min_confidence:
            continue
        doc = r["documentId"]
        lo, hi = min(r["sourceBegin"], r["targetBegin"]), max(r["sourceEnd"], r["targetEnd"])
        if r["type"] == "IsSynonymOf":
            if is_name(r["source"]) and is_name(r["target"]) and norm(r["source"]) != norm(r["target"]):
                gold.synonyms.append((doc, *sorted((norm(r["source"]), norm(r["target"])))))
            gold.titles.append((doc, r["source"], r["target"], lo, hi))
            continue
        if r["type"] not in MAPPING:
            continue
        relation, sources_, targets, symmetric = MAPPING[r["type"]]
        pair = {"doc": doc, "relation": relation, "symmetric": symmetric, "source": r["source"],
                "target": r["target"], "span": (lo, hi), "type": r["type"]}
        gold.support.append(pair)
        if types.get((doc, r["sourceBegin"], r["sourceEnd"])) not in sources_ or \
                types.get((doc, r["targetBegin"], r["targetEnd"])) not in targets:
            continue
        sentence = next((i for i, (a, b) in enumerate(sentences[doc]) if a <= lo < b), -1)
        a, b = norm(r["source"]), norm(r["target"])
        key = (doc, relation, *(sorted((a, b)) if symmetric else (a, b)), sentence)
        if key not in seen:
            seen.add(key)
            gold.items.append({**pair, "named": is_name(r["source"]) and is_name(r["target"])})
    gold.synonyms = sorted(set(gold.synonyms))
    for (doc, b, e), type_ in types.items():  # "Palmyra, Syria" written as one Location
        text = documents[doc]["text"][b:e] if doc in documents else ""
        if type_ == "Location" and "," in text:
            head, _, tail = text.partition(",")
            gold.support.append({"doc": doc, "relation": "locatedIn", "symmetric": False, "source": head.strip(),
                                 "target": tail.strip(), "span": (b, e)})
    return gold


@dataclass
class Report:
    documents: int
    gold_named: int
    gold_all: int
    predicted: int
    correct: int
    named: dict[str, float]
    all: dict[str, float]
    per_relation: dict[str, dict]
    bands: list[dict]  # precision of the assertions of confidence >= each band's floor
    by_rule: dict[str, dict[str, int]]  # rule -> assertions made, assertions correct
    alias_pairs: int
    alias_merged: int
    missed: list[str] = field(default_factory=list)
    not_in_gold: list[str] = field(default_factory=list)
    entities: dict | None = None  # entity mentions found, typed, spurious: kg.eval.entities.score_re3d

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _local(term: str) -> str:
    return re.sub(r"[^a-z]", "", re.split(r"[#/:]", term)[-1].lower())


def graph_fields(triples: Iterable[tuple], single: set[str], multi: frozenset[str] = frozenset()):
    """The names (labels) and identifiers of a graph's nodes, and for each node the value of each
    property of ``single`` and the values of each of ``multi``, by the property's lower-case
    local name, from (subject, predicate, object) terms as :mod:`kg.eval.score` reads them."""
    names: dict[str, set[str]] = defaultdict(set)
    identifiers: dict[str, str] = {}
    one: dict[str, dict[str, str]] = defaultdict(dict)
    many: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for (_, s), (_, p), (okind, o) in triples:
        local = _local(p)
        if local in NAME_PROPERTIES and okind == "literal":
            names[s].add(o)
        elif local == "identifier" and okind == "literal":
            identifiers[s] = o
        if local in single:
            one[s][local] = o
        elif local in multi:
            many[s][local].append(o)
    return names, identifiers, one, many


def graph_assertions(triples: Iterable[tuple]) -> tuple[dict[str, set[str]], list[dict]]:
    """Entity names and assertions of a graph given as (subject, predicate, object) terms, each a
    (kind, value) pair as :mod:`kg.eval.score` reads them."""
    names, identifiers, statements, _ = graph_fields(triples, {
        "subject", "predicate", "object", "startoffset", "endoffset", "wasderivedfrom", "confidence", "rule"})
    needed = {"subject", "predicate", "object", "startoffset", "endoffset", "wasderivedfrom"}
    out = []
    for fields in statements.values():
        if needed <= fields.keys():
            doc = identifiers.get(fields["wasderivedfrom"], fields["wasderivedfrom"])
            out.append({"doc": Path(doc).stem if doc.endswith((".txt", ".md")) else doc,
                        "relation": _local(fields["predicate"]), "s": fields["subject"], "o": fields["object"],
                        "span": (int(fields["startoffset"]), int(fields["endoffset"])),
                        "confidence": float(fields.get("confidence", 1)), "rule": fields.get("rule", "")})
    return names, out


def _prf(found: int, gold: int, right: int, predicted: int) -> dict[str, float]:
    r = found / gold if gold else 0.0
    p = right / predicted if predicted else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0}


def evaluate(triples: Iterable[tuple], gold: Gold) -> Report:
    """Score a graph on re3d (see the module docstring), its relations and its entities."""
    from .entities import score_re3d

    triples = list(triples)
    names, assertions = graph_assertions(triples)
    relations = {v[0].lower() for v in MAPPING.values()}
    predicted = [a for a in assertions if a["relation"] in relations and a["doc"] in gold.documents]
    by_doc: dict[str, list[int]] = defaultdict(list)
    for i, a in enumerate(predicted):
        by_doc[a["doc"]].append(i)

    def matches(pair: dict, a: dict) -> bool:
        (lo, hi), (s, e) = pair["span"], a["span"]
        if a["relation"] != pair["relation"].lower() or not (s <= lo and hi <= e + 1):
            return False
        sn, on = names.get(a["s"], ()), names.get(a["o"], ())
        return (name_matches(pair["source"], sn) and name_matches(pair["target"], on)) or (
            pair["symmetric"] and name_matches(pair["source"], on) and name_matches(pair["target"], sn))

    counts: dict[str, Counter] = defaultdict(Counter)
    correct: set[int] = set()
    missed = []
    for item in gold.items:
        kind = "named" if item["named"] else "other"
        counts[item["relation"]][f"gold_{kind}"] += 1
        hits = [i for i in by_doc[item["doc"]] if matches(item, predicted[i])]
        if hits:
            counts[item["relation"]][f"found_{kind}"] += 1
            correct.update(hits)
        elif item["named"]:
            text = gold.documents[item["doc"]]["text"][max(0, item["span"][0] - 40):item["span"][1] + 40]
            missed.append(f"{item['type']}: {item['source']} -> {item['target']}  [{' '.join(text.split())}]")
    support: dict[str, list[dict]] = defaultdict(list)
    for pair in gold.support:
        support[pair["doc"]].append(pair)
    not_in_gold = []
    for i, a in enumerate(predicted):
        counts[_relation_name(a["relation"])]["predicted"] += 1
        if i in correct or _titled(a, gold, names) or any(matches(p, a) for p in support[a["doc"]]):
            correct.add(i)
            counts[_relation_name(a["relation"])]["correct"] += 1
        else:
            label = lambda node: sorted(names.get(node, {node}), key=len)[-1]  # noqa: E731
            text = gold.documents[a["doc"]]["text"][a["span"][0]:a["span"][1]]
            not_in_gold.append(f"{a['relation']}: {label(a['s'])} -> {label(a['o'])}  [{' '.join(text.split())[:200]}]")
    total = Counter()
    for c in counts.values():
        total.update(c)
    bands = []
    for floor in BANDS:
        chosen = [i for i, a in enumerate(predicted) if a["confidence"] >= floor]
        bands.append({"min_confidence": floor, "assertions": len(chosen),
                      "precision": round(sum(1 for i in chosen if i in correct) / len(chosen), 3) if chosen else None})
    by_rule: dict[str, Counter] = defaultdict(Counter)
    for i, a in enumerate(predicted):
        by_rule[a["rule"]]["predicted"] += 1
        by_rule[a["rule"]]["correct"] += i in correct
    entity_names = [{norm(n) for n in ns} for ns in names.values()]
    merged = sum(1 for _d, a, b in gold.synonyms if any(a in ns and b in ns for ns in entity_names))
    return Report(
        documents=len(gold.documents), gold_named=total["gold_named"], gold_all=total["gold_named"] + total["gold_other"],
        predicted=len(predicted), correct=total["correct"],
        named=_prf(total["found_named"], total["gold_named"], total["correct"], len(predicted)),
        all=_prf(total["found_named"] + total["found_other"], total["gold_named"] + total["gold_other"],
                 total["correct"], len(predicted)),
        per_relation={r: {**dict(c), **_prf(c["found_named"], c["gold_named"], c["correct"], c["predicted"])}
                      for r, c in sorted(counts.items())},
        bands=bands, by_rule={r: dict(c) for r, c in sorted(by_rule.items())}, alias_pairs=len(gold.synonyms), alias_merged=merged, missed=missed, not_in_gold=not_in_gold,
        entities=score_re3d(triples, gold))


def _relation_name(local: str) -> str:
    return next((v[0] for v in MAPPING.values() if v[0].lower() == local), local)


def _titled(a: dict, gold: Gold, names: dict[str, set[str]]) -> bool:
    """re3d writes "Gen. X, commander of Y" as X IsSynonymOf "commander of Y": a leaderOf or memberOf
    Y such a pair states is correct (though not a gold item to find)."""
    if a["relation"] not in ("leaderof", "memberof"):
        return False
    subject, obj = names.get(a["s"], ()), names.get(a["o"], ())
    for doc, x, y, lo, hi in gold.titles:
        if doc != a["doc"] or not (a["span"][0] <= lo and hi <= a["span"][1] + 1):
            continue
        for person, title in ((x, y), (y, x)):
            if is_name(person) and name_matches(person, subject) and any(
                    norm(n) and f" {norm(n)} " in f" {norm(title)} " for n in obj):
                return True
    return False


def write_texts(folder: str | Path, out: str | Path, sources: Iterable[str] | None = None) -> int:
    """The documents of the re3d sources as kg JSONL; how many were written."""
    gold = load_gold(folder, sources)
    with open(out, "w", encoding="utf-8") as f:
        for doc_id, d in sorted(gold.documents.items()):
            f.write(json.dumps({"id": doc_id, "text": d["text"], "title": d.get("title"), "source": d.get("sourceName"),
                                "url": d.get("sourceUrl")}, ensure_ascii=False) + "\n")
    return len(gold.documents)


def main(argv: list[str]) -> int:
    """``python -m kg.eval.re3d texts FOLDER OUT.jsonl [SOURCE ...]``."""
    return texts_command(argv, lambda folder, out, *sources: write_texts(folder, out, sources or None), main.__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
