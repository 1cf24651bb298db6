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
# compiled once: every name of the gazetteer is keyed as each process starts (11,000 of them)
_SPACES = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"'s\b")
_LEADING = re.compile(r"^(the\s+)?(so[- ]called\s+)?")
_NOT_NAME = re.compile(r"[^a-z0-9' ]+")
_DIGIT = re.compile(r"[0-9]")
_DOUBLED = re.compile(r"([a-z])\1+")
_IY = re.compile(r"(?<=[a-z]{3})(iy|yi|ij|yj)$")
_VOWEL_H = re.compile(r"([aeiou])h$")


def _words():
    """ontology/words.toml's lists, read here and not passed in: a match key is a constant of the
    name (it is memoized by the text alone, and becomes entity IRIs, gazetteer keys and the keys
    stored and evaluated), asked for in some sixty places from the loaders to the scorers, most
    of which hold no stage's data; threading the lists through them all would buy nothing."""
    from .words import load_words

    return load_words()


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lowercase, without accents, one kind of apostrophe, single spaces: how names compare."""
    if not text.isascii():  # ASCII has no accents, and NFKD leaves it as it is
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
        text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("`", "'")
    return _SPACES.sub(" ", text).strip().lower()


def _spelling(word: str) -> str:
    """One word's spelling variants made one (``word`` is of a match key: a-z and 0-9 only)."""
    if ROMAN.fullmatch(word) or _DIGIT.search(word):  # "XVIII Airborne Corps", "3rd"
        return word
    word = _DOUBLED.sub(r"\1", word)
    if word.endswith(("iy", "yi", "ij", "yj")):  # Zelenskiy / Zelensky / Zelenskyy
        word = _IY.sub("y", word)
    return _VOWEL_H.sub(r"\1", word) if word.endswith("h") else word


@lru_cache(maxsize=4)
def _any_of(rules: tuple[tuple[re.Pattern, str], ...]) -> re.Pattern | None:
    """One pattern that matches wherever one of ``rules`` does (None if their groups would
    clash): a name that none of them matches is left as it is after one search, not one a rule."""
    if not rules or any(p.groups or p.flags != rules[0][0].flags for p, _ in rules):
        return None
    return re.compile("|".join(f"(?:{p.pattern})" for p, _ in rules), rules[0][0].flags)


@lru_cache(maxsize=131072)
def match_key(text: str) -> str:
    """The form two names must share to be the same name (see the module docstring)."""
    words = _words()
    s = fold(text)
    if "'s" in s:
        s = _POSSESSIVE.sub("", s)
    if s.startswith(("the", "so")):
        s = _LEADING.sub("", s)
    s = _NOT_NAME.sub(" ", s).replace("'", "")
    s = _SPACES.sub(" ", s).strip()
    rules = words.transliterations
    any_rule = _any_of(rules)
    if any_rule is None or any_rule.search(s):
        for pattern, repl in rules:
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


_DATE = re.compile(r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b", re.IGNORECASE)


def reads_as_date(name: str) -> bool:
    """A name that a text would write as a date ("May 15"): no dictionary or NER name may be one."""
    return bool(_DATE.fullmatch(name.strip()) or _DATE.fullmatch(name.strip().removeprefix("the ")))
