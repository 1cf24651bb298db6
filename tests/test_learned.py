"""The learned relation model: trained on a small gold folder it finds what it was taught, training
is reproducible, the shipped model loads with its provenance, the switch selects rules, model or
both, and a broken model file is an error naming it."""

from __future__ import annotations

import gzip
import json
import random
import shutil
from pathlib import Path

import pytest

from kg.errors import DataError, UsageError
from kg.extract.learned import model as learned
from kg.extract.learned.combine import may_add

ROOT = Path(__file__).resolve().parent.parent
ARMED = [
    "Hezbollah",
    "Hamas",
    "Jabhat al-Nusra",
    "Boko Haram",
    "Ansar Dine",
    "al-Shabaab",
    "the Taliban",
    "the Houthis",
]
PARENTS = ["al-Qaeda", "Islamic State"]
PLACES = ["Doha", "Geneva", "Cairo", "Amman", "Beirut", "Ankara"]


def _gold_folder(folder: Path, seed: int = 7, documents: int = 24) -> Path:
    """Articles of our own that state memberOf by a construction no rule reads ("X answers to
    Y") beside sentences of the same names that state nothing of the kind."""
    rng = random.Random(seed)
    (folder / "articles").mkdir(parents=True)
    (folder / "gold").mkdir()
    stems, rows = [], []
    for n in range(documents):
        a, b = rng.sample(ARMED, 2)
        parent = rng.choice(PARENTS)
        place = rng.choice(PLACES)
        text = (
            f"Officials said {a} answers to {parent}. {b} held a meeting in {place} on Monday. "
            f"Reporters in {place} asked about {parent} and {b}."
        )
        stem = f"{n:03d}_doc"
        (folder / "articles" / f"{stem}.txt").write_text(text, encoding="utf-8")
        stems.append(stem)
        rows.append(
            f"required\t{_id(a)}\tmemberOf\t{_id(parent)}\t{n:03d}\t{a} answers to {parent}"
        )
    names = ARMED + PARENTS + PLACES
    entities = [f"{_id(x)}\tEntity\t{x}" for x in names]
    (folder / "gold" / "entities.tsv").write_text("\n".join(entities) + "\n", encoding="utf-8")
    (folder / "gold" / "relations.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "gold" / "docs.txt").write_text("\n".join(stems) + "\n", encoding="utf-8")
    return folder


def _id(name: str) -> str:
    return name.upper().replace(" ", "_").replace("-", "_")


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    """KG_DATA with kg's data and a model trained on the folder above."""
    from kg.train import train

    root = tmp_path_factory.mktemp("taught")
    gold = _gold_folder(root / "gold-set")
    data = root / "data"
    shutil.copytree(ROOT / "ontology", data / "ontology")
    shutil.copytree(ROOT / "queries", data / "queries")
    model, _ = train(
        [str(gold)], data / "ontology" / learned.FILE, min_facts=5, log=lambda *_: None
    )
    return data, model, gold


def _assertions(text: str, data: Path, monkeypatch, mode: str = "on"):
    from kg import resources
    from kg.extract import nlp
    from kg.extract.pipeline import extract
    from kg.records import Document

    monkeypatch.setenv("KG_DATA", str(data))
    monkeypatch.setenv(learned.SWITCH, mode)
    resources.data_dir.cache_clear()
    learned.load.cache_clear()
    try:
        doc = next(nlp.parse([text]))
        found = extract(doc, Document(id="t", text=text, name="t")).assertions
    finally:
        resources.data_dir.cache_clear()
        learned.load.cache_clear()
    return {(a.subject, a.predicate, a.object, a.rule) for a in found}, found


def test_a_model_trained_on_a_small_gold_folder_finds_what_it_was_taught(taught, monkeypatch):
    data, model, _ = taught
    assert model.provenance["examples"]["memberOf"] >= 20
    assert model.add["memberOf"] <= 1.0  # it learned to add the relation
    text = "Officials said Boko Haram answers to Islamic State."
    facts, found = _assertions(text, data, monkeypatch)
    assert ("boko-haram", "memberOf", "islamic-state", "model") in facts
    fact = next(a for a in found if a.predicate == "memberOf")
    assert 0.5 <= fact.confidence <= 1.0
    # the rules alone do not read the construction, and the model does not invent its opposite
    rules_only, _ = _assertions(text, data, monkeypatch, mode="off")
    assert not any(p == "memberOf" for _, p, _, _ in rules_only)
    assert not any(s == "islamic-state" and p == "memberOf" for s, p, _, _ in facts)


def test_a_sentence_without_the_construction_gets_no_taught_fact(taught, monkeypatch):
    data, _, _ = taught
    facts, _ = _assertions(
        "Boko Haram held a meeting in Doha, and reporters asked about Islamic State.",
        data,
        monkeypatch,
    )
    assert not any(p == "memberOf" for _, p, _, _ in facts)


def test_training_twice_gives_the_same_model(taught, tmp_path):
    from kg.train import train

    data, first, gold = taught
    again, path = train([str(gold)], tmp_path / "again.json.gz", min_facts=5, log=lambda *_: None)
    assert again.to_json() == first.to_json()
    assert path.read_bytes() == (data / "ontology" / learned.FILE).read_bytes()


def test_the_model_alone_keeps_no_rule_fact(taught, monkeypatch):
    data, _, _ = taught
    text = (
        "Hezbollah fighters captured the town of Arsal. Officials said Hamas answers to al-Qaeda."
    )
    facts, _ = _assertions(text, data, monkeypatch, mode="only")
    assert facts and all(rule == "model" for *_, rule in facts)
    both, _ = _assertions(text, data, monkeypatch)
    assert any(p == "captured" and rule != "model" for _, p, _, rule in both)


def test_the_model_alone_reads_a_relation_it_adds_nothing_to_beside_the_rules():
    """An add threshold says what the model adds to the rules; alone it states a relation it
    judges from 0.5 (as training measures it alone), one it never judged not at all."""
    from dataclasses import replace

    from kg.extract.learned.combine import ALONE, adding

    model = learned.read(ROOT / "ontology" / learned.FILE)
    shy = replace(model, add={**model.add, "locatedIn": 1.1, "attacked": 0.35})
    assert adding(shy, "locatedIn", only=False) == 1.1 and adding(shy, "locatedIn", only=True) == ALONE
    assert adding(shy, "attacked", only=True) == 0.35 == adding(shy, "attacked", only=False)
    unjudged = next(r for r in model.classes[1:] if r not in model.judged)
    assert adding(shy, unjudged, only=True) == model.add.get(unjudged, 1.1) > 1.0


def test_the_shipped_model_loads_with_its_provenance():
    path = ROOT / "ontology" / learned.FILE
    model = learned.read(path)
    assert model.classes[0] == learned.NONE and len(model.classes) >= 10
    provenance = model.provenance
    assert provenance["seed"] == 13 and provenance["files"]
    assert all(len(sha) == 64 for sha in provenance["files"].values())
    assert any("annotations/" in name for name in provenance["files"])
    assert path.stat().st_size < 5_000_000


def test_a_feature_counts_once_as_the_learner_saw_it():
    """The learner reads a feature as there or not; a rule firing twice on a pair, or two names
    between the two, must not weigh twice when the model judges."""
    model = learned.read(ROOT / "ontology" / learned.FILE)
    once = ["T:Person>Organization", "R:memberOf", "R:memberOf:member-title", "BW:<Person>", "TOP:member"]
    twice = once + ["R:memberOf", "R:memberOf:member-title", "BW:<Person>"]
    assert model.probabilities_of([twice]) == model.probabilities_of([once])
    assert model.probabilities_of([once])[0]["memberOf"] != model.probabilities_of([once[:1]])[0]["memberOf"]


def test_the_sets_kept_for_checking_are_not_in_the_shipped_models_training():
    checks = [line.strip() for line in (ROOT / "annotations" / "CHECKS").read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    assert checks and all((ROOT / "annotations" / name / "gold" / "relations.tsv").is_file() for name in checks)
    trained = learned.read(ROOT / "ontology" / learned.FILE).provenance["files"]
    assert not [name for name in trained for check in checks if name.startswith(f"annotations/{check}/")]


def test_a_model_that_cannot_be_written_is_one_error_naming_it_and_leaves_the_old_file(tmp_path):
    """`kg train -o FILE`: a full disk under the model was an OSError (exit 70), and a model cut
    short by it a file kg would fail to read at every start."""
    from kg.errors import OutputError

    model = learned.read(ROOT / "ontology" / learned.FILE)
    full = tmp_path / "full.json.gz"
    full.symlink_to("/dev/full")
    with pytest.raises(OutputError) as caught:
        model.save(full)
    assert str(caught.value) == f"cannot write {full}: no space left on device"
    path = tmp_path / learned.FILE
    path.write_bytes(b"the model of yesterday")
    (tmp_path / "sub").mkdir()
    with pytest.raises(OutputError):
        model.save(tmp_path / "sub")
    model.save(path)
    assert learned.read(path).to_json() == model.to_json()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["full.json.gz", learned.FILE, "sub"])


@pytest.mark.parametrize(
    "content",
    [
        b"not gzip",
        gzip.compress(b"{}"),
        gzip.compress(b"[1, 2]"),
        gzip.compress(json.dumps({"format": 1, "classes": ["none"]}).encode()),
    ],
)
def test_a_broken_model_file_is_an_error_naming_it(tmp_path, content):
    path = tmp_path / learned.FILE
    path.write_bytes(content)
    with pytest.raises(DataError, match=str(path)):
        learned.read(path)


def test_a_model_of_an_older_format_says_to_retrain_it(tmp_path):
    path = tmp_path / learned.FILE
    path.write_bytes(gzip.compress(json.dumps({"format": 1, "classes": ["none"]}).encode()))
    with pytest.raises(DataError) as raised:
        learned.read(path)
    assert "format 1, expected 2" in str(raised.value) and "kg train" in str(raised.value)


def test_the_model_adds_no_fact_to_a_pair_the_rules_read_nor_an_event_out_of_its_trigger_s_frame():
    assert not may_add("memberOf", ["T:Person>Organization", "R:leaderOf"])
    assert not may_add("memberOf", ["T:Person>Organization", "RR:attacked"])
    assert may_add("locatedIn", ["T:Settlement>Country", "PD:appos^"])
    # beside the rules, an event's relation needs its trigger word on the path and the two in its
    # frame: the one acting its subject (possessor, by-agent...), the one acted on its object
    frame = ["SA:nsubj", "OA:pobj-against"]
    assert may_add("attacked", ["T:ArmedGroup>ArmedGroup", "TC:lex:attacked", *frame])
    assert may_add("attacked", ["T:ArmedGroup>ArmedGroup", "PC:pv:attacked", "SA:poss", "OA:pobj-on"])
    assert not may_add("attacked", ["T:ArmedGroup>ArmedGroup", "BC:lex:attacked", *frame])
    assert not may_add("attacked", ["T:Country>ArmedGroup", "TC:lex:attacked", "SA:pobj-in", "OA:pobj-against"])
    assert not may_add("attacked", ["T:ArmedGroup>ArmedGroup", "TC:lex:attacked", "SA:far-nsubj", "OA:dobj"])
    assert not may_add("attacked", ["T:Country>ArmedGroup", "PC:lex:attacked", "@OWN", *frame])  # in ITS fight
    assert not may_add("attacked", ["T:Country>ArmedGroup", "PC:lex:attacked", "@CLAUSE", *frame])  # said that
    assert not may_add("attacked", ["T:ArmedGroup>ArmedGroup", "TOP:meet", *frame])
    # read alone, a word of the event's trigger classes on the path or between the two is enough
    assert not may_add("attacked", ["T:ArmedGroup>Settlement", "TOP:meet"], beside_rules=False)
    assert may_add("attacked", ["T:ArmedGroup>Settlement", "TC:lex:attacked"], beside_rules=False)
    assert may_add("attacked", ["T:ArmedGroup>Settlement", "BC:lex:attacked"], beside_rules=False)
    assert may_add("memberOf", ["T:Person>Organization", "R:leaderOf"], beside_rules=False)
    # a leader needs a word that says so on the path ("led by", "commander"), the pair its own
    assert may_add("leaderOf", ["T:Person>ArmedGroup", "PC:lex:leaderOf", "SA:agent", "OA:far-appos"])
    assert not may_add("leaderOf", ["T:Person>ArmedGroup", "TOP:join"])
    assert not may_add("leaderOf", ["T:Person>ArmedGroup", "PC:lex:leaderOf", "@OWN"])  # another's own leader
    assert not may_add("leaderOf", ["T:Person>ArmedGroup", "TC:lex:leaderOf", "@CLAUSE"])
    assert not may_add("leaderOf", ["T:Person>Country", "PC:lex:leaderOf", "SA:agent", "OA:pobj-in"])  # fighters in Y led by X
    # a place is not in what it is on or near ("Aden on the Arabian Sea", "a village near Kidal")
    assert may_add("locatedIn", ["T:Settlement>Country", "SA:nsubj", "OA:pobj-in"])
    assert not may_add("locatedIn", ["T:Settlement>Location", "SA:pobj-to", "OA:pobj-on"])
    assert not may_add("locatedIn", ["T:Settlement>Region", "SA:pobj-near", "OA:pobj-in"])


def test_the_gates_name_relations_of_the_ontology():
    from kg import ontology
    from kg.extract.learned.combine import REFUSED, TRIGGERED

    assert set(REFUSED) | TRIGGERED <= set(ontology.relations())  # a renamed relation would open its gate


def test_the_model_gives_a_leader_what_he_leads_not_the_place_it_is_in(extraction):
    text = ("The conflict pits the Chadian army, led by General Mahamat Deby, against the Front for Change "
            "and Concord in Chad, led by Mahamat Mahdi Ali, who also leads the broader Union of Resistance Forces. "
            "The Ansar Allah movement, a group of Zaydi fighters in Yemen led by Abdul Malik al-Houthi, took Sanaa.")
    facts = {(a.subject, a.predicate, a.object): a.rule for a in extraction(text).assertions}
    led = {(s, o) for s, p, o in facts if p == "leaderOf"}
    assert ("mahamat-deby", "chad-armed-forces") in led
    assert not {o for _, o in led} & {"chad", "yemen"}  # the model read both, from "X in Chad, led by Y"


def test_the_shipped_model_adds_an_attack_no_rule_reads_and_none_to_the_attack_s_place(extraction):
    text = (
        "Chadian troops worked on Sunday to confront Boko Haram fighters on the islands of Lake Chad. "
        "An airstrike in Yemen against AQAP killed three people. "
        "Malian soldiers did not work to confront Ansar Dine fighters in the town. "
        "Kenya backed the Somali army in its campaign against al-Shabaab."
    )
    facts = {(a.subject, a.predicate, a.object): a.rule for a in extraction(text).assertions}
    assert facts.get(("chad-armed-forces", "attacked", "boko-haram")) == "model"  # no rule reads it
    assert {(s, o) for s, p, o in facts if p == "attacked"} == {
        ("chad-armed-forces", "boko-haram"), ("somalia-armed-forces", "al-shabaab")}  # not Kenya: the campaign is the army's


def test_the_model_makes_no_member_or_leader_of_a_side_a_modifier_names(extraction):
    facts = {(a.subject, a.predicate, a.object) for a in extraction(
        "Ali Musa, the leader of the IS-affiliated Abu Sayyaf group, was killed on Monday.").assertions}
    assert ("ali-musa", "leaderOf", "abusayaf-group") in facts
    assert not any(s == "ali-musa" and o == "islamic-state" for s, _, o in facts), facts


def test_a_pair_s_features_say_how_each_hangs_on_the_path():
    from kg.extract.learned.candidates import candidates
    from kg.extract.learned.features import features, trigger_classes

    doc, mentions, extractor = _parsed("Hamas attacked Fatah in Gaza. An airstrike in Yemen against AQAP killed three people.")
    classes = trigger_classes(extractor.lexicon)
    at = {i: m for m in mentions for i in range(m.start, m.end)}
    read = {
        (c.subject.text, c.object.text): {f for f in features(doc, c, classes, {}, at)[0] if f[:3] in ("SA:", "OA:")}
        for c in candidates(doc, mentions)
    }
    assert read[("Hamas", "Fatah")] == {"SA:nsubj", "OA:dobj"}
    assert read[("Yemen", "AQAP")] == {"SA:pobj-in", "OA:pobj-against"}


def test_agreement_of_two_annotations_is_pair_f1(tmp_path):
    from kg.train.agree import agreement

    a = _gold_folder(tmp_path / "a", documents=4)
    b = _gold_folder(tmp_path / "b", documents=4)
    relations = b / "gold" / "relations.tsv"
    rows = relations.read_text(encoding="utf-8").splitlines()
    relations.write_text("\n".join(rows[:2]) + "\n", encoding="utf-8")  # B found two of A's four
    result = agreement([(a, b)])
    assert (result["rows_a"], result["rows_b"], result["a_in_b"], result["b_in_a"]) == (4, 2, 2, 2)
    assert result["pair_f1"] == pytest.approx(2 * 0.5 * 1.0 / 1.5, abs=1e-3)


# ---------------------------------------------------------------- the candidates the model reads


def _parsed(text: str):
    from kg.extract import nlp
    from kg.extract.pipeline import read_mentions
    from kg.extract.relations import Extractor

    extractor = Extractor(model=False)
    doc = next(nlp.parse([text]))
    return doc, [m for m in read_mentions(doc, extractor) if m.kind != "appositive"], extractor


@pytest.mark.parametrize(
    "text, first_pair, second_pair",
    [
        ("Hezbollah and Hamas condemned Israel on Sunday.", ("hezbollah", "israel"), ("hamas", "israel")),
        (
            "Police arrested two Greenpeace members, Anna Berg and Ola Lind, in Oslo on Monday.",
            ("ana-berg", "grenpeace"),
            ("ola-lind", "grenpeace"),
        ),
    ],
)
def test_every_conjunct_is_a_candidate_read_as_the_first_conjunct(text, first_pair, second_pair):
    from kg.extract.learned.candidates import candidates
    from kg.extract.learned.features import features, trigger_classes

    doc, mentions, extractor = _parsed(text)
    pairs = {c.keys: c for c in candidates(doc, mentions)}
    assert first_pair in pairs and second_pair in pairs
    classes = trigger_classes(extractor.lexicon)
    at = {i: m for m in mentions for i in range(m.start, m.end)}
    first, _ = features(doc, pairs[first_pair], classes, {}, at)
    second, _ = features(doc, pairs[second_pair], classes, {}, at)
    # the path through the first conjunct, and the words around it: not "members Anna Berg and"
    # between Ola Lind and Greenpeace, which the model read as another construction (0.26-0.51
    # where the first conjunct had 0.75)
    assert set(second) == set(first) | {"CONJ"}
    # no feature names an entity: the model learns constructions, not actors
    names = {k.split("-")[0] for k in first_pair + second_pair}
    assert not any(n in f.lower() for f in first + second for n in names)


@pytest.mark.parametrize(
    "relative, main, pair",
    [
        ("Kismayo, which al-Shabaab seized in 2008, lies on the coast.", "Al-Shabaab seized Kismayo in 2008.",
         ("al-shabaab", "kismayo")),
        ("The Houthis, who captured Sanaa in 2014, rule the north.", "The Houthis captured Sanaa in 2014.",
         ("houthis", "sanaa")),
        ("Kismayo, seized by al-Shabaab in 2008, lies on the coast.", "Kismayo was seized by al-Shabaab in 2008.",
         ("al-shabaab", "kismayo")),
        ("After seizing Goma, the M23 rebels marched on Bukavu.", "The M23 rebels seized Goma.", ("m23", "goma")),
        ("The Houthis attacked and captured Sanaa.", "The Houthis captured Sanaa.", ("houthis", "sanaa")),
        ("Hamas vowed to capture Ashkelon.", "Hamas captured Ashkelon.", ("hamas", "ashkelon-il")),
    ],
)
def test_a_clause_that_leaves_a_name_unsaid_reads_its_path_as_the_clause_it_restates(relative, main, pair):
    from kg.extract.learned.candidates import candidates
    from kg.extract.learned.features import features, trigger_classes

    def read(text):
        doc, mentions, extractor = _parsed(text)
        pairs = {c.keys: c for c in candidates(doc, mentions)}
        at = {i: m for m in mentions for i in range(m.start, m.end)}
        names, _ = features(doc, pairs[pair], trigger_classes(extractor.lexicon), {}, at)
        return {f for f in names if f.startswith(("PD:", "TOP:", "TOPD:", "P:", "SA:", "OA:"))}

    # the antecedent stands where its pronoun stands (the clause's subject or object), as the
    # passive subject of the participle that modifies it, or as the subject of a verb that takes
    # it from another (a second verb, a verb after "vow to", a gerund after "after")
    assert read(relative) == read(main)


def test_a_later_conjunct_in_a_list_of_members_reads_as_the_first(extraction):
    facts = extraction("Police arrested two Greenpeace members, Anna Berg and Ola Lind, in Oslo on Monday.").assertions
    held = {(a.subject, a.object): a.confidence for a in facts if a.predicate == "memberOf"}
    first, second = held[("ana-berg", "grenpeace")], held[("ola-lind", "grenpeace")]
    assert set(held) == {("ana-berg", "grenpeace"), ("ola-lind", "grenpeace")}
    assert abs(first - second) < 0.1  # the model's confidence, each conjunct's read alike


def test_a_pair_no_relation_fits_is_no_candidate():
    from kg.extract.learned.candidates import candidates

    doc, mentions, _ = _parsed("Beirut and Damascus are two hours apart.")
    assert all(
        {c.subject.type, c.object.type} <= {"Settlement", "Country", "Region"}
        for c in candidates(doc, mentions)
    )
    doc, mentions, _ = _parsed("John Kerry met Sergei Lavrov in Geneva.")
    pairs = {(c.subject.text, c.object.text) for c in candidates(doc, mentions)}
    assert ("John Kerry", "Sergei Lavrov") in pairs and ("Sergei Lavrov", "John Kerry") in pairs
    assert ("Geneva", "John Kerry") not in pairs  # no relation takes a place to a person


def test_reference_marks_never_reach_a_name(extraction):
    result = extraction(
        "Tamil Tigers seized Kilinochchi,[60] a town in Sri Lanka.[17] The army of Sri Lanka[3][5] "
        "later retook Mullaitivu[12]."
    )
    labels = {e.label for e in result.entities}
    assert {"Kilinochchi", "Sri Lanka", "Mullaitivu"} <= labels
    assert not any(
        "[" in label or "]" in label for e in result.entities for label in (e.label, *e.aliases)
    )


@pytest.mark.parametrize(
    "text, name, place",
    [
        ("Soldiers were flown to Camp Lemonnier in Djibouti.", "Camp Lemonnier", "djibouti"),
        (
            "Rockets struck Kandahar Airport, Afghanistan, on Monday.",
            "Kandahar Airport",
            "afghanistan",
        ),
    ],
)
def test_a_facility_is_a_place_of_its_own_class(extraction, text, name, place):
    result = extraction(text)
    facility = next(e for e in result.entities if e.label == name)
    assert facility.type == "Facility"
    assert (facility.key, "locatedIn", place) in {
        (a.subject, a.predicate, a.object) for a in result.assertions
    }


def test_training_on_what_cannot_teach_is_one_line_naming_the_input(tmp_path):
    from click.testing import CliRunner

    from kg.cli import cli

    not_conll = tmp_path / "sentences.json"
    not_conll.write_text('{"tokens": 1}', encoding="utf-8")
    empty = tmp_path / "empty"
    (empty / "gold").mkdir(parents=True)
    (empty / "gold" / "entities.tsv").write_text("X\tPerson\tX\n", encoding="utf-8")
    (empty / "gold" / "relations.tsv").write_text(
        "required\tX\tleaderOf\tX\t000\tx\n", encoding="utf-8"
    )
    unlabelled = _gold_folder(tmp_path / "unlabelled", documents=2)
    (unlabelled / "gold" / "relations.tsv").write_text("", encoding="utf-8")
    for path, message in (
        (not_conll, "not a CoNLL04 JSON file"),
        (empty, "docs.txt: no articles listed"),
        (unlabelled, "0 facts among"),
    ):
        result = CliRunner().invoke(cli, ["train", str(path), "-o", str(tmp_path / "m.json.gz")])
        assert result.exit_code == UsageError.exit_code == 2 and result.stderr.startswith("Error: ")
        assert str(path) in result.stderr and message in result.stderr
    assert not (tmp_path / "m.json.gz").exists()


# ------------------------------------------------------- what a partly annotated source teaches


def _conll04(folder: Path, tokens: list[str], entities: list[tuple[str, int, int]], relations: list[tuple[str, int, int]]):
    """One sentence of our own in CoNLL04's SpERT form, read as kg's training reads it."""
    from kg.train import data

    sentence = {
        "tokens": tokens,
        "entities": [{"type": t, "start": s, "end": e} for t, s, e in entities],
        "relations": [{"type": t, "head": h, "tail": d} for t, h, d in relations],
    }
    path = folder / "conll04.json"
    path.write_text(json.dumps([sentence]), encoding="utf-8")
    return data.conll04(path)


def test_a_conll04_pair_of_classes_it_never_relates_is_left_out_not_taught_as_none(tmp_path):
    """CoNLL04 relates a person to an organization, never a country to one: "Norway joined the
    alliance" there is unannotated, not a non-fact (kg's memberOf takes a state in an alliance)."""
    from kg.train import examples

    documents = _conll04(
        tmp_path,
        ["Anna", "Berg", "of", "Acme", "Corp.", "said", "Norway", "joined", "NATO", "in", "1949", "."],
        [("Peop", 0, 2), ("Org", 3, 5), ("Loc", 6, 7), ("Org", 8, 9)],
        [("Work_For", 0, 1)],
    )
    labelled = {(e.types, e.label) for e in examples.examples(documents)}
    assert (("Person", "Organization"), "memberOf") in labelled
    assert not any(types[0] == "Country" for types, _ in labelled), labelled


def test_a_re3d_relation_the_mapping_does_not_score_is_left_out_not_taught_as_none(tmp_path):
    """re3d's CoLocated of an organization and a town is kg's basedIn, which kg's re3d mapping does
    not score: the pair is neither taught as basedIn nor as a non-fact."""
    from kg.train import data

    text = "The Acme Group, based in Mosul, fought Daesh."
    folder = tmp_path / "re3d-mine"
    folder.mkdir()
    span = {n: (text.index(n), text.index(n) + len(n)) for n in ("Acme Group", "Mosul", "Daesh")}
    kinds = {"Acme Group": "Organisation", "Mosul": "Location", "Daesh": "Organisation"}

    def rows(items):
        return "\n".join(json.dumps(x) for x in items) + "\n"

    (folder / "documents.json").write_text(rows([{"_id": "d1", "text": text}]), encoding="utf-8")
    (folder / "entities.json").write_text(
        rows({"documentId": "d1", "begin": b, "end": e, "type": kinds[n]} for n, (b, e) in span.items()),
        encoding="utf-8",
    )

    def relation(kind, a, b):
        return {"documentId": "d1", "type": kind, "sourceBegin": span[a][0], "sourceEnd": span[a][1],
                "targetBegin": span[b][0], "targetEnd": span[b][1], "confidence": 0.9}

    (folder / "relations.json").write_text(
        rows([relation("CoLocated", "Acme Group", "Mosul"), relation("FightingAgainst", "Acme Group", "Daesh")]),
        encoding="utf-8",
    )
    (labelled,) = data.re3d_source(folder)
    by_status = {(lab.predicates, lab.status) for lab in labelled.labels}
    assert (("locatedIn",), "optional") in by_status
    assert (("attacked",), "required") in by_status


def test_the_model_judges_a_rule_only_between_classes_it_saw_the_rule_fire_on():
    """A rule seen often between a person and an organization is not thereby known between a country
    and an alliance: the model vetoes only where the training data held both."""
    from kg.extract.learned.candidates import judged_key
    from kg.train.examples import Example
    from kg.train.fit import MIN_RULE, MIN_RULE_FAMILY, _judged_rules

    def fired(types, n):
        return [Example(f"d{i}", "s", ["R:memberOf:member-join"], "memberOf", frozenset({"memberOf"}), types)
                for i in range(n)]

    judged = _judged_rules(fired(("Person", "ArmedGroup"), MIN_RULE) + fired(("Country", "Organization"), 1))
    assert judged_key("memberOf", "member-join", "Person", "InternationalOrganization") in judged
    assert judged_key("memberOf", "member-join", "Country", "InternationalOrganization") not in judged
    # seen between the families, but too seldom in all to judge at all
    assert not _judged_rules(fired(("Person", "ArmedGroup"), MIN_RULE_FAMILY))


def test_a_symmetric_fact_the_rules_wrote_one_way_round_counts_for_both_orders_out_of_fold():
    """"A allied with B": the annotation labels both orders of the pair, the rules write the fact
    once, and kg keys it either way round; the out-of-fold counts the thresholds are chosen on
    credit the rules with both orders, for a symmetric relation only."""
    import numpy as np

    from kg.extract.learned.model import NONE
    from kg.train.examples import Example
    from kg.train.fit import _counts

    def pair(relation):
        return [Example("d", "s", [f"R:{relation}:rule"], relation, frozenset({relation}), ("Country", "Country")),
                Example("d", "s", [f"RR:{relation}"], relation, frozenset(), ("Country", "Country"))]

    classes = [NONE, "allyOf", "attacked"]
    found = {}
    for relation in ("allyOf", "attacked"):
        examples = pair(relation)
        found[relation] = _counts(examples, np.zeros((2, 3)), classes, relation, 0.0, 1.1, use_model=False)
    assert found["allyOf"] == (2, 0, 0)  # true positives, false positives, misses
    assert found["attacked"] == (1, 0, 1)  # B attacked A is another fact


def test_the_shipped_model_keeps_a_state_joining_an_alliance(extraction):
    result = extraction("Sweden and Finland joined NATO after the invasion.")
    facts = {(a.subject, a.predicate, a.object) for a in result.assertions}
    assert {("sweden", "memberOf", "nato"), ("finland", "memberOf", "nato")} <= facts, facts


def test_conll04_s_dateline_agency_is_taught_as_no_seat(tmp_path):
    """CoNLL04 writes OrgBased_In for "DAYTON , Ohio ( AP )"; kg's guidelines do not (the story
    was filed there): the pair is taught as none, not as basedIn."""
    (document,) = _conll04(
        tmp_path,
        ["DAYTON", ",", "Ohio", "(", "AP", ")", "_", "A", "fire", "destroyed", "a", "barn", "."],
        [("Loc", 0, 1), ("Loc", 2, 3), ("Org", 4, 5)],
        [("OrgBased_In", 2, 0), ("Located_In", 0, 1)],
    )
    assert [label.predicates for label in document.labels] == [("locatedIn",)]


def test_a_threshold_is_the_lowest_near_the_best_of_a_flat_curve():
    """memberOf's additions from 0.60 and from 0.65 scored 0.5756 and 0.5757 out of fold: the
    higher won by a ten-thousandth, a judgement, and took a right fact from a check part. Vetoes
    and additions alike keep the lowest threshold within their tolerance of the best; one that
    scores clearly higher is still chosen, and none that passes leaves the default."""
    from kg.train.fit import ADD_TOLERANCE, lowest_near_best

    assert lowest_near_best([(0.6, 0.5756), (0.65, 0.5757), (0.7, 0.5653)], ADD_TOLERANCE, 1.1) == 0.6
    assert lowest_near_best([(0.3, 0.61), (0.35, 0.62), (0.4, 0.6195)], ADD_TOLERANCE, 1.1) == 0.35
    assert lowest_near_best([], ADD_TOLERANCE, 1.1) == 1.1
