"""The reader's plain paths (labels and counts straight off JSON values) agree with the full
checks on every record they take, and hand every other record to them."""
import json

import pytest

import ragscore
from ragscore.io import dataset as files
from ragscore.io.course import COURSE_PATH
from ragscore.io.dataset import DatasetFileError, read_counts

FIXTURES = COURSE_PATH.parent.parent.parent / "fixtures"


def _full_only(monkeypatch):
    monkeypatch.setattr(files, "_plain_corpus", lambda path, handle, rules, max_bytes: None)
    monkeypatch.setattr(files, "plain_labels", lambda counter: None)
    monkeypatch.setattr(files, "plain_counter", lambda counter, labels: None)


def _both_ways(monkeypatch, folder, **options):
    """``(plain, full)``: the result or the error message of read_counts each way."""
    results = []
    for full in (False, True):
        with monkeypatch.context() as patch:
            if full:
                _full_only(patch)
            try:
                results.append(read_counts(folder, **options))
            except DatasetFileError as error:
                results.append(f"error: {error}")
    return results


@pytest.mark.parametrize("name", ["course", "course-runs", "practice"])
def test_the_shipped_folders_read_the_same_both_ways(monkeypatch, name):
    plain, full = _both_ways(monkeypatch, FIXTURES / name)
    assert not isinstance(plain, str) and plain == full


def _taken(monkeypatch, folder):
    """How many case and run records the plain paths took while reading ``folder``."""
    taken = []
    labels_of, counter_of = files.plain_labels, files.plain_counter

    def noted(kind, result):
        if result is not None:
            taken.append(kind)
        return result

    monkeypatch.setattr(files, "plain_labels", lambda counter: (
        lambda record, plain=labels_of(counter): noted("case", plain(record))))
    monkeypatch.setattr(files, "plain_counter", lambda counter, labels: (
        lambda case, record, plain=counter_of(counter, labels): noted("run", plain(case, record))))
    read_counts(folder)
    return taken.count("case"), taken.count("run")


def test_the_plain_paths_take_the_common_records(monkeypatch):
    # the course: 4 questions and 2 systems each, every record in the common shape
    assert _taken(monkeypatch, COURSE_PATH) == (4, 8)


@pytest.fixture
def folder(tmp_path):
    return ragscore.save_dataset(ragscore.load_course(), tmp_path / "course")


def _file(folder, kind):
    return folder / json.loads((folder / "dataset.json").read_text())["files"][kind]


def _replace_line(folder, kind, number, record):
    path = _file(folder, kind)
    lines = path.read_text().splitlines()
    lines[number - 1] = record if isinstance(record, str) else json.dumps(record)
    path.write_text("\n".join(lines) + "\n")


def _line(folder, kind, number):
    return json.loads(_file(folder, kind).read_text().splitlines()[number - 1])


RUN_CHANGES = {
    "a citation outside the corpus (valid ID)": lambda run: run["claims"].append(
        {"claim": "extra", "citations": ["nowhere"]}),
    "a citation that is not an ID": lambda run: run["claims"].append(
        {"claim": "extra", "citations": ["Not An ID"]}),
    "a number retrieved": lambda run: run["retrieved"].append(5),
    "a list retrieved": lambda run: run["retrieved"].append(["launch"]),
    "an ID retrieved twice": lambda run: run["retrieved"].append(run["retrieved"][0]),
    "an unknown ID retrieved": lambda run: run["retrieved"].append("ghost"),
    "a claim repeated": lambda run: run["claims"].extend(run["claims"][:1] * 2),
    "a claim ID that is not an ID": lambda run: run["claims"].append(
        {"claim": "Bad Claim", "citations": []}),
    "a claim without citations": lambda run: run["claims"].append(
        {"claim": "bare", "citations": []}),
    "a claim with a third key": lambda run: run["claims"].append(
        {"claim": "odd", "citations": [], "note": "x"}),
    "a citation repeated": lambda run: run["claims"].append(
        {"claim": "twice", "citations": ["launch", "launch"]}),
    "claims not a list": lambda run: run.update(claims={"claim": "x"}),
    "a system name that is not an ID": lambda run: run.update(system="Bad System"),
    "a case not in the cases file": lambda run: run.update(case="nowhere"),
}


@pytest.mark.parametrize("change", list(RUN_CHANGES))
def test_a_run_record_off_the_plain_path_reads_as_before(monkeypatch, folder, change):
    run = _line(folder, "runs", 3)
    RUN_CHANGES[change](run)
    _replace_line(folder, "runs", 3, run)
    plain, full = _both_ways(monkeypatch, folder)
    assert plain == full


def test_a_run_repeated_is_refused_the_same_way(monkeypatch, folder):
    _replace_line(folder, "runs", 5, _line(folder, "runs", 2))
    plain, full = _both_ways(monkeypatch, folder)
    assert plain == full and plain.startswith("error: ") and "duplicate run for case" in plain


CASE_CHANGES = {
    "relevant repeated": lambda case: case["relevant"].append(case["relevant"][0]),
    "relevant unknown": lambda case: case["relevant"].append("ghost"),
    "relevant a number": lambda case: case["relevant"].append(7),
    "a source outside relevant": lambda case: case["support"].update(extra=["archive"]),
    "a source list empty": lambda case: case["support"].update(extra=[]),
    "a claim ID that is not an ID": lambda case: case["support"].update({"Bad": ["launch"]}),
    "support not an object": lambda case: case.update(support=["launch"]),
    "a question that is not a string": lambda case: case.update(question=3),
    "an unknown key": lambda case: case.update(colour="blue"),
    "relevant empty, support not": lambda case: case.update(relevant=[]),
}


@pytest.mark.parametrize("change", list(CASE_CHANGES))
def test_a_case_record_off_the_plain_path_reads_as_before(monkeypatch, folder, change):
    case = _line(folder, "cases", 2)
    CASE_CHANGES[change](case)
    _replace_line(folder, "cases", 2, case)
    plain, full = _both_ways(monkeypatch, folder)
    assert plain == full and plain.startswith("error: ")


def test_a_case_repeated_is_refused_the_same_way(monkeypatch, folder):
    _replace_line(folder, "cases", 3, _line(folder, "cases", 1))
    plain, full = _both_ways(monkeypatch, folder)
    assert plain == full and "duplicate case id" in plain


@pytest.fixture(params=["trec", "ragas"])
def imported(request, tmp_path):
    """An open-rules folder: TREC (graded labels, rankings only) or Ragas (answers too)."""
    from ragscore.io.importers import import_ragas, import_trec

    source = FIXTURES / "import" / request.param
    if request.param == "trec":
        dataset, _ = import_trec(source / "qrels.txt", [source / "bm25.run", source / "dense.run"])
    else:
        dataset, _ = import_ragas([(source / "bm25.csv", "bm25"), (source / "dense.jsonl", "dense")])
    return ragscore.save_dataset(dataset, tmp_path / request.param)


def test_open_folders_read_the_same_both_ways(monkeypatch, imported):
    cases = len(_file(imported, "cases").read_text().splitlines())
    runs = len(_file(imported, "runs").read_text().splitlines())
    with monkeypatch.context() as patch:
        assert _taken(patch, imported) == (cases, runs)  # graded, rankings only: all plain
    plain, full = _both_ways(monkeypatch, imported)
    assert not isinstance(plain, str) and plain == full
    plain, full = _both_ways(monkeypatch, imported, dedupe=True)  # the plain path steps aside
    assert plain == full


def _first_judged(case):
    relevant = case["relevant"]
    return next(iter(relevant)) if relevant else "nothing"


OPEN_CASE_CHANGES = {
    "a grade that is not an int": lambda case: case.update(relevant={_first_judged(case): 1.5}),
    "a grade that is true": lambda case: case.update(relevant={_first_judged(case): True}),
    "a graded ID outside the corpus": lambda case: case.update(relevant={"nowhere-at-all": 2}),
    "support null": lambda case: case.update(support=None),
}


@pytest.mark.parametrize("change", list(OPEN_CASE_CHANGES))
def test_an_open_case_off_the_plain_path_reads_as_before(monkeypatch, imported, change):
    case = _line(imported, "cases", 1)
    OPEN_CASE_CHANGES[change](case)
    _replace_line(imported, "cases", 1, case)
    plain, full = _both_ways(monkeypatch, imported)
    assert plain == full and plain.startswith("error: ")


def test_a_ranking_without_claims_stays_unassessed(monkeypatch, imported):
    run = _line(imported, "runs", 1)
    run.pop("claims", None)
    _replace_line(imported, "runs", 1, run)
    plain, full = _both_ways(monkeypatch, imported)
    assert plain == full and plain.counts[0].n_claims is None


CORPUS_CHANGES = {
    "a colon in a text": lambda doc: doc.update(text="Note: the window opens Monday."),
    "a repeated ID": lambda doc: doc.update(id="launch"),
    "an ID that is not an ID": lambda doc: doc.update(id="Not An ID"),
    "a blank text": lambda doc: doc.update(text="   "),
    "a number as text": lambda doc: doc.update(text=5),
    "no text": lambda doc: doc.pop("text"),
    "an extra key": lambda doc: doc.update(colour="blue"),
    "a blank line": None,
    "two objects on a line": None,
}


@pytest.mark.parametrize("change", list(CORPUS_CHANGES))
def test_a_corpus_off_the_plain_path_reads_as_before(monkeypatch, folder, change):
    if change == "a blank line":
        _replace_line(folder, "corpus", 3, "   ")
    elif change == "two objects on a line":
        _replace_line(folder, "corpus", 3, '{"id": "extra-1", "text": "a"}, {"id": "extra-2", '
                                           '"text": "b"}')
    else:
        doc = _line(folder, "corpus", 3)
        CORPUS_CHANGES[change](doc)
        _replace_line(folder, "corpus", 3, doc)
    plain, full = _both_ways(monkeypatch, folder)
    assert plain == full
    with monkeypatch.context() as patch:
        _full_only(patch)
        expected = _loaded_or_error(folder)
    assert _loaded_or_error(folder) == expected


def _loaded_or_error(folder):
    try:
        return ragscore.load_dataset(folder).corpus
    except DatasetFileError as error:
        return f"error: {error}"


def test_a_plain_corpus_is_read_whole(monkeypatch, folder):
    calls = []
    whole = files._plain_corpus
    monkeypatch.setattr(files, "_plain_corpus", lambda *args: calls.append(1) or whole(*args))
    corpus = ragscore.load_dataset(folder).corpus
    assert calls == [1] and corpus == ragscore.load_course().corpus
    from ragscore.core.rules import COURSE
    from ragscore.io.jsonl import MAX_FILE_BYTES

    path = _file(folder, "corpus")
    with open(path, "rb") as handle:  # the course corpus takes this path
        ids, texts = whole(path, handle, COURSE, MAX_FILE_BYTES)
    assert dict(zip(ids, texts)) == ragscore.load_course().corpus
