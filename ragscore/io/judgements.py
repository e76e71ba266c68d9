"""Checking a judgement of an answer's claim (format version 4, a case's ``reviews``).

``{"reviewer", "text", "decision", "states", "sources", "date", "note"}``: ``text`` is the
claim's normalised text (:func:`ragscore.core.answers.normalise`), ``decision`` one of
``supported``, ``unsupported``, ``not a claim``; ``states`` the expected claim it states
(optional), ``sources`` the IDs the reviewer found it supported by (optional), ``date``
``YYYY-MM-DD``. A judge's records name it ``judge:NAME`` as the reviewer.
"""
import re

from ..core.rules import InvalidInputError, show

DECISIONS = ("supported", "unsupported", "not a claim")
KEYS = frozenset({"reviewer", "text", "decision", "states", "sources", "date", "note"})
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def check_judgement(item, at):
    """A checked copy of one judgement record; a problem raises ``ValueError`` naming ``at``
    and the field.

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
    if type(date) is not str or (date and not _DATE.fullmatch(date)):
        raise InvalidInputError(f"{at}: key 'date' must be a date YYYY-MM-DD; got "
                                f"{show(date)}")
    if type(item.get("note", "")) is not str:
        raise InvalidInputError(f"{at}: key 'note' must be a string; got {show(item['note'])}")
    checked = dict(item)
    if "sources" in checked:
        checked["sources"] = list(sources)
    return checked
