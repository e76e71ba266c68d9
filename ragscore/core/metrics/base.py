"""What a metric is: a name, a label at k, a kind, a formula over counts and its undefined case."""
from collections import namedtuple

RATE = "rate"
YES_NO = "yes/no"
COUNT = "count"


class Pooled(namedtuple("Pooled", "numerator denominator numerator_name denominator_name")):
    """How a rate pools over questions: summed numerators over summed denominators.

    ``numerator`` and ``denominator`` take ``(counts, k)`` and return integers; the names
    say what they count, for the sentence that declares the aggregate.
    """

    __slots__ = ()


class Metric(namedtuple("Metric", "name label kind stage value undefined slice pooled yes_means "
                                  "lower_is_better",
                        defaults=("answerable", None, "", False))):
    """One metric, defined once.

    ``value(counts, k)`` returns a float in [0, 1] (a rate), a bool (yes/no), an int >= 0 (a
    count of things per question) or ``None`` when the metric is undefined for that question
    (``undefined`` says when, in words).
    ``slice`` is the questions the metric is meant for: ``answerable``, ``unanswerable`` or
    ``all``.
    ``pooled`` says how a rate pools over questions (``None``: it is only macro-averaged);
    ``yes_means`` says in words what a yes of a yes/no metric stands for;
    ``lower_is_better`` marks metrics where a rise is a regression (counts of problems).
    """

    __slots__ = ()

    def label_at(self, k):
        """The short column label at cutoff ``k`` (``P@2``); ``k="k"`` gives ``P@k``."""
        return self.label.format(k=k)
