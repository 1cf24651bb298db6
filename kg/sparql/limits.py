"""The limits of a query, wherever it runs: its deadline (``--timeout``) and the memory it may
take (``KG_QUERY_MEMORY``), shared by a local query's child process (:mod:`kg.graph.isolated`)
and a SPARQL server's answer (:mod:`kg.store.remote`)."""

from __future__ import annotations

import os

from ..errors import QueryError, UsageError

MEMORY_ENV = "KG_QUERY_MEMORY"
DEFAULT_MEMORY_MB = 2048


def deadline_error(timeout: float) -> QueryError:
    """What a query that ran past ``--timeout`` ends with, wherever it ran."""
    return QueryError(f"the query did not finish within {timeout:g} s",
                      hint="narrow it (LIMIT, a FILTER, a named relation) or raise --timeout")


def memory_budget() -> int | None:
    """Bytes a query may allocate (``KG_QUERY_MEMORY`` MiB), or None for no ceiling."""
    value = os.environ.get(MEMORY_ENV, "").strip() or str(DEFAULT_MEMORY_MB)
    if not value.isdigit():
        raise UsageError(f"{MEMORY_ENV}={value!r} is not a whole number of MiB (0 for no ceiling)")
    return int(value) * 2**20 or None
