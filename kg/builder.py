"""Build: inputs -> documents -> extraction -> the store. Documents already stored are skipped.

Documents stream through in chunks of :data:`CHUNK`: memory holds one chunk's parses and
extractions, never the corpus. Extraction runs in this process, in a pool of worker processes
(:class:`kg.pipeline.ProcessPool`) or on a Dask cluster (:mod:`kg.cluster`); either way the
results are written here, one document graph per transaction, so the graph is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from .ingest import iter_inputs
from .model import Document, Extraction, InputProblem
from .vocab import entity_iri

CHUNK = 64  # documents parsed per round: bounds memory however many articles come in
FLUSH_EVERY = 500  # documents between flushes of the store's write buffers to disk (measured: without
                   # them RocksDB's memtables grew by ~200 MB per 1,000 documents)

Extract = Callable[[list[Document]], Iterator[Extraction]]


@dataclass
class BuildReport:
    added: int = 0
    skipped: int = 0
    assertions: int = 0
    quads: int = 0
    entities: int = 0
    problems: list[InputProblem] = field(default_factory=list)


def build(sources: Iterable[str], store,
          on_problem: Callable[[InputProblem], None] | None = None,
          on_document: Callable[[Document, int], None] | None = None,
          extract: Extract | None = None, chunk: int = CHUNK) -> BuildReport:
    """Add every new article in ``sources`` to ``store``; report what happened.

    Bad inputs are reported through ``on_problem`` (and in the report) and do not stop the build.
    ``extract`` maps a list of documents to their extractions, in any order (default: in this
    process, see :func:`kg.pipeline.extract_all`).
    """
    if extract is None:
        from .pipeline import extract_all as extract

    report = BuildReport()
    pending: list[Document] = []
    stored = store.document_ids()
    refresh_all = not stored or store.labels_stale()  # a first build, or one killed before its labels
    touched: set[str] = set()
    marked = False

    def flush() -> None:
        nonlocal marked
        if not marked:  # from the first write until the labels are recomputed
            store.mark_labels_stale()
            marked = True
        for extraction in extract(pending):
            report.quads += store.add(extraction)
            report.added += 1
            if report.added % FLUSH_EVERY == 0:
                store.flush()
            report.assertions += len(extraction.assertions)
            touched.update(str(entity_iri(e.key)) for e in extraction.entities)
            if on_document:
                on_document(extraction.document, len(extraction.assertions))
        pending.clear()

    for item in iter_inputs(sources):
        if isinstance(item, InputProblem):
            report.problems.append(item)
            if on_problem:
                on_problem(item)
            continue
        if item.id in stored:
            report.skipped += 1
            continue
        stored.add(item.id)
        pending.append(item)
        if len(pending) >= chunk:
            flush()
    if pending:
        flush()
    if touched or refresh_all:  # labels of the entities this build mentioned (all, if owed)
        report.entities = store.refresh_entities(None if refresh_all else touched)
        store.mark_labels_stale(False)
    store.flush()
    return report
