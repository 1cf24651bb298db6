"""Bad input, crashes, concurrency, hostile queries and retraction: nothing stored is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT

KG = [sys.executable, "-m", "kg"]
DEV = ROOT / "tests" / "data" / "dev" / "articles"


def run_kg(*args, **kw):
    """`kg ARGS` in this process (conftest's invoke_kg): the exit code and stderr a user sees."""
    from conftest import invoke_kg

    return invoke_kg(*args, **kw)


def kg_process(*args, **kw):
    """`python -m kg ARGS`: for the tests about processes (kills, a lock another process holds)."""
    return subprocess.run([*KG, *args], capture_output=True, text=True, timeout=600, **kw)


def graphs(location) -> dict[str, set[str]]:
    """Every graph of a store as a set of N-Quads lines, by graph name."""
    import kg

    out: dict[str, set[str]] = {}
    with kg.open_store(location) as store:
        for quad in store.quads():
            out.setdefault(quad.graph_name.value, set()).add(str(quad))
    return out


def exported(location, tmp_path) -> dict[str, set[str]]:
    """The same, read back from `kg export --format nquads` (which copies the store's journal)."""
    import pyoxigraph as ox

    out = tmp_path / "export.nq"
    result = run_kg("export", "--format", "nquads", "-o", str(out), "--store", str(location))
    assert result.returncode == 0, result.stderr
    graphs_: dict[str, set[str]] = {}
    for quad in ox.parse(out.read_bytes(), format=ox.RdfFormat.N_QUADS):
        if not quad.graph_name.value.endswith("/graph/ontology"):
            graphs_.setdefault(quad.graph_name.value, set()).add(str(quad))
    return graphs_


def one_line_errors(stderr: str) -> list[str]:
    lines = stderr.strip().splitlines()
    assert all(line.startswith("Error: ") for line in lines), stderr
    assert "Traceback" not in stderr
    return lines


# ---------------------------------------------------------------- bad input


def test_bad_inputs_each_get_one_line_and_nothing_stored_is_lost(tmp_path, example_store):
    store = tmp_path / "store"
    assert run_kg("build", str(EXAMPLES), "--store", str(store)).returncode == 0
    before = graphs(store)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.txt").write_text("")
    (bad / "spaces.md").write_text("   \n\n  \t\n")
    (bad / "report.txt").write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
    (bad / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (bad / "latin1.txt").write_bytes("Le Liban a d\xe9clar\xe9 un cessez-le-feu.".encode("latin-1"))
    big = bad / "huge.txt"
    with open(big, "wb") as f:  # 50 MB of text
        f.write(b"Hezbollah fighters attacked Nusra Front positions near Arsal. " * (50 * 2**20 // 62))
    (bad / "feed.jsonl").write_bytes(
        b'{"id": "ok-1", "text": "Houthi fighters captured Hodeidah."}\n'
        b'{"id": "half", "text": "Daesh overran Ar\n'
        b'["a", "list"]\n'
        b'{"id": "notext", "title": "No body"}\n'
        b'{"id": "latin", "text": "caf\xe9"}\n'
        b'{"id": "ctrl", "text": "The Taliban\\u0000 seized \\ud800Kunduz\\u0007 on Monday."}\n')
    (bad / "page.html").write_text(
        "<!DOCTYPE html><html><head><title>Sirte falls</title><script>var x = 'Hezbollah';</script></head>"
        "<body><nav>Home | World</nav><h1>Sirte falls</h1><p>Forces loyal to the Government of National "
        "Accord captured Sirte from Islamic State on Monday.</p></body></html>")
    result = run_kg("build", str(bad), "--store", str(store))
    assert result.returncode == 1, result.stderr
    errors = one_line_errors(result.stderr)
    expected = {
        "empty.txt": "empty: the file has no text to read",
        "spaces.md": "empty: the file has no text to read",
        "report.txt": "a PDF file, not text",
        "image.txt": "a PNG image, not text",
        "latin1.txt": "not valid UTF-8",
        "huge.txt": "file is 50 MB, larger than the 20 MB limit for one article",
        "feed.jsonl:2": "not valid JSON",
        "feed.jsonl:3": "not a JSON object",
        "feed.jsonl:4": 'no "text" field',
        "feed.jsonl:5": "not valid UTF-8",
    }
    for where, problem in expected.items():
        assert any(e.startswith(f"Error: {bad / where}: {problem}") for e in errors), (where, errors)
    assert len(errors) == len(expected)
    assert "3 new documents" in result.stdout  # ok-1, ctrl (cleaned), page.html
    after = graphs(store)
    for graph, quads in before.items():
        if "graph/entities" not in graph and "graph/events" not in graph:  # computed over every document
            assert after[graph] == quads, "a stored document changed"
    import kg

    titles = kg.query("SELECT ?t WHERE { GRAPH ?g { ?d <http://purl.org/dc/terms/title> ?t } }", store=store).rows
    assert ("Sirte falls",) in titles
    captures = kg.query("captures", store=store).rows
    assert any(row[0] == "Government of National Accord" and row[1] == "Sirte" for row in captures)
    assert not any("var x" in " ".join(map(str, r)) for r in kg.query("evidence", store=store).rows)


def test_no_input_at_all_is_exit_3(tmp_path):
    (tmp_path / "empty.txt").write_text("")
    result = run_kg("build", str(tmp_path / "empty.txt"), "--store", str(tmp_path / "s"))
    assert result.returncode == 3
    assert one_line_errors(result.stderr) == [f"Error: {tmp_path / 'empty.txt'}: empty: the file has no text to read"]


# ---------------------------------------------------------------- crashes


def _corpus(tmp_path: Path, n: int = 40) -> Path:
    """``n`` articles: recombinations of the paragraphs of the examples and the development set."""
    from kg.ingest import split_front_matter

    paragraphs = [p for f in sorted(DEV.glob("*.txt")) + sorted(EXAMPLES.glob("*.txt"))
                  for p in split_front_matter(f.read_text())[1].split("\n\n") if p.strip()]
    rng = random.Random(3)
    path = tmp_path / "corpus.jsonl"
    with open(path, "w") as out:
        for i in range(n):
            out.write(json.dumps({"id": f"a{i:02d}", "text": "\n\n".join(rng.sample(paragraphs, 3))}) + "\n")
    return path


CRASH_POINTS = ["store-marked", "store-loaded", "journal-data", "store-journalled", "labels", "events"]
AFTER_WRITING = ("labels", "events")  # crash points passed once every document is written


def _assert_whole_documents(victim, want, tmp_path) -> int:
    """Every document graph in the store is complete, and the export says what the store says;
    returns how many documents the store holds for good (graphs still marked as being written are
    taken out by the next build)."""
    have = graphs(victim)
    docs = {graph for graph in have if "/graph/doc/" in graph}
    for graph in docs:
        assert have[graph] == want[graph], "a document is in the store only in part"
    assert exported(victim, tmp_path) == have, "the export (from the journal) says what the store says"
    marked = {quad.split()[0][1:-1] for quad in have.get("https://w3id.org/kg/graph/meta", ()) if "writeInProgress" in quad}
    return len(docs - marked)


def _kill_after(args, env, documents: int) -> int:
    """Run `kg build -v` and SIGKILL it once it has printed ``documents`` document lines (progress,
    not the clock, chooses the moment); returns the exit status, -SIGKILL if the kill landed."""
    process = subprocess.Popen([*KG, *args, "--verbose"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, text=True)
    seen = 0
    for line in process.stdout:
        seen += line.startswith("  + ")
        if seen == documents:
            os.kill(process.pid, signal.SIGKILL)
            break
    process.stdout.close()
    return process.wait()


@pytest.mark.slow
def test_builds_killed_at_chosen_points_leave_whole_documents_and_the_next_run_finishes(tmp_path):
    """Kills land where recovery is hardest: at each step of a batch write (markers set, bulk
    loaded, journal half or wholly appended) and before the labels, by crash points; and at random
    documents, by a SIGKILL from outside after that many progress lines. Every kill must land
    (the build dies by SIGKILL before it is done), each leaves whole documents only, and one more
    run gives exactly the graph of an uninterrupted build. The killed runs merge the events in a
    child process (kg.derive.offload), so the kill before the events lands with the child running."""
    corpus = _corpus(tmp_path, 64)
    reference = tmp_path / "reference"
    assert kg_process("build", str(corpus), "--store", str(reference), "--quiet").returncode == 0
    want = graphs(reference)
    total = sum(1 for graph in want if "/graph/doc/" in graph)
    assert total == 64
    victim = tmp_path / "victim"
    rng = random.Random(11)
    args = ["build", str(corpus), "--store", str(victim), "--quiet"]
    batches = {**os.environ, "KG_WRITE_BATCH": "4"}  # sixteen writes a run: kills land mid-corpus
    stored_before = 0
    for point in CRASH_POINTS:
        nth = 1 if point in AFTER_WRITING else rng.randint(1, 3)
        result = subprocess.run([*KG, *args], capture_output=True, text=True, timeout=600,
                                env={**batches, "KG_CRASH_AT": f"{point}:{nth}", "KG_DERIVE_IN_CHILD": "1"})
        assert result.returncode == -signal.SIGKILL, (point, result.returncode, result.stderr)
        stored = _assert_whole_documents(victim, want, tmp_path)
        if point not in AFTER_WRITING:
            assert stored < total, f"killed at {point}, the build cannot have stored everything"
        assert stored >= stored_before, "a kill lost documents an earlier run had stored"
        stored_before = stored
        if point == "events":  # killed with the events merge running in a child, on a checkpoint
            assert (victim / "derive.tmp" / "store").is_dir()
    for _ in range(3):  # from outside, after a random number of documents of this run
        left = total - stored_before
        if left <= 24:
            break
        # spaCy parses 16 documents at a time: stop at least one whole batch before the end,
        # so the build cannot finish between the line read and the kill
        status = _kill_after(args, batches, rng.randint(1, left - 20))
        assert status == -signal.SIGKILL, "the kill did not land: the build finished first"
        stored_before = _assert_whole_documents(victim, want, tmp_path)
    result = kg_process(*args)
    assert result.returncode == 0, result.stderr
    assert graphs(victim) == want, "after the kills, one more run gives exactly the uninterrupted graph"
    assert exported(victim, tmp_path) == want
    assert not (victim / "derive.tmp").exists(), "the checkpoint of the killed events merge is gone"


def test_an_unknown_crash_point_is_refused(tmp_path):
    result = subprocess.run([*KG, "build", str(EXAMPLES), "--store", str(tmp_path / "s")], capture_output=True,
                            text=True, timeout=600, env={**os.environ, "KG_CRASH_AT": "nowhere"})
    assert result.returncode == 1 and result.stderr.startswith("Error: KG_CRASH_AT='nowhere' is not a crash point")


# ---------------------------------------------------------------- concurrency


@pytest.mark.slow
def test_two_builds_at_once_one_waits_or_fails_clearly_and_queries_keep_working(tmp_path):
    """The first build streams JSONL from a pipe the test holds open, so it is certainly still
    running (and holding the store) while the second build and a query run: no timing involved."""
    store = tmp_path / "store"
    assert kg_process("build", str(EXAMPLES), "--store", str(store)).returncode == 0
    lines = _corpus(tmp_path).read_text().splitlines()
    first = subprocess.Popen([*KG, "build", "-", "--store", str(store), "--verbose"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first.stdin.write("\n".join(lines[:20]) + "\n")  # spaCy parses 16 at a time: enough for a first line
    first.stdin.flush()
    assert first.stdout.readline().startswith("  + "), "the first build is under way"
    second = kg_process("build", str(DEV), "--store", str(store), "--quiet")
    assert second.returncode == 4
    assert one_line_errors(second.stderr) == [
        f"Error: the store at {store} is in use by another kg build (wait for it to finish, or use another --store)"]
    query = kg_process("query", "allies", "--store", str(store))
    assert query.returncode == 0, query.stderr
    assert "Hezbollah" in query.stdout, "a query during a build reads the store as it was"
    first.stdin.write("\n".join(lines[20:]) + "\n")
    out, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    assert "40 new documents" in out
    finished = kg_process("build", str(DEV), "--store", str(store), "--quiet")
    assert finished.returncode == 0
    reference = tmp_path / "reference"  # the same inputs, one build after the other
    kg_process("build", str(EXAMPLES), "--store", str(reference), "--quiet")
    kg_process("build", "-", "--store", str(reference), "--quiet", input="\n".join(lines) + "\n")
    kg_process("build", str(DEV), "--store", str(reference), "--quiet")
    assert graphs(store) == graphs(reference)


# ---------------------------------------------------------------- hostile queries


HOSTILE = [
    "INSERT DATA { <http://x> <http://y> <http://z> }",
    "DELETE WHERE { ?s ?p ?o }",
    "DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "LOAD <http://example.org/data.ttl>",
    "CLEAR ALL",
    "CLEAR DEFAULT",
    "DROP ALL",
    "DROP GRAPH <https://w3id.org/kg/graph/entities>",
    "CREATE GRAPH <http://example.org/g>",
    "ADD DEFAULT TO <http://example.org/g>",
    "MOVE DEFAULT TO <http://example.org/g>",
    "COPY DEFAULT TO <http://example.org/g>",
    "WITH <http://x> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "SELECT * WHERE { ?s ?p ?o } ; DROP ALL",
    "SELECT * WHERE { SERVICE <http://169.254.169.254/latest/meta-data/> { ?s ?p ?o } }",
    "SELECT * WHERE { SERVICE SILENT <http://localhost:7878/query> { ?s ?p ?o } }",
]


@pytest.mark.parametrize("sparql", HOSTILE)
def test_hostile_queries_are_refused_and_change_nothing(sparql, store_copy):
    before = graphs(store_copy)
    result = run_kg("query", sparql, "--store", str(store_copy))
    assert result.returncode == 5, (sparql, result.stdout, result.stderr)
    assert len(one_line_errors(result.stderr)) == 1
    assert graphs(store_copy) == before


def test_parameters_are_bound_never_spliced(store_copy):
    before = graphs(store_copy)
    for value in ['Daesh" ) } ; DROP ALL ; #', "x' || true || '", "<http://evil>", "\\\" } } DELETE WHERE { ?s ?p ?o"]:
        result = run_kg("query", "entity", "--param", f"name={value}", "--store", str(store_copy), "--format", "json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["results"]["bindings"] == []
    assert graphs(store_copy) == before


def test_query_timeout(store_copy):
    heavy = ("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?a ?p ?x . ?b ?q ?x . ?c ?r ?x . ?d ?s ?x . ?e ?t ?x } }")
    result = kg_process("query", heavy, "--store", str(store_copy), "--timeout", "1")
    assert result.returncode == 5
    assert one_line_errors(result.stderr) == [
        "Error: the query did not finish within 1 s (narrow it (LIMIT, a FILTER, a named relation) or raise --timeout)"]


# ---------------------------------------------------------------- retraction


def test_remove_a_document_and_rebuilding_restores_the_same_graph(tmp_path, example_store):
    import kg

    store = tmp_path / "store"
    kg.build([str(EXAMPLES), str(DEV)], store=store)
    full = graphs(store)
    victim = "013_sirte_odyssey_lightning"
    result = run_kg("remove", victim, "--store", str(store))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith(f"removed {victim} (")
    after = graphs(store)
    gone = set(full) - set(after)
    assert len(gone) == 1 and "/graph/doc/" in next(iter(gone))
    labels = after.get("https://w3id.org/kg/graph/entities", set())
    assert not any("uss-wasp" in q for q in labels), "an entity only that document mentioned keeps no labels"
    assert any("/entity/sirte>" in q for q in labels), "an entity other documents mention keeps its labels"
    # by hash prefix, and by path; unknown references are one line each
    doc_hash = next(iter(gone)).rsplit("/", 1)[-1]
    assert exported(store, tmp_path) == after, "the export no longer has the document"
    kg.build([str(DEV / f"{victim}.txt")], store=store)
    assert graphs(store) == full, "rebuilding the document restores the same graph"
    assert exported(store, tmp_path) == full
    assert run_kg("remove", doc_hash[:10], "--store", str(store)).returncode == 0
    kg.build([str(DEV / f"{victim}.txt")], store=store)
    assert run_kg("remove", str(DEV / f"{victim}.txt"), "--store", str(store)).returncode == 0
    missing = run_kg("remove", "no-such-doc", "--store", str(store))
    assert missing.returncode == 3
    assert one_line_errors(missing.stderr)[0].startswith("Error: no stored document matches 'no-such-doc'")
