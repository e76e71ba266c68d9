"""Aggregates with and without disputed questions, and the agreement table, by hand."""
from pathlib import Path

import pandas as pd
import pytest

import ragscore
from ragscore.tables.reviews import agreement_table, disputed_slice

PRACTICE = Path(__file__).resolve().parents[2] / "fixtures" / "practice"


def _with_reviews(dataset, case, reviews):
    cases = dict(dataset.cases)
    cases[case] = dict(cases[case], reviews=tuple(reviews))
    return dataset._replace(cases=cases)


@pytest.fixture
def disputed_owner(course):
    """The course with ana and ben disputing A's claim on 'owner'."""
    return _with_reviews(course, "owner", [
        {"reviewer": "ana", "system": "A", "claim": "aurora", "decision": "unsupported",
         "note": ""},
        {"reviewer": "ben", "system": "A", "claim": "aurora", "decision": "supported",
         "note": "close enough"}])


def _value(frame, system, questions, metric):
    row = frame[(frame.system == system) & (frame.questions == questions)
                & (frame.metric == metric) & (frame.method != "pooled")]
    assert len(row) == 1
    return row.iloc[0]


def test_disputed_slice_on_the_course(disputed_owner):
    # Course, k = 2, system A (README table): R@2 launch 1.00, rollback 0.50, owner 1.00,
    # region n/a (nothing relevant: unanswerable); support launch 1, rollback 1, owner 0.
    # owner is disputed. all: R@2 (1 + 0.5 + 1)/3 = 5/6, support 2/3;
    # undisputed (launch, rollback, region): R@2 (1 + 0.5)/2 = 0.75, support 1.0;
    # disputed (owner): R@2 1.0, support 0.0.
    frame = disputed_slice(disputed_owner, k=2, metrics=("recall", "support",
                                                         "abstention_correct"))
    assert list(dict.fromkeys(frame.questions)) == ["all", "undisputed", "disputed"]
    recall = {q: _value(frame, "A", q, "recall") for q in ("all", "undisputed", "disputed")}
    assert recall["all"].value == pytest.approx(5 / 6)
    assert (recall["undisputed"].value, recall["disputed"].value) == (0.75, 1.0)
    assert [recall[q].n_questions for q in recall] == [4, 3, 1]
    assert [recall[q].used for q in recall] == [3, 2, 1]
    support = {q: _value(frame, "A", q, "support").value for q in recall}
    assert support["all"] == pytest.approx(2 / 3)
    assert (support["undisputed"], support["disputed"]) == (1.0, 0.0)
    # abstention: region A answers (no); the disputed set holds no unanswerable question.
    abstention = _value(frame, "A", "undisputed", "abstention_correct")
    assert (abstention.numerator, abstention.denominator) == (0, 1)
    assert pd.isna(_value(frame, "A", "disputed", "abstention_correct").value)
    assert _value(frame, "A", "disputed", "abstention_correct").denominator == 0


def test_disputed_slice_without_reviews_keeps_everything_undisputed(course):
    frame = disputed_slice(course, k=2, metrics=("recall",))
    macro = frame[(frame.system == "B") & (frame.method == "macro")]
    assert list(macro.n_questions) == [4, 4, 0]
    assert pd.isna(_value(frame, "B", "disputed", "recall").value)


def test_disputed_slice_all_rows_match_the_report_aggregates(disputed_owner):
    frame = disputed_slice(disputed_owner, k=2)
    plain = ragscore.reports.aggregates(disputed_owner, k=2)
    every = frame[frame.questions == "all"].drop(columns=["questions", "n_questions"])
    pd.testing.assert_frame_equal(every.reset_index(drop=True), plain)


def test_disputed_slice_on_the_practice_collection():
    # 4 disputed questions (annual-days, lost-laptop-and-phone, visitor-registration,
    # salary-band; see tests/core/test_reviews.py) of 46; every system answered all 46.
    # baseline's top 3 on the disputed ones (relevant found / relevant; first relevant rank):
    #   annual-days            2026#annual, 2025#annual both in: 2/2 = 1;   rank 1
    #   lost-laptop-and-phone  3 of 4 (it#mfa missing): 3/4;                rank 1
    #   visitor-registration   all 3 visitors chunks: 3/3 = 1;              rank 1
    #   salary-band            pay-faq#bands at rank 2: 1/1 = 1;            rank 2
    # R@3 = (1 + 3/4 + 1 + 1)/4 = 0.9375; RR@3 = (1 + 1 + 1 + 1/2)/4 = 0.875.
    frame = disputed_slice(ragscore.load_dataset(PRACTICE), k=3, metrics=("recall", "rr"))
    counts = frame.groupby("questions", sort=False).n_questions.unique()
    assert {q: list(v) for q, v in counts.items()} == {"all": [46], "undisputed": [42],
                                                      "disputed": [4]}
    assert _value(frame, "baseline", "disputed", "recall").value == 0.9375
    assert _value(frame, "baseline", "disputed", "rr").value == 0.875


def test_agreement_table(disputed_owner):
    table = agreement_table(disputed_owner)
    # one shared claim, ana unsupported, ben supported: po = 0, pe = (1*0 + 0*1)/1 = 0,
    # kappa 0.
    assert table.to_dict("records") == [{"kind": "claim", "first": "ana", "second": "ben",
                                         "items": 1, "agreed": 0, "disagreed": 1, "po": 0.0,
                                         "pe": 0.0, "kappa": 0.0, "reason": ""}]


def test_agreement_table_on_the_practice_collection():
    # per kind, as worked by hand in tests/core/test_reviews.py (pooled, 27 items, 22
    # agreed, kappa 4/7, before issue 40)
    documents, claims = agreement_table(ragscore.load_dataset(PRACTICE)).to_dict("records")
    assert (documents["kind"], documents["items"], documents["agreed"],
            documents["disagreed"]) == ("doc", 19, 17, 2)
    assert (documents["po"], documents["pe"], documents["kappa"]) == (17 / 19, 219 / 361,
                                                                      52 / 71)
    assert (claims["kind"], claims["items"], claims["agreed"], claims["disagreed"]) == \
        ("claim", 8, 5, 3)
    assert (claims["po"], claims["pe"], claims["kappa"]) == (5 / 8, 1 / 2, 1 / 4)


def test_alpha_table_on_the_practice_collection():
    # documents, nominal, 19 items judged by both (38 values): relevant 15 + 13 = 28, not
    # relevant 4 + 6 = 10; disagreeing pairs 2 items x 2 = 4; expected 2*28*10 = 560;
    # alpha = 1 - 37*4/560 = 1 - 148/560 = 103/140. Claims, 16 values: supported 4 + 5 = 9,
    # unsupported 7; disagreeing 3 x 2 = 6; expected 2*9*7 = 126; alpha = 1 - 15*6/126 = 2/7.
    from ragscore.tables.reviews import alpha_table

    rows = alpha_table(ragscore.load_dataset(PRACTICE)).to_dict("records")
    assert [(row["kind"], row["level"], row["items"], row["reviewers"], row["values"])
            for row in rows] == [("doc", "nominal", 19, 2, 38), ("claim", "nominal", 8, 2, 16)]
    assert [row["alpha"] for row in rows] == [pytest.approx(103 / 140), pytest.approx(2 / 7)]


def test_agreement_table_marks_kappa_undefined(course):
    same = _with_reviews(course, "owner", [
        {"reviewer": "ana", "doc": "owners", "decision": "relevant", "note": ""},
        {"reviewer": "ben", "doc": "owners", "decision": "relevant", "note": ""}])
    table = agreement_table(same)
    assert (table.po[0], table.pe[0]) == (1.0, 1.0)
    assert pd.isna(table.kappa[0]) and table.reason[0].startswith("chance agreement is 1")
