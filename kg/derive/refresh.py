"""The derived graphs recomputed after the documents change: what a build, a removal and a new
curation run once the documents' graphs are written.

The entity graph (:mod:`kg.derive.entities`) first, then the events (:mod:`kg.derive.eventmerge`),
for the entities the change touched (all of them after a first build, or where a refresh is
owed); each store writes what they derive (``write_entities``, ``write_events``). Where the
store makes checkpoints and there is much to derive, both are derived at once in child
processes (:mod:`kg.derive.offload`) and the store applies what they wrote; where a child cannot
start or fails, its graph is derived here (the same graph either way).
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..faults import crash_point
from ..store.protocol import Store
from . import entities as entity_graph
from . import offload
from .eventmerge import event_quads, statement_count


@dataclass(frozen=True)
class Refreshed:
    """What :func:`refresh` did: the entities it recomputed, and the peaks (``rss_mb``,
    ``heap_mb`` where traced) of the child processes that derived the labels and the events, the
    larger of the two, if any ran."""

    entities: int
    merge_child: dict[str, float] = field(default_factory=dict)


def refresh(store: Store, entities: Iterable[str] | None = None) -> Refreshed:
    """Both derived graphs for ``entities`` (IRIs: what a build touched; all if None): the
    labels, then the events; in children on a checkpoint where the store can and it pays."""
    todo = None if entities is None else set(entities)
    checkpoint, peaks = None, {}
    if store.capabilities.checkpoints and offload.wanted(statement_count(store)):
        try:
            checkpoint = offload.Checkpoint(store, todo)
        except OSError:  # no room for it: both are derived here
            checkpoint = None
    try:
        jobs = {kind: checkpoint.start(kind) for kind in ("labels", "events")} if checkpoint else {}
        done = jobs["labels"].labels() if jobs.get("labels") else None
        if done is not None:
            changes, peaks = done
            release_memory()
            store.apply_entities(changes, whole=todo is None)
            count = changes.entities
        else:
            count = refresh_entities(store, todo)
        crash_point("events")
        merged, events_peaks = (jobs["events"].events() if jobs.get("events") else None) or (None, {})
        peaks = {key: max(peaks.get(key, 0), events_peaks.get(key, 0)) for key in {*peaks, *events_peaks}}
        if merged is not None:
            release_memory()
            store.apply_events(*merged)
        else:
            refresh_events(store, todo)
    finally:
        if checkpoint is not None:
            checkpoint.close()
    return Refreshed(count, peaks)


def refresh_entities(store: Store, entities: Iterable[str] | None = None) -> int:
    """Recompute the entity graph for ``entities`` (IRIs: what a build touched), or for every
    entity; how many were recomputed. The entities' triples are read by one query a block, so
    the cost is that of the entities, not of the store."""
    release_memory()
    todo, changes = entity_graph.recompute(store, entities)
    store.write_entities(changes, keep=todo if entities is None else None)
    return len(todo)


def refresh_events(store: Store, entities: Iterable[str] | None = None) -> int:
    """Re-merge the events that involve ``entities`` (IRIs; all if None); the quads written."""
    release_memory()
    events, stale = event_quads(store, None if entities is None else set(entities))
    return store.write_events(events, stale)


def prepare() -> None:
    """Load the gazetteer the entity graph reads while the documents are still being extracted:
    where workers extract, this process has not loaded it, and the refresh after the last
    document would wait for it with the workers idle (measured: 0.5 s of CPU on a machine whose
    kg cache does not hold it yet, 0.05 s read from the cache, see :mod:`kg.cache`)."""
    from ..extract.gazetteer import load_gazetteer

    try:
        load_gazetteer()
    except Exception:  # noqa: BLE001  (the refresh loads it again, and reports the error in its place)
        pass


def release_memory() -> None:
    """Give the memory freed so far back to the system before a refresh allocates its own. glibc
    keeps what a thread frees for that thread: the bulk loads of a local store's writer thread and
    RocksDB's leave a build's writing with ~100 MB free that the refresh, in the main thread,
    cannot reuse (measured at 2,000 articles: 248 -> 142 MB resident, and the refresh's peak
    327 -> 267 MB, below the extraction's). Elsewhere than glibc there is nothing to call."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim(0)


@functools.cache
def _libc():
    try:
        return ctypes.CDLL(None)
    except OSError:
        return None
