"""The gazetteer of actors and places (ontology/gazetteer.jsonl) and name normalization.

Every name kg sees is reduced to a *name key* that ignores case, accents, quote styles, a leading
"the", a possessive "'s" and common transliteration variants (Al-/al-/Al /El-, Qaeda/Qaida), so
"Al-Bukamal", "Albukamal" and "al Bukamal" are one name.
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from ..resources import ontology_file

_TRANSLITERATIONS = [
    (r"\bqaida\b", "qaeda"),
    (r"\bqa ida\b", "qaeda"),
    (r"\bhizb[ou]llah\b", "hezbollah"),
    (r"\bhizballah\b", "hezbollah"),
    (r"\bmohamm?[ae]d\b", "muhammad"),
    (r"\bmuhamm?[ae]d\b", "muhammad"),
    (r"\babdul ", "abdul"),
    (r"\babd al ", "abdul"),
]
_ARTICLE = re.compile(r"\b(al|el|ul|ad|ar|as|ash|az|an|at)\s+(?=\w)")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lowercase ASCII-ish form: no accents, one kind of apostrophe, single spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return re.sub(r"\s+", " ", text).strip().lower()


@lru_cache(maxsize=65536)
def name_key(text: str) -> str:
    """The form two names must share to be the same name (see the module docstring)."""
    s = fold(text)
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"^(the\s+)?(so[- ]called\s+)?", "", s)
    s = re.sub(r"[^a-z0-9' ]+", " ", s).replace("'", "")
    s = re.sub(r"\s+", " ", s).strip()
    for pattern, repl in _TRANSLITERATIONS:
        s = re.sub(pattern, repl, s)
    s = _ARTICLE.sub(r"\1", s)
    return _spelling(s.replace(" ", ""))


def _spelling(s: str) -> str:
    """Spelling variants of transliterated names: doubled letters (Jawwad/Jawad) and a final -ah
    (Hodeidah/Hodeida, Misratah/Misrata) count as one spelling."""
    s = re.sub(r"([a-z])\1+", r"\1", s)
    return re.sub(r"([aeiou])h\b", r"\1", s)


_ARTICLE_JOIN = re.compile(r"\b(al|el|ul|ad|ar|as|ash|az|an|at)-(?=\w)")


@lru_cache(maxsize=65536)
def key_for_name(text: str) -> str:
    """Readable key of a name outside the gazetteer: "Bashar Al-Assad" -> "bashar-alassad"."""
    s = fold(text)
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"^(the\s+)?(so[- ]called\s+)?", "", s)
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    s = _ARTICLE_JOIN.sub(r"\1", s)
    s = re.sub(r"\bqaida\b", "qaeda", s)
    s = "-".join(_spelling(part) for part in s.split("-"))
    return s[:80].strip("-") or "x"


def slug(text: str) -> str:
    """A readable IRI segment: ASCII letters, digits and hyphens, at most 80 characters."""
    s = fold(text)
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"^the\s+", "", s)
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s[:80].strip("-") or "x"


@dataclass(frozen=True)
class Entry:
    id: str
    label: str
    type: str
    aliases: tuple[str, ...] = ()
    demonyms: tuple[str, ...] = ()
    descriptors: tuple[str, ...] = ()
    country: str | None = None


@dataclass
class Nominals:
    place_heads: frozenset[str]
    member_nouns: frozenset[str]
    people_nouns: frozenset[str]
    descriptions: dict[str, tuple[str, ...]]
    compass: dict[str, str]
    speaker_titles: frozenset[str] = frozenset()
    military_assets: frozenset[str] = frozenset()
    place_suffixes: dict[str, str] = field(default_factory=dict)
    reporting_verbs: frozenset[str] = frozenset()


@dataclass
class Gazetteer:
    entries: dict[str, Entry]
    by_key: dict[str, str] = field(default_factory=dict)
    demonyms: dict[str, str] = field(default_factory=dict)

    def lookup(self, text: str) -> Entry | None:
        """The entry whose label or alias has the same name key as ``text``."""
        found = self.by_key.get(name_key(text))
        return self.entries[found] if found else None

    @cached_property
    def descriptor_words(self) -> frozenset[str]:
        """Every descriptor word of every entry ("militant", "army"), for coreference."""
        return frozenset(w for e in self.entries.values() for w in e.descriptors)

    def country_of_demonym(self, word: str) -> str | None:
        return self.demonyms.get(fold(word))

    def surface_forms(self) -> list[tuple[str, str]]:
        """(alias, entry id) for every name of every entry, labels first."""
        forms = []
        for entry in self.entries.values():
            for name in (entry.label, *entry.aliases):
                forms.append((name, entry.id))
        return forms


def _derived_entries(countries: list[Entry], explicit: dict[str, Entry], compass: dict[str, str]) -> list[Entry]:
    """Armies, governments and compass regions of each country with a demonym."""
    out = []
    for c in countries:
        for d in c.demonyms[:1]:
            forces_id = f"{c.id}-armed-forces"
            generic = [f"{d} army", f"{d} armed forces", f"{d} military", f"{d} troops", f"{d} forces",
                       f"{d} government forces", f"{d} government troops", f"{d} Armed Forces"]
            if forces_id in explicit:
                e = explicit[forces_id]
                explicit[forces_id] = Entry(e.id, e.label, e.type, tuple(dict.fromkeys(e.aliases + tuple(generic))),
                                            e.demonyms, e.descriptors, e.country)
            else:
                out.append(Entry(forces_id, f"{d} army", "ArmedForces", tuple(generic[1:]), country=c.id))
            out.append(Entry(f"{c.id}-government", f"{d} government", "GovernmentAgency",
                             (f"government of {c.label}", f"{d} authorities", f"{d} regime", f"{c.label}'s government"),
                             country=c.id))
        for word, adjective in compass.items():
            if "-" in word:
                continue
            label = f"{adjective} {c.label}"
            aliases = {f"{word} {c.label}"} | {f"{w} {c.label}" for w, a in compass.items() if a == adjective and w != word}
            if adjective.startswith(("north", "south")) and adjective[5:] in ("eastern", "western"):
                aliases.add(f"{adjective[:5]}-{adjective[5:]} {c.label}")
            out.append(Entry(f"{word}-{c.id}", label, "Region", tuple(sorted(aliases - {label})), country=c.id))
    return out


@cache
def load_nominals() -> Nominals:
    data = tomllib.loads(ontology_file("nominals.toml").read_text(encoding="utf-8"))
    return Nominals(
        place_heads=frozenset(data["place_heads"]),
        member_nouns=frozenset(data["member_nouns"]) | frozenset(data.get("military_assets", ())),
        people_nouns=frozenset(data["people_nouns"]),
        descriptions={k: tuple(v) for k, v in data["descriptions"].items()},
        compass=dict(data["compass"]),
        speaker_titles=frozenset(data.get("speaker_titles", ())),
        military_assets=frozenset(data.get("military_assets", ())),
        place_suffixes=dict(data.get("place_suffixes", {})),
        reporting_verbs=frozenset(data.get("reporting_verbs", ())),
    )


@cache
def load_gazetteer() -> Gazetteer:
    """Read ontology/gazetteer.jsonl and add the entries derived from its countries."""
    explicit: dict[str, Entry] = {}
    path = ontology_file("gazetteer.jsonl")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            raw = json.loads(line)
            entry = Entry(raw["id"], raw["label"], raw["type"], tuple(raw.get("aliases", ())),
                          tuple(raw.get("demonyms", ())), tuple(raw.get("descriptors", ())), raw.get("country"))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: bad gazetteer entry ({exc})") from exc
        explicit[entry.id] = entry
    countries = [e for e in explicit.values() if e.type == "Country"]
    derived = _derived_entries(countries, explicit, load_nominals().compass)
    entries = dict(explicit)
    for e in derived:
        entries.setdefault(e.id, e)
    gaz = Gazetteer(entries)
    for entry in entries.values():
        for name in (entry.label, *entry.aliases):
            gaz.by_key.setdefault(name_key(name), entry.id)
        for demonym in entry.demonyms:
            gaz.demonyms.setdefault(fold(demonym), entry.id)
    return gaz
