"""spaCy Doc -> Mentions: gazetteer names, NER names not in the gazetteer, and groups of people.

Every mention is typed with an ontology class. NORP (nationalities) and numbers are not
entities; a nationality only matters as a modifier ("a Lebanese group", "Lebanese soldiers").
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .namekeys import iri_key, match_key
from ..ontology import is_a, superclasses
from ..records import Mention
from .acronyms import acronym_definitions, foreign_acronyms
from .docindex import (
    CITATION_MARK,
    QUOTES,
    children,
    gazetteer_ids,
    mention,
    sentence_numbers,
    span_text,
    tokens,
)
from .evidence import (
    listed_names,
    locative,
    national_institutions,
    organization_names,
    place_type,
    placed_by_preposition,
    typed_by_list,
)
from .gazetteer import Gazetteer
from .geonames import Places, place_of_entry
from .namehood import capitals, is_name, not_a_name, title_office
from .parse import first_conjunct
from .sourcelines import dateline_towns, heads_dateline, source_line_names
from .types import NER_TYPES, ner_type
from .words import Words

if TYPE_CHECKING:
    from .resources import Resources

_CITATION = re.compile(CITATION_MARK)


def find_mentions(doc, resources: Resources) -> list[Mention]:
    """All name and people-group mentions of ``doc``, in text order, keys left for resolve: by the
    gazetteer, the word lists and the GeoNames places of ``resources``."""
    gazetteer, words, places = resources.gazetteer, resources.words, resources.places
    sentence_of = sentence_numbers(doc)
    mentions: list[Mention] = []
    taken: set[int] = set()
    ids = gazetteer_ids(doc)
    for i, entry_id in sorted(ids.items()):
        if i in taken:  # the suffix of a branch's name ("DRC" of "ISIS-DRC")
            continue
        entry_id = _people_of(doc[i], entry_id, gazetteer) or entry_id  # "Americans": the people
        entry = gazetteer.entries[entry_id]
        if entry.type == "InternationalOrganization" and i > 0 and i - 1 not in ids \
                and doc[i - 1].head.i == i and doc[i - 1].text[:1].isupper() \
                and gazetteer.country_of_demonym(doc[i - 1].text):
            # "the Kenyan Red Cross": a country's own body of an international movement, not the
            # international body ("the Iraqi UN ambassador": the nationality is the ambassador's)
            mentions.append(mention(doc, i - 1, i + 1, "Organization", sentence_of))
            taken.update(range(i - 1, i + 1))
            continue
        start = i - 1 if i > 0 and i - 1 not in ids and doc[i - 1].pos_ == "PROPN" and doc[i - 1].text[:1].isupper() \
            and doc[i - 1].lower_ in words.name_particles else i  # "Ar Raqqah": the article is the name's
        if _branch_suffix(doc, i, ids, gazetteer):  # "ISIS-WA": a branch of the group, a group of its own
            mentions.append(mention(doc, start, i + 3, entry.type, sentence_of))
            taken.update(range(start, i + 3))
            continue
        mentions.append(mention(doc, start, i + 1, entry.type, sentence_of, gazetteer_id=entry_id))
        taken.update(range(start, i + 1))
    mentions = source_line_names(doc, mentions, taken, sentence_of, gazetteer, places, words)
    mentions = _named_after_places(doc, mentions, taken, sentence_of, gazetteer, words)
    for ent in _ner_spans(doc, words):
        if any(t.i in taken for t in ent) or ent.label_ not in NER_TYPES:
            continue
        start, end = _trim(ent, words)
        after_preposition = doc[start - 1].lower_ in words.near_prepositions if start > ent.start else False
        if ent.label_ != "PERSON" and end < len(doc) and (doc[end].lower_ in words.person_titles
                                                          or doc[end].ent_type_ == "PERSON"):
            # "British Defence | Secretary Michael Fallon", "UN envoy | Staffan de Mistura": the
            # office before a person's name is the title's, not a name
            while end > start and doc[end - 1].lower_ in words.person_titles:
                end -= 1
            if end > start and (gazetteer.country_of_demonym(span_text(doc[start:end])) or (
                    gazetteer.country_of_demonym(doc[start].text)
                    and span_text(doc[start + 1 : end]).lower() in words.person_titles)):
                continue  # the nationality alone ("Israeli National Security | Advisor"), which the title stage reads
        if start >= end or title_office(doc, start, end, words):
            continue
        if end < len(doc) and doc[end].text[:1].isupper() and doc[end].lower_ in words.place_suffixes \
                and end not in taken:
            end += 1  # "Mopti Region", "Al Jufra Airbase"
        if end < len(doc) and doc[end - 1].lower_ in words.unit_nouns and doc[end].text[:1].isupper() \
                and (doc[end].like_num or doc[end].pos_ == "NUM") and end not in taken:
            end += 1  # "Explosive Ordnance Disposal Mobile Unit Two", "Carrier Strike Group Eight"
        # named after the place before it, which NER kept apart: "Mosul | International Airport",
        # "the Ohio | Department of Health" (an agency after its region)
        if start > 0 and ((doc[start - 1].ent_type_ == "GPE" and doc[start - 1].pos_ == "PROPN" and
                           doc[end - 1].lower_ in words.place_suffixes and doc[end - 1].text[:1].isupper()) or (
                start == ent.start and ent.label_ == "ORG" and start - 1 in ids and
                gazetteer.entries[ids[start - 1]].type == "Region" and
                any(t.lower_ in words.organization_heads for t in doc[start:end]))):
            start -= 1
            mentions = [m for m in mentions if m.start != start]
        if end + 1 < len(doc) and doc[end].lower_ == "of" and \
                {w.lower() for w in span_text(doc[start:end]).split()} <= words.state_forms:
            end += 1  # "the Hashemite Kingdom" | "of Jordan": the state's long name
        if end < len(doc) and doc[end - 1].lower_ in words.function_words and end - start > 1:
            governed = _government_of(doc, start, end, gazetteer, words)  # "the Federal Government of Somalia"
            if governed is not None:
                mentions = [m for m in mentions if m.start != end]  # the country alone
                mentions.append(mention(doc, start, end + 1, gazetteer.entries[governed].type, sentence_of,
                                        gazetteer_id=governed))
                taken.update(range(start, end + 1))
                continue
            while end > start and doc[end - 1].lower_ in words.function_words:
                end -= 1  # "Governments of", "Ministry of the"
        while end > start and _CITATION.match(doc[end - 1].text):
            end -= 1  # "Mullaitivu[12]": a reference mark NER took into the name
        text = span_text(doc[start:end])
        if not_a_name(text, words):
            continue
        entry = gazetteer.lookup(text)
        if entry:
            mentions.append(mention(doc, start, end, entry.type, sentence_of, gazetteer_id=entry.id))
        else:
            type_ = ent.ent_id_ if ent.ent_id_ in superclasses() else ner_type(ent.label_, text, words)
            if after_preposition and type_ in ("Person", "Organization"):
                type_ = place_type(text, places)  # "Near Dayr Az Zayr" tagged as one person's name
            if match_key(text) in gazetteer.demonyms:
                continue  # "French" alone: a nationality, a modifier ("the French" is read as France below)
            if _names_a_people(doc, start, end, words) and (
                    type_ == "Person" or doc[end].lemma_.lower() in words.nation_nouns and not is_a(type_, "Location") or (
                    type_ in ("Settlement", "Region") and not places.town(text) and not places.country(text)
                    and doc[end].lemma_.lower() in words.armed_people_nouns)):
                # "Zaydi" of "Zaydi fighters", "Tuareg" of "Tuareg rebels", "Yazidi" of "the Yazidi
                # people" or "Yazidi civilians": a faith or a people, read as a group below (a place
                # stays one: "Tawila residents")
                continue
            mentions.append(mention(doc, start, end, type_, sentence_of))
        taken.update(range(start, end))
    place_names = _place_names(doc, taken, sentence_of, words)
    mentions = [m for m in mentions
                if not any(p.start <= m.start and m.end <= p.end for p in place_names)] + place_names
    mentions.extend(_generic_names(doc, taken, sentence_of, words))
    mentions.extend(_named_by_head(doc, taken, sentence_of, words))
    mentions.extend(placed_by_preposition(doc, taken, sentence_of, words, places))
    mentions.extend(dateline_towns(doc, taken, sentence_of, ids, gazetteer, words))
    mentions.extend(_named_before_region_word(doc, taken, sentence_of, words, gazetteer))
    # a region opening an organization's name ("the Texas Department of Agriculture"); a country so
    # placed names its own institution ("Jordan Armed Forces", below), a town is the seat of one
    regions = frozenset(m.start for m in mentions if m.end - m.start == 1 and m.gazetteer_id and m.type == "Region")
    named = organization_names(doc, taken, sentence_of, words, regions)
    mentions = [m for m in mentions if not any(o.start <= m.start and m.end <= o.end for o in named)] + named
    mentions.extend(_nations(doc, taken, sentence_of, gazetteer))
    mentions.extend(_peoples(doc, taken, sentence_of, gazetteer, words))
    mentions.extend(national_institutions(doc, taken, sentence_of, gazetteer, words))
    mentions.extend(listed_names(doc, mentions, taken, sentence_of, words))
    mentions = typed_by_list(doc, mentions)
    mentions = _whole_person_names(doc, mentions, sentence_of)
    mentions = _nicknamed_persons(doc, mentions, gazetteer, sentence_of)
    mentions = [_country_institution(doc, m, gazetteer, words, sentence_of) for m in mentions]
    mentions = [_government_named_by_person(m, gazetteer, words) for m in mentions]
    mentions = acronym_definitions(doc, mentions, gazetteer, words, sentence_of)
    countries = _document_countries(mentions, gazetteer)
    mentions = [_geonames(_retype_by_context(doc, m, gazetteer, words, places), places, countries,
                          _speaks(doc[m.end - 1], words)) for m in mentions]
    mentions = foreign_acronyms(mentions, gazetteer)
    mentions.extend(_people_groups(doc, gazetteer, words, {i for m in mentions for i in range(m.start, m.end)},
                                   sentence_of))
    return sorted(mentions, key=lambda m: m.start)


NAME_SUFFIXES = {"jr", "jr.", "sr", "sr.", "inc", "inc.", "ltd", "ltd.", "llc", "co", "co.", "corp", "corp.", "d.c."}


def _ner_spans(doc, words: Words):
    """The NER spans, a list NER took as one name cut at its commas ("the towns of Kadugli,
    Dilling and Habila" gives "Kadugli, Dilling" as one span): every part a capitalized name,
    but not a name's suffix ("Martin Luther King, Jr.", "Washington, D.C."); a name's Arabic
    article NER gave to the span before joined to it ("Near Ar" | "Raqqah": "Ar Raqqah")."""
    from spacy.tokens import Span

    ents = list(doc.ents)
    for n in range(len(ents) - 1, 0, -1):  # "Near Ar" | "Raqqah": a name's article NER gave the word before
        a, b = ents[n - 1], ents[n]
        if a.end == b.start and a[-1].lower_ in words.name_particles and a[-1].text[:1].isupper():
            ents[n - 1:n + 1] = [Span(doc, a.start, b.end, label=b.label_)]
    for ent in ents:
        commas = [t.i for t in ent if t.text == ","]
        parts, start = [], ent.start
        for c in commas + [ent.end]:
            parts.append((start, c))
            start = c + 1
        if not commas or any(b <= a or not doc[a].text[:1].isupper() or doc[a:b].text.lower() in NAME_SUFFIXES
                             for a, b in parts):
            yield ent
            continue
        for a, b in parts:
            yield Span(doc, a, b, label=ent.label_)


def _generic_names(doc, taken, sentence_of, words) -> list[Mention]:
    """A capitalized generic organization word used as a name ("Coalition aircraft"), or one in
    lower case right before its forces with no word of its own ("Afghan and coalition forces
    killed ...", "coalition aircraft"; not "the rebel coalition's fighters"): kind "generic", keyed
    in :mod:`kg.extract.resolve` to the organization the document names with it."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.lower_ not in words.generic_organizations:
            continue
        if not token.text[:1].isupper() and not (
                token.dep_ == "compound" and token.head.i == token.i + 1 and not children(token)
                and token.head.lemma_.lower() in words.members
                and all(c.text[:1].isupper() for c in children(token.head)  # "Afghan and coalition forces"
                        if c.i < token.i and c.dep_ in ("amod", "compound", "nmod"))):
            continue
        type_ = next(iter(words.descriptions.get(token.lower_, ("Organization",))))
        found.append(replace(mention(doc, token.i, token.i + 1, type_, sentence_of), kind="generic"))
        taken.add(token.i)
    return found


def _place_names(doc, taken, sentence_of, words) -> list[Mention]:
    """Capitalized names ending in a place word ("Ghardabiya Air Base") that NER left out, with the
    town they are named after ("Mosul International Airport", of which NER saw only "Mosul")."""
    found = []
    for token in tokens(doc):
        kind = words.place_suffixes.get(token.lower_)
        if kind is None or not token.text[:1].isupper() or token.i in taken or token.is_sent_start:
            continue
        start = token.i
        while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].text[:1].isupper() \
                and (start - 1 not in taken or doc[start - 1].ent_type_ == "GPE") and not doc[start - 1].is_sent_start:
            start -= 1
        if start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].is_sent_start:
            start -= 1
        if start == token.i:
            continue
        found.append(mention(doc, start, token.i + 1, kind, sentence_of))
        taken.update(range(start, token.i + 1))
    return found


def _named_before_region_word(doc, taken, sentence_of, words, gazetteer: Gazetteer) -> list[Mention]:
    """"the Ituri region", "the Amhara region": a proper noun NER missed or read as a people's
    (NORP) right before a lowercase word for a region is the region's name. A nationality is not
    ("the Somali region" is Somalia's, read by the relation stage)."""
    found = []
    for token in tokens(doc):
        head = token.head
        if token.i in taken or token.pos_ != "PROPN" or token.dep_ != "compound" or head.i != token.i + 1 \
                or not is_name(token.text) or head.text[:1].isupper() or head.i in taken \
                or words.place_suffixes.get(head.lemma_.lower()) != "Region" or gazetteer.country_of_demonym(token.text):
            continue
        start = token.i
        while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].head.i == head.i and start - 1 not in taken:
            start -= 1
        if start > 0 and (doc[start - 1].is_punct or not doc[start - 1].whitespace_
                          or doc[start - 1].text[:1].isupper() and not doc[start - 1].is_sent_start
                          or any(doc[j].text in ("-", "\u2013") for j in range(max(0, start - 2), start))):
            continue  # a part of a longer name the parser split ("Sar-e Pul province")
        found.append(mention(doc, start, head.i + 1, "Region", sentence_of))  # "the Unity state": its word too
        taken.update(range(start, head.i + 1))
    return found


def _named_by_head(doc, taken, sentence_of, words) -> list[Mention]:
    """"the town of Bardhere", "Al-Bab is a town in ...", "Hajin, a town on the Euphrates": a proper
    noun NER missed, named a place by the noun it belongs to or is said to be."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.pos_ != "PROPN" or not is_name(token.text):
            continue
        nouns = place_nouns(token, words)
        if not nouns:
            continue
        start = min([token.i] + [c.i for c in children(token) if c.dep_ == "compound" and c.pos_ == "PROPN"])
        if any(i in taken for i in range(start, token.i + 1)):
            continue
        kind = words.place_suffixes.get(nouns[0].lemma_.lower(), "Settlement")
        found.append(mention(doc, start, token.i + 1, kind, sentence_of))
        taken.update(range(start, token.i + 1))
    return found


def place_nouns(token, words: Words) -> list:
    """The place nouns that say ``token`` is a place: "the town of X", "X, a town", "X is a town",
    "the X area of Y".
    (The relation stage reads what holds the place from the same nouns.)"""
    heads = words.place_heads
    out = []
    if token.dep_ == "pobj" and token.head.lower_ == "of" and token.head.head.lemma_.lower() in heads:
        out.append(token.head.head)
    out += [c for c in children(token) if c.dep_ == "appos" and c.lemma_.lower() in heads]
    if token.dep_ == "nsubj" and token.head.lemma_.lower() in words.copular_verbs:
        said = [c for c in children(token.head) if c.dep_ == "attr" and c.lemma_.lower() in heads]
        # "Goma is the capital and largest city of North Kivu": each noun of the list
        out += said + [k for c in said for k in c.conjuncts if k.lemma_.lower() in heads and k not in said]
    if token.dep_ == "compound" and token.head.i > token.i and token.head.lemma_.lower() in heads and \
            any(c.dep_ == "prep" and c.lower_ == "of" for c in children(token.head)):
        out.append(token.head)  # "the Jebel Marra area of Darfur", "the Kunduz province of Afghanistan"
    return out


def part_of_city(noun, m: Mention, words: Words) -> bool:
    """Whether ``noun``, right after the name ``m``, with an "of", names a part of the place ``m``
    names ("the Louisville suburb of Okolona"; "the Damascus district of Joubar", where the
    gazetteer knows the city: not "the Nawah district of Ghazni")."""
    word = noun.lemma_.lower()
    return (word in words.settlement_parts or word in words.city_parts and m.type == "Settlement"
            and m.gazetteer_id is not None) and any(c.dep_ == "prep" and c.lower_ == "of" for c in children(noun))


def place_noun_after(doc, m: Mention, words: Words):
    """The place noun right after a name that the name's last word modifies ("the Gul Tepa
    district", "Helmand province"), past one common noun compounded on it ("the Kakuma refugee
    camp"), or None.
    (The relation stage reads where such a noun is "in" as where the name is.)"""
    if m.end >= len(doc):
        return None
    kind = doc[m.end]
    if kind.pos_ == "NOUN" and kind.dep_ == "compound" and m.end + 1 < len(doc) and kind.head.i == m.end + 1:
        kind = doc[m.end + 1]
    if part_of_city(kind, m, words):
        return None  # "the Louisville suburb of Okolona": Louisville is no suburb, Okolona is
    return kind if doc[m.end - 1].head.i == kind.i and kind.lemma_.lower() in words.place_heads else None


def _country_institution(doc, m: Mention, gazetteer: Gazetteer, words: Words, sentence_of) -> Mention:
    """"the U.S. government", "Jordan Armed Forces": a country's name modifying a word for its
    government, its forces or its police is that institution, an entity of its own linked to the
    country (the gazetteer derives them for every country)."""
    entry = gazetteer.entries.get(m.gazetteer_id or "")
    if entry is None or entry.type != "Country" or m.end >= len(doc):
        return m
    end = m.end + 2 if doc[m.end:m.end + 2].text.lower() in words.armed_forces_words else m.end + 1
    noun = doc[end - 1]  # "Jordan Armed Forces": the country's name, then a two-word noun
    if doc[m.end - 1].head.i != noun.i or noun.pos_ not in ("NOUN", "PROPN"):
        return m
    key = gazetteer.institution(entry.id, words, doc[m.end:end].text.lower(), noun.lemma_.lower())
    if key is None:
        return m
    return mention(doc, m.start, end, gazetteer.entries[key].type, sentence_of, gazetteer_id=key)


def _government_named_by_person(m: Mention, gazetteer: Gazetteer, words: Words) -> Mention:
    """"the Asad regime", "the Putin government": the government of the country the person governs
    (as the dictionaries record it), not an organization of its own."""
    *person, last = m.text.split() or [""]
    if m.kind != "name" or m.gazetteer_id or not person or last.lower() not in words.government_words:
        return m
    name = " ".join(person)
    entry = gazetteer.lookup(name)
    key = gazetteer.government_led_by(entry.id if entry is not None and entry.type == "Person" else None,
                                      match_key(name))
    return m if key is None else replace(m, type=gazetteer.entries[key].type, gazetteer_id=key)


def _whole_person_names(doc, mentions: list[Mention], sentence_of) -> list[Mention]:
    """A known person's name the text gives longer is one name: "Abdu Rabbu Mansour Hadi" is
    Abdrabbuh Mansur Hadi, not "Abdu Rabbu" and him (the dictionary matched only its end, or
    its start). Two person names side by side with nothing between them are one person's."""
    by_start = {m.start: m for m in mentions}
    out, skip = [], set()
    for m in sorted(mentions, key=lambda m: m.start):
        if m.start in skip:
            continue
        nxt = by_start.get(m.end)
        if m.type == "Person" and nxt is not None and nxt.type == "Person" and m.kind == nxt.kind == "name" \
                and bool(m.gazetteer_id) != bool(nxt.gazetteer_id) and doc[m.end - 1].whitespace_:
            out.append(mention(doc, m.start, nxt.end, "Person", sentence_of,
                               gazetteer_id=m.gazetteer_id or nxt.gazetteer_id))
            skip.add(nxt.start)
            continue
        out.append(m)
    return out


def _nicknamed_persons(doc, mentions: list[Mention], gazetteer: Gazetteer, sentence_of) -> list[Mention]:
    """'Mohamed Hamdan "Hemedti" Dagalo': one person, named without the nickname in quotes, which
    is another name of theirs (kind "alias"), not a second person or the start of the name alone."""
    out, drop, made = [], set(), set()
    for m in mentions:
        if m.type != "Person" or m.kind != "name" or m.end + 3 >= len(doc) or doc[m.end].text not in QUOTES:
            out.append(m)
            continue
        close = next((i for i in range(m.end + 2, min(m.end + 5, len(doc))) if doc[i].text in QUOTES), None)
        end = close + 1 if close is not None else None
        while end is not None and end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper():
            end += 1
        if close is None or end == close + 1:
            out.append(m)
            continue
        full = f"{m.text} {span_text(doc[close + 1:end])}"
        entry = gazetteer.lookup(full)
        key = entry.id if entry else iri_key(full)
        nickname = doc[m.end + 1:close]
        whole = replace(mention(doc, m.start, end, "Person", sentence_of, gazetteer_id=entry.id if entry else None),
                        text=full, key=key)
        alias = replace(mention(doc, nickname.start, nickname.end, "Person", sentence_of), kind="alias", key=key)
        out += [whole, alias]
        made.update((id(whole), id(alias)))
        drop.update(range(m.end, end))
    return [m for m in out if id(m) in made or not any(i in drop for i in range(m.start, m.end))]


def _named_after_places(doc, mentions: list[Mention], taken: set[int], sentence_of, gazetteer: Gazetteer,
                        words: Words) -> list[Mention]:
    """An institution named after the place that opens its name ("the Argentine Center for
    Macroeconomic Studies", "the District of Columbia Council", "Uppsala University"): the
    gazetteer's place and the capitalized words after it, up to the last, where one of them is an
    institution's head word (``organization_nouns``, ``institution_heads``). NER leaves such a name
    after the gazetteer joined the place into one token. The place is then no name of its own."""
    heads = words.organization_nouns | words.institution_heads
    out = []
    for m in mentions:
        if m.gazetteer_id is None or m.type not in ("Country", "Region", "Settlement") or (
                m.start > 0 and doc[m.start - 1].text[:1].isupper() and doc[m.start - 1].is_alpha
                and doc[m.start].sent.start != m.start):
            out.append(m)  # inside a longer name ("New York Stock Exchange" is the gazetteer's or NER's)
            continue
        j, last, head = m.end, None, False
        while j < len(doc) and j - m.end < 8 and j not in taken and doc[j].sent.start == doc[m.start].sent.start:
            t = doc[j]
            if t.is_alpha and t.text[:1].isupper() and t.pos_ in ("PROPN", "NOUN", "ADJ"):
                head, last, j = head or t.lower_ in heads, j, j + 1
            elif t.lower_ in ("of", "for", "and", "on") and head and j + 1 < len(doc) and doc[j + 1].is_alpha \
                    and doc[j + 1].text[:1].isupper() and j + 1 not in taken:
                j += 1  # "Center for Macroeconomic Studies", "Department of Public Health"
            else:
                break
        if last is None or not (head or m.type != "Country" and doc[last].lower_ in words.armed_forces_words):
            out.append(m)  # "the South Lebanon Army" (a country's army is the gazetteer's: "the Somalia Army")
            continue
        text = span_text(doc[m.start : last + 1])
        entry = gazetteer.lookup(text)
        out.append(mention(doc, m.start, last + 1, entry.type if entry else ner_type("ORG", text, words),
                           sentence_of, gazetteer_id=entry.id if entry else None))
        taken.update(range(m.start, last + 1))
    return out


def _nations(doc, taken, sentence_of, gazetteer: Gazetteer) -> list[Mention]:
    """"especially the Turks", "the French led CTF 50": a nationality as the head of a noun phrase
    with "the" is its country, as the field's coders read it (PETRARCH codes "the Russians" as
    RUS). Without "the", a plural one is the people ("Iraqis unite", "two Americans were
    kidnapped"): the country's people, a PersonGroup (docs/annotation.md). "French" alone is a
    language, not a nation."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.ent_type_ != "NORP" or token.dep_ in ("amod", "compound", "nmod", "npadvmod"):
            continue
        country = gazetteer.country_of_demonym(token.text)
        if country is None and token.text.endswith("s"):
            country = gazetteer.country_of_demonym(token.text[:-1])  # "the Russians", "the Turks"
        if country is None or country not in gazetteer.entries:
            continue
        country = _people_of(token, country, gazetteer) or (country if _the_nation(token) else None)
        if country is None:
            continue
        found.append(mention(doc, token.i, token.i + 1, gazetteer.entries[country].type, sentence_of,
                             gazetteer_id=country))
        taken.add(token.i)
    return found


def _peoples(doc, taken, sentence_of, gazetteer: Gazetteer, words: Words) -> list[Mention]:
    """"the Kurds", "Christians", "Yazidis", "Shia Muslims", "the Bosnian Serbs": a people or a
    faith NER names in the plural, as the head of its phrase, is a PersonGroup keyed by its name
    (with the people, faith or nationality right before it), where it is no state's people
    (:func:`_nations` reads those: "the Russians", "two Americans"), no creed ("Islamists": fighters
    of many sides) and no name kg knows."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.ent_type_ != "NORP" or token.dep_ in ("amod", "compound", "nmod", "npadvmod") \
                or token.tag_ not in ("NNPS", "NNP") or not token.text.endswith("s") or token.is_upper \
                or token.i in gazetteer_ids(doc) or gazetteer.lookup(token.text) \
                or token.text[:-1].lower() in words.ideologies \
                or gazetteer.country_of_demonym(token.text) or gazetteer.country_of_demonym(token.text[:-1]):
            continue
        first = next((c for c in children(token) if c.dep_ in ("compound", "amod") and c.i == token.i - 1
                      and c.text[:1].isupper() and c.i not in taken
                      and (c.ent_type_ == "NORP" or gazetteer.country_of_demonym(c.text))), token)
        found.append(_group(first, token, span_text(doc[first.i:token.i + 1]), "PersonGroup", sentence_of))
        taken.update(range(first.i, token.i + 1))
    return found


def _document_countries(mentions: list[Mention], gazetteer: Gazetteer) -> set[str]:
    """ISO codes of the countries a document names, itself or through their places and armies."""
    isos = set()
    for entry in {gazetteer.entries[m.gazetteer_id] for m in mentions if m.gazetteer_id}:
        country = entry if entry.type == "Country" else gazetteer.entries.get(entry.country or "")
        place = place_of_entry(country, gazetteer) if country is not None else None
        if place is not None:
            isos.add(place.country)
    return isos


def _geonames(m: Mention, places: Places, countries: set[str] = frozenset(), speaker: bool = False) -> Mention:
    """A place the gazetteer does not know: a country GeoNames knows is a Country ("Belgium" is
    never a town); else keyed by the GeoNames town of that name if there is one: in a country the
    document names, if it names any ("Léré" in a story about Mali is not the Léré of Chad). A
    "person" NER found whose name is a town of a country the document names is that town, unless
    the name speaks (``speaker``: the subject of a reporting verb)."""
    if m.gazetteer_id or m.kind != "name":
        return m
    if m.type == "Person" and not speaker and any(places.town(m.text, iso) for iso in sorted(countries)):
        m = replace(m, type="Settlement")  # a town of a country the story is about, not a person
    country = places.country(m.text) if m.type in ("Settlement", "Region", "Organization", "Location") else None
    if country is not None:
        return replace(m, type="Country", key=iri_key(country.name), geonames_id=country.geonames_id)
    if m.type != "Settlement":
        return m
    place = next((p for p in (places.town(m.text, iso) for iso in sorted(countries)) if p), None) \
        if countries else places.town(m.text)
    if place is None:
        return m
    return replace(m, key=place.key, geonames_id=place.geonames_id)


def _speaks(token, words: Words) -> bool:
    """The token is the subject of a reporting verb ("Qasim said"), or has a title before it."""
    titled = token.i > 0 and token.doc[token.i - 1].lower_.rstrip(".") in words.person_titles
    return titled or token.dep_ == "nsubj" and token.head.lemma_.lower() in words.reporting_verbs


def _retype_by_context(doc, m: Mention, gazetteer: Gazetteer, words: Words, places: Places) -> Mention:
    """A name NER took for a person or organization that the sentence shows is a place:
    "the town of Douentza", "the towns of Bin Jawad and Noufiliyah", "Gobanale, Somalia",
    "the Yemeni capital Sana'a", "the Gul Tepa district", "Saraqib lies in Idlib", "Hajin is a town";
    and a town NER named that has a capital is a region ("the capital of South Kordofan")."""
    head = doc[m.end - 1]
    if not m.gazetteer_id and m.kind == "name" and m.type == "Settlement" and head.dep_ == "pobj" and \
            head.head.lower_ == "of" and head.head.head.lemma_.lower() == "capital":
        return replace(m, type="Region")  # "Kadugli, the capital of South Kordofan": a place with a capital is no town
    if m.gazetteer_id or m.kind != "name" or m.type in ("Facility", "Settlement", "Region", "Country"):
        return m
    ids = gazetteer_ids(doc)
    place = None
    t = first_conjunct(head)
    nouns = place_nouns(t, words) or place_nouns(head, words)
    if nouns:  # "the town of Douentza", "Hajin, a town on the Euphrates", "Hajin is a town in"
        place = nouns[0].lemma_.lower()
    elif t.dep_ == "appos" and t.head.lemma_.lower() in words.place_heads:
        place = t.head.lemma_.lower()
    elif t.dep_ in ("compound", "nmod") and (kind := place_noun_after(doc, m, words)) is not None:
        place = kind.lemma_.lower()  # "the Gul Tepa district", "the Bakoro refugee camp"
    elif m.end + 1 < len(doc) and doc[m.end].text == "," and m.end + 1 in ids and \
            (m.type != "Person" or len(m.text.split()) == 1) and (
                gazetteer.entries[ids[m.end + 1]].type == "Country" or (
                    gazetteer.entries[ids[m.end + 1]].type == "Region" and heads_dateline(doc, m, ids, words))):
        place = "town"  # "Gobanale, Somalia"; a dateline: "DAYTON, Ohio", "Lumberton, N.C."
    elif t.dep_ in ("nsubj", "nsubjpass") and t.head.lemma_.lower() in words.location_verbs and \
            any(c.dep_ == "prep" and c.lower_ in ("in", "within") for c in children(t.head)):
        place = "town"  # "Saraqib lies in Idlib Governorate", "X is located in"
    elif m.type in ("Person", "Organization") and locative(t, words) and places.town(m.text) is not None:
        place = "town"  # "Rebels entered Bin Jawad": a known town where a place is expected
    elif m.type == "Person" and t.head.lemma_.lower() in words.place_only_verbs and t.i > t.head.i \
            and t.dep_ in ("dobj", "nsubj", "attr") and t.head.tag_ != "VBN":
        place = "town"  # "GNA forces recaptured Abu Grein" (the small model may parse it a subject)
    elif m.type == "Person" and t.dep_ == "pobj" and t.head.lower_ in words.inside_prepositions \
            and t.head.head.pos_ in ("VERB", "AUX"):
        return replace(m, type="Location")  # "imposing Sharia in Azawad": a place, of no known kind
    if place is None:
        return m
    return replace(m, type=words.place_suffixes.get(place, "Settlement"))


def _trim(ent, words: Words) -> tuple[int, int]:
    """The name inside an NER span: without a leading "the", a capitalized preposition ("Near Ar
    Raqqah"), a person's ranks and offices ("Lt. Gen.", "Navy Capt."), a trailing possessive or
    punctuation, anything from a parenthesis or a reference mark on ("MNLA (", "Abu Haidar [1"), or
    the people a unit's name is said of ("the Men and Women of the 407th AEG")."""
    doc = ent.doc
    start, end = ent.start, ent.end
    cut = next((t.i for t in doc[start:end] if t.text in ("(", ")", "[", "]")), None)
    if cut is not None:
        end = cut
    while start < end and (doc[start].lower_ in ("the", "a", "an") or doc[start].is_punct
                           or (doc[start].lower_ in words.name_prepositions and end - start > 1)):
        start += 1
    of = next((t.i for t in doc[start:end] if t.lower_ == "of"), None)
    if of is not None and of > start and all(t.lower_ == "and" or t.lower_ in words.people_nouns
                                             or t.lower_.removesuffix("s") in words.people_nouns
                                             for t in doc[start:of]):
        start = of + 1  # "The Men and Women of the 407th AEG": people of the unit, not a name
        while start < end and doc[start].lower_ == "the":
            start += 1
    if ent.label_ == "PERSON":
        while end - start > 1 and (doc[start].lower_ in words.person_titles or doc[start].lower_.rstrip(".")
                                   in words.person_titles or doc[start].is_punct):
            start += 1
    while end > start and (doc[end - 1].tag_ == "POS" or doc[end - 1].is_punct
                           or doc[end - 1].text in ("'s", "\u2019s", "'", "\u2019")):
        end -= 1
    return start, end


BRANCH_SUFFIX = 4  # letters of the capitals a group's branch is written with after its name ("ISIS-WA")


def _branch_suffix(doc, i: int, ids: dict, gazetteer: Gazetteer) -> bool:
    """Whether the gazetteer's organization at ``i`` goes on, without spaces, with a hyphen and a
    few capitals that name no organization: a branch of it ("ISIS-WA", "IS-CAP", "ISIS-DRC"), not
    it; two organizations so joined are two ("Hamas-PIJ talks"), and a place or a country is not
    an organization's branch ("the Russia-NATO council")."""
    entry = gazetteer.entries[ids[i]]
    if i + 2 >= len(doc) or doc[i].whitespace_ or doc[i + 1].text != "-" or doc[i + 1].whitespace_ \
            or is_a(entry.type, "Location") or entry.type == "Person":
        return False
    suffix = doc[i + 2]
    if not capitals(suffix.text) or len(suffix.text) > BRANCH_SUFFIX:
        return False
    other = gazetteer.entries.get(ids[i + 2]) if i + 2 in ids else None
    return other is None or is_a(other.type, "Location")


def _people_of(token, country: str, gazetteer: Gazetteer) -> str | None:
    """The people of ``country`` (its derived PersonGroup entry) where ``token`` names them by the
    plural of its demonym without "the" before it ("Iraqis unite", "two Americans", "the two
    Syrians"); None otherwise ("the Russians" are the country, as the coders read them)."""
    people = f"{country}-people"
    if people not in gazetteer.entries or not token.text.endswith("s") or token.is_upper \
            or gazetteer.country_of_demonym(token.text[:-1]) != country \
            or token.text == gazetteer.entries[country].label or _the_nation(token):  # "Philippines": a name
        return None
    return people


def _the_nation(token) -> bool:
    """"the Russians": "the" right before a nationality and no number ("the two Syrians" are people)."""
    kids = children(token)
    return any(c.dep_ == "det" and c.lower_ == "the" and c.i == token.i - 1 for c in kids) and \
        not any(c.dep_ == "nummod" for c in kids)


def _names_a_people(doc, start: int, end: int, words: Words) -> bool:
    """One capitalized word modifying a plural noun for people ("Zaydi fighters", "Tuareg
    tribesmen"): the name of a faith or a people, not of a person."""
    token = doc[start]
    noun = token.head
    return end - start == 1 and token.dep_ in ("amod", "compound") and noun.i == end and noun.tag_ == "NNS" \
        and noun.lemma_.lower() in words.people_nouns | words.member_phrase_nouns


def _people_groups(doc, gazetteer, words, taken, sentence_of) -> list[Mention]:
    """"nine Lebanese soldiers" -> a PersonGroup "Lebanese soldiers", keyed by nationality (or
    faith, or people: "Sunni tribesmen") and noun; "Kurdish forces", "Tuareg rebels", "Shia
    militias": a people or a faith (no state's nationality) and a word for armed men -> an
    ArmedGroup, the side the text names so (a state's forces are its institution: "Malian troops")."""
    found = []
    for token in tokens(doc):
        if token.i in taken or token.pos_ != "NOUN" or token.tag_ not in ("NNS", "NNPS"):
            continue
        if token.lemma_.lower() not in words.people_nouns:
            armed = _armed_people(doc, token, gazetteer, words, taken)
            if armed is not None:
                found.append(_group(armed, token, span_text(doc[armed.i : token.i + 1]), "ArmedGroup", sentence_of))
            continue
        modifiers = [c for c in children(token) if c.dep_ in ("amod", "compound") and c.i < token.i]
        people = next((c for c in modifiers if c.i == token.i - 1 and c.text[:1].isupper()
                       and _names_a_people(doc, c.i, c.i + 1, words)
                       and (c.ent_type_ in ("NORP", "PERSON")
                            or c.ent_type_ == "ORG" and token.lemma_.lower() in words.nation_nouns)
                       and not gazetteer.country_of_demonym(c.text)), None)
        demonym = people or next((c for c in modifiers if gazetteer.country_of_demonym(c.text)), None)
        if demonym is None or any(c.i in gazetteer_ids(doc) for c in modifiers):
            continue
        found.append(_group(demonym, token, f"{demonym.text} {token.text}", "PersonGroup", sentence_of))
    return found


def _group(first, noun, label: str, type_: str, sentence_of) -> Mention:
    """The group mention from ``first`` to ``noun``, keyed by its label."""
    return Mention(start=first.i, end=noun.i + 1, start_char=first.idx, end_char=noun.idx + len(noun.text),
                   text=label, type=type_, kind="group", key=f"group-{iri_key(label)}", sentence=sentence_of[noun.i])


def _armed_people(doc, noun, gazetteer, words: Words, taken):
    """The people or faith naming armed men: "Kurdish" of "Kurdish forces", "Sunni" of "Sunni
    tribal fighters" (a lower-case word may stand between); None where the word is a state's
    nationality, a name kg knows, an acronym ("ELNA forces": a group's name), a creed
    ("Islamist militants"), or where the noun is no word for armed men, or describes a
    group named beside it ("the Houthis, a group of Zaydi fighters": the Houthis are read)."""
    if noun.lemma_.lower() not in words.armed_people_nouns or noun.dep_ == "appos" or (
            noun.dep_ == "pobj" and noun.head.lower_ == "of"):
        return None
    first = noun.i - 1
    if first > 0 and doc[first].dep_ == "amod" and doc[first].head.i == noun.i and doc[first].is_lower:
        first -= 1  # "tribal", "armed"
    if first < 0 or first in taken:
        return None
    people = doc[first]
    a_name = people.head.i == noun.i and people.dep_ in ("amod", "compound") and people.text[:1].isupper() \
        and (people.ent_type_ in ("NORP", "GPE", "PERSON") or people.tag_ == "NNP") and not people.is_upper
    longer = first > 0 and doc[first - 1].text[:1].isupper() and doc[first - 1].dep_ in ("amod", "compound")
    if not a_name or longer or people.lower_ in words.ideologies \
            or gazetteer.country_of_demonym(people.text) or gazetteer.lookup(people.text):
        return None
    return people


def _government_of(doc, start: int, end: int, gazetteer: Gazetteer, words: Words) -> str | None:
    """The gazetteer's government of a country named right after a name ending in "of" whose head
    is a word for a government ("the Federal Government of Somalia", "the Transitional Government
    of"); the country itself after the words of a state's form ("the Islamic Republic of Afghanistan")."""
    country = gazetteer_ids(doc).get(end)
    heads = {w.lower() for w in span_text(doc[start:end - 1]).split()}
    if country is None or gazetteer.entries[country].type != "Country" or not heads:
        return None
    if heads <= words.state_forms:
        return country
    return gazetteer.government(country) if heads & words.government_words else None

