"""Plugging in a judge: a function that decides claims, kept apart from people.

A judge is any callable ``judge(question, claim, passages) -> decision``: ``question`` and
``claim`` are strings (the claim as written), ``passages`` is ``{cited ID: text}``, and the
decision is ``"supported"``, ``"unsupported"`` or ``"not a claim"``, or a dict with
``decision`` and optionally ``states`` (an expected claim's ID) and ``sources`` (IDs). An LLM
or an NLI model fits behind it; ragscore calls none by default and needs no network.

:func:`apply_judge` asks a judge about every claim in the review queue and stores its
answers as judgements with reviewer ``judge:NAME``. Scores use people's judgements only
(:func:`ragscore.core.answers.judgements_of`); where a person and a judge judged the same
claim, their agreement (percent and Cohen's kappa) is in
:func:`ragscore.core.reviews.agreement` and the audit, under the judge's name.
"""
import re

from ..core.answers import ANSWER_DECISIONS, JUDGE_PREFIX
from ..core.rules import InvalidInputError, show
from .review_queue import add_judgements, review_queue

_WORD = re.compile(r"[a-z0-9]{4,}")


def example_overlap_judge(question, claim, passages):
    """**An example judge, not a recommendation**: "supported" when every word of four or
    more letters in the claim (markers aside) appears in one cited passage, "unsupported"
    otherwise. Deterministic, no model, no network; it shows the protocol's shape.

    >>> example_overlap_judge("When?", "Starts Monday [1].", {"launch": "It starts Monday."})
    'supported'
    >>> example_overlap_judge("When?", "Starts Friday [1].", {"launch": "It starts Monday."})
    'unsupported'
    """
    from ..core.answers import normalise

    words = set(_WORD.findall(normalise(claim)))
    for text in passages.values():
        if words and words <= set(_WORD.findall((text or "").casefold())):
            return "supported"
    return "unsupported"


def _decision(found, at):
    if type(found) is str:
        found = {"decision": found}
    if type(found) is not dict or found.get("decision") not in ANSWER_DECISIONS:
        raise InvalidInputError(f"{at}: a judge must return one of "
                                f"{', '.join(ANSWER_DECISIONS)} or a dict with 'decision'; "
                                f"got {show(found)}")
    return found


def apply_judge(dataset, judge, *, name, date, system=None):
    """``(dataset with the judge's judgements added, how many)``: ``judge`` asked once per
    derived claim it has not judged yet (people's judgements do not stop it: that is how
    agreement is measured); its records name ``judge:NAME`` as reviewer."""
    if type(name) is not str or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise InvalidInputError(f"judge name must be a short name; got {show(name)}")
    done = {(case_name, review["text"]) for case_name, case in dataset.cases.items()
            for review in case.get("reviews") or ()
            if review.get("reviewer") == JUDGE_PREFIX + name and "text" in review}
    found = {}
    for row in review_queue(dataset, system=system, everything=True):
        if (row["case"], row["key"]) in done:
            continue
        at = f"case {show(row['case'])}, claim {show(row['claim'])}"
        decided = _decision(judge(row["question"], row["claim"], dict(row["passages"])), at)
        record = {"reviewer": JUDGE_PREFIX + name, "text": row["key"],
                  "decision": decided["decision"], "date": date}
        for key in ("states", "sources"):
            if decided.get(key):
                record[key] = decided[key]
        found.setdefault(row["case"], []).append(record)
    return add_judgements(dataset, found), sum(len(records) for records in found.values())
