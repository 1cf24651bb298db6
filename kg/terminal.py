"""Text from outside kg (a SPARQL server's values and messages) as a terminal may show it.

kg's own graphs hold no control characters (ingest drops them), but a server may: ``ESC ] 0 ;``
sets a terminal's title, ``ESC [`` its colours and cursor, U+009B is the one-character form of
``ESC [``, and a carriage return writes over the line. This module imports nothing heavy, so
the command line can use it.
"""

from __future__ import annotations

import re

# C0 but tab and newline (which the places that print text lay out themselves), DEL and C1
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with each control character but tab and newline written as ``\\xNN``: shown,
    never obeyed."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
