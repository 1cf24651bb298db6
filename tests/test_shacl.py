"""kg's SHACL-by-SPARQL validation (kg.graph.shacl) finds what pySHACL finds, on a built graph and
on graphs broken in every way the shapes forbid."""

from __future__ import annotations

from collections import Counter

import pytest
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import PROV, RDF, RDFS, SH, SKOS, XSD

KG = Namespace("https://w3id.org/kg/ontology#")
SEM = Namespace("http://semanticweb.cs.vu.nl/2009/11/sem/")


def _reference(graph: Graph) -> Counter:
    """(focus, path, component) of each violation pySHACL reports."""
    import pyshacl

    from kg.graph.validation import shapes_graph
    from kg.resources import ontology_file

    ontology = Graph().parse(ontology_file("kg.ttl"), format="turtle")
    _, results, _ = pyshacl.validate(graph, shacl_graph=shapes_graph(), ont_graph=ontology, inference="none",
                                     allow_warnings=True)
    found = Counter()
    for result in results.objects(None, SH.result):  # the report's results, not their sh:detail
        if results.value(result, SH.resultSeverity) != SH.Violation:
            continue
        path = results.value(result, SH.resultPath)
        component = results.value(result, SH.sourceConstraintComponent)
        found[(str(results.value(result, SH.focusNode)), None if path is None else str(path),
               str(component).rsplit("#", 1)[-1])] += 1
    return found


def _ours(graph: Graph) -> Counter:
    import pyoxigraph as ox

    from kg.graph import shacl
    from kg.graph.validation import _InMemory, shapes_graph

    shapes = ox.Store()
    shapes.load(shapes_graph().serialize(format="nt", encoding="utf-8"), format=ox.RdfFormat.N_TRIPLES)
    return Counter((v.focus, v.path, v.component) for v in shacl.violations(_InMemory(graph), shapes))


@pytest.fixture(scope="module")
def built(example_store) -> Graph:
    from kg.graph.validation import _union
    import kg

    with kg.open_store(example_store) as store:
        return _union(store)


def test_a_built_graph_conforms_to_both(built, example_store):
    import kg

    assert _reference(built) == Counter() == _ours(built)
    assert kg.validate(store=example_store).conforms


def _break(graph: Graph) -> Graph:
    broken = Graph()
    for triple in graph:
        broken.add(triple)
    assertions = sorted(set(broken.subjects(RDF.type, KG.Assertion)))
    documents = sorted(set(broken.subjects(RDF.type, KG.Document)))
    entities = sorted(set(broken.subjects(KG.mentionedIn, None)))
    a0, a1, a2, a3 = assertions[:4]
    broken.remove((a0, KG.evidence, None))                                   # minCount
    broken.add((a1, KG.confidence, Literal("1.5", datatype=XSD.decimal)))   # maxCount, maxInclusive
    broken.set((a2, KG.startOffset, Literal("x", datatype=XSD.integer)))    # ill-formed datatype
    broken.set((a3, RDF.predicate, KG.notARelation))                        # sh:in
    broken.add((a3, RDF.subject, Literal("a literal")))                     # nodeKind, maxCount
    broken.set((documents[0], KG.contentHash, Literal("not a hash")))       # pattern
    broken.remove((documents[1], URIRef("http://purl.org/dc/terms/identifier"), None))
    broken.add((entities[0], RDFS.label, Literal("a second label")))        # maxCount
    broken.add((entities[1], SKOS.prefLabel, Literal("another")))
    stray = URIRef("urn:stray")
    broken.add((stray, KG.mentionedIn, BNode()))                           # sh:class on node and value
    place = next(e for e in entities if (e, RDF.type, KG.Settlement) in broken)
    broken.add((place, KG.allyOf, place))                                   # domain, range (sh:or)
    broken.add((URIRef("urn:x"), KG.locatedIn, URIRef("urn:y")))
    broken.set((a0, KG.evidence, Literal("")))                              # minLength
    events = sorted(set(broken.subjects(RDF.type, SEM.Event)))
    roles = sorted(set(broken.subjects(SEM.roleType, None)))
    broken.set((events[0], SEM.hasTimeStamp, Literal("last week")))         # sh:node (sh:or of datatypes)
    broken.add((URIRef("urn:event"), RDF.type, SEM.Event))                  # sh:or of property shapes, counts
    broken.add((roles[0], KG.description, Literal("a town")))              # sh:xone: an entity and words
    return broken


def test_a_broken_graph_has_the_same_violations_in_both(built):
    broken = _break(built)
    reference = _reference(broken)
    components = set(component for _, _, component in reference)
    assert len(components) >= 11 and {"NodeConstraintComponent", "OrConstraintComponent",
                                      "XoneConstraintComponent"} <= components, reference  # many kinds
    assert _ours(broken) == reference


def test_validate_a_broken_file_names_focus_path_and_message(built, tmp_path):
    import kg

    path = tmp_path / "broken.nt"
    path.write_text(_break(built).serialize(format="nt"), encoding="utf-8")
    report = kg.validate(file=path)
    assert not report.conforms
    assert any(line.endswith("contentHash: a document needs one SHA-256 content hash") for line in report.violations)
    assert "urn:x: the subject of kg:locatedIn is a Location" in report.violations


def _one(store, sparql: str) -> list[str]:
    """The values of the first row of a query (whose variables are IRIs)."""
    row = next(iter(store.query(sparql)))
    return [term.value for term in row]


def test_a_store_broken_in_its_graphs_has_the_same_violations_in_both(store_copy):
    """kg's layout: an entity's label in the entity graph, its mentions and types in the documents'
    graphs, events in the events graph. A value or a type counts wherever it is, once however many
    graphs hold it: what the union of the graphs says, as pySHACL reads it."""
    import pyoxigraph as ox

    import kg
    from kg.graph.validation import _union
    from kg.namespaces import CURATION_GRAPH, ENTITY_GRAPH, EVENT_GRAPH

    store = ox.Store(str(store_copy))
    g1, a0, a1 = _one(store, "SELECT ?g ?a0 ?a1 WHERE { GRAPH ?g { ?a0 a <%s> . ?a1 a <%s> } FILTER(STR(?a0) < STR(?a1)) } "
                      "ORDER BY ?g ?a0 ?a1 LIMIT 1" % (KG.Assertion, KG.Assertion))
    g2, doc = _one(store, "SELECT ?g ?d WHERE { GRAPH ?g { ?d a <%s> } FILTER(?g != <%s>) } LIMIT 1" % (KG.Document, g1))
    entities = [row["e"].value for row in store.query(
        "SELECT ?e WHERE { GRAPH <%s> { ?e <%s> ?l } } ORDER BY ?e" % (ENTITY_GRAPH, RDFS.label))]
    e0, e1, e2, e3, e4, e5 = entities[:6]
    merge, statement = _one(store, "SELECT ?m ?s WHERE { GRAPH <%s> { ?m <%s> ?s } } ORDER BY ?m ?s LIMIT 1"
                            % (EVENT_GRAPH, KG.mergedStatement))
    event, role = _one(store, "SELECT ?e ?r WHERE { GRAPH <%s> { ?e a <%s> } GRAPH ?g { ?s <%s> ?r . ?r <%s> ?x } } "
                       "ORDER BY ?e ?r LIMIT 1" % (EVENT_GRAPH, SEM.Event, KG.role, RDF.value))
    store.update(f"""
        DELETE {{ GRAPH <{g1}> {{ <{a0}> <{KG.evidence}> ?x }} }} INSERT {{ GRAPH <{g2}> {{ <{a0}> <{KG.evidence}> ?x }} }}
          WHERE {{ GRAPH <{g1}> {{ <{a0}> <{KG.evidence}> ?x }} }};
        INSERT DATA {{ GRAPH <{g2}> {{ <{a1}> <{KG.confidence}> "0.5"^^<{XSD.decimal}> }} }};
        INSERT {{ GRAPH <{g2}> {{ <{a1}> <{KG.rule}> ?x }} }} WHERE {{ GRAPH <{g1}> {{ <{a1}> <{KG.rule}> ?x }} }};
        INSERT DATA {{ GRAPH <{g1}> {{ <{e0}> <{RDFS.label}> "a second label" }} }};
        DELETE WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ <{e1}> <{RDFS.label}> ?x }} }};
        DELETE WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ <{e5}> <{RDFS.label}> ?x }} }};
        INSERT DATA {{ GRAPH <{CURATION_GRAPH}> {{ <urn:a-curation> <{KG.curated}> <{e5}> }} }};
        DELETE {{ GRAPH <{ENTITY_GRAPH}> {{ <{e2}> <{RDFS.label}> ?x }} }} INSERT {{ GRAPH <{g1}> {{ <{e2}> <{RDFS.label}> ?x }} }}
          WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ <{e2}> <{RDFS.label}> ?x }} }};
        DELETE {{ GRAPH ?g {{ <{e3}> a ?t }} }} WHERE {{ GRAPH ?g {{ <{e3}> a ?t }} FILTER(?g != <{ENTITY_GRAPH}>) }};
        DELETE WHERE {{ GRAPH ?g {{ <{e4}> a ?t }} }};
        DELETE WHERE {{ GRAPH <{EVENT_GRAPH}> {{ <{event}> <{SEM.hasTimeStamp}> ?x }} }};
        INSERT DATA {{ GRAPH <{EVENT_GRAPH}> {{ <{event}> <{SEM.hasTimeStamp}> "last week" .
                                                 <{event}> <{PROV.wasDerivedFrom}> <urn:not-a-document> }} }};
        INSERT DATA {{ GRAPH <{g1}> {{ <{role}> <{KG.description}> "a town" }} }};
        INSERT DATA {{ GRAPH <{ENTITY_GRAPH}> {{ <{doc}> <{KG.contentHash}> "not a hash" }} }};
        DELETE {{ GRAPH ?g {{ <{merge}> <{KG.mergedStatement}> ?s }} }}
          WHERE {{ GRAPH ?g {{ <{merge}> <{KG.mergedStatement}> ?s }} FILTER(?s != <{statement}>) }}""")
    del store

    with kg.open_store(store_copy) as opened:
        union = _union(opened)
    reference = _reference(union)
    assert _ours_in(store_copy) == reference
    for found in [(a1, str(KG.confidence), "MaxCountConstraintComponent"), (e0, str(RDFS.label), "MaxCountConstraintComponent"),
                  (e1, None, "OrConstraintComponent"), (e4, None, "ClassConstraintComponent"),
                  (event, str(SEM.hasTimeStamp), "NodeConstraintComponent"),
                  (event, str(PROV.wasDerivedFrom), "ClassConstraintComponent"), (role, None, "XoneConstraintComponent"),
                  (doc, str(KG.contentHash), "MaxCountConstraintComponent"), (doc, str(KG.contentHash), "PatternConstraintComponent"),
                  (merge, str(KG.mergedStatement), "MinCountConstraintComponent")]:
        assert reference[found], found
    for not_found in [(a0, str(KG.evidence), "MinCountConstraintComponent"), (a1, str(KG.rule), "MaxCountConstraintComponent"),
                      (e2, None, "OrConstraintComponent"), (e3, None, "ClassConstraintComponent"),
                      (e5, None, "OrConstraintComponent")]:  # no label: a curation merged, split or rejected it
        assert not_found not in reference, not_found
    assert not kg.validate(store=store_copy).conforms


def _ours_in(path) -> Counter:
    import pyoxigraph as ox

    import kg
    from kg.graph import shacl
    from kg.graph.validation import shapes_graph

    shapes = ox.Store()
    shapes.load(shapes_graph().serialize(format="nt", encoding="utf-8"), format=ox.RdfFormat.N_TRIPLES)
    with kg.open_store(path) as store:
        return Counter((v.focus, v.path, v.component) for v in shacl.violations(store, shapes))


def test_a_count_of_two_is_checked_where_no_node_has_two():
    """sh:minCount 2 fails a node with one value, also when no node has more than one."""
    graph = Graph()
    merge, statement = URIRef("urn:merge"), URIRef("urn:statement")
    graph.add((merge, RDF.type, KG.EventMerge))
    graph.add((merge, KG.mergedStatement, statement))
    graph.add((merge, KG.mergeRule, Literal("same type and place")))
    graph.add((statement, RDF.type, KG.EventStatement))
    reference = _reference(graph)
    assert reference[(str(merge), str(KG.mergedStatement), "MinCountConstraintComponent")] == 1
    assert _ours(graph) == reference
