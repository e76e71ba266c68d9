"""ALCE result files: the fixture read by hand, its answers' [n] citations resolved to the
passages ALCE gave, written back byte for byte, and malformed files refused naming the
field."""
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.io.answers import derived_claims
from ragscore.importers.alce import export_alce, import_alce

RESULT = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "alce" / "result.json"


def test_the_fixture_by_hand():
    dataset, notes = import_alce(RESULT, system="toy")
    assert len(dataset.cases) == 2 and dataset.systems == ("toy",)
    case, runs = next(iter(dataset.runs.items()))
    assert dataset.cases[case]["question"] == "Who owns the nightly alert?"
    assert dataset.cases[case]["reference"] == ("The Aurora team owns the nightly alert.",)
    assert runs["toy"] == {"retrieved": ("101", "102", "103"),
                           "answer": "The Aurora team owns the nightly alert [1][2]. It "
                                     "replaced an older alert [3]."}
    assert dataset.sources == {"101": "Alerts", "102": "Teams", "103": "Archive",
                               "201": "Release"}
    assert notes == {"file fields not kept (args, costs, ...)": 1,
                     "item fields not kept (prompt, qa_pairs, ...)": 2,
                     "passage fields not kept": 5}


def test_the_markers_cite_the_passages_alce_gave():
    dataset, _ = import_alce(RESULT, system="toy")
    _, _, _, derived = next(derived_claims(dataset))
    assert [claim.citations for claim in derived.claims] == [("101", "102"), ("103",)]


def test_written_back_byte_for_byte(tmp_path):
    dataset, _ = import_alce(RESULT, system="toy")
    first = tmp_path / "first.json"
    assert export_alce(load_dataset(save_dataset(dataset, tmp_path / "d")), first,
                       system="toy") == 2
    again, _ = import_alce(first, system="toy")
    second = tmp_path / "second.json"
    export_alce(again, second, system="toy")
    assert second.read_bytes() == first.read_bytes()
    written = json.loads(first.read_text())["data"][0]
    assert written["docs"][0] == {"id": "101", "title": "Alerts",
                                  "text": "The Aurora team owns the nightly alert."}
    with pytest.raises(InvalidInputError, match="system 'gpt' is not in the dataset"):
        export_alce(again, tmp_path / "x.json", system="gpt")


@pytest.mark.parametrize("document, message", [
    ({"data": []}, "field 'data' must be a non-empty array"),
    ({"data": [{"question": "q?", "docs": []}]}, "data[0] must be an object with 'question', "
                                                 "'docs' and 'output'"),
    ({"data": [{"question": "q?", "output": "a", "docs": [{"title": "t"}]}]},
     "data[0]: docs[0] must be an object with 'text'"),
    ({"data": [{"question": "q?", "output": "a", "docs": [{"text": "x", "id": "1"},
                                                         {"text": "y", "id": "1"}]}]},
     "data[0]: docs[1]: passage '1' is listed twice"),
    ({"data": [{"question": "", "output": "a", "docs": [{"text": "x"}]}]},
     "data[0]: field 'question' must be text"),
    ({"data": [{"question": "q?", "output": 3, "docs": [{"text": "x"}]}]},
     "data[0]: field 'output' must be text; got 3"),
])
def test_a_malformed_result_file_is_refused_naming_the_field(tmp_path, document, message):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document))
    with pytest.raises(DatasetFileError, match="^" + re.escape(f"{path}: {message}")):
        import_alce(path, system="toy")
