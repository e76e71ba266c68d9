"""A baseline file proves what it is (issue 40, item 2): ``baseline save`` writes a digest of
its content and of the runs it came from; a gate refuses a file whose content does not match
its digest; ``baseline verify FILE DIR`` recomputes it and names what differs; a span test
set's baseline is read back by the gate.

The honest verdict, worked by hand from fixtures/course: recall at k=2, A against baseline
B: launch 1.00 vs 1.00, rollback 0.50 vs 1.00 (A retrieves rollback, not checklist; B both),
owner 1.00 vs 1.00: rollback regressed, the gate fails. Removing one rank from B's stored
``relevant_ranks`` for rollback makes B's recall there 0.50 too: the edit turned that FAIL
into a PASS on 1dd5f70.
"""
import json

import pytest

from ragscore.cli import capture
from ragscore.usecases.baselines import save_baseline, verify_baseline

COURSE = "fixtures/course"
RECALL = """k = 2

[[rule]]
name = "no recall regression"
metric = "recall"
check = "no_regression"
"""


@pytest.fixture
def policy(tmp_path):
    path = tmp_path / "gate.toml"
    path.write_text(RECALL)
    return str(path)


@pytest.fixture
def saved_b(tmp_path):
    path = tmp_path / "baseline-B.json"
    save_baseline(COURSE, system="B", out=path)
    return path


def _drop_a_rank(path):
    record = json.loads(path.read_text())
    assert record["questions"]["rollback"]["relevant_ranks"] == [1, 2]
    record["questions"]["rollback"]["relevant_ranks"] = [1]
    path.write_text(json.dumps(record, indent=1, sort_keys=True))


def test_the_saved_file_carries_its_digests(saved_b):
    record = json.loads(saved_b.read_text())
    assert record["format"] == "ragscore-baseline-2"
    assert len(record["digest"]["content_sha256"]) == 64 and len(record["runs_sha256"]) == 64


def test_an_honest_baseline_fails_the_regressed_candidate(saved_b, policy):
    code, out, _ = capture(["gate", COURSE, "--policy", policy, "--candidate", "A",
                            "--baseline-file", str(saved_b)])
    assert code == 1 and "rollback: 0.5000 (baseline 1.0000)" in out


def test_an_edited_baseline_is_refused_naming_the_file(saved_b, policy):
    _drop_a_rank(saved_b)
    code, out, err = capture(["gate", COURSE, "--policy", policy, "--candidate", "A",
                              "--baseline-file", str(saved_b)])
    assert (code, out) == (2, "")
    assert f"{saved_b}: its content does not match its digest" in err


def test_verify_says_equal_then_names_what_an_edit_changed(saved_b):
    check = verify_baseline(saved_b, COURSE)
    assert check.equal and check.exit_code == 0
    _drop_a_rank(saved_b)
    check = verify_baseline(saved_b, COURSE)
    assert check.exit_code == 1 and check.digest.startswith("its content does not match")
    assert check.runs is True and check.fingerprint == []
    assert check.questions == [("rollback", "relevant_ranks", [1], [1, 2])]
    code, out, _ = capture(["baseline", "verify", str(saved_b), COURSE])
    assert code == 1
    assert "- question rollback: relevant_ranks [1] in the file, [1, 2] recomputed" in out


def test_verify_names_runs_that_changed_since(saved_b, tmp_path):
    from ragscore import load_dataset, save_dataset

    changed = load_dataset(COURSE)
    changed.runs["owner"]["B"]["retrieved"] = ("archive", "owners")  # B's owner run redone
    save_dataset(changed, tmp_path / "changed")
    check = verify_baseline(saved_b, tmp_path / "changed")
    # owner B: owners moved from rank 1 to rank 2, so its claim (citing owners) is now
    # supported from k = 2, and the relevant rank is 2: the first field by name says so
    assert check.runs is False and check.digest is None
    assert check.questions == [("owner", "claim_cutoffs", [1], [2])]


def test_a_baseline_saved_before_digests_is_refused_by_a_gate(policy):
    code, _, err = capture(["gate", COURSE, "--policy", policy, "--candidate", "A",
                            "--baseline-file", "fixtures/baselines/course-A-before-digests.json"])
    assert code == 2 and "saved without a digest" in err and "baseline save" in err


def test_a_span_test_sets_baseline_is_read_back(tmp_path, sentences):
    """``baseline save`` of a span test set writes fingerprint.spans_sha256; on 1dd5f70 the
    gate then refused its own file ("unknown key"), closing docs/ci.md's flow."""
    from ragscore import save_dataset

    folder = save_dataset(sentences, tmp_path / "spans")
    system = sentences.systems[0]
    baseline = tmp_path / "baseline.json"
    code, _, err = capture(["baseline", "save", str(folder), "--system", system, "--out",
                            str(baseline)])
    assert code == 0, err
    assert "spans_sha256" in json.loads(baseline.read_text())["fingerprint"]
    policy = tmp_path / "gate.toml"
    policy.write_text(RECALL.replace("recall", "support"))
    code, out, err = capture(["gate", str(folder), "--policy", str(policy), "--candidate",
                              system, "--baseline-file", str(baseline)])
    assert code == 0, err  # a system against its own baseline: nothing regressed
    assert out.splitlines()[-1].startswith("verdict: PASS")
