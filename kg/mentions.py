"""spaCy Doc -> Mentions: gazetteer names, NER names not in the gazetteer, and groups of people.

Every mention is typed with an ontology class. NORP (nationalities) and numbers are not
entities; a nationality only matters as a modifier ("a Lebanese group", "Lebanese soldiers").
"""

from __future__ import annotations

import re

from .gazetteer import Gazetteer, Nominals, load_gazetteer, load_nominals, name_key, slug
from .model import Mention

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
    """Ontology class for an NER span not in the gazetteer, refined by its last word for ORGs."""
    base = NER_TYPES.get(label)
    if base == "Organization":
        return _ORG_HEADS.get(text.split()[-1].lower(), base)
    return base


def find_mentions(doc, gazetteer: Gazetteer | None = None, nominals: Nominals | None = None) -> list[Mention]:
    """All name and people-group mentions of ``doc``, in text order, keys left for resolve."""
    gazetteer = gazetteer or load_gazetteer()
    nominals = nominals or load_nominals()
    sentence_of = _sentence_index(doc)
    mentions: list[Mention] = []
    taken: set[int] = set()
    for token in doc:
        entry_id = token._.kg_id
        if entry_id:
            entry = gazetteer.entries[entry_id]
            mentions.append(_mention(doc, token.i, token.i + 1, entry.type, sentence_of, gazetteer_id=entry_id))
            taken.add(token.i)
    for ent in doc.ents:
        if any(t.i in taken for t in ent) or ent.label_ not in NER_TYPES:
            continue
        start, end = _trim(ent)
        if start >= end:
            continue
        text = doc[start:end].text
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
    mentions.extend(_people_groups(doc, gazetteer, nominals, taken, sentence_of))
    return sorted(mentions, key=lambda m: m.start)


def _trim(ent) -> tuple[int, int]:
    """Drop a leading "the" and a trailing possessive from an NER span."""
    start, end = ent.start, ent.end
    doc = ent.doc
    while start < end and doc[start].lower_ in ("the", "a", "an"):
        start += 1
    while end > start and (doc[end - 1].tag_ == "POS" or doc[end - 1].text in ("'s", "\u2019s", "'", "\u2019")):
        end -= 1
    return start, end


def _people_groups(doc, gazetteer, nominals, taken, sentence_of) -> list[Mention]:
    """"nine Lebanese soldiers" -> a PersonGroup "Lebanese soldiers", keyed by nationality and noun."""
    found = []
    for token in doc:
        if token.i in taken or token.pos_ != "NOUN" or token.lemma_.lower() not in nominals.people_nouns:
            continue
        if token.tag_ not in ("NNS", "NNPS"):
            continue
        modifiers = [c for c in token.children if c.dep_ in ("amod", "compound") and c.i < token.i]
        demonym = next((c for c in modifiers if gazetteer.country_of_demonym(c.text)), None)
        if demonym is None or any(c._.kg_id for c in modifiers):
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
        start=start, end=end, start_char=span.start_char, end_char=span.end_char, text=span.text,
        type=type_, kind="name", gazetteer_id=gazetteer_id, sentence=sentence_of[start],
    )


def _sentence_index(doc) -> list[int]:
    index = [0] * len(doc)
    for number, sent in enumerate(doc.sents):
        for i in range(sent.start, sent.end):
            index[i] = number
    return index
