"""Plugging in a judge: a function that decides claims, kept apart from people.

A judge is any callable ``judge(question, claim, passages) -> decision``: ``question`` and
``claim`` are strings (the claim as written), ``passages`` is ``{cited ID: text}``, and the
decision is ``"supported"``, ``"unsupported"`` or ``"not a claim"``, or a dict with
``decision`` and optionally ``states`` (an expected claim's ID). An LLM or an NLI model
fits behind it; ragscore calls none by default and needs no network.

:func:`apply_judge` asks a judge about every claim of the review queue and stores its
answers as support judgements with reviewer ``judge:NAME`` and origin ``llm-draft``
(:mod:`ragscore.core.labels`). Scores use people's judgements only; where a person and a
judge judged the same claim, their agreement (percent and Cohen's kappa) is in the audit,
under the judge's name.
"""
import re

from ..core.answers import ANSWER_DECISIONS, normalise
from ..core.labels import JUDGE_PREFIX, content_key
from ..core.rules import InvalidInputError, show
from .queue_file import add_judgements
from .review_queue import review_queue

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
    reviewer = JUDGE_PREFIX + name
    records = []
    for row in review_queue(dataset, system=system, pool_depth=0, reviewer=reviewer):
        if row["kind"] != "support":
            continue
        at = f"case {show(row['case'])}, claim {show(row['claim'])}"
        decided = _decision(judge(row["question"], row["claim"], dict(row["passages"])), at)
        record = {"kind": "support", "case": row["case"], "key": row["key"],
                  "claim": normalise(row["claim"]), "citations": list(row["citations"]),
                  "decision": decided["decision"], "reviewer": reviewer, "date": date,
                  "origin": "llm-draft"}
        states = decided.get("states")
        if states and decided["decision"] == "supported":
            record["states"] = states
        records.append(record)
    batch = content_key("judge", reviewer, date, [record["key"] for record in records])
    records = [dict(record, batch=batch) for record in records]
    return add_judgements(dataset, records), len(records)
