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
    # the runs do not follow the cases' order: reading in two parts (cases and runs) gives
    # up, and the runs are read in two halves after all the cases
    assert calls == [1, 1]
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


# ---- two parts: cases and runs cut where the runs of one case start ------------------------

@pytest.fixture
def aligned(tmp_path):
    """40 questions (the course's four, ten times over), each run by 2 systems plus 3
    trials of a third, saved as save_dataset writes them: runs in the cases' order."""
    course = ragscore.load_course()
    cases, runs = {}, {}
    for copy in range(10):
        for case, labels in course.cases.items():
            name = f"{case}-{copy}"
            cases[name] = dict(labels, tags=("copy",)) if copy == 7 else labels
            runs[name] = dict(course.runs[case])
            runs[name]["T"] = [dict(course.runs[case]["A"], latency_ms=10 + trial, trial=trial + 1)
                               for trial in range(3)]
    return ragscore.save_dataset(course._replace(cases=cases, runs=runs), tmp_path / "aligned")


@pytest.fixture
def parts(monkeypatch):
    """Make every runs file large enough to split; record whether two parts were read."""
    monkeypatch.setattr(files, "PARALLEL_BYTES", 1)
    taken = []
    original = files._in_two_parts

    def spying(*args, **kwargs):
        result = original(*args, **kwargs)
        taken.append(result is not None)
        return result
    monkeypatch.setattr(files, "_in_two_parts", spying)
    return taken


def test_two_parts_give_what_one_process_does(aligned, parts):
    one, two = read_counts(aligned), read_counts(aligned, jobs=2)
    assert parts == [True]
    assert one == two and len(one.keys) == 40 * 3
    assert two.attributes["launch-7"] == {"tags": ("copy",), "split": None}
    assert two.attributes["owner-9"] == {"tags": (), "split": None}
    # by hand: each question's third system ran 3 trials, 10 + 11 + 12 ms
    assert two.ops[("region-9", "T")] == [{"latency_ms": 10}, {"latency_ms": 11},
                                          {"latency_ms": 12}]
    assert _frame(two).equals(question_table(ragscore.load_dataset(aligned), k=2))


def _lines(path):
    return path.read_text().splitlines()


def _cases_file(folder):
    return folder / json.loads((folder / "dataset.json").read_text())["files"]["cases"]


def test_a_problem_anywhere_is_reported_as_one_process_reports_it(aligned, parts):
    cases = _lines(_cases_file(aligned))
    cases[-2] = cases[-2].replace('"relevant": [', '"relevant": ["ghost", ', 1)
    _cases_file(aligned).write_text("\n".join(cases) + "\n")
    runs = _lines(_runs_file(aligned))
    runs[5] = runs[5].replace('"retrieved": [', '"retrieved": ["ghost", ', 1)
    _runs_file(aligned).write_text("\n".join(runs) + "\n")
    with pytest.raises(DatasetFileError) as single:
        read_counts(aligned)
    with pytest.raises(DatasetFileError) as double:
        read_counts(aligned, jobs=2)
    assert str(double.value) == str(single.value) and parts == [False]
    # by hand: every case is read before any run, so the bad case (line 39 of 40) comes first
    assert "jsonl, line 39" in str(single.value) and "ghost" in str(single.value)


def test_a_case_in_both_parts_is_refused_as_one_process_refuses_it(aligned, parts):
    cases = _lines(_cases_file(aligned))
    cases[-1] = cases[0]  # the first question again, in the second part
    _cases_file(aligned).write_text("\n".join(cases) + "\n")
    with pytest.raises(DatasetFileError, match=r"line 40: duplicate case id 'launch-0'"):
        read_counts(aligned, jobs=2)
    assert parts == [False]


def test_a_run_naming_a_case_of_the_other_part_is_read_the_ordinary_way(aligned, parts):
    runs = _lines(_runs_file(aligned))
    runs.append(runs.pop(0))  # the first question's first run, now last
    _runs_file(aligned).write_text("\n".join(runs) + "\n")
    assert read_counts(aligned, jobs=2) == read_counts(aligned)
    assert parts == [False]
