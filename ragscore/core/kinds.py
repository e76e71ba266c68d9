"""The kinds of metric value: a rate in [0, 1], a yes/no, a count of things per question.

Apart from :mod:`ragscore.core.metrics` so that modules the registry reads (repeated trials,
:mod:`ragscore.core.trials`) can name them without loading the registry first.
"""

RATE = "rate"
YES_NO = "yes/no"
COUNT = "count"
