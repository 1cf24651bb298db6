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
