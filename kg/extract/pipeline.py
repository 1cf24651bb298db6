"""One document through the extraction stages: Doc -> mentions -> coreference -> entities -> assertions."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..errors import KGError
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
    resources = extractor.resources
    named = read_mentions(doc, extractor)
    entities = resolve.entities(named, resources.gazetteer, resources.places)
    # descriptions and member phrases are surface forms only: the words inside keep their own entities
    reading = extractor.read(doc, [m for m in named if m.kind not in SURFACE_ONLY], document.id)
    assertions = reading.assertions
    statements = eventstatements.events(reading, document, resources.event_rules)
    known = {e.key for e in entities}
    implied = {k for a in assertions for k in (a.subject, a.object)}
    implied |= {r.entity for e in statements for r in e.roles if r.entity}
    entities = entities + resolve.gazetteer_entities(implied - known, resources.gazetteer, resources.places)
    return Extraction(document=document, entities=entities, assertions=tuple(assertions), events=tuple(statements))


def read_mentions(doc, extractor: Extractor) -> list:
    """The document's mentions with their entity keys, references resolved and aliases found, by
    the data of the extractor's record (:class:`~kg.extract.resources.Resources`)."""
    from . import aliases, coref, mentions, resolve

    resources = extractor.resources
    found = mentions.find_mentions(doc, resources)
    keyed = resolve.assign_keys(doc, found, resources.gazetteer)
    with_refs = coref.resolve_references(doc, keyed, resources.gazetteer, resources.words)
    return aliases.find_aliases(doc, with_refs, resources.words)


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
