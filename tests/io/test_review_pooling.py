"""A question whose answer is not labelled (an imported log) is labelled by its reviews:
claims judged supported pool its expected claims and their sources, and the strict citation
rule scores them (docs/answers.md, "Questions without expected claims")."""
import json

import pytest

from ragscore import InvalidInputError
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.folders import load_dataset
from ragscore.importers import import_log
from ragscore.io.review_queue import add_judgements, read_decisions, review_queue

ANSWERS = [
    {"question": "When does the window open?",
     "answer": "The window opens on Monday [1]. Rollback takes two steps [2].",
     "retrieved": ["launch", "rollback"]},
    {"question": "Who owns the launch?", "answer": "Ana owns the launch [1].",
     "retrieved": ["owners", "launch"]},
]


@pytest.fixture
def dataset(tmp_path):
    log = tmp_path / "answers.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in ANSWERS))
    imported, _ = import_log(log, system="mine")
    return imported


def _decide(dataset, decisions, **extra):
    rows = review_queue(dataset, system="mine")
    lines = []
    for row, decision in zip(rows, decisions):
        row.update(decision=decision, reviewer="ana", date="2026-12-04", **extra.get(
            row["key"], {}))
        lines.append(json.dumps(row))
    return add_judgements(dataset, read_decisions("\n".join(lines), dataset, kind="jsonl"))


def _values(dataset, name, k):
    counted = count_dataset(dataset)
    return dict(zip([case for case, _ in counted.keys],
                    counted.values(REGISTRY[name], k)))


def test_claims_judged_supported_are_supported(dataset):
    before = _values(dataset, "support", 2)
    assert set(before.values()) == {None}  # nothing reviewed: not assessed, not 0
    reviewed = _decide(dataset, ["supported", "unsupported", "supported"])
    window, owner = (name for name in reviewed.cases)
    support = _values(reviewed, "support", 2)
    # window: "opens on Monday [1]" cites launch (rank 1, its judged source): supported;
    # "Rollback takes two steps [2]" judged unsupported: 1 of 2 claims = 0.5
    # owner: "Ana owns the launch [1]" cites owners (rank 1): 1 of 1 = 1.0
    assert support == {window: 0.5, owner: 1.0}
    # each question now expects the one claim judged supported, and states it: 1 of 1
    assert _values(reviewed, "coverage", 2) == {window: 1.0, owner: 1.0}
    # the cited IDs became the sources, and relevant: launch at rank 1 of 2 -> P@2 = 0.5
    assert _values(reviewed, "precision", 2) == {window: 0.5, owner: 0.5}


def test_sources_narrower_than_the_citations_follow_the_strict_rule(dataset):
    rows = review_queue(dataset, system="mine")
    key = rows[2]["key"]  # "ana owns the launch"
    # the reviewer says only 'launch' supports it, but the claim cites 'owners': the strict
    # rule (every cited ID labelled for the claim) leaves it unsupported: 0 of 1
    reviewed = _decide(dataset, ["supported", "supported", "supported"],
                       **{key: {"sources": ["launch"]}})
    owner = list(reviewed.cases)[1]
    assert _values(reviewed, "support", 2)[owner] == 0.0


def test_one_name_for_two_sentences_is_one_expected_claim(dataset):
    rows = review_queue(dataset, system="mine")
    same = {row["key"]: {"states": "plan"} for row in rows[:2]}
    reviewed = _decide(dataset, ["supported", "supported", "supported"], **same)
    window = list(reviewed.cases)[0]
    case = count_dataset(reviewed)
    # both sentences state "plan" (sources launch + rollback): the first counts for it,
    # the second is an extra claim (the strict rule: one claim per expected claim)
    assert _values(reviewed, "coverage", 2)[window] == 1.0
    assert case.field("n_expected")[0] == 1


def test_a_supported_claim_citing_nothing_needs_sources(dataset, tmp_path):
    log = tmp_path / "bare.jsonl"
    log.write_text(json.dumps({"question": "Why?", "answer": "Because it is late.",
                               "retrieved": ["launch"]}) + "\n")
    bare, _ = import_log(log, system="mine")
    row = review_queue(bare, system="mine")[0]
    row.update(decision="supported", reviewer="ana", date="2026-12-04")
    with pytest.raises(InvalidInputError, match=r"line 1: field 'sources' is empty"):
        read_decisions(json.dumps(row), bare, kind="jsonl")
    row.update(sources=["launch"], states=" padded")
    with pytest.raises(InvalidInputError, match=r"line 1: field 'states' must be a claim"):
        read_decisions(json.dumps(row), bare, kind="jsonl")


def test_a_labelled_question_keeps_its_labels(tmp_path):
    from ragscore.io.course import COURSE_PATH

    course = load_dataset(COURSE_PATH)
    assert all(case.get("support") is not None for case in course.cases.values())
    from ragscore.io.answers import labelled_by_reviews
    from ragscore.core.answers import judgements_of

    assert labelled_by_reviews(course, judgements_of(course.cases)) == {}
