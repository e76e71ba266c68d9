"""fixtures/course-runs is the course data recorded as runs: questions, labels and rankings
unchanged, rebuilt byte for byte by tools/build_course_runs.py."""
import importlib.util
from pathlib import Path

from ragscore.io.course import load_course
from ragscore.io.dataset import dataset_files
from ragscore.folders import load_dataset
from ragscore.io.manifest import fingerprint

ROOT = Path(__file__).resolve().parents[2]


def _builder():
    spec = importlib.util.spec_from_file_location("build_course_runs",
                                                  ROOT / "tools" / "build_course_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fixture_is_what_the_builder_writes():
    built, stored = _builder().build(), load_dataset(ROOT / "fixtures" / "course-runs")
    assert dataset_files(built) == dataset_files(stored)
    assert fingerprint(built) == fingerprint(stored)
    assert stored.manifests == built.manifests


def test_questions_labels_and_rankings_are_the_course_ones():
    course, stored = load_course(), load_dataset(ROOT / "fixtures" / "course-runs")
    for name, case in course.cases.items():
        for key in ("question", "relevant", "support"):
            assert stored.cases[name][key] == case[key]
    for name, per_case in course.runs.items():
        for system, run in per_case.items():
            assert stored.runs[name][system]["retrieved"] == run["retrieved"]
            assert stored.runs[name][system]["claims"] == run["claims"]
    # one record delivers less than its top 2: owner A
    differs = [(name, system) for name, per_case in stored.runs.items()
               for system, run in per_case.items() if run["delivered"] != run["retrieved"][:2]]
    assert differs == [("owner", "A")]
