"""Use cases: one function per job, each reading its inputs once and returning one result.

The command line (:mod:`ragscore.cli`), the notebooks and :mod:`ragscore.reports` call the
same functions. Each result is a small record with its fields and a table of writers by
format (``result.writers``: text, markdown, csv, json, html, github, trec_eval's layout
where it applies), so a format is chosen, never tested for, by whoever prints it.

====================  =========================================  ==========================
job                   function                                   result
====================  =========================================  ==========================
report                :func:`~.report.report`                    :class:`~.report.Report`
report --by           :func:`~.report.sliced_report`             :class:`~.report.Sliced`
report --failures     :func:`~.report.failures_report`           :class:`~.report.Failures`
report --measures     :func:`~.measured.measured`                :class:`~.measured.Measured`
eval                  :func:`~.measured.evaluate_files`          :class:`~.measured.Measured`
compare               :func:`~.compare.compare`                  :class:`~.compare.Comparison`
audit                 :func:`~.audit.audit`                      :class:`~.audit.Audit`
sweep                 :func:`~.sweep.sweep`                      :class:`~.sweep.Sweep`
gate                  :func:`~.gate.gate`                        :class:`~.gate.Verdict`
baseline save/verify  :mod:`~.baselines`                         ``SavedBaseline``, ``BaselineCheck``
review export         :func:`~.review.review_queue`              :class:`~.review.Queue`
review page           :func:`~.review.review_page`               :class:`~.review.Queue`
labels                :func:`~.spans.span_labels`                :class:`~.spans.SpanLabels`
html                  :func:`~.share.share_page`                 :class:`~.share.Shared`
====================  =========================================  ==========================
"""
from .audit import Audit, audit
from .compare import Comparison, compare
from .gate import Verdict, gate
from .measured import Measured, evaluate_files, measured
from .report import Failures, Report, Sliced, demo, failures_report, report, sliced_report
from .review import Queue, claims, review_queue
from .spans import SpanLabels, span_labels
from .sweep import Sweep, sweep

__all__ = ["Audit", "Comparison", "Failures", "Measured", "Queue", "Report", "Sliced",
           "SpanLabels", "Sweep", "Verdict", "audit", "claims", "compare", "demo",
           "evaluate_files", "failures_report", "gate", "measured", "report", "review_queue",
           "sliced_report", "span_labels", "sweep"]
