"""The streaming reader: the same counts as loading then scoring, in one process or two."""
import json

import pytest

import ragscore
from ragscore.core.parallel import in_two
from ragscore.io import dataset as files
from ragscore.io.course import COURSE_PATH
from ragscore.io.dataset import DatasetFileError, read_counts
from ragscore.reports import question_table


@pytest.fixture
def big(tmp_path):
    """The course runs repeated under 60 system names, shuffled out of case order."""
    course = ragscore.load_course()
    runs = {}
    for number in range(60):
        for case in reversed(list(course.runs)):
            for system, run in course.runs[case].items():
                runs.setdefault(case, {})[f"{system}{number}"] = run
    dataset = course._replace(runs=runs)
    folder = ragscore.save_dataset(dataset, tmp_path / "big")
    lines = _runs_file(folder).read_text().splitlines()
    lines = lines[1::2] + lines[0::2]  # interleave the cases
    _runs_file(folder).write_text("\n".join(lines) + "\n")
    return folder


def _runs_file(folder):
    return folder / json.loads((folder / "dataset.json").read_text())["files"]["runs"]


def _frame(counted):
    return question_table(counted, k=2)


def test_read_counts_equals_load_then_count(big):
    expected = question_table(ragscore.load_dataset(big), k=2)
    assert _frame(read_counts(big)).equals(expected)
    assert list(_frame(read_counts(big)).index) == list(expected.index)


def test_two_processes_give_the_same_counts(big, monkeypatch):
    monkeypatch.setattr(files, "PARALLEL_BYTES", 1)
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return in_two(*args, **kwargs)
    monkeypatch.setattr(files, "in_two", counting)
    one, two = read_counts(big), read_counts(big, jobs=2)
    assert calls == [1]  # the second reading forked
    assert one == two and len(one.keys) == 4 * 2 * 60


def _break_line(folder, number, text):
    path = _runs_file(folder)
    lines = path.read_text().splitlines()
    lines[number - 1] = text
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_in_the_second_half_names_its_line(big, monkeypatch, jobs):
    monkeypatch.setattr(files, "PARALLEL_BYTES", 1)
    _break_line(big, 400, '{"case": "owner", "system": "Z", "retrieved": ["ghost"], '
                          '"claims": []}')
    with pytest.raises(DatasetFileError, match=r"runs\.[0-9a-f]{16}\.jsonl, line 400 \(case 'owner', "
                                               r"system 'Z'\): run\['retrieved'\]\[0\]"):
        read_counts(big, jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_first_error_in_the_file_wins(big, monkeypatch, jobs):
    monkeypatch.setattr(files, "PARALLEL_BYTES", 1)
    _break_line(big, 400, "not json")
    _break_line(big, 3, "also not json")
    with pytest.raises(DatasetFileError, match=r"runs\.[0-9a-f]{16}\.jsonl, line 3: not valid JSON"):
        read_counts(big, jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_repeated_across_the_halves_is_refused(big, monkeypatch, jobs):
    monkeypatch.setattr(files, "PARALLEL_BYTES", 1)
    lines = _runs_file(big).read_text().splitlines()
    _break_line(big, 470, lines[1])
    with pytest.raises(DatasetFileError, match=r"runs\.[0-9a-f]{16}\.jsonl, line 470: duplicate run for case"):
        read_counts(big, jobs=jobs)


def test_the_course_reads_the_same_both_ways():
    assert read_counts(COURSE_PATH) == read_counts(COURSE_PATH, jobs=2)
