"""Disclosures: restricted chunks shown or cited to a caller outside their access groups."""
from .base import COUNT, Metric


def disclosures(at, k):
    """Disclosures = restricted chunks in the visible context at k, or cited, whose access
    groups share none of the caller's groups.

    The visible context is the delivered context when it was recorded, else the top k
    retrieved. A count per question, never excused by a correct answer. Always defined
    (0 when nothing restricted was exposed).

    >>> from ragscore.core.counts import At, count
    >>> leak = count({"a"}, {"c": {"a"}}, ("a", "hr"), (("c", ("a",)),), restricted={"hr"})
    >>> disclosures(At(leak, 1), 1), disclosures(At(leak, 2), 2)
    (0, 1)
    """
    return at.exposures


METRIC = Metric(name="disclosures", label="disclosures", kind=COUNT, stage="retrieval",
                formula=disclosures, defined=None, undefined="never undefined", slice="all",
                lower_is_better=True,
                order=130, shown_when="groups")
