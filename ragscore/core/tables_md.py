"""The Markdown tables the docs carry, made from the registries so that they cannot drift:
the metrics (README's "The contract") and the gate's checks (``docs/ci.md``).

``python tools/update_docs.py`` rewrites each table between its markers; the tests compare
the files with what these functions give.
"""
from .gate import CHECKS
from .metrics import REGISTRY

__all__ = ["check_table", "metric_table"]


def _first_sentence(text):
    """The first paragraph of a docstring, on one line."""
    return " ".join((text or "").strip().split("\n\n")[0].split())


def metric_table():
    """The metric table: name, label, definition (the first paragraph of the formula's
    docstring) and when it is n/a.

    >>> metric_table().splitlines()[0]
    '| metric | label | definition | n/a when |'
    """
    lines = ["| metric | label | definition | n/a when |", "|---|---|---|---|"]
    for metric in REGISTRY.values():
        undefined = "never" if metric.defined is None else metric.undefined
        if metric.waiting is not None:
            undefined += f"; or {metric.waiting_reason}"
        lines.append(f"| `{metric.name}` | {metric.label_at('k')} | "
                     f"{_first_sentence(metric.formula.__doc__)} | {undefined} |")
    return "\n".join(lines) + "\n"


def check_table():
    """The table of the gate's checks: name, what it means, what it reads and needs.

    >>> check_table().splitlines()[0]
    '| check | passes when | metrics it reads | needs |'
    """
    lines = ["| check | passes when | metrics it reads | needs |", "|---|---|---|---|"]
    for check in CHECKS.values():
        lines.append(f"| `{check.name}` | {check.meaning} | {', '.join(check.reads)} | "
                     f"{check.needs} |")
    return "\n".join(lines) + "\n"
