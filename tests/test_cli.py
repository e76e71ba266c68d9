"""The command line: the demo prints the workbook's table byte for byte."""
import subprocess
import sys

import pytest

from ragscore.cli import main

# Chapter 4's expected output, copied from the workbook (the reference, not from our code).
WORKBOOK_OUTPUT = """\
case system | P@2 R@2 RR@2 support coverage abstention
launch A | 0.50 1.00 1.00 1.00 1.00 n/a
launch B | 0.50 1.00 1.00 0.50 1.00 n/a
rollback A | 0.50 0.50 1.00 1.00 0.50 n/a
rollback B | 1.00 1.00 1.00 1.00 1.00 n/a
owner A | 0.50 1.00 0.50 0.00 0.00 n/a
owner B | 0.50 1.00 1.00 1.00 1.00 n/a
region A | n/a n/a n/a 0.00 n/a no
region B | n/a n/a n/a n/a n/a yes
"""


def test_python_m_ragscore_demo_prints_the_workbook_table_exactly():
    result = subprocess.run([sys.executable, "-m", "ragscore", "demo"], capture_output=True,
                            check=True)
    assert result.stdout == WORKBOOK_OUTPUT.encode()
    assert result.stderr == b""


def test_demo_at_k1(capsys):
    assert main(["demo", "--k", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "case system | P@1 R@1 RR@1 support coverage abstention"
    assert lines[4] == "rollback B | 1.00 0.50 1.00 0.50 0.50 n/a"
    assert lines[5] == "owner A | 0.00 0.00 0.00 0.00 0.00 n/a"


@pytest.mark.parametrize("k", ["0", "101", "two", "1.5"])
def test_demo_refuses_a_bad_k_without_a_traceback(k, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--k", k])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"k must be a whole number from 1 to 100; got '{k}'" in err
    assert "Traceback" not in err


def test_missing_dataset_is_a_clear_error(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragscore: error: ")
    assert "nowhere: no dataset folder there" in err
