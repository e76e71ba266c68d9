"""The count primitives of graded relevance and of the rank-weighted measures (Rprec, ERR,
RBP, nDCG with exponential gains), and of characters (span recall, characters read): a part
of :class:`ragscore.core.counts.At`, read from the same
:class:`~ragscore.core.counts.Counts` (``relevant_ranks``, ``gains``, ``ideal``,
``span_characters``, ``span_reads``).
The columnar engine gives them under the same names
(:mod:`ragscore.engine.columnar.graded_kernels`). Standard library only.
"""
from bisect import bisect_left, bisect_right
from math import log2

#: trec_eval's INFAP_EPSILON, which keeps infAP's ratio defined with nothing judged above.
INFAP_EPSILON = 0.00001

__all__ = ["INFAP_EPSILON", "GradedPrimitives", "pool_unjudged"]


def pool_unjudged(grades, retrieved):
    """``(ranks, how many)`` of the IDs ``grades`` lists with a negative grade: trec_eval
    reads such an ID as in the pool but not judged (the counts ``pool_unjudged`` and
    ``n_pool_unjudged``).

    >>> pool_unjudged({"a": -1, "b": 0, "c": -1}, ("b", "c", "x"))
    ((2,), 2)
    """
    negative = {doc for doc, grade in (grades or {}).items() if grade < 0}
    if not negative:
        return (), 0
    return tuple(rank for rank, doc in enumerate(retrieved, 1) if doc in negative), \
        len(negative)


class GradedPrimitives:
    """Primitives of :class:`ragscore.core.counts.At` that read grades or weigh ranks
    (``self.counts`` and ``self.k`` are the :class:`~ragscore.core.counts.At`'s).

    >>> from ragscore.core.counts import At, count
    >>> at = At(count({"a", "b"}, None, ("b", "x", "a"), None, grades={"a": 2, "b": 1}), 3)
    >>> at.at_level(2).hits, at.r_hits, at.top_grade
    (1, 1, 2)
    """

    __slots__ = ()

    def at_level(self, level):
        """These primitives with relevance read at grade ``level`` or above (ir_measures'
        ``rel``, trec_eval's ``-l``) instead of the test set's ``min_relevance``: the relevant
        ranks are the graded ranks at that grade or above and ``n_relevant`` the IDs graded
        so (binary labels: grade 1)."""
        counts = self.counts
        if counts.ideal is None:
            ranks, found = ((counts.relevant_ranks, counts.n_relevant) if level <= 1
                            else ((), 0))
        else:
            ranks = tuple(rank for rank, grade in counts.gains if grade >= level)
            found = sum(1 for grade in counts.ideal if grade >= level)
        return type(self)(counts._replace(relevant_ranks=ranks, n_relevant=found), self.k)

    @property
    def r_hits(self):
        """Relevant IDs within the top R, R the number labelled relevant (at most k)."""
        return bisect_right(self.counts.relevant_ranks, min(self.k, self.counts.n_relevant))

    def _graded(self):
        """``(rank, grade)`` of every ID graded above 0 within the top k, in rank order
        (binary labels: grade 1 at each relevant rank)."""
        counts = self.counts
        if counts.ideal is None:
            return [(rank, 1) for rank in counts.relevant_ranks if rank <= self.k]
        return [(rank, grade) for rank, grade in counts.gains if rank <= self.k]

    @property
    def exp_dcg(self):
        """DCG@k with exponential gains: (2 ** grade - 1) / log2(rank + 1) summed over the
        graded IDs within the top k, in rank order."""
        total = 0.0  # one addition at a time, in rank order (as the columnar engine adds)
        for rank, grade in self._graded():
            total += (2 ** grade - 1) / log2(rank + 1)
        return total

    @property
    def exp_ideal_dcg(self):
        """The ideal of :attr:`exp_dcg`: every grade above 0, largest first, cut at k."""
        counts = self.counts
        grades = (1,) * counts.n_relevant if counts.ideal is None else counts.ideal
        total = 0.0
        for rank, grade in enumerate(grades[:self.k], 1):
            total += (2 ** grade - 1) / log2(rank + 1)
        return total

    @property
    def top_grade(self):
        """The largest grade of an ID graded above 0 (0 when none is; binary labels: 1)."""
        counts = self.counts
        if counts.ideal is None:
            return 1 if counts.n_relevant else 0
        return counts.ideal[0] if counts.ideal else 0

    @property
    def cascade(self):
        """The expected reciprocal rank's sum within the top k: over the graded ranks r in
        order, R / r times the product of (1 - R) of the graded ranks above, where
        R = (2 ** grade - 1) / 16 (gdeval's scale, grades 0 to 4)."""
        total, decay = 0.0, 1.0
        for rank, grade in self._graded():
            chance = (2 ** grade - 1) / 16
            total += chance * decay / rank
            decay *= 1 - chance
        return total

    def persistence_sum(self, p):
        """p ** (rank - 1) summed over the relevant ranks within the top k, in rank
        order (rank-biased precision's sum)."""
        total = 0.0
        for rank in self.counts.relevant_ranks:
            if rank > self.k:
                break
            total += p ** (rank - 1)
        return total


    @property
    def spanned(self):
        """True when the labels are derived from spans (characters are counted)."""
        return self.counts.span_characters is not None

    @property
    def span_relevant(self):
        """The question's relevant characters (0 when not counted)."""
        return self.counts.span_characters or 0

    @property
    def covered(self):
        """Relevant characters the top k chunks cover (each counted once)."""
        return sum(new for rank, new, _ in self.counts.span_reads if rank <= self.k)

    @property
    def read(self):
        """Characters of the top k chunks: the text they hand the answer stage."""
        return sum(size for rank, _, size in self.counts.span_reads if rank <= self.k)

    @property
    def pooled(self):
        """True when relevance is judged for a pool of IDs (TREC qrels), not every passage."""
        return self.counts.judged_ranks is not None

    def _above(self, found, rank):
        """``(judged not relevant, pooled but unjudged)`` IDs above ``rank``, the ``found``-th
        relevant one (0 first); with every passage judged, every ID above is judged."""
        counts = self.counts
        if counts.judged_ranks is None:
            return rank - 1 - found, 0
        pool = bisect_left(counts.pool_unjudged, rank)
        return bisect_left(counts.judged_ranks, rank) - found - pool, pool

    @property
    def bpref_sum(self):
        """Over the relevant ranks r <= k, in order: 1 - min(n, R) / min(N, R), n the IDs
        judged not relevant above r (0 <= grade below the level), R the relevant IDs, N the
        IDs judged not relevant; 1 where n is 0 (trec_eval's bpref before / R)."""
        counts, total = self.counts, 0.0
        relevant = counts.n_relevant
        least = min((counts.n_judged or 0) - counts.n_pool_unjudged - relevant, relevant)
        for found, rank in enumerate(counts.relevant_ranks):
            if rank > self.k:
                break
            below = self._above(found, rank)[0]
            total += 1.0 - min(below, relevant) / least if below > 0 else 1.0
        return total

    @property
    def infap_sum(self):
        """Over the relevant ranks r <= k, in order, trec_eval's infAP term: 1 at rank 1,
        else 1/r + ((r-1)/r) * ((a + n + u)/(r-1)) * ((a + e)/(a + n + 2e)), a the relevant
        IDs above r, n those judged not relevant, u those pooled but unjudged, e
        :data:`INFAP_EPSILON` (trec_eval's infAP before / R)."""
        total = 0.0
        for found, rank in enumerate(self.counts.relevant_ranks):
            if rank > self.k:
                break
            if rank == 1:
                total += 1.0
                continue
            below, pool = self._above(found, rank)
            fj = float(rank - 1)
            total += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((found + below + pool) / fj) * (
                (found + INFAP_EPSILON) / (found + below + 2 * INFAP_EPSILON))
        return total
