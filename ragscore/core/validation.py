"""Input validation: the structural rules a corpus, case, run and cutoff must meet.

Every violation raises :class:`~ragscore.core.rules.InvalidInputError` (a ``ValueError``)
naming the field, the offending value and what was expected. Types are checked before any
value is hashed or compared, so no object can pose as an ID. Nothing here scores.

The rules (``rules=COURSE`` unless a dataset declares ``OPEN``; see :mod:`ragscore.core.rules`):

- an ID list is a ``tuple`` of unique IDs, at most ``rules.max_ids`` long;
- a corpus is a non-empty ``dict`` of ID to non-blank text, of any size;
- a case has ``relevant`` (IDs, all in the corpus) and ``support`` (a ``dict`` of claim ID to
  non-empty source IDs, all within ``relevant``); ``relevant`` is empty exactly when
  ``support`` is;
- a run has ``retrieved`` (IDs, all in the corpus, best first) and ``claims`` (a ``tuple`` of
  ``(claim, citations)`` pairs with unique claim IDs; citations are valid IDs that may be
  unknown to the corpus, so the scorer can mark them unsupported).
"""
from collections import namedtuple

from .answers import check_sentences
from .claim_split import MAX_ANSWER
from .nuggets import case_nuggets, check_nuggets
from .rules import COURSE, InvalidInputError, check_k, fail, show

__all__ = ["InvalidInputError", "Labels", "Validated", "check_document", "check_k", "ids",
           "validate", "validate_case", "validate_corpus", "validate_labels", "validate_run"]


class Validated(namedtuple("Validated", "relevant support retrieved claims")):
    """A case and run that passed validation, in the shapes the counts need."""

    __slots__ = ()


def _check_id_list(value, field, rules):
    """Check an ID list's shape, length, members and uniqueness; return its members."""
    if type(value) is not tuple:
        fail(field, f"a tuple of at most {rules.max_ids} IDs", value)
    if len(value) > rules.max_ids:
        fail(field, f"a tuple of at most {rules.max_ids} IDs", f"{len(value)} items")
    seen = set()
    for position, item in enumerate(value):
        if not rules.is_id(item):
            fail(f"{field}[{position}]", rules.expected, item)
        if item in seen:
            fail(f"{field}[{position}]", "unique within the tuple", item)
        seen.add(item)
    return frozenset(seen)


def ids(value, *, field="ids", rules=COURSE):
    """Return the set of IDs in ``value``, a tuple of unique valid IDs (at most 100).

    >>> sorted(ids(("launch", "archive")))
    ['archive', 'launch']
    """
    return _check_id_list(value, field, rules)


def check_document(doc, text, rules=COURSE):
    """Raise unless ``doc`` is a valid ID and ``text`` non-blank text (one corpus entry).

    >>> check_document("launch", "The window opens Monday.")
    """
    if type(doc) is not str or not rules.fullmatch(doc):
        fail("corpus key", rules.expected, doc)
    if type(text) is not str or not text.strip():
        if not (rules.open_labels and text is None):  # open rules: IDs without text
            fail(f"corpus[{show(doc)}]", "non-blank text", text)


def validate_corpus(corpus, *, rules=COURSE):
    """Return the corpus IDs as a frozenset; the corpus has no size cap.

    >>> sorted(validate_corpus({"b": "Text.", "a": "More text."}))
    ['a', 'b']
    """
    if type(corpus) is not dict or not corpus:
        fail("corpus", "a non-empty dict of ID to text", corpus)
    for doc, text in corpus.items():
        check_document(doc, text, rules)
    return frozenset(corpus)


def _get(record, key, name):
    if type(record) is not dict:
        fail(name, "a dict", record)
    if key not in record:
        fail(f"{name}[{key!r}]", "present", record)
    return record[key]


_STR_ONLY = frozenset({str})


def _members_within(value, allowed, limit):
    """The set of ``value``'s members if it is a short tuple of unique members of ``allowed``.

    The common, valid path in a few C-speed operations. Types come first: a member whose
    type is not exactly ``str`` is refused without hashing or comparing it (so no object
    can pose as an ID, and a deeply nested tuple is never hashed). ``None`` sends the
    caller to the checks that explain the problem. Members of ``allowed`` are valid IDs.
    """
    if type(value) is not tuple:
        return None
    if len(value) == 1:  # one source or citation, the usual case, in fewer steps
        item = value[0]
        return {item} if type(item) is str and item in allowed else None
    if len(value) > limit or not _STR_ONLY.issuperset(map(type, value)):  # exactly str: no
        return None                                                      # subclass either
    members = set(value)
    if len(members) == len(value) and members <= allowed:
        return members
    return None


def _explain_within(value, field, allowed, expected, rules):
    """Raise for an ID list that :func:`_members_within` refused: name the first problem."""
    _check_id_list(value, field, rules)  # raises unless the list is well formed ...
    outside = next(position for position, item in enumerate(value) if item not in allowed)
    fail(f"{field}[{outside}]", expected, value[outside])  # ... so a member is outside


class Labels(namedtuple("Labels", "relevant support grades losers callers reference "
                                  "answerability judged nuggets partial characters",
                        defaults=(frozenset(), None, None, None, None, None, None, None))):
    """A case's validated labels.

    ``relevant``: the set of IDs judged relevant (grade >= ``min_relevance``).
    ``support``: ``{claim: set of sources}``, or ``None`` when the case carries no answer
    labels (allowed under open rules only: a retrieval-only test set).
    ``grades``: ``None`` for binary labels, else ``{ID: grade}`` for every judged ID.
    ``losers``: IDs on the losing side of a labelled conflict (case ``conflicting``).
    ``callers``: the asking caller's access groups (case ``caller_groups``), or ``None``.
    ``reference``: the case's reference answers (a tuple of str; empty: unanswerable), or
    ``None`` when it carries none.
    ``answerability``: 1 answerable, 0 unanswerable, -1 not labelled yet
    (:func:`answerability_of`); ``None`` where it was not worked out (read from the counts).
    ``judged``: the IDs whose relevance is judged (any grade), or ``None`` when every passage
    is (course rules: a case's list is its complete labelling; a span test set, whose
    labels reach every chunk).
    ``nuggets``: the case's :class:`~ragscore.core.nuggets.Nugget` tuple when it lists
    ``nuggets``, else ``None``: its nuggets are its expected claims, every one vital.
    ``partial``: for labels derived from spans (:mod:`ragscore.core.spans`), ``{claim:
    Evidence}`` of the claims some chunk only partly holds the evidence of: a citation list
    within their sources must also cover one evidence span (:meth:`Evidence.level`);
    ``None`` otherwise. ``characters``: for labels derived from spans, the
    :class:`~ragscore.core.spans.Characters` span recall and characters read count; else
    ``None``.
    """

    __slots__ = ()


#: What a case may say of its answerability when its labels do not (a reviewer's decision).
ANSWERABILITY = ("answerable", "unanswerable")


def answerability_of(case, relevant, support, grades):
    """1 (answerable), 0 (unanswerable) or -1 (not labelled yet) for a case's validated
    labels, in this order: something relevant, some claim expected or some nugget listed: 1;
    a reviewer's
    decision (``case["answerability"]``): 1 or 0; labels that say so (``support`` given, or
    passages graded and none relevant): 0; nothing at all: -1, never unanswerable.

    >>> answerability_of({}, set(), None, None), answerability_of({}, set(), {}, None)
    (-1, 0)
    >>> answerability_of({"answerability": "answerable"}, set(), None, None)
    1
    """
    if relevant or support or type(case) is dict and case.get("nuggets"):
        return 1
    decided = case.get("answerability") if type(case) is dict else None
    if decided is not None:
        if decided not in ANSWERABILITY:
            fail("case['answerability']", f"one of {', '.join(ANSWERABILITY)}", decided)
        return 1 if decided == "answerable" else 0
    return 0 if support is not None or grades else -1


def validate_case(case, known, *, rules=COURSE):
    """Return ``(relevant, support)`` for a case checked against the corpus IDs ``known``.

    ``support`` maps each expected claim ID to the set of its labelled sources.
    """
    labels = validate_labels(case, known, rules=rules)
    return labels.relevant, labels.support


#: The grades a label may carry: a signed 64-bit integer, as the columnar engine holds them.
MIN_GRADE, MAX_GRADE = -2 ** 63, 2 ** 63 - 1
GRADE_RANGE = "from -2**63 to 2**63 - 1"
GRADE_EXPECTED = f"an int grade {GRADE_RANGE} (a signed 64-bit integer)"


def _grades(value, known, rules):
    """``{ID: grade}`` of a graded ``relevant`` map, each ID in the corpus, each grade an int
    within :data:`MIN_GRADE` and :data:`MAX_GRADE`."""
    if len(value) > rules.max_ids:
        fail("case['relevant']", f"at most {rules.max_ids} judged IDs", f"{len(value)} IDs")
    for doc, grade in value.items():
        if not rules.is_id(doc):
            fail("case['relevant'] key", rules.expected, doc)
        if doc not in known:
            fail("case['relevant'] key", "an ID in the corpus", doc)
        if type(grade) is not int:
            fail(f"case['relevant'][{show(doc)}]", "an int grade", grade)
        if not MIN_GRADE <= grade <= MAX_GRADE:
            fail(f"case['relevant'][{show(doc)}]", GRADE_EXPECTED,
                 f"an int of {grade.bit_length():,} bits")
    return value


def validate_labels(case, known, *, rules=COURSE, min_relevance=1):
    """Return the :class:`Labels` of a case checked against the corpus IDs ``known``.

    Course rules: ``relevant`` is a tuple of IDs and ``support`` is required. Open rules
    also accept ``relevant`` as a map of ID to integer grade (judged relevant at
    ``min_relevance`` or above; zero and negative grades are judged not relevant, as in
    trec_eval) and a case without ``support``.
    """
    labels = case.get("support") if type(case) is dict else None
    listed = case.get("relevant") if type(case) is dict else None
    grades = None
    relevant = _members_within(listed, known, rules.max_ids) if labels is not None else None
    if relevant is None:
        listed = _get(case, "relevant", "case")
        if rules.open_labels and type(listed) is dict:
            grades = _grades(listed, known, rules)
            relevant = {doc for doc, grade in grades.items() if grade >= min_relevance}
        else:
            relevant = _members_within(listed, known, rules.max_ids)
            if relevant is None:
                _explain_within(listed, "case['relevant']", known, "an ID in the corpus",
                                rules)
        if rules.open_labels and "support" not in case:
            return Labels(relevant, None, grades,
                          answerability=answerability_of(case, relevant, None, grades),
                          judged=frozenset(listed), nuggets=_nuggets(case, None, rules))
        labels = _get(case, "support", "case")
    if type(labels) is not dict:
        fail("case['support']", "a dict of claim ID to source IDs", labels)
    if len(labels) > rules.max_claims:
        fail("case['support']", f"at most {rules.max_claims} claims", f"{len(labels)} claims")
    judged = relevant if grades is None else {doc for doc, grade in grades.items() if grade > 0}
    support = {}
    fullmatch, limit = rules.claim_match, rules.max_ids
    for claim, sources in labels.items():
        if type(claim) is not str or not fullmatch(claim):
            fail("case['support'] key", rules.expected_claim, claim)
        labelled = _members_within(sources, judged, limit)
        if not labelled:
            _explain_sources(claim, sources, judged, rules)
        support[claim] = labelled
    if bool(judged) != bool(support):
        fail("case", "labelled consistently: 'relevant' empty exactly when 'support' is",
             {"relevant": case["relevant"], "support": labels})
    return Labels(relevant, support, grades,
                  answerability=answerability_of(case, relevant, support, grades),
                  judged=frozenset(case["relevant"]) if rules.open_labels else None,
                  nuggets=_nuggets(case, support, rules))


def _nuggets(case, support, rules):
    """The case's :class:`~ragscore.core.nuggets.Nugget` tuple when it lists ``nuggets``,
    else ``None`` (its expected claims, every one vital)."""
    if type(case) is not dict or "nuggets" not in case:
        return None
    return case_nuggets(check_nuggets(case["nuggets"], rules=rules), support)


def _groups(value, field):
    """A frozenset of access group names (non-blank strings, at most 100)."""
    if type(value) is not list and type(value) is not tuple or len(value) > 100 or not all(
            type(group) is str and group.strip() and len(group) <= 128 for group in value):
        fail(field, "a list of at most 100 group names (non-blank strings)", value)
    return frozenset(value)


def validate_context(case, known, *, rules=COURSE):
    """``(losers, callers)`` of a case: the IDs of its ``conflicting`` list (each in the
    corpus) and the frozenset of its ``caller_groups`` (``None`` when not given).

    >>> validate_context({"conflicting": ["old"], "caller_groups": ["staff"]}, {"old"})
    (frozenset({'old'}), frozenset({'staff'}))
    """
    losers, callers = frozenset(), None
    if type(case) is dict and "conflicting" in case:
        listed = case["conflicting"]
        listed = tuple(listed) if type(listed) is list else listed
        losers = _members_within(listed, known, rules.max_ids)
        if losers is None:
            _explain_within(listed, "case['conflicting']", known, "an ID in the corpus", rules)
    if type(case) is dict and "caller_groups" in case:
        callers = _groups(case["caller_groups"], "case['caller_groups']")
    return frozenset(losers), callers


def validate_reviews(case, known):
    """Check that every document a case's ``reviews`` judge is in the corpus (``known``).

    >>> validate_reviews({"reviews": ({"reviewer": "ana", "doc": "a", "decision": "relevant"},)},
    ...                  {"a"})
    """
    if type(case) is not dict:
        return
    for position, review in enumerate(case.get("reviews") or ()):
        doc = review.get("doc") if type(review) is dict else None
        if doc is not None and doc not in known:
            fail(f"case['reviews'][{position}]['doc']", "an ID in the corpus", doc)


def validate_delivered(run, known, *, rules=COURSE):
    """The ``delivered`` context of a run (a tuple of corpus IDs), or ``None`` when none was
    recorded.

    >>> validate_delivered({"delivered": ("a",)}, {"a", "b"})
    ('a',)
    """
    if type(run) is not dict or "delivered" not in run:
        return None
    delivered = run["delivered"]
    delivered = tuple(delivered) if type(delivered) is list else delivered
    if _members_within(delivered, known, rules.max_ids) is None:
        _explain_within(delivered, "run['delivered']", known, "an ID in the corpus", rules)
    return tuple(delivered)


def _explain_sources(claim, sources, relevant, rules):
    """Raise for a support label that failed the inline checks of :func:`validate_case`."""
    field = f"case['support'][{show(claim)}]"
    if _members_within(sources, relevant, rules.max_ids) is None:
        _explain_within(sources, field, relevant, "a source within case['relevant']", rules)
    fail(field, "at least one source ID", sources)  # the only problem left: no sources


def validate_run(run, known, *, rules=COURSE):
    """Return ``(retrieved, claims)`` for a run checked against the corpus IDs ``known``.

    Under open rules a run may leave out ``claims`` (the answer stage was not recorded):
    ``claims`` is then ``None``, never an empty answer. An answer recorded as ``sentences``
    is checked too (:func:`ragscore.core.answers.check_sentences`).
    """
    if type(run) is dict and "sentences" in run:
        if "answer" in run:
            fail("run", "an answer given once: 'answer' (text) or 'sentences', not both",
                 "both")
        check_sentences(run["sentences"], rules=rules)
    claims = run.get("claims") if type(run) is dict else None
    retrieved = run.get("retrieved") if claims is not None else None
    visible = _members_within(retrieved, known, rules.max_ids)
    if visible is None:
        retrieved = _get(run, "retrieved", "run")
        visible = _members_within(retrieved, known, rules.max_ids)
        if visible is None:
            _explain_within(retrieved, "run['retrieved']", known, "an ID in the corpus", rules)
        if rules.open_labels and "claims" not in run:
            check_answer_to_split(run.get("answer"))
            return retrieved, None  # the answer stage was not recorded (or only its text)
        claims = _get(run, "claims", "run")
    if type(claims) is not tuple or len(claims) > rules.max_claims:
        fail("run['claims']", f"a tuple of at most {rules.max_claims} (claim, citations) pairs",
             claims if type(claims) is not tuple else f"{len(claims)} pairs")
    seen = set()
    fullmatch, limit = rules.claim_match, rules.max_ids
    for position, pair in enumerate(claims):
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str \
                or pair[0] in seen or not fullmatch(pair[0]):
            _explain_claim(pair, position, rules)
        claim, citations = pair
        seen.add(claim)
        # Citations are mostly retrieved IDs (a small set, checked first), else corpus IDs,
        # else they must at least be valid IDs: an unknown citation is unsupported, not wrong.
        if _members_within(citations, visible, limit) is None \
                and _members_within(citations, known, limit) is None:
            _check_id_list(citations, f"run['claims'][{position}][1]", rules)
    return retrieved, claims


def check_answer_to_split(answer):
    """An answer recorded without its claims is split into claims later: refuse one the
    splitter would refuse, here, before it is saved (not in every report after); an
    importer applies it as it reads (:func:`ragscore.importers._common.answer_checked`), so
    that the refusal names the file and the line."""
    if type(answer) is str and len(answer) > MAX_ANSWER:
        raise InvalidInputError(f"run['answer'] has {len(answer):,} characters; an answer "
                                f"split into claims has at most {MAX_ANSWER:,} (record its "
                                "claims, or shorten it)")


def _explain_claim(pair, position, rules):
    """Raise for a claim pair that failed the inline checks of :func:`validate_run`."""
    field = f"run['claims'][{position}]"
    if type(pair) is not tuple or len(pair) != 2:
        fail(field, "a (claim, citations) pair", pair)
    if not rules.is_id(pair[0]):
        fail(f"{field}[0]", rules.expected_claim, pair[0])
    fail(f"{field}[0]", "unique within the run", pair[0])  # the only problem left


def validate(corpus, case, run, k, *, rules=COURSE):
    """Validate one case and run against the corpus at cutoff ``k``; return :class:`Validated`.

    >>> corpus = {"launch": "The window opens Monday."}
    >>> case = {"relevant": ("launch",), "support": {"monday": ("launch",)}}
    >>> run = {"retrieved": ("launch",), "claims": (("monday", ("launch",)),)}
    >>> validate(corpus, case, run, 2).retrieved
    ('launch',)
    """
    check_k(k, rules=rules)
    known = validate_corpus(corpus, rules=rules)
    relevant, support = validate_case(case, known, rules=rules)
    retrieved, claims = validate_run(run, known, rules=rules)
    return Validated(relevant, support, retrieved, claims)
