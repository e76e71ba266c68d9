"""A label audit: what to know about a test set's labels before anyone reads a score.

Five checks over a loaded :class:`ragscore.io.dataset.Dataset` (plain data in, plain data
out; standard library only). Each finding names the question, the system where there is
one, and the documents:

- ``unjudged``: documents a system retrieved within the top k that no one judged. Judged
  means listed in the case's ``relevant``: a list, or a graded map at any grade, 0 and
  below included. A score counts an unjudged document as not relevant, so many of them
  make precision a lower bound rather than a measurement.
- ``near-duplicate``: documents with the same text after whitespace normalisation
  (runs of whitespace made one space, ends stripped) where, for one question, one is
  relevant and another is not. Retrieving either copy should score the same.
- ``answered unanswerable``: a question labelled unanswerable (nothing relevant, no claim
  expected) that a system answered with at least one citation.
- ``support outside relevant``: a support label citing a document that is not relevant
  for its question. Validation refuses this for list labels; graded labels allow it
  (support needs a grade above 0, relevance needs ``min_relevance``), so it is checked only
  there.
- ``disputed``: an item two reviewers decided differently on its own scale (two grades,
  two nugget levels: :func:`disputed_labels`, read from a case's ``reviews``, dataset
  format 3, and from the judgements of format 5, each named as its kind names it; a
  machine's draft disagreeing with a person is agreement to report, not a dispute).
  Datasets that predate reviews have none.

Findings are information, not failures: ``ragscore audit`` exits 0 with findings.
"""
from typing import NamedTuple

from ..core.trials import trial_runs

#: The kinds of finding, in the order a report lists them.
KINDS = ("unjudged", "near-duplicate", "answered unanswerable", "support outside relevant",
         "disputed")


class Finding(NamedTuple):
    """One audit finding: ``kind`` (one of :data:`KINDS`), the ``case``, the ``system``
    (None when the finding is about the labels alone), the ``docs`` it names (a disputed
    nugget assignment: the nugget), and a ``detail`` sentence."""
    kind: str
    case: str
    system: str | None
    docs: tuple
    detail: str


class Unjudged(NamedTuple):
    """Per system: ``unjudged`` of the ``retrieved`` documents in the top k (counting each
    (question, document) once) were not judged, in ``questions`` of its questions."""
    unjudged: int
    retrieved: int
    questions: int


class Audit(NamedTuple):
    """The result of :func:`audit`: the cutoff, the findings (in :data:`KINDS` order, then
    case order), the :class:`Unjudged` counts per system, and ``notes``: a sentence per
    kind that was not checked, and why."""
    k: int
    findings: tuple
    unjudged: dict
    notes: tuple


def normalise_text(text):
    """Text with runs of whitespace made one space and the ends stripped.

    >>> normalise_text("  The window\\n starts\\ton Monday. ")
    'The window starts on Monday.'
    """
    return " ".join(text.split())


def judged_ids(case):
    """The IDs a case's ``relevant`` lists, at any grade (0 and negative grades included)."""
    return set(case["relevant"])


def relevant_ids(case, *, min_relevance=1):
    """The IDs counted relevant: every listed ID, or those graded ``min_relevance`` or above."""
    listed = case["relevant"]
    if type(listed) is dict:
        return {doc for doc, grade in listed.items() if grade >= min_relevance}
    return set(listed)


def is_unanswerable(case, *, min_relevance=1):
    """True when nothing is relevant and no claim is expected (``support`` empty or absent)."""
    return not relevant_ids(case, min_relevance=min_relevance) and not case.get("support")


def disputed_labels(case):
    """Items of ``case["reviews"]`` that reviewers decided differently, as
    ``(item, decisions)`` pairs in order of first review; ``item`` is ``("doc", doc)`` or
    ``("claim", system, claim)`` and ``decisions`` maps reviewer to decision.

    The hook for dataset format 3 (reviews): a case without ``reviews`` has no disputes.

    >>> disputed_labels({"reviews": [
    ...     {"reviewer": "ana", "doc": "owners", "decision": "relevant"},
    ...     {"reviewer": "ben", "doc": "owners", "decision": "not relevant"},
    ...     {"reviewer": "ana", "system": "B", "claim": "aurora", "decision": "supported"},
    ...     {"reviewer": "ben", "system": "B", "claim": "aurora", "decision": "supported"}]})
    [(('doc', 'owners'), {'ana': 'relevant', 'ben': 'not relevant'})]
    >>> disputed_labels({"relevant": ("owners",)})
    []
    """
    decisions = {}
    for review in case.get("reviews") or ():
        if "doc" in review:
            item = ("doc", review["doc"])
        elif "text" in review:  # an answer claim's judgement (version 4); judges apart
            if review["reviewer"].startswith("judge:"):
                continue
            item = ("text", review["text"])
        else:
            item = ("claim", review["system"], review["claim"])
        decisions.setdefault(item, {})[review["reviewer"]] = review["decision"]
    return [(item, by_reviewer) for item, by_reviewer in decisions.items()
            if len(set(by_reviewer.values())) > 1]


def _duplicate_groups(corpus):
    """``{doc: group}`` for every document whose normalised text another document shares;
    a group is a tuple of IDs in corpus order. Documents without text are left out."""
    by_text = {}
    for doc, text in corpus.items():
        if text:
            key = normalise_text(text)
            if key:
                by_text.setdefault(key, []).append(doc)
    return {doc: tuple(group) for group in by_text.values() if len(group) > 1
            for doc in group}


def _unjudged_findings(dataset, k):
    findings, counts = [], {}
    for case_id, per_system in dataset.runs.items():
        judged = judged_ids(dataset.cases[case_id])
        for system, run in per_system.items():
            top = tuple(dict.fromkeys(doc for one in trial_runs(run)  # every trial's top k
                                      for doc in one["retrieved"][:k]))
            missing = tuple(doc for doc in top if doc not in judged)
            unjudged, retrieved, questions = counts.get(system, (0, 0, 0))
            counts[system] = (unjudged + len(missing), retrieved + len(top),
                              questions + bool(missing))
            if missing:
                findings.append(Finding(
                    "unjudged", case_id, system, missing,
                    f"{len(missing)} of {len(top)} document{'s' * (len(top) != 1)} in the "
                    f"top {k} not judged"))
    return findings, {system: Unjudged(*values) for system, values in counts.items()}


def _near_duplicate_findings(dataset):
    groups = _duplicate_groups(dataset.corpus)
    findings = []
    if not groups:
        return findings
    position = {doc: place for place, doc in enumerate(dataset.corpus)}
    for case_id, case in dataset.cases.items():
        relevant = relevant_ids(case, min_relevance=dataset.min_relevance)
        judged = judged_ids(case)
        seen = set()
        for doc in sorted(relevant & groups.keys(), key=position.__getitem__):
            group = groups[doc]
            if group in seen:
                continue
            seen.add(group)
            others = tuple(other for other in group if other not in relevant)
            if not others:
                continue
            chosen = tuple(other for other in group if other in relevant)
            labels = ", ".join(
                f"{other} ({'judged not relevant' if other in judged else 'unjudged'})"
                for other in others)
            findings.append(Finding(
                "near-duplicate", case_id, None, chosen + others,
                f"same text, relevant: {', '.join(chosen)}; not relevant: {labels}"))
    return findings


def _answered_unanswerable_findings(dataset):
    findings = []
    for case_id, per_system in dataset.runs.items():
        if not is_unanswerable(dataset.cases[case_id], min_relevance=dataset.min_relevance):
            continue
        for system, run in per_system.items():
            claims = [claim for one in trial_runs(run) for claim in one.get("claims") or ()]
            cited = tuple(dict.fromkeys(doc for _, citations in claims for doc in citations))
            if cited:
                findings.append(Finding(
                    "answered unanswerable", case_id, system, cited,
                    f"labelled unanswerable; answered with {len(claims)} "
                    f"claim{'s' * (len(claims) != 1)} citing {', '.join(cited)}"))
    return findings


def _support_findings(dataset):
    findings = []
    for case_id, case in dataset.cases.items():
        grades = case["relevant"]
        if type(grades) is not dict:
            continue
        relevant = relevant_ids(case, min_relevance=dataset.min_relevance)
        for claim, sources in (case.get("support") or {}).items():
            outside = tuple(doc for doc in sources if doc not in relevant)
            if outside:
                graded = ", ".join(f"{doc} graded {grades[doc]}" for doc in outside)
                findings.append(Finding(
                    "support outside relevant", case_id, None, outside,
                    f"claim {claim!r} is supported by {graded}, below min_relevance "
                    f"{dataset.min_relevance}"))
    return findings


def _judged_disputes(dataset):
    """Findings for the judgements (version 5) people decided differently, each naming its
    item as its kind does (:func:`_disputed_item`)."""
    from ..core.reviews import disputed

    subjects = {}
    for record in dataset.judgements:
        subjects.setdefault((record["case"], (record["kind"], record["key"])), record)
    findings = []
    for item, decisions in disputed({}, dataset.judgements).items.items():
        said = ", ".join(f"{reviewer} {decision}" for reviewer, decision in decisions.items())
        docs, what = _disputed_item(subjects[item])
        findings.append(Finding("disputed", item[0], None, docs, f"{what} disputed: {said}"))
    return findings


def _disputed_item(record):
    """``(docs, what)``: what a disputed judgement names (passages, or the nugget) and what
    was decided about it, in words, by its kind."""
    kind = record["kind"]
    if kind == "relevance":
        return (record["doc"],), "passage relevance (grade)"
    if kind == "support":
        return tuple(record["citations"]), f"claim {record['claim']!r}"
    if kind in ("span-relevance", "evidence"):
        what = ("relevance of" if kind == "span-relevance"
                else f"evidence for claim {record['claim']!r} in")
        return (record["doc"],), (f"{what} span {record['start']}-{record['end']} "
                                  f"{record['text']!r}")
    if kind == "nugget":
        return (record["nugget"],), f"nugget {record['nugget']!r}: its assignment to an answer"
    if kind == "citation":
        return (record["doc"],), (f"citation of passage {record['doc']!r} by claim "
                                  f"{record['claim']!r}")
    if kind == "answerability":
        return (), "answerability"
    return (), kind  # a kind added later: named as it is, never as another


def _disputed_findings(dataset):
    findings = _judged_disputes(dataset) if getattr(dataset, "judgements", ()) else []
    for case_id, case in dataset.cases.items():
        for item, decisions in disputed_labels(case):
            said = ", ".join(f"{reviewer} {decision}" for reviewer, decision in
                             decisions.items())
            if item[0] == "doc":
                findings.append(Finding("disputed", case_id, None, (item[1],),
                                        f"document label disputed: {said}"))
            elif item[0] == "text":
                findings.append(Finding("disputed", case_id, None, (),
                                        f"answer claim {item[1]!r} disputed: {said}"))
            else:
                findings.append(Finding("disputed", case_id, item[1], (),
                                        f"claim {item[2]!r} disputed: {said}"))
    return findings


def audit(dataset, *, k):
    """Audit the labels of ``dataset`` for a cutoff ``k`` (see the module docstring).

    ``k`` must already be checked against the dataset's rules. The dataset is not changed.

    >>> from ragscore.io.course import load_course
    >>> result = audit(load_course(), k=2)
    >>> result.unjudged["A"]
    Unjudged(unjudged=3, retrieved=6, questions=3)
    >>> [(f.kind, f.case, f.system, f.docs) for f in result.findings][-1]
    ('answered unanswerable', 'region', 'A', ('archive',))
    """
    unjudged, counts = _unjudged_findings(dataset, k)
    findings = (unjudged + _near_duplicate_findings(dataset)
                + _answered_unanswerable_findings(dataset) + _support_findings(dataset)
                + _disputed_findings(dataset))
    notes = {}
    if not any(type(case["relevant"]) is dict for case in dataset.cases.values()):
        notes["support outside relevant"] = (
            "not checked: every case lists its relevant documents, and validation already "
            "requires support labels within them")
    if not any("reviews" in case for case in dataset.cases.values()) and not getattr(
            dataset, "judgements", ()):
        notes["disputed"] = "not checked: no case has reviews (dataset format 3 adds them)"
    if not any(text for text in dataset.corpus.values()):
        notes["near-duplicate"] = "not checked: the corpus records no text"
    return Audit(k, tuple(findings), counts, notes)
