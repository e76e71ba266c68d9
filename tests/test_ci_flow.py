"""docs/ci.md's flow, run as written on three kinds of test set (the course, the practice
collection, a span test set): ``baseline save``, ``gate --baseline-file`` (a system against
its own baseline passes), the file edited by hand (refused, exit 2, naming it), and a silent
candidate (the same system answering nothing where it answered) failing the gate, exit 1.
"""
import copy
import json

import pytest

from ragscore import load_dataset, save_dataset
from ragscore.cli import capture

POLICY = """k = 2

[[rule]]
name = "no support regression"
metric = "support"
check = "no_regression"
severity = "critical"

[[rule]]
name = "no recall regression"
metric = "recall"
check = "no_regression"
"""


def _span_folder(tmp_path, sentences):
    return save_dataset(sentences, tmp_path / "spans")


@pytest.fixture(params=["course", "practice", "spans"])
def test_set(request, tmp_path, sentences):
    """``(folder, system)``: a copy of the test set, with a system that answers."""
    if request.param == "spans":
        folder = _span_folder(tmp_path, sentences)
    else:
        folder = save_dataset(load_dataset(f"fixtures/{request.param}"),
                              tmp_path / request.param)
    dataset = load_dataset(folder)
    system = next(name for name in dataset.systems
                  if any(run.get("claims") for runs in dataset.runs.values()
                         for who, run in runs.items() if who == name))
    return folder, system


def _silent_copy(folder, system, tmp_path):
    """The test set with system ``silent``: ``system``'s runs, with no claims at all."""
    dataset = load_dataset(folder)
    for runs in dataset.runs.values():
        if system in runs:
            run = copy.deepcopy(runs[system])
            run["claims"] = ()
            runs["silent"] = run
    return save_dataset(dataset, tmp_path / "with-silent")


def test_the_ci_flow_runs_as_written(test_set, tmp_path):
    folder, system = test_set
    policy = tmp_path / "gate.toml"
    policy.write_text(POLICY)
    baseline = tmp_path / "baseline-main.json"
    code, out, err = capture(["baseline", "save", str(folder), "--system", system, "--out",
                              str(baseline)])
    assert code == 0, err
    gate = ["gate", str(folder), "--policy", str(policy), "--candidate", system,
            "--baseline-file", str(baseline)]
    code, out, err = capture(gate)
    assert code == 0, out + err
    assert out.splitlines()[-1] == "verdict: PASS: 2 of 2 rules passed"

    silent = _silent_copy(folder, system, tmp_path)
    code, out, err = capture(["gate", str(silent), "--policy", str(policy), "--candidate",
                              "silent", "--baseline-file", str(baseline)])
    assert code == 1, out + err
    assert "FAIL  no support regression" in out and "more questions than the baseline" in out

    record = json.loads(baseline.read_text())
    first = next(iter(record["questions"]))
    record["questions"][first]["n_retrieved"] += 1  # a hand edit with a valid value
    baseline.write_text(json.dumps(record, indent=1))
    code, out, err = capture(gate)
    assert (code, out) == (2, "")
    assert f"{baseline}: its content does not match its digest" in err
