"""Reviewers' judgements applied to a dataset, and claims derived for runs that record only
their ``answer``.

:func:`labelled` applies the judgements (:mod:`ragscore.core.labels`) a dataset holds:
relevance grades for the passages its own labels say nothing of, each question's
answerability, and the support decisions derived claims are looked up in. Only people's
current judgements count, and only where the content judged is still there (a passage or
question edited since needs a new judgement). :func:`derive_with_waiting` then gives every
run that records ``answer`` and no ``claims`` the pairs
:func:`ragscore.core.answers.derive_run` derives (``None``, not assessed, while any claim
awaits review) and adds one note per system saying how many answers wait and for how many
claims. Recorded claims are left as they are. :func:`derived_claims` lists the claims
themselves (``ragscore claims``, the review queue).
"""
import json
import os
import stat
from collections import namedtuple

from ..core.answers import derive_run, normalise, split_run
from ..core.citations import CitedClaim
from ..core.labels import citation_key, claim_key, judged_case, passage_key, question_key, \
    resolved
from ..core.nuggets import answer_key, assignment_key, case_nuggets, check_nuggets, \
    nugget_key, partial_claims
from ..core.rules import InvalidInputError, show
from ..core.trials import trial_runs
from .jsonl import as_path
from .judgements import upgrade_reviews
from .store import INDEX

__all__ = ["Labelled", "answer_labels", "answer_only", "derive_dataset", "derive_with_waiting",
           "derived_claims", "folder_needs_labels", "has_answer_only", "labelled",
           "needs_labels", "run_answer_key", "waiting_note"]


def answer_only(run):
    """True when ``run`` (one trial) records its answer (``answer`` text, or
    ``sentences``) and no ``claims``."""
    return type(run) is dict and ("answer" in run or "sentences" in run) \
        and run.get("claims") is None


def has_answer_only(dataset):
    """True when some run (or trial) of ``dataset`` records ``answer`` and no ``claims``."""
    runs = getattr(dataset, "runs", None)
    return type(runs) is dict and any(
        answer_only(run) for per_case in runs.values() if type(per_case) is dict
        for trials in per_case.values()
        for run in (trials if type(trials) is list else (trials,)))


def waiting_note(system, answers, claims):
    """The sentence a report repeats for one system's answers awaiting review.

    >>> waiting_note("A", 2, 5)
    'system A: support and coverage n/a for 2 answers (not assessed: 5 claims await review)'
    """
    from ..core.metrics import waiting_reason

    noun = "answer" if answers == 1 else "answers"
    return (f"system {system}: support and coverage n/a for {answers} {noun} "
            f"({waiting_reason(claims)})")


class Labelled(namedtuple("Labelled", "dataset support judgements applied stale nuggets "
                                      "citations spans", defaults=(None, None, None))):
    """What :func:`labelled` gives: the ``dataset`` with its judgements applied to its
    cases (and its version 4 judgements read as version 5 ones), ``support``
    (``{case: {claim key: (decision, states)}}``, the decisions derived claims are looked up
    in), every ``judgements`` record (version 4 ones included), how many relevance and
    answerability decisions were ``applied`` and how many are ``stale`` (about a case,
    passage or question that is gone or changed since: kept, not applied), the
    decisions answers are looked up in: ``nuggets`` (``{case: {assignment key:
    assignment}}``) and ``citations`` (``{case: {citation key: grade}}``); for a span test
    set, ``spans``: its :class:`~ragscore.io.spans.SpanView` (the labels derived on its
    chunking, and what was lost), else ``None``."""

    __slots__ = ()


def _key_of(corpus):
    """A remembering ``doc -> passage key`` over ``corpus``."""
    keys = {}

    def key_of(doc):
        found = keys.get(doc)
        if found is None:
            found = keys[doc] = passage_key(doc, corpus.get(doc))
        return found

    return key_of


def claims_by_case(dataset, *, split="sentence", pattern=None):
    """``case -> [(normalised text, citations, cited passage keys)]`` of the claims every
    answer-only run derives (what :func:`~ragscore.io.judgements.upgrade_reviews` reads)."""
    key_of = _key_of(dataset.corpus)

    def claims_of(case_name):
        found = []
        for trials in (dataset.runs.get(case_name) or {}).values():
            for run in trial_runs(trials):
                if answer_only(run):
                    claims, _ = split_run(run, known=dataset.corpus.keys(), split=split,
                                          pattern=pattern)
                    found += [(normalise(claim.text), claim.citations,
                               [key_of(doc) for doc in claim.citations]) for claim in claims]
        return found

    return claims_of


def _has_version_4(dataset):
    """True when some case holds a version 4 judgement (a review keyed by claim text)."""
    cases = getattr(dataset, "cases", None)
    return type(cases) is dict and any(
        type(review) is dict and "text" in review for case in cases.values()
        if type(case) is dict for review in case.get("reviews") or ())


def needs_labels(dataset):
    """True when ``dataset`` holds judgements to apply or answers to derive claims from."""
    return bool(getattr(dataset, "judgements", ())) or bool(
        getattr(dataset, "documents", None)) or has_answer_only(dataset) \
        or _has_version_4(dataset)


def labelled(dataset, *, judges=False, split="sentence", pattern=None, unit="chunk"):
    """The :class:`Labelled` of ``dataset``: its judgements applied (see the module
    docstring); ``judges``: a machine's drafts count too (never over a person's). A span
    test set's labels are derived on its chunking first (on whole documents under
    ``unit="document"``; :mod:`ragscore.io.spans`)."""
    records = tuple(getattr(dataset, "judgements", ()) or ())
    if _has_version_4(dataset):  # read per case, in memory
        dataset, legacy, _ = upgrade_reviews(
            dataset, claims_by_case(dataset, split=split, pattern=pattern))
        records = legacy + records
    decided = resolved(records, machines=judges)
    spans = None
    if getattr(dataset, "documents", None):
        from .spans import apply_spans, span_view

        spans = span_view(dataset, records, decided, unit=unit)
        dataset = dataset._replace(cases=apply_spans(dataset.cases, spans,
                                                     min_relevance=dataset.min_relevance))
    doc_of = {(record["case"], record["key"]): record["doc"] for record in records
              if record["kind"] == "relevance"}
    key_of, open_rules = _key_of(dataset.corpus), dataset.rules.open_labels
    grades, answerable, support, applied, stale = {}, {}, {}, 0, 0
    answers = {"support": support, "nugget": {}, "citation": {}}  # looked up per answer
    for (kind, case_name, key), decision in decided.items():
        case = dataset.cases.get(case_name)
        if kind in answers:
            answers[kind].setdefault(case_name, {})[key] = decision
            continue
        if kind in ("span-relevance", "evidence"):  # derived above
            continue
        doc = doc_of.get((case_name, key))
        if case is None or (kind == "relevance" and (
                doc not in dataset.corpus or key_of(doc) != key)) or (
                kind == "answerability" and question_key(case.get("question", "")) != key):
            stale += 1
        elif open_rules:  # course rules: a case's labels are complete
            applied += 1
            if kind == "relevance":
                grades.setdefault(case_name, {})[doc] = decision
            else:
                answerable[case_name] = decision
    cases = dict(dataset.cases)
    for name in set(grades) | set(answerable):
        cases[name] = judged_case(cases[name], grades.get(name), answerable.get(name),
                                  min_relevance=dataset.min_relevance)
    return Labelled(dataset._replace(cases=cases, judgements=records), support, records,
                    applied, stale, answers["nugget"], answers["citation"], spans)


def derived_claims(dataset, *, systems=None, split="sentence", pattern=None, judges=False,
                   keyed=False, found=None):
    """Yield ``(case, system, trial, DerivedRun)`` for every answer-only run, in the
    dataset's order (``trial`` is ``None`` for a single run); ``keyed``: every claim's
    judgement key worked out, decided or not; ``found``: ``dataset``'s :class:`Labelled`,
    when already worked out."""
    found = found or labelled(dataset, judges=judges, split=split, pattern=pattern)
    key_of, known = _key_of(dataset.corpus), dataset.corpus.keys()
    for case_name, per_case in dataset.runs.items():
        case = found.dataset.cases[case_name]
        decided = found.support.get(case_name, {})
        for system, trials in per_case.items():
            if systems and system not in systems:
                continue
            for run in trial_runs(trials):
                if answer_only(run):
                    try:
                        derived = derive_run(case.get("support"), run, decided,
                                             key_of=key_of, keyed=keyed, known=known,
                                             split=split, pattern=pattern)
                    except InvalidInputError as error:
                        raise InvalidInputError(f"case {show(case_name)}, system "
                                                f"{show(system)}: {error}") from None
                    yield case_name, system, run.get("trial"), derived


def derive_dataset(dataset, *, split="sentence", pattern=None, judges=False):
    """``dataset`` with its judgements applied (:func:`labelled`) and claims derived for its
    answer-only runs (see the module doc)."""
    return derive_with_waiting(dataset, split=split, pattern=pattern, judges=judges)[0]


def derive_with_waiting(dataset, *, split="sentence", pattern=None, judges=False,
                        unit="chunk", verdicts=None):
    """``(dataset, waiting)``: :func:`derive_dataset`'s dataset, and ``{(case, system):
    claims awaiting review}`` for each answer not assessed yet (trials added up). A span
    test set's labels are derived for ``unit``, and its notes say how many were lost.

    Each run also gets what the judgements say of its answer (:func:`answer_labels`):
    reviewers' nugget assignments (``assigned``), its graded citations (``cited``) and, from
    verdicts, its claims stating an expected claim in part (``partial``). ``verdicts``:
    ``verdicts(case, system, run)`` giving ``{claim ID: "full" or "partial"}`` for the run's
    claims, from a tool of the caller's (``None``: none). A span test set needs none: the
    counter applies its rule itself (:meth:`ragscore.core.scoring.Counter.prepare`)."""
    found = labelled(dataset, judges=judges, split=split, pattern=pattern, unit=unit)
    derived = {}
    for case_name, system, trial, one in derived_claims(dataset, split=split,
                                                        pattern=pattern, found=found):
        derived.setdefault((case_name, system), []).append(one)
    key_of, rules = _key_of(dataset.corpus), dataset.rules
    runs, waiting, by_system = {}, {}, {}
    for case_name, per_case in found.dataset.runs.items():
        runs[case_name] = {}
        case = found.dataset.cases[case_name]
        decided = (found.nuggets.get(case_name), found.citations.get(case_name),
                   found.support.get(case_name, {}))
        for system, trials in per_case.items():
            changed, made = [], iter(derived.get((case_name, system), ()))
            for run in trial_runs(trials):
                one = None
                if answer_only(run):
                    one = next(made)
                    run = {key: value for key, value in run.items() if key != "claims"}
                    if one.pairs is not None:
                        run["claims"] = one.pairs
                        if one.vouched:
                            run["vouched"] = one.vouched
                    else:
                        answers, claims = by_system.get(system, (0, 0))
                        by_system[system] = (answers + 1, claims + one.waiting)
                        key = (case_name, system)
                        waiting[key] = waiting.get(key, 0) + one.waiting
                if decided[0] or decided[1] or verdicts is not None:
                    try:
                        run = dict(run, **answer_labels(
                            case, run, one, decided, key_of=key_of, rules=rules,
                            verdicts=verdicts and verdicts(case_name, system, run)))
                    except InvalidInputError as error:
                        raise InvalidInputError(f"case {show(case_name)}: {error}") from None
                changed.append(run)
            runs[case_name][system] = changed if type(trials) is list else changed[0]
    notes = tuple(dataset.notes) + tuple(waiting_note(system, *counts)
                                         for system, counts in by_system.items())
    if found.spans is not None:
        from .spans import lost_note

        notes += tuple(filter(None, [lost_note(found.spans)]))
    return found.dataset._replace(runs=runs, notes=notes), waiting


def _answer_parts(run, derived, key_of):
    """``[(text, cited passage keys, citations, decision)]`` of a run's claims as a reviewer
    reads them: derived claims by their normalised text, with their support decision
    (``None``: awaiting review), recorded ones by their ID (decision ``None``)."""
    if derived is not None:
        return [(normalise(claim.text), [key_of(doc) for doc in claim.citations],
                 claim.citations, decision)
                for claim, decision in zip(derived.claims, derived.decisions)]
    return [(claim, [key_of(doc) for doc in cited], cited, None)
            for claim, cited in run.get("claims") or ()]


_Split = namedtuple("_Split", "claims decisions")


def run_answer_key(run, corpus, *, split="sentence", pattern=None):
    """The key of a run's answer as :func:`answer_labels` reads it
    (:func:`ragscore.core.nuggets.answer_key`): its claims, derived from its answer or as
    recorded, each with the keys of the passages it cites. An importer of nugget
    assignments keys them with this."""
    key_of = _key_of(corpus)
    derived = None
    if answer_only(run):
        claims, _ = split_run(run, known=corpus.keys(), split=split, pattern=pattern)
        derived = _Split(claims, (None,) * len(claims))
    return answer_key([(text, keys) for text, keys, _, _ in _answer_parts(run, derived,
                                                                           key_of)])


def answer_labels(case, run, derived, decided, *, key_of, rules, verdicts=None):
    """What the judgements say of one run's answer, as the run keys the counts read:
    ``assigned`` (``{nugget ID: assignment}`` of the case's nuggets that reviewers assigned
    for this very answer: its claims, in order, citing the same passages), ``cited`` (a
    :class:`~ragscore.core.citations.CitedClaim` per claim, ``not a claim`` left out, when
    some citation is graded) and ``partial`` (its claims that span labels' ``verdicts``
    call partial). ``decided``: the case's ``(nugget, citation, support)`` decisions by key;
    ``derived``: the run's derived claims, when it records only its answer."""
    nuggets_decided, citations_decided, support_decided = decided
    parts = _answer_parts(run, derived, key_of)
    found = {}
    if nuggets_decided and (run.get("claims") is not None or answer_only(run)):
        answer = answer_key([(text, keys) for text, keys, _, _ in parts])
        listed = check_nuggets(case["nuggets"], rules=rules) if "nuggets" in case else ()
        assigned = {}
        for nugget in case_nuggets(listed, case.get("support")):
            decision = nuggets_decided.get(assignment_key(nugget_key(nugget.id, nugget.text),
                                                          answer))
            if decision is not None:
                assigned[nugget.id] = decision
        if assigned:
            found["assigned"] = assigned
    if citations_decided:
        cited = [_cited(text, keys, support_decided, citations_decided)
                 for text, keys, _, decision in parts if decision != "not a claim"]
        if any(grade is not None for claim in cited for grade in claim.grades):
            found["cited"] = tuple(cited)
    if verdicts:
        named = {claim for claim, _ in run.get("claims") or ()}
        found["partial"] = frozenset(partial_claims(verdicts) & named)
    return found


def _cited(text, keys, support_decided, citations_decided):
    """The :class:`~ragscore.core.citations.CitedClaim` of one claim: each citation's grade,
    and the support judgements of the claim with all its citations and with all but each."""
    def joint(chosen):
        decision = support_decided.get(claim_key(text, chosen), (None,))[0]
        return decision if decision in ("supported", "unsupported") else None

    return CitedClaim(tuple(citations_decided.get(citation_key(text, key)) for key in keys),
                      joint(keys), tuple(joint(keys[:place] + keys[place + 1:])
                                         for place in range(len(keys))))


def _open_regular(path, limit):
    """A binary handle on ``path`` if it is a regular file within ``limit`` bytes, else
    ``None`` (opened without blocking: a FIFO or a device is never waited on)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    found = os.fstat(descriptor)
    if not stat.S_ISREG(found.st_mode) or found.st_size > limit:
        os.close(descriptor)
        return None
    return os.fdopen(descriptor, "rb")


def _mentions(handle, needle):
    """True when the file behind ``handle`` holds ``needle`` (a memory map searched in C;
    the handle is left at its start)."""
    import mmap

    if os.fstat(handle.fileno()).st_size == 0:
        return False
    with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        return mapped.find(needle) >= 0


def folder_needs_labels(path, *, max_bytes=None):
    """True when the folder holds judgements to apply (version 4 or 5) or some line of its
    runs file records ``answer`` without ``claims`` (a look at the index and a byte search,
    no parsing: the folder is read properly afterwards); ``None`` when neither is known
    that way because the runs are a Parquet file (format version 5), which this layer does
    not read (:func:`ragscore.engine.parquet.has_answer_only` looks at its columns). Only
    regular files within ``max_bytes`` are read; anything else is left to the reader,
    which names the problem."""
    from .jsonl import MAX_FILE_BYTES

    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    folder = as_path(path)
    try:
        handle = _open_regular(folder / INDEX, limit)
        if handle is None:
            return False
        with handle:
            index = json.loads(handle.read().decode("utf-8"))
        files = index.get("files") or {}
        if index.get("version") == 4 or "judgements" in files or "documents" in files:
            return True
        name = files.get("runs", "runs.jsonl")
        if type(name) is not str or "/" in name or "\\" in name:
            return False
        if not name.endswith(".jsonl"):
            return None  # a Parquet file: the engine reads its columns (see count_folder)
        handle = _open_regular(folder / name, limit)
        if handle is None:
            return False
        with handle:
            if not _mentions(handle, b'"answer"'):
                return False  # one search in C: most folders record no answer text
            for line in handle:
                if b'"answer"' in line and b'"claims"' not in line:
                    return True
    except (OSError, ValueError, AttributeError, TypeError, RecursionError):
        return False  # the reader names the problem
    return False
