"""Indexes of a parsed spaCy Doc, made once per Doc and kept in ``doc.user_data``.

spaCy builds new Token and Span objects on every ``doc[i]``, ``token.children``, ``span.text`` or
``doc.sents``; the extraction stages walk each document many times, so they read these lists
instead (measured: a third of the extraction time before). Every index is made after parsing,
when no more retokenizing happens.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from spacy.tokens import Doc, Span, Token

from ..records import Mention

CACHE_KEYS = ("kg_tokens", "kg_heads", "kg_sents", "kg_children", "kg_roots", "kg_text", "kg_sentences", "kg_ids",
              "kg_breaks", "kg_top_polarity", "kg_chains", "kg_span_roots")

if not Token.has_extension("kg_id"):
    Token.set_extension("kg_id", default=None)


LINE_BREAK = re.compile("\n")  # found by the regex engine (a loop over each character: 2% of the extraction under cProfile)
# Quotation marks as tokens: straight, curly and the tokenizer's doubled ones.
QUOTES = frozenset({'"', "\u201c", "\u201d", "'", "\u2018", "\u2019", "``", "''"})

def tokens(doc: Doc) -> list[Token]:
    cached = doc.user_data.get("kg_tokens")
    if cached is None or len(cached) != len(doc):
        cached = doc.user_data["kg_tokens"] = list(doc)
    return cached


def heads(doc: Doc) -> list[int]:
    """The index of each token's head (``Token.head`` builds a new Token on every call)."""
    cached = doc.user_data.get("kg_heads")
    if cached is None or len(cached) != len(doc):
        cached = doc.user_data["kg_heads"] = [t.head.i for t in tokens(doc)]
    return cached


def sentences(doc: Doc) -> list[Span]:
    cached = doc.user_data.get("kg_sents")
    if cached is None:
        cached = doc.user_data["kg_sents"] = list(doc.sents)
    return cached


def sentence_numbers(doc: Doc) -> list[int]:
    """The number of the sentence each token is in."""
    cached = doc.user_data.get("kg_sentences")
    if cached is None or len(cached) != len(doc):
        cached = [0] * len(doc)
        for number, sent in enumerate(sentences(doc)):
            cached[sent.start:sent.end] = [number] * (sent.end - sent.start)
        doc.user_data["kg_sentences"] = cached
    return cached


def paragraph_of(token: Token) -> int:
    """The number of the paragraph (the text between line breaks) ``token`` is in."""
    doc = token.doc
    breaks = doc.user_data.get("kg_breaks")
    if breaks is None:
        breaks = doc.user_data["kg_breaks"] = [m.start() for m in LINE_BREAK.finditer(text(doc))]
    return bisect_right(breaks, token.idx)


def sentence_of(token: Token) -> Span:
    """The sentence ``token`` is in (Token.sent rebuilds it on every call)."""
    return sentences(token.doc)[sentence_numbers(token.doc)[token.i]]


def children(token: Token) -> list[Token]:
    """``token.children`` as a list."""
    doc = token.doc
    index = doc.user_data.get("kg_children")
    if index is None:
        index = [[] for _ in range(len(doc))]
        for t, head in zip(tokens(doc), heads(doc)):
            if head != t.i:
                index[head].append(t)
        doc.user_data["kg_children"] = index
    return index[token.i]


def sentence_roots(doc: Doc) -> list[Token]:
    cached = doc.user_data.get("kg_roots")
    if cached is None:
        cached = doc.user_data["kg_roots"] = [sent.root for sent in sentences(doc)]
    return cached


def text(doc: Doc) -> str:
    """``doc.text``, joined once (spaCy joins every token's text on each call)."""
    cached = doc.user_data.get("kg_text")
    if cached is None:
        cached = doc.user_data["kg_text"] = doc.text
    return cached


def span_text(span: Span) -> str:
    """``span.text``, cut from the document's text (joined once)."""
    return text(span.doc)[span.start_char:span.end_char]


def gazetteer_ids(doc: Doc) -> dict[int, str]:
    """Token index -> gazetteer entry id of the names the name merger made into one token."""
    cached = doc.user_data.get("kg_ids")
    if cached is None:  # a Doc joined from pieces (Doc.from_docs) keeps only the token extension
        cached = doc.user_data["kg_ids"] = {t.i: t._.kg_id for t in tokens(doc) if t._.kg_id}
    return cached


def forget(doc: Doc) -> None:
    """Drop the indexes (before the Doc is changed or joined with others)."""
    for key in CACHE_KEYS:
        doc.user_data.pop(key, None)


CITATION_MARK = r"\[(?:\d{1,3}|[a-z]|note \d{1,3}|citation needed)\]$"  # "[12]", "[a]": never part of a name


def mention(doc, start, end, type_, sentence_of, gazetteer_id=None) -> Mention:
    """A name mention of ``doc[start:end]`` (``sentence_of``: :func:`sentence_numbers` of the Doc)."""
    span = doc[start:end]
    return Mention(
        start=start, end=end, start_char=span.start_char, end_char=span.end_char, text=span_text(span),
        type=type_, kind="name", gazetteer_id=gazetteer_id, sentence=sentence_of[start],
    )
