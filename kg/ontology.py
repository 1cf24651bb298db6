"""The class hierarchy of ontology/kg.ttl, read once, for type checks in the pipeline."""

from __future__ import annotations

from functools import cache

from .resources import ontology_file


@cache
def superclasses() -> dict[str, frozenset[str]]:
    """Local class name -> itself and every ancestor in kg.ttl (rdfs:subClassOf, transitively)."""
    from rdflib import OWL, RDF, RDFS, Graph

    from .vocab import KG

    graph = Graph().parse(ontology_file("kg.ttl"), format="turtle")
    ns = str(KG._NS)
    out: dict[str, frozenset[str]] = {}
    for cls in graph.subjects(RDF.type, OWL.Class):
        if str(cls).startswith(ns):
            ancestors = graph.transitive_objects(cls, RDFS.subClassOf)
            out[str(cls)[len(ns):]] = frozenset(str(a)[len(ns):] for a in ancestors if str(a).startswith(ns))
    return out


def is_a(type_: str, ancestor: str) -> bool:
    return ancestor in superclasses().get(type_, frozenset({type_}))
