"""The event rules of ontology/events.toml, loaded once and checked: every key must be known and
every role type one of kg.ttl's (a misspelt one is an error naming it). Read by the event
stage (:mod:`kg.extract.events`), the time expressions (:mod:`kg.extract.timex`) and the merge
of events across documents (:mod:`kg.store.events`); imports nothing heavy."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from .. import ontology
from ..errors import DataError
from ..resources import ontology_file


@dataclass(frozen=True)
class PlaceRole:
    """A role an event takes from a preposition ("from X": origin); ``describe`` keeps the words
    of a phrase that names no place."""

    role: str
    prepositions: tuple[str, ...]
    types: frozenset[str]  # the event classes it applies to; all if empty
    describe: bool


@dataclass(frozen=True)
class Acts:
    """What makes a relation's trigger an act rather than a state (see events.toml)."""

    verbs: frozenset[str]
    light_verbs: frozenset[str]


@dataclass(frozen=True)
class EventRules:
    places: tuple[PlaceRole, ...]
    doer: str
    simultaneous: frozenset[str]
    earlier: frozenset[str]
    units: frozenset[str]
    quantities: frozenset[str]
    range_words: frozenset[str]
    acts: dict[str, Acts]
    merge_rule: str
    undated_days: int
    undated_pair_days: int


_KEYS = {"roles": None, "doer": {"role"}, "time": {"simultaneous", "earlier", "units", "quantities", "range_words"}, "acts": None,
         "merge": {"rule", "undated_days", "undated_pair_days"}}


def parse_rules(data: dict, where: str) -> EventRules:
    """Check and type the contents of an events.toml; a DataError names what is wrong."""
    def fail(problem: str) -> DataError:
        return DataError(f"{where}: {problem}")

    unknown = sorted(data.keys() - _KEYS.keys())
    if unknown:
        raise fail(f"unknown section [{unknown[0]}]")
    for section, keys in _KEYS.items():
        if section not in data:
            raise fail(f"missing section [{section}]")
        if keys is not None and set(data[section]) != keys:
            odd = sorted(set(data[section]) ^ keys)
            raise fail(f"[{section}] must have exactly {', '.join(sorted(keys))} (not {odd[0]!r})")
    roles = ontology.role_types()

    def role(name: str, place: str) -> str:
        if name not in roles:
            raise fail(f"{place}: {name!r} is not a role type of kg.ttl ({', '.join(roles)})")
        return name

    places = []
    for name, entry in data["roles"].items():
        if set(entry) != {"prepositions", "types", "describe"}:
            raise fail(f"[roles.{name}] must have exactly describe, prepositions, types")
        classes = {t.name for t in ontology.event_types().values()}
        odd = sorted(set(entry["types"]) - classes)
        if odd:
            raise fail(f"[roles.{name}] types: {odd[0]!r} is not an event class of kg.ttl ({', '.join(sorted(classes))})")
        places.append(PlaceRole(role(name, f"[roles.{name}]"), tuple(entry["prepositions"]),
                                frozenset(entry["types"]), bool(entry["describe"])))
    relations = ontology.event_types()
    acts = {}
    for relation, entry in data["acts"].items():
        if relation not in relations:
            raise fail(f"[acts.{relation}]: not a relation that states events ({', '.join(relations)})")
        if set(entry) != {"verbs", "light_verbs"}:
            raise fail(f"[acts.{relation}] must have exactly light_verbs, verbs")
        acts[relation] = Acts(frozenset(entry["verbs"]), frozenset(entry["light_verbs"]))
    merge = data["merge"]
    return EventRules(
        places=tuple(places), doer=role(data["doer"]["role"], "[doer] role"),
        simultaneous=frozenset(data["time"]["simultaneous"]), earlier=frozenset(data["time"]["earlier"]),
        units=frozenset(data["time"]["units"]), quantities=frozenset(data["time"]["quantities"]),
        range_words=frozenset(data["time"]["range_words"]),
        acts=acts, merge_rule=str(merge["rule"]), undated_days=int(merge["undated_days"]),
        undated_pair_days=int(merge["undated_pair_days"]))


@cache
def load_rules() -> EventRules:
    path = ontology_file("events.toml")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from None
    return parse_rules(data, str(path))
