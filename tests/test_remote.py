"""A SPARQL server that misbehaves (kg/store/remote.py): one that sends a byte at a time, answers
a query with the wrong kind of answer, or puts terminal escape sequences in its values and its
error text. Each is a scripted HTTP server on loopback, and kg runs as a user runs it."""

from __future__ import annotations

import http.server
import json
import queue
import re
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass

import pytest
from test_scale import Loopback

KG = [sys.executable, "-m", "kg"]
pytestmark = pytest.mark.slow  # servers on loopback
SAFETY_S = 600  # only a machine that has stopped reaches it; kg's own deadline is what ends each run
DRIP_S = 0.5  # a server that drips waits this long between bytes: less than any --timeout below
# a server that drips this many bytes takes DRIP_S * DRIP_BYTES = 40 s or more to answer: kg with
# --timeout 2 hangs up long before, and kg without a working deadline waits for all of it
DRIP_BYTES = 80
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but tab and newline, DEL, C1


@dataclass(frozen=True)
class Answer:
    """What the server sends for one query form: HTTP status, body, and which part (if any)
    it sends a byte every DRIP_S seconds."""

    body: bytes
    status: int = 200
    reason: str = "OK"
    drip: str | None = None  # "head" (status line and headers) or "body"
    content_type: str = "application/sparql-results+json"


TRUE = Answer(json.dumps({"head": {}, "boolean": True}).encode())


def rows(variables: list[str], *bindings: dict) -> Answer:
    return Answer(json.dumps({"head": {"vars": variables}, "results": {"bindings": list(bindings)}}).encode())


def padded(answer: Answer, drip: str) -> Answer:
    """``answer`` with its body padded (JSON allows white space) so that dripping takes DRIP_BYTES bytes."""
    return Answer(answer.body + b" " * max(0, DRIP_BYTES - len(answer.body)), answer.status, answer.reason, drip,
                  answer.content_type)


class Scripted(Loopback):
    """A SPARQL server on 127.0.0.1 that answers each query form (ASK, SELECT...) as ``answers``
    say. ``dripped`` tells, for each answer it drips, whether it sent all of it ("sent") or kg
    hung up first ("cut")."""

    def __init__(self, answers: dict[str, Answer]) -> None:
        self.answers, self.dripped = answers, queue.Queue()
        super().__init__(_Handler)


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        query = form["query"][0]
        answer = self.server.answers[re.search(r"\b(ASK|SELECT|CONSTRUCT|DESCRIBE)\b", query).group(1)]
        head = (f"HTTP/1.1 {answer.status} {answer.reason}\r\nContent-Type: {answer.content_type}\r\n"
                f"Content-Length: {len(answer.body)}\r\nConnection: close\r\n\r\n").encode("latin-1")
        try:
            self._send(head, answer.drip == "head")
            self._send(answer.body, answer.drip == "body")
            outcome = "sent"
        except OSError:  # kg hung up, as it should once its deadline passes
            outcome = "cut"
        if answer.drip:
            self.server.dripped.put(outcome)
        self.close_connection = True

    def _send(self, data: bytes, drip: bool) -> None:
        if not drip:
            self.wfile.write(data)
            return
        for byte in data:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(DRIP_S)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def scripted():
    servers = []

    def start(answers: dict[str, Answer]) -> Scripted:
        servers.append(Scripted(answers))
        return servers[-1]

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def run_kg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*KG, *args], check=False, capture_output=True, text=True, timeout=SAFETY_S)


def error_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


SELECT = "SELECT ?x WHERE { ?x ?p ?o }"
ONE_ROW = rows(["x"], {"x": {"type": "literal", "value": "a"}})


# ---------------------------------------------------------------- deadlines


@pytest.mark.parametrize("drip", ["head", "body"])
def test_a_server_that_drips_its_answer_is_dropped_at_the_timeout(scripted, drip):
    """--timeout bounds the whole answer, not each read: before, kg read a byte every half
    second until the server had sent it all (and printed the rows it dripped)."""
    server = scripted({"ASK": TRUE, "SELECT": padded(ONE_ROW, drip)})
    result = run_kg("query", SELECT, "--timeout", "2", "--store", server.url)
    assert result.returncode == 5, result.stdout + result.stderr
    assert error_line(result) == ("Error: the query did not finish within 2 s "
                                  "(narrow it (LIMIT, a FILTER, a named relation) or raise --timeout)")
    assert server.dripped.get(timeout=SAFETY_S) == "cut", "kg waited for the whole answer"


@pytest.mark.parametrize("drip", ["head", "body"])
def test_opening_a_server_is_bounded_by_the_timeout(scripted, drip):
    """kg's first request to a server (is it there?) is under --timeout too: it had its own 120 s,
    a read at a time."""
    server = scripted({"ASK": padded(TRUE, drip), "SELECT": ONE_ROW})
    result = run_kg("query", SELECT, "--timeout", "2", "--store", server.url)
    assert result.returncode == 4, result.stdout + result.stderr
    assert error_line(result) == f"Error: the SPARQL server at {server.url} did not answer within 2 s (raise --timeout)"
    assert server.dripped.get(timeout=SAFETY_S) == "cut", "kg waited for the whole answer"


# ---------------------------------------------------------------- what a server sends


def test_a_boolean_answer_to_a_select_is_one_line_naming_the_server(scripted):
    server = scripted({"ASK": TRUE, "SELECT": TRUE})
    for args in (["info"], ["query", SELECT]):
        result = run_kg(*args, "--store", server.url)
        assert result.returncode == 4, result.stderr
        assert error_line(result) == (f"Error: the SPARQL server at {server.url} answered a SELECT query with a "
                                      "boolean, an ASK query's answer (check that the store URL is a SPARQL 1.1 "
                                      "server)")


def test_rows_answering_the_ask_that_opens_a_store_are_one_line(scripted):
    server = scripted({"ASK": ONE_ROW})
    result = run_kg("query", SELECT, "--store", server.url)
    assert result.returncode == 4, result.stderr
    assert error_line(result) == (f"Error: the SPARQL server at {server.url} answered an ASK query with rows, a "
                                  "SELECT query's answer (check that the store URL is a SPARQL 1.1 server)")


# sets the terminal's title, clears the screen, turns text red; U+009B is the one-character CSI
HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\x9b0m"
SHOWN = "\\x1b]0;owned\\x07\\x1b[2J\\x1b[31mred\\x9b0m"


def test_a_servers_values_reach_the_terminal_escaped(scripted):
    literal = {"type": "literal", "value": HOSTILE + "\rover"}  # a carriage return would write over the line
    server = scripted({"ASK": TRUE, "SELECT": rows(["x"], {"x": literal})})
    result = run_kg("query", SELECT, "--store", server.url)
    assert result.returncode == 0, result.stderr
    assert not CONTROL.search(result.stdout), repr(result.stdout)
    assert result.stdout.splitlines()[2] == SHOWN + "\\x0dover"


def test_the_labels_kg_info_prints_reach_the_terminal_escaped(scripted):
    kg_ns = "https://w3id.org/kg/ontology#"
    row = {"type": {"type": "uri", "value": kg_ns + "Organization"}, "p": {"type": "uri", "value": kg_ns + "allyOf"},
           "label": {"type": "literal", "value": HOSTILE},
           "n": {"type": "literal", "value": "1", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}}
    server = scripted({"ASK": TRUE, "SELECT": rows(["type", "p", "label", "n"], row)})
    result = run_kg("info", "--entities", "1", "--store", server.url)
    assert result.returncode == 0, result.stderr
    assert not CONTROL.search(result.stdout), repr(result.stdout)
    assert f"      {SHOWN} (1 document)" in result.stdout.splitlines()


@pytest.mark.parametrize(("status", "body", "reason", "shown"), [
    (400, HOSTILE, "Bad Request", f"Error: invalid SPARQL: {SHOWN} (the SPARQL server at "),
    (500, HOSTILE, "Internal Server Error", f": HTTP 500 {SHOWN}"),
    (502, "", HOSTILE, f": HTTP 502 {SHOWN}"),  # no body: the status line's reason is the detail
])
def test_a_servers_error_text_reaches_the_terminal_escaped(scripted, status, body, reason, shown):
    server = scripted({"ASK": TRUE, "SELECT": Answer(body.encode(), status, reason, content_type="text/plain")})
    result = run_kg("query", SELECT, "--store", server.url)
    assert result.returncode == 5, result.stderr
    assert not CONTROL.search(result.stderr), repr(result.stderr)
    assert shown in error_line(result)


@pytest.mark.parametrize(("body", "shown"), [
    # what follows the last bracket is the reason a server gives for an answer it stopped
    (b'{"head": {"vars": ["x"]} ' + HOSTILE.encode(),
     "Error: the SPARQL server's answer is incomplete: 31mred\\x9b0m"),
    # pyoxigraph reads the rows as they are asked for: the parser's message quotes the character
    (b'{"head": {"vars": ["x"]}, "results": {"bindings": [ ' + HOSTILE.encode(), "Unexpected char: '\\x1b'"),
], ids=["head", "rows"])
def test_a_broken_answer_reaches_the_terminal_escaped(scripted, body, shown):
    server = scripted({"ASK": TRUE, "SELECT": Answer(body)})
    result = run_kg("query", SELECT, "--store", server.url)
    assert result.returncode == 5, result.stderr
    assert not CONTROL.search(result.stderr), repr(result.stderr)
    assert shown in error_line(result)
