"""Lines that say where a text comes from, and the names on them: a monitoring service's source
line ("LD0706183794 Riga Radio Riga Network in Latvian 1700 GMT 7 Jun 94": the city heading it, the
outlet, its language and the time) and a wire story's dateline ("DAYTON, Ohio (AP) _"). The
``kg_dateline`` component (:mod:`kg.extract.components`) ends the dateline's sentence; these read
the names on such lines, which NER takes for one name or for an organization."""

from __future__ import annotations

import re

from ..ontology import superclasses
from ..records import Mention
from . import docindex
from .docindex import mention, sentences, span_text, tokens
from .gazetteer import Gazetteer
from .geonames import Places
from .namehood import capitals
from .words import Words

# a monitoring service's item number: "LD0706183794", "94WD0125D", "947N0051B"
SOURCE_ITEM = re.compile(r"^(?=(?:[^0-9]*[0-9]){4})(?=[0-9]*[A-Z])[A-Z0-9]{8,14}$")
TIME_ZONES = frozenset({"gmt", "utc"})
MAX_LINE = 10  # tokens of a source line without its language and time: item number, city, outlet


def source_line_names(doc, mentions: list[Mention], taken: set[int], sentence_of, gazetteer: Gazetteer,
                      places: Places, words: Words) -> list[Mention]:
    """A monitoring service's source line ("LD0706183794 Riga Radio Riga Network in Latvian 1700
    GMT 7 Jun 94", "Moscow IZVESTIYA in Russian 23 Mar 94 p 3", or the line alone: "Moscow
    ITAR-TASS", "Beirut Radio Lebanon"): the place heading it and the outlet named after it, up to
    "in" its language; NER takes the two for one name, or misses the outlet written in capitals.
    ``mentions`` holds the gazetteer's, ``taken`` their tokens; a gazetteer's name inside the
    outlet's ("Lebanon" of "Radio Lebanon") is the outlet's, and the language names no country."""
    out = list(mentions)
    for start, end, language in _source_lines(doc, gazetteer):
        place_end = next((e for e in range(min(end - 1, start + 3), start, -1)
                          if _known_place(span_text(doc[start:e]), gazetteer, places)), None)
        if place_end is None:  # a town GeoNames does not list: the words before the outlet's
            place_end = next((j for j in range(start + 1, min(end, start + 3)) if _outlet_word(doc[j], words)), None)
            if place_end is not None and language is None and not all(
                    doc[j].pos_ == "PROPN" or doc[j].ent_type_ in ("GPE", "LOC") or (j == start and doc[j].lower_ == "the")
                    for j in range(start, place_end)):
                continue  # the line alone: a name before the outlet ("The Hague ANP"), not "Breaking NEWS"
        outlet = span_text(doc[place_end:end]) if place_end is not None else ""
        known = gazetteer.lookup(outlet) if outlet else None  # the outlet's entry, if the gazetteer has it
        if place_end is None or doc[place_end].is_punct or all(doc[j].is_stop for j in range(start, place_end)) \
                or _known_place(outlet, gazetteer, places) or (
                language is None and not (
                    _outlet_alone(doc[place_end:end], words) and all(t.ent_type_ != "PERSON" for t in doc[place_end:end])
                    and (known is None or known.type == "MediaOrganization"))):
            continue  # "Kabul Afghanistan", "Moscow NATO", "By JOHN SMITH", a headline: no outlet
        if any(j in taken for j in range(start, place_end)) and \
                not any(m.start == start and m.end == place_end for m in out):
            continue
        inside = [m for m in out if place_end <= m.start and m.end <= end]
        if any(m.start < place_end < m.end or m.start < end < m.end for m in out):
            continue  # a gazetteer's name across the line's parts
        out = [m for m in out if m not in inside and not (language is not None and m.start <= language < m.end)]
        if not any(m.start == start and m.end == place_end for m in out):
            text = span_text(doc[start:place_end])
            entry = gazetteer.lookup(text)
            kind = entry.type if entry else "Country" if places.country(text) else "Settlement"
            out.append(mention(doc, start, place_end, kind, sentence_of, gazetteer_id=entry.id if entry else None))
        out.append(mention(doc, place_end, end, known.type if known else "MediaOrganization", sentence_of,
                           gazetteer_id=known.id if known else None))
        taken.update(range(start, end))
        if language is not None:  # the language and the time zone after it ("in English 1322 GMT")
            taken.update(j for j in range(language, min(language + 4, len(doc)))
                         if j == language or doc[j].lower_ in TIME_ZONES)
    out.sort(key=lambda m: m.start)
    return out


def _source_lines(doc, gazetteer: Gazetteer):
    """The (start, end) of each source line's place and outlet, and its language's token or None:
    from the item number or the sentence's beginning up to "in" its language, or a sentence that is
    nothing else; every word capitalized."""
    every = tokens(doc)
    for sentence in sentences(doc):
        end = next((t.i for t in every[sentence.start:sentence.end] if names_a_language(doc, t, gazetteer)), None)
        language = None if end is None else end + 1
        if end is None:  # the line alone: "Moscow ITAR-TASS", "Beirut Radio Lebanon"
            end = sentence.end
            while end > sentence.start and doc[end - 1].is_punct:
                end -= 1
        start = next((j + 1 for j in range(end - 1, sentence.start - 1, -1) if SOURCE_ITEM.match(doc[j].text)),
                     sentence.start)
        if 2 <= end - start <= MAX_LINE and all(_capitalized(doc[j]) for j in range(start, end)):
            yield start, end, language


def names_a_language(doc, token, gazetteer: Gazetteer) -> bool:
    """Whether ``token`` is the "in" of a source line's language: "in Russian 23 Mar 94", "in
    English 1322 GMT" (NER may take "Russian" for a place), not "in Baghdad at 0900 GMT"."""
    if token.lower_ != "in":
        return False
    end = docindex.sentence_of(token).end  # Token.sent rebuilds the sentence on every call
    if token.i + 2 >= end:
        return False
    language, after = doc[token.i + 1], doc[token.i + 2 : min(token.i + 5, end)]
    return language.is_alpha and language.text[:1].isupper() and (
        language.ent_type_ not in ("GPE", "LOC", "FAC", "ORG", "PERSON")
        or gazetteer.country_of_demonym(language.text) is not None) and (
        any(x.lower_ in TIME_ZONES for x in after) or after[0].like_num)


def _capitalized(token) -> bool:
    return token.text[:1].isupper() or token.text in ("-", "&") or token.lower_ in ("de", "del", "al", "el")


def _outlet_word(token, words: Words) -> bool:
    """A word that begins an outlet's name on a source line: in capitals ("XINHUA", "DAO SIAM") or
    a broadcaster's ("Radio Rebelde Network", "Television Suisse Romande")."""
    return (capitals(token.text) > 1 and not token.like_num) or \
        words.organization_heads.get(token.lower_) == "MediaOrganization"


def _outlet_alone(span, words: Words) -> bool:
    """Whether a line's words after its place name an outlet without its language and time to say
    so: all in capitals ("ITAR-TASS", "DAO SIAM") or a broadcaster's ("Radio Lebanon"), not a
    headline's ("Taliban Seize Kunduz")."""
    return all(_outlet_word(t, words) or t.is_punct for t in span) or \
        any(words.organization_heads.get(t.lower_) == "MediaOrganization" for t in span)


def _known_place(text: str, gazetteer: Gazetteer, places: Places) -> str | None:
    """The class of the place ``text`` names, if the gazetteer or GeoNames knows it."""
    entry = gazetteer.lookup(text)
    if entry is not None:
        return entry.type if superclasses().get(entry.type, frozenset()) & {"Location"} else None
    return "Country" if places.country(text) else "Settlement" if places.town(text) else None


def heads_dateline(doc, m: Mention, ids: dict, words: Words) -> bool:
    """Whether ``m`` and the region after its comma head a dateline: "DAYTON, Ohio (AP) _",
    "Lumberton, N.C. --" (the town in capitals, or the line going on with the source or a dash)."""
    return m.text.isupper() or (m.start == doc[m.start].sent.start and _dateline_goes_on(doc, m.end + 1, ids, words))


def _dateline_goes_on(doc, region: int, ids: dict, words: Words) -> bool:
    """Whether the words after the gazetteer's name at ``region`` go on as a dateline's: the source
    in parentheses, a dateline's dash (words.toml), or nothing more."""
    end = region
    while end < len(doc) and ids.get(end) == ids[region]:
        end += 1
    after = doc[end].text if end < len(doc) else ""
    return after in ("(", "") or after in words.dateline_dashes


MAX_DATELINE_TOWN = 4  # words of a town's name in a dateline ("WINSTON - SALEM", "ST. LOUIS")


def dateline_towns(doc, taken: set[int], sentence_of, ids: dict, gazetteer: Gazetteer, words: Words) -> list[Mention]:
    """The town heading a dateline in capitals where NER saw no name ("PASADENA, Calif. (AP) _",
    "ROCK HILL, S.C. --"): capitals opening a sentence, a comma, a region or a country the
    gazetteer knows, and the line going on as a dateline does (:func:`heads_dateline` retypes a
    town NER did see)."""
    found = []
    for sentence in sentences(doc):
        start = end = sentence.start
        while end < sentence.end and end - start < MAX_DATELINE_TOWN and end not in taken and _in_capitals(doc[end]):
            end += 1
        if end == start or doc[end - 1].text == "-" or end + 1 >= len(doc) or doc[end].text != "," \
                or end + 1 not in ids or gazetteer.entries[ids[end + 1]].type not in ("Region", "Country") \
                or not _dateline_goes_on(doc, end + 1, ids, words):
            continue
        found.append(mention(doc, start, end, "Settlement", sentence_of))
        taken.update(range(start, end))
    return found


def _in_capitals(token) -> bool:
    return token.text == "-" or (capitals(token.text) > 0 and not token.like_num)
