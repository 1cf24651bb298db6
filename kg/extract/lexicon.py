"""The relation lexicon (ontology/lexicon.toml) as typed rules."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..resources import ontology_file

KINDS = ("predicate", "title", "nationality", "location")


@dataclass(frozen=True)
class RelationType:
    name: str
    symmetric: bool
    subject: tuple[str, ...]
    object: tuple[str, ...]


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


@dataclass(frozen=True)
class Lexicon:
    relations: dict[str, RelationType]
    rules: tuple[Rule, ...]

    def rules_for(self, kind: str) -> list[Rule]:
        return [r for r in self.rules if r.kind == kind]


def parse_lexicon(text: str, where: str = "lexicon") -> Lexicon:
    """Read lexicon TOML; a wrong entry raises ValueError naming the rule."""
    data = tomllib.loads(text)
    relations = {
        name: RelationType(name, bool(spec.get("symmetric", False)), tuple(spec.get("subject", ["Entity"])),
                           tuple(spec.get("object", ["Entity"])))
        for name, spec in data.get("relations", {}).items()
    }
    rules = []
    for number, raw in enumerate(data.get("rule", []), start=1):
        rule_id = raw.get("id", f"rule #{number}")
        kind = raw.get("kind", "predicate")
        if raw.get("relation") not in relations:
            raise ValueError(f"{where}: rule {rule_id}: relation {raw.get('relation')!r} is not under [relations]")
        if kind not in KINDS:
            raise ValueError(f"{where}: rule {rule_id}: kind must be one of {', '.join(KINDS)}")
        if kind == "predicate" and (raw.get("pos") not in ("VERB", "NOUN") or not raw.get("lemmas")):
            raise ValueError(f"{where}: rule {rule_id}: a predicate rule needs pos (VERB or NOUN) and lemmas")
        rules.append(Rule(
            id=rule_id, relation=raw["relation"], kind=kind, pos=raw.get("pos"),
            lemmas=frozenset(w.lower() for w in raw.get("lemmas", ())),
            subject=tuple(raw.get("subject", ())), object=tuple(raw.get("object", ())),
            pairs=tuple(raw.get("pairs", ())), light_verbs=frozenset(raw.get("light_verbs", ())),
            confidence=float(raw.get("confidence", 0.7)),
            pair_subjects=bool(raw.get("pair_subjects", False)),
        ))
    return Lexicon(relations, tuple(rules))


@cache
def load_lexicon(path: Path | None = None) -> Lexicon:
    path = path or ontology_file("lexicon.toml")
    return parse_lexicon(path.read_text(encoding="utf-8"), str(path))
