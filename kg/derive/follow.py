"""The derived graphs of a first build, derived while its documents are being extracted.

A build derives the entity graph and the events after its last document (:mod:`kg.derive.refresh`);
for a first build that meant reading back every document's graph from the store: on 2,000 bench
articles 6.5 s after the last document, 10% of the build, and a share that grows with the corpus
(issue 38 measured 20 s of 48 at 4,000 articles on sixteen cores). What the two derivations read
is in the documents' N-Quads, which pass through the building process on their way to the store.
So here a child process is sent each written batch as it goes to the store, parses it (Oxigraph's
parser, no store read) and keeps what the derivations need: for each entity the triples the
documents state of it, counted by document; each event statement with its roles and time; the
``kg:locatedIn`` facts. After the last document it only has to compute the labels from those
counts (:func:`kg.derive.entities.entity_quads`) and merge the statements
(:func:`kg.derive.eventmerge.merge`): the same functions as the refresh, on the same triples, so
the same graph (the tests compare the two). It writes the labels first and the events after, as
the offloaded refresh writes them (:mod:`kg.derive.offload`), and this process loads the labels
while the child still merges.

Only a first build follows (an empty store with no curations: every entity is new, so the counts
start from nothing), and only one large enough to be worth a child (:data:`FROM_DOCUMENTS`:
until then the payloads are held here, then sent). Where the child cannot start, dies or says
something unexpected, the build derives as before, after its last document: the same graph.

The child holds the entities' triples and the statements of the whole build: at 2,000 bench
articles about the peak of the refresh's child, which held one event type's statements.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import struct
import subprocess
import sys
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from sys import intern

import pyoxigraph as ox
from rdflib.namespace import RDF

from ..faults import crash_point
from ..namespaces import (
    ENTITY_GRAPH,
    EVENT_GRAPH,
    ID,
    KG,
    NOT_DOCUMENT_GRAPHS,
    SEM,
    entity_iri,
)
from ..ontology import KG_NS
from ..rdf import TYPE, N, nquads
from ..store.protocol import Checkpointing, Store
from . import curations, offload
from . import entities as labels
from . import eventmerge as events
from .refresh import Refreshed, release_memory

FROM_DOCUMENTS = 256  # a build follows once it has this many documents (the child starts and reads its word
                      # lists in 0.7 s, measured); a smaller one derives after its last document, with no child
_ENV = "KG_DERIVE_FOLLOW"  # "0": never, "1": from the first document (tests), unset: FROM_DOCUMENTS
_HEADER = struct.Struct("<Q")  # a payload's length; 0 ends the build
_QUEUE = 8  # batches waiting for the pipe: past it, the build waits for the child
# what the two processes do after the last document, in CPU-seconds, to share it between them
# (measured on 2,000 bench articles: 0.86 s of labels for 16,145 entities; merging and writing 0.8 s
# for 7,861 attack statements, 0.31 s for 3,461 captures, 0.28 s for 1,821 ceasefires)
_ENTITY_COST = 5.3e-5
_STATEMENT_COST = 1.1e-4


def from_documents() -> int | None:
    """The documents from which a first build follows; None: never."""
    setting = os.environ.get(_ENV)
    if setting == "0":
        return None
    return 1 if setting == "1" else FROM_DOCUMENTS


def can_follow(store: Store) -> bool:
    """Whether a build into ``store`` may derive as it goes: a local store with no documents,
    no derived graphs and no curations."""
    if from_documents() is None or not store.capabilities.checkpoints or store.document_ids():
        return False
    if any(store.query(f"ASK {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}", union=False)
           for graph in (ENTITY_GRAPH, EVENT_GRAPH)):
        return False
    return curations.overlay(store).empty


class Follower:
    """The building process's side: payloads held until the build is large enough, then sent to
    the child by a thread of their own; :meth:`finish` applies what the child derived."""

    command = (sys.executable, "-m", "kg.derive.follow")  # the child, given the folder to write in

    def __init__(self, store: Checkpointing) -> None:
        self.store = store
        self.folder: Path | None = None  # the store's scratch folder, once the child starts
        self.held: list[list[bytes]] | None = []  # None once the child runs (or could not start)
        self.documents = 0
        self.child: subprocess.Popen | None = None
        self.failed = False
        self.queue: queue.Queue[list[bytes] | None] = queue.Queue(_QUEUE)
        self.sender: threading.Thread | None = None

    def send(self, payloads: list[bytes]) -> None:
        """A written batch: its documents' graphs, as N-Quads."""
        if self.failed:
            return
        if self.held is None:
            self.queue.put(payloads)
            return
        self.held.append(payloads)
        self.documents += len(payloads)
        if self.documents >= (from_documents() or 0):
            self._start()

    def _start(self) -> None:
        held, self.held = self.held, None
        try:
            self.folder = self.store.scratch()
            self.child = subprocess.Popen(
                [*self.command, str(self.folder)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=offload.child_env())
        except OSError:  # no process or file left: the build derives after its last document
            self.failed = True
            return
        self.sender = threading.Thread(target=self._send, name="kg-derive-follow", daemon=True)
        self.sender.start()
        for data in held:
            self.queue.put(data)

    def _send(self) -> None:
        pipe = self.child.stdin
        try:
            while (data := self.queue.get()) is not None:  # the batch's payloads as they are: no copy
                size = sum(map(len, data))
                if size:  # a length of 0 would end the build
                    pipe.write(_HEADER.pack(size))
                    for payload in data:
                        pipe.write(payload)
                data = payload = None  # not held while the next batch is awaited (measured: +30 MB at the peak)
            pipe.write(_HEADER.pack(0))
            pipe.close()  # the end: nothing more to read (a child that reads on sees the end of its input)
        except OSError:  # the child died: the build derives after its last document
            self.failed = True
            while data is not None:  # what the build still sends is dropped
                data = self.queue.get()

    def finish(self) -> Refreshed | None:
        """Load the entity graph and the events the child derived, each part as it is written;
        what was refreshed, or None where nothing was followed or the child failed (then neither
        graph is sealed, and the refresh after the build derives both, whatever was loaded)."""
        if self.child is None:
            return None
        try:
            self.queue.put(None)
            self.sender.join()
            release_memory()
            said: dict = {}

            def parts() -> Iterator[tuple[str, Path]]:
                while (line := self._line()) is not None and "peaks" not in line:
                    if "entities" in line:
                        said.update(line)
                        yield "entities", self.folder / "labels.nq"
                        crash_point("events")  # the events still being merged and loaded
                    elif "events" in line:
                        yield "events", self.folder / f"{line['events']}.nq"
                    else:
                        raise _Failed
                if line is None or "entities" not in said:
                    raise _Failed
                said.update(line)

            try:
                self.store.apply_derived(parts(), lambda path: offload.blocks(path.parent, path.stem))
            except (_Failed, OSError):  # a part missing or cut short: the refresh derives all again
                return None
            return Refreshed(said["entities"], said["peaks"])
        finally:
            self.close()

    def _line(self) -> dict | None:
        """The child's next report, or None if it failed."""
        line = b"" if self.failed else self.child.stdout.readline()
        try:
            return json.loads(line)
        except ValueError:  # it exited without one
            self.failed = True
            return None

    def close(self) -> None:
        """Stop the child, if it still runs, and remove what it wrote."""
        if self.child is not None:
            if self.child.poll() is None:
                self.child.kill()
            self.child.wait()
            for pipe in (self.child.stdin, self.child.stdout):
                try:
                    pipe.close()
                except OSError:  # a broken pipe's buffered header
                    pass
        if self.sender is not None and self.sender.is_alive():
            self.queue.put(None)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


# ------------------------------------------------------------------ the child

_MENTIONED_IN, _LOCATED_IN = N(KG.mentionedIn).value, KG_NS + "locatedIn"
_STATEMENT = N(KG.EventStatement)
_EVENT_TYPE, _ROLE, _START = N(KG.eventType).value, N(KG.role).value, N(KG.startOffset).value
_ROLE_TYPE, _VALUE = N(SEM.roleType).value, N(RDF.value).value
_DESCRIPTION, _TIME = N(KG.description).value, N(KG.time).value
_TIME_TEXT, _FROM_DOCUMENT = N(KG.timeText).value, N(KG.timeFromDocument).value
_NOT_DOCUMENTS = {str(graph) for graph in NOT_DOCUMENT_GRAPHS}
_TYPE = TYPE.value
_ENTITIES, _STATEMENTS = str(entity_iri("")), str(ID["statement/"])


class _Failed(Exception):
    """The child ended without deriving the events."""


class Unexpected(Exception):
    """A document graph of a shape the store's queries would read otherwise: the child gives up
    and the build derives after its last document."""


class State:
    """What the derivations read, gathered from the documents' graphs as they come."""

    def __init__(self) -> None:
        self.triples: dict[str, dict[tuple, int]] = {}  # entity -> (predicate, object) -> documents stating it
        self.mentioned: set[str] = set()  # every subject of a kg:mentionedIn: the entities
        self.statements: dict[str, list[events.Statement]] = defaultdict(list)  # by event class IRI
        self.located: dict[str, set[str]] = defaultdict(set)  # place -> the places it lies in directly

    def take(self, data: bytes) -> None:
        """A batch of documents' graphs (N-Quads), one named graph each, a document's quads
        together and each once (:func:`kg.rdf.serialized`). One pass: the entities' triples are
        counted, the statements' (and their roles': IRIs under the statement's) gathered and read
        at the end of their document, the rest only looked at for what the derivations would read
        of it (measured: 2.4 s for the 845,693 quads of 2,000 bench articles, in this child while
        the workers extract)."""
        about: dict[str, dict[str, list]] = {}
        graph = None
        triples, located, mentioned = self.triples, self.located, self.mentioned
        for quad in ox.parse(data, format=ox.RdfFormat.N_QUADS, lenient=True):
            if quad.graph_name != graph:
                self._statements(about)
                graph = quad.graph_name
                if graph.value in _NOT_DOCUMENTS:
                    raise Unexpected(f"a document's payload writes to {graph.value}")
            iri, predicate = quad.subject.value, quad.predicate.value
            if iri.startswith(_ENTITIES):
                if predicate == _MENTIONED_IN:
                    mentioned.add(intern(iri))
                    continue
                held = triples.get(iri)
                if held is None:
                    held = triples[intern(iri)] = {}
                key = (quad.predicate, quad.object)
                held[key] = held.get(key, 0) + 1
            elif iri.startswith(_STATEMENTS):
                properties = about.get(iri)
                if properties is None:
                    properties = about[iri] = defaultdict(list)
                properties[predicate].append(quad.object)
            elif predicate == _MENTIONED_IN or (predicate == _TYPE and quad.object == _STATEMENT):
                raise Unexpected(f"{iri}: an entity or an event statement where kg names none")
            if predicate == _LOCATED_IN:
                located[iri].add(quad.object.value)
        self._statements(about)

    def _statements(self, about: dict[str, dict[str, list]]) -> None:
        """The event statements of one document, whose subjects' properties are ``about``."""
        for iri, properties in about.items():
            if _STATEMENT in properties.get(_TYPE, ()):
                self._statement(iri, properties, about)
        about.clear()

    def _statement(self, iri: str, properties: dict[str, list], about: dict[str, dict[str, list]]) -> None:
        """An event statement, as :func:`kg.derive.eventmerge._statements` reads it from the store."""
        types, documents, starts = (properties.get(p, ()) for p in (_EVENT_TYPE, events.PROV_DERIVED, _START))
        roles = [(r, t) for r in properties.get(_ROLE, ()) for t in about.get(r.value, {}).get(_ROLE_TYPE, ())]
        if not (types and documents and starts and roles):
            return  # no row of the store's query
        times, undated, texts = (properties.get(p, ()) for p in (_TIME, _FROM_DOCUMENT, _TIME_TEXT))
        if max(len(documents), len(starts), len(times), len(undated), len(texts)) > 1:
            raise Unexpected(f"{iri} has two documents, offsets or times")
        for type_ in types:
            s = events.Statement(iri, "", intern(documents[0].value), int(starts[0].value))
            if times:
                s.timed(times[0].value, undated[0].value if undated else None, texts[0].value if texts else None)
            for role, role_type in roles:
                name = intern(role_type.value[len(KG_NS):])
                held = about[role.value]
                for value in held.get(_VALUE, ()):
                    s.add(name, value.value, None)
                for words in held.get(_DESCRIPTION, ()):
                    s.add(name, None, words.value)
            self.statements[type_.value].append(s)

    def write_labels(self, folder: Path) -> int:
        """The entity graph of every entity, each entity's quads a block (an empty graph before:
        nothing to remove); how many entities, as :func:`kg.derive.entities.recompute` counts them."""
        todo = sorted(self.mentioned)
        with offload.BlockWriter(folder, "labels") as out:
            for iri in todo:
                triples = self.triples.pop(iri, {})
                out.put(iri, nquads(labels.entity_quads(ox.NamedNode(iri), [(p, o, n) for (p, o), n in triples.items()])))
        self.triples.clear()
        return len(todo)

    def shares(self) -> tuple[list[str], list[str]]:
        """The event types merged beside the labels, and those merged here: the larger first, each
        to the process with less to do so far (the labels' process starts with their work), so
        that both end about together."""
        beside, here, load = [], [], [len(self.mentioned) * _ENTITY_COST, 0.0]
        for type_ in sorted(events.merged_types(), key=lambda t: -len(self.statements.get(KG_NS + t, ()))):
            side = 0 if load[0] <= load[1] else 1
            (beside, here)[side].append(type_)
            load[side] += len(self.statements.get(KG_NS + type_, ())) * _STATEMENT_COST
        return beside, here

    def write_events(self, folder: Path, types: list[str]) -> Iterator[str]:
        """The events of the statements of ``types``, merged as :func:`kg.derive.eventmerge.event_quads`
        merges all, an event type at a time: the name of each part once it is written."""
        from ..extract.eventrules import load_rules

        rules = load_rules()
        places = events.place_roles()
        inside = events.containers(self.located)
        for type_ in types:
            statements = self.statements.pop(KG_NS + type_, [])
            if statements:
                for s in statements:
                    s.type = intern(type_)
                offload.write_events(folder, events.merge(statements, places, inside, rules), f"events-{type_}")
                yield f"events-{type_}"


def _fork(work: Callable[[], None]) -> int | None:
    """Run ``work`` in a forked process beside this one, which goes on: its pid; where there is
    no fork, run it here first (None). The labels and the merge are each one core's work after
    the last document, and this process holds all they read (measured on 2,000 bench articles:
    0.47 s of labels, then 1.1 s of merging, one after the other). The merge's event types are
    shared between the two (:meth:`State.shares`): on 2,000 bench articles the first part reached
    the building process 0.7-0.9 s after the last document instead of 1.25, the last 1.65 s
    instead of 2.1; the building process's loads are what is left after it (1.0-1.3 s of the 2.7-2.9
    s after the last document, on the two cores the child's two processes had used)."""
    if not hasattr(os, "fork"):
        work()
        return None
    pid = os.fork()
    if pid:
        return pid
    try:
        work()
    except BaseException:  # noqa: BLE001  (its parent reports the failure: no labels, no summary)
        os._exit(1)
    os._exit(0)


def main(folder: str) -> None:
    from ..extract.gazetteer import load_gazetteer
    from ..extract.words import load_words

    offload.trace_heap()
    load_gazetteer(), load_words()  # while the first documents are extracted: the labels read them
    place, state, read = Path(folder), State(), sys.stdin.buffer.read
    while True:
        header = read(_HEADER.size)
        if len(header) < _HEADER.size:  # the build stopped before its end: nothing to derive
            os._exit(1)
        (size,) = _HEADER.unpack(header)
        if not size:
            break
        state.take(read(size))
    beside, here = state.shares()

    def labels_and_events() -> None:
        _say({"entities": state.write_labels(place)})
        for part in state.write_events(place, beside):
            _say({"events": part})

    labelling = _fork(labels_and_events)
    for part in state.write_events(place, here):
        _say({"events": part})
    if labelling is not None and os.waitstatus_to_exitcode(os.waitpid(labelling, 0)[1]) != 0:
        os._exit(1)
    _say({"peaks": offload.peaks()})


def _say(report: dict) -> None:
    """One line to the building process in one write: the two processes share the pipe, and a
    pipe keeps a write of fewer than PIPE_BUF (4,096) bytes whole (``print`` writes the line and
    its end apart, and the other process's line came between them when the machine was busy)."""
    os.write(sys.stdout.fileno(), (json.dumps(report) + "\n").encode())


if __name__ == "__main__":
    main(sys.argv[1])
