"""Labels: reviewers' judgements about the test set, in one record shape (format version 5).

A **judgement** is one reviewer's decision about one thing in the test set, never about
the answer under test. Every kind shares one record shape; a kind names what is judged,
the fields that show it to a person (its *subject*) and the decisions it takes:

=============  ==========================================  ==================  ==============
kind           what is judged                              subject             decision
=============  ==========================================  ==================  ==============
relevance      a passage's relevance to the question       ``doc``             a grade (int;
                                                                               0: not
                                                                               relevant)
support        a claim, by the passages it cites           ``claim``,          ``supported``,
                                                           ``citations``       ``unsupported``,
                                                                               ``not a claim``
answerability  the question, against this corpus           (none)              ``answerable``,
                                                                               ``unanswerable``,
                                                                               ``unsure``
span-          a span of a source document's relevance     ``doc``,            a grade (int;
relevance      to the question                             ``version``,        0: not
                                                           ``start``,          relevant)
                                                           ``end``, ``text``
evidence       a span of a source document as evidence     ``claim``,          ``evidence``,
               for an expected claim of the question       ``doc``,            ``not
                                                           ``version``,        evidence``
                                                           ``start``,
                                                           ``end``, ``text``
nugget         an answer's assignment to a nugget          ``nugget``          ``support``,
                                                                               ``partial_support``,
                                                                               ``not_support``
citation       a claim's support by one passage it cites   ``claim``,          ``full``,
                                                           ``doc``             ``partial``,
                                                                               ``none``
=============  ==========================================  ==================  ==============

Span labels (:mod:`ragscore.core.spans`) name a document, its ``version``, offsets in code
points (``start``, ``end`` exclusive) and the ``text`` between them; the labels of every
chunking of those documents are derived from them.

A record::

    {"kind": "support", "case": "q7", "key": "9e1d0c7b5a3f2e18",
     "claim": "the window opens on monday", "citations": ["launch"],
     "decision": "supported", "states": "monday",
     "reviewer": "ana", "date": "2026-12-04", "origin": "human", "batch": "0a1b2c3d4e5f6071"}

- ``case`` and ``key`` locate it: ``key`` is a hash of the **content judged**
  (:func:`passage_key`, :func:`claim_key`, :func:`question_key`, :func:`span_key`,
  :func:`ragscore.core.nuggets.assignment_key`, :func:`citation_key`): the passage (its ID and
  text) for relevance, the normalised claim and its cited passages' text for support, the question
  text for answerability, the span (its document, version, offsets and text; for evidence, its
  claim too) for span labels, the nugget and the whole answer (each claim and the passages it
  cites) for a nugget assignment, the normalised claim and the one passage for a citation. A
  judgement applies where its case holds that content now, so it is reused for another run or
  system exactly when the same thing is judged again, and an edited passage, claim or question
  needs a new one. It is never looked up by question text alone.
- ``states`` (support only, optional): the expected claim the claim states.
- Provenance: ``reviewer``, ``date`` (``YYYY-MM-DD``), ``origin`` (``human``, ``llm-draft``
  for a machine's draft, ``post-edited`` for a person's edit of a draft) and ``batch`` (a
  hash of the file or session that stored it: a file is never imported twice).
- ``note`` (optional): free text.

Judgements are only ever added. Two reviewers' judgements of one item sit side by side
(:func:`current`; their agreement is in :mod:`ragscore.core.reviews`); a reviewer's new
decision on an item replaces their own earlier one, which stays in the history. For
scoring, one decision per item comes from people's current judgements by
:func:`resolved` (never from a machine's draft).

Standard library only.
"""
import json
import re
from collections import namedtuple

from .rules import InvalidInputError, check_date, check_name, show
from .spans import check_offsets

SUPPORT_DECISIONS = ("supported", "unsupported", "not a claim")
ANSWERABILITY_DECISIONS = ("answerable", "unanswerable", "unsure")
#: An answer's assignment to a nugget (TREC RAG's words), lowest first.
NUGGET_DECISIONS = ("not_support", "partial_support", "support")
#: A claim's support by one passage it cites (TREC RAG's three levels), lowest first.
CITATION_DECISIONS = ("none", "partial", "full")
EVIDENCE_DECISIONS = ("evidence", "not evidence")
#: The subject fields that place a span in a source document (:mod:`ragscore.core.spans`).
SPAN_FIELDS = ("doc", "version", "start", "end", "text")
ORIGINS = ("human", "llm-draft", "post-edited")
#: Origins whose judgements count in scores (a machine's draft does not).
SCORED_ORIGINS = frozenset({"human", "post-edited"})
JUDGE_PREFIX = "judge:"
_KEY = re.compile(r"[0-9a-f]{16}")
MAX_GRADE = 2 ** 63 - 1


class Kind(namedtuple("Kind", "name subject decisions")):
    """One kind of judgement: its ``name``, the ``subject`` fields that show what was judged
    and its ``decisions`` (a tuple of words, or ``None`` for an integer grade)."""

    __slots__ = ()


#: The kinds of judgement, by name. A new kind is a row here (and its resolution rule).
KINDS = {kind.name: kind for kind in (
    Kind("relevance", ("doc",), None),
    Kind("support", ("claim", "citations"), SUPPORT_DECISIONS),
    Kind("answerability", (), ANSWERABILITY_DECISIONS),
    Kind("span-relevance", SPAN_FIELDS, None),
    Kind("evidence", ("claim",) + SPAN_FIELDS, EVIDENCE_DECISIONS),
    Kind("nugget", ("nugget",), NUGGET_DECISIONS),
    Kind("citation", ("claim", "doc"), CITATION_DECISIONS),
)}
#: The kinds whose decisions are levels, resolved to the lowest (their decisions lowest first).
LEVELLED = ("nugget", "citation")
COMMON = ("kind", "case", "key", "decision", "reviewer", "date", "origin", "batch")
OPTIONAL = ("states", "note")
#: Per kind, ``(fields it may have, fields it must have)``.
_FIELDS = {name: (frozenset(COMMON + OPTIONAL + kind.subject), frozenset(COMMON + kind.subject))
           for name, kind in KINDS.items()}


def content_key(*parts):
    """The key of a piece of content: the first 16 hex digits of the SHA-256 of its parts
    written as compact JSON.

    >>> import hashlib
    >>> content_key("passage", "a", "Monday.") == hashlib.sha256(
    ...     b'["passage","a","Monday."]').hexdigest()[:16]
    True
    """
    import hashlib  # here: loading it costs 'import ragscore' a few milliseconds

    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def passage_key(doc, text):
    """The key of a passage: its ID and its text (``None`` when the corpus records none), so
    an edited passage needs a new judgement and a copy under another ID a judgement of its
    own.

    >>> passage_key("a", "Same words.") == passage_key("a", "Same words, edited.")
    False
    >>> passage_key("a", "Same words.") == passage_key("b", "Same words.")
    False
    """
    return content_key("passage", doc, text)


def claim_key(claim, passage_keys):
    """The key of a claim judged by the passages it cites: its normalised text
    (:func:`ragscore.core.answers.normalise`) and the keys of its cited passages (in any
    order; an uncited claim has none).

    >>> claim_key("opens monday", ["b", "a"]) == claim_key("opens monday", ["a", "b"])
    True
    >>> claim_key("opens monday", []) == claim_key("opens monday", ["a"])
    False
    """
    return content_key("claim", claim, sorted(passage_keys))


def citation_key(claim, passage):
    """The key of a claim judged by one passage it cites: its normalised text and that
    passage's key.

    >>> citation_key("opens monday", "k1") == claim_key("opens monday", ["k1"])
    False
    """
    return content_key("citation", claim, passage)


def question_key(question):
    """The key of a question: its text.

    >>> question_key("When?") == question_key("When? ")
    False
    """
    return content_key("question", question)


def span_key(doc, version, start, end, text, *, claim=None):
    """The key of a span label: the span's document, version, offsets and text, and for
    evidence the expected ``claim`` it supports. The same span judged again (by another
    reviewer, or in a later import) is the same item; a span marked on a new version of its
    document is a new one.

    >>> span_key("d", "v1", 0, 6, "Monday") == span_key("d", "v2", 0, 6, "Monday")
    False
    >>> span_key("d", "v1", 0, 6, "Monday") == span_key("d", "v1", 0, 6, "Monday",
    ...                                                  claim="monday")
    False
    """
    if claim is None:
        return content_key("span", doc, version, start, end, text)
    return content_key("evidence", claim, doc, version, start, end, text)


def is_machine(record):
    """True for a machine's draft: origin ``llm-draft`` or a ``judge:NAME`` reviewer."""
    return record.get("origin") == "llm-draft" or record["reviewer"].startswith(JUDGE_PREFIX)


def _text(record, field, at, *, blank=False):
    value = record.get(field)
    if type(value) is not str or (not blank and not value.strip()):
        raise InvalidInputError(f"{at}: field {field!r} must be a non-blank string; got "
                                f"{show(value)}")
    return value


def check_record(record, at, *, is_id=None):
    """A checked copy of one judgement record (see the module docstring); a problem raises
    :class:`~ragscore.core.rules.InvalidInputError` naming ``at`` and the field. ``is_id``:
    the dataset's ID rule for ``case``, ``doc`` and ``citations`` (``None``: any non-blank
    string).

    >>> check_record({"kind": "relevance", "case": "q", "key": "0123456789abcdef",
    ...               "doc": "launch", "decision": 2, "reviewer": "ana", "date": "2026-12-04",
    ...               "origin": "human", "batch": "fedcba9876543210"}, "line 1")["decision"]
    2
    >>> check_record({"kind": "rating"}, "line 3")
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: line 3: field 'kind' must be one of relevance, support, answerability, span-relevance, evidence, nugget, citation; got 'rating'
    """
    if type(record) is not dict:
        raise InvalidInputError(f"{at}: a judgement must be an object; got {show(record)}")
    kind = KINDS.get(record.get("kind")) if type(record.get("kind")) is str else None
    if kind is None:
        raise InvalidInputError(f"{at}: field 'kind' must be one of {', '.join(KINDS)}; got "
                                f"{show(record.get('kind'))}")
    allowed, required = _FIELDS[kind.name]
    if not allowed.issuperset(record):
        extra = sorted(str(name) for name in record if name not in allowed)
        article = "an" if kind.name[0] in "aeiou" else "a"
        raise InvalidInputError(f"{at}: unknown field {show(extra[0])} for {article} "
                                f"{kind.name} judgement (it has {', '.join(sorted(allowed))})")
    if not required.issubset(record):
        missing = [name for name in COMMON + kind.subject if name not in record]
        raise InvalidInputError(f"{at}: field {missing[0]!r} is missing")
    _text(record, "case", at)
    check_name(record["reviewer"], f"{at}: field 'reviewer'")
    if is_id is not None and not is_id(record["case"]):
        raise InvalidInputError(f"{at}: field 'case' must be a case ID; got "
                                f"{show(record['case'])}")
    for field in ("key", "batch"):
        if type(record[field]) is not str or not _KEY.fullmatch(record[field]):
            raise InvalidInputError(f"{at}: field {field!r} must be 16 hex digits (a content "
                                    f"hash); got {show(record[field])}")
    check_date(record["date"], f"{at}: field 'date'")
    if record["origin"] not in ORIGINS:
        raise InvalidInputError(f"{at}: field 'origin' must be one of {', '.join(ORIGINS)}; "
                                f"got {show(record['origin'])}")
    checked = dict(record)
    _check_subject(kind, checked, at, is_id)
    _check_decision(kind, checked, at)
    if "note" in record and type(record["note"]) is not str:
        raise InvalidInputError(f"{at}: field 'note' must be a string; got "
                                f"{show(record['note'])}")
    return checked


def _check_subject(kind, record, at, is_id):
    ok = is_id or (lambda value: type(value) is str and bool(value.strip()))
    if "doc" in kind.subject and not ok(record["doc"]):
        what = "a document ID" if "text" in kind.subject else "a passage ID"
        raise InvalidInputError(f"{at}: field 'doc' must be {what}; got "
                                f"{show(record['doc'])}")
    if "nugget" in kind.subject and not (type(record["nugget"]) is str
                                         and record["nugget"].strip()):
        raise InvalidInputError(f"{at}: field 'nugget' must be a nugget ID; got "
                                f"{show(record['nugget'])}")
    if "claim" in kind.subject:
        _text(record, "claim", at)
    if "text" in kind.subject:
        _check_span(record, at)
    if "citations" in kind.subject:
        cited = record["citations"]
        if type(cited) not in (list, tuple) or not all(ok(doc) for doc in cited) \
                or len(set(cited)) != len(cited):
            raise InvalidInputError(f"{at}: field 'citations' must be an array of distinct "
                                    f"passage IDs; got {show(cited)}")
        record["citations"] = list(cited)


def _check_span(record, at):
    """The span fields of a span label: a version, offsets and the text between them."""
    _text(record, "version", at)
    if type(record["text"]) is not str or not record["text"]:
        raise InvalidInputError(f"{at}: field 'text' must be the span's text (a non-empty "
                                f"string); got {show(record['text'])}")
    check_offsets(record["start"], record["end"], record["end"], at)  # numbers, in order
    if record["end"] - record["start"] != len(record["text"]):
        raise InvalidInputError(f"{at}: field 'text' must hold end - start = "
                                f"{record['end'] - record['start']} code points; got "
                                f"{len(record['text'])}")


def _check_decision(kind, record, at):
    decision = record["decision"]
    if kind.decisions is None:
        if type(decision) is not int or not -MAX_GRADE - 1 <= decision <= MAX_GRADE:
            raise InvalidInputError(f"{at}: field 'decision' must be a grade (a whole number: "
                                    f"0 not relevant, 1 relevant, 2 highly relevant); got "
                                    f"{show(decision)}")
    elif decision not in kind.decisions:
        raise InvalidInputError(f"{at}: field 'decision' must be one of "
                                f"{', '.join(kind.decisions)}; got {show(decision)}")
    if "states" in record:
        if kind.name != "support" or record["decision"] != "supported":
            raise InvalidInputError(f"{at}: field 'states' belongs to a supported claim only; "
                                    f"got {show(record['states'])} with decision "
                                    f"{show(decision)}")
        _text(record, "states", at)


def item_of(record):
    """``(kind, case, key)``: the item a judgement is about.

    >>> item_of({"kind": "answerability", "case": "q", "key": "0123456789abcdef"})
    ('answerability', 'q', '0123456789abcdef')
    """
    return record["kind"], record["case"], record["key"]


class Current(namedtuple("Current", "items replaced")):
    """``items``: ``{item: {reviewer: record}}``, each reviewer's latest judgement of each
    item, items in order of first judgement; ``replaced``: how many earlier judgements
    their authors replaced (kept in the history, not in ``items``)."""

    __slots__ = ()


def current(records):
    """Each reviewer's current judgement of each item (a later record by the same reviewer
    replaces the earlier one; another reviewer's sits beside it).

    >>> records = [{"kind": "answerability", "case": "q", "key": "k" * 16, "reviewer": r,
    ...             "decision": d} for r, d in (("ana", "unsure"), ("ben", "answerable"),
    ...                                        ("ana", "answerable"))]
    >>> found = current(records)
    >>> {name: record["decision"] for name, record in found.items[item_of(records[0])].items()}
    {'ben': 'answerable', 'ana': 'answerable'}
    >>> found.replaced
    1
    """
    items, replaced = {}, 0
    for record in records:
        by_reviewer = items.setdefault(item_of(record), {})
        if record["reviewer"] in by_reviewer:
            replaced += 1
            del by_reviewer[record["reviewer"]]  # the newest last, in judgement order
        by_reviewer[record["reviewer"]] = record
    return Current(items, replaced)


def resolve(kind, decisions):
    """One decision from several reviewers' current ``decisions`` of one item (people
    only), the conservative way: a dispute is never settled by a vote or by the latest.

    - relevance: the lowest grade (a passage counts relevant only when every reviewer
      found it so);
    - support: ``(decision, states)``: a decision and its ``states`` only when every
      reviewer gave exactly them; ``not a claim`` only when all said so; else
      ``unsupported``;
    - answerability: the decision when all agree, else ``unsure``;
    - span-relevance: the lowest grade, as relevance; evidence: ``evidence`` only when
      every reviewer said so;
    - nugget and citation: the lowest level (``not_support`` below ``partial_support``
      below ``support``; ``none`` below ``partial`` below ``full``).

    >>> resolve("relevance", [2, 1]), resolve("answerability", ["answerable", "unanswerable"])
    (1, 'unsure')
    >>> resolve("nugget", ["support", "partial_support"]), resolve("citation", ["full", "none"])
    ('partial_support', 'none')
    >>> resolve("support", [("supported", "monday"), ("supported", None)])
    ('unsupported', None)
    >>> resolve("evidence", ["evidence", "not evidence"])
    'not evidence'
    """
    decisions = list(decisions)
    if KINDS[kind].decisions is None:  # a grade
        return min(decisions)
    if kind in LEVELLED:
        return min(decisions, key=KINDS[kind].decisions.index)
    if len(set(decisions)) == 1:
        return decisions[0]
    return {"support": ("unsupported", None), "evidence": "not evidence"}.get(kind, "unsure")


def resolved(records, *, machines=False):
    """``{item: decision}`` from the current judgements of people (origin ``human`` or
    ``post-edited``), by :func:`resolve`; a support decision is a ``(decision, states)``
    pair. A machine's draft never scores, unless ``machines`` (then only where no person
    judged the item).

    >>> records = [{"kind": "relevance", "case": "q", "key": "k" * 16, "reviewer": "ana",
    ...             "origin": "human", "decision": 2},
    ...            {"kind": "relevance", "case": "q", "key": "k" * 16, "reviewer": "judge:x",
    ...             "origin": "llm-draft", "decision": 0}]
    >>> resolved(records)
    {('relevance', 'q', 'kkkkkkkkkkkkkkkk'): 2}
    """
    found = {}
    for item, by_reviewer in current(records).items.items():
        people = [record for record in by_reviewer.values() if not is_machine(record)]
        if not people and machines:
            people = list(by_reviewer.values())
        if people:
            found[item] = resolve(item[0], [decision_of(record) for record in people])
    return found


def decision_of(record):
    """A record's decision as :func:`resolve` reads it (support: ``(decision, states)``)."""
    if record["kind"] == "support":
        return record["decision"], record.get("states")
    return record["decision"]


def judged_case(case, grades, answerability, *, min_relevance=1):
    """``case`` (open ID rules) with its reviewers' labels: each judged grade
    (``{doc: grade}``) for a passage its own ``relevant`` says nothing of (``relevant`` then
    becomes a graded map, a listed ID at ``min_relevance``), and the question's
    ``answerability`` when it is ``answerable`` or ``unanswerable`` (``unsure`` and ``None``
    leave it as its labels say). A question judged unanswerable with nothing graded above 0
    and no expected claims gets ``support`` ``{}``: labelled, no claim expected. The case's
    own labels always win over a judgement (a passage judged relevant to a question its
    labels call unanswerable is left out: the audit lists it); the input is not changed.

    >>> judged_case({"relevant": ("a",)}, {"a": 0, "b": 2}, None)["relevant"]
    {'a': 1, 'b': 2}
    >>> judged_case({"relevant": ()}, {"b": 0}, "unanswerable")
    {'relevant': {'b': 0}, 'answerability': 'unanswerable', 'support': {}}
    """
    changed = dict(case)
    if grades:
        listed = case.get("relevant") or ()
        labelled = dict(listed) if type(listed) is dict else dict.fromkeys(listed,
                                                                           min_relevance)
        unanswerable = case.get("support") == {}  # its own labels: nothing is relevant
        for doc, grade in grades.items():
            if not (unanswerable and grade > 0):
                labelled.setdefault(doc, grade)
        changed["relevant"] = labelled
    if answerability in ("answerable", "unanswerable"):
        changed["answerability"] = answerability
        relevant = changed.get("relevant") or ()
        positive = any(grade > 0 for grade in relevant.values()) if type(relevant) is dict \
            else bool(relevant)
        if answerability == "unanswerable" and case.get("support") is None and not positive:
            changed["support"] = {}
    return changed


def tally(records):
    """What a test set's judgements amount to: ``(records, by kind, by origin, reviewers,
    replaced)``, ``replaced`` counting the records their own reviewer replaced later (kept
    in the history).

    >>> tally([{"kind": "support", "case": "q", "key": "k", "reviewer": "ana",
    ...         "origin": "human"}] * 2)
    (2, {'support': 2}, {'human': 2}, 1, 1)
    """
    kinds, origins = {}, {}
    for record in records:
        kinds[record["kind"]] = kinds.get(record["kind"], 0) + 1
        origins[record["origin"]] = origins.get(record["origin"], 0) + 1
    reviewers = len({record["reviewer"] for record in records})
    return len(records), kinds, origins, reviewers, current(records).replaced
