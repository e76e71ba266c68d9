"""Batch scoring: every (case, system) run of a test set, as one pandas table."""
from .scoring import METRICS, score_values
from .validation import InvalidInputError, check_k, show, validate_case, validate_corpus, \
    validate_run

#: pandas dtypes of the result columns: nullable, so n/a stays <NA> and never becomes 0 or NaN.
DTYPES = {name: "Float64" for name in METRICS[:5]} | {"abstention_correct": "boolean"}


def _require_dict(value, field):
    if type(value) is not dict:
        raise InvalidInputError(f"{field} must be a dict; got {show(value)}")


def iter_scores(corpus, cases, runs, *, k=2, progress=None):
    """Yield ``(case, system, scores)`` for every run in ``runs[case][system]``, in input order.

    ``scores`` is the dict :func:`ragscore.evaluate` returns.
    """
    for case_name, system, values in iter_score_values(corpus, cases, runs, k=k,
                                                       progress=progress):
        yield case_name, system, dict(zip(METRICS, values))


def iter_score_values(corpus, cases, runs, *, k, progress=None):
    """Yield ``(case, system, values)``, the six metrics as a tuple in :data:`METRICS` order.

    The corpus is validated once and each case once, however many systems ran it. An error
    names the case and system. ``progress``, if given, is called as ``progress(done, total)``
    after each case. Pure Python: no pandas needed.
    """
    check_k(k)
    known = validate_corpus(corpus)
    _require_dict(cases, "cases")
    _require_dict(runs, "runs")
    total = len(runs)
    for done, (case_name, systems) in enumerate(runs.items(), start=1):
        if case_name not in cases:
            raise InvalidInputError(
                f"runs[{show(case_name)}] names a case that is not in cases")
        try:
            relevant, support = validate_case(cases[case_name], known)
        except InvalidInputError as error:
            raise InvalidInputError(f"case {show(case_name)}: {error}") from None
        _require_dict(systems, f"runs[{show(case_name)}]")
        for system, run in systems.items():
            try:
                retrieved, claims = validate_run(run, known)
            except InvalidInputError as error:
                raise InvalidInputError(
                    f"case {show(case_name)}, system {show(system)}: {error}") from None
            yield case_name, system, score_values(relevant, support, retrieved, claims, k)
        if progress is not None:
            progress(done, total)


def _index(runs, pd):
    """The ``(case, system)`` MultiIndex of ``runs``, built from integer codes (fast)."""
    import numpy as np

    case_level = list(runs)
    system_codes = {}
    codes = [system_codes.setdefault(system, len(system_codes))
             for systems in runs.values() for system in systems]
    counts = [len(systems) for systems in runs.values()]
    return pd.MultiIndex(
        levels=[pd.Index(case_level, dtype=object), pd.Index(list(system_codes), dtype=object)],
        codes=[np.repeat(np.arange(len(case_level)), counts), np.array(codes, dtype=np.intp)],
        names=["case", "system"], verify_integrity=False)


def _column(values, dtype, pd):
    """A nullable pandas array from Python values where ``None`` means n/a."""
    import numpy as np

    mask = np.fromiter((value is None for value in values), dtype=bool, count=len(values))
    if dtype == "boolean":
        data = np.fromiter((value is True for value in values), dtype=bool, count=len(values))
        return pd.arrays.BooleanArray(data, mask)
    data = np.fromiter((0.0 if value is None else value for value in values), dtype=float,
                       count=len(values))
    return pd.arrays.FloatingArray(data, mask)


def score_runs(corpus, cases, runs, *, k=2, progress=None):
    """Score every ``runs[case][system]`` and return a DataFrame, one row per pair.

    The index is ``("case", "system")`` in input order; the columns are the six metrics of
    :func:`ragscore.evaluate` in contract order, with nullable dtypes (``Float64``,
    ``boolean``) so n/a is ``<NA>``. See :func:`iter_scores` for validation and ``progress``.

    >>> from ragscore.course import load_course
    >>> course = load_course()
    >>> table = score_runs(course.corpus, course.cases, course.runs, k=2)
    >>> table.loc[("rollback", "A"), "precision"]
    np.float64(0.5)
    """
    import pandas as pd

    columns = precision, recall, rr, support, coverage, abstention = [[] for _ in METRICS]
    for _, _, values in iter_score_values(corpus, cases, runs, k=k, progress=progress):
        # Six plain appends per row: no per-row container survives, so the garbage
        # collector has nothing to re-walk on a large test set.
        precision.append(values[0])
        recall.append(values[1])
        rr.append(values[2])
        support.append(values[3])
        coverage.append(values[4])
        abstention.append(values[5])
    data = {name: _column(values, DTYPES[name], pd) for name, values in zip(METRICS, columns)}
    return pd.DataFrame(data, index=_index(runs, pd), copy=False)
