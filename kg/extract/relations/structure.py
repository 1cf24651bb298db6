"""Structural rules: relations read from modifiers and appositions rather than from a trigger's
arguments. ``title``: "Syrian President Bashar al-Assad", "Khalifa Haftar, commander of the LNA";
``nationality``: "Hezbollah, a Lebanese group", "Syria's Ikhbariya"; ``location``: "Arsal in
Lebanon", "Ras Baalbek, Lebanon", "the Yemeni port city of Hodeidah"; ``seat``: "Waste Management
Inc. of Houston", "a company based in Tokyo", "a London-based monitor"; ``affiliation``: "Anna Berg
of Uppsala University"; ``unit``: "2nd Battalion, 5th Special Forces Group", a military unit named
with its parent unit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ... import ontology
from ...ontology import is_a
from ..docindex import children, span_text, tokens
from ..lexicon import Rule
from ..mentions import part_of_city, place_noun_after, place_nouns
from ..parse import first_conjunct, hyphened, lemma, one_of_several, pobjs, prep_objects, stance, title_word
from ..sourcelines import SOURCE_ITEM, names_a_language
from .context import Found

if TYPE_CHECKING:
    from ...records import Mention
    from ..words import Words
    from .context import Context

# how big a place is: a place of no known kind (kg:Location, "near X") ranks as a town
RANK = {"Facility": -1, "Settlement": 0, "Location": 0, "Region": 1, "Country": 2}


def titles(ctx: Context, rule: Rule) -> Iterator[Found]:
    """A person's title ties them to the organization or country it is of. A leader's title with a
    common noun before it ("an ISIL gang leader", "an artillery crew chief in Abel Battery") heads
    a part of the organization, and an indefinite one ("X, a Taliban commander", "an ISIS leader,
    X") names one of its several: the person is a member of it, not its leader. A state or an
    organization is a member of the organization its title names ("NATO member Turkey": words.toml
    side_titles)."""

    for m in ctx.mentions:
        person = m.type == "Person"
        if m.kind != "name" or not m.key or not (person or rule.relation == "memberOf" and is_a(m.type, "Agent")):
            continue
        found = _titles_of(ctx, m, ctx.titles if person else ctx.words.side_titles)
        for title in found:
            word = title_word(title, ctx.words)
            if not person:  # a state's or an organization's title: "NATO member Turkey"
                side = ctx.words.side_titles.get(word)
                if side is not None:
                    yield from (Found(m.key, org, rule, title.i) for org in _title_organizations(ctx, title, m)
                                if is_a(ctx.type_of(org), side) and _named(ctx, org))
                continue
            after = ctx.doc[title.i + 1] if title.i + 1 < len(ctx.doc) else None
            if after in found and f"{word} {title_word(after, ctx.words)}" in ctx.titles:
                continue  # "Secretary General": the two words are one title, read at the second
            if title.i > 0 and f"{title_word(ctx.doc[title.i - 1], ctx.words)} {word}" in ctx.titles:
                word = f"{title_word(ctx.doc[title.i - 1], ctx.words)} {word}"  # "Prime Minister", not a minister
            first = title.i - word.count(" ")
            if first > 0 and title_word(ctx.doc[first - 1], ctx.words) in ctx.words.deputy_words:
                word = "deputy"  # "Vice President", "Deputy Prime Minister": a member, not the leader
            sub_unit = heads_a_part(ctx, title) or one_of_several(title, ctx.words)
            # "Adam Szubin, Director of OFAC": a member's title that heads what its "of" names
            heading = word in ctx.words.heading_titles and not sub_unit and _of_an_organization(ctx, title, m)
            listed = rule.relation == "leaderOf" if heading else word in rule.lemmas
            if not (listed and not (sub_unit and rule.relation == "leaderOf")
                    or (sub_unit and rule.relation == "memberOf" and word in ctx.titles)):
                continue
            for org in _title_organizations(ctx, title, m):
                if rule.relation == "memberOf" and ctx.type_of(org) == "Country":
                    if word in ctx.words.profession_titles:
                        continue  # "Yemeni journalist Ali Saleh": where from, not whose
                    # "U.S. Defense Secretary Ash Carter", "Iraqi Foreign Minister X": of its government
                    org = ctx.gazetteer.government(org) or org
                yield Found(m.key, org, rule, title.i)


def _of_an_organization(ctx: Context, title, person: Mention) -> bool:
    """Whether the title's own "of" names an organization ("Director of OFAC", "Director of the FBI
    Christopher Wray")."""
    named = [p for c in children(title) if c.dep_ == "prep" and c.lower_ == "of" for p in pobjs(c)]
    keys = [k for p in named for k in ctx.entities_of(p)] + (_between(ctx, title, person) if named else [])
    return any(is_a(ctx.type_of(k), "Organization") for k in keys)


def _between(ctx: Context, title, person: Mention) -> list[str]:
    """The organizations named between a title and the name after it ("Director of the FBI Christopher Wray")."""
    return [m.key for m in ctx.mentions if title.i < m.start and m.end <= person.start and m.kind == "name"
            and m.key and is_a(m.type, "Organization")]


def _named(ctx: Context, key: str) -> bool:
    """Whether the document names the entity ``key`` (not only a generic word: "Coalition partner
    Jordan" with no coalition named is no membership of a known one)."""
    return any(m.key == key and m.kind in ("name", "acronym", "alias", "shortened") for m in ctx.mentions)


def _titles_of(ctx: Context, m: Mention, known) -> list:
    """The title words of a name (the ``known`` titles: a person's, or a state's or an organization's,
    :func:`titles`): before it, in apposition, or the noun it is in apposition to."""
    doc = ctx.doc
    found = []
    if m.start > 0 and title_word(doc[m.start - 1], ctx.words) in known:
        found.append(doc[m.start - 1])
    head = doc[m.end - 1]
    for c in children(head):
        if c.dep_ in ("appos", "compound") and title_word(c, ctx.words) in known and c not in found:
            found.append(c)
    # "Turkey and other NATO members", "Haniyeh and other Hamas leaders": one of them
    found += [c for c in children(head) if c.dep_ == "conj" and title_word(c, ctx.words) in known
              and any(k.lower_ == "other" for k in children(c)) and c not in found]
    first = first_conjunct(head)
    if first is not head:  # a later name of a list takes the title the list is in apposition to
        # ("Greenpeace members A and B") or a plural one before its first name ("Hamas leaders A and B")
        shared = [first.head] if first.dep_ == "appos" else []
        shared += [c for c in children(first) if c.dep_ == "compound" and c.tag_ in ("NNS", "NNPS")]
        found += [t for t in shared if title_word(t, ctx.words) in known and t not in found]
    of_org = _title_of_before(ctx, m, known)
    if of_org is not None and of_org not in found:
        found.append(of_org)
    if head.dep_ == "appos" and title_word(head.head, ctx.words) in known:
        found.append(head.head)
    elif head.dep_ == "appos" and head.head.dep_ == "pobj" and head.head.head.dep_ == "prep" and \
            title_word(head.head.head.head, ctx.words) in known and _in_a_name(ctx, head.head, "Organization"):
        # "a spokesman for the Houthis, Mohammed Abdulsalam,": the parser set the name beside the
        # organization, which a person's name cannot describe; it is the title's
        found.append(head.head.head.head)
    return found


def _title_of_before(ctx: Context, m: Mention, known):
    """The title of "TITLE of ORGANIZATION NAME", however the parser read it ("Director of the FBI
    Christopher Wray", "Deputy Secretary of the Treasury Wally Adeyemo": it made the person the
    object of "of"), or None."""
    org = ctx.at.get(m.start - 1) if m.start > 0 and m.type == "Person" else None
    if org is None or org.kind != "name" or not org.key or org.key == m.key or not is_a(org.type, "Organization"):
        return None
    i = org.start - 1
    if i >= 0 and ctx.doc[i].lower_ == "the":
        i -= 1
    if i < 1 or ctx.doc[i].lower_ != "of" or title_word(ctx.doc[i - 1], ctx.words) not in known:
        return None
    return ctx.doc[i - 1]


def heads_a_part(ctx: Context, title) -> bool:
    """"gang leader", "crew chief", "cell commander", "director of operations": a common noun
    names the part led, before the title or after its "of" (one that stands for no entity: the
    "commander of Syrian forces" leads them); so does a place's name before a title of an
    organization ("Nigeria director at the Stakeholder Democracy Network", "Oxfam's Kenya
    director"; "Nigeria President Buhari" leads Nigeria)."""
    kids = children(title)  # each reading tried in turn: this runs on every title and leader's fact
    if any(c.dep_ in ("compound", "amod") and c.pos_ == "NOUN" and c.i not in ctx.at
           and lemma(c) not in ctx.words.armed_forces_words for c in kids if c.i < title.i):
        return True  # a noun before the title
    if any(p.pos_ == "NOUN" and p.i not in ctx.at and not ctx.entities_of(p)
           for c in kids if c.dep_ == "prep" and c.lower_ == "of" for p in pobjs(c)):
        return True  # a noun after its "of"
    if not any(c.dep_ == "compound" and c.i < title.i and _in_a_name(ctx, c, "Location") for c in kids):
        return False
    whose = [p for c in kids if c.dep_ == "prep" and c.lower_ in ("of", "at", "for") for p in pobjs(c)]
    whose += [c for c in kids if c.dep_ == "poss"]
    return any(_an_organization(ctx, k) for t in whose for k in ctx.entities_of(t))  # a place's name before


def _an_organization(ctx: Context, key: str) -> bool:
    """An organization, or an agent no title can be of but an organization's that NER misread
    ("Nigeria director at the Stakeholder Democracy Network" read as a person's name)."""
    type_ = ctx.type_of(key)
    return is_a(type_, "Organization") or type_ == "Person"


def _title_organizations(ctx: Context, title, person: Mention) -> list[str]:
    kids = children(title)
    # "Sudan's army chief X": the army of the country, not the country
    if any(c.dep_ in ("compound", "amod") and lemma(c) in ctx.words.armed_forces_words for c in kids):
        for c in kids:
            forces = ctx.armed_forces(ctx.country_of(c)) if c.dep_ in ("poss", "amod", "compound", "nmod") else None
            if forces:
                return [forces]
    keys: list[str] = []
    named_places: list[str] = []  # the places named before the title ("Nigeria director")
    for c in kids:
        if c.dep_ == "prep" and c.lower_ in ("of", "for", "in", "at", "with"):
            for p in pobjs(c):
                keys.extend(k for k in ctx.entities_of(p) if _says_whose(c.lower_, ctx.type_of(k)) and k != person.key)
        elif c.dep_ == "appos" and c.i > title.i and c.i not in range(person.start, person.end):
            keys.extend(k for k in ctx.entities_of(c) if is_a(ctx.type_of(k), "Organization"))  # "commander, U.S. Central Command"
        elif c.dep_ in ("poss", "compound", "amod", "nmod") and c.i < title.i:
            before = ctx.entities_of(c)
            keys.extend(before or ([ctx.country_of(c)] if ctx.country_of(c) else []))
            if c.dep_ == "compound":
                named_places += [k for k in before if is_a(ctx.type_of(k), "Location")]  # a country too
    if named_places and any(_an_organization(ctx, k) for k in keys):
        # "Nigeria director at the Stakeholder Democracy Network": the place is where the title
        # holds, the organization whose it is
        keys = [k for k in keys if k not in named_places]
    if not keys and title.i < person.start:  # "Director of the FBI Christopher Wray"
        keys = _between(ctx, title, person)
    if not keys and title.i < person.start:
        keys = _of_after_name(ctx, person)
    if not keys:
        keys = _named_before(ctx, title, person)
    return [k for k in dict.fromkeys(keys) if k and k != person.key]


def _of_after_name(ctx: Context, person: Mention) -> list[str]:
    """What the "of" after a titled name names, where the parser hung it on the name and not on
    the title before it: "President Ashraf Ghani of Afghanistan", "Foreign Minister Sergei Lavrov
    of Russia", "Commander Ali Musa of the 3rd Brigade"."""
    head = ctx.doc[person.end - 1]
    return [k for c in children(head) if c.dep_ == "prep" and c.lower_ == "of" and c.i >= person.end
            for p in pobjs(c) for k in ctx.entities_of(p)]


def _says_whose(preposition: str, type_: str) -> bool:
    """Whether a title's prepositional phrase names whose title it is: not a country after "for"
    ("Special Envoy for Libya" speaks for others to Libya), nor a place after "in" or "at" ("the
    U.S. commander in Afghanistan", "an ISIL fighter in Syria": where, not whose); a facility is an
    institution ("a surgeon at Mayo Clinic")."""
    if preposition == "for":
        return type_ != "Country"
    return preposition not in ("in", "at") or type_ == "Facility" or not is_a(type_, "Location")


def _named_before(ctx: Context, title, person: Mention) -> list[str]:
    """The words just before the title: "Lebanese Internal Security Gen. Abbas Ibrahim", "U.N.
    Secretary-General Javier Perez de Cuellar" (the parser hung "U.N." on the name)."""
    i = title.i - 1
    while i >= 0 and (ctx.doc[i].dep_ in ("amod", "compound", "punct") or ctx.doc[i].dep_ == "nmod" and i == title.i - 1) \
            and ctx.doc[i].text not in (",", "(", "\u2014"):
        m = ctx.at.get(i)
        if m is not None and m.key and m.key != person.key and m.kind == "name":
            return [m.key]
        country = ctx.country_of(ctx.doc[i])
        if country:
            return [country]
        i -= 1
    return []


def nationality(ctx: Context, rule: Rule) -> Iterator[Found]:
    """"Hezbollah, a Lebanese group"; "the Iraqi Popular Mobilization Forces"; "Syria's Ikhbariya"."""
    words = ctx.words
    for m in ctx.mentions:
        if m.kind != "name" or not m.key or not is_a(m.type, "Organization"):
            continue
        head = ctx.doc[m.end - 1]
        candidates = [c for c in children(head) if c.dep_ in ("amod", "poss", "compound", "nmod") and c.i < m.start]
        described = [c for c in children(head) if c.dep_ == "appos"] + ([head.head] if head.dep_ == "appos" else [])
        if head.dep_ in ("nsubj", "nsubjpass") and lemma(head.head) in words.copular_verbs:
            # "Hezbollah is a Lebanese ... group"
            described += [c for c in children(head.head) if c.dep_ == "attr"]
        described += _kind_before(ctx, m)
        for appos in described:
            if lemma(appos) in words.members or lemma(appos) in words.descriptions or lemma(appos) in words.organization_nouns:
                candidates.extend(c for c in children(appos) if c.dep_ in ("amod", "compound", "nmod", "poss") and c.i < appos.i)
        for c in candidates:
            # "the Israel-Hamas war": a name joined to it by a hyphen is the other side, not its country
            hyphen = c.i == m.start - 2 and hyphened(ctx.doc, c.i)
            country = ctx.country_of(c) if not stance(c) and not hyphen else None
            if country and country != m.key:
                yield Found(m.key, country, rule, c.i)


def _kind_before(ctx: Context, m: Mention) -> list:
    """The noun for the organization's kind right before its name, where the parser did not join
    the two ("Syria's state news agency SANA said": two subjects of "said")."""
    if m.start == 0:
        return []
    noun, head = ctx.doc[m.start - 1], ctx.doc[m.start : m.end].root
    if noun.pos_ != "NOUN" or lemma(noun) not in ctx.words.organization_nouns or ctx.at.get(noun.i) is not None:
        return []
    joined = noun.head.i == head.i or head.head.i == noun.i or (noun.head.i == head.head.i and noun.dep_ == head.dep_)
    return [noun] if joined else []


def location(ctx: Context, rule: Rule) -> Iterator[Found]:
    """A place "in" a bigger place, or followed by a comma and a bigger place."""
    for m in ctx.mentions:
        if m.kind != "name" or not m.key or m.type not in ("Location", "Facility", "Settlement", "Region"):
            continue
        yield from _located_by_holders(ctx, rule, m)
        yield from _located_by_adjacency(ctx, rule, m)


# an organization "in" or "of" a place is seated there; a fighting force "in" a place is deployed
# there, which is not its seat: armed groups and forces take a seat only by a seat verb ("based in")
SEATED_BY_PREPOSITION = frozenset({"Organization", "GovernmentAgency", "MediaOrganization",
                                   "InternationalOrganization"})


def seat(ctx: Context, rule: Rule) -> Iterator[Found]:
    """An organization's seat: "Waste Management Inc. of Houston", "the Red Crescent in Aleppo",
    "Acme, a firm based in Lyon", "a London-based monitor", "the Aleppo city council", "the
    Supreme Court of Canada" (the place that ends the name)."""
    relation = ontology.relations()[rule.relation]
    for m in ctx.mentions:
        if m.kind != "name" or not m.key or not ontology.fits(m.type, relation.domain):
            continue
        seen = set()
        named = _place_ending_the_name(ctx, m)
        if named is not None and named[0] != m.key:
            seen.add(named[0])
            yield Found(m.key, named[0], rule, named[1])
        for place, word in _seat_places(ctx, m):
            keys = ctx.entities_of(place)
            if word.i > m.start:  # "Acme Inc. of Franklin Lakes, N.J.": of the state as well
                keys = keys + _bigger_place_after(ctx, place)
            for key in keys:
                # a country named before the name is the nationality rule's ("the Syrian Red
                # Crescent"), unless a seat verb says it ("the Mali-based MUJAO")
                if key != m.key and key not in seen and ontology.fits(ctx.type_of(key), relation.range) and not (
                        word.i < m.start and ctx.type_of(key) == "Country"
                        and lemma(word) not in ctx.words.seat_verbs and lemma(word) not in ctx.words.seat_nouns):
                    seen.add(key)
                    yield Found(m.key, key, rule, word.i)


def _place_ending_the_name(ctx: Context, m: Mention) -> tuple[str, int] | None:
    """The place the gazetteer knows that ends an organization's name after its last "of" ("the
    Supreme Court of Canada", "the National Space Development Agency of Japan"), with the index of
    the name's last word; None where there is none. Not a name the gazetteer knows: its entry is
    what it is, whichever of its names the text gives ("the Government of Somalia" is the
    country's institution, not an organization seated there)."""
    name = span_text(ctx.doc[m.start : m.end])
    if " of " not in name or m.gazetteer_id is not None:
        return None
    entry = ctx.gazetteer.lookup(name.rsplit(" of ", 1)[1])
    if entry is None or entry.type not in ("Country", "Region", "Settlement"):
        return None
    return entry.id, m.end - 1


def _based_at(verb) -> list[tuple]:
    """The places a participle of a seat verb names, each with the participle: "based in Lyon", "a
    London-based monitor"."""
    places = []
    for k in children(verb):
        if k.dep_ == "prep" and k.lower_ in ("in", "at"):
            places += [(p, verb) for p in pobjs(k)]
        elif k.dep_ in ("npadvmod", "compound", "nmod", "amod") and k.i < verb.i:
            places.append((k, verb))  # "a London-based monitor"
    return places


def _seat_places(ctx: Context, m: Mention) -> list[tuple]:
    """The tokens that may name an organization's seat, each with the word that seats it there."""
    doc, words = ctx.doc, ctx.words
    head = doc[m.start : m.end].root
    by_preposition = m.type in SEATED_BY_PREPOSITION
    # the name, and a common noun set beside it ("Acme, a firm based in Lyon")
    holders = [head, *(c for c in children(head) if c.dep_ == "appos" and c.pos_ == "NOUN")]
    if head.dep_ == "nsubj" and lemma(head.head) in words.copular_verbs:  # "AFP is an agency based in Paris"
        holders += [c for c in children(head.head) if c.dep_ == "attr" and c.pos_ == "NOUN"]
    if head.dep_ == "compound" and head.head.i == m.end and lemma(head.head) in words.organization_nouns:
        holders.append(head.head)  # "the Nigeria-based Ansaru group"
    if doc[m.end - 1].i != head.i:  # "the Institute of Zoology of Kunming": hung on the name's last word
        holders.append(doc[m.end - 1])
    places = []
    for holder in holders:
        for c in children(holder):
            if c.dep_ == "prep" and c.lower_ in ("in", "of") and c.i >= m.end and by_preposition \
                    and not names_a_language(doc, c, ctx.gazetteer):  # "Moscow IZVESTIYA in Russian 23 Mar 94"
                places += [(p, c) for p in pobjs(c)]
            elif c.dep_ in ("acl", "amod") and lemma(c) in words.seat_verbs:
                places += _based_at(c)
    # "the Nairobi-based Nation Media Group": the parser hangs "based" on a word of the name
    places += [p for t in tokens(doc)[m.start : m.end] if t.i != head.i for c in children(t)
               if c.dep_ == "amod" and c.i < m.start and lemma(c) in words.seat_verbs for p in _based_at(c)]
    if not by_preposition:
        return places
    # its headquarters in a place ("Hamas's headquarters in Gaza", "its Cairo headquarters", "the
    # headquarters of Hamas in Gaza")
    quarters = head.head if head.dep_ in ("poss", "compound") else \
        head.head.head if head.dep_ == "pobj" and head.head.lower_ == "of" else None
    if quarters is not None and quarters.i != head.i and lemma(quarters) in words.seat_nouns:
        for c in children(quarters):
            if c.dep_ == "prep" and c.lower_ in ("in", "at"):
                places += [(p, quarters) for p in pobjs(c)]
            elif c.dep_ in ("compound", "nmod") and c.i < quarters.i and not m.start <= c.i < m.end \
                    and _in_a_name(ctx, c):
                places.append((c, quarters))
    # a place named on the kind of organization set beside the name ("Acme Corp., a Denver company")
    places += [(c, c) for holder in holders[1:] if lemma(holder) in words.organization_nouns
               for c in children(holder)
               if c.dep_ in ("compound", "nmod") and c.i < holder.i and _in_a_name(ctx, c)]
    # a place named before the name, as its modifier or its kind's ("the Aleppo city council",
    # "Tehran's news agency IRNA"; a country so named is the nationality rule's), or heading an
    # outlet's line ("Moscow INTERFAX in English", not "Moscow NATO Talks")
    places += [(c, c) for holder in (head, *_kind_before(ctx, m)) for c in children(holder)
               if c.dep_ in ("compound", "nmod", "amod", "poss") and c.i < m.start and _in_a_name(ctx, c)]
    before = ctx.at.get(m.start - 1) if m.start > 0 else None
    if before is not None and before.kind == "name" and before.key and (
            (m.type == "MediaOrganization" and (before.start == doc[m.start].sent.start
                                                 or SOURCE_ITEM.match(doc[max(before.start - 1, 0)].text)))
            or head.i in {t.head.i for t in doc[before.start : before.end]}):
        places.append((doc[m.start - 1], doc[m.start - 1]))
    at = _after_in(doc, m.end, ctx.words)
    if at is not None and not any(w.lower_ == "in" for _, w in places) \
            and not names_a_language(doc, doc[m.end], ctx.gazetteer):
        places.append((doc[at], doc[m.end]))  # "Acme Inc. in Lyon said", the parser's "in" on the verb
    return places


def _bigger_place_after(ctx: Context, token) -> list[str]:
    """The bigger place a comma sets after the place ``token`` names ("Franklin Lakes, N.J."), as
    the location rule reads it."""
    m = ctx.at.get(token.i)
    if m is None or m.kind != "name" or not m.key or m.type not in RANK:
        return []
    bigger = _bigger_place_after_comma(ctx, m)
    return [bigger.key] if bigger is not None else []


AFFILIATED_AT = frozenset({"Organization", "MediaOrganization", "Facility"})


def affiliation(ctx: Context, rule: Rule) -> Iterator[Found]:
    """A person's name with the organization or institution it is "of" or "at": "Anna Berg of
    Uppsala University", "Lt. Col. John Smith of the 82nd Airborne Division", "Fang Kaitai at the
    Institute of Mathematics" (a person of a place is from it: "Smith of Texas" says nothing here),
    or a noun describing the person "at" or "with" it ("Peter Lund, a geologist at the Institute of
    Botany"). Persons' names in a list share the "of" or "at" of the last ("James Blight and David
    Welch of Harvard University": both of it), unless one has its own."""
    doc, relation = ctx.doc, ontology.relations()[rule.relation]
    for m in ctx.mentions:
        if m.kind != "name" or not m.key or m.type != "Person":
            continue
        head = doc[m.start : m.end].root
        own = [(head, c) for c in children(head)]
        if not any(c.dep_ == "prep" and c.lower_ in ("of", "at") for _, c in own):
            last = _last_person_conjunct(ctx, head)
            own += [(last, c) for c in children(last)] if last is not None else []
        for holder, c in own + _described_at(ctx, head):
            described = holder is not head
            if c.dep_ != "prep" or c.lower_ not in ("of", "at", "with") or c.i < m.end or (
                    c.lower_ == "with" and not described):
                continue
            for p in pobjs(c):
                for key in ctx.entities_of(p):
                    # "at" an institution or a firm ("Fang Kaitai at the Institute of Mathematics"),
                    # not at an agency or an alliance a person may only visit ("Smith at the UN"),
                    # unless a noun says what the person does there ("a researcher at the UN")
                    if key != m.key and ontology.fits(ctx.type_of(key), relation.range) and (
                            c.lower_ == "of" or described or ctx.type_of(key) in AFFILIATED_AT):
                        yield Found(m.key, key, rule, c.i)


def _last_person_conjunct(ctx: Context, head):
    """The last of the persons' names coordinated after ``head``'s ("A, B and C": C), or None
    where ``head`` is the last or a conjunct is not a person's name."""
    last = head
    while (after := [c for c in children(last) if c.dep_ == "conj"]):
        last = after[-1]
        m = ctx.at.get(last.i)
        if m is None or m.kind != "name" or m.type != "Person":
            return None
    return last if last is not head else None


def _described_at(ctx: Context, head) -> list[tuple]:
    """The "at" and "with" of a noun that describes a person's name, in apposition or after "is"
    ("Peter Lund, a geologist at Uppsala University", "Maria Sousa is a researcher with the WHO"),
    each with its noun; a title's own words are the title rule's, and a visitor, a patient or a
    critic is at a place from outside it (``outsider_nouns``)."""
    nouns = [c for c in children(head) if c.dep_ == "appos"]
    if head.dep_ == "appos":
        nouns.append(head.head)
    if head.dep_ in ("nsubj", "nsubjpass") and lemma(head.head) in ctx.words.copular_verbs:
        nouns += [c for c in children(head.head) if c.dep_ == "attr"]
    return [(noun, c) for noun in nouns if noun.pos_ == "NOUN" and noun.i not in ctx.at
            and lemma(noun) not in ctx.words.outsider_nouns and title_word(noun, ctx.words) not in ctx.titles
            for c in children(noun) if c.dep_ == "prep" and c.lower_ in ("at", "with")]


def _in_a_name(ctx: Context, token, of: str | None = None) -> bool:
    """Whether the token is part of a name (not a description such as "the city"), of a class of
    ``of`` where given ("Nigeria" of "Nigeria director" names a Location)."""
    m = ctx.at.get(token.i)
    return m is not None and m.kind == "name" and bool(m.key) and (of is None or is_a(m.type, of))


def _holders(ctx: Context, m: Mention) -> tuple[object, list]:
    """The name's head and the generic nouns that hold it ("the town of X", "the capital X")."""
    doc, words = ctx.doc, ctx.words
    head = doc[m.end - 1]
    holders = [head, *place_nouns(head, words)]  # "the town of X", "X, a town", "Mosul is a major city in"
    if m.start > 0 and lemma(doc[m.start - 1]) in words.place_heads:
        holders.append(doc[m.start - 1])  # "the Yemeni capital Sana'a"
    kind = place_noun_after(ctx.doc, m, ctx.words)
    if kind is not None and kind not in holders:
        holders.append(kind)  # "Cabo Delgado province in Mozambique", "Afghanistan's Kunduz province"
    if head.dep_ == "appos" and lemma(head.head) in words.place_heads and head.head not in holders:
        holders.append(head.head)  # "the Afghan capital, Kabul"
    for holder in holders[1:]:  # "the city of Raqqa, a self-proclaimed ISIL capital in Syria"
        holders += [n for n in place_nouns(holder, words) if n not in holders]
    for holder in list(holders):
        # "Kunduz, located in northern Afghanistan"
        holders += [c for c in children(holder) if c.dep_ in ("acl", "relcl") and lemma(c) in words.location_verbs]
    # "the Louisville suburb of Okolona", "the Damascus district of Joubar": the part is Okolona,
    # Joubar, which lies in the city; the part noun does not hold the city's name before it
    holders = [h for h in holders if not (h.i > head.i and head.head.i == h.i and part_of_city(h, m, words))]
    return head, holders


def _ends_in_kind(ctx: Context, m: Mention) -> bool:
    """Whether a place's name of several words ends in a place noun ("Kunduz Province")."""
    words = ctx.doc[m.start:m.end].text.lower().split()
    return len(words) > 1 and words[-1] in ctx.words.place_heads


def _located_by_holders(ctx: Context, rule: Rule, m: Mention) -> Iterator[Found]:
    head, holders = _holders(ctx, m)
    for holder in holders:
        for c in children(holder):
            # "Arsal in Lebanon"; "northwestern Syria's Idlib province"; "Damascus, the capital of
            # Syria", "X is a district of Y" (on the name itself "of" is the name's own: "the town of X")
            # ("Kunduz Province of northern Afghanistan": a name that ends in a place noun)
            preps = ("in", "of") if holder.i != head.i or _ends_in_kind(ctx, m) else ("in",)
            places = pobjs(c) if c.dep_ == "prep" and c.lower_ in preps else [c] if c.dep_ == "poss" else []
            if c.lower_ == "of" and any(t.i == head.i for p in places for t in (p, *p.conjuncts)):
                continue  # "the cities of Izium and Kupiansk": the names' own "of"
            if c.lower_ == "in":  # "a city in the northeast of Aleppo Governorate" (not "northeast of X": beside it)
                places = [o for p in places for o in (prep_objects(p, "of") if p.lower_ in ctx.words.compass else [p])]
            for p in places:
                for key in ctx.entities_of(p):
                    if RANK.get(ctx.type_of(key), -9) >= RANK[m.type] and key != m.key:
                        yield Found(m.key, key, rule, c.i)
        if holder.i != head.i:
            for c in children(holder):
                if c.dep_ in ("amod", "compound", "nmod") and c.i < holder.i:
                    country = ctx.country_of(c)
                    if country and country != m.key:
                        yield Found(m.key, country, rule, c.i)
                    elif c.dep_ in ("compound", "nmod"):
                        # "Goma, a North Kivu provincial capital", "the North Kivu town of Goma": a
                        # place bigger than the noun's kind modifying it holds the name; a place of
                        # the noun's own kind names the noun ("the Haret Hreik region of Beirut")
                        kind_rank = RANK.get(ctx.words.place_suffixes.get(lemma(holder), "Settlement"), 0)
                        # "the Louisville suburb of Okolona", "the Damascus district of Joubar": a
                        # settlement's part lies in a place of its rank
                        named = ctx.at.get(c.i)
                        part = named is not None and part_of_city(holder, named, ctx.words)
                        for key in ctx.entities_of(c):
                            rank = RANK.get(ctx.type_of(key), -9)
                            if (rank >= RANK[m.type] if part else rank > max(RANK[m.type], kind_rank)) and key != m.key:
                                yield Found(m.key, key, rule, c.i)


def _located_by_adjacency(ctx: Context, rule: Rule, m: Mention) -> Iterator[Found]:
    doc = ctx.doc
    head = doc[m.end - 1]
    # "Al-Bukamal in eastern Syria", wherever the parser attached "in" (but not "south of X in Y")
    after_compass = head.dep_ == "pobj" and head.head.lower_ == "of" and head.head.head.lower_ in ctx.words.compass
    kind = place_noun_after(ctx.doc, m, ctx.words)
    end = kind.i + 1 if kind is not None else m.end  # "Cabo Delgado province in ...", "the Kakuma refugee camp in"
    at = _after_in(doc, _past_other_name(ctx, end), ctx.words)
    if at is not None and not after_compass:
        nxt = ctx.at.get(at)
        if nxt is not None and nxt.kind == "name" and nxt.key and nxt.key != m.key and RANK.get(nxt.type, -9) >= RANK[m.type]:
            yield Found(m.key, nxt.key, rule, m.end)
            # "Mosul, Tikrit and Kirkuk in northern Iraq", "Idlib or Aleppo in Syria": every place
            # of the list the "in" closes lies there (the parser hangs it on one of them)
            for c in head.conjuncts:
                other = ctx.at.get(c.i)
                if other is not None and other.kind == "name" and other.key and other.type == m.type \
                        and c.i < head.i and other.key != nxt.key:
                    yield Found(other.key, nxt.key, rule, m.end)
    # "Ras Baalbek, Lebanon": a place, a comma, a bigger place, and no list going on
    nxt = _bigger_place_after_comma(ctx, m)
    if nxt is not None:
        yield Found(m.key, nxt.key, rule, m.end)
        # "Salida and Gunnison, Colorado": the other place of a pair the comma closes lies there too
        # (not a longer list: "offices in Nicosia, Hong Kong and Washington, D.C."; nor "Mosul,
        # Iraq, and Raqqa, Syria")
        pair = [c for c in head.conjuncts if c.i < head.i]
        other = ctx.at.get(pair[0].i) if len(pair) == 1 and len(head.conjuncts) == 1 else None
        if other is not None and other.kind == "name" and other.key and other.key != nxt.key \
                and doc[other.end].lower_ in ("and", "or") and other.end + 1 == m.start \
                and RANK.get(other.type, 9) < RANK.get(nxt.type, -9):
            yield Found(other.key, nxt.key, rule, m.end)


def _after_in(doc, end: int, words: Words) -> int | None:
    """The word after an "in" at ``end`` (past a "the", a word saying the place is near: "Mercy
    Hospital in nearby Dayton", and a compass word before a name: "Whitefish in northwest
    Montana"), where the text goes on that way."""
    if end + 1 < len(doc) and doc[end].lower_ == "in":
        at = end + 2 if doc[end + 1].lower_ == "the" else end + 1
        if at + 1 < len(doc) and doc[at].lower_ in words.neighboring_words:
            at += 1
        if at + 1 < len(doc) and (doc[at].lower_ in words.compass or doc[at].lower_ in words.compass.values()) \
                and doc[at + 1].text[:1].isupper():
            at += 1
        # "the government in its fight": a possessive pronoun names whose fight, not a seat
        return at if at < len(doc) and doc[at].tag_ != "PRP$" else None
    return None


def _goes_on_a_list(ctx: Context, last: Mention, i: int) -> bool:
    """Whether the words at ``i``, after an "and" or "or", go on a list ``last`` ends: a place of
    its rank or above, or a noun phrase ("and other districts"); not a smaller place, a verb or a
    preposition."""
    doc = ctx.doc
    if i >= len(doc):
        return False
    if doc[i].lower_ == "the" and i + 1 < len(doc):
        i += 1
    joined = ctx.at.get(i)
    if joined is not None:
        return RANK.get(joined.type, -9) >= RANK.get(last.type, -9)
    return doc[i].pos_ not in ("ADP", "VERB", "AUX", "ADV", "PART", "SCONJ")


def _bigger_place_after_comma(ctx: Context, m: Mention) -> Mention | None:
    """The bigger place a comma sets after the place ``m`` names ("Ras Baalbek, Lebanon"), where no
    list goes on."""
    doc = ctx.doc
    if m.end + 1 >= len(doc) or doc[m.end].text != ",":
        return None
    nxt = ctx.at.get(m.end + 1)
    if nxt is None or nxt.kind != "name" or not nxt.key or nxt.key == m.key:
        return None
    after = doc[nxt.end] if nxt.end < len(doc) else None
    # "Arsal, Ras Baalbek and Qaa" is a list; "Sirte, Libya, on Tuesday" is not
    third = ctx.at.get(nxt.end + 1) if after is not None and after.text == "," else None
    # ("Jilib, Middle Juba Region, Somalia" is a chain of ever bigger places, not a list; so is no
    # "and" going on with a verb or a preposition, "Benton, Tenn. and from Tennessee Tech", nor one
    # going on with a smaller place, "Mosul, Iraq, and Raqqa, Syria")
    in_list = after is not None and (
        after.lower_ in ("and", "or") and _goes_on_a_list(ctx, nxt, nxt.end + 1)
        or third is not None and RANK.get(third.type, -9) <= RANK.get(nxt.type, -9))
    before = doc[m.start - 1] if m.start > 0 else None
    previous = ctx.at.get(m.start - 2) if before is not None and before.text == "," else None
    listed = previous is not None and RANK.get(previous.type, -9) >= RANK[m.type]
    return nxt if _bigger(ctx, nxt, m) and not in_list and not listed else None


def _bigger(ctx: Context, place: Mention, than: Mention) -> bool:
    """Whether ``place`` is of a bigger kind than ``than``: a country than a region, a region than a
    town; and a region than one of a region's parts ("Dade County" than "Fla.")."""
    rank, other = RANK.get(place.type, -9), RANK[than.type]
    return rank > other or (rank == other and place.type == "Region" and _subdivision(ctx, than)
                            and not _subdivision(ctx, place))


def _subdivision(ctx: Context, m: Mention) -> bool:
    return ctx.doc[m.end - 1].lower_ in ctx.words.subdivision_words


def _past_other_name(ctx: Context, i: int) -> int:
    """Where the text goes on after an aside giving another name at ``i`` (", also called
    "Q-West"", ", also known as Ayn al-Arab,"), or ``i`` when there is none."""
    doc = ctx.doc
    j = i + 1 if i < len(doc) and doc[i].text == "," else i
    while j < len(doc) and doc[j].pos_ == "ADV":  # "also", "formerly"
        j += 1
    if j == i or j >= len(doc) or lemma(doc[j]) not in ctx.words.naming_verbs:
        return i
    j += 1
    if j < len(doc) and doc[j].lower_ == "as":
        j += 1
    quoted = j < len(doc) and doc[j].is_quote
    k = j + 1
    def in_name(t) -> bool:  # up to the closing quote, else over the name's words and its hyphens
        return not t.is_quote if quoted else t.pos_ == "PROPN" or (t.is_punct and t.text not in ",.")

    while k < len(doc) and k - j < 8 and in_name(doc[k]):
        k += 1
    k += 1 if quoted else 0
    return k + 1 if k < len(doc) and doc[k].text == "," else k


def units(ctx: Context, rule: Rule) -> Iterator[Found]:
    """A unit's name, a comma, a bigger unit's name; a unit or a part of its possessor; an armed
    group "of" another: the first belongs to the second."""
    doc, unit_nouns = ctx.doc, ctx.words.unit_nouns
    names = {m.start: m for m in ctx.mentions if m.kind == "name" and m.key and is_a(m.type, "Organization")
             and m.text.replace("-", " ").split()[-1].lower() in unit_nouns}
    orgs = {m.start: m for m in ctx.mentions if m.kind == "name" and m.key and is_a(m.type, "Organization")}
    for m in names.values():
        parent = names.get(m.end + 1)
        if parent is not None and doc[m.end].text == "," and parent.key != m.key:
            yield Found(m.key, parent.key, rule, m.end)
    # "the U.S. Army's XVIII Airborne Corps", "the Treasury's Office of Foreign Assets Control": a
    # unit or a part of the organization that possesses it
    for m in orgs.values():
        head = doc[m.start:m.end].root  # "Office" of "Office of Foreign Assets Control"
        if m.start not in names and lemma(head) not in ctx.words.part_nouns:
            continue
        owner = next((orgs.get(c.i) for c in children(head) if c.dep_ == "poss"), None)
        if owner is None and m.start >= 2 and doc[m.start - 1].tag_ == "POS":
            owner = next((o for o in orgs.values() if o.end == m.start - 1), None)
        if owner is not None and owner.key != m.key:
            yield Found(m.key, owner.key, rule, m.start)
    # "the People's Protection Units of the Syrian Democratic Forces": an armed group of another
    armed = ("ArmedGroup", "ArmedForces")
    for m in orgs.values():
        if m.type not in armed or m.end + 1 >= len(doc) or doc[m.end].lower_ != "of":
            continue
        parent = orgs.get(m.end + 2 if doc[m.end + 1].lower_ == "the" else m.end + 1)
        if parent is not None and parent.key != m.key and (parent.type in armed or parent.type == "InternationalOrganization"):
            yield Found(m.key, parent.key, rule, m.end)


def stances(ctx: Context, rule: Rule) -> Iterator[Found]:
    """"the pro-Iranian Kataib Hezbollah militia", "the anti-ISIL coalition": the named side is for
    (or against) what the modifier names."""
    for token in tokens(ctx.doc):
        # the dependency first: it rules out most tokens without looking at the words before them
        if token.dep_ not in ("amod", "compound", "nmod") or stance(token) not in rule.lemmas or token.head.i == token.i:
            continue
        sides = [k for k in ctx.entities_of(token.head) if k]
        named = ctx.at.get(token.i)
        aims = [named.key] if named is not None and named.key else \
            [c for c in [ctx.gazetteer.country_of_demonym(token.text)] if c]
        for side in sides:
            for aim in aims:
                if side != aim:
                    yield Found(side, aim, rule, token.i)
