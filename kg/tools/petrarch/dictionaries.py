"""Readers of the PETRARCH2 dictionary formats (the dictionaries' ``dictionaries.rst``).

Each reader returns what the file says, in file order, with line numbers for provenance; deciding
what kg keeps is the other modules' job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_BRACKETS = re.compile(r"\[([^\]]*)\]")


def _content(line: str) -> str:
    """A dictionary line without its ``#`` comment."""
    return line.split("#", 1)[0].rstrip("\n")


@dataclass
class RawActor:
    """One primary phrase of an actor file with its ``+`` synonyms and its group's codes."""

    file: str
    line: int
    name: str
    aliases: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)  # shared by the phrases of one code group
    comment: str = ""


def read_actors(path: Path) -> list[RawActor]:
    """Actor records as PETRARCH reads them: consecutive primary phrases before a code share it."""
    actors: list[RawActor] = []
    group: list[RawActor] = []
    codes: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body = _content(line)
        if not body.strip():
            continue
        if body[0] in "\t " and body.strip().startswith("["):
            codes.extend(c.strip() for c in _BRACKETS.findall(body))
            continue
        if body[0] == "+":
            if group:
                # "+A+_B": two synonyms run together in the source
                group[-1].aliases.extend(p for p in body[1:].split(";")[0].split("[")[0].split("+") if p.strip())
            continue
        if codes:  # a primary phrase after codes starts a new code group
            group, codes = [], []
        text = body.split(";")[0]
        actor = RawActor(path.name, number, text.split("[")[0].strip(), codes=codes,
                         comment=line.split("#", 1)[1].strip() if "#" in line else "")
        codes.extend(c.strip() for c in _BRACKETS.findall(text))
        group.append(actor)
        actors.append(actor)
    return actors


@dataclass(frozen=True)
class RawAgent:
    line: int
    phrase: str
    plural: str | None  # None: PETRARCH makes the regular plural; "": none
    code: str


def read_agents(path: Path) -> list[RawAgent]:
    """Agent phrases with their code, substitution markers (``!PERSON!``) expanded."""
    markers: dict[str, list[str]] = {}
    agents = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body = _content(line).strip()
        if not body:
            continue
        if "!" in body and "=" in body:
            name, _, values = body.partition("=")
            markers[name.strip().strip("!")] = [v.strip() for v in values.split(",") if v.strip()]
            continue
        if "[" not in body:
            continue
        phrase, _, rest = body.partition("[")
        code = rest.split("]")[0].split("}")[0].strip()
        plural = None
        if "{" in phrase:
            phrase, _, plural = phrase.partition("{")
            plural = plural.split("}")[0].strip()
        phrase = phrase.strip()
        marker = re.search(r"!([^!]+)!", phrase)
        if marker:
            # every substitute is its own phrase with no plural made (PETRARCH's rule); a substitute
            # that is another's plural (MAN, MEN) is written as that phrase's plural instead
            values = markers.get(marker.group(1), [])
            plurals = {v: w for v in values for w in values if w in (v + "S", v[:-1] + "IES", v[:-2] + "EN")}
            for value in values:
                if value not in plurals.values():
                    other = phrase.replace(marker.group(0), plurals[value]) if value in plurals else ""
                    agents.append(RawAgent(number, phrase.replace(marker.group(0), value), other, code))
        else:
            agents.append(RawAgent(number, phrase, plural, code))
    return agents


@dataclass
class Synset:
    line: int
    phrases: list[str]   # a phrase ending in "_" has no plural


@dataclass
class RawVerb:
    line: int
    text: str            # as written: "KIDNAP", "+TAKE_OVER", "WIRE_+TAP"
    forms: list[str]     # the irregular forms in {...}
    code: str            # its own [code], else the block's


@dataclass
class RawPattern:
    line: int
    text: str            # the part between "-" and the code: "* (WITH ROCKETS)"
    code: str
    comment: str         # the verb CAMEO found the pattern under


@dataclass
class VerbBlock:
    line: int
    name: str
    code: str
    verbs: list[RawVerb] = field(default_factory=list)
    patterns: list[RawPattern] = field(default_factory=list)


def read_verbs(path: Path) -> tuple[dict[str, Synset], list[VerbBlock]]:
    """The synsets (``&NAME`` -> its phrases) and the verb blocks of the CAMEO verb dictionary."""
    synsets: dict[str, Synset] = {}
    blocks: list[VerbBlock] = []
    current_synset: list[str] | None = None
    no_plurals = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body = _content(line).strip()
        if not body:
            continue
        comment = line.split("#", 1)[1].strip() if "#" in line else ""
        if body.startswith("&"):
            current_synset = synsets.setdefault(body.rstrip("_").strip(), Synset(number, [])).phrases
            no_plurals = body.endswith("_")
            continue
        if body.startswith("+") and current_synset is not None and not blocks:
            # a label ending in "_" makes no plurals for any of its phrases: mark each phrase so
            current_synset.append(body[1:].strip() + ("_" if no_plurals else ""))
            continue
        current_synset = None
        if body.startswith("---"):
            codes = _BRACKETS.findall(body)
            blocks.append(VerbBlock(number, body.strip("- ").split("[")[0].strip(),
                                    codes[0].strip() if codes else "---"))
        elif body.startswith("~") or not blocks:
            continue  # transformations: verb-on-verb rewrites, nothing kg can use
        elif body.startswith("-"):
            codes = _BRACKETS.findall(body)
            if codes:
                text = body[1:].split("[")[0].strip()
                blocks[-1].patterns.append(RawPattern(number, text, codes[0].strip(), comment))
        else:
            own = _BRACKETS.findall(body)
            text, _, forms = body.split("[")[0].partition("{")
            blocks[-1].verbs.append(RawVerb(number, text.strip(), forms.split("}")[0].split(),
                                            own[0].strip() if own else blocks[-1].code))
    return synsets, blocks
