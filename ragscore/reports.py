"""Reports that keep every question visible, in one place: the public names of the tables
layer (:mod:`ragscore.tables`) and of the output formats (:mod:`ragscore.render.formats`).

>>> import ragscore
>>> ragscore.reports.render(ragscore.reports.question_table(ragscore.load_course()),
...                         fmt="text").splitlines()[5]
'owner A | 0.50 1.00 0.50 0.00 0.00 n/a'
"""
from .render.formats import render
from .tables.audit import audit
from .tables.compare import VERDICTS, compare
from .tables.nuggets import assignment_rows
from .tables.reviews import agreement_table, alpha_table, disputed_slice
from .tables.scores import count_dataset, question_table
from .tables.stats import paired_stats, stats_table
from .tables.summary import aggregates, answerable, claim_counts, sweep

__all__ = ["VERDICTS", "aggregates", "agreement_table", "alpha_table", "answerable",
           "assignment_rows", "audit", "claim_counts",
           "compare", "count_dataset", "disputed_slice", "paired_stats", "question_table",
           "render", "stats_table", "sweep"]
