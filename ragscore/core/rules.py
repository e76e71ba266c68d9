"""The rules an ID, an ID list and a cutoff must meet, and how a broken rule is reported.

Two rule sets exist, declared per dataset:

- ``COURSE`` (the course contract, the default): an ID is a ``str`` matching
  ``[a-z][a-z0-9-]{0,31}``; ID lists hold at most 100 IDs; ``k`` runs from 1 to 100; an answer
  has at most 100 claims.
- ``OPEN`` (real test sets: TREC docnos, chunk IDs, UUIDs): an ID is any ``str`` of 1 to 512
  characters with no control character (U+2028 and U+2029 included) and no leading or
  trailing whitespace; ID lists hold at most 10,000 IDs; ``k`` runs from 1 to 10,000;
  relevance may be graded, and expected claims, generated claims and corpus text may be
  left out (a retrieval-only test set).

Every broken rule raises :class:`InvalidInputError`, a ``ValueError``, whose message names
the field, what was expected and what came, shown safely by :func:`show`.
"""
import re
import unicodedata
from collections import namedtuple
from functools import lru_cache


class InvalidInputError(ValueError):
    """Raised for any malformed corpus, case, run, cutoff or dataset file."""


class IdRules(namedtuple("IdRules", "name pattern described max_ids max_k max_claims "
                                    "open_labels column_pattern max_length plain_bytes")):
    """One declared rule set: what an ID looks like, how long lists and cutoffs may be, and
    whether labels are open (graded relevance allowed; expected claims, generated claims
    and corpus text optional) or the course's (binary, all present).

    ``pattern`` is the rule as Python's ``re`` reads it (a record at a time);
    ``column_pattern`` and ``max_length`` are the same rule for a whole column at once (RE2's
    syntax, as pyarrow's ``match_substring_regex`` reads it, anchored, with the length in
    characters checked apart: RE2 has no lookaround and counts repeats slowly). An ID is a
    ``str`` matching ``pattern`` exactly when it matches ``column_pattern`` and holds 1 to
    ``max_length`` characters: ``tests/engine/columnar/test_idcheck.py`` checks it for
    every code point. ``plain_bytes``: ``(low, high)``, bytes such that any text of 1 to
    ``max_length`` of them is an ID (a column whose bytes all lie there needs no pattern
    read), or ``None``.
    """

    __slots__ = ()

    @property
    def fullmatch(self):
        """The compiled pattern's ``fullmatch`` (call it on ``str`` values only)."""
        return self.pattern.fullmatch

    @property
    def claim_match(self):
        """:attr:`fullmatch` for claim IDs, remembering the last 4,096 it was asked: a test
        set names the same few claims (``c1``, ``c2``, ...) in question after question, and
        a lookup is cheaper than the pattern (call it on ``str`` values only)."""
        matcher = _CLAIM_MATCHERS.get(self.pattern)
        if matcher is None:
            matcher = _CLAIM_MATCHERS[self.pattern] = lru_cache(maxsize=4096)(
                self.pattern.fullmatch)
        return matcher

    def is_id(self, value):
        """True when ``value`` is a ``str`` that is a valid ID under these rules.

        >>> COURSE.is_id("launch"), COURSE.is_id("Launch"), OPEN.is_id("FR940202-2-00150")
        (True, False, True)
        """
        return type(value) is str and self.pattern.fullmatch(value) is not None

    @property
    def expected(self):
        """What a valid ID is, for messages: ``an ID matching [a-z][a-z0-9-]{0,31}``."""
        return f"an {self.described}"

    @property
    def expected_claim(self):
        """What a valid claim ID is, for messages."""
        return f"a claim {self.described}"


_CLAIM_MATCHERS = {}  # pattern -> its remembering fullmatch (see IdRules.claim_match)

COURSE = IdRules(
    name="course", pattern=re.compile(r"[a-z][a-z0-9-]{0,31}"),
    described="ID matching [a-z][a-z0-9-]{0,31}", max_ids=100, max_k=100, max_claims=100,
    open_labels=False, column_pattern=r"^[a-z][a-z0-9-]*$", max_length=32, plain_bytes=None)
OPEN = IdRules(
    name="open",
    pattern=re.compile(r"(?!\s)[^\x00-\x1f\x7f-\x9f\u2028\u2029]{1,512}(?<!\s)"),
    described="ID of 1 to 512 characters with no control character and no leading or "
              "trailing whitespace",
    max_ids=10_000, max_k=10_000, max_claims=10_000, open_labels=True,
    # no control character anywhere; no whitespace (Python's \s: str.isspace) at either end
    column_pattern=(r"^[^\x00-\x20\x7f-\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}"
                    r"\x{205f}\x{3000}](?:[^\x00-\x1f\x7f-\x9f\x{2028}\x{2029}]*[^\x00-\x20"
                    r"\x7f-\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}"
                    r"\x{3000}])?$"),
    max_length=512, plain_bytes=(0x21, 0x7E))  # printable ASCII but the space
RULES = {rules.name: rules for rules in (COURSE, OPEN)}

_LIMIT = 60
_ITEMS = 8


def show(value, *, limit=_LIMIT):
    """A short, safe rendering of ``value`` for an error message.

    Control characters are escaped (as ``repr`` does), a long value is cut with its length
    stated, non-ASCII letters that could pass for ASCII ones are named with their code
    points, and a broken ``__repr__`` or a deeply nested value cannot hide the real error.

    >>> show("launch")
    "'launch'"
    >>> show("x" * 100)
    "a str of 100 characters, cut: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    >>> show("l\\u0430unch")
    "'lаunch' (non-ASCII: U+0430 CYRILLIC SMALL LETTER A at 1)"
    >>> show("\\x1b[2J")
    "'\\\\x1b[2J'"
    >>> class Posing(str): pass
    >>> show(Posing("launch"))
    "'launch' (a Posing, not a str)"
    """
    if type(value) is str:
        text = repr(value[:limit + 1])
        if len(value) > limit:
            text = f"a str of {len(value):,} characters, cut: {text[:limit]}..."
        return text + _code_points(value[:limit])
    try:
        text = _short_repr(value)
    except Exception:  # a broken __repr__ or hash must not hide the real error
        text = f"<unprintable {type(value).__name__}>"
    if not text.isprintable():  # a __repr__ may hold anything, escape sequences included
        text = "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
    size = len(value) if type(value) in (tuple, list, dict, set, frozenset, bytes) else None
    cut = size is not None and size > _ITEMS
    if len(text) > limit:
        text, cut = text[: limit - 3] + "...", True
    if cut and size is not None:
        text += f" (a {type(value).__name__} of {size:,} items, cut)"
    base = next((kind for kind in _BUILTINS if isinstance(value, kind)), None)
    if base is not None and type(value) is not base:  # a subclass can look like its base
        text += f" (a {_type_name(value)}, not a {base.__name__})"
    return text


_BUILTINS = (str, bool, int, float, tuple, list, dict, set, frozenset, bytes)


def _type_name(value):
    try:
        return show(type(value).__name__)[1:-1]
    except Exception:  # noqa: BLE001 (a metaclass may break even this)
        return "subclass"


def _short_repr(value):
    """``repr`` with nesting and container lengths bounded (no recursion on deep values)."""
    import reprlib

    class Short(reprlib.Repr):
        def repr_instance(self, obj, level):
            try:
                text = repr(obj)
            except Exception:
                return f"<unprintable {type(obj).__name__}>"
            return text if len(text) <= _LIMIT else text[:_LIMIT] + "..."

    shortener = Short()
    shortener.maxlevel, shortener.maxstring, shortener.maxother = 4, _LIMIT, _LIMIT
    for name in ("maxtuple", "maxlist", "maxdict", "maxset", "maxfrozenset"):
        setattr(shortener, name, _ITEMS)
    return shortener.repr(value)


def _code_points(text):
    """`` (non-ASCII: U+0430 CYRILLIC SMALL LETTER A at 1)`` for up to three non-ASCII
    printable characters, so a look-alike is told apart; empty for ASCII text."""
    found = [(position, char) for position, char in enumerate(text)
             if ord(char) > 127 and char.isprintable()][:3]
    if not found:
        return ""
    named = ", ".join(f"U+{ord(char):04X} {unicodedata.name(char, 'UNNAMED')} at {position}"
                      for position, char in found)
    return f" (non-ASCII: {named})"


#: The largest whole number an option or a field takes where arrays hold it: a signed 64-bit
#: integer (a larger one is refused, never an OverflowError deep inside).
MAX_WHOLE = 2 ** 63 - 1


def fail(field, expected, value):
    """Raise :class:`InvalidInputError`: ``<field> must be <expected>; got <value>``."""
    raise InvalidInputError(f"{field} must be {expected}; got {show(value)}")


def check_k(k, *, rules=COURSE):
    """Return ``k`` if it is an ``int`` (not a ``bool``) within the rules' range, else raise.

    >>> check_k(2)
    2
    >>> check_k(500, rules=OPEN)
    500
    """
    if type(k) is not int or k < 1 or k > rules.max_k:
        fail("k", f"an int from 1 to {rules.max_k}", k)
    return k


def check_name(value, field="reviewer"):
    """``value`` if it is a person's or a judge's name: a ``str`` of 1 to 512 characters
    with no control character (a line break, an escape, U+2028 included) and no leading or
    trailing whitespace, as an open ID; else :class:`InvalidInputError` naming ``field``.

    >>> check_name("judge:gpt-4o")
    'judge:gpt-4o'
    >>> check_name("ana\\nverdict: PASS", "field 'reviewer'")
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: field 'reviewer' must be a name of 1 to 512 characters with no control character and no leading or trailing whitespace; got 'ana\\nverdict: PASS'
    """
    if not OPEN.is_id(value):
        raise InvalidInputError(f"{field} must be a name of 1 to 512 characters with no "
                                "control character and no leading or trailing whitespace; "
                                f"got {show(value)}")
    return value


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits: never \d


def check_date(value, field="date"):
    """``value`` if it is a date written ``YYYY-MM-DD`` in ASCII digits that names a day of
    the calendar, else :class:`InvalidInputError` naming ``field`` (every date ragscore
    takes, from an option, a record or a file, is checked by this one function).

    >>> check_date("2026-12-04")
    '2026-12-04'
    >>> check_date("2026-13-45", "field 'date'")
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: field 'date' must be a date YYYY-MM-DD; got '2026-13-45' (no such day)
    >>> check_date("２０２６-１２-０４", "--date")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: --date must be a date YYYY-MM-DD; got ... (digits must be ASCII 0-9)
    """
    import datetime

    reason = ""
    if type(value) is str and _ISO_DATE.fullmatch(value):
        try:
            datetime.date(int(value[:4]), int(value[5:7]), int(value[8:]))
        except ValueError:
            reason = " (no such day)"
        else:
            return value
    elif type(value) is str and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        reason = " (digits must be ASCII 0-9)"
    raise InvalidInputError(f"{field} must be a date YYYY-MM-DD; got {show(value)}{reason}")
