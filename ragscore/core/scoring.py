"""Score runs: validate once, count once, and read every metric off the counts.

:func:`evaluate` is the course contract for one run: the six metrics of
:data:`~ragscore.core.metrics.CONTRACT`, in that order. :func:`iter_counts` is the batch
path for a whole test set: the corpus is validated once, each case once however many
systems ran it, and every error names the case and the system.
"""
import gc
from collections import namedtuple
from functools import partial
from itertools import chain, islice, repeat
from operator import attrgetter, is_not

from .aggregate import zeroed
from .counts import Counts, count
from .parallel import can_fork, counts_columns, counts_from_columns, default_jobs, in_two, \
    packed_values, unpacked_values
from .trials import Trials, first_trial, trial_runs, value_of
from .metrics import CONTRACT, REGISTRY, select
from .rules import COURSE, InvalidInputError, check_k, fail, show
from .units import dedupe_ranking, project_claims, project_ranking
from .validation import validate, validate_context, validate_corpus, validate_delivered, \
    validate_labels, validate_reviews, validate_run

_CONTRACT_METRICS = tuple(REGISTRY[name] for name in CONTRACT)


def evaluate(corpus, case, run, *, k=2):
    """Validate, then score one run of one case at cutoff ``k``.

    Returns a dict with keys ``precision`` (P@k), ``recall`` (R@k), ``rr`` (RR@k),
    ``support``, ``coverage`` and ``abstention_correct``, in that order; ``None`` marks n/a.
    Raises :class:`~ragscore.core.rules.InvalidInputError` (a ``ValueError``) on bad input.

    >>> corpus = {"rollback": "Switch back.", "checklist": "Run the smoke test."}
    >>> case = {"relevant": ("rollback", "checklist"),
    ...         "support": {"switch": ("rollback",), "smoke": ("checklist",)}}
    >>> run = {"retrieved": ("rollback",), "claims": (("switch", ("rollback",)),)}
    >>> evaluate(corpus, case, run, k=2)
    {'precision': 0.5, 'recall': 0.5, 'rr': 1.0, 'support': 1.0, 'coverage': 0.5, 'abstention_correct': None}
    """
    counts = count(*validate(corpus, case, run, k))
    return {metric.name: metric.value(counts, k) for metric in _CONTRACT_METRICS}


def _require_dict(value, field):
    if type(value) is not dict:
        raise InvalidInputError(f"{field} must be a dict; got {show(value)}")


UNITS = ("chunk", "document")


class Counter:
    """Counts runs one at a time against a validated corpus, under declared options.

    ``known``: the corpus IDs. ``rules``: the ID rules (:mod:`ragscore.core.rules`).
    ``min_relevance``: the lowest grade judged relevant (trec_eval's ``-l``).
    ``unit``: ``"chunk"`` scores rankings as recorded; ``"document"`` projects each chunk
    onto its document (``sources`` maps chunk to document), labels then name documents.
    ``dedupe``: drop repeated IDs from a ranking (counted) instead of refusing it.
    ``groups``: ``{ID: frozenset of access groups}`` for restricted chunks (a chunk not
    listed is open to everyone); ``superseded``: the IDs of chunks of outdated versions.
    """

    def __init__(self, known, *, rules=COURSE, min_relevance=1, unit="chunk", dedupe=False,
                 sources=None, groups=None, superseded=frozenset()):
        if type(unit) is not str or unit not in UNITS:
            fail("unit", f"one of {', '.join(UNITS)}", unit)
        if type(min_relevance) is not int or min_relevance < 1:
            fail("min_relevance", "an int of at least 1", min_relevance)
        self.known, self.rules, self.min_relevance = known, rules, min_relevance
        self.unit, self.dedupe, self.sources = unit, dedupe, sources or {}
        self.label_ids = (frozenset(self.sources.get(doc, doc) for doc in known)
                          if unit == "document" else known)
        self.groups, self.superseded = groups or {}, frozenset(superseded)
        self._restricted = {}
        # rankings scored as recorded: no dedupe, no projection, no access groups
        self._as_recorded = not dedupe and unit == "chunk" and not self.groups

    def restricted(self, callers):
        """The chunks a caller in ``callers`` (a frozenset, or ``None``: no groups) may not
        see: those with access groups sharing none of the caller's."""
        callers = callers or frozenset()
        if callers not in self._restricted:
            self._restricted[callers] = frozenset(
                doc for doc, allowed in self.groups.items() if not allowed & callers)
        return self._restricted[callers]

    def labels(self, case):
        """The validated :class:`~ragscore.core.validation.Labels` of ``case``."""
        try:
            labels = validate_labels(case, self.label_ids, rules=self.rules,
                                     min_relevance=self.min_relevance)
            if type(case) is dict and "reviews" in case:
                validate_reviews(case, self.label_ids)
            if type(case) is dict and ("conflicting" in case or "caller_groups" in case):
                losers, callers = validate_context(case, self.label_ids, rules=self.rules)
                labels = labels._replace(losers=losers, callers=callers)
            return labels
        except InvalidInputError as error:
            documents = set(self.sources.values()) - self.known
            if self.unit == "chunk" and documents and any(
                    f"got {show(doc)}" in str(error) for doc in documents):
                raise InvalidInputError(f"{error} (a document: its labels name documents, "
                                        "so score with unit 'document', --unit document)"
                                        ) from None
            raise

    def count(self, labels, run):
        """The :class:`~ragscore.core.counts.Counts` of ``run`` against ``labels``; a list or
        tuple of runs (repeated trials, in order) gives :class:`~ragscore.core.trials.Trials`."""
        if self._as_recorded and type(run) is dict and "delivered" not in run:
            retrieved, claims = validate_run(run, self.known, rules=self.rules)
            return count(labels.relevant, labels.support, retrieved, claims,
                         grades=labels.grades, losers=labels.losers,
                         superseded=self.superseded)
        if type(run) is list or type(run) is tuple:
            if not run or not all(type(one) is dict for one in run):
                fail("run", "a dict, or a non-empty list of dicts (one per trial)", run)
            return Trials(self.count(labels, one) for one in run)
        dropped = collapsed = 0
        if self.dedupe and type(run) is dict and "retrieved" in run:
            retrieved, dropped = dedupe_ranking(run["retrieved"])
            run = dict(run, retrieved=retrieved)
        retrieved, claims = validate_run(run, self.known, rules=self.rules)
        delivered = (validate_delivered(run, self.known, rules=self.rules)
                     if "delivered" in run else None)
        restricted = self.restricted(labels.callers) if self.groups else None
        if self.unit == "document":
            retrieved, collapsed = project_ranking(retrieved, self.sources)
            claims = project_claims(claims, self.sources)
            if delivered is not None:
                delivered = project_ranking(delivered, self.sources)[0]
        return count(labels.relevant, labels.support, retrieved, claims, grades=labels.grades,
                     dropped=dropped, collapsed=collapsed, delivered=delivered,
                     losers=labels.losers, restricted=restricted, superseded=self.superseded)


def _copied(value):
    """A dict copied two levels deep (the dicts it holds copied too; anything else shared:
    valid IDs, ID lists and claims are immutable)."""
    if type(value) is not dict:
        return value
    return {key: dict(item) if type(item) is dict else item for key, item in value.items()}


def iter_counts(corpus, cases, runs, *, rules=COURSE, progress=None, **options):
    """Yield ``(case, system, counts)`` for every run in ``runs[case][system]``, in input order.

    The corpus is validated once and each case once. An error names the case and system.
    ``progress``, if given, is called as ``progress(done, total)`` after each case; the runs
    and cases are copied before the first call, so a callback that edits them cannot
    mislabel rows.
    Other ``options`` (``min_relevance``, ``unit``, ``dedupe``, ``sources``, ``groups``,
    ``superseded``) are those of :class:`Counter`. A run given as a list of runs is a
    question's repeated trials: its counts are :class:`~ragscore.core.trials.Trials`.
    """
    for case_name, system, _, counts in _iter_runs(corpus, cases, runs, rules=rules,
                                                   progress=progress, **options):
        yield case_name, system, counts


def _iter_runs(corpus, cases, runs, *, rules, progress, **options):
    """:func:`iter_counts`, each row with the run it counted: ``(case, system, run,
    counts)``."""
    counter = Counter(validate_corpus(corpus, rules=rules), rules=rules, **options)
    _require_dict(cases, "cases")
    _require_dict(runs, "runs")
    listed = list(runs.items())
    if progress is not None:  # the callback may edit the input: count a copy taken now
        listed = [(case_name, _copied(systems)) for case_name, systems in listed]
        cases = {case_name: _copied(case) for case_name, case in cases.items()}
    total = len(listed)
    for done, (case_name, systems) in enumerate(listed, start=1):
        if type(case_name) is not str:
            fail("runs key", "a case name (a str)", case_name)
        if case_name not in cases:
            raise InvalidInputError(
                f"runs[{show(case_name)}] names a case that is not in cases")
        try:
            labels = counter.labels(cases[case_name])
        except InvalidInputError as error:
            raise InvalidInputError(f"case {show(case_name)}: {error}") from None
        if type(systems) is not dict:
            _require_dict(systems, f"runs[{show(case_name)}]")
        for system, run in list(systems.items()):
            if type(system) is not str:
                fail(f"runs[{show(case_name)}] key", "a system name (a str)", system)
            try:
                counts = counter.count(labels, run)
            except InvalidInputError as error:
                raise InvalidInputError(
                    f"case {show(case_name)}, system {show(system)}: {error}") from None
            yield case_name, system, run, counts
        if progress is not None:
            progress(done, total)


#: What a run record may say about its operation, beside its quality.
OPS_KEYS = ("latency_ms", "tokens", "cost", "retries", "failed")
_OPS_SET = frozenset(OPS_KEYS)


class CountedRuns(namedtuple("CountedRuns", "keys counts rules notes features ops attributes",
                             defaults=(COURSE, (), frozenset(), None, None))):
    """The counts of every run of a test set: ``keys[i]`` is ``(case, system)`` of
    ``counts[i]``, in input order. Tables, aggregates and sweeps all read from one of these,
    so a report counts each run once. ``rules`` are the ID rules the runs were read under
    (they bound k); ``notes`` are the dataset's sentences every report repeats;
    ``features`` names what the data records beyond the basics (``delivered``, ``groups``,
    ``superseded``, ``trials``), so reports show the columns that say something; ``ops``
    maps ``(case, system)`` to the operation records of its trials (latency, tokens, cost,
    retries, failed), when any were recorded; ``attributes`` maps a case to its ``tags`` and
    ``split`` (:func:`case_attributes`), when any case has them."""

    __slots__ = ()


#: Batches of at least this many runs are counted by two processes when ``jobs=2``.
PARALLEL_RUNS = 20_000
_DICTS_ONLY = frozenset({dict})


def count_runs(corpus, cases, runs, *, rules=COURSE, progress=None, jobs=None, **options):
    """Validate and count every run once; return :class:`CountedRuns` (see :func:`iter_counts`).

    With ``jobs=2``, a batch of at least :data:`PARALLEL_RUNS` runs without a ``progress``
    callback is split in two halves of its cases, the second counted by a forked child
    process where that is safe (:func:`~ragscore.core.parallel.can_fork`); the result and
    the first error reported are those of one process. ``jobs=None`` (the default) is
    :func:`~ragscore.core.parallel.default_jobs`: 2 on Linux with two CPUs, else 1;
    ``jobs=1`` keeps everything in this process.

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> counted = count_runs(course.corpus, course.cases, course.runs)
    >>> counted.keys[4], counted.counts[4].relevant_ranks
    (('owner', 'A'), (2,))
    """
    halves = _halves(runs, jobs=jobs, progress=progress)
    collecting = gc.isenabled()
    gc.disable()  # many small records and no cycles: collections would only re-walk them
    try:
        if halves is not None:
            first, second = (partial(_count_all, corpus, cases, half, rules=rules, **options)
                             for half in halves)
            mine, theirs = in_two(first, second, encode=counts_columns,
                                  decode=counts_from_columns)
            counts = mine + theirs
            keys = _keys(runs)
            counted_runs = chain.from_iterable(map(dict.values, runs.values()))
        else:
            keys, counts, counted_runs = [], [], []
            for case_name, system, run, one in _iter_runs(corpus, cases, runs, rules=rules,
                                                          progress=progress, **options):
                keys.append((case_name, system))
                counts.append(one)
                counted_runs.append(run)
        ops = _ops(keys, counted_runs)
    finally:
        if collecting:
            gc.enable()
    return CountedRuns(keys, counts, rules, (), features_of(
        counts, groups=options.get("groups"), superseded=options.get("superseded")), ops,
        case_attributes(cases))


def _halves(runs, *, jobs, progress):
    """The two halves of ``runs`` (by case) when ``jobs`` asks for two processes and the
    batch is large enough to gain from them, else ``None`` (count in this process)."""
    if jobs is None:
        jobs = default_jobs()
    if type(jobs) is not int or jobs < 1:
        fail("jobs", "an int of at least 1, or None (as many as help)", jobs)
    if (jobs < 2 or progress is not None or type(runs) is not dict or not can_fork()
            or not _DICTS_ONLY.issuperset(map(type, runs.values()))
            or sum(map(len, runs.values())) < PARALLEL_RUNS):
        return None
    middle = len(runs) // 2
    return dict(islice(runs.items(), middle)), dict(islice(runs.items(), middle, None))


def _keys(runs):
    """``(case, system)`` of every run in ``runs`` (a dict of dicts), in input order."""
    return [(case_name, system) for case_name, systems in runs.items() for system in systems]


def _ops(keys, counted_runs):
    """``{(case, system): [operation record per trial]}`` for the runs that record any
    operation (latency, tokens, cost, retries, failed), or ``None`` when none does."""
    counted_runs = tuple(counted_runs)
    if _DICTS_ONLY.issuperset(map(type, counted_runs)) and all(
            map(_OPS_SET.isdisjoint, counted_runs)):
        return None  # no run records an operation (checked at C speed)
    ops = {}
    for key, run in zip(keys, counted_runs):
        for trial in trial_runs(run):
            recorded = {name: trial[name] for name in OPS_KEYS if name in trial}
            if recorded:
                ops.setdefault(key, []).append(recorded)
    return ops or None


def score_columns(corpus, cases, runs, *, k, metrics, rules=COURSE, progress=None, jobs=None,
                  **options):
    """``(keys, columns)``: the ``(case, system)`` of every run in input order and
    ``{name: values}`` of each of ``metrics`` (registered metrics) at cutoff ``k``.

    The same as :func:`count_runs` followed by :func:`metric_columns`, for a caller that
    needs only the values: with two processes, each half's values are computed where it
    was counted, and only the values cross the pipe. ``options`` are those of
    :func:`count_runs`.

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> keys, columns = score_columns(course.corpus, course.cases, course.runs, k=2,
    ...                               metrics=select(("recall",)))
    >>> keys[2], columns["recall"][2]
    (('rollback', 'A'), 0.5)
    """
    halves = _halves(runs, jobs=jobs, progress=progress)
    collecting = gc.isenabled()
    gc.disable()  # as in count_runs: the values are plain floats, nothing to collect
    try:
        if halves is None:
            counted = count_runs(corpus, cases, runs, rules=rules, progress=progress, jobs=1,
                                 **options)
            return counted.keys, metric_columns(counted, k=k, metrics=metrics)
        first, second = (partial(_columns_of, corpus, cases, half, k=k, metrics=metrics,
                                 rules=rules, **options) for half in halves)
        mine, theirs = in_two(first, second, decode=unpacked_values, encode=partial(
            packed_values, kinds={metric.name: metric.kind for metric in metrics}))
    finally:
        if collecting:
            gc.enable()
    return _keys(runs), {name: values + theirs[name] for name, values in mine.items()}


def _columns_of(corpus, cases, runs, *, k, metrics, rules, **options):
    """The metric columns of ``runs``, counted in this process."""
    counts = _count_all(corpus, cases, runs, rules=rules, **options)
    return metric_columns(CountedRuns((), counts, rules, (), features_of(counts)), k=k,
                          metrics=metrics)


def _count_all(corpus, cases, runs, *, rules, **options):
    """The counts of every run, in input order."""
    return [counts for _, _, _, counts in _iter_runs(corpus, cases, runs, rules=rules,
                                                     progress=None, **options)]


def case_attributes(cases):
    """``{case: {"tags": tuple, "split": str or None}}`` for cases that declare tags or a
    split, or ``None`` when none does (slicing then has nothing to go on).

    >>> case_attributes({"q": {"tags": ("lookup",), "split": "dev"}, "r": {}})
    {'q': {'tags': ('lookup',), 'split': 'dev'}, 'r': {'tags': (), 'split': None}}
    """
    if not any(type(case) is dict and ("tags" in case or "split" in case)
               for case in cases.values()):
        return None
    return {name: {"tags": tuple(case.get("tags", ())), "split": case.get("split")}
            for name, case in cases.items()}


_COUNTS_ONLY = frozenset({Counts})
_DELIVERED = attrgetter("delivered_span")


def features_of(counts_list, *, groups=None, superseded=None):
    """What the counted runs record beyond the basics, as a frozenset of names:
    ``trials``, ``delivered`` (some run recorded its delivered context), ``groups`` (some
    chunk is restricted), ``superseded`` (some chunk is outdated).

    >>> from ragscore.core.counts import retrieval_counts
    >>> sorted(features_of([retrieval_counts(("a",), {"a"})], groups={"a": {"hr"}}))
    ['groups']
    """
    found = set()
    if _COUNTS_ONLY.issuperset(map(type, counts_list)):  # no trials: checked at C speed
        if any(map(is_not, map(_DELIVERED, counts_list), repeat(None))):
            found.add("delivered")
    else:
        for counts in counts_list:
            if type(counts) is Trials:
                found.add("trials")
                counts = counts[0]
            if counts.delivered_span is not None:
                found.add("delivered")
    if groups:
        found.add("groups")
    if superseded:
        found.add("superseded")
    return frozenset(found)


def iter_scores(corpus, cases, runs, *, k=2, metrics=CONTRACT, progress=None):
    """Yield ``(case, system, scores)`` for every run, ``scores`` a ``{metric: value}`` dict.

    With the default metrics, ``scores`` is what :func:`evaluate` returns. Pure Python.
    """
    check_k(k)
    chosen = select(metrics)
    for case_name, system, counts in iter_counts(corpus, cases, runs, progress=progress):
        yield case_name, system, {metric.name: metric.value(counts, k) for metric in chosen}


#: Columns shown by default when the data records what they measure.
FEATURE_METRICS = (("superseded", "stale_support"), ("groups", "disclosures"),
                   ("delivered", "context_differs"))


def default_metrics(counted):
    """The contract's metrics, less the answer metrics when no run recorded an answer
    (a retrieval-only test set: nothing assessed, so no column for it), plus stale support,
    disclosures and ``context_differs`` when the data records superseded chunks, access
    groups or delivered contexts."""
    extra = tuple(name for feature, name in FEATURE_METRICS
                  if feature in getattr(counted, "features", ()))
    if counted.counts and all(first_trial(counts).n_claims is None
                              for counts in counted.counts):
        return tuple(name for name in CONTRACT + extra if REGISTRY[name].stage != "answer")
    return CONTRACT + extra


def metric_columns(counted, *, k, metrics, na_as_zero=False):
    """``{name: values}``: each of ``metrics`` (registered metrics) at cutoff ``k`` for every
    counted run, in order; ``None`` is n/a (0.0 for a retrieval rate under ``na_as_zero``,
    trec_eval's convention). A question with repeated trials gets their combined value.

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> counted = count_runs(course.corpus, course.cases, course.runs)
    >>> metric_columns(counted, k=2, metrics=select(("precision",)))["precision"][:3]
    [0.5, 0.5, 0.5]
    """
    trials = "trials" in getattr(counted, "features", ())
    columns = {}
    for metric in metrics:
        if trials:
            values = [value_of(metric, counts, k) for counts in counted.counts]
        else:  # each question's value is its one run's
            values = list(map(metric.value, counted.counts, repeat(k)))
        if zeroed(metric, na_as_zero):
            values = [0.0 if value is None else value for value in values]
        columns[metric.name] = values
    return columns
