"""Extraction on a Dask cluster: ``kg build --scheduler tcp://HOST:8786`` or ``--workers N``.

Documents go to the workers in batches; each worker process loads spaCy once (the pipeline is
cached per process by :func:`kg.extract.nlp.load`) and sends back each document's graph as
N-Quads (:class:`kg.records.DocumentGraph`). Only the client writes to the store, as a local build does, so the graph
is the one a single-process build gives (a test checks this on a real ``LocalCluster``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..errors import KGError, UsageError
from ..records import Document, DocumentGraph
from .pools import BATCH, IN_FLIGHT


# A local cluster's own watchers, at Dask's defaults, cost a build through it a fifth more CPU than
# a local pool (measured on 2 cores: 7 s of system time against 2): the statistical profiler samples
# each worker every 10 ms, the GIL monitor every 1 ms, the event loop's watchdog ticks every 20 ms,
# the memory monitor every 100 ms. kg's tasks are batches of seconds that need none of it at that
# rate; a cluster of your own (--scheduler) keeps its configuration.
# And its workers faulted the parser's arrays in from the system again and again: 10x the minor page
# faults of a local pool's worker (740,000 against 71,000 for 200 bench articles), 1.7 s of system
# time against 0.3. glibc's malloc gave each large array back to the system when it was freed (above
# its mmap threshold, which there did not rise as it does in a pool's worker; not for Dask's own
# MALLOC_TRIM_THRESHOLD_: without it the same). A threshold fixed above those arrays keeps them in
# the heap: 81,000 faults, 0.3 s, +25 MB a worker. A worker's environment is set before it starts.
LOCAL_CLUSTER = {
    "distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_": 4 * 2**20,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
}


class ClusterError(KGError):
    """The Dask scheduler cannot be reached, or a worker failed."""

    exit_code = 8


def _warm_up_plugin():
    """A Dask worker plugin that runs :func:`kg.extract.pools._warm_up` on every worker of the
    cluster, present and to come (made here: Dask is imported only when a cluster is asked for)."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class WarmUp(WorkerPlugin):
        def setup(self, worker) -> None:
            from kg.extract.pools import _warm_up

            _warm_up()

    return WarmUp()


class DaskExtractor:
    """A callable for :func:`kg.builder.build` that extracts on a Dask cluster."""

    def __init__(self, scheduler: str | None = None, workers: int | None = None, batch: int = BATCH) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--scheduler and --workers need Dask",
                             hint="pip install '.[cluster]' in kg's checkout (dask[distributed])") from None
        self.batch = batch
        self.cluster = None
        try:
            if scheduler:
                self.client = Client(scheduler, timeout=10)
            else:
                import dask

                dask.config.set(LOCAL_CLUSTER)
                self.cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}",
                               hint="check the address, and that `dask scheduler` is running there") from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        # each worker loads the model and kg's data before its first batch and takes them out of the
        # garbage collector's view, as a local pool's workers do (without it a build through Dask
        # took 1.36x the local pool's time on 2 cores: every full collection walked the model again)
        self.client.register_plugin(_warm_up_plugin(), name="kg-warm-up")

    def __call__(self, documents: Iterable[Document]) -> Iterator[DocumentGraph]:
        from dask.distributed import as_completed

        from .pools import bounded, extract_batch

        done = as_completed()

        def submit(batch: list[Document]) -> None:
            done.add(self.client.submit(extract_batch, batch, pure=False))

        def receive() -> list[DocumentGraph]:
            return next(done).result()

        try:
            yield from bounded(submit, receive, documents, self.workers * IN_FLIGHT, self.batch)
        except Exception as exc:  # a worker died or raised: say which, keep what is stored
            raise ClusterError(f"a Dask worker failed: {type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __enter__(self) -> DaskExtractor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
