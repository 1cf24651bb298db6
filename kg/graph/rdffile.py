"""RDF files a user gives kg (``kg validate --file``, ``kg eval --file``): the format the file's
name says, and its triples, read by pyoxigraph in any format it reads, the graphs of a dataset
merged. A file that cannot be read is one InputError naming it and the problem."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox

from ..errors import InputError

# extensions pyoxigraph does not know, as the one it knows for the same format: OWL tools name
# their RDF/XML files .owl
_ALIASES = {"owl": "rdf"}


def extensions() -> list[str]:
    """The file extensions kg reads as RDF: each format's own, and the aliases."""
    formats = (getattr(ox.RdfFormat, name) for name in dir(ox.RdfFormat) if name.isupper())
    return sorted({f".{f.file_extension}" for f in formats} | {f".{alias}" for alias in _ALIASES})


def rdf_format(path: str | Path) -> ox.RdfFormat:
    """The RDF format of ``path``, from its extension; an InputError for a name that says none."""
    suffix = Path(path).suffix.lower().removeprefix(".")
    fmt = ox.RdfFormat.from_extension(_ALIASES.get(suffix, suffix)) if suffix else None
    if fmt is None:
        problem = f"the extension .{suffix} is not an RDF format's" if suffix else "no extension to tell its RDF format"
        raise InputError(f"{path}: {problem}", hint=f"kg reads {', '.join(extensions())} files")
    return fmt


def read_triples(path: str | Path) -> Iterator[ox.Triple]:
    """Every triple of the RDF file at ``path``, whatever its named graph, as the file goes;
    relative IRIs are resolved against the file's own URI."""
    try:
        with open(path, "rb") as file:  # opened first: a missing file is missing, whatever its name says
            fmt = rdf_format(path)
            try:
                for quad in ox.parse(file, format=fmt, base_iri=Path(path).resolve().as_uri()):
                    yield quad.triple
            except SyntaxError as exc:
                raise InputError(f"{path}: not valid {fmt.name}: {str(exc).splitlines()[0][:200]}") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
