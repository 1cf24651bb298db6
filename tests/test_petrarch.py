"""ontology/petrarch/: the data generated from the PETRARCH2 dictionaries, and its generator.

The committed files must be what ``python -m kg.tools.petrarch`` writes (checked whenever the
dictionaries are at ../shared/resources/petrarch2) and must make sense to kg on a fresh clone
without them: types are classes of kg.ttl, relations its object properties, no city is a country's
alias, known actors are there with the right type.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from rdflib import OWL, RDF, Graph

from kg.extract.gazetteer import load_hand_gazetteer
from kg.extract.namekeys import match_key as name_key
from kg.tools.petrarch import OUTPUT_FILES, SOURCE_COMMIT
from kg.tools.petrarch.dictionaries import read_actors, read_agents, read_verbs
from kg.tools.petrarch.names import display_name
from kg.tools.petrarch.vocabulary import Lemmatizer, build_verbs, pattern_parts
from kg.ontology import superclasses
from kg.namespaces import KG

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "ontology" / "petrarch"
DICTIONARIES = ROOT.parent / "shared" / "resources" / "petrarch2"


@cache
def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def actors() -> list[dict]:
    return rows("actors.jsonl") + rows("persons.jsonl")


def actor(label: str) -> dict:
    found = [a for a in actors() if a["label"] == label]
    assert len(found) == 1, f"{label!r}: {len(found)} actors"
    return found[0]


@pytest.mark.slow  # the whole generator, run as a process: a build never runs it
@pytest.mark.skipif(not DICTIONARIES.is_dir(), reason="the PETRARCH2 dictionaries are not at ../shared")
def test_committed_files_are_what_the_generator_writes(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kg.tools.petrarch", str(DICTIONARIES), "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ") and done.stderr == ""
    for name in OUTPUT_FILES:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), (
            f"ontology/petrarch/{name} is stale: run .venv/bin/python -m kg.tools.petrarch")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(OUTPUT_FILES)


def test_a_folder_without_the_dictionaries_is_one_error_line(tmp_path):
    (tmp_path / "CAMEO.2.0.txt").write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "kg.tools.petrarch", str(tmp_path), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 3
    assert done.stderr == (
        f"Error: {tmp_path}: not the PETRARCH2 dictionaries folder (no Phoenix.Countries.actors.txt, "
        "Phoenix.International.actors.txt, Phoenix.MilNonState.actors.txt, Phoenix.agents.txt, LICENSE) "
        "(give the folder holding CAMEO.2.0.txt and the Phoenix.*.txt files)\n")
    assert not (tmp_path / "out").exists()


def test_every_file_is_there_with_its_provenance():
    assert sorted(p.name for p in DATA.iterdir()) == sorted(OUTPUT_FILES)
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    assert SOURCE_COMMIT in readme and "python -m kg.tools.petrarch" in readme
    assert (DATA / "LICENSE").read_text(encoding="utf-8").startswith("The MIT License (MIT)")
    for name in OUTPUT_FILES:
        if name.endswith(".jsonl"):
            assert rows(name), name
            assert all(row["source"].startswith("petrarch2:") for row in rows(name)), name


def test_types_are_classes_and_relations_are_object_properties_of_the_ontology():
    classes = set(superclasses())
    graph = Graph().parse(ROOT / "ontology" / "kg.ttl", format="turtle")
    properties = {str(p)[len(str(KG._NS)):] for p in graph.subjects(RDF.type, OWL.ObjectProperty)}
    assert {a["type"] for a in actors()} <= classes
    assert {a["stands_for"] for a in rows("agents.jsonl")} <= classes
    assert {v["relation"] for v in rows("verbs.jsonl")} <= properties
    assert {p["relation"] for p in rows("patterns.jsonl")} <= properties
    assert {v["relation"] for v in rows("verbs.jsonl")} == {"attacked", "captured", "ceasefireWith", "allyOf"}


def test_ids_are_unique_and_links_point_into_the_hand_gazetteer():
    gazetteer = load_hand_gazetteer()
    ids = [a["id"] for a in actors()]
    assert len(ids) == len(set(ids))
    assert not set(ids) & set(gazetteer.entries)
    assert all(a["gazetteer"] in gazetteer.entries for a in actors() if "gazetteer" in a)
    assert all(a["country"] in gazetteer.entries for a in actors() if "country" in a)
    for a in actors():  # a name is the label or one alias of a record, once
        keys = [name_key(n) for n in (a["label"], *a.get("aliases", []))]
        assert len(keys) == len(set(keys)), a["id"]
    nouns = [a["noun"] for a in rows("agents.jsonl")]
    assert len(nouns) == len(set(nouns))


def test_no_country_has_a_town_as_an_alias():
    towns = {key for line in (ROOT / "ontology" / "places.jsonl").read_text(encoding="utf-8").splitlines()
             for place in [json.loads(line)] if place["kind"] == "town" for key in place["keys"]}
    countries = [a for a in actors() if a["type"] == "Country"]
    assert len(countries) > 150
    offending = [(c["label"], alias) for c in countries for alias in c.get("aliases", []) if name_key(alias) in towns]
    assert offending == []
    syria = actor("Syria")
    assert syria["iso3"] == "SYR" and syria["gazetteer"] == "syria" and "Syrian" in syria["demonyms"]
    assert not {"Damascus", "Aleppo", "Raqqa"} & set(syria.get("aliases", []))


@pytest.mark.parametrize(("label", "type_", "gazetteer"), [
    ("Islamic State of Iraq and the Levant", "ArmedGroup", "islamic-state"),
    ("Islamic State", "ArmedGroup", "islamic-state"),
    ("Hezbollah", "ArmedGroup", "hezbollah"),
    ("Free Syrian Army", "ArmedGroup", "fsa"),
    ("Jabhat al-Nusra", "ArmedGroup", "nusra-front"),
    ("United Nations", "InternationalOrganization", "united-nations"),
    ("NATO", "InternationalOrganization", "nato"),
    ("Israel Defence Forces", "ArmedForces", "israel-armed-forces"),
    ("Bashar al-Assad", "Person", "bashar-al-assad"),
])
def test_known_actors_are_there_with_their_type(label, type_, gazetteer):
    found = actor(label)
    assert found["type"] == type_
    assert found.get("gazetteer") == gazetteer


def test_leaders_are_not_aliases_of_their_groups():
    # PETRARCH codes a group's leaders as the group; in kg a person is never a group's alias
    assert not {"Salim Idris", "Selim Idriss"} & set(actor("Free Syrian Army").get("aliases", []))
    isil = actor("Islamic State of Iraq and the Levant")
    assert "Islamic State of Iraq and Syria" in isil["aliases"]
    assert not {"Abu Bakr al-Baghdadi", "Al-Baghdadi", "Abu Muzab al-Zarqawi", "Zarqawi"} & set(isil["aliases"])
    assert "SYRGOV >000717" in actor("Bashar al-Assad")["roles"]


def test_an_everyday_word_is_no_group_s_alias_but_an_acronym_and_a_spelling_are(extraction):
    # PETRARCH lists "THE_FOUNDATION_" for El Rukn: "the Aga Khan Foundation" was El Rukn
    assert not {"Foundation", "Cornerstone"} & set(actor("El Rukn").get("aliases", []))
    assert "ETA" in actor("Basque Fatherland and Freedom")["aliases"]  # "eta" is a word; an acronym stays
    assert "Taleban" in actor("Taliban")["aliases"]  # a spelling of the name stays
    assert not any(e.label == "El Rukn" for e in extraction("The Foundation said it would build a school.").entities)


def test_agents_and_verbs_say_what_they_stand_for():
    agents = {a["noun"]: a for a in rows("agents.jsonl")}
    assert (agents["militant"]["stands_for"], agents["militant"]["plural"]) == ("ArmedGroup", "militants")
    assert agents["soldier"]["stands_for"] == "ArmedForces"
    assert agents["minister"]["stands_for"] == "GovernmentAgency"
    assert agents["gunman"]["plural"] == "gunmen"
    verbs = {(v["lemma"], v["relation"]): v for v in rows("verbs.jsonl")}
    assert verbs[("kill", "attacked")]["alone"] and verbs[("bombard", "attacked")]["alone"]
    assert verbs[("kidnap", "captured")]["alone"] and verbs[("occupy", "captured")]["alone"]
    assert verbs[("fire", "attacked")]["alone"] is False and "at" in verbs[("fire", "attacked")]["preps"]
    assert "alongside" in verbs[("fight", "allyOf")]["preps"]
    assert verbs[("sign", "ceasefireWith")]["named"] >= 1
    assert not {lemma for lemma, _ in verbs} & {"inhabit", "reside"}  # WordNet synonyms of occupy
    # meeting, praising, consulting or agreeing is no alliance
    assert not {lemma for lemma, relation in verbs if relation == "allyOf"} & {"meet", "praise", "consult", "agree"}


@pytest.mark.parametrize(("raw", "cased"), [
    ("ISLAMIC_STATE_OF_IRAQ_AND_THE_LEVANT", "Islamic State of Iraq and the Levant"),
    ("AL-QAEDA_IN_THE_ARABIAN_PENINSULA", "Al-Qaeda in the Arabian Peninsula"),
    ("JABHAT_AL_NUSRA_", "Jabhat al-Nusra"),
    ("AHRAR_ASH_SHAM_", "Ahrar ash-Sham"),
    ("MOHAMMED_BIN_SALMAN", "Mohammed bin Salman"),
    ("EL_SALVADOR", "El Salvador"),
    ("THE_UNITED_NATIONS_", "United Nations"),
    ("U.N._SECRETARY_GENERAL", "U.N. Secretary General"),
    ("PKK", "PKK"),
    ("APO'S_REVENGE_HAWKS_", "Apo's Revenge Hawks"),
    ("JOHN_MCCAIN", "John McCain"),
    ("QATAR-BASED_BROADCASTER", "Qatar-based Broadcaster"),
])
def test_names_are_cased(raw, cased):
    assert display_name(raw) == cased


def test_actor_records_share_the_codes_that_follow_them(tmp_path):
    path = tmp_path / "x.actors.txt"
    path.write_text("# comment\nFREE_SYRIAN_ARMY_  # \n+SALIM_IDRIS\n\t[SYRREB]\n\nSARAYAT_AL-QUDS\nJUND_AL_AQSA\n"
                    "\t[SYRREBMUS]\nUN_ [IGOUNO]\nU.N._\n+A+_B\n", encoding="utf-8")
    read = read_actors(path)
    assert [(a.name, a.aliases, a.codes, a.line) for a in read] == [
        ("FREE_SYRIAN_ARMY_", ["SALIM_IDRIS"], ["SYRREB"], 2),
        ("SARAYAT_AL-QUDS", [], ["SYRREBMUS"], 6), ("JUND_AL_AQSA", [], ["SYRREBMUS"], 7),
        ("UN_", [], ["IGOUNO"], 9), ("U.N._", ["A", "_B"], [], 10)]


def test_agent_markers_pair_singular_and_plural(tmp_path):
    path = tmp_path / "x.agents.txt"
    path.write_text("!PERSON! = MAN, MEN, PERSON\nGUN!PERSON! [~UAF]\nTROOP {} [~MIL]\nARMY [~MIL] # x\n",
                    encoding="utf-8")
    assert [(a.phrase, a.plural, a.code) for a in read_agents(path)] == [
        ("GUNMAN", "GUNMEN", "~UAF"), ("GUNPERSON", "", "~UAF"), ("TROOP", "", "~MIL"), ("ARMY", None, "~MIL")]


VERBS = """\
&CEASEFIRE
+TRUCE
+CEASEFIRE

####### VERB PATTERNS #######

---  KILL   [190]  ---
KILL
SLAY {SLAYS SLAIN SLAYING}
+KILLED_AND {}
- * (IN ACCIDENT)                                     [---]         # KILL
- {AIR STRIKE} *                                      [195]         # KILLED_AND

---  SIGN   [057]  ---
SIGN
SEIZE
- * &CEASEFIRE                                        [0871:0871]   # SIGN
- * (AT CLAIM)                                        [111]         # SIGN

---  INVADE   [192]  ---
INHABIT
OCCUPY {OCCUPYING OCCUPIED OCCUPIES }
FIGHT {FIGHTS FOUGHT FIGHTING}
- * (ALONGSIDE)                                       [062]         # FIGHT
"""


def test_verbs_map_by_code_and_lemma(tmp_path):
    path = tmp_path / "CAMEO.txt"
    path.write_text(VERBS, encoding="utf-8")
    synsets, blocks = read_verbs(path)
    lemmatize = Lemmatizer(blocks)
    assert [lemmatize(w) for w in ("killed", "slain", "fought", "occupied", "seized", "signing")] == [
        "kill", "slay", "fight", "occupy", "seize", "sign"]
    from collections import Counter

    verbs, patterns, synset_rows = build_verbs(synsets, blocks, Counter())
    got = {(v["lemma"], v["relation"]): (v["alone"], v["codes"], v["patterns"], v["named"]) for v in verbs}
    assert got == {
        ("kill", "attacked"): (True, ["190", "195"], 1, 1),   # the pattern is KILLED_AND's: kill's lemma
        ("slay", "attacked"): (True, ["190", "195"], 1, 0),
        ("sign", "ceasefireWith"): (False, ["0871"], 1, 1),  # a pattern verb (PATTERN_ONLY_VERBS)
        ("seize", "ceasefireWith"): (False, ["0871"], 1, 0),
        ("occupy", "captured"): (True, ["192"], 0, 0),
        ("fight", "captured"): (True, ["192"], 0, 0),
        ("fight", "allyOf"): (False, ["062"], 1, 1),
        ("occupy", "allyOf"): (False, ["062"], 1, 0),
    }  # inhabit: EXCLUDED_VERBS; "killed and": a coordination
    assert [r["synset"] for r in synset_rows] == ["&CEASEFIRE"]
    assert synset_rows[0]["words"] == ["ceasefire", "ceasefires", "truce", "truces"]
    assert {p["pattern"] for p in patterns} == {"{AIR STRIKE} *", "* &CEASEFIRE", "* (ALONGSIDE)"}
    assert pattern_parts("* ON + BY $ SYMPATHISER") == {"preps": ["on", "by"]}
    assert pattern_parts("* (BY/WITH &WEAPON)") == {"preps": ["by"], "prep_object": ["&weapon"]}
    assert pattern_parts("&MILITARY * &TOWN") == {"subject": ["&military"], "object": ["&town"]}


def test_verb_lemmas_are_the_lemmas_spacy_gives(nlp_model):
    # kg matches triggers on token.lemma_: a lemma spaCy never produces would never fire
    verbs = sorted({v["lemma"] for v in rows("verbs.jsonl") if v["alone"] and "-" not in v["lemma"]})
    docs = nlp_model.pipe(f"They will {verb} the town." for verb in verbs)
    wrong = []
    for verb, doc in zip(verbs, docs):
        head, *rest = verb.split()
        lemma = next(t.lemma_ for t in doc if t.text == head)
        if " ".join([lemma, *rest]) != verb:
            wrong.append((verb, lemma))
    assert wrong == []


@pytest.fixture(scope="module")
def nlp_model():
    import spacy

    from kg.extract.nlp import MODELS

    for name in MODELS:
        try:
            return spacy.load(name, disable=["ner"])
        except OSError:
            continue
    pytest.fail("no spaCy English model installed")
