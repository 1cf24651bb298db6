"""Where kg's outputs go: standard output and the files of ``-o``, written whole or reported.

Every byte kg prints or writes to an output passes through :class:`Checked`, the one place a
write to an output happens. A write that fails raises :class:`~kg.errors.OutputError` naming
the output ("standard output", or the path given to ``-o``) and the cause (exit 9), never an
``OSError`` a caller might take for its own (a store reports its read failures as ``OSError``).
Writes go through a buffer that writes until the kernel has taken everything: Python's
unbuffered standard output (``PYTHONUNBUFFERED``, as in many containers) drops what a short
write leaves over, so a disk that filled up midway gave part of an answer and exit 0.

A reader that closes its end (``kg query ... | head -1``) raises :class:`ReaderGone`: exit 141,
what a shell reports for a tool that SIGPIPE ended, and nothing on stderr (the reader asked for
less); never 0, which says the whole output was delivered.

``-o PATH`` (:func:`output_file`) is, after following links:

- a new path or a regular file: written to a temporary file in its folder, flushed to disk and
  renamed over it, so PATH holds the old content or the new, never part of it (a link stays a
  link, and the file it names is the one replaced);
- a stream: a named pipe, a character device (a terminal, ``/dev/null``), ``/dev/stdout``, the
  ``/dev/fd/N`` of ``-o >(cmd)``: written through, as the data is made;
- anything else (a folder, a block device, a socket): refused.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from .errors import OutputError

STANDARD_OUTPUT = "standard output"


class ReaderGone(OutputError):
    """The reader of a pipe kg writes to has closed it (EPIPE)."""

    exit_code = 141  # 128 + SIGPIPE: how a shell reports a tool that the signal ended


def failure(output: str | Path, exc: OSError) -> OutputError:
    """The OutputError of a write (or open, flush, close) of ``output`` that raised ``exc``."""
    if exc.errno == errno.EPIPE:
        return ReaderGone(f"cannot write {output}: the reader has closed it")
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        cause = f"the folder {Path(output).parent} does not exist"
    elif exc.errno == errno.EISDIR:
        cause = "it is a folder"
    else:
        cause = os.strerror(exc.errno).lower() if exc.errno else str(exc)
    return OutputError(f"cannot write {output}: {cause}")


class Checked(io.FileIO):
    """A file opened for writing whose failures are OutputErrors naming ``label``. After the first
    failure, what is still written goes nowhere: the error has been raised once, and the buffers
    flushed as the process ends must not raise it again."""

    def __init__(self, file: int | str, label: str | Path, closefd: bool = True) -> None:
        super().__init__(file, "wb", closefd=closefd)
        self.label = label
        self.failed = False

    def write(self, data) -> int:
        if self.failed:
            return memoryview(data).nbytes
        try:
            return super().write(data)
        except OSError as exc:
            self.failed = True
            raise failure(self.label, exc) from None

    def close(self) -> None:
        try:
            super().close()
        except OSError as exc:
            if not self.failed:
                raise failure(self.label, exc) from None


class _Closed(io.TextIOBase):
    """The standard output of a process started without one: a write to it is the failure."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OutputError(f"cannot write {STANDARD_OUTPUT}: it is closed")


@contextmanager
def standard_output() -> Iterator[None]:
    """``sys.stdout`` checked for the length of a command (what it writes, and a final flush).

    An OutputError from the flush at the end replaces a command's ``sys.exit``: the output did
    not reach its reader, whatever the command found. After another error, the flush is tried
    and its failure left unsaid: the command's error is the one to report."""
    previous = sys.stdout
    if previous is None:  # started without one (kg ... >&-): Python gives None, click writes nowhere
        sys.stdout = _Closed()
        try:
            yield
        finally:
            sys.stdout = previous
        return
    try:
        fd = previous.fileno()
        previous.flush()
    except (AttributeError, ValueError, OSError):  # no file descriptor (an embedding program's stream)
        yield
        return
    # a buffer hands on every byte: it continues a short write, where an unbuffered stream drops the rest
    text = io.TextIOWrapper(io.BufferedWriter(Checked(fd, STANDARD_OUTPUT, closefd=False)),
                            encoding=getattr(previous, "encoding", None), errors=getattr(previous, "errors", None),
                            line_buffering=getattr(previous, "line_buffering", False),
                            write_through=getattr(previous, "write_through", False))
    sys.stdout = text
    try:
        try:
            yield
        except SystemExit:
            text.flush()
            raise
        except BaseException:
            try:
                text.flush()
            except OutputError:
                pass
            raise
        text.flush()
    finally:
        sys.stdout = previous


@contextmanager
def output_file(path: str | Path) -> Iterator[IO[bytes]]:
    """The binary file ``-o PATH`` writes to (see the module's docstring for what PATH may be).

    A new path or a regular file is written to a temporary file in the target's folder, created
    by :func:`tempfile.mkstemp` (a random name opened with ``O_EXCL``, so a link planted in the
    folder cannot redirect the write), and renamed over the target once written and on disk; on
    any failure it is removed and the target is left as it was. A folder that is missing or
    read-only, a target that is a folder, a full disk raise OutputError naming ``path``."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode  # through links: what the path names
    except OSError:
        mode = None  # a new path (or one whose folder is missing: the temporary file says so)
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path}: it is a folder", hint="give a file name inside it")
    if mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        with _stream(path) as out:
            yield out
        return
    if mode is not None and not stat.S_ISREG(mode):
        what = "a socket" if stat.S_ISSOCK(mode) else "a block device" if stat.S_ISBLK(mode) else "not a file"
        raise OutputError(f"cannot write {path}: it is {what}",
                          hint="give a file, a new path, a named pipe or a terminal")
    with _replacing(path, Path(os.path.realpath(path)) if path.is_symlink() else path) as out:
        yield out


@contextmanager
def _stream(path: Path) -> Iterator[IO[bytes]]:
    """A pipe or a device, written through: there is no file to replace, nor to sync."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)  # a named pipe: waits for its reader
    except OSError as exc:
        raise failure(path, exc) from None
    out = io.BufferedWriter(Checked(fd, path))
    try:
        yield out
        out.close()
    except BaseException:
        out.raw.failed = True  # the data stops here; closing must not report anything else
        out.close()
        raise


@contextmanager
def _replacing(path: Path, target: Path) -> Iterator[IO[bytes]]:
    """``target`` (``path``, or the file the link ``path`` names) replaced once written whole."""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise failure(path, exc) from None
    out = io.BufferedWriter(Checked(fd, path))
    try:
        os.fchmod(fd, _file_mode(target))
        yield out
        out.flush()
        try:
            os.fsync(fd)  # the data on disk before the name points at it
            out.close()
            os.replace(tmp, target)
        except OSError as exc:
            raise failure(path, exc) from None
    except BaseException:
        out.raw.failed = True  # a full disk fails the close too: nothing more to report
        out.close()
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _file_mode(path: Path) -> int:
    """The permissions the output gets: those of the file it replaces, else what open() would give
    (mkstemp makes its file private)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)  # the only way to read the umask; set back at once
        os.umask(umask)
        return 0o666 & ~umask
