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
Query parameters are bound by ``VALUES`` blocks of RDF terms serialized by pyoxigraph, placed in
every group pattern where the variable is in scope (:func:`kg.sparql.guard.bind`), never by
pasting user text into the query.

The HTTP client follows redirects only within the server's origin (a request, its body and
its credentials never go elsewhere). ``http://USER:PASSWORD@HOST:PORT`` sends HTTP basic
authentication; the password is never shown (``***`` in every message and in
``kg info``). A query is given ``--timeout`` as a deadline for the whole exchange (``kg query``
opens the store under it too), and ``KG_QUERY_MEMORY`` MiB as the most kg reads of the answer:
kg closes the connection when either is passed. A deadline is one for the exchange, not for each
read: every read and write waits only for the time left, so a server that sends a byte at a time,
in its headers or its body, cannot stretch it. That stops a server that is sending results; one
still computing its first result (a sort, a count) goes on until its own limit, if it has one
that works (Fuseki's ``arq:queryTimeout``; Oxigraph 0.5's ``--timeout-s`` was seen to let a
count run 6 minutes and a streamed SELECT 10 minutes past a 1 s limit).
"""

from __future__ import annotations

import base64
import http.client
import itertools
import os
import re
import socket
import ssl
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

import pyoxigraph as ox

from ..errors import QueryError, StoreError
from ..ontology import ontology_quads
from ..rdf import N
from ..records import DocumentGraph
from ..sparql import guard
from ..sparql.limits import MEMORY_ENV, deadline_error, memory_budget
from ..sparql.values import values
from ..terminal import printable
from ..namespaces import ENTITY_GRAPH, EVENT_GRAPH, KG, META_GRAPH, ONTOLOGY_GRAPH, PREFIXES, document_graph
from .protocol import Capabilities, EntityChange, chunked, counted

TIMEOUT = 120  # seconds for any request that is not a query with its own --timeout
WRITE_BLOCK = 2000  # quads (or subjects) of a derived graph an update writes (or deletes) at once
MAX_REDIRECTS = 5
_REDIRECTS = (301, 302, 303, 307, 308)


@dataclass(frozen=True)
class Endpoint:
    """A URL to send requests to, without its credentials; ``shown`` is the URL as messages
    show it (password masked); ``login`` the user and password (never in a repr)."""

    url: str
    shown: str
    login: tuple[str, str] | None = field(default=None, repr=False)

    @property
    def authorization(self) -> str | None:
        """The HTTP basic-authentication header of the login."""
        if self.login is None:
            return None
        return "Basic " + base64.b64encode(":".join(self.login).encode()).decode("ascii")

    @classmethod
    def parse(cls, url: str, credentials: Endpoint | None = None) -> Endpoint:
        """``url``, with its own user and password, or those of ``credentials`` when ``url``
        has none and is on the same origin."""
        parts = urllib.parse.urlsplit(url)
        try:
            origin(url)  # reads the port, which must be a number
        except ValueError:
            raise StoreError(f"{mask(url)} is not a valid server URL: its port is not a number") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise StoreError(f"{mask(url)} is not an http(s) URL of a SPARQL server")
        userinfo, at, hostport = parts.netloc.rpartition("@")
        if not at:
            inherited = credentials is not None and origin(credentials.url) == origin(url)
            return cls(url, url, credentials.login if inherited else None)
        user, _, password = userinfo.partition(":")
        clean = urllib.parse.urlunsplit(parts._replace(netloc=hostport))
        return cls(clean, mask(url), (urllib.parse.unquote(user), urllib.parse.unquote(password)))

    def at(self, path: str) -> Endpoint:
        return Endpoint(self.url + path, self.shown + path, self.login)


def mask(url: str) -> str:
    """``url`` with any password replaced by ``***``."""
    parts = urllib.parse.urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{userinfo.partition(':')[0]}:***@{hostport}"))


def origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme, (parts.hostname or "").lower(), parts.port or {"http": 80, "https": 443}.get(parts.scheme)


class _Expired(Exception):
    """The deadline passed while waiting for the server."""


class _TooLarge(Exception):
    """The answer grew past its limit."""


class HTTPStatusError(QueryError):
    """The server answered with an HTTP error status."""

    def __init__(self, message: str, status: int, detail: str) -> None:
        super().__init__(message)
        self.status, self.detail = status, detail


class RemoteStore:
    """The :class:`kg.store.Store` protocol over HTTP."""

    capabilities = Capabilities(kind="sparql-server")

    def __init__(self, url: str, *, writable: bool = False, timeout: float | None = None) -> None:
        """``timeout`` (seconds from now), if given, bounds every exchange with the server, the
        first (is it there?) included: ``kg query --timeout``."""
        self.server = Endpoint.parse(url.rstrip("/"))
        self.url = self.server.shown
        self.writable = writable
        self._timeout = timeout
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self.query_endpoint = self._endpoint("KG_SPARQL_QUERY", "/query")
        self.update_endpoint = self._endpoint("KG_SPARQL_UPDATE", "/update")
        self.store_endpoint = self._endpoint("KG_SPARQL_STORE", "/store")
        try:
            ox_answer = self.query("ASK { ?s ?p ?o }", union=False)
            bool(ox_answer)
        except QueryError as exc:
            if isinstance(exc, HTTPStatusError) and exc.status in (401, 403):
                raise StoreError(f"the SPARQL server at {self.url} refused the login: HTTP {exc.status} {exc.detail}",
                                 hint="check the user and password in the store URL") from None
            raise StoreError(f"no SPARQL server answers at {self.url}: {exc}",
                             hint="start one (e.g. `oxigraph serve --location DIR`) or check the URL") from None
        if writable:
            self._ensure_ontology()

    def _endpoint(self, variable: str, path: str) -> Endpoint:
        configured = os.environ.get(variable)
        return Endpoint.parse(configured, self.server) if configured else self.server.at(path)

    # ------------------------------------------------------------------ HTTP

    def _request(self, endpoint: Endpoint, data: bytes | None, method: str, content_type: str | None = None,
                 accept: str | None = None, query: str = "", timeout: float | None = None,
                 limit: int | None = None) -> bytes:
        """The body of the answer; redirects are followed within the server's origin only.
        ``timeout`` (seconds, default TIMEOUT; at most what is left of the store's own) bounds the
        whole exchange, answer included; ``limit`` (bytes) the size of the answer."""
        headers = {"User-Agent": "kg", "Connection": "close"}
        if content_type:
            headers["Content-Type"] = content_type
        if accept:
            headers["Accept"] = accept
        if endpoint.authorization:
            headers["Authorization"] = endpoint.authorization
        waited = timeout or TIMEOUT
        deadline = time.monotonic() + waited
        if self._deadline is not None and self._deadline < deadline:
            deadline, waited = self._deadline, self._timeout
        url = endpoint.url + query
        for _ in range(MAX_REDIRECTS + 1):
            try:
                status, reason, location, body = _exchange(method, url, data, headers, deadline, limit)
            except _TooLarge:
                raise QueryError(f"the SPARQL server's answer is larger than {limit // 2**20} MiB, and kg "
                                 "stopped reading it", hint=f"narrow the query, or raise {MEMORY_ENV}=MiB") from None
            except _Expired:
                if timeout:
                    raise deadline_error(timeout) from None
                raise StoreError(f"the SPARQL server at {self.url} did not answer within {waited:g} s",
                                 hint="raise --timeout" if waited == self._timeout else None) from None
            except (OSError, http.client.HTTPException) as exc:
                raise StoreError(f"cannot reach the SPARQL server at {self.url}: {printable(_reason(exc))}") from None
            if status in _REDIRECTS and location:
                target = urllib.parse.urljoin(url, location)
                if origin(target) != origin(url):
                    raise StoreError(f"the SPARQL server at {self.url} redirected {method} {_path(url)} to another "
                                     f"origin ({printable(mask(target))}); kg follows redirects only within the "
                                     "server")
                url = target
                continue
            if status >= 400:  # the server's words, which are shown on a terminal
                lines = body.decode("utf-8", "replace").strip().splitlines()
                detail = printable(lines[0] if lines else reason)
                raise HTTPStatusError(f"{method} {mask(url)}: HTTP {status} {detail}", status, detail)
            return body
        raise StoreError(f"the SPARQL server at {self.url} redirected {method} {_path(url)} more than "
                         f"{MAX_REDIRECTS} times")

    def _update(self, sparql: str) -> None:
        if not self.writable:
            raise StoreError("the store is open read-only")
        self._request(self.update_endpoint, sparql.encode("utf-8"), "POST", "application/sparql-update")

    def _graph_query(self, graph: str) -> str:
        return f"?graph={urllib.parse.quote(graph, safe='')}"

    def _put_graph(self, graph: str, quads: Iterable[ox.Quad]) -> None:
        body = ox.serialize([q.triple for q in quads], format=ox.RdfFormat.N_TRIPLES)
        self._request(self.store_endpoint, body, "PUT", "application/n-triples", query=self._graph_query(graph))

    # ------------------------------------------------------------------ writing

    def _ensure_ontology(self) -> None:
        quads = ontology_quads()
        if set(self.quads(N(ONTOLOGY_GRAPH))) != set(quads):
            self._put_graph(str(ONTOLOGY_GRAPH), quads)

    def put_graph(self, graph: str, quads: list[ox.Quad]) -> None:
        self._put_graph(graph, quads)

    def has_document(self, doc_id: str) -> bool:
        return bool(self.query(f"ASK {{ GRAPH <{document_graph(doc_id)}> {{ ?s ?p ?o }} }}", union=False))

    def document_ids(self) -> set[str]:
        prefix = str(document_graph(""))
        rows = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?d a kg:Document } }", union=False)
        return {row["g"].value[len(prefix):] for row in rows if row["g"].value.startswith(prefix)}

    def add_batch(self, graphs: list[DocumentGraph]) -> None:
        """One Graph Store PUT per document: each replaces its graph atomically on the server."""
        for graph in graphs:
            self._put_graph(str(document_graph(graph.document.id)), ox.parse(graph.nquads, format=ox.RdfFormat.N_QUADS))

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

    def write_entities(self, changes: Iterable[list[EntityChange]], keep: list[str] | None) -> None:
        """One update a block of entities, with what changed (:mod:`kg.derive.entities` reads
        what the entity graph and the documents hold of them by one query a block, the server
        summing the documents up); with ``keep``, the entities no document mentions any more go."""
        for block in changes:
            stale, fresh = [], []
            for _, gone, added, _ in block:
                stale += gone
                fresh += added
            updates = [f"{verb} DATA {{ GRAPH <{ENTITY_GRAPH}> {{ {_triples(part)} }} }}"
                       for verb, part in (("DELETE", stale), ("INSERT", fresh)) if part]
            if updates:
                self._update(" ;\n".join(updates))
        if keep is not None:
            mentioned = set(keep)
            gone = [row["s"].value for row in self.query(
                f"SELECT DISTINCT ?s WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ ?s ?p ?o }} }}", union=False)
                if row["s"].value not in mentioned]
            for block in chunked(gone, WRITE_BLOCK):
                self._update(f"DELETE {{ GRAPH <{ENTITY_GRAPH}> {{ ?e ?p ?o }} }} "
                             f"WHERE {{ {values('e', block)} GRAPH <{ENTITY_GRAPH}> {{ ?e ?p ?o }} }}")

    def write_events(self, events: Iterable[list[ox.Quad]], stale: set[str] | None) -> int:
        """The old triples of the events ``stale`` (all if None) are deleted and ``events``
        inserted, :data:`WRITE_BLOCK` subjects or quads an update."""
        quads = itertools.chain.from_iterable(events)
        if stale is None:  # the whole graph is replaced
            self._update(f"DROP SILENT GRAPH <{EVENT_GRAPH}>")
        for block in chunked(sorted(stale or ()), WRITE_BLOCK):
            self._update(f"DELETE {{ GRAPH <{EVENT_GRAPH}> {{ ?s ?p ?o }} }} "
                         f"WHERE {{ {values('s', block)} GRAPH <{EVENT_GRAPH}> {{ ?s ?p ?o }} }}")
        written = 0
        for block in chunked(quads, WRITE_BLOCK):
            self._update(f"INSERT DATA {{ GRAPH <{EVENT_GRAPH}> {{ {_triples(block)} }} }}")
            written += len(block)
        return written

    def flush(self) -> None:
        pass

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, substitutions: dict | None = None, union: bool = True,
              timeout: float | None = None, default_graph=None):
        """Evaluate on the server; ``substitutions`` (variable -> term) are bound on the parse
        of the query, ``timeout`` seconds bound the whole answer."""
        if default_graph is not None:  # in the text: the protocol's default-graph-uri hides the named graphs
            sparql, union = guard.in_graph(guard.parse(sparql), str(default_graph)), False
        parsed = guard.parse(sparql)
        if substitutions:
            sparql = guard.bind(parsed, {v.value: str(t) for v, t in substitutions.items()})
        prologue = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
        params = {"query": prologue + sparql}
        if union:
            params["union-default-graph"] = ""
        body = urllib.parse.urlencode(params).encode("utf-8")
        is_graph = parsed.is_graph()
        accept = "application/n-triples" if is_graph else "application/sparql-results+json"
        try:
            data = self._request(self.query_endpoint, body, "POST", "application/x-www-form-urlencoded", accept,
                                 timeout=timeout, limit=memory_budget())
        except HTTPStatusError as exc:
            if exc.status == 400:  # the server could not parse it: say so as a local store would
                raise QueryError(f"invalid SPARQL: {exc.detail} (the SPARQL server at {self.url} says)") from None
            raise
        try:
            if is_graph:
                return list(ox.parse(data, format=ox.RdfFormat.N_TRIPLES))
            answer = ox.parse_query_results(data, format=ox.QueryResultsFormat.JSON)
        except SyntaxError as exc:
            # a server that stops an answer it has begun (Oxigraph's --timeout-s) ends it with a
            # sentence, which is the reason to show
            tail = re.search(r"[^\[\]{},\"\n]*$", data[-300:].decode("utf-8", "replace").rstrip()).group().strip()
            raise QueryError(f"the SPARQL server's answer is incomplete: {printable(tail or str(exc))}") from None
        boolean = isinstance(answer, ox.QueryBoolean)
        if boolean != (parsed.form == "ASK"):  # rows where kg counts on a boolean, or the reverse
            got = "a boolean, an ASK query's answer" if boolean else "rows, a SELECT query's answer"
            raise StoreError(f"the SPARQL server at {self.url} answered {'an' if parsed.form == 'ASK' else 'a'} "
                             f"{parsed.form} query with {got}",
                             hint="check that the store URL is a SPARQL 1.1 server")
        return answer

    def data_graphs(self) -> list:
        rows = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }", union=False)
        return [row["g"] for row in rows if row["g"].value not in (str(ONTOLOGY_GRAPH), str(META_GRAPH))]

    def quads(self, graph=None) -> Iterator[ox.Quad]:
        if graph is not None:
            try:
                data = self._request(self.store_endpoint, None, "GET", accept="application/n-triples",
                                     query=self._graph_query(graph.value))
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

        store = SPARQLUpdateStore(self.query_endpoint.url, self.update_endpoint.url if self.writable else None,
                                  auth=self.query_endpoint.login)
        return Dataset(store=store, default_union=True)

    def compact(self) -> None:
        """The server reclaims space itself."""

    def close(self) -> None:
        pass

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()



def _triples(quads: list[ox.Quad]) -> str:
    """The triples of ``quads`` in N-Triples, for an update's DATA block."""
    return ox.serialize([q.triple for q in quads], format=ox.RdfFormat.N_TRIPLES).decode("utf-8")


def _exchange(method: str, url: str, body: bytes | None, headers: dict, deadline: float, limit: int | None):
    """One HTTP exchange: (status, reason, Location header, body). Raises _Expired at the
    deadline, whichever part of the exchange it falls in, and _TooLarge when the body passes
    ``limit`` bytes."""
    parts = urllib.parse.urlsplit(url)
    target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
    proxy = None if urllib.request.proxy_bypass(parts.hostname) else urllib.request.getproxies().get(parts.scheme)
    host, port, proxy_headers = parts.hostname, parts.port, {}
    if proxy:  # as urllib would: the *_proxy and no_proxy environment variables
        proxy_login = Endpoint.parse(proxy if "://" in proxy else f"http://{proxy}")
        proxy_parts = urllib.parse.urlsplit(proxy_login.url)
        host, port = proxy_parts.hostname, proxy_parts.port
        if proxy_login.login:
            proxy_headers["Proxy-Authorization"] = proxy_login.authorization
    if parts.scheme == "https":
        connection = _SecureConnection(host, port, deadline)
        if proxy:
            connection.set_tunnel(parts.hostname, parts.port, headers=proxy_headers)
    else:
        connection = _Connection(host, port, deadline)
        if proxy:
            target = url  # a plain-HTTP proxy takes the absolute URL
            headers = {**headers, **proxy_headers}
    try:
        connection.request(method, target, body=body, headers=headers)
        response = connection.getresponse()
        chunks, size = [], 0
        while not response.isclosed():  # it closes itself once it has read a body of known length
            chunk = response.read(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if limit is not None and size > limit:
                raise _TooLarge
        return response.status, response.reason, response.getheader("Location"), b"".join(chunks)
    except TimeoutError:  # socket.timeout
        raise _Expired from None
    finally:
        connection.close()  # closing is how a server learns that kg stopped listening


class _Timed:
    """A socket each of whose reads and writes waits only for what is left until ``deadline``
    (raising _Expired once it has passed): a server that sends a byte at a time, in its headers
    or its body, cannot stretch an exchange past the deadline, as it could a timeout per read."""

    deadline: float

    def recv_into(self, *args):
        self.settimeout(_left(self.deadline))
        return super().recv_into(*args)

    def send(self, *args):
        self.settimeout(_left(self.deadline))
        return super().send(*args)

    def sendall(self, *args):
        self.settimeout(_left(self.deadline))
        return super().sendall(*args)


class _TimedSocket(_Timed, socket.socket):
    pass


class _TimedSSLSocket(_Timed, ssl.SSLSocket):
    pass


class _Connection(http.client.HTTPConnection):
    """An HTTP connection whose every wait, from connecting to the last byte of the answer,
    ends by ``deadline`` (``time.monotonic()`` seconds)."""

    def __init__(self, host: str, port: int | None, deadline: float, **kwargs) -> None:
        super().__init__(host, port, timeout=_left(deadline), **kwargs)
        self.deadline = deadline
        self._create_connection = self._open  # http.client's hook for the socket it connects

    def _open(self, address, timeout, source_address=None) -> socket.socket:
        plain = socket.create_connection(address, _left(self.deadline), source_address)
        sock = _TimedSocket(plain.family, plain.type, plain.proto, plain.detach())
        sock.deadline = self.deadline
        sock.settimeout(_left(self.deadline))  # what a TLS handshake on it may take, in all
        return sock


class _SecureConnection(_Connection, http.client.HTTPSConnection):
    """HTTPS under a deadline: TCP (and a proxy's tunnel) as :class:`_Connection`, the TLS
    handshake within the time left, then each read and write as :class:`_Timed`."""

    def __init__(self, host: str, port: int | None, deadline: float) -> None:
        context = ssl.create_default_context()
        context.sslsocket_class = _TimedSSLSocket
        super().__init__(host, port, deadline, context=context)

    def connect(self) -> None:
        super().connect()
        self.sock.deadline = self.deadline


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Expired
    return left


def _path(url: str) -> str:
    return urllib.parse.urlsplit(url).path or "/"


def _reason(exc: BaseException) -> str:
    return str(getattr(exc, "reason", None) or exc.strerror or exc) if isinstance(exc, OSError) else str(exc)
