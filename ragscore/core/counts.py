"""Per-question counts: the one intermediate every metric, aggregate and sweep derives from.

One pass over a validated (case, run) pair yields a :class:`Counts` record of small integers.
Every metric at every cutoff k is a formula over it (see :mod:`ragscore.core.metrics`), so a
sweep over k, a pooled aggregate and a macro mean all read the same numbers::

    hits(k)      = number of relevant_ranks <= k
    supported(k) = number of claim_cutoffs <= k

The supported-claim rule (:func:`claim_cutoff`) is written here once: a generated claim is
supported at cutoff k only when it has at least one citation and every cited ID is labelled
as supporting that claim *and* sits within the top k retrieved. An existing, or even
relevant, document is not enough; one good citation does not cancel a bad extra one.
"""
from bisect import bisect_right
from collections import namedtuple
from math import log2

from .citations import CitationCounts, CitationPrimitives
from .graded import GradedPrimitives, pool_unjudged
from .count_fields import CASE, FLAT, REQUIRED, ROW, CountField, field_defaults
from .nuggets import NuggetPrimitives, case_nuggets, nugget_states
from .reference_answers import answer_match


#: Every count: what :class:`Counts` holds, in its order.
COUNT_FIELDS = (
    CountField("relevant_ranks", FLAT, "int64", REQUIRED, ("relevant_row", "relevant_rank")),
    CountField("n_relevant", ROW, "int64", REQUIRED, ("n_relevant",)),
    CountField("claim_cutoffs", FLAT, "int64", REQUIRED, ("supported_row", "supported_cutoff")),
    CountField("n_claims", ROW, "int64", REQUIRED, ("n_claims",), present="assessed"),
    CountField("n_expected", ROW, "int64", REQUIRED, ("n_expected",), present="labelled"),
    CountField("n_retrieved", ROW, "int64", REQUIRED, ("n_retrieved",)),
    CountField("gains", FLAT, "int64", None, ("gain_row", "gain_rank", "gain_grade"),
               present="graded"),
    CountField("ideal", CASE, "int64", None, ("ideal_case", "ideal_grade"), present="graded"),
    CountField("dropped", ROW, "int64", 0, ("dropped",), batch=True),
    CountField("collapsed", ROW, "int64", 0, ("collapsed",), batch=True),
    CountField("delivered_span", ROW, "int64", None, ("context_low", "context_high"),
               present="context_recorded"),
    CountField("exposed", FLAT, "int64", (), ("exposed_row", "exposed_cutoff")),
    CountField("stale_cutoffs", FLAT, "int64", (), ("stale_row", "stale_cutoff")),
    CountField("answer_match", ROW, "int64", None,
               ("exact", "common_tokens", "answer_tokens", "reference_tokens"),
               present="referenced", batch=True),
    CountField("judged_ranks", FLAT, "int64", None, ("judged_row", "judged_rank"),
               present="pooled"),
    CountField("n_judged", ROW, "int64", None, ("n_judged",), present="pooled"),
    CountField("answerability", ROW, "int64", None, ("answerability",), present="stated"),
    CountField("nuggets", FLAT, "int64", None, ("nugget_row", "nugget_position", "nugget_vital",
                                                "nugget_assigned", "nugget_full", "nugget_half"),
               present="explicit"),
    # counted as the batch is built but collected sparsely (few rows hold any): the kernel
    # passes them on rather than the batch's per-row counts
    CountField("citations", ROW, "int64", None,
               tuple(f"cite_{name}" for name in CitationCounts._fields), present="cited"),
    CountField("span_characters", ROW, "int64", None, ("span_relevant",), present="spanned",
               batch=True),
    CountField("span_reads", FLAT, "int64", (), ("span_row", "span_rank", "span_covered",
                                                 "span_read"), batch=True),
    CountField("pool_unjudged", FLAT, "int64", (), ("unjudged_row", "unjudged_rank"),
               batch=True),
    CountField("n_pool_unjudged", ROW, "int64", 0, ("n_unjudged",), batch=True),
)


class Counts(namedtuple("Counts", [field.name for field in COUNT_FIELDS],
                        defaults=field_defaults(COUNT_FIELDS))):
    """What one run of one question amounts to, independent of k.

    ``relevant_ranks``: the 1-based ranks at which relevant IDs were retrieved, ascending.
    ``n_relevant``: how many IDs are labelled relevant.
    ``claim_cutoffs``: for each generated claim supported at some k, the smallest such k,
    ascending (claims never supported are not listed).
    ``n_claims``: generated claims, ``None`` when the answer was not assessed (a
    retrieval-only run). ``n_expected``: expected claims, ``None`` when the question
    carries no answer labels. ``n_retrieved``: length of the ranked list.
    ``gains``: with graded labels, ``(rank, grade)`` for each retrieved ID graded above 0, in
    rank order; ``ideal``: every grade above 0, largest first (``None`` for binary labels,
    where each relevant ID has gain 1). ``dropped``: duplicate IDs dropped from the ranking;
    ``collapsed``: chunks collapsed into an earlier chunk of the same document.
    ``delivered_span``: ``None`` when no delivered context was recorded, else ``(low, high)``:
    the delivered context equals the top k retrieved exactly for ``low <= k <= high``
    (``high`` -1: every k from ``low``; ``(0, 0)``: at no k).
    ``exposed``: for each restricted chunk the caller may not see, the smallest k from which
    it is exposed (delivered or cited: 1; else its rank), ascending.
    ``stale_cutoffs``: like ``claim_cutoffs``, for claims supported only by superseded chunks
    (these are not in ``claim_cutoffs``).
    ``answer_match``: ``None`` unless the run recorded answer text and its case carries a
    reference answer, else ``(exact, common, answer_tokens, reference_tokens)`` as
    :func:`ragscore.core.reference_answers.answer_match` gives it (SQuAD 2.0's comparison).
    ``judged_ranks``: the 1-based ranks of the retrieved IDs whose relevance is judged (at any
    grade), ascending, and ``n_judged`` how many IDs are judged for the question; both
    ``None`` when every passage is judged (course rules).
    ``answerability``: 1 answerable, 0 unanswerable, -1 not labelled yet where the labels
    alone do not say it (a reviewer's decision, or nothing labelled); ``None``: answerable
    exactly when something is relevant or expected.
    ``nuggets``: ``None`` when the question's nuggets are its expected claims, every one
    vital and assigned by the strict rule alone (the nugget primitives then read
    ``n_expected``, ``claim_cutoffs`` and ``n_claims``); else each nugget's ``(position,
    vital, assigned, full, half)`` in the case's order
    (:func:`ragscore.core.nuggets.nugget_states`): its place among the case's nuggets, 1 for a
    vital nugget, 1 when an assignment holds, the smallest k assigning ``support`` and the
    smallest assigning at least ``partial_support`` (0: at no k).
    ``citations``: ``None`` unless the run's citations carry reviewers' labels, else the
    :class:`~ragscore.core.citations.CitationCounts` of its claims. ``span_characters``,
    ``span_reads``: from spans only, relevant characters and ``(rank, newly covered, read)``.
    ``pool_unjudged``, ``n_pool_unjudged``: ranks and number of IDs listed with a negative
    grade (trec_eval's pooled but unjudged: :func:`~.graded.pool_unjudged`).
    """

    __slots__ = ()


_INF = float("inf")


class At(GradedPrimitives, NuggetPrimitives, CitationPrimitives):
    """The count primitives of one question's :class:`Counts` at cutoff ``k``: the names every
    metric formula reads (:mod:`ragscore.core.metrics`). The columnar engine gives the same
    names as arrays, one value per question (:mod:`ragscore.engine.columnar`); a new count
    is a row of :data:`COUNT_FIELDS`, a property here and one kernel there (the nugget and
    citation primitives come from :class:`~ragscore.core.nuggets.NuggetPrimitives` and
    :class:`~ragscore.core.citations.CitationPrimitives`, those of graded relevance and of
    the rank-weighted measures from :class:`~ragscore.core.graded.GradedPrimitives`).

    >>> at = At(count({"a", "b"}, {"x": {"a"}}, ("c", "a"), (("x", ("a",)),)), 2)
    >>> at.hits, at.first_rank, at.supported, at.n_claims
    (1, 2, 1, 1)
    """

    __slots__ = ("counts", "k")

    def __init__(self, counts, k):
        self.counts, self.k = counts, k

    @property
    def n_relevant(self):
        """IDs judged relevant."""
        return self.counts.n_relevant

    @property
    def n_retrieved(self):
        """Length of the ranked list."""
        return self.counts.n_retrieved

    @property
    def assessed(self):
        """True when the answer stage was recorded (its claims were assessed)."""
        return self.counts.n_claims is not None

    @property
    def n_claims(self):
        """Generated claims (0 when the answer was not assessed: see :attr:`assessed`)."""
        return self.counts.n_claims or 0

    @property
    def answerable(self):
        """False when the question is labelled unanswerable, else True (a question not
        labelled yet sits with the answerable ones)."""
        state = self.counts.answerability
        if state is not None:
            return state != 0
        return bool(self.counts.n_relevant or self.counts.n_expected)

    @property
    def labelled(self):
        """True when the question carries answer labels (expected claims)."""
        return self.counts.n_expected is not None

    @property
    def n_expected(self):
        """Expected claims (0 when the question carries no answer labels)."""
        return self.counts.n_expected or 0

    @property
    def returned(self):
        """IDs returned within the top k: the length of the ranked list, at most k."""
        return min(self.k, self.counts.n_retrieved)

    @property
    def hits(self):
        """Relevant IDs within the top k."""
        return bisect_right(self.counts.relevant_ranks, self.k)

    @property
    def first_rank(self):
        """The 1-based rank of the first relevant ID retrieved (infinite when none is)."""
        ranks = self.counts.relevant_ranks
        return ranks[0] if ranks else _INF

    @property
    def precision_sum(self):
        """The sum of P@r over the ranks r <= k where a relevant ID was retrieved."""
        total = 0.0
        for found, rank in enumerate(self.counts.relevant_ranks, 1):
            if rank > self.k:
                break
            total += found / rank
        return total

    @property
    def dcg(self):
        """DCG@k: grade / log2(rank + 1) summed over the graded IDs within the top k, in rank
        order (binary labels: grade 1 at each relevant rank)."""
        counts = self.counts
        if counts.ideal is None:
            return sum(1 / log2(rank + 1) for rank in counts.relevant_ranks if rank <= self.k)
        return sum(grade / log2(rank + 1) for rank, grade in counts.gains if rank <= self.k)

    @property
    def ideal_dcg(self):
        """The ideal DCG@k: every ID graded above 0, largest grade first, cut at k (binary
        labels: every relevant ID, grade 1)."""
        counts = self.counts
        if counts.ideal is None:
            return sum(1 / log2(rank + 1) for rank in range(1, min(self.k, counts.n_relevant) + 1))
        return sum(grade / log2(rank + 1) for rank, grade in enumerate(counts.ideal[:self.k], 1))

    @property
    def supported(self):
        """Generated claims supported at cutoff k (:func:`claim_cutoff`)."""
        return bisect_right(self.counts.claim_cutoffs, self.k)

    @property
    def stale(self):
        """Generated claims supported at cutoff k only by superseded chunks."""
        return bisect_right(self.counts.stale_cutoffs, self.k)

    @property
    def exposures(self):
        """Restricted chunks exposed to a caller outside their groups at cutoff k."""
        return bisect_right(self.counts.exposed, self.k)

    @property
    def context_recorded(self):
        """True when the delivered context was recorded."""
        return self.counts.delivered_span is not None

    @property
    def context_low(self):
        """The smallest k whose top k equals the delivered context (0: none does, or no
        delivered context was recorded)."""
        span = self.counts.delivered_span
        return 0 if span is None else span[0]

    @property
    def context_high(self):
        """The largest such k (-1: every k from :attr:`context_low`)."""
        span = self.counts.delivered_span
        return 0 if span is None else span[1]

    @property
    def judged(self):
        """Retrieved IDs within the top k whose relevance is judged (every one of them when
        every passage is judged)."""
        ranks = self.counts.judged_ranks
        return self.returned if ranks is None else bisect_right(ranks, self.k)

    @property
    def any_judged(self):
        """True when some passage's relevance is judged for the question."""
        return self.counts.judged_ranks is None or self.counts.n_judged > 0

    @property
    def referenced(self):
        """True when the answer text can be compared with a reference answer (both were
        recorded)."""
        return self.counts.answer_match is not None

    def _match(self, position):
        match = self.counts.answer_match
        return 0 if match is None else match[position]

    @property
    def exact(self):
        """1 when the answer equals a reference after SQuAD's normalisation, else 0."""
        return self._match(0)

    @property
    def common_tokens(self):
        """Tokens the answer shares with its best-F1 reference (with multiplicity)."""
        return self._match(1)

    @property
    def answer_tokens(self):
        """The answer's normalised tokens."""
        return self._match(2)

    @property
    def reference_tokens(self):
        """The tokens of the reference giving the largest F1."""
        return self._match(3)


def delivered_span(delivered, retrieved):
    """The ``(low, high)`` range of k where ``set(delivered) == set(retrieved[:k])``.

    >>> delivered_span(("a", "b"), ("b", "a", "c"))
    (2, 2)
    >>> delivered_span(("a", "b"), ("b", "a"))
    (2, -1)
    >>> delivered_span(("a", "c"), ("a", "b", "c"))
    (0, 0)
    """
    target = set(delivered)
    distinct = set(retrieved)
    if not target:
        return (1, -1) if not retrieved else (0, 0)
    if not target <= distinct:
        return (0, 0)
    first = {}
    for rank, doc in enumerate(retrieved, 1):
        first.setdefault(doc, rank)
    low = max(first[doc] for doc in target)
    if len(set(retrieved[:low])) != len(target):
        return (0, 0)
    return (low, -1) if target == distinct else (low, low)


def claim_cutoff(citations, labelled, rank_of):
    """The smallest k at which a claim citing ``citations`` is supported, or ``None`` (never).

    ``labelled`` is the set of sources labelled for the claim; ``rank_of`` maps each retrieved
    relevant ID to its 1-based rank. Supported at k when ``citations`` is non-empty, a subset
    of ``labelled``, and every cited ID is retrieved at a rank <= k.

    >>> claim_cutoff(("checklist",), {"checklist"}, {"rollback": 1, "checklist": 2})
    2
    >>> claim_cutoff(("owners", "archive"), {"owners"}, {"owners": 1}) is None
    True
    """
    if not citations or not labelled.issuperset(citations):
        return None
    ranks = [rank_of.get(doc) for doc in citations]
    if None in ranks:
        return None
    return max(ranks)


def ranks_of(relevant, retrieved):
    """``{doc: 1-based rank}`` for each relevant ID in ``retrieved``, in rank order.

    >>> ranks_of({"owners", "launch"}, ("archive", "owners", "launch"))
    {'owners': 2, 'launch': 3}
    """
    found = relevant.intersection(retrieved)
    if len(found) <= 16:  # few hits: find each one rather than walk the whole list
        return {retrieved[position]: position + 1
                for position in sorted(map(retrieved.index, found))}
    return {doc: rank for rank, doc in enumerate(retrieved, 1) if doc in found}


_new = tuple.__new__


def count(relevant, support, retrieved, claims, *, grades=None, dropped=0, collapsed=0,
          delivered=None, losers=frozenset(), restricted=None, superseded=frozenset(),
          answer=None, references=None, judged=None, answerability=None, vouched=(),
          nuggets=None, assigned=None, partial=frozenset(), cited=None, uncovered=(),
          characters=None):
    """The :class:`Counts` of a validated case (``relevant``, ``support``) and run.

    ``support`` or ``claims`` may be ``None`` (not labelled, not assessed); ``grades`` is
    ``{ID: grade}`` for graded labels. ``delivered``: the context given to the answer stage,
    when recorded; claims are then supported only by citations inside it (the visible
    context) at every k. ``losers``: IDs on the losing side of a labelled conflict (a claim
    citing one is unsupported). ``restricted``: the chunks this caller may not see (their
    exposure is counted). ``superseded``: chunks of outdated versions (a claim supported
    only by them is stale). ``answer``: the run's answer text and ``references``: the
    case's reference answers (a tuple; empty: unanswerable), each ``None`` when not recorded.
    ``judged``: the IDs whose relevance is judged (``None``: every ID). ``answerability``: 1,
    0 or -1 (see :class:`Counts`). ``vouched``: claims a reviewer judged supported by the
    passages they cite, on a question without expected claims: each is supported from the
    k at which every citation is visible (none on the losing side of a conflict).
    ``nuggets``: the case's :class:`~ragscore.core.nuggets.Nugget` tuple (``None``: its
    expected claims, every one vital); ``assigned``: reviewers' assignments ``{nugget ID:
    assignment}`` for this answer; ``partial``: its claims that state an expected claim only
    in part (span labels); ``cited``: its :class:`~ragscore.core.citations.CitationCounts`.
    ``uncovered``: claims whose citations do not support them fully under labels derived
    from spans (:func:`ragscore.core.spans.support_level`: none of their evidence spans
    covered whole): never supported. ``characters``: from spans, ``Characters.read_at``.

    >>> count({"rollback", "checklist"}, {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...       ("rollback",), (("switch", ("rollback",)),))[:6]
    ((1,), 2, (1,), 1, 2, 1)
    """
    rank_of = judged_at = None
    if judged is not None and (grades is None or judged.issuperset(grades)) \
            and judged != relevant:  # the judged IDs ranked once (graded: the map's IDs)
        judged_at = ranks_of(judged, retrieved)
    if grades is not None:  # every ID graded above 0 ranked once, the relevant among them
        positive = {doc for doc, grade in grades.items() if grade > 0}
        graded = ranks_of(positive, retrieved) if judged_at is None else {
            doc: rank for doc, rank in judged_at.items() if doc in positive}
        if positive.issuperset(relevant):  # always, when relevant means a grade of at least 1
            rank_of = {doc: rank for doc, rank in graded.items() if doc in relevant}
    if rank_of is None:
        rank_of = ranks_of(relevant, retrieved)
    visible = rank_of if delivered is None else dict.fromkeys(relevant.intersection(delivered), 1)
    cutoffs, stale_cutoffs, stated = [], [], {}
    if claims and (support or vouched):
        expected = support or {}
        seen = _every_rank(retrieved, delivered) if vouched else None
        for claim, citations in claims:
            if claim in uncovered:
                continue
            labelled, view = expected.get(claim), visible
            if labelled is None and claim in vouched:
                labelled, view = frozenset(citations), seen
            if labelled is not None:
                cutoff = claim_cutoff(citations, labelled - losers if losers else labelled,
                                      view)
                if cutoff is None:
                    continue
                if superseded and superseded.issuperset(citations):
                    stale_cutoffs.append(cutoff)
                else:
                    cutoffs.append(cutoff)
                    if claim in expected:
                        stated[claim] = cutoff
        cutoffs.sort()
        stale_cutoffs.sort()
    exposed = ()
    if restricted:
        first = {}
        for _, citations in claims or ():
            first.update(dict.fromkeys(restricted.intersection(citations), 1))
        if delivered is not None:
            first.update(dict.fromkeys(restricted.intersection(delivered), 1))
        else:
            for rank, doc in enumerate(retrieved, 1):
                if doc in restricted and doc not in first:
                    first[doc] = rank
        exposed = tuple(sorted(first.values()))
    gains = ideal = None
    if grades is not None:
        gains = tuple((rank, grades[doc]) for doc, rank in graded.items())
        ideal = tuple(sorted((grade for grade in grades.values() if grade > 0), reverse=True))
    if answerability == (1 if relevant or support else 0):
        answerability = None  # what the labels imply: stored only where it says more
    states = None
    if nuggets is not None or assigned or partial:
        states = nugget_states(case_nuggets((), support) if nuggets is None else nuggets,
                               assigned, assessed=claims is not None, supported=stated,
                               partial=_partial_cutoffs(claims, partial, support, retrieved,
                                                        delivered, losers))
    judged_ranks = None
    if judged is not None:
        judged_ranks = tuple((rank_of if judged == relevant else judged_at if judged_at
                              is not None else ranks_of(judged, retrieved)).values())
    return _new(Counts, (tuple(rank_of.values()), len(relevant), tuple(cutoffs),
                         None if claims is None else len(claims),
                         None if support is None else len(support), len(retrieved),
                         gains, ideal, dropped, collapsed,
                         None if delivered is None else delivered_span(delivered, retrieved),
                         exposed, tuple(stale_cutoffs),
                         None if answer is None or references is None
                         else tuple(answer_match(answer, references)),
                         judged_ranks, None if judged is None else len(judged), answerability,
                         states, cited, None if characters is None else characters[0],
                         () if characters is None else characters[1],
                         *pool_unjudged(grades, retrieved)))



def _partial_cutoffs(claims, partial, support, retrieved, delivered, losers):
    """``{expected claim: the k from which every citation is visible}`` of the claims in
    ``partial`` that name an expected claim (one citing a passage unseen or on the losing
    side of a conflict never counts)."""
    if not partial or not claims:
        return {}
    seen, found = _every_rank(retrieved, delivered), {}
    for claim, citations in claims:
        if claim in partial and claim in (support or {}) and citations \
                and not losers.intersection(citations):
            ranks = [seen.get(doc) for doc in citations]
            if None not in ranks:
                found[claim] = max(ranks)
    return found


def _every_rank(retrieved, delivered):
    """``{ID: the rank from which it is visible}``: its first rank in the ranking, or 1 for
    every delivered ID when the delivered context was recorded."""
    if delivered is not None:
        return dict.fromkeys(delivered, 1)
    first = {}
    for rank, doc in enumerate(retrieved, 1):
        first.setdefault(doc, rank)
    return first


def retrieval_counts(ranked, relevant):
    """Counts of a ranked list alone (no claims), for trying a retrieval metric by hand.

    >>> retrieval_counts(("archive", "owners"), {"owners"}).relevant_ranks
    (2,)
    """
    return count(frozenset(relevant), {}, tuple(ranked), ())
