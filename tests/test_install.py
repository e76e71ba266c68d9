"""The CLI-only install: ``pip install .`` (no extras) in a fresh virtual environment gives
the ``ragscore`` command without JupyterLab, matplotlib or ipywidgets, and it imports a TREC
test set and reports named measures. Slow (it builds an environment): under
``make test-all`` only. README's install section quotes the time and size measured here."""
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "fixtures" / "import" / "trec"


@pytest.mark.exhaustive
def test_cli_only_install_in_a_fresh_environment(tmp_path):
    fresh = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(fresh)], check=True)
    started = time.monotonic()
    subprocess.run([str(fresh / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", str(ROOT)], check=True, cwd=tmp_path)
    installed = time.monotonic() - started
    probe = subprocess.run(
        [str(fresh / "bin" / "python"), "-c",
         "import importlib.util as u; print([m for m in ('matplotlib', 'ipywidgets', "
         "'jupyterlab', 'voila', 'playwright') if u.find_spec(m)])"],
        check=True, capture_output=True, text=True)
    assert probe.stdout.strip() == "[]"
    ragscore = str(fresh / "bin" / "ragscore")
    subprocess.run([ragscore, "import", "trec", "--qrels", str(TREC / "qrels.txt"), "--run",
                    str(TREC / "dense.run"), "--missing-run", "skip", "--out",
                    str(tmp_path / "dense")], check=True, capture_output=True, cwd=tmp_path)
    report = subprocess.run([ragscore, "report", str(tmp_path / "dense"), "--measures",
                             "nDCG@10 AP"], check=True, capture_output=True, text=True,
                            cwd=tmp_path)
    # dense, by hand: AP q1 0.25, q2 0.5 (see tests/test_cli_measures.py); mean 0.375
    assert "dense   AP       macro   0.3750     2         0" in report.stdout
    print(f"install {installed:.0f} s")  # shown with pytest -s
