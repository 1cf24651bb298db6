"""The graph out of the store: RDF serializations, a networkx graph, GraphML / GEXF / JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

import pyoxigraph as ox

from .. import formats
from ..derive import curations
from ..outputs import output_file
from ..store import Store
from ..namespaces import ENTITY_GRAPH, EVENT_GRAPH, KG, ONTOLOGY_GRAPH, PREFIXES

RDF_FORMATS = {name: ox.RdfFormat.from_extension(extension) for name, extension in formats.RDF.items()}
_FACT_TIMES = f"""SELECT ?s ?p ?o (MIN(?begin) AS ?first) (MAX(?end) AS ?last) WHERE {{
  GRAPH <{EVENT_GRAPH}> {{ ?event kg:statement ?st ; sem:hasEarliestBeginTimeStamp ?begin ;
                           sem:hasLatestEndTimeStamp ?end }}
  GRAPH ?g {{ ?st kg:assertion ?a . ?a rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o }} }}
GROUP BY ?s ?p ?o"""


def triples(store: Store):
    """The knowledge graph as triples: the union of every graph but the ontology, without repeats."""
    seen = set()
    for quad in store.quads():
        triple = quad.triple
        if triple not in seen:
            seen.add(triple)
            yield triple


def _seekable(output: IO[bytes]) -> bool:
    try:
        return output.seekable() and isinstance(getattr(output, "name", None), str)
    except (AttributeError, ValueError, OSError):
        return False


def _lines_since(output: IO[bytes], start: int) -> int:
    """Lines written to ``output`` after ``start`` (one per N-Quads / N-Triples statement)."""
    output.flush()
    end = output.tell()
    with open(output.name, "rb") as f:
        f.seek(start)
        count, left = 0, end - start
        while left > 0:
            block = f.read(min(left, 1 << 22))
            if not block:
                break
            count += block.count(b"\n")
            left -= len(block)
    return count


DISTINCT_TRIPLES = (
    "CONSTRUCT { ?s ?p ?o } WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } "
    f"FILTER(?g != <{ONTOLOGY_GRAPH}>) }} }}"
)


def export_rdf(store: Store, fmt: str, output: IO[bytes], progress=None) -> int:
    """Write the graph in an RDF format; returns the number of statements written.

    The dataset formats (N-Quads, TriG) carry every document's graph, the entity graph and the
    ontology; the triple formats the union of the graphs without repeats. The store serializes
    (inside Oxigraph for a local store); statements are counted afterwards, from the file itself
    where there is one.
    """
    rdf_format = RDF_FORMATS[fmt]
    line_based = fmt in ("nquads", "ntriples")
    start = output.tell() if _seekable(output) else None
    prefixes = PREFIXES if fmt in ("turtle", "trig") else None
    if rdf_format.supports_datasets:
        store.dump(output, rdf_format, prefixes, progress=progress)
    else:
        store.construct(DISTINCT_TRIPLES, output, rdf_format, prefixes, progress=progress)
    if line_based and start is not None:
        return _lines_since(output, start)
    return _count(store, "GRAPH ?g { ?s ?p ?o }" if rdf_format.supports_datasets else None)


def _count(store: Store, pattern: str | None) -> int:
    where = pattern or f"SELECT DISTINCT ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(?g != <{ONTOLOGY_GRAPH}>) }}"
    query = f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}"
    return int(next(iter(store.query(query, union=False)))["n"].value)


def fact_times(store: Store) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(subject, predicate, object) IRIs -> the first and last day of the events a sentence dates
    that state the fact: when it happened, where the text says (``kg analyze --since/--until``)."""
    return {(row["s"].value, row["p"].value, row["o"].value): (row["first"].value, row["last"].value)
            for row in store.query(_FACT_TIMES, union=False)}


def to_networkx(store: Store):
    """The entity-to-entity graph as a ``networkx.MultiDiGraph``.

    Nodes are entity IRIs with ``label``, ``type`` (the most specific class) and ``aliases``
    (``|``-separated); each edge is one fact, keyed by its relation, with ``predicate`` (local
    name), ``confidence`` (the highest of its assertions), ``documents`` (how many documents state
    it), ``symmetric`` (a relation kg.ttl declares symmetric, such as allyOf: one edge, from the
    entity whose IRI sorts first, that means both directions), ``first_date`` / ``last_date`` (of
    those documents, where they have dates) and ``event_first`` / ``event_last`` (the days of the
    events that state it, where a sentence dates them: see :func:`fact_times`).
    A state's government or armed forces also has an ``institutionOf`` edge to its country, and a
    country's people (``PersonGroup``) a ``peopleOf`` edge (from the gazetteer, not a text:
    confidence 1.0), where both are in the graph.
    """
    import networkx as nx

    from ..ontology import superclasses, symmetric_relations

    graph = nx.MultiDiGraph()
    depth = {name: len(ancestors) for name, ancestors in superclasses().items()}
    ns = str(KG._NS)
    entities = f"<{ENTITY_GRAPH}>"
    symmetric = symmetric_relations()
    labels: dict[str, str] = {}
    aliases: dict[str, set[str]] = {}
    for row in store.query(f"SELECT ?e ?label ?alt WHERE {{ GRAPH {entities} {{ ?e rdfs:label ?label "
                           "OPTIONAL { ?e skos:altLabel ?alt } } }", union=False):
        labels[row["e"].value] = row["label"].value
        if row["alt"] is not None:
            aliases.setdefault(row["e"].value, set()).add(row["alt"].value)
    curated = curations.overlay(store)  # the entities and facts as curated (kg curate)
    for row in store.query(f"SELECT DISTINCT ?e ?type WHERE {{ GRAPH {entities} {{ ?e a ?type }} "
                           "FILTER(STRSTARTS(STR(?type), STR(kg:))) }", union=False):
        iri, type_ = row["e"].value, row["type"].value[len(ns):]
        current = graph.nodes[iri].get("type") if iri in graph else None
        if current is None or depth.get(type_, 0) > depth.get(current, 0):
            graph.add_node(iri, label=labels.get(iri, iri.rsplit("/", 1)[-1]), type=type_,
                           aliases="|".join(sorted(aliases.get(iri, ()))))
    for row in store.query("SELECT ?e ?p ?c (COUNT(DISTINCT ?d) AS ?docs) WHERE { VALUES ?p { kg:institutionOf "
                           "kg:peopleOf } GRAPH ?g { ?e ?p ?c ; kg:mentionedIn ?d } } GROUP BY ?e ?p ?c", union=False):
        e, c = curated.final(row["e"].value), curated.final(row["c"].value)  # a state's government, army or
        # people and the country: one step apart
        predicate = row["p"].value[len(ns):]
        if e in graph and c in graph:
            graph.add_edge(e, c, key=predicate, predicate=predicate, confidence=1.0,
                           documents=int(row["docs"].value), symmetric=False)
    happened = fact_times(store)
    for s, o, iri, documents, confidence, first, last in _facts(store, curated):
        predicate = iri[len(ns):]
        for node in (s, o):
            if node not in graph:
                graph.add_node(node, label=labels.get(node, node.rsplit("/", 1)[-1]), type="Entity", aliases="")
        dates = {f"{k}_date": v for k, v in (("first", first), ("last", last)) if v is not None}
        when = happened.get((s, iri, o))
        if when is not None:
            dates |= {"event_first": when[0], "event_last": when[1]}
        graph.add_edge(s, o, key=predicate, predicate=predicate, confidence=confidence,
                       documents=documents, symmetric=predicate in symmetric, **dates)
    return graph


# per document only where a curation splits an entity in some documents (what a fact is about then
# depends on the document); else per fact, the few rows a million-triple store sums up
_FACTS = ("SELECT ?s ?p ?o %s (COUNT(DISTINCT ?doc) AS ?docs) (MAX(?c) AS ?conf) (MIN(?date) AS ?first) "
          "(MAX(?date) AS ?last) WHERE { GRAPH ?g { ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; "
          "prov:wasDerivedFrom ?doc ; kg:confidence ?c OPTIONAL { ?doc dcterms:date ?date } } } GROUP BY ?s ?p ?o %s")


def _facts(store: Store, curated: curations.Overlay):
    """(subject, object, predicate IRI, documents, confidence, first date, last date) of every fact
    stated, the entities as curated: the facts of an entity rejected, and the facts rejected, left
    out; a fact stated of two entities a merge made one, once (documents summed, the highest
    confidence, the dates' span)."""
    per_document = "?g" if curated.split_docs else ""
    merged: dict[tuple, list] = {}
    for row in store.query(_FACTS % (per_document, per_document), union=False):
        graph = row["g"].value if per_document else None
        s, o, p = curated.final(row["s"].value, graph), curated.final(row["o"].value, graph), row["p"].value
        if s is None or o is None or (s == o and row["s"] != row["o"]) or (s, p, o) in curated.rejected_facts:
            continue
        first, last = (row[k].value if row[k] is not None else None for k in ("first", "last"))
        held = merged.get((s, p, o))
        if held is None:
            merged[(s, p, o)] = [int(row["docs"].value), float(row["conf"].value), first, last]
            continue
        held[0] += int(row["docs"].value)
        held[1] = max(held[1], float(row["conf"].value))
        held[2] = min(d for d in (held[2], first) if d is not None) if held[2] or first else None
        held[3] = max(d for d in (held[3], last) if d is not None) if held[3] or last else None
    for (s, p, o), (documents, confidence, first, last) in merged.items():
        yield s, o, p, documents, confidence, first, last


def export_graph(store: Store, fmt: str, output: IO[bytes], min_confidence: float | None = None) -> int:
    """Write the networkx projection as GraphML, GEXF or node-link JSON (only the facts some
    assertion of at least ``min_confidence`` states, if given); returns the edge count."""
    import networkx as nx

    graph = to_networkx(store)
    if min_confidence is not None:
        from .analysis import filter_graph

        graph = filter_graph(graph, min_confidence=min_confidence)
    if fmt == "graphml":
        nx.write_graphml(graph, output)
    elif fmt == "gexf":
        nx.write_gexf(graph, output)
    else:
        data = nx.node_link_data(graph, edges="edges")
        output.write(json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8"))
    return graph.number_of_edges()


# the columns of queries/event-table.rq that are numbers or truth values, for the JSON records
_NUMBERS = {"geonames_id": int, "latitude": float, "longitude": float, "sources": int}


def export_events(store: Store, fmt: str, output: IO[bytes]) -> int:
    """Every event as one flat row (queries/event-table.rq): CSV with a header, or JSON records
    (a list of objects, numbers as numbers), each of which pandas reads with no arguments;
    returns the number of events."""
    from .sparql import run

    result = run(store, "event-table")
    if fmt == "events-csv":
        output.write(result.serialize(ox.QueryResultsFormat.CSV))
    else:
        records = [{name: _typed(name, value) for name, value in zip(result.variables, row, strict=True)}
                   for row in result.rows]
        output.write(json.dumps(records, indent=1, ensure_ascii=False).encode("utf-8") + b"\n")
    return len(result.rows)


def _typed(name: str, value: str | None):
    if value is None:
        return None
    if name == "reported":
        return value == "true"
    return _NUMBERS[name](value) if name in _NUMBERS else value


def export(store: Store, fmt: str, path: str | Path | None, stdout: IO[bytes], progress=None,
           min_confidence: float | None = None) -> int:
    """Export to ``path`` (see :func:`kg.outputs.output_file`) or to ``stdout``. ``min_confidence`` applies to
    the graph formats: an RDF export keeps every assertion, with its kg:confidence."""
    if min_confidence is not None and fmt in RDF_FORMATS:
        from ..errors import UsageError

        raise UsageError(f"--min-confidence applies to {', '.join(formats.GRAPHS)}, not {fmt}",
                         hint="an RDF export keeps every assertion with its kg:confidence; filter it in SPARQL")

    def writer(out):
        if fmt in RDF_FORMATS:
            return export_rdf(store, fmt, out, progress)
        if fmt in formats.EVENT_TABLES:
            return export_events(store, fmt, out)
        return export_graph(store, fmt, out, min_confidence)

    if path is None or str(path) == "-":
        return writer(stdout)
    with output_file(path) as out:
        return writer(out)
