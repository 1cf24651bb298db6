"""Finding stored documents, and what they mention, through the store protocol."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..namespaces import document_graph, document_iri
from .protocol import Store


def find_documents(store: Store, reference: str) -> list[tuple[str, str]]:
    """(content hash, name) of the stored documents ``reference`` names: a content hash, its
    first 8 or more characters, a document name (file stem or JSONL id) or the path it was read from."""
    ref = reference.strip()
    rows = store.query(
        "SELECT ?hash ?name ?path WHERE { GRAPH ?g { ?d a kg:Document ; kg:contentHash ?hash ; "
        "dcterms:identifier ?name OPTIONAL { ?d prov:atLocation ?path } } }", union=False)
    found = []
    as_path = str(Path(ref).resolve()) if ref else ""
    for row in rows:
        doc_hash, name = row["hash"].value, row["name"].value
        path = row["path"].value if row["path"] is not None else None
        if (ref == doc_hash or (len(ref) >= 8 and doc_hash.startswith(ref.lower())) or ref == name
                or (path is not None and (ref == path or as_path == str(Path(path).resolve())))):
            found.append((doc_hash, name))
    return sorted(set(found))


def mentioned_entities(store: Store, doc_ids: Iterable[str]) -> set[str]:
    """The IRIs of the entities the documents ``doc_ids`` mention: those whose derived graphs a
    removal of them changes (:func:`kg.builder.remove_documents`)."""
    entities: set[str] = set()
    for doc_id in doc_ids:
        rows = store.query(f"SELECT DISTINCT ?e WHERE {{ GRAPH <{document_graph(doc_id)}> {{ ?e kg:mentionedIn "
                           f"<{document_iri(doc_id)}> }} }}", union=False)
        entities.update(row["e"].value for row in rows)
    return entities
