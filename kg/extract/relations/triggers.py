"""Predicate rules: a trigger word (a verb or a noun of the lexicon) and its arguments, filled
from the rule's slots in order (the first slot that yields an entity wins)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ... import ontology
from ..docindex import children, tokens
from ..lexicon import POS, Lexicon, Rule
from ..parse import forms, lemma, light_verb, one_of_several, pos
from ..words import Words
from .context import Found
from .slots import fill
from .trace import TRACE, Arguments, Trace, TriggerSeen

if TYPE_CHECKING:
    from .context import Context


class Triggers:
    """The predicate rules indexed by the forms that trigger them."""

    def __init__(self, lexicon: Lexicon, words: Words) -> None:
        self.words = words  # the word lists that make a trigger's forms
        self.rules = lexicon.rules_for("predicate")
        self.order = {rule.id: n for n, rule in enumerate(self.rules)}
        self.by_form: dict[str, dict[str, list[Rule]]] = {p: {} for p in POS}
        for rule in self.rules:
            for form in rule.lemmas:
                self.by_form[rule.pos].setdefault(form, []).append(rule)
        # the words of two-word triggers ("drive out", "car bomb"): only a token with one of them
        # as its lemma can make such a form with a particle or compound
        self.in_phrases = {p: {w for form in by_form if " " in form for w in form.split()}
                           for p, by_form in self.by_form.items()}

    def matches(self, doc) -> Iterator[tuple[object, Rule]]:
        """(trigger token, rule) for every token a rule fires on, rules in lexicon order."""
        trace = TRACE.get()
        for token in tokens(doc):
            p = pos(token)
            if p not in self.by_form:
                continue
            by_form, lemma_ = self.by_form[p], lemma(token)
            if (lemma_ not in by_form and token.lower_ not in by_form and lemma_ not in self.in_phrases[p]
                    and token.pos_ != "PROPN"):  # a name's first word may make it a trigger: "Operation X"
                continue
            matched = {self.order[r.id]: r for form in forms(token, self.words, lemma_) for r in by_form.get(form, ())
                       if (not r.only_with_light_verb or _with_light_verb(token, r.light_verbs, self.words))
                       and (not r.purposes or _with_purpose(token, r.purposes))
                       and (not r.article or (r.article == "indefinite") == one_of_several(token, self.words))}
            if trace is not None:
                _note_triggers(trace, token, lemma_, by_form, matched, self.words)
            for _, rule in sorted(matched.items()):
                yield token, rule


def _note_triggers(trace: Trace, token, lemma_: str, by_form: dict[str, list[Rule]], matched: dict,
                   words: Words) -> None:
    """Record the rules that fired at ``token`` and those its form matched that did not."""
    fired = {r.id for r in matched.values()}
    for rule in dict.fromkeys(r for form in forms(token, words, lemma_) for r in by_form.get(form, ())):
        why = "" if rule.id in fired else "fires only with a purpose of its kind (\"to defeat X\")" \
            if rule.purposes else _ARTICLE_NOTES[rule.article] if rule.article else "fires only with one of its light verbs"
        trace.triggers.append(TriggerSeen(token.i, rule.id, rule.relation, rule.id in fired, why))


_ARTICLE_NOTES = {"definite": "not with an indefinite article (\"a commander\": one of several)",
                  "indefinite": "fires only with an indefinite article (\"a commander\": one of several)"}


def _with_purpose(verb, purposes: frozenset[str]) -> bool:
    """Whether ``verb`` has a purpose clause ("works with Y to counter Z") whose verb is one of
    ``purposes``."""
    return any(c.dep_ in ("advcl", "xcomp") and c.i > verb.i and lemma(c) in purposes
               and any(k.lower_ == "to" for k in children(c)) for c in children(verb))


def _with_light_verb(noun, light_verbs: frozenset[str], words: Words) -> bool:
    """Whether ``noun`` is the object ("exploded a bomb") or the subject ("a bomb went off") of
    one of ``light_verbs``."""
    if light_verb(noun, light_verbs, words) is not None:
        return True
    head = noun.head
    return noun.dep_ in ("nsubj", "nsubjpass") and bool(forms(head, words) & light_verbs)


def predicate(ctx: Context, trigger, rule: Rule) -> Iterator[Found]:
    """The facts one rule finds at one trigger."""
    subjects = _first_filled(ctx, trigger, rule.subject, rule)
    objects = _first_filled(ctx, trigger, rule.object, rule)
    trace = TRACE.get()
    if trace is not None:
        trace.arguments.append(Arguments(trigger.i, rule.id, rule.relation, tuple(subjects), tuple(objects)))
    for s in subjects:
        for o in objects:
            yield Found(s, o, rule, trigger.i)
            if rule.mutual:
                yield Found(o, s, rule, trigger.i)
    sides = {slot: fill(ctx, trigger, slot, rule) for slot in rule.pairs}  # "a truce between A and B"
    if rule.pair_subjects and not objects and not any(sides.values()):
        # "Hamas and Israel agreed to a ceasefire": the coordinated parties with each other (not
        # where the noun names its own sides: "A and B reaffirmed the partnership between C and D")
        yield from _pairs(subjects, rule, trigger.i)
    for slot, tokens in sides.items():
        yield from _pairs(_entities(ctx, trigger, slot, rule, tokens), rule, trigger.i)


def _entities(ctx: Context, trigger, slot: str, rule: Rule, tokens: list | None = None) -> list[str]:
    """The entity keys of a slot's words (``tokens``, where the caller filled the slot already)."""
    own = ctx.at.get(trigger.i)  # a named trigger ("Operation Olive Branch") is none of its own arguments
    itself = own.key if own is not None else None
    keys: list[str] = []
    # "Jaysh al-Ahrar (an Ahrar al-Sham faction), Jabhat Fateh al-Sham, ...": a singular noun in
    # apposition describes the name it is set beside, not the others of its list; so does a
    # capitalized one ("A; B, Inspector General for the SBA; C, ...": B's title)
    alone = slot == "predicated" and trigger.dep_ == "appos" and trigger.tag_ in ("NN", "NNP")
    for token in fill(ctx, trigger, slot, rule) if tokens is None else tokens:
        keys.extend(k for k in ctx.entities_of(token, alone=alone) if k not in keys and k != itself)
    return keys


def _first_filled(ctx: Context, trigger, slots: tuple[str, ...], rule: Rule) -> list[str]:
    """Entities of the first slot that yields any."""
    for slot in slots:
        keys = _entities(ctx, trigger, slot, rule)
        if keys:
            return keys
    return []


def _pairs(keys: list[str], rule: Rule, trigger: int) -> Iterator[Found]:
    """Every two of the parties of a symmetric relation ("a truce between A, B and C"); of any
    other, the first with each of the rest: "a war between A and the allied B and C" is A's
    against B and C, not B's against C (and B's and C's against A, where the rule is mutual)."""
    symmetric = ontology.relations()[rule.relation].symmetric
    for i, a in enumerate(keys if symmetric else keys[:1]):
        for b in keys[i + 1:]:
            yield Found(a, b, rule, trigger)
            if rule.mutual:  # never symmetric (the lexicon refuses it)
                yield Found(b, a, rule, trigger)
