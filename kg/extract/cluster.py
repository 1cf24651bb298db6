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


class ClusterError(KGError):
    """The Dask scheduler cannot be reached, or a worker failed."""

    exit_code = 8


class DaskExtractor:
    """A callable for :func:`kg.builder.build` that extracts on a Dask cluster."""

    def __init__(self, scheduler: str | None = None, workers: int | None = None, batch: int = BATCH) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--scheduler and --workers need Dask",
                             hint="pip install 'kg[cluster]' (dask[distributed])") from None
        self.batch = batch
        self.cluster = None
        try:
            if scheduler:
                self.client = Client(scheduler, timeout=10)
            else:
                self.cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}",
                               hint="check the address, and that `dask scheduler` is running there") from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

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
