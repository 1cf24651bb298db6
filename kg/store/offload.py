"""The events merge of a local store in a child process, while this process refreshes the labels.

After a build has written its documents, two derived graphs are recomputed: the entity graph
(:mod:`kg.store.labels`) and the events graph (:mod:`kg.store.events`). Neither reads what the
other writes (the events read the documents' statements and their ``kg:locatedIn`` facts), and
each is Python work on one core, so the second core, idle once the workers have extracted the
last document, merges the events: a child process opens a checkpoint of the store (RocksDB
hard-links its files: no copy, measured 0.01 s) read-only, merges, and writes the events as
N-Quads with an index of where each event's block starts; this process refreshes the labels
meanwhile, then bulk-loads the events and journals them as they are (no quads decoded into
Python). Measured on the first 1,000 bench articles: the refreshes after the last document took
9.5 s one after the other.

The child is worth its start (0.25 s of imports) only where there is much to merge: below
:data:`IN_CHILD` event statements the merge runs in this process, as it does where the child cannot
start or fails (the result is the same graph either way; the tests compare them). The child
exits when this process does: it watches its standard input, which only this process holds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..rdf import nquads
from . import events

IN_CHILD = 5000  # event statements from which the merge runs in a child (1,000 bench articles: 7,127 events)
CHECKPOINT = "derive.tmp"  # inside the store folder (hard links need one file system); removed after use
_SETTINGS = ("BLOCK", "WHOLE")  # of kg.store.events, as this process has them
_ENV = "KG_EVENTS_IN_CHILD"  # "0": never, "1": always (tests), unset: by size


def wanted(statements: int) -> bool:
    """Whether a merge of ``statements`` event statements runs in a child."""
    setting = os.environ.get(_ENV)
    if setting in ("0", "1"):
        return setting == "1"
    return statements >= IN_CHILD


class EventsJob:
    """The events merge of ``entities`` (IRIs; all if None) running in a child process on a
    checkpoint of ``store`` (a :class:`~kg.store.local.LocalStore` with every write flushed)."""

    def __init__(self, store, entities: set[str] | None) -> None:
        self.folder = Path(store.path) / CHECKPOINT
        remove_checkpoint(store.path)
        self.process: subprocess.Popen | None = None
        try:
            self.folder.mkdir()
            store._ox.backup(str(self.folder / "store"))
            todo = self.folder / "entities.txt"
            todo.write_text("\n".join(sorted(entities)) if entities is not None else "", encoding="utf-8")
            root = str(Path(__file__).resolve().parents[2])  # where kg is imported from, for the child
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
            # the merge this process would do: its settings of kg.store.events
            settings = json.dumps({name: getattr(events, name) for name in _SETTINGS})
            which = "all" if entities is None else "some"
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kg.store.offload", str(self.folder), which, settings],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        except BaseException:
            self.close()
            raise

    def result(self) -> tuple[tuple[Iterator[tuple[str, bytes]], set[str] | None], dict[str, float]] | None:
        """The merged events, a (subject, N-Quads) block each, read as they are needed, with the
        subjects they replace (None: the whole graph); and the child's peaks. None if it failed."""
        assert self.process is not None
        out = self.process.stdout.read()  # its standard input stays open: closing it stops the child
        if self.process.wait() != 0:
            return None
        summary = json.loads(out.decode("utf-8").strip().splitlines()[-1])
        stale = None if summary["stale"] is None else set(summary["stale"])
        return (_blocks(self.folder), stale), summary["peaks"]

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                pipe.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def remove_checkpoint(store_path) -> None:
    """A checkpoint a killed build left behind (its files are hard links: nothing else is lost)."""
    shutil.rmtree(Path(store_path) / CHECKPOINT, ignore_errors=True)


def _blocks(folder: Path) -> Iterator[tuple[str, bytes]]:
    with open(folder / "events.idx", encoding="utf-8") as index, open(folder / "events.nq", "rb") as data:
        for line in index:
            subject, size = line.rsplit("\t", 1)
            yield subject, data.read(int(size))


def _write(folder: Path, merged: Iterable[list]) -> None:
    with open(folder / "events.nq", "wb") as data, open(folder / "events.idx", "w", encoding="utf-8") as index:
        for event in merged:
            block = nquads(event)
            data.write(block)
            index.write(f"{event[0].subject.value}\t{len(block)}\n")


def _watch_parent() -> None:
    """Exit once the parent has gone (its end of the standard input closes)."""
    sys.stdin.buffer.read()
    os._exit(1)


def _peak_rss_mb() -> float:
    """This process's peak resident memory since it started (``ru_maxrss`` would count the
    parent's too: it keeps the peak from before the ``exec`` of a forked child); 0 if unknown."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration, ValueError):
        return 0.0


def main(folder: str, which: str, settings: str) -> None:
    from .local import LocalStore

    threading.Thread(target=_watch_parent, daemon=True).start()
    tracing = os.environ.get("KG_TRACE_HEAP") == "1"  # the bench's heap measure, kept in the child too
    if tracing:
        import tracemalloc

        tracemalloc.start()
    for name, value in json.loads(settings).items():
        setattr(events, name, value)
    place = Path(folder)
    entities = None
    if which == "some":
        entities = {line for line in (place / "entities.txt").read_text(encoding="utf-8").splitlines() if line}
    with LocalStore(place / "store") as store:
        merged, stale = events.event_quads(store, entities)
        _write(place, merged)
    peaks = {"rss_mb": _peak_rss_mb()}
    if tracing:
        peaks["heap_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    print(json.dumps({"stale": None if stale is None else sorted(stale), "peaks": peaks}), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
    os._exit(0)  # not a normal exit: that would wait for the thread reading the standard input
