"""kg's SHACL-by-SPARQL validation (kg.graph.shacl) finds what pySHACL finds, on a built graph and
on graphs broken in every way the shapes forbid."""

from __future__ import annotations

from collections import Counter

import pytest
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, RDFS, SH, SKOS, XSD

KG = Namespace("https://w3id.org/kg/ontology#")
SEM = Namespace("http://semanticweb.cs.vu.nl/2009/11/sem/")


def _reference(graph: Graph) -> Counter:
    """(focus, path, component) of each violation pySHACL reports."""
    import pyshacl

    from kg.graph.shapes import shapes_graph
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
    from kg.graph.shapes import _InMemory, shapes_graph

    shapes = ox.Store()
    shapes.load(shapes_graph().serialize(format="nt", encoding="utf-8"), format=ox.RdfFormat.N_TRIPLES)
    return Counter((v.focus, v.path, v.component) for v in shacl.violations(_InMemory(graph), shapes))


@pytest.fixture(scope="module")
def built(example_store) -> Graph:
    from kg.graph.shapes import _union
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
