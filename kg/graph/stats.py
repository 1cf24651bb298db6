"""Counts that describe a store: documents, entities by type, facts by relation."""

from __future__ import annotations

from ..store import Store
from ..vocab import KG


def info(store: Store) -> dict:
    ns = str(KG._NS)
    documents = next(iter(store.query("SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { ?d a kg:Document }")))["n"].value
    entities: dict[str, int] = {}
    for row in store.query(
        "SELECT ?type (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e kg:mentionedIn ?d ; a ?type "
        "FILTER(STRSTARTS(STR(?type), STR(kg:))) } GROUP BY ?type ORDER BY DESC(?n)"
    ):
        entities[row["type"].value[len(ns):]] = int(row["n"].value)
    facts: dict[str, int] = {}
    for row in store.query(
        "SELECT ?p (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { ?st a kg:Assertion ; "
        "rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o } } GROUP BY ?p ORDER BY DESC(?n)"
    ):
        facts[row["p"].value[len(ns):]] = int(row["n"].value)
    assertions = next(iter(store.query("SELECT (COUNT(?a) AS ?n) WHERE { ?a a kg:Assertion }")))["n"].value
    return {
        "store": store.location,
        "documents": int(documents),
        "entities": int(next(iter(store.query(
            "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e kg:mentionedIn ?d }")))["n"].value),
        "entities_by_type": entities,
        "facts": sum(facts.values()),
        "facts_by_relation": facts,
        "assertions": int(assertions),
    }
