"""What kg derives from its data files at every start, kept between runs.

Each process that extracts (the build itself, or each of its workers) merges the gazetteer with
the dictionaries, tokenizes its 13,000 names and indexes 11,700 places before the first article:
1.4 s of each worker's 3 s start-up, the same result every time. :func:`cached` keeps such a
result in a JSON file under ``$KG_CACHE_DIR`` (default ``$XDG_CACHE_HOME/kg``, else
``~/.cache/kg``; an empty value keeps nothing), named by a hash of everything that made it: kg's
code, every file of the data folder (``ontology/``, or your copy named by ``KG_DATA``) and what
the caller adds (spaCy's and the model's versions, for tokens). Any change to these is a new
name, so a stale file is never read; of each kind the :data:`KEEP` newest files stay (two
checkouts of kg side by side do not keep removing each other's), the older ones are removed when
a new one is written.

JSON, not pickle: loading a file of the cache folder never runs code. Its first line is the
sha256 of the JSON after it, checked before the JSON is parsed: a file edited, emptied, cut short
or otherwise not as written (any JSON would decode: "captured Arsal" edited into "captured
Beirut", or no names at all) is built again, as is one that cannot be read or decoded. A folder
that cannot be written (a read-only home) only costs the time the cache would have saved.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from .resources import data_dir

T = TypeVar("T")
ENV_VAR = "KG_CACHE_DIR"
KEEP = 4  # files of each kind: one per version of kg's code and data in use on the machine


def folder() -> Path | None:
    """Where derived data is kept, or None if ``KG_CACHE_DIR`` is set empty."""
    own = os.environ.get(ENV_VAR)
    if own is not None:
        return Path(own).expanduser() if own else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "kg"


@cache
def _sources_digest() -> str:
    """A hash of kg's code and of every data file (read each time a process starts: ~10 MB, 20 ms)."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for root in (package, data_dir("ontology")):
        suffixes = (".py",) if root == package else None
        for path in sorted(root.rglob("*")):
            if path.is_file() and (suffixes is None or path.suffix in suffixes):
                digest.update(str(path.relative_to(root)).encode("utf-8") + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cached(kind: str, build: Callable[[], T], encode: Callable[[T], Any], decode: Callable[[Any], T],
           extra: str = "") -> T:
    """``build()``, or what an earlier run of the same code on the same data kept of it.

    ``encode`` turns the result into JSON's types and ``decode`` turns them back; ``extra`` is
    whatever else the result depends on."""
    where = folder()
    if where is None:
        return build()
    key = hashlib.sha256(f"{_sources_digest()}\0{extra}".encode()).hexdigest()[:24]
    path = where / f"{kind}-{key}.json"
    try:
        return decode(_load(path))
    # not there, not as written, or not what this code writes (RecursionError: nested too deep to decode)
    except (OSError, ValueError, TypeError, KeyError, IndexError, RecursionError):
        pass
    value = build()
    _keep(where, kind, path, encode(value))
    return value


def _load(path: Path) -> Any:
    """The JSON of a cache file whose first line is the sha256 of the rest; ValueError if it is not."""
    checksum, newline, body = path.read_bytes().partition(b"\n")
    if not newline or checksum.decode("ascii", "replace") != hashlib.sha256(body).hexdigest():
        raise ValueError(f"{path}: the checksum does not match the content")
    return json.loads(body)


def _keep(where: Path, kind: str, path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` whole or not at all (two workers starting at once may both write
    it), and remove all but the :data:`KEEP` newest files of ``kind``."""
    try:
        where.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{kind}-", suffix=".tmp", dir=where)
        try:
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            with os.fdopen(handle, "wb") as f:
                f.write(hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        kept = sorted(where.glob(f"{kind}-*.json"), key=_written, reverse=True)
        for old in kept[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _written(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # removed meanwhile by another process
        return 0.0
