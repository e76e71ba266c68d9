"""Ragas samples: the fixture (one JSON Lines and one CSV file) worked by hand, contexts given
as text, v0.1 names, files that disagree, and pinned messages."""
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from ragscore.importers._common import LIST_ORDER_NOTE

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.importers import import_ragas

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "ragas"
DENSE, BM25 = FIXTURE / "dense.jsonl", FIXTURE / "bm25.csv"
FERRY = "Which pier does the island ferry leave from?"
TIDE = "How many times a day is high tide?"
LIGHT = "Who repaints the lighthouse?"


def _hash(text, digits=12):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:digits]


def _exactly(path, line, text):
    return "^" + re.escape(f"{path}, line {line}: {text}") + "$"


def _jsonl(path, *rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_case_ids_are_short_hashes_of_the_questions():
    dataset, _ = import_ragas([(DENSE, "dense"), (BM25, "bm25")])
    assert list(dataset.cases) == [_hash(FERRY), _hash(TIDE), _hash(LIGHT)]
    assert list(dataset.cases) == ["3a26e54c4107", "75008f881c2e", "0aae3c4930c0"]


def test_fixture_cases_runs_and_corpus():
    dataset, notes = import_ragas([(DENSE, "dense"), (BM25, "bm25")])
    ferry, tide, light = dataset.cases
    assert dataset.cases == {
        ferry: {"question": FERRY, "relevant": ("ferry-timetable",)},
        tide: {"question": TIDE, "relevant": ("tide-table", "tide-almanac")},
        light: {"question": LIGHT, "relevant": ("lighthouse-log",)},
    }
    assert dataset.runs == {  # the CSV's lists are Python lists, and one a JSON array
        ferry: {"dense": {"retrieved": ("ferry-timetable", "gull-notes"),
                          "answer": "From the north pier."},
                "bm25": {"retrieved": ("gull-notes", "ferry-timetable"),
                         "answer": "The north pier, at nine."}},
        tide: {"dense": {"retrieved": ("tide-almanac", "tide-table"), "answer": "Twice a day."},
               "bm25": {"retrieved": ("tide-table",),
                        "answer": "Twice a day,\nabout twelve hours apart."}},
        light: {"dense": {"retrieved": ("gull-notes",), "answer": "Nobody knows."},
                "bm25": {"retrieved": (), "answer": "I could not find it."}},
    }
    # texts beside the retrieved IDs (dense.jsonl) become corpus text; lighthouse-log has none
    assert dataset.corpus == {
        "ferry-timetable": "The island ferry leaves the north pier at nine.",
        "gull-notes": "Gulls nest on the warehouse roof.",
        "tide-table": "High tide comes twice a day.",
        "tide-almanac": "Spring tides follow the full moon.",
        "lighthouse-log": None,
    }
    assert notes == {"texts differing from the first text of their ID (first kept)": 0,
                     "text lists not as long as their ID lists (texts not kept)": 0,
                     "ranking order": LIST_ORDER_NOTE}
    assert (dataset.ids, dataset.name, dataset.systems) == ("open", "dense", ("dense", "bm25"))


def test_saves_and_loads_back_unchanged(tmp_path):
    dataset, _ = import_ragas([(DENSE, "dense"), (BM25, "bm25")], name="ragas")
    assert load_dataset(save_dataset(dataset, tmp_path / "ragas")) == dataset


def test_contexts_given_as_text_are_named_by_their_hash(tmp_path):
    a = _jsonl(tmp_path / "a.jsonl", {"user_input": "Q?", "reference_contexts": ["Red."],
                                      "retrieved_contexts": ["Blue.", "Red."]})
    b = _jsonl(tmp_path / "b.jsonl", {"user_input": "Q?", "reference_contexts": ["Red."],
                                      "retrieved_contexts": ["Red."]})
    dataset, _ = import_ragas([(a, "a"), (b, "b")])
    red, blue = f"ctx-{_hash('Red.', 16)}", f"ctx-{_hash('Blue.', 16)}"
    assert dataset.cases == {_hash("Q?"): {"question": "Q?", "relevant": (red,)}}
    assert dataset.runs[_hash("Q?")] == {"a": {"retrieved": (blue, red)},
                                         "b": {"retrieved": (red,)}}
    assert dataset.corpus == {red: "Red.", blue: "Blue."}


def test_v01_names_are_read_and_ground_truth_is_a_reference_answer(tmp_path):
    old = _jsonl(tmp_path / "old.jsonl", {
        "question": "Q?", "contexts": ["Red."], "answer": "Red.", "ground_truth": "Red.",
        "reference_contexts": ["Red."]})
    dataset, _ = import_ragas([(old, "old")])
    red = f"ctx-{_hash('Red.', 16)}"
    assert dataset.cases[_hash("Q?")] == {"question": "Q?", "relevant": (red,),
                                          "reference": ("Red.",)}
    assert dataset.runs[_hash("Q?")]["old"] == {"retrieved": (red,), "answer": "Red."}
    # a reference answer without reference contexts: nothing labelled relevant
    answer_only = _jsonl(tmp_path / "answer.jsonl", {
        "question": "Q?", "contexts": ["Red."], "ground_truth": "Red."})
    dataset, _ = import_ragas([(answer_only, "old")])
    assert dataset.cases[_hash("Q?")] == {"question": "Q?", "relevant": (),
                                          "reference": ("Red.",)}
    neither = _jsonl(tmp_path / "neither.jsonl", {"question": "Q?", "contexts": ["Red."]})
    with pytest.raises(DatasetFileError, match=_exactly(
            neither, 1, "missing reference contexts: expected column "
                        "'reference_context_ids' or 'reference_contexts'")):
        import_ragas([(neither, "old")])


def test_an_id_column_names_the_cases(tmp_path):
    path = _jsonl(tmp_path / "ids.jsonl",
                  {"id": 7, "user_input": "Q?", "reference_context_ids": ["a"],
                   "retrieved_context_ids": ["a"]},
                  {"id": None, "user_input": "R?", "reference_context_ids": [],
                   "retrieved_context_ids": ["a"]})
    dataset, _ = import_ragas([(path, "s")])
    assert list(dataset.cases) == ["7", _hash("R?")]


def test_texts_that_differ_or_do_not_pair_are_counted(tmp_path):
    a = _jsonl(tmp_path / "a.jsonl", {
        "user_input": "Q?", "reference_context_ids": ["n1"],
        "retrieved_context_ids": ["n1", "n2"], "retrieved_contexts": ["One.", "Two."]})
    b = _jsonl(tmp_path / "b.jsonl", {
        "user_input": "Q?", "reference_context_ids": ["n1"],
        "retrieved_context_ids": ["n1"], "retrieved_contexts": ["One, edited."]},)
    c = _jsonl(tmp_path / "c.jsonl", {
        "user_input": "Q?", "reference_context_ids": ["n1"],
        "retrieved_context_ids": ["n2"], "retrieved_contexts": ["Two.", "Extra."]})
    dataset, notes = import_ragas([(a, "a"), (b, "b"), (c, "c")])
    assert dataset.corpus == {"n1": "One.", "n2": "Two."}
    assert notes == {"texts differing from the first text of their ID (first kept)": 1,
                     "text lists not as long as their ID lists (texts not kept)": 1,
                     "ranking order": LIST_ORDER_NOTE}


# ---- files that disagree, and bad lines ---------------------------------------------------------

def _row(question, reference=("a",), retrieved=("a",)):
    return {"user_input": question, "reference_context_ids": list(reference),
            "retrieved_context_ids": list(retrieved)}


def test_a_question_missing_from_a_later_file_is_named(tmp_path):
    a = _jsonl(tmp_path / "a.jsonl", _row("Q?"), _row("R?"))
    b = _jsonl(tmp_path / "b.jsonl", _row("Q?"))
    with pytest.raises(DatasetFileError, match="^" + re.escape(
            f"{b}: question '{_hash('R?')}' ('R?', a.jsonl, line 2) is not in this file; "
            "every file must hold the same questions") + "$"):
        import_ragas([(a, "a"), (b, "b")])


@pytest.mark.parametrize("row, message", [
    (_row("S?"), f"question '{_hash('S?')}' ('S?') is not in a.jsonl; every file must hold "
                 "the same questions"),
    (_row("Q?", reference=("b",)), f"question '{_hash('Q?')}' has reference contexts ('b',) "
                                   "here but ('a',) at a.jsonl, line 1"),
    ({**_row("Q, reworded?"), "id": "q"},
     "question 'q' reads 'Q, reworded?' here but 'Q?' at a.jsonl, line 1"),
])
def test_a_later_file_that_disagrees_is_named_at_its_line(tmp_path, row, message):
    first = {**_row("Q?"), "id": "q"} if "id" in row else _row("Q?")
    a = _jsonl(tmp_path / "a.jsonl", first)
    b = _jsonl(tmp_path / "b.jsonl", row)
    with pytest.raises(DatasetFileError, match=_exactly(b, 1, message)):
        import_ragas([(a, "a"), (b, "b")])


@pytest.mark.parametrize("row, message", [
    (_row("Q?", retrieved=("a", "b", "a")),
     "column 'retrieved_context_ids' lists 'a' twice (a repeated ID is refused, not dropped)"),
    ({"user_input": "Q?", "reference_context_ids": ["a"], "retrieved_contexts": ["A."]},
     "reference contexts come as IDs and retrieved ones as texts, which cannot be matched; "
     "give both as IDs or both as texts"),
    ({"reference_context_ids": ["a"], "retrieved_context_ids": ["a"]},
     "column 'user_input' must be a non-blank string; got None"),
    ({**_row("Q?"), "reference_context_ids": ["a", 3]},
     "column 'reference_context_ids' must be a list of strings; got ['a', 3]"),
    ({**_row("Q?"), "retrieved_context_ids": "a"},
     "column 'retrieved_context_ids' must be a list of strings; got 'a'"),
    ({**_row("Q?"), "id": " q"}, "column 'id' must be an ID of 1 to 512 characters with no "
                                 "control character and no leading or trailing whitespace; "
                                 "got ' q'"),
])
def test_a_bad_row_is_named(tmp_path, row, message):
    path = _jsonl(tmp_path / "a.jsonl", _row("P?"), row)
    with pytest.raises(DatasetFileError, match=_exactly(path, 2, message)):
        import_ragas([(path, "a")])


def test_a_question_twice_in_one_file_is_named(tmp_path):
    path = _jsonl(tmp_path / "a.jsonl", _row("Q?"), _row("R?"), _row("Q?"))
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 3, f"question '{_hash('Q?')}' is already on line 1")):
        import_ragas([(path, "a")])


def test_csv_lines_are_counted_across_quoted_line_breaks(tmp_path):
    path = tmp_path / "bm25.csv"
    shutil.copy(BM25, path)
    path.write_text(path.read_text().replace("[],", "\"['gull-notes', 'gull-notes']\","))
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 5, "column 'retrieved_context_ids' lists 'gull-notes' twice (a repeated ID "
                     "is refused, not dropped)")):
        import_ragas([(path, "bm25")])


@pytest.mark.parametrize("cell, message", [
    ('"[\'a\' \'b\']"', "column 'retrieved_context_ids' must be a JSON array of strings or a "
                        "Python list of strings; got \"['a' 'b']\" (it looks like a NumPy "
                        "printout; write the lists as JSON)"),
    ('"[1, 2]"', "column 'retrieved_context_ids' must be a JSON array of strings or a Python "
                 "list of strings; got '[1, 2]'"),
    ('"[__import__(\'os\')]"', "column 'retrieved_context_ids' must be a JSON array of "
                               "strings or a Python list of strings; got "
                               "\"[__import__('os')]\""),
])
def test_a_csv_list_cell_is_parsed_never_evaluated(tmp_path, cell, message):
    path = tmp_path / "a.csv"
    path.write_text("user_input,reference_context_ids,retrieved_context_ids\n"
                    f"Q?,\"['a']\",{cell}\n")
    with pytest.raises(DatasetFileError, match=_exactly(path, 2, message)):
        import_ragas([(path, "a")])


def test_a_csv_row_of_the_wrong_width_is_named(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("user_input,reference_context_ids,retrieved_context_ids\nQ?,[],[],extra\n")
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 2, "expected 3 fields as in the header; got 4")):
        import_ragas([(path, "a")])


@pytest.mark.parametrize("pairs, message", [
    ([("a.jsonl", "s"), ("b.csv", "s")], "system 's' is given for two files"),
    ([("a.json", "s")], "a.json: expected a .jsonl or .csv file"),
    ([("a.jsonl", "bad system ")], "system must be an ID of 1 to 512 characters with no "
                                   "control character and no leading or trailing whitespace; "
                                   "got 'bad system '"),
    ([], "files_and_systems must be a non-empty sequence of (path, system) pairs; got []"),
])
def test_bad_arguments_are_refused(pairs, message):
    with pytest.raises(InvalidInputError, match=f"^{re.escape(message)}$"):
        import_ragas(pairs)


ANSWERS = FIXTURE / "answers.jsonl"


def test_responses_and_references_are_scored(tmp_path):
    from ragscore.core.metrics import REGISTRY
    from ragscore.engine import count_folder

    dataset, _ = import_ragas([(ANSWERS, "dense")])
    cases = list(dataset.cases.values())
    assert [case.get("reference") for case in cases] == [
        ("The north pier",), ("Twice a day",), ("Nobody repaints it",)]
    counted = count_folder(save_dataset(dataset, tmp_path / "d"), engine="reference")
    # "from north pier" (3 tokens) vs "north pier" (2): EM 0, F1 = 2*2/5 = 0.8;
    # "twice day" vs "twice day": EM 1, F1 1; "lighthouse keeper" vs "nobody repaints it": 0
    assert counted.values(REGISTRY["exact_match"], 2) == [0.0, 1.0, 0.0]
    assert counted.values(REGISTRY["token_f1"], 2) == [0.8, 1.0, 0.0]


def test_a_reference_answer_that_differs_between_files_is_refused(tmp_path):
    a = _jsonl(tmp_path / "a.jsonl", {"user_input": "Q?", "retrieved_context_ids": ["d"],
                                      "reference_context_ids": ["d"], "reference": "x"})
    b = _jsonl(tmp_path / "b.jsonl", {"user_input": "Q?", "retrieved_context_ids": ["d"],
                                      "reference_context_ids": ["d"], "reference": "y"})
    with pytest.raises(DatasetFileError, match=_exactly(
            b, 1, f"question '{_hash('Q?')}' has reference answer ('y',) here but ('x',) at "
                  "a.jsonl, line 1")):
        import_ragas([(a, "a"), (b, "b")])
    bad = _jsonl(tmp_path / "bad.jsonl", {"user_input": "Q?", "retrieved_context_ids": ["d"],
                                          "reference_context_ids": ["d"], "response": 3})
    with pytest.raises(DatasetFileError, match=_exactly(
            bad, 1, "column 'response' must be a string; got 3")):
        import_ragas([(bad, "bad")])
