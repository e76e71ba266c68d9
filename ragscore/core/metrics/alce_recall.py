"""ALCE citation recall: the share of sentences their citations support together."""
from .base import RATE, Metric


def alce_recall(at, k):
    """ALCE recall = (sentences whose citations, together, support them) / (sentences), as
    ALCE's ``eval.py`` computes it with NLI, here from reviewers' labels: a ``full`` citation
    supports alone, a ``support`` judgement of the claim with exactly its citations says
    whether they do together; an uncited sentence, one whose single citation is not
    ``full`` or whose citations are all ``none`` is not supported. Does not depend on k.

    n/a when the labels leave some sentence's support unknown (two ``partial`` citations,
    say, and no judgement of the pair), or no sentence's citations carry labels.

    >>> from ragscore.core.citations import CitedClaim, citation_counts
    >>> from ragscore.core.counts import At, count
    >>> graded = citation_counts([CitedClaim(("partial", "partial"), "supported", (None, None)),
    ...                           CitedClaim(("partial",), None, (None,))])
    >>> alce_recall(At(count(set(), None, (), (), cited=graded), 2), 2)
    0.5
    """
    return at.alce_supported / at.sentences


METRIC = Metric(name="alce_recall", label="ALCE R", kind=RATE, stage="reference",
                formula=alce_recall, defined=lambda at: (at.sentences > 0) & (at.joint_open == 0),
                undefined="the labels do not say whether every sentence's citations support it",
                slice="all",
                order=260, group="citation", shown_when="citations")
