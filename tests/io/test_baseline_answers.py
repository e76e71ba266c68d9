"""A baseline keeps each question's answer match (EM/F1 can be gated) and refuses a
malformed one naming the field and value."""
import json

import pytest

from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.io.baseline import baseline_record, load_baseline, save_baseline
from ragscore.io.dataset import Dataset
from ragscore.io.jsonl import DatasetFileError


def _record():
    dataset = Dataset(corpus={"a": "A."}, cases={"q": {"question": "", "relevant": ("a",),
                                                       "reference": ("Denver Broncos",)}},
                      runs={"q": {"S": {"retrieved": ("a",), "answer": "Broncos won"}}},
                      ids="open")
    fingerprint = {"corpus_sha256": "0" * 64, "questions_sha256": "1" * 64}
    return baseline_record(count_dataset(dataset), "S", fingerprint=fingerprint)


def test_a_baseline_round_trips_the_answer_match(tmp_path):
    path = save_baseline(_record(), tmp_path / "b.json")
    _, _, _, questions = load_baseline(path)
    # "broncos won" vs "denver broncos": exact 0, common 1, 2 and 2 tokens: F1 = 2/4
    assert questions["q"].answer_match == (0, 1, 2, 2)
    assert REGISTRY["token_f1"].value(questions["q"], 2) == 0.5


@pytest.mark.parametrize("bad", [5, [1, 2], [1, 2, 3, -4], ["1", 0, 0, 0]])
def test_a_malformed_answer_match_is_refused(tmp_path, bad):
    record = _record()
    record["questions"]["q"]["answer_match"] = bad
    path = tmp_path / "b.json"
    path.write_text(json.dumps(record))
    with pytest.raises(DatasetFileError, match=r"questions\['q'\]: answer_match must be null "
                                               r"or a list of 4 counts"):
        load_baseline(path)


def test_a_baseline_saved_before_reference_answers_is_still_read():
    # fixtures/baselines/course-A-before-digests.json predates answer_match: it reads as "no reference".
    from pathlib import Path

    from ragscore.io.baseline import load_baseline

    path = Path(__file__).resolve().parents[2] / "fixtures" / "baselines" / "course-A-before-digests.json"
    assert "answer_match" not in path.read_text()
    system, _, _, questions = load_baseline(path, check_digest=False)  # a gate refuses it
    assert system == "A" and sorted(questions) == ["launch", "owner", "region", "rollback"]
    assert all(counts.answer_match is None for counts in questions.values())
