"""Counts that describe a store: documents, entities by type, facts by relation, events by type.

Each count names its graphs (``GRAPH ?g``: a document's graph holds its document, its entities'
mentions and its assertions), where the union default graph would make Oxigraph deduplicate
every quad of a million-triple store first: over a minute, where these take a second or two.
Entities and facts are counted in the entity graph, as curated (:mod:`kg.derive.curations`).
"""

from __future__ import annotations

from ..store import Store
from ..namespaces import ENTITY_GRAPH, EVENT_GRAPH, KG, ONTOLOGY_GRAPH, SEM


def _count(store: Store, pattern: str, what: str = "DISTINCT ?x") -> int:
    return int(next(iter(store.query(f"SELECT (COUNT({what}) AS ?n) WHERE {{ {pattern} }}", union=False)))["n"].value)


def top_entities(store: Store, per_type: int) -> dict[str, list[tuple[str, int]]]:
    """The ``per_type`` entities of each type mentioned in the most documents: (label, documents),
    as curated (an entity counts the documents of those merged into it or split off to it)."""
    from ..namespaces import ENTITY_GRAPH

    ns = str(KG._NS)
    out: dict[str, list[tuple[str, int]]] = {}
    for row in store.query(
        f"SELECT ?type ?label (COUNT(DISTINCT ?d) AS ?n) WHERE {{ "
        f"GRAPH <{ENTITY_GRAPH}> {{ ?e rdfs:label ?label ; a ?type . ?e kg:absorbs? ?read }} "
        f"GRAPH ?g {{ ?read kg:mentionedIn ?d }} FILTER(STRSTARTS(STR(?type), STR(kg:))) }} "
        "GROUP BY ?type ?e ?label ORDER BY ?type DESC(?n) ?label", union=False,
    ):
        names = out.setdefault(row["type"].value[len(ns):], [])
        if len(names) < per_type:
            names.append((row["label"].value, int(row["n"].value)))
    return out


def documents(store: Store) -> list[dict]:
    """Every stored document: its name, content hash, title, date and source, with the number of
    its assertions and event statements, in name order (what ``kg remove`` takes)."""
    rows = store.query(
        "SELECT ?name ?hash ?title ?date ?source ?assertions ?statements WHERE { "
        "GRAPH ?g { ?d a kg:Document ; dcterms:identifier ?name ; kg:contentHash ?hash . "
        "OPTIONAL { ?d dcterms:title ?title } OPTIONAL { ?d dcterms:date ?date } "
        "OPTIONAL { ?d dcterms:publisher ?source } } "
        "OPTIONAL { SELECT ?g (COUNT(?a) AS ?assertions) WHERE { GRAPH ?g { ?a a kg:Assertion } } GROUP BY ?g } "
        "OPTIONAL { SELECT ?g (COUNT(?st) AS ?statements) WHERE { GRAPH ?g { ?st a kg:EventStatement } } GROUP BY ?g } "
        "} ORDER BY ?name ?hash", union=False)

    def value(row, name):
        term = row[name]
        return term.value if term is not None else None

    return [{"name": value(r, "name"), "hash": value(r, "hash"), "title": value(r, "title"),
             "date": value(r, "date"), "source": value(r, "source"), "assertions": int(value(r, "assertions") or 0),
             "event_statements": int(value(r, "statements") or 0)} for r in rows]


def info(store: Store, per_type: int = 0) -> dict:
    ns = str(KG._NS)
    entities: dict[str, int] = {}
    for row in store.query(
        f"SELECT ?type (COUNT(DISTINCT ?e) AS ?n) WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ ?e rdfs:label ?label ; a ?type }} "
        f"FILTER(STRSTARTS(STR(?type), STR(kg:))) }} GROUP BY ?type ORDER BY DESC(?n) ?type", union=False,
    ):
        entities[row["type"].value[len(ns):]] = int(row["n"].value)
    facts: dict[str, int] = {}
    for row in store.query(
        f"SELECT ?p (COUNT(*) AS ?n) WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ ?s ?p ?o }} "
        f"GRAPH <{ONTOLOGY_GRAPH}> {{ ?p rdfs:subPropertyOf kg:relatedTo }} }} GROUP BY ?p ORDER BY DESC(?n)", union=False,
    ):
        facts[row["p"].value[len(ns):]] = int(row["n"].value)
    events: dict[str, int] = {}
    for row in store.query(
        f"SELECT ?type (COUNT(?e) AS ?n) WHERE {{ GRAPH <{EVENT_GRAPH}> {{ ?e a <{SEM.Event}> , ?type }} "
        f"FILTER(?type != <{SEM.Event}>) }} GROUP BY ?type ORDER BY DESC(?n) ?type", union=False,
    ):
        events[row["type"].value[len(ns):]] = int(row["n"].value)
    return {
        "store": store.location,
        "documents": _count(store, "GRAPH ?g { ?x a kg:Document }"),
        "entities": _count(store, f"GRAPH <{ENTITY_GRAPH}> {{ ?x rdfs:label ?label }}"),
        "entities_by_type": entities,
        "facts": sum(facts.values()),
        "facts_by_relation": facts,
        "assertions": _count(store, "GRAPH ?g { ?x a kg:Assertion }"),
        "events": sum(events.values()),
        "events_by_type": events,
        "event_statements": _count(store, "GRAPH ?g { ?x a kg:EventStatement }", "?x"),
        **({"top_entities": top_entities(store, per_type)} if per_type else {}),
    }
