"""The review queue use case: ``--kinds`` chooses among the queue's kinds (citation implies
the citation rows), a bad kind is refused naming the kinds, and the format follows the
output's suffix (the review page for .html)."""
import pytest

from ragscore.cli import capture
from ragscore.core.rules import InvalidInputError
from ragscore.usecases.review import queue_format, review_queue

ANSWERS = "fixtures/answers"


def test_kinds_choose_the_rows():
    every = review_queue(ANSWERS).rows
    claims = review_queue(ANSWERS, kinds=("support",)).rows
    # 19 items: 5 passages and 14 claims (tests/io/test_answer_fixture.py counts them)
    assert (len(every), len(claims)) == (19, 14)
    assert claims == [row for row in every if row["kind"] == "support"]
    cited = review_queue(ANSWERS, kinds=("citation",)).rows
    # each (claim, cited passage) once: counted from the 14 claims' citation lists, with the
    # two sentences of draft and careful that make one claim on launch counted once
    assert {row["kind"] for row in cited} == {"citation"}
    assert len(cited) == len({(row["case"], row["claim"], doc) for row in claims
                              for doc in row["citations"]})


def test_a_bad_kind_is_refused():
    with pytest.raises(InvalidInputError, match="--kinds must name kinds of the review queue "
                                                r"\(relevance, answerability, support, nugget, "
                                                r"citation\), separated by commas; got 'claims'"):
        review_queue(ANSWERS, kinds=("support", "claims"))
    code, out, err = capture(["review", "page", ANSWERS, "--out", "x.html", "--kinds", ","])
    assert (code, out) == (2, "") and "--kinds must name kinds" in err


def test_the_format_follows_the_suffix():
    assert [queue_format(out, None) for out in ("q.csv", "q.html", "q.jsonl", None)] == \
        ["csv", "html", "jsonl", "jsonl"]
    assert queue_format("q.csv", "jsonl") == "jsonl"


def test_a_claims_row_on_the_page_holds_every_answer_making_it():
    from ragscore.folders import load_dataset
    from ragscore.io.review_queue import review_queue as queued

    dataset = load_dataset(ANSWERS)
    row = next(row for row in queued(dataset, answers=True) if row["kind"] == "support")
    # draft writes "... Monday [1]." and careful "... Monday [^1]." citing launch: one item
    assert row["claim"] == "The release window starts on Monday [1]."
    assert row["answers"] == [dataset.runs["launch"]["draft"]["answer"],
                              dataset.runs["launch"]["careful"]["answer"]]
    assert "answers" not in next(iter(queued(dataset)))
