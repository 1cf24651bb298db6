"""Lines that say where a text comes from, and the names on them: a monitoring service's source
line ("LD0706183794 Riga Radio Riga Network in Latvian 1700 GMT 7 Jun 94": the city heading it, the
outlet, its language and the time) and a wire story's dateline ("DAYTON, Ohio (AP) _"). The
``kg_dateline`` component (:mod:`kg.extract.components`) ends the dateline's sentence; these read
the names on such lines, which NER takes for one name or for an organization."""

from __future__ import annotations

import re

from ..ontology import superclasses
from ..records import Mention
from .docindex import mention, span_text
from .gazetteer import Gazetteer
from .geonames import Places
from .words import Words

SOURCE_ITEM = re.compile(r"^[A-Z]{2}\d{6,}$")  # a monitoring service's item number: "LD0706183794"
TIME_ZONES = frozenset({"gmt", "utc"})


def source_line_names(doc, mentions: list[Mention], taken: set[int], sentence_of, gazetteer: Gazetteer,
                      places: Places, words: Words) -> list[Mention]:
    """A monitoring service's source line ("LD0706183794 Riga Radio Riga Network in Latvian 1700
    GMT 7 Jun 94", "Moscow INTERFAX in English 1322 GMT"): the place heading it and the outlet named
    after it, up to "in" its language and the time; NER takes the two for one name, or misses the
    outlet written in capitals. ``mentions`` holds the gazetteer's, ``taken`` their tokens."""
    out = list(mentions)
    for t in doc:
        i = t.i
        language = doc[i + 1] if i + 2 < len(doc) else None
        if t.lower_ != "in" or language is None or not (language.is_alpha and language.text[:1].isupper()) \
                or language.ent_type_ in ("GPE", "LOC", "FAC", "ORG", "PERSON") or i + 1 in taken \
                or not any(x.lower_ in TIME_ZONES for x in doc[i + 2 : i + 5]):
            continue  # "in" a language, then the time: not "in Baghdad at 0900 GMT"
        sentence = t.sent
        start = next((j + 1 for j in range(i - 1, sentence.start - 1, -1) if SOURCE_ITEM.match(doc[j].text)),
                     sentence.start)
        if i - start < 2 or not all(doc[j].text[:1].isupper() for j in range(start, i)):
            continue
        place_end = next((e for e in range(min(i - 1, start + 3), start, -1)
                          if _known_place(span_text(doc[start:e]), gazetteer, places)), None)
        if place_end is None:  # a town GeoNames does not list: the words before the outlet's
            place_end = next((j for j in range(start + 1, min(i, start + 3)) if _outlet_word(doc[j], words)), None)
        if place_end is None or any(j in taken for j in range(place_end, i)):
            continue
        if not any(m.start == start and m.end == place_end for m in out):
            if any(j in taken for j in range(start, place_end)):
                continue
            text = span_text(doc[start:place_end])
            entry = gazetteer.lookup(text)
            kind = entry.type if entry else "Country" if places.country(text) else "Settlement"
            out.append(mention(doc, start, place_end, kind, sentence_of, gazetteer_id=entry.id if entry else None))
        entry = gazetteer.lookup(span_text(doc[place_end:i]))
        out.append(mention(doc, place_end, i, entry.type if entry else "MediaOrganization", sentence_of,
                           gazetteer_id=entry.id if entry else None))
        taken.update(range(start, i))
    return out


def _outlet_word(token, words: Words) -> bool:
    """A word that begins an outlet's name on a source line: in capitals ("XINHUA", "DAO SIAM") or
    a broadcaster's ("Radio Rebelde Network", "Television Suisse Romande")."""
    return (token.is_alpha and len(token.text) > 1 and token.text.isupper()) or \
        words.organization_heads.get(token.lower_) == "MediaOrganization"


def _known_place(text: str, gazetteer: Gazetteer, places: Places) -> str | None:
    """The class of the place ``text`` names, if the gazetteer or GeoNames knows it."""
    entry = gazetteer.lookup(text)
    if entry is not None:
        return entry.type if superclasses().get(entry.type, frozenset()) & {"Location"} else None
    return "Country" if places.country(text) else "Settlement" if places.town(text) else None


def heads_dateline(doc, m: Mention, ids: dict) -> bool:
    """Whether ``m`` and the region after its comma head a dateline: "DAYTON, Ohio (AP) _",
    "Lumberton, N.C. --" (the town in capitals, or the line going on with the source or a dash)."""
    end = m.end + 1
    while end < len(doc) and ids.get(end) == ids[m.end + 1]:
        end += 1
    after = doc[end].text if end < len(doc) else ""
    return m.text.isupper() or (m.start == doc[m.start].sent.start and after in ("(", "_", "-", "--", "\u2014", ""))
