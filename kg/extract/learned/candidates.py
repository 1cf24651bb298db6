"""The pairs the relation model judges: ordered pairs of mentions of two different entities in one
sentence whose types fit the domain and range of some relation of ``ontology/kg.ttl``.

Every conjunct of a coordination and every member of an apposition is a mention of its own, so
each is a candidate apart ("A and B attacked C" gives A-C and B-C); pronouns and descriptions are
left to the rules (their antecedents are the names of the same entities).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ... import ontology
from ...records import NAMING, Mention
from ..docindex import sentence_of

KINDS = NAMING  # the kinds of mention that name what they stand for


@dataclass(frozen=True)
class Candidate:
    """Two mentions of one sentence; ``subject`` comes first in the pair, not necessarily in the text."""

    subject: Mention
    object: Mention
    sentence: int  # the sentence's first token

    @property
    def keys(self) -> tuple[str, str]:
        return self.subject.key, self.object.key


FAMILIES = ("Person", "PersonGroup", "Country", "Organization", "Location")  # the first that fits


@cache
def family(type_: str) -> str:
    """The broad class the model judges a rule's facts by: a person, a people, a country, an
    organization of any kind, another place, else the class itself."""
    return next((f for f in FAMILIES if ontology.is_a(type_, f)), type_)


def judged_key(relation: str, rule: str, subject_type: str, object_type: str) -> str:
    """How the model's ``rules`` name a rule fired on two classes: "memberOf:member-join|Country>Organization"."""
    return f"{relation}:{rule}|{family(subject_type)}>{family(object_type)}"


@cache
def fitting(subject_type: str, object_type: str) -> tuple[str, ...]:
    """The relations whose domain and range take the two types."""
    return tuple(
        name
        for name, r in ontology.relations().items()
        if ontology.fits(subject_type, r.domain) and ontology.fits(object_type, r.range)
    )


def candidates(doc, mentions: list[Mention]) -> list[Candidate]:
    """Every ordered pair of mentions of different entities in one sentence that some relation fits."""
    by_sentence: dict[int, list[Mention]] = {}
    for m in mentions:
        if m.kind in KINDS and m.key:
            by_sentence.setdefault(sentence_of(doc[m.start]).start, []).append(m)
    out = []
    for start, ms in by_sentence.items():
        for s in ms:
            for o in ms:
                if s.key != o.key and fitting(s.type, o.type):
                    out.append(Candidate(s, o, start))
    return out
