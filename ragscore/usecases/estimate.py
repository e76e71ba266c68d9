"""``report --estimate ppi``: a judge's drafts made useful, never trusted (docs/labels.md).

Where a machine judge's drafts (origin ``llm-draft``) cover every answer and people judged
the audit slice (the questions :func:`ragscore.usecases.pending.audit_cases` draws from the
seed: a random sample), each answer metric (support, coverage, the nugget and citation
scores) gets, per system, beside the people-only figure of the report:

- the people-only estimate from the sample (its mean and 95% interval);
- the prediction-powered estimate (:mod:`ragscore.core.ppi`): the judge's mean over the
  answers outside the sample, corrected by people's differences from the judge on it.

The judge's value of an answer is counted with the test set's support, nugget and citation
judgements taken from the machines' drafts alone (people's relevance and answerability
decisions stay); people's value as every report counts it. An estimate is n/a, with the
reason, when the drafts leave an answer not assessed, when people have not finished the
audit slice, or with fewer than two sample answers. It is never the default and always
labelled as an estimate; a gate rule reads it only when it says ``estimate = "ppi"``.
"""
from collections import namedtuple

from ..core.labels import is_machine
from ..core.metrics import NOT_ASSESSED, RATE
from ..core.ppi import ESTIMATED_STAGES, ppi_mean, sample_mean
from ..core.rules import InvalidInputError
from ..render import estimate as written
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["ANSWER_KINDS", "EstimateRow", "Estimated", "estimate_report", "estimates",
           "judge_counted"]

#: The judgement kinds read from the drafts alone for the judge's value of an answer.
ANSWER_KINDS = frozenset({"support", "nugget", "citation"})


class EstimateRow(namedtuple("EstimateRow", "system metric people people_used sample ppi "
                                            "note")):
    """One system and metric: ``people`` (the report's mean over the answers people's
    judgements define) over ``people_used`` answers, the ``sample`` and ``ppi``
    :class:`~ragscore.core.ppi.Estimate`, and a ``note`` (what was left out, or ``""``)."""

    __slots__ = ()


def judge_counted(dataset, *, engine="reference"):
    """The test set counted with its answer judgements (support, nugget, citation) taken
    from the machines' drafts alone (people's other decisions kept)."""
    from ..engine import count_dataset

    records = tuple(record for record in dataset.judgements
                    if is_machine(record) or record["kind"] not in ANSWER_KINDS)
    return count_dataset(dataset._replace(judgements=records), engine=engine, drafts=True)


def _waits(reason, metric):
    return reason is not None and (reason == NOT_ASSESSED or reason.startswith("not assessed")
                                   or reason == metric.waiting_reason)


def estimates(dataset, *, k, metrics, sample, cases=None, systems=None, confidence=0.95,
              engine="reference", people=None, judge=None, conservative=False):
    """One :class:`EstimateRow` per system and metric (answer metrics only), the audit
    ``sample`` being the cases drawn; ``cases``: only these questions (a rule's scope);
    ``conservative``: the interval a gate reads (:func:`ragscore.core.ppi.ppi_mean`)."""
    from ..engine import count_dataset

    people = people or count_dataset(dataset, engine=engine)
    judge = judge or judge_counted(dataset, engine=engine)
    sample, rows = set(sample), []
    for name, view in people.by_system().items():
        if systems is not None and name not in systems:
            continue
        theirs = judge.by_system().get(name)
        for metric in metrics:
            if metric.stage not in ESTIMATED_STAGES:
                continue
            mine = dict(zip((case for case, _ in view.keys),
                            zip(view.values(metric, k), view.reasons(metric, k))))
            drafted = dict(zip((case for case, _ in theirs.keys),
                               zip(theirs.values(metric, k), theirs.reasons(metric, k))))
            chosen = [case for case in mine if cases is None or case in cases]
            rows.append(_row(name, metric, chosen, mine, drafted, sample, confidence,
                             conservative))
    return rows


def _row(system, metric, chosen, mine, drafted, sample, confidence, conservative):
    defined = [mine[case][0] for case in chosen if mine[case][0] is not None]
    people_mean = sum(map(float, defined)) / len(defined) if defined else None
    undrafted = [case for case in chosen if _waits(drafted[case][1], metric)]
    unfinished = [case for case in chosen if case in sample and _waits(mine[case][1], metric)]
    rest = [drafted[case][0] for case in chosen if case not in sample
            and drafted[case][0] is not None]
    pairs = [(drafted[case][0], mine[case][0]) for case in chosen if case in sample
             and drafted[case][0] is not None and mine[case][0] is not None]
    left = sum(1 for case in chosen if case in sample and not _waits(mine[case][1], metric)
               and (drafted[case][0] is None) != (mine[case][0] is None))
    people_sample = sample_mean([y for _, y in pairs], rest=len(rest), confidence=confidence)
    found = ppi_mean(rest, [f for f, _ in pairs], [y for _, y in pairs],
                     confidence=confidence, conservative=conservative)
    reason = ""
    if undrafted:
        reason = (f"the drafts leave {len(undrafted)} answer{'s' * (len(undrafted) != 1)} "
                  "not assessed: a judge must draft every pending item")
    elif unfinished:
        reason = (f"people have not finished the audit sample: {len(unfinished)} of its "
                  f"answers {'awaits' if len(unfinished) == 1 else 'await'} review")
    if reason:
        found = found._replace(mean=None, low=None, high=None, reason=reason)
        people_sample = people_sample._replace(mean=None, low=None, high=None, reason=reason)
    if metric.kind == RATE:  # a rate's mean lies in [0, 1]: so may its interval
        found, people_sample = _within(found), _within(people_sample)
    note = (f"{left} sample answer{'s' * (left != 1)} n/a on one side only, left out"
            if left else "")
    return EstimateRow(system, metric.name, people_mean, len(defined), people_sample, found,
                       note)


def _within(estimate):
    """An interval cut to [0, 1], where a rate's mean lies (it covers the mean as often)."""
    if estimate.mean is None:
        return estimate
    return estimate._replace(low=max(0.0, estimate.low), high=min(1.0, estimate.high))


class Estimated(Result, namedtuple("Estimated", "k rows sample share seed confidence")):
    """``report --estimate ppi``: the ``rows`` (:class:`EstimateRow`) at ``k``, the audit
    ``sample`` (its questions), drawn with ``share`` and ``seed``, at ``confidence``."""

    __slots__ = ()
    job = "an estimate (--estimate ppi)"
    writers = writer_table(Writer("text", written.estimate_text),
                           data_writer("json", written.estimate_json))


def estimate_report(dataset, *, k=2, metrics=None, audit_share=0.1, seed=0,
                    confidence=0.95, system=None, engine="reference"):
    """The :class:`Estimated` of ``dataset`` (a folder's path or a Dataset)."""
    from ..core.metrics import select
    from ..core.audit_slice import audit_cases
    from .reading import cutoff, loaded

    source = loaded(dataset)
    if not any(is_machine(record) for record in source.judgements):
        raise InvalidInputError("--estimate ppi needs a judge's drafts (judgements of origin "
                                "llm-draft, or by judge:NAME): this test set has none")
    from ..engine import count_dataset, default_metrics

    people = count_dataset(source, engine=engine)
    k = cutoff(k, people.rules)
    if metrics is None:  # support, coverage and the nugget scores the data shows
        chosen = [metric for metric in select(default_metrics(people))
                  if metric.name in ("support", "coverage") or metric.group == "nugget"]
    else:
        chosen = [metric for metric in select(metrics) if metric.stage in ESTIMATED_STAGES]
    if not chosen:
        raise InvalidInputError("--estimate ppi estimates answer metrics (support, coverage, "
                                "the nugget and citation scores); --metrics names none")
    sample = audit_cases(source.cases, share=audit_share, seed=seed)
    rows = estimates(source, k=k, metrics=chosen, sample=sample, confidence=confidence,
                     systems=None if system is None else {system}, engine=engine,
                     people=people)
    return Estimated(k, rows, tuple(sample), audit_share, seed, confidence)
