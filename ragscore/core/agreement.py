"""Agreement between reviewers beyond chance, in exact fractions: Cohen's kappa for two
reviewers, Krippendorff's alpha for any number, each on one decision scale.

Standard library only; :mod:`ragscore.core.reviews` applies them to a test set's reviews,
one kind of decision at a time (kappa is never pooled across kinds).
"""
from collections import Counter
from fractions import Fraction

__all__ = ["ALPHA_UNDEFINED", "NO_SHARED_ITEMS", "ONE_CATEGORY", "ONE_VALUE", "cohen_kappa",
           "krippendorff_alpha"]

NO_SHARED_ITEMS = "no item judged by both"
ONE_CATEGORY = ("chance agreement is 1: both reviewers gave every shared item the same one "
                "category")
ONE_VALUE = "fewer than two decisions on items judged twice or more: nothing to compare"
ALPHA_UNDEFINED = ("every decision on items judged twice or more is the same one: expected "
                   "disagreement is 0")


def cohen_kappa(pairs):
    """``(po, pe, kappa, reason)`` of two reviewers' categories over the same items, given
    as ``(first's category, second's category)`` pairs (any categories: a grade, a word, a
    yes/no). Cohen's kappa:

        po    = (items given the same category) / n
        pe    = sum over the categories c of (first's count of c / n) * (second's count / n)
        kappa = (po - pe) / (1 - pe)

    where n is the number of items both judged. Undefined (``None``, with the reason) when
    no item was judged by both (n = 0), and kappa alone when pe = 1 (both gave every item
    one and the same category).

    Four items, first 1 1 2 2, second 1 2 2 2: po = 3/4, pe = (2*1 + 2*3)/16 = 1/2,
    kappa = (3/4 - 1/2)/(1 - 1/2) = 1/2.

    >>> cohen_kappa([(1, 1), (1, 2), (2, 2), (2, 2)])
    (Fraction(3, 4), Fraction(1, 2), Fraction(1, 2), '')
    """
    n = len(pairs)
    if not n:
        return None, None, None, NO_SHARED_ITEMS
    po = Fraction(sum(1 for a, b in pairs if a == b), n)
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    pe = Fraction(sum(count * second[category] for category, count in first.items()), n * n)
    if pe == 1:
        return po, pe, None, ONE_CATEGORY
    return po, pe, (po - pe) / (1 - pe), ""


def krippendorff_alpha(units, *, level="nominal"):
    """``(alpha, pairable, reason)``: Krippendorff's alpha of the decisions ``units`` hold
    (one list per item: every reviewer's decision on it), ``level`` ``"nominal"`` or
    ``"ordinal"`` (ordered categories such as grades); ``pairable`` is how many decisions
    it is computed from (those on items judged twice or more).

    From the coincidences of the values within each unit (Krippendorff, *Computing
    Krippendorff's Alpha-Reliability*, 2011): a unit of m_u values adds 1 / (m_u - 1) to
    o[c][k] for each ordered pair of its values (c, k) taken from two different reviewers;
    n_c = sum over k of o[c][k] and n = sum of n_c (units with one value add nothing);

        alpha = 1 - (n - 1) * sum over c, k of o[c][k] * d(c, k)
                          / sum over c, k of n_c * n_k * d(c, k)

    with the squared difference d(c, k) = 0 when c = k, else 1 (nominal), or, for ordinal
    categories in their order, d(c, k) = (n_c + ... + n_k - (n_c + n_k) / 2) ** 2 (the
    categories between c and k included). Undefined (``None``, with the reason) when n < 2
    or when every pairable value is the same one (expected disagreement 0).

    Three items judged by two reviewers, (1, 1), (1, 2), (2, 2), nominal: o[1][1] = 2,
    o[1][2] = o[2][1] = 1, o[2][2] = 2; n_1 = n_2 = 3, n = 6; alpha = 1 - 5 * 2 / (2 * 9) =
    4/9. Grades (0, 1), (1, 2), (2, 2), ordinal: n_0 = 1, n_1 = 2, n_2 = 3;
    d(0, 1) = (3 - 3/2)**2 = 9/4, d(1, 2) = (5 - 5/2)**2 = 25/4, d(0, 2) = (6 - 2)**2 = 16;
    observed 2 * 9/4 + 2 * 25/4 = 17, expected 2 * (2 * 9/4 + 6 * 25/4 + 3 * 16) = 180;
    alpha = 1 - 5 * 17 / 180 = 19/36.

    >>> krippendorff_alpha([["a", "a"], ["a", "b"], ["b", "b"]])
    (Fraction(4, 9), 6, '')
    >>> krippendorff_alpha([[0, 1], [1, 2], [2, 2]], level="ordinal")
    (Fraction(19, 36), 6, '')
    """
    if level not in ("nominal", "ordinal"):
        raise ValueError(f"level must be 'nominal' or 'ordinal'; got {level!r}")
    coincidences = Counter()
    for values in units:
        m = len(values)
        if m < 2:
            continue
        counts = Counter(values)
        for c, count_c in counts.items():
            for k, count_k in counts.items():
                pairs = count_c * (count_k - (c == k))
                if pairs:
                    coincidences[c, k] += Fraction(pairs, m - 1)
    margins = Counter()
    for (c, _), value in coincidences.items():
        margins[c] += value
    n = sum(margins.values())
    if n < 2:
        return None, int(n), ONE_VALUE
    categories = sorted(margins) if level == "ordinal" else list(margins)
    distance = _ordinal(categories, margins) if level == "ordinal" else \
        (lambda c, k: 0 if c == k else 1)
    observed = sum(value * distance(c, k) for (c, k), value in coincidences.items())
    expected = sum(margins[c] * margins[k] * distance(c, k)
                   for c in categories for k in categories)
    if expected == 0:
        return None, int(n), ALPHA_UNDEFINED
    return 1 - (n - 1) * observed / expected, int(n), ""


def _ordinal(categories, margins):
    """The ordinal squared difference of two of ``categories`` (in their order)."""
    place = {category: position for position, category in enumerate(categories)}
    running = [Fraction(0)]
    for category in categories:
        running.append(running[-1] + margins[category])

    def distance(c, k):
        low, high = sorted((place[c], place[k]))
        if low == high:
            return 0
        between = running[high + 1] - running[low]
        return (between - (margins[categories[low]] + margins[categories[high]]) / 2) ** 2

    return distance
