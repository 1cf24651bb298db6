"""Beyond one process: a real Dask LocalCluster, and a real Oxigraph SPARQL server on loopback."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import EXAMPLES

KG = [sys.executable, "-m", "kg"]


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


@pytest.fixture
def oxigraph_server(tmp_path):
    """`oxigraph serve` (the PyPI package `oxigraph`) on a free loopback port, stopped afterwards."""
    binary = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    if not Path(binary).exists():
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    port = _free_port()
    process = subprocess.Popen([binary, "serve", "--location", str(tmp_path / "server"), "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        pytest.fail("oxigraph serve did not start")
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


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


def test_remote_store_errors_are_one_line(tmp_path):
    port = _free_port()
    result = subprocess.run([*KG, "query", "allies", "--store", f"http://127.0.0.1:{port}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 4
    assert result.stderr.startswith(f"Error: cannot reach the SPARQL server at http://127.0.0.1:{port}")
    assert result.stderr.count("\n") == 1


def test_two_worker_processes_build_the_same_graph(example_store, tmp_path):
    import kg

    report = kg.build([str(EXAMPLES)], store=tmp_path / "p2", n_process=2)
    assert report.added == 2
    assert _quads(tmp_path / "p2") == _quads(example_store)


def test_progress_line_only_on_a_terminal():
    import io

    from kg.progress import Progress

    quiet = io.StringIO()
    with Progress("building", unit="documents", stream=quiet) as progress:  # a StringIO is no terminal
        for _ in range(3):
            progress.update()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    with Progress("building", total=4, unit="documents", enabled=True, stream=shown) as progress:
        progress._drawn = -1.0
        progress.update()
    assert "building: [" in shown.getvalue() and "1/4 documents" in shown.getvalue()
    assert shown.getvalue().endswith("\r\033[K"), "the line erases itself"
