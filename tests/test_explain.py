"""`kg explain`: why a text gave a fact, and why it gave no other, read from the stages' own trace.

The sentences are written for these tests; each shows one way a pair of entities becomes a fact or
does not. The real model and the real rules run on them, as in a build."""

from __future__ import annotations

import json
import re
import shlex
import sys

import pytest
from click.testing import CliRunner

import kg
from kg.cli import cli
from kg.errors import InputError, UsageError
from kg.extract.explain import Explanation, Pair, to_text, write_page
from conftest import ROOT

FACT = "Hamas backed Islamic Jihad in the spring."
NEGATED = "Hamas did not ally with Islamic Jihad."
MODAL = "Hamas may ally with Islamic Jihad next year."
NO_TRIGGER = "Hamas met Islamic Jihad in Gaza."
WRONG_TYPES = "Hamas allied with Gaza City."
OTHER_ARGUMENTS = "Hamas fighters attacked Israeli troops near Khan Younis on Monday."
TEXT = f"{FACT} {NEGATED} {MODAL} {NO_TRIGGER} {WRONG_TYPES} {OTHER_ARGUMENTS}"


@pytest.fixture(scope="module")
def report() -> Explanation:
    return kg.explain(TEXT)


def sentence_of(report: Explanation, text: str):
    (found,) = [s for s in report.sentences if s.text.strip() == text]
    return found


def pair(report: Explanation, text: str, a: str, b: str) -> Pair:
    (found,) = [p for p in sentence_of(report, text).pairs if {p.a_label, p.b_label} == {a, b}]
    return found


def test_every_sentence_is_reported(report):
    assert report.sentence_count == 6 and [s.number for s in report.sentences] == [1, 2, 3, 4, 5, 6]
    assert [s.text.strip() for s in report.sentences] == [FACT, NEGATED, MODAL, NO_TRIGGER, WRONG_TYPES, OTHER_ARGUMENTS]


def test_an_alliance_is_a_fact_with_its_rule_and_trigger(report):
    p = pair(report, FACT, "Hamas", "Palestinian Islamic Jihad")
    assert p.outcome == "fact" and p.reason == "fact"
    (fact,) = [v for v in p.verdicts if v.outcome == "fact"]
    # the model judges the rule's fact (ally-verb fired often enough in its training data): its
    # calibrated probability is the fact's confidence
    assert (fact.relation, fact.rule, fact.trigger) == ("allyOf", "ally-verb", "backed")
    assert fact.confidence == fact.probability and 0.5 < fact.confidence < 1
    s = sentence_of(report, FACT)
    assert TEXT[fact.trigger_start:fact.trigger_end] == "backed"
    (trigger,) = s.triggers
    assert trigger.text == "backed" and trigger.fired and trigger.relations == ("allyOf",) and "ally-verb" in trigger.rules
    entities = {e.text: e for e in s.entities}
    assert entities["Hamas"].type == "ArmedGroup" and entities["Hamas"].source.startswith("gazetteer")
    assert entities["Islamic Jihad"].label == "Palestinian Islamic Jihad"


def test_a_negation_rejects_the_pair(report):
    p = pair(report, NEGATED, "Hamas", "Palestinian Islamic Jihad")
    assert p.outcome == "no fact" and p.reason == "negated"
    negated = [v for v in p.verdicts if v.reason == "negated"]
    assert negated and all(v.relation == "allyOf" and v.trigger == "ally" and v.stage == "checks" for v in negated)
    assert not any(v.outcome == "fact" for v in p.verdicts)


def test_a_modal_verb_makes_it_hypothetical(report):
    p = pair(report, MODAL, "Hamas", "Palestinian Islamic Jihad")
    assert p.reason == "hypothetical"
    assert all(v.outcome != "fact" for v in p.verdicts)


def test_a_sentence_without_a_trigger_word(report):
    s = sentence_of(report, NO_TRIGGER)
    assert s.triggers == ()
    assert len(s.pairs) == 3  # Hamas, Islamic Jihad and Gaza: every two of them
    for p in s.pairs:
        assert p.reason == "no-trigger", p
    # the model read the pairs too, and says how far it was from a fact
    model = [v for p in s.pairs for v in p.verdicts if v.rule == "model"]
    assert model and all(v.probability < v.threshold for v in model)


def test_a_town_is_no_ally(report):
    p = pair(report, WRONG_TYPES, "Hamas", "Gaza City")
    assert p.reason == "object-type"
    (first, *_) = [v for v in p.verdicts if v.reason == "object-type"]
    assert first.relation == "allyOf" and "Settlement" in first.explanation


def test_help_to_a_people_is_no_alliance():
    text = "Norway supports the Syrian people."
    (s,) = kg.explain(text).sentences
    (p,) = [p for p in s.pairs if "Norway" in (p.a_label, p.b_label)]
    assert p.outcome == "no fact" and p.reason == "unarmed-group"
    (first, *_) = [v for v in p.verdicts if v.reason == "unarmed-group"]
    assert first.relation == "allyOf" and "not an alliance" in first.explanation


def test_a_state_backing_its_own_army_is_no_alliance():
    (s,) = kg.explain("France backed the French army's operation against the jihadists.").sentences
    (p,) = [p for p in s.pairs if {p.a_label, p.b_label} == {"France", "French army"}]
    assert p.outcome == "no fact" and p.reason == "own-institution"
    (first, *_) = [v for v in p.verdicts if v.reason == "own-institution"]
    assert first.relation == "allyOf" and "one side" in first.explanation


def test_a_trigger_whose_arguments_are_others(report):
    s = sentence_of(report, OTHER_ARGUMENTS)
    assert pair(report, OTHER_ARGUMENTS, "Hamas", "Israeli army").outcome == "fact"
    p = pair(report, OTHER_ARGUMENTS, "Hamas", "Khan Younis")
    assert p.reason == "no-path"
    assert '"attacked" (attack-verb) takes Hamas as its subject' in p.verdicts[0].explanation
    (event,) = s.events
    assert event.type == "Attack" and event.trigger == "attacked"
    assert ("agentRole", "Hamas") in event.roles and ("patientRole", "Israeli army") in event.roles


def test_the_terminal_report(report):
    out = to_text(report)
    fact = next(v for v in pair(report, FACT, "Hamas", "Palestinian Islamic Jihad").verdicts if v.outcome == "fact")
    assert (f'FACT Hamas allyOf Palestinian Islamic Jihad by rule ally-verb at "backed" (confidence {fact.confidence:.2f}, '
            f"the model's probability {fact.probability:.2f})") in out
    assert "Hamas - Palestinian Islamic Jihad: no fact: negated" in out
    assert "Hamas - Gaza City: no fact: object-type" in out
    assert out.startswith(f"sentence 1 of 6: {FACT}\n  entities:\n    Hamas")


def test_one_sentence_of_a_file(tmp_path):
    article = tmp_path / "article.txt"
    article.write_text(TEXT + "\n", encoding="utf-8")
    one = kg.explain(file=article, sentence=2)
    assert one.name == "article" and one.sentence_count == 6
    (s,) = one.sentences
    assert s.number == 2 and s.text.strip() == NEGATED
    with pytest.raises(UsageError, match=r"^--sentence 7: the text has 6 sentences$"):
        kg.explain(file=article, sentence=7)


def test_errors():
    with pytest.raises(InputError, match="nothing to explain: the text is empty"):
        kg.explain("  \n ")
    with pytest.raises(InputError, match=r"no-such-article\.txt: no such file or folder"):
        kg.explain(file="no-such-article.txt")
    with pytest.raises(UsageError, match="not both"):
        kg.explain("Some text.", file="article.txt")
    with pytest.raises(UsageError, match="nothing to explain"):
        kg.explain()


def test_tracing_changes_no_extraction():
    """The same bytes of RDF with the trace on and off, and the trace off outside ``tracing()``."""
    from kg.extract import nlp
    from kg.extract.pipeline import extract
    from kg.extract.relations import Extractor
    from kg.extract.relations.trace import TRACE, tracing
    from kg.ingest import make_document
    from kg.rdf import serialized

    text = TEXT + "\n\n" + (ROOT / "examples" / "articles").glob("*.txt").__next__().read_text(encoding="utf-8")
    document = make_document(text, name="t")
    extractor = Extractor()
    (doc,) = nlp.parse([text])
    plain = serialized(extract(doc, document, extractor)).nquads
    with tracing() as trace:
        traced = serialized(extract(doc, document, extractor)).nquads
    assert TRACE.get() is None
    assert traced == plain
    assert trace.decisions and trace.arguments and trace.triggers and trace.mentions


def test_the_command(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["explain", NEGATED])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"sentence 1 of 1: {NEGATED}\n")
    assert "Hamas - Palestinian Islamic Jihad: no fact: negated" in result.output
    result = runner.invoke(cli, ["explain", "--format", "json", FACT])
    data = json.loads(result.output)
    (fact,) = [v for p in data["sentences"][0]["pairs"] for v in p["verdicts"] if v["outcome"] == "fact"]
    assert (fact["relation"], fact["rule"], fact["trigger"]) == ("allyOf", "ally-verb", "backed")
    page = tmp_path / "explain.html"
    result = runner.invoke(cli, ["explain", FACT, "-o", str(page)])
    assert result.exit_code == 0 and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("args, code, message", [
    (["explain", "--file", "no-such-article.txt"], 3, "Error: no-such-article.txt: no such file or folder"),
    (["explain", ""], 3, "Error: nothing to explain: the text is empty"),
    (["explain", FACT, "--sentence", "2"], 2, "Error: --sentence 2: the text has 1 sentence"),
])
def test_command_errors_are_one_line(monkeypatch, capsys, args, code, message):
    from kg.cli import main

    monkeypatch.setattr(sys, "argv", ["kg", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == code
    assert capsys.readouterr().err == message + "\n"


def test_the_readme_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name files of the checkout
    lines = re.findall(r"^kg (explain .*)$", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert lines
    for line in lines:
        result = CliRunner().invoke(cli, shlex.split(line, comments=True))
        assert result.exit_code == 0, (line, result.output)


XSS = 'Hamas allied with Islamic Jihad. </script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


def test_the_page_escapes_every_text(tmp_path):
    page = tmp_path / "explain.html"
    write_page(kg.explain(XSS), page, title="<b>bold</b> title")
    html = page.read_text(encoding="utf-8")
    assert "window.pwned" in html  # the text is there, but only inside the data block, escaped
    assert html.count("<script") == 2 and "</script><script>" not in html and "<img" not in html
    assert "<title>&lt;b&gt;bold&lt;/b&gt; title</title>" in html


def test_the_page_in_chromium(tmp_path):
    from test_viz import _chromium, open_offline

    page = tmp_path / "explain.html"
    write_page(kg.explain(f"{FACT} {NEGATED} {XSS}"), page)
    browser = _chromium()
    try:
        open_offline(browser, page)
        assert browser.execute_script("return window.pwned") is None
        sections = browser.find_elements("css selector", "section.sentence")
        assert len(sections) >= 3
        marks = sections[0].find_elements("css selector", "mark.ent")
        assert [m.get_attribute("data-key") for m in marks] == ["hamas", "islamic-jihad"]
        assert [m.get_attribute("data-type") for m in marks] == ["ArmedGroup", "ArmedGroup"]
        assert marks[0].text.startswith("Hamas")
        (arc,) = sections[0].find_elements("css selector", "g.arc.fact")
        assert arc.get_attribute("data-relation") == "allyOf"
        title = browser.execute_script("return arguments[0].querySelector('title').textContent", arc)
        assert "ally-verb" in title and "backed" in title
        # the arc joins the two names: it starts above one and ends above the other
        box = browser.execute_script(
            "const r = arguments[0].querySelector('path.arc').getBoundingClientRect();"
            "return [r.left, r.right, r.bottom]", arc)
        left, right = marks[0].rect, marks[1].rect
        assert left["x"] <= box[0] <= left["x"] + left["width"]
        assert right["x"] <= box[1] <= right["x"] + right["width"]
        assert box[2] <= left["y"] + 2
        (rejected,) = sections[1].find_elements("css selector", "g.arc.rejected")
        assert rejected.get_attribute("data-reason") == "negated"
        assert sections[1].find_element("css selector", "path.arc").value_of_css_property("stroke-dasharray") != "none"
        # the script tags of the text are text on the page
        assert any("</script><script>window.pwned = 1</script>" in s.text for s in sections)
    finally:
        browser.quit()


def test_the_rules_alone():
    """With the relation model off (``KG_RELATION_MODEL=off``) the report says so and holds the rules' reasons only."""
    from kg.extract.explain import explain_document
    from kg.extract.relations import Extractor
    from kg.ingest import make_document

    alone = explain_document(make_document(f"{NEGATED} {NO_TRIGGER}", name="t"), extractor=Extractor(model=False))
    assert alone.model is False
    negated, no_trigger = alone.sentences
    assert [p.reason for p in negated.pairs] == ["negated"]
    assert {p.reason for p in no_trigger.pairs} == {"no-trigger"}
    assert all(v.rule != "model" and v.probability is None for s in alone.sentences for p in s.pairs for v in p.verdicts)
