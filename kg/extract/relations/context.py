"""One document as the relation rules read it: its parse, its mentions indexed by token, the
types of its entities. Made per document and passed along, so the extractor holds no state."""

from __future__ import annotations

from dataclasses import dataclass

from ...records import Mention
from ..gazetteer import Gazetteer
from ..lexicon import Rule
from ..words import Words
from . import arguments


@dataclass(frozen=True)
class Found:
    """A candidate fact before provenance: entity keys, the rule, the trigger token, and the
    relation model's probability of it where the model read it (else the rule's confidence holds)."""

    subject: str
    object: str
    rule: Rule
    trigger: int
    confidence: float | None = None


class Context:
    def __init__(self, doc, mentions: list[Mention], gazetteer: Gazetteer, words: Words,
                 titles: dict[str, Rule]) -> None:
        self.doc, self.mentions = doc, mentions
        self.gazetteer, self.words, self.titles = gazetteer, words, titles
        self.types: dict[str, str] = {}
        for m in mentions:
            if m.key:
                self.types.setdefault(m.key, m.type)
        # the groups of people who take no side in a fight ("the Syrian people", "the people of
        # Lebanon", "Yazidi refugees"; not "Afghan soldiers", nor the YPG's "People's Protection Units")
        self.unarmed = frozenset(m.key for m in mentions if m.type == "PersonGroup" and m.key and any(
            w in words.unarmed_nouns for t in doc[m.start:m.end] for w in t.lemma_.lower().split()))
        # token -> the mention it is part of; a name wins over a pronoun or description
        self.at: dict[int, Mention] = {}
        for m in sorted(mentions, key=lambda m: m.kind in ("pronoun", "description")):
            for i in range(m.start, m.end):
                self.at.setdefault(i, m)

    def type_of(self, key: str) -> str:
        if key in self.types:
            return self.types[key]
        entry = self.gazetteer.entries.get(key)  # a country known only by its demonym ("Syrian")
        return entry.type if entry else "Entity"

    def entities_of(self, token, seen: frozenset[int] = frozenset(), alone: bool = False) -> list[str]:
        """The entity keys ``token`` stands for (see :mod:`kg.extract.relations.arguments`)."""
        return arguments.entities_of(self, token, seen, alone)

    def country_of(self, token) -> str | None:
        """The country a token names, as a name ("Syria's") or a demonym ("Syrian")."""
        m = self.at.get(token.i)
        if m is not None and m.type == "Country" and m.key:
            return m.key
        if token.dep_ in ("amod", "compound", "nmod") or token.pos_ == "ADJ":
            return self.gazetteer.country_of_demonym(token.text)
        return None

    def countries_of(self, token) -> list[str]:
        """The countries a token names (:meth:`country_of`), or those a plural pronoun stands for
        ("Kenya and Uganda sent troops; their troops ...")."""
        m = self.at.get(token.i)
        if m is not None and m.kind == "pronoun" and m.also:
            return [k for k in (m.key, *m.also) if self.type_of(k) == "Country"]
        country = self.country_of(token)
        return [country] if country else []

    def armed_forces(self, country: str | None) -> str | None:
        """The gazetteer's armed forces of ``country``, if it has them."""
        key = f"{country}-armed-forces"
        return key if country and key in self.gazetteer.entries else None
