"""Shared fixtures: the real spaCy model, and a store built once from the example articles."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "articles"
SHARED_EVAL = ROOT.parent / "shared" / "eval"


# fixtures that start a server or build with a pool of processes: a test that uses one is slow
SLOW_FIXTURES = {"served", "oxigraph_server", "re3d_graph"}


def pytest_collection_modifyitems(items) -> None:
    """Mark slow (left out by `make test-fast`) every test that uses a fixture of SLOW_FIXTURES."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def kg_cache(tmp_path_factory):
    """kg's cache (kg/cache.py) in the test run's own folder: the tests never write to the user's,
    and a run starts from an empty one (the first process builds what the others read)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KG_CACHE_DIR", str(tmp_path_factory.mktemp("kg-cache")))
        yield


@pytest.fixture(scope="session")
def extraction():
    """The full Extraction (entities with merge records, assertions with reporters) of one text."""
    from kg.ingest import make_document
    from kg.extract.pipeline import extract_all

    def run(text: str):
        (result,) = extract_all([make_document(text, name="t")])
        return result

    return run


@pytest.fixture(scope="session")
def example_store(tmp_path_factory) -> Path:
    """A store built from examples/articles with the real pipeline (built once per test run)."""
    import kg

    path = tmp_path_factory.mktemp("stores") / "examples"
    report = kg.build([str(EXAMPLES)], store=path)
    assert report.added == 2 and not report.problems
    return path


def invoke_kg(*args: str, stdin: str | None = None, input: str | None = None, env: dict | None = None,
              cwd: Path = ROOT, check: bool = False, **_process) -> subprocess.CompletedProcess:
    """``kg ARGS`` in this process through click's CliRunner, in the shape of ``subprocess.run``
    (returncode, stdout, stderr as text): kg's group maps errors to exit codes inside click, so
    the code and the ``Error:`` line are those a user sees. ``env`` is a whole environment, as
    for subprocess (what it lacks is unset for the call); ``cwd`` the folder to run in; ``check``
    raises CalledProcessError on a failure; what only concerns a process (capture_output, text,
    timeout) is taken and left unused. A test about processes (kills, locks, signals, pools,
    pipes) runs ``python -m kg`` instead."""
    from click.testing import CliRunner

    from kg.cli import cli

    changes = None
    if env is not None:
        changes = {name: value for name, value in env.items() if os.environ.get(name) != value}
        changes.update({name: None for name in os.environ if name not in env})
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(cli, [str(arg) for arg in args], input=stdin if stdin is not None else input,
                                    env=changes, catch_exceptions=False)
    done = subprocess.CompletedProcess(["kg", *args], result.exit_code, result.stdout, result.stderr)
    if check:
        done.check_returncode()
    return done


def copy_store(source: Path, target: Path) -> Path:
    """A private copy of a closed store that a test may change."""
    shutil.copytree(source, target)
    (target / "LOCK").unlink(missing_ok=True)
    return target


@pytest.fixture
def store_copy(example_store, tmp_path) -> Path:
    """A private copy of the example store that a test may change."""
    return copy_store(example_store, tmp_path / "store")


@pytest.fixture(scope="session")
def extract():
    """Run the whole extraction on a text; returns the set of (subject, relation, object) keys."""
    from kg.ingest import make_document
    from kg.extract.pipeline import extract_all

    def run(text: str) -> set[tuple[str, str, str]]:
        (extraction,) = extract_all([make_document(text, name="t")])
        return {(a.subject, a.predicate, a.object) for a in extraction.assertions}

    return run


@pytest.fixture(scope="session")
def re3d_graph(tmp_path_factory) -> Path:
    """tests/data/re3d (45 re3d documents) built into a store and exported as Turtle, as a user
    would: built once per test run for the relation and the entity figures."""
    import subprocess
    import sys

    from kg.eval.re3d import write_texts

    kg_cli = [sys.executable, "-m", "kg"]
    tmp = tmp_path_factory.mktemp("re3d")
    assert write_texts(ROOT / "tests" / "data" / "re3d", tmp / "re3d.jsonl") == 45
    store = tmp / "store"
    subprocess.run([*kg_cli, "build", str(tmp / "re3d.jsonl"), "--store", str(store), "-q"], check=True,
                   capture_output=True, timeout=1200)
    subprocess.run([*kg_cli, "export", "--store", str(store), "-o", str(tmp / "re3d.ttl")], check=True,
                   capture_output=True, timeout=600)
    return tmp / "re3d.ttl"
