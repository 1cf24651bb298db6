"""Mentions -> canonical entities with stable keys.

Keys are the last segment of entity IRIs, so they must not depend on which article came first:
a gazetteer entry's key is its id; any other name's key is its normalized form (see
:func:`kg.extract.namekeys.match_key`), written readably. Inside one document, a surname alone ("Haftar")
joins the full name stated earlier ("Khalifa Haftar"), and an acronym defined in parentheses
("Libyan National Army (LNA)") joins the name it defines. Each such merge is kept with its rule,
so the graph can show, and a user can undo, why two forms became one entity.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace

from .namekeys import iri_key, match_key
from ..ontology import class_depth, is_a
from ..records import SURFACE_ONLY, Entity, Mention
from .gazetteer import Gazetteer
from .geonames import Places, place_of_entry


def assign_keys(doc, mentions: list[Mention], gazetteer: Gazetteer) -> list[Mention]:
    """Give every name mention its entity key (gazetteer id, or the key of its normalized name)."""
    keyed: list[Mention] = []
    for m in mentions:
        if m.key:
            keyed.append(m)
        elif m.gazetteer_id:
            keyed.append(replace(m, key=m.gazetteer_id))
        else:
            keyed.append(replace(m, key=iri_key(m.text)))
    return _generic_names(_surnames(keyed), gazetteer)


def _generic_names(mentions: list[Mention], gazetteer: Gazetteer) -> list[Mention]:
    """"Coalition" used as a name joins the organization of its kind the document names with that
    word ("the U.S.-led coalition", "Counter-Daesh Coalition"), the most often named if several;
    else it keeps its own key. A coalition of one nation's groups ("the Syrian Arab Coalition") is
    not the international one the bare word stands for."""
    out = []
    for m in mentions:
        if m.kind != "generic":
            out.append(m)
            continue
        word = m.text.lower()

        def national(o: Mention) -> bool:
            return any(gazetteer.country_of_demonym(w) for w in o.text.split())
        named = Counter(o.key for o in mentions if o.kind == "name" and o.key and len(o.text.split()) > 1
                        and word in o.text.lower().replace("-", " ").split()
                        and (o.type == m.type or o.type == "Organization" and not national(o)))
        best = max(sorted(named), key=lambda k: named[k], default=None)
        out.append(replace(m, key=best) if best else m)
    return out


def _surnames(mentions: list[Mention]) -> list[Mention]:
    """A one-word person name joins the one earlier full name in the document that ends with it."""
    full_names: dict[str, set[str]] = defaultdict(set)
    out = []
    for m in mentions:
        if m.kind != "name":
            out.append(m)
            continue
        words = m.text.split()
        if len(words) == 1 and not m.gazetteer_id:
            # NER often calls a lone surname a place ("al-Burhan relocated ..."): the full name wins
            owners = full_names.get(match_key(words[0]), set())
            if len(owners) == 1:
                out.append(replace(m, key=next(iter(owners)), kind="surname", type="Person"))
                continue
        if m.type != "Person":
            out.append(m)
            continue
        if len(words) > 1:
            full_names[match_key(words[-1])].add(m.key)
            full_names[match_key(words[-1].split("-")[-1])].add(m.key)
        out.append(m)
    return out


def entities(mentions: list[Mention], gazetteer: Gazetteer, places: Places) -> tuple[Entity, ...]:
    """One Entity per key among the name mentions, with every surface form and the merge rules."""
    forms: dict[str, Counter] = defaultdict(Counter)
    types: dict[str, Counter] = defaultdict(Counter)
    rules: dict[str, dict[str, str]] = defaultdict(dict)
    gaz_ids: dict[str, str | None] = {}
    geo_ids: dict[str, int] = {}
    named: dict[str, set[str]] = defaultdict(set)  # forms that are names, not acronyms or surnames
    # an entity is something the document names: a key only descriptions or phrases carry (their
    # name was dropped or went to another entity) makes no entity with a description for a label
    named_keys = {m.key for m in mentions if m.key and m.kind not in SURFACE_ONLY | {"pronoun", "description"}}
    for m in mentions:
        if m.kind in ("pronoun", "description") or m.key not in named_keys:
            continue
        forms[m.key][m.text] += 1
        if m.kind == "name":
            named[m.key].add(m.text)
        types[m.key][m.type] += 1
        gaz_ids.setdefault(m.key, m.gazetteer_id)
        if m.geonames_id:
            geo_ids[m.key] = m.geonames_id
        rule = {"acronym": "acronym-defined-in-text", "shortened": "acronym-of-a-name-in-text",
                "surname": "surname-of-full-name",
                "generic": "generic-word-for-named-organization", "alias": "other-name-given-in-text",
                "appositive": "description-in-apposition", "phrase": "members-named-by-their-group",
                "qualified": "name-with-its-country"}.get(m.kind)
        if rule:
            rules[m.key][m.text] = rule
    depth = class_depth()
    out = []
    for key, counter in forms.items():
        entry = gazetteer.entries.get(gaz_ids[key]) if gaz_ids[key] else None
        if entry:
            label, type_ = entry.label, entry.type
        else:
            label = max(named[key] or counter, key=lambda f: (counter[f], len(f), f))
            type_ = max(types[key], key=lambda t: (types[key][t], depth.get(t, 0), t))
        merge_rules = []
        for form in sorted(counter):
            if form == label:
                continue
            default = "gazetteer-alias" if entry else "geonames-name" if key in geo_ids else "name-normalization"
            merge_rules.append((form, rules[key].get(form) or default))
        place = _place(entry, geo_ids.get(key), gazetteer, places)
        out.append(Entity(key=key, label=label, type=type_, gazetteer_id=entry.id if entry else None,
                          aliases=frozenset(counter), merge_rules=tuple(merge_rules),
                          institution_of=institution_of(entry, gazetteer),
                          people_of=people_of(entry, gazetteer) or _nationals_of(label, type_, gazetteer), **place))
    return tuple(sorted(out, key=lambda e: e.key))


def institution_of(entry, gazetteer: Gazetteer) -> str | None:
    """The country whose government or armed forces the gazetteer entry is (kg:institutionOf)."""
    if entry is None or not (is_a(entry.type, "GovernmentAgency") or is_a(entry.type, "ArmedForces")):
        return None
    return _state_of(entry, gazetteer)


def people_of(entry, gazetteer: Gazetteer) -> str | None:
    """The country whose people the gazetteer entry is (kg:peopleOf): one derived for every country
    with a demonym."""
    return _state_of(entry, gazetteer) if entry is not None and entry.type == "PersonGroup" else None


def _state_of(entry, gazetteer: Gazetteer) -> str | None:
    """The entry's country, where the gazetteer has it as a country."""
    country = gazetteer.entries.get(entry.country or "")
    return entry.country if country is not None and country.type == "Country" else None


def _nationals_of(label: str, type_: str, gazetteer: Gazetteer) -> str | None:
    """The country of a group its nationality names ("Afghan civilians", "Lebanese soldiers"):
    some of its people (kg:peopleOf), on its side; None for a faith or a people without a state
    ("Sunni tribesmen")."""
    if type_ != "PersonGroup" or " " not in label:
        return None
    country = gazetteer.country_of_demonym(label.split(" ", 1)[0])
    entry = gazetteer.entries.get(country or "")
    return country if entry is not None and entry.type == "Country" else None


def _place(entry, geonames_id: int | None, gazetteer: Gazetteer, places: Places) -> dict:
    """GeoNames id and coordinates of a place entity, if GeoNames has it."""
    place = place_of_entry(entry, gazetteer) if entry else places.by_id.get(geonames_id) if geonames_id else None
    if place is None:
        return {}
    return {"geonames_id": place.geonames_id, "lat": place.lat, "lon": place.lon}


def gazetteer_entities(keys: set[str], gazetteer: Gazetteer, places: Places) -> tuple[Entity, ...]:
    """Entities a document implies without naming them ("Syrian President" implies Syria)."""
    out = []
    for key in sorted(keys):
        entry = gazetteer.entries.get(key)
        if entry is not None:
            out.append(Entity(key=key, label=entry.label, type=entry.type, gazetteer_id=entry.id,
                              institution_of=institution_of(entry, gazetteer),
                              people_of=people_of(entry, gazetteer),
                              **_place(entry, None, gazetteer, places)))
    return tuple(out)
