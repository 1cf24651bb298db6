"""The gazetteer of actors and places: the hand-written ontology/gazetteer.jsonl, the actors kg
takes from the field's dictionaries (ontology/petrarch/actors.jsonl, generated from PETRARCH2's
Phoenix dictionaries: armed groups, armed forces, government bodies, international and media
organizations, countries), and the entries derived from the countries: each country's armed
forces, government and compass regions ("eastern Syria"). Every entry says where it came from.

Names are compared by :func:`kg.extract.namekeys.match_key`; the spaCy component that finds them in text is
built from :meth:`Gazetteer.patterns` (see :mod:`kg.extract.components`).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, field
from functools import cache, cached_property

from .. import datafiles, ontology
from ..cache import cached
from ..errors import DataError
from .namekeys import match_key, reads_as_date
from ..ontology import is_a
from ..resources import ontology_file
from .words import Words, load_words


@dataclass(frozen=True)
class Entry:
    id: str
    label: str
    type: str
    aliases: tuple[str, ...] = ()
    demonyms: tuple[str, ...] = ()
    descriptors: tuple[str, ...] = ()
    country: str | None = None
    source: str = "gazetteer"


@dataclass
class Gazetteer:
    entries: dict[str, Entry]
    by_key: dict[str, str] = field(default_factory=dict)
    demonyms: dict[str, str] = field(default_factory=dict)

    def lookup(self, text: str) -> Entry | None:
        """The entry whose label or alias has the same match key as ``text``."""
        found = self.by_key.get(match_key(text))
        return self.entries[found] if found else None

    @cached_property
    def descriptor_words(self) -> frozenset[str]:
        """Every descriptor word of every entry ("militant", "army"), for coreference."""
        return frozenset(w for e in self.entries.values() for w in e.descriptors)

    def country_of_demonym(self, word: str) -> str | None:
        return self.demonyms.get(match_key(word))

    def government(self, country: str | None) -> str | None:
        """The entry derived for ``country``'s government, if it has one."""
        key = f"{country}-government"
        return key if country and key in self.entries else None

    def institution(self, country: str | None, words: Words, *nouns: str) -> str | None:
        """The entry derived for ``country``'s government, armed forces or police that the first
        of ``nouns`` naming one names ("government", "troops", "armed forces", "police"), by the
        word lists ``words``."""
        for noun in nouns:
            kind = "government" if noun in words.government_words else \
                "armed-forces" if noun in words.armed_forces_words else "police" if noun == "police" else None
            if kind is not None:
                key = f"{country}-{kind}"
                return key if country and key in self.entries else None
        return None

    def government_led_by(self, *person_keys: str | None) -> str | None:
        """The government of the country the person with any of these keys (gazetteer id, entity
        key, match key of the name) governs, as the dictionaries record it."""
        governing = governing_persons()
        return next((self.government(governing[k]) for k in person_keys if k and k in governing), None)

    def surface_forms(self) -> list[tuple[str, str]]:
        """(name, entry id) for every name of every entry, labels first."""
        return [(name, entry.id) for entry in self.entries.values() for name in (entry.label, *entry.aliases)]


def _derived_entries(countries: list[Entry], explicit: dict[str, Entry], words: Words) -> list[Entry]:
    """Armies, governments, police, the opposition, the people and compass regions of each country with a
    demonym."""
    out = []
    for c in countries:
        for d in c.demonyms[:1]:
            forces_id = f"{c.id}-armed-forces"
            forces = [n.format(d=d, c=c.label) for n in words.derived_names["armed_forces"]]
            if forces_id in explicit:
                e = explicit[forces_id]
                explicit[forces_id] = Entry(e.id, e.label, e.type, tuple(dict.fromkeys(e.aliases + tuple(forces))),
                                            e.demonyms, e.descriptors, e.country, e.source)
            else:
                out.append(Entry(forces_id, forces[0], "ArmedForces", tuple(forces[1:]), country=c.id,
                                 source=f"derived:{c.id}"))
            for kind, type_ in (("government", "GovernmentAgency"), ("police", "GovernmentAgency"),
                                ("opposition", "Organization"), ("people", "PersonGroup")):
                names = [n.format(d=d, c=c.label) for n in words.derived_names.get(kind, ())]
                if names:
                    out.append(Entry(f"{c.id}-{kind}", names[0], type_, tuple(names[1:]),
                                     country=c.id, source=f"derived:{c.id}"))
        for word, adjective in words.compass.items():
            if "-" in word:
                continue
            label = f"{adjective} {c.label}"
            aliases = {f"{word} {c.label}"} | {f"{w} {c.label}" for w, a in words.compass.items() if a == adjective and w != word}
            if adjective.startswith(("north", "south")) and adjective[5:] in ("eastern", "western"):
                aliases.add(f"{adjective[:5]}-{adjective[5:]} {c.label}")
            out.append(Entry(f"{word}-{c.id}", label, "Region", tuple(sorted(aliases - {label})), country=c.id,
                             source=f"derived:{c.id}"))
    return out


def read_entries(path) -> dict[str, Entry]:
    """The entries of a gazetteer file; a bad line is an error naming the file, the line and the problem."""
    classes = ontology.superclasses()
    entries: dict[str, Entry] = {}
    for number, raw in datafiles.jsonl(path, _ENTRY):
        entry = Entry(raw["id"], raw["label"], raw["type"], tuple(raw.get("aliases", ())),
                      tuple(raw.get("demonyms", ())), tuple(raw.get("descriptors", ())), raw.get("country"),
                      raw.get("source", "gazetteer"))
        if entry.type not in classes:
            raise DataError(f"{path}:{number}: type {entry.type!r} is not a class of ontology/kg.ttl")
        entries[entry.id] = entry
    return entries


_NAMES = {"aliases": list[str], "demonyms": list[str], "country": str}
_ENTRY = datafiles.Fields({"id": str, "label": str, "type": str},
                          {**_NAMES, "descriptors": list[str], "source": str})
_ACTOR = datafiles.Fields({"id": str, "label": str, "type": str, "source": str}, {**_NAMES, "gazetteer": str})
_PERSON = datafiles.Fields({"id": str, "label": str},
                           {"aliases": list[str], "country": str, "gazetteer": str, "roles": list[str]})


def _spelling_of(alias: str, entry: Entry, places: frozenset[str]) -> bool:
    """Whether a dictionary's alias is another spelling of a hand-written entry's names ("Daiish",
    "Islamic State of Iraq and Sham") rather than another thing it lists with it (a predecessor
    group, a leader): it shares a word with them (not a place's name), or reads like one of them."""
    from difflib import SequenceMatcher

    names = (entry.label, *entry.aliases)
    words = {w for n in names for w in match_key(n).split("-") if len(w) > 3} - places
    if words & {w for w in match_key(alias).split("-") if len(w) > 3}:
        return True
    key = match_key(alias).replace("-", "")
    return any(SequenceMatcher(None, key, match_key(n).replace("-", "")).ratio() >= 0.8 for n in names)


# The dictionary classes kg takes: people are left to the NER (PETRARCH's are office holders the
# world over, most of them from years past), and its generic organizations are mostly companies.
DICTIONARY_TYPES = {"ArmedGroup", "ArmedForces", "GovernmentAgency", "InternationalOrganization",
                    "MediaOrganization", "Country"}


def dictionary_entries(hand: dict[str, Entry], path) -> dict[str, Entry]:
    """The actors of a generated dictionary file; a row linked to a hand-written entry ("gazetteer")
    lends that entry its spellings instead of becoming an entry of its own."""
    out: dict[str, Entry] = {}
    places = frozenset(match_key(e.label) for e in hand.values() if is_a(e.type, "Location"))
    by_key = {match_key(n): e.id for e in hand.values() for n in (e.label, *e.aliases)}
    for _, raw in datafiles.jsonl(path, _ACTOR):
        if raw["type"] not in DICTIONARY_TYPES or "," in raw["label"] or reads_as_date(raw["label"]):
            continue  # "May 15" (the 15 May Organization) would take every date for the group
        # linked by the generator, or named like a hand-written entry ("United States Military")
        linked = hand.get(raw.get("gazetteer") or by_key.get(match_key(raw["label"]), ""))
        if linked is not None:
            extra = tuple(a for a in (raw["label"], *raw.get("aliases", ()))
                          if a not in linked.aliases and a != linked.label and _spelling_of(a, linked, places))
            hand[linked.id] = Entry(linked.id, linked.label, linked.type, linked.aliases + extra,
                                    tuple(dict.fromkeys(linked.demonyms + tuple(raw.get("demonyms", ())))),
                                    linked.descriptors, linked.country, f"{linked.source}+{raw['source']}")
            continue
        country = raw.get("country") if raw.get("country") in hand else None
        out[raw["id"]] = Entry(raw["id"], raw["label"], raw["type"],
                               tuple(a for a in raw.get("aliases", ()) if not reads_as_date(a)),
                               tuple(raw.get("demonyms", ())), (), country, raw["source"])
    return out


@cache
def governing_persons() -> dict[str, str]:
    """The country each person of the field's dictionaries has governed (a ``...GOV`` role in
    ontology/petrarch/persons.jsonl), by the person's gazetteer id and by the match keys of their
    names: "the Asad regime" is Syria's government."""
    out: dict[str, str] = {}
    for _, raw in datafiles.jsonl(ontology_file("petrarch/persons.jsonl"), _PERSON):
        country = raw.get("country")
        if not country or not any(r.split()[0].endswith("GOV") for r in raw.get("roles", ())):
            continue
        for key in (raw.get("gazetteer"), raw["id"], *(match_key(n) for n in (raw["label"], *raw.get("aliases", ())))):
            if key:
                out.setdefault(key, country)
    return out


@cache
def load_gazetteer() -> Gazetteer:
    """The hand-written gazetteer and the dictionaries, with the entries derived from the countries
    (merged once for a given code and data, then read from kg's cache: 0.5 s of each start)."""
    return cached("gazetteer", _merged_gazetteer, _encode, _decode)


def _merged_gazetteer() -> Gazetteer:
    # the dictionaries' rows link to hand-written entries and to the ones derived from countries
    # (the "Assad Government" row lends its spellings to syria-government, not a node of its own)
    explicit = dict(load_hand_gazetteer().entries)
    explicit.update(dictionary_entries(explicit, ontology_file("petrarch/actors.jsonl")))
    return _with_derived(explicit)


def _encode(gazetteer: Gazetteer) -> dict:
    return {"entries": [list(astuple(e)) for e in gazetteer.entries.values()],
            "by_key": gazetteer.by_key, "demonyms": gazetteer.demonyms}


def _decode(data: dict) -> Gazetteer:
    entries = {}
    for id_, label, type_, aliases, demonyms, descriptors, country, source in data["entries"]:
        entries[id_] = Entry(id_, label, type_, tuple(aliases), tuple(demonyms), tuple(descriptors), country, source)
    return Gazetteer(entries, dict(data["by_key"]), dict(data["demonyms"]))


@cache
def load_hand_gazetteer() -> Gazetteer:
    """The hand-written gazetteer alone (with its derived entries): what the dictionaries' generator
    links to, so that what it writes never depends on what it wrote before."""
    return _with_derived(read_entries(ontology_file("gazetteer.jsonl")))


def _with_derived(explicit: dict[str, Entry]) -> Gazetteer:
    words = load_words()
    countries = [e for e in explicit.values() if e.type == "Country"]
    derived = _derived_entries(countries, explicit, words)
    entries = dict(explicit)
    for e in derived:
        entries.setdefault(e.id, e)
    gaz = Gazetteer(entries)
    for entry in entries.values():
        for name in (entry.label, *entry.aliases):
            gaz.by_key.setdefault(match_key(name), entry.id)
        for demonym in entry.demonyms:
            gaz.demonyms.setdefault(match_key(demonym), entry.id)
    return gaz
