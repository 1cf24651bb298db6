"""Which ontology class a name is, from its NER label and its head word."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .words import Words

# spaCy's NER labels -> ontology classes (NORP, numbers and dates are not entities)
NER_TYPES = {"PERSON": "Person", "ORG": "Organization", "GPE": "Settlement", "LOC": "Region", "FAC": "Facility"}


def ner_type(label: str, text: str, words: Words) -> str | None:
    """Ontology class for an NER span not in the gazetteer, refined by its head word for ORGs."""
    base = NER_TYPES.get(label)
    suffix = words.place_suffixes.get(text.split()[-1].lower()) if text.split() else None
    if suffix and base in ("Settlement", "Region", "Facility", "Person", "Organization"):
        return suffix  # "Tiyas Military Airfield", "Mopti Region": the last word says it is a place
    last = text.split()[-1].lower() if text.split() else ""
    if base in ("Settlement", "Region") and (last in words.unit_nouns or last in words.organization_heads
                                             or last.removesuffix("s") in words.member_phrase_nouns
                                             or last.removesuffix("men") + "man" in words.member_phrase_nouns):
        return org_type(text, words)  # "5th Fleet", "Reserve Airmen": a unit or its people, not a place
    return org_type(text, words) if base == "Organization" else base


def head_word(text: str) -> str:
    """A name's head word, in lower case: the word before its first "of", "for", "in" or "on",
    else its last ("Movement for Oneness ..." -> "movement", "Law of Armed Conflict" -> "law")."""
    words = text.replace("-", " ").lower().split()
    cut = next((n for n, w in enumerate(words) if w in ("of", "for", "in", "on") and n > 0), len(words))
    return words[cut - 1] if words else ""


def org_type(text: str, words: Words) -> str:
    """Type of an organization's name from its head word: "Movement for Oneness ..." -> ArmedGroup."""
    return words.organization_heads.get(head_word(text), "Organization")
