"""A kg store on a SPARQL 1.1 server: Oxigraph server, Apache Jena Fuseki, GraphDB, Virtuoso.

``--store http://HOST:PORT`` (or any http(s) URL) stores the graph on a server instead of a local
folder. kg uses three standard endpoints, by default Oxigraph's layout under the URL:

=============  ==========================  ===========================================
endpoint       default                     override (environment)
=============  ==========================  ===========================================
query          ``URL/query``               ``KG_SPARQL_QUERY`` (Fuseki: ``URL/DS/query``)
update         ``URL/update``              ``KG_SPARQL_UPDATE`` (Fuseki: ``URL/DS/update``)
graph store    ``URL/store``               ``KG_SPARQL_STORE`` (Fuseki: ``URL/DS/data``)
=============  ==========================  ===========================================

Each document's graph is written with one Graph Store Protocol ``PUT`` (atomic on the server), a
removal is one ``DROP GRAPH`` update, and queries go to the query endpoint with
``union-default-graph`` set, so that, as in a local store, the default graph is the union of the
documents' graphs (Fuseki: set ``tdb2:unionDefaultGraph``; GraphDB and Virtuoso do this already).
Query parameters are bound by a ``VALUES`` block of RDF terms serialized by pyoxigraph, never by
pasting user text into the query.
"""

from __future__ import annotations

import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from typing import IO

import pyoxigraph as ox

from ..errors import QueryError, StoreError
from ..rdf import N, extraction_quads
from ..records import Extraction
from ..ontology import ontology_quads
from ..vocab import ENTITY_GRAPH, EVENT_GRAPH, KG, META_GRAPH, ONTOLOGY_GRAPH, PREFIXES, document_graph
from .events import event_quads
from .labels import entity_label_quads
from .protocol import Capabilities, counted

TIMEOUT = 120


class RemoteStore:
    """The :class:`kg.store.Store` protocol over HTTP."""

    capabilities = Capabilities(kind="sparql-server")

    def __init__(self, url: str, *, writable: bool = False) -> None:
        self.url = url.rstrip("/")
        self.writable = writable
        self.query_endpoint = os.environ.get("KG_SPARQL_QUERY") or f"{self.url}/query"
        self.update_endpoint = os.environ.get("KG_SPARQL_UPDATE") or f"{self.url}/update"
        self.store_endpoint = os.environ.get("KG_SPARQL_STORE") or f"{self.url}/store"
        try:
            ox_answer = self.query("ASK { ?s ?p ?o }", union=False)
            bool(ox_answer)
        except QueryError as exc:
            raise StoreError(f"no SPARQL server answers at {self.url}: {exc}",
                             hint="start one (e.g. `oxigraph serve --location DIR`) or check the URL") from None
        if writable:
            self._ensure_ontology()

    # ------------------------------------------------------------------ HTTP

    def _request(self, url: str, data: bytes | None, method: str, content_type: str | None = None,
                 accept: str | None = None) -> bytes:
        headers = {"User-Agent": "kg"}
        if content_type:
            headers["Content-Type"] = content_type
        if accept:
            headers["Accept"] = accept
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return response.read()
        except urllib.error.HTTPError as exc:
            body = exc.read().decode("utf-8", "replace").strip().splitlines()
            raise QueryError(f"{method} {url}: HTTP {exc.code} {body[0] if body else exc.reason}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise StoreError(f"cannot reach the SPARQL server at {self.url}: {reason}") from None

    def _update(self, sparql: str) -> None:
        if not self.writable:
            raise StoreError("the store is open read-only")
        self._request(self.update_endpoint, sparql.encode("utf-8"), "POST", "application/sparql-update")

    def _put_graph(self, graph: str, quads: Iterable[ox.Quad]) -> None:
        body = ox.serialize([q.triple for q in quads], format=ox.RdfFormat.N_TRIPLES)
        url = f"{self.store_endpoint}?graph={urllib.parse.quote(graph, safe='')}"
        self._request(url, body, "PUT", "application/n-triples")

    # ------------------------------------------------------------------ writing

    def _ensure_ontology(self) -> None:
        quads = ontology_quads()
        if set(self.quads(N(ONTOLOGY_GRAPH))) != set(quads):
            self._put_graph(str(ONTOLOGY_GRAPH), quads)

    def has_document(self, doc_id: str) -> bool:
        return bool(self.query(f"ASK {{ GRAPH <{document_graph(doc_id)}> {{ ?s ?p ?o }} }}", union=False))

    def document_ids(self) -> set[str]:
        prefix = str(document_graph(""))
        rows = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?d a kg:Document } }", union=False)
        return {row["g"].value[len(prefix):] for row in rows if row["g"].value.startswith(prefix)}

    def add(self, extraction: Extraction) -> int:
        quads = extraction_quads(extraction)
        self._put_graph(str(document_graph(extraction.document.id)), quads)
        return len(quads)

    def add_batch(self, extractions: list[Extraction]) -> list[int]:
        """One Graph Store PUT per document: each replaces its graph atomically on the server."""
        return [self.add(extraction) for extraction in extractions]

    def remove_document(self, doc_id: str) -> bool:
        if not self.has_document(doc_id):
            return False
        self._update(f"DROP SILENT GRAPH <{document_graph(doc_id)}>")
        return True

    def labels_stale(self) -> bool:
        return bool(self.query(f"ASK {{ GRAPH <{META_GRAPH}> {{ <{ENTITY_GRAPH}> kg:labelsStale true }} }}",
                               union=False))

    def mark_labels_stale(self, stale: bool = True) -> None:
        verb = "INSERT" if stale else "DELETE"
        self._update(f"PREFIX kg: <{KG._NS}>\n{verb} DATA {{ GRAPH <{META_GRAPH}> {{ <{ENTITY_GRAPH}> kg:labelsStale true }} }}")

    def refresh_entities(self, entities: Iterable[str] | None = None) -> int:
        quads, touched = entity_label_quads(self, None)  # the server recomputes in one round trip
        self._put_graph(str(ENTITY_GRAPH), quads)
        return len(touched)

    def refresh_events(self, entities: Iterable[str] | None = None) -> int:
        quads, _ = event_quads(self, None)  # the server re-merges every event in one round trip
        self._put_graph(str(EVENT_GRAPH), quads)
        return len(quads)

    def flush(self) -> None:
        pass

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, substitutions: dict | None = None, union: bool = True):
        if substitutions:
            sparql = bind_values(sparql, substitutions)
        prologue = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
        params = {"query": prologue + sparql}
        if union:
            params["union-default-graph"] = ""
        body = urllib.parse.urlencode(params).encode("utf-8")
        is_graph = re.search(r"\b(CONSTRUCT|DESCRIBE)\b", sparql, re.I) is not None
        accept = "application/n-triples" if is_graph else "application/sparql-results+json"
        data = self._request(self.query_endpoint, body, "POST", "application/x-www-form-urlencoded", accept)
        if is_graph:
            return [q.triple if hasattr(q, "triple") else q for q in ox.parse(data, format=ox.RdfFormat.N_TRIPLES)]
        try:
            return ox.parse_query_results(data, format=ox.QueryResultsFormat.JSON)
        except SyntaxError as exc:
            raise QueryError(f"the server's answer is not SPARQL JSON results: {exc}") from None

    def data_graphs(self) -> list:
        rows = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }", union=False)
        return [row["g"] for row in rows if row["g"].value not in (str(ONTOLOGY_GRAPH), str(META_GRAPH))]

    def quads(self, graph=None) -> Iterator[ox.Quad]:
        if graph is not None:
            url = f"{self.store_endpoint}?graph={urllib.parse.quote(graph.value, safe='')}"
            try:
                data = self._request(url, None, "GET", accept="application/n-triples")
            except QueryError:
                return
            for t in ox.parse(data, format=ox.RdfFormat.N_TRIPLES):
                yield ox.Quad(t.subject, t.predicate, t.object, graph)
            return
        for g in self.data_graphs():
            yield from self.quads(g)

    @property
    def location(self) -> str:
        return self.url

    def dump(self, output: IO[bytes], fmt: ox.RdfFormat, prefixes: dict | None = None, progress=None) -> None:
        graphs = [*self.data_graphs(), N(ONTOLOGY_GRAPH)]
        quads = (q for g in graphs for q in self.quads(g))
        ox.serialize(counted(quads, progress), output, format=fmt, prefixes=prefixes)

    def construct(self, sparql: str, output: IO[bytes], fmt: ox.RdfFormat, prefixes: dict | None = None,
                  progress=None) -> None:
        ox.serialize(counted(self.query(sparql, union=False), progress), output, format=fmt, prefixes=prefixes)

    def dataset(self):
        """An rdflib ``Dataset`` over the server (rdflib's SPARQLUpdateStore)."""
        from rdflib import Dataset
        from rdflib.plugins.stores.sparqlstore import SPARQLUpdateStore

        store = SPARQLUpdateStore(self.query_endpoint, self.update_endpoint if self.writable else None)
        return Dataset(store=store, default_union=True)

    def compact(self) -> None:
        """The server reclaims space itself."""

    def close(self) -> None:
        pass

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def bind_values(sparql: str, substitutions: dict) -> str:
    """Pre-bind variables with a VALUES block at the start of the first group pattern."""
    names = " ".join(f"?{v.value if hasattr(v, 'value') else v}" for v in substitutions)
    terms = " ".join(str(t) for t in substitutions.values())
    where = re.search(r"\{", sparql)
    if where is None:
        raise QueryError("a parameterized query needs a WHERE { ... } pattern")
    return f"{sparql[:where.end()]} VALUES ({names}) {{ ({terms}) }} {sparql[where.end():]}"
