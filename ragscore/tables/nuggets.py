"""Each answer's assignment to each nugget, as a table (what chapter 11 and the HTML report
show beside the nugget scores).

The assignments are read from the counts the scores are read from
(:attr:`Counts.nuggets <ragscore.core.counts.Counts>`), so the table and the scores cannot
disagree. A question whose nuggets are only its expected claims, all vital and assigned by
the strict rule, has its nuggets in the claims (coverage): it has no rows here.
"""
from ..core.nuggets import assignment_at, case_nuggets, check_nuggets
from ..core.rules import OPEN
from ..core.trials import first_trial
from ..engine import DEFAULT_ENGINE, count_dataset

__all__ = ["assignment_rows", "nugget_assignments"]


def nugget_assignments(case, counts, *, k):
    """``[(Nugget, assignment or None)]`` of one question's answer at ``k``, or ``None`` when
    its nuggets are its expected claims assigned by the strict rule alone (its counts hold
    no nugget states)."""
    counts = first_trial(counts)
    if counts.nuggets is None:
        return None
    listed = check_nuggets(case["nuggets"], rules=OPEN) if "nuggets" in case else ()
    return [(nugget, assignment_at(state, k))
            for nugget, state in zip(case_nuggets(listed, case.get("support")), counts.nuggets)]


def assignment_rows(dataset, *, k, engine=DEFAULT_ENGINE, drafts=False):
    """One dict per answer and nugget, in the test set's order: ``case``, ``system``,
    ``nugget``, ``importance``, ``text`` and ``assignment`` at ``k`` (``None``: not assigned
    yet). ``drafts``: machines' drafts count where no person judged (as ``report
    --drafts``).

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> cases = dict(course.cases, rollback=dict(course.cases["rollback"],
    ...              nuggets=({"id": "smoke", "importance": "okay"},)))
    >>> [(row["system"], row["nugget"], row["assignment"]) for row in assignment_rows(
    ...     course._replace(cases=cases), k=2, engine="reference")]
    [('A', 'smoke', 'not_support'), ('A', 'switch', 'support'), ('B', 'smoke', 'support'), ('B', 'switch', 'support')]
    """
    counted = count_dataset(dataset, engine=engine, drafts=drafts)
    rows = []
    for position, (case, system) in enumerate(counted.keys):
        found = nugget_assignments(dataset.cases[case], counted.counts_at(position), k=k)
        for nugget, assignment in found or ():
            rows.append({"case": case, "system": system, "nugget": nugget.id,
                         "importance": "vital" if nugget.vital else "okay",
                         "text": nugget.text, "assignment": assignment})
    return rows
