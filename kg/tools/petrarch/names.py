"""Names and words: PETRARCH's UPPER_CASE phrases as cased names, and the English word lists.

PETRARCH writes every name in capitals with underscores ("JABHAT_AL-NUSRA_"). :func:`display_name`
restores a sensible casing: words capitalized, function words and name particles lower case
("Islamic State of Iraq and the Levant", "Mohammed bin Salman"), Arabic articles joined to their
word ("al-Nusra", "ash-Sham"), acronyms in capitals (words without vowels, dotted initials, words
the files use as acronyms). :func:`common_words` is the word list that keeps everyday words from
becoming names.
"""

from __future__ import annotations

import re

from .dictionaries import RawAgent, Synset, VerbBlock

# Lower-case inside a name: English function words and the particles of Arabic, Romance, Dutch and
# German names ("Islamic State of Iraq and the Levant", "Mohammed bin Salman", "Jabhat al-Nusra").
LOWER_WORDS = frozenset("a an and at by de del della der des di do dos da das du en for from in la le les "
                        "of on or the to van von y e et au aux il per pour sur wa wal bin bint ibn".split())
# Arabic articles, lower case inside a name when hyphenated ("AL-NUSRA" -> "al-Nusra"). Written
# with an underscore they join the next word when they are Arabic for sure: "al" always, and the
# assimilated forms before their own consonant ("AD_DIN" -> "ad-Din", "ASH_SHAM" -> "ash-Sham");
# "EL_SALVADOR" stays two words.
ARTICLES = frozenset({"al", "el", "ash", "ad", "az", "ar", "as", "at", "an", "ul"})
_SUN_ARTICLES = {"ad": "d", "ash": "sh", "as": "s", "az": "z", "ar": "r", "at": "t", "an": "n"}
# Abbreviated titles that look like acronyms (no vowel) but are written "Mr", "Dr", "St", "Lt"
_TITLE_ABBREVIATIONS = frozenset("mr mrs ms dr st jr sr lt mt ft sgt cpl pvt capt gen col maj adm brig cmdr".split())
_HYPHEN_SUFFIXES = frozenset("based led backed affiliated linked born run controlled held supported allied "
                             "owned funded sponsored style era aligned".split())
_ROMAN = re.compile(r"^(?=[ivxl]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_VOWELS = frozenset("aeiouy")

# Common English words that are never an actor's name on their own, beside the words of the
# dictionaries themselves (agent nouns, verbs and their forms, synset words: see common_words).
STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers him his how i if in into is it its just me more most my no nor
not now of off on once only or other our out over own same she should so some such than that the
their them then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your
one two three four five six seven eight nine ten first second third new old great big small good
bad high low long short black white red green blue yellow brown grey gray gold golden silver dark
light young early late last next north south east west northern southern eastern western central
january february march april may june july august september october november december monday
tuesday wednesday thursday friday saturday sunday today tomorrow yesterday year years day days
world people man men woman women child children family home house city town village country
state states nation nations national international united union republic democratic people's
popular federal royal general public social free party group groups front movement council
committee association organization organisation league alliance coalition force forces army
military police security government ministry department office agency service services board
bank fund company corporation news media press radio television times post star sun mirror
voice guardian independent post herald tribune journal daily world chronicle observer globe
justice freedom liberty peace unity hope faith truth victory revolution resistance change reform
progress future action power order law rights human islamic christian jewish muslim arab
holy sacred martyrs martyr god allah lord prophet brothers brotherhood sons soldiers warriors
""".split())


def tokens(text: str) -> list[str]:
    """The words of a PETRARCH phrase: underscores and blanks separate them."""
    return [t for t in re.split(r"[_\s]+", text.replace("\ufeff", "")) if t]


def split_acronyms(text: str) -> tuple[str, list[str]]:
    """ "BASQUE_FATHERLAND_AND_FREEDOM_(ETA)_" -> ("BASQUE_FATHERLAND_AND_FREEDOM", ["ETA"]); words in
    parentheses that are no acronym stay in the name ("KOREA_(NORTH)_" -> "KOREA NORTH")."""
    found = []

    def take(match: re.Match) -> str:
        inner = match.group(1).strip("_ ")
        letters = re.sub(r"[^A-Za-z]", "", inner)
        rest = tokens(re.sub(r"\([^)]*\)", " ", text))
        if re.fullmatch(r"[A-Z][A-Z0-9.\-]{1,9}", inner) and inner.lower() not in STOP_WORDS and (
                len(letters) <= 5 or letters.lower() in initials(rest)):
            found.append(inner)
            return " "
        return f" {inner} "

    return re.sub(r"\(([^)]*)\)", take, text), found


def initials(words: list[str]) -> set[str]:
    """The acronyms a phrase can have: initials of all its words, and of its words but the small ones."""
    words = [w.lower() for w in words]
    every = "".join(w[0] for w in words if w[0].isalnum())
    content = "".join(w[0] for w in words if w not in LOWER_WORDS and w[0].isalnum())
    return {every, content} - {""}


def _case_word(word: str, first: bool, acronym: bool, last: bool = False) -> str:
    """One word (or one part of a hyphenated word) of a name, cased."""
    low = word.lower()
    letters = re.sub(r"[^a-z]", "", low)
    if re.fullmatch(r"\d+(st|nd|rd|th)", low):
        return low  # 3rd
    if acronym or any(c.isdigit() for c in word) or re.fullmatch(r"(?:[a-z]\.)+[a-z]?\.?", low):
        return word.upper()  # ISIL, M23, U.N., K.
    if letters and not (set(letters) & _VOWELS) and letters not in _TITLE_ABBREVIATIONS:
        return word.upper()  # PKK, HTS
    if _ROMAN.match(low) and len(low) > 1 and low not in ("mi", "di", "li", "vi", "ill"):
        return word.upper()  # Pius XII
    if low in LOWER_WORDS and not first and not last:
        return low
    out = low
    # capitalize the first letter, the letter after a one-letter prefix and apostrophe (O'Neill,
    # D'Alema), and Mc names (McCain); other letters after an apostrophe stay low (Apo's, Sha'bi)
    out = re.sub(r"^(\W*)(\w)", lambda m: m.group(1) + m.group(2).upper(), out)
    out = re.sub(r"^([A-Za-z]['’])(\w)", lambda m: m.group(1) + m.group(2).upper(), out)
    out = re.sub(r"^(Mc)(\w)", lambda m: m.group(1) + m.group(2).upper(), out)
    return out


def display_name(text: str, acronyms: frozenset[str] = frozenset()) -> str:
    """A PETRARCH UPPER_CASE phrase as a cased name: "JABHAT_AL-NUSRA" -> "Jabhat al-Nusra".

    ``acronyms`` are (lower-case) words known to be acronyms in this entry; words without vowels,
    with digits or dotted initials are acronyms anyway. Arabic articles join the next word with a
    hyphen; function words and name particles are lower case except first; a leading "the" goes
    (kg's name keys ignore it)."""
    words = tokens(text)
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    out: list[str] = []
    join_next = False
    for i, token in enumerate(words):
        last = i == len(words) - 1
        # "ULSTER_DEFENCE_ASSOCIATION/ULSTER_FREEDOM_FIGHTERS": each side of a slash is a word
        word = "/".join(_case_token(part, words, i, first=i == 0 and k == 0, last=last, acronyms=acronyms)
                        for k, part in enumerate(token.split("/")))
        if join_next:
            out[-1] = out[-1] + "-" + word
        else:
            out.append(word)
        join_next = "-" not in token and _joins(words, i)
    return " ".join(out)


def _case_token(token: str, words: list[str], i: int, first: bool, last: bool, acronyms: frozenset[str]) -> str:
    """One word of a name, its hyphenated parts cased one by one ("Anti-Imperialist", "al-Sham")."""
    pieces = token.split("-")
    if any(c.isdigit() for c in token) and not re.search(r"\d(st|nd|rd|th)\b", token.lower()):
        return token.upper()  # MS-13, AH-64
    cased = []
    for j, piece in enumerate(pieces):
        low = piece.lower()
        if not piece:
            cased.append(piece)
        elif low in ARTICLES and (j + 1 < len(pieces) or (len(pieces) == 1 and _joins(words, i))):
            cased.append(low.capitalize() if first and j == 0 else low)
        elif j > 0 and low in _HYPHEN_SUFFIXES:
            cased.append(low)  # "Qatar-based", "US-led"
        else:
            cased.append(_case_word(piece, first and j == 0, low in acronyms, last=last))
    return "-".join(cased)


def _joins(words: list[str], i: int) -> bool:
    """Whether words[i] is an Arabic article written apart that joins the next word."""
    if i + 1 >= len(words):
        return False
    low, following = words[i].lower(), words[i + 1].lower()
    if low == "al":
        return following not in LOWER_WORDS and following[:1].isalpha()
    return low in _SUN_ARTICLES and following.startswith(_SUN_ARTICLES[low]) and following not in LOWER_WORDS


def common_words(agents: list[RawAgent], synsets: dict[str, Synset], blocks: list[VerbBlock]) -> frozenset[str]:
    """Lower-case English words no actor is named by alone: :data:`STOP_WORDS`, every word of an
    agent noun phrase and its plural, and every verb, verb form and synset word of the CAMEO file.
    The dictionaries' own vocabulary is the domain's ("militant", "shell", "forces")."""
    words = set(STOP_WORDS)
    for agent in agents:
        for token in tokens(agent.phrase.lower()):
            words.update({token, plural(token)})
    for synset in synsets.values():
        for phrase in synset.phrases:
            words.update(t.lower().strip("_") for t in tokens(phrase))
    for block in blocks:
        for verb in block.verbs:
            for text in (verb.text, *verb.forms):
                words.update(t.lower().strip("+_") for t in tokens(text))
            base = tokens(verb.text.replace("+", " ").lower())
            if len(base) == 1:
                words.update(verb_forms(base[0]))
    return frozenset(w for w in words if w.isalpha())


def english_words() -> frozenset[str]:
    """Lower-case words of English that the English model knows as such: in its lemmatizer's
    word index (WordNet's nouns, verbs, adjectives and adverbs) and in its vocabulary. Names the
    model has read lower case are among them ("hezbollah", "russia"), so the filter that reads it
    (:func:`~.actors._add_alias`) takes an organization's one-word alias for a word only where it
    is unlike the organization's name ("Foundation" for El Rukn)."""
    from ...extract.nlp import english_model

    nlp = english_model()
    index = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    known = nlp.vocab.strings
    return frozenset(w for part in ("noun", "verb", "adj", "adv") for w in index[part]
                     if w.isalpha() and w in known)


def plural(noun: str) -> str:
    """The regular English plural of a noun or of a phrase's head ("minister of defence" ->
    "ministers of defence"); PETRARCH's own rule adds -S to the last word, which misses both
    "-ys" after a vowel and heads before "of"."""
    words = noun.split(" ")
    head = next((i - 1 for i, w in enumerate(words) if w == "of" and i > 0), len(words) - 1)
    w = words[head]
    if w.endswith("man") and len(w) > 3 and w not in ("german", "roman", "shaman", "human"):
        w = w[:-3] + "men"
    elif re.search(r"[^aeiou]y$", w):
        w = w[:-1] + "ies"
    elif re.search(r"(s|x|z|ch|sh)$", w):
        w = w + "es"
    elif w[-1:].isalpha():
        w = w + "s"
    words[head] = w
    return " ".join(words)


def verb_forms(verb: str) -> set[str]:
    """Regular forms of a verb: -s, -ed, -ing (PETRARCH's rule, plus consonant + y)."""
    if verb.endswith("e"):
        return {verb + "s", verb + "d", verb[:-1] + "ing"}
    if re.search(r"[^aeiou]y$", verb):
        return {verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
    if re.search(r"(s|x|z|ch|sh)$", verb):
        return {verb + "es", verb + "ed", verb + "ing"}
    return {verb + "s", verb + "ed", verb + "ing"}
