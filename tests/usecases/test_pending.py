"""What the pending items can still change, against an oracle that decides them every way.

A small test set (three questions, two systems, five pending items: two pooled passages and
three claims; a fourth claim already judged) is counted once for every one of the 108 ways
to decide its pending items, and each rule is judged on each by the gate itself
(:func:`ragscore.core.gate.judge`, the whole test set counted with the reference engine).
Then, for every rule of several policies and thresholds:

- a rule the decider calls settled (pass or fail) has that outcome in all 108;
- a rule that passes in all 108 is called settled pass (the bounds are exact there);
- every item that changes a rule's outcome between two completions differing in it alone is
  among the items said to move it (the decider may list more, never fewer).
"""
from itertools import product

import pytest

from ragscore.core.gate import judge
from ragscore.core.rules import InvalidInputError
from ragscore.engine import count_dataset
from ragscore.io.dataset import Dataset
from ragscore.io.policy import load_policy
from ragscore.io.review_queue import review_queue, row_choices
from ragscore.core.audit_slice import audit_cases
from ragscore.usecases.pending import decider, scenario_record

CORPUS = {"p1": "The window opens on Monday.", "p2": "Freeze starts Friday.",
          "p3": "Aurora owns the release.", "p4": "Rollback takes five minutes.",
          "p5": "An old note."}
JUDGED = {"kind": "support", "case": "q3", "key": None, "claim": "ten minutes",
          "citations": ["p4"], "decision": "unsupported", "reviewer": "ana",
          "date": "2026-12-04", "origin": "human", "batch": "0123456789abcdef"}


def _dataset():
    dataset = Dataset(
        ids="open", corpus=CORPUS,
        cases={"q1": {"question": "When does the window open?", "relevant": ("p1",)},
               "q2": {"question": "Who owns the release?", "relevant": ("p3",)},
               "q3": {"question": "How long is a rollback?", "relevant": ("p4",)}},
        runs={"q1": {"A": {"retrieved": ("p1", "p2"), "answer": "It opens on Monday [1]."},
                     "B": {"retrieved": ("p2", "p1"), "answer": "It opens on Monday [2]."}},
              "q2": {"A": {"retrieved": ("p3", "p5"), "answer": "Aurora owns it [1]."},
                     "B": {"retrieved": ("p3",), "answer": "Aurora owns it [1]."}},
              "q3": {"A": {"retrieved": ("p4",), "answer": "Five minutes [1]."},
                     "B": {"retrieved": ("p4",), "answer": "Ten minutes [1]."}}})
    ten = next(row for row in review_queue(dataset) if row["claim"] == "Ten minutes [1].")
    return dataset._replace(judgements=(dict(JUDGED, key=ten["key"]),))


DATASET = _dataset()
ROWS = review_queue(DATASET)
SCALES = [[(grade, None) for grade in (0, 1)] if row["kind"] == "relevance" else
          [(decision, states) for _, decision, states in row_choices(row)] for row in ROWS]


@pytest.fixture(scope="module")
def completions():
    """Every way to decide the pending items: ``[(choices, {system: counted})]``."""
    # 2 passages (0 or 1) x 3 claims (supported, unsupported, not a claim): 4 x 27 = 108
    assert [row["kind"] for row in ROWS] == ["relevance", "support", "relevance", "support",
                                             "support"]
    found = []
    for chosen in product(*[range(len(scale)) for scale in SCALES]):
        records = [scenario_record(row, *SCALES[position][choice])
                   for position, (row, choice) in enumerate(zip(ROWS, chosen))]
        counted = count_dataset(DATASET._replace(judgements=DATASET.judgements + tuple(
            records)), engine="reference").by_system()
        found.append((chosen, counted))
    assert len(found) == 108
    return found


POLICY = """k = 2
[[rule]]
name = "mean support"
metric = "support"
check = "min_mean"
threshold = {support}
[[rule]]
name = "support holds"
metric = "support"
check = "no_regression"
[[rule]]
name = "recall at 1"
metric = "recall"
check = "min_mean"
threshold = {recall}
k = 1
[[rule]]
name = "each precision"
metric = "precision"
check = "min_each"
threshold = 0.5
[[rule]]
name = "few unsupported"
metric = "unsupported"
check = "max_count"
threshold = {unsupported}
[[rule]]
name = "no more unsupported"
metric = "unsupported"
check = "no_regression"
max_na = 1
"""


def _outcomes(completions, rule, k, candidate, baseline):
    tags = {name: () for name in DATASET.cases}
    return [judge(rule, counted[candidate], k=rule.k or k, tags=tags,
                  baseline=counted[baseline], cases=list(DATASET.cases)).passed
            for _, counted in completions]


def _true_movers(completions, outcomes):
    """Items whose decision alone changes the outcome between two completions."""
    by_choice = {chosen: passed for (chosen, _), passed in zip(completions, outcomes)}
    moved = set()
    for chosen, passed in by_choice.items():
        for position in range(len(chosen)):
            for other in range(len(SCALES[position])):
                changed = chosen[:position] + (other,) + chosen[position + 1:]
                if by_choice[changed] != passed:
                    moved.add(position)
    return moved


@pytest.mark.parametrize("support,recall,unsupported,candidate,baseline", [
    (0.5, 0.9, 1, "A", "B"), (0.3, 0.5, 0, "A", "B"), (0.9, 0.3, 2, "B", "A"),
    (0.05, 1.0, 3, "B", "A")])
def test_settled_rules_and_movers_agree_with_every_completion(
        completions, tmp_path, support, recall, unsupported, candidate, baseline):
    path = tmp_path / "policy.toml"
    path.write_text(POLICY.format(support=support, recall=recall, unsupported=unsupported))
    policy = load_policy(path)
    found = decider(DATASET, policy=str(path), candidate=candidate, baseline=baseline)
    assert found.open_cases == () and found.notes == ()
    seen = set()
    for rule in policy.rules:
        outcomes = _outcomes(completions, rule, policy.k, candidate, baseline)
        status = found.statuses[rule.name]
        seen.add(status)
        if status == "pass":
            assert all(outcomes), rule.name
        if status == "fail":
            assert not any(outcomes), rule.name
        if all(outcomes):
            assert status == "pass", rule.name
        said = {position for position, row in enumerate(ROWS)
                if rule.name in found.movers[row["kind"], row["case"], row["key"]]}
        assert _true_movers(completions, outcomes) <= said, rule.name
        if status != "open":
            assert said == set(), rule.name
    assert seen >= {"open"} and seen & {"pass", "fail"}  # each policy settles some rules


def test_a_mean_exactly_at_its_threshold_is_left_open(tmp_path):
    # threshold 0: the least mean support is exactly 0.0 (every claim unsupported); a sum
    # on its bound is never called settled (rounding could tip it), so the rule stays open
    path = tmp_path / "policy.toml"
    path.write_text(POLICY.format(support=0.0, recall=0.5, unsupported=1))
    found = decider(DATASET, policy=str(path), candidate="A", baseline="B")
    assert found.statuses["mean support"] == "open"


def test_the_comparisons_sign(completions):
    from ragscore.core.metrics import REGISTRY

    found = decider(DATASET, metric="support", candidate="A", baseline="B", k=2)
    signs = []
    for _, counted in completions:  # the sign of the mean delta, worked out here
        mine = counted["A"].values_by_case(REGISTRY["support"], 2)
        theirs = counted["B"].values_by_case(REGISTRY["support"], 2)
        pairs = [mine[case] - theirs[case] for case in mine
                 if mine[case] is not None and theirs[case] is not None]
        signs.append(None if not pairs else (sum(pairs) > 0) - (sum(pairs) < 0))
    expected = "pass" if all(sign == 1 for sign in signs) else \
        "fail" if all(sign == -1 for sign in signs) else "open"
    assert found.statuses[found.rules[0]] == expected == "open"
    said = {position for position, row in enumerate(ROWS)
            if found.movers[row["kind"], row["case"], row["key"]]}
    assert _true_movers(completions, signs) <= said
    # q3: A's "five minutes" (pending) against B's "ten minutes" (judged unsupported) moves it
    assert 4 in _true_movers(completions, signs)  # ROWS[4]: "Five minutes [1]."


def test_bad_options_are_refused():
    with pytest.raises(InvalidInputError, match="give --policy P, or a comparison"):
        decider(DATASET, candidate="A")
    with pytest.raises(InvalidInputError, match="candidate system 'C' has no runs"):
        decider(DATASET, metric="support", candidate="C", baseline="B")
    with pytest.raises(InvalidInputError, match="--audit-share must be a number from 0 to 1"):
        audit_cases(DATASET.cases, share=1.5)


def test_the_audit_slice_is_drawn_per_question_from_the_seed_alone():
    cases = [f"q{number}" for number in range(200)]
    chosen = audit_cases(cases, share=0.1, seed=7)
    # each question in with probability 0.1: 20 expected; 3 standard deviations is 12.7
    assert abs(len(chosen) - 20) < 13
    assert chosen == audit_cases(list(reversed(cases)), share=0.1, seed=7)[::-1]
    assert chosen != audit_cases(cases, share=0.1, seed=8)
    assert audit_cases(["only"], share=0.01, seed=0) == ["only"]  # none drawn: the least
    assert audit_cases(cases, share=0, seed=0) == []


STATUS_POLICY = """k = 2
[[rule]]
name = "mean support"
metric = "support"
check = "min_mean"
threshold = 0.3
[[rule]]
name = "each precision"
metric = "precision"
check = "min_each"
threshold = 0.5
"""


def test_review_status_and_the_queue_ordered_by_what_decides(tmp_path):
    import json

    from ragscore.cli import capture
    from ragscore.folders import save_dataset

    folder = save_dataset(DATASET, tmp_path / "small")
    policy = tmp_path / "policy.toml"
    policy.write_text(STATUS_POLICY)
    common = ["--policy", str(policy), "--candidate", "A", "--baseline", "B"]
    code, out, err = capture(["review", "status", str(folder)] + common)
    # each precision: P@2 of A is 1/2 or 2/2 on q1 (p1 relevant, p2 pending), likewise on
    # q2, and 1/2 on q3 (one passage retrieved): never below 0.5, whatever is decided.
    # mean support: each of A's three answers has one pending claim (0 or 1, or no claim):
    # from 0 to 1, so open, moved by the three claims and by neither passage
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"review status: policy {policy}, candidate A against baseline B, k=2: 5 items "
        "pending (2 passages, 3 claims)",
        "not settled: 3 of the 5 pending items can still move it",
        "  mean support: open, 3 items can move it",
        "  each precision: passes whatever they say"]
    code, out, err = capture(["review", "export", str(folder), "--order", "decision",
                              "--audit-share", "0.3"] + common)
    rows = [json.loads(line) for line in out.splitlines()]
    # the two claims that decide (q1, q3) with the audit slice (q2, drawn with seed 0 at
    # 0.3: its passage and its claim) spread among them, at places 1 and 3 of 4, then the
    # passage that cannot change anything
    assert [(row["case"], row["kind"], row["audit"], row["moves"]) for row in rows] == [
        ("q1", "support", False, ["mean support"]), ("q2", "relevance", True, []),
        ("q3", "support", False, ["mean support"]), ("q2", "support", True, ["mean support"]),
        ("q1", "relevance", False, [])]
    assert audit_cases(DATASET.cases, share=0.3, seed=0) == ["q2"]
    code, out, err = capture(["review", "export", str(folder), "--order", "decision",
                              "--audit-share", "0.3", "--only-deciding"] + common)
    assert [json.loads(line)["case"] for line in out.splitlines()] == ["q1", "q2", "q3", "q2"]
    code, out, err = capture(["review", "export", str(folder), "--only-deciding"])
    assert (code, out) == (2, "")
    assert "--only-deciding orders the queue by what decides; it needs --order decision" in err
