"""Locate the data files (ontology, lexicon, gazetteer, queries) in a checkout or an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir(name: str) -> Path:
    """The ``ontology`` or ``queries`` folder: beside the package in a checkout, inside it in a wheel."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "_data" / name, package.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"kg data folder {name!r} not found next to {package}")


def ontology_file(name: str) -> Path:
    return data_dir("ontology") / name


def queries_dir() -> Path:
    return data_dir("queries")
