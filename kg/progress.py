"""A one-line progress display on stderr for long work (build, export, eval).

It draws only when stderr is a terminal and the user did not ask for ``--quiet``, at most five
times a second, and erases itself at the end, so logs and pipes never see it.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, total: int | None = None, unit: str = "", enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label, self.total, self.unit = label, total, unit
        self.count = 0
        self.started = time.monotonic()
        self._drawn = 0.0

    def update(self, n: int = 1) -> None:
        self.count += n
        now = time.monotonic()
        if self.enabled and now - self._drawn >= 0.2:
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.count / max(now - self.started, 1e-9)
        if self.total:
            width = 24
            done = int(width * min(self.count / self.total, 1.0))
            bar = f"[{'#' * done}{'.' * (width - done)}] {self.count}/{self.total}"
        else:
            bar = f"{self.count}"
        self.stream.write(f"\r{self.label}: {bar} {self.unit} ({rate:,.1f}/s) ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
