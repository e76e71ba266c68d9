"""Many tests at once: Holm's step-down adjustment of p-values. Standard library only.

Comparing two systems on several measures, or at several cutoffs, tests several
hypotheses: with 10 tests at alpha 0.05, a difference that is only noise passes at least
one of them far more often than 5% of the time. Holm's adjustment (Holm, 1979) keeps the
chance of any false "significant" at or below alpha, whatever the dependence between the
tests, and is never less powerful than Bonferroni's.
"""

__all__ = ["holm"]


def holm(p_values):
    """Holm-adjusted p-values, in the order given: with the m p-values that are not None
    sorted ascending, p_(1) <= ... <= p_(m), the adjusted p_(i) = max over j <= i of
    min(1, (m - j + 1) * p_(j)) (statsmodels' ``multipletests(method="holm")``); a None
    (nothing tested) stays None and is not counted in m.

    >>> holm([0.01, 0.04, 0.03, None])  # m = 3: 3 * 0.01; max(2 * 0.03, 0.04); 2 * 0.03
    [0.03, 0.06, 0.06, None]
    >>> holm([0.5]), holm([])
    ([0.5], [])
    """
    tested = sorted((value, place) for place, value in enumerate(p_values) if value is not None)
    adjusted = list(p_values)
    largest = 0.0
    for rank, (value, place) in enumerate(tested):
        largest = max(largest, min(1.0, (len(tested) - rank) * value))
        adjusted[place] = largest
    return adjusted
