"""The gate attacked as issue 21 lists it: every way to a wrong PASS (exit 0) found on main
at 5aa8f84, each now an exit 1 (the rule fails) or an exit 2 naming file, line and field.

The course test set with tags (fixtures/course-runs) at k=2, worked by hand in
tests/core/test_gate.py: launch and rollback are tagged critical; B's support falls on
launch (1.00 -> 0.50); B's coverage is 1.00 wherever defined.
"""
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragscore.cli import capture
from ragscore.folders import load_dataset, save_dataset

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "fixtures" / "course-runs"
POLICY = (ROOT / "fixtures" / "policies" / "course.toml").read_text()


def gate(tmp_path, policy=POLICY, *argv, dataset=COURSE, candidate="B"):
    path = tmp_path / "gate.toml"
    path.write_text(policy)
    return capture(["gate", str(dataset), "--policy", str(path), "--candidate", candidate,
                    *argv])


def without_run(tmp_path, case, system):
    dataset = load_dataset(COURSE)
    runs = {name: {other: run for other, run in by_system.items()
                   if (name, other) != (case, system)} for name, by_system in
            dataset.runs.items()}
    save_dataset(dataset._replace(runs={name: r for name, r in runs.items() if r}),
                 tmp_path / "cut")
    return tmp_path / "cut"


def test_the_course_policy_fails_b_against_a_on_launch(tmp_path):
    code, out, err = gate(tmp_path, POLICY, "--baseline", "A")
    assert (code, err) == (1, "")
    assert out.splitlines()[-1] == "verdict: FAIL: 4 of 5 rules passed; failed: no support " \
                                   "regression"


# ---- 1. numbers in a policy are data: finite, in range, named by file and line -----------

@pytest.mark.parametrize("old, new, message", [
    ("tolerance = 0.0", "tolerance = nan",
     r"gate\.toml, line 9: rule\[0\]\.tolerance: must be a finite number; got nan"),
    ("threshold = 1.0", "threshold = nan",
     r"gate\.toml, line 16: rule\[1\]\.threshold: must be a finite number; got nan"),
    ("threshold = 0.8", "threshold = -inf", r"line 24: rule\[2\]\.threshold: must be a finite"),
    ("threshold = 0.8", "threshold = 1.5", r"line 24: rule\[2\]\.threshold: must satisfy "
                                           r"maximum 1; got 1\.5"),
    ("threshold = 0.8", "threshold = -0.1", r"line 24: .*must satisfy minimum 0"),
    ("threshold = 1\nseverity", "threshold = 0.5\nseverity",
     r"line 36: rule\[4\]\.threshold: must satisfy type 'integer'; got 0\.5"),
    ("threshold = 1\nseverity", "threshold = -1\nseverity", r"line 36: .*minimum 0; got -1"),
    ("tolerance = 0.0", "tolerance = -0.1", r"line 9: rule\[0\]\.tolerance: must satisfy "
                                            r"minimum 0"),
    ("k = 2", "k = 1000000000000", r"gate\.toml, line 2: k: must satisfy maximum 10000"),
    ("k = 2", "k = 101", r"gate\.toml, line 2: k must be a whole number from 1 to 100 for "
                         r"this test set's IDs; got 101"),
    ('slice = "critical"', 'cases = ["nope"]',
     r"gate\.toml, line 17: rule 'evidence on critical questions': case 'nope' is not in the "
     r"test set"),
    ('severity = "minor"', 'severity = "minor"\nmissing = "maybe"',
     r"line 38: rule\[4\]\.missing: must satisfy enum"),
])
def test_a_policy_number_out_of_range_exits_2_naming_file_and_line(tmp_path, old, new,
                                                                   message):
    assert old in POLICY
    code, out, err = gate(tmp_path, POLICY.replace(old, new, 1), "--baseline", "A")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert re.search(message, err), err


def test_a_rule_k_beyond_the_ids_limit_is_named_by_line(tmp_path):
    code, _, err = gate(tmp_path, POLICY.replace("threshold = 0.8", "threshold = 0.8\nk = 500"),
                        "--baseline", "A")
    assert code == 2
    assert re.search(r"gate\.toml, line 25: rule 'mean coverage': k must be a whole number "
                     r"from 1 to 100", err), err


# ---- 2. the gate judges the test set's questions -------------------------------------------

def test_a_deleted_candidate_run_is_named_no_run_and_fails(tmp_path):
    # B has no run on launch (critical): every rule judges the test set's 4 questions (the
    # critical-evidence rule its 2 tagged critical), so each has launch in scope, lists it as
    # "no run" and fails (before: 3 and 1 questions, 5 of 5 passed).
    code, out, _ = gate(tmp_path, POLICY, "--baseline", "A",
                        dataset=without_run(tmp_path, "launch", "B"))
    assert code == 1
    assert "in the 4 questions" in out and "over 2 of the 4 questions" in out
    assert "  FAIL  evidence on critical questions" in out
    assert "in the 2 questions tagged critical" in out
    assert "        launch: no run (candidate)" in out
    assert out.count("        launch: no run (candidate)") == 5
    assert out.splitlines()[-1].startswith("verdict: FAIL: 0 of 5 rules passed; failed: no "
                                           "support regression, evidence on critical")


def test_a_deleted_baseline_run_is_named_no_run_and_fails(tmp_path):
    policy = POLICY.replace("tolerance = 0.0", "tolerance = 0.5")  # B passes against all of A
    code, out, _ = gate(tmp_path, policy, "--baseline", "A")
    assert code == 0
    code, out, _ = gate(tmp_path, policy, "--baseline", "A",
                        dataset=without_run(tmp_path, "owner", "A"))
    assert code == 1 and "        owner: no run (baseline)" in out


def test_missing_error_stops_the_gate_naming_the_question(tmp_path):
    code, out, err = gate(tmp_path, 'missing = "error"\n' + POLICY, "--baseline", "A",
                          dataset=without_run(tmp_path, "launch", "B"))
    assert (code, out) == (2, "")
    assert "question 'launch' is in scope but the candidate has no run for it" in err


# ---- 3. a baseline file is checked like every other input ----------------------------------

@pytest.fixture
def baseline(tmp_path):
    path = tmp_path / "baseline-A.json"
    code, _, _ = capture(["baseline", "save", str(COURSE), "--system", "A", "--out", str(path)])
    assert code == 0
    return path


def edited(path, change):
    """The baseline file changed by ``change`` and given a digest of its new content, as a
    tool that rewrites it (or a forger) would: the checks behind the digest are tested."""
    from ragscore.io.baseline import content_digest

    record = json.loads(path.read_text())
    change(record["questions"])
    record["digest"]["content_sha256"] = content_digest(record)
    path.write_text(json.dumps(record))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda q: q["launch"].update(n_claims=-5),
     r"questions\['launch'\]: n_claims must be a whole number at least 0 or null; got -5"),
    (lambda q: q["launch"].update(n_claims="x"), r"questions\['launch'\]: n_claims .*got 'x'"),
    (lambda q: q["launch"].update(n_claims=1.5), r"n_claims .*got 1\.5"),
    (lambda q: q["launch"].update(n_relevant=True), r"n_relevant must be a whole number"),
    (lambda q: q["launch"].update(claim_cutoffs=[1, 1]),
     r"claim_cutoffs and stale_cutoffs list 2 supported claims for n_claims 1"),
    (lambda q: q["launch"].update(relevant_ranks=[2, 1]), r"relevant_ranks must be an "
                                                          r"ascending list"),
    (lambda q: q["launch"].update(delivered_span=[3, 2]), r"delivered_span must be null or "
                                                          r"\[low, high\]"),
    (lambda q: q["launch"].update(n_relevant=3),
     r"questions\['launch'\]\.n_relevant: 3 in the baseline, 1 in this test set"),
    (lambda q: q["launch"].pop("n_claims"), r"questions\['launch'\]: missing count n_claims"),
    (lambda q: q.pop("launch"), r"questions\['launch'\]: missing, and a no_regression rule "
                                r"judges it"),
    (lambda q: q.update(extra=q["launch"]), r"questions\['extra'\]: not a question of this "
                                            r"test set"),
])
def test_a_broken_baseline_exits_2_naming_question_and_field(tmp_path, baseline, change,
                                                             message):
    code, out, err = gate(tmp_path, POLICY, "--baseline-file", str(edited(baseline, change)))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert re.search(message, err), err


def test_nan_in_a_baseline_is_refused(tmp_path, baseline):
    text = baseline.read_text().replace('"n_claims": 1', '"n_claims": NaN', 1)
    baseline.write_text(text)
    code, _, err = gate(tmp_path, POLICY, "--baseline-file", str(baseline))
    assert code == 2 and err.startswith("ragscore: error: ")


# ---- 4. severity: a failing minor rule fails the gate --------------------------------------

def test_a_failing_minor_rule_exits_1(tmp_path):
    policy = POLICY.replace("tolerance = 0.0", "tolerance = 0.5").replace(
        "threshold = 1\nseverity", "threshold = 0\nseverity")  # B: 1 unsupported claim
    code, out, _ = gate(tmp_path, policy, "--baseline", "A")
    assert code == 1
    assert out.splitlines()[-1] == ("verdict: FAIL: 4 of 5 rules passed; failed: at most one "
                                    "unsupported claim")


# ---- 5. output cannot be forged --------------------------------------------------------------

def test_a_rule_name_with_a_newline_cannot_forge_the_verdict(tmp_path):
    forged = POLICY.replace('name = "mean coverage"',
                            'name = "mean coverage\\nverdict: PASS: 5 of 5 rules passed"')
    code, out, _ = gate(tmp_path, forged, "--baseline", "A", candidate="A")
    assert code == 1
    assert not any(line.startswith("verdict: PASS") for line in out.splitlines())
    assert out.splitlines()[-1].startswith("verdict: FAIL: ")
    assert "mean coverage\\nverdict: PASS" in out


@pytest.mark.parametrize("show", ["-1", "x"])
def test_show_must_be_at_least_0(tmp_path, show):
    code, out, err = gate(tmp_path, POLICY, "--baseline", "A", "--show", show)
    assert (code, out) == (2, "") and "--show: must be a whole number at least 0" in err


def test_show_0_lists_nothing_but_counts_every_question(tmp_path):
    code, out, _ = gate(tmp_path, POLICY, "--baseline", "A", "--show", "0")
    assert code == 1 and "        ... and 1 more" in out and "launch: 0.50" not in out


# ---- 5. the verdict line and the exit code come from one Verdict ---------------------------

RULE_LINES = {
    "min_mean": 'metric = "coverage"\ncheck = "min_mean"\nthreshold = {t}',
    "min_each": 'metric = "support"\ncheck = "min_each"\nthreshold = {t}',
    "max_count": 'metric = "unsupported"\ncheck = "max_count"\nthreshold = {n}',
    "no_regression": 'metric = "support"\ncheck = "no_regression"\ntolerance = {t}',
}


def _toml_string(text):
    """A TOML basic string holding ``text`` (any character, newlines and DEL included)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=12), st.sampled_from(sorted(RULE_LINES)),
                          st.sampled_from([0.0, 0.5, 1.0]), st.integers(0, 2),
                          st.sampled_from(["critical", "major", "minor"])),
                min_size=1, max_size=4, unique_by=lambda rule: rule[0]),
       st.sampled_from(["A", "B"]))
def test_the_verdict_line_and_the_exit_code_agree(tmp_path_factory, rules, candidate):
    text = "k = 2\n" + "".join(
        f"\n[[rule]]\nname = {_toml_string(name)}\nseverity = \"{severity}\"\n"
        + RULE_LINES[check].format(t=threshold, n=count) + "\n"
        for name, check, threshold, count, severity in rules)
    code, out, err = gate(tmp_path_factory.mktemp("v"), text, "--baseline",
                          "B" if candidate == "A" else "A", candidate=candidate)
    assert code in (0, 1), err
    last = out.splitlines()[-1]
    assert [line for line in out.splitlines() if line.startswith("verdict: ")] == [last]
    assert last.startswith("verdict: PASS: ") == (code == 0)
    assert last.startswith("verdict: FAIL: ") == (code == 1)
    fails = sum(line.startswith("  FAIL  ") for line in out.splitlines())
    assert (fails == 0) == (code == 0)
    assert last.startswith(f"verdict: {'PASS' if code == 0 else 'FAIL'}: "
                           f"{len(rules) - fails} of {len(rules)} rules passed")


# ---- 3. no baseline file gives an internal error (exit 3) ----------------------------------

ODD_VALUES = [-1, 0, 1, 2, 1.5, 1e308, "x", "", None, True, [], {}, [1, "a"], [[1]], [[1, 2]],
              [2, 1], [0], [[1, -2]], [[1, 1.5, 3]], {"n_relevant": 1}, [{}]]
FIELDS = ["relevant_ranks", "n_relevant", "claim_cutoffs", "n_claims", "n_expected",
          "n_retrieved", "gains", "ideal", "dropped", "collapsed", "delivered_span", "exposed",
          "stale_cutoffs", "unknown"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.sampled_from(["launch", "rollback", "owner", "region"]),
                          st.sampled_from(FIELDS), st.sampled_from(ODD_VALUES)),
                min_size=1, max_size=3))
def test_no_baseline_edit_gives_an_internal_error(tmp_path_factory, edits):
    folder = tmp_path_factory.mktemp("b")
    path = folder / "baseline.json"
    code, _, _ = capture(["baseline", "save", str(COURSE), "--system", "A", "--out", str(path)])
    assert code == 0

    def change(questions):
        for case, field, value in edits:
            questions[case][field] = value

    code, out, err = gate(folder, POLICY, "--baseline-file", str(edited(path, change)))
    assert code in (0, 1, 2) and "internal error" not in err, err
    assert (code == 2) == (out == "")


@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["launch", "rollback", "owner", "region"]), st.sampled_from(FIELDS[:-1]),
       st.sampled_from([float("nan"), float("inf"), -float("inf")]), st.booleans())
def test_nan_or_inf_anywhere_in_a_baseline_never_passes(tmp_path_factory, case, field, bad,
                                                        inside):
    # json.dumps writes NaN and Infinity, which Python's reader (and so a naive tool) accepts
    folder = tmp_path_factory.mktemp("n")
    path = folder / "baseline.json"
    capture(["baseline", "save", str(COURSE), "--system", "A", "--out", str(path)])

    def change(questions):
        old = questions[case][field]
        questions[case][field] = [bad] if inside and type(old) is list else bad

    lenient = POLICY.replace("tolerance = 0.0", "tolerance = 1.0")
    assert gate(folder, lenient, "--baseline-file", str(path))[0] == 0  # B passes all 5
    code, out, err = gate(folder, lenient, "--baseline-file", str(edited(path, change)))
    assert code == 2 and out == "", (code, err)


# ---- a run recorded as failed (ragscore record) is not an empty ranking ------------------

def with_failed_run(tmp_path, case, system):
    dataset = load_dataset(COURSE)
    runs = {name: {other: (dict(run, failed=True) if (name, other) == (case, system) else run)
                   for other, run in by_system.items()}
            for name, by_system in dataset.runs.items()}
    save_dataset(dataset._replace(runs=runs), tmp_path / "failed")
    return tmp_path / "failed"


@pytest.mark.parametrize("system, side", [("B", "candidate"), ("A", "baseline")])
def test_a_failed_call_stops_the_gate_naming_side_and_case(tmp_path, system, side):
    # Without the check, B's failed run on rollback would be scored as a ranking and the
    # gate would still judge it; a call that never answered cannot pass or fail a rule.
    folder = with_failed_run(tmp_path, "rollback", system)
    code, out, err = gate(tmp_path, POLICY, "--baseline", "A", dataset=folder)
    assert (code, out) == (2, "")
    assert f"{side} 'B'" in err if side == "candidate" else f"{side} 'A'" in err
    assert "1 run recorded as failed (first: case 'rollback', trial 1)" in err


# ---- an empty baseline name is a baseline named, not none given --------------------------

@pytest.mark.parametrize("option", ["--baseline", "--baseline-file"])
def test_an_empty_baseline_is_refused_not_dropped(tmp_path, option):
    # '--baseline ""' (a variable left unset in a release script) gated B alone and could
    # PASS with exit 0: the baseline asked for was silently not compared
    policy = POLICY.split("[[rule]]")[0] + "[[rule]]" + POLICY.split("[[rule]]")[3]
    assert "no_regression" not in policy  # a rule that needs no baseline: B passes alone
    assert gate(tmp_path, policy)[0] == 0
    code, out, err = gate(tmp_path, policy, option, "")
    assert (code, out) == (2, ""), err
    assert ("baseline system '' has no runs" if option == "--baseline" else
            "cannot be read") in err, err
    both = gate(tmp_path, policy, "--baseline", "", "--baseline-file", "x.json")
    assert both[0] == 2 and "not both" in both[2]
