"""Time expressions of a sentence, normalized against the document's date, at the precision the
text gives: "in 2014" is the year 2014, "in November 2015" the month, "on Sunday" in an article
of Monday 28 August 2017 the day before, "earlier this month" August 2017, "last year" 2016.

The candidates are spaCy's DATE and TIME entities; dateparser reads them, relative to the
document's date (``RELATIVE_BASE``, preferring the past: news reports what has happened), except
a bare weekday, read here as dateparser reads it (tested against it) in 2 µs against its 0.5-2
ms. Where dateparser cannot read the whole expression, its words are tried from the right ("at
the end of July" is read as "July", "late on Sunday" as "on Sunday", "mid-2015" as "2015"): the
qualifier narrows the time without changing its precision. A span ("from April to October 2015")
dates to the year its two ends share. Expressions that measure rather than date ("a six-year
war", "for years", "24 hours") are not times (ontology/events.toml lists the words).
A document without a day-precise date counts from the last time with a year its text has stated
("The offensive launched on 12 May 2016. On 16 May, ..." is 16 May 2016), or else dates only
expressions with a year ("in 2014", read by :func:`kg.dates.parse_date`); nothing is guessed
from today. A day or month without its year takes the year its paragraph set, where it set one,
before the document's. A year that names another event ("the 1992 war", "since 2011") sets no
year for what follows. Those anchors are read once per document and found by bisection, so a
long article costs time linear in its length.
"""

from __future__ import annotations

import calendar
from bisect import bisect_left
from datetime import date, datetime, timedelta
from functools import lru_cache

from ..dates import (
    DATE,
    DATE_TIME,
    YEAR,
    YEAR_MONTH,
    DateError,
    ParsedDate,
    at_precision,
    parse_date,
)
from ..records import EventTime
from .eventrules import EventRules, load_rules

LABELS = ("DATE", "TIME")
# dateparser's `period` -> our precision; a week has no XSD type, and a time of day dates the day
_PERIODS = {"year": YEAR, "month": YEAR_MONTH, "day": DATE, "time": DATE, "part_of_day": DATE}


def expressions(doc) -> list:
    """The candidate time expressions of a parsed document: its DATE and TIME entities."""
    cached = doc.user_data.get("kg_timex")
    if cached is None:
        cached = doc.user_data["kg_timex"] = [e for e in doc.ents if e.label_ in LABELS]
    return cached


def read(span, document_date: ParsedDate | None, rules: EventRules | None = None) -> EventTime | None:
    """The time ``span`` (a DATE or TIME entity) gives, or None if it measures rather than dates
    or cannot be read."""
    rules = rules or load_rules()
    if _measures(span, rules):
        return None
    base = _base(document_date)
    if base is None:  # no day to count from: the narrative's own last date with a year, if any
        base = _narrative(span, rules)
    elif _without_year(span):  # "on 16 May" after "the offensive began on 12 May 2016" in its paragraph
        base = _narrative(span, rules, same_paragraph=True) or base
    cut = next((t.i for t in span[1:-1] if t.lower_ in rules.range_words), None)
    if cut is not None:  # "from April to October 2015": the year both ends share
        end = _first_reading(span.doc[cut + 1:span.end], base, rules)
        start = _first_reading(span.doc[span.start:cut], base, rules)
        if end is None or (start is not None and start.value.year != end.value.year):
            return None
        return EventTime(ParsedDate(date(end.value.year, 1, 1), YEAR), span.text)
    found = _first_reading(span, base, rules)
    return EventTime(found, span.text) if found is not None else None


def _first_reading(span, base: datetime | None, rules: EventRules) -> ParsedDate | None:
    """The date of the first of the span's readings that dateparser reads."""
    words = [t.lower_ for t in span]
    for text in _readings(span):
        found = _parse(text, base, span.label_ == "TIME", "current_period" if isinstance(base, _Narrative) else "past")
        if found is not None:
            return _weekday_of_the_document(found, base, words, rules)
    return None


def document_time(document_date: ParsedDate | None) -> EventTime | None:
    """The fallback time of a statement whose sentence gives none: its document's date (a moment
    counts as its day), marked as such."""
    if document_date is None:
        return None
    value = document_date.value
    if document_date.precision == DATE_TIME:
        document_date = ParsedDate(value.date() if isinstance(value, datetime) else value, DATE)
    return EventTime(document_date, "", from_document=True)


def bounds(time: ParsedDate) -> tuple[date, date]:
    """The first and last day a time may mean: a year's 1 January and 31 December, and so on
    (:attr:`kg.dates.ParsedDate.days`)."""
    return time.days


def _measures(span, rules: EventRules) -> bool:
    """A duration: a unit with a number, a quantity word or a plural, or a modifier ("six-year")."""
    if span[-1].lower_ in rules.earlier:
        return False  # "two days ago", "a week ago": counted back from the document's date
    for t in span:
        if t.lemma_.lower() in rules.units:
            if t.tag_ in ("NNS", "NNPS") or any(u.like_num or u.lower_ in rules.quantities for u in span):
                return True
            if span.root.dep_ in ("amod", "nmod", "compound") and span.root.head.i not in range(span.start, span.end):
                return True
    return span.root.pos_ == "ADJ"


def _readings(span) -> list[str]:
    """The expression, then its words from the right, then what follows a hyphen in its last word."""
    words = [t.text_with_ws for t in span]
    out = ["".join(words[i:]).strip() for i in range(len(words))]
    last = span[-1].text
    if "-" in last:
        out.append(last.rpartition("-")[2])
    return [text for text in dict.fromkeys(out) if text]


def _narrative(span, rules: EventRules, same_paragraph: bool = False) -> _Narrative | None:
    """The last time with a year stated before ``span`` ("The offensive launched on 12 May 2016.
    On 16 May, ..."), in its paragraph if ``same_paragraph``: what a text counts its days and
    months from. A year that names another event ("the 1992 war", "since 2011") sets no narrative.
    Found by bisection in the document's anchors, read once (:func:`_anchors`)."""
    from .docindex import paragraph_of  # spaCy's: not imported where the store merges events

    starts, anchors = _anchors(span.doc, rules)
    i = bisect_left(starts, span.start) - 1
    if i < 0:
        return None
    _start, paragraph, narrative = anchors[i]
    if same_paragraph and paragraph != paragraph_of(span[0]):
        return None
    return narrative


def _anchors(doc, rules: EventRules) -> tuple[list[int], list[tuple[int, int, _Narrative]]]:
    """The time expressions with a year that date a clause, in order: (start, paragraph, time)."""
    from .docindex import paragraph_of

    cached = doc.user_data.get("kg_anchors")
    if cached is None:
        anchors = []
        for e in expressions(doc):
            if _measures(e, rules) or _background(e):
                continue
            found = _first_reading(e, None, rules)
            if found is not None:
                value = found.value
                anchors.append((e.start, paragraph_of(e[0]), _Narrative(value.year, value.month, value.day)))
        cached = doc.user_data["kg_anchors"] = ([a[0] for a in anchors], anchors)
    return cached


def _background(span) -> bool:
    """A time that names another event than the clause's: a noun's modifier ("the 1992 war", "the
    2014 attack") or a span's start ("since 2011")."""
    root = span.root
    if root.dep_ in ("compound", "amod", "nmod", "nummod", "poss") and not span.start <= root.head.i < span.end \
            and root.head.pos_ in ("NOUN", "PROPN"):
        return True
    before = span.doc[span.start - 1] if span.start > 0 else None
    return before is not None and before.lower_ == "since"


_MONTHS = frozenset(m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:]))


def _without_year(span) -> bool:
    """A day or month named without its year ("on 16 May", "in March")."""
    words = [t.lower_.rstrip(".") for t in span]
    return any(w in _MONTHS for w in words) and not any(t.like_num and len(t.text) == 4 for t in span)


class _Narrative(datetime):
    """A base taken from the text rather than the document's date: dateparser reads "16 May" in
    the year it names, not the year before (its current period, not the past)."""


def _base(document_date: ParsedDate | None) -> datetime | None:
    """The moment relative expressions count from: the document's day, if it has one."""
    if document_date is None or document_date.precision not in (DATE, DATE_TIME):
        return None
    value = document_date.value
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    return datetime(value.year, value.month, value.day)


@lru_cache(maxsize=8192)  # articles repeat their expressions ("on Sunday"), and a day's articles their date
def _parse(text: str, base: datetime | None, clock: bool, prefer: str) -> ParsedDate | None:
    """The date ``text`` names, counted from ``base`` preferring ``prefer`` ("past" from a
    document's date, "current_period" from the narrative's); a time of day only where spaCy saw a
    TIME (``clock``): dateparser reads "the 1990s" as a moment of the base day."""
    if base is None:
        try:
            return parse_date(text)  # absolute, with a year: nothing to count from
        except DateError:
            return None
    if prefer == "past" and (weekday := _WEEKDAYS.get(text.lower())) is not None:
        try:
            return _last(weekday, base)
        except OverflowError:  # a weekday before the first day Python can represent (a document of year 1)
            return None
    try:
        data = _parser(base, prefer).get_date_data(text)
    except (ValueError, OverflowError, TypeError, KeyError):  # dateparser's own failures on odd text
        return None
    precision = _PERIODS.get(data.period) if data is not None and data.date_obj is not None else None
    if precision is None or (data.period in ("time", "part_of_day") and not clock):
        return None
    return at_precision(data.date_obj, precision)


# A bare weekday, the time news gives most ("on Sunday"), is read here: dateparser takes 0.5-2 ms
# an expression, and the base changes with each article's date, so its cache misses (measured: 500
# weekday readings in 300 articles, a fifth of the extraction after the parse)
_WEEKDAYS = {name: i for i, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday",
                                                  "saturday", "sunday"))}


def _last(weekday: int, base: datetime) -> ParsedDate:
    """The latest ``weekday`` before ``base``'s day, as dateparser reads a weekday preferring the past
    (the base's own weekday is a week back: see :func:`_weekday_of_the_document`)."""
    return ParsedDate(base.date() - timedelta(days=(base.weekday() - weekday - 1) % 7 + 1), DATE)


@lru_cache(maxsize=64)
def _parser(base: datetime, prefer: str):
    from dateparser.date import DateDataParser

    return DateDataParser(languages=["en"], settings={
        "RELATIVE_BASE": datetime(base.year, base.month, base.day, base.hour, base.minute),  # a plain datetime
        "PREFER_DATES_FROM": prefer,
        "RETURN_TIME_AS_PERIOD": True,
        # no Unix timestamps, and no "2014" read as the time 20:14
        "PARSERS": ["relative-time", "custom-formats", "absolute-time"],
    })


def _weekday_of_the_document(found: ParsedDate, base: datetime | None, words: list[str],
                             rules: EventRules) -> ParsedDate:
    """dateparser reads a bare weekday in the past, so "on Monday" in a Monday's article is a week
    back; news means the day itself, unless a word counts back ("last Monday")."""
    if (base is not None and found.precision == DATE and found.value == base.date() - timedelta(days=7)
            and not set(words) & rules.earlier):
        return ParsedDate(base.date(), DATE)
    return found
