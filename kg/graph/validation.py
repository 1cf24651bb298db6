"""Check a graph against the SHACL shapes with pySHACL: ontology/shapes.ttl, plus the shapes of the
relations, derived from ontology/kg.ttl (the one definition of each relation): an assertion's
predicate is one of the relations, and each relation's subject and object belong to its domain and
range; an event statement's type is one of the event classes, a participant's role one of the
role types."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import ontology
from ..datafiles import turtle
from ..resources import ontology_file


@dataclass(frozen=True)
class Report:
    conforms: bool
    violations: tuple[str, ...]


def relation_shapes():
    """The shapes kg.ttl's relations imply, as an rdflib Graph."""
    from rdflib import BNode, Graph, Literal, Namespace, URIRef
    from rdflib.collection import Collection
    from rdflib.namespace import RDF, SH

    kg = Namespace(ontology.KG_NS)
    shapes = Namespace("https://w3id.org/kg/shapes#")
    graph = Graph()
    relations = ontology.relations()

    def classes(node, names: tuple[str, ...]) -> None:
        """sh:class of one class, or sh:or of several."""
        if len(names) == 1:
            graph.add((node, SH["class"], kg[names[0]]))
            return
        options = []
        for name in names:
            option = BNode()
            graph.add((option, SH["class"], kg[name]))
            options.append(option)
        head = BNode()
        Collection(graph, head, options)
        graph.add((node, SH["or"], head))

    members = BNode()
    Collection(graph, members, [URIRef(r.iri) for r in relations.values()])
    predicate = BNode()
    graph.add((shapes.AssertionPredicateShape, RDF.type, SH.NodeShape))
    graph.add((shapes.AssertionPredicateShape, SH.targetClass, kg.Assertion))
    graph.add((shapes.AssertionPredicateShape, SH.property, predicate))
    graph.add((predicate, SH.path, RDF.predicate))
    graph.add((predicate, SH["in"], members))
    graph.add((predicate, SH.message, Literal("an assertion's predicate is a relation of ontology/kg.ttl")))
    for r in relations.values():
        shape, values = shapes[f"{r.name}Shape"], BNode()
        graph.add((shape, RDF.type, SH.NodeShape))
        graph.add((shape, SH.targetSubjectsOf, URIRef(r.iri)))
        classes(shape, r.domain)
        graph.add((shape, SH.message, Literal(f"the subject of kg:{r.name} is a {' or '.join(r.domain)}")))
        graph.add((shape, SH.property, values))
        graph.add((values, SH.path, URIRef(r.iri)))
        classes(values, r.range)
        graph.add((values, SH.message, Literal(f"the object of kg:{r.name} is a {' or '.join(r.range)}")))
    _one_of(graph, shapes.EventTypeShape, "https://w3id.org/kg/ontology#eventType",
            [kg[e.name] for e in ontology.event_types().values()], "an event statement's type is an event class of ontology/kg.ttl")
    _one_of(graph, shapes.RoleTypeShape, ontology.SEM_NS + "roleType",
            [kg[name] for name in ontology.role_types()], "a participant's role type is one of ontology/kg.ttl")
    return graph


def _one_of(graph, shape, path: str, members: list, message: str) -> None:
    """The values of ``path`` are among ``members``: event classes and role types, from kg.ttl."""
    from rdflib import BNode, Literal, URIRef
    from rdflib.collection import Collection
    from rdflib.namespace import RDF, SH

    allowed = BNode()
    Collection(graph, allowed, members)
    graph.add((shape, RDF.type, SH.NodeShape))
    graph.add((shape, SH.targetObjectsOf, URIRef(path)))
    graph.add((shape, SH["in"], allowed))
    graph.add((shape, SH.message, Literal(message)))


def shapes_graph():
    """ontology/shapes.ttl and the relations' shapes, as an rdflib Graph."""
    return _data_graph("shapes.ttl") + relation_shapes()


def _data_graph(name: str):
    """A Turtle file of ontology/ as an rdflib Graph, read by the parser that names the file and
    the line of an error (:func:`kg.datafiles.turtle`)."""
    import pyoxigraph as ox
    from rdflib import Graph

    lines = ox.serialize(turtle(ontology_file(name)), format=ox.RdfFormat.N_TRIPLES)
    return Graph().parse(data=lines.decode("utf-8"), format="nt")


def validate_store(store, as_graph=None) -> Report:
    """Validate the union of ``store``'s graphs (the ontology among them) by SPARQL queries the
    store evaluates (:mod:`kg.graph.shacl`), or, if the shapes need more than those translate,
    with pySHACL on ``as_graph()`` (default: the store's union as an rdflib Graph)."""
    import pyoxigraph as ox

    from . import shacl

    shapes = ox.Store()
    shapes.load(shapes_graph().serialize(format="nt", encoding="utf-8"), format=ox.RdfFormat.N_TRIPLES)
    try:
        found = shacl.violations(store, shapes)
    except shacl.Unsupported:
        return validate_graph(as_graph() if as_graph else _union(store))
    lines = [f"{v.focus}" + (f" {_short(v.path)}" if v.path is not None else "") + f": {v.message}" for v in found]
    return Report(not lines, tuple(sorted(lines)))


def _union(store):
    """The union of the store's graphs but the ontology, as an rdflib Graph (for pySHACL)."""
    import io

    from rdflib import Graph

    from .export import export_rdf

    buffer = io.BytesIO()
    export_rdf(store, "ntriples", buffer)
    return Graph().parse(data=buffer.getvalue().decode("utf-8"), format="nt")


class _InMemory:
    """An rdflib Graph and the ontology in an in-memory Oxigraph store, each in a named graph
    (the queries read ``GRAPH ?g``), queried as a kg store is."""

    def __init__(self, graph) -> None:
        import pyoxigraph as ox

        self._store = ox.Store()
        self._store.load(graph.serialize(format="nt", encoding="utf-8"), format=ox.RdfFormat.N_TRIPLES,
                         to_graph=ox.NamedNode("urn:kg:data"))
        ontology_graph = ox.NamedNode("urn:kg:ontology")
        self._store.extend(ox.Quad(t.subject, t.predicate, t.object, ontology_graph)
                           for t in turtle(ontology_file("kg.ttl")))

    def query(self, sparql: str, union: bool = False):
        return self._store.query(sparql)


def validate_file(path: str | Path) -> Report:
    """Validate an RDF file (all graphs of a dataset merged), with the ontology beside it."""
    graph = load_file(path)
    return validate_store(_InMemory(graph), lambda: graph)


def validate_graph(data) -> Report:
    """Validate an rdflib Graph with pySHACL; the ontology supplies the class hierarchy for sh:class."""
    import pyshacl
    from rdflib.namespace import SH

    shapes = shapes_graph()
    ontology_graph = _data_graph("kg.ttl")
    conforms, results, _text = pyshacl.validate(data, shacl_graph=shapes, ont_graph=ontology_graph,
                                                inference="none", allow_warnings=True)
    violations = []
    for result in results.objects(None, SH.result):  # the report's results, not their sh:detail
        if results.value(result, SH.resultSeverity) != SH.Violation:
            continue
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
    """An RDF file as an rdflib Graph (all graphs of a dataset merged), read as
    :func:`kg.graph.rdffile.read_triples` reads it."""
    import pyoxigraph as ox
    from rdflib import Graph

    from .rdffile import read_triples

    return Graph().parse(data=ox.serialize(read_triples(path), format=ox.RdfFormat.N_TRIPLES), format="nt")
