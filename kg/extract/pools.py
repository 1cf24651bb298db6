"""Worker pools that run the extraction stages (:mod:`kg.extract.pipeline`) on batches of
documents: in processes on this machine (:class:`ProcessPool`, :class:`AutoPool`), beside the
Dask cluster of :mod:`kg.extract.cluster`, which submits the same batches."""

from __future__ import annotations

import itertools
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator

from ..machine import available_cores, available_memory
from ..records import Document, DocumentGraph
from .pipeline import extract_graphs


def extract_batch(documents: list[Document]) -> list[DocumentGraph]:
    """Parse, extract and serialize a batch in this process (the task a worker process runs)."""
    if _start_error is not None:  # the worker could not load what it needs: the build's error
        raise _start_error
    return list(extract_graphs(documents))


BATCH = 16  # documents per worker task: spaCy's measured sweet spot, enough work to amortize a round trip
IN_FLIGHT = 3  # batches queued per worker: one running, the next ones ready, however slow the parent


def batches(documents: Iterable[Document], size: int = BATCH) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for document in documents:
        batch.append(document)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def bounded(submit: Callable[[list[Document]], None], receive: Callable[[], list[DocumentGraph]],
            documents: Iterable[Document], limit: int, size: int = BATCH) -> Iterator[DocumentGraph]:
    """Keep ``limit`` batches submitted to workers, topping up as each comes back, so the workers
    never wait for the parent and memory holds ``limit`` batches, not the corpus. The input is read
    and submitted by a thread of its own: a slow input (a pipe whose writer waits for kg's first
    lines before it writes more) never holds back what the workers have already extracted."""
    slots = threading.Semaphore(limit)
    submitted: queue.SimpleQueue = queue.SimpleQueue()  # True per batch submitted; None at the end
    stop = threading.Event()

    def feed() -> None:
        try:
            for batch in batches(documents, size):
                slots.acquire()
                if stop.is_set():
                    return
                submit(batch)
                submitted.put(True)
        except BaseException as exc:  # the input's own error, raised where the results are read
            submitted.put(exc)
        submitted.put(None)

    feeder = threading.Thread(target=feed, name="kg-input", daemon=True)
    feeder.start()
    try:
        while (item := submitted.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            extractions = receive()
            slots.release()
            yield from extractions
    finally:
        stop.set()
        slots.release()  # a feeder waiting for a slot sees the stop and ends


class ProcessPool:
    """Extraction in ``n`` worker processes, each parsing *and* extracting its own batches.

    spaCy's own ``n_process`` parses in workers but leaves the extraction to the parent, which
    then competes with them for the cores; here the workers also serialize each document's graph,
    and the parent only writes them to the store. A pool extracts one stream of documents: its workers are
    let go once the stream's last results are in.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.pool = None  # started on the first batch: a rebuild with nothing new starts no worker

    def __call__(self, documents: Iterable[Document]) -> Iterator[DocumentGraph]:
        results: queue.SimpleQueue = queue.SimpleQueue()

        def submit(batch: list[Document]) -> None:
            if self.pool is None:
                self.pool = start_method().Pool(self.n, initializer=_warm_up)
            self.pool.apply_async(extract_batch, (batch,), callback=results.put, error_callback=results.put)

        def receive() -> list[DocumentGraph]:
            item = results.get()
            if isinstance(item, BaseException):
                raise item
            return item

        yield from bounded(submit, receive, documents, self.n * IN_FLIGHT)
        if self.pool is not None:  # every result is in: the workers exit while the build writes and refreshes
            self.pool.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None and self.pool is not None:
            self.pool.terminate()
        self.close()


PRELOAD = "kg.extract.preload"  # what the fork server imports before it forks a worker
_server_environment: dict[str, str] | None = None  # the environment this process started the fork server with


def start_method():
    """How the workers start: as forks of a server process that loaded spaCy and kg's data once
    (multiprocessing's "forkserver", preloading :mod:`kg.extract.preload`), so that n workers
    cost one load and share its pages, not n; else "spawn", each worker loading its own. Never a
    plain fork of this process, which holds an open store and its threads.

    A forked worker has the server's environment, not this process's: where the environment
    changed since this process started the server (another ``KG_DATA``, ``KG_RELATION_MODEL``),
    or where another part of the program started the server without kg's preload, or where the
    platform has no fork server, the workers are spawned, so that they read what a spawned worker
    reads."""
    import multiprocessing
    from multiprocessing import forkserver

    global _server_environment
    environment = dict(os.environ)
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        started = getattr(forkserver._forkserver, "_forkserver_address", None) is not None
        if _server_environment is None and not started:
            context.set_forkserver_preload([PRELOAD])
            forkserver.ensure_running()
            _server_environment = environment
        if _server_environment == environment:
            return context
    return multiprocessing.get_context("spawn")


WORKER_MEMORY = 600 * 2**20  # bytes a worker holds at most (the model, a batch, its parses): measured 400-500 MB


def default_processes() -> int:
    """Worker processes for a large input: one per available core, as many as memory holds."""
    cores = available_cores()
    memory = available_memory()
    return max(1, min(cores, memory // WORKER_MEMORY)) if memory is not None else cores


class AutoPool:
    """Extraction sized to the machine and the input: a pool of up to ``most`` worker processes
    (default :func:`default_processes`), one for each full batch of the first new documents,
    or this process alone when they are fewer than two batches (a handful of articles is parsed
    before a pool would have loaded its models). Reads ahead at most ``most`` batches to decide;
    a ``streamed`` input (a pipe, whose writer may wait for kg's first lines before it writes more)
    is never read ahead: it gets ``most`` workers, as a stream of unknown length may be long."""

    def __init__(self, most: int | None = None, streamed: bool = False) -> None:
        self.most = most or default_processes()
        self.streamed = streamed
        self.pool: ProcessPool | None = None
        self.chosen: int | None = None  # the processes this build used, once it has decided

    def __call__(self, documents: Iterable[Document]) -> Iterator[DocumentGraph]:
        documents = iter(documents)
        head = [] if self.streamed else list(itertools.islice(documents, self.most * BATCH))
        self.chosen = self.most if self.streamed else max(1, min(self.most, len(head) // BATCH))
        rest = itertools.chain(head, documents)
        if self.chosen == 1:
            yield from extract_graphs(rest)
            return
        self.pool = ProcessPool(self.chosen)
        yield from self.pool(rest)

    def __enter__(self) -> AutoPool:
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.__exit__(*exc)


_start_error: Exception | None = None  # what a worker's start raised (see _warm_up)


def _warm_up() -> None:
    """Load the model, the gazetteer and the places once per worker, before the first batch, and
    take them out of the garbage collector's view: they live as long as the worker, and each full
    collection would walk their objects again (measured: a fifth of the extraction time)."""
    import gc

    from .. import rdf  # noqa: F401  (what serializes the graphs: imported before the first batch)
    from . import nlp
    from .relations import Extractor

    global _start_error
    try:
        nlp.load()
        Extractor()  # the record of kg's data: words, gazetteer, places, lexicon, the relation model
    except Exception as exc:  # noqa: BLE001  raised from the first task: a pool restarts a worker whose start fails, forever
        _start_error = exc
        return
    _start_error = None
    gc.freeze()
