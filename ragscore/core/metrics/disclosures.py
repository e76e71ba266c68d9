"""Disclosures: restricted chunks shown to, or cited for, a caller outside their groups."""
from ..counts import exposures
from .base import COUNT, Metric


def disclosures(counts, k):
    """Disclosures = restricted chunks in the visible context at k, or cited, whose access
    groups share none of the caller's groups.

    The visible context is the delivered context when it was recorded, else the top k
    retrieved. A count per question, never excused by a correct answer. Always defined
    (0 when nothing restricted was exposed).

    >>> from ragscore.core.counts import count
    >>> leak = count({"pay"}, {"rate": {"pay"}}, ("pay", "salaries"), (("rate", ("pay",)),),
    ...              restricted=frozenset({"salaries"}))
    >>> disclosures(leak, 1), disclosures(leak, 2)
    (0, 1)
    """
    return exposures(counts, k)


METRIC = Metric(name="disclosures", label="disclosures", kind=COUNT, stage="retrieval",
                value=disclosures, undefined="never undefined", slice="all",
                lower_is_better=True)
