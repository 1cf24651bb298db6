#!/usr/bin/env bash
# Extraction on text nobody here wrote, by source: builds each part with kg and scores it with the
# benchmark's own scorer in ../shared/eval. usage: bench/extraction.sh [OUT_DIR]
# KG_RELATION_MODEL=off|only|on (default on) selects rules alone, the model alone, or both.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$top/../shared/eval" && pwd) || { echo "bench/extraction.sh: ../shared/eval not found" >&2; exit 2; }
out=${1:-$(mktemp -d)}
mkdir -p "$out"
kg=$top/.venv/bin/kg py=$top/.venv/bin/python
build() {  # name, jsonl
  rm -rf "$out/$1-store"
  "$kg" build "$2" --store "$out/$1-store" -q >"$out/$1.log" 2>&1 \
    && "$kg" export --store "$out/$1-store" --format turtle -o "$out/$1.ttl" >>"$out/$1.log" 2>&1
}
"$py" "$shared/re3d/re3d.py" texts dev "$out/re3d.jsonl" >/dev/null
"$py" "$shared/conll04/conll04.py" texts dev "$out/c04.jsonl" >/dev/null
"$py" "$shared/wikievents/wikievents.py" texts dev "$out/we.jsonl" >/dev/null
build re3d "$out/re3d.jsonl" && for part in CENTCOM US_State_Department; do
  printf 're3d %-20s %s\n' "$part" "$("$py" "$shared/re3d/re3d.py" score "$part" "$out/re3d.ttl" --json "$out/re3d-$part.json" | tail -n 1)"
done
build c04 "$out/c04.jsonl" && printf 'conll04 dev %s\n' "$("$py" "$shared/conll04/conll04.py" score dev "$out/c04.ttl" | tail -n 1)"
build we "$out/we.jsonl" && printf 'wikievents dev %s\n' "$("$py" "$shared/wikievents/wikievents.py" score dev "$out/we.ttl" --json "$out/we.json" | tail -n 1)"
build seeds "$top/examples/articles" && printf 'examples %s\n' "$("$py" "$shared/score.py" "$out/seeds.ttl" "$shared/seeds" --docs=000_b6bbe98ba01c18c3,001_ded2ed7496c25a53 | tail -n 1)"
build dev "$top/tests/data/dev/articles" && printf 'tests/data/dev %s\n' "$("$kg" eval "$top/tests/data/dev/gold" --store "$out/dev-store" | tail -n 1)"
# annotated sets the model is not trained on (annotations/CHECKS): four registers in kg's own conventions
while read -r set; do
  case $set in ''|'#'*) continue ;; esac
  build "check-$set" "$top/annotations/$set/articles" \
    && printf 'annotations/%s %s\n' "$set" "$("$kg" eval "$top/annotations/$set/gold" --store "$out/check-$set-store" | tail -n 1)"
done < "$top/annotations/CHECKS"
