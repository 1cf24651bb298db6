"""The plain data the pipeline stages hand each other.

Stages never pass spaCy or rdflib objects across module boundaries: a mention is a span of
character offsets plus what we know about it, an assertion is a fact with its evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .dates import ParsedDate


@dataclass(frozen=True)
class Document:
    """An article to build from. ``id`` is the SHA-256 of ``text``: the same text is one document.

    ``date`` is its publication date as read at ingest, with the precision it was given in
    (a year, a month, a day, or a moment with its zone), or None when it has none or it could
    not be read."""

    id: str
    text: str
    name: str
    title: str | None = None
    date: ParsedDate | None = None
    url: str | None = None
    source: str | None = None
    path: str | None = None


@dataclass(frozen=True)
class InputProblem:
    """An input that could not be read; ``where`` is the file (and line) at fault."""

    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


# Mention kinds that only record how a text refers to an entity: they never decide a key or a label,
# and the relation stages do not read them (the words inside them keep their own mentions).
SURFACE_ONLY = frozenset({"appositive", "phrase", "qualified"})
NAMING = frozenset({"name", "group", "acronym", "shortened", "surname", "alias"})  # the kinds that name what they stand for


@dataclass(frozen=True)
class Mention:
    """A stretch of text naming or referring to an entity.

    ``start``/``end`` are token indices into the spaCy Doc of the document; ``start_char`` and
    ``end_char`` are character offsets into the text. ``key`` is the entity key the mention
    resolves to (filled in by coref and resolve); ``type`` is an ontology class local name.
    ``kind`` says how the mention was found: ``name`` (NER or gazetteer), ``group`` (a nationality
    plus a people noun), ``acronym`` (defined in parentheses) or ``shortened`` (an acronym of a
    name the text gives in full), ``pronoun`` or ``description`` (coreferent phrases), ``alias``
    (another name the text gives it), ``surname``, ``generic`` ("Coalition" used as a name);
    ``appositive`` (a description beside the name), ``phrase`` (the members or units named by
    their group: "ISIL fighters", "SDF forces") and ``qualified`` (the name with its country's
    before it: "U.S. Naval Forces Central Command") are surface forms only (:data:`SURFACE_ONLY`).
    ``also`` holds the other entities a plural pronoun stands for beside ``key``: the names of a
    coordination ("Russia and the Syrian regime continued their bombardment": both bombard).
    """

    start: int
    end: int
    start_char: int
    end_char: int
    text: str
    type: str
    kind: str = "name"
    key: str | None = None
    gazetteer_id: str | None = None
    sentence: int = 0
    geonames_id: int | None = None
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entity:
    """A real-world entity: a stable ``key`` (the IRI's last segment), its best label and type."""

    key: str
    label: str
    type: str
    gazetteer_id: str | None = None
    aliases: frozenset[str] = field(default_factory=frozenset)
    merge_rules: tuple[tuple[str, str], ...] = ()
    geonames_id: int | None = None
    lat: float | None = None
    lon: float | None = None
    institution_of: str | None = None  # the country's key, for a state's government or armed forces
    people_of: str | None = None  # the country's key, for its people or a group its nationality names


@dataclass(frozen=True)
class Assertion:
    """One fact stated by one document, with the sentence that states it."""

    subject: str
    predicate: str
    object: str
    doc_id: str
    evidence: str
    start_char: int
    end_char: int
    rule: str
    confidence: float
    reported_by: str | None = None


@dataclass(frozen=True)
class Role:
    """One participant of an event statement: ``role`` is a role type of kg.ttl (``agentRole``),
    ``entity`` the entity key, or None for a place the text describes without naming it (then
    ``description`` holds its words: "their enclave on the border with Lebanon")."""

    role: str
    entity: str | None
    description: str | None = None


@dataclass(frozen=True)
class EventTime:
    """When a statement says its event happened: ``date`` at the precision the text gives
    ("in 2014" is a year), read from ``text`` against the document's date; or, where the sentence
    gives no time, the document's date with ``from_document`` set and ``text`` empty."""

    date: ParsedDate
    text: str = ""
    from_document: bool = False


@dataclass(frozen=True)
class Event:
    """One document's statement of an event: its type (an event class of kg.ttl), the trigger
    word and its character offsets, the participants, the time, the sentence that states it, the
    rule that found the trigger and the facts ((subject, relation, object) of this document's
    assertions in the same sentence) it stands behind."""

    type: str
    doc_id: str
    trigger: str
    trigger_start: int
    trigger_end: int
    rule: str
    roles: tuple[Role, ...]
    time: EventTime | None
    evidence: str
    start_char: int
    end_char: int
    confidence: float
    facts: tuple[tuple[str, str, str], ...] = ()
    reported_by: str | None = None


@dataclass(frozen=True)
class Extraction:
    """Everything one document yields: its entities, its assertions and its event statements."""

    document: Document
    entities: tuple[Entity, ...]
    assertions: tuple[Assertion, ...]
    events: tuple[Event, ...] = ()
    error: str | None = None  # what its parse or extraction raised (then it holds nothing else)


@dataclass(frozen=True)
class DocumentGraph:
    """One document's named graph, serialized as N-Quads where it was extracted (in a worker
    process, so that the building process only writes), with what a build reports of it.

    ``entities`` are the keys of the entities the document mentions (the labels a build refreshes);
    ``quads`` counts the lines of ``nquads``. The document's text travels with it (a build reports
    its name); its entities, assertions and events only as quads: pickling them back cost the
    building process more than writing them (measured 1.4 ms a document)."""

    document: Document
    nquads: bytes
    quads: int
    assertions: int
    entities: tuple[str, ...]
    error: str | None = None  # what its parse or extraction raised: nothing of it is written
