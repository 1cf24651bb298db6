"""Crash points: a process kills itself at a named point of its work, for tests of recovery.

``KG_CRASH_AT=POINT:N`` makes the process SIGKILL itself the Nth time it passes ``POINT`` (N
defaults to 1), the way SQLite's test suite injects faults at chosen points instead of waiting
for a timer to land somewhere. Points are named where they are passed (:func:`crash_point`):

``store-marked``       the write-in-progress markers of a batch are set, its bulk load not begun
``store-loaded``       the batch is bulk-loaded, its journal not yet appended
``journal-data``       the journal's data file has the batch, its index does not
``store-journalled``   the journal has the batch, the markers are not yet cleared
``labels``             every document is written, the entity labels not yet refreshed
``events``             the entity labels are refreshed, the events not yet merged

Unset (as in every normal run) a crash point costs one comparison.
"""

from __future__ import annotations

import os
import signal

ENV_VAR = "KG_CRASH_AT"
_point, _, _nth = (os.environ.get(ENV_VAR) or "").partition(":")
_remaining = int(_nth) if _nth.isdigit() and int(_nth) > 0 else 1
_POINTS = {"store-marked", "store-loaded", "journal-data", "store-journalled", "labels", "events"}
if _point and _point not in _POINTS:
    raise SystemExit(f"Error: {ENV_VAR}={_point!r} is not a crash point ({', '.join(sorted(_POINTS))})")


def crash_point(name: str) -> None:
    """Kill this process here if ``KG_CRASH_AT`` names this point and this is its Nth pass."""
    global _remaining
    if name != _point:
        return
    _remaining -= 1
    if _remaining == 0:
        os.kill(os.getpid(), signal.SIGKILL)
