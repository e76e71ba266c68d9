"""Formatting scores for people: n/a, yes, no and a number of decimals (two unless told);
the plain-text tables: the seed's (``ragscore demo``) and the aligned one (``report``).

Standard library only, so ``ragscore demo`` never loads pandas.
"""
from decimal import ROUND_HALF_UP, Context, Decimal

from ..core.metrics import CONTRACT, select
from ..core.rules import fail
from .escape import text

#: Output formats of :func:`ragscore.render.formats.render` and ``ragscore report --format``.
def is_na(value):
    """True for ``None``, pandas' NA and a NaN (a float or a numpy float).

    >>> is_na(None), is_na(float("nan")), is_na(0.0)
    (True, True, False)
    """
    if value is None or type(value).__name__ == "NAType":
        return True
    try:
        return bool(value != value)  # NaN is the only value unequal to itself
    except (TypeError, ValueError):
        return False


def _is_bool(value):
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool")


def _is_int(value):
    return isinstance(value, int) or type(value).__name__.startswith(("int", "uint"))


def format_value(value, *, digits=2):
    """Render one score: n/a for a missing value, yes/no for a bool, a whole number for a
    count (an int), else ``digits`` decimals (two by default).

    Accepts plain Python values and the numpy and pandas scalars a table cell holds.

    >>> [format_value(v) for v in (None, True, False, 0.5, 1.0, 3)]
    ['n/a', 'yes', 'no', '0.50', '1.00', '3']
    >>> format_value(5 / 6, digits=4)
    '0.8333'

    A half rounds away from zero, as taught at school and in the workbook's exercises
    (Python's own ``f"{0.625:.2f}"`` gives ``0.62``, rounding the exact half to even):

    >>> format_value(5 / 8), format_value(1 / 8), format_value(3 / 8)
    ('0.63', '0.13', '0.38')
    """
    if is_na(value):
        return "n/a"
    if _is_bool(value):
        return "yes" if value else "no"
    if _is_int(value):
        if not -(1 << 63) <= int(value) < (1 << 63):
            fail("value", "a number, a bool or n/a", value)  # no count is this large
        return str(int(value))
    return fixed(_number(value), digits=digits)


def format_delta(value, *, digits=2):
    """Render a signed difference with ``digits`` decimals: ``+0.50``, ``-0.50``,
    ``+0.00``; n/a stays ``n/a``.

    >>> [format_delta(v) for v in (0.5, -0.5, 0.0, None)]
    ['+0.50', '-0.50', '+0.00', 'n/a']
    >>> format_delta(-1 / 6, digits=4)
    '-0.1667'
    >>> format_delta(-0.125)  # a half rounds away from zero, as in format_value
    '-0.13'
    """
    if is_na(value):
        return "n/a"
    return fixed(_number(value), digits=digits, sign=True)


#: Enough digits for any float's exact decimal form, so that rounding never overflows.
_WIDE = Context(prec=800, rounding=ROUND_HALF_UP)


def fixed(number, *, digits=2, sign=False):
    """``number`` (a float) with ``digits`` decimals, a half rounded away from zero.

    The float is read as the shortest decimal that names it (``repr``: 0.285, not the
    0.28499999999999998 it is stored as), then rounded: a value a person would call a half
    is rounded up, whatever its binary form. ``sign`` writes ``+`` before positive values.

    >>> fixed(0.625), fixed(0.285), fixed(-0.005), fixed(2 / 3, digits=3, sign=True)
    ('0.63', '0.29', '-0.01', '+0.667')
    """
    spec = f"{'+' if sign else ''}.{digits}f"
    if number != number or number in (float("inf"), float("-inf")):
        return format(number, spec)
    exact = Decimal(repr(number)).quantize(Decimal(1).scaleb(-digits), context=_WIDE)
    return format(exact, spec)


def _number(value):
    """``value`` as a float if it is a real number (numpy's included), else a clear error."""
    if isinstance(value, (str, bytes, complex)):
        fail("value", "a number, a bool or n/a", value)
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        fail("value", "a number, a bool or n/a", value)


def text_header(k, *, metrics=CONTRACT):
    """The header line of the plain-text table.

    >>> text_header(2)
    'case system | P@2 R@2 RR@2 support coverage abstention'
    """
    return "case system | " + " ".join(metric.label_at(k) for metric in select(metrics))


def text_row(case, system, scores, *, metrics=CONTRACT):
    """One line of the plain-text table from a ``{metric: value}`` mapping.

    >>> text_row("region", "B", dict.fromkeys(CONTRACT[:5]) | {"abstention_correct": True})
    'region B | n/a n/a n/a n/a n/a yes'
    """
    return f"{text(case)} {text(system)} | " + " ".join(format_value(scores[metric.name])
                                            for metric in select(metrics))


def text_table(rows, *, k, metrics=CONTRACT):
    """The plain-text table for ``(case, system, scores)`` rows, one line each."""
    return "\n".join([text_header(k, metrics=metrics)]
                     + [text_row(*row, metrics=metrics) for row in rows])


def aligned_lines(rows, *, right_from):
    """Lines of ``rows`` (lists of cells, the header first), each column as wide as its
    longest cell and two spaces apart; columns from ``right_from`` on (numbers, n/a, yes,
    no) are right-aligned.

    >>> print("\\n".join(aligned_lines([["case", "P@2"], ["a-long-name", "0.5000"],
    ...                                  ["b", "n/a"]], right_from=1)))
    case            P@2
    a-long-name  0.5000
    b               n/a
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(width) if i >= right_from else cell.ljust(width)
                      for i, (cell, width) in enumerate(zip(row, widths))).rstrip()
            for row in rows]


def aligned_table(rows, *, k, metrics=CONTRACT, digits=4):
    """The per-question table of ``ragscore report``: ``(case, system, scores)`` rows with
    ``digits`` decimals, every column as wide as its longest value (numbers right-aligned).

    >>> print(aligned_table([("region", "B", dict.fromkeys(CONTRACT[:5], 0.5)
    ...                       | {"abstention_correct": True})], k=2, digits=3))
    case    system    P@2    R@2   RR@2  support  coverage  abstention
    region  B       0.500  0.500  0.500    0.500     0.500         yes
    """
    chosen = select(metrics)
    cells = [["case", "system", *(metric.label_at(k) for metric in chosen)]]
    cells += [[text(case), text(system), *(format_value(scores[metric.name], digits=digits)
                                           for metric in chosen)]
              for case, system, scores in rows]
    return "\n".join(aligned_lines(cells, right_from=2))
