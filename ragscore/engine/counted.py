"""What an engine returns: the counts of every run of a test set, read as metric values.

Both engines (:mod:`ragscore.engine.reference`, :mod:`ragscore.engine.columnar`) return a
:class:`Counted` with the same methods, and everything above the engine (tables, aggregates,
comparisons, sweeps, the gate, baselines, every output format) reads only these methods. A
row is one question answered by one system (``keys[i]`` is its ``(case, system)``); a
question a system answered several times is one row whose value combines its trials
(:mod:`ragscore.core.trials`).
"""
from ..core.aggregate import zeroed
from ..core.metrics import NOT_ASSESSED, waiting_reason
from ..core.paired import systems_in
from ..core.rules import COURSE


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
