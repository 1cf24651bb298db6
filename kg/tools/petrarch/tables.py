"""The decisions: how CAMEO codes map onto kg's classes and relations, and which verbs are out.

This is the one definition; the generated ``ontology/petrarch/README.md`` prints these tables.
"""

from __future__ import annotations

# CAMEO role codes (the three-letter parts of an actor code after its country) -> kg class and
# what the role is, for named actors and for agent nouns alike. A code is read left to right and
# its first role in this table decides ("SYRREBMUS": REB, "IGOUNOKID": IGO, "USAGOVMIL": GOV). A named person is a Person
# whatever the role: the role is the office held, kept in the record as metadata.
ROLES: dict[str, tuple[str, str]] = {
    "REB": ("ArmedGroup", "rebels"),
    "INS": ("ArmedGroup", "insurgents"),
    "SEP": ("ArmedGroup", "separatist rebels"),
    "IMG": ("ArmedGroup", "international militarized groups (al-Qaeda, ISIL)"),
    "UAF": ("ArmedGroup", "unidentified armed forces (gunmen)"),
    "MIL": ("ArmedForces", "a state's military"),
    "GOV": ("GovernmentAgency", "government"),
    "LEG": ("GovernmentAgency", "legislature"),
    "JUD": ("GovernmentAgency", "judiciary"),
    "COP": ("GovernmentAgency", "police"),
    "SPY": ("GovernmentAgency", "intelligence services"),
    "IGO": ("InternationalOrganization", "intergovernmental organization"),
    "MED": ("MediaOrganization", "media"),
    "NGO": ("Organization", "non-governmental organization"),
    "NGM": ("Organization", "non-governmental movement"),
    "MNC": ("Organization", "multinational corporation"),
    "BUS": ("Organization", "business"),
    "OPP": ("Organization", "political opposition"),
    "PTY": ("Organization", "political party"),
    "LAB": ("Organization", "labour"),
    "HRI": ("Organization", "human rights"),
    "EDU": ("Organization", "education"),
    "HLH": ("Organization", "health"),
    "ENV": ("Organization", "environment"),
    "DEV": ("Organization", "development"),
    "REL": ("Organization", "religious"),
    "ELI": ("Organization", "elites (a former office holder is a Person)"),
    "CVL": ("PersonGroup", "civilians"),
    "REF": ("PersonGroup", "refugees"),
}
ROLE_CLASSES = {role: cls for role, (cls, _) in ROLES.items()}

# Agent nouns are kept for these roles only: their nouns stand for an actor kg models. The others
# (AGR farmers, BUS businessmen, EDU teachers, HLH doctors, CRM criminals, LAB workers, the
# religions) name people by trade or faith, which says nothing about whose side they act for.
AGENT_ROLES = frozenset({"REB", "INS", "SEP", "IMG", "UAF", "MIL", "GOV", "LEG", "JUD", "COP", "SPY",
                         "IGO", "MED", "NGO", "OPP", "PTY", "CVL", "REF"})

# CAMEO event codes -> kg relation and why. A code maps by its longest prefix listed here; None
# is a decision not to map. Nothing in CAMEO is a relocation, a part-of, a leadership or a
# membership, so evacuatedTo, locatedIn, basedIn, leaderOf and memberOf get no verbs.
CODES: dict[str, tuple[str | None, str]] = {
    "180": ("attacked", "unconventional violence (rampage, terrorize)"),
    "181": ("captured", "abduct, hijack, take hostage: persons taken captive"),
    "182": ("attacked", "physical assault"),
    "1821": (None, "sexual assault: a crime against a person, not an attack between parties"),
    "1822": (None, "torture: of captives, not an attack"),
    "183": ("attacked", "suicide, car, roadside bombing"),
    "184": (None, "human shields: no one is attacked by the act"),
    "185": ("attacked", "attempted assassination"),
    "186": ("attacked", "assassination"),
    "19": ("attacked", ("190 conventional force, 191 blockade and siege (the lexicon's besiege), 193 small "
                        "arms, 194 artillery and tanks, 195 aerial weapons, 196 violating a ceasefire")),
    "192": ("captured", "occupy territory (seize, capture, take control)"),
    "200": ("attacked", "unconventional mass violence"),
    "201": (None, "mass expulsion: people driven out, no place taken, no actor attacked"),
    "202": ("attacked", "mass killings"),
    "203": ("attacked", "ethnic cleansing"),
    "204": ("attacked", "weapons of mass destruction"),
    "173": ("captured", ("arrest, detain: only the custody verbs (CUSTODY_VERBS); the code also covers "
                         "charging and suing")),
    "175": (None, "violent repression of protest: policing; its killings are 19x too"),
    "171": (None, "seize or damage property: things; a place taken is 192 in its patterns"),
    "0871": ("ceasefireWith", "declare a truce or ceasefire"),
    "0872": (None, "ease a blockade: not a ceasefire"),
    "0873": (None, "demobilize"),
    "0874": (None, "retreat or surrender: one side's act"),
    "086": (None, "allow peacekeepers, inspectors, aid in: not between belligerents"),
    "062": ("allyOf", "military cooperation (fight alongside, joint operations, arms deals)"),
    "072": ("allyOf", "military aid (send troops, arms)"),
    "074": ("allyOf", "military protection (defend, deploy to protect)"),
    "050": ("allyOf", "diplomatic cooperation: only the alliance verbs (ALLIANCE_VERBS)"),
    "060": ("allyOf", "material cooperation: likewise"),
    "070": ("allyOf", "aid: likewise"),
    "051": (None, "praise: words, not sides"),
    "052": (None, "defend verbally"),
    "053": (None, "rally support: verbal"),
    "054": (None, "diplomatic recognition"),
    "055": (None, "apologize"),
    "056": (None, "forgive"),
    "057": (None, "sign a formal agreement: a deal between enemies is no alliance (kg.ttl)"),
    "061": (None, "economic cooperation: trade"),
    "063": (None, "judicial cooperation: extradition"),
    "064": (None, "sharing intelligence: too weak a tie to call an alliance"),
    "071": (None, "economic aid"),
    "073": (None, "humanitarian aid: to civilians, not backing a side"),
    "075": (None, "asylum"),
    "03": (None, "intentions (pledge to, offer to): not acts"),
    "02": (None, "appeals and requests"),
}
CODE_RELATIONS = {code: relation for code, (relation, _) in CODES.items()}

# Verbs that mean backing or alliance between actors. The general cooperation codes (050, 060,
# 070) count only for them: the rest of those blocks (agree, bargain, coordinate, organize, boost,
# enact, establish, allocate, serve, benefit, ...) is cooperation enemies also do, or no tie.
ALLIANCE_VERBS = frozenset({"ally", "side with", "back", "support", "collaborate", "cooperate", "aid",
                            "assist", "help", "reinforce", "bolster", "sponsor", "fund", "finance",
                            "arm", "join forces"})
# Verbs of taking persons into custody: 173 counts only for them, not for charge, sue, prosecute.
CUSTODY_VERBS = frozenset({"arrest", "detain", "apprehend", "re-arrest", "rearrest", "imprison", "jail",
                           "capture", "seize", "round up", "abduct", "kidnap", "snatch"})
CODE_VERBS = {"050": ALLIANCE_VERBS, "060": ALLIANCE_VERBS, "070": ALLIANCE_VERBS, "173": CUSTODY_VERBS}

_HARM = "harms things or people in general (a WordNet synonym in CAMEO's block), no attack between parties"
_WIN = "wins or prevails: contests, elections, difficulties"
_ARGUE = "argues, competes or disagrees"
_THING = "acts on objects; no actor as its object"
_PUNISH = "punishment or abuse of a person in custody"
_PLACE = "where someone lives or is (a WordNet synonym of occupy)"
_SUPPLY = "supplies or dresses in general (a WordNet synonym of arm)"
_LEGAL = "legal action, not custody"

# Verbs CAMEO codes to a mapped code but that kg must not take, with the reason: most are WordNet
# synonyms sharing a CAMEO block with a conflict verb, whose ordinary senses are something else.
# Their patterns stay in patterns.jsonl (they belong to the block), but the verb gets no row.
EXCLUDED_VERBS = {
    "inhabit": _PLACE, "reside": _PLACE, "infest": "pests (a WordNet synonym of invade)",
    "match": _ARGUE, "quarrel": _ARGUE, "conflict": _ARGUE, "altercate": _ARGUE, "duel": _ARGUE,
    "wrestle": _ARGUE, "grapple": _ARGUE, "pit": _ARGUE, "square off": _ARGUE, "struggle": _ARGUE,
    "hammer": "criticizes, or a tool", "clobber": _WIN, "beat": _WIN, "best": _WIN, "defeat": _WIN,
    "overcome": _WIN, "surmount": _WIN, "master": _WIN, "dominate": _WIN, "overshadow": _WIN,
    "overtake": _WIN, "overwhelm": _WIN, "overpower": _WIN,
    "break": _THING, "bust": _THING, "crack": _THING, "shatter": _THING, "smash": _THING, "tear": _THING,
    "flatten": _THING, "pound": "a unit of money and weight", "thump": _THING, "ram": _THING,
    "explode": "bombs explode: no attacker and target", "detonate": "bombs are detonated: no target",
    "damage": _HARM, "harm": _HARM, "hurt": _HARM, "injure": _HARM, "bruise": _HARM, "impair": _HARM,
    "mar": _HARM, "spoil": _HARM, "tarnish": _HARM, "vitiate": _HARM, "corrupt": _HARM,
    "contaminate": _HARM, "ruin": _HARM, "ravage": "storms and diseases ravage", "eradicate": _HARM,
    "mistreat": _PUNISH, "cane": _PUNISH, "flog": _PUNISH, "lash": _PUNISH, "whip": _PUNISH,
    "abuse": _PUNISH, "slap": "imposes sanctions or fines", "hang": _PUNISH, "string up": _PUNISH,
    "ravish": _PUNISH, "scuffle": "minor brawls", "kick": "sport; kicks out", "rip": "criticizes",
    "stone": "a noun in most uses; stoning is rare", "stamp out": "corruption, disease",
    "disarm": "disarmament is a deal, not an attack", "subjugate": _WIN,
    "circle": "circles, flies over", "ring": "telephones", "wind": "winds down", "surround": "crowds, issues",
    "die": "the subject dies: no attacker", "crash": "accidents", "engage": "hires, takes part, talks",
    "aim": "intends", "target": "aims policies and campaigns (kg's own attack rule lists it with its slots)",
    "take": "every sense (kg's capture rule lists it with its own slots)",
    "catch": "a ball, a flight, a disease", "grab": "attention, headlines", "nab": "colloquial",
    "confine": "restricts to a topic or place",
    "prosecute": _LEGAL, "sue": _LEGAL, "charge": _LEGAL, "indict": _LEGAL, "convict": _LEGAL, "try": _LEGAL,
    "serve": "serves a term, customers, a role", "benefit": "gains",
    "attire": _SUPPLY, "gear": _SUPPLY, "outfit": _SUPPLY, "stock": _SUPPLY, "furnish": _SUPPLY,
    "render": _SUPPLY, "tender": _SUPPLY, "tend": "looks after", "look after": "looks after",
    "ward": "wards off", "overthrow": "a coup: a change of power kg has no relation for",
}

# Verbs that are conflict verbs only with a pattern's preposition or object ("fire at", "strike a
# target", "sign a ceasefire"), or whose bare sense is as often something else: their rows say
# "alone": false even where the bare verb's code maps, so a loader takes them with a pattern only.
PATTERN_ONLY_VERBS = {
    "hit": "hits records, headlines", "strike": "strikes deals, workers strike", "fire": "dismisses",
    "shoot": "films, photographs", "blast": "criticizes", "blow": "winds blow", "blow up": "anger",
    "crush": "crushes hopes", "take over": "companies", "move": "moves in general", "enter": "enters talks",
    "send": "sends letters", "deploy": "deploys in general", "sign": "signs in general", "back": "moves back",
    "help": "helps do anything", "storm": "storms out, weather", "seize": "seizes goods, chances",
    "capture": "captures attention", "defend": "defends verbally", "protect": "protects civilians",
    "guard": "guards in general", "shield": "shields from criticism", "safeguard": "safeguards interests",
    "equip": "equips in general", "pelt": "weather", "foray": "forays into politics",
    "foray into": "forays into politics", "intrude on": "privacy",
}


def role_of(code: str) -> str | None:
    """The first role of a CAMEO actor or agent code that :data:`ROLE_CLASSES` has ("SYRREBMUS" ->
    REB, "~GOVMIL" -> GOV): the country part comes first and is no role."""
    code = code.strip("~")
    return next((c for c in (code[i:i + 3] for i in range(0, len(code), 3)) if c in ROLE_CLASSES), None)
