"""One document through the extraction stages: Doc -> mentions -> coreference -> entities -> assertions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from . import coref, mentions, resolve
from .model import Document, Extraction
from .relations import Extractor


def extract(doc, document: Document, extractor: Extractor | None = None) -> Extraction:
    """Everything kg learns from one parsed document."""
    extractor = extractor or Extractor()
    found = mentions.find_mentions(doc, extractor.gazetteer, extractor.nominals)
    keyed = resolve.assign_keys(doc, found, extractor.gazetteer)
    with_refs = coref.resolve_references(doc, keyed, extractor.gazetteer, extractor.nominals)
    entities = resolve.entities(with_refs, extractor.gazetteer)
    assertions = extractor.extract(doc, with_refs, document.id)
    known = {e.key for e in entities}
    implied = {k for a in assertions for k in (a.subject, a.object)} - known
    entities = entities + resolve.gazetteer_entities(implied, extractor.gazetteer)
    return Extraction(document=document, entities=entities, assertions=tuple(assertions))


def extract_all(documents: Iterable[Document], n_process: int = 1) -> Iterator[Extraction]:
    """Parse ``documents`` in batches and extract each, in order."""
    from . import nlp

    extractor = Extractor()
    docs = list(documents) if not isinstance(documents, list) else documents
    for document, doc in zip(docs, nlp.parse((d.text for d in docs), n_process=n_process), strict=True):
        yield extract(doc, document, extractor)


def extract_batch(documents: list[Document]) -> list[Extraction]:
    """Parse and extract a batch in this process (the task a worker process runs)."""
    return list(extract_all(documents))


BATCH = 16  # documents per worker task: spaCy's measured sweet spot, enough work to amortize a round trip


class ProcessPool:
    """Extraction in ``n`` worker processes, each parsing *and* extracting its own batches.

    spaCy's own ``n_process`` parses in workers but leaves the extraction to the parent, which
    then competes with them for the cores; here the parent only writes to the store.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.pool = None  # started on the first batch: a rebuild with nothing new starts no worker

    @property
    def chunk(self) -> int:
        return BATCH * self.n * 4

    def __call__(self, documents: list[Document]) -> Iterator[Extraction]:
        if self.pool is None:
            import multiprocessing

            # spawn, not fork: the parent holds an open store and its threads
            self.pool = multiprocessing.get_context("spawn").Pool(self.n, initializer=_warm_up)
        batches = [documents[i:i + BATCH] for i in range(0, len(documents), BATCH)]
        for extractions in self.pool.imap_unordered(extract_batch, batches):
            yield from extractions

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None and self.pool is not None:
            self.pool.terminate()
        self.close()


def _warm_up() -> None:
    """Load the model, the gazetteer and the places once per worker, before the first batch."""
    from . import nlp
    from .geonames import load_places

    nlp.load()
    load_places()
