"""Where the graph lives: one :class:`Store` protocol, an embedded Oxigraph store on disk
(:mod:`kg.store.local`) and any SPARQL 1.1 server (:mod:`kg.store.remote`) behind it.

Callers get a store from :func:`open_store` and use only the protocol; what differs between the
two is declared in :attr:`Store.capabilities`, never probed.
"""

from __future__ import annotations

import os
from pathlib import Path

from .protocol import Capabilities, Store

ENV_VAR = "KG_STORE"

__all__ = ["Capabilities", "Store", "default_store_path", "open_store"]


def default_store_path() -> Path:
    """``$KG_STORE``, else ``$XDG_DATA_HOME/kg/store``, else ``~/.local/share/kg/store``."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "kg" / "store"


def open_store(location: str | os.PathLike | None = None, *, writable: bool = False,
               timeout: float | None = None) -> Store:
    """The store at ``location``: a folder (default :func:`default_store_path`), or the URL of a
    SPARQL 1.1 server (``http://`` or ``https://``), with which every exchange, opening it
    included, ends within ``timeout`` seconds from now if that is given."""
    if location is not None and str(location).startswith(("http://", "https://")):
        from .remote import RemoteStore

        return RemoteStore(str(location), writable=writable, timeout=timeout)
    from .local import LocalStore

    return LocalStore(Path(location) if location else default_store_path(), writable=writable)
