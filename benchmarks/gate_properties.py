"""The gate's metamorphic properties and the TREC reader's differential test, run long.

    python benchmarks/gate_properties.py                    # 5,000 examples per property
    python benchmarks/gate_properties.py --examples 50000   # longer

``make test`` runs the same tests derandomized and small (tests/core/test_gate_metamorphic.py,
tests/importers/test_trec_differential.py: a few seconds); this script runs them with
fresh random examples (``RAGSCORE_GATE_EXAMPLES``, ``RAGSCORE_TREC_TRIALS``) and prints
pytest's summary and the wall time. Nothing is timed against a peer: it is a search for
counterexamples, not a speed figure.
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ("tests/core/test_gate_metamorphic.py", "tests/importers/test_trec_differential.py")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000,
                        help="examples per property (default 5000)")
    args = parser.parse_args(argv)
    env = dict(os.environ, RAGSCORE_GATE_EXAMPLES=str(args.examples),
               RAGSCORE_TREC_TRIALS=str(max(args.examples // 10, 1)))
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-o", "addopts=", *TESTS], cwd=ROOT, env=env)
    print(f"{args.examples:,} examples per gate property, "
          f"{max(args.examples // 10, 1):,} generated TREC runs: "
          f"{time.perf_counter() - started:.1f} s")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
