"""Pictures of the graph: ``kg viz -o graph.html`` (interactive, one self-contained file that works
offline: :mod:`kg.graph.page`) and ``-o graph.png`` / ``.svg`` / ``.pdf`` (a static picture for
reports: :mod:`kg.graph.picture`), both of the layout of :mod:`kg.graph.layout`.

Both draw communities apart, name the most central entities (and those asked for) where the
names cover no node and no other name, tell relations apart by colour and dash pattern and by
their names on the edges where there is room, draw facts of symmetric relations (allyOf,
ceasefireWith: see :func:`kg.ontology.symmetric_relations`) without an arrowhead, and say what
was left out: isolated pairs, and entities beyond ``max_nodes``.
"""

from __future__ import annotations

from pathlib import Path

from .. import formats
from ..errors import UsageError
from .layout import PALETTE, scene
from .page import graph_data, write_html
from .picture import picture, write_picture

__all__ = ["PALETTE", "format_for", "graph_data", "picture", "scene", "write_html", "write_picture"]


def format_for(path: str | Path) -> str:
    """The picture format a file name asks for, from its suffix; a UsageError for any other."""
    suffix = Path(path).suffix.lower()
    for fmt, suffixes in formats.PICTURES.items():
        if suffix in suffixes:
            return fmt
    known = ", ".join(s for suffixes in formats.PICTURES.values() for s in suffixes)
    what = f"{suffix} files" if suffix else "files without a suffix"
    raise UsageError(f"-o {path}: kg viz cannot write {what}", hint=f"name a {known} file, or give --format")
