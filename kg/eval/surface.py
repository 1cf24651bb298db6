"""How a gold annotation's names are compared with a graph's: normalized, told apart from
pronouns, and read from the graph's naming properties. Shared by the relation scorer of re3d
(:mod:`kg.eval.re3d`) and its entity scorer (:mod:`kg.eval.entities`)."""

from __future__ import annotations

import re
import unicodedata

PRONOUNS = set("it its they them their theirs he him his she her we us our you your i me my who whom whose "
               "which that this these those itself themselves himself herself ourselves".split())
NAME_PROPERTIES = {"label", "preflabel", "altlabel", "surfaceform", "hiddenlabel", "name"}


def norm(text: str) -> str:
    s = unicodedata.normalize("NFKD", str(text))
    s = "".join(c for c in s if not unicodedata.combining(c)).replace("\u2019", "'").replace("\u2018", "'").lower()
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"[^a-z0-9]+", " ", s).strip()
    return re.sub(r"^(the|a|an|our|their|its|his|her) ", "", s)


def is_name(text: str) -> bool:
    """A proper name: not a pronoun, and a word (other than an article) with a capital letter."""
    if not norm(text) or norm(text) in PRONOUNS:
        return False
    return any(w[0].isupper() for w in re.findall(r"[A-Za-z][\w'-]*", text) if w.lower() not in ("the", "a", "an"))
