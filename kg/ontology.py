"""ontology/kg.ttl read once: the class hierarchy and the relations, the one definition of each.

Every relation between entities is an ``owl:ObjectProperty`` that is ``rdfs:subPropertyOf
kg:relatedTo``, with its label, comment, domain, range (a class or an ``owl:unionOf`` list) and
whether it is an ``owl:SymmetricProperty``; a property may carry a ``kg:sign`` (1: its facts put
the two entities on one side, -1: on opposite sides), which ``kg analyze`` finds camps by.
Everything else that needs the list of relations (the lexicon's argument types, the SHACL shapes,
the scorer, the statistics query, the page's legend) takes it from here or from the ontology graph
the store holds, so adding a relation is adding its property to kg.ttl and its triggers to the
lexicon.

Read with pyoxigraph's parser: it is already loaded by every command, where rdflib is not.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache

from .datafiles import turtle
from .errors import DataError
from .resources import ontology_file

KG_NS = "https://w3id.org/kg/ontology#"
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_RDFS = "http://www.w3.org/2000/01/rdf-schema#"
_OWL = "http://www.w3.org/2002/07/owl#"
ROOT_RELATION = "relatedTo"
SEM_NS = "http://semanticweb.cs.vu.nl/2009/11/sem/"


@dataclass(frozen=True)
class Relation:
    """A relation of kg.ttl: ``domain`` and ``range`` are the local names of the classes its
    subject and object may belong to (subclasses included)."""

    name: str
    label: str
    comment: str
    domain: tuple[str, ...]
    range: tuple[str, ...]
    symmetric: bool

    @property
    def iri(self) -> str:
        return KG_NS + self.name


@dataclass(frozen=True)
class EventType:
    """An event class of kg.ttl: the relation whose triggers state it and the roles (local names of
    role types) its subject and object play."""

    name: str
    label: str
    relation: str
    subject_role: str
    object_role: str


@dataclass(frozen=True)
class RoleType:
    """A role type of kg.ttl (a sem:RoleType) and the SEM property that reaches it ("hasActor")."""

    name: str
    label: str
    property: str


@dataclass(frozen=True)
class Ontology:
    superclasses: dict[str, frozenset[str]]  # class -> itself and every ancestor
    relations: dict[str, Relation]
    events: dict[str, EventType] = field(default_factory=dict)  # by the relation that states them
    roles: dict[str, RoleType] = field(default_factory=dict)
    signs: dict[str, int] = field(default_factory=dict)  # property -> kg:sign (1 or -1)


def _local(iri: str) -> str | None:
    return iri[len(KG_NS):] if iri.startswith(KG_NS) else None


@cache
def load() -> Ontology:
    """Parse ontology/kg.ttl (cached); a file without relations, or a relation without domain or
    range, is an error."""
    path = ontology_file("kg.ttl")
    by_subject: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for t in turtle(path):
        by_subject[str(t.subject)][t.predicate.value].append(t.object)

    def objects(subject, predicate: str) -> list:
        return by_subject.get(str(subject), {}).get(predicate, [])

    def rdf_list(head) -> list:
        items = []
        while head is not None and getattr(head, "value", None) != _RDF + "nil":
            items += objects(head, _RDF + "first")
            rest = objects(head, _RDF + "rest")
            head = rest[0] if rest else None
        return items

    def classes(term) -> tuple[str, ...]:
        members = rdf_list(objects(term, _OWL + "unionOf")[0]) if objects(term, _OWL + "unionOf") else [term]
        return tuple(sorted(name for m in members if (name := _local(getattr(m, "value", ""))) is not None))

    parents: dict[str, set[str]] = defaultdict(set)
    relations: dict[str, Relation] = {}
    events: dict[str, EventType] = {}
    roles: dict[str, RoleType] = {}
    signs: dict[str, int] = {}

    def label(props: dict, name: str) -> str:
        return props[_RDFS + "label"][0].value if props.get(_RDFS + "label") else name

    def named(props: dict, predicate: str, name: str) -> str:
        values = [v for o in props.get(KG_NS + predicate, [])
                  if (v := _local(o.value) or (o.value[len(SEM_NS):] if o.value.startswith(SEM_NS) else None))]
        if not values:
            raise DataError(f"{path}: kg:{name} needs a kg:{predicate}")
        return values[0]

    for subject, props in by_subject.items():
        name = _local(subject.strip("<>"))
        if name is None:
            continue
        types = {getattr(o, "value", "") for o in props.get(_RDF + "type", [])}
        if KG_NS + "eventRelation" in props:
            event = EventType(name, label(props, name), named(props, "eventRelation", name),
                              named(props, "subjectRole", name), named(props, "objectRole", name))
            events[event.relation] = event
        if SEM_NS + "RoleType" in types:
            roles[name] = RoleType(name, label(props, name), named(props, "roleProperty", name))
        for sign in props.get(KG_NS + "sign", []):
            if sign.value not in ("1", "-1", "+1"):
                raise DataError(f"{path}: kg:{name} has kg:sign {sign.value}: a sign is 1 or -1")
            signs[name] = int(sign.value)
        if _OWL + "Class" in types:
            parents[name] |= {p for o in props.get(_RDFS + "subClassOf", []) if (p := _local(o.value)) is not None}
        supers = {getattr(o, "value", "") for o in props.get(_RDFS + "subPropertyOf", [])}
        if KG_NS + ROOT_RELATION in supers:
            domain, range_ = props.get(_RDFS + "domain"), props.get(_RDFS + "range")
            if not domain or not range_:
                raise DataError(f"{path}: relation kg:{name} needs an rdfs:domain and an rdfs:range")
            relations[name] = Relation(
                name=name, label=str(props.get(_RDFS + "label", [""])[0].value if props.get(_RDFS + "label") else name),
                comment=props[_RDFS + "comment"][0].value if props.get(_RDFS + "comment") else "",
                domain=classes(domain[0]), range=classes(range_[0]),
                symmetric=_OWL + "SymmetricProperty" in types,
            )

    def ancestors(name: str, seen: frozenset[str] = frozenset()) -> frozenset[str]:
        out = {name}
        for parent in parents.get(name, ()):
            if parent not in seen:
                out |= ancestors(parent, seen | {name})
        return frozenset(out)

    if not relations:
        raise DataError(f"{path}: defines no relation (an owl:ObjectProperty that is rdfs:subPropertyOf "
                        f"kg:{ROOT_RELATION})")
    for event in events.values():
        unknown = [r for r in (event.relation,) if r not in relations]
        unknown += [r for r in (event.subject_role, event.object_role) if r not in roles]
        if unknown:
            raise DataError(f"{path}: event class kg:{event.name} names kg:{unknown[0]}, which is not a relation or role type")
    return Ontology({name: ancestors(name) for name in parents}, dict(sorted(relations.items())),
                    dict(sorted(events.items())), dict(sorted(roles.items())), dict(sorted(signs.items())))


def superclasses() -> dict[str, frozenset[str]]:
    """Local class name -> itself and every ancestor in kg.ttl (rdfs:subClassOf, transitively)."""
    return load().superclasses


def relations() -> dict[str, Relation]:
    """The relations between entities, by local name, in name order."""
    return load().relations


def event_types() -> dict[str, EventType]:
    """The event classes, by the relation whose triggers state them (``"captured"`` -> Capture)."""
    return load().events


def role_types() -> dict[str, RoleType]:
    """The role types of event participants, by local name (``agentRole``)."""
    return load().roles


def signs() -> dict[str, int]:
    """The properties whose facts join two entities in one camp (1) or set them apart (-1), by
    local name: their ``kg:sign``. Any other relation is neither."""
    return load().signs


def symmetric_relations() -> frozenset[str]:
    return frozenset(name for name, r in relations().items() if r.symmetric)


def is_a(type_: str, ancestor: str) -> bool:
    return ancestor in superclasses().get(type_, frozenset({type_}))


def fits(type_: str, allowed: tuple[str, ...]) -> bool:
    """Whether an entity of class ``type_`` may fill a slot typed ``allowed`` (any one of them)."""
    return any(is_a(type_, a) for a in allowed)


def class_depth() -> dict[str, int]:
    """How deep each class sits in the hierarchy: the most specific of two types is the deeper."""
    return {name: len(ancestors) for name, ancestors in superclasses().items()}


def ontology_quads() -> list:
    """kg.ttl as pyoxigraph quads of the ontology graph, its blank nodes (owl:unionOf lists)
    skolemized to IRIs numbered in the file's order, so every store holds the same quads."""
    import pyoxigraph as ox

    from .namespaces import ONTOLOGY_GRAPH

    graph = ox.NamedNode(str(ONTOLOGY_GRAPH))
    names: dict[str, ox.NamedNode] = {}

    def term(t):
        if isinstance(t, ox.BlankNode):
            return names.setdefault(t.value, ox.NamedNode(f"{KG_NS[:-1]}/genid/{len(names) + 1}"))
        return t

    return [ox.Quad(term(t.subject), t.predicate, term(t.object), graph)
            for t in turtle(ontology_file("kg.ttl"))]
