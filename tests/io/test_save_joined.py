"""The fast writing of IDs-only corpora and rankings-only runs (joined IDs) gives the bytes
json.dumps gives; IDs that need escaping, and anything else, take json.dumps's path. Every
expected line below is written out by hand."""
import pytest

from ragscore import load_dataset, save_dataset
from ragscore.io import dataset as files
from ragscore.io.dataset import Dataset, dataset_files


def _dataset(corpus, runs):
    return Dataset(corpus=dict.fromkeys(corpus), cases={"q1": {"question": "",
                                                               "relevant": {corpus[0]: 1}}},
                   runs=runs, name="joined", ids="open")


PLAIN = ["plain", "café", "d-2#7"]
ESCAPED = ["plain", 'say "hi"', "back\\slash", "café"]


def test_plain_ids_are_written_as_json_writes_them(monkeypatch):
    encoded, encode = [], files._ENCODE
    monkeypatch.setattr(files, "_ENCODE", lambda record: encoded.append(record) or encode(record))
    dataset = _dataset(PLAIN, {"q1": {"A": {"retrieved": ("café", "plain")},
                                      "B": {"retrieved": ()}}})
    written = dataset_files(dataset)
    assert written["corpus"] == ('{"id": "plain"}\n{"id": "café"}\n{"id": "d-2#7"}\n'
                                 .encode("utf-8"))
    assert written["runs"] == ('{"case": "q1", "system": "A", "retrieved": ["café", "plain"]}\n'
                               '{"case": "q1", "system": "B", "retrieved": []}\n'
                               .encode("utf-8"))
    assert encoded == [{"id": "q1", "question": "", "relevant": {"plain": 1}}]  # the case only


@pytest.mark.parametrize("batch", [2000, 1, 2])
def test_ids_that_need_escaping_are_escaped(monkeypatch, batch):
    monkeypatch.setattr(files, "_BATCH", batch)  # the escaped ID alone, or in a batch
    dataset = _dataset(ESCAPED, {"q1": {"A": {"retrieved": ("plain",)},
                                        "B": {"retrieved": ('say "hi"', "café")},
                                        "C": {"retrieved": ("back\\slash",)},
                                        "D": {"retrieved": ("café",)}}})
    written = dataset_files(dataset)
    assert written["corpus"] == ('{"id": "plain"}\n{"id": "say \\"hi\\""}\n'
                                 '{"id": "back\\\\slash"}\n{"id": "café"}\n').encode("utf-8")
    assert written["runs"] == (
        '{"case": "q1", "system": "A", "retrieved": ["plain"]}\n'
        '{"case": "q1", "system": "B", "retrieved": ["say \\"hi\\"", "café"]}\n'
        '{"case": "q1", "system": "C", "retrieved": ["back\\\\slash"]}\n'
        '{"case": "q1", "system": "D", "retrieved": ["café"]}\n').encode("utf-8")


def test_a_name_that_needs_escaping_is_escaped():
    dataset = _dataset(PLAIN, {"q1": {'A"1': {"retrieved": ("plain",)}}})
    assert dataset_files(dataset)["runs"] == (
        b'{"case": "q1", "system": "A\\"1", "retrieved": ["plain"]}\n')


def test_runs_with_more_than_a_ranking_and_corpora_with_text_take_json_s_path():
    dataset = _dataset(PLAIN, {"q1": {"A": {"retrieved": ("plain",),
                                            "claims": (("c1", ("plain",)),)},
                                      "B": {"retrieved": ["café"]}}})
    dataset = dataset._replace(corpus={"plain": "Some text.", "café": None, "d-2#7": None})
    written = dataset_files(dataset)
    assert written["corpus"] == ('{"id": "plain", "text": "Some text."}\n{"id": "café"}\n'
                                 '{"id": "d-2#7"}\n').encode("utf-8")
    assert written["runs"] == (
        '{"case": "q1", "system": "A", "retrieved": ["plain"], '
        '"claims": [{"claim": "c1", "citations": ["plain"]}]}\n'
        '{"case": "q1", "system": "B", "retrieved": ["café"]}\n').encode("utf-8")


def test_escaped_ids_load_back_unchanged(tmp_path):
    runs = {"q1": {"A": {"retrieved": ('say "hi"', "back\\slash")}}}
    save_dataset(_dataset(ESCAPED, runs), tmp_path / "saved")
    loaded = load_dataset(tmp_path / "saved")
    assert list(loaded.corpus) == ESCAPED
    assert loaded.runs == runs


@pytest.mark.parametrize("rankings", [
    [("plain", "café"), (), ("d-2#7",)],
    [("plain",), ('say "hi"', "café")],          # a quote: the encoder's path
    [("back\\slash",), ("plain",)],              # a backslash
    [("tab\there",)], [("x\u2028y", "\x7f")],     # below U+0020; others are written as they are
    [(1, "plain")],                              # not all str
])
def test_encoded_rankings_are_the_encoder_s(rankings):
    assert files.encoded_rankings(rankings) == [files._ENCODE(ranking).encode("utf-8")
                                                for ranking in rankings]
