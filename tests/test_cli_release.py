"""``ragscore manifest``, ``baseline save`` and ``gate`` as an engineer runs them in CI:
verdicts and exit codes on the course data (worked by hand in tests/core/test_gate.py), bad
policies named by file and line, stale baselines and rubric mismatches refused."""
import json
import shutil

import pytest

from ragscore.cli import main
from ragscore.io.course import COURSE_PATH
from ragscore.folders import load_dataset, save_dataset

POLICY = """\
k = 2
description = "course release gate"

[[rule]]
name = "no support regression"
metric = "support"
check = "no_regression"
severity = "critical"

[[rule]]
name = "mean coverage"
metric = "coverage"
check = "min_mean"
threshold = 0.8

[[rule]]
name = "abstains when it should"
metric = "abstention_correct"
check = "min_each"
threshold = 1
"""


@pytest.fixture
def policy(tmp_path):
    path = tmp_path / "gate.toml"
    path.write_text(POLICY)
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_gate_b_against_a_fails_on_launch_only(capsys, policy):
    code, out, err = run(capsys, "gate", str(COURSE_PATH), "--policy", policy,
                         "--candidate", "B", "--baseline", "A")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[1] == "critical:"
    assert lines[2].startswith("  FAIL  no support regression (support, no_regression): "
                               "1 of 3 questions")
    # launch support: B 1 of 2 claims against A's 1 of 1; four decimals by default
    assert lines[3] == "        launch: 0.5000 (baseline 1.0000)"
    assert "  PASS  mean coverage (coverage, min_mean): mean coverage 1.0000 over" in out
    assert "  PASS  abstains when it should" in out
    assert lines[-1] == ("verdict: FAIL: 2 of 3 rules passed; failed: no support regression")


def test_gate_a_against_b_fails_every_rule(capsys, policy):
    code, out, _ = run(capsys, "gate", str(COURSE_PATH), "--policy", policy,
                       "--candidate", "A", "--baseline", "B")
    assert code == 1
    assert "        owner: 0.0000 (baseline 1.0000)" in out
    # A's coverage: (1 + 0.5 + 0) / 3 = 0.5
    assert "mean coverage 0.5000 over 3 of the 4 questions" in out
    code, out, _ = run(capsys, "gate", str(COURSE_PATH), "--policy", policy,
                       "--candidate", "A", "--baseline", "B", "--digits", "2")
    assert "        owner: 0.00 (baseline 1.00)" in out
    assert "mean coverage 0.50 over 3 of the 4 questions" in out
    assert "        region: no" in out


def test_gate_passes_with_exit_0(capsys, tmp_path):
    path = tmp_path / "lenient.toml"
    path.write_text(POLICY.replace('check = "no_regression"',
                                   'check = "no_regression"\ntolerance = 0.5'))
    code, out, _ = run(capsys, "gate", str(COURSE_PATH), "--policy", str(path),
                       "--candidate", "B", "--baseline", "A")
    assert code == 0 and out.splitlines()[-1] == "verdict: PASS: 3 of 3 rules passed"


@pytest.mark.parametrize("edit, message", [
    (lambda text: text.replace('metric = "coverage"', 'metric = "coverag"'),
     r"gate\.toml, line 12: rule 'mean coverage': metric must be one of"),
    (lambda text: text.replace('check = "min_mean"', 'check = "at_least"'),
     r"gate\.toml, line 13: rule\[1\]\.check: must satisfy enum"),
    (lambda text: text.replace("threshold = 0.8", "threshold = 0.8 0.9"),
     r"gate\.toml: not valid TOML: .*line 14"),
    (lambda text: text.replace("threshold = 0.8", "treshold = 0.8"),
     r"gate\.toml, line 14: rule\[1\]: unknown key \('treshold' was unexpected\)"),
])
def test_a_bad_policy_exits_2_naming_file_and_line(capsys, tmp_path, edit, message):
    path = tmp_path / "gate.toml"
    path.write_text(edit(POLICY))
    code, out, err = run(capsys, "gate", str(COURSE_PATH), "--policy", str(path),
                         "--candidate", "B", "--baseline", "A")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert __import__("re").search(message, err), err


@pytest.mark.parametrize("argv, message", [
    (["--candidate", "C", "--baseline", "A"], "candidate system 'C' has no runs"),
    (["--candidate", "B", "--baseline", "Z"], "baseline system 'Z' has no runs"),
    (["--candidate", "B"], "no_regression needs a baseline"),
])
def test_bad_systems_or_a_missing_baseline_exit_2(capsys, policy, argv, message):
    code, _, err = run(capsys, "gate", str(COURSE_PATH), "--policy", policy, *argv)
    assert code == 2 and message in err


def test_baseline_file_round_trip_and_stale_refusal(capsys, tmp_path, policy):
    baseline = tmp_path / "baseline-A.json"
    code, out, _ = run(capsys, "baseline", "save", str(COURSE_PATH), "--system", "A",
                       "--out", str(baseline))
    assert code == 0 and "4 questions" in out
    assert json.loads(baseline.read_text())["format"] == "ragscore-baseline-2"  # digests
    code, out, _ = run(capsys, "gate", str(COURSE_PATH), "--policy", policy,
                       "--candidate", "B", "--baseline-file", str(baseline))
    assert code == 1 and "        launch: 0.5000 (baseline 1.0000)" in out
    # the test set changes under the baseline: one question is reworded
    changed = load_dataset(COURSE_PATH)
    changed.cases["owner"]["question"] = "Who owns the launch now?"
    save_dataset(changed, tmp_path / "changed")
    code, out, err = run(capsys, "gate", str(tmp_path / "changed"), "--policy", policy,
                         "--candidate", "B", "--baseline-file", str(baseline))
    assert code == 2 and out == ""
    assert "was saved for another test set: its questions_sha256 is" in err
    assert "refusing to compare" in err
    code, out, _ = run(capsys, "gate", str(tmp_path / "changed"), "--policy", policy,
                       "--candidate", "B", "--baseline-file", str(baseline),
                       "--allow-mismatch")
    assert code == 1
    assert out.splitlines()[0].startswith("WARNING: --allow-mismatch: the baseline file")


def test_rubric_mismatch_between_systems_is_refused(capsys, tmp_path, policy):
    dataset = load_dataset(COURSE_PATH)
    manifests = {system: {"run_id": f"{system}-1", "date": "2026-12-01", "model": "m",
                          "rubric_version": rubric}
                 for system, rubric in (("A", "strict-1"), ("B", "strict-2"))}
    save_dataset(dataset._replace(ids="course", manifests=manifests), tmp_path / "m")
    code, _, err = run(capsys, "gate", str(tmp_path / "m"), "--policy", policy,
                       "--candidate", "B", "--baseline", "A")
    assert code == 2
    assert "judged under different rubrics: strict-1 and strict-2" in err
    code, out, _ = run(capsys, "manifest", str(tmp_path / "m"))
    report = json.loads(out)
    assert report["runs"]["B"]["rubric_version"] == "strict-2"
    assert len(report["fingerprint"]["questions_sha256"]) == 64


def test_manifest_hashes_are_the_same_for_a_copy(capsys, tmp_path):
    shutil.copytree(COURSE_PATH, tmp_path / "copy")
    _, first, _ = run(capsys, "manifest", str(COURSE_PATH))
    _, second, _ = run(capsys, "manifest", str(tmp_path / "copy"))
    assert json.loads(first)["fingerprint"] == json.loads(second)["fingerprint"]


def test_baseline_save_names_a_missing_folder(capsys, tmp_path):
    code, _, err = run(capsys, "baseline", "save", str(COURSE_PATH), "--system", "A",
                       "--out", str(tmp_path / "missing" / "b.json"))
    assert code == 2 and "missing: does not exist" not in err
    assert "the folder" in err and "does not exist" in err
    assert not (tmp_path / "missing").exists()


def test_compare_refuses_a_rubric_mismatch_unless_allowed(capsys, tmp_path):
    dataset = load_dataset(COURSE_PATH)
    manifests = {system: {"run_id": f"{system}-1", "date": "2026-12-01", "model": "m",
                          "rubric_version": rubric}
                 for system, rubric in (("A", "strict-1"), ("B", "strict-2"))}
    save_dataset(dataset._replace(manifests=manifests), tmp_path / "m")
    code, out, err = run(capsys, "compare", str(tmp_path / "m"), "--baseline", "A",
                         "--candidate", "B")
    assert code == 2 and out == ""
    assert "judged under different rubrics: strict-1 and strict-2" in err
    code, out, _ = run(capsys, "compare", str(tmp_path / "m"), "--baseline", "A",
                       "--candidate", "B", "--allow-mismatch")
    assert code == 0
    assert out.splitlines()[0].startswith("WARNING: --allow-mismatch: systems A and B")
    code, out, err = run(capsys, "compare", str(tmp_path / "m"), "--baseline", "A",
                         "--candidate", "B", "--allow-mismatch", "--format", "json")
    assert code == 0 and json.loads(out) and "ragscore: warning: --allow-mismatch" in err
