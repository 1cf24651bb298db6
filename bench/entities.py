"""What each source of entity recognition adds, measured on re3d dev (CENTCOM + US State
Department) by the benchmark's own entity scorer (../shared/eval/re3d/entities.py).

    python bench/entities.py [--out DIR] [--only NAME,...]

Each variant builds the 45 documents in this process (``n_process=1``, a fresh kg cache) with one
source switched off, exports Turtle and scores it; "all" switches nothing off. Printed per variant:
mention recall counting a name or a mention's head noun ("named or head", the issue's figure),
recall counting a name inside a longer mention too, type accuracy (a kg:Country right for a
state re3d calls an Organisation; a kg:Facility, which that scorer does not know, right for a
Location), alias pairs merged, and the entities no re3d mention supports ("noise").
Needs ../shared (the benchmark), as bench/extraction.sh does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "eval" / "re3d"

# variant -> (module, attribute, replacement expression): the source it switches off (the name as
# the module that calls it binds it: kg.extract.mentions imports the evidence functions by name)
VARIANTS = {
    "all": [],
    "no preposition places": [("kg.extract.mentions", "placed_by_preposition", "lambda *a, **k: []")],
    "no organization names": [("kg.extract.mentions", "organization_names", "lambda *a, **k: []")],
    "no national institutions": [("kg.extract.mentions", "national_institutions", "lambda *a, **k: []"),
                                 ("kg.extract.mentions", "_country_institution", "lambda doc, m, *a: m")],
    "no list names": [("kg.extract.mentions", "listed_names", "lambda *a, **k: []"),
                      ("kg.extract.mentions", "typed_by_list", "lambda doc, mentions: mentions")],
    "no comma split": [("kg.extract.mentions", "_ner_spans", "lambda doc, words: iter(doc.ents)")],
    "no member phrases": [("kg.extract.aliases", "_member_phrase", "lambda *a, **k: []")],
    "no country-qualified forms": [("kg.extract.aliases", "_with_country", "lambda *a, **k: []")],
    "no PETRARCH actors": [("kg.extract.gazetteer", "dictionary_entries", "lambda *a, **k: {}")],
    "no GeoNames": [("kg.extract.geonames", "load_places",
                     "lambda: __import__('kg.extract.geonames', fromlist=['Places']).Places({}, {}, {}, {}, {})")],
}

CHILD = """
import importlib, sys
for module, name, expr in {patches!r}:
    setattr(importlib.import_module(module), name, eval(expr))
import kg.extract.geonames as g, kg.extract.resources as res
if {geonames_off!r}:  # kg.extract.resources holds its own name for the loader
    res.load_places = g.load_places
import kg
kg.build([{jsonl!r}], store={store!r}, n_process=1)
from kg.graph.export import export
with kg.open_store({store!r}) as s, open({ttl!r}, "wb") as out:
    export(s, "turtle", None, out)
"""


def run(name: str, jsonl: Path, out: Path) -> dict:
    patches = VARIANTS[name]
    slug = name.replace(" ", "-")
    store, ttl = out / f"{slug}-store", out / f"{slug}.ttl"
    code = CHILD.format(patches=patches, jsonl=str(jsonl), store=str(store), ttl=str(ttl),
                        geonames_off=any(p[1] == "load_places" for p in patches))
    env = {**os.environ, "KG_CACHE_DIR": tempfile.mkdtemp(prefix="kg-cache-")}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    report = out / f"{slug}.json"
    subprocess.run([sys.executable, str(SHARED / "entities.py"), "score", "dev", str(ttl), "--json", str(report)],
                   check=True, capture_output=True)
    d = json.loads(report.read_text(encoding="utf-8"))
    facility = sum(v for k, v in d["wrong_type_kinds"].items() if k == "Location -> facility")
    return {"variant": name, "named_or_head": d["mention_recall_named_or_head"], "recall": d["mention_recall"],
            "type_accuracy": round((d["typed_right"] + d["organisation_as_country"] + facility) / d["typed"], 3),
            "alias_pairs": f"{d['alias_merged']}/{d['alias_pairs']}", "noise": d["noise"],
            "kg_entities": d["kg_distinct_entities"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", default="", help="comma-separated variant names")
    args = parser.parse_args()
    if not (SHARED / "entities.py").is_file():
        print(f"bench/entities.py: {SHARED} not found (the benchmark is not part of a clone)", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="kg-entities-"))
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / "re3d.jsonl"
    subprocess.run([sys.executable, str(SHARED / "re3d.py"), "texts", "dev", str(jsonl)], check=True,
                   capture_output=True)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(VARIANTS)
    rows = []
    print(f"{'variant':24} {'named/head':>10} {'recall':>7} {'types':>6} {'aliases':>8} {'noise':>6} {'entities':>9}")
    for name in names:
        r = run(name, jsonl, out)
        rows.append(r)
        print(f"{name:24} {r['named_or_head']:10.3f} {r['recall']:7.3f} {r['type_accuracy']:6.3f} "
              f"{r['alias_pairs']:>8} {r['noise']:6} {r['kg_entities']:9}", flush=True)
    (out / "entities.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
