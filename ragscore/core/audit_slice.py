"""The audit slice: a random sample of the questions, drawn from a seed alone.

A question is in the slice when a draw seeded by ``seed`` and its name (a content key read as
a number in [0, 1)) is below ``share``, or, when none is, the question with the least draw.
The draw depends on nothing a reviewer decides, so the questions ``review export --order
decision`` marks are the ones ``report --estimate ppi`` and a gate rule with ``estimate =
"ppi"`` read as people's random sample later.

Standard library only.
"""
from .labels import content_key
from .rules import InvalidInputError, show

__all__ = ["AUDIT_SHARE", "audit_cases", "audit_draw"]

#: The share of the questions drawn for the audit slice unless told otherwise.
AUDIT_SHARE = 0.1


def audit_draw(seed, case):
    """A question's draw for the audit slice: a number in [0, 1) from ``seed`` and its name.

    >>> 0 <= audit_draw(0, "launch") < 1, audit_draw(0, "launch") == audit_draw(1, "launch")
    (True, False)
    """
    return int(content_key("audit slice", seed, case), 16) / 16 ** 16


def audit_cases(cases, *, share=AUDIT_SHARE, seed=0):
    """The questions of the audit slice among ``cases`` (in their order): a draw below
    ``share``, else the one with the least draw (``share`` 0: none)."""
    if type(share) not in (int, float) or not 0 <= share <= 1:
        raise InvalidInputError(f"--audit-share must be a number from 0 to 1; got "
                                f"{show(share)}")
    if type(seed) is not int or seed < 0:
        raise InvalidInputError(f"--seed must be a whole number 0 or above; got {show(seed)}")
    cases = list(cases)
    if not share or not cases:
        return []
    draws = {case: audit_draw(seed, case) for case in cases}
    chosen = [case for case in cases if draws[case] < share]
    return chosen or [min(cases, key=draws.__getitem__)]
