"""Which ontology class a name is, from its NER label and its head word."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .namekeys import fold

if TYPE_CHECKING:
    from .words import Words

# spaCy's NER labels -> ontology classes (NORP, numbers and dates are not entities)
NER_TYPES = {"PERSON": "Person", "ORG": "Organization", "GPE": "Settlement", "LOC": "Region", "FAC": "Facility"}


def ner_type(label: str, text: str, words: Words) -> str | None:
    """Ontology class for an NER span not in the gazetteer, refined by its head word for ORGs, and
    by its first word for a name NER took for a person's or a place's ("Jaysh al-Islam")."""
    base = NER_TYPES.get(label)
    suffix = words.place_suffixes.get(text.split()[-1].lower()) if text.split() else None
    if suffix and base in ("Settlement", "Region", "Facility", "Person", "Organization"):
        return suffix  # "Tiyas Military Airfield", "Mopti Region": the last word says it is a place
    if base == "Organization" and " of " in text and words.place_suffixes.get(head_word(text)) == "Facility":
        return "Facility"  # "the University of Oregon", "the Hospital of Saint Raphael": as "Oregon State University"
    opening = words.organization_openings.get(opening_word(text))
    if opening and (base == "Person" or (base in ("Settlement", "Region") and len(text.replace("-", " ").split()) > 1)):
        return opening  # "Jaysh al-Adl"; a place of one word stays one ("Saraya" is a town as well)
    last = text.split()[-1].lower() if text.split() else ""
    if base in ("Settlement", "Region") and (last in words.unit_nouns or last in words.organization_heads
                                             or last.removesuffix("s") in words.member_phrase_nouns
                                             or last.removesuffix("men") + "man" in words.member_phrase_nouns):
        return org_type(text, words)  # "5th Fleet", "Reserve Airmen": a unit or its people, not a place
    return org_type(text, words) if base == "Organization" else base


def opening_word(text: str) -> str:
    """A name's first word without an article or accents, in lower case, up to a hyphen or an
    apostrophe: "al-Jama'ah al-Islamiyah" -> "jamaah", "Lashkar-e-Tayyiba" -> "lashkar",
    "Ejército de Liberación Nacional" -> "ejercito"."""
    parts = fold(text).replace("'", "").split()
    first = parts[0] if parts else ""
    if first in ("al", "el") and len(parts) > 1:
        first = parts[1]
    first = first.removeprefix("al-").removeprefix("el-")
    return first.split("-")[0]


def head_word(text: str) -> str:
    """A name's head word, in lower case: the word before its first "of", "for", "in" or "on",
    else its last ("Movement for Oneness ..." -> "movement", "Law of Armed Conflict" -> "law")."""
    words = text.replace("-", " ").lower().split()
    cut = next((n for n, w in enumerate(words) if w in ("of", "for", "in", "on") and n > 0), len(words))
    return words[cut - 1] if words else ""


def org_type(text: str, words: Words) -> str:
    """Type of an organization's name from its head word: "Movement for Oneness ..." -> ArmedGroup."""
    return words.organization_heads.get(head_word(text), "Organization")
