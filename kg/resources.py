"""Locate the data files (ontology, lexicon, gazetteer, queries): ``$KG_DATA/ontology`` and
``$KG_DATA/queries`` when ``KG_DATA`` names a folder (your own copy of kg's data, e.g. with a
relation of your own), else beside the package in a checkout, else inside it in a wheel."""

from __future__ import annotations

import os
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
