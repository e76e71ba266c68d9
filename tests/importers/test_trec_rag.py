"""TREC RAG answers (ragnarok's layout): citations resolved to IDs, written back as indexes,
and every malformed record refused naming its file, line and field."""
import io
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError
from ragscore.importers.trec_rag import read_answers, response_length, write_answers

ANSWERS = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "nuggets" / \
    "answers.jsonl"
RECORD = json.loads(ANSWERS.read_text().splitlines()[0])


def test_citations_become_ids_and_go_back_as_indexes():
    answers, dropped = read_answers(ANSWERS, max_bytes=1 << 20)
    first = answers[0]
    assert (first.system, first.case, first.numbered, dropped) == ("run-a", "t1", False, 0)
    assert first.sentences[1] == ("The owners sign off first.", ("seg-owners", "seg-archive"))
    buffer = io.StringIO()
    rows = [(one.system, one.case, one.question,
             {"retrieved": one.references, "sentences": one.sentences,
              "response_length": one.response_length}) for one in answers]
    assert write_answers(buffer, rows) == 4
    assert buffer.getvalue() == ANSWERS.read_text()


def test_ragnaroks_word_count_when_a_run_recorded_none():
    # "Yes, it opens; at 9." -> "Yes  it opens  at 9." -> 5 words
    assert response_length((("Yes, it opens; at 9.", ()), ("Fine.", ()))) == 6


def test_reasoning_and_traces_are_counted_and_not_kept(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(dict(RECORD, trace={"prompt": "..."})) + "\n")
    answers, dropped = read_answers(path, max_bytes=1 << 20)
    assert dropped == 1 and answers[0].sentences[0][0] == "The release window opens on Monday."


@pytest.mark.parametrize("change, message", [
    ({"answer": [{"text": "x", "citations": [3]}]},
     "field 'answer'[0]['citations'] must be indexes into 'references' (0 to 2); got [3]"),
    ({"answer": [{"text": "x", "citations": [0, 0]}]},
     "field 'answer'[0]['citations'] cites one reference twice"),
    # issue 44: a sentence may leave 'citations' out (nuggetizer's answers input)
    ({"answer": [{"text": "x", "cites": []}]}, "field 'answer'[0] must be an object with "
                                               "'text' and optionally 'citations'"),
    ({"references": ["a", "a"]}, "field 'references' lists 'a' twice"),
    ({"response_length": "11"}, "field 'response_length' must be a whole number"),
    ({"topic_id": 2.5}, "field 'topic_id' must be an ID"),
    ({"run_id": ""}, "field 'run_id' must be a system name"),
    ({"citation": []}, "unknown field 'citation'"),
])
def test_a_malformed_answer_is_refused_naming_line_and_field(tmp_path, change, message):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(RECORD) + "\n\n" + json.dumps(dict(RECORD, **change)) + "\n")
    with pytest.raises(DatasetFileError, match="^" + re.escape(f"{path}, line 3: {message}")):
        read_answers(path, max_bytes=1 << 20)


def test_a_missing_field_is_named(tmp_path):
    # issue 44: 'references' may be left out (nuggetizer's answers input); 'topic_id' may not
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({key: value for key, value in RECORD.items()
                                if key != "topic_id"}) + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(f"{path}, line 1: field "
                                                         "'topic_id' is missing")):
        read_answers(path, max_bytes=1 << 20)
