"""Whether a stretch of text is a name at all: page furniture, dates, titles, agreements, laws,
meetings, weapons, stances and bare kinds of organization are not (the word lists are
ontology/words.toml)."""

from __future__ import annotations

import re

from .namekeys import reads_as_date
from .docindex import span_text
from .types import head_word
from .words import Words

_ARTICLE_NAME = re.compile(r"^[a-z]{1,4}-[A-Z]")
_LONG_NUMBER = re.compile(r"\d{5,}")  # a phone number or a passcode, never part of a name


def capitals(text: str) -> int:
    """How many letters ``text`` has, where every one is a capital ("ISIS", "WA", "ST."); else 0."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) if letters and all(c.isupper() for c in letters) else 0


def is_name(text: str) -> bool:
    """Capitalized, or an Arabic article before a capital ("al-Bab", "el-Fasher")."""
    return text[:1].isupper() or bool(_ARTICLE_NAME.match(text))


def _a_title(folded: str, words: Words) -> bool:
    """A title with its office and no name: "minister of foreign affairs", "secretary of state"."""
    title, of, office = folded.partition(" of ")
    return bool(of) and all(w.rstrip(".") in words.person_titles for w in title.split()) and \
        office.removeprefix("the ") in words.title_offices | {"the " + o for o in words.title_offices}


def title_office(doc, start: int, end: int, words: Words) -> bool:
    """"State" of "Secretary of State", "Foreign Affairs" of "Minister of Foreign Affairs", "Health"
    of "Health Minister Majed Abu Ramadan": the office a title holds, not an organization's name."""
    if span_text(doc[start:end]).lower() not in words.title_offices:
        return False
    return start >= 2 and doc[start - 1].lower_ == "of" and doc[start - 2].lower_.rstrip(".") in words.person_titles \
        or end < len(doc) and doc[end].lower_.rstrip(".") in words.person_titles


def not_a_name(text: str, words: Words) -> bool:
    """Captions and page furniture NER takes for names ("Reuters Photo", a transcript's "QUESTION",
    "Passcode 3080897", a handle "@ABlinken"), dates ("May 15"), weapons ("VBIED"), names of
    agreements and laws ("the Law of Armed Conflict") and of wars ("the Libyan Civil War"), legal
    designations ("a Foreign Terrorist Organization"), words
    with no capital letter or digit (NER's "anti-air frigate", "these total force": descriptions,
    not names), stances that are not names ("pro-", "Pro-Asad", "anti-government", "counter-ISIL")
    and modifiers alone ("Joint and Coalition" partners)."""
    folded = text.lower().removeprefix("the ").strip()
    return (folded in words.not_names or reads_as_date(folded) or not any(c.isalpha() for c in text)
            or not any(c.isupper() or c.isdigit() for c in text)
            or folded in words.weapon_names | words.designations or text.startswith("@") or bool(_LONG_NUMBER.search(text))
            or folded.startswith(("pro-", "anti-", "counter-", "non-"))
            or folded in words.person_titles  # "Defense" of "Defense Secretary Ash Carter"
            or _a_title(folded, words)  # "Minister of Foreign Affairs"
            or _bare_head(folded, words)
            or head_word(folded) in words.instrument_heads | words.war_heads
            or set(folded.replace("&", " and ").split()) <= words.name_modifiers | {"and"})


def _bare_head(folded: str, words: Words) -> bool:
    """A capitalized kind of organization alone, no name of one: "the Governments of Iraq and the
    United States", "Forces", "Ministry" (but a newspaper may be "The Times")."""
    for word in (folded, folded.removesuffix("s")):
        kind = words.organization_heads.get(word)
        if kind is not None and kind != "MediaOrganization" and word not in words.generic_organizations:
            return True
    return False
