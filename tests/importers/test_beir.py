"""BEIR folders: the fixture worked by hand (texts, split, runs), and pinned messages."""
import re
import shutil
from pathlib import Path

import pytest

from ragscore.importers.trec import ORDER_NOTES

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.importers import import_beir

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "beir"


def _exactly(path, line, text):
    return "^" + re.escape(f"{path}, line {line}: {text}") + "$"


def test_corpus_texts_join_title_and_text():
    dataset, _ = import_beir(FIXTURE)
    assert dataset.corpus == {
        "tide-1": "Tide tables\n\nHigh tide at Saltmarsh comes twice a day, about twelve "
                  "hours apart.",
        "tide-2": "The spring tides follow the full and the new moon.",  # empty title
        "ferry-1": "Ferry\n\nThe island ferry leaves the north pier at nine.",
        "ferry-2": "Ferry fares\n\nA return ticket costs the same as two singles.",
        "gull-1": "Gulls\n\nGulls nest on the old warehouse roof.",
        "blank": None,  # a blank title and an empty text: an ID without text
    }


def test_only_the_questions_of_the_split_become_cases():
    dataset, notes = import_beir(FIXTURE)
    assert dataset.cases == {
        "q1": {"question": "How often is high tide at Saltmarsh?",
               "relevant": {"tide-1": 2, "tide-2": 1}},
        "q2": {"question": "When does the island ferry leave?",
               "relevant": {"ferry-1": 1, "ferry-2": 0}},
        "q3": {"question": "Where do the gulls nest?", "relevant": {"gull-1": 1}},
    }
    assert dataset.runs == {}
    assert notes == {"run questions without qrels": {}, "judged questions missing from a run": {},
                     "missing_run": "zero"}
    dev, _ = import_beir(FIXTURE, split="dev")
    assert list(dev.cases) == ["q4"]
    assert (dataset.name, dataset.ids) == ("beir", "open")


def test_runs_are_read_as_trec_runs():
    dataset, notes = import_beir(FIXTURE, runs=[FIXTURE / "bm25.run"])
    assert dataset.runs == {
        "q1": {"bm25": {"retrieved": ("tide-2", "tide-1", "gull-1")}},  # a tie at 9.0
        "q2": {"bm25": {"retrieved": ("ferry-2", "ferry-1")}},
        "q3": {"bm25": {"retrieved": ()}},  # not in the run: an empty ranking
    }
    assert notes == {"run questions without qrels": {"bm25": 1},  # q4 is in dev only
                     "judged questions missing from a run": {"bm25": 1},
                     "missing_run": "zero", "ranking order": ORDER_NOTES["score"]}
    dev, dev_notes = import_beir(FIXTURE, split="dev", runs=FIXTURE / "bm25.run",
                                 missing_run="skip", min_relevance=1, name="toy")
    assert dev.runs == {"q4": {"bm25": {"retrieved": ("ferry-2",)}}}
    assert dev_notes["run questions without qrels"] == {"bm25": 2}
    assert dev.name == "toy"


def test_saves_and_loads_back_unchanged(tmp_path):
    dataset, _ = import_beir(FIXTURE, runs=FIXTURE / "bm25.run")
    assert load_dataset(save_dataset(dataset, tmp_path / "beir")) == dataset


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "toy"
    shutil.copytree(FIXTURE, copy)
    return copy


def _append(path, text):
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)


@pytest.mark.parametrize("file, text, line, message", [
    ("qrels/test.tsv", "q3\tnowhere\t1\n", 7, "corpus-id 'nowhere' is not in corpus.jsonl"),
    ("qrels/test.tsv", "q3\tgull-1\n", 7,
     "expected 3 tab-separated fields (query-id corpus-id score); got 2"),
    ("qrels/test.tsv", "q3\ttide-1\t0.5\n", 7, "score must be an integer grade; got '0.5'"),
    ("qrels/test.tsv", "q1\ttide-2\t1\n", 7,
     "query 'q1' judges document 'tide-2' twice (first on line 3)"),
    ("qrels/test.tsv", "q9\ttide-1\t1\n", 7, "query-id 'q9' is not in queries.jsonl"),
    ("corpus.jsonl", '{"_id": "tide-1", "text": "Again."}\n', 7,
     "duplicate document id 'tide-1'"),
    ("corpus.jsonl", '{"_id": "x", "title": "No text"}\n', 7, "missing key 'text'"),
    ("corpus.jsonl", '{"_id": 7, "text": "A number."}\n', 7,
     "key '_id' must be a string; got 7"),
    ("corpus.jsonl", '{"_id": "x", "text": "\\ud800"}\n', 7,
     "key 'text' holds a lone surrogate, which is not Unicode text"),
    ("queries.jsonl", '{"_id": "q1", "text": "Again?"}\n', 5, "duplicate query id 'q1'"),
    ("bm25.run", "q1 Q0 nowhere 4 1.0 bm25\n", 7, "document 'nowhere' is not in corpus.jsonl"),
])
def test_a_bad_line_is_named(folder, file, text, line, message):
    _append(folder / file, text)
    with pytest.raises(DatasetFileError, match=_exactly(folder / file, line, message)):
        import_beir(folder, runs=folder / "bm25.run")


def test_the_qrels_header_is_required(folder):
    path = folder / "qrels" / "test.tsv"
    path.write_text("q1\ttide-1\t1\n")
    with pytest.raises(DatasetFileError, match=_exactly(
            path, 1, "expected the header query-id<TAB>corpus-id<TAB>score; got "
                     "'q1\\ttide-1\\t1'")):
        import_beir(folder)


def test_a_missing_split_lists_the_splits_there(folder):
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{folder / 'qrels' / 'train.tsv'}: cannot be read (No such file or directory); "
            "splits found: dev, test")):
        import_beir(folder, split="train")


def test_a_folder_that_is_not_there_is_named(tmp_path):
    with pytest.raises(DatasetFileError, match="no BEIR folder there"):
        import_beir(tmp_path / "nowhere")


def test_a_split_that_is_not_a_name_is_refused(folder):
    with pytest.raises(InvalidInputError, match=re.escape(
            "split must be a name like 'test'; got '../test'")):
        import_beir(folder, split="../test")
