"""Name normalization and the gazetteer."""

from __future__ import annotations

import pytest

from kg.extract.gazetteer import load_gazetteer, name_key


@pytest.mark.parametrize(("a", "b"), [
    ("Al-Bukamal", "Albukamal"), ("Al Bukamal", "al-Bukamal"), ("al-Qaida", "Al-Qaeda"),
    ("Bashar Al-Assad", "Bashar al-Assad"), ("the Syrian army", "Syrian Army"), ("Syria\u2019s", "Syria"),
    ("the so-called IS", "IS"), ("Hizbollah", "Hezbollah"),
])
def test_variants_share_a_name_key(a, b):
    assert name_key(a) == name_key(b)


def test_country_army_and_government_are_three_entities():
    gaz = load_gazetteer()
    assert {gaz.lookup("Syria").id, gaz.lookup("Syrian army").id, gaz.lookup("Syrian government").id} == {
        "syria", "syria-armed-forces", "syria-government"}
    assert gaz.lookup("east Syria").id == gaz.lookup("eastern Syria").id == "east-syria"
    assert gaz.country_of_demonym("Lebanese") == "lebanon"
