"""spaCy Doc -> Mentions: gazetteer names, NER names not in the gazetteer, and groups of people.

Every mention is typed with an ontology class. NORP (nationalities) and numbers are not
entities; a nationality only matters as a modifier ("a Lebanese group", "Lebanese soldiers").
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from .components import children, gazetteer_ids, sentence_numbers, span_text, tokens
from .gazetteer import Gazetteer, Nominals, key_for_name, load_gazetteer, load_nominals, name_key, slug
from .geonames import load_places, place_of_entry
from ..records import Mention

NER_TYPES = {"PERSON": "Person", "ORG": "Organization", "GPE": "Settlement", "LOC": "Region", "FAC": "Settlement"}
_ORG_HEADS = {
    "army": "ArmedForces", "forces": "ArmedForces", "guard": "ArmedForces", "police": "ArmedForces",
    "front": "ArmedGroup", "brigade": "ArmedGroup", "brigades": "ArmedGroup", "militia": "ArmedGroup",
    "battalion": "ArmedGroup", "battalions": "ArmedGroup", "movement": "ArmedGroup", "rebels": "ArmedGroup",
    "ministry": "GovernmentAgency", "agency": "GovernmentAgency", "council": "GovernmentAgency",
    "government": "GovernmentAgency", "security": "GovernmentAgency", "directorate": "GovernmentAgency",
    "news": "MediaOrganization", "times": "MediaOrganization", "post": "MediaOrganization",
    "tv": "MediaOrganization", "television": "MediaOrganization", "radio": "MediaOrganization",
}
_NOT_NAMES = re.compile(r"^(the\s+)?(photo|reuters photo|file|update|breaking|editor)$", re.I)


def ner_type(label: str, text: str) -> str | None:
    """Ontology class for an NER span not in the gazetteer, refined by its head word for ORGs."""
    base = NER_TYPES.get(label)
    if base == "Organization":
        return org_type(text)
    suffix = load_nominals().place_suffixes.get(text.split()[-1].lower())
    if suffix and base in ("Settlement", "Region", "Person"):
        return suffix
    return base


def find_mentions(doc, gazetteer: Gazetteer | None = None, nominals: Nominals | None = None) -> list[Mention]:
    """All name and people-group mentions of ``doc``, in text order, keys left for resolve."""
    gazetteer = gazetteer or load_gazetteer()
    nominals = nominals or load_nominals()
    sentence_of = sentence_numbers(doc)
    mentions: list[Mention] = []
    taken: set[int] = set()
    for i, entry_id in sorted(gazetteer_ids(doc).items()):
        entry = gazetteer.entries[entry_id]
        mentions.append(_mention(doc, i, i + 1, entry.type, sentence_of, gazetteer_id=entry_id))
        taken.add(i)
    for ent in doc.ents:
        if any(t.i in taken for t in ent) or ent.label_ not in NER_TYPES:
            continue
        start, end = _trim(ent)
        if start >= end:
            continue
        if end < len(doc) and doc[end].text[:1].isupper() and doc[end].lower_ in nominals.place_suffixes \
                and end not in taken:
            end += 1  # "Mopti Region", "Al Jufra Airbase"
        text = span_text(doc[start:end])
        if _NOT_NAMES.match(text) or not any(c.isalpha() for c in text):
            continue
        entry = gazetteer.lookup(text)
        if entry:
            mentions.append(_mention(doc, start, end, entry.type, sentence_of, gazetteer_id=entry.id))
        else:
            type_ = ner_type(ent.label_, text)
            if type_ == "Settlement" and name_key(text) in gazetteer.demonyms:
                continue
            mentions.append(_mention(doc, start, end, type_, sentence_of))
        taken.update(range(start, end))
    mentions.extend(_place_names(doc, taken, sentence_of, nominals))
    mentions.extend(_named_by_head(doc, taken, sentence_of, nominals))
    mentions = _acronym_definitions(doc, mentions, gazetteer, sentence_of)
    countries = _document_countries(mentions, gazetteer)
    mentions = [_geonames(_retype_by_context(doc, m, gazetteer, nominals), countries) for m in mentions]
    mentions.extend(_people_groups(doc, gazetteer, nominals, {i for m in mentions for i in range(m.start, m.end)},
                                   sentence_of))
    return sorted(mentions, key=lambda m: m.start)


_FUNCTION_WORDS = {"of", "the", "for", "and", "in", "de", "du", "des", "la", "le", "al", "el", "on", "to", "'s", "\u2019s"}


def _place_names(doc, taken, sentence_of, nominals) -> list[Mention]:
    """Capitalized names ending in a place word ("Ghardabiya Air Base") that NER left out."""
    found = []
    for token in tokens(doc):
        kind = nominals.place_suffixes.get(token.lower_)
        if kind is None or not token.text[:1].isupper() or token.i in taken or token.is_sent_start:
            continue
        start = token.i
        while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].text[:1].isupper() \
                and start - 1 not in taken and not doc[start - 1].is_sent_start:
            start -= 1
        if start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].is_sent_start:
            start -= 1
        if start == token.i:
            continue
        found.append(_mention(doc, start, token.i + 1, kind, sentence_of))
        taken.update(range(start, token.i + 1))
    return found


_ARTICLE_NAME = re.compile(r"^[a-z]{1,4}-[A-Z]")


def _is_name(text: str) -> bool:
    """Capitalized, or an Arabic article before a capital ("al-Bab", "el-Fasher")."""
    return text[:1].isupper() or bool(_ARTICLE_NAME.match(text))


def _named_by_head(doc, taken, sentence_of, nominals) -> list[Mention]:
    """"the town of Bardhere": a proper noun NER missed, named a place by the noun it belongs to."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.pos_ != "PROPN" or not _is_name(token.text) or token.dep_ != "pobj":
            continue
        if token.head.lower_ != "of" or token.head.head.lemma_.lower() not in nominals.place_heads:
            continue
        start = min([token.i] + [c.i for c in children(token) if c.dep_ == "compound" and c.pos_ == "PROPN"])
        if any(i in taken for i in range(start, token.i + 1)):
            continue
        kind = nominals.place_suffixes.get(token.head.head.lemma_.lower(), "Settlement")
        found.append(_mention(doc, start, token.i + 1, kind, sentence_of))
        taken.update(range(start, token.i + 1))
    return found


def acronym_fits(acronym: str, words: list[str]) -> bool:
    """Whether ``acronym`` spells ``words``: each content word gives it one or more leading letters,
    in order, and function words may give some ("MODEL": MOvement for DEmocracy in Liberia;
    "ARBiH": Army of the Republic of BOsnia and Herzegovina; "MOJWA", "HTS", "PFG")."""
    letters = acronym.lower()
    words = [w.lower() for w in words if w[:1].isalpha()]
    if not words or not words[0][:1] == letters[:1] or words[0] in _FUNCTION_WORDS:
        return False

    @cache
    def fits(i: int, j: int) -> bool:
        if j == len(words):
            return i == len(letters)
        word, optional = words[j], words[j] in _FUNCTION_WORDS
        if optional and fits(i, j + 1):
            return True
        k = 1
        while i + k <= len(letters) and k <= len(word) and letters[i:i + k] == word[:k]:
            if fits(i + k, j + 1):
                return True
            k += 1
        return False

    return fits(0, 0)


def _acronym_definitions(doc, mentions: list[Mention], gazetteer: Gazetteer, sentence_of) -> list[Mention]:
    """"Movement for Oneness and Jihad in West Africa (MOJWA)": one mention for the whole name,
    found as the words before the parenthesis that the acronym spells (see :func:`acronym_fits`;
    else the name just before it), and a mention of every later use of the acronym."""
    defined: dict[str, Mention] = {}
    out = list(mentions)
    for open_ in (t for t in tokens(doc) if t.text == "("):
        i = open_.i
        if i + 2 >= len(doc) or doc[i + 2].text != ")":
            continue
        acronym = doc[i + 1].text
        if sum(c.isupper() for c in acronym) < 2 or not acronym[:1].isupper() or not acronym.isalpha():
            continue
        end = i
        while end > 0 and doc[end - 1].text in ("'s", "\u2019s", "'", "\u2019"):
            end -= 1
        full = None
        for start in range(end - 1, max(end - 12, -1), -1):
            words = [w for t in doc[start:end] for w in t.text.replace("-", " ").split()]
            if doc[start].lower_ in _FUNCTION_WORDS or not doc[start].text[:1].isupper():
                continue
            if acronym_fits(acronym, words):
                full = (start, end)
                break
        if full is None:
            before = next((m for m in mentions if m.end == end and m.kind == "name"), None)
            if before is None or before.type == "Person":
                continue
            name = before
        else:
            start, end = full
            text = span_text(doc[start:end])
            entry = gazetteer.lookup(text) or gazetteer.lookup(acronym)
            inner = [m for m in out if m.start >= start and m.end <= end]
            if entry is not None:
                name = _mention(doc, start, end, entry.type, sentence_of, gazetteer_id=entry.id)
            elif len(inner) == 1 and inner[0].start == start and inner[0].end == end:
                name = inner[0]
            else:
                name = _mention(doc, start, end, org_type(text), sentence_of)
            out = [m for m in out if m.end <= start or m.start >= end or m is name]
            if name not in out:
                out.append(name)
        defined[acronym] = name
        # the acronym inside the parentheses
        out = [m for m in out if not (m.start == i + 1)]
        out.append(_acronym_use(doc, i + 1, name, sentence_of))
    if not defined:
        return out
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
    m = _mention(doc, i, i + 1, name.type, sentence_of, gazetteer_id=name.gazetteer_id)
    return replace(m, kind="acronym", key=name.key or name.gazetteer_id or key_for_name(name.text))


def org_type(text: str) -> str:
    """Type of an organization's name from its head word: "Movement for Oneness ..." -> ArmedGroup."""
    words = text.replace("-", " ").split()
    cut = next((n for n, w in enumerate(words) if w.lower() in ("of", "for", "in") and n > 0), len(words))
    head = words[cut - 1].lower()
    if head == "republic":
        return "Country"
    return _ORG_HEADS.get(head, "Organization")


def _document_countries(mentions: list[Mention], gazetteer: Gazetteer) -> set[str]:
    """ISO codes of the countries a document names, itself or through their places and armies."""
    isos = set()
    for entry in {gazetteer.entries[m.gazetteer_id] for m in mentions if m.gazetteer_id}:
        country = entry if entry.type == "Country" else gazetteer.entries.get(entry.country or "")
        place = place_of_entry(country, gazetteer) if country is not None else None
        if place is not None:
            isos.add(place.country)
    return isos


def _geonames(m: Mention, countries: set[str] = frozenset()) -> Mention:
    """A place the gazetteer does not know, keyed by the GeoNames town of that name if there is
    one: in a country the document names, if it names any ("Léré" in a story about Mali is not
    the Léré of Chad)."""
    if m.gazetteer_id or m.kind != "name" or m.type != "Settlement":
        return m
    places = load_places()
    place = next((p for p in (places.town(m.text, iso) for iso in sorted(countries)) if p), None) \
        if countries else places.town(m.text)
    if place is None:
        return m
    return replace(m, key=place.key, geonames_id=place.geonames_id)


def _retype_by_context(doc, m: Mention, gazetteer: Gazetteer, nominals: Nominals) -> Mention:
    """A name NER took for a person or organization that the sentence shows is a place:
    "the town of Douentza", "the towns of Bin Jawad and Noufiliyah", "Gobanale, Somalia",
    "the Yemeni capital Sana'a", "the Gul Tepa district"."""
    if m.gazetteer_id or m.kind != "name" or m.type in ("Settlement", "Region", "Country"):
        return m
    head = doc[m.end - 1]
    ids = gazetteer_ids(doc)
    place = None
    t = head
    while t.dep_ == "conj" and t.head is not t:
        t = t.head
    if t.dep_ == "pobj" and t.head.lower_ == "of" and t.head.head.lemma_.lower() in nominals.place_heads:
        place = t.head.head.lemma_.lower()
    elif t.dep_ == "appos" and t.head.lemma_.lower() in nominals.place_heads:
        place = t.head.lemma_.lower()
    elif t.dep_ in ("compound", "nmod") and t.head.lemma_.lower() in nominals.place_heads and t.head.i == m.end:
        place = t.head.lemma_.lower()
    elif any(c.dep_ == "appos" and c.lemma_.lower() in nominals.place_heads for c in children(head)):
        place = "town"
    elif m.end + 1 < len(doc) and doc[m.end].text == "," and m.end + 1 in ids and \
            gazetteer.entries[ids[m.end + 1]].type == "Country" and (m.type != "Person" or len(m.text.split()) == 1):
        place = "town"  # "Gobanale, Somalia"
    elif m.type in ("Person", "Organization") and _locative(t) and load_places().town(m.text) is not None:
        place = "town"  # "Rebels entered Bin Jawad": a known town where a place is expected
    if place is None:
        return m
    return replace(m, type=nominals.place_suffixes.get(place, "Settlement"))


LOCATIVE_PREPOSITIONS = {"in", "into", "near", "from", "to", "outside", "around", "at", "toward", "towards",
                         "inside", "across", "through"}
PLACE_VERBS = {"enter", "reach", "seize", "capture", "take", "overrun", "storm", "besiege", "shell", "bomb",
               "recapture", "retake", "liberate", "encircle", "surround", "leave", "flee", "evacuate", "occupy"}


def _locative(token) -> bool:
    """The token sits where a place goes: the object of "in", "near", "entered", "seized"..."""
    if token.dep_ == "pobj" and token.head.lower_ in LOCATIVE_PREPOSITIONS:
        return True
    return token.dep_ in ("dobj", "nsubjpass") and token.head.lemma_.lower() in PLACE_VERBS


def _trim(ent) -> tuple[int, int]:
    """Drop a leading "the" and a trailing possessive from an NER span."""
    start, end = ent.start, ent.end
    doc = ent.doc
    while start < end and doc[start].lower_ in ("the", "a", "an"):
        start += 1
    while end > start and (doc[end - 1].tag_ == "POS" or doc[end - 1].text in ("'s", "\u2019s", "'", "\u2019")):
        end -= 1
    paren = next((t.i for t in doc[start:end] if t.text in ("(", ")")), None)
    if paren is not None:  # "National Movement for the Liberation of Azawad (MNLA"
        end = paren
    return start, end


def _people_groups(doc, gazetteer, nominals, taken, sentence_of) -> list[Mention]:
    """"nine Lebanese soldiers" -> a PersonGroup "Lebanese soldiers", keyed by nationality and noun."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.pos_ != "NOUN" or token.lemma_.lower() not in nominals.people_nouns:
            continue
        if token.tag_ not in ("NNS", "NNPS"):
            continue
        modifiers = [c for c in children(token) if c.dep_ in ("amod", "compound") and c.i < token.i]
        demonym = next((c for c in modifiers if gazetteer.country_of_demonym(c.text)), None)
        if demonym is None or any(c.i in gazetteer_ids(doc) for c in modifiers):
            continue
        label = f"{demonym.text} {token.text}"
        found.append(Mention(
            start=demonym.i, end=token.i + 1, start_char=demonym.idx, end_char=token.idx + len(token.text),
            text=label, type="PersonGroup", kind="group", key=f"group-{slug(label)}",
            sentence=sentence_of[token.i],
        ))
    return found


def _mention(doc, start, end, type_, sentence_of, gazetteer_id=None) -> Mention:
    span = doc[start:end]
    return Mention(
        start=start, end=end, start_char=span.start_char, end_char=span.end_char, text=span_text(span),
        type=type_, kind="name", gazetteer_id=gazetteer_id, sentence=sentence_of[start],
    )
