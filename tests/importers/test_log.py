"""A team's own log: the fixtures (JSON Lines with default fields, CSV with renamed ones)
worked by hand, scored end to end, and every malformed record refused naming line, field and
value."""
import hashlib
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_folder
from ragscore.importers.log import import_log

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "log"
ANSWERS, CSV = FIXTURE / "answers.jsonl", FIXTURE / "answers.csv"
CSV_FIELDS = {"question": "query", "system": "model", "retrieved": "contexts",
              "answer": "response", "reference": "gold"}


def _jsonl(path, *rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _exactly(path, line, text):
    return "^" + re.escape(f"{path}, line {line}: {text}") + "$"


def test_the_jsonl_fixture_by_hand():
    dataset, notes = import_log(ANSWERS)
    assert list(dataset.cases) == ["q1", "q2", "q3"]
    assert dataset.systems == ("dense", "bm25")
    assert dataset.cases["q1"] == {"question": "Who owns the billing alert?",
                                   "relevant": ("runbook-billing",),
                                   "reference": ("the Aurora team", "Aurora")}
    assert dataset.cases["q2"]["reference"] == ("400 days",)  # a string: one reference
    assert dataset.cases["q3"] == {"question": "What is the office wifi password?",
                                   "relevant": (), "reference": ()}  # unanswerable
    # objects with id/text/score: the ids in list order, the texts kept as corpus text
    assert dataset.runs["q1"]["dense"] == {
        "retrieved": ("runbook-billing", "oncall-rota"), "delivered": ("runbook-billing",),
        "answer": "The Aurora team owns the billing alert [runbook-billing]."}
    assert dataset.runs["q1"]["bm25"]["retrieved"] == ("oncall-rota", "runbook-billing")
    assert dataset.runs["q2"]["bm25"]["answer"] == ""  # an abstention, kept as ""
    assert dataset.corpus["retention-policy"] == "Audit logs are kept for 400 days, then deleted."
    assert "list order" in notes["ranking order"]


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_the_jsonl_fixture_scores_by_hand(tmp_path, engine):
    dataset, _ = import_log(ANSWERS)
    counted = count_folder(save_dataset(dataset, tmp_path / "d"), engine=engine)
    em = dict(zip(counted.keys, counted.values(REGISTRY["exact_match"], 2)))
    f1 = dict(zip(counted.keys, counted.values(REGISTRY["token_f1"], 2)))
    # q1 dense: "aurora team owns billing alert runbookbilling" (6 tokens) vs "aurora team"
    # (2): common 2, F1 = 4 / 8; vs "aurora" (1): common 1, F1 = 2 / 7. Largest 0.5.
    assert (em["q1", "dense"], f1["q1", "dense"]) == (0.0, 0.5)
    # q2 dense: "audit logs are kept for 400 days" (7) vs "400 days" (2): F1 = 4 / 9
    assert f1["q2", "dense"] == pytest.approx(4 / 9)
    # q2 bm25 abstains on an answerable question: 0; q3 is unanswerable: dense abstains (1),
    # bm25 answers anyway (0)
    assert (em["q2", "bm25"], f1["q2", "bm25"]) == (0.0, 0.0)
    assert (em["q3", "dense"], f1["q3", "dense"]) == (1.0, 1.0)
    assert (em["q3", "bm25"], f1["q3", "bm25"]) == (0.0, 0.0)
    # retrieval: q1 bm25 ranks the relevant runbook second: RR@2 = 1/2
    rr = dict(zip(counted.keys, counted.values(REGISTRY["rr"], 2)))
    assert rr["q1", "bm25"] == 0.5 and rr["q3", "dense"] is None


def test_the_csv_fixture_with_renamed_fields(tmp_path):
    dataset, notes = import_log(CSV, fields=CSV_FIELDS)
    first = hashlib.sha256(b"Who owns the billing alert?").hexdigest()[:12]
    assert dataset.cases[first]["reference"] == ("the Aurora team", "Aurora")  # a JSON array
    assert dataset.runs[first]["dense"] == {"retrieved": ("runbook-billing", "oncall-rota"),
                                            "answer": "The Aurora team."}
    rows = list(dataset.cases.values())
    assert rows[1]["reference"] == ("400 days",)  # plain text: one reference
    assert rows[2]["reference"] == ()             # [] : unanswerable
    assert "'contexts'" in notes["ranking order"]
    assert load_dataset(save_dataset(dataset, tmp_path / "d")).cases == dataset.cases


def test_texts_as_list_items_get_hashed_ids(tmp_path):
    path = _jsonl(tmp_path / "log.jsonl", {"question": "Q?", "retrieved": ["Alpha text."],
                                           "system": "s"})
    dataset, _ = import_log(path, lists_of="texts")
    doc = "ctx-" + hashlib.sha256(b"Alpha text.").hexdigest()[:16]
    assert dataset.corpus == {doc: "Alpha text."}


@pytest.mark.parametrize("record, message", [
    ({"retrieved": []}, "missing field 'question' (the question; another name is given with "
                        "--question-field)"),
    ({"question": 5, "retrieved": []}, "field 'question' must be a string; got 5"),
    ({"question": "Q?"}, "missing field 'retrieved' (the ranked list; another name is given "
                         "with --retrieved-field)"),
    ({"question": "Q?", "retrieved": "d1"}, "field 'retrieved' must be a list; got 'd1'"),
    ({"question": "Q?", "retrieved": [3.5]}, "field 'retrieved'[0] must be a string or an "
                                             "object with 'id'; got 3.5"),
    ({"question": "Q?", "retrieved": ["d1", "d1"]}, "field 'retrieved' lists 'd1' twice (a "
                                                    "repeated ID is refused, not dropped)"),
    ({"question": "Q?", "retrieved": [], "answer": 42}, "field 'answer' must be a string; "
                                                        "got 42"),
    ({"question": "Q?", "retrieved": [], "reference": {"a": 1}},
     "field 'reference' must be a string or a list of strings (an empty list: unanswerable); "
     "got {'a': 1}"),
    ({"question": "Q?", "retrieved": [], "relevant": {"d1": "2"}},
     "field 'relevant' must map IDs to integer grades; got 'd1': '2'"),
    ({"question": "Q?", "retrieved": [], "system": " padded"},
     "field 'system' must be an ID of 1 to 512 characters with no control character and no "
     "leading or trailing whitespace; got ' padded'"),
])
def test_a_malformed_record_names_line_field_and_value(tmp_path, record, message):
    record = {"system": "s", **record}
    path = _jsonl(tmp_path / "log.jsonl", {"question": "Fine?", "retrieved": [], "system": "s"},
                  record)
    with pytest.raises(DatasetFileError, match=_exactly(path, 2, message)):
        import_log(path)


def test_a_record_without_a_system_needs_the_option(tmp_path):
    path = _jsonl(tmp_path / "log.jsonl", {"question": "Q?", "retrieved": []})
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 1, "missing field 'system' and no --system given: name the system that "
                     "answered")):
        import_log(path)
    assert import_log(path, system="mine")[0].systems == ("mine",)


def test_a_question_answered_twice_or_told_differently_is_refused(tmp_path):
    one = {"id": "q1", "question": "Q?", "retrieved": [], "system": "s", "reference": "x"}
    path = _jsonl(tmp_path / "twice.jsonl", one, one)
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 2, "system 's' already answered question 'q1' on line 1")):
        import_log(path)
    path = _jsonl(tmp_path / "differ.jsonl", one, dict(one, system="t", reference="y"))
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 2, "question 'q1' has reference answers ('y',) here but ('x',) at "
                     "differ.jsonl, line 1")):
        import_log(path)


def test_bad_options(tmp_path):
    with pytest.raises(InvalidInputError, match="unknown field 'answers'"):
        import_log(ANSWERS, fields={"answers": "x"})
    with pytest.raises(InvalidInputError, match="lists_of must be 'ids' or 'texts'"):
        import_log(ANSWERS, lists_of="docs")
    with pytest.raises(InvalidInputError, match="expected a .jsonl or .csv file"):
        import_log(tmp_path / "log.txt")
