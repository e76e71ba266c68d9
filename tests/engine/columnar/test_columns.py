"""The bulk reader (DuckDB, checks on columns) reads what the record reader reads, and leaves
to it everything else.

Every case below ends in one of two ways, and always the same way for both engines: the same
counts, or the same error (class and message, naming file and line). The edits are those a
lenient JSON reader would let through (a number where a string belongs, an unknown key, a
trailing comma, NaN, a duplicate key, a null, an escaped quote hiding a real one), and
edits that break a rule (an unknown ID, a repeated one, a bad name); then random byte edits.
"""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragscore
from ragscore import InvalidInputError
from ragscore.engine import count_folder
from ragscore.engine.columnar.reader import read_batch
from ragscore.io.write import save_dataset as save_jsonl

from tests.engine.test_equivalence import assert_same  # noqa: E402  (one definition of "same")
from tests.folder_edits import rehash


def _folder(tmp_path, *, ids="course"):
    """The course as a version 2 folder (every file JSON Lines, as the edits below need)."""
    course = ragscore.load_course()
    if ids == "open":
        course = course._replace(ids="open")
    return save_jsonl(course, tmp_path / "data", version=2)


def _file(folder, kind):
    index = json.loads((folder / "dataset.json").read_text())
    return folder / index["files"][kind]


def _outcome(folder, engine):
    try:
        return "counts", count_folder(folder, engine=engine)
    except InvalidInputError as error:
        return "error", f"{type(error).__name__}: {error}"


def _same_either_way(folder):
    reference = _outcome(folder, "reference")
    columnar = _outcome(folder, "columnar")
    assert columnar[0] == reference[0], (reference, columnar)
    if reference[0] == "error":
        assert columnar[1] == reference[1]
    else:
        assert_same(reference[1], columnar[1], ks=(1, 2, 3))
    return reference[0]


def test_a_saved_folder_is_read_in_bulk(tmp_path):
    folder = _folder(tmp_path)
    batch = read_batch(folder, max_bytes=1 << 30)
    assert batch is not None and batch.keys == [("launch", "A"), ("launch", "B"),
                                                ("rollback", "A"), ("rollback", "B"),
                                                ("owner", "A"), ("owner", "B"),
                                                ("region", "A"), ("region", "B")]
    assert _same_either_way(folder) == "counts"


# (file, text to find, text to put instead, what the record reader says or "counts")
EDITS = [
    ("runs", '"system": "A"', '"system": 5', "error"),                 # a number for a string
    ("runs", '"system": "A"', '"system": true', "error"),
    ("runs", '"system": "A"', '"system": null', "error"),
    ("runs", '"system": "A"', '"system": "A", "extra": 1', "error"),   # an unknown key
    ("runs", '"system": "A"', '"system": "A", "system": "A"', "error"),  # a key twice
    ("runs", '"retrieved": ["launch", "archive"]', '"retrieved": ["launch", "archive",]',
     "error"),                                                         # a trailing comma
    ("runs", '"retrieved": ["launch", "archive"]', '"retrieved": ["launch", 7]', "error"),
    ("runs", '"retrieved": ["launch", "archive"]', '"retrieved": ["launch", ["archive"]]',
     "error"),
    ("runs", '"retrieved": ["launch", "archive"]', '"retrieved": ["launch", {"a": "b"}]',
     "error"),
    ("runs", '"retrieved": ["launch", "archive"]', '"retrieved": ["launch", "launch"]',
     "error"),                                                         # a repeated ID
    ("runs", '"retrieved": ["launch", "archive"]', '"retrieved": ["launch", "nowhere"]',
     "error"),                                                         # not in the corpus
    ("runs", '"claims": [{"claim": "monday"', '"claims": [{"claim": "monday", "x": 1',
     "error"),
    ("runs", '"case": "launch"', '"case": "nope"', "error"),
    ("runs", '"case": "launch"', '"Case": "launch"', "error"),          # a key's case
    ("runs", '"citations": ["launch"]', '"citations": ["launch", "launch"]', "error"),
    ("runs", '"citations": ["launch"]', '"citations": ["ghost"]', "counts"),  # unknown: fine
    ("runs", '"citations": ["launch"]', '"citations": ["Not-An-ID"]', "error"),
    ("runs", '"system": "A"', '"system": "A\\u0022"', "error"),        # an escape: set aside
    ("runs", '"system": "A"', '"system": NaN', "error"),
    ("cases", '"relevant": ["launch"]', '"relevant": ["launch", "launch"]', "error"),
    ("cases", '"relevant": ["launch"]', '"relevant": {"launch": 1}', "error"),  # course: lists
    ("cases", '"relevant": ["launch"]', '"relevant": "launch"', "error"),
    ("cases", '"question": "When', '"question": 5, "q": "When', "error"),
    ("cases", '"support": {"monday": ["launch"]}', '"support": {"monday": []}', "error"),
    ("cases", '"support": {"monday": ["launch"]}',
     '"support": {"monday": ["launch"], "monday": ["launch"]}', "error"),
    ("cases", '"support": {"monday": ["launch"]}', '"support": {"monday": ["archive"]}',
     "error"),                                                         # not relevant
    ("corpus", '"id": "launch"', '"id": "Launch"', "error"),
    ("corpus", '"text": "The fictional release', '"text": " ", "x": "The fictional release',
     "error"),
    ("corpus", '"id": "archive"', '"id": "launch"', "error"),          # an ID twice
]


@pytest.mark.parametrize("kind, old, new, expected", EDITS,
                         ids=[f"{kind}:{new[:40]}" for kind, old, new, expected in EDITS])
def test_an_edit_ends_the_same_way_in_both(tmp_path, kind, old, new, expected):
    folder = _folder(tmp_path)
    path = _file(folder, kind)
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    rehash(folder)  # named by its new content: what the readers meet past the hash check
    assert _same_either_way(folder) == expected
    if expected == "counts":  # and the bulk reader read it itself
        assert read_batch(folder, max_bytes=1 << 30) is not None


@pytest.mark.parametrize("grade", [0, -1])
def test_open_rules_and_graded_labels_are_read_in_bulk(tmp_path, grade):
    dataset = ragscore.Dataset(
        corpus={"d1": None, "d2": 'Text with a, comma: and a "quote".', "d:3": None},
        cases={"q1": {"question": 'A, b: "c"?', "relevant": {"d1": 2, "d2": 0, "d:3": grade}},
               "q2": {"relevant": ("d2",), "support": {"c": ("d2",)}}},
        runs={"q1": {"s": {"retrieved": ("d:3", "d1")}},
              "q2": {"s": {"retrieved": ("d2",), "claims": (("c", ("d2",)),)},
                     "t": {"retrieved": (), "claims": ()}}},
        ids="open", min_relevance=2)
    folder = save_jsonl(dataset, tmp_path / "open", version=2)
    # a negative grade (pooled but unjudged, read by Bpref and infAP) is counted record by
    # record; every other grade in bulk
    assert (read_batch(folder, max_bytes=1 << 30) is not None) == (grade >= 0)
    assert _same_either_way(folder) == "counts"


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["corpus", "cases", "runs"]), st.integers(0, 10 ** 6),
       st.sampled_from(["delete", "insert", "replace"]),
       st.sampled_from(list(b'",:[]{} 0aZ\n') + [0x7f, 0xc3]))
def test_a_byte_edited_file_ends_the_same_way_in_both(tmp_path_factory, kind, where, how,
                                                      byte):
    folder = _folder(tmp_path_factory.mktemp("bytes"))
    path = _file(folder, kind)
    data = bytearray(path.read_bytes())
    at = where % len(data)
    if how == "delete":
        del data[at]
    elif how == "insert":
        data.insert(at, byte)
    else:
        data[at] = byte
    path.write_bytes(bytes(data))
    rehash(folder)
    _same_either_way(folder)


def test_random_token_swaps_end_the_same_way(tmp_path):
    """Swap one JSON token of a record for another of a different kind, 60 times."""
    generator = random.Random(3)
    tokens = ['"x"', "1", "1.5", "true", "null", "[]", "{}", '["launch"]', '{"a": 1}', "NaN"]
    folder = _folder(tmp_path)
    for attempt in range(60):
        kind = generator.choice(["cases", "runs"])
        path = _file(folder, kind)
        original = path.read_bytes()
        lines = original.decode("utf-8").splitlines()
        line = generator.randrange(len(lines))
        record = json.loads(lines[line])
        key = generator.choice(sorted(record))
        lines[line] = lines[line].replace(json.dumps(record[key], ensure_ascii=False),
                                          generator.choice(tokens), 1)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        path = rehash(folder)[kind]
        _same_either_way(folder)
        path.write_bytes(original)
        rehash(folder)


def test_bytes_are_counted_across_pieces(monkeypatch):
    import ragscore.engine.columnar.screens as rules

    data = b'{"a": ["x", "y"], "b": 1}\n' * 5  # per line: 8 quotes, 2 colons, 2 commas
    monkeypatch.setattr(rules, "_PIECE", 7)  # pieces end inside values, keys and lines
    assert rules.byte_counts(data) == (40, 10, 10)
    assert rules.byte_counts(memoryview(data)[1:], b"{") == (4,)  # the first brace cut off
