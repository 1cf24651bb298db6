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

A trigger whose rules find only one side ("the 2014 attack on Arsal", "bomb attacks struck an
area in south Beirut") is still an event, typed by the first rule it fires (with what each of that
type's rules finds), as long as it has the participants its class needs (ontology/events.toml
[needs]: a capture captures something, an attack has an attacker, a target or a place); negated
and hypothetical triggers are not, as for the relations. Who did it may be named outside the
trigger's clause ("blamed X for the bombing", "X claimed responsibility for the attack"); one
event told by a noun and its verb ("Russian strikes hit Idlib") is one statement.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .. import ontology
from ..dates import YEAR
from ..records import Document, Event, EventTime, Role
from . import timex
from .docindex import children, paragraph_of, sentence_of, span_text, tokens
from .eventrules import EventRules, load_rules
from .parse import forms, lemma, light_verb, pos, prep_objects, subjects
from .polarity import polarity, reporter
from .relations import DOUBT, Reading
from .words import Words


@dataclass
class _Frame:
    """One trigger's event while it is being read: role -> entity keys, in the order found."""

    type: str
    trigger: object
    rule: object
    roles: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    descriptions: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    facts: list[tuple[str, str, str]] = field(default_factory=list)
    refers_to: _Frame | None = None  # the earlier statement of the same event ("the attack", "it")

    def add(self, role: str, keys) -> None:
        taken = {k for ks in self.roles.values() for k in ks}
        self.roles[role].extend(k for k in keys if k not in taken and k not in self.roles[role])

    def absorb(self, other: _Frame) -> None:
        """Take ``other``'s participants, described places and facts: one event told twice."""
        for role, keys in other.roles.items():
            self.add(role, keys)
        for role, words in other.descriptions.items():
            self.descriptions[role].extend(w for w in words if w not in self.descriptions[role])
        self.facts.extend(other.facts)

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
    one_sided: dict[int, str] = {}
    for token, rule in reading.fired:
        kind = types.get(rule.relation) if rule.event else None
        if kind is None or (rule.relation in rules.acts and not _is_act(token, rules.acts[rule.relation], ctx.words)):
            continue
        found = kept.get((token.i, rule.id), [])
        if found:
            subjects_, objects = [f.subject for f in found], [f.object for f in found]
        elif token.i in asserted_at or one_sided.setdefault(token.i, kind.name) != kind.name:
            continue  # the token's event is typed by the rule that found both sides, or its first rule
        else:
            stated = ("asserted", "attempted") if rule.attempts else ("asserted",)
            if polarity(token, ctx.words, rule.light_verbs) not in stated:
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
    _merge_nouns_into_their_verbs(frames)
    for key in [k for k, frame in frames.items() if _habitual(frame.trigger)]:
        del frames[key]
    _merge_references(frames, ctx)
    _pronoun_references(frames, rules, ctx)
    kept_frames = [frame for _, frame in sorted(frames.items(), key=lambda kv: kv[0]) if _enough(frame, rules, ctx)]
    anchored = _anchored(ctx.doc, {i for i, _ in frames}) if kept_frames else {}
    times: dict[int, EventTime | None] = {}
    for frame in kept_frames:
        time = _time(frame.trigger, anchored, document, rules)
        if (time is None or time.from_document) and frame.refers_to is not None:
            time = times.get(id(frame.refers_to), time)  # the time of the event it refers to
        times[id(frame)] = time
    return [_event(frame, document, times[id(frame)], ctx) for frame in kept_frames]


def _is_act(token, acts, words: Words) -> bool:
    """"agreed to support", "formed an alliance": done, not a state ("an ally of", "Iran-backed")."""
    if pos(token) == "VERB":
        return token.dep_ == "xcomp" and lemma(token.head) in acts.verbs
    return pos(token) == "NOUN" and light_verb(token, acts.light_verbs, words) is not None


def _doer(frame: _Frame, types, rules: EventRules, ctx) -> None:
    """Whoever carries out an event whose relation names no agent: the subject of a verb ("the
    Syrian army and Hezbollah prepared to escort Daesh fighters": the theme is Daesh), the
    by-phrase of a noun ("the evacuation of civilians by the army"; not the subject of the verb
    it is the object of: "IS agreed to an evacuation" is not IS moving others)."""
    kind = next(t for t in types.values() if t.name == frame.type)
    token = frame.trigger
    if rules.doer not in (kind.subject_role, kind.object_role):
        heads = subjects(token, ctx.words) if pos(token) == "VERB" else \
            prep_objects(token, "by") if pos(token) == "NOUN" else []
        frame.add(rules.doer, _agents(heads, ctx))
    if not frame.roles.get(rules.doer):
        frame.add(rules.doer, _agents(_culprits(token, rules.culprits, ctx.words), ctx))


def _agents(tokens, ctx) -> list[str]:
    return [k for t in tokens for k in ctx.entities_of(t) if ontology.is_a(ctx.type_of(k), "Agent")]


def _culprits(trigger, culprits, words: Words) -> list:
    """Whom the sentence holds to account for the event or who claims it, outside the trigger's
    own clause (events.toml [culprits]): "blamed X for the bombing", "X was charged with
    masterminding the attacks", "X claimed responsibility for the attack", "X claimed the
    bombing", "a man accused of planning the attack"."""
    for clause in (c for c in children(trigger)
                   if c.dep_ in ("relcl", "acl") and forms(c, words) & (culprits.deeds | culprits.claim)):
        found = [s for s in subjects(clause, words) if s.lower_ not in words.relative_pronouns]
        if found:
            return found  # "the bombing, which was carried out by X"; "the attack X claimed"
    if trigger.dep_ in ("nsubj", "nsubjpass"):  # "the attack is believed to have been carried out by X"
        for clause in (c for c in children(trigger.head) if c.dep_ == "xcomp" and forms(c, words) & culprits.deeds):
            found = subjects(clause, words)
            if found:
                return found
    t = trigger
    while t.head.i != t.i:
        if t.dep_ == "pobj" or (t.dep_ == "dobj" and pos(t.head) == "VERB"):
            head = t.head.head if t.dep_ == "pobj" else t.head
        elif t.dep_ == "prep" or (t.dep_ in ("pcomp", "xcomp") and forms(t, words) & culprits.deeds):
            t = t.head
            continue
        else:
            return []
        if lemma(head) in culprits.claim_nouns and head.dep_ == "dobj" and lemma(head.head) in culprits.claim:
            return subjects(head.head, words)
        if pos(head) != "VERB" and head.pos_ != "AUX":
            return []
        if lemma(head) in culprits.claim and t.dep_ == "dobj" and t.i == trigger.i:
            return subjects(head, words)
        if lemma(head) in culprits.blame and (t.dep_ == "pobj" or forms(t, words) & culprits.deeds):
            passive = [c for c in children(head) if c.dep_ == "nsubjpass"]
            if passive:
                return passive
            if head.dep_ == "acl" and head.tag_ == "VBN":
                return [head.head]  # "a man accused of the attack"
            return [c for c in children(head) if c.dep_ == "dobj"]
        if not forms(head, words) & culprits.deeds:
            return []
        t = head
    return []


def _merge_nouns_into_their_verbs(frames: dict[tuple[int, str], _Frame]) -> None:
    """One event told by a noun and the verb it is the subject or object of ("Russian strikes hit
    Idlib", "X exploded a car bomb": the verb's statement, with the noun's participants too), or
    by a noun and its relative clause ("the attack that killed X": the noun's), or by a noun
    modifying another ("the IRA bombing campaign": the campaign's; "attack helicopters" tell
    none)."""
    for (i, type_), frame in sorted(frames.items(), key=lambda kv: kv[0][0]):
        token = frame.trigger
        other = frames.get((token.head.i, type_))
        if pos(token) == "NOUN" and token.dep_ == "compound" and other is None and (i, type_) in frames:
            del frames[(i, type_)]  # a kind of thing, not an event: "attack helicopters", "a strike force"
            continue
        if other is None or (i, type_) not in frames:
            continue
        if pos(token) == "NOUN" and token.dep_ in ("nsubj", "nsubjpass", "dobj") and pos(other.trigger) == "VERB":
            into = other  # the verb's statement, with the noun's participants too
        elif pos(token) == "NOUN" and token.dep_ == "compound" and pos(other.trigger) == "NOUN":
            into = other  # "the IRA bombing campaign": the campaign's
        elif pos(token) == "VERB" and token.dep_ in ("relcl", "acl") and pos(other.trigger) == "NOUN":
            into = other  # "the attack that killed X": the noun's
        else:
            continue
        into.absorb(frame)
        del frames[(i, type_)]


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
                found = _places_in(token, place.prepositions, ctx)
                keys.extend(found)
                if not found and place.describe and pos(token) == "NOUN":
                    words.append(_phrase(token))
        if not keys and not place.describe:  # "the bombing of a church in Jolo": where its target was
            for token in _targets(frame.trigger, ctx):
                keys.extend(_places_in(token, place.prepositions, ctx))
        frame.add(place.role, keys)
        if not frame.roles.get(place.role):
            frame.descriptions[place.role].extend(w for w in words if w not in frame.descriptions[place.role])


def _places_in(token, prepositions, ctx) -> list[str]:
    """The places ``token`` names, or, where it names nothing ("a market in Quetta", "a police
    station near Kandahar"), those its own prepositions name, two levels down at most."""
    if ctx.entities_of(token):  # it names something: a place, or something that places nothing
        return _places_named(token, ctx)
    found: list[str] = []
    for _ in range(2):
        inner = [o for p in prepositions for o in prep_objects(token, p)]
        found += [k for o in inner for k in _places_named(o, ctx)]
        if found or not inner or any(ctx.entities_of(o) for o in inner):
            return found
        token = inner[0]
    return found


def _places_named(token, ctx) -> list[str]:
    return [k for k in ctx.entities_of(token) if ontology.is_a(ctx.type_of(k), "Location")]


def _targets(trigger, ctx) -> list:
    """The unnamed things an event noun is done to ("the bombing of a church", "an attack on a
    hotel") or a verb's object ("bombed a mosque"): the places where they are are the event's."""
    if pos(trigger) == "NOUN":
        return [o for p in ("of", "on", "against", "at") for o in prep_objects(trigger, p) if not ctx.entities_of(o)]
    return [c for c in children(trigger) if c.dep_ in ("dobj", "nsubjpass") and not ctx.entities_of(c)]


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


def _habitual(trigger) -> bool:
    """A verb in the simple present outside a headline states what happens, not an event:
    "insurgents who continue to ambush convoys", "the militia clashes with the army" (a headline's
    present, "Militants attack convoy", tells one). Climbs complements to the finite verb."""
    verb = trigger
    while verb.dep_ in ("xcomp", "conj") and verb.head.i != verb.i and verb.head.pos_ in ("VERB", "AUX"):
        verb = verb.head
    if pos(trigger) != "VERB" or verb.tag_ not in ("VBZ", "VBP"):
        return False
    if any(c.dep_ in ("aux", "auxpass") for c in children(verb)):
        return False
    sentence = sentence_of(trigger)
    return span_text(sentence).rstrip()[-1:] in (".", "!", "?", '"', "\u201d")


DEFINITE = {"the", "this", "that", "these", "those"}


def _merge_references(frames: dict[tuple[int, str], _Frame], ctx) -> None:
    """A definite event noun in a later sentence ("An explosion killed twelve in Kabul. The
    Taliban claimed the attack.") tells the event an earlier statement of its class told, unless
    their participants differ. Saying nothing new, it is that statement; naming a participant
    ("the Taliban claimed"), each statement has what both say."""
    earlier: list[_Frame] = []
    for key, frame in sorted(frames.items(), key=lambda kv: kv[0][0]):
        token = frame.trigger
        same = [f for f in earlier if f.type == frame.type and sentence_of(f.trigger).start != sentence_of(token).start]
        if pos(token) == "NOUN" and same and any(c.dep_ == "det" and c.lower_ in DEFINITE for c in children(token)) \
                and not any(c.dep_ in ("nummod", "amod") and c.like_num for c in children(token)):
            into = same[-1]
            if all(not frame.roles.get(role) or not into.roles.get(role) or set(frame.roles[role]) & set(into.roles[role])
                   for role in set(frame.roles) | set(into.roles)):
                news = {role: keys for role, keys in frame.roles.items() if set(keys) - set(into.roles.get(role, ()))}
                for role, keys in news.items():
                    into.add(role, keys)
                if not news:  # it says nothing the first did: the first's statement
                    into.facts.extend(frame.facts)
                    del frames[key]
                    continue
                for role, keys in list(into.roles.items()):  # a statement of its own, of the same event
                    frame.add(role, keys)
                frame.refers_to = into
        earlier.append(frame)


PRONOUNS = {"it", "this", "that", "they", "these", "those", "which"}


def _pronoun_references(frames: dict[tuple[int, str], _Frame], rules: EventRules, ctx) -> None:
    """"A car bomb exploded in Madrid. It was carried out by ETA.": a verb of `deeds` or `claim`
    (events.toml [culprits]) whose object is a pronoun tells who did the event last stated
    before it; a statement of that event in its own sentence, with its doer."""
    if not frames:
        return
    culprits = rules.culprits
    ordered = sorted(frames.values(), key=lambda f: f.trigger.i)
    for verb in tokens(ctx.doc):
        if pos(verb) != "VERB" or not forms(verb, ctx.words) & (culprits.deeds | culprits.claim):
            continue
        done_to = [c for c in children(verb) if c.dep_ in ("nsubjpass", "dobj")]
        if not done_to and verb.dep_ == "xcomp":  # "it is believed to have been carried out by X"
            done_to = [c for c in children(verb.head) if c.dep_ in ("nsubjpass", "nsubj")]
        if not any(c.lower_ in PRONOUNS for c in done_to):
            continue
        if verb.dep_ == "relcl" and any(f.trigger.i == verb.head.i for f in frames.values()):
            continue  # "the bombing, which X carried out": the bombing's (see _culprits)
        before = [f for f in ordered if f.trigger.i < verb.i]
        doers = _agents(subjects(verb, ctx.words), ctx)
        if not before or not doers or polarity(verb, ctx.words) != "asserted":
            continue
        told = before[-1]
        told.add(rules.doer, doers)
        frame = _Frame(told.type, verb, told.rule, refers_to=told)
        for role, keys in told.roles.items():
            frame.add(role, keys)
        frames[(verb.i, told.type)] = frame


def _enough(frame: _Frame, rules: EventRules, ctx) -> bool:
    """Whether the trigger has the participants its event class needs (events.toml [needs]): a
    capture of nothing, or a war waged against no one, is not an event."""
    filled = {role for role, keys in frame.roles.items() if keys}
    needs, trigger = rules.needs, frame.trigger
    if lemma(trigger) in needs.advocacy and not (
            any(c.dep_ in ("amod", "compound") and c.lower_ in needs.military for c in children(trigger))
            or any(ontology.fits(ctx.type_of(k), needs.armed) for k in frame.roles.get(rules.doer, ()))):
        return False  # "a campaign against the death penalty"
    return needs.met(frame.type, lemma(trigger), filled)


def _event(frame: _Frame, document: Document, time: EventTime | None, ctx) -> Event:
    token, rule = frame.trigger, frame.rule
    if rule.only_with_light_verb and pos(token) == "NOUN":  # "exploded a car bomb": told by "exploded"
        token = light_verb(token, rule.light_verbs, ctx.words) or (
            token.head if token.dep_ in ("nsubj", "nsubjpass") else token)
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
    return _told_before(trigger, anchored, document, rules) or timex.document_time(document.date)


def _told_before(trigger, anchored: dict[int, list], document: Document, rules: EventRules) -> EventTime | None:
    """The date (a day or a month, not a bare year) a clause of the sentence before, in the same
    paragraph, gives: "On Sunday, rebels seized the airport. They also took the town." The
    narrative goes on at the time it set."""
    own = sentence_of(trigger)
    if own.start == 0:
        return None
    before = sentence_of(trigger.doc[own.start - 1])
    if paragraph_of(before[0]) != paragraph_of(trigger):
        return None
    spans = sorted((s for spans in anchored.values() for s in spans if before.start <= s.start < own.start),
                   key=lambda s: -s.start)
    for span in spans:
        time = timex.read(span, document.date, rules)
        if time is not None and time.date.precision != YEAR:
            return time
    return None


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
