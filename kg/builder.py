"""Build: inputs -> documents -> extraction -> the store -> the derived graphs (:mod:`kg.derive`).
Documents already stored are skipped; :func:`remove_documents` takes documents out again.

Documents stream through: the extractor pulls them from the inputs as it has room (a bounded
number in flight), and the results are written :data:`WRITE_BATCH` at a time (the first ones
sooner: :data:`FIRST_WRITE`; none larger than :data:`WRITE_BYTES`), so memory holds a few
batches, never the corpus. Extraction runs in
this process, in a pool of worker processes (:class:`kg.extract.pools.ProcessPool`) or on a
Dask cluster (:mod:`kg.extract.cluster`); either way each document's graph comes back serialized
and is written here, so the graph is the same.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from .faults import crash_point
from .ingest import iter_inputs
from .namespaces import entity_iri
from .records import Document, DocumentGraph, InputProblem

WRITE_BATCH = 256  # documents per store write: one bulk load. Measured: 3x cheaper per document than a
                  # transaction each; batches of 512 cost the writing process 27% less CPU than 128
                  # (fewer files for RocksDB to compact). KG_WRITE_BATCH overrides it: smaller batches
                  # lose less work to a kill, larger ones load faster.


WRITE_BYTES = 16 << 20  # a store write's N-Quads at most, whatever its documents: the batch and its load
                        # bounded in memory, however long the documents (256 bench articles are 28 MB:
                        # measured, the building process's heap then peaked at 80 MB against 61 MB for
                        # a build of a fifth of them)


FIRST_WRITE = 16  # documents of the first store write (a worker's batch): the first results reach the store
                 # as they come, not after WRITE_BATCH of them; each write after it is as large as all
                 # written before it (16, 16, 32, 64, 128, then WRITE_BATCH), so only ~4 more bulk loads


TAIL_BATCH = 32  # documents per store write once the input is read to its end: what the workers still
                 # hold is written as it comes, while they finish, not in one load after the last document


def write_batch() -> int:
    try:
        return max(1, int(os.environ.get("KG_WRITE_BATCH", WRITE_BATCH)))
    except ValueError:
        return WRITE_BATCH


Extract = Callable[[Iterable[Document]], Iterator[DocumentGraph]]


@dataclass
class BuildReport:
    added: int = 0
    skipped: int = 0
    assertions: int = 0
    quads: int = 0
    entities: int = 0
    processes: int | None = None  # the local processes that extracted (none if nothing was new, or on Dask)
    merge_child: dict[str, float] = field(default_factory=dict)  # peaks of the children that derived labels and events, if any ran
    problems: list[InputProblem] = field(default_factory=list)


def build(sources: Iterable[str], store,
          on_problem: Callable[[InputProblem], None] | None = None,
          on_document: Callable[[Document, int], None] | None = None,
          extract: Extract | None = None,
          on_write: Callable[[int], None] | None = None) -> BuildReport:
    """Add every new article in ``sources`` to ``store``; report what happened.

    Bad inputs are reported through ``on_problem`` (and in the report) and do not stop the build.
    ``on_write`` is told the documents written so far each time a batch is handed to the store
    (whose writer thread loads it while the next documents come): the bench times the writing by it.
    ``extract`` maps an iterator of documents to their graphs, in any order, pulling
    documents as it goes (default: in this process, see :func:`kg.extract.pipeline.extract_graphs`).
    """
    from .derive import follow
    from .derive.refresh import prepare, refresh

    if extract is None:
        from .extract.pipeline import extract_graphs as extract

    report = BuildReport()
    stored = store.document_ids()
    refresh_all = not stored or store.labels_stale()  # a first build, or one killed before its labels
    # a first build derives as its documents are written, a large one in a child (kg.derive.follow)
    follower = follow.Follower(store) if not stored and follow.can_follow(store) else None
    touched: set[str] = set()
    batch: list[DocumentGraph] = []
    held = 0  # the batch's N-Quads, in bytes
    read_to_end = threading.Event()  # set by whichever thread pulls the last document

    def new_documents() -> Iterator[Document]:
        for item in iter_inputs(sources):
            if isinstance(item, InputProblem):
                report.problems.append(item)
                if on_problem:
                    on_problem(item)
            elif item.id in stored:
                report.skipped += 1
            else:
                stored.add(item.id)
                yield item
        read_to_end.set()

    def write() -> None:
        nonlocal held
        if not report.added:  # from the first write until the labels are recomputed
            store.mark_labels_stale()
        store.add_batch(batch)
        if follower is not None:
            follower.send([graph.nquads for graph in batch])
        for graph in batch:
            report.quads += graph.quads
            report.added += 1
            report.assertions += graph.assertions
            if not refresh_all:  # else every entity is recomputed: no set that grows with the corpus
                touched.update(str(entity_iri(key)) for key in graph.entities)
        batch.clear()
        held = 0
        if on_write:
            on_write(report.added)

    size = write_batch()
    documents = new_documents()
    first = next(documents, None)  # nothing new: spaCy, the extractor and the workers stay unloaded
    preparing: threading.Thread | None = None
    try:
        for graph in extract(itertools.chain([first], documents)) if first is not None else ():
            if graph.error is not None:  # its parse or extraction failed: reported, the others written
                problem = InputProblem(graph.document.path or graph.document.name, graph.error)
                report.problems.append(problem)
                if on_problem:
                    on_problem(problem)
                continue
            if preparing is None:
                preparing = threading.Thread(target=prepare, name="kg-refresh-data", daemon=True)
                preparing.start()
            batch.append(graph)
            held += len(graph.nquads)
            if on_document:  # progress as documents are extracted; they are written a batch at a time
                on_document(graph.document, graph.assertions)
            due = min(size, max(FIRST_WRITE, report.added))
            if len(batch) >= (min(due, TAIL_BATCH) if read_to_end.is_set() else due) or held >= WRITE_BYTES:
                write()
        if batch:
            write()
        store.flush()  # every document written (and durable) before the labels
        crash_point("labels")
        if touched or refresh_all:  # labels and events of the entities this build mentioned (all, if owed)
            if preparing is not None:
                preparing.join()
            refreshed = (follower.finish() if follower is not None else None) or \
                refresh(store, None if refresh_all else touched)
            report.entities, report.merge_child = refreshed.entities, dict(refreshed.merge_child)
            store.mark_labels_stale(False)
            store.flush()
    finally:
        if follower is not None:
            follower.close()
    return report


def remove_documents(store, doc_ids: Iterable[str]) -> int:
    """Take documents out: their graphs go, and with them every triple only they supported; the
    labels of the entities they mentioned are recomputed (an entity nothing mentions any more
    loses them), and so are the events they took part in (an event only they told goes, a
    merge of their statements with others' is undone). Returns how many documents were removed."""
    from .derive.refresh import refresh
    from .store.documents import mentioned_entities

    ids = list(doc_ids)
    entities = mentioned_entities(store, ids)
    store.mark_labels_stale()
    removed = sum(1 for doc_id in ids if store.remove_document(doc_id))
    refresh(store, entities)
    store.mark_labels_stale(False)
    store.flush()
    store.compact()
    return removed
