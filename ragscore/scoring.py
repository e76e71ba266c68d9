"""Score one case and run: the six contract metrics, in contract order."""
from .validation import validate

#: The keys of :func:`evaluate`'s result, in order.
METRICS = ("precision", "recall", "rr", "support", "coverage", "abstention_correct")


def metric_labels(k):
    """Short column labels for the metrics at cutoff ``k``.

    >>> metric_labels(2)
    ('P@2', 'R@2', 'RR@2', 'support', 'coverage', 'abstention')
    """
    return (f"P@{k}", f"R@{k}", f"RR@{k}", "support", "coverage", "abstention")


def score_values(relevant, support, retrieved, claims, k):
    """The six metrics, as a tuple in :data:`METRICS` order, for inputs already validated.

    The formulas of :mod:`ragscore.retrieval` and :mod:`ragscore.claims`, computed in one pass
    that shares the top-k set between them (batch scoring calls this once per run)::

        hits       = |top_k & relevant|
        P@k        = hits / k                  R@k = hits / |relevant|
        RR@k       = 1 / rank of first hit in top_k, or 0.0
        supported  = claims whose citations are non-empty and all in (labelled & top_k)
        support    = supported / |claims|      coverage = supported / |expected claims|

    Retrieval metrics are ``None`` without relevant IDs, support without claims, coverage
    without expected claims; ``abstention_correct`` is ``not claims`` on an unanswerable
    case and ``None`` otherwise.
    """
    top = retrieved[:k]
    visible = set(top)
    if relevant:
        hits = len(relevant & visible)
        precision = hits / k
        recall = hits / len(relevant)
        rr = 0.0
        for rank, doc in enumerate(top, start=1):
            if doc in relevant:
                rr = 1 / rank
                break
    else:
        precision = recall = rr = None
    supported = 0
    for claim, citations in claims:
        labelled = support.get(claim)
        if labelled is None or not citations:
            continue
        if visible.issuperset(citations) and labelled.issuperset(citations):
            supported += 1
    return (
        precision,
        recall,
        rr,
        supported / len(claims) if claims else None,
        supported / len(support) if support else None,
        None if support else not claims,
    )


def score_validated(relevant, support, retrieved, claims, k):
    """The six metrics as a ``{metric: value}`` dict for inputs already validated."""
    return dict(zip(METRICS, score_values(relevant, support, retrieved, claims, k)))


def evaluate(corpus, case, run, *, k=2):
    """Validate, then score one run of one case at cutoff ``k``.

    Returns a dict with keys ``precision`` (P@k), ``recall`` (R@k), ``rr`` (RR@k),
    ``support``, ``coverage`` and ``abstention_correct``, in that order; ``None`` marks n/a.
    Raises :class:`~ragscore.validation.InvalidInputError` (a ``ValueError``) on bad input.

    >>> corpus = {"rollback": "Switch back.", "checklist": "Run the smoke test."}
    >>> case = {"relevant": ("rollback", "checklist"),
    ...         "support": {"switch": ("rollback",), "smoke": ("checklist",)}}
    >>> run = {"retrieved": ("rollback",), "claims": (("switch", ("rollback",)),)}
    >>> evaluate(corpus, case, run, k=2)
    {'precision': 0.5, 'recall': 0.5, 'rr': 1.0, 'support': 1.0, 'coverage': 0.5, 'abstention_correct': None}
    """
    relevant, support, retrieved, claims = validate(corpus, case, run, k)
    return score_validated(relevant, support, retrieved, claims, k)
