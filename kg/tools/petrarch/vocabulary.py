"""Common vocabulary: PETRARCH's agent nouns and CAMEO's verbs -> ``agents.jsonl``, ``verbs.jsonl``,
``patterns.jsonl`` and ``synsets.jsonl`` rows.

A CAMEO verb block is a set of synonyms with a code for the bare verb, and patterns around it
("- * (WITH ROCKETS) [194]") that PETRARCH tries with every verb of the block; a pattern's comment
names the verb it was written for. A verb row says, for one kg relation (:data:`~.tables.CODE_RELATIONS`):
whether the bare verb is a trigger (``alone``), its codes, how many of its block's patterns code
to the relation (``patterns``) and how many of those were written for this verb (``named``): a
WordNet synonym that only shares the block has patterns but nothing named. ``preps`` are the
prepositions its named patterns put after it ("fire at", "fight alongside").
"""

from __future__ import annotations

import re
from collections import Counter

from .dictionaries import RawAgent, RawPattern, RawVerb, Synset, VerbBlock
from .names import plural, tokens, verb_forms
from .tables import (
    AGENT_ROLES,
    CODE_RELATIONS,
    CODE_VERBS,
    EXCLUDED_VERBS,
    PATTERN_ONLY_VERBS,
    ROLE_CLASSES,
    role_of,
)

AGENT_FILE = "Phoenix.agents.txt"
VERB_FILE = "CAMEO.2.0.txt"

_PREPOSITIONS = frozenset("""about across against along alongside amid among around at away back before behind
below beneath beside between beyond by down for from in inside into near of off on onto out outside over
past through throughout to toward towards under until up upon with within without""".split())
_CONJUNCTIONS = frozenset({"and", "or", "but"})


def build_agents(agents: list[RawAgent], stats: Counter) -> list[dict]:
    """agents.jsonl rows: a generic noun, its plural, its role and the kg class it stands for.

    The file leaves regular plurals out (PETRARCH makes them as it reads); here they are written,
    marked ``plural_made``, with the English rule rather than PETRARCH's add-an-S."""
    rows: dict[str, dict] = {}
    for agent in agents:
        role = role_of(agent.code)
        stats["agent phrases read"] += 1
        if role not in AGENT_ROLES:
            stats["dropped agent: a role with no kg actor (trade, faith, crime)"] += 1
            continue
        noun = " ".join(tokens(agent.phrase.lower()))
        if noun in rows:
            if rows[noun]["stands_for"] != ROLE_CLASSES[role]:
                stats["dropped agent: a second line giving the noun another meaning"] += 1
            continue
        row: dict = {"noun": noun}
        if agent.plural is None and plural(noun) != noun:  # no plural of "brig. gen."
            row["plural"], row["plural_made"] = plural(noun), True
            stats["agent plurals made by the regular rule"] += 1
        elif agent.plural:
            row["plural"] = " ".join(tokens(agent.plural.lower()))
        row.update({"code": agent.code, "role": role, "stands_for": ROLE_CLASSES[role],
                    "source": f"petrarch2:{AGENT_FILE}:{agent.line}"})
        rows[noun] = row
    singular_of = {plural(n): n for n in rows}
    for noun, row in list(rows.items()):
        # "GUNMAN {}" then "GUNMEN": the second line is the first one's plural
        singular = rows.get(singular_of.get(noun, noun)) if singular_of.get(noun, noun) != noun else None
        if singular is not None and "plural" not in singular and singular["stands_for"] == row["stands_for"]:
            singular["plural"] = noun
            del rows[noun]
            stats["agent lines that are another's plural"] += 1
    order = ("noun", "plural", "plural_made", "code", "role", "stands_for", "source")
    for row in rows.values():
        stats[f"agents standing for {row['stands_for']}"] += 1
    return [{key: rows[noun][key] for key in order if key in rows[noun]} for noun in sorted(rows)]


class Lemmatizer:
    """Base forms of the CAMEO verb forms, as spaCy's lemmatizer gives them: a form listed in a
    verb's ``{...}`` is that verb's ("FOUGHT" -> "fight"); a regular -s/-ed/-ing/-en form of a
    verb the file has is that verb ("SEIZED" -> "seize", "KILLED" -> "kill", "FORGIVEN" ->
    "forgive"); anything else is its own base."""

    def __init__(self, blocks: list[VerbBlock]) -> None:
        self.forms: dict[str, str] = {}
        for block in blocks:
            for verb in block.verbs:
                for form in verb.forms:
                    self.forms.setdefault(_verb_word(form), _verb_word(verb.text))
        self.bases = {_verb_word(v.text) for b in blocks for v in b.verbs} - set(self.forms)

    def __call__(self, word: str) -> str:
        if self.forms.get(word, word) != word:
            return self.forms[word]
        for suffix, endings in (("ies", ("y",)), ("ied", ("y",)), ("ing", ("", "e")), ("ed", ("", "e")),
                                ("es", ("",)), ("s", ("",)), ("en", ("", "e")), ("n", ("",))):
            if word.endswith(suffix) and len(word) > len(suffix) + 2:
                stem = word[: -len(suffix)]
                doubled = [stem[:-1]] if stem[-1:] == stem[-2:-1] else []  # "dispelling" -> "dispel"
                for candidate in [stem + e for e in endings] + doubled:
                    if candidate != word and candidate in self.bases:
                        return candidate
        return word


def _verb_word(text: str) -> str:
    """The verb of a CAMEO verb phrase, lower case: "+TAKE_OVER" -> "take", "WIRE_+TAP" -> "tap"."""
    words = [w for w in text.split("_") if w]
    marked = [w for w in words if w.startswith("+")]
    return (marked[0] if marked else words[0]).lstrip("+").lower()


def verb_lemma(text: str, lemmatize: Lemmatizer) -> tuple[str, list[str]]:
    """The lemma of a CAMEO verb ("+TAKE_OVER" -> "take over") and its words besides the verb."""
    words = [w for w in text.split("_") if w]
    marked = next((i for i, w in enumerate(words) if w.startswith("+")), 0)
    out = [w.lstrip("+").lower() for w in words]
    out[marked] = lemmatize(out[marked])
    return " ".join(out), out[:marked] + out[marked + 1:]


def _prefix(code: str) -> str | None:
    """The longest prefix of a CAMEO event code listed in CODE_RELATIONS."""
    code = code.split(":")[0].strip()  # "042:043": the second code is the event seen from the target
    return next((code[:n] for n in range(len(code), 0, -1) if code[:n] in CODE_RELATIONS), None)


def code_relation(code: str, lemma: str) -> str | None:
    """The kg relation of a CAMEO event code for a verb; a code of CODE_VERBS maps for its verbs only."""
    prefix = _prefix(code)
    if prefix is None or (prefix in CODE_VERBS and lemma not in CODE_VERBS[prefix]):
        return None
    return CODE_RELATIONS[prefix]


def pattern_parts(text: str) -> dict:
    """The slots of a pattern "SUBJECT * OBJECT (PREP NOUN)" that kg can use, lower case; ``$``,
    ``+`` and ``%`` (where the source and target actors sit) are left out."""
    before, _, after = text.partition("*")

    def items(part: str) -> list[str]:
        found = re.findall(r"\{[^}]*\}|\([^)]*\)|[^\s(){}]+", part)
        return [i for i in found if i not in ("$", "+", "%", "^")]

    subject = [i.strip("{}").lower() for i in items(before) if not i.startswith("(")]
    obj: list[str] = []
    preps: list[str] = []
    prep_object: list[str] = []
    for item in items(after):
        if item.startswith("("):
            inner = item.strip("()").split(None, 1)
            if inner and inner[0].lower().split("/")[0] in _PREPOSITIONS:
                preps.append(inner[0].lower().split("/")[0])  # "(BY/WITH SANCTIONS)": the first
                prep_object += [i.strip("{}").lower() for i in items(inner[1])] if len(inner) > 1 else []
            elif inner and not preps:
                obj.append(item.strip("()").lower())  # "* (GUNFIRE)": a noun in parentheses
        elif item.lower() in _PREPOSITIONS and not obj:
            preps.append(item.lower())
        elif not preps:
            obj.append(item.strip("{}").lower())
    slots = {"subject": subject, "object": obj, "preps": preps, "prep_object": prep_object}
    return {name: value for name, value in slots.items() if value}


def build_verbs(synsets: dict[str, Synset], blocks: list[VerbBlock], stats: Counter
                ) -> tuple[list[dict], list[dict], list[dict]]:
    """verbs.jsonl, patterns.jsonl and synsets.jsonl rows (see the module docstring)."""
    lemmatize = Lemmatizer(blocks)
    verbs: dict[tuple[str, str], dict] = {}
    patterns: list[dict] = []
    for block in blocks:
        block_verbs: dict[str, RawVerb] = {}
        for verb in block.verbs:
            lemma, others = verb_lemma(verb.text, lemmatize)
            if set(others) & _CONJUNCTIONS:
                stats["dropped verb: a coordination for PETRARCH's parser (KILLED_AND)"] += 1
            elif lemma in EXCLUDED_VERBS:
                stats["dropped verb: EXCLUDED_VERBS"] += 1
            else:
                block_verbs.setdefault(lemma, verb)
        coded = [(p, _named(p.comment, lemmatize)) for p in block.patterns]
        for lemma, verb in block_verbs.items():
            own = code_relation(verb.code, lemma)
            if own is None and _prefix(verb.code) in CODE_VERBS:
                stats[f"verbs whose bare code {_prefix(verb.code)} maps for other verbs only"] += 1
            ours: dict[str, list[tuple[RawPattern, set[str]]]] = {}
            for pattern, named in coded:
                relation = code_relation(pattern.code, lemma)
                if relation:
                    ours.setdefault(relation, []).append((pattern, named))
            for relation in sorted(set(ours) | ({own} - {None})):
                _add_verb(verbs, lemma, relation, verb, own == relation, ours.get(relation, []), block.name)
        for pattern, named in coded:
            # a pattern is for the block's verbs; it is written out when one of them takes it
            relations = {code_relation(pattern.code, lemma) for lemma in block_verbs} - {None}
            for relation in sorted(relations):
                row = {"block": block.name, "relation": relation, "code": pattern.code, "pattern": pattern.text}
                row.update(pattern_parts(pattern.text))
                row["verbs"] = sorted(named & set(block_verbs))
                row["source"] = f"petrarch2:{VERB_FILE}:{pattern.line}"
                patterns.append(row)
    used = {"&" + w.split("&", 1)[1].strip("{}()") for row in patterns for w in row["pattern"].split() if "&" in w}
    synset_rows = [{"synset": name, "words": _synset_words(synsets[name].phrases),
                    "source": f"petrarch2:{VERB_FILE}:{synsets[name].line}"} for name in sorted(synsets) if name in used]
    for row in verbs.values():
        stats[f"verbs for {row['relation']}"] += 1
        stats[f"verbs for {row['relation']}: a trigger alone"] += row["alone"]
        stats[f"verbs for {row['relation']}: with a pattern written for them"] += row["named"] > 0
    rows = sorted(verbs.values(), key=lambda r: (r["relation"], r["lemma"]))
    return rows, sorted(patterns, key=lambda r: (r["relation"], r["block"], r["source"])), synset_rows


def _named(comment: str, lemmatize: Lemmatizer) -> set[str]:
    """The verbs a pattern's comment names ("# CARRIED_OUT" -> carry out, "# KILLED_AND" -> kill)."""
    names = set()
    for word in re.findall(r"[A-Z][A-Z_+]*", comment):
        lemma, others = verb_lemma(word, lemmatize)
        names.add(lemma.split(" ")[0] if set(others) <= _CONJUNCTIONS else lemma)
    return names


def _add_verb(verbs: dict, lemma: str, relation: str, verb: RawVerb, alone: bool,
              ours: list[tuple[RawPattern, set[str]]], block: str) -> None:
    """Add one verb's evidence for one relation (a verb in two blocks adds up)."""
    row = verbs.setdefault((lemma, relation), {
        "lemma": lemma, "forms": _forms(verb, lemma), "relation": relation, "alone": False, "code": verb.code,
        "codes": [], "patterns": 0, "named": 0, "preps": [], "blocks": [],
        "source": f"petrarch2:{VERB_FILE}:{verb.line}"})
    row["alone"] = row["alone"] or (alone and lemma not in PATTERN_ONLY_VERBS)
    codes = {p.code.split(":")[0] for p, _ in ours} | ({verb.code.split(":")[0]} if alone else set())
    row["codes"] = sorted(set(row["codes"]) | codes)
    row["patterns"] += len(ours)
    row["named"] += sum(1 for _, named in ours if lemma in named)
    # the preposition a named pattern puts straight after the verb ("* (AT)", "* ALONGSIDE")
    preps = {parts["preps"][0] for p, named in ours if lemma in named
             for parts in [pattern_parts(p.text)] if "preps" in parts and "object" not in parts}
    row["preps"] = sorted(set(row["preps"]) | preps)
    row["blocks"] = sorted(set(row["blocks"]) | {block})


def _forms(verb: RawVerb, lemma: str) -> list[str]:
    """The verb's inflected forms, lower case: those its ``{...}`` lists, else the regular ones.
    A loader can match them as text where spaCy's lemmatizer errs (this model gives "wag" for
    "waged", "stag" for "staged", "snip" for "sniped")."""
    if verb.forms:
        forms = {" ".join(w.lstrip("+").lower() for w in form.split("_") if w) for form in verb.forms}
    else:
        words = lemma.split(" ")
        marked = next((i for i, w in enumerate(verb.text.split("_")) if w.startswith("+")), 0)
        forms = {" ".join(words[:marked] + [form] + words[marked + 1:]) for form in verb_forms(words[marked])}
    return sorted(forms - {lemma})


def _synset_words(phrases: list[str]) -> list[str]:
    """A synset's phrases, lower case, with the plurals PETRARCH makes (none after a final "_")."""
    words = set()
    for phrase in phrases:
        text = " ".join(tokens(phrase.lower().strip("_")))
        words.add(text)
        if not phrase.endswith("_"):
            words.add(plural(text))
    return sorted(words)
