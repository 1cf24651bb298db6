"""The `kg` command line. Each command parses its options, calls one library function, prints.

Exit codes: 0 success; 1 a build or removal finished but some inputs failed, or kg path found no
chain; 2 wrong arguments; 3 no input could be read (no store is made) or no document matched;
4 store missing, busy or unreadable, or not a kg store; 5 invalid or refused query;
6 the graph does not conform to the SHACL shapes; 7 no spaCy model; 8 the Dask cluster cannot be
reached or a worker failed; 9 an output (standard output, or the file of -o) cannot be written;
70 an unexpected error (a bug); 78 a data file of kg is invalid; 141 the reader of standard output
has gone (kg ... | head), said by nothing but the code.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from . import formats
from .errors import KGError, UsageError
from .terminal import printable

INTERNAL_ERROR = 70
STORE_HELP = "Store folder (default: $KG_STORE, else ~/.local/share/kg/store)."


def _store_option(f):
    return click.option("--store", "store", envvar="KG_STORE", metavar="PATH", help=STORE_HELP)(f)


def _confidence_option(f):
    return click.option("--min-confidence", "min_confidence", type=click.FloatRange(0, 1), metavar="X",
                        help="Only facts an assertion states with confidence X or more (on re3d, the facts "
                             "kg states at 0.8 or more are right at least 80% of the time: docs/eval.md).")(f)


def _echo_err(message: str) -> None:
    click.echo(message, err=True)


def _progress(label: str, unit: str, off: bool):
    """A tqdm progress line on stderr, with the settings build, export and eval share: drawn
    only when stderr is a terminal (``disable=None``) and ``off`` is false, at most five times a
    second, erased when it closes (``leave=False``). Lines printed while it shows go through
    ``tqdm.external_write_mode()``, which lifts the line and draws it again below them."""
    from tqdm import tqdm

    # "building: 12 documents [00:04, 2.81 documents/s]": no bar (the total is not known ahead),
    # and the rate per second even when it is below one, which tqdm would turn into "s/ documents"
    return tqdm(desc=label, unit=f" {unit}", bar_format="{desc}: {n_fmt}{unit} [{elapsed}, {rate_noinv_fmt}]",
                file=sys.stderr, leave=False, mininterval=0.2, disable=True if off else None)


@contextmanager
def _warnings_on_stderr() -> Iterator[None]:
    """kg's warnings (its loggers' records of WARNING and above, each a whole ``Warning: ...``
    line) on the stderr of the moment, the message alone, for the length of a command: the line a
    user sees, whether or not something else configured logging, and what CliRunner captures."""
    import logging

    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    logger = logging.getLogger(__package__)
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


class _Commands(click.Group):
    """kg's top group: run as a program (``standalone_mode``, as ``kg`` and ``CliRunner.invoke``
    run it), every error becomes one line on stderr and an exit code here, inside click, so that
    a test in process sees what a user sees.

    Standard output is checked for the length of the command (:func:`kg.outputs.standard_output`):
    a write that fails is exit 9, and a reader that has gone (``| head``) exit 141, unsaid."""

    def main(self, args: list[str] | tuple[str, ...] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: object) -> object:
        if not standalone_mode:  # a caller that handles click's exceptions itself
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from .outputs import ReaderGone, standard_output

        try:
            with standard_output(), _warnings_on_stderr():
                # the result of --help and --version (an Exit of 0) or of a command is not an exit code
                super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except (ReaderGone, BrokenPipeError):  # BrokenPipeError: the reader of stderr has gone
            sys.exit(ReaderGone.exit_code)
        except click.exceptions.Abort:
            _fail("Error: aborted")
            sys.exit(130)
        except click.ClickException as exc:
            usage = isinstance(exc, click.UsageError)
            _fail(f"Error: {exc.format_message()}" + (" (see kg --help)" if usage else ""))
            sys.exit(UsageError.exit_code if usage else exc.exit_code)
        except KGError as exc:
            _fail(f"Error: {exc}")
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            _fail("Error: interrupted")
            sys.exit(130)
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - the last line of defence for users
            _fail(f"Error: unexpected {type(exc).__name__}: {exc} - this is a bug in kg; please report it "
                  "with the command you ran")
            sys.exit(INTERNAL_ERROR)
        sys.exit(0)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kg", message="kg %(version)s")
def cli() -> None:
    """Build and query an RDF knowledge graph of who did what to whom in news articles."""


@cli.command()
@click.argument("sources", nargs=-1, required=True)
@_store_option
@click.option("--processes", "-p", type=click.IntRange(1, 64), metavar="N",
              help="Processes that parse and extract (each loads spaCy once); the store is written from this "
                   "one. Default: one per available core (as many as memory holds), fewer for a small input, "
                   "this process alone for fewer than 32 new articles; -p 1 for one.")
@click.option("--scheduler", metavar="ADDRESS", help="Extract on this Dask cluster (e.g. tcp://HOST:8786).")
@click.option("--workers", type=click.IntRange(1, 1024), help="Extract on a local Dask cluster of N worker processes.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and the summary; no progress display.")
@click.option("--verbose", "-v", is_flag=True, help="Print a line for every document added.")
def build(sources: tuple[str, ...], store: str | None, processes: int | None, scheduler: str | None, workers: int | None,
          quiet: bool, verbose: bool) -> None:
    """Add articles to the graph: .txt/.md files, folders, .jsonl files, or - for stdin.

    Articles already in the store (same text) are skipped. A file that cannot be read is reported
    on one line and the others still go through; the exit code is then 1. On a terminal a
    progress line shows documents added and the rate.
    """
    from tqdm import tqdm

    import kg

    if scheduler and workers:
        raise UsageError("--scheduler and --workers exclude each other",
                         hint="--scheduler uses a running cluster, --workers starts a local one")

    def on_problem(problem) -> None:
        with tqdm.external_write_mode():
            _echo_err(f"Error: {problem}")

    def on_document(document, n_assertions) -> None:
        progress.update()
        if verbose:
            with tqdm.external_write_mode():
                click.echo(f"  + {document.name}: {n_assertions} assertions")

    if not any(source == "-" or os.path.lexists(source) for source in sources):
        # nothing to read: report each source in ingest's words, and make no (empty) store
        from .builder import BuildReport
        from .ingest import iter_inputs

        report = BuildReport(problems=list(iter_inputs(sources)))
        for problem in report.problems:
            on_problem(problem)
    else:
        with _progress("building", "documents", quiet) as progress:
            report = kg.build(sources, store=store, n_process=processes, scheduler=scheduler, workers=workers,
                              on_problem=on_problem, on_document=on_document)
    click.echo(f"built: {report.added} new documents, {report.skipped} already stored, "
               f"{report.assertions} assertions, {len(report.problems)} inputs failed")
    if report.problems:
        sys.exit(3 if report.added == 0 and report.skipped == 0 else 1)


@cli.command()
@click.argument("sparql")
@_store_option
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE", help="Bind ?NAME to VALUE (repeatable).")
@click.option("--format", "fmt", type=click.Choice(formats.QUERY_CHOICES), default="table", show_default=True)
@click.option("--allow-service", is_flag=True, help="Permit SERVICE calls to other SPARQL endpoints.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              metavar="SECONDS", help="Stop a query that runs longer (exit 5).")
def query(sparql: str, store: str | None, params: tuple[str, ...], fmt: str, allow_service: bool,
          timeout: float) -> None:
    """Run SPARQL: a name from queries/ (e.g. allies), a .rq file, or the query text.

    The default graph is the facts and the entities (labels, types, places), each triple once; the
    documents and their assertions are in each document's graph (GRAPH ?g). Queries are read-only;
    SERVICE needs --allow-service. On a local store the query runs in a child process that is
    killed at --timeout and may use KG_QUERY_MEMORY MiB of memory (default 2048); on a server, kg
    closes the connection at --timeout or once it has read KG_QUERY_MEMORY MiB.
    """
    import kg
    from .graph.sparql import format_result, load_query, named_queries, parse_params, summary

    if sparql == "list":
        for name in named_queries():
            click.echo(f"{name:12} {summary(load_query(name))}")
        return
    bound = parse_params(list(params))
    result = kg.query(sparql, store=store, params=bound, allow_service=allow_service, timeout=timeout)
    click.echo(format_result(result, fmt), nl=False)
    if result.empty:
        reason = kg.why_empty(sparql, bound, store=store)
        if reason:
            _echo_err(f"Note: {printable(reason)}")


@cli.command()
@click.argument("documents", nargs=-1, required=True)
@_store_option
def remove(documents: tuple[str, ...], store: str | None) -> None:
    """Take documents out of the graph: each DOCUMENT is a content hash (or its first 8+
    characters), a document name (file name without extension, JSONL id) or the path it was
    built from. Facts only they supported, and entities only they mentioned, go with them;
    building the same text again restores them."""
    import kg

    found, missing = kg.remove(documents, store=store)
    for reference in missing:
        _echo_err(f"Error: no stored document matches {reference!r} "
                  "(give a content hash or its first 8 characters, a document name, or a path; kg info --documents lists them)")
    for doc_hash, name in found:
        click.echo(f"removed {name} ({doc_hash[:12]})")
    click.echo(f"removed: {len(found)} documents, {len(missing)} not found")
    if missing:
        sys.exit(1 if found else 3)


@cli.group()
def curate() -> None:
    """Correct the graph for good: merge, split, alias, retype or reject an entity, or reject a
    fact, each with a reason (--why). Curations are kept in the store beside what the machine
    read; every build and removal applies them after extraction, and `kg curate undo` restores
    the machine's reading. Who curates: $KG_CURATOR, else the login name."""


def _curation_command(action: str, second: str | None, summary: str):
    @_store_option
    @click.option("--why", "reason", required=True, metavar="TEXT", help="Why: kept with the curation.")
    def command(store: str | None, reason: str, entity: str, other: str | None = None,
                fact: str | None = None) -> None:
        import kg

        curation, new = kg.curate(action, entity, other, relation=fact, reason=reason, store=store)
        click.echo(f"{'curated' if new else 'already curated'}: {curation.id} {curation.describe()}")

    command.__doc__ = summary
    command = click.argument("entity")(command) if second is None else \
        click.argument("entity")(click.argument("other", metavar=second)(command))
    return curate.command(action)(command)


_curation_command("merge", "INTO", "Merge ENTITY into INTO: one node, with the names, facts and events of both.")
_curation_command("split", "NAME", "Split NAME off ENTITY: the documents that name ENTITY only by NAME tell of "
                                   "another thing, a new entity NAME.")
_curation_command("alias", "NAME", "Give ENTITY another name, which queries then find it by.")
_curation_command("retype", "CLASS", "Make ENTITY of CLASS (e.g. Region, Person, ArmedGroup).")


@curate.command("reject")
@click.argument("entity")
@click.option("--fact", nargs=2, metavar="RELATION OBJECT", help="Reject only this fact of ENTITY.")
@click.option("--why", "reason", required=True, metavar="TEXT", help="Why: kept with the curation.")
@_store_option
def curate_reject(entity: str, fact: tuple[str, str] | None, reason: str, store: str | None) -> None:
    """Reject ENTITY (no entity at all, e.g. a heading read as a name), or with --fact one of its facts."""
    import kg

    relation, other = fact if fact else (None, None)
    curation, new = kg.curate("reject", entity, other, relation=relation, reason=reason, store=store)
    click.echo(f"{'curated' if new else 'already curated'}: {curation.id} {curation.describe()}")


@curate.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@_store_option
def curate_list(fmt: str, store: str | None) -> None:
    """The curations, oldest first: id, what, who, when, why, and any that no longer applies."""
    import kg

    listed = kg.curations(store=store)
    if fmt == "json":
        click.echo(json.dumps([{**item.curation.as_json(), "stale": item.stale} for item in listed],
                              indent=2, ensure_ascii=False))
        return
    for item in listed:
        c = item.curation
        click.echo(f"{c.id}  {printable(c.describe())}  ({printable(c.who)}, {c.when}): {printable(c.reason)}")
        if item.stale:
            click.echo(f"    no longer applies: {printable(item.stale)}")
    click.echo(f"({len(listed)} curation{'s' if len(listed) != 1 else ''})")


@curate.command("undo")
@click.argument("curation_id", metavar="ID", required=False)
@_store_option
def curate_undo(curation_id: str | None, store: str | None) -> None:
    """Take back the curation ID (the last one if none is given): the machine's reading returns."""
    import kg

    gone = kg.uncurate(curation_id, store=store)
    click.echo(f"taken back: {gone.id} {gone.describe()}")


@curate.command("export")
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@_store_option
def curate_export(output: str | None, store: str | None) -> None:
    """Write the curations as JSON lines: a file a team keeps in version control."""
    import kg

    text = kg.export_curations(store=store)
    if output:
        from .outputs import output_file

        with output_file(output) as out:
            out.write(text.encode("utf-8"))
    else:
        click.echo(text, nl=False)


@curate.command("import")
@click.argument("file", type=click.Path())
@_store_option
def curate_import(file: str, store: str | None) -> None:
    """Add the curations of FILE (as kg curate export writes them) and apply them."""
    import kg

    added, known = kg.import_curations(file, store=store)
    click.echo(f"imported: {added} curations, {known} already held")


@cli.command()
@_store_option
@click.option("--format", "fmt", type=click.Choice(formats.EXPORT_CHOICES),
              default="turtle", show_default=True)
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@_confidence_option
def export(store: str | None, fmt: str, output: str | None, quiet: bool, min_confidence: float | None) -> None:
    """Write the graph as RDF (turtle, trig, nquads, ntriples, jsonld), as a graph file
    (graphml, gexf, json: the entity-to-entity projection networkx sees), or the events as a
    table (events-csv, events-json: one row per event with its participants, place, coordinates,
    sources and a sentence)."""
    import kg

    # a progress line only when writing to a file: never among the exported data on a terminal
    with _progress("exporting", "statements", quiet or not output or output == "-") as progress:
        count = kg.export(fmt, output, store=store, progress=progress, min_confidence=min_confidence)
    if output and output != "-":
        what = "edges" if fmt in formats.GRAPHS else "events" if fmt in formats.EVENT_TABLES else "statements"
        click.echo(f"wrote {count} {what} to {output}", err=True)


@cli.command()
@_store_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--entities", "per_type", default=0, type=click.IntRange(0), metavar="N",
              help="Also list N entities of each type, those mentioned in the most documents first.")
@click.option("--documents", "list_documents", is_flag=True,
              help="Also list every document: name, content hash, date, source, title, assertions, event statements.")
def info(store: str | None, fmt: str, per_type: int, list_documents: bool) -> None:
    """Print counts: documents, entities by type, facts by relation, events by type."""
    import kg

    from .graph.sparql import table

    data = kg.info(store=store, entities=per_type, documents=list_documents)
    if fmt == "json":
        click.echo(json.dumps(data, indent=1))
        return
    click.echo(f"store:      {data['store']}")
    click.echo(f"documents:  {data['documents']}")
    if list_documents:  # the names and hashes kg remove takes
        click.echo(table(("name", "hash", "date", "source", "title", "assertions", "events"), [
            (d["name"], d["hash"][:12], d["date"] or "", d["source"] or "", d["title"] or "", d["assertions"],
             d["event_statements"]) for d in data["document_list"]]))
    click.echo(f"entities:   {data['entities']}")
    for name, n in data["entities_by_type"].items():
        click.echo(f"  {name:26} {n}")
        for label, docs in data.get("top_entities", {}).get(name, []):  # a server's label: escaped
            click.echo(f"      {printable(label)} ({docs} document{'s' if docs != 1 else ''})")
    click.echo(f"facts:      {data['facts']}  (from {data['assertions']} assertions)")
    for name, n in data["facts_by_relation"].items():
        click.echo(f"  {name:26} {n}")
    click.echo(f"events:     {data['events']}  (from {data['event_statements']} event statements)")
    for name, n in data["events_by_type"].items():
        click.echo(f"  {name:26} {n}")


@cli.command()
@_store_option
@click.option("--file", "file", metavar="RDF_FILE", help="Validate this RDF file instead of the store.")
def validate(store: str | None, file: str | None) -> None:
    """Check the graph against the SHACL shapes in ontology/shapes.ttl (exit 6 if it does not conform)."""
    import kg

    report = kg.validate(store=store, file=file)
    if report.conforms:
        click.echo("conforms: the graph satisfies every shape in ontology/shapes.ttl")
        return
    click.echo(f"does not conform: {len(report.violations)} violations")
    for line in report.violations[:200]:
        click.echo(f"  - {line}")
    sys.exit(6)


def _graphs(store: str | None, relations: str | None = None, since: str | None = None, until: str | None = None,
            min_confidence: float | None = None):
    """The whole entity graph (to look names up in) and the facts of the relations, dates and
    confidence asked for."""
    import kg
    from .graph.analysis import filter_graph

    entities = kg.to_networkx(store=store)
    return entities, filter_graph(entities, relations.split(",") if relations else None, since, until, min_confidence)



_RELATIONS_HELP = "Only these relations, comma-separated (e.g. allyOf,attacked)."


@cli.command()
@_store_option
@click.option("--relations", metavar="REL,...", help=_RELATIONS_HELP)
@click.option("--since", metavar="DATE", help="Only facts of events on or after DATE (2017, 2017-08, 2017-08-28, "
              "28 August 2017; a year or month is all its days); where no sentence dates a fact, of the "
              "documents stating it.")
@click.option("--until", metavar="DATE", help="Only facts of events (else documents) on or before DATE.")
@click.option("--top", default=10, show_default=True, type=click.IntRange(1, 10000), help="Rows per ranking.")
@click.option("--ego", metavar="ENTITY", help="Also the neighbourhood of this entity (a label or alias).")
@click.option("--radius", default=1, show_default=True, type=click.IntRange(1, 5), help="Hops around --ego.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@_confidence_option
def analyze(store, relations, since, until, top, ego, radius, fmt, min_confidence) -> None:
    """Which sides form and who is central: camps from the signed graph (cooperation joins, hostility
    parts; kg:sign in ontology/kg.ttl) with the facts that go against them, PageRank over
    cooperation, the most hostile and most targeted, degree, PageRank over every fact, betweenness
    (top N), Louvain communities, connected components, and the ego network of an entity."""
    from .graph.analysis import analyze as run
    from .graph.sparql import table

    entities, graph = _graphs(store, relations, since, until, min_confidence)
    result = run(graph, top=top, ego=ego, radius=radius, entities=entities)
    if fmt == "json":
        click.echo(json.dumps(result.as_dict(), indent=1, ensure_ascii=False))
        return
    rankings = (("degree", "degree", result.degree),
                ("pagerank_cooperation", "pagerank (cooperation)", result.pagerank_cooperation),
                ("most_hostile", "most hostile (documents of its hostile facts)", result.most_hostile),
                ("most_targeted", "most targeted (documents of hostile facts against it)", result.most_targeted),
                ("pagerank", "pagerank (every fact)", result.pagerank),
                ("betweenness", "betweenness" + ("" if result.betweenness_exact else " (sampled)"), result.betweenness))
    if fmt == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["measure", "rank", "entity", "label", "type", "score"])
        for measure, _, rows in rankings:
            for rank, (iri, label, type_, score) in enumerate(rows, start=1):
                writer.writerow([measure, rank, iri, label, type_, score])
        for group, groups in (("camp", result.camps), ("community", result.communities)):
            for number, members in enumerate(groups, start=1):
                for label in members:
                    writer.writerow([group, number, "", label, "", len(members)])
        return
    click.echo(f"{result.nodes} entities, {result.edges} facts; relations: {', '.join(result.relations) or '-'}")
    click.echo(f"cooperation: {', '.join(result.cooperation) or '-'}; hostility: {', '.join(result.hostility) or '-'}")
    camps = [c for c in result.camps if len(c) > 1]
    alone = [c[0] for c in result.camps if len(c) == 1]
    click.echo(f"\ncamps (cooperation joins, hostility parts): {len(result.camps)}")
    for number, members in enumerate(camps, start=1):
        click.echo(printable(f"  {number}. " + ", ".join(members)))  # labels a server may hold: escaped
    if alone:
        more = f", and {len(alone) - top} more" if len(alone) > top else ""
        numbers = f"camp {len(camps) + 1}" if len(alone) == 1 else f"camps {len(camps) + 1}-{len(result.camps)}"
        click.echo(printable(f"  alone ({numbers}): {', '.join(alone[:top])}{more}"))
    if result.contradictions:
        click.echo(f"facts against the camps (hostile inside one, cooperative between two): {len(result.contradictions)}")
        for c in result.contradictions[:top]:
            where = f"inside camp {c.camps[0]}" if c.sign < 0 else f"between camps {c.camps[0]} and {c.camps[1]}"
            kind = "hostile" if c.sign < 0 else "cooperative"
            click.echo(printable(f"  {c.source} {c.predicate} {c.target} ({kind}, {where}; "
                                 f"{c.documents} document{'s' if c.documents != 1 else ''})"))
        if len(result.contradictions) > top:
            click.echo(f"  and {len(result.contradictions) - top} more (--format json lists them all)")
    elif result.camps:
        click.echo("facts against the camps: none (the signed graph is balanced)")
    for _, name, rows in rankings:
        click.echo(f"\n{name}")
        click.echo(table(("rank", "entity", "type", "score"),
                         [(i, label, type_, f"{score:.4f}" if isinstance(score, float) else score)
                          for i, (_, label, type_, score) in enumerate(rows, start=1)]))
    click.echo(f"\ncommunities (Louvain, every fact: written about together, not sides): {len(result.communities)}")
    for number, members in enumerate(result.communities, start=1):
        click.echo(printable(f"  {number}. " + ", ".join(members)))
    click.echo(f"connected components: {len(result.components)}; largest has {len(result.components[0]) if result.components else 0} entities")
    if result.ego:
        click.echo(printable(f"\nego network of {result.ego['entity']} (radius {result.ego['radius']}): "
                             f"{len(result.ego['nodes'])} entities"))
        for s_, p, o in result.ego["facts"]:
            click.echo(printable(f"  {s_} {p} {o}"))


@cli.command()
@click.argument("source")
@click.argument("target")
@_store_option
@click.option("--relations", metavar="REL,...", help=_RELATIONS_HELP)
@click.option("--limit", default=3, show_default=True, type=click.IntRange(1, 100), help="How many shortest chains.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_confidence_option
def path(source, target, store, relations, limit, fmt, min_confidence) -> None:
    """The shortest chains of facts between two entities, each hop with its evidence."""
    import kg
    from .graph.analysis import paths

    entities, graph = _graphs(store, relations, min_confidence=min_confidence)
    with kg.open_store(store) as s:
        found = paths(s, graph, source, target, limit=limit, entities=entities)
    if fmt == "json":
        click.echo(json.dumps([[h.__dict__ for h in chain] for chain in found.chains], indent=1, ensure_ascii=False))
        sys.exit(0 if found.chains else 1)  # no chain: the empty list, and the exit code the table gives
    if not found.chains:
        why = ""
        if found.factless:
            facts = f"no {' or '.join(relations.split(','))} facts" if relations else "no facts"
            verb = "takes" if len(found.factless) == 1 else "take"
            why = f": {' and '.join(found.factless)} {verb} part in {facts}"
        click.echo(f"no chain of facts connects {found.source} and {found.target}{why}")
        sys.exit(1)
    for number, chain in enumerate(found.chains, start=1):
        click.echo(f"chain {number}:")
        for hop in chain:
            # a symmetric fact (allyOf) holds both ways: no arrowhead
            click.echo(printable(f"  {hop.source} --{hop.predicate}--{'' if hop.symmetric else '>'} {hop.target}"))
            for sentence, document in hop.evidence[:3]:
                click.echo(printable(f"      [{document}] {sentence}"))


@cli.command()
@_store_option
@click.option("-o", "--output", metavar="FILE", required=True, help="The .html, .png, .svg or .pdf file to write.")
@click.option("--format", "fmt", type=click.Choice(list(formats.PICTURES)), help="Default: from the file name.")
@click.option("--relations", metavar="REL,...", help=_RELATIONS_HELP)
@click.option("--max-nodes", default=300, show_default=True, type=click.IntRange(2, 100000),
              help="Draw the best-connected entities only (at most 150 in a static picture).")
@click.option("--highlight", metavar="ENTITY,...", help="Name and ring these entities (labels or aliases), "
              "drawn even if they would be left out.")
@click.option("--title", default="kg: who did what to whom", show_default=True)
@click.option("--timeline", is_flag=True, help="Draw the events in time order instead (page or picture).")
@click.option("--entity", metavar="NAME", help="With --timeline: only the events NAME takes part in.")
@click.option("--map", "on_map", is_flag=True, help="Draw the events at their places on a map of the world "
              "instead (page or picture).")
@_confidence_option
def viz(store, output, fmt, relations, max_nodes, highlight, title, timeline, entity, on_map, min_confidence) -> None:
    """Draw the graph: an interactive page that works offline (.html: search, relation filters,
    names and evidence on click) or a static picture (.png, .svg, .pdf). Communities are laid out
    apart, the most central entities named; the caption says what was left out. With --timeline,
    the events in time order (.html: type filters, an entity's events, participants and sentences
    on click). With --map, the events at their places on a map (.html: pan and zoom, type and time
    filters, a place's events and sentences on click)."""
    import kg
    from .graph.viz import format_for, graph_data, write_html, write_picture

    fmt = fmt or format_for(output)
    if entity and not timeline:
        raise UsageError("--entity is an option of --timeline", hint="kg viz --timeline --entity NAME -o FILE")
    if on_map:
        if timeline:
            raise UsageError("--map and --timeline draw different pictures", hint="give one of them")
        from .graph.eventmap import write_map

        with kg.open_store(store) as s:
            caption = write_map(s, output, fmt, title)
        click.echo(f"wrote {output}: {caption}", err=True)
        return
    if timeline:
        from .graph.timeline import write_timeline

        with kg.open_store(store) as s:
            shown = write_timeline(s, output, fmt, title, entity)
        click.echo(f"wrote {output}: {shown} events", err=True)
        return
    _, graph = _graphs(store, relations, min_confidence=min_confidence)
    wanted = [name for name in (highlight or "").split(",") if name.strip()]
    if fmt == "html":
        with kg.open_store(store) as s:
            data = graph_data(s, graph, max_nodes=max_nodes, highlight=wanted)
        write_html(data, output, title=title)
        caption = data["caption"]
    else:
        max_nodes = min(max_nodes, 150)  # more names than a page of print can hold
        caption = write_picture(graph, output, fmt, title=title, max_nodes=max_nodes, highlight=wanted)
    click.echo(f"wrote {output}: {caption}", err=True)


@cli.command()
@click.argument("text", required=False)
@click.option("--file", "file", metavar="FILE", help="Explain the article in FILE (read as kg build reads it).")
@click.option("--sentence", type=click.IntRange(1), metavar="N",
              help="Report sentence N only (from 1), extracted within its article.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-o", "--output", metavar="FILE", help="Also write the report as an offline page (.html).")
def explain(text: str | None, file: str | None, sentence: int | None, fmt: str, output: str | None) -> None:
    """Show why a text gives the facts it gives, and why not others (no store needed).

    For each sentence: the entities and where their types came from, the trigger words, every
    pair of entities with the fact it became (by which rule, or the relation model) or the reason
    it did not (negated, hypothetical, wrong types, vetoed or under the model's threshold, no
    trigger word, a trigger whose arguments are other words), and the events. With -o, a page
    that marks the entities and draws an arc for each fact and each rejected candidate.
    """
    import kg
    from .extract.explain import to_text, write_page

    report = kg.explain(text, file, sentence)
    if output:
        write_page(report, output)
        click.echo(f"wrote {output}: {len(report.sentences)} sentences", err=True)
    if fmt == "json":
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(printable(to_text(report)))


@cli.command("train")
@click.argument("gold", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--output", "-o", metavar="FILE", help="Write the model here (default: where kg reads it, "
              "ontology/relations-model.json.gz of the data folder).")
@click.option("--seed", default=13, show_default=True, type=int, help="The seed of the folds and the learner.")
@click.option("--processes", "-p", default=1, show_default=True, type=click.IntRange(1),
              help="Parsing processes.")
@click.option("--min-facts", type=click.IntRange(1), metavar="N",
              help="Facts of a relation the data must hold for the model to veto or add any of it "
                   "(default: kg.train.fit.MIN_JUDGED).")
def train_(gold: tuple[str, ...], output: str | None, seed: int, processes: int, min_facts: int | None) -> None:
    """Train the relation model from annotated text: kg gold folders (docs/annotation.md), re3d
    source folders and CoNLL04 JSON files. Prints the out-of-fold figures by relation (rules alone,
    model alone, both) and writes the model with its provenance (see docs/model.md)."""
    from .train import train

    model, path = train(list(gold), output, seed=seed, processes=processes, log=click.echo, min_facts=min_facts)
    click.echo(f"{'relation':14} {'gold':>5} {'rules F1':>9} {'model F1':>9} {'both P':>7} {'both R':>7} {'both F1':>8} {'veto':>5} {'add':>5}")
    for relation, f in model.provenance["out_of_fold"].items():
        click.echo(f"{relation:14} {f['gold']:5} {f['rules']['f1']:9.3f} {f['model']['f1']:9.3f} "
                   f"{f['both']['p']:7.3f} {f['both']['r']:7.3f} {f['both']['f1']:8.3f} {model.veto[relation]:5.2f} "
                   f"{model.add[relation]:5.2f}")
    click.echo(f"wrote {path} ({len(model.index)} features)")


@cli.command("eval")
@click.argument("gold_dir", metavar="GOLD", type=click.Path())
@_store_option
@click.option("--file", "file", metavar="RDF_FILE", help="Score this RDF file instead of the store.")
@click.option("--docs", metavar="STEM,...", help="Document stems in gold order (default: GOLD_DIR/docs.txt).")
@click.option("--source", "sources", multiple=True, metavar="NAME",
              help="Of a re3d folder, only this source (repeatable, e.g. CENTCOM).")
@click.option("--show", default=0, type=click.IntRange(0), metavar="N",
              help="Of a re3d folder, also list N misses and N assertions the gold lacks.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
def eval_(gold_dir: str, store: str | None, file: str | None, docs: str | None, sources: tuple[str, ...],
          show: int, fmt: str, quiet: bool) -> None:
    """Score the graph against gold annotations: a folder in kg's format (entities.tsv,
    relations.tsv, and events.tsv where there is one; see docs/eval.md), a folder of re3d sources
    (tests/data/re3d), or a WikiEvents file of events (tests/data/wikievents/events.jsonl).

    Prints precision, recall and F1 overall and per relation, misses, false positives, forbidden
    hits, entity splits and merges, the gold entities found and typed right, and the same for
    events (for re3d: named-mention figures, precision by confidence band, alias pairs merged,
    entity mentions found, typed right and spurious). The last line matches the reference
    scorer's.
    """
    import kg

    from .eval.re3d import Report as Re3dReport
    from .eval.wikievents import Report as EventsReport

    with _progress("reading the graph", "triples", quiet) as progress:
        report = kg.evaluate(gold_dir, store=store, file=file, docs=docs.split(",") if docs else None,
                             progress=progress, sources=list(sources) or None)
    if fmt == "json":
        click.echo(json.dumps(report.as_dict(), indent=1))
        return
    if isinstance(report, Re3dReport):
        _print_re3d(report, show, ",".join(sources) or "all")
        return
    if isinstance(report, EventsReport):
        _print_wikievents(report)
        return
    click.echo(f"{'relation':16} {'required':>8} {'found':>6} {'predicted':>9} {'P':>6} {'R':>6} {'F1':>6}")
    for name, r in report.per_relation.items():
        click.echo(f"{name:16} {r['required']:8} {r['found']:6} {r['predicted']:9} "
                   f"{r['precision']:6.3f} {r['recall']:6.3f} {r['f1']:6.3f}")
    for title, items in (("missed", report.missed), ("false positives", report.false_positives),
                         ("forbidden hits", report.forbidden_hits), ("optional found", report.optional_found),
                         ("merges (one node, several gold entities)", report.merges)):
        click.echo(f"{title}: {len(items)}")
        for item in items:
            click.echo(f"   {item}")
    click.echo(f"splits (one gold entity, several nodes): {len(report.splits)}")
    for gid, n in report.splits.items():
        click.echo(f"   {gid}: {n} nodes")
    if report.entities is not None:
        _echo_entity_scores(report.entities)
    if report.events is not None:
        _echo_event_scores(report.events)
    click.echo(f"F1 {report.f1:.3f} P {report.precision:.3f} R {report.recall:.3f} "
               f"prov {report.provenance_coverage:.2f} docs {report.doc_coverage}")


def _print_wikievents(report) -> None:
    click.echo(f"{'statements':12} {'predicted':>9} {'correct':>8} {'P':>6} {'trigger P':>9}")
    for name, c in report.statements.items():
        click.echo(f"{name:12} {c['predicted']:9} {c['correct']:8} {c['precision']:6.3f} {c['trigger_precision']:9.3f}")
    click.echo(f"{'gold events':12} {'gold':>5} {'found':>6} {'agent':>9} {'patient':>9} {'place':>9}  (found / with a name)")
    for name, c in report.events.items():
        roles = " ".join(f"{c.get(k + '_found', 0):>4}/{c.get(k + '_named', 0):<4}" for k in ("agent", "patient", "place"))
        click.echo(f"{name:12} {c['gold']:5} {c['found']:6} {roles}")
    if report.unscored:
        click.echo("not scored (no KAIROS counterpart): " + ", ".join(f"{t} {n}" for t, n in sorted(report.unscored.items())))
    click.echo(f"events statement P {report.precision:.3f}, attack agents {report.agent_recall:.3f} "
               f"({report.documents} documents)")


def _print_re3d(report, show: int, split: str) -> None:
    click.echo(f"{'relation':12} {'gold':>5} {'found':>6} {'predicted':>9} {'correct':>8} {'P':>6} {'R':>6}")
    for name, r in report.per_relation.items():
        click.echo(f"{name:12} {r.get('gold_named', 0):5} {r.get('found_named', 0):6} {r.get('predicted', 0):9} "
                   f"{r.get('correct', 0):8} {r['precision']:6.3f} {r['recall']:6.3f}")
    for band in report.bands:
        if band["assertions"]:
            click.echo(f"confidence >= {band['min_confidence']:.1f}: {band['assertions']} assertions, "
                       f"precision {band['precision']:.3f}")
    for title, items in (("missed (named)", report.missed), ("not in the gold", report.not_in_gold)):
        if show:
            click.echo(f"{title}: {len(items)}")
            for item in items[:show]:
                click.echo(f"   {item}")
    if report.entities is not None:
        _echo_re3d_entities(report.entities, show)
    n = report.named
    click.echo(f"re3d {split} named F1 {n['f1']:.3f} P {n['precision']:.3f} R {n['recall']:.3f} "
               f"(gold {report.gold_named}, predicted {report.predicted}, aliases {report.alias_merged}/{report.alias_pairs})")


_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]*):[^\s/?#]*@")  # to the last @, as URLs split


def _fail(message: str) -> None:
    """One line on stderr; a password in a URL (http://user:PASSWORD@host) is never shown."""
    _echo_err(_PASSWORD.sub(r"\1:***@", " ".join(message.split())))


def _echo_entity_scores(e: dict) -> None:
    general = f" ({e['typed_general']} only by a general class)" if e.get("typed_general") else ""
    click.echo(f"entities: found {e['found']}/{e['gold']}, typed right {e['typed_right']}/{e['typed']}{general}, "
               f"splits {e['splits']}, merges {e['merges']}")
    click.echo(f"entities not found: {len(e['not_found'])}")
    for x in e["not_found"]:
        click.echo(f"   {x['id']} ({x['class']}): {' | '.join(x['aliases'])}")
    click.echo(f"entities typed wrong: {len(e['wrong_type'])}")
    for x in e["wrong_type"]:
        click.echo(f"   {x['id']} ({x['class']}): node {x['node']!r} is {x['node_class']}")


def _echo_re3d_entities(e: dict, show: int) -> None:
    click.echo(f"entities: mention recall {e['mention_recall']:.3f} ({e['found']}/{e['gold']}; exact "
               f"{e['mention_recall_exact']:.3f}, named or head {e['mention_recall_named_or_head']:.3f}), "
               f"type accuracy {e['type_accuracy']:.3f} ({e['typed_right']}/{e['typed']}; "
               f"{e['type_accuracy_country_as_organisation']:.3f} with a country for an organisation), "
               f"noise {e['noise']} of {e['kg_entities']}, merge candidates {e['merge_candidates']}")
    for t, v in e["per_type"].items():
        typed = f", type accuracy {v['type_accuracy']:.3f} ({v['typed_right']}/{v['typed']})" if v["typed"] else ""
        click.echo(f"   {t}: recall {v['recall']:.3f} ({v['found']}/{v['gold']}){typed}")
    if not show:
        return
    for title, key, line in (
            ("missed entity mentions", "missed", lambda m: f"{m['type']}: {m['text']}  [{m['context']}]"),
            ("entity mentions typed wrong", "wrong_type",
             lambda m: f"{m['type']} -> {m['kg_class']}: {m['text']} ~ {m['kg']}"),
            ("entities no mention supports", "noise_list",
             lambda m: f"{m['kg']} ({m['kg_class']}){', annotated elsewhere' if m['annotated_elsewhere'] else ''}"),
            ("merge candidates", "merge_list",
             lambda m: f"{m['kg']} ({m['kg_class']}): {m['a']} {m['a_types']} + {m['b']} {m['b_types']}: {m['why']}")):
        click.echo(f"{title}: {len(e[key])}")
        for m in e[key][:show]:
            click.echo(f"   {line(m)}")


def _echo_event_scores(events: dict) -> None:
    click.echo(f"events: required {events['required']} found {events['found']} predicted {events['predicted']} "
               f"P {events['precision']:.3f} R {events['recall']:.3f} F1 {events['f1']:.3f} docs {events['doc_coverage']}")
    for title, key in (("missed events", "missed"), ("false positive events", "false_positives"),
                       ("forbidden event hits", "forbidden_hits"), ("events told twice, not merged", "splits")):
        click.echo(f"{title}: {len(events[key])}")
        for item in events[key]:
            click.echo(f"   {item}")


def main() -> None:
    """Entry point (``kg``, ``python -m kg``): run the CLI as a program; :class:`_Commands` turns
    every error into one line on stderr and an exit code."""
    cli.main()
