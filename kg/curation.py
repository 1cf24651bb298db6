"""``kg curate``: make, list, take back, export and import the curations of a store
(:mod:`kg.derive.curations` says what each does and how the derived graphs apply them).

Every change rewrites the store's curation graph and recomputes the entity graph and the events
(the whole of both: curations are few and rare, and what one changes reaches the facts of every
entity that names the curated one). A curation names its entity by a label or alias (any case),
or by its IRI; a name two entities share is an error that lists them.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyoxigraph as ox

from .derive import curations
from .derive.curations import Curation
from .errors import InputError, UsageError
from .namespaces import ENTITY_GRAPH, KG, entity_iri

CURATOR_VAR = "KG_CURATOR"  # who curates, else the login name


@dataclass(frozen=True)
class Listed:
    """A curation and, where it no longer applies, why."""

    curation: Curation
    stale: str | None = None


def curator() -> str:
    own = os.environ.get(CURATOR_VAR, "").strip()
    if own:
        return own
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without a passwd entry)
        return "unknown"


def entity(store, name: str) -> tuple[str, str]:
    """(IRI, label) of the entity ``name`` names: an IRI, or a label or alias of one entity."""
    name = name.strip()
    if not name:
        raise UsageError("an entity's name is empty")
    if name.startswith(("http://", "https://")):
        try:
            node = ox.NamedNode(name)
        except ValueError:
            raise UsageError(f"{name!r} is not an IRI") from None
        rows = store.query(f"SELECT ?label WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ {node} rdfs:label ?label }} }}",
                           union=False)
        labels = [row["label"].value for row in rows]
        return name, labels[0] if labels else name.rsplit("/", 1)[-1]
    key = ox.Literal(name.lower())  # written as N-Triples writes it: quotes and escapes, no injection
    rows = store.query(f"SELECT DISTINCT ?e ?label WHERE {{ GRAPH <{ENTITY_GRAPH}> {{ ?e skos:hiddenLabel {key} ; "
                       f"rdfs:label ?label }} }} ORDER BY ?label", union=False)
    found = [(row["e"].value, row["label"].value) for row in rows]
    if not found:
        raise UsageError(f"no entity is named {name!r}",
                         hint="kg info --entities N lists the most mentioned ones; an IRI names one too")
    if len(found) > 1:
        raise UsageError(f"{len(found)} entities are named {name!r}: "
                         + "; ".join(f"{label} <{iri}>" for iri, label in found),
                         hint="name one by its IRI")
    return found[0]


def _class(name: str) -> str:
    from .ontology import is_a, superclasses

    local = name.strip().removeprefix("kg:").rsplit("#", 1)[-1]
    matches = [c for c in superclasses() if c.lower() == local.lower() and is_a(c, "Entity")]
    if not matches:
        known = sorted(c for c in superclasses() if is_a(c, "Entity"))
        raise UsageError(f"{name!r} is no class of entity", hint=f"classes: {', '.join(known)}")
    return str(KG._NS[matches[0]])


def _relation(name: str) -> str:
    from .ontology import relations

    local = name.strip().removeprefix("kg:").rsplit("#", 1)[-1]
    if local not in relations():
        raise UsageError(f"{name!r} is no relation", hint=f"relations: {', '.join(relations())}")
    return str(KG._NS[local])


def make(store, action: str, name: str, other: str | None = None, *, relation: str | None = None,
         reason: str, who: str | None = None) -> Curation:
    """The curation ``action`` of the entity ``name``: ``other`` is the entity to merge into, the
    name to split off or to add as an alias, the class to retype to, or the object of a fact to
    reject (with ``relation``)."""
    from .extract.namekeys import iri_key

    if action not in curations.ACTIONS:
        raise UsageError(f"unknown curation {action!r}", hint=f"one of {', '.join(curations.ACTIONS)}")
    if not reason or not reason.strip():
        raise UsageError("a curation needs a reason (--why)")
    iri, label = entity(store, name)
    fields = {"action": action, "entity": iri, "label": label, "reason": reason.strip(),
              "who": who or curator(), "when": datetime.now(UTC).isoformat(timespec="microseconds")}
    if action in ("merge", "split", "alias", "retype") and not (other and other.strip()):
        raise UsageError(f"kg curate {action} needs a second argument")
    if action == "merge":
        target, target_label = entity(store, other)
        if target == iri:
            raise UsageError(f"{name!r} and {other!r} are one entity already")
        fields.update(target=target, target_label=target_label)
    elif action == "split":
        fields.update(form=other.strip(), target=str(entity_iri(iri_key(other))))
        if fields["target"] == iri:
            raise UsageError(f"{other!r} is the name the entity has: a split needs another name")
    elif action == "alias":
        fields["form"] = other.strip()
    elif action == "retype":
        fields["target"] = _class(other)
    elif relation is not None or other is not None:
        if relation is None or other is None:
            raise UsageError("rejecting a fact needs both --fact RELATION and the other entity")
        target, target_label = entity(store, other)
        fields.update(relation=_relation(relation), target=target, target_label=target_label)
    return Curation(**fields)


def add(store, curation: Curation) -> bool:
    """Keep ``curation`` and apply it; False if the store had it already."""
    held = curations.read(store)
    if any(c.id == curation.id for c in held):
        return False
    _save(store, [*held, curation])
    return True


def take_back(store, curation_id: str | None = None) -> Curation:
    """Take a curation back (by id or its first characters; the last made if None) and restore
    what the machine read."""
    held = curations.read(store)
    if not held:
        raise UsageError("the store has no curations")
    if curation_id is None:
        gone = held[-1]
    else:
        matches = [c for c in held if c.id.startswith(curation_id.strip().lower())]
        if len(matches) != 1:
            raise UsageError(f"{'no' if not matches else 'more than one'} curation has the id {curation_id!r}",
                             hint="kg curate list shows their ids")
        gone = matches[0]
    _save(store, [c for c in held if c.id != gone.id])
    return gone


def listed(store) -> list[Listed]:
    held = curations.read(store)
    why = {c.id: reason for c, reason in curations.stale(store, held)}
    return [Listed(c, why.get(c.id)) for c in held]


def export(store) -> str:
    return curations.dumps(curations.read(store))


def import_file(store, path: str | Path) -> tuple[int, int]:
    """Add the curations of a file :func:`export` wrote; (added, already held)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read it ({getattr(e, 'strerror', None) or e})") from None
    incoming = curations.loads(text, str(path))
    held = curations.read(store)
    known = {c.id for c in held}
    new = [c for c in incoming if c.id not in known]
    new = list({c.id: c for c in new}.values())  # a file that holds one twice
    if new:
        _save(store, [*held, *new])
    return len(new), len(incoming) - len(new)


def _save(store, held: list[Curation]) -> None:
    from .derive.refresh import refresh

    curations.write(store, held)
    store.mark_labels_stale()  # a kill before the refresh ends leaves it owed to the next build
    refresh(store, None)
    store.mark_labels_stale(False)
    store.flush()
