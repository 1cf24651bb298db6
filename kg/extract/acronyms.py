"""Acronyms defined in the text: "Movement for Oneness and Jihad in West Africa (MOJWA)" is one
mention for the whole name, and every later "MOJWA" is a mention of it."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from .namekeys import iri_key
from ..ontology import is_a
from ..records import Mention
from .docindex import mention, span_text, tokens
from .gazetteer import Gazetteer
from .types import org_type
from .words import Words


def acronym_fits(acronym: str, words: list[str], function_words: frozenset[str]) -> bool:
    """Whether ``acronym`` spells ``words``: each content word gives it one or more leading letters,
    in order, and function words may give some ("MODEL": MOvement for DEmocracy in Liberia;
    "ARBiH": Army of the Republic of BOsnia and Herzegovina; "MOJWA", "HTS", "PFG"); or, for a
    military contraction of five letters or more, words give two or more letters each and some give
    none ("NAVCENT": NAVal Forces CENTral Command; "CENTCOM", "AFRICOM"). ``function_words`` are
    those of ontology/words.toml."""
    letters = acronym.lower()
    words = [w.lower() for w in words if w[:1].isalpha()]
    if not words or not words[0][:1] == letters[:1] or words[0] in function_words:
        return False

    @cache
    def fits(i: int, j: int, contraction: bool) -> bool:
        """Letters i.. spelled by words j..; a contraction ("NAVCENT": NAVal forces CENTral command)
        takes two or more letters of each word it uses and may pass over any word but the first."""
        if j == len(words):
            return i == len(letters)
        word, optional = words[j], words[j] in function_words or (contraction and j > 0)
        if optional and fits(i, j + 1, contraction):
            return True
        k = 2 if contraction else 1
        while i + k <= len(letters) and k <= len(word) and letters[i:i + k] == word[:k]:
            if fits(i + k, j + 1, contraction):
                return True
            k += 1
        return False

    return fits(0, 0, False) or (len(letters) >= 5 and fits(0, 0, True))


def acronym_definitions(doc, mentions: list[Mention], gazetteer: Gazetteer, words: Words, sentence_of) -> list[Mention]:
    """``mentions`` with each acronym defined in parentheses made one mention of the name it
    spells (see :func:`acronym_fits`; else the name just before it), and a mention of every later
    use of the acronym."""
    defined: dict[str, Mention] = {}
    out = list(mentions)
    for open_ in (t for t in tokens(doc) if t.text == "("):
        i = open_.i
        if i + 2 >= len(doc) or doc[i + 2].text != ")":
            continue
        acronym = doc[i + 1].text
        if sum(c.isupper() for c in acronym) < 2 or not acronym[:1].isupper() or not acronym.isalpha():
            continue
        out, name = _defined_name(doc, out, mentions, i, acronym, gazetteer, words, sentence_of)
        if name is None:
            continue
        defined[acronym] = name
        # the acronym inside the parentheses
        out = [m for m in out if not (m.start == i + 1)]
        out.append(_acronym_use(doc, i + 1, name, sentence_of))
    out = _later_uses(doc, out, defined, sentence_of) if defined else out
    return _shortened_names(out, words)


def _shortened_names(mentions: list[Mention], lists: Words) -> list[Mention]:
    """A name that ends in an acronym of another name of the document, after the same words,
    is a use of it although no parenthesis defined it: "407th AEG" after "407th Air
    Expeditionary Group", "CJTF-OIR" is left alone (no name spells it). Only one name may fit."""
    names = [m for m in mentions if m.kind == "name" and m.type != "Person"]
    out = []
    for m in mentions:
        words = m.text.split()
        acronym = words[-1] if words else ""
        if m.kind != "name" or m.gazetteer_id or m.type == "Person" or not acronym.isalpha() \
                or sum(c.isupper() for c in acronym) < 2 or not acronym[:1].isupper():
            out.append(m)
            continue
        prefix = words[:-1]
        fitting = {n.text: n for n in names
                   if n.text != m.text and n.text.split()[:len(prefix)] == prefix
                   and len(n.text.split()) - len(prefix) >= 2
                   and acronym_fits(acronym, n.text.split()[len(prefix):], lists.function_words)}
        if len(fitting) != 1:
            out.append(m)
            continue
        (name,) = fitting.values()
        out.append(replace(m, type=name.type, kind="shortened", gazetteer_id=name.gazetteer_id,
                           key=name.key or name.gazetteer_id or iri_key(name.text)))
    return out


def _defined_name(doc, out: list[Mention], mentions: list[Mention], paren: int, acronym: str, gazetteer: Gazetteer,
                  lists: Words, sentence_of) -> tuple[list[Mention], Mention | None]:
    """The name an acronym in parentheses at ``paren`` defines, and the mentions with it in."""
    function_words = lists.function_words
    end = paren
    while end > 0 and doc[end - 1].text in ("'s", "\u2019s", "'", "\u2019"):
        end -= 1
    for start in range(end - 1, max(end - 12, -1), -1):
        words = [w for t in doc[start:end] for w in t.text.replace("-", " ").split()]
        if doc[start].lower_ in function_words or not doc[start].text[:1].isupper():
            continue
        if acronym_fits(acronym, words, function_words):
            break
    else:
        # an acronym that does not spell the name before it stands for that name ("the Syrian
        # Democratic Forces (QSD)"), unless it names something else: an outlet after a dateline
        # ("DAYTON, Ohio (AP)"), a place's name never being spelled otherwise
        before = next((m for m in mentions if m.end == end and m.kind == "name"), None)
        known = gazetteer.lookup(acronym)
        if before is None or before.type == "Person" or is_a(before.type, "Location") or (
                known is not None and known.id != before.gazetteer_id):
            return out, None
        return out, before
    covering = [m for m in mentions if m.kind == "name" and m.start < start < m.end and m.end <= end
                and not any(t.is_punct for t in doc[m.start:start])]
    if covering:  # "U.S. Naval Forces Central Command (NAVCENT)": the whole name NER found
        start = min(m.start for m in covering)
    text = span_text(doc[start:end])
    entry = gazetteer.lookup(text) or gazetteer.lookup(acronym)
    inner = [m for m in out if m.start >= start and m.end <= end]
    if entry is not None:
        name = mention(doc, start, end, entry.type, sentence_of, gazetteer_id=entry.id)
    elif len(inner) == 1 and inner[0].start == start and inner[0].end == end:
        name = inner[0]
    else:
        name = mention(doc, start, end, org_type(text, lists), sentence_of)
    out = [m for m in out if m.end <= start or m.start >= end or m is name]
    return (out if name in out else [*out, name]), name


def _later_uses(doc, out: list[Mention], defined: dict[str, Mention], sentence_of) -> list[Mention]:
    covered = {i for m in out for i in range(m.start, m.end)}
    for token in tokens(doc):
        name = defined.get(token.text)
        if name is None or token.i < name.end:
            continue
        if token.i in covered:
            out = [m for m in out if not (m.start == token.i and m.end == token.i + 1 and not m.gazetteer_id)]
            if any(m.start <= token.i < m.end for m in out):
                continue
        out.append(_acronym_use(doc, token.i, name, sentence_of))
    return sorted(out, key=lambda m: m.start)


def _acronym_use(doc, i: int, name: Mention, sentence_of) -> Mention:
    m = mention(doc, i, i + 1, name.type, sentence_of, gazetteer_id=name.gazetteer_id)
    return replace(m, kind="acronym", key=name.key or name.gazetteer_id or iri_key(name.text))


_ACRONYM = re.compile(r"[A-Z][A-Z&-]{1,7}")


def foreign_acronyms(mentions: list[Mention], gazetteer: Gazetteer) -> list[Mention]:
    """An acronym the dictionary gives a state's institution ("SAF": Sudan's armed forces) in a
    document that names countries, none of them that state ("The SAF patrolled Singapore's
    coast"), is not that institution: it keeps its own name, an organization of no known kind."""
    def country_of(m: Mention) -> str | None:
        entry = gazetteer.entries.get(m.gazetteer_id or "")
        return entry.country if entry is not None and entry.type != "Country" else None

    acronyms = [m for m in mentions if m.gazetteer_id and m.kind == "name" and _ACRONYM.fullmatch(m.text)
                and country_of(m)]
    if not acronyms:
        return mentions
    named = {m.gazetteer_id or m.key for m in mentions if m.type == "Country"}
    named |= {country_of(m) for m in mentions if m.gazetteer_id and m not in acronyms} - {None}
    foreign = {id(m) for m in acronyms if named and country_of(m) not in named}
    return [replace(m, gazetteer_id=None, key=None, type="Organization") if id(m) in foreign else m for m in mentions]
