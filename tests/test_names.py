"""The one normalizer of names (kg/extract/namekeys.py) and the gazetteer that looks names up by it."""

from __future__ import annotations

import pytest

from kg.extract.gazetteer import load_gazetteer
from kg.extract.namekeys import iri_key, match_key


@pytest.mark.parametrize(("a", "b"), [
    ("Al-Bukamal", "Albukamal"), ("Al Bukamal", "al-Bukamal"), ("al-Qaida", "Al-Qaeda"),
    ("Bashar Al-Assad", "Bashar al-Assad"), ("the Syrian army", "Syrian Army"), ("Syria\u2019s", "Syria"),
    ("the so-called IS", "IS"), ("Hizbollah", "Hezbollah"), ("Mokhtar Belmokhtar", "Mokhtar Bel Mokhtar"),
    ("Abu Bakr al-Baghdadi", "Abubakr al Baghdadi"), ("Zelenskiy", "Zelenskyy"), ("Volodymyr Zelensky", "Volodymyr Zelenskiy"), ("Hodeidah", "Hodeida"), ("Bin Jawwad", "Bin Jawad"),
])
def test_variants_share_a_match_key_and_so_an_iri(a, b):
    assert match_key(a) == match_key(b)
    assert iri_key(a) == iri_key(b), "one match key, one IRI"


@pytest.mark.parametrize(("a", "b"), [("Syria", "Syrian"), ("Al-Qaeda", "Al-Shabaab"), ("Ras Baalbek", "Baalbek"),
                                      ("Khalifa Haftar", "Khalifa Hifter Jr")])
def test_different_names_keep_different_keys(a, b):
    assert match_key(a) != match_key(b)


def test_iri_keys_are_readable():
    assert iri_key("Bashar Al-Assad") == "bashar-alasad"
    assert iri_key("the Syrian Democratic Forces") == "syrian-democratic-forces"


def test_every_demonym_of_the_gazetteer_is_found_in_any_case():
    gaz = load_gazetteer()
    demonyms = [(d, e.id) for e in gaz.entries.values() for d in e.demonyms]
    assert len(demonyms) > 60
    missed = [d for d, country in demonyms for form in (d, d.lower(), d.upper()) if gaz.country_of_demonym(form) != country]
    assert missed == []


def test_country_army_and_government_are_three_entities():
    gaz = load_gazetteer()
    assert {gaz.lookup("Syria").id, gaz.lookup("Syrian army").id, gaz.lookup("Syrian government").id} == {
        "syria", "syria-armed-forces", "syria-government"}
    assert gaz.lookup("east Syria").id == gaz.lookup("eastern Syria").id == "east-syria"
    assert gaz.country_of_demonym("Lebanese") == "lebanon"
