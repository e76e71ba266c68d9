"""ERR@k: expected reciprocal rank, a cascade over graded relevance (gdeval's ``err``)."""
from .base import RATE, Metric

#: The largest grade ERR reads: R = (2 ** grade - 1) / 2 ** 4 (gdeval's MAX_JUDGMENT).
TOP = 4


def expected_reciprocal_rank(at, k):
    """ERR@k = sum over the ranks r <= k of R(r) / r * prod over the ranks i < r of
    (1 - R(i)), R = (2 ** grade - 1) / 16: the chance that a reader stops at r, satisfied,
    having read on from every rank above (Chapelle et al., CIKM 2009; ir_measures'
    ``ERR@k``, computed by gdeval, whose scale is grades 0 to 4).

    Grades are the labels' grades (binary labels: 1), whatever ``min_relevance``; an ID
    not graded above 0 gains nothing. n/a when nothing is graded above 0, or a grade is
    above 4 (gdeval refuses such qrels).

    >>> from ragscore.core.counts import At, count
    >>> # x unjudged, then a (grade 2: R = 3/16), then b (grade 1: R = 1/16)
    >>> counts = count({"a", "b"}, None, ("x", "a", "b"), None, grades={"a": 2, "b": 1})
    >>> expected_reciprocal_rank(At(counts, 3), 3) == 3 / 16 / 2 + 13 / 16 * (1 / 16) / 3
    True
    """
    return at.cascade


METRIC = Metric(name="err", label="ERR@{k}", kind=RATE, stage="retrieval",
                formula=expected_reciprocal_rank,
                defined=lambda at: (at.top_grade > 0) & (at.top_grade <= TOP),
                undefined="nothing is graded above 0, or a grade is above 4 (ERR's scale)",
                needs_labels=True, order=84, na_by_labels=True, ir_name="ERR")
