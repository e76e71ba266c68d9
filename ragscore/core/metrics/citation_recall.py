"""Citation recall: the share of sentences with a fully supporting citation (TREC RAG)."""
from ..citations import NOT_GRADED
from .base import RATE, Metric


def citation_recall(at, k):
    """Citation recall = (sentences with at least one citation graded ``full``) /
    (sentences), every sentence of the answer counted, an uncited one too: TREC RAG's
    recall of support. Reviewers' grades; does not depend on k.

    n/a when no sentence's citations carry grades, or a sentence without a full citation
    still has one to grade.

    >>> from ragscore.core.citations import CitedClaim, citation_counts
    >>> from ragscore.core.counts import At, count
    >>> graded = citation_counts([CitedClaim(("full", "partial"), None, (None, None)),
    ...                           CitedClaim(("none",), None, (None,)),
    ...                           CitedClaim((), None, ())])
    >>> citation_recall(At(count(set(), None, (), (), cited=graded), 2), 2)
    0.3333333333333333
    """
    return at.full_sentences / at.sentences


METRIC = Metric(name="citation_recall", label="cite R", kind=RATE, stage="reference",
                formula=citation_recall,
                defined=lambda at: (at.sentences > 0) & (at.open_sentences == 0),
                undefined="the answer's citations carry no grades", slice="all",
                waiting=lambda at: at.open_sentences > 0, waiting_reason=NOT_GRADED,
                order=240, group="citation", shown_when="citations")
