"""Curations: a team's corrections of the machine's reading, kept beside it and applied after
extraction by every build, removal and refresh.

Five actions, each about one entity, each with who made it, when and why:

- ``merge`` A into B: one node for what the machine read as two (a leader's name split by a
  quoted nickname). B takes A's facts, names and events; A leaves the entity graph.
- ``split`` FORM off E: the documents that name E only by FORM tell of another thing (a local
  force the machine merged into the party it is named after). In those documents E's facts,
  names and events belong to a new entity named FORM. The granularity is the document: a
  document that names E both ways stays with E.
- ``alias`` E FORM: another name of E, found by queries like the names the texts use.
- ``retype`` E CLASS: E is of this class of the ontology, whatever the texts made of it.
- ``reject`` E: E is no entity (a section heading read as a name); it and its facts leave the
  entity graph. ``reject`` E RELATION O: this one fact of E is wrong.

The documents' graphs keep the machine's reading untouched. The curations live in a graph of
their own (:data:`~kg.namespaces.CURATION_GRAPH`, in PROV-O: ``prov:wasAttributedTo``,
``prov:generatedAtTime``, ``rdfs:comment``), and the derived graphs apply them (the entity graph
in :mod:`kg.derive.entities`, the events in :mod:`kg.derive.eventmerge`, both through an
:class:`Overlay`). So ``kg query evidence`` still shows the sentences the machine read, a
curation outlives ``kg remove`` and a rebuild of its documents, and taking a curation back
restores the machine's reading. A curation whose entity no document mentions any more is
reported (:func:`stale`), never dropped.

A graph in the store, not a file in its folder: a remote store has no folder. The plain file a
team keeps in version control is its export, one JSON object a line (:func:`dumps`, :func:`loads`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields

import pyoxigraph as ox

from ..errors import InputError
from ..rdf import LABEL, TYPE, N, literal
from ..namespaces import CURATION_GRAPH, ID, KG, document_graph, entity_iri, in_documents

ACTIONS = ("merge", "split", "alias", "retype", "reject")
_PROV = "http://www.w3.org/ns/prov#"
_COMMENT = N("http://www.w3.org/2000/01/rdf-schema#comment")
_XSD_DATETIME = N("http://www.w3.org/2001/XMLSchema#dateTime")
_ENTITY = str(entity_iri(""))
# what names a thing rather than telling of it: a split-off entity does not take these from the
# entity it leaves, nor a merged one from the entity it joins
IDENTITY = frozenset({str(KG.gazetteerId), str(KG.geonamesId), "http://www.w3.org/2002/07/owl#sameAs",
                      "http://www.w3.org/2003/01/geo/wgs84_pos#lat", "http://www.w3.org/2003/01/geo/wgs84_pos#long"})


@dataclass(frozen=True)
class Curation:
    """One correction. ``entity`` is the IRI acted on; ``target`` the entity it merges into or
    the one a split makes, the class of a retype, or the object of a rejected fact (whose
    relation, an IRI, is ``relation``); ``form`` the name of an alias or a split; ``label`` and
    ``target_label`` the entities' names when it was made, to report it by once they are gone."""

    action: str
    entity: str
    target: str | None = None
    form: str | None = None
    relation: str | None = None
    target_label: str = ""
    reason: str = ""
    who: str = ""
    when: str = ""
    label: str = ""

    @property
    def id(self) -> str:
        """The same correction has the same id, whoever makes it and when: made twice, it is one."""
        key = "\x1f".join(str(v or "") for v in (self.action, self.entity, self.target, self.form, self.relation))
        return hashlib.sha1(key.encode("utf-8")).hexdigest()[:10]

    @property
    def node(self) -> ox.NamedNode:
        return N(ID[f"curation/{self.id}"])

    def describe(self) -> str:
        name = self.label or _local(self.entity)
        other = self.target_label or _local(self.target)
        if self.action == "merge":
            return f"merge {name} into {other}"
        if self.action == "split":
            return f"split {self.form!r} off {name}"
        if self.action == "alias":
            return f"alias {name} as {self.form!r}"
        if self.action == "retype":
            return f"retype {name} as {_local(self.target)}"
        if self.relation:
            return f"reject {name} {_local(self.relation)} {other}"
        return f"reject {name}"

    def as_json(self) -> dict:
        return {"id": self.id, **{k: v for k, v in asdict(self).items() if v}}


def _local(iri: str | None) -> str:
    iri = iri or ""
    return iri.rsplit("#", 1)[-1] if "#" in iri else iri.rsplit("/", 1)[-1]


# ------------------------------------------------------------------ the file a team keeps

_FIELDS = {f.name for f in fields(Curation)}


def dumps(curations: Iterable[Curation]) -> str:
    """JSON lines, in the order they were made: a file whose diffs read as the curations made."""
    return "".join(json.dumps(c.as_json(), ensure_ascii=False, sort_keys=True) + "\n" for c in curations)


def loads(text: str, where: str) -> list[Curation]:
    """The curations of a file :func:`dumps` wrote; a bad line is an error naming the line."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            unknown = set(data) - _FIELDS - {"id"}
            if unknown:
                raise ValueError(f"unknown field {min(unknown)!r}")
            curation = Curation(**{k: v for k, v in data.items() if k != "id"})
            check(curation)
        except (ValueError, TypeError) as e:
            raise InputError(f"{where}, line {number}: not a curation ({e})") from None
        out.append(curation)
    return out


def check(c: Curation) -> None:
    """A ValueError where a curation lacks what its action needs."""
    if c.action not in ACTIONS:
        raise ValueError(f"unknown action {c.action!r} (one of {', '.join(ACTIONS)})")
    if not isinstance(c.entity, str) or not c.entity.startswith(("http://", "https://")):
        raise ValueError("'entity' must be an IRI")
    needs = {"merge": ("target",), "split": ("target", "form"), "alias": ("form",), "retype": ("target",),
             "reject": ()}[c.action]
    missing = [name for name in needs if not getattr(c, name)]
    if missing:
        raise ValueError(f"a {c.action} needs {missing[0]!r}")
    if bool(c.relation) != bool(c.target) and c.action == "reject":
        raise ValueError("a rejected fact needs both 'relation' and 'target'")


# ------------------------------------------------------------------ in the store

_P = {name: N(KG[name]) for name in ("curationAction", "curated", "curatedInto", "curatedType", "curatedForm",
                                      "rejectedRelation", "rejectedObject", "curatedLabel", "curatedTargetLabel")}
_ATTRIBUTED, _GENERATED = N(_PROV + "wasAttributedTo"), N(_PROV + "generatedAtTime")


def quads(curations: Iterable[Curation]) -> list[ox.Quad]:
    """The curation graph: each curation a ``kg:Curation`` (a ``prov:Entity``) and its curator a
    ``prov:Agent``; the order of making is kept by ``prov:generatedAtTime``."""
    graph = N(CURATION_GRAPH)
    out: list[ox.Quad] = []
    for c in curations:
        node = c.node
        triples = [(TYPE, N(KG.Curation)), (TYPE, N(_PROV + "Entity")), (LABEL, literal(c.describe())),
                   (_P["curationAction"], literal(c.action)), (_P["curated"], N(c.entity))]
        if c.target:
            slot = {"retype": "curatedType", "reject": "rejectedObject"}.get(c.action, "curatedInto")
            triples.append((_P[slot], N(c.target)))
        if c.relation:
            triples.append((_P["rejectedRelation"], N(c.relation)))
        if c.form:
            triples.append((_P["curatedForm"], literal(c.form)))
        if c.label:
            triples.append((_P["curatedLabel"], literal(c.label)))
        if c.target_label:
            triples.append((_P["curatedTargetLabel"], literal(c.target_label)))
        if c.reason:
            triples.append((_COMMENT, literal(c.reason)))
        if c.when:
            triples.append((_GENERATED, ox.Literal(c.when, datatype=_XSD_DATETIME)))
        if c.who:
            agent = N(ID[f"curator/{hashlib.sha1(c.who.encode('utf-8')).hexdigest()[:10]}"])
            triples.append((_ATTRIBUTED, agent))
            out += [ox.Quad(agent, TYPE, N(_PROV + "Agent"), graph), ox.Quad(agent, LABEL, literal(c.who), graph)]
        out += [ox.Quad(node, p, o, graph) for p, o in triples]
    return list(dict.fromkeys(out))


_READ = f"""SELECT ?c ?p ?o ?who WHERE {{ GRAPH <{CURATION_GRAPH}> {{ ?c a kg:Curation ; ?p ?o
  OPTIONAL {{ ?o rdfs:label ?who }} }} }}"""


def read(store) -> list[Curation]:
    """The store's curations, in the order they were made."""
    found: dict[str, dict] = {}
    by_name = {node.value: name for name, node in _P.items()}
    for row in store.query(_READ, union=False):
        data = found.setdefault(row["c"].value, {})
        p, o = row["p"].value, row["o"].value
        name = by_name.get(p)
        if name in ("curatedInto", "curatedType", "rejectedObject"):
            data["target"] = o
        elif name is not None:
            data[{"curationAction": "action", "curated": "entity", "curatedForm": "form",
                  "rejectedRelation": "relation", "curatedLabel": "label",
                  "curatedTargetLabel": "target_label"}[name]] = o
        elif p == _COMMENT.value:
            data["reason"] = o
        elif p == _GENERATED.value:
            data["when"] = o
        elif p == _ATTRIBUTED.value and row["who"] is not None:
            data["who"] = row["who"].value
    curations = [Curation(**data) for data in found.values() if "action" in data and "entity" in data]
    return sorted(curations, key=lambda c: (c.when, c.id))


def write(store, curations: list[Curation]) -> None:
    """Replace the store's curation graph (the derived graphs apply it at the next refresh)."""
    store.put_graph(str(CURATION_GRAPH), quads(curations))


# ------------------------------------------------------------------ applied

@dataclass
class Overlay:
    """The curations as the derivation of the entity graph and the events applies them."""

    curations: list[Curation] = field(default_factory=list)
    merged: dict[str, str] = field(default_factory=dict)  # entity -> the entity it was merged into
    rejected: set[str] = field(default_factory=set)
    retyped: dict[str, str] = field(default_factory=dict)  # entity -> class IRI
    aliases: dict[str, list[str]] = field(default_factory=dict)
    rejected_facts: set[tuple[str, str, str]] = field(default_factory=set)
    split_from: dict[str, set[str]] = field(default_factory=dict)  # entity -> the entities split off it
    split_names: dict[str, str] = field(default_factory=dict)  # an entity split off -> the name it was given
    split_docs: dict[tuple[str, str], str] = field(default_factory=dict)  # (doc graph, entity) -> entity

    @property
    def empty(self) -> bool:
        return not self.curations

    def final(self, iri: str, graph: str | None = None) -> str | None:
        """What ``iri`` (an entity of the documents' graph ``graph``, if given) is once curated:
        itself, the entity it was split to in that document, or merged into; None if rejected."""
        if graph is not None:
            iri = self.split_docs.get((graph, iri), iri)
        seen = set()
        while iri in self.merged and iri not in seen:
            seen.add(iri)
            iri = self.merged[iri]
        return None if iri in self.rejected else iri

    def sources(self, entities: set[str]) -> set[str]:
        """The entities whose documents' triples ``entities`` take in: merged into them, or split
        off (the documents of the entity they were split from)."""
        out = {a for a in self.merged if self.final(a) in entities}
        out |= {source for source, made in self.split_from.items() if made & entities}
        return out

    def closure(self, entities: Iterable[str]) -> set[str]:
        """``entities`` and those whose entity-graph triples change with them: what they are
        merged into, and the entities split off them."""
        out = set(entities)
        for iri in list(out):
            final = self.final(iri)
            if final is not None:
                out.add(final)
            out |= self.split_from.get(iri, set())
        return out

    def about(self, entity: str) -> list[Curation]:
        return [c for c in self.curations if entity in (c.entity, c.target) or self.final(c.entity) == entity]


def overlay(store, curations: list[Curation] | None = None) -> Overlay:
    """The store's curations, ready to apply (an empty overlay costs one small query)."""
    curations = read(store) if curations is None else curations
    o = Overlay(curations)
    for c in curations:
        if c.action == "merge" and c.target != c.entity:
            o.merged[c.entity] = c.target
        elif c.action == "reject" and not c.relation:
            o.rejected.add(c.entity)
        elif c.action == "reject":
            o.rejected_facts.add((c.entity, c.relation, c.target))
        elif c.action == "retype":
            o.retyped[c.entity] = c.target
        elif c.action == "alias":
            o.aliases.setdefault(c.entity, []).append(c.form)
        elif c.action == "split":
            o.split_from.setdefault(c.entity, set()).add(c.target)
            o.split_names[c.target] = c.form
    splits = [c for c in curations if c.action == "split"]
    if splits:
        o.split_docs = _split_documents(store, splits)
    return o


def _split_documents(store, splits: list[Curation]) -> dict[tuple[str, str], str]:
    """(document graph, entity) -> the entity split off it there: the documents whose every name
    of the entity is the split's name (or a phrase holding it as whole words)."""
    forms: dict[tuple[str, str], list[str]] = {}
    entities = " ".join(f"<{c.entity}>" for c in splits)
    rows = store.query(f"SELECT ?g ?e ?f WHERE {{ VALUES ?e {{ {entities} }} GRAPH ?g {{ ?e kg:surfaceForm ?f }} "
                       f"FILTER({in_documents('g')}) }}", union=False)
    for row in rows:
        forms.setdefault((row["g"].value, row["e"].value), []).append(row["f"].value)
    out = {}
    for c in splits:
        name = re.compile(rf"(?<!\w){re.escape(c.form.casefold())}(?!\w)")
        for (graph, entity), names in forms.items():
            if entity == c.entity and all(name.search(f.casefold()) for f in names):
                out.setdefault((graph, entity), c.target)
    return out


def stale(store, curations: list[Curation] | None = None) -> list[tuple[Curation, str]]:
    """The curations that no longer apply, each with why: their entity (or the one a merge
    joins) is mentioned by no document, or no document names the entity of a split only by its
    name, or no document states the rejected fact."""
    curations = read(store) if curations is None else curations
    if not curations:
        return []
    needed = {c.entity for c in curations} | {c.target for c in curations if c.action in ("merge", "reject") and c.target}
    terms = " ".join(f"<{iri}>" for iri in sorted(needed))
    rows = store.query(f"SELECT DISTINCT ?e WHERE {{ VALUES ?e {{ {terms} }} GRAPH ?g {{ ?e kg:mentionedIn ?d }} }}",
                       union=False)
    mentioned = {row["e"].value for row in rows}
    split = set(_split_documents(store, [c for c in curations if c.action == "split"]).values()) \
        if any(c.action == "split" for c in curations) else set()
    applied = overlay(store, curations) if any(c.action == "reject" and c.relation for c in curations) else None
    out = []
    for c in curations:
        gone = [iri for iri in (c.entity, c.target if c.action in ("merge", "reject") else None)
                if iri and iri not in mentioned]
        if gone:
            name = c.label if gone[0] == c.entity and c.label else c.target_label or _local(gone[0])
            out.append((c, f"no document mentions {name} any more"))
        elif c.action == "split" and c.target not in split:
            out.append((c, f"no document names {c.label or _local(c.entity)} only as {c.form!r}"))
        elif c.action == "reject" and c.relation and not _stated(store, c, applied):
            out.append((c, "no document states this fact any more"))
    return out


def _stated(store, c: Curation, applied: Overlay) -> bool:
    """Whether a document states the fact ``c`` rejects, of the entities as curated."""
    subjects = " ".join(f"<{iri}>" for iri in sorted(applied.sources({c.entity}) | {c.entity}))
    objects = " ".join(f"<{iri}>" for iri in sorted(applied.sources({c.target}) | {c.target}))
    rows = store.query(f"SELECT ?g ?s ?o WHERE {{ VALUES ?s {{ {subjects} }} VALUES ?o {{ {objects} }} "
                       f"GRAPH ?g {{ ?s <{c.relation}> ?o }} FILTER({in_documents('g')}) }}", union=False)
    return any(applied.final(row["s"].value, row["g"].value) == c.entity
               and applied.final(row["o"].value, row["g"].value) == c.target for row in rows)


def document_of(doc_iri: str) -> str:
    """The graph of the document whose IRI is ``doc_iri``."""
    return str(document_graph(doc_iri.rsplit("/", 1)[-1]))


def is_entity(iri: str) -> bool:
    return iri.startswith(_ENTITY)
