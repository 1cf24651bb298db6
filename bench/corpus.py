"""A benchmark corpus with the variety of real news: new names keep turning up as it grows.

    python bench/corpus.py 10000 corpus.jsonl        # 10,000 articles, JSONL (id, date, text)

Each article is a dateline and 5 to 8 paragraphs of news sentences in the constructions kg's
rules read (attacks, captures, alliances, evacuations, ceasefires, titles, places in places,
bases, membership), with filler sentences between them, about 230 words. The names are drawn
from kg's own data: the actors of ``ontology/gazetteer.jsonl`` and ``ontology/petrarch/actors.jsonl``
(about 7,800), the persons of ``ontology/petrarch/persons.jsonl`` (about 18,000) and the towns of
``ontology/places.jsonl`` (GeoNames, about 9,000). A draw favours the head of each list as news
favours a few names (the hand-written gazetteer first, the rest in a seeded order), and reaches into
the long tail often enough that the distinct names keep growing with the corpus: at 10,000
articles the graph holds tens of thousands of entities. Deterministic: the same seed and size give
the same articles, and the first N articles of a larger corpus are the corpus of N.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONTOLOGY = ROOT / "ontology"
ACTOR_TYPES = {"ArmedGroup", "ArmedForces", "GovernmentAgency", "InternationalOrganization"}
OTHER_TYPES = {"Organization", "MediaOrganization"}  # companies and media: they report, they do not fight
SKEW = 2.5  # a draw takes index N * u**SKEW: the first 1% of a pool gets about 16% of the draws


@dataclass(frozen=True)
class Pools:
    actors: tuple[str, ...]
    others: tuple[str, ...]
    persons: tuple[str, ...]
    towns: tuple[tuple[str, str], ...]  # (town, its country's name)


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pools(seed: int = 11) -> Pools:
    """The names to draw from, each list in the order of its draw weights."""
    rng = random.Random(seed)
    hand = _jsonl(ONTOLOGY / "gazetteer.jsonl")
    petrarch = _jsonl(ONTOLOGY / "petrarch" / "actors.jsonl")
    people = _jsonl(ONTOLOGY / "petrarch" / "persons.jsonl")
    places = _jsonl(ONTOLOGY / "places.jsonl")

    def ordered(head: list[str], tail: list[str]) -> tuple[str, ...]:
        rng.shuffle(tail)
        seen: set[str] = set()
        return tuple(n for n in head + tail if not (n in seen or seen.add(n)))

    actors = ordered([e["label"] for e in hand if e["type"] in ACTOR_TYPES],
                     [e["label"] for e in petrarch if e["type"] in ACTOR_TYPES])
    others = ordered([e["label"] for e in hand if e["type"] in OTHER_TYPES],
                     [e["label"] for e in petrarch if e["type"] in OTHER_TYPES])
    persons = ordered([e["label"] for e in hand if e["type"] == "Person"],
                      [e["label"] for e in people if len(e["label"].split()) >= 2 and e["label"].isascii()])
    countries = {p["country"]: p["name"] for p in places if p["kind"] == "country"}
    hand_towns = [e["label"] for e in hand if e["type"] == "Settlement"]
    # GeoNames' "Al Mizhar First" / "Second" parse with an adverb as the root of the sentence, which
    # sends kg.extract.parse.undertakers into an endless loop (reported; until it is
    # fixed there, such names stay out of the corpus so that the benchmark ends)
    towns = [(p["name"], countries.get(p["country"], "")) for p in places if p["kind"] == "town"
             and p["name"].rsplit(" ", 1)[-1] not in ("First", "Second")]
    towns.sort(key=lambda t: t[0])  # a fixed order before the seeded shuffle
    rng.shuffle(towns)
    by_name = {t[0]: t for t in towns}
    head = [by_name.get(name, (name, "")) for name in hand_towns]
    seen: set[str] = set()
    return Pools(actors, others, persons, tuple(t for t in head + towns if t[1] and not (t[0] in seen or seen.add(t[0]))))


# the sentences: {a} {b} actors, {o} a company or news outlet, {p} a person, {t} {u} towns, {c} the country of {t}, {d} a weekday
EVENTS = [
    "{a} fighters attacked positions of {b} near {t} on {d}, residents said.",
    "{a} launched an offensive against {b} in the hills east of {t}.",
    "On {d}, {a} shelled the outskirts of {t}, where {b} had dug in.",
    "{a} captured {t} from {b} after a week of heavy fighting.",
    "{a} seized the town of {t} on {d}, according to a local official.",
    "{t} fell to {a} late on {d}, a spokesman for {b} said.",
    "{a} retook {u} from {b} after an assault that lasted three days.",
    "{a} has been a close ally of {b} throughout the conflict.",
    "{a} and {b} agreed to coordinate their operations around {t}.",
    "{a} is backed by {b}, which supplies it with weapons and money.",
    "{a} agreed a ceasefire with {b} on {d}.",
    "A truce between {a} and {b} took hold in {t} on {d}.",
    "Hundreds of {a} fighters were evacuated to {t} under the deal.",
    "Buses carried {a} fighters and their families to {t}, {c}.",
    "{p}, the leader of {a}, said the group would not withdraw from {t}.",
    "{p}, a commander of {a}, was killed in an air strike near {t}.",
    "{a} kidnapped {p} near {t} on {d}, his family said.",
    "{a} is based in {t}, {c}.",
    "{t} is a town in {c}, close to the border.",
    "{a} joined {b} last year, bringing several hundred fighters.",
    "{a} ambushed a convoy of {b} on the road between {t} and {u}.",
    "Forces loyal to {b} pushed {a} out of {u} on {d}.",
]
FILLER = [
    "The fighting has displaced thousands of families in the area.",
    "Aid agencies said they could not reach the worst-hit districts.",
    "The claim could not be independently verified.",
    "Residents described days of shelling and empty streets.",
    "Prices of bread and fuel have tripled since the spring.",
    "Talks on a wider settlement are due to resume next month.",
    "Officials gave no figure for the number of casualties.",
    "The road to the provincial capital has been closed since {d}.",
    "Witnesses said smoke could be seen rising over {t}.",
    "{p} told reporters in {t} that the situation was calm.",
    "{o} said in a statement that it had suspended its work in {t}.",
    "{p}, a spokesman for {o}, said staff had left {t} on {d}.",
    "According to {o}, at least a dozen people were wounded in {t}.",
    "Local media reported that schools in {t} remained shut.",
    "Electricity has been cut in parts of {t} for a week.",
]
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Writer:
    """Articles one by one from a seeded generator: article ``i`` depends only on the seed and ``i``."""

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed
        self.names = pools()
        self.start = datetime.date(2015, 1, 1)

    def _draw(self, rng: random.Random, pool: tuple):
        return pool[int(len(pool) * rng.random() ** SKEW)]

    def _fill(self, rng: random.Random, template: str) -> str:
        a = self._draw(rng, self.names.actors)
        b = a
        while b == a:
            b = self._draw(rng, self.names.actors)
        (t, c), (u, _) = self._draw(rng, self.names.towns), self._draw(rng, self.names.towns)
        return template.format(a=a, b=b, p=self._draw(rng, self.names.persons), o=self._draw(rng, self.names.others), t=t, u=u, c=c,
                               d=rng.choice(DAYS))

    def article(self, i: int) -> dict:
        rng = random.Random(f"{self.seed}:{i}")
        paragraphs = []
        for _ in range(rng.randint(5, 8)):
            sentences = [self._fill(rng, rng.choice(EVENTS)) for _ in range(rng.randint(1, 2))]
            sentences.insert(rng.randint(0, len(sentences)), self._fill(rng, rng.choice(FILLER)))
            paragraphs.append(" ".join(sentences))
        town, _ = self._draw(rng, self.names.towns)
        date = self.start + datetime.timedelta(days=i * 3650 // 10000 % 3650)
        text = f"{town.upper()} (kg {i}) - " + "\n\n".join(paragraphs)
        return {"id": f"bench-{i:06d}", "date": date.isoformat(), "text": text}


def make_corpus(n: int, path: Path, seed: int = 7) -> Path:
    """``n`` articles as JSONL at ``path`` (one file: 10,000 small files would time the file system)."""
    writer = Writer(seed)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(n):
            out.write(json.dumps(writer.article(i), ensure_ascii=False) + "\n")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("articles", type=int)
    parser.add_argument("path", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    make_corpus(args.articles, args.path, args.seed)
    print(f"wrote {args.articles} articles to {args.path}", file=sys.stderr)


if __name__ == "__main__":
    main()
