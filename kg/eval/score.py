"""Score a graph against gold annotations: ``kg eval GOLD_DIR``.

The gold format (``entities.tsv``, ``relations.tsv``, optional ``docs.txt``) is described in
docs/eval.md. Matching follows the reference scorer (../shared/eval/score.py) exactly, so the two
agree on the same graph: namespaces are ignored, predicates match by local name, graph nodes map
to gold entities through their labels (canonical labels first, then alternative labels), allyOf
and ceasefireWith match in either direction, a fact matches the first required row that fits,
else a forbidden row (a false positive reported by name), else an optional row (not counted).

On top of the reference figures kg reports precision, recall and F1 per relation, lists
entity splits (one gold entity, several nodes) and merges (one node whose labels name several
gold entities), scores the gold entities (found, typed right: :mod:`kg.eval.entities`), and
scores events where the gold has them (``events.tsv``, see :mod:`kg.eval.eventscore`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..errors import UsageError
from .entities import score_gold

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDF_SUBJECT = "http://www.w3.org/1999/02/22-rdf-syntax-ns#subject"
RDF_PREDICATE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate"
RDF_OBJECT = "http://www.w3.org/1999/02/22-rdf-syntax-ns#object"
LABEL_NAMES = {"label", "preflabel", "altlabel", "hiddenlabel", "name", "alias", "alternatename"}
CANONICAL_NAMES = {"label", "preflabel", "name"}
SOURCE_NAMES = {"wasderivedfrom", "source", "hadprimarysource", "document", "fromdocument", "extractedfrom",
                "insource"}
EVIDENCE_NAMES = {"evidence", "sentence", "text", "quote", "evidencetext", "snippet", "exact", "context"}

# A term is ("iri", value), ("blank", value) or ("literal", value).


@cache
def symmetric() -> frozenset[str]:
    """The symmetric relations of ontology/kg.ttl, as the scorer writes predicates (see :func:`local`)."""
    from ..ontology import symmetric_relations

    return frozenset(local(name) for name in symmetric_relations())
Term = tuple[str, str]


def local(term: str) -> str:
    s = re.split(r"[#/:]", term)[-1]
    return re.sub(r"[^a-z]", "", s.lower())


def norm(label: str) -> str:
    s = unicodedata.normalize("NFKD", label)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = s.replace("\u2019", "'").replace("\u2018", "'").lower().strip()
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"[^a-z0-9 ]+", " ", s)
    s = re.sub(r"\s+", " ", s).strip()
    return re.sub(r"^the ", "", s)


@dataclass
class GoldRelation:
    status: str
    subjects: frozenset[str]
    predicates: frozenset[str]
    objects: frozenset[str]
    docs: tuple[str, ...]
    text: str
    evidence: str

    def matches(self, s: str, p: str, o: str) -> bool:
        if p not in self.predicates:
            return False

        def ok(gold, x):
            return "*" in gold or x in gold

        return (ok(self.subjects, s) and ok(self.objects, o)) or (
            p in symmetric() and ok(self.subjects, o) and ok(self.objects, s))


@dataclass
class Gold:
    alias_to_ids: dict[str, set[str]]
    ids: set[str]
    relations: list[GoldRelation]
    docs: list[str] = field(default_factory=list)
    events: list | None = None  # kg.eval.eventscore.GoldEvent rows of events.tsv, if the gold has them
    classes: dict[str, str] = field(default_factory=dict)  # gold id -> class, as entities.tsv writes it
    aliases: dict[str, list[str]] = field(default_factory=dict)  # gold id -> its aliases


def _rows(path: Path, columns: int) -> Iterable[tuple[int, list[str]]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) < columns:
            raise UsageError(f"{path}:{number}: expected {columns} tab-separated columns, found {len(parts)}",
                             hint="see docs/eval.md for the gold format")
        yield number, parts


def load_gold(gold_dir: str | Path) -> Gold:
    root = Path(gold_dir)
    for name in ("entities.tsv", "relations.tsv"):
        if not (root / name).is_file():
            raise UsageError(f"{root}: no {name} in the gold folder", hint="see docs/eval.md for the gold format")
    alias_to_ids: dict[str, set[str]] = defaultdict(set)
    ids: set[str] = set()
    classes: dict[str, str] = {}
    names: dict[str, list[str]] = defaultdict(list)
    for _, (gid, cls, aliases, *_) in _rows(root / "entities.tsv", 3):
        ids.add(gid)
        classes[gid] = cls.strip()
        names[gid] += aliases.split("|")
        for alias in aliases.split("|"):
            alias_to_ids[norm(alias)].add(gid)
    relations = []
    for number, parts in _rows(root / "relations.tsv", 5):
        status, s, p, o, docs = parts[:5]
        if status not in ("required", "optional", "forbidden"):
            raise UsageError(f"{root / 'relations.tsv'}:{number}: unknown status {status!r}",
                             hint="use required, optional or forbidden")
        relations.append(GoldRelation(
            status=status, subjects=frozenset(s.split("|")), predicates=frozenset(local(x) for x in p.split("|")),
            objects=frozenset(o.split("|")), docs=tuple(docs.split(",")), text=f"{s} {p} {o}",
            evidence=parts[5] if len(parts) > 5 else ""))
    docs_file = root / "docs.txt"
    docs = [line.strip() for line in docs_file.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")] if docs_file.is_file() else []
    events = None
    if (root / "events.tsv").is_file():
        from .eventscore import load_events

        events = load_events(root / "events.tsv")
    return Gold(alias_to_ids, ids, relations, docs, events, classes, dict(names))


@dataclass
class Report:
    triples: int
    predicted: int
    true_positives: int
    required: int
    precision: float
    recall: float
    f1: float
    per_relation: dict[str, dict[str, float]]
    missed: list[str]
    false_positives: list[str]
    forbidden_hits: list[str]
    optional_found: list[str]
    provenance_coverage: float
    doc_coverage: str
    splits: dict[str, int]
    merges: list[str]
    events: dict | None = None  # see kg.eval.eventscore.score_events; None without gold events
    entities: dict | None = None  # see kg.eval.entities.score_gold

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


class _Nodes:
    """Graph nodes mapped to gold ids through their labels (canonical labels first)."""

    def __init__(self, by_subject: dict[Term, list[tuple[str, Term]]], gold: Gold) -> None:
        self.by_subject, self.gold = by_subject, gold
        self._labels: dict[Term, tuple[list[str], list[str]]] = {}
        self.mapped: dict[Term, str] = {}

    def labels(self, node: Term) -> tuple[list[str], list[str]]:
        if node not in self._labels:
            canonical, other = [], []
            for p, o in self.by_subject.get(node, ()):
                if o[0] == "literal" and local(p) in LABEL_NAMES:
                    (canonical if local(p) in CANONICAL_NAMES else other).append(o[1])
            self._labels[node] = (canonical, other)
        return self._labels[node]

    def map(self, node: Term) -> str:
        if node not in self.mapped:
            self.mapped[node] = self._map(node)
        return self.mapped[node]

    def _map(self, node: Term) -> str:
        canonical, other = self.labels(node)
        for group in (canonical, other):
            found = set().union(*(self.gold.alias_to_ids.get(norm(x), set()) for x in group)) if group else set()
            if len(found) == 1:
                return next(iter(found))
            if len(found) > 1:
                return "AMBIGUOUS(" + "+".join(sorted(found)) + ")"
        names = canonical or other
        return "UNMAPPED(" + (names[0] if names else node[1][-40:]) + ")"


@dataclass
class _Matches:
    """Each distinct mapped triple matched to the first required, else forbidden, else optional row."""

    tp_rows: set[int] = field(default_factory=set)
    false_pos: list[tuple[str, str, str]] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    optional: list[tuple[str, str, str]] = field(default_factory=list)
    fp_by_relation: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def _match(predicted, rels: list[GoldRelation]) -> _Matches:
    out = _Matches()
    for key in predicted:
        ms, lp, mo = key
        hit = None
        for status in ("required", "forbidden", "optional"):
            hit = next(((status, i) for i, r in enumerate(rels) if r.status == status and r.matches(ms, lp, mo)), None)
            if hit:
                break
        if hit is None or hit[0] == "forbidden":
            out.false_pos.append(key)
            out.fp_by_relation[lp] += 1
            if hit:
                out.forbidden.append(f"{ms} {lp} {mo}  # {rels[hit[1]].evidence}")
        elif hit[0] == "required":
            out.tp_rows.add(hit[1])
        else:
            out.optional.append(key)
    return out


def _per_relation(scored: set[str], rels: list[GoldRelation], required: list[int], m: _Matches) -> dict:
    out = {}
    for name in sorted(scored):
        req = [i for i in required if name in rels[i].predicates]
        hits = sum(1 for i in m.tp_rows if name in rels[i].predicates)
        pred = hits + m.fp_by_relation.get(name, 0)
        p_, r_ = (hits / pred if pred else 0.0), (hits / len(req) if req else 0.0)
        out[name] = {"required": len(req), "found": hits, "predicted": pred,
                     "precision": round(p_, 3), "recall": round(r_, 3), "f1": round(_f1(p_, r_), 3)}
    return out


def _doc_coverage(docs: list[str], rels: list[GoldRelation], m: _Matches, predicted, provenance) -> str:
    """How many of the documents gold says state each found fact its assertions cite."""
    if not docs:
        return "n/a"
    ok = total = 0
    for i in m.tp_rows:
        wanted = [docs[int(d)] for d in rels[i].docs if d.isdigit() and int(d) < len(docs)]
        sources = " ".join(" ".join(src) for key, raws in predicted.items() if rels[i].matches(*key)
                           for raw in raws for src, _ev in provenance.get(raw, []))
        total += len(wanted)
        ok += sum(1 for w in wanted if w in sources)
    return f"{ok}/{total}"


def evaluate(triples: Iterable[tuple[Term, Term, Term]], gold: Gold, docs: list[str] | None = None) -> Report:
    """Score the union of ``triples`` (every graph flattened into one) against ``gold``."""
    flat = set(triples)
    by_subject: dict[Term, list[tuple[str, Term]]] = defaultdict(list)
    for s, p, o in flat:
        by_subject[s].append((p[1], o))
    docs = docs if docs is not None else gold.docs
    rels = gold.relations
    scored = set().union(*(r.predicates for r in rels)) if rels else set()
    nodes = _Nodes(by_subject, gold)
    predicted: dict[tuple[str, str, str], list[tuple]] = defaultdict(list)
    for s, p, o in flat:
        lp = local(p[1])
        if lp in scored and o[0] != "literal" and p[1] != RDF_TYPE:
            predicted[(nodes.map(s), lp, nodes.map(o))].append((s, p, o))
    matches = _match(predicted, rels)
    required = [i for i, r in enumerate(rels) if r.status == "required"]
    tp = len(matches.tp_rows)
    n_pred = tp + len(matches.false_pos)
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / len(required) if required else 0.0
    provenance = _provenance(flat, by_subject)
    with_prov = sum(1 for raws in predicted.values()
                    if any(src and ev for raw in raws for src, ev in provenance.get(raw, [])))
    nodes_per_gold: dict[str, set[Term]] = defaultdict(set)
    for node in {s for s, _, _ in flat}:
        if node[0] != "literal" and any(nodes.labels(node)):
            nodes_per_gold[nodes.map(node)].add(node)
    splits = {gid: len(n) for gid, n in sorted(nodes_per_gold.items()) if len(n) > 1 and gid in gold.ids}
    merges = sorted({gid for gid in nodes.mapped.values() if gid.startswith("AMBIGUOUS")})
    events = _events(by_subject, nodes, gold, docs)
    return Report(
        triples=len(flat), predicted=n_pred, true_positives=tp, required=len(required),
        precision=round(precision, 3), recall=round(recall, 3), f1=round(_f1(precision, recall), 3),
        per_relation=_per_relation(scored, rels, required, matches),
        missed=[rels[i].text for i in required if i not in matches.tp_rows],
        false_positives=[" ".join(t) for t in sorted(matches.false_pos)],
        forbidden_hits=matches.forbidden,
        optional_found=[" ".join(t) for t in sorted(matches.optional)],
        provenance_coverage=round(with_prov / len(predicted), 3) if predicted else 0.0,
        doc_coverage=_doc_coverage(docs, rels, matches, predicted, provenance),
        splits=splits, merges=merges, events=events,
        entities=score_gold(by_subject, nodes, gold, splits, merges),
    )


def _events(by_subject, nodes: _Nodes, gold: Gold, docs: list[str]) -> dict | None:
    if gold.events is None:
        return None
    from .eventscore import graph_events, score_events

    return score_events(graph_events(by_subject, nodes.map), gold.events, docs)


def _provenance(flat, by_subject) -> dict[tuple, list[tuple[list[str], bool]]]:
    """(s, p, o) -> [(source strings, has an evidence literal)] from the reified statements."""
    prov: dict[tuple, list] = defaultdict(list)
    statements = {s for s, p, _ in flat if p[1] == RDF_SUBJECT}
    for st in statements:
        props = by_subject[st]
        parts = {}
        for p, o in props:
            if p in (RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT):
                parts[p] = o
        if len(parts) < 3:
            continue
        sources, evidence = [], False
        for p, o in props:
            if local(p) in SOURCE_NAMES:
                sources.append(" ".join([o[1], *(x[1] for _, x in by_subject.get(o, ()))]))
            if local(p) in EVIDENCE_NAMES and o[0] == "literal" and len(o[1]) > 10:
                evidence = True
        key = (parts[RDF_SUBJECT], ("iri", parts[RDF_PREDICATE][1]), parts[RDF_OBJECT])
        prov[key].append((sources, evidence))
    return prov


def store_triples(store) -> Iterable[tuple[Term, Term, Term]]:
    """The knowledge graph in a kg store, as ``kg export`` writes it."""
    from ..graph.export import triples

    return _terms(triples(store))


def file_triples(path: str) -> Iterable[tuple[Term, Term, Term]]:
    """Every triple of an RDF file, whatever its named graphs (:func:`kg.graph.rdffile.read_triples`)."""
    from ..graph.rdffile import read_triples

    return _terms(read_triples(path))


def _terms(triples: Iterable) -> Iterator[tuple[Term, Term, Term]]:
    for t in triples:
        yield _term(t.subject), _term(t.predicate), _term(t.object)


def _term(t) -> Term:
    import pyoxigraph as ox

    if isinstance(t, ox.NamedNode):
        return ("iri", t.value)
    if isinstance(t, ox.BlankNode):
        return ("blank", t.value)
    return ("literal", t.value)
