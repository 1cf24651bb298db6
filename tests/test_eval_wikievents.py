"""`kg eval` on WikiEvents-style gold (kg/eval/wikievents.py): two documents of our own in the
format (tests/data/wikievents), built and scored as a user would; the texts kg writes for them
put every mention at the data's offsets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from kg.eval import wikievents

KG = [sys.executable, "-m", "kg"]
GOLD = ROOT / "tests" / "data" / "wikievents" / "events.jsonl"
SHARED = ROOT.parent / "shared" / "eval" / "wikievents"


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict:
    import kg
    from kg.cli import cli

    folder = tmp_path_factory.mktemp("wikievents")
    texts = folder / "texts.jsonl"
    assert wikievents.write_texts(GOLD, texts) == 2
    kg.build([str(texts)], store=folder / "store")
    table = CliRunner().invoke(cli, ["eval", str(GOLD), "--store", str(folder / "store")])
    assert table.exit_code == 0, table.output
    return {"table": table.output, "report": kg.evaluate(GOLD, store=folder / "store").as_dict()}


def test_the_text_puts_each_mention_at_its_offsets():
    gold = wikievents.load_gold(GOLD)
    for line in GOLD.read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        text, tokens, _ = wikievents.document_text(doc)
        assert text == gold.texts[doc["doc_id"]]
        for m in doc["entity_mentions"]:
            assert text[tokens[m["start"]][0]:tokens[m["end"] - 1][1]] == m["text"]


def test_statements_triggers_and_agents_are_scored(scored):
    report = scored["report"]
    # the car bomb (told by "exploded") and the claimed attack; "took place" is no capture
    assert report["statements"] == {"Attack": {"predicted": 2, "correct": 2, "trigger_correct": 2,
                                               "precision": 1.0, "trigger_precision": 1.0}}
    attacks = report["events"]["Attack"]
    assert (attacks["gold"], attacks["found"], attacks["agent_named"], attacks["agent_found"]) == (3, 2, 2, 2)
    # "two men" is no name: the arrest's patient is not counted; its police and place are, and missed
    assert report["events"]["Capture"] == {"gold": 1, "found": 0, "agent_named": 1, "agent_found": 0,
                                           "place_named": 1, "place_found": 0}
    assert report["precision"] == 1.0 and report["agent_recall"] == 1.0
    assert scored["table"].splitlines()[-1] == "events statement P 1.000, attack agents 1.000 (2 documents)"


@pytest.mark.skipif(not (SHARED / "wikievents.py").is_file(), reason="../shared/eval/wikievents is not here")
def test_the_texts_are_those_of_the_benchmark_s_own_script(tmp_path):
    ours, theirs = tmp_path / "ours.jsonl", tmp_path / "theirs.jsonl"
    wikievents.write_texts(SHARED / "data" / "dev.jsonl", ours)
    subprocess.run([sys.executable, str(SHARED / "wikievents.py"), "texts", "dev", str(theirs)], check=True,
                   capture_output=True, timeout=600)
    def read(path: Path) -> dict[str, str]:
        return {d["id"]: d["text"] for d in map(json.loads, path.read_text(encoding="utf-8").splitlines())}

    assert read(ours) == read(theirs)
