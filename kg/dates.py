"""Date strings -> typed dates with their precision: the one place kg reads a date.

Documents' dates (front matter, JSONL ``date``, an HTML page's published time) are read here at
ingest, and so are the dates a user gives on the command line. A date is kept with what it
states and no more: ``2017`` is a year (``xsd:gYear``), ``August 2017`` a month
(``xsd:gYearMonth``), ``28 August 2017`` a day (``xsd:date``), ``2017-08-28T10:00Z`` a moment
(``xsd:dateTime``, with its zone when the text gives one). A date that cannot be read, or reads
two ways (``03/04/2017``), is refused with a :class:`DateError` saying why: kg never guesses.

ISO 8601 forms are read without dateparser (most feeds use them, and this is on every dated
document's path); everything else goes to dateparser, English only, absolute dates with a year
only, written in full: a relative date ("yesterday") means nothing in a document's metadata,
and a two-digit year is a guess.
"""

from __future__ import annotations

import re
from calendar import month_name
from datetime import date, datetime, timedelta
from functools import cache, lru_cache
from typing import NamedTuple

from .errors import UsageError

YEAR, YEAR_MONTH, DATE, DATE_TIME = "year", "year-month", "date", "dateTime"
XSD_TYPES = {YEAR: "gYear", YEAR_MONTH: "gYearMonth", DATE: "date", DATE_TIME: "dateTime"}
MAX_LENGTH = 64  # longer than any way of writing a date: refused before dateparser reads it
FORMS = "YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[Z|+hh:mm], e.g. 2017-08-28"

# dateparser's `period` -> our precision
_PERIODS = {"year": YEAR, "month": YEAR_MONTH, "week": DATE, "day": DATE, "time": DATE_TIME}
_ISO_YEAR = re.compile(r"\d{4}")
_ISO_MONTH = re.compile(r"(\d{4})-(\d{2})")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?", re.IGNORECASE)
_FULL_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
# day and month both written as numbers, in either order: 03/04/2017, 3.4.2017, 03-04-2017 10:00
_NUMERIC = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-]\d{4}\b")


class DateError(ValueError):
    """A string that is not a date kg can read. The message completes "'<text>' is ...":
    "ambiguous (3 April or 4 March?)", "not a readable date with a year"."""


class ParsedDate(NamedTuple):
    """A date and how much of it is known. ``value`` is a :class:`datetime.date` (the first day
    of the year or month for those precisions) or, for ``dateTime``, a :class:`datetime.datetime`,
    aware when the text gave a zone."""

    value: date
    precision: str

    @property
    def lexical(self) -> str:
        """The canonical XSD form ("2017", "2017-08", "2017-08-28", "2017-08-28T10:00:00Z"): the
        form Oxigraph stores and returns, and one whose prefixes compare as dates do."""
        v = self.value
        if self.precision == YEAR:
            return f"{v.year:04d}"
        if self.precision == YEAR_MONTH:
            return f"{v.year:04d}-{v.month:02d}"
        if self.precision == DATE:
            return v.isoformat()
        assert isinstance(v, datetime)
        text = v.replace(tzinfo=None).isoformat(timespec="microseconds").rstrip("0").rstrip(".")
        return text + _zone(v.utcoffset())

    @property
    def days(self) -> tuple[date, date]:
        """The first and the last day the date covers ("2017" covers 2017-01-01 to 2017-12-31)."""
        v = self.value.date() if isinstance(self.value, datetime) else self.value
        if self.precision == YEAR:
            return date(v.year, 1, 1), date(v.year, 12, 31)
        if self.precision == YEAR_MONTH:
            following = date(v.year + (v.month == 12), v.month % 12 + 1, 1)
            return date(v.year, v.month, 1), following - timedelta(days=1)
        return v, v

    @property
    def xsd(self) -> str:
        """The local name of its XSD datatype: gYear, gYearMonth, date or dateTime."""
        return XSD_TYPES[self.precision]


def _zone(offset: timedelta | None) -> str:
    if offset is None:
        return ""
    if not offset:
        return "Z"
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def parse_date(text: str) -> ParsedDate:
    """Read one date; raises :class:`DateError` if it is not a date or could be two.

    Accepts ISO 8601 (``2017``, ``2017-08``, ``2017-08-28``, ``2017-08-28T10:00Z``) and the
    forms news pages write (``28 August 2017``, ``Aug. 28, 2017``, ``Mon, 28 Aug 2017 10:00:00
    GMT``); a year must be given.
    """
    result = _parse_cached(" ".join(str(text).split()))
    if isinstance(result, str):
        raise DateError(result)
    return result


@lru_cache(maxsize=4096)  # a feed repeats its dates: many articles a day
def _parse_cached(text: str) -> ParsedDate | str:
    """The date, or why not (a string: exceptions are not cached)."""
    if not text:
        return "empty"
    if len(text) > MAX_LENGTH:
        return f"too long for a date (over {MAX_LENGTH} characters)"
    try:
        iso = _parse_iso(text)
    except ValueError:
        return "not a real calendar date"
    if iso is not None:
        return iso
    if not _FULL_YEAR.search(text):  # else dateparser reads "28 August" as August 2028
        return "not a readable date with a year"
    order = None
    numeric = _NUMERIC.match(text)
    if numeric:
        first, second = int(numeric.group(1)), int(numeric.group(2))
        if first <= 12 and second <= 12 and first != second:
            return f"ambiguous ({first} {month_name[second]} or {second} {month_name[first]}?)"
        order = "DMY" if first > 12 else "MDY"
    return _parse_prose(text, order)


def _parse_iso(text: str) -> ParsedDate | None:
    """ISO 8601 forms (ValueError if one names no real day, like 2017-02-30); None if not ISO."""
    if _ISO_YEAR.fullmatch(text):
        return ParsedDate(date(int(text), 1, 1), YEAR)
    month = _ISO_MONTH.fullmatch(text)
    if month:
        return ParsedDate(date(int(month.group(1)), int(month.group(2)), 1), YEAR_MONTH)
    if _ISO_DAY.fullmatch(text):
        return ParsedDate(date.fromisoformat(text), DATE)
    if _ISO_TIME.fullmatch(text):
        return ParsedDate(datetime.fromisoformat(text.upper()), DATE_TIME)
    return None


def _parse_prose(text: str, order: str | None) -> ParsedDate | str:
    try:
        data = _parser(order).get_date_data(text)
    except (ValueError, OverflowError, TypeError, KeyError):  # dateparser's own failures on odd text
        data = None
    if data is None or data.date_obj is None:
        return "not a readable date with a year"
    return at_precision(data.date_obj, _PERIODS.get(data.period, DATE))


def at_precision(moment: datetime, precision: str) -> ParsedDate:
    """``moment`` (as dateparser reads a text) kept to ``precision``: the first day of its year or
    its month, its day, or the moment itself for ``dateTime``."""
    if precision == DATE_TIME:
        return ParsedDate(moment, DATE_TIME)
    day = moment.date()
    if precision == YEAR:
        day = day.replace(month=1, day=1)
    elif precision == YEAR_MONTH:
        day = day.replace(day=1)
    return ParsedDate(day, precision)


@cache
def _parser(order: str | None):
    from dateparser.date import DateDataParser

    settings = {
        "REQUIRE_PARTS": ["year"],  # "28 August" or "Monday" alone would be filled in from today
        "PARSERS": ["custom-formats", "absolute-time"],  # no "yesterday", no Unix timestamps
        "RETURN_TIME_AS_PERIOD": True,  # so that a stated time is told from midnight
    }
    if order:
        settings["DATE_ORDER"] = order
    return DateDataParser(languages=["en"], settings=settings)


def parse_user_date(text: str, option: str | None = None) -> ParsedDate:
    """A date given on the command line (``--since``/``--until``), or a :class:`UsageError`
    whose one-line message names ``option`` and the forms that are understood."""
    try:
        return parse_date(text)
    except DateError as exc:
        where = f"{option}: " if option else ""
        raise UsageError(f"{where}{text!r} is {exc}", hint=f"write {FORMS}") from None
