"""Input validation: the structural rules a corpus, case, run and cutoff must meet.

Every rule violation raises :class:`InvalidInputError`, a subclass of ``ValueError``, whose
message names the field, the offending value and what was expected. Nothing here scores.

Rules (the course contract):

- an ID is a ``str`` matching ``[a-z][a-z0-9-]{0,31}`` in full;
- an ID list is a ``tuple`` of at most 100 unique IDs;
- ``k`` is an ``int`` (not a ``bool``) from 1 to 100;
- a corpus is a non-empty ``dict`` of ID to non-blank text (no cap on its size: a real
  corpus holds millions of chunks);
- a case has ``relevant`` (IDs, all in the corpus) and ``support`` (a ``dict`` of claim ID to
  non-empty source IDs, all within ``relevant``); ``relevant`` is empty exactly when
  ``support`` is;
- a run has ``retrieved`` (IDs, all in the corpus, best first) and ``claims`` (a ``tuple`` of at
  most 100 ``(claim, citations)`` pairs with unique claim IDs; citations are syntactically
  valid IDs that may be unknown to the corpus, so the scorer can mark them unsupported).
"""
import re
from typing import NamedTuple

ID_PATTERN = re.compile(r"[a-z][a-z0-9-]{0,31}")
MAX_IDS = 100
MAX_CLAIMS = 100
MIN_K = 1
MAX_K = 100

_fullmatch = ID_PATTERN.fullmatch


class InvalidInputError(ValueError):
    """Raised for any malformed corpus, case, run, cutoff or dataset file."""


class Validated(NamedTuple):
    """A case and run that passed validation, in the shapes the metrics need."""

    relevant: frozenset
    support: dict
    retrieved: tuple
    claims: tuple


def show(value, *, limit=60):
    """Return a short, safe ``repr`` of ``value`` for an error message.

    >>> show("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    >>> len(show("x" * 100)), show("y" * 58) == repr("y" * 58)
    (60, True)
    """
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<unprintable {type(value).__name__}>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def _fail(field, expected, value):
    raise InvalidInputError(f"{field} must be {expected}; got {show(value)}")


def check_k(k):
    """Return ``k`` if it is an ``int`` from 1 to 100, else raise.

    >>> check_k(2)
    2
    """
    if type(k) is not int or k < MIN_K or k > MAX_K:
        _fail("k", f"an int from {MIN_K} to {MAX_K}", k)
    return k


def _check_id_list(value, field, limit=MAX_IDS):
    """Check the tuple shape, length, element syntax and uniqueness of an ID list."""
    if type(value) is not tuple:
        _fail(field, f"a tuple of at most {limit} IDs", value)
    if len(value) > limit:
        _fail(field, f"a tuple of at most {limit} IDs", f"{len(value)} items")
    seen = set()
    for position, item in enumerate(value):
        if type(item) is not str or not _fullmatch(item):
            _fail(f"{field}[{position}]", f"an ID matching {ID_PATTERN.pattern}", item)
        if item in seen:
            _fail(f"{field}[{position}]", "unique within the tuple", item)
        seen.add(item)
    return frozenset(seen)


def ids(value, *, field="ids"):
    """Return the set of IDs in ``value``, a tuple of at most 100 unique valid IDs.

    >>> sorted(ids(("launch", "archive")))
    ['archive', 'launch']
    """
    return _check_id_list(value, field)


def validate_corpus(corpus):
    """Return the corpus IDs as a frozenset; the corpus has no size cap.

    >>> sorted(validate_corpus({"b": "Text.", "a": "More text."}))
    ['a', 'b']
    """
    if type(corpus) is not dict or not corpus:
        _fail("corpus", "a non-empty dict of ID to text", corpus)
    for doc, text in corpus.items():
        if type(doc) is not str or not _fullmatch(doc):
            _fail("corpus key", f"an ID matching {ID_PATTERN.pattern}", doc)
        if type(text) is not str or not text.strip():
            _fail(f"corpus[{doc!r}]", "non-blank text", text)
    return frozenset(corpus)


def _get(record, key, name):
    if type(record) is not dict:
        _fail(name, "a dict", record)
    if key not in record:
        _fail(f"{name}[{key!r}]", "present", record)
    return record[key]


def _members_within(value, allowed):
    """The set of ``value``'s members if it is a short tuple of unique members of ``allowed``.

    The common, valid path in one pass of set operations; ``None`` sends the caller to the
    checks that explain the problem. Members of ``allowed`` are valid IDs already.
    """
    if type(value) is tuple and len(value) <= MAX_IDS:
        try:
            members = set(value)
        except TypeError:  # an unhashable member: the slow path names it
            return None
        if len(members) == len(value) and members <= allowed:
            return members
    return None


def _explain_within(value, field, allowed, expected):
    """Raise for an ID list that :func:`_members_within` refused: name the first problem."""
    _check_id_list(value, field)  # raises unless the list is well formed ...
    outside = next(position for position, item in enumerate(value) if item not in allowed)
    _fail(f"{field}[{outside}]", expected, value[outside])  # ... so a member is outside


def _check_claim_id(claim, field):
    if type(claim) is not str or not _fullmatch(claim):
        _fail(field, f"a claim ID matching {ID_PATTERN.pattern}", claim)


def validate_case(case, known):
    """Return ``(relevant, support)`` for a case checked against the corpus IDs ``known``.

    ``support`` maps each expected claim ID to the set of its labelled sources. The checks
    run inline on the common path; any doubt hands over to helpers that name the problem.
    """
    labels = case.get("support") if type(case) is dict else None
    relevant = _members_within(case.get("relevant"), known) if labels is not None else None
    if relevant is None:
        listed = _get(case, "relevant", "case")
        relevant = _members_within(listed, known)
        if relevant is None:
            _explain_within(listed, "case['relevant']", known, "an ID in the corpus")
        labels = _get(case, "support", "case")
    if type(labels) is not dict:
        _fail("case['support']", "a dict of claim ID to source IDs", labels)
    if len(labels) > MAX_CLAIMS:
        _fail("case['support']", f"at most {MAX_CLAIMS} claims", f"{len(labels)} claims")
    support = {}
    for claim, sources in labels.items():
        labelled = _members_within(sources, relevant)
        if not labelled or type(claim) is not str or not _fullmatch(claim):
            _explain_sources(claim, sources, relevant)
        support[claim] = labelled
    if bool(relevant) != bool(support):
        _fail("case", "labelled consistently: 'relevant' empty exactly when 'support' is",
              {"relevant": case["relevant"], "support": labels})
    return relevant, support


def _explain_sources(claim, sources, relevant):
    """Raise for a support label that failed the inline checks of :func:`validate_case`."""
    _check_claim_id(claim, "case['support'] key")
    field = f"case['support'][{claim!r}]"
    if _members_within(sources, relevant) is None:
        _explain_within(sources, field, relevant, "a source within case['relevant']")
    _fail(field, "at least one source ID", sources)  # the only problem left: no sources


def validate_run(run, known):
    """Return ``(retrieved, claims)`` for a run checked against the corpus IDs ``known``."""
    claims = run.get("claims") if type(run) is dict else None
    retrieved = run.get("retrieved") if claims is not None else None
    if _members_within(retrieved, known) is None:
        retrieved = _get(run, "retrieved", "run")
        if _members_within(retrieved, known) is None:
            _explain_within(retrieved, "run['retrieved']", known, "an ID in the corpus")
        claims = _get(run, "claims", "run")
    if type(claims) is not tuple or len(claims) > MAX_CLAIMS:
        _fail("run['claims']", f"a tuple of at most {MAX_CLAIMS} (claim, citations) pairs",
              claims if type(claims) is not tuple else f"{len(claims)} pairs")
    seen = set()
    for position, pair in enumerate(claims):
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str \
                or pair[0] in seen or not _fullmatch(pair[0]):
            _explain_claim(pair, position, seen)
        claim, citations = pair
        seen.add(claim)
        if _members_within(citations, known) is None:  # citations unknown to the corpus
            _check_id_list(citations, f"run['claims'][{position}][1]")  # are fine if valid
    return retrieved, claims


def _explain_claim(pair, position, seen):
    """Raise for a claim pair that failed the inline checks of :func:`validate_run`."""
    field = f"run['claims'][{position}]"
    if type(pair) is not tuple or len(pair) != 2:
        _fail(field, "a (claim, citations) pair", pair)
    _check_claim_id(pair[0], f"{field}[0]")
    _fail(f"{field}[0]", "unique within the run", pair[0])  # the only problem left


def validate(corpus, case, run, k):
    """Validate one case and run against the corpus at cutoff ``k``; return :class:`Validated`.

    >>> corpus = {"launch": "The window opens Monday."}
    >>> case = {"relevant": ("launch",), "support": {"monday": ("launch",)}}
    >>> run = {"retrieved": ("launch",), "claims": (("monday", ("launch",)),)}
    >>> validate(corpus, case, run, 2).retrieved
    ('launch',)
    """
    check_k(k)
    known = validate_corpus(corpus)
    relevant, support = validate_case(case, known)
    retrieved, claims = validate_run(run, known)
    return Validated(relevant, support, retrieved, claims)
