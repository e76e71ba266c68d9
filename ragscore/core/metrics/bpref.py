"""Bpref: how often relevant IDs rank above IDs judged not relevant (trec_eval's ``bpref``)."""
from .base import REL, RATE, Metric, at_level


def bpref(at, k):
    """Bpref = (1 / R) * sum over the relevant ranks r of (1 - min(n_r, R) / min(N, R)), n_r
    the IDs judged not relevant ranked above r, R the IDs judged relevant, N those judged
    not relevant (Buckley and Voorhees, SIGIR 2004; trec_eval's and ir_measures' ``Bpref``).

    Only judged IDs count: an unjudged ID, or one listed with a negative grade (trec_eval's
    pooled but unjudged), is skipped, not read as not relevant, so Bpref holds up when the
    judgements are incomplete. At a cutoff k the ranking is cut at k first (trec_eval's
    ``-M k``). n/a when nothing is judged relevant, or when every passage is judged (no pool
    of judgements: N is not known; read AP there).

    >>> from ragscore.core.counts import At, count
    >>> # judged: a, b relevant, x, y not; ranking x a u b (u unjudged): R = N = 2
    >>> counts = count({"a", "b"}, None, ("x", "a", "u", "b"), None,
    ...                judged={"a", "b", "x", "y"})
    >>> bpref(At(counts, 10), 10) == ((1 - 1 / 2) + (1 - 1 / 2)) / 2
    True
    """
    return at.bpref_sum / at.n_relevant


METRIC = Metric(name="bpref", label="Bpref@{k}", kind=RATE, stage="retrieval", formula=bpref,
                defined=lambda at: at.pooled & (at.n_relevant > 0),
                undefined="nothing is labelled relevant, or every passage is judged (no "
                          "pool: Bpref needs the IDs judged not relevant)",
                needs_labels=True, order=88, na_by_labels=True, ir_name="Bpref", uncut=True,
                trec_uncut="bpref", trec_order=(None, 14),
                parameters=(REL,), derive=at_level)
