"""SHACL validation as SPARQL queries the store answers: seconds at a million triples.

pySHACL walks an rdflib graph in Python: over a minute to load a million triples and minutes to
check them. Here the shapes become SELECTs evaluated by the store, with the data graph the union
of the store's graphs (read through ``GRAPH ?g``, each value once, as the union holds it: an
entity's label is in the entity graph, its mentions in the documents' graphs). The core
constraints kg's shapes use are understood: targets ``sh:targetClass`` (with subclasses),
``sh:targetSubjectsOf``, ``sh:targetObjectsOf``, ``sh:targetNode``; on the focus node or on a
predicate path: ``sh:class``, ``sh:datatype``, ``sh:nodeKind``, ``sh:in``, ``sh:pattern``,
``sh:minLength`` / ``sh:maxLength``, ``sh:min/maxInclusive/Exclusive``, ``sh:minCount`` /
``sh:maxCount`` (a path is a predicate or ``sh:inversePath`` of one); and ``sh:node``, ``sh:or``,
``sh:xone``, ``sh:and`` of shapes made of these (a
member with a ``sh:path`` is read by a grouped join, or nested deeper, by ``EXISTS`` with counts
up to three). A shape with anything else raises :class:`Unsupported`, and
:func:`kg.graph.validation.validate_store` then hands the graph to pySHACL. ``tests/test_shacl.py``
checks that both find the same violations.

What it costs on Oxigraph (measured on 1.28 M triples): a scan reads a quad in under 1 us, a
grouping or hash join adds ~1.5 us a row, an index lookup (a join on a bound node, ``EXISTS``)
costs ~12 us. So each query finds what fails from scans and hash joins (a value's constraints by
a scan of its path, sh:class by ``MINUS`` of the typed nodes, counts by a grouping only where a
node has several values), and only then, if anything fails, which of it is on focus nodes.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from itertools import count

import pyoxigraph as ox

from ..machine import available_cores

SH = "http://www.w3.org/ns/shacl#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"
XSD = "http://www.w3.org/2001/XMLSchema#"
_NUMERIC = {XSD + t for t in ("integer", "decimal", "double", "float", "int", "long", "short", "byte",
                              "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
                              "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte")}
_NODE_KINDS = {"IRI": "isIRI({v})", "BlankNode": "isBlank({v})", "Literal": "isLiteral({v})",
               "BlankNodeOrIRI": "!isLiteral({v})", "BlankNodeOrLiteral": "!isIRI({v})",
               "IRIOrLiteral": "!isBlank({v})"}
_COMPARISONS = {"minInclusive": ">=", "maxInclusive": "<=", "minExclusive": ">", "maxExclusive": "<"}
_LOGICAL = ("or", "xone", "and")  # each a list of shapes; sh:node is one shape
_VALUE_KEYS = {"class", "datatype", "nodeKind", "in", "pattern", "flags", "minLength", "maxLength", "node",
               *_LOGICAL, *_COMPARISONS}
_SHAPE_KEYS = {"targetClass", "targetSubjectsOf", "targetObjectsOf", "targetNode", "property", "message",
               "severity", "name", "description", "order", "group"} | _VALUE_KEYS
_PROPERTY_KEYS = (_SHAPE_KEYS - {"targetClass", "targetSubjectsOf", "targetObjectsOf", "targetNode", "property"}) \
    | {"path", "minCount", "maxCount"}
_MEMBER_KEYS = _VALUE_KEYS | {"path", "minCount", "maxCount", "message"}  # a shape inside sh:or, sh:node...
_MOST_COUNTED = 3  # a count inside EXISTS is that many values pairwise different; more is Unsupported
_IGNORED = {RDF_TYPE, "http://www.w3.org/2000/01/rdf-schema#label", "http://www.w3.org/2000/01/rdf-schema#comment"}


class Unsupported(Exception):
    """A shape uses SHACL this module does not translate."""


@dataclass(frozen=True)
class Violation:
    focus: str
    path: str | None
    message: str
    component: str  # the SHACL constraint component, e.g. "MinCountConstraintComponent"


@dataclass
class _Shape:
    node: object
    values: dict[str, list]  # sh: local name -> objects
    path: str | None = None


def violations(store, shapes) -> list[Violation]:
    """Every violation of ``shapes`` (a pyoxigraph Store holding the shapes graph) in ``store``'s
    union of graphs; :class:`Unsupported` if a shape needs what is not translated here."""
    classes = _subclasses(store)
    checks: list[tuple[_Shape, str]] = []  # every shape with its focus nodes, all read before they run
    for node_shape in _node_shapes(shapes):
        target = _target(node_shape, classes)
        if target is None:
            continue
        checks.append((node_shape, target))
        for prop in node_shape.values.get("property", []):
            shape = _shape(shapes, prop, _PROPERTY_KEYS)
            paths = shape.values.get("path", [])
            if len(paths) != 1:
                raise Unsupported("a property shape without one sh:path")
            shape.path = _path(shapes, paths[0])
            checks.append((shape, target))
    probed: dict[str, bool] = {}

    def check(item: tuple[_Shape, str]) -> list[Violation]:
        shape, target = item
        return list(_check(store, shape, target, classes, shape.values.get("message"), probed))

    # the shapes' queries at once, one per core: Oxigraph evaluates without the GIL (measured: two
    # threads answer two scans in half the time); a query shared by shapes may then run twice
    with ThreadPoolExecutor(max_workers=available_cores(), thread_name_prefix="kg-validate") as pool:
        return [v for found in pool.map(check, checks) for v in found]


# ---------------------------------------------------------------------------- reading the shapes

def _node_shapes(shapes) -> Iterator[_Shape]:
    seen = set()
    for quad in shapes.quads_for_pattern(None, None, None, None):
        name = quad.predicate.value
        if name.startswith(SH + "target") and quad.subject not in seen:
            seen.add(quad.subject)
            yield _shape(shapes, quad.subject, _SHAPE_KEYS)


def _shape(shapes, node, allowed: set[str]) -> _Shape:
    values: dict[str, list] = {}
    for quad in shapes.quads_for_pattern(node, None, None, None):
        iri = quad.predicate.value
        if iri in _IGNORED:
            continue
        if not iri.startswith(SH) or iri[len(SH):] not in allowed:
            raise Unsupported(f"{iri} on a shape")
        values.setdefault(iri[len(SH):], []).append(quad.object)
    severity = values.get("severity", [ox.NamedNode(SH + "Violation")])
    if severity != [ox.NamedNode(SH + "Violation")]:
        raise Unsupported("a severity other than sh:Violation")
    values["in"] = [_list(shapes, head) for head in values.get("in", [])]
    for key in _LOGICAL:
        values[key] = [[_member(shapes, m) for m in _list(shapes, head)] for head in values.get(key, [])]
    values["node"] = [_member(shapes, m) for m in values.get("node", [])]
    return _Shape(node, values)


def _member(shapes, node) -> _Shape:
    """A shape inside sh:or, sh:xone, sh:and or sh:node: value constraints, or a property shape."""
    shape = _shape(shapes, node, _MEMBER_KEYS)
    paths = shape.values.get("path", [])
    if len(paths) > 1:
        raise Unsupported("a property shape with two sh:path")
    shape.path = _path(shapes, paths[0]) if paths else None
    return shape


def _path(shapes, node) -> str:
    """A property shape's sh:path as this module keeps it: a predicate's IRI, or "^" and the IRI
    for ``[ sh:inversePath P ]`` (the subjects of P: "the curations that name this entity")."""
    if isinstance(node, ox.NamedNode):
        return node.value
    quads = list(shapes.quads_for_pattern(node, None, None, None))
    if len(quads) == 1 and quads[0].predicate.value == SH + "inversePath" and isinstance(quads[0].object, ox.NamedNode):
        return "^" + quads[0].object.value
    raise Unsupported("a sh:path that is neither one predicate nor the inverse of one")


def _sparql(path: str) -> str:
    """A path of :func:`_path` in SPARQL's syntax."""
    return f"^<{path[1:]}>" if path.startswith("^") else f"<{path}>"


def _list(shapes, head) -> list:
    items, rest = [], ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#rest")
    first, nil = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#first"), \
        ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#nil")
    while head != nil:
        value = next(iter(shapes.quads_for_pattern(head, first, None, None)), None)
        following = next(iter(shapes.quads_for_pattern(head, rest, None, None)), None)
        if value is None or following is None:
            raise Unsupported("a malformed RDF list")
        items.append(value.object)
        head = following.object
    return items


def _subclasses(store):
    """A function: a class -> itself and every class below it, by the data's rdfs:subClassOf."""
    below: dict[str, set[str]] = {}
    for row in store.query(f"SELECT DISTINCT ?sub ?sup WHERE {{ GRAPH ?g {{ ?sub <{SUBCLASS}> ?sup }} }}",
                           union=False):
        below.setdefault(row["sup"].value, set()).add(row["sub"].value)

    @cache
    def closure(cls: str) -> frozenset[str]:
        out, todo = {cls}, [cls]
        while todo:
            for sub in below.get(todo.pop(), ()):
                if sub not in out:
                    out.add(sub)
                    todo.append(sub)
        return frozenset(out)

    return closure


# ---------------------------------------------------------------------------- the queries

def _term(term) -> str:
    return str(term)  # pyoxigraph writes terms in N-Triples syntax, which SPARQL reads


def _target(shape: _Shape, classes) -> str | None:
    """A pattern binding ?f to each focus node (maybe more than once), or None without targets."""
    parts = []
    for cls in shape.values.get("targetClass", []):
        types = " ".join(f"<{c}>" for c in sorted(classes(cls.value)))
        parts.append(f"{{ VALUES ?tc {{ {types} }} GRAPH ?tg {{ ?f <{RDF_TYPE}> ?tc }} }}")
    for predicate in shape.values.get("targetSubjectsOf", []):
        parts.append(f"{{ GRAPH ?tg {{ ?f <{predicate.value}> ?to }} }}")
    for predicate in shape.values.get("targetObjectsOf", []):
        parts.append(f"{{ GRAPH ?tg {{ ?ts <{predicate.value}> ?f }} }}")
    for node in shape.values.get("targetNode", []):
        parts.append(f"{{ VALUES ?f {{ {_term(node)} }} }}")
    return " UNION ".join(parts) or None


def _typed(cls: str, classes, v: str, bound: bool = False) -> str:
    """A pattern matching ``v`` typed ``cls`` or a class below it (in each graph that says so).
    With ``v`` bound (``bound=True``): its types read and filtered, one index lookup, where a
    ``VALUES`` of the classes would be one lookup per class (15 below kg:Entity)."""
    types = sorted(classes(cls))
    if len(types) == 1:
        return f"GRAPH ?cg {{ {v} <{RDF_TYPE}> <{types[0]}> }}"
    if bound:
        return f"GRAPH ?cg {{ {v} <{RDF_TYPE}> ?ct }} FILTER(?ct IN ({', '.join(f'<{c}>' for c in types)}))"
    return f"VALUES ?ct {{ {' '.join(f'<{c}>' for c in types)} }} GRAPH ?cg {{ {v} <{RDF_TYPE}> ?ct }}"


def _conditions(shape: _Shape, classes, v: str, with_class: bool = True,
                joins: list[str] | None = None) -> Iterator[tuple[str, str]]:
    """(component, a SPARQL expression true when ``v`` conforms, false or an error when not) for
    each value constraint. Each is read inside ``COALESCE(..., false)``, so ``DATATYPE`` of an IRI
    or ``STR`` of a blank node fails it with no guard (a guard reads the term again, and Oxigraph
    decodes a long literal at each use, ~2.5 us). ``with_class=False``: but sh:class, which
    :func:`_check` finds by ``MINUS``. With ``joins`` (a list the caller puts in its group
    pattern after ``v``'s), a class and a property shape inside sh:or, sh:node... are read by
    joins appended there, not by ``EXISTS`` (see :func:`_conforms`)."""
    values = shape.values
    for cls in values.get("class", []) if with_class else ():
        if joins is None:
            yield "ClassConstraintComponent", f"EXISTS {{ {_typed(cls.value, classes, v, bound=True)} }}"
            continue
        typed = f"?t{next(_fresh)}"
        joins.append(f"OPTIONAL {{ SELECT DISTINCT {v} (true AS {typed}) WHERE {{ {_typed(cls.value, classes, v)} }} }}")
        yield "ClassConstraintComponent", f"BOUND({typed})"
    for members in values.get("or", []):
        yield "OrConstraintComponent", " || ".join(f"({_conforms(m, classes, v, joins)})" for m in members) or "false"
    for members in values.get("and", []):
        yield "AndConstraintComponent", " && ".join(f"({_conforms(m, classes, v, joins)})" for m in members) or "true"
    for members in values.get("xone", []):
        ones = " + ".join(f"IF({_conforms(m, classes, v, joins)}, 1, 0)" for m in members) or "0"
        yield "XoneConstraintComponent", f"({ones}) = 1"
    for member in values.get("node", []):
        yield "NodeConstraintComponent", _conforms(member, classes, v, joins)
    for datatype in values.get("datatype", []):
        # the datatype's text compared: comparing IRIs costs Oxigraph 6x as much (measured)
        check = f"STR(DATATYPE({v})) = {_term(ox.Literal(datatype.value))}"
        if datatype.value in _NUMERIC:  # an ill-formed number keeps its datatype but is no number
            check += f" && isNumeric({v})"
        yield "DatatypeConstraintComponent", check
    for kind in values.get("nodeKind", []):
        yield "NodeKindConstraintComponent", _NODE_KINDS[kind.value[len(SH):]].format(v=v)
    for members in values.get("in", []):
        yield "InConstraintComponent", " || ".join(f"sameTerm({v}, {_term(m)})" for m in members) or "false"
    flags = values.get("flags", [ox.Literal("")])[0].value
    for pattern in values.get("pattern", []):
        yield "PatternConstraintComponent", f"REGEX(STR({v}), {_term(pattern)}, \"{flags}\")"
    for key, op in (("minLength", ">="), ("maxLength", "<=")):
        for limit in values.get(key, []):
            yield f"{key[0].upper()}{key[1:]}ConstraintComponent", f"STRLEN(STR({v})) {op} {limit.value}"
    for key, op in _COMPARISONS.items():
        for limit in values.get(key, []):
            yield f"{key[0].upper()}{key[1:]}ConstraintComponent", f"{v} {op} {_term(limit)}"


_fresh = count()


def _conforms(shape: _Shape, classes, v: str, joins: list[str] | None = None) -> str:
    """A SPARQL expression true when ``v`` conforms to ``shape`` (a member of sh:or, sh:node...):
    its value constraints on ``v``; for a property shape, on each value of its path from ``v``,
    and its counts. With ``joins`` (see :func:`_conditions`), a property shape's values are read
    once for every ``v``, grouped by ``v`` (their number, whether one fails), in a join appended
    there; without, by EXISTS on ``v``, counts as that many values pairwise different (an index
    lookup each, per ``v``: 5x the time on a million triples)."""
    if shape.path is None:
        return " && ".join(f"COALESCE({c}, false)" for _, c in _conditions(shape, classes, v, joins=joins)) or "true"
    n = next(_fresh)
    path, x = _sparql(shape.path), f"?x{n}"
    if joins is not None:
        inner: list[str] = []
        checks = [c for _, c in _conditions(shape, classes, x, joins=inner)]
        failed = " || ".join(f"!COALESCE({c}, false)" for c in checks) or "false"
        joins.append(f"OPTIONAL {{ SELECT {v} (COUNT(DISTINCT {x}) AS ?n{n}) (MAX(IF({failed}, 1, 0)) AS ?bad{n}) "
                     f"WHERE {{ GRAPH ?g{n} {{ {v} {path} {x} }} {' '.join(inner)} }} GROUP BY {v} }}")
        parts = [f"COALESCE(?bad{n}, 0) = 0"] if checks else []
        parts += [f"COALESCE(?n{n}, 0) {'>=' if key == 'minCount' else '<='} {limit.value}"
                  for key in ("minCount", "maxCount") for limit in shape.values.get(key, [])]
        return " && ".join(parts) or "true"
    parts = []
    checks = [c for _, c in _conditions(shape, classes, x)]
    if checks:
        failed = " || ".join(f"!COALESCE({c}, false)" for c in checks)
        parts.append(f"NOT EXISTS {{ GRAPH ?g{n} {{ {v} {path} {x} }} FILTER({failed}) }}")
    for key in ("minCount", "maxCount"):
        for limit in shape.values.get(key, []):
            many = int(limit.value) + (key == "maxCount")  # at least this many values
            if many > _MOST_COUNTED:
                raise Unsupported(f"sh:{key} {limit.value} inside sh:or, sh:xone, sh:and or sh:node")
            if many == 0:
                continue
            names = [f"?x{n}_{i}" for i in range(many)]
            match = " ".join(f"GRAPH ?g{n}_{i} {{ {v} {path} {name} }}" for i, name in enumerate(names))
            apart = " && ".join(f"!sameTerm({a}, {b})" for i, a in enumerate(names) for b in names[i + 1:])
            pattern = f"{{ {match}{f' FILTER({apart})' if apart else ''} }}"
            parts.append(f"{'EXISTS' if key == 'minCount' else 'NOT EXISTS'} {pattern}")
    return " && ".join(parts) or "true"


def _check(store, shape: _Shape, target: str, classes, message, probed: dict[str, bool]) -> Iterator[Violation]:
    """The violations of one shape's constraints. What fails is found in the data first (a scan
    of the path's quads, an anti-join), and only if something does, the focus nodes among it
    (:func:`_among_focus`); the counts, one query per path. Results are ``DISTINCT``: a value (or
    a type) in several graphs is one value of the union."""
    text = message[0].value if message else None
    if shape.path is None:
        yield from _check_node(store, shape, target, classes, text)
        return
    path = _sparql(shape.path)
    values = f"GRAPH ?h {{ ?f {path} ?v }}"
    for cls in shape.values.get("class", []):  # sh:class: the values no graph types so
        component = "ClassConstraintComponent"
        # each (node, value) once before the anti-join: a fact is in each document's graph that
        # states it and in the entity graph (measured: 0.16 -> 0.09 s for 23,000 quads)
        for row in _among_focus(store, f"{{ SELECT DISTINCT ?f ?v WHERE {{ {values} }} }} "
                                f"MINUS {{ {_typed(cls.value, classes, '?v')} }}", "?f ?v", target, probed):
            yield Violation(row["f"].value, shape.path, text or _default(component, row["v"]), component)
    joins: list[str] = []
    conditions = list(_conditions(shape, classes, "?v", with_class=False, joins=joins))
    if conditions:
        flags, failed, names = _flags(conditions)
        for row in _among_focus(store, f"{values} {' '.join(joins)} {flags} FILTER({failed})", f"?f ?v {names}", target,
                                probed):
            for i, (component, _) in enumerate(conditions):
                if row[f"ok{i}"].value != "true":
                    yield Violation(row["f"].value, shape.path, text or _default(component, row["v"]), component)
    counts = [(key, int(limit.value)) for key in ("minCount", "maxCount") for limit in shape.values.get(key, [])]
    if not counts:
        return
    # each focus node's values counted, a grouping (0.1 s per 40,000 quads), only where a count
    # can fail with one value a node (sh:minCount 2, sh:maxCount 0), or a node has several (asked
    # of the path's quads once, shapes share them: half the time)
    single = any((key == "minCount" and limit > 1) or (key == "maxCount" and limit < 1) for key, limit in counts)
    if single or (any(key == "maxCount" for key, _ in counts) and _several(store, values, probed)):
        having = " || ".join(f"COUNT(DISTINCT ?v) {'<' if key == 'minCount' else '>'} {limit}" for key, limit in counts)
        for row in store.query(f"SELECT DISTINCT ?f ?n WHERE {{ {{ SELECT ?f (COUNT(DISTINCT ?v) AS ?n) WHERE {{ "
                               f"{values} }} GROUP BY ?f HAVING({having}) }} {target} }}", union=False):
            yield from _counted(row["f"].value, int(row["n"].value), shape.path, counts, text)
    if any(key == "minCount" and limit > 0 for key, limit in counts):  # the focus nodes with none
        for row in store.query(f"SELECT DISTINCT ?f WHERE {{ {target} MINUS {{ {values} }} }}", union=False):
            yield from _counted(row["f"].value, 0, shape.path, counts, text)


def _counted(focus: str, n: int, path: str, counts: list[tuple[str, int]], text: str | None) -> Iterator[Violation]:
    for key, limit in counts:
        if (n < limit) if key == "minCount" else (n > limit):
            component = f"{key[0].upper()}{key[1:]}ConstraintComponent"
            yield Violation(focus, path, text or _default(component, limit=limit), component)


def _several(store, values: str, probed: dict[str, bool]) -> bool:
    """Whether a node has more than one value in ``values`` (a pattern of ?f and ?v): more
    distinct (node, value) pairs than nodes. Kept in ``probed``."""
    key = f"several {values}"
    if key not in probed:
        row = next(iter(store.query(f"SELECT (COUNT(*) AS ?pairs) (COUNT(DISTINCT ?f) AS ?nodes) WHERE {{ "
                                    f"SELECT DISTINCT ?f ?v WHERE {{ {values} }} }}", union=False)))
        probed[key] = row["pairs"].value != row["nodes"].value
    return probed[key]


def _among_focus(store, failing: str, names: str, target: str, probed: dict[str, bool]) -> list:
    """The rows of ``failing`` (a group pattern binding ``names``, ?f among them) whose ?f is a
    focus node of ``target``, each once. Whether any row fails is asked first, without the
    focus nodes: joining them costs as much again as the scan, and most data conforms. The
    answer is kept in ``probed``: shapes share paths and constraints (an assertion's and an
    event statement's kg:evidence)."""
    if failing not in probed:
        probed[failing] = next(iter(store.query(f"SELECT {names} WHERE {{ {failing} }} LIMIT 1", union=False)),
                               None) is not None
    if not probed[failing]:
        return []
    return list(store.query(f"SELECT DISTINCT {names} WHERE {{ {{ SELECT {names} WHERE {{ {failing} }} }} {target} }}",
                            union=False))


def _check_node(store, shape: _Shape, target: str, classes, text: str | None) -> Iterator[Violation]:
    """The violations of a node shape's own value constraints, on each focus node."""
    focus = f"{{ SELECT DISTINCT ?f WHERE {{ {target} }} }}"
    for cls in shape.values.get("class", []):
        component = "ClassConstraintComponent"
        for row in store.query(f"SELECT ?f WHERE {{ {focus} MINUS {{ {_typed(cls.value, classes, '?f')} }} }}",
                               union=False):
            yield Violation(row["f"].value, None, text or _default(component), component)
    joins: list[str] = []
    conditions = list(_conditions(shape, classes, "?f", with_class=False, joins=joins))
    if not conditions:
        return
    flags, failed, names = _flags(conditions)
    for row in store.query(f"SELECT ?f {names} WHERE {{ {focus} {' '.join(joins)} {flags} FILTER({failed}) }}",
                           union=False):
        for i, (component, _) in enumerate(conditions):
            if row[f"ok{i}"].value != "true":
                yield Violation(row["f"].value, None, text or _default(component), component)


def _flags(conditions: list[tuple[str, str]]) -> tuple[str, str, str]:
    """For (component, expression) pairs: the BINDs of a flag ?ok<i> per expression, the
    expression true when one fails, and the flags' names."""
    flags = " ".join(f"BIND(COALESCE({condition}, false) AS ?ok{i})" for i, (_, condition) in enumerate(conditions))
    failed = " || ".join(f"!?ok{i}" for i in range(len(conditions)))
    return flags, failed, " ".join(f"?ok{i}" for i in range(len(conditions)))


def _default(component: str, value=None, limit: int | None = None) -> str:
    """A message for a constraint whose shape gives none."""
    name = component.removesuffix("ConstraintComponent")
    if name == "MinCount":
        return f"fewer than {limit} values"
    if name == "MaxCount":
        return f"more than {limit} values"
    shown = "" if value is None else f" {value}"
    return f"value{shown} violates sh:{name[0].lower()}{name[1:]}"
