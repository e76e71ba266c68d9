"""Gate rules may name a measure as ir_measures does (``P@2``, ``nDCG@10``): the same rule
as the registry name with that ``k``."""
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.io.jsonl import DatasetFileError
from ragscore.io.policy import load_policy

COURSE = str(Path(__file__).resolve().parents[2] / "ragscore" / "data" / "course")
RULE = '''k = 1
[[rule]]
name = "precision"
metric = {metric}
check = "min_mean"
threshold = 0.7
{extra}
'''


def _gate(tmp_path, metric, extra=""):
    policy = tmp_path / "gate.toml"
    policy.write_text(RULE.format(metric=metric, extra=extra))
    return capture(["gate", COURSE, "--policy", str(policy), "--candidate", "A"])


def test_a_measure_name_is_the_metric_at_its_cutoff(tmp_path):
    named = _gate(tmp_path, '"P@2"')
    registry = _gate(tmp_path, '"precision"', "k = 2")
    assert named == registry
    # course A at k=2 (README's table): P@2 0.50 on launch, rollback and owner: mean 0.50
    assert "mean P@2 0.5000 over 3 of the 4 questions" in named[1]
    assert named[0] == 1


def test_a_measure_and_a_different_k_is_an_error_naming_the_line(tmp_path):
    policy = tmp_path / "gate.toml"
    policy.write_text(RULE.format(metric='"P@2"', extra="k = 3"))
    with pytest.raises(DatasetFileError, match=r"line 4: metric 'P@2' names cutoff 2 and k "
                                               r"is 3; give one"):
        load_policy(policy)


def test_a_measure_with_parameters_is_its_metric_at_that_level(tmp_path):
    # the course is binary (grade 1): P(rel=1)@2 is P@2 (0.50 on the three answerable
    # questions, as above) and P(rel=2)@2 finds nothing relevant: n/a, so the gate fails
    code, out, _ = _gate(tmp_path, '"P(rel=1)@2"')
    assert code == 1 and "mean P(rel=1)@2 0.5000 over 3 of the 4 questions" in out
    code, out, _ = _gate(tmp_path, '"precision(rel=2)"', "k = 2")
    assert code == 1 and "P(rel=2)@2" in out and "n/a" in out


def test_a_bad_parameter_is_an_error_naming_the_line(tmp_path):
    policy = tmp_path / "gate.toml"
    policy.write_text(RULE.format(metric='"P(rel=x)@2"', extra=""))
    with pytest.raises(DatasetFileError, match=r"line 4: .*parameter rel must be a whole "
                                               r"number from 1 to 1000"):
        load_policy(policy)
