"""The review queue: what awaits a person's judgement, question by question.

For each question, in the test set's order, :func:`review_queue` lists:

1. **relevance**: the pool, the union of every system's top ``pool_depth`` passages (TREC
   pooling: rank 1 of every system, then rank 2, ...), less the passages the question's own
   labels already grade (under course rules a case's list is its complete labelling: no
   pool);
2. **answerability**: the question itself, when its labels do not say whether this corpus
   answers it;
3. **support**: each claim derived from the answers (once per question, claim and cited
   passages), with the text of the passages it cites, or for an uncited claim the passages
   its answer was given (delivered, else retrieved), its findings and the question's
   expected claims;
4. **nugget**: each answer (once per question and answer: the same claims citing the same
   passages) against each nugget the strict rule cannot assign (a nugget without sources):
   the nugget's text (``claim``), ``importance`` and the ``answer`` (three decisions:
   ``support``, ``partial_support``, ``not_support``);
5. **citation**, when asked for (``citations``): each claim's support by each passage it
   cites (``full``, ``partial``, ``none``), once per claim and passage.

An item someone already judged is left out (with ``reviewer``: an item that reviewer
judged; ``everything``: nothing is). Each row carries the item's ``kind``, ``case`` and
``key`` (:mod:`ragscore.core.labels`): what a filled-in queue is checked against on import
(:mod:`ragscore.io.queue_file`).
"""
from ..core.answers import answer_text, normalise
from ..core.labels import KINDS, citation_key, current, is_machine, passage_key, \
    question_key
from ..core.nuggets import assignment_key, case_nuggets, check_nuggets, nugget_key
from ..core.rules import InvalidInputError, show
from ..core.trials import trial_runs
from ..core.validation import answerability_of
from .answers import answer_only, derived_claims, labelled, run_answer_key

#: The columns of a queue row, in file order (reviewers fill in the last five).
COLUMNS = ("kind", "case", "question", "doc", "passage", "claim", "citations", "passages",
           "context", "findings", "expected", "nugget", "importance", "answer", "key",
           "decision", "states", "reviewer", "date", "note")
#: The pool depth ``review export`` uses unless told otherwise.
POOL_DEPTH = 10
#: The grades a reviewer gives a passage in the queue (the scale of a relevance item).
GRADES = ((0, "0 not relevant"), (1, "1 relevant"), (2, "2 highly relevant"))


def row_choices(row):
    """``[(label, decision, states)]``: the decisions a queue row offers (its item's scale),
    in the order a reviewer meets them.

    >>> [label for label, _, _ in row_choices({"kind": "support", "expected": {"monday": []}})]
    ['supported, states monday', 'supported, states none', 'unsupported', 'not a claim']
    >>> [label for label, _, _ in row_choices({"kind": "support", "expected": {}})]
    ['supported', 'unsupported', 'not a claim']
    >>> [label for label, _, _ in row_choices({"kind": "nugget"})]
    ['support', 'partial support', 'not support']
    """
    if row["kind"] == "relevance":
        return [(label, grade, None) for grade, label in GRADES]
    if row["kind"] == "answerability":
        return [(word, word, None) for word in ("answerable", "unanswerable", "unsure")]
    if row["kind"] in ("nugget", "citation"):  # TREC RAG's three levels, highest first
        return [(word.replace("_", " "), word, None)
                for word in reversed(KINDS[row["kind"]].decisions)]
    if row["expected"]:
        found = [(f"supported, states {name}", "supported", name) for name in row["expected"]]
        found.append(("supported, states none", "supported", None))
    else:
        found = [("supported", "supported", None)]
    return found + [("unsupported", "unsupported", None), ("not a claim", "not a claim", None)]


def _row(kind, case_name, question, key, **shown):
    row = dict.fromkeys(COLUMNS, "")
    row.update(kind=kind, case=case_name, question=question, key=key, citations=[],
               passages={}, context={}, findings=[], expected={})
    row.update(shown)
    return row


def _pool(per_case, systems, depth):
    """The union of the selected systems' top ``depth`` retrieved IDs (every trial), rank by
    rank: each system's first, then each one's second, ..."""
    rankings = [run.get("retrieved") or () for system, trials in per_case.items()
                if systems is None or system in systems for run in trial_runs(trials)]
    pool = {}
    for rank in range(max((len(ranked) for ranked in rankings), default=0)):
        if depth is not None and rank >= depth:
            break
        for ranked in rankings:
            if rank < len(ranked):
                pool.setdefault(ranked[rank], None)
    return list(pool)


def _shown(corpus, docs):
    return {doc: corpus.get(doc) or "" for doc in docs}


def _done(found, reviewer, everything):
    """The items whose judgement no longer waits: judged by a person (by ``reviewer`` when
    given); none with ``everything``."""
    if everything:
        return set()
    return {item for item, by_reviewer in current(found.judgements).items.items()
            if any((record["reviewer"] == reviewer) if reviewer else not is_machine(record)
                   for record in by_reviewer.values())}


def review_queue(dataset, *, system=None, pool_depth=POOL_DEPTH, reviewer=None,
                 split="sentence", pattern=None, everything=False, citations=False,
                 answers=False):
    """The rows awaiting review (dicts with :data:`COLUMNS`; see the module docstring).
    ``pool_depth`` ``None``: every retrieved passage, ``0``: no relevance rows;
    ``citations``: offer each cited passage's support of its claim too; ``answers``: a
    claim's row also holds ``answers``, the text of each answer that makes it (what the
    review page shows around a claim)."""
    if system is not None and system not in dataset.systems:
        raise InvalidInputError(f"system {show(system)} is not in the dataset (its systems: "
                                f"{', '.join(dataset.systems) or 'none'})")
    if pool_depth is not None and (type(pool_depth) is not int or pool_depth < 0):
        raise InvalidInputError(f"pool depth must be a whole number 0 or above; got "
                                f"{show(pool_depth)}")
    systems = None if system is None else {system}
    found = labelled(dataset, split=split, pattern=pattern)
    done = _done(found, reviewer, everything)
    claims = {}
    for case_name, _, _, derived in derived_claims(dataset, systems=systems, split=split,
                                                   pattern=pattern, keyed=True, found=found):
        claims.setdefault(case_name, []).append(derived)
    rows, corpus, open_rules = [], dataset.corpus, dataset.rules.open_labels
    for case_name, per_case in dataset.runs.items():
        if systems is not None and not systems & set(per_case):
            continue
        case = dataset.cases[case_name]
        if "spans" in found.dataset.cases[case_name]:  # a span test set judges every chunk
            case = found.dataset.cases[case_name]
        question = case.get("question", "")
        if open_rules and pool_depth != 0 and "spans" not in case:
            labels = case.get("relevant") or ()
            for doc in _pool(per_case, systems, pool_depth):
                key = passage_key(doc, corpus.get(doc))
                if doc not in labels and ("relevance", case_name, key) not in done:
                    rows.append(_row("relevance", case_name, question, key, doc=doc,
                                     passage=corpus.get(doc) or ""))
        key = question_key(question)
        if open_rules and _unlabelled(case) and ("answerability", case_name, key) not in done:
            rows.append(_row("answerability", case_name, question, key))
        rows += _claim_rows(case_name, case, per_case, systems, claims.get(case_name, ()),
                            corpus, done, answers=answers)
        answered = _answers(per_case, systems, claims.get(case_name, ()))
        rows += _nugget_rows(case_name, case, answered, dataset, done,
                             split=split, pattern=pattern)
        if citations:
            rows += _citation_rows(case_name, case, answered, corpus, done)
    return rows


def _answers(per_case, systems, derived_runs):
    """``(run, derived claims or None)`` for each run that answered (every trial), the
    answer-only ones beside their derived claims."""
    derived = iter(derived_runs)
    return [(run, next(derived) if answer_only(run) else None)
            for system, trials in per_case.items() if systems is None or system in systems
            for run in trial_runs(trials) if answer_only(run) or run.get("claims") is not None]


def _shown_answer(run):
    """An answer as a reviewer reads it: its text, or its recorded claims and citations."""
    text = answer_text(run) if answer_only(run) else None
    return text if text is not None else "; ".join(
        f"{claim} [{', '.join(cited) or 'no citation'}]" for claim, cited in run["claims"])


def _nugget_rows(case_name, case, answered, dataset, done, *, split, pattern):
    """The nugget rows of one case: each answer (by its key) against each nugget the strict
    rule cannot assign."""
    listed = check_nuggets(case["nuggets"], rules=dataset.rules) if "nuggets" in case else ()
    nuggets = [nugget for nugget in case_nuggets(listed, case.get("support"))
               if not nugget.expected]
    rows, seen = [], set()
    for run, _ in answered if nuggets else ():
        answer = run_answer_key(run, dataset.corpus, split=split, pattern=pattern)
        for nugget in nuggets:
            key = assignment_key(nugget_key(nugget.id, nugget.text), answer)
            if key in seen or ("nugget", case_name, key) in done:
                continue
            seen.add(key)
            rows.append(_row("nugget", case_name, case.get("question", ""), key,
                             claim=nugget.text or nugget.id, nugget=nugget.id,
                             importance="vital" if nugget.vital else "okay",
                             answer=_shown_answer(run)))
    return rows


def _citation_rows(case_name, case, answered, corpus, done):
    """The citation rows of one case: each claim's support by each passage it cites."""
    rows, seen = [], set()
    for run, derived in answered:
        if derived is not None:
            claims = [(normalise(claim.text), claim.text, claim.citations)
                      for claim, decision in zip(derived.claims, derived.decisions)
                      if decision != "not a claim"]
        else:
            claims = [(claim, claim, cited) for claim, cited in run["claims"]]
        for text, shown, cited in claims:
            for doc in cited:
                key = citation_key(text, passage_key(doc, corpus.get(doc)))
                if key in seen or ("citation", case_name, key) in done:
                    continue
                seen.add(key)
                rows.append(_row("citation", case_name, case.get("question", ""), key,
                                 claim=shown, citations=list(cited), doc=doc,
                                 passage=corpus.get(doc) or ""))
    return rows


def _unlabelled(case):
    """True when a case's own labels do not say whether the corpus answers it."""
    relevant = case.get("relevant") or ()
    grades = relevant if type(relevant) is dict else None
    positive = {doc for doc, grade in grades.items() if grade > 0} if grades else set(relevant)
    return answerability_of({"nuggets": case.get("nuggets")}, positive, case.get("support"),
                            grades) == -1


def _claim_rows(case_name, case, per_case, systems, derived_runs, corpus, done, *,
                answers=False):
    """The support rows of one case: each (claim, cited passages) once (with ``answers``:
    each holding the text of every answer that makes it)."""
    rows, seen = [], {}
    answered = [run for system, trials in per_case.items()
                if systems is None or system in systems
                for run in trial_runs(trials) if answer_only(run)]
    expected = {name: list(sources) for name, sources in (case.get("support") or {}).items()}
    for run, derived in zip(answered, derived_runs):
        given = run.get("delivered")
        given = run.get("retrieved", ()) if given is None else given
        for claim, key in zip(derived.claims, derived.keys):
            if key in seen:
                if answers and answer_text(run) not in seen[key]["answers"]:
                    seen[key]["answers"].append(answer_text(run))
                continue
            if ("support", case_name, key) in done:
                continue
            rows.append(_row(
                "support", case_name, case.get("question", ""), key, claim=claim.text,
                citations=list(claim.citations), passages=_shown(corpus, claim.citations),
                context={} if claim.citations else _shown(corpus, given),
                findings=list(claim.findings), expected=expected))
            seen[key] = rows[-1]
            if answers:
                rows[-1]["answers"] = [answer_text(run)]
    return rows
