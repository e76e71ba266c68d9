"""Answer text against reference answers, as SQuAD 2.0's official evaluation compares them.

Normalisation (``evaluate-v2.0.py``'s ``normalize_answer``): lower case, drop every ASCII
punctuation character (``string.punctuation``), replace the words ``a``, ``an`` and ``the``
by a space, then collapse whitespace. Tokens are the normalised text split on whitespace.

For one answer and one reference: exact match is 1 when the normalised texts are equal;
token F1 is ``2 * common / (answer tokens + reference tokens)`` (``common``: tokens shared,
counted with multiplicity), which equals SQuAD's ``2PR / (P + R)``; when either side has
no tokens, F1 is 1 if both have none, else 0. Over several references each score is the
largest over them, as SQuAD takes it. SQuAD 2.0's unanswerable rule: references that
normalise to nothing are left out, and a case left with none (``reference: []``, or only
such texts) is unanswerable, compared with the empty answer ``""``: a run scores 1 by
answering nothing (an empty or all-punctuation answer), else 0.
"""
import re
import string
from collections import Counter, namedtuple

from .rules import InvalidInputError, show

__all__ = ["AnswerMatch", "answer_match", "check_answer", "check_reference", "normalize_answer",
           "tokens"]

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


def normalize_answer(text):
    """SQuAD's normalisation: lower case, no punctuation, no articles, single spaces.

    >>> normalize_answer("The  Denver Broncos!")
    'denver broncos'
    >>> normalize_answer("an apple, a pear")
    'apple pear'
    """
    text = "".join(char for char in text.lower() if char not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def tokens(text):
    """The normalised tokens of ``text`` (none for an empty text).

    >>> tokens("Santa Clara, California")
    ['santa', 'clara', 'california']
    """
    return normalize_answer(text).split() if text else []


class AnswerMatch(namedtuple("AnswerMatch", "exact common answer_tokens reference_tokens")):
    """How an answer compares with its best references: ``exact`` (1 when it equals some
    reference after normalisation, else 0) and, for the reference giving the largest F1,
    the tokens in ``common`` and the token counts of each side. All whole numbers; F1 is
    ``(2 * common + both_empty) / (answer_tokens + reference_tokens + both_empty)``."""

    __slots__ = ()


def _f1(common, answer_tokens, reference_tokens):
    both_empty = answer_tokens + reference_tokens == 0
    return (2 * common + both_empty) / (answer_tokens + reference_tokens + both_empty)


def answer_match(answer, references):
    """The :class:`AnswerMatch` of ``answer`` (a str) against ``references`` (a tuple of
    str: several references, an empty tuple for an unanswerable case).

    >>> answer_match("Denver Broncos", ("Denver Broncos", "The Broncos"))
    AnswerMatch(exact=1, common=2, answer_tokens=2, reference_tokens=2)
    >>> answer_match("the Broncos won", ("Denver Broncos",))
    AnswerMatch(exact=0, common=1, answer_tokens=2, reference_tokens=2)
    >>> answer_match("", ())  # unanswerable, and nothing answered
    AnswerMatch(exact=1, common=0, answer_tokens=0, reference_tokens=0)
    """
    golds = [text for text in references if normalize_answer(text)] or [""]
    normal = normalize_answer(answer)
    answer_tokens = tokens(answer)
    answer_counts = Counter(answer_tokens)
    exact = int(any(normalize_answer(gold) == normal for gold in golds))
    best, best_f1 = None, -1.0
    for gold in golds:
        gold_tokens = tokens(gold)
        common = sum((Counter(gold_tokens) & answer_counts).values())
        found = (common, len(answer_tokens), len(gold_tokens))
        score = _f1(*found)
        if score > best_f1:
            best, best_f1 = found, score
    return AnswerMatch(exact, *best)


def check_reference(value):
    """A case's ``reference`` as a tuple of str: a string (one reference answer) or a list
    of strings (several; an empty list marks the case unanswerable). Anything else is an
    :class:`~ragscore.core.rules.InvalidInputError` naming the value.

    >>> check_reference("Denver Broncos"), check_reference([])
    (('Denver Broncos',), ())
    """
    if type(value) is str:
        return (value,)
    if type(value) in (list, tuple) and all(type(item) is str for item in value):
        return tuple(value)
    raise InvalidInputError(f"case['reference'] must be a string or a list of strings (an "
                            f"empty list: unanswerable); got {show(value)}")


def check_answer(value):
    """A run's ``answer``: a str, else an :class:`~ragscore.core.rules.InvalidInputError`."""
    if type(value) is not str:
        raise InvalidInputError(f"run['answer'] must be a string; got {show(value)}")
    return value
