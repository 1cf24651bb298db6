"""The relation lexicon (ontology/lexicon.toml) as typed, checked rules.

The lexicon says which words trigger which relation and where in the parse its arguments sit;
what a relation *is* (its argument types, whether it is symmetric) is kg.ttl's to say, read
through :mod:`kg.ontology`. Everything is checked when the file loads: an unknown field, kind,
part of speech, relation or slot is an error naming the file and the rule, not a surprise when
the rule first fires.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path

from .. import datafiles, ontology
from ..errors import DataError
from ..resources import ontology_file

KINDS = ("predicate", "title", "nationality", "location", "seat", "affiliation", "unit", "stance", "joint")
POS = ("VERB", "NOUN", "ADP", "ADV", "ADJ")
FIELDS = {"id", "relation", "kind", "pos", "lemmas", "lemma_sets", "exclude", "subject", "object", "pairs",
          "light_verbs", "confidence", "pair_subjects", "subject_types", "object_types", "attempts", "note", "only_with_light_verb", "event",
          "purposes", "article", "mutual", "acts"}
SLOT_FIELDS = ("subject", "object", "pairs")
ARTICLES = ("", "definite", "indefinite")


class LexiconError(DataError):
    """A lexicon entry that kg cannot use; the message names the file and the rule."""


@dataclass(frozen=True)
class Rule:
    id: str
    relation: str
    kind: str
    pos: str | None
    lemmas: frozenset[str]
    subject: tuple[str, ...]
    object: tuple[str, ...]
    pairs: tuple[str, ...]
    light_verbs: frozenset[str]
    confidence: float
    pair_subjects: bool = False
    subject_types: tuple[str, ...] = ()  # narrower than the relation's domain, for this rule only
    object_types: tuple[str, ...] = ()
    attempts: bool = False  # an attempt states the relation ("tried to seize X from Y": fought Y)
    # the trigger fires only as the object or subject of one of its light verbs ("took a hard line
    # against X" is no defensive line; "a bomb" is an attack only where it is exploded or goes off)
    only_with_light_verb: bool = False
    # the rule reads a standing relation, not an event: its facts make no event statement ("the
    # coalition against Islamic State" fights it; no attack happened at "against")
    event: bool = True
    # the trigger fires only with a purpose ("to defeat X") whose verb is a trigger of one of these
    # rules: "works with Y to counter Z" allies with Y; "works with Y" alone says nothing of it
    purposes: frozenset[str] = frozenset()
    # "indefinite": the trigger noun fires only with "a", "an" or "another" ("X, a Taliban
    # commander": one of several); "definite": never with one; "": either
    article: str = ""
    # the two did it to each other ("A clashed with B", "fighting between A and B"): each fact of a
    # relation that is not symmetric holds both ways, as docs/annotation.md writes mutual fighting
    mutual: bool = False
    # of a "joint" rule: the ids of the rules whose acts it reads ("A and B attacked C": allies)
    acts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Lexicon:
    rules: tuple[Rule, ...]

    @property
    def relations(self) -> dict[str, ontology.Relation]:
        return ontology.relations()

    def rules_for(self, kind: str) -> list[Rule]:
        return [r for r in self.rules if r.kind == kind]


@cache
def dictionary_entries() -> tuple[dict, ...]:
    """The verbs of PETRARCH2's CAMEO dictionary as kg derived them (ontology/petrarch/verbs.jsonl):
    lemma, relation, codes, whether the verb says it alone."""
    verbs = datafiles.Fields({"lemma": str, "relation": str, "alone": bool}, {"codes": list[str]})
    return tuple(raw for _, raw in datafiles.jsonl(ontology_file("petrarch/verbs.jsonl"), verbs))


@cache
def dictionary_verbs() -> dict[str, frozenset[str]]:
    """``petrarch:RELATION`` -> the verbs PETRARCH2's CAMEO dictionary codes as that relation and
    that say it on their own, without a phrase pattern."""
    sets: dict[str, set[str]] = {}
    for raw in dictionary_entries():
        if raw["alone"]:
            sets.setdefault(f"petrarch:{raw['relation']}", set()).add(raw["lemma"])
    return {name: frozenset(verbs) for name, verbs in sets.items()}


def _excluded(entries, fail) -> set[str]:
    """The lemmas an ``exclude`` names: words, and lists of ontology/words.toml as "words:NAME"
    ("words:heading_titles"), so that a list defined there is not written again here."""
    out: set[str] = set()
    for entry in entries:
        if entry.startswith("words:"):
            from .words import load_words

            values = getattr(load_words(), entry.removeprefix("words:"), None)
            if not isinstance(values, frozenset):
                fail(f"exclude: {entry} is not a list of words in ontology/words.toml")
            out |= values
        else:
            out.add(entry.lower())
    return out


def known_slot(slot: str, slots: frozenset[str]) -> bool:
    """``slot`` is a slot name, or a parametrized one ("prep:with") whose prefix is."""
    head, sep, word = slot.partition(":")
    return slot in slots if not sep else (f"{head}:" in slots and word.isalpha())


def parse_lexicon(text: str, where: str = "lexicon", slots: frozenset[str] | None = None) -> Lexicon:
    """Read lexicon TOML; any entry kg cannot use raises :class:`LexiconError` naming the rule."""
    if slots is None:
        from .relations.slots import SLOT_NAMES as slots
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LexiconError(f"{where}: not valid TOML ({exc})") from None
    unknown_top = set(data) - {"rule"}
    if unknown_top:
        raise LexiconError(f"{where}: unknown section {', '.join(sorted(unknown_top))} (relations are defined "
                           "in ontology/kg.ttl; the lexicon holds [[rule]] entries only)")
    relations = ontology.relations()
    rules, seen = [], set()
    for number, raw in enumerate(data.get("rule", []), start=1):
        rule_id = raw.get("id")
        at = f"{where}: rule {rule_id or f'#{number}'}"

        def fail(problem: str):
            raise LexiconError(f"{at}: {problem}")

        if not isinstance(rule_id, str) or not rule_id:
            fail("needs an id")
        if rule_id in seen:
            fail("the id is used by an earlier rule")
        seen.add(rule_id)
        if set(raw) - FIELDS:
            fail(f"unknown field {', '.join(sorted(set(raw) - FIELDS))} (known: {', '.join(sorted(FIELDS))})")
        wrong = _rule_fields().problem(raw)
        if wrong:
            fail(wrong)
        if raw.get("relation") not in relations:
            fail(f"relation {raw.get('relation')!r} is not a relation of ontology/kg.ttl "
                 f"({', '.join(relations)})")
        kind = raw.get("kind", "predicate")
        if kind not in KINDS:
            fail(f"kind {kind!r} is not one of {', '.join(KINDS)}")
        if kind == "predicate" and raw.get("pos") not in POS:
            fail(f"a predicate rule needs pos = {', '.join(POS[:-1])} or {POS[-1]}, not {raw.get('pos')!r}")
        classes = ontology.superclasses()
        for field in ("subject_types", "object_types"):
            unknown = [c for c in raw.get(field, ()) if c not in classes]
            if unknown:
                fail(f"{field}: {', '.join(unknown)} is not a class of ontology/kg.ttl")
        sets = dictionary_verbs() | {f"rule:{r.id}": r.lemmas for r in rules}
        unknown_sets = [s for s in raw.get("lemma_sets", ()) if s not in sets]
        if unknown_sets:
            fail(f"unknown lemma set {', '.join(unknown_sets)} (known: "
                 f"{', '.join(sorted(s for s in sets if not s.startswith('rule:')))}, or rule:ID of an earlier rule)")
        lemmas = {w.lower() for w in raw.get("lemmas", ())} | {w for s in raw.get("lemma_sets", ()) for w in sets[s]}
        lemmas -= _excluded(raw.get("exclude", ()), fail)
        if kind in ("predicate", "title", "stance") and not lemmas:
            fail(f"a {kind} rule needs lemmas")
        for field in SLOT_FIELDS:
            for slot in raw.get(field, ()):
                if not known_slot(slot, slots):
                    fail(f"unknown slot {slot!r} in {field} (known: {', '.join(sorted(slots))})")
        if raw.get("article", "") not in ARTICLES:
            fail(f"article {raw.get('article')!r} is not one of {', '.join(repr(a) for a in ARTICLES)}")
        confidence = raw.get("confidence", 0.7)
        if not isinstance(confidence, (int, float)) or not 0 < confidence <= 1:
            fail(f"confidence must be a number in (0, 1], not {confidence!r}")
        rules.append(Rule(
            id=rule_id, relation=raw["relation"], kind=kind, pos=raw.get("pos"),
            lemmas=frozenset(lemmas),
            subject=tuple(raw.get("subject", ())), object=tuple(raw.get("object", ())),
            pairs=tuple(raw.get("pairs", ())), light_verbs=frozenset(raw.get("light_verbs", ())),
            confidence=float(confidence), pair_subjects=bool(raw.get("pair_subjects", False)),
            subject_types=tuple(raw.get("subject_types", ())), object_types=tuple(raw.get("object_types", ())),
            attempts=bool(raw.get("attempts", False)), only_with_light_verb=bool(raw.get("only_with_light_verb", False)),
            event=bool(raw.get("event", True)), purposes=frozenset(raw.get("purposes", ())),
            article=raw.get("article", ""), mutual=bool(raw.get("mutual", False)),
            acts=frozenset(raw.get("acts", ())),
        ))
    known = {r.id: r for r in rules}
    for n, rule in enumerate(rules):
        unknown = sorted(rule.purposes - known.keys())
        if unknown:
            raise LexiconError(f"{where}: rule {rule.id}: purposes: {', '.join(unknown)} is no rule of the lexicon")
        unknown = sorted(rule.acts - known.keys())
        if unknown:
            raise LexiconError(f"{where}: rule {rule.id}: acts: {', '.join(unknown)} is no rule of the lexicon")
        if rule.mutual and relations[rule.relation].symmetric:
            raise LexiconError(f"{where}: rule {rule.id}: mutual: {rule.relation} is symmetric, and holds both ways already")
        if rule.kind == "joint" and not rule.acts:
            raise LexiconError(f"{where}: rule {rule.id}: a joint rule needs acts (the ids of the rules it reads)")
        if rule.purposes:  # the rules named -> their lemmas
            rules[n] = replace(rule, purposes=frozenset(w for r in rule.purposes for w in known[r].lemmas))
    if not rules:
        raise LexiconError(f"{where}: no rules (kg finds no relation without them; copy kg's own lexicon.toml)")
    return Lexicon(tuple(rules))


@cache
def _rule_fields() -> datafiles.Fields:
    """What each field of a rule holds, from :class:`Rule`'s types: a list for a set or a tuple, a
    number, true or false, a string; the fields that are no attribute of a rule are lists of
    words (lemma_sets, exclude), but for the note."""
    types = {f.name: f.type for f in fields(Rule)}
    specs: dict[str, datafiles.Spec] = {}
    for name in sorted(FIELDS):
        type_ = types.get(name, "str" if name == "note" else "frozenset[str]")
        specs[name] = ({"bool": bool, "float": float}.get(type_)
                       or (list[str] if type_.startswith(("frozenset", "tuple")) else str))
    return datafiles.Fields({}, specs)


@cache
def load_lexicon(path: Path | None = None) -> Lexicon:
    path = path or ontology_file("lexicon.toml")
    return parse_lexicon(datafiles.text(path), str(path))
