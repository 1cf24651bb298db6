"""Check a graph against ontology/shapes.ttl with pySHACL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..resources import ontology_file


@dataclass(frozen=True)
class Report:
    conforms: bool
    violations: tuple[str, ...]


def validate_graph(data) -> Report:
    """Validate an rdflib Graph; the ontology supplies the class hierarchy for sh:class."""
    import pyshacl
    from rdflib import Graph
    from rdflib.namespace import SH

    shapes = Graph().parse(ontology_file("shapes.ttl"), format="turtle")
    ontology = Graph().parse(ontology_file("kg.ttl"), format="turtle")
    conforms, results, _text = pyshacl.validate(data, shacl_graph=shapes, ont_graph=ontology,
                                                inference="none", allow_warnings=True)
    violations = []
    for result in results.subjects(SH.resultSeverity, SH.Violation):
        focus = results.value(result, SH.focusNode)
        path = results.value(result, SH.resultPath)
        message = results.value(result, SH.resultMessage)
        where = f"{focus}" + (f" {_short(path)}" if path is not None else "")
        violations.append(f"{where}: {message}")
    return Report(bool(conforms), tuple(sorted(violations)))


def _short(term) -> str:
    text = str(term)
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def load_file(path: str | Path):
    """An RDF file as an rdflib Graph (all graphs of a dataset merged)."""
    from rdflib import Dataset, Graph
    from rdflib.util import guess_format

    fmt = guess_format(str(path)) or "turtle"
    try:
        dataset = Dataset()
        dataset.parse(str(path), format=fmt)
    except Exception as exc:  # rdflib raises many parser-specific types
        raise InputError(f"{path}: cannot parse as {fmt}: {str(exc).splitlines()[0][:200]}") from None
    graph = Graph()
    for s, p, o, _g in dataset.quads((None, None, None, None)):
        graph.add((s, p, o))
    return graph
