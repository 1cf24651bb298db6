"""Other names a document gives an entity it names: "Qayyarah Airfield West, also called "Q-West"",
"USS Hopper (DDG 70)", and the descriptions it puts beside a name as another way of saying who or
what it is ("Gen. Joseph Votel, commander of U.S. Central Command"; "Raqqah, ISIL's self-proclaimed
capital"; "the 407th AEG commander, Col. David C. Lyons").

Names given this way join the entity (kind "alias": they take its key). Descriptions are kept as
surface forms of the entity in this document (kind "appositive"): they never decide an entity's key
or label, so they cannot merge two entities, but a reader searching for "the commander of U.S.
Central Command" finds the person.
"""

from __future__ import annotations

from dataclasses import replace

from ..ontology import is_a
from ..records import Mention
from .docindex import QUOTES, children, span_text
from .words import Words

DETERMINERS = {"the", "a", "an", "this", "that", "its", "their", "his", "her", "our"}


def find_aliases(doc, mentions: list[Mention], words: Words) -> list[Mention]:
    """``mentions`` (with keys) plus the aliases and appositive descriptions of the named ones."""
    names = [m for m in mentions if m.kind == "name" and m.key]
    at = {i: m for m in mentions for i in range(m.start, m.end)}
    rekey: dict[int, str] = {}  # start of a name mention -> the key it takes ("also called")
    extra: list[Mention] = []
    for m in names:
        head = doc[m.end - 1]
        for c in children(head):
            if c.dep_ == "acl" and c.lemma_.lower() in words.naming_verbs:
                for other in _named_by(doc, c, at):
                    if other.key != m.key and not other.gazetteer_id:
                        rekey[other.start] = m.key
            elif c.dep_ == "appos" and c.i not in at:
                extra.extend(_description(doc, c, m, words))
        extra.extend(_designation(doc, m))
        called = _called(doc, m, words)
        if called is not None:
            other = at.get(called[0])
            if other is not None and other.kind == "name" and other.key and not other.gazetteer_id:
                rekey[other.start] = m.key
            elif other is None:
                span = doc[called[0]:called[1]]
                extra.append(replace(m, start=span.start, end=span.end, start_char=span.start_char,
                                     end_char=span.end_char, text=span_text(span), kind="alias"))
        if m.type == "Person":
            extra.extend(_titled(doc, m, words))
        else:
            extra.extend(_member_phrase(doc, m, at, words))
            extra.extend(_with_country(doc, m, at))
        if head.dep_ == "appos" and head.head.i not in at:  # "the 407th AEG commander, Col. David C. Lyons"
            extra.extend(_description(doc, head.head, m, words))
        before = next((c for c in children(head) if c.dep_ in ("compound", "nmod") and c.i == m.start - 1
                       and c.pos_ == "NOUN" and c.i not in at), None)
        if before is not None:  # "the large-deck amphibious assault ship HMS Ocean"
            extra.extend(_owned(doc, head, _description(doc, before, m, words)))
    for m in mentions:
        if m.kind == "generic" and m.key:  # "Coalition nations"
            extra.extend(_member_phrase(doc, m, at, words))
    given = [e for e in extra if e.kind == "alias"]  # "DDG 70": not a name of its own as well
    out = [replace(m, key=rekey[m.start], kind="alias") if m.start in rekey else m for m in mentions
           if m.gazetteer_id or not any(g.start <= m.start < g.end for g in given)]
    return sorted(out + extra, key=lambda m: (m.start, m.end))


ADVERBS = {"also", "formerly", "locally", "commonly", "often", "sometimes", "popularly", "widely", "officially"}


def _called(doc, name: Mention, words: Words) -> tuple[int, int] | None:
    """The token range of X in "NAME, also called "X"" / "NAME, known as X", however it was parsed."""
    i = name.end
    if i < len(doc) and doc[i].text == ",":
        i += 1
    while i < len(doc) and doc[i].lower_ in ADVERBS:
        i += 1
    if i >= len(doc) or doc[i].lemma_.lower() not in words.naming_verbs:
        return None
    verb = doc[i]
    if i == name.end and verb.dep_ == "acl" and not name.start <= verb.head.i < name.end:
        return None  # "a bank in Zurich called X": the bank is called X, not the place before the verb
    i += 1
    if i < len(doc) and doc[i].lower_ == "as":
        i += 1
    quoted = i < len(doc) and doc[i].text in QUOTES
    i += quoted
    start = i
    while i < len(doc) and (doc[i].text not in QUOTES if quoted else doc[i].pos_ == "PROPN" or doc[i].text == "-"):
        i += 1
    if i == start or i - start > 6 or (quoted and (i >= len(doc) or doc[i].text not in QUOTES)):
        return None
    return start, i


def _titled(doc, person: Mention, words: Words) -> list[Mention]:
    """The name with the ranks and offices written before it ("Col. Travis Caughlin", "Lt. Gen.
    Stephen J. Townsend", "Secretary of State John Kerry"): how the text refers to the person, not
    their name."""
    start = person.start

    def title(i: int) -> bool:
        return doc[i].lower_.rstrip(".") in words.person_titles or doc[i].lower_ in words.person_titles
    while start > 0:
        if title(start - 1):
            start -= 1
            continue
        office = next((i for i in range(start - 1, max(start - 5, 0), -1) if doc[i].lower_ == "of"), None)
        if office is None or office == 0 or not title(office - 1) or \
                span_text(doc[office + 1:start]).lower() not in words.title_offices:
            break
        start = office - 1  # "Deputy Secretary of State Antony Blinken"
    if start == person.start:
        return []
    span = doc[start:person.end]
    return [replace(person, start=start, start_char=span.start_char, text=span_text(span), kind="appositive")]


def _member_phrase(doc, group: Mention, at: dict[int, Mention], words: Words) -> list[Mention]:
    """The group's name with the noun for its people or units it modifies ("ISIL tactical units",
    "SDF forces", "U.S. service members"): how the text refers to the group there, kept as a surface
    form (kind "phrase"), never as its label or key."""
    head = doc[group.end - 1]
    noun = head.head
    if head.dep_ not in ("compound", "amod", "nmod") or noun.i < group.end or noun.pos_ != "NOUN" \
            or noun.lemma_.lower() not in words.member_phrase_nouns or noun.i - group.end > 2:
        return []
    if noun.dep_ == "appos":  # "Madeleine Albright, U.S. representative to the UN": says who she is
        return []
    between = doc[group.end:noun.i]
    if any(t.i in at or t.head.i != noun.i or t.dep_ not in ("amod", "compound") for t in between):
        return []  # "ISIL and Nusra fighters", "ISIL-held buildings": not the group's own people
    span = doc[group.start:noun.i + 1]
    return [replace(group, start=span.start, end=span.end, start_char=span.start_char, end_char=span.end_char,
                    text=span_text(span), kind="phrase")]


def _with_country(doc, org: Mention, at: dict[int, Mention]) -> list[Mention]:
    """"U.S. Naval Forces Central Command": an organization's name with its country's written
    before it, how the text names it there (kind "qualified", a surface form); the country keeps
    its own mention."""
    country = at.get(org.start - 1)
    if country is None or country.type != "Country" or not country.key or country.key == org.key \
            or not is_a(org.type, "Organization") or doc[country.end - 1].head.i not in range(org.start, org.end):
        return []
    span = doc[country.start:org.end]
    return [replace(org, start=span.start, end=span.end, start_char=span.start_char, end_char=span.end_char,
                    text=span_text(span), kind="qualified")]


def _named_by(doc, verb, at: dict[int, Mention]) -> list[Mention]:
    """The names a naming verb gives: "also called "Q-West"", "formerly known as Nusra Front"."""
    found = []
    for c in children(verb):
        targets = [p for p in children(c) if p.dep_ == "pobj"] if c.dep_ == "prep" and c.lower_ == "as" else \
            [c] if c.dep_ in ("oprd", "attr", "dobj", "npadvmod") else []
        for t in targets:
            m = at.get(t.i)
            if m is not None and m.kind == "name" and m.key:
                found.append(m)
    return found


def _description(doc, head, name: Mention, words: Words) -> list[Mention]:
    """An appositive noun phrase that describes ``name``, as a surface form: a common noun with
    what modifies it, not a name, a list or a clause."""
    if head.pos_ != "NOUN" and not (head.pos_ == "PROPN" and head.lemma_.lower() in words.speaker_titles):
        return []
    lemma_ = head.lemma_.lower()
    if is_a(name.type, "Location") and any(lemma_ in nouns for nouns in (
            words.speaker_titles, words.person_titles, words.kin_nouns, words.people_nouns)):
        # "Sen. Donald Riegle, D-Mich., chairman of the committee", "born in Jamestown, N.Y., the
        # daughter of a pianist": the parser's, not the place's
        return []
    tokens = sorted(_phrase(head), key=lambda t: t.i)
    start, end = tokens[0].i, tokens[-1].i + 1
    if start < name.start < end:  # "the 407th AEG commander, Col. David C. Lyons": up to the name
        end = name.start
    cut = next((t.i for t in doc[start:end] if t.text in ("(", "[", ",", ";")), None)
    if cut is not None:  # "terrorist group ISIL (", "commander, U.S. Central Command"
        end = cut
    while start < end and (doc[start].lower_ in DETERMINERS or doc[start].is_punct):
        start += 1
    while end > start and doc[end - 1].is_punct:
        end -= 1
    if end - start < 2 or end - start > 12 or start < name.end and name.start < end:
        return []
    span = doc[start:end]
    return [replace(name, start=start, end=end, start_char=span.start_char, end_char=span.end_char,
                    text=span_text(span), kind="appositive")]


def _owned(doc, head, described: list[Mention]) -> list[Mention]:
    """The description with the possessor the name has right before it: "the U.K.'s large-deck
    amphibious assault ship HMS Ocean" (the parser hangs "U.K.'s" on the name, not on "ship")."""
    owner = next((c for c in children(head) if c.dep_ == "poss"), None)
    if not described or owner is None:
        return described
    owned = sorted(t.i for t in owner.subtree if t.dep_ != "det")
    if not owned or owned[-1] + 1 != described[0].start:
        return described
    span = doc[owned[0]:described[0].end]
    return [replace(described[0], start=span.start, start_char=span.start_char, text=span_text(span))]


def _phrase(head) -> list:
    """A noun with the words that say which one it is: its modifiers before it ("ISIL's
    self-proclaimed capital", "Arab component") and an "of"/"for" phrase after it ("commander of
    U.S. Central Command"); not clauses or coordinated words."""
    doc = head.doc
    modifiers = {t.i: c for c in children(head) if c.i < head.i
                 and c.dep_ in ("amod", "compound", "nmod", "poss", "nummod", "det", "case") for t in c.subtree}
    out = [head]
    i = head.i - 1  # the unbroken run of modifiers before the noun, none of them coordinated
    while i >= 0 and i in modifiers and not any(t.dep_ == "cc" for t in modifiers[i].subtree):
        out.append(doc[i])
        i -= 1
    for c in children(head):
        if c.dep_ == "prep" and c.lower_ in ("of", "for") and c.i > head.i:
            out.extend(c.subtree)
    return out


def _designation(doc, name: Mention) -> list[Mention]:
    """A designation in parentheses right after a name: "USS Hopper (DDG 70)", "HMS Ocean (L 12)"."""
    if name.end + 2 >= len(doc) or doc[name.end].text != "(":
        return []
    close = next((i for i in range(name.end + 1, min(name.end + 5, len(doc))) if doc[i].text == ")"), None)
    if close is None or close == name.end + 1:
        return []
    inner = doc[name.end + 1:close]
    letters, digits = inner[0].text, [t.text for t in inner[1:]]
    if not (letters.isalpha() and letters.isupper() and len(letters) <= 4 and digits and all(d.isdigit() for d in digits)):
        return []
    return [replace(name, start=inner.start, end=inner.end, start_char=inner.start_char, end_char=inner.end_char,
                    text=span_text(inner), kind="alias")]
