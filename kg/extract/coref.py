"""Pronouns and definite descriptions -> the mention they refer to.

A small salience model in the spirit of Lappin and Leass (1994): each earlier mention of an
entity adds weight that halves with every sentence back, subjects count more than other roles,
and the candidate must agree in type with the reference ("it" is an organization or a country,
"he" a person, "the town" a settlement). Loaded descriptions ("the militants", "the jihadist
group") prefer entities the gazetteer describes with the same word.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import replace

from .namekeys import match_key
from ..ontology import is_a
from ..records import NAMING, Mention
from .docindex import children, gazetteer_ids, sentence_numbers, sentence_of, tokens
from .gazetteer import Gazetteer
from .words import Words

PRONOUN_WINDOW = 3
DESCRIPTION_WINDOW = 8
SUBJECT_DEPS = ("nsubj", "nsubjpass")


def identity(mention: Mention) -> str:
    """What makes two mentions the same entity before resolve assigns keys."""
    return mention.key or mention.gazetteer_id or match_key(mention.text)


def resolve_references(doc, mentions: list[Mention], gazetteer: Gazetteer, words: Words) -> list[Mention]:
    """Return ``mentions`` plus one mention per pronoun or description with an antecedent.

    The added mentions carry the antecedent's ``key``/``gazetteer_id`` and its type, and
    ``kind`` "pronoun" or "description".
    """
    loaded_words = gazetteer.descriptor_words
    covered = {i for m in mentions for i in range(m.start, m.end)}
    sent_index = sentence_numbers(doc)
    resolved = list(mentions)
    by_start = sorted(mentions, key=lambda m: m.start)
    coordinated = _coordinations(doc, mentions)
    for token in tokens(doc):
        if token.i in covered:
            continue
        if token.lower_ in words.first_person_plural:
            speaker = _speaking_organization(token, by_start, words)
            if speaker is not None:
                mention = replace(speaker, start=token.i, end=token.i + 1, start_char=token.idx,
                                  end_char=token.idx + len(token.text), text=token.text, kind="pronoun",
                                  sentence=sent_index[token.i])
                resolved.append(mention)
            continue
        reference = _reference(token, words, loaded_words)
        if reference is None:
            continue
        kind, types, described = reference
        window = PRONOUN_WINDOW if kind == "pronoun" else DESCRIPTION_WINDOW
        antecedent = _supported(token, types, by_start, words) if kind == "pronoun" else None
        plural = kind == "pronoun" and token.lower_ in PLURAL_PRONOUNS
        if antecedent is None:
            antecedent = _best_antecedent(token, sent_index[token.i], types, described, window, by_start,
                                          gazetteer, loaded_words, exclude=_own_phrase(token),
                                          coordinated=coordinated if plural else {})
        if antecedent is None:
            continue
        group = coordinated.get(antecedent.start, ()) if plural and antecedent.sentence == sent_index[token.i] else ()
        mention = replace(antecedent, start=token.i, end=token.i + 1, start_char=token.idx,
                          end_char=token.idx + len(token.text), text=token.text, kind=kind,
                          sentence=sent_index[token.i],
                          also=tuple(dict.fromkeys(m.key for m in group if m.key != antecedent.key)))
        resolved.append(mention)
        bisect.insort(by_start, mention, key=lambda m: m.start)
    return sorted(resolved, key=lambda m: m.start)


def _speaking_organization(token, mentions: list[Mention], words: Words) -> Mention | None:
    """Who "we" / "our" is in a quotation: the organization the sentence says is speaking
    ("..., the ministry said"), or the one its speaker speaks for ("Pentagon spokesperson Dana
    White" ... "White said")."""
    sent = sentence_of(token)
    verb = next((t for t in sent if t.lemma_.lower() in words.reporting_verbs and t.pos_ in ("VERB", "AUX")
                 and not (t.i > token.i and any(c.i == token.i for c in t.subtree) and t.dep_ != "ROOT")), None)
    if verb is None:
        return None
    subjects = [c for c in children(verb) if c.dep_ == "nsubj" and not c.i <= token.i <= c.right_edge.i]
    for subject in subjects:
        m = next((m for m in mentions if m.start <= subject.i < m.end and m.kind != "pronoun"), None)
        if m is None:
            continue
        if is_a(m.type, "Organization") or m.type == "Country":
            return m
        if m.type == "Person":
            return _affiliation(token.doc, m, mentions, words)
    return None


def _affiliation(doc, person: Mention, mentions: list[Mention], words: Words) -> Mention | None:
    """The organization a person's title ties them to, at any of their mentions in the document:
    "chief Pentagon spokesperson Dana W. White", "Dana White, a spokesperson for the Pentagon"."""
    ident = identity(person)
    for m in mentions:
        if identity(m) != ident or m.kind == "pronoun":
            continue
        window = [t for t in doc[max(0, m.start - 4):m.start]]
        if m.end < len(doc):
            same = sentence_numbers(doc)
            window += [t for t in doc[m.end:min(len(doc), m.end + 6)] if same[t.i] == same[m.start]]
        if not any(t.lemma_.lower() in words.speaker_titles for t in window):
            continue
        for t in window:
            org = next((o for o in mentions if o.start <= t.i < o.end and o.kind == "name"
                        and is_a(o.type, "Organization")), None)
            if org is not None:
                return org
    return None


def _supported(token, types, mentions: list[Mention], words: Words) -> Mention | None:
    """Whose "its" / "their" it is after a verb of support: its object's ("Canada supports the
    Afghan government in its fight against the Taliban", "helped Nigeria in their war"), not the
    subject's, which the sentence's weighting would choose."""
    if token.dep_ != "poss" or token.head.dep_ != "pobj" or token.head.head.dep_ != "prep":
        return None
    verb = token.head.head.head
    if verb.dep_ == "dobj":  # the phrase hangs on the object: "supports the government in its fight"
        verb = verb.head
    if verb.pos_ != "VERB" or verb.lemma_.lower() not in words.object_control_verbs:
        return None
    for obj in children(verb):
        if obj.dep_ != "dobj":
            continue
        m = next((m for m in mentions if m.start <= obj.i < m.end), None)
        if m is not None and any(is_a(m.type, t) for t in types):
            return m
    return None


def _reference(token, words: Words, descriptors: frozenset[str]):
    """(kind, compatible types, descriptive words) if ``token`` is a pronoun or a definite description;
    ``descriptors`` are the words the gazetteer describes its entries by ("jihadist", "rebel")."""
    lower = token.lower_
    if token.pos_ == "PRON" and lower in words.pronouns:
        types = words.pronouns[lower]
        if lower == "it" and token.dep_ in ("dobj", "pobj", "nsubjpass"):
            types = (*types, "Location", "Facility", "Settlement", "Region")  # "which seized it in December": a town is an object
        return "pronoun", types, set()
    if token.pos_ not in ("NOUN", "PROPN") or token.ent_type_ in ("PERSON", "ORG", "GPE"):
        return None
    types = words.descriptions.get(lower) or words.descriptions.get(token.lemma_.lower())
    if not types:
        return None
    kids = children(token)
    if not any(c.dep_ == "det" and c.lower_ in ("the", "this", "that", "these", "those") for c in kids):
        return None
    # "the town of Arsal", "the group formerly known as X", "the Syrian army": not a back-reference
    if any(c.dep_ in ("prep", "acl", "appos", "relcl", "poss") and (c.dep_ != "prep" or c.lower_ == "of") for c in kids):
        return None
    # ("the jihadist group": a word NER reads as a nationality or a creed that describes groups is
    # a description's word, not a name's)
    if any(c.dep_ in ("compound", "amod") and ((c.ent_type_ and c.lower_ not in descriptors)
                                              or c.i in gazetteer_ids(token.doc)) for c in kids):
        return None
    described = {token.lemma_.lower(), lower} | {c.lemma_.lower() for c in kids if c.dep_ in ("amod", "compound")}
    if "InternationalOrganization" in types and described & words.international_modifiers:
        types = ("InternationalOrganization",)  # "the international coalition" is no armed group
    return "description", types, described


def _own_phrase(token) -> set[int]:
    """Tokens a reference cannot point into: the phrase it heads or modifies ("its" in "its allies")."""
    head = token.head if token.dep_ == "poss" else token
    return {t.i for t in head.subtree}


PLURAL_PRONOUNS = frozenset({"they", "them", "their", "theirs", "themselves"})


def _coordinations(doc, mentions: list[Mention]) -> dict[int, tuple[Mention, ...]]:
    """The names of agents that "and" coordinates, by the first token of each: a plural pronoun
    after them in their sentence stands for them all ("Russia and the Syrian regime continued
    their bombardment of Aleppo", "Kenya and Uganda said their troops ..."). Every conjunct must be
    such a name: "Russia and its allies", "Russia or Iran" are no group of names."""
    at = {i: m for m in mentions if m.kind in NAMING and m.key for i in range(m.start, m.end)}
    out: dict[int, tuple[Mention, ...]] = {}
    seen: set[int] = set()
    for m in mentions:
        if m.start not in at or at[m.start] is not m or m.end - 1 in seen:
            continue
        root = doc[m.end - 1]
        while root.dep_ == "conj" and root.head.i != root.i:
            root = root.head
        heads = [root, *root.conjuncts]
        seen.update(t.i for t in heads)
        if len(heads) < 2 or not any(c.dep_ == "cc" and c.lower_ == "and" for t in heads for c in children(t)):
            continue
        group = [at.get(t.i) for t in heads]
        if all(g is not None and g.end - 1 == t.i and is_a(g.type, "Agent") for g, t in zip(group, heads)) \
                and len({g.key for g in group}) > 1:
            for g in group:
                out[g.start] = tuple(group)
    return out


def _a_people(doc, m: Mention) -> bool:
    """A country named by its people ("the Iraqi people", "Syrians"): "they" may stand for it,
    as it may not for a country's name."""
    return m.type == "Country" and (doc[m.end - 1].tag_ in ("NNS", "NNPS")
                                    or m.text.lower().rsplit(" ", 1)[-1] in ("people", "peoples"))


def _best_antecedent(token, sentence, types, words, window, mentions, gazetteer, loaded_words, exclude,
                     coordinated=None):
    """The likeliest mention ``token`` refers to; ``coordinated`` (a plural pronoun's): the names of
    coordinations (:func:`_coordinations`), which it may stand for whatever their classes in its
    own sentence, a coordinated subject weighing as a subject. Further back a plural pronoun is
    as often a plural noun's that names no one ("Romney, Paul and Santorum lead the contenders.
    ... Most of the Republican candidates have focused their attacks on Obama")."""
    scores: dict[str, float] = defaultdict(float)
    latest: dict[str, Mention] = {}
    loaded = words & loaded_words
    coordinated = coordinated or {}
    for m in mentions:
        if m.start >= token.i:
            break
        if m.start in exclude or sentence - m.sentence > window:
            continue
        if not any(is_a(m.type, t) for t in types) and not (m.start in coordinated and m.sentence == sentence) \
                and not (token.lower_ in PLURAL_PRONOUNS and _a_people(token.doc, m)):
            continue
        weight = 1.0 if m.sentence == sentence else 0.5 ** (sentence - m.sentence)
        head = token.doc[coordinated[m.start][0].end - 1] if m.start in coordinated else token.doc[m.end - 1]
        if head.dep_ in SUBJECT_DEPS:
            weight *= 1.5
        ident = identity(m)
        scores[ident] += weight
        latest[ident] = m
    if not scores:
        return None
    if words:  # the words of a description
        # "the air base" -> "Ghardabiya Air Base": a description repeating the name's own head word
        for ident, m in latest.items():
            if words & {w.lower() for w in m.text.split()}:
                scores[ident] *= 5.0
    if loaded:
        for ident, m in latest.items():
            entry = gazetteer.entries.get(m.gazetteer_id) if m.gazetteer_id else None
            if entry and entry.descriptors:
                scores[ident] *= 3.0 if loaded & set(entry.descriptors) else 0.3
    best = max(scores, key=lambda k: (scores[k], latest[k].start))
    return latest[best]
