"""Score runs: validate once, count once, and read every metric off the counts.

:func:`evaluate` is the course contract for one run: the six metrics of
:data:`~ragscore.core.metrics.CONTRACT`, in that order. :func:`iter_counts` is the batch
path for a whole test set: the corpus is validated once, each case once however many
systems ran it, and every error names the case and the system.
"""
from collections import namedtuple
from itertools import repeat
from operator import contains

from .answers import answer_text
from .citations import check_cited, citation_counts
from .counts import count
from .nuggets import case_nuggets, check_assigned
from .reference_answers import check_answer, check_reference
from .metrics import CONTRACT, REGISTRY, select
from .rules import COURSE, InvalidInputError, check_k, fail, show
from .trials import Trials
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


def require_dict(value, field):
    """Raise unless ``value`` is a dict (``field`` names it in the message)."""
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
            if type(case) is dict and "reference" in case:
                labels = labels._replace(reference=check_reference(case["reference"]))
            if type(case) is dict and "spans" in case:  # derived from spans: all judged
                labels = labels._replace(judged=None, partial=case["spans"],
                                         characters=case.get("span_characters"))
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
        prepared = self.prepare(labels, run)
        if type(prepared) is list:
            return Trials(self.count_prepared(labels, one) for one in prepared)
        return self.count_prepared(labels, prepared)

    def count_prepared(self, labels, prepared):
        """The :class:`~ragscore.core.counts.Counts` of one prepared run (see
        :meth:`prepare`)."""
        return count(labels.relevant, labels.support, prepared.retrieved, prepared.claims,
                     grades=labels.grades, dropped=prepared.dropped,
                     collapsed=prepared.collapsed, delivered=prepared.delivered,
                     losers=labels.losers, restricted=prepared.restricted,
                     superseded=self.superseded, answer=prepared.answer,
                     references=labels.reference, judged=labels.judged,
                     answerability=labels.answerability, vouched=prepared.vouched,
                     nuggets=labels.nuggets, assigned=prepared.assigned,
                     partial=prepared.partial, cited=prepared.cited,
                     uncovered=prepared.uncovered, characters=prepared.characters)

    def prepare(self, labels, run):
        """``run`` validated and made ready to count: ``(retrieved, claims, dropped=,
        collapsed=, delivered=, restricted=)`` as :class:`Prepared`; a list or tuple of runs
        (repeated trials, in order) gives a list of them. Every rule a run must meet is
        applied here, for both engines."""
        if type(run) is list or type(run) is tuple:
            if not run or not all(type(one) is dict for one in run):
                fail("run", "a dict, or a non-empty list of dicts (one per trial)", run)
            return [self.prepare(labels, one) for one in run]
        dropped = collapsed = 0
        if self.dedupe and type(run) is dict and "retrieved" in run:
            retrieved, dropped = dedupe_ranking(run["retrieved"])
            run = dict(run, retrieved=retrieved)
        retrieved, claims = validate_run(run, self.known, rules=self.rules)
        delivered = (validate_delivered(run, self.known, rules=self.rules)
                     if "delivered" in run else None)
        assigned, partial, cited = _reviewed(run, claims, labels) if type(run) is dict and (
            "assigned" in run or "partial" in run or "cited" in run) else (None, frozenset(),
                                                                           None)
        restricted = self.restricted(labels.callers) if self.groups else None
        if self.unit == "document":
            retrieved, collapsed = project_ranking(retrieved, self.sources)
            claims = project_claims(claims, self.sources)
            if delivered is not None:
                delivered = project_ranking(delivered, self.sources)[0]
        answer = None
        if type(run) is dict and ("answer" in run or "sentences" in run):
            answer = check_answer(answer_text(run))
        vouched = _vouched(run, claims) if type(run) is dict and "vouched" in run else ()
        uncovered = ()
        if labels.partial and claims:
            uncovered, partly = _span_levels(labels.partial, claims)
            partial = partial | partly
        characters = (None if labels.characters is None
                      else labels.characters.read_at(retrieved))
        return Prepared(retrieved, claims, dropped, collapsed, delivered, restricted, answer,
                        vouched, assigned, partial, cited, uncovered, characters)


class Prepared(namedtuple("Prepared", "retrieved claims dropped collapsed delivered restricted "
                                      "answer vouched assigned partial cited uncovered "
                                      "characters",
                          defaults=(None, (), None, frozenset(), None, (), None))):
    """A validated run, ready to count (see :meth:`Counter.prepare`): its ranking and claims
    (after any dedupe or projection), what a dedupe dropped and a projection collapsed, the
    delivered context (``None``: not recorded), the caller's restricted chunks, the answer
    text (``None``: not recorded), the claims a reviewer vouched for (a frozenset), the
    reviewers' nugget assignments for this answer (``{nugget ID: assignment}``, or
    ``None``), its claims stating an expected claim only in part (span labels) and the
    :class:`~ragscore.core.citations.CitationCounts` of its graded citations (``None``:
    none graded), what :mod:`ragscore.io.answers` finds in the test set's judgements for
    this answer; and the claims whose citations do not cover an evidence span (labels
    derived from spans: never supported, :func:`_span_levels`); ``characters``: on labels
    derived from spans, ``(relevant characters, ((rank, newly covered, read), ...))``
    (:meth:`ragscore.core.spans.Characters.read_at`), else ``None``."""

    __slots__ = ()


def _reviewed(run, claims, labels):
    """``(assigned, partial, cited)`` of a run the test set's judgements were applied to
    (:mod:`ragscore.io.answers`): the assignments checked against the case's nuggets, the
    partial claims against the run's claims, the citation grades counted as the answer
    cites (before any projection onto documents)."""
    nuggets = labels.nuggets if labels.nuggets is not None else case_nuggets(
        (), labels.support)
    assigned = check_assigned(run["assigned"], nuggets) if "assigned" in run else None
    partial = run.get("partial", frozenset())
    names = {claim for claim, _ in claims or ()}
    if type(partial) is not frozenset or not partial <= names:
        fail("run['partial']", "a frozenset of the run's claim IDs", partial)
    cited = citation_counts(check_cited(run["cited"])) if "cited" in run else None
    return assigned, partial, cited


def _span_levels(evidence, claims):
    """``(uncovered, partial)`` of a run's claims under labels derived from spans, by
    :func:`ragscore.core.spans.support_level` (``evidence``:
    :attr:`~ragscore.core.validation.Labels.partial`, the claims some chunk only partly
    holds the evidence of, the only ones that can cite only their sources and still miss
    every span): ``uncovered``, the claims whose citations do not support them fully (never
    supported), and ``partial``, those whose cited chunks hold part of the evidence (their
    nugget's ``partial_support``, TREC's). Both engines read these two frozensets."""
    levels = [(claim, evidence[claim].level(citations)) for claim, citations in claims
              if claim in evidence]
    return (frozenset(claim for claim, level in levels if level != "full"),
            frozenset(claim for claim, level in levels if level == "partial"))


def _vouched(run, claims):
    """The frozenset of ``run["vouched"]``: claims of the run (derived from its answer text)
    that a reviewer judged supported by the passages they cite, on a question without
    expected claims (:mod:`ragscore.io.answers`)."""
    vouched = run["vouched"]
    names = {claim for claim, _ in claims or ()}
    if type(vouched) not in (tuple, list, frozenset) or not all(
            type(claim) is str and claim in names for claim in vouched):
        fail("run['vouched']", "claim IDs of the run's claims", vouched)
    return frozenset(vouched)


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
    for case_name, system, _, counts in iter_runs(corpus, cases, runs, rules=rules,
                                                   progress=progress, **options):
        yield case_name, system, counts


def iter_runs(corpus, cases, runs, *, rules=COURSE, progress=None, **options):
    """:func:`iter_counts`, each row with the run it counted: ``(case, system, run,
    counts)``."""
    for case_name, system, run, counter, labels, prepared in iter_prepared(
            corpus, cases, runs, rules=rules, progress=progress, **options):
        yield case_name, system, run, (
            Trials(counter.count_prepared(labels, one) for one in prepared)
            if type(prepared) is list else counter.count_prepared(labels, prepared))


def iter_prepared(corpus, cases, runs, *, rules=COURSE, progress=None, **options):
    """Yield ``(case, system, run, counter, labels, prepared)`` for every run in
    ``runs[case][system]``, in input order: the run validated and made ready to count
    (:meth:`Counter.prepare`; a list of them for repeated trials) against its case's
    validated ``labels``. Both engines read in-memory runs through this, so every rule and
    every message is the same for both. See :func:`iter_counts` for ``progress``."""
    counter = Counter(validate_corpus(corpus, rules=rules), rules=rules, **options)
    require_dict(cases, "cases")
    require_dict(runs, "runs")
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
            require_dict(systems, f"runs[{show(case_name)}]")
        for system, run in list(systems.items()):
            if type(system) is not str:
                fail(f"runs[{show(case_name)}] key", "a system name (a str)", system)
            try:
                prepared = counter.prepare(labels, run)
            except InvalidInputError as error:
                raise InvalidInputError(
                    f"case {show(case_name)}, system {show(system)}: {error}") from None
            yield case_name, system, run, counter, labels, prepared
        if progress is not None:
            progress(done, total)


def case_attributes(cases):
    """``{case: {"tags": tuple, "split": str or None}}`` for cases that declare tags or a
    split, or ``None`` when none does (slicing then has nothing to go on).

    >>> case_attributes({"q": {"tags": ("lookup",), "split": "dev"}, "r": {}})
    {'q': {'tags': ('lookup',), 'split': 'dev'}, 'r': {'tags': (), 'split': None}}
    """
    if type(cases) is not dict:
        return None
    values = list(cases.values())
    if frozenset({dict}).issuperset(map(type, values)):  # the usual: checked in C
        if not any(map(contains, values, repeat("tags"))) and \
                not any(map(contains, values, repeat("split"))):
            return None
    elif not any(type(case) is dict and ("tags" in case or "split" in case)
                 for case in values):
        return None
    return {name: {"tags": tuple(case.get("tags", ())), "split": case.get("split")}
            for name, case in cases.items()}


#: What a run record may say about its operation, beside its quality.
OPS_KEYS = ("latency_ms", "tokens", "cost", "retries", "failed")


def iter_scores(corpus, cases, runs, *, k=2, metrics=CONTRACT, progress=None):
    """Yield ``(case, system, scores)`` for every run, ``scores`` a ``{metric: value}`` dict.

    With the default metrics, ``scores`` is what :func:`evaluate` returns. Pure Python.
    """
    check_k(k)
    chosen = select(metrics)
    for case_name, system, counts in iter_counts(corpus, cases, runs, progress=progress):
        yield case_name, system, {metric.name: metric.value(counts, k) for metric in chosen}
