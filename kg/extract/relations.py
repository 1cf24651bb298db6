"""spaCy Doc + resolved mentions -> Assertions, driven by the relation lexicon.

Predicate rules find a trigger word (a verb or a noun), then fill the relation's subject and
object from argument *slots*: places in the dependency parse named in ontology/lexicon.toml.
A slot yields tokens; :meth:`Extractor.entities_of` turns a token into the entities it stands
for, looking through generic heads ("the town of Arsal", "Houthi fighters", "militants of the
group formerly known as Nusra Front"), titles ("President Bashar al-Assad") and coordination.
Structural rules (titles, nationality, location) read modifiers and appositions.

Only statements the text makes as facts, or reports as facts, become assertions: negated,
denied and hypothetical triggers are dropped (see :func:`polarity`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .components import children, sentence_numbers, sentence_of, sentence_roots, span_text, tokens
from .gazetteer import Gazetteer, Nominals, load_gazetteer, load_nominals
from .lexicon import Lexicon, Rule, load_lexicon
from ..records import Assertion, Mention
from ..ontology import is_a

NEGATORS = {"not", "n't", "never", "no", "nor", "neither", "without"}
DENIAL_VERBS = {"deny", "refute", "reject", "dismiss", "disavow", "rule"}
CESSATION_VERBS = {"stop", "cease", "end", "halt", "quit", "abandon", "suspend", "fail", "refuse"}
HYPOTHETICAL_VERBS = {"threaten", "plan", "intend", "consider", "propose", "want", "seek", "hope",
                      "attempt", "try", "aim", "vow", "pledge", "warn", "urge", "demand", "call",
                      "ask", "offer", "expect", "fear", "may", "could", "might", "would", "should"}
HYPOTHETICAL_AUX = {"could", "might", "may", "would", "should", "must"}
ATTEMPT_VERBS = {"launch", "mount", "begin", "start", "try", "attempt", "fight", "battle", "push", "struggle",
                 "race", "seek", "deploy", "send", "mobilize", "mobilise", "advance", "march"}
CONDITIONAL_MARKS = {"if", "unless", "whether", "lest"}
DOUBTFUL_REPORTING = {"claim", "allege", "accuse"}
CLIMB_DEPS = {"xcomp", "dobj", "pobj", "prep", "attr", "acomp", "pcomp", "oprd", "conj", "compound",
              "amod", "advcl", "nmod", "appos", "npadvmod", "dative", "ccomp"}
RELATIVE_PRONOUNS = {"which", "that", "who", "whom", "whose"}
COPULAR_VERBS = {"be", "remain", "become", "stay", "serve"}
NON_FACTUAL_MODIFIERS = {"pledged", "planned", "attempted", "failed", "intended", "proposed", "threatened",
                         "possible", "potential", "expected", "imminent", "would-be", "alleged", "rumored",
                         "rumoured", "hoped", "promised", "aborted", "abortive", "future"}
ARMED_FORCES_WORDS = {"army", "military", "forces", "troops", "armed forces"}


@dataclass(frozen=True)
class Found:
    """A candidate fact before provenance: entity keys, the rule, and the trigger token."""

    subject: str
    object: str
    rule: Rule
    trigger: int


class Extractor:
    """Apply the lexicon to one parsed document at a time."""

    def __init__(self, lexicon: Lexicon | None = None, gazetteer: Gazetteer | None = None,
                 nominals: Nominals | None = None) -> None:
        self.lexicon = lexicon or load_lexicon()
        self.gazetteer = gazetteer or load_gazetteer()
        self.nominals = nominals or load_nominals()
        self.predicates = self.lexicon.rules_for("predicate")
        self.order = {rule.id: n for n, rule in enumerate(self.predicates)}
        self.by_form: dict[str, dict[str, list[Rule]]] = {"VERB": {}, "NOUN": {}}
        for rule in self.predicates:
            for lemma in rule.lemmas:
                self.by_form[rule.pos].setdefault(lemma, []).append(rule)
        # the words of two-word triggers ("drive out", "car bomb"): only a token with one of them
        # as its lemma can make such a form with a particle or compound
        self.in_phrases = {pos: {w for form in forms if " " in form for w in form.split()}
                           for pos, forms in self.by_form.items()}
        titles = [(r, w) for r in self.lexicon.rules_for("title") for w in r.lemmas]
        self.titles = {w: r for r, w in titles}

    # ------------------------------------------------------------------ entry point

    def extract(self, doc, mentions: list[Mention], doc_id: str) -> list[Assertion]:
        self.doc = doc
        self.mentions = mentions
        self.types = {}
        for m in mentions:
            if m.key:
                self.types.setdefault(m.key, m.type)
        self.at: dict[int, Mention] = {}
        for m in sorted(mentions, key=lambda m: m.kind in ("pronoun", "description")):
            for i in range(m.start, m.end):
                self.at.setdefault(i, m)
        found: list[Found] = []
        for token in tokens(doc):
            pos = _pos(token)
            if pos not in ("VERB", "NOUN"):
                continue
            by_form = self.by_form[pos]
            lemma = _lemma(token)
            if lemma not in by_form and token.lower_ not in by_form and lemma not in self.in_phrases[pos]:
                continue
            matched = {self.order[r.id]: r for form in _forms(token, lemma) for r in by_form.get(form, ())}
            for _, rule in sorted(matched.items()):  # in lexicon order
                found.extend(self._predicate(token, rule))
        for rule in self.lexicon.rules_for("title"):
            found.extend(self._titles(rule))
        for rule in self.lexicon.rules_for("nationality"):
            found.extend(self._nationality(rule))
        for rule in self.lexicon.rules_for("location"):
            found.extend(self._location(rule))
        return self._assertions(found, doc_id)

    # ------------------------------------------------------------------ entities behind a token

    def type_of(self, key: str) -> str:
        if key in self.types:
            return self.types[key]
        entry = self.gazetteer.entries.get(key)  # a country known only by its demonym ("Syrian")
        return entry.type if entry else "Entity"

    def entities_of(self, token, seen: frozenset[int] = frozenset()) -> list[str]:
        """The entity keys ``token`` stands for, following coordination."""
        keys: list[str] = []
        members = [token, *token.conjuncts]
        own = self.at.get(token.i)
        for c in children(token):
            # "Hezbollah, the Syrian army and later the Iraqi army": a list the parser read as an apposition
            other = self.at.get(c.i)
            if c.dep_ == "appos" and c.conjuncts and other is not None and other.kind == "name" and \
                    own is not None and other.key != own.key:
                members += [c, *c.conjuncts]
        for t in members:
            for key in self._entity_of(t, seen | {token.i}):
                if key not in keys:
                    keys.append(key)
        return keys

    def _entity_of(self, token, seen: frozenset[int]) -> list[str]:
        mention = self.at.get(token.i)
        if mention is not None and mention.key:
            return [mention.key]
        if token.dep_ in ("amod", "compound", "npadvmod", "nmod"):
            country = self.gazetteer.country_of_demonym(token.text)
            if country:  # "our Somali partners", "Iranian-backed"
                return [country]
        lemma = token.lemma_.lower()
        kids = children(token)
        # "President Bashar al-Assad" (however the parser attached the name)
        if lemma in self.titles or token.lower_ in self.titles:
            nxt = token.nbor() if token.i + 1 < len(self.doc) else None
            person = self.at.get(nxt.i) if nxt is not None else None
            if person is not None and person.type == "Person" and person.key:
                return [person.key]
        generic = (lemma in self.nominals.place_heads or lemma in self.nominals.member_nouns
                   or token.lower_ in self.nominals.member_nouns)
        if not generic:
            return []
        if lemma in self.nominals.place_heads and token.i + 1 < len(self.doc):
            # "the Yemeni capital Sana'a", however the parser attached the name
            nxt = self.at.get(token.i + 1)
            if nxt is not None and nxt.key and nxt.start == token.i + 1 and is_a(nxt.type, "Location"):
                return [nxt.key]
        # "Syria's army", "the Lebanese military", "Russian warplanes", "Turkish drones"
        if lemma in ARMED_FORCES_WORDS or token.lower_ in ARMED_FORCES_WORDS or lemma in self.nominals.military_assets:
            for c in kids:
                country = self._country_of(c)
                if country and f"{country}-armed-forces" in self.gazetteer.entries:
                    return [f"{country}-armed-forces"]
        for c in kids:
            if c.i in seen:
                continue
            if c.dep_ == "amod" and c.lemma_.lower() in ("loyal", "allied", "affiliated") and lemma in self.nominals.member_nouns:
                # "forces loyal to Khalifa Haftar"
                for prep in (p for p in children(c) if p.dep_ == "prep" and p.lower_ in ("to", "with")):
                    for pobj in _pobjs(prep):
                        keys = self.entities_of(pobj, seen | {c.i})
                        if keys:
                            return keys
            if c.dep_ == "prep" and c.lower_ == "of":
                for pobj in _pobjs(c):
                    keys = self.entities_of(pobj, seen | {c.i})
                    if keys:
                        return keys
            elif c.dep_ in ("compound", "amod", "nmod", "poss") and c.i < token.i:
                m = self.at.get(c.i)
                if m is not None and m.key and m.type not in ("Person", "PersonGroup") and (
                        is_a(m.type, "Organization") or lemma in self.nominals.place_heads):
                    return [m.key]
            elif c.dep_ == "appos":
                keys = self.entities_of(c, seen)
                if keys:
                    return keys
            elif c.dep_ == "acl" and c.lemma_ in ("know", "call", "name", "dub"):
                for cc in children(c):
                    if cc.dep_ == "prep" and cc.lower_ == "as":
                        for pobj in _pobjs(cc):
                            keys = self.entities_of(pobj, seen | {c.i})
                            if keys:
                                return keys
                    if cc.dep_ == "oprd":
                        keys = self.entities_of(cc, seen | {c.i})
                        if keys:
                            return keys
        # "the Houthis, a group of Zaydi fighters led by X": a description in apposition to a name
        head = token.head
        if token.dep_ == "attr" and head.lemma_.lower() in COPULAR_VERBS and head.i not in seen:
            # "Hezbollah is a militant group, led by X": the description is said of the subject
            for subject in _subjects(head):
                keys = self.entities_of(subject, seen | {token.i})
                if keys:
                    return keys
        if token.dep_ == "pobj" and head.lower_ == "of" and head.head.lemma_.lower() in self.nominals.member_nouns \
                and head.head.i not in seen:
            return self._entity_of(head.head, seen | {token.i})
        if token.dep_ == "appos" and head.i not in seen:
            m = self.at.get(head.i)
            if m is not None and m.key:
                return [m.key]
        return []

    def _country_of(self, token) -> str | None:
        m = self.at.get(token.i)
        if m is not None and m.type == "Country" and m.key:
            return m.key
        if token.dep_ in ("amod", "compound", "nmod") or token.pos_ == "ADJ":
            return self.gazetteer.country_of_demonym(token.text)
        return None

    # ------------------------------------------------------------------ predicate rules

    def _predicate(self, trigger, rule: Rule) -> Iterator[Found]:
        subjects = self._fill(trigger, rule.subject, rule)
        objects = self._fill(trigger, rule.object, rule)
        for s in subjects:
            for o in objects:
                yield Found(s, o, rule, trigger.i)
        if rule.pair_subjects and not objects:
            # "Hamas and Israel agreed to a ceasefire": the coordinated parties with each other
            for i, a in enumerate(subjects):
                for b in subjects[i + 1:]:
                    yield Found(a, b, rule, trigger.i)
        for slot in rule.pairs:
            keys = []
            for token in self._slot(trigger, slot, rule):
                keys.extend(k for k in self.entities_of(token) if k not in keys)
            for i, a in enumerate(keys):
                for b in keys[i + 1:]:
                    yield Found(a, b, rule, trigger.i)

    def _fill(self, trigger, slots: Iterable[str], rule: Rule) -> list[str]:
        """Entities of the first slot that yields any."""
        for slot in slots:
            keys: list[str] = []
            for token in self._slot(trigger, slot, rule):
                keys.extend(k for k in self.entities_of(token) if k not in keys)
            if keys:
                return keys
        return []

    def _slot(self, t, slot: str, rule: Rule) -> list:
        kids = children(t)
        if slot == "nsubj":
            return _subjects(t)
        if slot == "dobj":
            found = [c for c in kids if c.dep_ == "dobj"]
            if not found and any(c.dep_ == "nsubj" and c.i < t.i for c in kids):
                # "forces recaptured Abu Grein from ...": the parser took the object for a second subject
                found = [c for c in kids if c.dep_ == "nsubj" and c.i > t.i]
            if not found and t.dep_ == "relcl" and not any(c.dep_ == "dobj" for c in kids):
                if any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ not in RELATIVE_PRONOUNS for c in kids):
                    found = [t.head]
            return found
        if slot == "nsubjpass":
            found = [c for c in kids if c.dep_ == "nsubjpass"]
            if found and found[0].lower_ in RELATIVE_PRONOUNS and t.dep_ == "relcl":
                return [t.head]
            if not found and t.dep_ == "acl" and t.tag_ == "VBN":
                return [t.head]
            return found
        if slot == "agent":
            found = [p for c in kids if c.dep_ == "agent" for p in _pobjs(c)]
            if found:  # "supported by the police ..., and the ARBiH": a noun conjoined to the verb
                found += [c for c in kids if c.dep_ == "conj" and c.pos_ in ("PROPN", "NOUN") and c.i > found[0].i]
            return found
        if slot.startswith("prep:"):
            found = _prep_objects(t, slot[5:])
            if not found and _pos(t) == "VERB":
                # "escort Daesh fighters to eastern Syria": the parser often hangs the goal on the object
                for obj in [c for c in kids if c.dep_ == "dobj"]:
                    for holder in [obj, *[c for c in children(obj) if c.dep_ == "appos"]]:
                        found.extend(_prep_objects(holder, slot[5:]))
            if not found and _pos(t) in ("VERB", "NOUN"):
                # "attacked across a 630-kilometre front against X", "the attack by the RSF on El Fasher":
                # the parser hangs the phrase on the noun before
                for prep in [c for c in kids if c.dep_ == "prep"]:
                    for pobj in _pobjs(prep):
                        found.extend(_prep_objects(pobj, slot[5:]))
            if not found and _pos(t) == "NOUN":
                # "an offensive that began in July against X": the clause about the noun carries it
                for clause in [c for c in kids if c.dep_ in ("relcl", "acl")]:
                    found.extend(_prep_objects(clause, slot[5:]))
            return found
        if slot == "poss":
            return [c for c in kids if c.dep_ == "poss"]
        if slot == "compound":
            return [c for c in kids if c.dep_ in ("compound", "amod", "nmod") and c.i < t.i]
        if slot in ("light_subject",) or slot.startswith("light_prep:"):
            verb = _light_verb(t, rule)
            if verb is None:
                return []
            if slot == "light_subject":
                return _subjects(verb)
            return _prep_objects(verb, slot[len("light_prep:"):], gapping=True)
        if slot == "modifier":
            if t.dep_ not in ("amod", "compound"):
                return []
            found = [c for c in kids if c.dep_ in ("npadvmod", "compound", "nmod", "poss", "amod") and c.i < t.i]
            if not found and t.i >= 2 and self.doc[t.i - 1].text == "-" and not self.doc[t.i - 2].whitespace_:
                found = [self.doc[t.i - 2]]  # "an al-Qaeda-associated group", parsed as two modifiers
            return found
        if slot == "modified":
            return [t.head] if t.dep_ in ("amod", "compound") and t.head.i > t.i else []
        if slot == "adverbial_subject":
            # "In coordination with X, US forces conducted ...": the noun qualifies the clause's verb
            if t.dep_ == "pobj" and t.head.lower_ in ("in", "with") and t.head.head.pos_ in ("VERB", "AUX"):
                return _subjects(t.head.head)
            return []
        if slot == "predicated":
            if t.dep_ in ("attr", "oprd") or (t.dep_ == "xcomp" and t.head.lemma_.lower() in COPULAR_VERBS):
                return _subjects(t.head)
            if t.dep_ == "appos":
                return [t.head]
            if t.dep_ == "conj" and t.head.dep_ == "appos":
                return [t.head.head]
            return []
        raise ValueError(f"rule {rule.id}: unknown slot {slot!r}")

    # ------------------------------------------------------------------ structural rules

    def _titles(self, rule: Rule) -> Iterator[Found]:
        """"Syrian President Bashar al-Assad", "Khalifa Haftar, commander of the LNA"."""
        doc = self.doc
        for m in self.mentions:
            if m.type != "Person" or m.kind != "name" or not m.key:
                continue
            titles = []
            left = doc[m.start - 1] if m.start > 0 else None
            if left is not None and _title_word(left) in rule.lemmas:
                titles.append(left)
            head = doc[m.end - 1]
            for c in children(head):
                if c.dep_ in ("appos", "compound") and _title_word(c) in rule.lemmas and c.i not in (t.i for t in titles):
                    titles.append(c)
            if head.dep_ == "appos" and _title_word(head.head) in rule.lemmas:
                titles.append(head.head)
            for title in titles:
                for org in self._title_organizations(title, m):
                    yield Found(m.key, org, rule, title.i)

    def _title_organizations(self, title, person: Mention) -> list[str]:
        keys: list[str] = []
        # "Sudan's army chief X": the army of the country, not the country
        armed = any(c.dep_ in ("compound", "amod") and c.lemma_.lower() in ARMED_FORCES_WORDS for c in children(title))
        if armed:
            for c in children(title):
                country = self._country_of(c) if c.dep_ in ("poss", "amod", "compound", "nmod") else None
                if country and f"{country}-armed-forces" in self.gazetteer.entries:
                    return [f"{country}-armed-forces"]
        for c in children(title):
            if c.dep_ == "prep" and c.lower_ in ("of", "for"):
                for p in _pobjs(c):
                    keys.extend(self.entities_of(p))
            elif c.dep_ in ("poss", "compound", "amod", "nmod") and c.i < title.i:
                keys.extend(self.entities_of(c) or ([self._country_of(c)] if self._country_of(c) else []))
        if not keys:
            # the words just before the title: "Lebanese Internal Security Gen. Abbas Ibrahim"
            i = title.i - 1
            while i >= 0 and self.doc[i].dep_ in ("amod", "compound", "punct") and self.doc[i].text not in (",", "(", "\u2014"):
                m = self.at.get(i)
                if m is not None and m.key and m.key != person.key and m.kind == "name":
                    keys.append(m.key)
                    break
                country = self._country_of(self.doc[i])
                if country:
                    keys.append(country)
                    break
                i -= 1
        return [k for k in dict.fromkeys(keys) if k and k != person.key]

    def _nationality(self, rule: Rule) -> Iterator[Found]:
        """"Hezbollah, a Lebanese group"; "the Iraqi Popular Mobilization Forces"; "Syria's Ikhbariya"."""
        for m in self.mentions:
            if m.kind != "name" or not m.key or not is_a(m.type, "Organization"):
                continue
            head = self.doc[m.end - 1]
            candidates = [c for c in children(head) if c.dep_ in ("amod", "poss", "compound", "nmod") and c.i < m.start]
            described = [c for c in children(head) if c.dep_ == "appos"] + ([head.head] if head.dep_ == "appos" else [])
            if head.dep_ in ("nsubj", "nsubjpass") and head.head.lemma_.lower() in COPULAR_VERBS:
                # "Hezbollah is a Lebanese ... group"
                described += [c for c in children(head.head) if c.dep_ == "attr"]
            for appos in described:
                if appos.lemma_.lower() in self.nominals.member_nouns or appos.lemma_.lower() in self.nominals.descriptions:
                    candidates.extend(c for c in children(appos) if c.dep_ in ("amod", "compound", "nmod") and c.i < appos.i)
            for c in candidates:
                country = self._country_of(c)
                if country and country != m.key:
                    yield Found(m.key, country, rule, c.i)

    def _location(self, rule: Rule) -> Iterator[Found]:
        """"Arsal in Lebanon", "Ras Baalbek, Lebanon", "the Yemeni port city of Hodeidah"."""
        doc = self.doc
        rank = {"Settlement": 0, "Region": 1, "Country": 2}
        for m in self.mentions:
            if m.kind != "name" or not m.key or m.type not in ("Settlement", "Region"):
                continue
            head = doc[m.end - 1]
            holders = [head]
            if head.dep_ == "pobj" and head.head.lower_ == "of" and head.head.head.lemma_.lower() in self.nominals.place_heads:
                holders.append(head.head.head)
            if m.start > 0 and doc[m.start - 1].lemma_.lower() in self.nominals.place_heads:
                holders.append(doc[m.start - 1])  # "the Yemeni capital Sana'a"
            for holder in list(holders):
                # "Kunduz, located in northern Afghanistan"
                for c in children(holder):
                    if c.dep_ in ("acl", "relcl") and c.lemma_.lower() in ("locate", "situate", "lie", "sit"):
                        holders.append(c)
            for holder in holders:
                for c in children(holder):
                    if c.dep_ == "prep" and c.lower_ == "in":
                        for p in _pobjs(c):
                            for key in self.entities_of(p):
                                if rank.get(self.type_of(key), -1) >= rank[m.type] and key != m.key:
                                    yield Found(m.key, key, rule, c.i)
                if holder is not head:
                    for c in children(holder):
                        if c.dep_ in ("amod", "compound", "nmod") and c.i < holder.i:
                            country = self._country_of(c)
                            if country and country != m.key:
                                yield Found(m.key, country, rule, c.i)
            # "Al-Bukamal in eastern Syria", wherever the parser attached "in" (but not "south of X in Y")
            after_compass = head.dep_ == "pobj" and head.head.lower_ == "of" and \
                head.head.head.lower_ in self.nominals.compass
            if m.end + 1 < len(doc) and doc[m.end].lower_ == "in" and not after_compass:
                at = m.end + 2 if doc[m.end + 1].lower_ == "the" else m.end + 1
                nxt = self.at.get(at)
                if nxt is not None and nxt.kind == "name" and nxt.key and nxt.key != m.key:
                    if rank.get(nxt.type, -1) >= rank[m.type]:
                        yield Found(m.key, nxt.key, rule, m.end)
            # "Ras Baalbek, Lebanon": a place, a comma, a bigger place, and no list going on
            if m.end + 1 < len(doc) and doc[m.end].text == ",":
                nxt = self.at.get(m.end + 1)
                if nxt is not None and nxt.kind == "name" and nxt.key and nxt.key != m.key:
                    after = doc[nxt.end] if nxt.end < len(doc) else None
                    # "Arsal, Ras Baalbek and Qaa" is a list; "Sirte, Libya, on Tuesday" is not
                    in_list = after is not None and (after.lower_ in ("and", "or") or (
                        after.text == "," and nxt.end + 1 < len(doc) and self.at.get(nxt.end + 1) is not None))
                    before = doc[m.start - 1] if m.start > 0 else None
                    listed = before is not None and before.text == "," and self.at.get(m.start - 2) is not None
                    if rank.get(nxt.type, -1) > rank[m.type] and not in_list and not listed:
                        yield Found(m.key, nxt.key, rule, m.end)

    # ------------------------------------------------------------------ to assertions

    def _assertions(self, found: list[Found], doc_id: str) -> list[Assertion]:
        out: dict[tuple, Assertion] = {}
        for f in list(found):
            # "in eastern Syria" also says "in Syria": a region the gazetteer places in a country lies in it
            entry = self.gazetteer.entries.get(f.object)
            if f.rule.kind == "location" and entry is not None and entry.type == "Region" and entry.country \
                    and f.subject != entry.country:
                found.append(Found(f.subject, entry.country, f.rule, f.trigger))
        for f in found:
            relation = self.lexicon.relations[f.rule.relation]
            s, o = f.subject, f.object
            if s == o:
                continue
            if not _types_fit(self.type_of(s), relation.subject) or not _types_fit(self.type_of(o), relation.object):
                continue
            trigger = self.doc[f.trigger]
            if f.rule.kind == "predicate":
                status = polarity(trigger, f.rule.light_verbs)
                if status != "asserted":
                    continue
            reporter, doubtful = self._reporter(trigger)
            if relation.symmetric and o < s:
                s, o = o, s
            sent = sentence_of(trigger)
            text = span_text(sent)
            confidence = f.rule.confidence * (0.8 if doubtful else 1.0)
            key = (s, relation.name, o, sent.start_char)
            if key in out and out[key].confidence >= confidence:
                continue
            out[key] = Assertion(
                subject=s, predicate=relation.name, object=o, doc_id=doc_id, evidence=text.strip(),
                start_char=sent.start_char, end_char=sent.end_char, rule=f.rule.id,
                confidence=round(confidence, 3), reported_by=reporter,
            )
        return sorted(out.values(), key=lambda a: (a.start_char, a.predicate, a.subject, a.object))

    def _reporter(self, trigger) -> tuple[str | None, bool]:
        """Who the sentence says made the statement, and whether the verb casts doubt ("claimed")."""
        t = trigger
        while t.dep_ != "ROOT" and t.head is not t:
            if t.dep_ == "ccomp" or (t.dep_ == "conj" and t.head.dep_ == "ccomp"):
                verb = t.head if t.dep_ == "ccomp" else t.head.head
                if verb.lemma_.lower() in self.nominals.reporting_verbs:
                    for s in _subjects(verb):
                        keys = self.entities_of(s)
                        if keys:
                            return keys[0], verb.lemma_.lower() in DOUBTFUL_REPORTING
                    return None, verb.lemma_.lower() in DOUBTFUL_REPORTING
            t = t.head
        sent = sentence_of(trigger)
        for t in (sent if "ccording to" in span_text(sent) else ()):
            # "According to the Syrian Observatory, ..."
            if t.lower_ == "according" and t.i + 1 < len(self.doc) and self.doc[t.i + 1].lower_ == "to":
                for pobj in _pobjs(self.doc[t.i + 1]):
                    keys = self.entities_of(pobj)
                    if keys:
                        return keys[0], False
        root = sentence_roots(self.doc)[sentence_numbers(self.doc)[trigger.i]]
        if root.lemma_.lower() in self.nominals.reporting_verbs and trigger.i > root.i:
            for c in children(root):
                if c.dep_ == "nsubj":
                    keys = self.entities_of(c)
                    if keys:
                        return keys[0], root.lemma_.lower() in DOUBTFUL_REPORTING
        return None, False


# ---------------------------------------------------------------------- parse helpers


def polarity(trigger, light_verbs: frozenset[str] = frozenset()) -> str:
    """"asserted", "negated" or "hypothetical" for a trigger, from the words governing it.

    Walks up from the trigger through complements (not through subjects or relative clauses,
    whose negation is about something else), counting negations and verbs of stopping, so
    "did not involve coordination" is negated and "will not stop supporting" is asserted.
    """
    flips = 0
    t = trigger
    first = True
    # "his pledged recapture of Sana'a", "a failed attempt": the event is not asserted
    if any(c.dep_ in ("amod", "compound") and c.lower_ in NON_FACTUAL_MODIFIERS for c in children(trigger)):
        return "hypothetical"
    while True:
        kids = children(t)
        if any(c.dep_ == "neg" or (c.dep_ == "det" and c.lower_ == "no") for c in kids):
            flips += 1
        if not first:
            lemma = t.lemma_.lower()
            if lemma in DENIAL_VERBS:
                return "negated" if flips % 2 == 0 else "asserted"
            if lemma in CESSATION_VERBS:
                flips += 1
            elif lemma in HYPOTHETICAL_VERBS and t.pos_ in ("VERB", "AUX") and not (_forms(t) & light_verbs):
                # ("pledged allegiance to X" pledges nothing: "pledge" is the rule's own light verb)
                return "hypothetical"
        if any(c.dep_ == "aux" and c.lower_ in HYPOTHETICAL_AUX for c in kids):
            return "hypothetical"
        if any(c.dep_ == "aux" and c.lower_ == "to" for c in kids) and (
                t.dep_ == "acl" or (t.dep_ == "advcl" and t.head.lemma_.lower() in ATTEMPT_VERBS)):
            return "hypothetical"  # "launched an offensive to capture Tripoli" states an aim, not a capture
        if any(c.dep_ == "mark" and c.lower_ in CONDITIONAL_MARKS for c in kids):
            return "hypothetical"
        if t.dep_ not in CLIMB_DEPS or t.head is t:
            break
        if t.dep_ == "ccomp" and t.head.lemma_.lower() not in DENIAL_VERBS:
            break
        t = t.head
        first = False
    return "negated" if flips % 2 else "asserted"


IRREGULAR_PAST = {"took": "take", "taken": "take", "ran": "run", "fought": "fight", "struck": "strike",
                  "drove": "drive", "driven": "drive", "shot": "shoot", "led": "lead", "held": "hold",
                  "began": "begin", "begun": "begin", "withdrew": "withdraw", "withdrawn": "withdraw",
                  "overran": "overrun", "seized": "seize", "swore": "swear", "sworn": "swear", "hit": "hit",
                  "beat": "beat", "beaten": "beat", "fell": "fall", "fallen": "fall", "froze": "freeze"}


def _lemma(token) -> str:
    """The lemma, mending the small model's misses on prefixed irregular verbs ("retook", "overran")."""
    lemma = token.lemma_.lower()
    if lemma != token.lower_ or not token.tag_.startswith("VB"):
        return lemma
    for prefix in ("", "re", "over", "out", "re-"):
        rest = token.lower_[len(prefix):]
        if token.lower_.startswith(prefix) and rest in IRREGULAR_PAST:
            return prefix.rstrip("-") + IRREGULAR_PAST[rest]
    return lemma


def _forms(token, lemma: str | None = None) -> set[str]:
    lemma = lemma or _lemma(token)
    forms = {lemma, token.lower_}
    for c in children(token):
        if c.dep_ == "prt":
            forms.add(f"{lemma} {c.lower_}")
        elif c.dep_ == "compound" and c.i == token.i - 1:
            forms.add(f"{c.lower_} {lemma}")
    return forms


def _pos(token) -> str:
    return "VERB" if token.pos_ in ("VERB", "AUX") else "NOUN" if token.pos_ in ("NOUN", "PROPN") else token.pos_


def _title_word(token) -> str:
    return token.lower_ if token.lower_ in ("gen.", "col.", "maj.", "lt.", "capt.") else token.lemma_.lower()


def _pobjs(prep) -> list:
    out = []
    for c in children(prep):
        if c.dep_ in ("pobj", "pcomp"):
            out.append(c)
        elif c.dep_ == "prep":  # "out of", "along with"
            out.extend(_pobjs(c))
    return out


def _prep_objects(verb, word: str, gapping: bool = False) -> list:
    """Objects of ``word`` attached to ``verb``; with gapping, also "with A on one front and B on the other"."""
    out = []
    preps = [c for c in children(verb) if c.dep_ == "prep" and c.lower_ == word]
    for prep in preps:
        out.extend(_pobjs(prep))
    if word == "to" and not out:
        # "allegiance to al-Qaeda" parsed as an infinitive: "to" an aux of a name taken for a verb
        out.extend(c for c in children(verb) if c.dep_ in ("acl", "xcomp", "advcl") and c.pos_ == "PROPN"
                   and any(a.dep_ == "aux" and a.lower_ == "to" for a in children(c)))
    if gapping and preps:
        after = preps[0].i
        for c in children(verb):
            if c.dep_ == "prep" and c.i > after and c.lower_ != word:
                for p in _pobjs(c):
                    out.extend(x for x in p.conjuncts if x.pos_ == "PROPN")
    return out


def _subjects(verb) -> list:
    """The logical subject of ``verb``'s clause (the by-phrase of a passive), looking through
    control, coordination and relative clauses."""
    seen = set()
    t = verb
    while t.i not in seen:
        seen.add(t.i)
        subj = [c for c in children(t) if c.dep_ in ("nsubj", "csubj")]
        if subj:
            if subj[0].lower_ in RELATIVE_PRONOUNS and t.dep_ == "relcl":
                return [t.head]
            return subj
        if any(c.dep_ in ("nsubjpass", "auxpass") for c in children(t)):
            # a passive clause: the logical subject is the by-phrase, if any
            return [p for c in children(t) if c.dep_ == "agent" for p in _pobjs(c)]
        if t.dep_ in ("xcomp", "conj", "advcl", "pcomp") and t.head is not t:
            t = t.head
            continue
        if t.dep_ == "acl" and t.tag_ == "VBG":
            return [t.head]
        if t.dep_ == "relcl":
            return [t.head]
        break
    return []


def _light_verb(noun, rule: Rule):
    """The verb a trigger noun is the object of ("launched an offensive", "agreed to a truce")."""
    head = noun.head
    if noun.dep_ in ("dobj", "nsubjpass", "attr") and head.pos_ in ("VERB", "AUX"):
        verb = head
    elif noun.dep_ == "pobj" and head.dep_ == "prep" and head.head.pos_ in ("VERB", "AUX"):
        verb = head.head
    elif noun.dep_ == "conj":
        return _light_verb(noun.head, rule)
    else:
        return None
    if rule.light_verbs and not (_forms(verb) & rule.light_verbs):
        return None
    return verb


def _types_fit(type_: str, allowed: tuple[str, ...]) -> bool:
    return any(is_a(type_, a) for a in allowed)
