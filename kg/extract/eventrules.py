"""The event rules of ontology/events.toml, loaded once and checked: every key must be known and
every role type one of kg.ttl's (a misspelt one is an error naming it). Read by the event
stage (:mod:`kg.extract.eventstatements`), the time expressions (:mod:`kg.extract.timex`) and the merge
of events across documents (:mod:`kg.derive.eventmerge`); imports nothing heavy."""

from __future__ import annotations

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
class Needs:
    """What an event statement must have (see events.toml [needs])."""

    by_class: dict[str, tuple[frozenset[str], ...]]  # event class -> alternatives, each of roles all filled
    undertakings: frozenset[str]  # nouns that name no one incident
    undertaking_roles: frozenset[str]  # one of which such a noun's event needs
    advocacy: frozenset[str]  # undertakings that are attacks only when armed or military
    armed: tuple[str, ...]  # classes of kg.ttl that wage armed undertakings
    military: frozenset[str]  # modifiers that make an undertaking armed

    def met(self, event_class: str, trigger_lemma: str, filled: set[str]) -> bool:
        if trigger_lemma in self.undertakings and not filled & self.undertaking_roles:
            return False
        return any(roles <= filled for roles in self.by_class.get(event_class, (frozenset(),)))


@dataclass(frozen=True)
class Culprits:
    """The words by which a text names who did an event outside its clause (events.toml [culprits])."""

    blame: frozenset[str]
    claim: frozenset[str]
    claim_nouns: frozenset[str]
    deeds: frozenset[str]


@dataclass(frozen=True)
class EventRules:
    places: tuple[PlaceRole, ...]
    needs: Needs
    culprits: Culprits
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


_KEYS = {"roles": None, "needs": None, "culprits": {"blame", "claim", "claim_nouns", "deeds"}, "doer": {"role"}, "time": {"simultaneous", "earlier", "units", "quantities", "range_words"}, "acts": None,
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
    classes = {t.name for t in ontology.event_types().values()}
    for name, entry in data["roles"].items():
        if set(entry) != {"prepositions", "types", "describe"}:
            raise fail(f"[roles.{name}] must have exactly describe, prepositions, types")
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
        places=tuple(places), needs=_needs(data["needs"], fail, role, classes),
        culprits=Culprits(*(frozenset(data["culprits"][k]) for k in ("blame", "claim", "claim_nouns", "deeds"))), doer=role(data["doer"]["role"], "[doer] role"),
        simultaneous=frozenset(data["time"]["simultaneous"]), earlier=frozenset(data["time"]["earlier"]),
        units=frozenset(data["time"]["units"]), quantities=frozenset(data["time"]["quantities"]),
        range_words=frozenset(data["time"]["range_words"]),
        acts=acts, merge_rule=str(merge["rule"]), undated_days=int(merge["undated_days"]),
        undated_pair_days=int(merge["undated_pair_days"]))


def _needs(data: dict, fail, role, classes: set[str]) -> Needs:
    undertaking = data.get("undertaking", {})
    keys = {"nouns", "roles", "advocacy", "armed", "military"}
    if set(undertaking) != keys:
        raise fail(f"[needs.undertaking] must have exactly {', '.join(sorted(keys))}")
    odd = sorted(set(undertaking["armed"]) - set(ontology.superclasses()))
    if odd:
        raise fail(f"[needs.undertaking] armed: {odd[0]!r} is not a class of kg.ttl")
    by_class = {}
    for name, alternatives in data.items():
        if name == "undertaking":
            continue
        if name not in classes:
            raise fail(f"[needs] {name!r} is not an event class of kg.ttl ({', '.join(sorted(classes))})")
        if not isinstance(alternatives, list) or not all(isinstance(a, list) and a for a in alternatives):
            raise fail(f"[needs] {name}: a list of lists of role types")
        by_class[name] = tuple(frozenset(role(r, f"[needs] {name}") for r in a) for a in alternatives)
    return Needs(by_class, frozenset(undertaking["nouns"]),
                 frozenset(role(r, "[needs.undertaking] roles") for r in undertaking["roles"]),
                 frozenset(undertaking["advocacy"]), tuple(undertaking["armed"]), frozenset(undertaking["military"]))


@cache
def load_rules() -> EventRules:
    from ..datafiles import toml

    path = ontology_file("events.toml")
    return parse_rules(toml(path), str(path))
