"""A light start: ``ragscore eval`` (every format) and ``ragscore report`` with
``--measures``, ``--trec-eval`` or ``--format csv`` import neither pandas nor matplotlib
(issue 42); each command runs in a fresh interpreter, which then lists what it imported."""
import subprocess
import sys

import pytest

CHECK = """
import contextlib, io, sys
from ragscore.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(code, sorted(name for name in ("pandas", "matplotlib") if name in sys.modules))
"""


@pytest.fixture(scope="module")
def trec_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("light")
    (folder / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n", encoding="utf-8")
    (folder / "run").write_text("q1 Q0 d2 1 2.0 bm25\nq1 Q0 d1 2 1.0 bm25\n"
                                "q2 Q0 d3 1 0.5 bm25\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "ragscore", "import", "trec", "--qrels",
                             str(folder / "qrels"), "--run", str(folder / "run"), "--out",
                             str(folder / "set")], capture_output=True, text=True, check=True)
    assert "wrote" in result.stdout
    return folder


@pytest.mark.parametrize("arguments", [
    ["eval", "{q}", "{r}"], ["eval", "{q}", "{r}", "-q", "--format", "csv"],
    ["eval", "{q}", "{r}", "-q", "--format", "json"], ["eval", "{q}", "{r}", "--trec-eval", "-q"],
    ["report", "{d}", "--measures", "P@10 AP"], ["report", "{d}", "--format", "csv"],
    ["report", "{d}", "--trec-eval"]], ids=" ".join)
def test_scoring_trec_files_or_a_folder_imports_no_pandas_nor_matplotlib(trec_files, arguments):
    names = {"q": trec_files / "qrels", "r": trec_files / "run", "d": trec_files / "set"}
    argv = [argument.format(**names) for argument in arguments]
    result = subprocess.run([sys.executable, "-c", CHECK, *argv], capture_output=True,
                            text=True, check=True)
    assert result.stdout.split("\n")[0] == "0 []", result.stdout + result.stderr
