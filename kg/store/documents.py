"""Finding and removing stored documents, through the store protocol."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..vocab import document_graph, document_iri
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


def remove_documents(store: Store, doc_ids: Iterable[str]) -> int:
    """Take documents out: their graphs go, and with them every triple only they supported; the
    labels of the entities they mentioned are recomputed (an entity nothing mentions any more
    loses them), and so are the events they took part in (an event only they told goes, a
    merge of their statements with others' is undone). Returns how many documents were removed."""
    ids = list(doc_ids)
    entities: set[str] = set()
    for doc_id in ids:
        rows = store.query(f"SELECT DISTINCT ?e WHERE {{ GRAPH <{document_graph(doc_id)}> {{ ?e kg:mentionedIn "
                           f"<{document_iri(doc_id)}> }} }}", union=False)
        entities.update(row["e"].value for row in rows)
    store.mark_labels_stale()
    removed = sum(1 for doc_id in ids if store.remove_document(doc_id))
    store.refresh(entities)
    store.mark_labels_stale(False)
    store.flush()
    store.compact()
    return removed
