"""The Python API: networkx projection and the rdflib view of the store."""

from __future__ import annotations

import kg
from kg.namespaces import KG


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


def test_a_person_is_labelled_by_name_not_by_office(tmp_path):
    # "Pentagon Press Secretary Peter Cook" (re3d, CENTCOM): the titled form is kept, as a form the
    # text uses, but the name is the label, although the titled form is the longer of the two
    text = "Pentagon Press Secretary Peter Cook told reporters today that Cook had been briefed."
    src = tmp_path / "a.txt"
    src.write_text(text, encoding="utf-8")
    store = tmp_path / "store"
    kg.build([str(src)], store=str(store))
    rows = kg.query("SELECT ?label ?alt WHERE { ?e a kg:Person ; skos:prefLabel ?label ; skos:altLabel ?alt }",
                    store=str(store)).rows
    assert {label for label, _ in rows} == {"Peter Cook"}
    assert "Secretary Peter Cook" in {alt for _, alt in rows}


def test_a_description_set_beside_a_name_is_a_form_of_it_never_its_label(tmp_path):
    # the descriptions are longer than the names: the label is still the name
    src = tmp_path / "a.txt"
    src.write_text("Linda Okafor, U.S. representative to the African Union, and Samuel Mwangi, chairman of "
                   "the regional security council, met in Addis Ababa on Monday.", encoding="utf-8")
    store = tmp_path / "store"
    kg.build([str(src)], store=str(store))
    rows = kg.query("SELECT ?label ?alt WHERE { ?e a kg:Person ; skos:prefLabel ?label ; skos:altLabel ?alt }",
                    store=str(store)).rows
    assert {label for label, _ in rows} == {"Linda Okafor", "Samuel Mwangi"}, rows
    assert "U.S. representative" in {alt for _, alt in rows}, rows
