"""The reference engine: every run counted on its own, every metric read per question.

This is the specification the columnar engine is held to (``tests/engine/``): it counts a
validated run with :func:`ragscore.core.counts.count` (through
:class:`ragscore.core.scoring.Counter`) and reads a metric with its registry formula, one
question at a time, in plain Python. ``evaluate``, the course and the widgets use it.
"""
from ..core.aggregate import is_answerable
from ..core.counts import At
from ..core.metrics import na_reason
from ..core.rules import COURSE
from ..core.scoring import OPS_KEYS, case_attributes, iter_runs
from ..core.trials import Trials, first_trial, trial_runs, value_of
from .counted import Counted


def _members(counts):
    return counts if type(counts) is Trials else (counts,)


class ReferenceCounted(Counted):
    """:class:`~ragscore.engine.counted.Counted` over a list of per-question
    :class:`~ragscore.core.counts.Counts` (:class:`~ragscore.core.trials.Trials` for
    repeated trials)."""

    engine = "reference"

    def __init__(self, keys, counts, **meta):
        super().__init__(keys, **meta)
        self.counts = list(counts)

    def values(self, metric, k):
        return [value_of(metric, counts, k) for counts in self.counts]

    def pooled_parts(self, metric, k):
        rule = metric.pooled
        numerators, denominators = [], []
        for counts in self.counts:
            members = [At(one, k) for one in _members(counts)]
            numerators.append(sum(rule.numerator(at, k) for at in members))
            denominators.append(sum(rule.denominator(at, k) for at in members))
        return numerators, denominators

    def _reasons(self, metric, k):
        return [na_reason(metric, counts, k) for counts in self.counts]

    def answerable(self):
        return [is_answerable(first_trial(counts)) for counts in self.counts]

    def labelling(self):
        found = []
        for counts in self.counts:
            state = first_trial(counts).answerability
            found.append(int(is_answerable(first_trial(counts))) if state is None else state)
        return found

    def field(self, name):
        if name in ("dropped", "collapsed"):
            return [sum(getattr(one, name) for one in _members(counts)) for counts in self.counts]
        if name == "trials":
            return [len(_members(counts)) for counts in self.counts]
        if name == "n_claims":
            return [_mean_claims(counts) for counts in self.counts]
        return [getattr(first_trial(counts), name) for counts in self.counts]

    def trial_values(self, metric, k):
        return {position: [metric.value(one, k) for one in counts]
                for position, counts in enumerate(self.counts) if type(counts) is Trials}

    def take(self, positions, **meta):
        positions = list(positions)
        return ReferenceCounted([self.keys[p] for p in positions],
                                [self.counts[p] for p in positions], **self._meta(**meta))

    def counts_at(self, position):
        return self.counts[position]


def _mean_claims(counts):
    """The claims of a question: its run's, or the mean over its assessed trials (``None``
    when none was assessed)."""
    if type(counts) is not Trials:
        return counts.n_claims
    assessed = [one.n_claims for one in counts if one.n_claims is not None]
    return sum(assessed) / len(assessed) if assessed else None


def count_runs(corpus, cases, runs, *, rules=COURSE, progress=None, **options):
    """Validate and count every run once; return a :class:`ReferenceCounted`.

    ``options`` are those of :class:`~ragscore.core.scoring.Counter` (``min_relevance``,
    ``unit``, ``dedupe``, ``sources``, ``groups``, ``superseded``); an error names the case
    and the system. ``progress(done, total)`` is called after each case.

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> counted = count_runs(course.corpus, course.cases, course.runs)
    >>> counted.keys[4], counted.counts[4].relevant_ranks
    (('owner', 'A'), (2,))
    """
    keys, counts, ops = [], [], {}
    for case_name, system, run, one in iter_runs(corpus, cases, runs, rules=rules,
                                                 progress=progress, **options):
        keys.append((case_name, system))
        counts.append(one)
        for trial in trial_runs(run):
            recorded = {name: trial[name] for name in OPS_KEYS if name in trial}
            if recorded:
                ops.setdefault((case_name, system), []).append(recorded)
    return ReferenceCounted(keys, counts, rules=rules, features=features_of(
        counts, groups=options.get("groups"), superseded=options.get("superseded")),
        ops=ops or None, attributes=case_attributes(cases))


def count_folder(path, *, unit="chunk", dedupe=False, max_bytes, progress=None):
    """Read the dataset folder at ``path`` record by record and count each run
    (:func:`~ragscore.io.read.read_prepared`: the corpus, each case and each run checked by
    the reference reader); return a :class:`ReferenceCounted`. Corpus texts are not kept."""
    from ..io.read import read_prepared
    from .parquet import CODEC

    index, counter, cases, labels, grouped = read_prepared(path, unit=unit, dedupe=dedupe,
                                                          max_bytes=max_bytes, codec=CODEC)
    keys, counted, ops = [], [], {}
    for case_name, per_case in grouped.items():
        for system, trials in per_case.items():
            key = (case_name, system)
            keys.append(key)
            found = [counter.count_prepared(labels[case_name], prepared)
                     for _, prepared, _ in trials]
            counted.append(found[0] if trials[0][0] is None else Trials(found))
            for _, _, run in trials:
                recorded = {name: run[name] for name in OPS_KEYS if name in run}
                if recorded:
                    ops.setdefault(key, []).append(recorded)
    if progress is not None:
        progress(len(keys), len(keys))
    return ReferenceCounted(keys, counted, rules=counter.rules,
                            notes=tuple(index.get("notes", ())),
                            features=features_of(counted, groups=counter.groups,
                                                 superseded=counter.superseded),
                            ops=ops or None, attributes=case_attributes(cases))


def features_of(counts_list, *, groups=None, superseded=None):
    """What the counted runs record beyond the basics, as a frozenset of names: ``answers``
    (some run recorded its answer stage), ``trials``, ``delivered`` (some run recorded its
    delivered context), ``groups`` (some chunk is restricted), ``superseded`` (some chunk is
    outdated), ``references`` (some answer text met a reference answer), ``nuggets`` (some
    question lists nuggets or some answer's nugget assignments are reviewers'),
    ``citations`` (some answer's citations are graded).

    >>> from ragscore.core.counts import retrieval_counts
    >>> sorted(features_of([retrieval_counts(("a",), {"a"})], groups={"a": {"hr"}}))
    ['answers', 'groups']
    """
    found = set()
    for counts in counts_list:
        if type(counts) is Trials:
            found.add("trials")
        for one in _members(counts):
            if one.delivered_span is not None:
                found.add("delivered")
            if one.n_claims is not None:
                found.add("answers")
            if one.answer_match is not None:
                found.add("references")
            if one.nuggets is not None:
                found.add("nuggets")
            if one.citations is not None:
                found.add("citations")
    if groups:
        found.add("groups")
    if superseded:
        found.add("superseded")
    return frozenset(found)
