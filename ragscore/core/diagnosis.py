"""Which stage failed a question: one diagnosis per (question, system), from its counts.

The rule, declared here once and in docs/diagnosis.md, walks the pipeline in order and names
the first stage that failed:

1. nothing is labelled (no relevant ID and no answer labels), or an unanswerable question's
   answer was not assessed: ``n/a``;
2. an unanswerable question (no relevant ID, no expected claim): ``should_abstain`` when the
   answer makes a claim, else ``ok``;
3. an answerable question with relevant IDs, none of them anywhere in the ranked list:
   ``missed`` (retrieval missed every relevant ID);
4. some retrieved, none in the context the answer stage saw (the recorded delivered context,
   else the top k): ``not_delivered``;
5. the answer was not assessed: ``ok`` for a retrieval-only run (retrieval did its part),
   ``n/a`` when it has claims awaiting a person's review (nobody has assessed it yet);
6. the answer makes no claim: ``should_answer`` (abstained when it should answer);
7. with answer labels, some generated claim is unsupported at k (strict citation rule):
   ``unsupported``;
8. otherwise ``ok``.

``ok`` means no stage failed by these rules; it does not mean every expected claim is covered
(coverage below 1 is not a diagnosis here, read the coverage column). A question answered in
repeated trials gets the earliest-stage failure among its trials (:func:`combine`).
"""
from bisect import bisect_right

#: Each diagnosis code and what it means, in pipeline order (the order :func:`combine` uses).
DIAGNOSES = {
    "missed": "retrieval missed every relevant ID",
    "not_delivered": "retrieved but not delivered",
    "unsupported": "delivered but the answer's claims unsupported",
    "should_abstain": "answered when it should abstain",
    "should_answer": "abstained when it should answer",
    "ok": "no stage failed",
    "n/a": "not enough labelled or recorded to say",
}
#: The codes that mean a question failed.
FAILURES = ("missed", "not_delivered", "unsupported", "should_abstain", "should_answer")


def diagnose(*, n_relevant, n_expected, retrieved_relevant, delivered_relevant, n_claims,
             supported, awaiting=False):
    """The diagnosis code (a key of :data:`DIAGNOSES`) of one question's counts.

    ``n_relevant``: IDs labelled relevant; ``n_expected``: expected claims (``None``: no
    answer labels); ``retrieved_relevant``: relevant IDs anywhere in the ranked list;
    ``delivered_relevant``: relevant IDs in the context the answer stage saw; ``n_claims``:
    generated claims (``None``: answer not assessed); ``supported``: generated claims
    supported at k; ``awaiting``: the answer's claims await review (not assessed yet).

    >>> diagnose(n_relevant=1, n_expected=1, retrieved_relevant=1, delivered_relevant=1,
    ...          n_claims=2, supported=1)
    'unsupported'
    >>> diagnose(n_relevant=0, n_expected=0, retrieved_relevant=0, delivered_relevant=0,
    ...          n_claims=0, supported=0)
    'ok'
    """
    if n_relevant == 0 and not n_expected:
        if n_expected is None or n_claims is None:
            return "n/a"
        return "should_abstain" if n_claims > 0 else "ok"
    if n_relevant > 0 and retrieved_relevant == 0:
        return "missed"
    if n_relevant > 0 and delivered_relevant == 0:
        return "not_delivered"
    if n_claims is None:
        return "n/a" if awaiting else "ok"
    if n_claims == 0:
        return "should_answer"
    if n_expected is not None and supported < n_claims:
        return "unsupported"
    return "ok"


def combine(codes):
    """One diagnosis for repeated trials: the earliest-stage failure among ``codes``, else
    ``ok`` if any trial is ok, else ``n/a``.

    >>> combine(["ok", "unsupported", "missed"])
    'missed'
    """
    order = list(DIAGNOSES)
    return min(codes, key=order.index) if codes else "n/a"


def delivered_relevant(counts, *, k, retrieved=None, delivered=None):
    """Relevant IDs in the context the answer stage saw, from a question's
    :class:`~ragscore.core.counts.Counts`: the top ``k`` when no delivered context was
    recorded; the top ``low`` when the delivered context equals a prefix of the ranking
    (``delivered_span``); else the relevant IDs of ``retrieved`` (by their ranks) found in
    ``delivered``, the run's recorded lists.

    >>> from ragscore.core.counts import count
    >>> delivered_relevant(count({"a"}, {}, ("b", "a"), ()), k=1)
    0
    """
    ranks = counts.relevant_ranks
    span = counts.delivered_span
    if span is None:
        return bisect_right(ranks, k)
    if span[0] > 0:
        return bisect_right(ranks, span[0])
    if retrieved is None or delivered is None:
        return 0
    inside = set(delivered)
    return sum(1 for rank in ranks if rank <= len(retrieved) and retrieved[rank - 1] in inside)


def diagnose_counts(counts, *, k, run=None, awaiting=False):
    """The diagnosis code of one question's counts at cutoff ``k`` (``run``: its recorded
    run, a dict with ``retrieved`` and ``delivered``, read only when the delivered context
    is not a prefix of the ranking; ``awaiting``: its claims await review). Repeated trials
    (a sequence of counts, with ``run`` a list of runs) are combined with :func:`combine`.

    >>> from ragscore.core.counts import count
    >>> diagnose_counts(count({"a"}, {"x": {"a"}}, ("b", "a"), (("x", ("a",)),)), k=1)
    'not_delivered'
    """
    if not hasattr(counts, "relevant_ranks"):  # repeated trials
        runs = run if isinstance(run, (list, tuple)) else [None] * len(counts)
        return combine([diagnose_counts(trial, k=k, run=one, awaiting=awaiting)
                        for trial, one in zip(counts, runs)])
    run = run or {}
    return diagnose(n_relevant=counts.n_relevant, n_expected=counts.n_expected,
                    retrieved_relevant=len(counts.relevant_ranks),
                    delivered_relevant=delivered_relevant(
                        counts, k=k, retrieved=run.get("retrieved"),
                        delivered=run.get("delivered")),
                    n_claims=counts.n_claims, supported=bisect_right(counts.claim_cutoffs, k),
                    awaiting=awaiting)


def question_diagnoses(counted, runs, *, k):
    """The diagnosis code of every row of ``counted`` (an engine's counted runs) at cutoff
    ``k``, in row order; ``runs`` is the dataset's ``runs[case][system]`` (read only where
    the delivered context is not a prefix of the ranking); an answer whose claims await
    review (``counted.waiting``) is not said to be ``ok``."""
    waiting = counted.waiting
    return [diagnose_counts(counted.counts_at(position), k=k,
                            run=runs.get(case, {}).get(system),
                            awaiting=(case, system) in waiting)
            for position, (case, system) in enumerate(counted.keys)]
