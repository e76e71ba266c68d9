"""What an engine returns: the counts of every run of a test set, read as metric values.

Both engines (:mod:`ragscore.engine.reference`, :mod:`ragscore.engine.columnar`) return a
:class:`Counted` with the same methods, and everything above the engine (tables, aggregates,
comparisons, sweeps, the gate, baselines, every output format) reads only these methods. A
row is one question answered by one system (``keys[i]`` is its ``(case, system)``); a
question a system answered several times is one row whose value combines its trials
(:mod:`ragscore.core.trials`).
"""
from ..core.aggregate import zeroed
from ..core.metrics import CONTRACT, NOT_ASSESSED, REGISTRY, waiting_reason
from ..core.paired import systems_in
from ..core.rules import COURSE, InvalidInputError, check_k, show

#: Columns shown by default when the data records what they measure (each metric names
#: the feature that shows it: ``Metric.shown_when``), in report order.
FEATURE_METRICS = tuple((metric.shown_when, name) for name, metric in REGISTRY.items()
                        if metric.shown_when not in (None, "contract"))
#: What a test set can be sliced by: its cases' tags, or their split.
SLICE_KINDS = ("tag", "split")


class Counted:
    """The counted runs of a test set, in input order (subclasses hold the counts).

    ``keys``: ``(case, system)`` of each row. ``rules``: the ID rules the runs were read
    under (they bound k). ``notes``: the dataset's sentences every report repeats.
    ``features``: what the data records beyond the basics (``answers``: some run recorded
    its answer stage; ``trials``, ``delivered``, ``groups``, ``superseded``), so reports show
    the columns that say something. ``ops``: ``{(case, system): [operation record per
    trial]}`` (latency, tokens, cost, retries, failed) when any was recorded. ``attributes``:
    ``{case: {"tags": tuple, "split": str or None}}`` when any case has them. ``waiting``:
    ``{(case, system): claims awaiting review}`` for answers whose claims were derived from
    their text and are not all judged yet (:mod:`ragscore.io.answers`).
    """

    engine = None

    def __init__(self, keys, *, rules=COURSE, notes=(), features=frozenset(), ops=None,
                 attributes=None, waiting=None):
        self.keys, self.rules, self.notes = list(keys), rules, tuple(notes)
        self.features, self.ops, self.attributes = frozenset(features), ops, attributes
        self.waiting = waiting or {}

    def __len__(self):
        return len(self.keys)

    def __repr__(self):
        return f"<{type(self).__name__}: {len(self.keys)} runs, engine {self.engine!r}>"

    def _meta(self, **changes):
        meta = {"rules": self.rules, "notes": self.notes, "features": self.features,
                "ops": self.ops, "attributes": self.attributes, "waiting": self.waiting}
        meta.update(changes)
        return meta

    @property
    def systems(self):
        """System names in order of first appearance."""
        return systems_in(self.keys)

    def positions(self, system):
        """The rows of ``system``, in question order."""
        return [position for position, (_, name) in enumerate(self.keys) if name == system]

    def by_system(self):
        """``{system: Counted of its rows}`` in order of first appearance."""
        grouped = {}
        for position, (_, system) in enumerate(self.keys):
            grouped.setdefault(system, []).append(position)
        return {system: self.take(positions) for system, positions in grouped.items()}

    def members(self, by):
        """``{slice value: set of case names}`` for ``by`` = ``"tag"`` (a case with several
        tags is in each) or ``"split"`` (``dev`` / ``heldout``), in order of first
        appearance; a test set whose cases declare neither is refused."""
        if by not in SLICE_KINDS:
            raise InvalidInputError(f"by must be one of {', '.join(SLICE_KINDS)}; got "
                                    f"{show(by)}")
        if not self.attributes:
            raise InvalidInputError(f"no case declares a {by}: nothing to slice by (format "
                                    "version 3 cases carry 'tags' and 'split')")
        found = {}
        for case, attributes in self.attributes.items():
            values = attributes["tags"] if by == "tag" else (
                (attributes["split"],) if attributes["split"] is not None else ())
            for value in values:
                found.setdefault(value, set()).add(case)
        return found

    def restrict(self, cases):
        """The rows of the questions in ``cases`` only (a set of case names)."""
        return self.take([position for position, (case, _) in enumerate(self.keys)
                          if case in cases])

    def scoped(self, *, split=None, system=None):
        """The rows of ``split``'s questions and of ``system`` (``None``: all); a split or
        a system the test set does not have is refused naming the ones it has."""
        found = self
        if split is not None:
            members = self.members("split")
            if split not in members:
                raise InvalidInputError(f"--split must be one of the dataset's splits "
                                        f"({', '.join(members)}); got {show(split)}")
            found = found.restrict(members[split])
        if system is not None:
            if system not in found.systems:
                raise InvalidInputError(f"--system must be one of the dataset's systems "
                                        f"({', '.join(found.systems)}); got {show(system)}")
            found = found.take(found.positions(system))
        return found

    def cutoff(self, k, *, option="k"):
        """``k`` (an int, or its text as typed) as an int within the ID rules these runs were
        read under, else a clear error naming ``option``."""
        try:
            return check_k(int(k), rules=self.rules)
        except (ValueError, TypeError, OverflowError, InvalidInputError):
            raise InvalidInputError(f"{option} must be a whole number from 1 to "
                                    f"{self.rules.max_k}; got {show(k)}") from None

    def default_metrics(self):
        """The contract's metrics, less the answer metrics when no run recorded an answer
        (a retrieval-only test set: nothing assessed or awaiting review, so no column for
        it; answers awaiting review keep their columns, n/a), plus each metric whose data
        the runs record (its ``shown_when``: stale support, disclosures and
        ``context_differs`` for superseded chunks, access groups or delivered contexts,
        exact match and token F1 for reference answers, Judged@k for judged pools, the
        nugget scores for nuggets, the citation measures for graded citations)."""
        extra = tuple(name for feature, name in FEATURE_METRICS if feature in self.features)
        if len(self) and "answers" not in self.features and not self.waiting:
            return tuple(name for name in CONTRACT + extra if REGISTRY[name].stage != "answer")
        return CONTRACT + extra

    def with_notes(self, notes):
        """The same counts, with ``notes`` instead of the dataset's."""
        return self.take(range(len(self.keys)), notes=tuple(notes))

    def column(self, metric, k, *, na_as_zero=False):
        """:meth:`values`, with n/a read as 0.0 for a retrieval rate under ``na_as_zero``
        (trec_eval's convention; :func:`~ragscore.core.aggregate.zeroed`)."""
        values = self.values(metric, k)
        if zeroed(metric, na_as_zero):
            values = [0.0 if value is None else value for value in values]
        return values

    def values_by_case(self, metric, k):
        """``{case: value}`` of ``metric`` at ``k`` for rows of one system (see
        :meth:`take`)."""
        return dict(zip((case for case, _ in self.keys), self.values(metric, k)))

    # ---- what each engine provides ------------------------------------------------------

    def values(self, metric, k):
        """``metric`` (a registered metric) at cutoff ``k`` for every row: a list of Python
        values, ``None`` for n/a; a question with repeated trials gets their combined value."""
        raise NotImplementedError

    def pooled_parts(self, metric, k):
        """``(numerators, denominators)`` of a pooling rate for every row: two lists of whole
        numbers, each summed over a question's trials."""
        raise NotImplementedError

    def reasons(self, metric, k):
        """Why ``metric`` is n/a, for every row: a list of sentences, ``None`` where it is
        defined (:func:`~ragscore.core.metrics.na_reason`); an answer whose claims await
        review says how many (:func:`~ragscore.core.metrics.waiting_reason`)."""
        found = self._reasons(metric, k)
        if not self.waiting:
            return found
        return [waiting_reason(self.waiting[key])
                if reason == NOT_ASSESSED and key in self.waiting else reason
                for reason, key in zip(found, self.keys)]

    def with_waiting(self, waiting):
        """The same counts, with ``waiting`` (``{(case, system): claims}``) instead."""
        return self.take(range(len(self.keys)), waiting=dict(waiting))

    def _reasons(self, metric, k):
        """:meth:`reasons` as the counts alone say them (each engine's)."""
        raise NotImplementedError

    def answerable(self):
        """For every row: False when the question is labelled unanswerable, else True
        (:func:`~ragscore.core.aggregate.is_answerable`: a question not labelled yet sits
        with the answerable ones)."""
        raise NotImplementedError

    def labelling(self):
        """For every row: 1 answerable, 0 unanswerable, -1 not labelled yet."""
        raise NotImplementedError

    def field(self, name):
        """A count of every row as a list: ``n_relevant``, ``n_expected`` (``None``: no
        answer labels), ``n_claims`` (``None``: not assessed; repeated trials: their mean),
        ``dropped`` and ``collapsed`` (summed over trials), ``trials`` (1 without trials)."""
        raise NotImplementedError

    def trial_values(self, metric, k):
        """``{row: [value of each trial]}`` for the rows with repeated trials."""
        raise NotImplementedError

    def take(self, positions, **meta):
        """The same kind of counts for the rows at ``positions``, in that order (``meta``
        replaces ``notes`` or the other declared facts)."""
        raise NotImplementedError

    def counts_at(self, position):
        """The :class:`~ragscore.core.counts.Counts` of one row (:class:`~ragscore.core.trials.Trials`
        for repeated trials): what a baseline file stores."""
        raise NotImplementedError
