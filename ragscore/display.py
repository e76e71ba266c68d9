"""Formatting scores for people: n/a, yes, no and two decimals."""
import sys

from .scoring import METRICS, metric_labels

#: Output formats of :func:`ragscore.reports.render` and ``ragscore report --format``.
FORMATS = ("text", "markdown", "csv", "html", "json")
#: Verdicts of a paired comparison, in the order a report lists them (regressions first).
VERDICTS = ("regressed", "no longer defined", "newly defined", "improved", "unchanged")


def format_value(value):
    """Render one score: ``None`` or pandas NA as ``n/a``, a bool as ``yes``/``no``, else 0.00.

    >>> [format_value(v) for v in (None, True, False, 0.5, 1)]
    ['n/a', 'yes', 'no', '0.50', '1.00']
    """
    if value is None or _is_na(value):
        return "n/a"
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "yes" if value else "no"
    return f"{value:.2f}"


def format_delta(value):
    """Render a signed difference: ``+0.50``, ``-0.50``, ``+0.00``; n/a stays ``n/a``.

    >>> [format_delta(v) for v in (0.5, -0.5, 0.0, None)]
    ['+0.50', '-0.50', '+0.00', 'n/a']
    """
    if value is None or _is_na(value):
        return "n/a"
    return f"{value:+.2f}"


def _is_na(value):
    """True for pandas' NA (only possible once pandas is loaded) and for a float NaN."""
    pandas = sys.modules.get("pandas")
    if pandas is not None and value is pandas.NA:
        return True
    return isinstance(value, float) and value != value


def text_header(k):
    """The header line of the plain-text table.

    >>> text_header(2)
    'case system | P@2 R@2 RR@2 support coverage abstention'
    """
    return "case system | " + " ".join(metric_labels(k))


def text_row(case, system, scores):
    """One line of the plain-text table from a ``{metric: value}`` mapping.

    >>> text_row("region", "B", dict.fromkeys(METRICS[:5]) | {"abstention_correct": True})
    'region B | n/a n/a n/a n/a n/a yes'
    """
    return f"{case} {system} | " + " ".join(format_value(scores[name]) for name in METRICS)


def text_table(rows, *, k):
    """The plain-text table for ``(case, system, scores)`` rows, one line each."""
    return "\n".join([text_header(k)] + [text_row(*row) for row in rows])
