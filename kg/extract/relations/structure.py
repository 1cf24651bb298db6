"""Structural rules: relations read from modifiers and appositions rather than from a trigger's
arguments. ``title``: "Syrian President Bashar al-Assad", "Khalifa Haftar, commander of the LNA";
``nationality``: "Hezbollah, a Lebanese group", "Syria's Ikhbariya"; ``location``: "Arsal in
Lebanon", "Ras Baalbek, Lebanon", "the Yemeni port city of Hodeidah"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...ontology import is_a
from ..docindex import children
from ..lexicon import Rule
from .context import Found
from .parse import lemma, pobjs, title_word

if TYPE_CHECKING:
    from ...records import Mention
    from .context import Context

RANK = {"Settlement": 0, "Region": 1, "Country": 2}


def titles(ctx: Context, rule: Rule) -> Iterator[Found]:
    """A person's title ties them to the organization or country it is of."""
    doc = ctx.doc
    for m in ctx.mentions:
        if m.type != "Person" or m.kind != "name" or not m.key:
            continue
        found = []
        left = doc[m.start - 1] if m.start > 0 else None
        if left is not None and title_word(left) in rule.lemmas:
            found.append(left)
        head = doc[m.end - 1]
        for c in children(head):
            if c.dep_ in ("appos", "compound") and title_word(c) in rule.lemmas and c not in found:
                found.append(c)
        if head.dep_ == "appos" and title_word(head.head) in rule.lemmas:
            found.append(head.head)
        for title in found:
            for org in _title_organizations(ctx, title, m):
                yield Found(m.key, org, rule, title.i)


def _title_organizations(ctx: Context, title, person: Mention) -> list[str]:
    kids = children(title)
    # "Sudan's army chief X": the army of the country, not the country
    if any(c.dep_ in ("compound", "amod") and lemma(c) in ctx.words.armed_forces_words for c in kids):
        for c in kids:
            forces = ctx.armed_forces(ctx.country_of(c)) if c.dep_ in ("poss", "amod", "compound", "nmod") else None
            if forces:
                return [forces]
    keys: list[str] = []
    for c in kids:
        if c.dep_ == "prep" and c.lower_ in ("of", "for"):
            for p in pobjs(c):
                keys.extend(ctx.entities_of(p))
        elif c.dep_ in ("poss", "compound", "amod", "nmod") and c.i < title.i:
            keys.extend(ctx.entities_of(c) or ([ctx.country_of(c)] if ctx.country_of(c) else []))
    if not keys:
        keys = _named_before(ctx, title, person)
    return [k for k in dict.fromkeys(keys) if k and k != person.key]


def _named_before(ctx: Context, title, person: Mention) -> list[str]:
    """The words just before the title: "Lebanese Internal Security Gen. Abbas Ibrahim"."""
    i = title.i - 1
    while i >= 0 and ctx.doc[i].dep_ in ("amod", "compound", "punct") and ctx.doc[i].text not in (",", "(", "\u2014"):
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
        for appos in described:
            if lemma(appos) in words.members or lemma(appos) in words.descriptions:
                candidates.extend(c for c in children(appos) if c.dep_ in ("amod", "compound", "nmod") and c.i < appos.i)
        for c in candidates:
            country = ctx.country_of(c)
            if country and country != m.key:
                yield Found(m.key, country, rule, c.i)


def location(ctx: Context, rule: Rule) -> Iterator[Found]:
    """A place "in" a bigger place, or followed by a comma and a bigger place."""
    for m in ctx.mentions:
        if m.kind != "name" or not m.key or m.type not in ("Settlement", "Region"):
            continue
        yield from _located_by_holders(ctx, rule, m)
        yield from _located_by_adjacency(ctx, rule, m)


def _holders(ctx: Context, m: Mention) -> tuple[object, list]:
    """The name's head and the generic nouns that hold it ("the town of X", "the capital X")."""
    doc, words = ctx.doc, ctx.words
    head = doc[m.end - 1]
    holders = [head]
    if head.dep_ == "pobj" and head.head.lower_ == "of" and lemma(head.head.head) in words.place_heads:
        holders.append(head.head.head)
    if m.start > 0 and lemma(doc[m.start - 1]) in words.place_heads:
        holders.append(doc[m.start - 1])  # "the Yemeni capital Sana'a"
    for holder in list(holders):
        # "Kunduz, located in northern Afghanistan"
        holders += [c for c in children(holder) if c.dep_ in ("acl", "relcl") and lemma(c) in words.location_verbs]
    return head, holders


def _located_by_holders(ctx: Context, rule: Rule, m: Mention) -> Iterator[Found]:
    head, holders = _holders(ctx, m)
    for holder in holders:
        for c in children(holder):
            if c.dep_ == "prep" and c.lower_ == "in":
                for p in pobjs(c):
                    for key in ctx.entities_of(p):
                        if RANK.get(ctx.type_of(key), -1) >= RANK[m.type] and key != m.key:
                            yield Found(m.key, key, rule, c.i)
        if holder is not head:
            for c in children(holder):
                if c.dep_ in ("amod", "compound", "nmod") and c.i < holder.i:
                    country = ctx.country_of(c)
                    if country and country != m.key:
                        yield Found(m.key, country, rule, c.i)


def _located_by_adjacency(ctx: Context, rule: Rule, m: Mention) -> Iterator[Found]:
    doc = ctx.doc
    head = doc[m.end - 1]
    # "Al-Bukamal in eastern Syria", wherever the parser attached "in" (but not "south of X in Y")
    after_compass = head.dep_ == "pobj" and head.head.lower_ == "of" and head.head.head.lower_ in ctx.words.compass
    if m.end + 1 < len(doc) and doc[m.end].lower_ == "in" and not after_compass:
        at = m.end + 2 if doc[m.end + 1].lower_ == "the" else m.end + 1
        nxt = ctx.at.get(at)
        if nxt is not None and nxt.kind == "name" and nxt.key and nxt.key != m.key and RANK.get(nxt.type, -1) >= RANK[m.type]:
            yield Found(m.key, nxt.key, rule, m.end)
    # "Ras Baalbek, Lebanon": a place, a comma, a bigger place, and no list going on
    if m.end + 1 < len(doc) and doc[m.end].text == ",":
        nxt = ctx.at.get(m.end + 1)
        if nxt is None or nxt.kind != "name" or not nxt.key or nxt.key == m.key:
            return
        after = doc[nxt.end] if nxt.end < len(doc) else None
        # "Arsal, Ras Baalbek and Qaa" is a list; "Sirte, Libya, on Tuesday" is not
        in_list = after is not None and (after.lower_ in ("and", "or") or (
            after.text == "," and nxt.end + 1 < len(doc) and ctx.at.get(nxt.end + 1) is not None))
        before = doc[m.start - 1] if m.start > 0 else None
        listed = before is not None and before.text == "," and ctx.at.get(m.start - 2) is not None
        if RANK.get(nxt.type, -1) > RANK[m.type] and not in_list and not listed:
            yield Found(m.key, nxt.key, rule, m.end)
