"""The README stays true: every command is documented, and the documented commands run."""

from __future__ import annotations

import re

from kg.cli import cli
from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_command_is_in_the_readme():
    for name in cli.commands:
        assert f"`kg {name}" in README, name


def test_every_ready_query_is_in_the_readme():
    for path in (ROOT / "queries").glob("*.rq"):
        assert f"`{path.stem}`" in README, path.stem
        assert path.read_text().startswith("# "), f"{path.name} needs a header comment"


def test_readme_examples_run(example_store, tmp_path):
    """Every `kg query/export/analyze/path/viz` line of the README, as written, on the examples."""
    import shlex

    from click.testing import CliRunner

    runner = CliRunner()
    lines = re.findall(r"^kg ((?:query|export|analyze|path|viz) .*)$", README, flags=re.M)
    assert len(lines) >= 10
    for line in lines:
        args = shlex.split(line, comments=True)
        args = [str(tmp_path / a) if re.fullmatch(r"(graph|timeline)\.(ttl|html|png)", a) else a for a in args]
        result = runner.invoke(cli, [*args, "--store", str(example_store)])
        assert result.exit_code == 0, (line, result.output)


def test_exit_codes_documented():
    from kg import errors

    for cls in (errors.UsageError, errors.InputError, errors.StoreError, errors.QueryError,
                errors.ModelError, errors.DataError, errors.OutputError):
        assert f"| {cls.exit_code} |" in README
    assert "| 6 |" in README  # kg validate: the graph does not conform
    from kg.outputs import ReaderGone

    assert f"| {ReaderGone.exit_code} |" in README  # the reader of standard output has gone


def test_what_the_readme_recipes_make_is_ignored_by_git():
    """Stores (`--store X`, `store="X"`) and output files (`-o X`) of the README's commands."""
    import subprocess

    stores = set(re.findall(r"--store ([\w./-]+)", README)) | set(re.findall(r'store="([\w./-]+)"', README))
    stores -= {"PATH", "http"}  # the placeholder, and `--store http://HOST:PORT`
    files = {f for f in re.findall(r"^kg .*?-o ([\w./-]+)", README, flags=re.M) if not f.startswith("docs/")}
    assert {"dev-store", "kg-store"} <= stores and {"graph.ttl", "graph.html", "graph.png"} <= files
    for name in sorted({f"{s}/" for s in stores} | files):  # a store is a folder
        result = subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT)
        assert result.returncode == 0, f"{name} is not in .gitignore"


def test_the_architecture_names_every_module():
    """docs/architecture.md is where a newcomer finds the room of each module: every module of kg/
    is named there (by its path, or by its file name beside its folder's)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = []
    for path in sorted((ROOT / "kg").rglob("*.py")):
        if path.name == "__init__.py":
            continue
        relative = path.relative_to(ROOT).as_posix()
        beside = f"{path.parent.name}/{path.name}"  # "relations/trace.py", "petrarch/__main__.py"
        if relative not in text and beside not in text \
                and not re.search(rf"(?<![\w/.]){re.escape(path.name)}\b", text):
            missing.append(relative)
    assert missing == [], "modules docs/architecture.md does not name"


def test_readme_curation_example_runs_as_written(store_copy, tmp_path, monkeypatch):
    """The `kg curate` lines of "Correcting the graph", in order, on a copy of the example store:
    each says what it did, and the last import finds every curation held already."""
    import shlex

    from click.testing import CliRunner

    section = README[README.index("### Correcting the graph"):README.index("### Exit codes")]
    lines = re.findall(r"^kg (curate .*)$", section, flags=re.M)
    assert len(lines) >= 10
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KG_CURATOR", "a reader of the README")
    runner = CliRunner()
    outputs = []
    for line in lines:
        result = runner.invoke(cli, [*shlex.split(line, comments=True), "--store", str(store_copy)])
        assert result.exit_code == 0, (line, result.output)
        outputs.append(result.output)
    assert all(o.startswith("curated: ") for o in outputs[:6]), outputs[:6]
    assert "no longer applies" not in outputs[6], "every example applies to the example articles"
    assert outputs[-1] == "imported: 0 curations, 5 already held\n"
