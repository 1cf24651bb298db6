"""Event statements from sentences of our own, with the real model: who did it, from every
construction that names them; only real events (no light verbs, aims, abilities, stances,
habits or advocacy); each at its own time. Each class failed before the change it tests."""

from __future__ import annotations

import pytest

from kg.dates import parse_date
from kg.ingest import make_document


@pytest.fixture(scope="module")
def statements():
    from kg.extract.pipeline import extract_all

    def run(text: str, date: str | None = "2021-05-03") -> list[tuple[str, dict[str, set[str]], str | None]]:
        document = make_document(text, name="t", date=parse_date(date) if date else None)
        (result,) = extract_all([document])
        out = []
        for e in result.events:
            roles: dict[str, set[str]] = {}
            for r in e.roles:
                roles.setdefault(r.role.removesuffix("Role"), set()).add(r.entity or r.description)
            out.append((e.type, roles, e.time.date.lexical if e.time and not e.time.from_document else None))
        return out

    return run


@pytest.mark.parametrize("text", [
    "The signing ceremony took place in Mosul on Sunday.",  # a light verb's idiom captures nothing
    "The intention was to destroy the Taliban.",  # an aim
    "Washington took a hard line against Iran.",  # a stance
    "President Saleh moved to dissolve the parliament in Sanaa.",  # a move that goes nowhere
    "Islamist insurgents continue to ambush Nigerian army convoys near Maiduguri.",  # a habit
    "Human Rights Watch launched a campaign against Saudi Arabia.",  # advocacy
    "Our abilities to counter the Houthis are limited.",  # an ability
    "Retaking Raqqa would be a major victory for the Syrian Democratic Forces.",  # a hypothetical
])
def test_what_is_not_an_event_is_no_statement(statements, text):
    assert statements(text) == []


def agents_of(found, kind="Attack") -> set[str]:
    return {a for type_, roles, _ in found if type_ == kind for a in roles.get("agent", ())}


@pytest.mark.parametrize("text, agent, place", [
    ("The government blamed the Shining Path for the bombing of a police station in Lima.", "shining-path", "lima-pe"),
    ("Al-Shabaab claimed responsibility for the attack on a hotel in Mogadishu.", "al-shabaab", "mogadishu"),
    ("ETA exploded a car bomb in Bilbao.", "basque-fatherland-and-fredom", "bilbao"),
    ("The bombing, which was carried out by the Irish Republican Army, killed four soldiers in Belfast.",
     "irish-republican-army", "belfast"),
])
def test_the_agent_named_outside_the_trigger_s_clause(statements, text, agent, place):
    found = statements(text)
    assert len(found) == 1
    type_, roles, _ = found[0]
    assert type_ == "Attack" and roles["agent"] == {agent} and place in roles["location"]


def test_a_noun_and_its_verb_are_one_statement_with_the_modifier_as_agent(statements):
    assert statements("Russian strikes hit Idlib on Tuesday.") == [
        ("Attack", {"agent": {"russia"}, "patient": {"idlib"}}, "2021-04-27")]


def test_a_wave_of_attacks_is_waged_by_whoever_launched_it(statements):
    assert agents_of(statements("Islamic State militants launched a wave of attacks on Kurdish towns.")) == {"islamic-state"}


def test_the_attacker_named_in_a_later_sentence(statements):
    """A pronoun or a definite noun that tells who did the event of the sentence before: both
    statements have the agent, and the later one the earlier one's place and time."""
    found = statements("A car bomb exploded in Madrid on Monday. It is believed to have been carried out by ETA.")
    assert len(found) == 2 and agents_of(found) == {"basque-fatherland-and-fredom"}
    assert all(roles["agent"] and time == "2021-05-03" for _, roles, time in found)
    found = statements("An explosion killed twelve people in Kabul on Monday. The Taliban claimed the attack.")
    assert [roles for _, roles, _ in found] == [{"agent": {"taliban"}, "location": {"kabul"}}] * 2
    # a later "the attack" that says nothing new is the first statement, not a second one
    assert len(statements("An explosion killed twelve people in Kabul on Monday. Police investigated the attack.")) == 1


def test_an_air_campaign_of_an_army_is_an_attack(statements):
    found = statements("The Syrian army launched a campaign against Islamic State in Deir ez-Zor.")
    assert [(t, roles["agent"], roles["patient"]) for t, roles, _ in found] == [
        ("Attack", {"syria-armed-forces"}, {"islamic-state"})]


def test_a_day_and_month_take_the_year_of_their_paragraph_not_of_another_event(statements):
    found = statements("The offensive began on 12 May 2016. On 16 May, the army captured Fallujah.")
    assert [(t, time) for t, _, time in found] == [("Capture", "2016-05-16")]
    found = statements("After the 1992 war, the town was quiet. On 3 March, rebels captured Kafr Nabl.", date=None)
    assert [(t, time) for t, _, time in found] == [("Capture", None)]
    found = statements("After the 1992 war, the town was quiet.\n\nOn 3 March 2012, rebels captured Kafr Nabl.",
                       date=None)
    assert [(t, time) for t, _, time in found] == [("Capture", "2012-03-03")]


def test_an_undated_sentence_goes_on_at_the_time_the_sentence_before_set(statements):
    found = statements("On Sunday, rebels seized the airport of Kandahar. They also took the town of Spin Boldak.")
    assert [(t, time) for t, _, time in found] == [("Capture", "2021-05-02"), ("Capture", "2021-05-02")]
    # a new paragraph is a new narrative: the document's date
    found = statements("On Sunday, rebels seized the airport of Kandahar.\n\nThey also took the town of Spin Boldak.")
    assert [(t, time) for t, _, time in found] == [("Capture", "2021-05-02"), ("Capture", None)]
