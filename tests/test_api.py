"""The Python API: networkx projection and the rdflib view of the store."""

from __future__ import annotations

import kg
from kg.vocab import KG


def test_to_networkx_nodes_and_edges(example_store):
    graph = kg.to_networkx(store=example_store)
    nodes = {data["label"]: data for _, data in graph.nodes(data=True)}
    assert nodes["Hezbollah"]["type"] == "ArmedGroup"
    assert nodes["Arsal"]["type"] == "Settlement"
    iri = {data["label"]: node for node, data in graph.nodes(data=True)}
    edges = graph.get_edge_data(iri["Islamic State"], iri["Arsal"])
    assert edges["captured"]["documents"] == 2
    assert 0 < edges["captured"]["confidence"] <= 1


def test_rdflib_dataset_over_the_store(example_store):
    store = kg.open_store(example_store)
    dataset = store.dataset()
    rows = list(dataset.query("SELECT DISTINCT ?o WHERE { ?s kg:captured ?o }", initNs={"kg": KG._NS}))
    assert len(rows) == 2
    store.close()


def test_fact_stated_twice_is_one_triple_with_two_assertions(example_store):
    result = kg.query(
        "SELECT (COUNT(DISTINCT ?g) AS ?graphs) (COUNT(DISTINCT ?st) AS ?assertions) WHERE { "
        "?s kg:captured ?o ; rdfs:label 'Islamic State' . ?o rdfs:label 'Arsal' . "  # the fact, once
        "GRAPH ?g { ?s kg:captured ?o . ?st rdf:subject ?s ; rdf:predicate kg:captured ; rdf:object ?o } }",
        store=example_store,
    )
    assert result.rows == (("2", "2"),)


def test_entity_resolution_labels(example_store):
    result = kg.query(
        "SELECT ?alt WHERE { ?e rdfs:label 'Islamic State' ; skos:altLabel ?alt } ORDER BY ?alt",
        store=example_store,
    )
    assert {r[0] for r in result.rows} >= {"Daesh", "IS"}
    merges = kg.query("SELECT ?form ?rule WHERE { ?e rdfs:label 'Al-Bukamal' . GRAPH ?g { ?m kg:mergedInto ?e ; "
                      "kg:mergedForm ?form ; kg:mergeRule ?rule } }", store=example_store)
    assert ("Albukamal", "gazetteer-alias") in merges.rows
