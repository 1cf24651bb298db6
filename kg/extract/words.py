"""The word lists of ontology/words.toml, loaded once and checked: every list the stages use must
be in the file, and nothing else may be (a misspelt key is an error naming it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cache

from .. import datafiles
from ..errors import DataError
from ..resources import ontology_file


@dataclass(frozen=True)
class Words:
    # generic nouns that stand for entities
    place_heads: frozenset[str]
    member_nouns: frozenset[str]
    government_words: frozenset[str]
    state_forms: frozenset[str]
    control_nouns: frozenset[str]
    command_nouns: frozenset[str]
    people_nouns: frozenset[str]
    nation_nouns: frozenset[str]
    unarmed_nouns: frozenset[str]
    member_phrase_nouns: frozenset[str]
    military_assets: frozenset[str]
    speaker_titles: frozenset[str]
    reporting_verbs: frozenset[str]
    descriptions: dict[str, tuple[str, ...]]
    international_modifiers: frozenset[str]
    compass: dict[str, str]
    place_suffixes: dict[str, str]
    subdivision_words: frozenset[str]
    settlement_parts: frozenset[str]
    city_parts: frozenset[str]
    repelling_verbs: frozenset[str]
    organization_heads: dict[str, str]
    organization_openings: dict[str, str]
    # relation rules and polarity
    armed_forces_words: frozenset[str]
    state_soldier_nouns: frozenset[str]
    opposition_words: frozenset[str]
    denial_verbs: frozenset[str]
    cessation_verbs: frozenset[str]
    hypothetical_verbs: frozenset[str]
    hypothetical_auxiliaries: frozenset[str]
    attempt_verbs: frozenset[str]
    conditional_marks: frozenset[str]
    modality_nouns: frozenset[str]
    quantity_nouns: frozenset[str]
    count_words: frozenset[str]
    undertaking_nouns: frozenset[str]
    undertaking_verbs: frozenset[str]
    participation_verbs: frozenset[str]
    adjunct_prepositions: frozenset[str]
    participant_nouns: frozenset[str]
    armed_people_nouns: frozenset[str]
    ideologies: frozenset[str]
    object_control_verbs: frozenset[str]
    doubtful_reporting_verbs: frozenset[str]
    non_factual_modifiers: frozenset[str]
    relative_pronouns: frozenset[str]
    copular_verbs: frozenset[str]
    role_verbs: frozenset[str]
    appointment_verbs: frozenset[str]
    allegiance_adjectives: frozenset[str]
    naming_verbs: frozenset[str]
    location_verbs: frozenset[str]
    seat_verbs: frozenset[str]
    seat_nouns: frozenset[str]
    profession_titles: frozenset[str]
    side_titles: dict[str, str]
    kin_nouns: frozenset[str]
    organization_nouns: frozenset[str]
    institution_heads: frozenset[str]
    title_abbreviations: frozenset[str]
    deputy_words: frozenset[str]
    heading_titles: frozenset[str]
    outsider_nouns: frozenset[str]
    # mentions and names
    function_words: frozenset[str]
    locative_prepositions: frozenset[str]
    near_prepositions: frozenset[str]
    neighboring_words: frozenset[str]
    place_verbs: frozenset[str]
    place_only_verbs: frozenset[str]
    inside_prepositions: frozenset[str]
    not_names: frozenset[str]
    weapon_names: frozenset[str]
    designations: frozenset[str]
    instrument_heads: frozenset[str]
    war_heads: frozenset[str]
    name_modifiers: frozenset[str]
    generic_organizations: frozenset[str]
    unit_nouns: frozenset[str]
    part_nouns: frozenset[str]
    person_titles: frozenset[str]
    title_offices: frozenset[str]
    name_prepositions: frozenset[str]
    name_particles: frozenset[str]
    dateline_dashes: frozenset[str]
    transliterations: tuple[tuple[re.Pattern, str], ...]
    derived_names: dict[str, tuple[str, ...]]
    # coreference
    pronouns: dict[str, tuple[str, ...]]
    first_person_plural: frozenset[str]

    @property
    def members(self) -> frozenset[str]:
        """Member nouns and military assets: both stand for the group they belong to."""
        return self.member_nouns | self.military_assets


def parse_words(data: dict, where: str) -> Words:
    expected = {f.name: f.type for f in fields(Words)}
    missing, unknown = expected.keys() - data.keys(), data.keys() - expected.keys()
    if missing or unknown:
        problems = [f"missing {', '.join(sorted(missing))}"] if missing else []
        problems += [f"unknown {', '.join(sorted(unknown))}"] if unknown else []
        raise DataError(f"{where}: {'; '.join(problems)}")
    wrong = datafiles.Fields({name: _spec(name, type_) for name, type_ in expected.items()}).problem(data)
    if wrong:
        raise DataError(f"{where}: {wrong}")
    values = {}
    for name, type_ in expected.items():
        raw = data[name]
        if name == "transliterations":
            try:
                values[name] = tuple((re.compile(pattern), repl) for pattern, repl in raw.items())
            except re.error as exc:
                raise DataError(f"{where}: transliterations: {exc.pattern!r} is not a regular expression ({exc})") from None
        elif type_.startswith("frozenset"):
            values[name] = frozenset(raw)
        elif type_.startswith("dict[str, tuple"):
            values[name] = {k: tuple(v) for k, v in raw.items()}
        else:
            values[name] = dict(raw)
    return Words(**values)


def _spec(name: str, type_: str) -> datafiles.Spec:
    """What words.toml holds for a field of :class:`Words` (a list for a set, a table for a dict)."""
    if type_.startswith(("frozenset", "tuple[str")):
        return list[str]
    if type_.startswith(("dict[str, tuple", "dict[str, frozenset")):
        return dict[str, list[str]]
    return dict[str, str]  # the dicts of words, and the transliterations: pattern -> replacement


# The agents of the field's dictionaries that stand for the actor named with them, as kg's member
# nouns do ("ISIL terrorists", "Iraqi officials", "Houthi gunmen"): ontology/petrarch/agents.jsonl.
AGENT_TYPES = {"ArmedGroup", "ArmedForces", "GovernmentAgency"}


def dictionary_agents() -> frozenset[str]:
    """One-word agent nouns (and their plurals) of the dictionaries, of the actor types above."""
    out = set()
    fields = datafiles.Fields({"noun": str, "stands_for": str}, {"plural": str})
    for _, raw in datafiles.jsonl(ontology_file("petrarch/agents.jsonl"), fields):
        if raw["stands_for"] in AGENT_TYPES:
            out.update(w for w in (raw["noun"], raw.get("plural", "")) if w.isalpha())
    return frozenset(out)


@cache
def load_words() -> Words:
    from dataclasses import replace

    path = ontology_file("words.toml")
    words = parse_words(datafiles.toml(path), str(path))
    return replace(words, member_nouns=words.member_nouns | dictionary_agents())


@cache
def load_lemmas() -> dict[str, dict[str, str]]:
    """Part of speech ("VERB", "NOUN") -> inflected form -> lemma, from ontology/lemmas.toml; verb
    forms also with their prefixes ("retook")."""
    data = _lemmas_file()
    return {"VERB": _prefixed(data["forms"], data, lambda prefix, lemma: prefix.rstrip("-") + lemma),
            "NOUN": dict(data.get("nouns", {}))}


@cache
def load_fixed_tags() -> dict[str, str]:
    """Form -> tag of the forms whose part of speech ontology/lemmas.toml says is never in doubt;
    verb forms also with the prefixes."""
    data = _lemmas_file()
    fixed = data.get("fixed_tags", {})
    verbs = _prefixed({f: t for f, t in fixed.items() if t.startswith("VB")}, data, lambda _, tag: tag)
    return {**verbs, **fixed}


def _lemmas_file() -> dict:
    return datafiles.toml(ontology_file("lemmas.toml"), _LEMMAS)


_LEMMAS = datafiles.Fields({"forms": dict[str, str]},
                           {"nouns": dict[str, str], "fixed_tags": dict[str, str], "prefixes": list[str]})


def _prefixed(table: dict[str, str], data: dict, value) -> dict[str, str]:
    """``table`` with each form also under the file's prefixes ("re" + "took"), its value ``value(prefix, v)``."""
    out = dict(table)
    for form, v in table.items():
        for prefix in data.get("prefixes", ()):
            out.setdefault(prefix + form, value(prefix, v))
    return out
