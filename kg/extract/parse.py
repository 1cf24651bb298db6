"""Reading the dependency parse: prepositional objects, logical subjects, light verbs, the forms
a trigger can take. Shared by the relation rules (:mod:`kg.extract.relations`), the polarity
checks, the event statements and the relation model's features.

The helpers that read a word list take the :class:`~kg.extract.words.Words` as an argument: the
callers have it from the record the stages share (a relation :class:`~kg.extract.relations.context.Context`
carries it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .docindex import children, tokens

if TYPE_CHECKING:
    from .words import Words


def pos(token) -> str:
    """VERB, NOUN or the token's own part of speech: auxiliaries count as verbs, names as nouns, a
    preposition (or a participle working as one: "including", "following") as ADP, and an
    "adjective" with a direct object as a verb (the small model tags "worked to clear Islamic State
    from Ramadi" so: no adjective takes one)."""
    if token.pos_ in ("VERB", "AUX"):
        return "ADP" if token.dep_ == "prep" else "VERB"
    if token.pos_ == "ADJ" and any(c.dep_ == "dobj" for c in children(token)):
        return "VERB"
    return "NOUN" if token.pos_ in ("NOUN", "PROPN") else token.pos_


def lemma(token) -> str:
    return token.lemma_.lower()


def first_conjunct(token):
    """The first conjunct of the coordination ``token`` is in ("B" of "A and B": "A"), or ``token``."""
    while token.dep_ == "conj" and token.head.i != token.i:
        token = token.head
    return token


def forms(token, words: Words, lemma_: str | None = None) -> set[str]:
    """The lexicon forms a trigger token can match: its lemma, its own word, and two-word forms
    with a particle ("drive out"), a compound before it ("car bomb") or, for a preposition, the
    word it follows ("together with", "along with", "as part of")."""
    lemma_ = lemma_ or lemma(token)
    out = {lemma_, token.lower_}
    if pos(token) == "ADP" and token.i > 0:
        before = token.doc[token.i - 1]
        if token.head.i == before.i or (before.head.i == token.i and before.dep_ == "advmod"):
            out.add(f"{before.lower_} {lemma_}")  # "along with"; "together with" when "together" hangs on "with"
    for c in children(token):
        if c.dep_ == "prt":
            out.add(f"{lemma_} {c.lower_}")
        elif c.dep_ == "compound" and c.i == token.i - 1:
            out.add(f"{c.lower_} {lemma_}")
    if token.pos_ == "PROPN":  # "Operation Olive Branch", "Operation Inherent Resolve": a named operation
        first = min((c for c in children(token) if c.dep_ == "compound"), key=lambda c: c.i, default=None)
        if first is not None and first.i < token.i and first.lower_ in words.undertaking_nouns:
            out.add(first.lower_)
    return out


def one_of_several(noun, words: Words) -> bool:
    """"a commander", "an ISIS leader", "another founder", "X and other Hamas leaders", "X is one of
    the leaders of Y", "X is among the leaders of Y": a noun with an indefinite article or "other",
    or counted out of or among, names one of several ("X, a Taliban commander" is one of its
    commanders, not the one who leads it)."""
    if noun.dep_ == "pobj" and (noun.head.lower_ == "among" or noun.head.lower_ == "of" and counts(noun.head.head, words)):
        return True
    return any(c.dep_ == "det" and c.lower_ in ("a", "an", "another") or c.dep_ == "amod" and c.lower_ == "other"
               for c in children(noun))


def hyphened(doc, a: int) -> bool:
    """Whether the words at ``a`` and ``a + 2`` are joined by a hyphen with no space ("Kenya-Uganda",
    "U.S.-Kenya", "Israel-Hamas")."""
    return 0 <= a and a + 2 < len(doc) and doc[a + 1].text in ("-", "\u2013") and not doc[a].whitespace_ \
        and not doc[a + 1].whitespace_


def pobjs(prep) -> list:
    """The objects of a preposition, through stacked prepositions ("out of", "along with")."""
    out = []
    for c in children(prep):
        if c.dep_ in ("pobj", "pcomp"):
            out.append(c)
        elif c.dep_ == "prep":
            out.extend(pobjs(c))
    return out


def prep_objects(head, word: str, gapping: bool = False) -> list:
    """Objects of the preposition ``word`` attached to ``head``; with gapping, also "with A on one
    front and B on the other"."""
    out = []
    preps = [c for c in children(head) if c.dep_ in ("prep", "dative") and c.lower_ == word]  # "give X to Y": dative
    for prep in preps:
        out.extend(pobjs(prep))
    if word == "to" and not out:
        # "allegiance to al-Qaeda" parsed as an infinitive: "to" an aux of a name taken for a verb
        out.extend(c for c in children(head) if c.dep_ in ("acl", "xcomp", "advcl") and c.pos_ == "PROPN"
                   and any(a.dep_ == "aux" and a.lower_ == "to" for a in children(c)))
    if gapping and preps:
        after = preps[0].i
        for c in children(head):
            if c.dep_ == "prep" and c.i > after and c.lower_ != word:
                for p in pobjs(c):
                    out.extend(x for x in p.conjuncts if x.pos_ == "PROPN")
    return out


def agents(verb) -> list:
    """The by-phrase of a passive verb, with a noun the parser hung on the verb as its conjunct
    ("supported by the police ..., and the ARBiH")."""
    kids = children(verb)
    found = [p for c in kids if c.dep_ == "agent" for p in pobjs(c)]
    if found:
        found += [c for c in kids if c.dep_ == "conj" and c.pos_ in ("PROPN", "NOUN") and c.i > found[0].i]
    return found


def subjects(verb, words: Words, _visited: frozenset[int] = frozenset()) -> list:
    """The logical subject of ``verb``'s clause (the by-phrase of a passive), looking through
    control, coordination and relative clauses."""
    relative = words.relative_pronouns
    seen = set(_visited)
    t = verb
    while t.i not in seen:
        seen.add(t.i)
        kids = children(t)
        subj = [c for c in kids if c.dep_ in ("nsubj", "csubj")]
        if len(subj) > 1:  # "forces recaptured Abu Grein": the parser read the object as a second subject
            subj = [c for c in subj if c.i < t.i] or subj
        if subj:
            return [t.head] if subj[0].lower_ in relative and t.dep_ == "relcl" else subj
        if t.tag_ in ("VBD", "VBZ", "VBP"):
            # "The Iraqi army retook Ramadi": the small model hangs the name before a finite verb on
            # it as a compound, as if the verb were a noun
            named = [c for c in kids if c.dep_ == "compound" and c.pos_ == "PROPN" and c.i < t.i]
            if named:
                return named[-1:]
        if any(c.dep_ in ("nsubjpass", "auxpass") for c in kids):
            return agents(t)  # a passive clause: the logical subject is the by-phrase, if any
        if t.tag_ == "VBN" and any(c.dep_ == "agent" for c in kids):
            # a participle with a by-phrase is passive though it has no subject of its own: "Backed
            # by Russian air power, the army advanced", "soldiers captured by the group", "taken by
            # X and retaken by Y": its doer is the by-phrase, not the clause it hangs on
            return agents(t)
        if t.dep_ == "xcomp" and lemma(t.head) in words.object_control_verbs:
            # "the coalition is assisting the Iraqi government to destroy ISIL": the government destroys
            helped = [c for c in children(t.head) if c.dep_ == "dobj"]
            if helped:
                return helped
        if t.dep_ in ("xcomp", "conj", "advcl", "pcomp") and t.head.i != t.i:
            t = t.head
            if t.dep_ == "prep" and lemma(t.head) in words.participation_verbs:
                # "X has been engaged in fighting Y", "X remains committed to defeating Y": who takes part
                return committed(t.head, words, frozenset(seen))
            if t.dep_ == "prep" and t.lower_ in words.adjunct_prepositions and t.head.pos_ in ("VERB", "AUX"):
                t = t.head  # "After seizing Goma, the rebels marched on Bukavu": the clause's subject
            continue
        if t.dep_ == "acomp" and t.head.i != t.i:  # "X is determined to defeat Y": the clause's subject
            t = t.head
            continue
        if t.pos_ == "ADV" and t.dep_ == "advmod" and t.head.i != t.i:
            t = t.head  # "Elsewhere in the campaign to defeat ISIL, the SDF have begun": "to defeat" hung on the adverb
            continue
        if (t.dep_ == "acl" and t.tag_ == "VBG") or t.dep_ == "relcl":
            return [t.head]
        if t.dep_ == "acl" and t.tag_ in ("VBD", "VBZ", "VBP") and t.head.dep_ == "ROOT" \
                and t.head.pos_ in ("NOUN", "PROPN") and not any(c.dep_ == "agent" for c in kids):
            # "The Iraqi forces, supported by the Coalition, liberated Mosul": a verb in the past or
            # present tense hung on the root noun; the parser missed the main clause it heads
            return [t.head]
        if t.dep_ == "acl" and lemma(t.head) in words.undertaking_nouns:
            # "the campaign to defeat ISIL": whoever wages the campaign
            return undertakers(t.head, words, frozenset(seen))
        break
    return []


def undergoers(verb, words: Words) -> list:
    """Who undergoes a passive verb: its passive subject; the noun a relative clause or a
    participle modifies ("soldiers captured by the group"); the subject of the clause a fronted
    participle sets the scene for ("Backed by Russian air power, the army advanced"); or, for a
    second passive verb sharing the first's subject, the first's ("the town was taken by X and
    retaken by Y")."""
    found = [c for c in children(verb) if c.dep_ == "nsubjpass"]
    if found:
        return [verb.head] if found[0].lower_ in words.relative_pronouns and verb.dep_ == "relcl" else found
    if verb.dep_ == "acl" and verb.tag_ in ("VBN", "VBD"):
        return [verb.head]  # the tagger may take the participle for a past tense
    if verb.dep_ == "advcl" and verb.tag_ == "VBN" and not any(c.dep_ == "mark" for c in children(verb)):
        return [c for c in children(verb.head) if c.dep_ in ("nsubj", "nsubjpass")]
    if verb.dep_ == "conj" and verb.tag_ == "VBN" and not any(c.dep_ in ("nsubj", "dobj") for c in children(verb)) \
            and any(c.dep_ == "nsubjpass" for c in children(verb.head)):
        return undergoers(verb.head, words)
    return []


def undertakers(noun, words: Words, _visited: frozenset[int] = frozenset()) -> list:
    """Who wages an undertaking ("the SDF's campaign", "X launched an offensive", "in the campaign
    to defeat ISIL, the SDF have begun ..."): its possessor, the subject of the verb it is the
    object of, or the subject of the clause it sets the scene for."""
    if noun.i in _visited:
        return []
    _visited = _visited | {noun.i}
    owners = [c for c in children(noun) if c.dep_ == "poss"]
    # "a joint effort by the army and the militia"
    owners += [p for c in children(noun) if c.dep_ in ("prep", "agent") and c.lower_ == "by" for p in pobjs(c)]
    # "the offensive (that) Kenya and Ethiopia launched": the relative clause's subject
    owners += [s for c in children(noun) if c.dep_ == "relcl" and forms(c, words) & words.undertaking_verbs
               for s in children(c) if s.dep_ == "nsubj" and s.lower_ not in words.relative_pronouns]
    # "an offensive launched by the forces of the GNA"
    owners += [p for c in children(noun) if c.dep_ == "acl" and c.tag_ == "VBN"
               for a in children(c) if a.dep_ == "agent" for p in pobjs(a)]
    if owners:
        return owners
    head = noun.head
    if noun.dep_ == "nsubj" and lemma(head) in words.copular_verbs:
        # "the offensive was a military offensive launched by X": what is said of it
        for attr in (c for c in children(head) if c.dep_ == "attr" and c.i != noun.i):
            found = undertakers(attr, words, _visited)
            if found:
                return found
    if noun.dep_ == "attr" and head.pos_ in ("VERB", "AUX") or (
            noun.dep_ in ("dobj", "nsubjpass") and forms(head, words) & words.undertaking_verbs):
        return subjects(head, words, _visited)
    if noun.dep_ == "pobj" and head.dep_ == "prep":
        verb = head.head
        if pos(verb) == "NOUN" and lemma(verb) in words.undertaking_nouns:
            return undertakers(verb, words, _visited)  # "X leads efforts in the campaign to defeat Y"
        if pos(verb) == "NOUN" and lemma(verb) in words.participant_nouns:
            return participants(verb, words, _visited)  # "X is a key partner in the fight against Y"
        while verb.pos_ in ("ADV", "ADP") and verb.head.i != verb.i:  # "Elsewhere in the campaign ..."
            verb = verb.head
        if verb.pos_ in ("VERB", "AUX"):
            if lemma(verb) in words.participation_verbs:  # "X was involved in the use of ... against Y"
                return [c for c in children(verb) if c.dep_ == "nsubjpass"] or subjects(verb, words, _visited)
            return subjects(verb, words, _visited)
        if verb.pos_ == "ADJ" and lemma(verb) in words.participation_verbs:
            return committed(verb, words, _visited)  # "X remains committed to the defeat of Y"
    return []


def committed(word, words: Words, _visited: frozenset[int] = frozenset()) -> list:
    """Who is involved in, committed or dedicated to something (``word`` the participle or the
    adjective that says so): its subject, the subject of the verb it complements ("X remains
    committed to"), or the subject the parser hung on its auxiliary ("X is committed to", with
    "committed" read as an adjective)."""
    held = [c for k in [word, *(a for a in children(word) if a.dep_ in ("aux", "auxpass"))]
            for c in children(k) if c.dep_ in ("nsubjpass", "nsubj")]
    return held or (subjects(word.head, words, _visited) if word.dep_ == "acomp" else [])


def participants(noun, words: Words, _visited: frozenset[int] = frozenset()) -> list:
    """Who holds a part in an undertaking ("X's role in the campaign", "X is a partner in the
    fight", "X played a leading role in the offensive"): the part's possessor, or the subject of
    the clause whose complement or object it is."""
    owners = [c for c in children(noun) if c.dep_ == "poss"]
    if owners:
        return owners
    if noun.dep_ in ("attr", "dobj") and noun.head.pos_ in ("VERB", "AUX"):
        return subjects(noun.head, words, _visited | {noun.i})
    return []


def light_verb(noun, light_verbs: frozenset[str], words: Words):
    """The verb a trigger noun is the object of ("launched an offensive", "agreed to a truce"),
    if it is one of ``light_verbs`` (any verb when the rule names none)."""
    head = noun.head
    via = None
    if noun.dep_ in ("dobj", "nsubjpass", "attr") and head.pos_ in ("VERB", "AUX"):
        verb = head
    elif noun.dep_ == "pobj" and head.dep_ == "prep" and head.head.pos_ in ("VERB", "AUX"):
        verb, via = head.head, head.lower_
    elif noun.dep_ == "conj":
        return light_verb(noun.head, light_verbs, words)
    elif noun.dep_ == "pobj" and head.lower_ == "of" and lemma(head.head) in words.quantity_nouns:
        return light_verb(head.head, light_verbs, words)  # "launched a wave of attacks"
    else:
        return None
    if light_verbs and not (forms(verb, words) & light_verbs) and f"{lemma(verb)} {via}" not in light_verbs:
        return None  # a light verb with its preposition ("come under" fire) takes the noun only through it
    return verb


def title_word(token, words: Words) -> str:
    """How a title token is looked up: abbreviated ranks as written ("Gen."), other words by lemma."""
    return token.lower_ if token.lower_ in words.title_abbreviations else lemma(token)


def counts(token, words: Words) -> bool:
    """Whether ``token`` counts what its "of" phrase names ("dozens of Iraqi soldiers", "one of the
    members of Y"): a count word or a numeral, which stands for what it counts."""
    return lemma(token) in words.count_words or token.pos_ == "NUM"


STANCES = {"pro", "anti", "counter", "non"}


def opening_adverb(appositive):
    """The adverb that opens an appositive and makes it a part of what it follows ("NATO members,
    especially Turkey"; not "the predominantly non-Arab JEM", where the adverb opens nothing)."""
    first = appositive.doc[appositive.left_edge.i]
    if appositive.dep_ == "appos" and first.pos_ == "ADV" and first.dep_ == "advmod" and first.head.i == appositive.i:
        return first
    return None


def stance(token) -> str | None:
    """"pro", "anti" or "counter" when a modifier is written with one ("pro-Russian separatists",
    "the counter-ISIL coalition"): the noun is for or against what it names, not it."""
    i = token.i
    if i == 0:
        return None
    doc = tokens(token.doc)  # asked of every token by the stance rules: no new Token objects
    before = doc[i - 1]
    if i >= 2 and before.text == "-" and doc[i - 2].lower_ in STANCES and not doc[i - 2].whitespace_:
        return doc[i - 2].lower_
    if before.lower_ in STANCES:
        return before.lower_
    return None

