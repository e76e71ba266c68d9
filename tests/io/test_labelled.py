"""Judgements applied to a test set (docs/labels.md): keyed by case and content, relevance
read from the judged pool and never from what an answer cited, a stricter review never
raising a mean, a question nobody labelled n/a and never unanswerable. Values by hand."""
import json

import pytest

from ragscore.core.aggregate import aggregates, label_notes
from ragscore.core.metrics import REGISTRY
from ragscore.engine import ENGINES, count_dataset
from ragscore.io.answers import labelled
from ragscore.io.dataset import Dataset
from ragscore.io.queue_file import add_judgements, read_decisions
from ragscore.io.review_queue import review_queue


def judged(dataset, decide, *, reviewer="ana", pool_depth=10):
    """``dataset`` with the decisions ``decide(row)`` gives (``None``: left open) stored
    through the queue, as a person's filled-in file."""
    rows = review_queue(dataset, pool_depth=pool_depth, everything=True)
    for row in rows:
        row["decision"] = decide(row)
        if row["decision"] is None:
            row["decision"] = ""
        row.update(reviewer=reviewer, date="2026-12-04")
    text = "".join(json.dumps(row) + "\n" for row in rows)
    return add_judgements(dataset, read_decisions(text, dataset, kind="jsonl"))


def values(dataset, name, k=2, engine="reference"):
    counted = count_dataset(dataset, engine=engine)
    return dict(zip(counted.keys, counted.values(REGISTRY[name], k)))


def reasons(dataset, name, k=2):
    counted = count_dataset(dataset)
    return dict(zip(counted.keys, counted.reasons(REGISTRY[name], k)))


# ---- two cases asking one question ---------------------------------------------------------

TICKETS = Dataset(
    ids="open",
    corpus={"s1": "Ticket 1 is closed.", "s2": "Ticket 2 is open.", "faq": "Tickets move."},
    cases={"t1": {"question": "What is the status of my ticket?", "relevant": ()},
           "t2": {"question": "What is the status of my ticket?", "relevant": ()}},
    runs={"t1": {"A": {"retrieved": ("s1", "faq"), "answer": "It is closed [1]."}},
          "t2": {"A": {"retrieved": ("s2", "faq"), "answer": "It is closed [1]."}}})


def test_a_review_of_one_case_never_scores_another_asking_the_same_question():
    def decide(row):
        if row["case"] != "t1":
            return None
        return {"relevance": 1 if row["doc"] == "s1" else 0, "answerability": "answerable",
                "support": "supported"}[row["kind"]]

    reviewed = judged(TICKETS, decide)
    for engine in ENGINES:
        # t1: s1 relevant at rank 1, the claim supported; t2: nothing labelled, its claim
        # (the same words, another passage) awaits review: n/a, never t1's values
        assert values(reviewed, "precision", 1, engine) == {("t1", "A"): 1.0,
                                                            ("t2", "A"): None}
        assert values(reviewed, "support", 2, engine) == {("t1", "A"): 1.0, ("t2", "A"): None}
    assert reasons(reviewed, "precision")[("t2", "A")] == "not labelled yet"
    assert reasons(reviewed, "support")[("t2", "A")] == "not assessed: 1 claim awaits review"
    # t2 is still offered for review: its passages, its question, its claim
    assert [(row["kind"], row.get("doc")) for row in review_queue(reviewed)] == [
        ("relevance", "s2"), ("relevance", "faq"), ("answerability", ""), ("support", "")]


def test_the_same_claim_citing_the_same_passage_reuses_its_judgement_across_systems():
    runs = {"t1": {"A": TICKETS.runs["t1"]["A"],
                   "B": {"retrieved": ("faq", "s1"), "answer": "It is CLOSED [2]!"}},
            "t2": TICKETS.runs["t2"]}
    dataset = TICKETS._replace(runs=runs)
    reviewed = judged(dataset, lambda row: "supported" if row["kind"] == "support"
                      and row["case"] == "t1" else None, pool_depth=0)
    # B's "[2]" is s1 in its ranking: the same claim and passage, so A's judgement holds;
    # s1 at rank 2: supported from k = 2 only (the strict rule's visibility)
    assert values(reviewed, "support", 2)[("t1", "B")] == 1.0
    assert values(reviewed, "support", 1)[("t1", "B")] == 0.0
    assert sum(row["kind"] == "support" for row in review_queue(dataset, pool_depth=0)) == 2


# ---- relevance from the judged pool ---------------------------------------------------------

POOLED = Dataset(
    ids="open",
    corpus={"a": "Answer passage.", "b": "Second answer passage.", "c": "Off topic."},
    cases={"q": {"question": "Q?", "relevant": ()}},
    runs={"q": {"A": {"retrieved": ("a", "c"), "answer": "Claim one [1]."},
                "B": {"retrieved": ("b", "c"), "answer": "Claim two [1]."}}})


def test_recall_reads_the_judged_pool_not_what_the_answer_cited():
    reviewed = judged(POOLED, lambda row: {"relevance": int(row["doc"] in ("a", "b")),
                                           "answerability": "answerable",
                                           "support": "supported"}[row["kind"]])
    # a and b judged relevant; each system retrieved one of them: R@2 = 1/2 each (the old
    # rule made the cited passage the only relevant one: 1.0 by construction)
    assert values(reviewed, "recall") == {("q", "A"): 0.5, ("q", "B"): 0.5}
    assert values(reviewed, "precision") == {("q", "A"): 0.5, ("q", "B"): 0.5}
    assert values(reviewed, "judged") == {("q", "A"): 1.0, ("q", "B"): 1.0}


def test_an_unjudged_passage_counts_as_not_relevant_and_is_said_out_loud():
    # only a judged (relevant): c, in both top 2, and b nobody judged
    reviewed = judged(POOLED, lambda row: {"relevance": 1 if row["doc"] == "a" else None,
                                           "answerability": "answerable",
                                           "support": None}[row["kind"]])
    for engine in ENGINES:
        # A: a (judged), c (unjudged): Judged@2 = 1/2; B: b, c both unjudged: 0/2
        assert values(reviewed, "judged", 2, engine) == {("q", "A"): 0.5, ("q", "B"): 0.0}
        assert values(reviewed, "recall", 2, engine) == {("q", "A"): 1.0, ("q", "B"): 0.0}
    counted = count_dataset(reviewed)
    assert label_notes(counted, 2) == [
        "system A: 1 of 2 passages in the top 2 unjudged (counted as not relevant, as "
        "trec_eval does)",
        "system B: 2 of 2 passages in the top 2 unjudged (counted as not relevant, as "
        "trec_eval does)"]


def test_a_passage_edited_after_its_judgement_is_not_applied_and_counted_stale():
    reviewed = judged(POOLED, lambda row: 1 if row["kind"] == "relevance" else None)
    edited = reviewed._replace(corpus=dict(reviewed.corpus, a="Answer passage, rewritten."))
    found = labelled(edited)
    assert found.stale == 1 and found.applied == 2  # b and c still as judged
    # relevant now: b and c (a unjudged again); A retrieved a, c: 1 hit of 2
    assert values(edited, "recall")[("q", "A")] == 0.5
    assert [row["doc"] for row in review_queue(edited) if row["kind"] == "relevance"] == ["a"]


# ---- not labelled yet, answerability ---------------------------------------------------------

def test_a_question_nobody_labelled_is_not_labelled_yet_never_unanswerable():
    counted = count_dataset(POOLED)
    assert counted.answerable() == [True, True] and counted.labelling() == [-1, -1]
    for name in ("precision", "recall", "judged"):
        assert set(counted.reasons(REGISTRY[name], 2)) == {"not labelled yet"}, name
    assert label_notes(counted, 2)[0] == (
        "system A: 1 of 1 question not labelled yet (values that need labels are n/a)")
    rows = aggregates(counted.by_system()["A"], k=2, metrics=(REGISTRY["recall"],))
    assert "1 left out as n/a (not labelled yet)" in rows[0].description


def test_a_question_judged_unanswerable_scores_its_abstention():
    quiet = POOLED._replace(runs={"q": {"A": {"retrieved": ("c",), "answer": ""},
                                        "B": POOLED.runs["q"]["B"]}})
    reviewed = judged(quiet, lambda row: {"relevance": 0, "answerability": "unanswerable",
                                          "support": "supported"}[row["kind"]])
    for engine in ENGINES:
        counted = count_dataset(reviewed, engine=engine)
        assert counted.answerable() == [False, False]
        # A said nothing: a correct abstention; B made a claim: none is expected there, so
        # it is unsupported and the abstention is wrong
        assert counted.values(REGISTRY["abstention_correct"], 2) == [True, False]
        assert counted.values(REGISTRY["support"], 2) == [None, 0.0]


# ---- a stricter review never raises a mean (an ALCE-like set) ---------------------------------

def alce_like(questions=11):
    """ALCE's shape: questions with retrieved passages and answers whose sentences cite
    them as [1], [2]; no expected claims (the labels come from the reviewers)."""
    corpus, cases, runs = {}, {}, {}
    for n in range(questions):
        corpus.update({f"d{n}a": f"Evidence {n} one.", f"d{n}b": f"Evidence {n} two."})
        cases[f"q{n}"] = {"question": f"Question {n}?", "relevant": ()}
        runs[f"q{n}"] = {"alce": {"retrieved": (f"d{n}a", f"d{n}b"),
                                  "answer": f"Fact {n} one [1]. Fact {n} two [2]."}}
    return Dataset(ids="open", corpus=corpus, cases=cases, runs=runs)


def review(dataset, unsupported):
    """Every passage ``a`` relevant, every question answerable, every claim supported but
    the claims (question, position) in ``unsupported``."""
    def decide(row):
        if row["kind"] == "relevance":
            return int(row["doc"].endswith("a"))
        if row["kind"] == "answerability":
            return "answerable"
        position = 1 if " one " in row["claim"] else 2
        return "unsupported" if (row["case"], position) in unsupported else "supported"
    return judged(dataset, decide)


def test_a_question_whose_claims_are_all_unsupported_stays_in_the_mean():
    # q10's two claims judged unsupported: support 0 there, 1 elsewhere: 10/11 over 11
    # questions (the old rule dropped q10: 1.0 over 10)
    dataset = review(alce_like(), {("q10", 1), ("q10", 2)})
    counted = count_dataset(dataset)
    (mean,) = [row for row in aggregates(counted, k=2, metrics=(REGISTRY["support"],))
               if row.method == "macro"]
    assert (mean.value, mean.used, mean.left_out) == (10 / 11, 11, 0)


@pytest.mark.parametrize("stricter", [{("q3", 2)}, {("q0", 1), ("q0", 2)},
                                      {("q1", 1), ("q5", 2), ("q9", 1)}])
def test_a_stricter_review_never_raises_a_mean(stricter):
    lenient_set = {("q10", 1)}
    lenient = count_dataset(review(alce_like(), lenient_set))
    strict = count_dataset(review(alce_like(), lenient_set | stricter))
    metrics = tuple(REGISTRY[name] for name in ("support", "recall", "precision", "judged"))
    before = {(row.metric, row.method): row for row in aggregates(lenient, k=2, metrics=metrics)}
    after = {(row.metric, row.method): row for row in aggregates(strict, k=2, metrics=metrics)}
    assert before.keys() == after.keys()
    for key, row in after.items():
        assert row.used == before[key].used  # every question stays in every denominator
        if row.value is not None:
            assert row.value <= before[key].value, key
    # support itself falls by exactly what was taken: each claim weighs 1/2 of 1/11
    support = ("support", "macro")
    assert before[support].value - after[support].value == pytest.approx(len(stricter) / 22)


# ---- version 4: each judgement read for its own case only -------------------------------------

def test_version_4_judgements_are_read_for_their_own_case_only():
    legacy = {"reviewer": "ana", "text": "it is closed", "decision": "supported",
              "date": "2026-12-04"}
    cases = dict(TICKETS.cases, t1=dict(TICKETS.cases["t1"], reviews=(legacy,)))
    old = TICKETS._replace(cases=cases)
    found = labelled(old)
    (record,) = found.judgements
    assert (record["kind"], record["case"], record["citations"]) == ("support", "t1", ["s1"])
    # t1's claim is supported (vouched, s1 at rank 1); t2, asking the same question, waits
    assert values(old, "support") == {("t1", "A"): 1.0, ("t2", "A"): None}


def test_an_upgrade_to_version_5_stores_version_4_judgements_as_records_and_loses_none(
        tmp_path):
    from ragscore.folders import load_dataset, upgrade_folder
    from ragscore.io.write import save_dataset as save_jsonl

    legacy = {"reviewer": "ana", "text": "it is closed", "decision": "supported",
              "date": "2026-12-04"}
    orphan = {"reviewer": "ben", "text": "it is reopened", "decision": "unsupported",
              "date": "2026-12-05"}  # no run of t1 makes this claim any more
    cases = dict(TICKETS.cases, t1=dict(TICKETS.cases["t1"], reviews=(legacy, orphan)))
    folder = save_jsonl(TICKETS._replace(cases=cases), tmp_path / "v4", version=4)
    before = {engine: values(load_dataset(folder), "support", engine=engine)
              for engine in ENGINES}
    assert upgrade_folder(folder) == (4, 5)
    index = json.loads((folder / "dataset.json").read_text())
    assert index["version"] == 5 and set(index["files"]) == {"corpus", "cases", "runs",
                                                               "judgements"}
    upgraded = load_dataset(folder)
    (record,) = upgraded.judgements  # ana's, for t1 and the citations its run makes
    assert (record["kind"], record["case"], record["claim"], record["citations"],
            record["decision"], record["reviewer"], record["date"]) == (
        "support", "t1", "it is closed", ["s1"], "supported", "ana", "2026-12-04")
    assert upgraded.cases["t1"]["reviews"] == (orphan,)  # kept as version 4 held it
    for engine in ENGINES:  # t1 supported (s1 at rank 1), t2 waits: as before the upgrade
        assert values(upgraded, "support", engine=engine) == before[engine] == {
            ("t1", "A"): 1.0, ("t2", "A"): None}
