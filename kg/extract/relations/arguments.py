"""Which entities a token stands for: a name, or a generic head that points at one ("the town of
Arsal", "Houthi fighters", "militants of the group formerly known as Nusra Front", "forces loyal
to Khalifa Haftar"), a title before a name ("President Bashar al-Assad"), a country's army
("Syria's army", "Russian warplanes"), following coordination and appositions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..namekeys import match_key
from ...ontology import is_a
from ..docindex import children
from ..parse import counts, forms, lemma, opening_adverb, pobjs, stance, subjects
from ..parse import undertakers as undertakers_of

if TYPE_CHECKING:
    from .context import Context


def entities_of(ctx: Context, token, seen: frozenset[int] = frozenset(), alone: bool = False) -> list[str]:
    """The entity keys ``token`` stands for, following coordination (``alone``: not)."""
    keys: list[str] = []
    # "Ansar Dine and other Islamist groups": the others are not Ansar Dine
    others = alone or any(c.dep_ == "amod" and c.lower_ == "other" for c in children(token))
    members = [token] if others else [token, *token.conjuncts]
    own = ctx.at.get(token.i)
    for c in children(token):
        # "Hezbollah, the Syrian army and later the Iraqi army": a list the parser read as an apposition
        other = ctx.at.get(c.i)
        if c.dep_ == "appos" and c.conjuncts and other is not None and other.kind == "name" and \
                own is not None and other.key != own.key:
            members += [c, *c.conjuncts]
    for t in members:
        for key in entity_of(ctx, t, seen | {token.i}):
            if key not in keys:
                keys.append(key)
    return keys


def entity_of(ctx: Context, token, seen: frozenset[int]) -> list[str]:
    """The entities one token (not its conjuncts) stands for."""
    mention = ctx.at.get(token.i)
    if mention is not None and mention.key:
        return [mention.key, *mention.also]  # "their": a coordination's names, each
    modifier = ("amod", "compound", "npadvmod", "nmod")
    if (token.dep_ in modifier or (token.dep_ == "conj" and token.head.dep_ in modifier)) and not stance(token):
        country = ctx.gazetteer.country_of_demonym(token.text)
        if country:  # "our Somali partners", "Iranian-backed"
            return [country]
    shared = _sharing_a_noun(ctx, token)
    if shared:
        return [shared]
    person = _titled_person(ctx, token)
    if person:
        return [person]
    words = ctx.words
    lemma_ = lemma(token)
    if token.pos_ == "NOUN":  # "their allies, the Janjaweed militia": a noun says who, in apposition
        keys = _first(ctx, [c for c in _appositives(token) if c.i not in seen], seen)
        if keys:
            return keys
    if lemma_ in words.control_nouns:
        return _controller(ctx, token, seen)
    if lemma_ in words.government_words:
        governed = _governed_by_person(ctx, token)
        if governed:
            return [governed]
    # "the offensive (launched by X)", "a partner in the campaign": who wages it (not an undertaking
    # another verb acts on: "X condemned an attack by Y" says nothing of Y; but "X repelled an
    # attack by Y" fights Y)
    acted_on = token.dep_ in ("dobj", "nsubjpass") and token.head.pos_ == "VERB" \
        and not forms(token.head, words) & (words.undertaking_verbs | words.repelling_verbs)
    if lemma_ in words.undertaking_nouns and not acted_on:
        undertakers = [u for u in undertakers_of(token, words) if u.i not in seen and u.i != token.i]
        keys = _first(ctx, undertakers, seen | {token.i})
        if keys:
            return keys
    if counts(token, words):  # "dozens of Iraqi soldiers", "two of its fighters"
        counted = [p for c in children(token) if c.dep_ == "prep" and c.lower_ == "of" for p in pobjs(c)]
        keys = _first(ctx, [p for p in counted if lemma(p) not in words.undertaking_nouns], seen | {token.i})
        if keys:
            return keys
    place_head = lemma_ in words.place_heads
    if not (place_head or forms(token, words, lemma_) & words.members):  # "fighters"; "air power": with its compound
        return []
    return (_named_after(ctx, token, place_head) or _army_of(ctx, token, lemma_)
            or _through_children(ctx, token, lemma_, seen) or _through_head(ctx, token, seen))


def _sharing_a_noun(ctx: Context, token) -> str | None:
    """A nationality alone before "and" a name of its noun's kind ("Ethiopian and Eritrean troops",
    which the gazetteer read as "Ethiopian" and the name "Eritrean troops"): that noun's entity for
    this nationality ("Ethiopian troops")."""
    if not ctx.gazetteer.country_of_demonym(token.text):
        return None
    for c in token.conjuncts:
        other = ctx.at.get(c.i)
        if c.i > token.i and other is not None and other.kind == "name" and other.gazetteer_id:
            first, _, rest = other.text.partition(" ")
            if rest and ctx.gazetteer.country_of_demonym(first):
                entry = ctx.gazetteer.lookup(f"{token.text} {rest}")
                if entry is not None:
                    return entry.id
    return None


def _governed_by_person(ctx: Context, token) -> str | None:
    """The government a person names: "the Asad regime", "the regime of Bashar al-Assad", "Putin's
    government" (the dictionaries say which country the person governs)."""
    kids = children(token)
    people = [c for c in kids if c.dep_ in ("compound", "poss") and c.i < token.i]
    people += [p for c in kids if c.dep_ == "prep" and c.lower_ == "of" for p in pobjs(c)]
    for p in people:
        m = ctx.at.get(p.i)
        if m is None or m.type != "Person":
            continue
        key = ctx.gazetteer.government_led_by(m.gazetteer_id, m.key, match_key(m.text))
        if key:
            return key
    return None


def _controller(ctx: Context, token, seen: frozenset[int]) -> list[str]:
    """Who holds the control a noun names: "ISIL control", "ISIL's grip", "the hands of the
    Islamic State" (an agent: in "control of Mosul" the place is what is held)."""
    kids = children(token)
    keys = _first(ctx, [c for c in kids if c.dep_ in ("compound", "poss", "amod") and c.i < token.i
                        and not stance(c)], seen | {token.i})
    if keys:
        return keys
    held = _first(ctx, [p for c in kids if c.dep_ == "prep" and c.lower_ == "of" for p in pobjs(c)], seen | {token.i})
    return [k for k in held if not is_a(ctx.type_of(k), "Location") or is_a(ctx.type_of(k), "Agent")]


def _appositives(token) -> list:
    """The appositions that say what ``token`` is ("their allies, the Janjaweed militia"), not
    those an adverb marks as a part of it ("NATO members, especially Turkey")."""
    return [c for c in children(token) if c.dep_ == "appos" and opening_adverb(c) is None]


def _titled_person(ctx: Context, token) -> str | None:
    """"President Bashar al-Assad", however the parser attached the name."""
    if lemma(token) not in ctx.titles and token.lower_ not in ctx.titles:
        return None
    person = ctx.at.get(token.i + 1) if token.i + 1 < len(ctx.doc) else None
    return person.key if person is not None and person.type == "Person" and person.key else None


def _named_after(ctx: Context, token, place_head: bool) -> list[str]:
    """"the Yemeni capital Sana'a", however the parser attached the name."""
    if not place_head or token.i + 1 >= len(ctx.doc):
        return []
    nxt = ctx.at.get(token.i + 1)
    if nxt is not None and nxt.key and nxt.start == token.i + 1 and is_a(nxt.type, "Location"):
        return [nxt.key]
    return []


def _army_of(ctx: Context, token, lemma_: str) -> list[str]:
    """"Syria's army", "the Lebanese military", "Russian warplanes", "Turkish drones", "Russian and
    Syrian warplanes" (not "Syrian opposition forces")."""
    words = ctx.words
    if any(lemma(c) in words.opposition_words or c.lower_ in words.opposition_words for c in children(token)):
        return []
    found: list[str] = []
    if (lemma_ in words.armed_forces_words or token.lower_ in words.armed_forces_words
            or forms(token, words, lemma_) & words.military_assets):  # "Russian air power": the compound's form too
        for c in children(token):
            # "Russian and Syrian warplanes": each nationality of the list its own forces
            for x in (c, *(c.conjuncts if c.dep_ in ("amod", "compound", "nmod") else ())):
                for country in ctx.countries_of(x) if not stance(x) else ():
                    forces = ctx.armed_forces(country)
                    if forces and forces not in found:
                        found.append(forces)
            if found:
                return found + _named_beside(ctx, token, found)
    return found


def _named_beside(ctx: Context, token, found: list[str]) -> list[str]:
    """"Afghan and coalition forces": the parser hangs both on the noun, the nationality as an
    adjective and the force as a compound; a force so named beside a listed nationality is one of
    the noun's too."""
    kids = children(token)
    if not any(t.dep_ == "cc" for c in kids if c.dep_ in ("amod", "compound", "nmod") for t in children(c)):
        return []
    out = []
    for c in kids:
        m = ctx.at.get(c.i)
        if c.dep_ in ("compound", "nmod") and c.i < token.i and m is not None and m.key and m.key not in found \
                and m.key not in out and m.type not in ("Person", "PersonGroup", "Country") and not stance(c):
            out.append(m.key)
    return out


def _through_children(ctx: Context, token, lemma_: str, seen: frozenset[int]) -> list[str]:
    """A generic head's own modifiers name what it stands for."""
    words = ctx.words
    for c in children(token):
        if c.i in seen or stance(c):  # "pro-Russian separatists" are not Russia
            continue
        keys: list[str] = []
        if c.dep_ == "amod" and lemma(c) in words.allegiance_adjectives and lemma_ in words.members:
            # "forces loyal to Khalifa Haftar"
            keys = _first(ctx, [p for prep in children(c) if prep.dep_ == "prep" and prep.lower_ in ("to", "with")
                                for p in pobjs(prep)], seen | {c.i})
        elif c.dep_ == "prep" and c.lower_ == "of":
            keys = _first(ctx, pobjs(c), seen | {c.i})
        elif c.dep_ == "prep" and c.lower_ == "from" and lemma_ in words.member_nouns:
            keys = _whence(ctx, token, lemma_, c, seen)
        elif c.dep_ in ("compound", "amod", "nmod", "poss") and c.i < token.i:
            m = ctx.at.get(c.i)
            if m is not None and m.key:  # "their fighters": each of the names "their" stands for
                keys = [k for k, type_ in ((m.key, m.type), *((k, ctx.type_of(k)) for k in m.also))
                        if type_ not in ("Person", "PersonGroup") and (
                            is_a(type_, "Organization") or lemma_ in words.place_heads)]
        elif c in _appositives(token):
            keys = entities_of(ctx, c, seen)
        elif c.dep_ == "acl" and c.lemma_ in words.naming_verbs:
            # "the group formerly known as Nusra Front", "a faction called X"
            named = [p for cc in children(c) if cc.dep_ == "prep" and cc.lower_ == "as" for p in pobjs(cc)]
            keys = _first(ctx, named + [cc for cc in children(c) if cc.dep_ == "oprd"], seen | {c.i})
        if keys:
            return keys
    return []


def _whence(ctx: Context, token, lemma_: str, prep, seen: frozenset[int]) -> list[str]:
    """Whose the members a "from" phrase says they come from are: a group's ("fighters from the
    Islamic State"), a state's where they are its soldiers ("soldiers from Chad and Niger": each
    country, as the annotators name them), but not a place's ("militants from Somalia" are their
    group's, not Somalia's)."""
    soldiers = lemma_ in ctx.words.state_soldier_nouns or token.lower_ in ctx.words.state_soldier_nouns
    keys = _first(ctx, pobjs(prep), seen | {prep.i})
    places = [ctx.type_of(k) for k in keys if is_a(ctx.type_of(k), "Location")]
    return [] if any(not (soldiers and is_a(type_, "Country")) for type_ in places) else keys


def _through_head(ctx: Context, token, seen: frozenset[int]) -> list[str]:
    """A generic noun described by what it hangs on: "Hezbollah is a militant group, led by X",
    "fighters of the group", "the Houthis, a group of Zaydi fighters led by X"."""
    head = token.head
    if token.dep_ == "attr" and lemma(head) in ctx.words.copular_verbs and head.i not in seen:
        keys = _first(ctx, subjects(head, ctx.words), seen | {token.i})
        if keys:
            return keys
    if token.dep_ == "pobj" and head.lower_ == "of" and lemma(head.head) in ctx.words.members \
            and head.head.i not in seen:
        return entity_of(ctx, head.head, seen | {token.i})
    if token.dep_ == "appos" and head.i not in seen:
        m = ctx.at.get(head.i)
        if m is not None and m.key:
            return [m.key]
    return []


def _first(ctx: Context, tokens, seen: frozenset[int]) -> list[str]:
    """The entities of the first of ``tokens`` that stands for any."""
    for t in tokens:
        keys = entities_of(ctx, t, seen)
        if keys:
            return keys
    return []
