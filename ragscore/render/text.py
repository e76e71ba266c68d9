"""Formatting scores for people: n/a, yes, no and two decimals; the plain-text table.

Standard library only, so ``ragscore demo`` never loads pandas.
"""
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


def format_value(value):
    """Render one score: n/a for a missing value, yes/no for a bool, a whole number for a
    count (an int), else two decimals.

    Accepts plain Python values and the numpy and pandas scalars a table cell holds.

    >>> [format_value(v) for v in (None, True, False, 0.5, 1.0, 3)]
    ['n/a', 'yes', 'no', '0.50', '1.00', '3']
    """
    if is_na(value):
        return "n/a"
    if _is_bool(value):
        return "yes" if value else "no"
    if _is_int(value):
        if not -(1 << 63) <= int(value) < (1 << 63):
            fail("value", "a number, a bool or n/a", value)  # no count is this large
        return str(int(value))
    return f"{_number(value):.2f}"


def format_delta(value):
    """Render a signed difference: ``+0.50``, ``-0.50``, ``+0.00``; n/a stays ``n/a``.

    >>> [format_delta(v) for v in (0.5, -0.5, 0.0, None)]
    ['+0.50', '-0.50', '+0.00', 'n/a']
    """
    if is_na(value):
        return "n/a"
    return f"{_number(value):+.2f}"


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
