"""Judgement files (format version 5) and the judgements of version 4, read and checked.

A version 5 folder may hold ``judgements.<hash>.jsonl``, named by its index as the other
data files are: one judgement record a line (:mod:`ragscore.core.labels`), in the order
they were made. :func:`read_judgements` reads it and refuses a broken record with its file,
line and field. A record may name a case or a passage the test set no longer holds (the
test set changed after it was judged): it is kept, never applied, and the audit counts it.

Version 4 stored judgements of answer claims in a case's ``reviews``, as
``{"reviewer", "text", "decision", "states", "sources", "date", "note"}`` keyed by the
case's question and the claim's normalised text (:func:`check_judgement` checks one).
:func:`upgrade_reviews` turns them into version 5 records, each for its own case only,
one per citation set the case's runs give that claim: the upgrade of a version 4 folder
(and what a reading of one uses, in memory).
"""

from ..core.labels import check_record
from ..core.rules import InvalidInputError, check_date, check_name, show
from .jsonl import DatasetFileError, records

DECISIONS = ("supported", "unsupported", "not a claim")
KEYS = frozenset({"reviewer", "text", "decision", "states", "sources", "date", "note"})

__all__ = ["check_judgement", "read_judgements", "upgrade_reviews"]


def read_judgements(path, handle, *, rules, max_bytes):
    """The checked judgement records of an open judgements file, in file order; a broken
    one raises :class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the line and
    the field."""
    found = []
    for number, record in records(handle, path, max_bytes, encodable=True):
        try:
            found.append(check_record(record, f"{path}, line {number}", is_id=rules.is_id))
        except DatasetFileError:
            raise
        except InvalidInputError as error:
            raise DatasetFileError(str(error)) from None
    return tuple(found)


def check_judgement(item, at):
    """A checked copy of one version 4 judgement record; a problem raises ``ValueError``
    naming ``at`` and the field.

    >>> check_judgement({"reviewer": "ana", "text": "ships monday", "decision": "supported",
    ...                  "states": "monday", "sources": ["launch"], "date": "2026-12-04"},
    ...                 "line 1")["sources"]
    ['launch']
    """
    if type(item) is not dict:
        raise InvalidInputError(f"{at} must be an object; got {show(item)}")
    extra = sorted(str(key) for key in item if key not in KEYS)
    if extra:
        raise InvalidInputError(f"{at}: unknown key {show(extra[0])} (a judgement has "
                                f"{', '.join(sorted(KEYS))})")
    for key in ("reviewer", "text"):
        if type(item.get(key)) is not str or not item[key].strip():
            raise InvalidInputError(f"{at}: key {key!r} must be a non-blank string; got "
                                    f"{show(item.get(key))}")
    check_name(item["reviewer"], f"{at}: key 'reviewer'")
    if item.get("decision") not in DECISIONS:
        raise InvalidInputError(f"{at}: key 'decision' must be one of {', '.join(DECISIONS)}; "
                                f"got {show(item.get('decision'))}")
    if "states" in item and (type(item["states"]) is not str or not item["states"].strip()):
        raise InvalidInputError(f"{at}: key 'states' must be an expected claim's ID; got "
                                f"{show(item['states'])}")
    sources = item.get("sources", [])
    if type(sources) not in (list, tuple) or not all(
            type(doc) is str and doc.strip() for doc in sources):
        raise InvalidInputError(f"{at}: key 'sources' must be an array of IDs; got "
                                f"{show(sources)}")
    date = item.get("date", "")
    if date != "":  # optional in version 4
        check_date(date, f"{at}: key 'date'")
    if type(item.get("note", "")) is not str:
        raise InvalidInputError(f"{at}: key 'note' must be a string; got {show(item['note'])}")
    checked = dict(item)
    if "sources" in checked:
        checked["sources"] = list(sources)
    return checked


#: The date a version 4 judgement without one is given when upgraded.
UNDATED = "1970-01-01"


def upgrade_reviews(dataset, claims_of):
    """``(dataset without version 4 judgements in its cases' reviews, the version 5 records
    they become)``. ``claims_of(case)`` lists ``(normalised text, citations, passage keys)``
    of the claims the case's runs derive (:func:`ragscore.io.answers.claims_by_case`).

    Each version 4 judgement becomes a support judgement of its own case (never of another
    case asking the same question), once per citation set with which that case's runs make
    the claim; ``states`` is kept where it names one of the case's expected claims;
    ``sources`` (the pooling rule that version 5 drops) is not carried over. A judgement
    whose claim no run of its case makes any more is dropped and counted.
    """
    from ..core.labels import content_key, claim_key

    cases, upgraded, dropped = {}, [], 0
    for name, case in dataset.cases.items():
        reviews = case.get("reviews") or ()
        old = [review for review in reviews if "text" in review]
        if not old:
            cases[name] = case
            continue
        kept = tuple(review for review in reviews if "text" not in review)
        cases[name] = {key: value for key, value in case.items() if key != "reviews"}
        if kept:
            cases[name]["reviews"] = kept
        made = {}
        for text, citations, keys in claims_of(name):
            made.setdefault(text, {})[tuple(citations)] = keys
        expected = case.get("support") or {}
        for review in old:
            versions = made.get(review["text"])
            if not versions:
                dropped += 1
                continue
            for citations, keys in versions.items():
                record = {"kind": "support", "case": name,
                          "key": claim_key(review["text"], keys), "claim": review["text"],
                          "citations": list(citations), "decision": review["decision"],
                          "reviewer": review["reviewer"],
                          "date": review.get("date") or UNDATED,
                          "origin": "llm-draft" if review["reviewer"].startswith("judge:")
                          else "human",
                          "batch": content_key("version 4", name, review["reviewer"],
                                               review["text"])}
                if review["decision"] == "supported" and review.get("states") in expected:
                    record["states"] = review["states"]
                if review.get("note"):
                    record["note"] = review["note"]
                upgraded.append(record)
    return dataset._replace(cases=cases), tuple(upgraded), dropped
