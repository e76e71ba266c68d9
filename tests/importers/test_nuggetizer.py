"""nuggetizer's nuggets and assignments, TREC RAG answers and qrels: the fixtures read and
scored by hand (nuggetizer's own formulas worked out on paper), written back byte for byte,
and every malformed line refused naming its file, line and field."""
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.core.metrics import NUGGET_METRICS, REGISTRY
from ragscore.engine import count_dataset, count_folder
from ragscore.importers.nuggetizer import export_nuggets, import_nuggets

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "nuggets"
NUGGETS, ASSIGNMENTS = FIXTURE / "nuggets.jsonl", FIXTURE / "assignments.jsonl"
ANSWERS, QRELS = FIXTURE / "answers.jsonl", FIXTURE / "qrels.txt"
DATE = "2026-12-05"


def imported(**options):
    return import_nuggets(NUGGETS, assignments=ASSIGNMENTS, answers=ANSWERS, qrels=QRELS,
                          date=DATE, **options)


def test_the_fixture_by_hand():
    dataset, notes = imported()
    assert list(dataset.cases) == ["t1", "t2"] and dataset.systems == ("run-a", "run-b")
    assert dataset.cases["t2"] == {
        "question": "How is a release rolled back?",
        "relevant": {"seg-rollback": 2, "seg-checklist": 1},
        "nuggets": ({"id": "n1", "text": "Traffic is switched back to the previous version",
                     "importance": "vital"},
                    {"id": "n2", "text": "The smoke checklist is run", "importance": "okay"})}
    assert dataset.runs["t1"]["run-a"] == {
        "retrieved": ("seg-launch", "seg-owners", "seg-archive"),
        "sentences": (("The release window opens on Monday.", ("seg-launch",)),
                      ("The owners sign off first.", ("seg-owners", "seg-archive"))),
        "response_length": 11}
    assert len(dataset.judgements) == 10  # one per nugget of each of the 4 answers
    first = dataset.judgements[0]
    assert (first["kind"], first["case"], first["nugget"], first["decision"]) == (
        "nugget", "t1", "n1", "support")
    assert (first["origin"], first["reviewer"], first["date"]) == (
        "llm-draft", "judge:nuggetizer", DATE)
    assert "10 judgements, origin llm-draft" in notes["nugget assignments"]


# nuggetizer's scores of the fixture, worked by hand from its assignments:
# run-a t1: vital support, support; okay not   -> Vs 1, As 2/3, V 1, A 2/3, W 2/2.5
# run-a t2: vital support; okay not            -> Vs 1, As 1/2, V 1, A 1/2, W 1/1.5
# run-b t1: vital support, not; okay support   -> Vs 1/2, As 2/3, V 1/2, A 2/3, W 1.5/2.5
# run-b t2: vital partial; okay support        -> Vs 0, As 1/2, V 1/2, A 1.5/2, W 1/1.5
BY_HAND = {("t1", "run-a"): (1.0, 2 / 3, 1.0, 2 / 3, 2 / 2.5),
           ("t1", "run-b"): (0.5, 2 / 3, 0.5, 2 / 3, 1.5 / 2.5),
           ("t2", "run-a"): (1.0, 0.5, 1.0, 0.5, 1 / 1.5),
           ("t2", "run-b"): (0.0, 0.5, 0.5, 0.75, 1 / 1.5)}


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_the_drafts_score_nuggetizers_numbers_only_when_asked(tmp_path, engine):
    dataset, _ = imported()
    folder = save_dataset(dataset, tmp_path / "d")
    counted = count_folder(folder, engine=engine, drafts=True)
    for position, key in enumerate(counted.keys):
        assert tuple(counted.values(REGISTRY[name], 2)[position]
                     for name in NUGGET_METRICS) == pytest.approx(BY_HAND[key], abs=0), key
    reviewed = count_folder(folder, engine=engine)  # drafts alone never score
    assert reviewed.values(REGISTRY["nugget_all"], 2) == [None] * 4
    assert set(reviewed.reasons(REGISTRY["nugget_all"], 2)) == {"a nugget is not assigned yet"}


def test_post_edited_assignments_score_without_drafts():
    dataset, _ = imported(origin="post-edited", reviewer="ana")
    counted = count_dataset(dataset, engine="reference")
    assert counted.values(REGISTRY["nugget_weighted"], 2) == [BY_HAND[key][4]
                                                             for key in counted.keys]
    with pytest.raises(InvalidInputError, match="need a reviewer"):
        imported(origin="human")


def test_read_and_written_back_byte_for_byte(tmp_path):
    dataset, _ = imported()
    folder = save_dataset(dataset, tmp_path / "d")
    written = export_nuggets(load_dataset(folder), nuggets=tmp_path / "n.jsonl",
                             assignments=tmp_path / "a.jsonl", answers=tmp_path / "r.jsonl",
                             drafts=True)
    assert written == {"nuggets": 2, "assignments": 4, "skipped": 0, "answers": 4}
    for name, source in (("n.jsonl", NUGGETS), ("a.jsonl", ASSIGNMENTS),
                         ("r.jsonl", ANSWERS)):
        assert (tmp_path / name).read_bytes() == source.read_bytes(), name
    # people's assignments only: the drafts are not written
    assert export_nuggets(load_dataset(folder), assignments=tmp_path / "p.jsonl") == {
        "assignments": 0, "skipped": 4}


def test_assignments_without_answers_keep_the_answer_text(tmp_path):
    dataset, _ = import_nuggets(NUGGETS, assignments=ASSIGNMENTS, qrels=QRELS, date=DATE)
    assert dataset.runs["t2"]["run-b"] == {
        "retrieved": (), "answer": "Run the smoke checklist, then switch back. Ask the owners.",
        "response_length": 10}
    counted = count_dataset(dataset, engine="columnar", drafts=True)
    assert counted.values(REGISTRY["nugget_all"], 2) == [BY_HAND[key][3] for key in counted.keys]
    export_nuggets(dataset, assignments=tmp_path / "a.jsonl", drafts=True)
    assert (tmp_path / "a.jsonl").read_bytes() == ASSIGNMENTS.read_bytes()


def test_numeric_topic_ids_are_read_as_text(tmp_path):
    nuggets = tmp_path / "n.jsonl"
    nuggets.write_text(json.dumps({"query": "q?", "qid": 23287,
                                   "nuggets": [{"text": "a fact"}]}) + "\n")
    qrels = tmp_path / "q.txt"
    qrels.write_text("23287 0 d1 1\n")
    dataset, notes = import_nuggets(nuggets, qrels=qrels)
    assert list(dataset.cases) == ["23287"]
    assert dataset.cases["23287"]["nuggets"] == ({"id": "n1", "text": "a fact",
                                                 "importance": "vital"},)
    # issue 44: a number is written back as a number, no longer as text
    assert notes == {"nuggets given no importance (vital, as nuggetizer reads them)": 1,
                     "question IDs given as numbers (written back as numbers)": 1}


def _line(path, number, text):
    return "^" + re.escape(f"{path}, line {number}: {text}")


NUGGET_LINE = {"query": "q?", "qid": "t9", "nuggets": [{"text": "a", "importance": "vital"}]}


@pytest.mark.parametrize("change, message", [
    ({"qid": None}, "field 'qid' must be an ID"),
    ({"qid": " t9"}, "field 'qid' must be an ID"),
    ({"nuggets": "a"}, "field 'nuggets' must be an array of nuggets; got 'a'"),
    ({"nuggets": [{"text": " "}]}, "field 'nuggets'[0]['text'] must be non-blank text"),
    ({"nuggets": [{"text": "a", "importance": "high"}]},
     "field 'nuggets'[0]['importance'] must be one of vital, okay; got 'high'"),
    ({"nuggets": [{"text": "a", "weight": 1}]}, "field 'nuggets'[0] must be an object with "
                                                "text, importance"),
    ({"query": 7}, "field 'query' must be text; got 7"),
    ({"qids": "t9"}, "unknown field 'qids'"),
])
def test_a_malformed_nuggets_line_is_refused_naming_line_and_field(tmp_path, change, message):
    path = tmp_path / "n.jsonl"
    path.write_text(json.dumps(NUGGET_LINE) + "\n" + json.dumps({**NUGGET_LINE, **change,
                                                                 "qid": change.get("qid", "t8")})
                    + "\n")
    if "qids" in change:
        record = dict(NUGGET_LINE, qid="t8", qids="t9")
        path.write_text(json.dumps(NUGGET_LINE) + "\n" + json.dumps(record) + "\n")
    with pytest.raises(DatasetFileError, match=_line(path, 2, message)):
        import_nuggets(path, qrels=QRELS)


def _assignment_lines(**change):
    lines = ASSIGNMENTS.read_text().splitlines()
    record = dict(json.loads(lines[1]), **change)
    lines[1] = json.dumps(record)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("change, message", [
    ({"qid": "t7"}, "field 'qid': question 't7' has no nuggets in the nuggets file"),
    ({"query": "Another?"}, "field 'query' must be question 't2' as the nuggets give it"),
    ({"answer_text": "Something else."}, "field 'answer_text' must be run 'run-a''s answer "
                                         "to 't2' in the answers file"),
    ({"response_length": -1}, "field 'response_length' must be a whole number"),
    ({"nuggets": [{"text": "Traffic is switched back to the previous version",
                   "importance": "vital", "assignment": "support"}]},
     "field 'nuggets' must be question 't2''s 2 nuggets, in order"),
    ({"nuggets": [{"text": "Traffic is switched back to the previous version",
                   "importance": "vital", "assignment": "yes"},
                  {"text": "The smoke checklist is run", "importance": "okay",
                   "assignment": "support"}]},
     "field 'nuggets'[0]['assignment'] must be one of support, partial_support, not_support"),
    ({"run_id": 5}, "field 'run_id' must be a system name"),
])
def test_a_malformed_assignment_line_is_refused_naming_line_and_field(tmp_path, change,
                                                                      message):
    path = tmp_path / "a.jsonl"
    path.write_text(_assignment_lines(**change))
    with pytest.raises(DatasetFileError, match=_line(path, 2, message)):
        import_nuggets(NUGGETS, assignments=path, answers=ANSWERS, date=DATE)


def test_an_answer_assigned_twice_is_refused(tmp_path):
    path = tmp_path / "a.jsonl"
    first = ASSIGNMENTS.read_text().splitlines()[0]
    path.write_text(first + "\n" + first + "\n")
    with pytest.raises(DatasetFileError, match=_line(path, 2, "run 'run-a' is assigned for "
                                                              "question 't1' twice")):
        import_nuggets(NUGGETS, assignments=path, answers=ANSWERS, date=DATE)


def test_a_test_set_needs_a_passage():
    with pytest.raises(DatasetFileError, match="name no passage"):
        import_nuggets(NUGGETS, assignments=ASSIGNMENTS, date=DATE)
