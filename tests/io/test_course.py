"""The course data ships inside the package: a built wheel runs the demo from any folder."""
import subprocess
import sys
from pathlib import Path

import pytest

import ragscore
from ragscore.io.course import COURSE_PATH

ROOT = Path(__file__).resolve().parents[2]


def test_the_course_is_read_from_the_package_and_fixtures_points_at_it():
    assert COURSE_PATH == Path(ragscore.__file__).parent / "data" / "course"
    assert (ROOT / "fixtures" / "course").resolve() == COURSE_PATH.resolve()
    assert sorted(p.name for p in COURSE_PATH.iterdir()) == [
        "cases.jsonl", "corpus.jsonl", "dataset.json", "runs.jsonl"]


@pytest.mark.slow
def test_a_built_wheel_prints_the_demo_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--disable-pip-version-check", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True, cwd=tmp_path)
    (wheel,) = wheels.glob("ragscore_workbook-*.whl")
    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(fresh)], check=True)
    subprocess.run([str(fresh / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    "--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)],
                   check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run([str(fresh / "bin" / "ragscore"), "demo"], cwd=elsewhere,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[5] == "owner A | 0.50 1.00 0.50 0.00 0.00 n/a"
    assert len(result.stdout.splitlines()) == 9
