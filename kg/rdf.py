"""Extractions -> RDF quads: one named graph per document, holding everything that document says.

A document's graph holds the document node, the entities it mentions (type, surface forms,
merge records), the direct triples it supports and one reified assertion per statement with
its evidence. The union of all document graphs is the knowledge graph; a fact two articles
state is one triple (in both graphs) with two assertions. Canonical labels live in a separate
entity graph computed over all documents (see :mod:`kg.store`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from functools import lru_cache

import pyoxigraph as ox
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

from .namespaces import (
    GEONAMES_IRI,
    KG,
    SEM,
    WGS84,
    assertion_iri,
    document_graph,
    document_iri,
    entity_iri,
    merge_iri,
    statement_iri,
)
from .records import Assertion, DocumentGraph, Entity, Event, Extraction


@lru_cache(maxsize=131072)
def _named(iri: str) -> ox.NamedNode:
    return ox.NamedNode(iri)


def N(term) -> ox.NamedNode:  # noqa: N802  (reads like the rdflib constructor it mirrors)
    """An Oxigraph IRI; the vocabulary's and the entities' IRIs are made once and reused."""
    return _named(str(term))


def literal(value, datatype=None) -> ox.Literal:
    if datatype is not None:
        return ox.Literal(str(value), datatype=N(datatype))
    return ox.Literal(str(value))


def decimal(value: float, places: int) -> ox.Literal:
    """An xsd:decimal in canonical form ("0.75", not "0.750"): the form Oxigraph stores and returns,
    so a document's graph serializes to the same bytes before and after the store."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return ox.Literal("0" if text in ("", "-0") else text, datatype=_DECIMAL)


def integer(value: int) -> ox.Literal:
    return ox.Literal(str(int(value)), datatype=_INTEGER)


_DECIMAL, _INTEGER = N(XSD.decimal), N(XSD.integer)


TYPE = N(RDF.type)
# made once: building a quad list is on every document's path (measured 2.2 ms a document before)
_ENTITY = str(entity_iri(""))
_MENTIONED_IN, _GAZETTEER_ID, _GEONAMES_ID = N(KG.mentionedIn), N(KG.gazetteerId), N(KG.geonamesId)
_SAME_AS, _LAT, _LONG, _SURFACE_FORM = N(OWL.sameAs), N(WGS84.lat), N(WGS84.long), N(KG.surfaceForm)
_INSTITUTION_OF, _PEOPLE_OF = N(KG.institutionOf), N(KG.peopleOf)
_MERGE_CLASS, _MERGED_INTO, _MERGED_FORM, _MERGE_RULE = N(KG.Merge), N(KG.mergedInto), N(KG.mergedForm), N(KG.mergeRule)
_DERIVED_FROM, _ASSERTION, _STATEMENT = N(PROV.wasDerivedFrom), N(KG.Assertion), N(RDF.Statement)
_SUBJECT, _PREDICATE, _OBJECT = N(RDF.subject), N(RDF.predicate), N(RDF.object)
_EVIDENCE, _START, _END, _RULE = N(KG.evidence), N(KG.startOffset), N(KG.endOffset), N(KG.rule)
_CONFIDENCE, _REPORTED_BY = N(KG.confidence), N(KG.reportedBy)
_STATEMENT_CLASS, _EVENT_TYPE, _TRIGGER, _ROLE = N(KG.EventStatement), N(KG.eventType), N(KG.trigger), N(KG.role)
_ROLE_CLASS, _ROLE_TYPE, _VALUE, _DESCRIPTION = N(SEM.Role), N(SEM.roleType), N(RDF.value), N(KG.description)
_TIME, _TIME_TEXT, _TIME_FROM_DOCUMENT, _ASSERTION_OF = N(KG.time), N(KG.timeText), N(KG.timeFromDocument), N(KG.assertion)
_PROV_ENTITY = N(PROV.Entity)
_ONTOLOGY = str(KG._NS)


def extraction_quads(extraction: Extraction) -> list[ox.Quad]:
    """All quads of one document's named graph."""
    return list(_quads(extraction, _triples(extraction)))


def _quads(extraction: Extraction, triples: Iterable[tuple]) -> Iterator[ox.Quad]:
    graph = N(document_graph(extraction.document.id))
    return (ox.Quad(s, p, o, graph) for s, p, o in triples)


def _triples(extraction: Extraction) -> dict[tuple, None]:
    """The distinct triples of one document's graph, in order (a dict: one copy of each, no list
    beside it: a long article's graph is hundreds of thousands of them)."""
    doc = extraction.document
    doc_node = N(document_iri(doc.id))
    triples = dict.fromkeys(_document(doc, doc_node))
    for entity in extraction.entities:
        triples.update(dict.fromkeys(_entity(entity, doc_node)))
    for assertion in extraction.assertions:
        triples.update(dict.fromkeys(_assertion(assertion, doc_node)))
    for event in extraction.events:
        triples.update(dict.fromkeys(_event_statement(event, doc_node)))
    return triples


def nquads(quads: list[ox.Quad]) -> bytes:
    """``quads`` as N-Quads, the form the stores load and the journal keeps."""
    return ox.serialize(quads, format=ox.RdfFormat.N_QUADS) if quads else b""


def serialized(extraction: Extraction) -> DocumentGraph:
    """One document's graph as N-Quads, the form the stores load and the journal keeps."""
    if extraction.error is not None:
        return DocumentGraph(document=extraction.document, nquads=b"", quads=0, assertions=0, entities=(),
                             error=extraction.error)
    triples = _triples(extraction)
    # serialized as they are made: no list of Quad objects beside the triples
    data = ox.serialize(_quads(extraction, triples), format=ox.RdfFormat.N_QUADS)
    return DocumentGraph(document=extraction.document, nquads=data or b"",
                         quads=len(triples), assertions=len(extraction.assertions),
                         entities=tuple(e.key for e in extraction.entities))


def _document(doc, node) -> Iterator[tuple]:
    yield node, TYPE, N(KG.Document)
    yield node, TYPE, N(PROV.Entity)
    yield node, N(DCTERMS.identifier), literal(doc.name)
    yield node, N(KG.contentHash), literal(doc.id)
    if doc.title:
        yield node, N(DCTERMS.title), literal(doc.title)
    if doc.date is not None:  # typed as precisely as it is known: xsd:gYear, gYearMonth, date or dateTime (with its zone)
        yield node, N(DCTERMS.date), literal(doc.date.lexical, XSD[doc.date.xsd])
    if doc.url:
        yield node, N(DCTERMS.source), literal(doc.url, XSD.anyURI)
    if doc.source:
        yield node, N(DCTERMS.publisher), literal(doc.source)
    if doc.path:
        yield node, N(PROV.atLocation), literal(doc.path)


def _entity(entity: Entity, doc_node) -> Iterator[tuple]:
    node = _named(_ENTITY + entity.key)
    yield node, TYPE, _named(_ONTOLOGY + entity.type)
    yield node, _MENTIONED_IN, doc_node
    if entity.gazetteer_id:
        yield node, _GAZETTEER_ID, ox.Literal(entity.gazetteer_id)
    if entity.geonames_id:
        yield node, _GEONAMES_ID, integer(entity.geonames_id)
        yield node, _SAME_AS, ox.NamedNode(GEONAMES_IRI.format(entity.geonames_id))
    if entity.lat is not None and entity.lon is not None:
        yield node, _LAT, decimal(entity.lat, 6)
        yield node, _LONG, decimal(entity.lon, 6)
    for form in sorted(entity.aliases):
        yield node, _SURFACE_FORM, ox.Literal(form)
    if entity.institution_of:
        yield node, _INSTITUTION_OF, _named(_ENTITY + entity.institution_of)
    if entity.people_of:
        yield node, _PEOPLE_OF, _named(_ENTITY + entity.people_of)
    for form, rule in entity.merge_rules:
        digest = hashlib.sha256(f"{form}\x00{rule}".encode()).hexdigest()[:12]
        merge = ox.NamedNode(str(merge_iri(entity.key, digest)))
        yield merge, TYPE, _MERGE_CLASS
        yield merge, _MERGED_INTO, node
        yield merge, _MERGED_FORM, ox.Literal(form)
        yield merge, _MERGE_RULE, ox.Literal(rule)
        yield merge, _DERIVED_FROM, doc_node


def _assertion(a: Assertion, doc_node) -> Iterator[tuple]:
    # relations come from the lexicon (data), so they are looked up in the namespace, not the class
    s, p, o = _named(_ENTITY + a.subject), _named(_ONTOLOGY + a.predicate), _named(_ENTITY + a.object)
    yield s, p, o
    node = _assertion_node(a.doc_id, a.subject, a.predicate, a.object, a.start_char)
    yield node, TYPE, _ASSERTION
    yield node, TYPE, _STATEMENT
    yield node, _SUBJECT, s
    yield node, _PREDICATE, p
    yield node, _OBJECT, o
    yield node, _DERIVED_FROM, doc_node
    yield node, _EVIDENCE, ox.Literal(a.evidence)
    yield node, _START, integer(a.start_char)
    yield node, _END, integer(a.end_char)
    yield node, _RULE, ox.Literal(a.rule)
    yield node, _CONFIDENCE, decimal(a.confidence, 3)
    if a.reported_by:
        yield node, _REPORTED_BY, _named(_ENTITY + a.reported_by)


def _assertion_node(doc_id: str, subject: str, predicate: str, obj: str, start_char: int) -> ox.NamedNode:
    """The assertion of one fact by one sentence (its offset) of one document."""
    digest = hashlib.sha256(f"{subject}\x00{predicate}\x00{obj}\x00{start_char}".encode()).hexdigest()[:16]
    return ox.NamedNode(str(assertion_iri(doc_id, digest)))


def statement_node(event: Event) -> ox.NamedNode:
    """The event statement of one trigger (its type and offset) of one document."""
    digest = hashlib.sha256(f"{event.type}\x00{event.trigger_start}".encode()).hexdigest()[:16]
    return ox.NamedNode(str(statement_iri(event.doc_id, digest)))


def role_node(owner: str, role: str, entity: str | None, description: str | None) -> ox.NamedNode:
    """A participant's sem:Role, named after what it belongs to (a statement or an event), the
    role type and the entity (or a digest of the words of an unnamed place)."""
    what = entity or "d-" + hashlib.sha256((description or "").encode()).hexdigest()[:12]
    return ox.NamedNode(f"{owner}/{role}/{what}")


def role_triples(node: ox.NamedNode, role: str, entity: str | None, description: str | None) -> Iterator[tuple]:
    yield node, TYPE, _ROLE_CLASS
    yield node, _ROLE_TYPE, _named(_ONTOLOGY + role)
    if entity:
        yield node, _VALUE, _named(_ENTITY + entity)
    if description:
        yield node, _DESCRIPTION, ox.Literal(description)


def _event_statement(e: Event, doc_node) -> Iterator[tuple]:
    node = statement_node(e)
    yield node, TYPE, _STATEMENT_CLASS
    yield node, TYPE, _PROV_ENTITY
    yield node, _EVENT_TYPE, _named(_ONTOLOGY + e.type)
    yield node, _TRIGGER, ox.Literal(e.trigger)
    yield node, _RULE, ox.Literal(e.rule)
    yield node, _DERIVED_FROM, doc_node
    yield node, _EVIDENCE, ox.Literal(e.evidence)
    yield node, _START, integer(e.start_char)
    yield node, _END, integer(e.end_char)
    yield node, _CONFIDENCE, decimal(e.confidence, 3)
    if e.reported_by:
        yield node, _REPORTED_BY, _named(_ENTITY + e.reported_by)
    if e.time is not None:  # as precisely as the text gives it: xsd:gYear, xsd:gYearMonth or xsd:date
        yield node, _TIME, literal(e.time.date.lexical, XSD[e.time.date.xsd])
        if e.time.text:
            yield node, _TIME_TEXT, ox.Literal(e.time.text)
        if e.time.from_document:
            yield node, _TIME_FROM_DOCUMENT, ox.Literal(True)
    for r in e.roles:
        role = role_node(node.value, r.role, r.entity, r.description)
        yield node, _ROLE, role
        yield from role_triples(role, r.role, r.entity, r.description)
    for s, p, o in e.facts:
        yield node, _ASSERTION_OF, _assertion_node(e.doc_id, s, p, o, e.start_char)


LABEL = N(RDFS.label)
PREF_LABEL = N(SKOS.prefLabel)
ALT_LABEL = N(SKOS.altLabel)
HIDDEN_LABEL = N(SKOS.hiddenLabel)
