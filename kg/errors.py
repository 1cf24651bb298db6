"""One exception hierarchy for kg. The CLI turns each into a one-line message and an exit code."""

from __future__ import annotations


class KGError(Exception):
    """Base class: a problem the user can fix. ``exit_code`` is what the CLI exits with."""

    exit_code = 1
    hint = ""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        if hint is not None:
            self.hint = hint

    def __str__(self) -> str:
        message = super().__str__()
        return f"{message} ({self.hint})" if self.hint else message


class UsageError(KGError):
    """A wrong option or argument."""

    exit_code = 2


class InputError(KGError):
    """An input file or line that cannot be read as an article."""

    exit_code = 3


class StoreError(KGError):
    """The store is missing, locked by another process, or unreadable."""

    exit_code = 4


class QueryError(KGError):
    """A SPARQL query that cannot be parsed, is refused, or fails."""

    exit_code = 5


class ModelError(KGError):
    """No usable spaCy English model is installed."""

    exit_code = 7


class OutputError(KGError):
    """An output file that cannot be written: its folder is missing or read-only, it is a folder, the disk is full."""

    exit_code = 9


class DataError(KGError):
    """One of kg's data files (ontology, lexicon, gazetteer, word lists) cannot be used."""

    exit_code = 78  # EX_CONFIG of sysexits.h
