"""Beyond one process: a real Dask LocalCluster, and a real Oxigraph SPARQL server on loopback."""

from __future__ import annotations

import base64
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import EXAMPLES

KG = [sys.executable, "-m", "kg"]
pytestmark = pytest.mark.slow  # a Dask cluster, worker pools, servers


def _quads(location) -> set[str]:
    import kg

    with kg.open_store(location) as store:
        return {str(q) for q in store.quads()}


def test_dask_local_cluster_builds_the_same_graph(example_store, tmp_path):
    pytest.importorskip("dask.distributed")
    import kg

    report = kg.build([str(EXAMPLES)], store=tmp_path / "dask", workers=2)
    assert report.added == 2 and not report.problems
    assert _quads(tmp_path / "dask") == _quads(example_store)


def _worker_state() -> tuple[bool, int, bool]:
    """In a Dask worker: whether spaCy is loaded, how many objects the collector was told to leave
    alone, and whether Dask's statistical profiler runs."""
    import gc

    import dask

    from kg.extract import nlp

    return nlp.load.cache_info().currsize > 0, gc.get_freeze_count(), dask.config.get("distributed.worker.profile.enabled")


def test_dask_workers_are_warm_before_the_first_batch():
    """A local cluster's workers load the model and kg's data before any task, out of the garbage
    collector's view, as a local pool's do; and without Dask's profiler (kg.extract.cluster)."""
    pytest.importorskip("dask.distributed")
    from kg.extract.cluster import DaskExtractor

    with DaskExtractor(workers=2) as extractor:
        states = extractor.client.run(_worker_state)
    assert len(states) == 2
    for loaded, frozen, profiled in states.values():
        assert loaded and frozen > 100_000 and not profiled


def test_unreachable_scheduler_is_one_line_and_exit_8(tmp_path):
    pytest.importorskip("dask.distributed")
    result = subprocess.run([*KG, "build", str(EXAMPLES), "--store", str(tmp_path / "s"),
                             "--scheduler", "tcp://127.0.0.1:9"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 8, result.stderr
    assert result.stderr.startswith("Error: cannot connect to the Dask scheduler at tcp://127.0.0.1:9")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


READY_SAFETY_S = 300  # only a machine that has stopped misses this; readiness is the signal


@contextmanager
def serve(location: Path, *options: str):
    """`oxigraph serve` (the PyPI package `oxigraph`) on a free loopback port, yielded once it
    says it is listening, stopped afterwards."""
    binary = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    if not Path(binary).exists():
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    port = _free_port()
    process = subprocess.Popen([binary, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}",
                                *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ready = threading.Event()

    def read_stderr() -> None:  # read all it says, so that a full pipe never stops it
        for line in process.stderr:
            if "Listening for requests at" in line:
                ready.set()
        ready.set()  # it ended: wake the waiter

    threading.Thread(target=read_stderr, daemon=True).start()
    try:
        assert ready.wait(READY_SAFETY_S), f"oxigraph serve said nothing within the {READY_SAFETY_S} s safety timeout"
        assert process.poll() is None, "oxigraph serve did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=60)


@pytest.fixture
def oxigraph_server(tmp_path):
    """An empty server."""
    with serve(tmp_path / "server") as url:
        yield url


def test_remote_store_on_a_real_oxigraph_server(oxigraph_server, example_store, tmp_path):
    import kg

    report = kg.build([str(EXAMPLES)], store=oxigraph_server)
    assert report.added == 2 and not report.problems
    assert _quads(oxigraph_server) == _quads(example_store), "the server holds the same graph as a local build"
    remote = kg.query("allies", store=oxigraph_server)
    local = kg.query("allies", store=example_store)
    assert sorted(remote.rows) == sorted(local.rows) and remote.rows
    bound = kg.query("entity", store=oxigraph_server, params={"name": "Daesh"})
    assert bound.rows == kg.query("entity", store=example_store, params={"name": "Daesh"}).rows
    again = kg.build([str(EXAMPLES)], store=oxigraph_server)
    assert (again.added, again.skipped) == (0, 2)
    out = tmp_path / "remote.nq"
    kg.export("nquads", out, store=oxigraph_server)
    assert out.stat().st_size > 0


@pytest.mark.parametrize("whole", [0.5, 0.0, 1.0], ids=["default", "always-whole", "never-whole"])
def test_a_server_built_one_article_at_a_time_holds_the_graph_of_one_build(oxigraph_server, example_store,
                                                                          monkeypatch, whole):
    """The second build re-merges the events its article reaches on the server, or all of them
    (``events.WHOLE``), and deletes what they replace: the same graph as one local build."""
    import kg
    from kg.derive import eventmerge as events

    monkeypatch.setattr(events, "WHOLE", whole)
    for article in sorted(EXAMPLES.glob("*.txt"), reverse=True):  # the later one first: the second changes its events
        assert kg.build([str(article)], store=oxigraph_server).added == 1
    assert _quads(oxigraph_server) == _quads(example_store)


def test_remote_store_errors_are_one_line(tmp_path):
    port = _free_port()
    result = subprocess.run([*KG, "query", "allies", "--store", f"http://127.0.0.1:{port}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 4
    assert result.stderr.startswith(f"Error: cannot reach the SPARQL server at http://127.0.0.1:{port}")
    assert result.stderr.count("\n") == 1


@pytest.fixture(scope="module")
def served(example_store, tmp_path_factory):
    """A real `oxigraph serve` on a copy of the example store: the same graph, by construction."""
    copy = tmp_path_factory.mktemp("served") / "store"
    shutil.copytree(example_store, copy)
    (copy / "LOCK").unlink(missing_ok=True)
    with serve(copy) as url:
        yield url


class Loopback(http.server.ThreadingHTTPServer):
    """An HTTP server on a free loopback port, serving from a thread of its own until shut down."""

    daemon_threads = True

    def __init__(self, handler: type[http.server.BaseHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Gate(Loopback):
    """A real HTTP server in front of a SPARQL server, as a reverse proxy would be: it asks for
    basic authentication, sends the redirects it is given, forwards everything else upstream
    and records what it was sent."""

    def __init__(self, upstream: str | None, *, login: str | None = None, redirects: dict | None = None):
        self.upstream, self.login, self.redirects, self.seen = upstream, login, redirects or {}, []
        super().__init__(_GateHandler)


class _GateHandler(http.server.BaseHTTPRequestHandler):
    def _handle(self) -> None:
        gate: Gate = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        gate.seen.append((self.command, self.path, body, self.headers.get("Authorization")))
        path = self.path.split("?")[0]
        expected = "Basic " + base64.b64encode(gate.login.encode()).decode() if gate.login else None
        if expected and self.headers.get("Authorization") != expected:
            return self._answer(401, b"Unauthorized", {"WWW-Authenticate": 'Basic realm="kg"'})
        if path in gate.redirects:
            code, location = gate.redirects[path]
            return self._answer(code, b"", {"Location": location})
        upstream = gate.upstream + self.path.replace("/sparql/", "/", 1)
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "accept")}
        try:
            with urllib.request.urlopen(urllib.request.Request(upstream, data=body or None, headers=headers,
                                                               method=self.command)) as response:
                self._answer(response.status, response.read(), {"Content-Type": response.headers["Content-Type"]})
        except urllib.error.HTTPError as exc:
            self._answer(exc.code, exc.read(), {})

    def _answer(self, status: int, body: bytes, headers: dict) -> None:
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = _handle

    def log_message(self, *args) -> None:
        pass


def _kg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*KG, *args], capture_output=True, text=True, timeout=600)


def test_a_redirect_to_another_origin_is_not_followed():
    with socket.socket() as elsewhere:
        elsewhere.bind(("127.0.0.1", 0))
        elsewhere.listen(8)
        elsewhere.setblocking(False)
        target = f"http://127.0.0.1:{elsewhere.getsockname()[1]}/query"
        gate = Gate(None, redirects={"/query": (302, target)})
        store = gate.url.replace("http://", "http://kg:s3cret@")
        result = _kg("query", "allies", "--store", store)
        assert result.returncode == 4, result.stderr
        assert result.stderr.splitlines() == [
            f"Error: the SPARQL server at {gate.url.replace('http://', 'http://kg:***@')} redirected POST /query "
            f"to another origin ({target}); kg follows redirects only within the server"]
        with pytest.raises(BlockingIOError):
            elsewhere.accept()  # nothing, and no password, went there
        gate.shutdown()


def test_a_redirect_within_the_server_keeps_the_query(served, example_store):
    import kg

    gate = Gate(served, redirects={"/query": (307, "/sparql/query")})
    rows = kg.query("entity", store=gate.url, params={"name": "Daesh"}).rows
    assert rows == kg.query("entity", store=example_store, params={"name": "Daesh"}).rows and rows
    assert any(method == "POST" and path == "/sparql/query" and b"Daesh" in body for method, path, body, _ in gate.seen)
    gate.shutdown()


def test_basic_auth_and_the_password_is_never_shown(served, example_store):
    gate = Gate(served, login="kg:s3cret")
    store, shown = gate.url.replace("http://", "http://kg:s3cret@"), gate.url.replace("http://", "http://kg:***@")
    answer = _kg("query", "allies", "--store", store, "--format", "csv")
    local = _kg("query", "allies", "--store", str(example_store), "--format", "csv")
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout == local.stdout and "Hezbollah" in answer.stdout
    info = _kg("info", "--store", store)
    assert f"store:      {shown}" in info.stdout and "s3cret" not in info.stdout + info.stderr
    wrong = _kg("query", "allies", "--store", store.replace("s3cret", "wr0ng"))
    assert wrong.returncode == 4
    assert wrong.stderr.splitlines() == [
        f"Error: the SPARQL server at {shown} refused the login: HTTP 401 Unauthorized "
        "(check the user and password in the store URL)"]
    port = _free_port()
    unreachable = _kg("query", "allies", "--store", f"http://kg:s3cret@127.0.0.1:{port}")
    assert unreachable.returncode == 4
    assert unreachable.stderr.splitlines() == [
        f"Error: cannot reach the SPARQL server at http://kg:***@127.0.0.1:{port}: Connection refused"]
    gate.shutdown()


def test_two_worker_processes_build_the_same_graph(example_store, tmp_path):
    import kg

    report = kg.build([str(EXAMPLES)], store=tmp_path / "p2", n_process=2)
    assert report.added == 2
    assert _quads(tmp_path / "p2") == _quads(example_store)


# run in a fresh process, so that this one's fork server (started by whichever test built with a
# pool first, in its environment) does not decide the outcome
FORKED_WORKERS = r"""
import multiprocessing, os, sys

def pipeline_loaded():  # in a worker before any task of its own: whether the model is in memory
    from kg.extract import nlp
    return nlp.load.cache_info().currsize > 0

def relation_model_switch():
    return os.environ.get("KG_RELATION_MODEL")

if __name__ == "__main__":
    from kg.extract import pools
    if "forkserver" not in multiprocessing.get_all_start_methods():
        print("no fork server"); sys.exit(0)
    seen = []
    context = pools.start_method()
    with context.Pool(1) as pool:
        seen.append((context.get_start_method(), pool.apply(pipeline_loaded), pool.apply(relation_model_switch)))
    os.environ["KG_RELATION_MODEL"] = "off"  # the server, started before, has the old environment
    context = pools.start_method()
    with context.Pool(1) as pool:
        seen.append((context.get_start_method(), pool.apply(pipeline_loaded), pool.apply(relation_model_switch)))
    del os.environ["KG_RELATION_MODEL"]  # the server's environment again
    seen.append(pools.start_method().get_start_method())
    print(seen)
"""


def test_workers_are_forks_of_a_loaded_server_in_the_builds_environment(tmp_path):
    script = tmp_path / "forked.py"
    script.write_text(FORKED_WORKERS)
    env = {k: v for k, v in os.environ.items() if k != "KG_RELATION_MODEL"}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, check=True)
    if run.stdout.strip() == "no fork server":
        pytest.skip("this platform has no fork server: the workers are spawned")
    # loaded by the server before the worker's first task; after the environment changed, a
    # spawned worker that sees the change (and loads for itself in a pool's initializer)
    assert run.stdout.strip() == str([("forkserver", True, None), ("spawn", False, "off"), "forkserver"])


# the derived graphs computed in this process, and in child processes on a checkpoint
# (kg.derive.offload, which the examples are too small for by default): the same graphs
IN_CHILD = pytest.mark.parametrize("child", ["0", "1"], ids=["here", "in-children"])


@IN_CHILD
def test_an_article_at_a_time_refreshes_the_entities_it_touches_to_the_graph_of_one_build(
        oxigraph_server, example_store, tmp_path, monkeypatch, child):
    """The second build refreshes only the entities it mentions (a block at a time, local and on a
    server) and ends with the entity graph a build of both articles at once computes."""
    import kg

    monkeypatch.setenv("KG_DERIVE_IN_CHILD", child)
    if child == "1":  # the labels come from the child, not from this process's refresh
        from kg.derive import refresh  # what refreshes the labels in this process

        monkeypatch.setattr(refresh, "refresh_entities", lambda *args: pytest.fail("refreshed here"))
    first, second = sorted(EXAMPLES.glob("*.txt"))
    for store in (tmp_path / "local", oxigraph_server)[:2 if child == "0" else 1]:
        kg.build([str(first)], store=store)
        report = kg.build([str(second)], store=store)
        assert report.added == 1 and 0 < report.entities
        assert bool(report.merge_child) == (child == "1" and store != oxigraph_server)
        assert _quads(store) == _quads(example_store)


@IN_CHILD
def test_a_refresh_of_every_entity_rewrites_what_changed_and_drops_what_no_document_supports(
        oxigraph_server, example_store, tmp_path, monkeypatch, child):
    """A build owed a whole refresh (labels stale, as after a killed build) on a store whose entity
    graph has a label no document gives and an entity no document mentions (what a removal
    killed before its refresh leaves) ends with the entity graph of a clean build."""
    import pyoxigraph as ox

    import kg

    monkeypatch.setenv("KG_DERIVE_IN_CHILD", child)
    entities = "https://w3id.org/kg/graph/entities"
    wrong = (f"INSERT DATA {{ GRAPH <{entities}> {{ <https://w3id.org/kg/id/entity/gone> "
             f"<http://www.w3.org/2000/01/rdf-schema#label> \"Gone\" . "
             f"<https://w3id.org/kg/id/entity/hezbollah> <http://www.w3.org/2004/02/skos/core#altLabel> \"Hizb\" }} }}")
    local = tmp_path / "local"
    shutil.copytree(example_store, local)
    raw = ox.Store(str(local))
    raw.update(wrong)
    del raw
    stores = [local]
    if child == "0":  # a server's refresh is its own, in this process
        kg.build([str(EXAMPLES)], store=oxigraph_server)
        request = urllib.request.Request(oxigraph_server + "/update", data=wrong.encode(),
                                         headers={"Content-Type": "application/sparql-update"})
        urllib.request.urlopen(request, timeout=60).close()
        stores.append(oxigraph_server)
    for store in stores:
        assert _quads(store) != _quads(example_store)
        with kg.open_store(store, writable=True) as opened:
            opened.mark_labels_stale()
        report = kg.build([str(EXAMPLES)], store=store)
        assert report.added == 0 and report.entities > 0
        assert _quads(store) == _quads(example_store)


def test_an_unchanged_rebuild_loads_neither_spacy_nor_the_extractor(store_copy):
    code = ("import sys, kg; r = kg.build([sys.argv[1]], store=sys.argv[2]); "
            "print(r.added, r.skipped, r.processes, sorted(m for m in sys.modules if m.split('.')[0] == 'spacy' "
            "or m in ('kg.extract.nlp', 'kg.extract.relations', 'kg.extract.gazetteer')))")
    result = subprocess.run([sys.executable, "-c", code, str(EXAMPLES), str(store_copy)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(None, 3) == ["0", "2", "None", "[]\n"]


def test_the_default_build_sizes_its_pool_to_the_input():
    """Fewer than two batches of new articles are extracted in this process; more start a pool of
    one worker per batch, up to the cores."""
    from kg.extract.pools import BATCH, AutoPool
    from kg.ingest import make_document

    texts = [f"Report {i}: Hezbollah fighters attacked Arsal, residents said." for i in range(2 * BATCH)]
    for count, chosen in ((2 * BATCH - 1, 1), (2 * BATCH, 2)):
        with AutoPool(most=2) as pool:
            extractions = list(pool(make_document(t, name=str(i)) for i, t in enumerate(texts[:count])))
        assert pool.chosen == chosen and (pool.pool is None) == (chosen == 1)
        assert len(extractions) == count and {e.document.name for e in extractions} == {str(i) for i in range(count)}
