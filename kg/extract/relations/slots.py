"""Argument slots: where in the dependency parse a trigger's subject or object sits.

Each slot is a function from a trigger token (and its rule) to the tokens in that place; the
lexicon names them (ontology/lexicon.toml), and :data:`SLOT_NAMES` is what it may name: a name
ending in ":" takes a word after it ("prep:with", "light_prep:to").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..docindex import children
from ..parse import (
    agents,
    counts,
    hyphened,
    lemma,
    light_verb,
    opening_adverb,
    pobjs,
    pos,
    prep_objects,
    subjects,
    undergoers,
    undertakers,
)

if TYPE_CHECKING:  # the lexicon names the slots it may use: it imports this module's names
    from ..lexicon import Rule
    from ..words import Words
    from .context import Context

Slot = Callable[..., list]
SLOTS: dict[str, Slot] = {}


def slot(name: str):
    def register(fn: Slot) -> Slot:
        SLOTS[name] = fn
        return fn
    return register


def fill(ctx: Context, trigger, name: str, rule: Rule) -> list:
    """The tokens in slot ``name`` ("prep:with" is the slot "prep:" with the word "with"). Each
    slot is called with the document's context (its word lists), the trigger and the rule."""
    head, sep, word = name.partition(":")
    if sep:
        return SLOTS[f"{head}:"](ctx, trigger, rule, word)
    return SLOTS[name](ctx, trigger, rule)


@slot("nsubj")
def _subject(ctx: Context, t, rule) -> list:
    return subjects(t, ctx.words)


@slot("dobj")
def _object(ctx: Context, t, rule) -> list:
    kids = children(t)
    found = [c for c in kids if c.dep_ == "dobj"]
    if not found and any(c.dep_ == "nsubj" and c.i < t.i for c in kids):
        # "forces recaptured Abu Grein from ...": the parser took the object for a second subject
        found = [c for c in kids if c.dep_ == "nsubj" and c.i > t.i]
    if not found and lemma(t) in ctx.words.object_control_verbs:
        found = _controlled(t, kids)
    if not found and t.pos_ == "VERB":
        # "... liberated Mosul from ISIS": a name right after the verb the parser took for an adverb
        found = [c for c in kids if c.dep_ in ("advmod", "npadvmod") and c.pos_ == "PROPN" and c.i == t.i + 1]
    if t.dep_ == "relcl":
        relative = ctx.words.relative_pronouns
        if found and found[0].lower_ in relative:
            return [t.head]  # "Ramadi, which ISIL seized in 2015"
        if not found and any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ not in relative for c in kids):
            found = [t.head]  # "the town (that) the rebels seized"
    return found


def _controlled(verb, kids) -> list:
    """The one a control verb acts on where the parser made it the subject of the next clause
    ("helped Nigeria fight Boko Haram"): only a noun right after the verb, with nothing before it
    but its own determiner and modifiers (not "helping the rebels the army is fighting")."""
    doc = verb.doc
    return [s for c in kids if c.dep_ in ("ccomp", "xcomp") and c.i > verb.i for s in children(c)
            if s.dep_ == "nsubj" and s.i > verb.i
            and all(doc[k].head.i == s.i and doc[k].dep_ in ("det", "compound", "amod") for k in range(verb.i + 1, s.i))]


@slot("nsubjpass")
def _passive_subject(ctx: Context, t, rule) -> list:
    return undergoers(t, ctx.words)


@slot("agent")
def _agent(ctx: Context, t, rule) -> list:
    return agents(t)


@slot("prep:")
def _preposition(ctx: Context, t, rule, word: str) -> list:
    kids = children(t)
    found = prep_objects(t, word)
    if not found and pos(t) == "VERB":
        # "escort Daesh fighters to eastern Syria": the parser often hangs the goal on the object
        for obj in [c for c in kids if c.dep_ == "dobj"]:
            for holder in [obj, *[c for c in children(obj) if c.dep_ == "appos"]]:
                found.extend(prep_objects(holder, word))
    if not found and pos(t) == "NOUN" and t.dep_ == "conj" and pos(t.head) == "NOUN":
        # "X, a jeweler and president of Y": the parser hangs a phrase after the last of two nouns
        # on the first, the coordination's head; it is the nearer noun's as well
        found = [p for p in prep_objects(t.head, word) if p.i > t.i]
    if not found and pos(t) in ("VERB", "NOUN") and word != "of":
        # "attacked across a 630-kilometre front against X", "the attack by the RSF on El Fasher":
        # the parser hangs the phrase on the noun before (but "of" there is the noun's own); only
        # after the trigger: "With help from Iran, the Houthis seized" is no seizure from Iran
        for prep in [c for c in kids if c.dep_ == "prep" and c.i > t.i]:
            for pobj in pobjs(prep):
                found.extend(prep_objects(pobj, word))
    if not found and pos(t) == "NOUN":
        # "an offensive that began in July against X": the clause about the noun carries it
        clauses = [c for c in kids if c.dep_ in ("relcl", "acl")]
        for clause in clauses:
            found.extend(prep_objects(clause, word))
            # "strikes using attack, bomber and fighter aircraft against ISIL targets", "an offensive
            # led by X and its allies against Y"
            objects = [c for c in children(clause) if c.dep_ == "dobj"]
            objects += [p for c in children(clause) if c.dep_ == "agent" for p in pobjs(c)]
            for obj in objects:
                for holder in (obj, *obj.conjuncts):
                    found.extend(prep_objects(holder, word))
    if not found and pos(t) == "NOUN" and t.dep_ == "dobj" and pos(t.head) == "VERB":
        # "conducted strikes coordinated with Y using aircraft as well as rocket artillery against X":
        # the phrase hangs anywhere in the clause of the verb the event noun is the object of
        found = clause_prep_objects(t.head, word)
    if not found and pos(t) == "NOUN" and t.dep_ == "attr" and lemma(t.head) in ctx.words.copular_verbs:
        # "Operation Olive Branch was an invasion by A ..., against B": the phrase hangs on "was"
        found = prep_objects(t.head, word)
    if not found and pos(t) == "NOUN" and t.dep_ in ("nsubj", "nsubjpass") and pos(t.head) == "VERB":
        # "the coalition's airstrikes delivered 24 munitions against ISIL targets": on the verb or its object
        verb = t.head
        for holder in [verb, *[c for c in children(verb) if c.dep_ == "dobj"]]:
            found.extend(prep_objects(holder, word))
    if word == "between":
        # "between the Kurdish YPG and Islamic State militants": two names sharing one head noun
        found += [m for p in found for m in children(p)
                  if m.dep_ in ("nmod", "compound") and m.i < p.i and any(c.dep_ == "conj" for c in children(m))]
    return found


CLAUSE_BOUNDARIES = frozenset({"ccomp", "relcl", "parataxis", "csubj", "nsubj", "nsubjpass", "xcomp", "acl"})


def clause_prep_objects(verb, word: str) -> list:
    """Objects of the preposition ``word`` anywhere in ``verb``'s own clause, through its verbs,
    objects and their conjuncts: not in its subject, nor in a clause with a subject of its own, nor
    inside another prepositional phrase. A phrase on the verb itself is read
    with gapping ("with A on one front and B on the other")."""
    found = prep_objects(verb, word, gapping=True)
    if found:
        return found
    todo = [c for c in children(verb) if c.dep_ not in CLAUSE_BOUNDARIES]
    while todo:
        t = todo.pop()
        kids = children(t)
        if any(c.dep_ in ("nsubj", "nsubjpass") for c in kids):
            continue
        if t.dep_ == "prep":
            if t.lower_ == word:
                found.extend(pobjs(t))
            continue  # not into another phrase: "in response to attacks on Y" is not the verb's
        todo.extend(c for c in kids if c.dep_ not in CLAUSE_BOUNDARIES)
    return sorted(found, key=lambda x: x.i)


@slot("appositive")
def _appositive(ctx: Context, t, rule) -> list:
    """What the trigger noun names in apposition: "its backers, Russia and Iran" (which the parser
    often takes for a coordination: a name right after the comma)."""
    doc = t.doc
    return [c for c in children(t) if c.i > t.i and (c.dep_ == "appos" or (
        c.dep_ == "conj" and c.pos_ == "PROPN" and c.i == t.i + 2 and doc[t.i + 1].text == ","))]


@slot("poss")
def _possessor(ctx: Context, t, rule) -> list:
    return [c for c in children(t) if c.dep_ == "poss"]


@slot("compound")
def _compound(ctx: Context, t, rule) -> list:
    return [c for c in children(t) if c.dep_ in ("compound", "amod", "nmod") and c.i < t.i]


@slot("hyphen_pair")
def _hyphen_pair(ctx: Context, t, rule) -> list:
    """The two names a hyphen joins before the noun, each a modifier of it: "the Kenya-Uganda
    partnership", "the U.S.-Kenya partnership", "the Iran-Iraq war"."""
    doc = ctx.doc
    for c in children(t):
        if c.dep_ not in ("compound", "amod", "nmod") or c.i >= t.i:
            continue
        for a in (c.i - 2, c.i):
            if a + 2 < t.i and hyphened(doc, a):
                return [doc[a], doc[a + 2]]
    return []


@slot("light_subject")
def _light_subject(ctx: Context, t, rule) -> list:
    verb = light_verb(t, rule.light_verbs, ctx.words)
    return subjects(verb, ctx.words) if verb is not None else []


@slot("light_prep:")
def _light_preposition(ctx: Context, t, rule, word: str) -> list:
    verb = light_verb(t, rule.light_verbs, ctx.words)
    return prep_objects(verb, word, gapping=True) if verb is not None else []


@slot("opponent_with")
def _opponent_with(ctx: Context, t, rule) -> list:
    """Whom a war or a clash is "with" ("Israel's war with Hezbollah", "fought a border war with
    Eritrea"), on the noun or its light verb; none where it is also "against" someone, which makes
    the "with" a partner ("fought the war with the Northern Alliance against the Taliban")."""
    verb = light_verb(t, rule.light_verbs, ctx.words)
    holders = [t] if verb is None else [t, verb]
    found = [p for h in holders for p in prep_objects(h, "with")]
    if any(prep_objects(h, "against") for h in holders + found):  # the parser may hang it on the partner
        return []
    return found


@slot("modifier")
def _modifier(ctx: Context, t, rule) -> list:
    if t.dep_ not in ("amod", "compound"):
        return []
    found = [c for c in children(t) if c.dep_ in ("npadvmod", "compound", "nmod", "poss", "amod") and c.i < t.i]
    doc = t.doc
    if not found and t.i >= 2 and doc[t.i - 1].text == "-" and not doc[t.i - 2].whitespace_:
        found = [doc[t.i - 2]]  # "an al-Qaeda-associated group", parsed as two modifiers
    return found


@slot("modified")
def _modified(ctx: Context, t, rule) -> list:
    return [t.head] if t.dep_ in ("amod", "compound") and t.head.i > t.i else []


@slot("adverbial_subject")
def _adverbial_subject(ctx: Context, t, rule) -> list:
    """Who does what an "in ... / as ..." phrase qualifies: "In coordination with X, US forces
    conducted ...", "strikes in support of X" (whoever conducted them), "... as part of X"; after
    a verb of appointing or welcoming, the one appointed ("welcomed Y as a member of X")."""
    if t.dep_ != "pobj" or t.head.lower_ not in ("in", "with", "as"):
        return []
    qualified = t.head.head
    while qualified.pos_ == "ADP" and qualified.dep_ in ("conj", "prep") and qualified.head.i != qualified.i:
        qualified = qualified.head  # "coordinated with and in support of X"
    if t.head.lower_ == "as" and qualified.pos_ == "VERB" and lemma(qualified) in ctx.words.appointment_verbs:
        # "the United States welcomed Morocco as the newest member of Y": the one welcomed
        return [c for c in children(qualified) if c.dep_ in ("dobj", "nsubjpass")]
    if qualified.pos_ in ("VERB", "AUX"):
        if qualified.dep_ == "acl" and pos(qualified.head) == "NOUN":  # "strikes coordinated ... in support of X"
            return event_agents(qualified.head, ctx.words)
        return subjects(qualified, ctx.words)
    if pos(qualified) != "NOUN":
        return []
    found = event_agents(qualified, ctx.words) or _clause_subject(qualified, ctx.words)
    if not found and qualified.dep_ in ("nsubj", "nsubjpass"):
        found = [qualified]  # "The regime, with the support of Russia, besieged Aleppo": the subject itself
    return found


NOUN_PHRASE_LINKS = frozenset({"conj", "dobj", "pobj", "prep", "appos", "relcl", "attr"})


def _clause_subject(noun, words: Words) -> list:
    """Who does the action of the clause a noun phrase sits in, through its conjuncts, objects,
    prepositions and relative clauses: "airstrikes delivered munitions against ISIL targets,
    which include three tactical units ... and five supply routes in support of SDF operations"
    (the parser hung the phrase on the last of the targets)."""
    t = noun
    while t.dep_ in NOUN_PHRASE_LINKS and t.head.i != t.i:
        t = t.head
        if t.pos_ in ("VERB", "AUX") and t.dep_ != "relcl":
            return subjects(t, words)
    return []


@slot("event_subject")
def _event_subject(ctx: Context, t, rule) -> list:
    """Who does the event a participle describes: "(X conducted) strikes coordinated with Y"; not
    a noun of those who act ("(X welcomed the capture by) forces aligned with Y": the forces, not X)."""
    return event_agents(t.head, ctx.words) if t.dep_ in ("acl", "relcl") and pos(t.head) == "NOUN" \
        and lemma(t.head) in ctx.words.undertaking_nouns else []


def event_agents(noun, words: Words) -> list:
    """Whoever carries out an event noun: its possessor ("the coalition's strikes"), else the
    subject of the verb it is the object of ("X conducted strikes")."""
    return undertakers(noun, words)


@slot("undertaker")
def _undertaker(ctx: Context, t, rule) -> list:
    """Who wages an event noun, however the text says it: "an offensive led by X", "X's
    campaign", "the campaign X launched", "in the campaign ..., X has begun"."""
    return undertakers(t, ctx.words) if pos(t) == "NOUN" else []


@slot("joint")
def _joint(ctx: Context, t, rule) -> list:
    """The sides of a joint undertaking the trigger adjective modifies: who wages it ("a joint
    offensive by Chad and Niger", "Chad and Niger launched a joint offensive"), else whose it is
    ("the joint operation of the army and the militia", "a joint operation between the army and
    the militia") or the names that modify it ("joint U.S. and Philippine exercises")."""
    if t.dep_ != "amod":
        return []
    noun = t.head  # the parser may hang the adjective on the first name: "joint [U.S. and Philippine] exercises"
    while noun.dep_ in ("nmod", "compound", "amod") and noun.i < noun.head.i and pos(noun.head) == "NOUN":
        noun = noun.head
    if pos(noun) != "NOUN" or lemma(noun) not in ctx.words.undertaking_nouns:
        return []
    return undertakers(noun, ctx.words) or prep_objects(noun, "of") or prep_objects(noun, "between") or [
        c for c in children(noun) if c.dep_ in ("compound", "amod", "nmod") and c.i < noun.i and c.i != t.i]


@slot("head")
def _head(ctx: Context, t, rule) -> list:
    """The word a trigger attaches to: the group "including A and B" or "within NATO" is said of.
    A phrase the parser hung on a verb is said of the noun right before it, when that noun is an
    argument of the same verb ("working with Turkey within NATO")."""
    head = t.head
    if head.i == t.i:
        return []
    if pos(head) == "VERB" and t.i > 0:
        before = t.doc[t.i - 1]
        holder = before.head.head if before.dep_ == "pobj" else before.head
        if before.pos_ in ("PROPN", "NOUN") and before.dep_ in ("dobj", "pobj") and holder.i == head.i:
            return [before]
    return [head]


@slot("apposed_to")
def _apposed_to(ctx: Context, t, rule) -> list:
    """The group described by an appositive the trigger opens: "our partners, especially the
    Turks": the partners (not "the predominantly non-Arab X": the adverb opens no appositive)."""
    head = t.head
    opener = opening_adverb(head)
    return [head.head] if opener is not None and opener.i == t.i and head.head.i != head.i else []


@slot("pobj")
def _own_object(ctx: Context, t, rule) -> list:
    """The trigger's own object, when it works as a preposition ("including A and B"); past a noun
    of command, the one whose command it is ("under the command of X")."""
    objects = [c for c in children(t) if c.dep_ in ("pobj", "dobj")]
    return [o for c in objects for o in (prep_objects(c, "of") if lemma(c) in ctx.words.command_nouns else [c])]


@slot("governor")
def _governor(ctx: Context, t, rule) -> list:
    """What a prepositional phrase is said of: the noun it attaches to, or the subject of the verb
    ("X, together with Y, fought": X)."""
    head = t.head
    while head.pos_ in ("ADV", "ADP") and head.head.i != head.i:  # "together with", "along with"
        head = head.head
    if head.i == t.i:
        return []
    return subjects(head, ctx.words) if head.pos_ in ("VERB", "AUX") else [head]


@slot("named_governor")
def _named_governor(ctx: Context, t, rule) -> list:
    """The noun a prepositional phrase attaches to ("the coalition against Islamic State"), never
    the subject of a verb it attaches to ("voted against the plan")."""
    head = t.head
    return [head] if head.i != t.i and head.pos_ in ("NOUN", "PROPN") else []


@slot("predicated")
def _predicated(ctx: Context, t, rule) -> list:
    """What the trigger noun is said of: "X is an ally of", "X, an ally of", "he remained the president of";
    the names a colon lists after it ("three members of the Tigers: A, B and C")."""
    listed = _listed_after(ctx, t)
    if listed:
        return listed
    words = ctx.words
    if t.dep_ == "conj" and (t.head.dep_ in ("appos", "attr", "oprd")
                             or t.head.dep_ == "pobj" and t.head.head.lower_ == "as"):
        # "X, a lawyer and president of Y", "X is a lawyer and president of Y", "X served as the
        # commander and leader of Y": as the first noun
        # (not further: "with A, B, C and other partners" is a list of names, no role of A's)
        t = t.head
    head = t.head
    if t.dep_ == "pobj" and head.lower_ == "of" and counts(head.head, words):
        t = head.head  # "X is one of the members of Y", "X, one of the leaders of Y"
        head = t.head
    if t.dep_ == "pobj" and head.lower_ == "among" and lemma(head.head) in words.copular_verbs:
        return subjects(head.head, words)  # "X is among the members of Y": one of them
    if t.dep_ == "pobj" and head.lower_ == "as" and head.head.pos_ in ("VERB", "AUX"):
        verb = head.head  # "X serves as Y's spokesman", "Y appointed X as its commander"
        if lemma(verb) in words.appointment_verbs:
            return [c for c in children(verb) if c.dep_ in ("dobj", "nsubjpass")]
        return subjects(verb, words) if lemma(verb) in words.role_verbs else []
    if t.dep_ == "oprd":
        named = [c for c in children(t.head) if c.dep_ in ("nsubjpass", "dobj")]
        if named:  # "X was named the new leader of Y", "the council named X the president of Y": X
            return named
    if t.dep_ in ("attr", "oprd") or (t.dep_ == "xcomp" and lemma(t.head) in ctx.words.copular_verbs):
        return subjects(t.head, ctx.words)
    if t.dep_ == "appos":
        return [t.head]
    return []


def _listed_after(ctx: Context, t) -> list:
    """The first name of the list a colon opens right after a plural trigger's phrase, its
    conjuncts the others ("three members of the Tigers: A, B and C"), where the phrase ends on the
    trigger or on a name (in "leaders of three groups: A, B" the list says which groups)."""
    doc = t.doc
    colon = t.right_edge.i + 1
    if t.tag_ not in ("NNS", "NNPS") or colon + 1 >= len(doc) or doc[colon].text != ":":
        return []
    last = ctx.at.get(colon - 1)
    if colon - 1 != t.i and (last is None or last.kind != "name"):
        return []
    first = ctx.at.get(colon + 1)
    if first is None or first.kind != "name" or first.start != colon + 1:
        return []
    return [doc[first.start : first.end].root]


SLOT_NAMES = frozenset(SLOTS)
