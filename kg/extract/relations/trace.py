"""What the relation stages decided and why, recorded only while someone asks (``kg explain``).

The stages call nothing here unless :func:`tracing` is active: each decision point reads
:data:`TRACE` once (None by default) and appends a record only when it holds a :class:`Trace`, so
an ordinary build pays one context-variable read per document stage and its output never depends
on it. Records are plain data (token indices, entity keys, rule ids): the reader owns the Doc.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ...records import Mention


@dataclass(frozen=True)
class TriggerSeen:
    """A word of a predicate rule's lemmas: ``fired``, or not, with ``why`` ("needs its light verb")."""

    token: int
    rule: str
    relation: str
    fired: bool
    why: str = ""


@dataclass(frozen=True)
class Arguments:
    """What one rule's slots found at one trigger: the entity keys of each side (empty: none)."""

    token: int
    rule: str
    relation: str
    subjects: tuple[str, ...]
    objects: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    """One candidate fact judged: ``stage`` "model" (:func:`kg.extract.learned.combine.judge`, on
    the rules' candidates and its own) or "checks" (:func:`kg.extract.relations.assertions`: types
    and polarity, after the model); ``outcome`` "fact" (it stands), "kept" (the model lets a rule's
    candidate through to the checks), "added" (the model proposes one) or "rejected"; ``reason`` a
    short stable code (a key of :data:`REASONS`), ``detail`` the particulars."""

    stage: str
    subject: str
    object: str
    relation: str
    rule: str
    token: int  # the trigger (for a model's candidate: the top of its dependency path)
    outcome: str
    reason: str
    detail: str = ""
    probability: float | None = None  # the model's, where it read the pair
    threshold: float | None = None  # the model's veto or add threshold it was held to


REASONS = {
    "asserted": "stated as a fact",
    "same-entity": "subject and object are one entity",
    "subject-type": "the subject's type is not one the relation takes",
    "object-type": "the object's type is not one the relation takes",
    "part-leader": "a leader of a part of the group, not of the group",
    "unarmed-group": "help to a people or to civilians, not an alliance",
    "own-institution": "a state and its own government or armed forces are one side, not allies",
    "negated": "negated or denied",
    "hypothetical": "hypothetical, conditional or modal",
    "attempted": "an attempt, not the act",
    "confirmed": "the model agrees with the rule",
    "unjudged": "a rule's fact the model does not judge",
    "vetoed": "the model's probability is under its veto threshold",
    "below-threshold": "the model's probability is under its threshold to add a fact",
    "rules-read-pair": "the rules related this pair: the model only vetoes there",
    "event-relation": "no trigger word of this relation on the pair's path",
    "out-of-frame": "the two do not hang on the path as the relation needs: not the acting and the "
                    "acted-on of its trigger word, or a place it is on or near, or one what is led is in, or "
                    "a side a modifier names (\"the IS-affiliated group\")",
    "other-direction": "the model finds the other direction likelier",
    "proposed": "the model proposes it",
    "model-only": "KG_RELATION_MODEL=only: the rules' candidates are not used",
}


@dataclass
class Trace:
    """Everything recorded for one document: the mentions the relation stage read, the trigger
    words seen, what the slots found at each, and every decision on a candidate fact."""

    mentions: list[Mention] = field(default_factory=list)
    triggers: list[TriggerSeen] = field(default_factory=list)
    arguments: list[Arguments] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


TRACE: ContextVar[Trace | None] = ContextVar("kg_relation_trace", default=None)


@contextmanager
def tracing() -> Iterator[Trace]:
    """Record the relation stages' decisions in this context (thread, task) while inside."""
    trace = Trace()
    token = TRACE.set(trace)
    try:
        yield trace
    finally:
        TRACE.reset(token)
