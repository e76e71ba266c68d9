"""Reading fields out of a JSON response by a small path, and filling a request template.

A path is keys joined by dots; ``[N]`` takes one item of a list and ``[*]`` every item::

    answer                  {"answer": "..."}                       -> "..."
    data.answer             {"data": {"answer": "..."}}             -> "..."
    hits[*].id              {"hits": [{"id": "a"}, {"id": "b"}]}    -> ["a", "b"]
    choices[0].text         {"choices": [{"text": "..."}]}          -> "..."

Nothing is evaluated: a path is split into keys and indexes, a template is parsed JSON
whose strings have ``{question}``, ``{case}`` and ``{trial}`` filled in.
"""
import json
import re

from ..core.rules import InvalidInputError, show

__all__ = ["MISSING", "ResponseError", "fill_template", "parse_path", "read_path"]

_PLACEHOLDER = re.compile(r"\{(question|case|trial)\}")
_STEP = re.compile(r"([^.\[\]]+)|\[(\*|\d+)\]|(\.)")
#: What :func:`read_path` returns when the response has no such field.
MISSING = object()


class ResponseError(ValueError):
    """A response that cannot be read: it becomes a failed run with this reason."""


def parse_path(text, *, option="path"):
    """The steps of a path: keys (str), indexes (int) and ``"*"`` (every item).

    >>> parse_path("hits[*].id"), parse_path("choices[0].text")
    (('hits', '*', 'id'), ('choices', 0, 'text'))
    """
    if type(text) is not str or not text.strip():
        raise InvalidInputError(f"{option} must be a non-empty JSON path; got {show(text)}")
    steps, position, expect_key = [], 0, True
    while position < len(text):
        match = _STEP.match(text, position)
        if match is None:
            raise InvalidInputError(f"{option}: cannot read the path {show(text)} at "
                                    f"character {position + 1}")
        key, index, dot = match.groups()
        if dot is not None and expect_key:
            raise InvalidInputError(f"{option}: a key is missing before character "
                                    f"{position + 1} of the path {show(text)}")
        if key is not None:
            if not expect_key:
                raise InvalidInputError(f"{option}: a dot is missing before {show(key)} in "
                                        f"the path "
                                        f"{show(text)}")
            steps.append(key)
        elif index is not None:
            steps.append("*" if index == "*" else int(index))
        position, expect_key = match.end(), dot is not None
    if expect_key and steps:
        raise InvalidInputError(f"{option}: the path {show(text)} ends with a dot")
    return tuple(steps)


def read_path(value, steps):
    """The field at ``steps`` in ``value``, :data:`MISSING` when absent; a ``"*"`` step gives
    a list (raising :class:`ResponseError` when that item is not a list).

    >>> read_path({"hits": [{"id": "a"}, {"id": "b"}]}, ("hits", "*", "id"))
    ['a', 'b']
    """
    for position, step in enumerate(steps):
        if step == "*":
            if type(value) is not list:
                raise ResponseError(f"expected a list at {_shown(steps[:position])}; got "
                                    f"{show(value)}")
            rest = steps[position + 1:]
            items = [read_path(item, rest) for item in value]
            if any(item is MISSING for item in items):
                raise ResponseError(f"an item of {_shown(steps[:position])} has no "
                                    f"{_shown(rest)}")
            return items
        if type(step) is int:
            if type(value) is not list or step >= len(value):
                return MISSING
        elif type(value) is not dict or step not in value:
            return MISSING
        value = value[step]
    return value


def _shown(steps):
    return "".join(f"[{step}]" if type(step) is int else "[*]" if step == "*" else f".{step}"
                   for step in steps).lstrip(".") or "(top level)"


def check_template(text, *, option="body template"):
    """The parsed template ``text`` (JSON with placeholders in its strings)."""
    try:
        template = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:  # an integer too long too
        reason = "nested too deeply" if isinstance(error, RecursionError) else \
            str(error).split(";")[0][:160]
        raise InvalidInputError(f"{option} must be JSON; got {show(text)} ({reason})") from None
    return template


def fill_template(template, *, question, case, trial):
    """``template`` with every ``{question}``, ``{case}`` and ``{trial}`` in its strings
    filled in; a string that is exactly ``"{trial}"`` becomes the number.

    >>> fill_template({"q": "{question}", "n": "{trial}"}, question="Why?", case="c", trial=2)
    {'q': 'Why?', 'n': 2}
    """
    if type(template) is dict:
        return {key: fill_template(value, question=question, case=case, trial=trial)
                for key, value in template.items()}
    if type(template) is list:
        return [fill_template(value, question=question, case=case, trial=trial)
                for value in template]
    if type(template) is str:
        if template == "{trial}":
            return trial
        values = {"question": question, "case": case, "trial": str(trial)}
        return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)
    return template
