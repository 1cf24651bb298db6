"""The embedded, persistent store: Oxigraph (RocksDB on disk), seen through rdflib.

Measured here (see docs/store.md) against rdflib's in-memory store: queries 30-300x faster and
Turtle export 50x faster, so kg keeps its graph in Oxigraph and offers it to Python code as an
rdflib ``Dataset`` (:meth:`LocalStore.dataset`), with the default graph as the union of all graphs.

Documents are bulk-loaded a batch at a time (measured: 2.8x cheaper than a transaction per
document) under a write-in-progress marker that is set transactionally before the load and
cleared after it; opening the store for writing takes out any graph still marked, so a killed
build leaves every document either wholly in the store or not at all. Each written graph is also
appended to the store's N-Quads journal (:mod:`kg.store.journal`), from which export copies it;
so are the subjects of the entity and event graphs (derived by :mod:`kg.derive`) each refresh
writes. The store can make a checkpoint of itself for the derivation's child processes
(``Capabilities.checkpoints``), and applies the files they write.
"""

from __future__ import annotations

import io
import itertools
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import IO

import pyoxigraph as ox

from ..errors import StoreError
from ..faults import crash_point
from ..ontology import ontology_quads
from ..rdf import HIDDEN_LABEL, TYPE, N, nquads
from ..records import DocumentGraph
from ..namespaces import ENTITY_GRAPH, EVENT_GRAPH, KG, META_GRAPH, ONTOLOGY_GRAPH, PREFIXES, document_graph
from .journal import COMPACT_WHEN_DEAD, Journal
from .protocol import Capabilities, EntityChange, EntityChanges, chunked

JOURNAL_FOLDER = "nquads"  # inside the store folder; RocksDB leaves folders it did not make alone
CHECKPOINT = "derive.tmp"  # inside the store folder (hard links need one file system); removed after use
FOLLOWING = "derive.follow"  # inside the store folder: what a first build derives as it goes (kg.derive.follow)
READ_SIZE = 1 << 20  # bytes pyoxigraph reads at a time from a stream (Joined)
LOAD_BLOCK = 20000  # quads of a derived graph per bulk load: bounded memory; a load costs ~7 ms of its own
FILE_BLOCK = 50000  # quads per bulk load of a derived graph's file (apply_derived), two loading at once. Measured
                    # on 2,000 bench articles, after the last document: 100,000-quad blocks raised the building
                    # process's peak to 289 MB; 20,000-quad blocks left 0.8 s of RocksDB flushing after the last
                    # load; 50,000: a peak of 243 MB (231 refreshing after the build), a flush of 0.2 s. At
                    # 10,000 articles whole files flush in 0.3 s where 50,000-quad loads leave 7 s, but
                    # the building process peaks at 946 MB


def load_own(store: ox.Store, data: bytes | IO[bytes]) -> None:
    """Bulk-load N-Quads that kg serialized (pyoxigraph wrote them from terms it had checked), without
    validating their IRIs again: measured, a fifth of the load's CPU time."""
    store.bulk_load(data, format=ox.RdfFormat.N_QUADS, lenient=True)


class Joined(io.RawIOBase):
    """Byte strings read one after another as one stream: a batch's documents bulk-loaded without
    first joining them into one more copy of the batch (measured on 256 bench articles' graphs, 26
    MB: the heap's peak 26 MB lower, the load 0.07 s longer, 0.67 s against 0.60)."""

    def __init__(self, parts: Iterable[bytes]) -> None:
        super().__init__()
        self._parts = iter(parts)
        self._left = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._left:
            part = next(self._parts, None)
            if part is None:
                return 0
            self._left = memoryview(part)
        n = min(len(buffer), len(self._left))
        buffer[:n] = self._left[:n]
        self._left = self._left[n:]
        return n


_IN_PROGRESS = N(KG.writeInProgress)
_TRUE = ox.Literal(True)


class LocalStore:
    """A kg store on disk. Open it writable for building, read-only for everything else."""

    capabilities = Capabilities(kind="oxigraph", journal=True, kill_queries=True, checkpoints=True)

    def __init__(self, path: str | os.PathLike, *, writable: bool = False) -> None:
        self.path = Path(path)
        self.writable = writable
        self._writer: ThreadPoolExecutor | None = None
        self._pending: Future | None = None
        if not (self.path / "CURRENT").exists():  # RocksDB's first file, written when a store is made
            if not writable:
                raise StoreError(f"no kg store at {self.path}", hint="build one first with `kg build FILES --store PATH`")
            # RocksDB would write its files among whatever the folder holds (articles, a home folder)
            if self.path.exists() and not self.path.is_dir():
                raise StoreError(f"{self.path} is a file, not a kg store", hint="give --store a new or empty folder")
            if self.path.is_dir() and any(self.path.iterdir()):
                raise StoreError(f"{self.path} is not a kg store: the folder holds other files",
                                 hint="give --store a new or empty folder, or an existing store")
        try:
            if writable:
                self.path.mkdir(parents=True, exist_ok=True)
                self._store = ox.Store(str(self.path))
            else:
                self._store = ox.Store.read_only(str(self.path))
        except OSError as exc:
            message = str(exc)
            if "lock" in message.lower():
                raise StoreError(f"the store at {self.path} is in use by another kg build",
                                 hint="wait for it to finish, or use another --store") from None
            raise StoreError(f"cannot open the store at {self.path}: {message.splitlines()[0]}") from None
        self.journal = Journal(self.path / JOURNAL_FOLDER, writable)
        if writable:
            self._ensure_ontology()
            self._take_out_unfinished()
            self.drop_checkpoint()  # one a killed build left behind
            shutil.rmtree(self.path / FOLLOWING, ignore_errors=True)  # and what its derivation had written
            # a store made before the entity graph held the entities' types and facts, or their
            # lower-case names: the next build recomputes the whole graph, as while labels are stale
            entities = N(ENTITY_GRAPH)
            if self._ox.contains_named_graph(entities) and any(
                    next(iter(self._ox.quads_for_pattern(None, term, None, entities)), None) is None
                    for term in (TYPE, HIDDEN_LABEL)):
                self.mark_labels_stale()

    # ------------------------------------------------------------------ writing

    def _ensure_ontology(self) -> None:
        graph = N(ONTOLOGY_GRAPH)
        quads = ontology_quads()
        current = set(self._ox.quads_for_pattern(None, None, None, graph))
        if current != set(quads):
            if self._ox.contains_named_graph(graph):
                self._ox.remove_graph(graph)
            self._ox.extend(quads)

    def has_document(self, doc_id: str) -> bool:
        return self._ox.contains_named_graph(N(document_graph(doc_id)))

    def document_ids(self) -> set[str]:
        """Content hashes of every stored document (one query, for a build to skip them)."""
        prefix = str(document_graph(""))
        return {g.value[len(prefix):] for g in self._ox.named_graphs() if g.value.startswith(prefix)}

    def add_batch(self, graphs: list[DocumentGraph]) -> None:
        """Write documents' graphs, each wholly or (after a kill, once the store is reopened) not at
        all.

        Loading them runs on a writer thread (Oxigraph parses and loads without the GIL), so the
        next documents are extracted meanwhile. One write is in flight at a time, and anything
        else done with the store waits for it.
        """
        payloads = [(graph.document.id, graph.nquads) for graph in graphs]
        self._wait()
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kg-store-writer")
        self._pending = self._writer.submit(self._write, payloads)

    def _write(self, payloads: list[tuple[str, bytes]]) -> None:
        store = self._store
        markers = [ox.Quad(N(document_graph(doc_id)), _IN_PROGRESS, _TRUE, N(META_GRAPH)) for doc_id, _ in payloads]
        store.extend(markers)
        crash_point("store-marked")
        load_own(store, io.BufferedReader(Joined(payload for _, payload in payloads), READ_SIZE))
        crash_point("store-loaded")
        self.journal.append(payloads)
        crash_point("store-journalled")
        for marker in markers:
            store.remove(marker)

    def _wait(self) -> None:
        """Wait for the write in flight, raising its error if it failed."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()

    @property
    def _ox(self) -> ox.Store:
        self._wait()
        return self._store

    def _take_out_unfinished(self) -> None:
        """Remove the graphs a killed build was bulk-loading; the next build extracts them again."""
        markers = list(self._ox.quads_for_pattern(None, _IN_PROGRESS, None, N(META_GRAPH)))
        if not markers:
            return
        self.mark_labels_stale()
        prefix = str(document_graph(""))
        self.journal.forget(m.subject.value[len(prefix):] for m in markers)
        for marker in markers:
            if self._ox.contains_named_graph(marker.subject):
                self._ox.remove_graph(marker.subject)
            self._ox.remove(marker)
        self._ox.flush()

    def remove_document(self, doc_id: str) -> bool:
        graph = N(document_graph(doc_id))
        if not self._ox.contains_named_graph(graph):
            return False
        self.journal.forget([doc_id])  # before the store forgets it: a block must not outlive its document
        self._ox.remove_graph(graph)
        return True

    def put_graph(self, graph: str, quads: list[ox.Quad]) -> None:
        self._wait()
        node = N(graph)
        if self._ox.contains_named_graph(node):
            self._ox.remove_graph(node)
        self._ox.extend([ox.Quad(q.subject, q.predicate, q.object, node) for q in quads])
        self._ox.flush()

    def compact(self) -> None:
        """Rewrite the journal without the blocks of removed documents, once most of it is dead."""
        if self.journal.dead_share() >= COMPACT_WHEN_DEAD:  # the documents' names only when it will
            self.journal.compact(self.document_ids())

    # entity labels are recomputed after documents change; a marker in the meta graph says a
    # refresh is owed, so a build killed in between is finished by the next one
    def labels_stale(self) -> bool:
        return any(True for _ in self._ox.quads_for_pattern(N(ENTITY_GRAPH), N(KG.labelsStale), None, N(META_GRAPH)))

    def mark_labels_stale(self, stale: bool = True) -> None:
        quad = ox.Quad(N(ENTITY_GRAPH), N(KG.labelsStale), ox.Literal(True), N(META_GRAPH))
        if stale:
            self._ox.add(quad)
        else:
            self._ox.remove(quad)

    def write_entities(self, changes: Iterable[list[EntityChange]], keep: list[str] | None) -> None:
        """Write the entity graph's changes (:mod:`kg.derive.entities` derives them), a block at a
        time, each entity's quads also to the journal; with ``keep`` (the whole graph derived), the
        entities that no document mentions any more go."""
        graph = N(ENTITY_GRAPH)
        existed = self._ox.contains_named_graph(graph)
        self.journal.open(graph.value, reset=keep is not None)
        for block in changes:
            stale, fresh, journalled = [], [], []
            for iri, gone, added, now in block:
                stale += gone
                fresh += added
                journalled.append((iri, nquads(now)))
            for quad in stale:
                self._ox.remove(quad)
            self._load(fresh)
            self.journal.put(graph.value, journalled)
        if keep is not None and existed:
            self._remove_subjects(graph, keep=set(keep))
        self._seal(graph)

    def _seal(self, graph: ox.NamedNode) -> None:
        """The journal's blocks of a derived graph are complete: written after the store has
        every change of the refresh, so a sealed block is never ahead of the store."""
        self.journal.seal(graph.value)
        self.compact()  # each refresh leaves the blocks it replaced behind

    # a checkpoint for the derivation's child processes (kg.derive.offload), and what they wrote
    def checkpoint(self) -> Path:
        """A new folder inside the store's holding a checkpoint of the store as ``store``
        (RocksDB hard-links its files: no copy, measured 0.01 s), every write so far in it."""
        self.drop_checkpoint()
        folder = self.path / CHECKPOINT
        try:
            folder.mkdir()
            self._ox.backup(str(folder / "store"))
        except BaseException:
            self.drop_checkpoint()
            raise
        return folder

    def scratch(self) -> Path:
        """An empty folder inside the store's for files a derivation writes while a build runs
        (:mod:`kg.derive.follow`); the next writable opening removes what a killed build left."""
        folder = self.path / FOLLOWING
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        return folder

    def drop_checkpoint(self) -> None:
        """Remove the checkpoint (its files are hard links: nothing else is lost)."""
        shutil.rmtree(self.path / CHECKPOINT, ignore_errors=True)

    def apply_entities(self, changes: EntityChanges, whole: bool) -> None:
        """Apply the entity graph's changes a child derived (as :meth:`write_entities` writes
        them): removals, bulk loads and journal blocks as they are, no quads decoded."""
        graph = N(ENTITY_GRAPH)
        self.journal.open(graph.value, reset=whole)
        for block in chunked(changes.removed(), LOAD_BLOCK):
            for quad in block:
                self._ox.remove(quad)
            self._ox.flush()
        for data in changes.added(LOAD_BLOCK):
            load_own(self._ox, data)
        for block in _batches(changes.blocks(), LOAD_BLOCK):
            self.journal.put(graph.value, block)
        self._seal(graph)

    def apply_derived(self, parts: Iterable[tuple[str, Path]],
                      blocks: Callable[[Path], Iterator[tuple[str, bytes]]]) -> None:
        """Both derived graphs whole, into a store that holds neither (a first build's, derived as
        it went: :mod:`kg.derive.follow`), from N-Quads files of one block per subject, which
        ``blocks`` reads for the journal: ``parts`` yields ("entities", the entity graph's file)
        once and ("events", a part of the events graph) for each event type, in the order a child
        writes them. Each part is loaded as it comes, on one of two threads: a bulk load is one
        core's work (measured: 1.55 CPU-s in 1.6 s for the 219,140 event quads of 2,000 bench
        articles), and after the last document the workers have left the cores idle; its journal
        blocks are written meanwhile. Should ``parts`` raise, neither graph is sealed: the
        refresh that follows derives both."""
        graphs = {"entities": N(ENTITY_GRAPH), "events": N(EVENT_GRAPH)}
        for graph in graphs.values():
            self.journal.open(graph.value, reset=True)
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="kg-store-derived") as loader:
            loading = []
            try:
                for kind, path in parts:
                    loading.append(loader.submit(self._load_file, path))
                    for block in _batches(blocks(path), LOAD_BLOCK):
                        self.journal.put(graphs[kind].value, block)
            finally:
                for load in loading:
                    load.result()
        for graph in graphs.values():
            self._seal(graph)

    def _load_file(self, path: Path) -> None:
        """Bulk-load an N-Quads file :data:`FILE_BLOCK` quads at a time, each block streamed from the
        file (:class:`Joined`): memory bounded by the load, whatever the size of the build."""
        with open(path, "rb") as data:
            while first := data.readline():
                lines = itertools.chain([first], itertools.islice(data, FILE_BLOCK - 1))
                load_own(self._ox, io.BufferedReader(Joined(lines), READ_SIZE))

    def write_events(self, events: Iterable[list[ox.Quad]], stale: set[str] | None) -> int:
        """Replace the events graph's subjects ``stale`` (all if None) with ``events`` (merged by
        :mod:`kg.derive.eventmerge`); the quads written."""
        return self.apply_events(((event[0].subject.value, nquads(event)) for event in events), stale)

    def apply_events(self, blocks: Iterable[tuple[str, bytes]], stale: set[str] | None) -> int:
        """:meth:`write_events` of (subject, N-Quads) blocks: those a child merged, as it wrote them."""
        graph = N(EVENT_GRAPH)
        self.journal.open(graph.value, reset=stale is None)
        if stale is None:  # the whole graph is replaced
            if self._ox.contains_named_graph(graph):
                self._remove_subjects(graph, keep=set())
        else:
            self.journal.drop(graph.value, stale)
            for iri in stale:
                for quad in list(self._ox.quads_for_pattern(ox.NamedNode(iri), None, None, graph)):
                    self._ox.remove(quad)
        written = 0
        for block in _batches(blocks, LOAD_BLOCK):  # written as they come: none held
            data = b"".join(text for _, text in block)
            load_own(self._ox, data)
            self.journal.put(graph.value, block)
            written += data.count(b"\n")
        self._seal(graph)
        return written

    def _load(self, quads: list[ox.Quad]) -> None:
        """Write quads of a graph derived from the documents (entities, events) with the bulk
        loader. A transaction (``extend``) keeps its writes in RocksDB's memtables, 128 MB per
        index before a flush, so a build's memory grew with the graphs it derived (measured:
        +300 MB at 2,000 articles), and costs 4x the time. The load is not atomic, and need not
        be: the labels stay marked stale until the refresh is done, and a stale refresh is redone
        whole by the next build."""
        if quads:
            self._ox.bulk_extend(quads)

    def _remove_subjects(self, graph: ox.NamedNode, keep: set[str]) -> None:
        """Remove from ``graph`` the triples of every subject not in ``keep``, a block at a time:
        ``remove_graph`` is one transaction, held in memory whole (measured: +320 MB for the
        events graph of 2,000 articles)."""
        for block in chunked(self.subjects_not_in(graph, keep), LOAD_BLOCK):
            for quad in block:
                self._ox.remove(quad)
            self._ox.flush()  # the deletions out of RocksDB's write buffers: memory bounded by a block

    def subjects_not_in(self, graph: ox.NamedNode, keep: set[str]) -> Iterator[ox.Quad]:
        """The quads of ``graph`` whose subject is not in ``keep``."""
        return (q for q in self._ox.quads_for_pattern(None, None, None, graph) if q.subject.value not in keep)

    def flush(self) -> None:
        if self.writable:
            self._ox.flush()

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, substitutions: dict | None = None, union: bool = True,
              timeout: float | None = None, default_graph=None):
        """``timeout`` cannot bound an evaluation in this process (Oxigraph has no way to stop
        one): kg.graph.sparql evaluates in a child process it kills (``kill_queries``)."""
        # one named graph as the default graph: Oxigraph reads it through its indexes of that graph,
        # where a list of the 10,000 document graphs would cost 40-500x the union (measured)
        if default_graph is not None:
            return self._ox.query(sparql, prefixes=PREFIXES, default_graph=N(default_graph),
                                  substitutions=substitutions or None)
        return self._ox.query(sparql, prefixes=PREFIXES, use_default_graph_as_union=union,
                              substitutions=substitutions or None)

    def data_graphs(self) -> list:
        """Every named graph except the ontology and the bookkeeping."""
        return [g for g in self._ox.named_graphs() if g.value not in (str(ONTOLOGY_GRAPH), str(META_GRAPH))]

    def quads(self, graph=None) -> Iterator[ox.Quad]:
        """Quads of one named graph, or of every data graph (not the ontology)."""
        if graph is not None:
            yield from self._ox.quads_for_pattern(None, None, None, graph)
            return
        hidden = (str(ONTOLOGY_GRAPH), str(META_GRAPH))
        for quad in self._ox.quads_for_pattern(None, None, None, None):
            if not isinstance(quad.graph_name, ox.DefaultGraph) and quad.graph_name.value not in hidden:
                yield quad

    @property
    def location(self) -> str:
        return str(self.path)

    def dump(self, output: IO[bytes], fmt: ox.RdfFormat, prefixes: dict | None = None, progress=None) -> None:
        """The dataset, serialized inside Oxigraph (a Python wrapper in between costs 4x). N-Quads
        copies document graphs from the journal where it has them (5x faster than decoding them
        out of RocksDB), and the entity and event graphs where the journal's copy is sealed and
        no refresh is owed, and reads the rest from the store. Bookkeeping is left out."""
        docs = self.document_ids()
        done, derived = set(), set()
        if fmt == ox.RdfFormat.N_QUADS:
            done = self.journal.copy_to(output, docs)
            if not self.labels_stale():  # a refresh is owed: the derived graphs are read from the store
                derived = self.journal.copy_derived(output, (str(ENTITY_GRAPH), str(EVENT_GRAPH)))
        graphs = [N(document_graph(doc)) for doc in sorted(docs - done)]
        prefix = str(document_graph(""))
        graphs += [g for g in self._ox.named_graphs() if not g.value.startswith(prefix)
                   and g.value != str(META_GRAPH) and g.value not in derived]
        if fmt == ox.RdfFormat.N_QUADS:
            for graph in graphs:
                ox.serialize(self._ox.quads_for_pattern(None, None, None, graph), output, format=fmt)
            return
        quads = (q for g in graphs for q in self._ox.quads_for_pattern(None, None, None, g))
        ox.serialize(quads, output, format=fmt, prefixes=prefixes)

    def construct(self, sparql: str, output: IO[bytes], fmt: ox.RdfFormat, prefixes: dict | None = None,
                  progress=None) -> None:
        self._ox.query(sparql, prefixes=PREFIXES).serialize(output, fmt)

    def dataset(self):
        """An rdflib ``Dataset`` over this store (SPARQL runs in Oxigraph), default graph = union."""
        from oxrdflib import OxigraphStore
        from rdflib import Dataset

        return Dataset(store=OxigraphStore(store=self._ox), default_union=True)

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self._writer is not None:
                self._writer.shutdown(wait=True)
            del self._store

    def __enter__(self) -> LocalStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _batches(events: Iterable[tuple[str, bytes]], size: int) -> Iterator[list[tuple[str, bytes]]]:
    """Blocks (subject, N-Quads) in batches of about ``size`` quads (a block is never split)."""
    batch, quads = [], 0
    for event in events:
        batch.append(event)
        quads += event[1].count(b"\n")
        if quads >= size:
            yield batch
            batch, quads = [], 0
    if batch:
        yield batch
