"""Locate the data files (ontology, lexicon, gazetteer, queries): ``$KG_DATA/ontology`` and
``$KG_DATA/queries`` when ``KG_DATA`` names a folder (your own copy of kg's data, e.g. with a
relation of your own), else beside the package in a checkout, else inside it in a wheel. The
pages' templates are package files (``kg/templates/``), filled here: the one way data enters a page."""

from __future__ import annotations

import html
import json
import os
import re
from functools import cache
from pathlib import Path

from .errors import DataError

ENV_VAR = "KG_DATA"


@cache
def data_dir(name: str) -> Path:
    """The ``ontology`` or ``queries`` folder."""
    own = os.environ.get(ENV_VAR)
    if own:
        folder = Path(own).expanduser() / name
        if not folder.is_dir():
            raise DataError(f"{ENV_VAR}={own}: no folder {name!r} there",
                            hint="copy kg's ontology/ and queries/ folders into it")
        return folder
    package = Path(__file__).resolve().parent
    for candidate in (package / "_data" / name, package.parent / name):
        if candidate.is_dir():
            return candidate
    raise DataError(f"kg data folder {name!r} not found next to {package}")


def ontology_file(name: str) -> Path:
    return data_dir("ontology") / name


def queries_dir() -> Path:
    return data_dir("queries")


def template(name: str) -> str:
    """The text of a page template shipped inside the package (``kg/templates/NAME``)."""
    from importlib.resources import files

    resource = files("kg") / "templates" / name
    if not resource.is_file():
        raise DataError(f"kg page template {name!r} not found in the package")
    return resource.read_text(encoding="utf-8")


# In a page's data block, "<!--", "<script" and "</script" would change how the HTML parser reads
# the rest of the page; escaped, no name or sentence can. U+2028/9 end lines in older JavaScript.
_SCRIPT_SAFE = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                0x2028: "\\u2028", 0x2029: "\\u2029"}
_PLACEHOLDER = re.compile(r"__(TITLE|DATA)__")


def fill(template: str, title: str, data: object) -> str:
    """``template`` with its ``__TITLE__`` (HTML-escaped text) and its ``__DATA__`` (JSON for a
    ``<script type="application/json">`` block) filled in one pass: every page of kg's takes its
    data through here. One pass, because a value is never read again: a title "__DATA__" stays
    that text, where a second replace would put the data in the title."""
    values = {"TITLE": html.escape(title), "DATA": json.dumps(data, ensure_ascii=False).translate(_SCRIPT_SAFE)}
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


def write_page(path: str | Path, names: tuple[str, ...], title: str, data: object) -> None:
    """The page made of the templates ``names`` (their texts one after the other: a shared head,
    then the page's own), filled with ``title`` and ``data``, written to ``path`` as UTF-8."""
    from .outputs import output_file

    with output_file(path) as out:
        out.write(fill("".join(template(name) for name in names), title, data).encode("utf-8"))
