"""Aggregates per tag and per split, worked by hand on fixtures/course-runs (the course
questions with tags: launch lookup+critical, rollback multi-evidence+critical, owner lookup,
region unanswerable) and on a tiny split dataset."""
import json
from pathlib import Path

import pytest

from ragscore.cli import main
from ragscore.core.paired import split_mix
from ragscore.core.rules import InvalidInputError
from ragscore.io.course import load_course
from ragscore.folders import load_dataset
from ragscore.tables.summary import sliced_aggregates
from ragscore.tables.scores import count_dataset

RUNS = Path(__file__).resolve().parents[2] / "fixtures" / "course-runs"


def _value(frame, **where):
    rows = frame
    for key, value in where.items():
        rows = rows[rows[key] == value]
    assert len(rows) == 1, where
    return rows.iloc[0]


def test_per_tag_macro_and_pooled_by_hand():
    frame = sliced_aggregates(load_dataset(RUNS), by="tag", k=2, metrics=("recall",))
    # critical = launch + rollback. A: R@2 1/1 and 1/2 -> macro 0.75; pooled 2 hits of 3
    a = _value(frame, tag="critical", system="A", method="macro")
    assert (a["value"], a["used"], a["left_out"]) == (0.75, 2, 0)
    pooled = _value(frame, tag="critical", system="A", method="pooled")
    assert (pooled["numerator"], pooled["denominator"]) == (2, 3)
    # B retrieves both rollback notes: 1 and 1 -> 1.0
    assert _value(frame, tag="critical", system="B", method="macro")["value"] == 1.0
    # lookup = launch + owner: A 1/1 and 1/1 -> 1.0
    assert _value(frame, tag="lookup", system="A", method="macro")["value"] == 1.0
    # unanswerable = region only: recall has no defined value there
    region = _value(frame, tag="unanswerable", system="A", method="macro")
    assert region["used"] == 0 and region["value"] is __import__("pandas").NA


def test_report_by_tag_in_every_format(capsys):
    for fmt in ("text", "markdown", "csv", "html", "json"):
        assert main(["report", str(RUNS), "--by", "tag", "--metrics", "recall",
                     "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "critical" in out and "macro" in out
    assert main(["report", str(RUNS), "--by", "tag", "--metrics", "recall", "--format",
                 "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    first = records[0]
    assert set(first) >= {"tag", "system", "method", "value", "used", "left_out", "description"}
    assert any(record["value"] is None for record in records)  # n/a is null, never 0


def test_report_by_tag_text_has_four_decimals_and_numbers_right_aligned(capsys):
    assert main(["report", str(RUNS), "--by", "tag", "--metrics", "recall"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # critical, A: 2 of 3 relevant documents in the top 2 (pooled), 0.6667; n/a
    # right-aligned in the numerator column like the numbers
    critical = next(line for line in lines if line.startswith("critical        A")
                    and " pooled " in line)
    assert critical.split()[:10] == ["critical", "A", "answerable", "recall", "pooled",
                                     "0.6667", "2", "3", "2", "0"]
    assert lines[0].index("numerator") + len("numerator") == critical.index(" 2 ") + 2
    assert main(["report", str(RUNS), "--by", "tag", "--metrics", "recall",
                 "--digits", "2"]) == 0
    assert " 0.67 " in capsys.readouterr().out


def test_slicing_data_without_tags_is_a_clear_error():
    with pytest.raises(InvalidInputError, match="no case declares a tag"):
        sliced_aggregates(load_course(), by="tag")


def test_split_mix_counts_each_split():
    course = load_course()
    cases = {name: dict(case, split="dev" if name == "launch" else "heldout")
             for name, case in course.cases.items()}
    counted = count_dataset(course._replace(cases=cases))
    assert split_mix(counted) == {"dev": 1, "heldout": 3}
    assert split_mix(counted, {"rollback", "owner"}) == {}


def test_report_by_disputed_and_the_agreement_in_the_audit(capsys):
    practice = RUNS.parent / "practice"
    assert main(["report", str(practice), "--k", "3", "--by", "disputed", "--metrics",
                 "recall", "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    sizes = {(r["system"], r["questions"]): r["n_questions"] for r in records}
    # 46 questions, 4 of them holding a disputed item (tests/core/test_reviews.py)
    assert sizes[("baseline", "all")] == 46
    assert sizes[("baseline", "undisputed")] == 42
    assert sizes[("baseline", "disputed")] == 4
    assert main(["audit", str(practice), "--k", "3"]) == 0
    out = capsys.readouterr().out
    # ana and ben, per kind (tests/core/test_reviews.py; pooled before issue 40: 27 shared,
    # 22 agreed, kappa 4/7): documents 19 shared, 17 agreed, po = 17/19 = 0.89, pe =
    # 219/361 = 0.61, kappa = 52/71 = 0.73; claims 8 shared, 5 agreed, po = 5/8 = 0.625, shown 0.63 (a half rounds up),
    # pe = 0.50, kappa = 1/4 = 0.25. Numbers right-aligned under their headers, as wide as
    # the longest value
    assert "doc    ana    ben        19      17          2  0.89  0.61   0.73" in out
    assert "claim  ana    ben         8       5          3  0.63  0.50   0.25" in out
