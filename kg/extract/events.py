"""Event statements from the relation candidates: who did what to whom, from where to where,
where and when, as one document tells it.

The relation stage has already found each trigger ("escort", "ceasefire", "overran") and its
rule's subject and object; this stage reads the same parse, without parsing again. A trigger of a
relation that states events (kg.ttl: ``kg:eventRelation``) becomes a statement typed by the
event class, with the relation's subject and object in the roles the class gives them (an
evacuation's subject is its theme, its object the destination; a ceasefire's parties are all
agents), several where the text coordinates them. The parse adds the rest
(ontology/events.toml): whoever carries out an event whose relation names no agent (the clause's
subject, the by-phrase, who wages a noun), the origin ("from their enclave") and location ("in
south Beirut"), and the time (:mod:`kg.extract.timex`) the trigger's own clause gives ("the 2014
attack", "agreed a ceasefire on Sunday"), else the clause it completes ("prepared on Monday to
escort"), else a clause that happens with it ("captured when it overran Arsal in 2014"), else the
document's date, marked as such.

A trigger whose rule finds only one side ("the 2014 attack on Arsal", "bomb attacks struck an
area in south Beirut") is still an event, typed by the first rule it fires, as long as it has a
participant besides an agent (or parties, for a ceasefire); negated and hypothetical triggers
are not, as for the relations.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .. import ontology
from ..records import Document, Event, EventTime, Role
from . import timex
from .docindex import children, sentence_of, span_text
from .eventrules import EventRules, load_rules
from .relations import DOUBT, Reading
from .relations.parse import lemma, light_verb, pos, prep_objects, subjects
from .relations.polarity import polarity, reporter


@dataclass
class _Frame:
    """One trigger's event while it is being read: role -> entity keys, in the order found."""

    type: str
    trigger: object
    rule: object
    roles: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    descriptions: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    facts: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, role: str, keys) -> None:
        taken = {k for ks in self.roles.values() for k in ks}
        self.roles[role].extend(k for k in keys if k not in taken and k not in self.roles[role])

    def entities(self) -> set[str]:
        return {k for ks in self.roles.values() for k in ks}


def events(reading: Reading, document: Document, rules: EventRules | None = None) -> list[Event]:
    """The event statements of one document, in the order of their triggers."""
    rules = rules or load_rules()
    types = ontology.event_types()
    ctx = reading.context
    kept: dict[tuple[int, str], list] = defaultdict(list)
    for f in reading.kept:
        kept[(f.trigger, f.rule.id)].append(f)
    asserted_at = {f.trigger for f in reading.kept if f.rule.relation in types}
    frames: dict[tuple[int, str], _Frame] = {}
    one_sided: set[int] = set()
    for token, rule in reading.fired:
        kind = types.get(rule.relation)
        if kind is None or (rule.relation in rules.acts and not _is_act(token, rules.acts[rule.relation])):
            continue
        found = kept.get((token.i, rule.id), [])
        if found:
            subjects_, objects = [f.subject for f in found], [f.object for f in found]
        elif token.i in asserted_at or token.i in one_sided:
            continue  # the token's event is typed by the rule that found both sides, or its first rule
        else:
            one_sided.add(token.i)
            if polarity(token, rule.light_verbs) not in (("asserted", "attempted") if rule.attempts else ("asserted",)):
                continue
            subjects_, objects = reading.arguments(token, rule)
        frame = frames.setdefault((token.i, kind.name), _Frame(kind.name, token, rule))
        frame.add(kind.subject_role, subjects_)
        frame.add(kind.object_role, objects)
        frame.facts.extend((f.subject, rule.relation, f.object) for f in found)
    for frame in frames.values():
        _doer(frame, types, rules, ctx)
        _places(frame, rules, ctx)
    _places_of_simultaneous_clauses(frames, rules, ctx)
    kept_frames = [frame for _, frame in sorted(frames.items(), key=lambda kv: kv[0]) if _enough(frame, types, rules)]
    anchored = _anchored(ctx.doc, {i for i, _ in frames}) if kept_frames else {}
    return [_event(frame, document, _time(frame.trigger, anchored, document, rules), ctx) for frame in kept_frames]


def _is_act(token, acts) -> bool:
    """"agreed to support", "formed an alliance": done, not a state ("an ally of", "Iran-backed")."""
    if pos(token) == "VERB":
        return token.dep_ == "xcomp" and lemma(token.head) in acts.verbs
    return pos(token) == "NOUN" and light_verb(token, acts.light_verbs) is not None


def _doer(frame: _Frame, types, rules: EventRules, ctx) -> None:
    """Whoever carries out an event whose relation names no agent: the subject of a verb ("the
    Syrian army and Hezbollah prepared to escort Daesh fighters": the theme is Daesh), the
    by-phrase of a noun ("the evacuation of civilians by the army"; not the subject of the verb
    it is the object of: "IS agreed to an evacuation" is not IS moving others)."""
    kind = next(t for t in types.values() if t.name == frame.type)
    if rules.doer in (kind.subject_role, kind.object_role):
        return
    token = frame.trigger
    heads = subjects(token) if pos(token) == "VERB" else prep_objects(token, "by") if pos(token) == "NOUN" else []
    frame.add(rules.doer, [k for t in heads for k in ctx.entities_of(t) if ontology.is_a(ctx.type_of(k), "Agent")])


def _places(frame: _Frame, rules: EventRules, ctx) -> None:
    """Origin and location from prepositions of the event's clause; a place that only qualifies
    another participant ("to Al-Bukamal in eastern Syria") is not one."""
    holders = _place_holders(frame.trigger)
    present = {c.lower_ for h in holders for c in children(h) if c.dep_ == "prep"}
    for place in rules.places:
        if place.types and frame.type not in place.types:
            continue
        keys, words = [], []
        for preposition in (p for p in place.prepositions if p in present):
            for token in (t for h in holders for t in prep_objects(h, preposition)):
                if _qualifies(token, frame, ctx):
                    continue
                found = [k for k in ctx.entities_of(token) if ontology.is_a(ctx.type_of(k), "Location")]
                keys.extend(found)
                if not found and place.describe and pos(token) == "NOUN":
                    words.append(_phrase(token))
        frame.add(place.role, keys)
        if not frame.roles.get(place.role):
            frame.descriptions[place.role].extend(w for w in words if w not in frame.descriptions[place.role])


def _place_holders(trigger) -> list:
    """The words whose prepositions may place an event: the trigger, its object ("escort
    fighters to X from Y", as the parser often hangs them) and, for a noun that is the subject or
    object of a verb, that verb and its object ("bomb attacks struck an area in south Beirut");
    not a clause about something else ("territory it held in Syria")."""
    holders = [trigger]
    if pos(trigger) == "NOUN" and trigger.dep_ in ("nsubj", "nsubjpass", "dobj") and trigger.head.pos_ in ("VERB", "AUX"):
        holders.append(trigger.head)
    for verb in [h for h in holders if h.pos_ in ("VERB", "AUX")]:
        holders += [c for c in children(verb) if c.dep_ == "dobj" and c.i != trigger.i]
    return holders


def _qualifies(token, frame: _Frame, ctx) -> bool:
    """Whether ``token`` hangs, below the trigger, on a word that names a participant already."""
    taken = frame.entities()
    t = token.head
    while t.i != frame.trigger.i and t.head.i != t.i:
        mention = ctx.at.get(t.i)
        if mention is not None and mention.key in taken:
            return True
        t = t.head
    return False


def _phrase(token) -> str:
    """The words of a noun phrase: "their enclave on the border with Lebanon"."""
    subtree = list(token.subtree)
    return span_text(token.doc[subtree[0].i:subtree[-1].i + 1]).strip()


def _places_of_simultaneous_clauses(frames: dict[tuple[int, str], _Frame], rules: EventRules, ctx) -> None:
    """"the soldiers it captured when it overran the town of Arsal": the capture took place where
    the overrunning did, at the place it overran."""
    by_token = defaultdict(list)
    for (i, _type), frame in frames.items():
        by_token[i].append(frame)
    location = next(p.role for p in rules.places if not p.describe)
    for frame in frames.values():
        for clause in _simultaneous(frame.trigger, rules):
            for other in by_token.get(clause.i, ()):
                frame.add(location, [k for k in sorted(other.entities()) if ontology.is_a(ctx.type_of(k), "Location")])


def _enough(frame: _Frame, types, rules: EventRules) -> bool:
    """An event needs a participant besides whoever acts ("Syria's civil war" names no one it
    is fought against), except one whose parties are all agents (a ceasefire)."""
    kind = next(t for t in types.values() if t.name == frame.type)
    if kind.subject_role == kind.object_role:
        return bool(frame.entities())
    return any(keys for role, keys in frame.roles.items() if role != rules.doer)


def _event(frame: _Frame, document: Document, time: EventTime | None, ctx) -> Event:
    token, rule = frame.trigger, frame.rule
    sentence = sentence_of(token)
    reported_by, doubtful = reporter(ctx, token)
    roles = [Role(role, key) for role, keys in frame.roles.items() for key in keys]
    roles += [Role(role, None, words) for role, phrases in frame.descriptions.items() for words in phrases]
    return Event(
        type=frame.type, doc_id=document.id, trigger=token.text, trigger_start=token.idx,
        trigger_end=token.idx + len(token.text), rule=rule.id,
        roles=tuple(sorted(roles, key=lambda r: (r.role, r.entity or "", r.description or ""))),
        time=time, evidence=span_text(sentence).strip(), start_char=sentence.start_char,
        end_char=sentence.end_char, confidence=round(rule.confidence * (DOUBT if doubtful else 1.0), 3),
        facts=tuple(dict.fromkeys(frame.facts)), reported_by=reported_by)


# ------------------------------------------------------------------ time


def _time(trigger, anchored: dict[int, list], document: Document, rules: EventRules) -> EventTime | None:
    """The time of the trigger's own clause, else of the clauses it completes, else of a clause
    that happens with it, else the document's date (``anchored``: see :func:`_anchored`)."""
    for level in _clauses(trigger, rules):
        for span in sorted((s for i in level for s in anchored.get(i, ())), key=lambda s: s.start):
            time = timex.read(span, document.date, rules)
            if time is not None:
                return time
    return timex.document_time(document.date)


def _anchored(doc, triggers: set[int]) -> dict[int, list]:
    """Time expressions by the clause they date: the verb or event trigger they hang on, through
    prepositions, adverbs ("late on Sunday") and a verb's object ("attacked the town in 2014"). One
    inside another argument ("by militants in Beirut, Lebanon August 27, 2017", a photo caption the
    parser read as a noun phrase) dates that phrase, not the clause, and is left out."""
    out: dict[int, list] = defaultdict(list)
    for span in timex.expressions(doc):
        t = span.root.head
        while t.i not in triggers and t.pos_ not in ("VERB", "AUX") and t.head.i != t.i and (
                t.pos_ in ("ADP", "ADV") or t.dep_ == "dobj"):
            t = t.head
        if t.i in triggers or t.pos_ in ("VERB", "AUX"):
            out[t.i].append(span)
    return out


def _clauses(trigger, rules: EventRules) -> list[list[int]]:
    """Token indices whose time expressions date ``trigger``, best first: the trigger and (for a
    noun) the clauses about it; the verb it is the subject or object of and the verbs it completes
    or is coordinated with; clauses that happen at the same time as those."""
    own = [trigger.i]
    verb = trigger
    if pos(trigger) == "NOUN":
        own += [c.i for c in children(trigger) if c.dep_ in ("relcl", "acl")]
        head = trigger.head
        if trigger.dep_ in ("dobj", "nsubj", "nsubjpass", "attr") and head.pos_ in ("VERB", "AUX"):
            verb = head
        elif trigger.dep_ == "pobj" and head.dep_ == "prep" and head.head.pos_ in ("VERB", "AUX"):
            verb = head.head
        else:
            verb = None
    chain = [verb] if verb is not None and verb.i != trigger.i else []
    t = verb
    while t is not None and t.dep_ in ("xcomp", "conj") and t.head.i != t.i:
        t = t.head
        chain.append(t)
    simultaneous = [c.i for v in [trigger, *chain] for c in _simultaneous(v, rules)]
    return [own, [t.i for t in chain], simultaneous]


def _simultaneous(verb, rules: EventRules) -> list:
    """Clauses of ``verb`` opened by "when", "as", "while": they happen when it does."""
    return [c for c in children(verb) if c.dep_ == "advcl"
            and any(m.dep_ in ("advmod", "mark") and m.lower_ in rules.simultaneous for m in children(c))]
