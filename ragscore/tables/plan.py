"""How many questions a paired comparison needs to detect a difference (``ragscore plan``).

A paired comparison of two systems over n questions tests the mean of the per-question
differences d_i = candidate_i - baseline_i with a two-sided paired t-test at level
a = 1 - confidence. If the differences have standard deviation s and a true mean delta,
the test statistic follows a noncentral t distribution with n - 1 degrees of freedom and
noncentrality delta * sqrt(n) / s, so its power is

    power(n) = P(T > t_{1-a/2, n-1}) + P(T < -t_{1-a/2, n-1}),  T ~ nct(n - 1, delta sqrt(n) / s)

:func:`questions_needed` is the least n >= 2 whose power reaches the target. The normal
approximation n = ((z_{1-a/2} + z_power) * s / delta)^2 (what ``compare --stats`` reports as
the detectable effect) is its starting point and a lower bound; the t-test needs a few more
questions when n is small. When s = 0, two questions detect any nonzero delta.
"""
import math
from statistics import NormalDist

from ..core.rules import InvalidInputError, show

__all__ = ["MAX_QUESTIONS", "check_plan", "normal_questions", "power_of", "questions_needed"]

#: The most questions a plan works out (beyond it no test set is built by people: the plan
#: is refused, saying how many the normal approximation asks).
MAX_QUESTIONS = 10_000_000


def check_plan(*, delta, power, confidence, sd=None):
    """Refuse a plan that cannot be made, naming the option: a delta of 0 (or not a finite
    number), a power or a confidence outside (0, 1), a standard deviation below 0."""
    if type(delta) not in (int, float) or not math.isfinite(delta) or delta == 0:
        raise InvalidInputError(f"--delta must be the difference to detect, a finite number "
                                f"other than 0; got {show(delta)}")
    for name, value in (("--power", power), ("--confidence", confidence)):
        if type(value) not in (int, float) or not 0 < value < 1:
            raise InvalidInputError(f"{name} must be a number strictly between 0 and 1; got "
                                    f"{show(value)}")
    if sd is not None and (type(sd) not in (int, float) or not math.isfinite(sd) or sd < 0):
        raise InvalidInputError(f"--sd must be a finite number at least 0; got {show(sd)}")


def normal_questions(sd, delta, *, power=0.8, confidence=0.95):
    """The normal approximation's n (unrounded): ((z_{1-a/2} + z_power) * sd / delta)^2.

    >>> round(normal_questions(0.2, 0.05), 2)  # (1.96 + 0.8416)^2 * 16 = 125.58
    125.58
    """
    normal = NormalDist()
    z = normal.inv_cdf(1 - (1 - confidence) / 2) + normal.inv_cdf(power)
    return (z * sd / abs(delta)) ** 2


def power_of(n, sd, delta, *, confidence=0.95):
    """The power of a two-sided paired t-test over ``n`` questions (see the module
    docstring).

    G*Power 3.1 (t tests, one sample or matched pairs, dz = 0.05 / 0.2 = 0.25, two-sided
    a = 0.05) gives 128 questions at an actual power of 0.8015:

    >>> round(power_of(128, 0.2, 0.05), 4), round(power_of(127, 0.2, 0.05), 4)
    (0.8015, 0.7984)
    """
    from scipy import stats

    if sd == 0:
        return 1.0
    df = n - 1
    critical = stats.t.ppf(1 - (1 - confidence) / 2, df)
    shift = abs(delta) * math.sqrt(n) / sd
    return float(stats.nct.sf(critical, df, shift) + stats.nct.cdf(-critical, df, shift))


def questions_needed(sd, delta, *, power=0.8, confidence=0.95):
    """The least number of paired questions (at least 2) whose paired t-test detects a mean
    difference ``delta`` with probability ``power`` when the differences have standard
    deviation ``sd``.

    >>> questions_needed(0.2, 0.05)  # G*Power: 128; the normal approximation says 126
    128
    >>> questions_needed(0.0, 0.05)
    2
    """
    check_plan(delta=delta, power=power, confidence=confidence, sd=sd)
    if sd == 0:
        return 2
    try:
        approximate = normal_questions(sd, delta, power=power, confidence=confidence)
    except OverflowError:  # (z sd / delta)^2 beyond a float
        approximate = math.inf
    if approximate > MAX_QUESTIONS:
        raise InvalidInputError(
            f"detecting --delta {show(delta)} when the paired differences have a standard "
            f"deviation of {show(sd)} needs more than {MAX_QUESTIONS:,} questions (the normal "
            f"approximation says {approximate:.3g}); plan for a larger --delta")
    n = max(2, math.ceil(approximate))
    while power_of(n, sd, delta, confidence=confidence) < power:
        n += 1
    while n > 2 and power_of(n - 1, sd, delta, confidence=confidence) >= power:
        n -= 1
    return n
