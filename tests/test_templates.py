"""The pages' templates (kg/templates/): each one found through kg.resources, each one used."""

from __future__ import annotations

from importlib.resources import files

import pytest
from conftest import ROOT


def _templates() -> list[str]:
    return sorted(entry.name for entry in (files("kg") / "templates").iterdir() if entry.is_file())


def test_there_are_templates():
    assert {"head.html", "graph.html", "timeline.html", "map.html", "explain.html"} <= set(_templates())


@pytest.mark.parametrize("name", _templates())
def test_each_template_is_found_and_used(name):
    from kg.resources import template

    assert template(name) == (ROOT / "kg" / "templates" / name).read_text(encoding="utf-8")
    users = [path.relative_to(ROOT) for path in sorted((ROOT / "kg").rglob("*.py"))
             if f'"{name}"' in path.read_text(encoding="utf-8")]
    assert users, f"no module of kg names the template {name}: drop the file, or use it"


def test_an_unknown_template_is_a_data_error():
    from kg.errors import DataError
    from kg.resources import template

    with pytest.raises(DataError, match="'nothing.html' not found"):
        template("nothing.html")


def test_fill_puts_title_and_data_in_one_pass():
    """A value is never read again: a title "__DATA__" stays that text, and the data cannot end
    its script block."""
    from kg.resources import fill

    page = fill("<title>__TITLE__</title><script>__DATA__</script>", "__DATA__ & <b>", {"x": "</script>__TITLE__"})
    assert page == ('<title>__DATA__ &amp; &lt;b&gt;</title>'
                    '<script>{"x": "\\u003c/script\\u003e__TITLE__"}</script>')
