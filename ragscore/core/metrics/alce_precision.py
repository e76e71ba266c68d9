"""ALCE citation precision: the citations of supported sentences that are not redundant."""
from .base import RATE, Metric


def alce_precision(at, k):
    """ALCE precision = (citations of supported sentences that are not redundant) /
    (citations), as ALCE's ``eval.py``: a citation is redundant when it does not support the
    sentence alone (not ``full``) and the sentence's other citations support it without it;
    a sentence's single citation counts when the sentence is supported; no citation of an
    unsupported sentence counts. From reviewers' labels; does not depend on k.

    n/a when the answer cites nothing (ALCE writes 0) or the labels leave a sentence's
    support, or a citation's redundancy, unknown.

    A sentence citing a ``full`` and a ``partial`` passage: the full one counts, the partial
    one is redundant (the full one supports without it): 1 of 2.

    >>> from ragscore.core.citations import CitedClaim, citation_counts
    >>> from ragscore.core.counts import At, count
    >>> graded = citation_counts([CitedClaim(("full", "partial"), None, (None, None))])
    >>> alce_precision(At(count(set(), None, (), (), cited=graded), 2), 2)
    0.5
    """
    return at.alce_good / at.citations


METRIC = Metric(name="alce_precision", label="ALCE P", kind=RATE, stage="reference",
                formula=alce_precision,
                defined=lambda at: (at.citations > 0) & (at.joint_open == 0)
                & (at.redundancy_open == 0),
                undefined="the answer cites nothing, or the labels do not say which of its "
                          "citations are needed",
                slice="all",
                order=250, group="citation", shown_when="citations")
