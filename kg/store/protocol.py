"""The interface every kg store offers, and the capabilities in which stores differ."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
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


def chunked(items: Iterable, size: int) -> Iterator[list]:
    """``items`` in lists of ``size`` (the last shorter), read as they are needed."""
    it = iter(items)
    while block := list(itertools.islice(it, size)):
        yield block


# one entity's change of the entity graph, as the derivation hands it to a store: its IRI, the
# quads to remove, the quads to add, and all the entity graph holds of it afterwards
EntityChange = tuple[str, list[ox.Quad], list[ox.Quad], list[ox.Quad]]


@dataclass(frozen=True)
class Capabilities:
    """What a store can do beyond the protocol's common ground.

    ``journal``: an N-Quads copy of every document graph beside the store, which N-Quads export
    copies instead of decoding the store. ``kill_queries``: a query can be evaluated where it is
    stopped for certain at a deadline (a child process on the same files); otherwise the server's
    own time limit applies and kg closes the connection. ``checkpoints``: the store makes a
    read-only checkpoint of itself in no time, on which the derived graphs can be computed in
    child processes, and applies what they wrote as N-Quads without decoding it
    (:class:`Checkpointing`).
    """

    kind: str
    journal: bool = False
    kill_queries: bool = False
    checkpoints: bool = False


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

    # -- the derived graphs (kg.derive computes them after documents change; the store writes them)
    def labels_stale(self) -> bool:
        """Whether a recomputation of the derived graphs is owed (a build or removal was stopped
        before it ended)."""

    def mark_labels_stale(self, stale: bool = True) -> None: ...

    def write_entities(self, changes: Iterable[list[EntityChange]], keep: list[str] | None) -> None:
        """Write the entity graph's changes, a block of entities at a time, as they come. ``keep``:
        where the whole graph was derived, its entities; the graph's other subjects are removed."""

    def write_events(self, events: Iterable[list[ox.Quad]], stale: set[str] | None) -> int:
        """Replace the events graph's subjects ``stale`` (all of them if None) with ``events``, a
        list of quads per event, written as they come; how many quads were written."""

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


@runtime_checkable
class Checkpointing(Store, Protocol):
    """A store whose ``capabilities.checkpoints`` is set: derivations run in child processes on a
    checkpoint of it and hand back files, which it applies without decoding their quads."""

    def checkpoint(self) -> Path:
        """A new folder holding a checkpoint of the store (every write so far) as ``store``, which
        :meth:`drop_checkpoint` removes (and so does the next writable opening of the store, after a kill)."""

    def drop_checkpoint(self) -> None: ...

    def scratch(self) -> Path:
        """An empty folder inside the store's for a derivation's files during a build, which the
        next writable opening removes."""

    def subjects_not_in(self, graph: ox.NamedNode, keep: set[str]) -> Iterator[ox.Quad]:
        """The quads of ``graph`` whose subject is not in ``keep``."""

    def apply_entities(self, changes: EntityChanges, whole: bool) -> None:
        """Apply the entity graph's changes a child wrote (``whole``: it derived the whole graph)."""

    def apply_events(self, blocks: Iterable[tuple[str, bytes]], stale: set[str] | None) -> int:
        """:meth:`Store.write_events` with each event as its (subject, N-Quads) block."""

    def apply_derived(self, parts: Iterable[tuple[str, Path]],
                      blocks: Callable[[Path], Iterator[tuple[str, bytes]]]) -> None:
        """Both derived graphs whole, into a store that holds neither, from files of (subject)
        blocks as ``parts`` yields them: ("entities", path) once, ("events", path) per part."""


class EntityChanges(Protocol):
    """The entity graph's changes written by a child: the quads to remove and to add, each
    entity's block, and how many entities were recomputed."""

    entities: int

    def removed(self) -> Iterator[ox.Quad]: ...

    def added(self, size: int) -> Iterator[bytes]:
        """The quads to add as N-Quads, ``size`` quads at a time."""

    def blocks(self) -> Iterator[tuple[str, bytes]]: ...
