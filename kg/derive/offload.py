"""The derived graphs of a large store recomputed in child processes, on a checkpoint.

After a build has written its documents, two derived graphs are recomputed: the entity graph
(:mod:`kg.derive.entities`) and the events graph (:mod:`kg.derive.eventmerge`). Neither reads what the
other writes (the events read the documents' statements and their ``kg:locatedIn`` facts), and
each is Python work on one core, so both run at once where the store makes checkpoints
(``Capabilities.checkpoints``: a local one), each in a child process that opens a
checkpoint of the store (RocksDB hard-links its files: no copy, measured 0.01 s) read-only and
writes what it derived as N-Quads, with an index of where each subject's block starts; the store
then applies them (removals, bulk loads, journal blocks as they are: no quads decoded
into Python). Measured on the first 1,000 bench articles: the refreshes after the last document
took 9.5 s one after the other.

Reading costs memory that this process would keep: RocksDB fills a block cache of 128 MB for its
strings and one of 32 MB for its indexes, and gives them back only when the store is closed. A
child that reads them exits with them (measured on 10,000 bench articles: the building process
rose from 254 to 358 MB in the refreshes when it read them itself; the labels' child peaks at 198 MB).

A child is worth its start (0.25 s of imports) only where there is much to derive: below
:data:`IN_CHILD` event statements both run in this process, as each does where its child cannot
start or fails (the result is the same graph either way; the tests compare them). A child exits
when this process does: it watches its standard input, which only this process holds.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyoxigraph as ox

from ..rdf import nquads
from ..store import open_store
from ..store.protocol import Checkpointing, chunked
from . import entities as labels
from . import eventmerge as events

IN_CHILD = 5000  # event statements from which the graphs are derived in children (1,000 bench articles: 7,127 events)
_SETTINGS = ("BLOCK", "WHOLE")  # of kg.derive.eventmerge, as this process has them
_ENV = "KG_DERIVE_IN_CHILD"  # "0": never, "1": always (tests), unset: by size


def wanted(statements: int) -> bool:
    """Whether the graphs of a store of ``statements`` event statements are derived in children."""
    setting = os.environ.get(_ENV)
    if setting in ("0", "1"):
        return setting == "1"
    return statements >= IN_CHILD


class Checkpoint:
    """A checkpoint of ``store`` (with every write flushed) and the derivations of ``entities``
    (IRIs; all if None) running on it, one child each."""

    def __init__(self, store: Checkpointing, entities: set[str] | None) -> None:
        self.store = store
        self.jobs: list[Job] = []
        self.folder = store.checkpoint()
        try:
            todo = self.folder / "entities.txt"
            todo.write_text("\n".join(sorted(entities)) if entities is not None else "", encoding="utf-8")
        except BaseException:
            self.close()
            raise
        self.which = "all" if entities is None else "some"

    def start(self, kind: str) -> Job | None:
        """The derivation ``kind`` ("labels", "events") in a child; None if none could start."""
        try:
            job = Job(self.folder, kind, self.which)
        except OSError:  # no process or file left: the derivation runs here
            return None
        self.jobs.append(job)
        return job

    def close(self) -> None:
        for job in self.jobs:
            job.close()
        self.store.drop_checkpoint()


class Job:
    """One derivation on a checkpoint, in a child process."""

    def __init__(self, folder: Path, kind: str, which: str) -> None:
        self.folder, self.kind = folder, kind
        # the merge this process would do: its settings of kg.derive.eventmerge
        settings = json.dumps({name: getattr(events, name) for name in _SETTINGS})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kg.derive.offload", str(folder), kind, which, settings],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env())

    def _summary(self) -> dict | None:
        out = self.process.stdout.read()  # its standard input stays open: closing it stops the child
        if self.process.wait() != 0:
            return None
        return json.loads(out.decode("utf-8").strip().splitlines()[-1])

    def events(self) -> tuple[tuple[Iterator[tuple[str, bytes]], set[str] | None], dict[str, float]] | None:
        """The merged events, a (subject, N-Quads) block each, read as they are needed, with the
        subjects they replace (None: the whole graph); and the child's peaks. None if it failed."""
        summary = self._summary()
        if summary is None:
            return None
        stale = None if summary["stale"] is None else set(summary["stale"])
        return (blocks(self.folder, "events"), stale), summary["peaks"]

    def labels(self) -> tuple[LabelChanges, dict[str, float]] | None:
        """What the entity graph must lose and gain, and the child's peaks. None if it failed."""
        summary = self._summary()
        if summary is None:
            return None
        return LabelChanges(self.folder, summary["entities"]), summary["peaks"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            pipe.close()


def child_env() -> dict[str, str]:
    """The environment of a child that derives: this one, with kg importable from where this
    process imports it."""
    root = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


class LabelChanges:
    """The entity graph's changes a child wrote: the quads to remove and to add, each entity's
    block for the journal, and how many entities were recomputed."""

    def __init__(self, folder: Path, entities: int) -> None:
        self.folder, self.entities = folder, entities

    def removed(self) -> Iterator[ox.Quad]:
        with open(self.folder / "labels.removed.nq", "rb") as data:
            yield from ox.parse(data, format=ox.RdfFormat.N_QUADS)

    def added(self, size: int) -> Iterator[bytes]:
        """The quads to add as N-Quads, ``size`` quads at a time."""
        with open(self.folder / "labels.added.nq", "rb") as data:
            while chunk := b"".join(itertools.islice(data, size)):
                yield chunk

    def blocks(self) -> Iterator[tuple[str, bytes]]:
        return blocks(self.folder, "labels")


def blocks(folder: Path, name: str) -> Iterator[tuple[str, bytes]]:
    """The (subject, N-Quads) blocks a child wrote as ``name``, read as they are needed."""
    with open(folder / f"{name}.idx", encoding="utf-8") as index, open(folder / f"{name}.nq", "rb") as data:
        for line in index:
            subject, size = line.rsplit("\t", 1)
            yield subject, data.read(int(size))


def write_events(folder: Path, merged: Iterable[list], name: str = "events") -> None:
    with BlockWriter(folder, name) as out:
        for event in merged:
            out.put(event[0].subject.value, nquads(event))


def _write_labels(folder: Path, store, entities: set[str] | None) -> int:
    """The entity graph's changes for ``entities`` (all if None), as :class:`LabelChanges` reads them."""
    todo, changes = labels.recompute(store, entities)
    with open(folder / "labels.removed.nq", "wb") as removed, open(folder / "labels.added.nq", "wb") as added, \
            BlockWriter(folder, "labels") as out:
        for block in changes:
            for iri, gone, fresh, now in block:
                removed.write(nquads(gone))
                added.write(nquads(fresh))
                out.put(iri, nquads(now))
        if entities is None:  # and the entities that no document mentions any more
            for chunk in chunked(store.subjects_not_in(labels.GRAPH, set(todo)), labels.BLOCK):
                removed.write(nquads(chunk))
    return len(todo)


class BlockWriter:
    """(subject, N-Quads) blocks written as ``name``.nq with the index :func:`blocks` reads."""

    def __init__(self, folder: Path, name: str) -> None:
        self.data = open(folder / f"{name}.nq", "wb")
        self.index = open(folder / f"{name}.idx", "w", encoding="utf-8")

    def put(self, subject: str, block: bytes) -> None:
        self.data.write(block)
        self.index.write(f"{subject}\t{len(block)}\n")

    def __enter__(self) -> BlockWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.data.close()
        self.index.close()


def _watch_parent() -> None:
    """Exit once the parent has gone (its end of the standard input closes)."""
    sys.stdin.buffer.read()
    os._exit(1)


def peak_rss_mb() -> float:
    """This process's peak resident memory since it started (``ru_maxrss`` would count the
    parent's too: it keeps the peak from before the ``exec`` of a forked child); 0 if unknown."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration, ValueError):
        return 0.0


def trace_heap() -> None:
    """Trace this child's Python heap where the bench measures the building process's
    (``KG_TRACE_HEAP``): the heap of a build counts its children's."""
    if os.environ.get("KG_TRACE_HEAP") == "1":
        import tracemalloc

        tracemalloc.start()


def peaks() -> dict[str, float]:
    """This child's peak resident memory and, where traced, its peak Python heap, in MB."""
    import tracemalloc

    out = {"rss_mb": peak_rss_mb()}
    if tracemalloc.is_tracing():
        out["heap_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    return out


def main(folder: str, kind: str, which: str, settings: str) -> None:
    threading.Thread(target=_watch_parent, daemon=True).start()
    trace_heap()
    for name, value in json.loads(settings).items():
        setattr(events, name, value)
    place = Path(folder)
    entities = None
    if which == "some":
        entities = {line for line in (place / "entities.txt").read_text(encoding="utf-8").splitlines() if line}
    with open_store(place / "store") as store:
        if kind == "labels":
            summary = {"entities": _write_labels(place, store, entities)}
        else:
            merged, stale = events.event_quads(store, entities)
            write_events(place, merged)
            summary = {"stale": None if stale is None else sorted(stale)}
    print(json.dumps({**summary, "peaks": peaks()}), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:5])
    os._exit(0)  # not a normal exit: that would wait for the thread reading the standard input
