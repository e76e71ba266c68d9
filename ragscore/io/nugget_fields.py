"""The record fields format version 5 adds for nuggets and cited answers, read and written.

A case may list its ``nuggets`` (:mod:`ragscore.core.nuggets`)::

    "nuggets": [{"id": "smoke", "importance": "okay"},
                {"id": "n3", "text": "The window closes on Friday.", "importance": "vital"}]

A case whose ID its source (a nuggetizer or TREC RAG file) wrote as a JSON number says so,
so that the exports write it back as one: ``"numeric_id": true``.

A run may record its answer as ``sentences``, each with the IDs it cites (TREC RAG's
answers, their citations resolved from indexes into the references list to IDs), instead
of ``answer`` text, and the ``response_length`` its system declared::

    "sentences": [{"text": "It opens on Monday.", "citations": ["launch"]}],
    "response_length": 4

In memory a case's nuggets are a tuple of dicts and a run's sentences a tuple of ``(text,
citations)`` pairs. Every rule on their values is core's
(:func:`ragscore.core.nuggets.check_nuggets`, :func:`ragscore.core.answers.check_sentences`);
here they are only taken from, and put back into, their JSON shapes.
"""
import re

from ..core.nuggets import check_nuggets
from ..core.rules import InvalidInputError, show
from .jsonl import DatasetFileError

__all__ = ["case_nuggets_of", "numeric_id", "run_answer_fields", "written_sentences"]

#: An integer as JSON writes one: no leading zero, no plus sign.
_INTEGER = re.compile(r"0|-?[1-9][0-9]*")
#: The keys of one sentence object.
SENTENCE_KEYS = ("text", "citations")


def case_nuggets_of(record, place, rules):
    """``{"nuggets": the checked nuggets of a case line}`` (a tuple of dicts), and
    ``numeric_id``, or ``{}`` when it has neither; a problem raises
    :class:`~ragscore.io.jsonl.DatasetFileError` naming ``place`` and the field.

    >>> from ragscore.core.rules import OPEN
    >>> case_nuggets_of({"id": "23287", "numeric_id": True}, "line 1", OPEN)
    {'numeric_id': True}
    >>> case_nuggets_of({"id": "t1", "numeric_id": True}, "line 2", OPEN)
    Traceback (most recent call last):
    ...
    ragscore.io.jsonl.DatasetFileError: line 2: key 'numeric_id' is true, but the case ID 't1' is not a whole number as JSON writes one
    """
    found = {}
    if "numeric_id" in record:
        found["numeric_id"] = numeric_id(record, place)
        if not found["numeric_id"]:
            del found["numeric_id"]
    if "nuggets" not in record:
        return found
    try:
        return {"nuggets": check_nuggets(record["nuggets"], rules=rules, field="nuggets"),
                **found}
    except InvalidInputError as error:
        raise DatasetFileError(f"{place}: {error}") from None


def numeric_id(record, place):
    """A case line's ``numeric_id`` (true: the source, a nuggetizer or TREC RAG file, wrote
    its ID as a number, and the exports write it back as one), checked: a boolean, true only
    for an ID that is an integer as JSON writes one (``"23287"``, not ``"0023"``)."""
    value, name = record["numeric_id"], record.get("id")
    if type(value) is not bool:
        raise DatasetFileError(f"{place}: key 'numeric_id' must be true or false; got "
                               f"{show(value)}")
    if value and not (type(name) is str and _INTEGER.fullmatch(name)):
        raise DatasetFileError(f"{place}: key 'numeric_id' is true, but the case ID "
                               f"{show(name)} is not a whole number as JSON writes one")
    return value


def run_answer_fields(record, run, place):
    """Put a run line's ``sentences`` (as ``(text, citations)`` pairs) and
    ``response_length`` into ``run``; a shape that is wrong raises
    :class:`~ragscore.io.jsonl.DatasetFileError` (the IDs are checked with the run)."""
    if "sentences" in record:
        value = record["sentences"]
        if type(value) is not list:
            raise DatasetFileError(f"{place}: key 'sentences' must be an array of objects "
                                   f"with 'text' and 'citations'; got {show(value)}")
        pairs = []
        for position, item in enumerate(value):
            at = f"{place}: sentences[{position}]"
            if type(item) is not dict or set(item) != set(SENTENCE_KEYS):
                raise DatasetFileError(f"{at} must be an object with exactly 'text' and "
                                       f"'citations'; got {show(item)}")
            if type(item["text"]) is not str or type(item["citations"]) is not list:
                raise DatasetFileError(f"{at}: 'text' must be a string and 'citations' an "
                                       f"array of IDs; got {show(item)}")
            pairs.append((item["text"], tuple(item["citations"])))
        run["sentences"] = tuple(pairs)
    if "response_length" in record:
        length = record["response_length"]
        if type(length) is not int or length < 0:
            raise DatasetFileError(f"{place}: key 'response_length' must be a whole number of "
                                   f"at least 0; got {show(length)}")
        run["response_length"] = length


def written_sentences(pairs):
    """A run's sentences as a record writes them.

    >>> written_sentences((("Opens Monday.", ("launch",)),))
    [{'text': 'Opens Monday.', 'citations': ['launch']}]
    """
    return [{"text": text, "citations": list(cited)} for text, cited in pairs]
