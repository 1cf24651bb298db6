"""Relations are data: a relation is its property in ontology/kg.ttl plus its triggers in the
lexicon, and every part of kg knows it from there. The lexicon is checked when it loads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, invoke_kg
from kg.extract.lexicon import LexiconError, parse_lexicon

KG = [sys.executable, "-m", "kg"]

SANCTIONED_PROPERTY = """
kg:sanctioned a owl:ObjectProperty ;
    rdfs:subPropertyOf kg:relatedTo ;
    rdfs:label "sanctioned" ;
    rdfs:comment "Imposed sanctions on the object." ;
    rdfs:domain kg:Agent ;
    rdfs:range kg:Agent .
"""

SANCTIONED_RULE = """
[[rule]]
id = "sanction-verb"
relation = "sanctioned"
pos = "VERB"
lemmas = ["sanction", "blacklist", "penalize"]
subject = ["nsubj", "agent"]
object = ["dobj", "nsubjpass"]
confidence = 0.8
"""

ARTICLE = "The European Union sanctioned the Wagner Group over abuses in Mali, officials said on Monday."


@pytest.fixture(scope="module")
def with_sanctioned(tmp_path_factory):
    """A copy of kg's data with one relation more, and a store built with it (through KG_DATA)."""
    root = tmp_path_factory.mktemp("data")
    for name in ("ontology", "queries"):
        shutil.copytree(ROOT / name, root / name)
    with open(root / "ontology" / "kg.ttl", "a", encoding="utf-8") as f:
        f.write(SANCTIONED_PROPERTY)
    with open(root / "ontology" / "lexicon.toml", "a", encoding="utf-8") as f:
        f.write(SANCTIONED_RULE)
    (root / "articles").mkdir()
    (root / "articles" / "panel.txt").write_text(ARTICLE, encoding="utf-8")
    gold = root / "gold"
    gold.mkdir()
    (gold / "entities.tsv").write_text("EU\tIGO\tEuropean Union|EU\nWAGNER\tArmedGroup\tWagner Group|Wagner\nMALI\tCountry\tMali\n")
    (gold / "relations.tsv").write_text("required\tEU\tsanctioned\tWAGNER\t0\tThe European Union sanctioned the Wagner Group\n")
    (gold / "docs.txt").write_text("panel\n")
    env = {**os.environ, "KG_DATA": str(root)}

    def run(*args):
        return subprocess.run([*KG, *args], capture_output=True, text=True, timeout=600, env=env)

    store = root / "store"
    built = run("build", str(root / "articles"), "--store", str(store))
    assert built.returncode == 0, built.stderr
    return run, store, root


@pytest.mark.slow  # kg processes on a copy of the data (KG_DATA is read once per process)
def test_a_relation_added_by_data_is_extracted_validated_counted_scored_and_drawn(with_sanctioned, tmp_path):
    run, store, root = with_sanctioned
    facts = run("query", "SELECT ?s ?o WHERE { ?s kg:sanctioned ?o }", "--store", str(store), "--format", "json")
    rows = {(b["s"]["value"].rsplit("/", 1)[-1], b["o"]["value"].rsplit("/", 1)[-1])
            for b in json.loads(facts.stdout)["results"]["bindings"]}
    assert rows == {("european-union", "wagner")}, facts.stderr
    validated = run("validate", "--store", str(store))
    assert validated.returncode == 0, validated.stdout + validated.stderr
    statistics = run("query", "statistics", "--store", str(store), "--format", "csv")
    assert "facts,1" in statistics.stdout.splitlines(), statistics.stdout
    info = json.loads(run("info", "--store", str(store), "--format", "json").stdout)
    assert info["facts_by_relation"] == {"sanctioned": 1}
    scored = run("eval", str(root / "gold"), "--store", str(store), "--format", "json")
    report = json.loads(scored.stdout)
    assert report["per_relation"]["sanctioned"]["found"] == 1 and report["f1"] == 1.0
    page = tmp_path / "page.html"
    drawn = run("viz", "--store", str(store), "-o", str(page))
    assert drawn.returncode == 0, drawn.stderr
    assert '"predicate": "sanctioned"' in page.read_text(encoding="utf-8")
    analyzed = run("analyze", "--store", str(store), "--relations", "sanctioned", "--format", "json")
    assert json.loads(analyzed.stdout)["relations"] == ["sanctioned"]


def test_the_shipped_data_does_not_know_it(tmp_path):
    store = tmp_path / "store"
    (tmp_path / "panel.txt").write_text(ARTICLE, encoding="utf-8")
    invoke_kg("build", str(tmp_path / "panel.txt"), "--store", str(store), check=True)
    out = invoke_kg("query", "SELECT ?s WHERE { ?s kg:sanctioned ?o }", "--store", str(store)).stdout
    assert "(0 rows)" in out


def rule(**fields) -> str:
    base = {"id": "r1", "relation": "attacked", "pos": "VERB", "lemmas": ["raid"], "subject": ["nsubj"],
            "object": ["dobj"]}
    base.update(fields)
    body = "\n".join(f"{k} = {json.dumps(v)}" for k, v in base.items() if v is not None)
    return f"[[rule]]\n{body}\n"


@pytest.mark.parametrize(("text", "message"), [
    (rule(subject=["nsubjj"]), "lexicon.toml: rule r1: unknown slot 'nsubjj' in subject"),
    (rule(object=["prepp:with"]), "lexicon.toml: rule r1: unknown slot 'prepp:with' in object"),
    (rule(relation="friendOf"), "lexicon.toml: rule r1: relation 'friendOf' is not a relation of ontology/kg.ttl"),
    (rule(pos="PRON"), "lexicon.toml: rule r1: a predicate rule needs pos = VERB, NOUN, ADP, ADV or ADJ, not 'PRON'"),
    (rule(lemma=["raid"]), "lexicon.toml: rule r1: unknown field lemma"),
    (rule(kind="idiom"), "lexicon.toml: rule r1: kind 'idiom' is not one of"),
    (rule(object_types=["Thing"]), "lexicon.toml: rule r1: object_types: Thing is not a class of ontology/kg.ttl"),
    (rule(confidence=2), "lexicon.toml: rule r1: confidence must be a number in (0, 1]"),
    (rule() + rule(), "lexicon.toml: rule r1: the id is used by an earlier rule"),
    (rule(id=None), "lexicon.toml: rule #1: needs an id"),
    (rule(purposes=["attack-aims"]), "lexicon.toml: rule r1: purposes: attack-aims is no rule of the lexicon"),
    (rule(article="indefinitely"), "lexicon.toml: rule r1: article 'indefinitely' is not one of '', 'definite'"),
    ("[relations.trained]\n", "lexicon.toml: unknown section relations"),
    (rule(lemma_sets=["rule:r2"]) + rule(id="r2"), "lexicon.toml: rule r1: unknown lemma set rule:r2 (known: "),
    (rule(relation="allyOf", kind="joint", pos=None, subject=None, object=None, acts=["attack-verbs"]),
     "lexicon.toml: rule r1: acts: attack-verbs is no rule of the lexicon"),
    (rule(relation="allyOf", kind="joint", pos=None, subject=None, object=None),
     "lexicon.toml: rule r1: a joint rule needs acts"),
    (rule(relation="allyOf", mutual=True), "lexicon.toml: rule r1: mutual: allyOf is symmetric"),
    (rule(exclude=["words:heading_title"]),
     "lexicon.toml: rule r1: exclude: words:heading_title is not a list of words in ontology/words.toml"),
])
def test_a_broken_rule_is_an_error_naming_the_file_and_the_rule(text, message):
    with pytest.raises(LexiconError) as caught:
        parse_lexicon(text, "lexicon.toml")
    assert str(caught.value).startswith(message)


def test_a_rule_may_take_the_lemmas_of_an_earlier_rule():
    lexicon = parse_lexicon(rule(lemmas=["raid", "storm"]) + rule(id="r2", lemmas=["shell"], lemma_sets=["rule:r1"],
                                                                  exclude=["storm"]), "lexicon.toml")
    assert lexicon.rules[1].lemmas == {"shell", "raid"}


def test_a_rule_may_leave_out_a_list_of_words_toml():
    """"words:heading_titles": the titles that head what their "of" names, defined once in words.toml."""
    lexicon = parse_lexicon(rule(relation="memberOf", pos="NOUN", lemmas=["director", "reporter", "secretary"],
                                 exclude=["words:heading_titles"]), "lexicon.toml")
    assert lexicon.rules[0].lemmas == {"reporter"}


def test_the_shipped_lexicon_loads_and_a_broken_one_stops_kg_with_one_line(tmp_path):
    from kg.extract.lexicon import load_lexicon

    assert len(load_lexicon().rules) > 20
    for name in ("ontology", "queries"):
        shutil.copytree(ROOT / name, tmp_path / name)
    with open(tmp_path / "ontology" / "lexicon.toml", "a", encoding="utf-8") as f:
        f.write(rule(id="typo", subject=["nsubjj"]))
    (tmp_path / "a.txt").write_text("Rebels raided the town.", encoding="utf-8")
    result = subprocess.run([*KG, "build", str(tmp_path / "a.txt"), "--store", str(tmp_path / "s")],
                            capture_output=True, text=True, timeout=600, env={**os.environ, "KG_DATA": str(tmp_path)})
    assert result.returncode == 78
    assert result.stderr.splitlines() == [
        f"Error: {tmp_path / 'ontology' / 'lexicon.toml'}: rule typo: unknown slot 'nsubjj' in subject (known: "
        + result.stderr.split("(known: ", 1)[1].rstrip("\n")]
