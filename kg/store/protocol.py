"""The interface every kg store offers, and the capabilities in which stores differ."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Protocol, runtime_checkable

import pyoxigraph as ox

from ..records import DocumentGraph


class Progress(Protocol):
    def update(self, n: int = 1) -> None: ...


def counted(items: Iterable, progress: Progress | None, every: int = 10000) -> Iterator:
    """``items``, telling ``progress`` every ``every`` of them."""
    if progress is None:
        yield from items
        return
    n = 0
    for item in items:
        n += 1
        if n % every == 0:
            progress.update(every)
        yield item
    progress.update(n % every)


@dataclass(frozen=True)
class Refreshed:
    """What :meth:`Store.refresh` did: the entities it recomputed, and the peaks (``rss_mb``,
    ``heap_mb`` where traced) of the child processes that derived the labels and the events, the
    larger of the two, if any ran."""

    entities: int
    merge_child: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Capabilities:
    """What a store can do beyond the protocol's common ground.

    ``journal``: an N-Quads copy of every document graph beside the store, which N-Quads export
    copies instead of decoding the store. ``kill_queries``: a query can be evaluated where it is
    stopped for certain at a deadline (a child process on the same files); otherwise the server's
    own time limit applies and kg closes the connection.
    """

    kind: str
    journal: bool = False
    kill_queries: bool = False


@runtime_checkable
class Store(Protocol):
    """A kg store: named graphs of documents, an entity graph of labels, the ontology graph."""

    capabilities: Capabilities
    writable: bool

    @property
    def location(self) -> str:
        """A folder path or a server URL, as the user gave it (without any password)."""

    # -- documents
    def document_ids(self) -> set[str]:
        """Content hashes of every stored document."""

    def has_document(self, doc_id: str) -> bool: ...

    def add_batch(self, graphs: list[DocumentGraph]) -> None:
        """Write documents' graphs (serialized where they were extracted), each wholly or not at all."""

    def remove_document(self, doc_id: str) -> bool: ...

    def put_graph(self, graph: str, quads: list[ox.Quad]) -> None:
        """Replace the named graph ``graph`` (not a document's) with ``quads``: the curations."""

    # -- entity labels and events, recomputed after documents change
    def labels_stale(self) -> bool: ...

    def mark_labels_stale(self, stale: bool = True) -> None: ...

    def refresh_entities(self, entities: Iterable[str] | None = None) -> int:
        """Recompute the labels of ``entities`` (IRIs; all if None); how many were refreshed."""

    def refresh_events(self, entities: Iterable[str] | None = None) -> int:
        """Re-merge the events that involve ``entities`` (IRIs; all if None) from the documents'
        event statements (see :mod:`kg.store.events`); how many quads the events graph got."""

    def refresh(self, entities: Iterable[str] | None = None) -> Refreshed:
        """Both of the above for ``entities``, labels first (where the store can, the events are
        merged meanwhile)."""

    # -- reading
    def query(self, sparql: str, substitutions: dict | None = None, union: bool = True,
              timeout: float | None = None, default_graph: str | None = None):
        """Evaluate SPARQL; pyoxigraph's QuerySolutions, QueryBoolean or QueryTriples.

        The default graph is the union of every graph (``union``), the store's default graph, or
        the one named graph ``default_graph`` (then every named graph still answers ``GRAPH``).
        ``timeout`` (seconds) bounds the answer where the store can bound it; a store with
        ``capabilities.kill_queries`` cannot, and is stopped by killing its evaluation instead.
        """

    def data_graphs(self) -> list[ox.NamedNode]:
        """Every named graph but the ontology and the bookkeeping."""

    def quads(self, graph: ox.NamedNode | None = None) -> Iterator[ox.Quad]:
        """Quads of one named graph, or of every data graph."""

    def dump(self, output: IO[bytes], fmt: ox.RdfFormat, prefixes: dict | None = None,
             progress: Progress | None = None) -> None:
        """Write the dataset (documents' graphs, entity graph, ontology; no bookkeeping).
        ``progress`` is told of statements as they go out, where they pass through Python."""

    def construct(self, sparql: str, output: IO[bytes], fmt: ox.RdfFormat, prefixes: dict | None = None,
                  progress: Progress | None = None) -> None:
        """Write the triples a CONSTRUCT query makes, serialized in ``fmt``."""

    def dataset(self):
        """An rdflib ``Dataset`` over the store, default graph = union of the graphs."""

    # -- upkeep
    def compact(self) -> None:
        """Reclaim space after removals (a no-op where the store does it itself)."""

    def flush(self) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, *exc) -> None: ...
