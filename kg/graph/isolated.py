"""Evaluate a query in a child process that is killed at the deadline, with a memory ceiling.

Oxigraph cannot interrupt an evaluation it has started, so a query on a local store runs in a
child forked for it (``Capabilities.kill_queries``): at the deadline the child is killed, and
with it the work. Forking costs 3-8 ms (measured on a busy 2-core machine), where a fresh
interpreter that imports pyoxigraph and opens the store costs 130-230 ms of CPU; the child
evaluates on the store the parent opened (read-only: RocksDB's background threads are idle,
and the child takes none of their locks) and writes the answer into a pipe as it finds it, in
chunks of a MiB (:mod:`kg.graph.sparql` writes SPARQL results TSV: 300,000 rows cost the same
here as in this process, within the noise of a busy machine).

The child may allocate ``KG_QUERY_MEMORY`` MiB (default 2048) of address space beyond what
the process held when it forked (``RLIMIT_AS``, on Linux); a query that needs more fails with
one line saying so, instead of taking the machine's memory. ``KG_QUERY_MEMORY=0`` sets no
ceiling. The child also ends when the parent does, however the parent ends: it watches a pipe that
only the parent holds open.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import resource  # imported here: a child importing it pays 5 ms
import select
import signal
import struct
import threading
import time
from collections.abc import Callable
from typing import IO

from ..errors import KGError, QueryError
from ..sparql.limits import MEMORY_ENV, deadline_error, memory_budget

_FRAME = struct.Struct(">Q")
_CHUNK = 1 << 20  # bytes per message from the child


def run(produce: Callable[[IO[bytes]], None], timeout: float | None) -> bytes:
    """The bytes ``produce(stream)`` writes, written in a child process; a QueryError if it does
    not finish within ``timeout`` seconds or needs more memory than :func:`memory_budget`, and
    the KGError it raises, if any."""
    budget = memory_budget()
    held = _address_space()
    limit = held + budget if budget and held is not None else None
    deadline = None if timeout is None else time.monotonic() + timeout
    results_r, results_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    alive_r, alive_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (results_r, results_w, stderr_r, stderr_w, alive_r, alive_w):
            os.close(fd)
        raise
    if pid == 0:  # the child: never returns
        for fd in (results_r, stderr_r, alive_w):
            os.close(fd)
        _child(produce, limit, results_w, stderr_w, alive_r)
    for fd in (results_w, stderr_w, alive_r):
        os.close(fd)
    try:
        items, finished = _receive(results_r, deadline)
    finally:
        # whatever happened here (an answer, the deadline, Ctrl-C), the child goes now
        os.kill(pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:  # SIGCHLD is ignored here: the system reaped it
            status = None
        crash = _read_all(stderr_r)
        for fd in (results_r, stderr_r, alive_w):
            os.close(fd)
    if not finished:
        raise deadline_error(timeout)
    kind, *rest = items[-1] if items and items[-1][0] in ("end", "error", "memory", "bug") else ("died",)
    if kind == "end":
        return b"".join(payload for tag, payload in items[:-1])
    if kind == "error":
        raise rest[0]
    if kind == "memory" or b"memory allocation of" in crash:
        if limit is None:
            raise QueryError("the query ran out of memory", hint=f"narrow it, or set a ceiling with {MEMORY_ENV}=MiB")
        raise QueryError(f"the query needed more than {budget // 2**20} MiB of memory and was stopped",
                         hint=f"narrow it, or raise the ceiling with {MEMORY_ENV}=MiB")
    if kind == "bug":
        raise RuntimeError(rest[0])
    raise RuntimeError(f"the query process ended unexpectedly (status {status}): "
                       f"{crash.decode('utf-8', 'replace').strip()[:200] or 'no message'}")


def _child(produce, limit: int | None, results: int, stderr: int, alive: int) -> None:
    """Evaluate and send; whatever happens, leave with os._exit (the parent's atexit work,
    buffers and open store are the parent's)."""
    code = 0
    try:
        os.dup2(stderr, 2)  # an abort message (allocation failure) goes to the parent, not the terminal
        with contextlib.suppress(ValueError):  # a fork of a thread that is not the main one
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        threading.Thread(target=_exit_with_parent, args=(alive,), daemon=True).start()
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            stream = io.BufferedWriter(_Messages(results), buffer_size=_CHUNK)
            produce(stream)
            stream.flush()
            _send(results, ("end",))
        except KGError as exc:
            _send(results, ("error", exc))
        except MemoryError:
            _send(results, ("memory",))
        except BaseException as exc:  # noqa: BLE001 - reported by the parent as a bug
            _send(results, ("bug", f"{type(exc).__name__}: {exc}"))
    except BaseException:  # noqa: BLE001 - the parent reads a missing end as a crash
        code = 1
    finally:
        os._exit(code)


def _exit_with_parent(alive: int) -> None:
    os.read(alive, 1)  # returns when the parent's end closes: the parent is done or gone
    os._exit(1)


class _Messages(io.RawIOBase):
    """The results pipe as a binary stream: each write is one ("data", bytes) message."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        _send(self.fd, ("data", bytes(data)))
        return len(data)


def _send(fd: int, message: tuple) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int, deadline: float | None) -> tuple[list, bool]:
    """The messages until the child closes the pipe, and whether that came before ``deadline``."""
    buffer, items = bytearray(), []
    while True:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and (wait <= 0 or not select.select([fd], [], [], wait)[0]):
            return items, False
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return items, True
        buffer += chunk
        while len(buffer) >= _FRAME.size:
            (size,) = _FRAME.unpack_from(buffer)
            if len(buffer) < _FRAME.size + size:
                break
            items.append(pickle.loads(buffer[_FRAME.size:_FRAME.size + size]))
            del buffer[:_FRAME.size + size]


def _read_all(fd: int) -> bytes:
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return b""


def _address_space() -> int | None:
    """This process's virtual memory size in bytes (the child starts with as much); None where
    there is no /proc (not Linux), and so no ceiling."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None
