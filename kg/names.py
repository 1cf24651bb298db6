"""The one normalizer of names: the key two names must share to be the same name, and the readable
IRI key derived from it.

:func:`match_key` ignores case, accents, quote styles, a leading "the" or "so-called", a possessive
"'s", punctuation, the transliteration variants of ontology/words.toml (Qaeda/Qaida,
Hezbollah/Hizbullah, ...), doubled letters (Jawwad/Jawad) and a final -ah (Hodeidah/Hodeida), and
joins an article or name particle to the word after it, so "Al-Bukamal", "Albukamal" and
"al Bukamal" are all ``albukamal`` and "Mokhtar Bel Mokhtar" is "Mokhtar Belmokhtar". Words stay
apart (``bashar-alasad``), so the key is also readable: :func:`iri_key` is the match key cut to
the length an IRI segment may have. A name outside the gazetteer therefore gets the same IRI
whichever of its spellings a document uses.

(The scorer in :mod:`kg.eval.score` keeps the reference scorer's own normalization, on purpose:
it must count exactly as ../shared/eval/score.py counts.)
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

MAX_KEY = 80
ROMAN = re.compile(r"[ivxlcdm]+")


def _words():
    from .extract.words import load_words

    return load_words()


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lowercase, without accents, one kind of apostrophe, single spaces: how names compare."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return re.sub(r"\s+", " ", text).strip().lower()


def _spelling(word: str) -> str:
    if ROMAN.fullmatch(word) or any(c.isdigit() for c in word):  # "XVIII Airborne Corps", "3rd"
        return word
    word = re.sub(r"([a-z])\1+", r"\1", word)
    word = re.sub(r"(?<=[a-z]{3})(iy|yi|ij|yj)$", "y", word)  # Zelenskiy / Zelensky / Zelenskyy
    return re.sub(r"([aeiou])h$", r"\1", word)


@lru_cache(maxsize=131072)
def match_key(text: str) -> str:
    """The form two names must share to be the same name (see the module docstring)."""
    words = _words()
    s = fold(text)
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"^(the\s+)?(so[- ]called\s+)?", "", s)
    s = re.sub(r"[^a-z0-9' ]+", " ", s).replace("'", "")
    s = re.sub(r"\s+", " ", s).strip()
    for pattern, repl in words.transliterations:
        s = pattern.sub(repl, s)
    out: list[str] = []
    for word in s.split():
        if out and out[-1] in words.name_particles:
            out[-1] += word
        else:
            out.append(word)
    return "-".join(_spelling(w) for w in out)


def iri_key(text: str) -> str:
    """A readable IRI segment for a name: its match key, ASCII letters, digits and hyphens."""
    return match_key(text)[:MAX_KEY].strip("-") or "x"

