"""Build: inputs -> documents -> extraction -> the store. Documents already stored are skipped."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .ingest import iter_inputs
from .model import Document, InputProblem
from .store import Store

CHUNK = 64  # documents parsed per round: bounds memory however many articles come in


@dataclass
class BuildReport:
    added: int = 0
    skipped: int = 0
    assertions: int = 0
    quads: int = 0
    problems: list[InputProblem] = field(default_factory=list)


def build(sources: Iterable[str], store: Store, n_process: int = 1,
          on_problem: Callable[[InputProblem], None] | None = None,
          on_document: Callable[[Document, int], None] | None = None) -> BuildReport:
    """Add every new article in ``sources`` to ``store``; report what happened.

    Bad inputs are reported through ``on_problem`` (and in the report) and do not stop the build.
    """
    from .pipeline import extract_all

    report = BuildReport()
    pending: list[Document] = []
    seen: set[str] = set()

    def flush() -> None:
        for extraction in extract_all(pending, n_process=n_process):
            report.quads += store.add(extraction)
            report.added += 1
            report.assertions += len(extraction.assertions)
            if on_document:
                on_document(extraction.document, len(extraction.assertions))
        pending.clear()

    for item in iter_inputs(sources):
        if isinstance(item, InputProblem):
            report.problems.append(item)
            if on_problem:
                on_problem(item)
            continue
        if item.id in seen or store.has_document(item.id):
            report.skipped += 1
            continue
        seen.add(item.id)
        pending.append(item)
        if len(pending) >= CHUNK:
            flush()
    if pending:
        flush()
    store.refresh_entities()
    store.flush()
    return report
