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
"""

from __future__ import annotations

import mmap
import os
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from ..faults import crash_point

COMPACT_WHEN_DEAD = 0.5  # share of dead bytes (removed or rewritten documents) that triggers compaction
COMPACT_MIN_BYTES = 1 << 24


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
        records = []
        with open(self._path("nq"), "ab") as data:
            offset = data.tell()
            for doc_id, payload in blocks:
                data.write(payload)
                records.append(f"add {doc_id} {offset} {len(payload)} {zlib.crc32(payload)}\n")
                offset += len(payload)
        crash_point("journal-data")
        with open(self._path("idx"), "a", encoding="ascii") as index:
            index.writelines(records)

    def forget(self, doc_ids: Iterable[str]) -> None:
        """Tombstones for documents about to leave the store."""
        lines = [f"del {doc_id}\n" for doc_id in doc_ids]
        if lines and self.folder.is_dir():
            with open(self._path("idx"), "a", encoding="ascii") as index:
                index.writelines(lines)

    # ------------------------------------------------------------------ reading

    def blocks(self) -> dict[str, tuple[int, int, int]]:
        """Document id -> (offset, length, crc) of its newest block, for documents not forgotten since."""
        live: dict[str, tuple[int, int, int]] = {}
        index = self._path("idx")
        if not index.exists():
            return live
        with open(index, encoding="ascii", errors="replace") as f:
            for line in f:
                fields = line.split()
                if len(fields) == 5 and fields[0] == "add" and line.endswith("\n"):
                    try:
                        live[fields[1]] = (int(fields[2]), int(fields[3]), int(fields[4]))
                    except ValueError:
                        continue
                elif len(fields) == 2 and fields[0] == "del":
                    live.pop(fields[1], None)
        return live

    def copy_to(self, output: IO[bytes], doc_ids: set[str]) -> set[str]:
        """Write the journalled graphs of ``doc_ids`` to ``output``; returns the documents written
        (the others, missing or failing their checksum, are the caller's to read from the store)."""
        return {doc for doc, _, _ in self._copy(output, doc_ids)}

    def _copy(self, output: IO[bytes], doc_ids: set[str]) -> list[tuple[str, int, int]]:
        """(document, length, crc) of each block written, in the order written."""
        data_path = self._path("nq")
        if not data_path.exists() or not data_path.stat().st_size:
            return []
        wanted = sorted((entry, doc) for doc, entry in self.blocks().items() if doc in doc_ids)
        written = []
        with open(data_path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            for (offset, length, crc), doc in wanted:
                block = data[offset:offset + length]
                if len(block) == length and zlib.crc32(block) == crc:
                    output.write(block)
                    written.append((doc, length, crc))
        return written

    # ------------------------------------------------------------------ upkeep

    def dead_share(self) -> float:
        """The share of the data file no live block uses (0 below :data:`COMPACT_MIN_BYTES`)."""
        data_path = self._path("nq")
        size = data_path.stat().st_size if data_path.exists() else 0
        if size < COMPACT_MIN_BYTES:
            return 0.0
        return 1.0 - sum(length for _, length, _ in self.blocks().values()) / size

    def compact(self, doc_ids: set[str]) -> bool:
        """Rewrite the blocks of ``doc_ids`` (the store's documents) into a new generation when
        most of the data file is dead; returns whether it did. The new index is renamed into place
        last, so a kill at any point leaves one complete generation to read."""
        if self.dead_share() < COMPACT_WHEN_DEAD:
            return False
        old, new = self.generation, self.generation + 1
        tmp_data, tmp_index = self._path("nq.tmp", new), self._path("idx.tmp", new)
        with open(tmp_data, "wb") as out:
            written = self._copy(out, doc_ids)
            out.flush()
            os.fsync(out.fileno())
        with open(tmp_index, "w", encoding="ascii") as index:
            offset = 0
            for doc, length, crc in written:
                index.write(f"add {doc} {offset} {length} {crc}\n")
                offset += length
            index.flush()
            os.fsync(index.fileno())
        os.replace(tmp_data, self._path("nq", new))
        os.replace(tmp_index, self._path("idx", new))
        self.generation = new
        for suffix in ("nq", "idx"):
            self._path(suffix, old).unlink(missing_ok=True)
        return True
