"""One document through the extraction stages: Doc -> mentions -> coreference -> entities -> assertions."""

from __future__ import annotations

import itertools
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from ..errors import KGError
from ..machine import available_cores, available_memory
from ..records import SURFACE_ONLY, Document, DocumentGraph, Entity, Extraction

if TYPE_CHECKING:
    from .relations import Extractor
# the stages (and spaCy) are imported where they run: a parent process that only writes what its
# workers extract starts them a second sooner without importing spaCy itself


def extract(doc, document: Document, extractor: Extractor | None = None) -> Extraction:
    """Everything kg learns from one parsed document."""
    from . import eventstatements, resolve
    from .relations import Extractor

    extractor = extractor or Extractor()
    named = read_mentions(doc, extractor)
    entities = resolve.entities(named, extractor.gazetteer)
    # descriptions and member phrases are surface forms only: the words inside keep their own entities
    reading = extractor.read(doc, [m for m in named if m.kind not in SURFACE_ONLY], document.id)
    assertions = reading.assertions
    statements = eventstatements.events(reading, document)
    known = {e.key for e in entities}
    implied = {k for a in assertions for k in (a.subject, a.object)}
    implied |= {r.entity for e in statements for r in e.roles if r.entity}
    entities = entities + resolve.gazetteer_entities(implied - known, extractor.gazetteer)
    return Extraction(document=document, entities=entities, assertions=tuple(assertions), events=tuple(statements))


def read_mentions(doc, extractor: Extractor) -> list:
    """The document's mentions with their entity keys, references resolved and aliases found."""
    from . import aliases, coref, mentions, resolve

    found = mentions.find_mentions(doc, extractor.gazetteer, extractor.words)
    keyed = resolve.assign_keys(doc, found, extractor.gazetteer)
    with_refs = coref.resolve_references(doc, keyed, extractor.gazetteer, extractor.words)
    return aliases.find_aliases(doc, with_refs, extractor.words)


def extract_all(documents: Iterable[Document], n_process: int = 1) -> Iterator[Extraction]:
    """Parse ``documents`` in batches and extract each, in order, pulling them as it goes."""
    from . import nlp
    from .relations import Extractor

    extractor = Extractor()
    source = iter(documents)
    waiting: deque[Document] = deque()  # read from the input, not yet out of the parser

    def texts() -> Iterator[str]:
        for document in source:
            waiting.append(document)
            yield "" if len(document.text) > LONG else document.text  # a long one: in pieces, below

    while True:
        parsed = nlp.parse(texts(), n_process=n_process)
        while True:
            try:
                doc = next(parsed)
            except StopIteration:
                return
            except KGError:  # kg's own data or set-up: every document's problem, the build's error
                raise
            except Exception:  # the parser failed on one of the texts it held: each alone
                held = list(waiting)
                waiting.clear()
                if not held:  # it failed before reading any text: the parser's own failure
                    raise
                for document in held:
                    yield _read(document, None, extractor)
                break  # and a new parser for the rest
            yield _read(waiting.popleft(), doc, extractor)


def _read(document: Document, doc, extractor: Extractor) -> Extraction:
    """One document's extraction from its parse (None: parsed here, alone), in pieces if long."""
    if len(document.text) > LONG:
        return in_pieces(document, extractor)
    return _alone(document, extractor) if doc is None else isolated(doc, document, extractor)


LONG = 50_000  # characters: a longer article is parsed and extracted a paragraph group at a time


def in_pieces(document: Document, extractor: Extractor) -> Extraction:
    """A long article read a group of paragraphs at a time (:func:`kg.extract.nlp.pieces`), so
    that memory holds one piece's parse, not the article's: each piece is extracted as the
    document (its date, its id) and the pieces' entities, facts and events joined, at their
    offsets in the whole text. Entity keys are the same in every piece (names, the gazetteer); a
    pronoun or a short form at a piece's start does not reach back into the piece before."""
    from dataclasses import replace

    from . import nlp

    results, offset = [], 0
    for piece in nlp.pieces(document.text, LONG):
        part = _alone(replace(document, text=piece), extractor)
        if part.error is not None:
            return replace(part, document=document)
        results.append((offset, part))
        offset += len(piece)
    return joined(document, results)


def joined(document: Document, parts: list[tuple[int, Extraction]]) -> Extraction:
    """One extraction of the pieces of a document, each given with its offset in the text."""
    from dataclasses import replace

    entities: dict[str, Entity] = {}
    assertions, events = [], []
    for offset, part in parts:
        for e in part.entities:
            seen = entities.get(e.key)
            entities[e.key] = e if seen is None else replace(
                seen, aliases=seen.aliases | e.aliases, merge_rules=tuple(dict.fromkeys(seen.merge_rules + e.merge_rules)))
        assertions += [replace(a, start_char=a.start_char + offset, end_char=a.end_char + offset) for a in part.assertions]
        events += [replace(e, trigger_start=e.trigger_start + offset, trigger_end=e.trigger_end + offset,
                           start_char=e.start_char + offset, end_char=e.end_char + offset) for e in part.events]
    return Extraction(document=document, entities=tuple(entities.values()), assertions=tuple(assertions),
                      events=tuple(events))


def isolated(doc, document: Document, extractor: Extractor) -> Extraction:
    """:func:`extract`, where whatever one document raises is that document's error, not its
    batch's: the build reports it as an input that failed and writes the others."""
    try:
        return extract(doc, document, extractor)
    except KGError:  # a data file of kg, not the text: the build's error
        raise
    except Exception as exc:  # noqa: BLE001  (any bug a text finds must cost that text only)
        return failed(document, exc)


def _alone(document: Document, extractor: Extractor) -> Extraction:
    from . import nlp

    try:
        (doc,) = nlp.parse([document.text])
    except KGError:
        raise
    except Exception as exc:  # noqa: BLE001
        return failed(document, exc)
    return isolated(doc, document, extractor)


def failed(document: Document, exc: BaseException) -> Extraction:
    message = " ".join(str(exc).split())[:200]
    return Extraction(document=document, entities=(), assertions=(),
                      error=f"extraction failed ({type(exc).__name__}{': ' + message if message else ''})")


def extract_graphs(documents: Iterable[Document], n_process: int = 1) -> Iterator[DocumentGraph]:
    """:func:`extract_all`, each document's extraction serialized as the graph a store loads."""
    from ..rdf import serialized

    return map(serialized, extract_all(documents, n_process))


def extract_batch(documents: list[Document]) -> list[DocumentGraph]:
    """Parse, extract and serialize a batch in this process (the task a worker process runs)."""
    if _start_error is not None:  # the worker could not load what it needs: the build's error
        raise _start_error
    return list(extract_graphs(documents))


BATCH = 16  # documents per worker task: spaCy's measured sweet spot, enough work to amortize a round trip
IN_FLIGHT = 3  # batches queued per worker: one running, the next ones ready, however slow the parent


def batches(documents: Iterable[Document], size: int = BATCH) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for document in documents:
        batch.append(document)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def bounded(submit: Callable[[list[Document]], None], receive: Callable[[], list[DocumentGraph]],
            documents: Iterable[Document], limit: int, size: int = BATCH) -> Iterator[DocumentGraph]:
    """Keep ``limit`` batches submitted to workers, topping up as each comes back, so the workers
    never wait for the parent and memory holds ``limit`` batches, not the corpus. The input is read
    and submitted by a thread of its own: a slow input (a pipe whose writer waits for kg's first
    lines before it writes more) never holds back what the workers have already extracted."""
    slots = threading.Semaphore(limit)
    submitted: queue.SimpleQueue = queue.SimpleQueue()  # True per batch submitted; None at the end
    stop = threading.Event()

    def feed() -> None:
        try:
            for batch in batches(documents, size):
                slots.acquire()
                if stop.is_set():
                    return
                submit(batch)
                submitted.put(True)
        except BaseException as exc:  # the input's own error, raised where the results are read
            submitted.put(exc)
        submitted.put(None)

    feeder = threading.Thread(target=feed, name="kg-input", daemon=True)
    feeder.start()
    try:
        while (item := submitted.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            extractions = receive()
            slots.release()
            yield from extractions
    finally:
        stop.set()
        slots.release()  # a feeder waiting for a slot sees the stop and ends


class ProcessPool:
    """Extraction in ``n`` worker processes, each parsing *and* extracting its own batches.

    spaCy's own ``n_process`` parses in workers but leaves the extraction to the parent, which
    then competes with them for the cores; here the workers also serialize each document's graph,
    and the parent only writes them to the store. A pool extracts one stream of documents: its workers are
    let go once the stream's last results are in.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.pool = None  # started on the first batch: a rebuild with nothing new starts no worker

    def __call__(self, documents: Iterable[Document]) -> Iterator[DocumentGraph]:
        results: queue.SimpleQueue = queue.SimpleQueue()

        def submit(batch: list[Document]) -> None:
            if self.pool is None:
                import multiprocessing

                # spawn, not fork: the parent holds an open store and its threads
                self.pool = multiprocessing.get_context("spawn").Pool(self.n, initializer=_warm_up)
            self.pool.apply_async(extract_batch, (batch,), callback=results.put, error_callback=results.put)

        def receive() -> list[DocumentGraph]:
            item = results.get()
            if isinstance(item, BaseException):
                raise item
            return item

        yield from bounded(submit, receive, documents, self.n * IN_FLIGHT)
        if self.pool is not None:  # every result is in: the workers exit while the build writes and refreshes
            self.pool.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None and self.pool is not None:
            self.pool.terminate()
        self.close()


WORKER_MEMORY = 600 * 2**20  # bytes a worker holds at most (the model, a batch, its parses): measured 400-500 MB


def default_processes() -> int:
    """Worker processes for a large input: one per available core, as many as memory holds."""
    cores = available_cores()
    memory = available_memory()
    return max(1, min(cores, memory // WORKER_MEMORY)) if memory is not None else cores


class AutoPool:
    """Extraction sized to the machine and the input: a pool of up to ``most`` worker processes
    (default :func:`default_processes`), one for each full batch of the first new documents,
    or this process alone when they are fewer than two batches (a handful of articles is parsed
    before a pool would have loaded its models). Reads ahead at most ``most`` batches to decide;
    a ``streamed`` input (a pipe, whose writer may wait for kg's first lines before it writes more)
    is never read ahead: it gets ``most`` workers, as a stream of unknown length may be long."""

    def __init__(self, most: int | None = None, streamed: bool = False) -> None:
        self.most = most or default_processes()
        self.streamed = streamed
        self.pool: ProcessPool | None = None
        self.chosen: int | None = None  # the processes this build used, once it has decided

    def __call__(self, documents: Iterable[Document]) -> Iterator[DocumentGraph]:
        documents = iter(documents)
        head = [] if self.streamed else list(itertools.islice(documents, self.most * BATCH))
        self.chosen = self.most if self.streamed else max(1, min(self.most, len(head) // BATCH))
        rest = itertools.chain(head, documents)
        if self.chosen == 1:
            yield from extract_graphs(rest)
            return
        self.pool = ProcessPool(self.chosen)
        yield from self.pool(rest)

    def __enter__(self) -> AutoPool:
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.__exit__(*exc)


_start_error: Exception | None = None  # what a worker's start raised (see _warm_up)


def _warm_up() -> None:
    """Load the model, the gazetteer and the places once per worker, before the first batch, and
    take them out of the garbage collector's view: they live as long as the worker, and each full
    collection would walk their objects again (measured: a fifth of the extraction time)."""
    import gc

    from .. import rdf  # noqa: F401  (what serializes the graphs: imported before the first batch)
    from . import nlp
    from .geonames import load_places
    from .relations import Extractor

    global _start_error
    try:
        nlp.load()
        load_places()
        Extractor()
    except Exception as exc:  # noqa: BLE001  raised from the first task: a pool restarts a worker whose start fails, forever
        _start_error = exc
        return
    gc.freeze()
