"""The benchmark runs end to end on a small size and its ragscore/pytrec_eval figures agree.

No timing is asserted here: speed is measured by `make bench`, not by the suite.
"""
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_score_runs.py"


def test_benchmark_runs_and_agrees_with_pytrec_eval():
    result = subprocess.run([sys.executable, str(BENCH), "--cases", "1500", "--repeat", "1"],
                            capture_output=True, text=True, check=True, timeout=300)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("1,500 case-runs, corpus of 100,000 docs, k=10")
    assert any(line.startswith("ragscore score_runs") for line in lines)
    if "pytrec_eval is not installed" not in result.stdout:
        assert any(line.startswith("score_runs vs pytrec_eval, run cut to 10:") for line in lines)
        assert lines[-1].endswith("1,500 cases: 0.0e+00")  # P@10, R@10, RR@10 agree exactly


END_TO_END = BENCH.parent / "bench_end_to_end.py"


def test_end_to_end_benchmark_runs_and_agrees_with_pytrec_eval():
    pytest.importorskip("pytrec_eval")
    result = subprocess.run([sys.executable, str(END_TO_END), "--questions", "300",
                             "--repeat", "1"],
                            capture_output=True, text=True, check=True, timeout=120)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("300 questions x 2 systems, corpus of 100,000 docs, k=10")
    for command in ("ragscore report", "ragscore compare", "ragscore eval", "pytrec_eval"):
        assert any(line.startswith(command) for line in lines), command
    agreement = [line for line in lines if line.startswith("largest |difference|")]
    assert agreement == ["largest |difference| in P@10, R@10, RR@10, ragscore report csv vs "
                         "pytrec_eval csv, 600 rows: 0.0e+00"]
    assert any(line.startswith("import ragscore + load_course() + evaluate:") for line in lines)
    assert "ragscore eval agrees: largest |difference| in P@10, R@10, RR@10, eval csv vs " \
           "pytrec_eval csv, 600 rows: 0.0e+00" in lines


IMPORT_TREC = BENCH.parent / "bench_import_trec.py"


def test_import_benchmark_runs():
    result = subprocess.run([sys.executable, str(IMPORT_TREC), "--questions", "50", "--docs",
                             "10", "--repeat", "1"],
                            capture_output=True, text=True, check=True, timeout=120)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("50 questions x 10 docs x 2 systems = 1,000 run lines")
    assert lines[1].startswith("ragscore import_trec: ")


def test_the_statistics_simulation_runs_on_a_small_size():
    script = BENCH.parent / "simulate_stats.py"
    result = subprocess.run([sys.executable, str(script), "--samples", "3", "--resamples",
                             "50"], capture_output=True, text=True, check=True, timeout=120)
    lines = result.stdout.splitlines()
    assert len(lines) == 8
    assert lines[0].startswith("null, n=10: rejected at p <= 0.05 in ")
    assert lines[-1].startswith("mean delta 0.1, n=200: 95% interval covered it in ")


RECORD = BENCH.parent / "bench_record.py"


def test_record_benchmark_runs_and_prints_the_overhead_per_call():
    result = subprocess.run([sys.executable, str(RECORD), "--questions", "200"],
                            capture_output=True, text=True, check=True, timeout=120)
    lines = result.stdout.splitlines()
    assert lines[0] == "200 questions, default concurrency 8, local endpoint in another process"
    assert sum(line.startswith("recorder overhead per call") for line in lines) == 2


TREC_EVAL_DIFF = BENCH.parent / "trec_eval_diff.py"


@pytest.mark.exhaustive
def test_trec_eval_layout_equals_the_real_binary_byte_for_byte():
    """``report --trec-eval`` against trec_eval itself (set $TREC_EVAL to a built binary,
    e.g. trec_eval 9.0.8 from github.com/usnistgov/trec_eval): every line the same, for
    every measure ``--trec-eval`` names, on both systems of the shipped TREC fixture."""
    import os

    binary = os.environ.get("TREC_EVAL")
    if not binary or not os.access(binary, os.X_OK):
        pytest.skip("set TREC_EVAL to a trec_eval binary")
    result = subprocess.run([sys.executable, str(TREC_EVAL_DIFF), "--trec-eval", binary],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[1:] == ["bm25: same (52 lines)",
                                              "dense: same (39 lines)"]


def test_the_span_benchmark_runs_on_a_small_size(tmp_path):
    script = BENCH.parent / "bench_spans.py"
    result = subprocess.run([sys.executable, str(script), "--questions", "200", "--documents",
                             "20", "--chunks", "2000", "--repeat", "1", "--shapes", "cut",
                             "--data", str(tmp_path)],
                            capture_output=True, text=True, check=True, timeout=300)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("200 questions over 20 documents and 2,000 chunks")
    for command in ("import spans", "labels --format csv", "report --format csv"):
        assert any(line.startswith(f"  ragscore {command}: wall best") for line in lines)
    assert any(line.startswith("  in process, CPU seconds:") and "(200 questions, 0 labels "
               "lost)" in line for line in lines)


VERIFY = BENCH.parent / "bench_verify.py"


@pytest.mark.exhaustive
def test_the_content_check_benchmark_runs_and_its_reports_agree(tmp_path):
    result = subprocess.run([sys.executable, str(VERIFY), "--questions", "200", "--repeat",
                             "1", "--data", str(tmp_path / "data")],
                            capture_output=True, text=True, check=True, timeout=300)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("200 questions x 2 systems, corpus of 100,000 docs")
    for layout in ("v5 (parquet runs)", "v2 (json lines)"):
        assert sum(line.startswith(layout) for line in lines) == 2, layout
    assert lines[-1] == ("checked and --no-verify reports: identical CSV for every layout and "
                         "engine")


SHAPES = BENCH.parent / "bench_shapes.py"


def test_the_benchmark_of_shapes_runs_and_every_value_agrees_with_pytrec_eval():
    pytest.importorskip("pytrec_eval")
    result = subprocess.run([sys.executable, str(SHAPES), "--shape", "chunks", "--questions",
                             "20", "--scale", "1", "--repeat", "1", "--start-repeat", "1"],
                            capture_output=True, text=True, check=True, timeout=300)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("shapes chunks at 1x; measures P@10 R@100 RR nDCG@10 nDCG AP")
    assert any(line.startswith("start: ragscore eval on one line") for line in lines)
    for command in ("eval", "import", "report", "pytrec_eval", "import + report"):
        assert any(line.startswith(f"{command} ") for line in lines), command
    # 20 questions, one in 20 without qrels: 19 judged x 6 measures
    assert "eval against pytrec_eval: 114 values compared, 0 differ" in lines
    assert "report against pytrec_eval: 114 values compared, 0 differ" in lines
