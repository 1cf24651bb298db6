"""Events: the event statements of every document merged, across documents, into one sem:Event
per event, in the events graph. Computed from what the document graphs hold, after each build and
each removal, as the entity graph is (:mod:`kg.derive.entities`); the same for every store.

Two statements tell one event when they have the same type, share a participant, and neither
their roles nor their times disagree (ontology/events.toml, ``[merge]``):

* each role (agent, patient, theme) of one either is missing from the other or shares an entity
  with it; each place role (origin, destination, location) either is missing or names the same
  place or one inside the other (``kg:locatedIn``: Al-Bukamal lies in eastern Syria);
* their times overlap ("in 2014" and "in August 2014"); a statement without a time of its own is
  timed by its document's date, and an event happens by the time it is reported: it agrees with
  earlier times of its own document, with times of another document that end at most
  ``undated_days`` before its date, and with another undated statement whose document is at most
  ``undated_pair_days`` apart.

Statements are taken in a fixed order (dated before undated, the most precise first, then by
document and offset) and each joins the first event it agrees with, else starts one. The order
depends only on what the documents say, never on which was built first, and so do the IRIs: an
event's is derived from the statement that started it. Each event of several statements carries
a kg:EventMerge record (the rule, the statements, the documents), and since the events graph is
recomputed from the statements, a merge goes when a source is removed.

Only the events that share a participant with what changed are recomputed: a statement can
only join an event with which it shares an entity, so the statements reachable from the changed
entities through shared (type, entity) pairs are a whole part of the graph, merged the same way
as in a full recomputation. Where a few actors take part in most events (as in a war's news),
that part is most of the graph, and an incremental refresh costs about what a full one does.
"""

from __future__ import annotations

import functools
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from sys import intern

import pyoxigraph as ox

from ..dates import DATE, YEAR, YEAR_MONTH, DateError, ParsedDate, parse_date
from ..extract.eventrules import EventRules, load_rules
from ..extract.timex import bounds
from ..ontology import KG_NS, event_types, role_types
from ..rdf import TYPE, N, literal, role_node, role_triples
from ..sparql.values import values
from ..store.protocol import chunked
from ..namespaces import EVENT_GRAPH, KG, SEM, event_iri, in_documents, merge_iri
from . import curations

BLOCK = 1000  # terms per VALUES block
WHOLE = 0.5  # an incremental refresh that reaches more than this share of the statements merges them all
PROV_DERIVED = "http://www.w3.org/ns/prov#wasDerivedFrom"
_PRECISION = {DATE: 0, YEAR_MONTH: 1, YEAR: 2}
_XSD = "http://www.w3.org/2001/XMLSchema#"


@dataclass(slots=True)
class Statement:
    """One document's statement of an event, as the merge reads it back from the store."""

    iri: str
    type: str
    document: str
    start: int
    # role -> its entities, and role -> the words of a participant no entity names: tuples in plain
    # dicts, each made when first needed (a set in a defaultdict each cost 1,200 bytes a statement,
    # and the merge holds every statement of a type: 40 MB of the 10,000-article refresh)
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    descriptions: dict[str, tuple[str, ...]] | None = None
    time: ParsedDate | None = None
    undated: bool = False  # timed by its document's date
    time_text: str = ""
    days: tuple[date, date] | None = None  # the first and last day its time allows, once asked for

    @property
    def span(self) -> tuple[date, date] | None:
        if self.days is None and self.time is not None:
            self.days = _bounds(self.time)
        return self.days

    @property
    def reported(self) -> date:
        """The last day an undated statement's document may have been written: the event happened by then."""
        return self.span[1]

    def entities(self) -> set[str]:
        return {e for es in self.roles.values() for e in es}

    def timed(self, time: str, undated: str | None, text: str | None) -> None:
        """Its time (a lexical date), whether it is its document's date ("true"), and its words."""
        self.time = _time(time)
        self.undated = undated == "true"
        self.time_text = intern(text) if text is not None else ""

    def add(self, role: str, entity: str | None, words: str | None) -> None:
        """A participant in ``role``: an entity, or words that name none (or both)."""
        if entity is not None:
            _add(self.roles, role, intern(entity))
        if words is not None:
            if self.descriptions is None:
                self.descriptions = {}
            _add(self.descriptions, role, words)

    def order(self) -> tuple:
        precision = _PRECISION.get(self.time.precision, 3) if self.time is not None else 4
        return (self.undated or self.time is None, precision, self.document, self.start, self.iri)


@dataclass(slots=True, eq=False)
class Cluster:
    """An event being merged: its statements, the union of their roles, the days every dated
    statement allows, the documents of those, and the (document, date) of undated ones. Compared
    by identity: two clusters are two events, whatever they hold."""

    statements: list[Statement] = field(default_factory=list)
    # the first statement's own roles until a second joins (most events are told once): then sets
    roles: dict[str, tuple[str, ...] | set[str]] = field(default_factory=dict)
    dated: tuple[date, date] | None = None
    # made when a statement needs them: most events are told once, and an empty set and list
    # cost each of them 300 bytes
    dated_documents: set[str] | None = None
    undated: list[tuple[str, date]] | None = None  # (document, the day it reports by)

    def agrees(self, s: Statement, places: set[str], inside: dict[str, set[str]], rules: EventRules) -> bool:
        """Whether ``s`` can tell this event: no role and no time disagrees."""
        for role, mine in s.roles.items():
            theirs = self.roles.get(role)
            if not theirs or not mine:
                continue
            if role in places:
                if not any(a == b or b in inside.get(a, ()) or a in inside.get(b, ()) for a in mine for b in theirs):
                    return False
            elif not any(e in theirs for e in mine):
                return False
        return s.time is None or (self._undated_agrees(s, rules) if s.undated else self._dated_agrees(s, rules))

    def _dated_agrees(self, s: Statement, rules: EventRules) -> bool:
        begin, end = s.span
        if self.dated is not None and (begin > self.dated[1] or end < self.dated[0]):
            return False
        reported = timedelta(days=rules.undated_days)
        return all(begin <= day and (document == s.document or end >= day - reported)
                   for document, day in self.undated or ())

    def _undated_agrees(self, s: Statement, rules: EventRules) -> bool:
        day = s.reported
        if self.dated is not None:
            begin, end = self.dated
            if begin > day or (s.document not in (self.dated_documents or ())
                               and end < day - timedelta(days=rules.undated_days)):
                return False
        return all(abs((day - other).days) <= rules.undated_pair_days
                   for document, other in self.undated or () if document != s.document)

    def join(self, s: Statement) -> None:
        if not self.statements:
            self.roles = s.roles  # read, never changed, until a second statement joins
        else:
            if len(self.statements) == 1:
                self.roles = {role: set(entities) for role, entities in self.roles.items()}
            for role, entities in s.roles.items():
                self.roles.setdefault(role, set()).update(entities)
        self.statements.append(s)
        if s.time is None:
            return
        if s.undated:
            if self.undated is None:
                self.undated = []
            self.undated.append((s.document, s.reported))
            return
        begin, end = s.span
        self.dated = (begin, end) if self.dated is None else (max(begin, self.dated[0]), min(end, self.dated[1]))
        if self.dated_documents is None:
            self.dated_documents = set()
        self.dated_documents.add(s.document)


def event_quads(store, entities: Iterable[str] | None) -> tuple[Iterator[list[ox.Quad]], set[str] | None]:
    """Quads of the events graph for the events that involve ``entities`` (IRIs), or for all
    events, a list per event (the event, its roles, its merge record); and the IRIs of the events
    graph's subjects they replace, or None where they replace the whole graph: for all, and where
    the statements the entities reach are more than :data:`WHOLE` of them (finding that part and
    the events it replaces then costs more than merging everything: measured on 2,000 bench
    articles, 9 s to find the 12,139 of 15,781 statements that the entities of 20 documents
    reach, where all of them merge in 5 s). The events come one event type at a time
    (statements of two types never merge), so only one type's statements are held in memory, and
    none of the quads: write them as they come."""
    rules = load_rules()
    places = place_roles()
    inside = _containers(store)
    curated = curations.overlay(store)  # roles name the entities as curated (kg.derive.curations)
    if entities is not None:
        seeds = curated.closure(entities)
        seeds |= curated.sources(seeds)
        reached = _component(store, seeds, most=int(WHOLE * statement_count(store)))
        if reached is not None:
            iris, pairs = reached
            return _merged(store, iris, places, inside, rules, curated), _stale(store, seeds, pairs)
    return _merged(store, None, places, inside, rules, curated), None


def statement_count(store) -> int:
    rows = store.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?st a kg:EventStatement } }", union=False)
    return int(next(iter(rows))["n"].value)


def merged_types() -> list[str]:
    """The event classes whose statements merge, each apart (statements of two never merge), in
    the order the events graph is written."""
    return sorted({e.name for e in event_types().values()})


def place_roles() -> set[str]:
    """The roles that name a place (compared by containment, not identity, in a merge)."""
    return {name for name, r in role_types().items() if r.property == "hasPlace"}


def _merged(store, iris: set[str] | None, places: set[str], inside: dict[str, set[str]],
            rules: EventRules, curated: curations.Overlay) -> Iterator[list[ox.Quad]]:
    for type_ in merged_types():
        yield from _merged_type(store, iris, type_, places, inside, rules, curated)


def _merged_type(store, iris: set[str] | None, type_: str, places: set[str], inside: dict[str, set[str]],
                 rules: EventRules, curated: curations.Overlay) -> Iterator[list[ox.Quad]]:
    """The events of one type (statements of two types never merge). What the merge holds is let
    go as its events are written, and all of it before the next type is read: the peak is that
    of the largest type, not of two."""
    return merge(_statements(store, iris, type_, curated), places, inside, rules)


def merge(statements: list[Statement], places: set[str], inside: dict[str, set[str]],
          rules: EventRules) -> Iterator[list[ox.Quad]]:
    """The events of ``statements`` (of one type), each joining the first event it agrees with
    in their fixed order (:meth:`Statement.order`), as a list of quads each."""
    clusters: list[Cluster | None] = []  # in the order they started: that of their first statements
    by_entity: dict[str, set[int]] = defaultdict(set)  # entity -> the clusters (indexes) it is in
    # (role, entity) -> the clusters with the entity in that role; role -> the clusters with any
    by_role: dict[tuple[str, str], set[int]] = defaultdict(set)
    with_role: dict[str, set[int]] = defaultdict(set)
    for statement in sorted(statements, key=Statement.order):
        entities = statement.entities()
        candidates = {i for e in entities for i in by_entity[e]}
        for role, mine in statement.roles.items():
            # a cluster disagrees that names others in a role the statement names (Cluster.agrees):
            # left out by set operations before agrees() looks at the rest (with popular actors a
            # statement shares an entity with hundreds of events: 3.9 million calls for the
            # 39,647 attacks of 10,000 bench articles)
            if mine and role not in places and candidates:
                candidates = (candidates - with_role[role]).union(*(candidates & by_role[(role, e)] for e in mine))
        index = next((i for i in sorted(candidates) if clusters[i].agrees(statement, places, inside, rules)), None)
        if index is None:
            index = len(clusters)
            clusters.append(Cluster())
        clusters[index].join(statement)
        for e in entities:
            by_entity[e].add(index)
        for role, mine in statement.roles.items():
            if mine:
                with_role[role].add(index)
                for e in mine:
                    by_role[(role, e)].add(index)
    del by_entity, by_role, with_role
    for index, cluster in enumerate(clusters):
        clusters[index] = None
        yield _event_quads(cluster, rules)


# ------------------------------------------------------------------ reading the statements

# the optional parts outside the GRAPH block, joined on the ?g it binds: Oxigraph then looks each
# of them up by (graph, subject, predicate), where inside the block it evaluates them across every
# graph first (measured: 0.47 s against 0.66-0.99 s for the 3,100 statements of 400 articles)
_STATEMENTS = """SELECT ?st ?doc ?start ?role ?value ?words ?time ?undated ?text WHERE { %s
  GRAPH ?g { ?st a kg:EventStatement ; kg:eventType ?type ; prov:wasDerivedFrom ?doc ; kg:startOffset ?start ;
             kg:role ?r . ?r sem:roleType ?role }
  OPTIONAL { GRAPH ?g { ?r rdf:value ?value } } OPTIONAL { GRAPH ?g { ?r kg:description ?words } }
  OPTIONAL { GRAPH ?g { ?st kg:time ?time } } OPTIONAL { GRAPH ?g { ?st kg:timeFromDocument ?undated } }
  OPTIONAL { GRAPH ?g { ?st kg:timeText ?text } } }"""


def _statements(store, iris: set[str] | None, type_: str, curated: curations.Overlay | None = None
                ) -> list[Statement]:
    """The event statements of event class ``type_`` among ``iris`` (all if None), with their
    roles and times. More than a block of them are read as the whole type, the others left out
    here: Oxigraph joins a ``VALUES`` of statements after matching the type's statements, so a
    block of 1,000 cost what the whole type does (measured: 1.6 s against 1.4 s for the 6,664
    attacks of 2,000 articles), and a component of many blocks cost that many times as much."""
    out: dict[str, Statement] = {}
    of_type = f"VALUES ?type {{ <{KG_NS}{type_}> }}"
    few = iris is not None and len(iris) <= BLOCK
    block = of_type + values("st", sorted(iris)) if few else of_type
    type_name = intern(type_)
    for st, doc, start, role, value, words, time, undated, text in store.query(_STATEMENTS % block, union=False):
        iri = st.value
        if iris is not None and not few and iri not in iris:
            continue
        s = out.get(iri)
        if s is None:  # names shared by many statements (types, documents, roles, entities) held once
            s = out[iri] = Statement(iri, type_name, intern(doc.value), int(start.value))
            if time is not None:
                s.timed(time.value, _lexical(undated), _lexical(text))
        entity = _lexical(value)
        if entity is not None and curated is not None and not curated.empty:  # the entity as curated
            entity = curated.final(entity, curations.document_of(doc.value))
        s.add(intern(role.value[len(KG_NS):]), entity, _lexical(words))
    return list(out.values())


def _lexical(term) -> str | None:
    """An optional binding's value, None where it is unbound."""
    return None if term is None else term.value


def _add(found: dict[str, tuple[str, ...]], role: str, value: str) -> None:
    held = found.get(role, ())
    if value not in held:
        found[role] = (*held, value)


# a time, and its days, made once per distinct value: statements share their documents' dates
@functools.lru_cache(maxsize=4096)
def _time(value: str) -> ParsedDate | None:
    try:
        return parse_date(value)
    except DateError:
        return None


_bounds = functools.lru_cache(maxsize=4096)(bounds)


def _component(store, seeds: set[str], most: int) -> tuple[set[str], set[tuple[str, str]]] | None:
    """The statements reachable from entities ``seeds`` through shared (type, entity) pairs, and
    those pairs (IRIs of the event class and the entity); None once they are more than ``most``.

    Each step asks for the statements of the entities it reached (any type for a seed, the pair's
    type for an entity reached through a pair, see :func:`_involving`) and then for every
    (type, entity) of the new statements."""
    pairs: set[tuple[str, str]] = set()
    found: set[str] = set()
    any_type, by_pair = set(seeds), set()
    while any_type or by_pair:
        new = _involving(store, "GRAPH ?g { ?r rdf:value ?value . ?x kg:role ?r ; kg:eventType ?type }",
                         any_type, by_pair) - found
        found |= new
        if len(found) > most:
            return None
        any_type, by_pair = set(), set()
        for chunk in _chunks(sorted(new)):
            for row in store.query("SELECT DISTINCT ?type ?value WHERE { " + values("st", chunk) +
                                   " GRAPH ?g { ?st kg:eventType ?type ; kg:role/rdf:value ?value } }", union=False):
                pair = (row["type"].value, row["value"].value)
                if pair not in pairs:
                    pairs.add(pair)
                    by_pair.add(pair)
    return found, pairs


def _involving(store, pattern: str, entities: set[str], pairs: set[tuple[str, str]]) -> set[str]:
    """The ?x of ``pattern`` (a group binding ?x, ?type and an entity ?value) whose ?value is one
    of ``entities``, of any type, or makes with its ?type one of ``pairs``. Looked up by entity and
    the pair's type checked here: a ``VALUES`` of (type, entity) pairs was evaluated by Oxigraph as
    a scan of every statement per block (minutes for the 557 entities of 20 documents in a
    2,000-article store)."""
    found: set[str] = set()
    for chunk in _chunks(sorted(entities | {value for _, value in pairs})):
        for x, type_, value in store.query(f"SELECT DISTINCT ?x ?type ?value WHERE {{ {values('value', chunk)} "
                                           f"{pattern} }}", union=False):
            if value.value in entities or (type_.value, value.value) in pairs:
                found.add(x.value)
    return found


def _stale(store, seeds: set[str], pairs: set[tuple[str, str]]) -> set[str]:
    """Subjects of the events graph (events, their roles, their merge records) of the events that
    involve an entity of ``seeds`` or a (type, entity) of ``pairs``: they are recomputed."""
    events = _involving(store, f"GRAPH <{EVENT_GRAPH}> {{ ?r rdf:value ?value . ?x sem:hasActor|sem:hasPlace ?r ; "
                               "a ?type }", seeds, pairs)
    out = set(events)
    for chunk in _chunks(sorted(events)):
        for row in store.query(f"SELECT ?x WHERE {{ {values('event', chunk)} GRAPH <{EVENT_GRAPH}> {{ "
                               "{ ?event sem:hasActor|sem:hasPlace ?x } UNION { ?x kg:mergedInto ?event } } }",
                               union=False):
            out.add(row["x"].value)
    return out


def _containers(store) -> dict[str, set[str]]:
    """Place -> every place the documents say it lies in (kg:locatedIn, transitively). Read from
    the documents' graphs alone, not from the entity graph, which holds the same facts once
    refreshed: the merge then needs nothing the label refresh writes, and can run beside it."""
    direct: dict[str, set[str]] = defaultdict(set)
    rows = store.query(f"""SELECT DISTINCT ?a ?b WHERE {{ GRAPH ?g {{ ?a kg:locatedIn ?b }}
                           FILTER({in_documents("g")}) }}""", union=False)
    for row in rows:
        direct[row["a"].value].add(row["b"].value)
    return containers(direct)


def containers(direct: dict[str, set[str]]) -> dict[str, set[str]]:
    """Place -> every place it lies in, from place -> the places it lies in directly."""
    out: dict[str, set[str]] = {}

    def up(place: str, seen: frozenset[str]) -> set[str]:
        if place in out:
            return out[place]
        found = set()
        for parent in direct.get(place, ()):
            if parent not in seen:
                found |= {parent} | up(parent, seen | {place})
        out[place] = found
        return found

    for place in list(direct):
        up(place, frozenset())
    return out


def _chunks(items: list) -> list[list]:
    return list(chunked(items, BLOCK))


# ------------------------------------------------------------------ writing the events

def _event_quads(cluster: Cluster, rules: EventRules) -> list[ox.Quad]:
    first = cluster.statements[0]
    digest = hashlib.sha256(first.iri.encode()).hexdigest()[:16]
    node = N(event_iri(first.type, digest))
    graph = N(EVENT_GRAPH)
    roles = role_types()
    triples = [(node, TYPE, N(SEM.Event)), (node, TYPE, ox.NamedNode(KG_NS + first.type))]
    descriptions: dict[str, set[str]] = defaultdict(set)
    for s in cluster.statements:
        for role, words in (s.descriptions or {}).items():
            descriptions[role].update(words)
    members = [(role, e, None) for role, es in cluster.roles.items() for e in es]
    members += [(role, None, w) for role, ws in descriptions.items() if not cluster.roles.get(role) for w in ws]
    for role, entity, words in sorted(members, key=lambda m: (m[0], m[1] or "", m[2] or "")):
        key = entity.rsplit("/", 1)[-1] if entity else None
        member = role_node(node.value, role, key, words)
        triples.append((node, N(SEM[roles[role].property]), member))
        triples.extend(role_triples(member, role, key, words))
    triples.extend(_times(node, cluster))
    documents = sorted({s.document for s in cluster.statements})
    for s in sorted(cluster.statements, key=lambda s: s.iri):
        triples.append((node, N(KG.statement), ox.NamedNode(s.iri)))
    for document in documents:
        triples.append((node, N(PROV_DERIVED), ox.NamedNode(document)))
    if len(cluster.statements) > 1:
        merge = N(merge_iri(f"{first.type.lower()}-{digest}", "event"))
        triples += [(merge, TYPE, N(KG.EventMerge)), (merge, N(KG.mergedInto), node),
                    (merge, N(KG.mergeRule), ox.Literal(rules.merge_rule))]
        triples += [(merge, N(KG.mergedStatement), ox.NamedNode(s.iri)) for s in cluster.statements]
        triples += [(merge, N(PROV_DERIVED), ox.NamedNode(d)) for d in documents]
    return list(dict.fromkeys(ox.Quad(s, p, o, graph) for s, p, o in triples))  # each once, as the store holds them


def _times(node, cluster: Cluster) -> list[tuple]:
    """sem:hasTimeStamp at the most precise stated time (the dated statements' common days bound
    it), else the earliest date of the documents that report it, marked kg:timeFromDocument."""
    dated = [s for s in cluster.statements if s.time is not None and not s.undated]
    out = []
    if dated:
        best = min(dated, key=Statement.order)
        begin, end = cluster.dated
        out.append((node, N(SEM.hasTimeStamp), literal(best.time.lexical, _XSD + best.time.xsd)))
        out.append((node, N(SEM.hasEarliestBeginTimeStamp), literal(begin.isoformat(), _XSD + "date")))
        out.append((node, N(SEM.hasLatestEndTimeStamp), literal(end.isoformat(), _XSD + "date")))
        if best.time_text:
            out.append((node, N(KG.timeText), ox.Literal(best.time_text)))
    else:
        undated = [s for s in cluster.statements if s.time is not None]
        if undated:
            first = min(undated, key=lambda s: (s.reported, s.order()))
            out.append((node, N(SEM.hasTimeStamp), literal(first.time.lexical, _XSD + first.time.xsd)))
            out.append((node, N(SEM.hasLatestEndTimeStamp), literal(first.reported.isoformat(), _XSD + "date")))
            out.append((node, N(KG.timeFromDocument), ox.Literal(True)))
    return out
