"""Whether the text states a trigger as a fact, and who it says states it.

Only statements the text makes as facts, or reports as facts, become assertions: negated, denied
and hypothetical triggers are dropped (:func:`polarity`); reported speech keeps its reporter and
doubtful reporting verbs ("claimed") lower the confidence (:func:`reporter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .docindex import children, sentence_numbers, sentence_of, sentence_roots, span_text
from .parse import forms, lemma, pobjs, subjects

if TYPE_CHECKING:
    from .relations.context import Context
    from .words import Words

# the dependencies through which a trigger's polarity is inherited from the words above it
CLIMB_DEPS = {"xcomp", "dobj", "pobj", "prep", "attr", "acomp", "pcomp", "oprd", "conj", "compound",
              "amod", "advcl", "nmod", "appos", "npadvmod", "dative", "ccomp"}


def polarity(trigger, words: Words, light_verbs: frozenset[str] = frozenset()) -> str:
    """"asserted", "negated", "hypothetical" or "attempted" for a trigger, from the words governing
    it. "attempted" is an aim someone acted on ("tried to seize X", "launched an offensive to
    capture X"): no capture, but the fighting it took was real, which attack rules may count.

    Walks up from the trigger through complements (not through subjects or relative clauses,
    whose negation is about something else), counting negations and verbs of stopping, so
    "did not involve coordination" is negated and "will not stop supporting" is asserted.
    """
    # "his pledged recapture of Sana'a", "a failed attempt": the event is not asserted
    if any(c.dep_ in ("amod", "compound") and c.lower_ in words.non_factual_modifiers for c in children(trigger)):
        return "hypothetical"
    # "their fight against X", "the group's offensive": a possessed event is presupposed, as a
    # definite description's referent is, and the presupposition survives a negation or a
    # modality above it ("pledged support for them in their fight against X", "did not join the
    # group's offensive"); a verb that stops or denies it still does ("ended its offensive")
    # ("the Houthi offensive": a definite event named by its side is presupposed as well)
    kids = children(trigger)
    presupposed = trigger.pos_ == "NOUN" and (any(c.dep_ == "poss" for c in kids) or (
        any(c.dep_ == "det" and c.lower_ == "the" for c in kids)
        and any(c.dep_ in ("compound", "amod", "nmod") and c.pos_ == "PROPN" and c.i < trigger.i
                for c in kids)))
    stopped = False
    flips = 0
    t = trigger
    first = True
    while True:
        kids = children(t)
        if any(c.dep_ == "neg" or (c.dep_ == "det" and c.lower_ == "no") for c in kids):
            flips += 1
        if not first:
            verdict = _governing_verb(t, words, light_verbs, flips)
            if verdict == "cessation":
                flips += 1
                stopped = True
            elif verdict is not None and not (presupposed and verdict in ("hypothetical", "attempted")):
                return verdict
        here = _hypothetical_here(t, kids, words)
        if here and (first or not presupposed):
            return here
        if t.dep_ not in CLIMB_DEPS or t.head.i == t.i:
            break
        if t.dep_ == "ccomp" and lemma(t.head) not in words.denial_verbs:
            break
        t = t.head
        first = False
    if presupposed and not stopped:
        return "asserted"
    return "negated" if flips % 2 else "asserted"


def _governing_verb(t, words: Words, light_verbs: frozenset[str], flips: int) -> str | None:
    """What a word above the trigger does to it: deny it, stop it, or make it an aim."""
    lemma_ = lemma(t)
    if lemma_ in words.denial_verbs:
        return "negated" if flips % 2 == 0 else "asserted"
    if lemma_ in words.cessation_verbs:
        return "cessation"
    if lemma_ in words.hypothetical_verbs and t.pos_ in ("VERB", "AUX") and not (forms(t, words) & light_verbs):
        # ("pledged allegiance to X" pledges nothing: "pledge" is the rule's own light verb)
        return "attempted" if lemma_ in words.attempt_verbs else "hypothetical"
    return None


def _hypothetical_here(t, kids, words: Words) -> str | None:
    """"hypothetical" or "attempted" if the trigger's own clause makes it so."""
    if any(c.dep_ == "aux" and c.lower_ in words.hypothetical_auxiliaries for c in kids):
        return "hypothetical"
    if any(c.dep_ == "aux" and c.lower_ == "to" for c in kids):
        # "launched an offensive to capture Tripoli", "the offensive was ..., to take Sirte": the aim of
        # an attempt or an undertaking is no capture (but it is fighting); "boarded buses to transport
        # them to X" states the transport
        if t.dep_ == "advcl" and (lemma(t.head) in words.attempt_verbs or any(
                lemma(c) in words.undertaking_nouns for c in children(t.head) if c.dep_ in ("attr", "nsubj", "dobj"))):
            return "attempted"
        if t.dep_ == "acl" or (t.dep_ == "relcl" and lemma(t.head) in words.modality_nouns):
            return "attempted" if _acted_on(t.head, words) else "hypothetical"
    if any(c.dep_ == "mark" and c.lower_ in words.conditional_marks for c in kids):
        return "hypothetical"
    if t.dep_ in ("xcomp", "ccomp", "attr", "advcl") and any(c.dep_ == "aux" and c.lower_ == "to" for c in kids) \
            and lemma(t.head) in words.copular_verbs and any(
                c.dep_ == "nsubj" and lemma(c) in words.modality_nouns for c in children(t.head)):
        return "hypothetical"  # "the intention was to destroy X"
    if t.dep_ == "csubj" and any(c.dep_ == "aux" and c.lower_ in words.hypothetical_auxiliaries
                                 for c in children(t.head)):
        return "hypothetical"  # "recapturing X would be a milestone"
    return None


def _acted_on(noun, words: Words) -> bool:
    """An aim something is being done for: "an offensive to capture X", "the campaign to defeat X"."""
    return lemma(noun) in words.undertaking_nouns


def reporter(ctx: Context, trigger) -> tuple[str | None, bool]:
    """Who the sentence says made the statement, and whether the verb casts doubt ("claimed")."""
    words = ctx.words
    t = trigger
    while t.dep_ != "ROOT" and t.head.i != t.i:
        if t.dep_ == "ccomp" or (t.dep_ == "conj" and t.head.dep_ == "ccomp"):
            verb = t.head if t.dep_ == "ccomp" else t.head.head
            if lemma(verb) in words.reporting_verbs:
                doubtful = lemma(verb) in words.doubtful_reporting_verbs
                return _first_entity(ctx, subjects(verb, words)), doubtful
        t = t.head
    sent = sentence_of(trigger)
    if "ccording to" in span_text(sent):
        # "According to the Syrian Observatory, ..."
        for tok in sent:
            if tok.lower_ == "according" and tok.i + 1 < len(ctx.doc) and ctx.doc[tok.i + 1].lower_ == "to":
                found = _first_entity(ctx, pobjs(ctx.doc[tok.i + 1]))
                if found:
                    return found, False
    root = sentence_roots(ctx.doc)[sentence_numbers(ctx.doc)[trigger.i]]
    if lemma(root) in words.reporting_verbs and trigger.i > root.i:
        found = _first_entity(ctx, [c for c in children(root) if c.dep_ == "nsubj"])
        if found:
            return found, lemma(root) in words.doubtful_reporting_verbs
    return None, False


def _first_entity(ctx: Context, tokens) -> str | None:
    for t in tokens:
        keys = ctx.entities_of(t)
        if keys:
            return keys[0]
    return None
