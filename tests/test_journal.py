"""The N-Quads journal beside the store: export copies it, and it never disagrees with the store."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

import kg
from conftest import EXAMPLES, ROOT
from kg.store import journal
from kg.derive.entities import all_entities
from kg.derive.refresh import refresh_entities
from kg.namespaces import ENTITY_GRAPH, EVENT_GRAPH

DEV = ROOT / "tests" / "data" / "dev" / "articles"


def stored(location) -> set[str]:
    """The store's data and ontology graphs, read from Oxigraph itself, as N-Quads lines."""
    store = ox.Store.read_only(str(location))
    quads = store.quads_for_pattern(None, None, None, None)
    return {str(q) for q in quads if not q.graph_name.value.endswith("/graph/meta")}


def exported(location, tmp_path) -> set[str]:
    out = tmp_path / "export.nq"
    kg.export("nquads", out, store=location)
    lines = out.read_bytes()
    return {str(q) for q in ox.parse(lines, format=ox.RdfFormat.N_QUADS)}


@pytest.fixture
def built(tmp_path):
    store = tmp_path / "store"
    kg.build([str(EXAMPLES), str(DEV)], store=store)
    return store


def copies(monkeypatch, method: str) -> list:
    """What each call of the journal's ``method`` returns, recorded."""
    calls = []
    real = getattr(journal.Journal, method)
    monkeypatch.setattr(journal.Journal, method, lambda self, *args: calls.append(real(self, *args)) or calls[-1])
    return calls


def test_export_copies_the_journal_and_equals_the_store(built, tmp_path, monkeypatch):
    documents, derived = copies(monkeypatch, "copy_to"), copies(monkeypatch, "copy_derived")
    assert exported(built, tmp_path) == stored(built)
    assert len(documents[0]) == 16, "every document came from the journal"
    assert derived == [{str(ENTITY_GRAPH), str(EVENT_GRAPH)}], "and the entity and event graphs"


def test_a_derived_graph_an_unfinished_refresh_changed_is_read_from_the_store(built, tmp_path, monkeypatch):
    """A refresh killed after it changed the store, before it sealed the journal: the graph is
    read from the store, also after a refresh of part of it (its other blocks may be wrong),
    until a refresh of all of it."""
    from kg.rdf import N

    derived = copies(monkeypatch, "copy_derived")
    entities = N(ENTITY_GRAPH)
    journal.Journal(built / "nquads", writable=True).open(str(ENTITY_GRAPH))  # what the refresh writes first
    raw = ox.Store(str(built))
    victim = next(iter(raw.quads_for_pattern(None, None, None, entities)))
    raw.remove(victim)  # and then what it changed in the store before the kill
    raw.flush()
    del raw
    assert exported(built, tmp_path) == stored(built)
    with kg.open_store(built, writable=True) as store:
        others = [iri for iri in all_entities(store) if iri != victim.subject.value]
        refresh_entities(store, others[:3])
    assert exported(built, tmp_path) == stored(built)
    assert derived[-1] == {str(EVENT_GRAPH)}, "the entity graph came from the store, twice"
    with kg.open_store(built, writable=True) as store:
        refresh_entities(store, None)
    assert victim.subject.value in {q.split()[0][1:-1] for q in exported(built, tmp_path)}
    assert exported(built, tmp_path) == stored(built)
    assert derived[-1] == {str(ENTITY_GRAPH), str(EVENT_GRAPH)}


def test_damaged_or_missing_blocks_are_read_from_the_store(built, tmp_path):
    data = next((built / "nquads").glob("*.nq"))
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0x20  # one flipped bit in one block: its checksum fails
    data.write_bytes(bytes(raw))
    with open(next((built / "nquads").glob("*.idx")), "ab") as index:
        index.write(b"add 12ab 0 99")  # a record cut off by a kill
    assert exported(built, tmp_path) == stored(built)


def test_removed_documents_leave_the_export_and_compaction_keeps_the_rest(built, tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "COMPACT_MIN_BYTES", 0)
    names = sorted(p.stem for p in DEV.glob("*.txt"))[:12]
    kg.remove(names, store=built)
    files = sorted(p.name for p in (built / "nquads").iterdir())
    assert files == ["000001.idx", "000001.nq"], "more than half the bytes were dead: a new generation"
    assert exported(built, tmp_path) == stored(built)
    kg.build([str(DEV)], store=built)  # back again: appended to the new generation
    assert exported(built, tmp_path) == stored(built)
    index = (built / "nquads" / "000001.idx").read_text().splitlines()
    assert len([line for line in index if line.startswith("add ")]) == 16


def test_a_store_without_a_journal_exports_the_same(built, tmp_path):
    want = exported(built, tmp_path)
    for path in (built / "nquads").iterdir():
        path.unlink()
    assert exported(built, tmp_path) == want


def test_a_graph_left_marked_by_a_killed_write_is_taken_out_on_reopening(built, tmp_path):
    """What a kill between the marker and its removal leaves: the next writer removes the graph,
    tombstones its journal block, and a build extracts the document again."""
    from kg.rdf import N
    from kg.store.local import _IN_PROGRESS, _TRUE
    from kg.namespaces import META_GRAPH, document_graph

    whole = stored(built)
    with kg.open_store(built) as store:
        victim = sorted(store.document_ids())[0]
    marker = ox.Quad(N(document_graph(victim)), _IN_PROGRESS, _TRUE, N(META_GRAPH))
    raw = ox.Store(str(built))  # what a killed writer leaves: the marker, set before its bulk load
    raw.add(marker)
    raw.flush()
    del raw
    with kg.open_store(built, writable=True) as store:  # the next build's open
        assert victim not in store.document_ids()
        assert store.labels_stale(), "labels are owed until a build recomputes them"
    assert not list(ox.Store.read_only(str(built)).quads_for_pattern(None, _IN_PROGRESS, None, None))
    assert exported(built, tmp_path) == stored(built), "the journal block went with the graph"
    report = kg.build([str(EXAMPLES), str(DEV)], store=built)
    assert report.added == 1 and stored(built) == whole
