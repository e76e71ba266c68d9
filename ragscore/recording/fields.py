"""What a run is made of, read out of one answer: the ranking (optionally with scores), the
answer text, the delivered context, tokens and cost.

Each field has a path (:mod:`ragscore.recording.paths`). ``retrieved`` must always be there;
another field is required when its path was given explicitly, and recorded when present
otherwise. With ``scores`` the ranking is ordered by score, highest first (ties keep the
response's order); the scores themselves are kept in the journal, not in the dataset (a
run records ranks). A value of the wrong kind, an unknown or repeated ID, raises
:class:`~ragscore.recording.paths.ResponseError`: the call becomes a failed run with that reason.
"""
from ..core.rules import InvalidInputError, show
from ..core.validation import validate_delivered, validate_run
from .paths import MISSING, ResponseError, parse_path, read_path

__all__ = ["DEFAULT_PATHS", "FIELDS", "Fields"]

FIELDS = ("answer", "retrieved", "scores", "delivered", "tokens", "cost")
#: The default response shape: ``{"answer": "...", "retrieved": ["id", ...],
#: "delivered": ["id", ...], "tokens": 812, "cost": 0.0031}``.
DEFAULT_PATHS = {"answer": "answer", "retrieved": "retrieved", "delivered": "delivered",
                 "tokens": "tokens", "cost": "cost"}


def _number(value):
    return (type(value) in (int, float)) and value >= 0 and value != float("inf")


def _answer(value):
    """The answer text, refused when it could not be saved or split into claims."""
    if type(value) is not str:
        raise ResponseError(f"answer must be text; got {show(value)}")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ResponseError(f"answer holds a lone surrogate ({show(value[error.start])} "
                                f"at character {error.start + 1}), which is not Unicode "
                                "text") from None
    return value  # its length is checked with the run (validate_run)


class Fields:
    """Reads the run's fields from an answer; ``paths`` overrides :data:`DEFAULT_PATHS`
    (a path of ``None`` or ``""`` turns a field off; ``scores`` has no default)."""

    def __init__(self, paths=None, *, corpus_ids, rules):
        paths = dict(paths or {})
        unknown = sorted(set(paths) - set(FIELDS))
        if unknown:
            raise InvalidInputError(f"response paths: unknown field {show(unknown[0])} "
                                    f"(known: {', '.join(FIELDS)})")
        if "retrieved" in paths and not paths["retrieved"]:
            raise InvalidInputError("response paths: 'retrieved' cannot be turned off")
        self.required = {"retrieved"} | {name for name, path in paths.items() if path}
        merged = {**DEFAULT_PATHS, **paths}
        self.paths = {name: parse_path(path, option=f"the {name} path")
                      for name, path in merged.items() if path}
        self.known, self.rules = corpus_ids, rules

    def read(self, answer):
        """``{field: value}`` for the run, from ``answer`` (parsed JSON or a dict)."""
        if type(answer) is not dict:
            raise ResponseError(f"expected a JSON object; got {show(answer)}")
        found = {}
        for name, steps in self.paths.items():
            value = read_path(answer, steps)
            if value is MISSING:
                if name in self.required:
                    raise ResponseError(f"the response has no {name} (path "
                                        f"{show('.'.join(map(str, steps)))})")
                continue
            found[name] = value
        return self._checked(found)

    def journalled(self, entry):
        """Raise :class:`ResponseError` unless the run fields of a journal ``entry`` (a
        finished call) are what :meth:`read` gives: a resume takes nothing a recording
        could not have written."""
        if "retrieved" not in entry:
            raise ResponseError("the entry has no 'retrieved' (a finished call always "
                                "records its ranking)")
        self._checked({name: entry[name] for name in FIELDS if name in entry})

    def _checked(self, found):
        retrieved = found["retrieved"]
        if type(retrieved) is not list or not all(type(doc) is str for doc in retrieved):
            raise ResponseError(f"retrieved must be a list of IDs (strings); got "
                                f"{show(retrieved)}")
        run = {"retrieved": tuple(retrieved)}
        if "scores" in found:
            scores = found["scores"]
            if type(scores) is not list or len(scores) != len(retrieved) or not all(
                    type(score) in (int, float) and score == score for score in scores):
                raise ResponseError(f"scores must be a list of {len(retrieved)} numbers, one "
                                    f"per retrieved ID; got {show(scores)}")
            order = sorted(range(len(retrieved)), key=lambda at: -scores[at])
            run["retrieved"] = tuple(retrieved[at] for at in order)
        if "answer" in found:
            run["answer"] = _answer(found["answer"])
        if "delivered" in found:
            delivered = found["delivered"]
            if type(delivered) is not list or not all(type(doc) is str for doc in delivered):
                raise ResponseError(f"delivered must be a list of IDs (strings); got "
                                    f"{show(delivered)}")
            run["delivered"] = tuple(delivered)
        if "tokens" in found:
            if type(found["tokens"]) is not int or found["tokens"] < 0:
                raise ResponseError(f"tokens must be a whole number of at least 0; got "
                                    f"{show(found['tokens'])}")
            run["tokens"] = found["tokens"]
        if "cost" in found:
            if not _number(found["cost"]):
                raise ResponseError(f"cost must be a number of at least 0; got "
                                    f"{show(found['cost'])}")
            run["cost"] = found["cost"]
        try:
            validate_run(run, self.known, rules=self.rules)
            validate_delivered(run, self.known, rules=self.rules)
        except InvalidInputError as error:
            raise ResponseError(str(error)) from None
        if "scores" in found:
            run["scores"] = found["scores"]
        return run
