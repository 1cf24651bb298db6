"""VALUES blocks of IRIs, by which the queries kg writes itself ask about many entities at once."""

from __future__ import annotations


def values(name: str, iris: list[str]) -> str:
    """``VALUES ?name { <iri> ... }``: ``iris`` are IRIs kg made (entities, events, graphs),
    never user text (that is bound by :func:`kg.sparql.guard.bind`)."""
    return f"VALUES ?{name} {{ " + " ".join(f"<{iri}>" for iri in iris) + " }"
