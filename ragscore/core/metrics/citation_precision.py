"""Weighted citation precision: the support of each citation, full 1 and partial 0.5 (TREC RAG)."""
from ..citations import NOT_GRADED
from .base import RATE, Metric


def citation_precision(at, k):
    """Citation precision = (0.5 x (2 x citations graded ``full`` + citations graded
    ``partial``)) / (citations), over every (sentence, cited passage) pair of the answer:
    TREC RAG 2024's weighted precision of support. Reviewers' grades, not the strict rule;
    does not depend on k.

    n/a when the answer cites nothing or a citation is not graded yet.

    >>> from ragscore.core.citations import CitedClaim, citation_counts
    >>> from ragscore.core.counts import At, count
    >>> graded = citation_counts([CitedClaim(("full", "partial"), None, (None, None)),
    ...                           CitedClaim(("none",), None, (None,))])
    >>> citation_precision(At(count(set(), None, (), (), cited=graded), 2), 2)
    0.5
    """
    return 0.5 * at.citation_halves / at.citations


METRIC = Metric(name="citation_precision", label="cite P", kind=RATE, stage="reference",
                formula=citation_precision,
                defined=lambda at: (at.citations > 0) & (at.graded_citations == at.citations),
                undefined="the answer cites nothing, or its citations carry no grades",
                slice="all", waiting=lambda at: at.graded_citations < at.citations,
                waiting_reason=NOT_GRADED,
                order=230, group="citation", shown_when="citations")
