"""Camps from the signed graph (kg.graph.analysis.signed_camps): cooperation joins, hostility parts,
the facts that go against the camps are named, and centrality is ranked over each kind of tie."""

from __future__ import annotations

import json
import random
import shutil

import networkx as nx
import pytest
from click.testing import CliRunner
from conftest import ROOT

from kg.cli import cli
from kg.graph.analysis import Contradiction, analyze, signed_camps

# the relations of kg.ttl, as they are signed there
ALLY, MEMBER, ATTACKED, CEASEFIRE = "allyOf", "memberOf", "attacked", "ceasefireWith"
SYMMETRIC = {ALLY, CEASEFIRE}


def signed_graph(facts, order: int | None = None) -> nx.MultiDiGraph:
    """An entity graph as kg.to_networkx makes it, from (source, relation, target[, documents]);
    ``order`` shuffles the order nodes and facts are added in."""
    facts = [(*f, 1) if len(f) == 3 else f for f in facts]
    if order is not None:
        facts = random.Random(order).sample(facts, len(facts))
    graph = nx.MultiDiGraph()
    for s, p, o, documents in facts:
        for node in (s, o):
            graph.add_node(node, label=node, type="ArmedGroup", aliases="")
        graph.add_edge(s, o, key=p, predicate=p, documents=documents, symmetric=p in SYMMETRIC)
    return graph


def as_sets(camps) -> set[frozenset[str]]:
    return {frozenset(c) for c in camps}


def test_the_ontology_signs_alliance_and_attack_and_leaves_ceasefire_out():
    from kg.ontology import signs

    got = signs()
    assert got[ALLY] == got[MEMBER] == got["leaderOf"] == got["institutionOf"] == 1
    assert got[ATTACKED] == got["captured"] == -1
    assert CEASEFIRE not in got and "locatedIn" not in got, "agreed between enemies: neither joins nor parts"


def test_a_balanced_graph_is_split_exactly_into_its_sides():
    # two blocs allied inside, attacking each other, and a group that only fights
    graph = signed_graph([("a1", ALLY, "a2"), ("a2", ALLY, "a3"), ("a3", MEMBER, "a1"),
                          ("b1", ALLY, "b2"), ("b2", MEMBER, "b3"),
                          ("a1", ATTACKED, "b1"), ("b2", ATTACKED, "a3"), ("a2", ATTACKED, "b3", 3),
                          ("loner", ATTACKED, "a1"), ("b3", ATTACKED, "loner")])
    assert as_sets(signed_camps(graph)) == {frozenset({"a1", "a2", "a3"}), frozenset({"b1", "b2", "b3"}),
                                            frozenset({"loner"})}
    result = analyze(graph)
    assert result.camps == [["a1", "a2", "a3"], ["b1", "b2", "b3"], ["loner"]], "biggest, then most embattled"
    assert result.contradictions == []
    assert (result.cooperation, result.hostility) == ([ALLY, MEMBER], [ATTACKED])


def test_an_unbalanced_graph_names_the_facts_that_go_against_its_camps():
    # a triangle no partition satisfies: a and b allied, b and c allied, yet a attacked c (twice)
    graph = signed_graph([("a", ALLY, "b", 2), ("b", ALLY, "c", 1), ("a", ATTACKED, "c", 2), ("d", ATTACKED, "a")])
    result = analyze(graph)
    assert result.camps == [["a", "b"], ["c"], ["d"]], "the weakest fact, one document of alliance, is given up"
    assert result.contradictions == [Contradiction("b", ALLY, "c", 1, (1, 2), 1)]
    # the fact inside a camp that a stronger alliance holds: hostile, and named with its camp
    graph = signed_graph([("a", ALLY, "b", 3), ("a", ATTACKED, "b", 1), ("c", ATTACKED, "a")])
    result = analyze(graph)
    assert result.camps == [["a", "b"], ["c"]]
    assert result.contradictions == [Contradiction("a", ATTACKED, "b", -1, (1, 1), 1)]


def test_a_chance_alliance_across_does_not_merge_two_sides_at_war():
    # one entity at a time, neither side can leave a camp of both: each member has more allies in it
    sides = [[f"{side}{i}" for i in range(4)] for side in "ab"]
    facts = [(s, ALLY, o) for side in sides for i, s in enumerate(side) for o in side[i + 1:]]
    facts += [("a0", ALLY, "b0"), ("a1", ATTACKED, "b1"), ("b2", ATTACKED, "a2")]
    result = analyze(signed_graph(facts))
    assert result.camps == [["a0", "a1", "a2", "a3"], ["b0", "b1", "b2", "b3"]]
    assert result.contradictions == [Contradiction("a0", ALLY, "b0", 1, (1, 2), 1)]


def test_a_group_that_only_fights_stands_alone_and_unrelated_groups_are_not_joined():
    graph = signed_graph([("isis", ATTACKED, "army1"), ("army1", ATTACKED, "isis"), ("army2", ATTACKED, "isis"),
                          ("army1", ALLY, "militia"), ("rebels", ALLY, "backer")])
    assert as_sets(signed_camps(graph)) == {frozenset({"army1", "militia"}), frozenset({"rebels", "backer"}),
                                            frozenset({"army2"}), frozenset({"isis"})}


def test_a_symmetric_relation_is_followed_both_ways():
    # an alliance is stored once, in one direction: both allies rank alike, and join either way round
    one_way = analyze(signed_graph([("a", ALLY, "b"), ("c", ALLY, "a"), ("c", ATTACKED, "d")]))
    scores = {iri: score for iri, _, _, score in one_way.pagerank_cooperation}
    assert scores["b"] == pytest.approx(scores["c"]) and scores["a"] > scores["b"]
    assert one_way.camps[0] == ["a", "b", "c"]
    # a hostile relation that is symmetric (here: ceasefire signed -1) counts for both as given and as received
    signs = {ALLY: 1, ATTACKED: -1, CEASEFIRE: -1}
    result = analyze(signed_graph([("x", CEASEFIRE, "y", 2), ("x", ATTACKED, "z")]), signs=signs)
    assert {label: score for _, label, _, score in result.most_hostile} == {"x": 3, "y": 2}
    assert {label: score for _, label, _, score in result.most_targeted} == {"x": 2, "y": 2, "z": 1}
    # a directed one does not: the attacked does not attack back
    assert [label for _, label, *_ in one_way.most_hostile] == ["c"]
    assert [label for _, label, *_ in one_way.most_targeted] == ["d"]


def test_the_camps_are_the_same_whatever_order_the_graph_was_built_in():
    rng = random.Random(7)
    sides = {f"g{i}": i % 3 for i in range(30)}
    facts = []
    for _ in range(90):
        s, o = rng.sample(sorted(sides), 2)
        same = sides[s] == sides[o]
        if rng.random() < 0.1:  # noise: the odd fact against the sides
            same = not same
        facts.append((s, ALLY if same else ATTACKED, o, rng.randint(1, 3)))
    facts = list({(s, p, o): (s, p, o, d) for s, p, o, d in facts}.values())
    first = analyze(signed_graph(facts))
    for order in range(3):
        again = analyze(signed_graph(facts, order=order))
        assert (again.camps, again.contradictions) == (first.camps, first.contradictions)
    cost = sum(c.documents for c in first.contradictions)
    truth = [{n for n, side in sides.items() if side == k} for k in range(3)]
    from kg.graph.analysis import contradictions

    assert cost <= sum(d for *_, d in contradictions(signed_graph(facts), truth)), "no worse than the true sides"


def test_no_signed_fact_means_no_camp():
    result = analyze(signed_graph([("a", "locatedIn", "b")]))
    assert (result.camps, result.contradictions, result.pagerank_cooperation, result.most_hostile) == ([], [], [], [])


def test_a_sign_is_one_or_minus_one(tmp_path, monkeypatch):
    from kg import ontology, resources
    from kg.errors import DataError

    shutil.copytree(ROOT / "ontology", tmp_path / "ontology")
    ttl = tmp_path / "ontology" / "kg.ttl"
    ttl.write_text(ttl.read_text(encoding="utf-8").replace("kg:sign -1", "kg:sign 2", 1), encoding="utf-8")
    monkeypatch.setenv("KG_DATA", str(tmp_path))
    resources.data_dir.cache_clear()
    ontology.load.cache_clear()
    try:
        with pytest.raises(DataError, match=r"kg:captured has kg:sign 2: a sign is 1 or -1"):
            ontology.load()
    finally:
        monkeypatch.delenv("KG_DATA")
        resources.data_dir.cache_clear()
        ontology.load.cache_clear()


def test_the_examples_put_islamic_state_apart_from_the_armies_that_attacked_it(example_store):
    import kg

    graph = kg.to_networkx(store=example_store)
    label = {n: d["label"] for n, d in graph.nodes(data=True)}
    attackers = {label[s] for s, o, d in graph.edges(data=True)
                 if d["predicate"] == ATTACKED and label[o] == "Islamic State"}
    assert {"Syrian army", "Lebanese army"} <= attackers

    result = CliRunner().invoke(cli, ["analyze", "--store", str(example_store), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (camp,) = [c for c in data["camps"] if "Islamic State" in c]
    assert not attackers & set(camp), camp
    assert ["Bashar al-Assad", "Hezbollah", "Syria", "Syrian army"] in data["camps"]
    assert data["contradictions"] == [], "the examples' signed facts are balanced"
    assert data["cooperation"] == ["allyOf", "institutionOf", "leaderOf", "peopleOf"]
    assert ["Lebanese army", "Lebanese government", "Lebanese soldiers", "Lebanon"] in data["camps"], \
        "soldiers a nationality names are of its country's side"
    assert data["hostility"] == ["attacked", "captured"]
    assert data["most_targeted"][0][1] == "Islamic State"

    table = CliRunner().invoke(cli, ["analyze", "--store", str(example_store)])
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    start = lines.index("camps (cooperation joins, hostility parts): 5")
    assert lines[start + 1:start + 6] == ["  1. Bashar al-Assad, Hezbollah, Syria, Syrian army",
                                          "  2. Lebanese army, Lebanese government, Lebanese soldiers, Lebanon",
                                          "  3. Al-Qaeda, Nusra Front",
                                          "  alone (camps 4-5): Islamic State, Arsal",
                                          "facts against the camps: none (the signed graph is balanced)"]
    assert "pagerank (cooperation)" in lines and "most targeted (documents of hostile facts against it)" in lines


def test_the_table_names_the_facts_against_the_camps(example_store, monkeypatch):
    """Were a ceasefire a tie of one side, Islamic State would join the Syrian army it agreed one
    with, and the facts against that partition are listed with their camps."""
    from kg.graph import analysis
    from kg.ontology import signs

    monkeypatch.setattr(analysis, "_signs", lambda: {**signs(), CEASEFIRE: 1})
    result = CliRunner().invoke(cli, ["analyze", "--store", str(example_store)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    start = lines.index("facts against the camps (hostile inside one, cooperative between two): 3")
    assert lines[start - 5:start - 3] == ["camps (cooperation joins, hostility parts): 4",
                                          "  1. Bashar al-Assad, Hezbollah, Islamic State, Syria, Syrian army"]
    assert lines[start + 1:start + 4] == [
        "  Islamic State ceasefireWith Lebanese army (cooperative, between camps 1 and 2; 2 documents)",
        "  Syrian army attacked Islamic State (hostile, inside camp 1; 2 documents)",
        "  Hezbollah attacked Islamic State (hostile, inside camp 1; 1 document)"]


def test_csv_has_every_ranking_and_the_camps(example_store):
    result = CliRunner().invoke(cli, ["analyze", "--store", str(example_store), "--relations", "allyOf,attacked",
                                      "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()
    assert rows[0] == "measure,rank,entity,label,type,score"
    assert "camp,3,,Islamic State,,1" in rows
    assert {r.split(",")[0] for r in rows[1:]} == {"degree", "pagerank_cooperation", "most_hostile", "most_targeted",
                                                   "pagerank", "betweenness", "camp", "community"}


def test_articles_of_another_war_give_its_two_sides(tmp_path):
    """examples/sudan (three short articles of our own on Sudan's war): the army, its allied
    movement and its commander in one camp, the Rapid Support Forces and their leader in another."""
    import kg

    store = tmp_path / "sudan"
    report = kg.build([str(ROOT / "examples" / "sudan")], store=store, n_process=1)
    assert report.added == 3 and not report.problems
    result = CliRunner().invoke(cli, ["analyze", "--store", str(store), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    army = next(c for c in data["camps"] if "Sudanese Armed Forces" in c)
    rsf = next(c for c in data["camps"] if "Rapid Support Forces" in c)
    assert army is not rsf and {"Sudan Liberation Movement", "Abdel Fattah al-Burhan"} <= set(army)
    assert "Mohamed Hamdan Dagalo" in rsf and not set(army) & set(rsf)
    assert data["contradictions"] == []
