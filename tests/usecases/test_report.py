"""The report use case honours every option it is given (issue 41's seams): on 1dd5f70,
``report DIR --system B --metrics support,coverage --k 1`` printed trec_eval's default
measures and ignored --metrics and --k without a word; options that cannot combine are
refused naming both.

B at k = 1, by hand from fixtures/course: launch retrieves launch first and claims monday
(supported) and bonus (no label): support 1/2, coverage 1/1; rollback retrieves rollback
then checklist, claims switch (rank 1) and smoke (cites checklist, rank 2 > 1): support 1/2,
coverage 1/2; owner cites owners at rank 1: 1 and 1; region makes no claim and expects
none: both n/a.
"""
import csv
import io

import pytest

from ragscore.cli import capture
from ragscore.core.rules import InvalidInputError
from ragscore.usecases.report import report, report_job


def test_system_metrics_and_k_are_all_honoured():
    code, out, err = capture(["report", "fixtures/course", "--system", "B", "--metrics",
                              "support,coverage", "--k", "1", "--format", "csv"])
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["case", "system", "support", "coverage"]
    assert rows[1:] == [["launch", "B", "0.5", "1.0"], ["rollback", "B", "0.5", "0.5"],
                        ["owner", "B", "1.0", "1.0"], ["region", "B", "", ""]]


def test_the_report_of_one_system_in_python():
    found = report("fixtures/course", k=1, metrics=("support",), system="B")
    assert found.counted.column(found.metrics[0], found.k) == [0.5, 0.5, 1.0, None]


@pytest.mark.parametrize("options, names", [
    ({"failures": True, "by": "tag"}, "--failures and --by"),
    ({"by": "tag", "measures": "AP"}, "--by and --measures"),
    ({"failures": True, "metrics": ("rr",)}, "does not combine with --metrics"),
    ({"measures": "AP", "metrics": ("rr",)}, "--metrics and --measures"),
])
def test_options_that_cannot_combine_are_refused_naming_both(options, names):
    with pytest.raises(InvalidInputError, match=names):
        report_job("fixtures/course", **options)
