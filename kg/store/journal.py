"""An append-only N-Quads copy of every document graph, kept beside the store for fast export.

Reading quads back out of the on-disk Oxigraph store costs a RocksDB lookup for every term
(measured at 1M triples: 55-75k quads/s, even inside Oxigraph's own ``dump``), while a document's
graph never changes once written. So each build appends the graphs it writes, already
serialized, to ``STORE/nquads/``, and an N-Quads export copies those bytes instead of decoding them.

The journal is a cache, never the truth. Export takes a document's block only while the store
holds that document and the block's CRC-32 checks out; anything else (a build killed between the
store write and the append, a store made by an older kg) is read from the store. Removing a
document appends a tombstone *before* the store forgets it, so a block can never outlive its
document and come back. Each generation is a data file ``N.nq`` and an index ``N.idx`` of lines
``add DOC OFFSET LENGTH CRC`` or ``del DOC``, the last line about a document winning;
:meth:`Journal.compact` writes the live blocks into generation N+1 once most bytes are dead.

The graphs derived from the documents (entities, events) change with every build, a subject at
a time, so the journal holds them as blocks of one subject each (``put GRAPH KEY OFFSET LENGTH
CRC``, ``drop GRAPH KEY``; KEY a digest of the subject's IRI) and trusts a graph's blocks only
when they are *sealed*: a refresh writes ``open GRAPH`` (or ``reset GRAPH`` when it recomputes
the whole graph) before it changes the store and ``seal GRAPH`` once the store has every change.
An ``open`` seals again only if the graph was sealed before it, so after a kill anywhere in a
refresh the graph is read from the store until a refresh of the whole graph starts it afresh.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import zlib
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..faults import crash_point

COMPACT_WHEN_DEAD = 0.5  # share of dead bytes (removed or rewritten documents) that triggers compaction
COMPACT_MIN_BYTES = 1 << 24

Entry = tuple[int, int, int]  # offset, length, CRC-32 of a block in the data file


def subject_key(iri: str) -> str:
    """The index's name for a derived graph's subject: IRIs may hold any character, keys are ASCII."""
    return hashlib.blake2b(iri.encode("utf-8"), digest_size=16).hexdigest()


class Index:
    """What an index file says: the live document blocks, each derived graph's live blocks, and
    the derived graphs whose blocks are sealed (complete and equal to the store's graph)."""

    def __init__(self) -> None:
        self.documents: dict[str, Entry] = {}
        self.derived: dict[str, dict[str, Entry]] = {}
        self._state: dict[str, str] = {}  # graph -> sealed | open (from a sealed or reset state) | broken

    @property
    def sealed(self) -> set[str]:
        return {graph for graph, state in self._state.items() if state == "sealed"}

    def read(self, line: str) -> None:
        fields = line.split()
        if not line.endswith("\n") or not fields:
            return
        kind, args = fields[0], fields[1:]
        if kind in ("add", "put") and len(args) == (4 if kind == "add" else 5):
            try:
                entry = (int(args[-3]), int(args[-2]), int(args[-1]))
            except ValueError:
                return
            if kind == "add":
                self.documents[args[0]] = entry
            else:
                self.derived.setdefault(args[0], {})[args[1]] = entry
        elif kind == "del" and len(args) == 1:
            self.documents.pop(args[0], None)
        elif kind == "drop" and len(args) == 2:
            self.derived.get(args[0], {}).pop(args[1], None)
        elif kind == "reset" and len(args) == 1:
            self.derived[args[0]] = {}
            self._state[args[0]] = "open"
        elif kind == "open" and len(args) == 1:
            self._state[args[0]] = "open" if self._state.get(args[0]) == "sealed" else "broken"
        elif kind == "seal" and len(args) == 1:
            if self._state.get(args[0]) == "open":
                self._state[args[0]] = "sealed"

    def live_bytes(self) -> int:
        entries = [*self.documents.values(), *(e for blocks in self.derived.values() for e in blocks.values())]
        return sum(length for _, length, _ in entries)


class Journal:
    """The journal of one store folder; writable only by the build that holds the store's lock."""

    def __init__(self, folder: Path, writable: bool = False) -> None:
        self.folder = folder
        self.generation = self._current_generation()
        if writable:
            folder.mkdir(exist_ok=True)
            self._remove_leftovers()
            self._terminate_partial_line()

    def _current_generation(self) -> int:
        """The newest generation whose index exists (compaction renames the index last)."""
        if not self.folder.is_dir():
            return 0
        gens = [int(p.stem) for p in self.folder.glob("*.idx") if p.stem.isdigit()]
        return max(gens, default=0)

    def _remove_leftovers(self) -> None:
        """Files of older generations and unfinished compactions (a compaction killed midway)."""
        for path in self.folder.iterdir():
            generation = path.name.split(".", 1)[0]
            if path.name.endswith(".tmp") or (generation.isdigit() and int(generation) != self.generation):
                path.unlink(missing_ok=True)

    def _path(self, suffix: str, generation: int | None = None) -> Path:
        return self.folder / f"{self.generation if generation is None else generation:06d}.{suffix}"

    def _terminate_partial_line(self) -> None:
        """A build killed mid-line leaves an index without its final newline: end that line, so it
        is ignored instead of swallowing the next record."""
        index = self._path("idx")
        if index.exists() and index.stat().st_size:
            with open(index, "rb+") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")

    # ------------------------------------------------------------------ writing

    def append(self, blocks: Iterable[tuple[str, bytes]]) -> None:
        """Append documents' serialized graphs: data first, then the index lines naming them."""
        self._append("add", blocks)

    def _append(self, record: str, blocks: Iterable[tuple[str, bytes]]) -> None:
        """Blocks of data, then index lines ``RECORD NAME OFFSET LENGTH CRC`` naming them."""
        records = []
        with open(self._path("nq"), "ab") as data:
            offset = data.tell()
            for name, payload in blocks:
                data.write(payload)
                records.append(f"{record} {name} {offset} {len(payload)} {zlib.crc32(payload)}\n")
                offset += len(payload)
        crash_point("journal-data")
        self._lines(records)

    def _lines(self, lines: list[str]) -> None:
        if lines and self.folder.is_dir():
            with open(self._path("idx"), "a", encoding="ascii") as index:
                index.writelines(lines)

    def forget(self, doc_ids: Iterable[str]) -> None:
        """Tombstones for documents about to leave the store."""
        self._lines([f"del {doc_id}\n" for doc_id in doc_ids])

    # a derived graph: open (or reset), put / drop its subjects' blocks, seal once the store has them

    def open(self, graph: str, reset: bool = False) -> None:
        """Before a refresh changes ``graph`` in the store; ``reset``: it recomputes all of it."""
        self._lines([f"{'reset' if reset else 'open'} {graph}\n"])

    def put(self, graph: str, blocks: Iterable[tuple[str, bytes]]) -> None:
        """The serialized quads of subjects (IRI, N-Quads) of ``graph``; an empty block drops its subject."""
        blocks = list(blocks)
        self._append(f"put {graph}", [(subject_key(iri), payload) for iri, payload in blocks if payload])
        self.drop(graph, [iri for iri, payload in blocks if not payload])

    def drop(self, graph: str, iris: Iterable[str]) -> None:
        self._lines([f"drop {graph} {subject_key(iri)}\n" for iri in iris])

    def seal(self, graph: str) -> None:
        """After the store holds every change the refresh of ``graph`` made."""
        self._lines([f"seal {graph}\n"])

    # ------------------------------------------------------------------ reading

    def index(self) -> Index:
        index = Index()
        path = self._path("idx")
        if path.exists():
            with open(path, encoding="ascii", errors="replace") as f:
                for line in f:
                    index.read(line)
        return index

    def blocks(self) -> dict[str, Entry]:
        """Document id -> (offset, length, crc) of its newest block, for documents not forgotten since."""
        return self.index().documents

    def copy_to(self, output: IO[bytes], doc_ids: set[str]) -> set[str]:
        """Write the journalled graphs of ``doc_ids`` to ``output``; returns the documents written
        (the others, missing or failing their checksum, are the caller's to read from the store)."""
        return {doc for doc, _, _ in self._copy(output, doc_ids)}

    def copy_derived(self, output: IO[bytes], graphs: Iterable[str]) -> set[str]:
        """Write each of ``graphs`` (IRIs of derived graphs) whose blocks are sealed and all check
        out; returns the graphs written (the others are the caller's to read from the store)."""
        index = self.index()
        done = set()
        for graph in graphs:
            if graph in index.sealed and self._copy_all(output, index.derived.get(graph, {})) is not None:
                done.add(graph)
        return done

    def _copy(self, output: IO[bytes], doc_ids: set[str]) -> list[tuple[str, int, int]]:
        """(document, length, crc) of each block written, in the order written."""
        wanted = sorted((entry, doc) for doc, entry in self.blocks().items() if doc in doc_ids)
        written = []
        with self._data() as data:
            for (offset, length, crc), doc in wanted:
                block = data[offset:offset + length]
                if len(block) == length and zlib.crc32(block) == crc:
                    output.write(block)
                    written.append((doc, length, crc))
        return written

    def _copy_all(self, output: IO[bytes], blocks: dict[str, Entry]) -> list[tuple[str, int, int]] | None:
        """Write every block of ``blocks`` (key -> entry) or, if one is damaged, none; the
        (key, length, crc) written, or None."""
        wanted = sorted((entry, key) for key, entry in blocks.items())
        with self._data() as data:
            for (offset, length, crc), _ in wanted:  # checked first: a graph is copied whole or not at all
                if offset + length > len(data) or zlib.crc32(data[offset:offset + length]) != crc:
                    return None
            for (offset, length, _), _ in wanted:
                output.write(data[offset:offset + length])
        return [(key, length, crc) for (_, length, crc), key in wanted]

    @contextmanager
    def _data(self):
        """The data file, mapped (an empty buffer if there is none yet)."""
        data_path = self._path("nq")
        if not data_path.exists() or not data_path.stat().st_size:
            yield b""
            return
        with open(data_path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            yield data

    # ------------------------------------------------------------------ upkeep

    def dead_share(self) -> float:
        """The share of the data file no live block uses (0 below :data:`COMPACT_MIN_BYTES`)."""
        data_path = self._path("nq")
        size = data_path.stat().st_size if data_path.exists() else 0
        if size < COMPACT_MIN_BYTES:
            return 0.0
        return 1.0 - self.index().live_bytes() / size

    def compact(self, doc_ids: set[str]) -> bool:
        """Rewrite the blocks of ``doc_ids`` (the store's documents) into a new generation when
        most of the data file is dead; returns whether it did. The new index is renamed into place
        last, so a kill at any point leaves one complete generation to read."""
        if self.dead_share() < COMPACT_WHEN_DEAD:
            return False
        old, new = self.generation, self.generation + 1
        tmp_data, tmp_index = self._path("nq.tmp", new), self._path("idx.tmp", new)
        current = self.index()
        lines, offset = [], 0

        def record(kind: str, written: list[tuple[str, int, int]]) -> None:
            nonlocal offset
            for name, length, crc in written:
                lines.append(f"{kind} {name} {offset} {length} {crc}\n")
                offset += length

        with open(tmp_data, "wb") as out:
            record("add", self._copy(out, doc_ids))
            for graph in sorted(current.sealed):  # an unsealed graph is read from the store anyway
                written = self._copy_all(out, current.derived.get(graph, {}))
                if written is not None:
                    lines.append(f"reset {graph}\n")
                    record(f"put {graph}", written)
                    lines.append(f"seal {graph}\n")
            out.flush()
            os.fsync(out.fileno())
        with open(tmp_index, "w", encoding="ascii") as index:
            index.writelines(lines)
            index.flush()
            os.fsync(index.fileno())
        os.replace(tmp_data, self._path("nq", new))
        os.replace(tmp_index, self._path("idx", new))
        self.generation = new
        for suffix in ("nq", "idx"):
            self._path(suffix, old).unlink(missing_ok=True)
        return True
