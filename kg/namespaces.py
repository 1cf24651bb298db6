"""Namespaces: our ontology (a DefinedNamespace, so a typo fails loudly) and where IRIs are minted."""

from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import DefinedNamespace

BASE = "https://w3id.org/kg/"
ID = Namespace(BASE + "id/")
GEONAMES_IRI = "https://sws.geonames.org/{}/"  # a GeoNames feature's IRI, by its id


class KG(DefinedNamespace):
    """Terms of ontology/kg.ttl."""

    _NS = Namespace(BASE + "ontology#")
    _fail = True

    Entity: URIRef
    Agent: URIRef
    Person: URIRef
    PersonGroup: URIRef
    Organization: URIRef
    ArmedGroup: URIRef
    ArmedForces: URIRef
    GovernmentAgency: URIRef
    MediaOrganization: URIRef
    InternationalOrganization: URIRef
    Location: URIRef
    Country: URIRef
    Region: URIRef
    Settlement: URIRef
    Document: URIRef
    Assertion: URIRef
    Merge: URIRef
    EventStatement: URIRef
    EventMerge: URIRef
    Event: URIRef

    # the relations between entities are not listed here: ontology/kg.ttl defines them (read
    # through kg.ontology.relations()), and their IRIs are KG._NS[name]
    relatedTo: URIRef

    evidence: URIRef
    startOffset: URIRef
    endOffset: URIRef
    rule: URIRef
    confidence: URIRef
    reportedBy: URIRef
    contentHash: URIRef
    mentionedIn: URIRef
    gazetteerId: URIRef
    geonamesId: URIRef
    surfaceForm: URIRef
    institutionOf: URIRef
    peopleOf: URIRef
    mergedForm: URIRef
    mergeRule: URIRef
    mergedInto: URIRef
    mergedStatement: URIRef
    # events: the event classes and role types are read from kg.ttl (kg.ontology.event_types(),
    # role_types()), like the relations; these are the properties of statements and events
    eventType: URIRef
    trigger: URIRef
    role: URIRef
    description: URIRef
    time: URIRef
    timeText: URIRef
    timeFromDocument: URIRef
    assertion: URIRef
    statement: URIRef
    labelsStale: URIRef
    writeInProgress: URIRef
    # curations (kg.derive.curations)
    Curation: URIRef
    curationAction: URIRef
    curated: URIRef
    curatedInto: URIRef
    curatedType: URIRef
    curatedForm: URIRef
    curatedLabel: URIRef
    curatedTargetLabel: URIRef
    rejectedRelation: URIRef
    rejectedObject: URIRef
    absorbs: URIRef
    splitIn: URIRef
    curatedBy: URIRef


WGS84 = Namespace("http://www.w3.org/2003/01/geo/wgs84_pos#")


class SEM(DefinedNamespace):
    """The Simple Event Model terms kg uses (http://semanticweb.cs.vu.nl/2009/11/sem/)."""

    _NS = Namespace("http://semanticweb.cs.vu.nl/2009/11/sem/")
    _fail = True

    Event: URIRef
    Role: URIRef
    RoleType: URIRef
    hasActor: URIRef
    hasPlace: URIRef
    roleType: URIRef
    hasTimeStamp: URIRef
    hasEarliestBeginTimeStamp: URIRef
    hasLatestEndTimeStamp: URIRef

ONTOLOGY_GRAPH = URIRef(BASE + "graph/ontology")
ENTITY_GRAPH = URIRef(BASE + "graph/entities")
EVENT_GRAPH = URIRef(BASE + "graph/events")  # events merged from the documents' event statements
META_GRAPH = URIRef(BASE + "graph/meta")  # bookkeeping: labels awaiting a refresh, document graphs being written
CURATION_GRAPH = URIRef(BASE + "graph/curations")  # a team's corrections (kg.derive.curations)
# a store's graphs that are not a document's: every other graph holds one document's statements
NOT_DOCUMENT_GRAPHS = (ONTOLOGY_GRAPH, ENTITY_GRAPH, EVENT_GRAPH, META_GRAPH, CURATION_GRAPH)


def in_documents(var: str) -> str:
    """A SPARQL condition that ``?var`` is a document's graph. A comparison of terms: testing the
    IRI's prefix (``STRSTARTS(STR(?g), ...)``) reads every quad's graph name back as a string,
    which took half the time of the label refresh's query (600 entities, 714,009 quads: 1.91 s
    against 0.98 s)."""
    return f"?{var} NOT IN ({', '.join(f'<{graph}>' for graph in NOT_DOCUMENT_GRAPHS)})"


def entity_iri(key: str) -> URIRef:
    return ID[f"entity/{key}"]


def document_iri(doc_id: str) -> URIRef:
    return ID[f"doc/{doc_id}"]


def document_graph(doc_id: str) -> URIRef:
    return URIRef(f"{BASE}graph/doc/{doc_id}")


def assertion_iri(doc_id: str, digest: str) -> URIRef:
    return ID[f"assertion/{doc_id[:16]}-{digest}"]


def merge_iri(key: str, digest: str) -> URIRef:
    return ID[f"merge/{key}-{digest}"]


def statement_iri(doc_id: str, digest: str) -> URIRef:
    return ID[f"statement/{doc_id[:16]}-{digest}"]


def event_iri(type_: str, digest: str) -> URIRef:
    return ID[f"event/{type_.lower()}-{digest}"]


PREFIXES = {
    "kg": str(KG._NS),
    "kgr": str(ID),
    "prov": "http://www.w3.org/ns/prov#",
    "dcterms": "http://purl.org/dc/terms/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "geo": str(WGS84),
    "sem": str(SEM._NS),
}
