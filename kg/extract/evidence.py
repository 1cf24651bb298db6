"""Names NER missed, and classes, from what the text says around a name: a word only places
follow ("near X"), a list of places, the word for a kind of unit, a nationality with the word for a
state's forces. Each function is one kind of evidence; docs/entities.md lists them and
bench/entities.py measures what each adds."""

from __future__ import annotations

from dataclasses import replace

from .namekeys import match_key
from ..ontology import is_a
from ..records import Mention
from .docindex import children, mention, span_text, tokens
from .gazetteer import Gazetteer
from .geonames import Places
from .namehood import is_name, not_a_name
from .parse import first_conjunct
from .types import org_type
from .words import Words


def placed_by_preposition(doc, taken, sentence_of, words: Words, places: Places) -> list[Mention]:
    """"Near Al Huwayjah, one strike ...", "fighting outside Tawila", "10 km north of Kutum": a
    capitalized name NER missed after a word that only places take ("near", "outside", "around", a
    compass point with "of"), or where a place goes ("retook X", "fled to X") when it is the own
    name of a town GeoNames knows. Typed a town where GeoNames knows one of that name, a country where
    it is one, else only a place (kg:Location): the words say where, not what kind."""
    found = []
    for token in tokens(doc):
        before = doc[token.i - 1] if token.i > 0 else None
        if token.i in taken or not token.text[:1].isupper() or token.pos_ != "PROPN" or before is None:
            continue
        placed = before.lower_ in words.near_prepositions or (
            before.lower_ == "of" and token.i > 1 and doc[token.i - 2].lower_ in words.compass)
        end = token.i
        while end < len(doc) and end not in taken and doc[end].pos_ == "PROPN" and (
                doc[end].text[:1].isupper() or doc[end].lower_ in words.name_particles):
            end += 1
        text = span_text(doc[token.i:end])
        if not placed and locative(doc[end - 1], words) and places.own.get(match_key(text)):
            placed = True  # "the army retook Bayji", "fled to Kutum": where a place goes, a town's own name
        if not placed or not_a_name(text, words) or end - token.i > 4 or doc[end - 1].ent_type_ in ("DATE", "TIME"):
            continue
        found.append(mention(doc, token.i, end, place_type(text, places), sentence_of))
        taken.update(range(token.i, end))
    return found


def organization_names(doc, taken, sentence_of, words, places: frozenset[int] = frozenset()) -> list[Mention]:
    """"Naval Forces Central Command", "Rapid Support Forces": two or more capitalized words NER
    missed, up to the last that is the word for a kind of organization or unit, typed by it; a
    place of ``places`` (the tokens of one-word place names) may open the name ("the Texas
    Department of Agriculture"), whose mention it then no longer is."""
    heads = (words.organization_heads.keys() - {"republic"}) | words.unit_nouns

    def word(i: int) -> bool:
        return i < len(doc) and i not in taken and doc[i].pos_ == "PROPN" and doc[i].text[:1].isupper()

    def goes_on(k: int) -> bool:  # "Department | of Agriculture", "Center | for Strategic Studies"
        return k + 2 < len(doc) and doc[k + 1].lower_ in ("of", "for") and word(k + 2)
    found, i = [], 0
    while i < len(doc):
        if not word(i) or (i > 0 and word(i - 1)):
            i += 1
            continue
        end = i
        while word(end):
            end += 1
        last = max((k for k in range(i, end) if doc[k].lower_ in heads), default=None)
        start = i + 1 if doc[i].is_sent_start and last is not None and last - i > 1 and \
            doc[i].lower_ in words.name_prepositions else i
        if last is not None and start == i and i - 1 in places and (last > i or goes_on(last)):
            start = i - 1  # the place opening the name
            while goes_on(last):
                last += 2
                while word(last + 1):
                    last += 1
        if last is not None and 1 <= last - start <= 8:
            text = span_text(doc[start:last + 1])
            if not not_a_name(text, words):
                found.append(mention(doc, start, last + 1, org_type(text, words), sentence_of))
                taken.update(range(start, last + 1))
        i = max(end, last + 1) if last is not None else end
    return found


def listed_names(doc, mentions: list[Mention], taken, sentence_of, words) -> list[Mention]:
    """"the villages of Tawila, Kabkabiya and Saraf Omra": a capitalized name NER missed among
    the conjuncts of a list of places is a place of the same kind as the list's other names."""
    places = {doc[m.end - 1].i: m for m in mentions if m.kind == "name" and is_a(m.type, "Location")}
    found = []
    for token in tokens(doc):
        if token.i in taken or token.dep_ != "conj" or token.pos_ != "PROPN" or not is_name(token.text):
            continue
        head = token.head
        while head.dep_ == "conj" and head.i not in places:
            head = head.head
        listed = places.get(head.i)
        if listed is None:
            continue
        start = min([token.i] + [c.i for c in children(token) if c.dep_ == "compound" and c.pos_ == "PROPN"])
        text = span_text(doc[start:token.i + 1])
        if any(i in taken for i in range(start, token.i + 1)) or not_a_name(text, words):
            continue
        found.append(mention(doc, start, token.i + 1, listed.type, sentence_of))
        taken.update(range(start, token.i + 1))
    return found


def typed_by_list(doc, mentions: list[Mention]) -> list[Mention]:
    """"Mosul, Tikrit and Shirqat" with "Shirqat" tagged a person: a name NER typed a person or an
    organization, listed with at least two places and no person or organization, is a place."""
    by_head = {m.end - 1: m for m in mentions if m.kind == "name"}

    groups: dict[int, list[Mention]] = {}
    for i, m in by_head.items():
        token = doc[i]
        if token.dep_ == "conj" or any(c.dep_ == "conj" for c in children(token)):
            groups.setdefault(first_conjunct(token).i, []).append(m)
    out = []
    for m in mentions:
        listed = groups.get(first_conjunct(doc[m.end - 1]).i, []) if m.kind == "name" else []
        places = [o.type for o in listed if o is not m and is_a(o.type, "Location")]
        agents = [o for o in listed if o is not m and (o.type == "Person" or is_a(o.type, "Organization"))]
        if m.type in ("Person", "Organization") and not m.gazetteer_id and len(places) >= 2 and not agents:
            m = replace(m, type=max(places, key=places.count))  # a tie: the first listed
        out.append(m)
    return out


def place_type(text: str, places: Places) -> str:
    """A place's class from its name alone: a country or town GeoNames knows, else kg:Location."""
    return "Country" if places.country(text) else "Settlement" if places.town(text) else "Location"


def national_institutions(doc, taken, sentence_of, gazetteer: Gazetteer, words: Words) -> list[Mention]:
    """"the Croatian special police", "Iraqi government troops", "the Syrian interim government":
    a nationality and the word for a state's forces, government or police, with words between
    that only say which part, are that country's institution (the gazetteer derives them)."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.pos_ != "NOUN":
            continue
        demonym = next((c for c in children(token) if c.dep_ in ("amod", "compound") and c.i < token.i - 1
                        and gazetteer.country_of_demonym(c.text)), None)
        key = gazetteer.institution(gazetteer.country_of_demonym(demonym.text), words, token.lemma_.lower(),
                                    token.lower_) if demonym is not None else None
        if key is None:
            continue
        between = doc[demonym.i + 1:token.i]
        if any(t.i in taken or t.pos_ not in ("ADJ", "NOUN") or t.head.i != token.i
               or t.lower_ in words.opposition_words for t in between):
            continue  # "Syrian opposition forces", "the Syrian interim government": not the state's
        found.append(mention(doc, demonym.i, token.i + 1, gazetteer.entries[key].type, sentence_of, gazetteer_id=key))
        taken.update(range(demonym.i, token.i + 1))
    return found


def locative(token, words: Words) -> bool:
    """The token sits where a place goes: the object of "in", "near", "entered", "seized"..."""
    if token.dep_ == "pobj" and token.head.lower_ in words.locative_prepositions:
        return True
    return token.dep_ in ("dobj", "nsubjpass") and token.head.lemma_.lower() in words.place_verbs
