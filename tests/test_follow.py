"""A first build derives its entity graph and events while its documents are extracted, in a
child fed the written batches (kg.derive.follow): the same graph as the refresh after the last
document, and that refresh again wherever the child fails."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from conftest import EXAMPLES, ROOT, invoke_kg

pytestmark = pytest.mark.slow  # builds with the real pipeline, child processes


def _quads(location) -> set[str]:
    import kg

    with kg.open_store(location) as store:
        return {str(q) for q in store.quads()}


@pytest.fixture
def following(monkeypatch):
    """Builds follow from their first document (the examples are below the default size)."""
    monkeypatch.setenv("KG_DERIVE_FOLLOW", "1")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Forty articles of the bench's corpus: news sentences on the same actors, so that events
    merge across documents and entities are named in many of them."""
    sys.path.insert(0, str(ROOT / "bench"))
    from corpus import make_corpus

    return make_corpus(40, tmp_path_factory.mktemp("follow") / "corpus.jsonl", seed=5)


def test_a_first_build_derived_as_it_goes_is_the_graph_of_the_refresh_after_it(
        following, corpus, tmp_path, monkeypatch):
    import kg
    from kg.derive import refresh

    monkeypatch.delenv("KG_DERIVE_FOLLOW")
    refreshed = tmp_path / "refreshed"
    kg.build([str(corpus)], store=refreshed, n_process=1)
    monkeypatch.setenv("KG_DERIVE_FOLLOW", "1")
    monkeypatch.setattr(refresh, "refresh", lambda *args: pytest.fail("derived after the last document"))
    followed = tmp_path / "followed"
    report = kg.build([str(corpus)], store=followed, n_process=1)
    assert report.added == 40 and report.entities > 100 and report.merge_child["rss_mb"] > 0
    have = _quads(followed)
    assert any("/graph/events>" in q and "mergedInto" in q for q in have), "events merged across documents"
    assert have == _quads(refreshed)
    assert not (followed / "derive.follow").exists(), "what the child wrote is gone"


def test_the_exports_of_a_followed_build_read_the_journal_it_wrote(following, example_store, tmp_path):
    import kg

    report = kg.build([str(EXAMPLES)], store=tmp_path / "s")
    assert report.added == 2
    exported = invoke_kg("export", "--store", str(tmp_path / "s"), "--format", "nquads", "-o", str(tmp_path / "a.nq"))
    assert exported.returncode == 0, exported.stderr
    from kg.store.journal import Journal

    journal = Journal(tmp_path / "s" / "nquads", writable=False)
    assert {"https://w3id.org/kg/graph/entities", "https://w3id.org/kg/graph/events"} <= journal.index().sealed
    lines = set((tmp_path / "a.nq").read_text(encoding="utf-8").splitlines())
    assert lines == {line for line in _export(example_store, tmp_path)}


def _export(store, tmp_path) -> list[str]:
    out = tmp_path / "reference.nq"
    assert invoke_kg("export", "--store", str(store), "--format", "nquads", "-o", str(out)).returncode == 0
    return out.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("child", [
    "import sys; sys.exit(3)",  # dies at once: the batches meet a closed pipe
    "import sys; sys.stdin.buffer.read()",  # reads every batch and says nothing
    "import sys; sys.stdin.buffer.read(); print('{\"entities\": 1}', flush=True)",  # no labels written
], ids=["dies", "silent", "labels-only"])
def test_a_child_that_fails_leaves_the_refresh_after_the_build_to_derive(
        following, example_store, tmp_path, monkeypatch, child):
    import kg
    from kg.derive import follow

    monkeypatch.setattr(follow.Follower, "command", (sys.executable, "-c", child))
    report = kg.build([str(EXAMPLES)], store=tmp_path / "s")
    assert report.added == 2 and report.entities > 0
    assert not report.merge_child, "derived in this process, after the last document"
    assert _quads(tmp_path / "s") == _quads(example_store)


def test_only_an_empty_store_is_followed(following, example_store, store_copy, tmp_path):
    import kg
    from kg.derive import follow

    assert follow.can_follow(kg.open_store(tmp_path / "new", writable=True))
    with kg.open_store(store_copy, writable=True) as store:
        assert not follow.can_follow(store), "a store with documents refreshes what the build touched"


def test_a_first_build_killed_before_its_events_are_loaded_is_finished_by_the_next(
        following, example_store, tmp_path):
    store = tmp_path / "s"
    args = ["build", str(EXAMPLES), "--store", str(store), "--quiet"]
    killed = subprocess.run([sys.executable, "-m", "kg", *args], check=False, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "KG_CRASH_AT": "events:1"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert (store / "derive.follow" / "labels.nq").exists(), "killed with the child's labels written"
    result = invoke_kg(*args)
    assert result.returncode == 0, result.stderr
    assert not (store / "derive.follow").exists()
    assert _quads(store) == _quads(example_store)


def test_a_payload_in_a_graph_that_is_no_document_s_is_refused():
    from kg.derive.follow import State, Unexpected

    line = ('<https://w3id.org/kg/id/entity/x> <https://w3id.org/kg/ontology#mentionedIn> '
            '<https://w3id.org/kg/id/doc/1> <https://w3id.org/kg/graph/entities> .\n')
    with pytest.raises(Unexpected):
        State().take(line.encode())
