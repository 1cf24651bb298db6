"""Shared fixtures: the real spaCy model, and a store built once from the example articles."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "articles"
SHARED_EVAL = ROOT.parent / "shared" / "eval"


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
