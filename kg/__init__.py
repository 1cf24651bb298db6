"""kg: news articles about conflicts -> one RDF knowledge graph with provenance.

The public Python API. Nothing heavy is imported until a function needs it::

    import kg
    kg.build(["examples/articles"], store="kg-store")
    for row in kg.query("allies", store="kg-store").rows:
        print(row)
    graph = kg.to_networkx(store="kg-store")      # networkx.MultiDiGraph
    dataset = kg.open_store("kg-store").dataset()   # rdflib Dataset backed by Oxigraph
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__version__ = "0.1.0"
__all__ = ["build", "query", "remove", "curate", "curations", "uncurate", "export_curations", "import_curations",
           "export", "to_networkx", "info", "validate", "evaluate", "explain", "open_store"]


def open_store(path: str | Path | None = None, writable: bool = False):
    """The store at ``path`` (a folder, default :func:`kg.store.default_store_path`; or the URL
    of a SPARQL 1.1 server, see :mod:`kg.store.remote`)."""
    from .store import open_store as _open

    return _open(path, writable=writable)


def _new_local_store(store: str | Path | None) -> Path | None:
    """The folder of a local store that does not exist yet (the build would make it), else None."""
    from .store import default_store_path

    if store is not None and str(store).startswith(("http://", "https://")):
        return None
    path = Path(store) if store else default_store_path()
    return None if os.path.lexists(path) else path


def build(sources: Iterable[str], store: str | Path | None = None, n_process: int | None = None,
          scheduler: str | None = None, workers: int | None = None, **callbacks):
    """Add the articles in ``sources`` (files, folders, JSONL, "-") to the store; returns a BuildReport.

    ``scheduler`` (a Dask scheduler address) or ``workers`` (a local Dask cluster of that many
    processes) run the extraction on Dask; else it runs in ``n_process`` worker processes, or by
    default in one per available core (as many as memory holds), fewer for an input of fewer than
    16 new documents per core, and in this process for fewer than 32; from "-" (a pipe, never
    read ahead) in one per core (``report.processes`` says how many it used). Worker processes are forks of a server process
    that loaded the model once ("forkserver"; "spawn" where there is none), each importing the
    calling script as spawned processes do, so a script whose build may start them must build
    under ``if __name__ == "__main__":``, as Python's multiprocessing requires.
    """
    from contextlib import nullcontext

    from .builder import build as _build

    auto = None
    if scheduler or workers:
        from .extract.cluster import DaskExtractor

        workers_ = DaskExtractor(scheduler, workers)
    elif n_process is None:
        from .extract.pools import AutoPool

        sources = list(sources)
        workers_ = auto = AutoPool(streamed="-" in (str(source) for source in sources))
    elif n_process > 1:
        from .extract.pools import ProcessPool

        workers_ = ProcessPool(n_process)
    else:
        workers_ = nullcontext()  # extraction in this process
    new_folder = _new_local_store(store)
    with workers_ as pool, open_store(store, writable=True) as s:
        report = _build(sources, s, extract=pool, **callbacks)
    if new_folder is not None and not report.added:  # nothing could be read: no empty store is left
        import shutil

        shutil.rmtree(new_folder, ignore_errors=True)
    if report.added and not (scheduler or workers):
        report.processes = auto.chosen if auto is not None else n_process
    return report


def query(sparql: str, store: str | Path | None = None, params: dict[str, str] | None = None,
          allow_service: bool = False, timeout: float | None = None):
    """Run a named query, a .rq file or inline SPARQL; returns a :class:`kg.graph.sparql.Result`.

    Read-only; ``timeout`` (seconds) raises :class:`kg.errors.QueryError` when exceeded (on a
    SPARQL server it bounds the whole exchange, opening the store included). On a local store a
    query with a timeout runs in a forked child that the deadline kills, one without in this process.
    """
    from .graph.sparql import run
    from .store import open_store as _open

    with _open(store, timeout=timeout) as s:
        return run(s, sparql, params, allow_service=allow_service, timeout=timeout)


def remove(references: Iterable[str], store: str | Path | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """Take documents out of the graph, each named by content hash (or its first 8+ characters),
    name or path. Returns the (hash, name) pairs removed and the references that matched nothing."""
    from .builder import remove_documents
    from .store.documents import find_documents

    with open_store(store, writable=True) as s:
        found, missing = [], []
        for reference in references:
            matches = find_documents(s, reference)
            (found.extend(matches) if matches else missing.append(reference))
        found = sorted(set(found))
        remove_documents(s, [doc_hash for doc_hash, _ in found])
    return found, missing


def curate(action: str, name: str, other: str | None = None, *, reason: str, relation: str | None = None,
           who: str | None = None, store: str | Path | None = None):
    """Correct the graph, for good: ``merge`` the entity ``name`` into ``other``, ``split`` the
    name ``other`` off it, ``alias`` it as ``other``, ``retype`` it as the class ``other``, or
    ``reject`` it (or, with ``relation``, its fact ``name relation other``), with ``reason``.
    Every build and removal applies it after extraction (:mod:`kg.derive.curations`). Returns
    the :class:`~kg.derive.curations.Curation` and whether it is new."""
    from . import curation as _curation

    with _existing_store(store) as s:
        curation = _curation.make(s, action, name, other, relation=relation, reason=reason, who=who)
        return curation, _curation.add(s, curation)


def curations(store: str | Path | None = None):
    """The store's curations in the order they were made, each with why it no longer applies
    (None while it does): a list of :class:`kg.curation.Listed`."""
    from .curation import listed

    with _existing_store(store, writable=False) as s:
        return listed(s)


def uncurate(curation_id: str | None = None, store: str | Path | None = None):
    """Take back a curation (by id or a prefix of it; the last made if None) and restore what the
    machine read; returns it."""
    from .curation import take_back

    with _existing_store(store) as s:
        return take_back(s, curation_id)


def export_curations(store: str | Path | None = None) -> str:
    """The store's curations as JSON lines: the file a team keeps in version control."""
    from .curation import export as _export

    with _existing_store(store, writable=False) as s:
        return _export(s)


def import_curations(path: str | Path, store: str | Path | None = None) -> tuple[int, int]:
    """Add the curations of a file :func:`export_curations` wrote and apply them; (added, already held)."""
    from .curation import import_file

    with _existing_store(store) as s:
        return import_file(s, path)


def _existing_store(store: str | Path | None, writable: bool = True):
    """The store, which must exist: curations correct a graph, they do not start one."""
    from .errors import StoreError

    if _new_local_store(store) is not None:
        raise StoreError(f"no store at {_new_local_store(store)}", hint="kg build ARTICLES makes one")
    return open_store(store, writable=writable)


def export(fmt: str, path: str | Path | None = None, store: str | Path | None = None, progress=None,
           min_confidence: float | None = None) -> int:
    """Write the graph as turtle, trig, nquads, ntriples, jsonld, graphml, gexf or json (the graph
    formats only with the facts stated with at least ``min_confidence``, if given)."""
    import sys

    from .graph.export import export as _export

    with open_store(store) as s:
        return _export(s, fmt, path, sys.stdout.buffer, progress, min_confidence)


def to_networkx(store: str | Path | None = None):
    """The entity graph as a ``networkx.MultiDiGraph`` (see :func:`kg.graph.export.to_networkx`)."""
    from .graph.export import to_networkx as _to_networkx

    with open_store(store) as s:
        return _to_networkx(s)


def info(store: str | Path | None = None, entities: int = 0, documents: bool = False) -> dict:
    """Counts: documents, entities by type, facts by relation, assertions, triples; with
    ``entities`` > 0, also that many entities of each type, the most mentioned first; with
    ``documents``, every document (name, content hash, title, date, source, its assertions and
    event statements) under ``"document_list"``."""
    from .graph.stats import documents as _documents
    from .graph.stats import info as _info

    with open_store(store) as s:
        data = _info(s, entities)
        if documents:
            data["document_list"] = _documents(s)
        return data


def why_empty(query: str, params: dict[str, str] | None = None, store: str | Path | None = None) -> str | None:
    """Why a ready query about one entity (``params["name"]``) answered nothing, where kg can tell
    (:func:`kg.graph.sparql.why_empty`); None otherwise."""
    from .graph.sparql import why_empty as _why

    with open_store(store) as s:
        return _why(s, query, params or {})


def explain(text: str | None = None, file: str | Path | None = None, sentence: int | None = None):
    """Why ``text`` (or the article in ``file``) gives the facts it gives and no others: per
    sentence, the entities and where their types came from, the trigger words, every pair of
    entities with the fact it became or the reason it did not, and the events; returns a
    :class:`kg.extract.explain.Explanation` (``sentence``, from 1: that sentence only)."""
    from .extract.explain import explain as _explain

    return _explain(text, file, sentence)


def validate(store: str | Path | None = None, file: str | Path | None = None):
    """SHACL-validate the store (or an RDF file); returns a :class:`kg.graph.validation.Report`."""
    from .graph.validation import validate_file, validate_store

    if file is not None:
        return validate_file(file)
    with open_store(store) as s:
        return validate_store(s)


def evaluate(gold_dir: str | Path, store: str | Path | None = None, file: str | Path | None = None,
             docs: list[str] | None = None, progress=None, sources: list[str] | None = None):
    """Score the store (or an RDF file) against gold annotations: a folder in kg's gold format
    (returns a :class:`kg.eval.score.Report`), of re3d sources, of which ``sources`` names some
    (returns a :class:`kg.eval.re3d.Report`), or a WikiEvents file of events (returns a
    :class:`kg.eval.wikievents.Report`). Both score the relations, and the entities under
    ``report.entities`` (:mod:`kg.eval.entities`)."""
    from .eval import re3d, wikievents
    from .eval.score import evaluate as _evaluate
    from .eval.score import file_triples, load_gold, store_triples
    from .store.protocol import counted

    if wikievents.is_wikievents(gold_dir):
        gold, score = wikievents.load_gold(gold_dir), wikievents.evaluate
    elif re3d.is_re3d(gold_dir):
        gold, score = re3d.load_gold(gold_dir, sources), re3d.evaluate
    else:
        gold, score = load_gold(gold_dir), (lambda triples, g: _evaluate(triples, g, docs))
    if file is not None:
        return score(counted(file_triples(str(file)), progress), gold)
    with open_store(store) as s:
        return score(counted(store_triples(s), progress), gold)
