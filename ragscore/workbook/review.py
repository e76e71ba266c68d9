"""The logic behind the review editor (:func:`ragscore.workbook.widgets.review_editor`), with
no ipywidgets in sight: what a reviewer sees of one recorded answer, and a judgement recorded
into a new :class:`~ragscore.io.dataset.Dataset` (the input is never changed).

A judgement is a review record of format version 3 in the case's ``reviews``:
``{"reviewer", "system", "claim", "decision", "note"}``, decision ``supported`` or
``unsupported``. Reviews name a system's claim, not a trial: with repeated trials, a claim
judged on one trial is judged for every trial that makes it. Disagreements come from
:func:`ragscore.core.reviews.disputed`: an item with two different decisions is disputed,
and nothing here settles it.
"""
import html

from ..core.reviews import disputed, item_of
from ..core.rules import InvalidInputError, check_k, show
from ..core.trials import trial_runs
from .cells import cell_html, header_html
from .explore import STYLE

#: What a reviewer may decide about a claim, in the order the editor offers them.
CLAIM_DECISIONS = ("supported", "unsupported")
DISPUTED_STYLE = ("<style>.ragscore-review .ragscore-disputed td,.ragscore-review "
                  ".ragscore-disputed th{background:#fde0dd}.ragscore-review td{text-align:left;"
                  "vertical-align:top}</style>")


def trials_of(dataset, case, system):
    """The recorded runs of ``system`` on ``case``, as a tuple in trial order (one run when
    the system was run once).

    >>> import ragscore
    >>> len(trials_of(ragscore.load_course(), "owner", "A"))
    1
    """
    if case not in dataset.runs:
        raise InvalidInputError(f"case must be a case with recorded runs; got {show(case)}")
    if system not in dataset.runs[case]:
        raise InvalidInputError(f"system must be one of {', '.join(dataset.runs[case])} for "
                                f"case {show(case)}; got {show(system)}")
    return trial_runs(dataset.runs[case][system])


def trial_run(dataset, case, system, *, trial=1):
    """The run of trial number ``trial`` (1 for a system run once)."""
    runs = trials_of(dataset, case, system)
    if type(trial) is not int or not 1 <= trial <= len(runs):
        raise InvalidInputError(f"trial must be an int from 1 to {len(runs)} for case "
                                f"{show(case)}, system {show(system)}; got {show(trial)}")
    return runs[trial - 1]


def context_rows(dataset, case, system, *, k=2, trial=1):
    """The context the answer was given, as plain rows: ``position``, ``chunk``, ``rank``
    (its rank in the retrieved list, or ``not retrieved``) and ``text``. The delivered
    context when the run recorded one, else the top ``k`` retrieved.

    >>> import ragscore
    >>> context_rows(ragscore.load_course(), "owner", "A", k=1)
    [{'position': 1, 'chunk': 'archive', 'rank': '1', 'text': 'An old planning note discusses a retired project.'}]
    """
    check_k(k, rules=dataset.rules)
    run = trial_run(dataset, case, system, trial=trial)
    chunks = run["delivered"] if "delivered" in run else run["retrieved"][:k]
    ranks = {doc: rank for rank, doc in enumerate(run["retrieved"], start=1)}
    return [{"position": position, "chunk": doc, "rank": str(ranks.get(doc, "not retrieved")),
             "text": _text(dataset, doc)}
            for position, doc in enumerate(chunks, start=1)]


def _text(dataset, doc):
    text = dataset.corpus.get(doc)
    return "(no text recorded)" if text is None else text


def _judgements(dataset, case, system, claim):
    """``[(reviewer, decision, note)]`` of every record on one claim, in record order."""
    item = (case, ("claim", system, claim))
    return [(review["reviewer"], review["decision"], review.get("note", ""))
            for review in dataset.cases[case].get("reviews", ())
            if item_of(case, review) == item]


def judgement_of(dataset, case, system, claim, reviewer):
    """``(decision, note)`` of ``reviewer``'s latest record on a claim, or ``(None, "")``.

    >>> import ragscore
    >>> judgement_of(ragscore.load_course(), "owner", "A", "aurora", "ana")
    (None, '')
    """
    found = [(decision, note) for name, decision, note
             in _judgements(dataset, case, system, claim) if name == reviewer]
    return found[-1] if found else (None, "")


def disputed_claims(dataset, case, system):
    """The claims of ``system`` on ``case`` that reviewers gave two different decisions."""
    items = disputed({case: dataset.cases[case]}).items
    return frozenset(item[2] for _, item in items if item[0] == "claim" and item[1] == system)


def claim_review_rows(dataset, case, system, reviewer, *, trial=1):
    """Each claim of one recorded answer as plain rows: ``claim``, ``citations``, this
    ``reviewer``'s decision and note (``not judged``), the ``others``' judgements and whether
    the claim is ``disputed`` (yes/no).

    >>> import ragscore
    >>> claim_review_rows(ragscore.load_course(), "owner", "A", "ana")
    [{'claim': 'aurora', 'citations': 'archive', 'yours': 'not judged', 'note': '', 'others': '(none)', 'disputed': 'no'}]
    """
    run = trial_run(dataset, case, system, trial=trial)
    contested = disputed_claims(dataset, case, system)
    rows = []
    for claim, citations in run.get("claims") or ():
        decision, note = judgement_of(dataset, case, system, claim, reviewer)
        others = [f"{name}: {said}" + (f" ({remark})" if remark else "")
                  for name, said, remark in _judgements(dataset, case, system, claim)
                  if name != reviewer]
        rows.append({"claim": claim, "citations": ", ".join(citations) or "(none)",
                     "yours": decision or "not judged", "note": note,
                     "others": "; ".join(others) or "(none)",
                     "disputed": "yes" if claim in contested else "no"})
    return rows


def disagreements(dataset, case):
    """Every disputed item of ``case`` (documents and claims of any system) as plain rows:
    ``item`` (``doc <id>`` or ``<system> claim <claim>``) and each reviewer's ``decisions``.

    >>> import ragscore
    >>> disagreements(ragscore.load_course(), "owner")
    []
    """
    if case not in dataset.cases:
        raise InvalidInputError(f"case must be a case of the dataset; got {show(case)}")
    rows = []
    for (_, item), judged in disputed({case: dataset.cases[case]}).items.items():
        name = f"doc {item[1]}" if item[0] == "doc" else f"{item[1]} claim {item[2]}"
        rows.append({"item": name, "decisions": "; ".join(f"{reviewer}: {decision}"
                                                          for reviewer, decision
                                                          in judged.items())})
    return rows


def record_judgement(dataset, case, system, claim, reviewer, decision, note=""):
    """A new dataset in which ``reviewer``'s judgement of ``system``'s ``claim`` on ``case``
    is ``decision`` (``supported`` or ``unsupported``) with ``note``; ``decision=None``
    withdraws it. The reviewer's earlier record of that claim is replaced where it stood
    (any further copies dropped); other reviewers' records are kept as they are, so a
    disagreement stays visible. ``dataset`` and its dicts are not changed.

    >>> import ragscore
    >>> course = ragscore.load_course()
    >>> after = record_judgement(course, "owner", "A", "aurora", "ana", "unsupported",
    ...                          "cites the archive")
    >>> after.cases["owner"]["reviews"]
    ({'reviewer': 'ana', 'system': 'A', 'claim': 'aurora', 'decision': 'unsupported', 'note': 'cites the archive'},)
    >>> "reviews" in course.cases["owner"]
    False
    """
    runs = trials_of(dataset, case, system)
    made = list(dict.fromkeys(name for run in runs for name, _ in run.get("claims") or ()))
    if claim not in made:
        raise InvalidInputError(f"claim must be one of the claims {system!r} makes on case "
                                f"{case!r} ({', '.join(made) or 'none'}); got {show(claim)}")
    if type(reviewer) is not str or not reviewer.strip():
        raise InvalidInputError(f"reviewer must be a non-blank string (your name); got "
                                f"{show(reviewer)}")
    if decision is not None and decision not in CLAIM_DECISIONS:
        raise InvalidInputError(f"decision must be one of {', '.join(CLAIM_DECISIONS)} (or None "
                                f"to withdraw a judgement); got {show(decision)}")
    if type(note) is not str:
        raise InvalidInputError(f"note must be a string; got {show(note)}")
    reviewer = reviewer.strip()
    item = (case, ("claim", system, claim))
    record = {"reviewer": reviewer, "system": system, "claim": claim, "decision": decision,
              "note": note}
    reviews, placed = [], decision is None
    for review in dataset.cases[case].get("reviews", ()):
        if review["reviewer"] == reviewer and item_of(case, review) == item:
            if not placed:
                reviews.append(record)
                placed = True
            continue
        reviews.append(review)
    if not placed:
        reviews.append(record)
    case_after = {key: value for key, value in dataset.cases[case].items() if key != "reviews"}
    if reviews:
        case_after["reviews"] = tuple(reviews)
    return dataset._replace(cases={**dataset.cases, case: case_after})


def _table(rows, *, attrs=lambda row: "", columns=None):
    columns = columns or (list(rows[0]) if rows else [])
    head = "".join(f"<th>{header_html(column)}</th>" for column in columns)
    body = "".join(f"<tr{attrs(row)}>" + "".join(f"<td>{cell_html(row[column])}</td>"
                                                 for column in columns) + "</tr>"
                   for row in rows)
    return f'<table class="ragscore-table"><tr>{head}</tr>{body}</table>'


def review_html(dataset, case, system, reviewer, *, k=2, trial=1):
    """What the review editor shows, as HTML: the question, the answer text, the context
    given to the answer with each chunk's text, each claim with its citations and the
    judgements so far (disputed claims highlighted, class ``ragscore-disputed``), and every
    disagreement on this question."""
    runs = trials_of(dataset, case, system)
    run = trial_run(dataset, case, system, trial=trial)
    question = dataset.cases[case].get("question") or "(no question text)"
    answer = run.get("answer")
    given = "delivered context" if "delivered" in run else f"top {k} retrieved"
    trials = (f" (trial {trial} of {len(runs)}; judgements apply to the claim in every trial)"
              if len(runs) > 1 else "")
    claims = claim_review_rows(dataset, case, system, reviewer or "", trial=trial)
    # a disputed claim's row is shaded and named under the heading, and your note is shown
    # with your decision, not each given a column of its own: six columns did not fit a
    # projected page at 200%
    shown = [dict(row, yours=row["yours"] + (f" (note: {row['note']})" if row["note"] else ""))
             for row in claims]
    claims_html = _table(shown, columns=("claim", "citations", "yours", "others"),
                         attrs=lambda row: (
        f' class="ragscore-disputed" data-claim="{html.escape(row["claim"])}"'
        if row["disputed"] == "yes" else f' data-claim="{html.escape(row["claim"])}"')) \
        if claims else "<p>No claims: the answer abstains.</p>"
    contested = [row["claim"] for row in claims if row["disputed"] == "yes"]
    shaded = (f"; disputed, shaded: {', '.join(contested)}" if contested else "")
    disputes = disagreements(dataset, case)
    disputes_html = (_table(disputes) if disputes else
                     "<p>No disagreements on this question.</p>")
    return (STYLE + DISPUTED_STYLE
            + f'<div class="ragscore-review" data-case="{html.escape(case)}" '
            f'data-system="{html.escape(system)}" data-trial="{trial}">'
            f"<p><b>Question</b> ({html.escape(case)}): {html.escape(question)}</p>"
            f"<p><b>Answer</b> of {html.escape(system)}{html.escape(trials)}: "
            f"{html.escape(answer) if answer else '<i>(no answer text recorded)</i>'}</p>"
            f"<p><b>Context</b>: {html.escape(given)}</p>"
            + _table(context_rows(dataset, case, system, k=k, trial=trial))
            + f"<p><b>Claims</b> (your judgement as {html.escape(reviewer or '(no name yet)')}"
              f"{html.escape(shaded)})</p>" + claims_html
            + "<p><b>Disagreements</b></p>" + disputes_html + "</div>")
